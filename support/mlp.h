/* mlp.h - the training run of lessons/07_loss_scaling.c, written once.

   Included (after tensorcore.h with TENSORCORE_IMPLEMENTATION) by the lesson
   and by cuda/loss_scaling.cu, which repeats the run on a GPU with real
   fp16/bf16 arithmetic and compares it with the CPU run bit for bit.

   What is here:
   - the dataset: 4 classes x 150 procedural 8x8 grey images (pixels only;
     the lesson writes them as PNGs and reads them back, the CUDA program
     uses them directly);
   - the MLP 64-32-4 and its elementwise math - bias and ReLU, softmax and
     its cross-entropy gradient, the ReLU mask, the bias gradients' column
     sums, the SGD step - as TC_HOST_DEVICE functions that the GPU kernels
     call too;
   - the CPU training loop, every product through tc_gemm for a given arch.

   Why the elementwise math agrees bit for bit between a CPU and a GPU: it
   uses only exactly rounded IEEE operations (+ - * /, fma, conversions),
   never a math library function whose last bit may differ (expf: glibc and
   CUDA differ in the last place). mlp_exp therefore is a fixed range
   reduction and polynomial in double, rounded once to float. A product
   followed by a sum is written as two statements, so that a C compiler
   contracting only within an expression (clang's default) cannot fuse it
   into an FMA; nvcc fuses across statements unless told not to, so
   cuda/loss_scaling.cu is compiled with -fmad=false (see the Makefile). */
#ifndef MLP_H
#define MLP_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MLP_SIDE = 8, MLP_IN = MLP_SIDE * MLP_SIDE, MLP_HID = 32, MLP_OUT = 4, MLP_PER_CLASS = 150,
       MLP_TRAIN_PER_CLASS = 100, MLP_BATCH = 32, MLP_STEPS = 400, MLP_HIST_BINS = 50,
       MLP_IMAGES = MLP_OUT * MLP_PER_CLASS, MLP_TRAIN = MLP_OUT * MLP_TRAIN_PER_CLASS,
       MLP_TEST = MLP_IMAGES - MLP_TRAIN };
#ifndef LOSS_MULTIPLIER_LOG2
#define LOSS_MULTIPLIER_LOG2 (-18)
#endif
#define MLP_LOSS_MULTIPLIER ldexpf(1.0f, LOSS_MULTIPLIER_LOG2)
#define MLP_LEARNING_RATE 0.03f
#define MLP_GROWTH_INTERVAL 10   /* GradScaler's 2000 is longer than this whole run */
#ifndef MLP_INIT_SCALE_LOG2
#define MLP_INIT_SCALE_LOG2 16   /* GradScaler's default init_scale, 2^16; lesson 07's exercise changes it */
#endif

/* ------------------------------------------------------------ dataset */

static uint32_t mlp_rng = 12345u;
static uint32_t mlp_rand(void) { mlp_rng ^= mlp_rng << 13; mlp_rng ^= mlp_rng >> 17; mlp_rng ^= mlp_rng << 5; return mlp_rng; }
static float mlp_rand_unit(void) { return (float)(mlp_rand() >> 8) / 16777216.0f; }

/* One 8x8 image of class c: 0 horizontal bar, 1 vertical bar, 2 ring, 3 diagonal. */
static void mlp_draw(int c, unsigned char *px) {
    int x, y, p = (int)(mlp_rand() % 5) + 1, q = (int)(mlp_rand() % 2);
    for (y = 0; y < MLP_SIDE; y++)
        for (x = 0; x < MLP_SIDE; x++) {
            int on;
            if (c == 0) on = y == p || y == p + 1;
            else if (c == 1) on = x == p || x == p + 1;
            else if (c == 2) { int dx = 2 * x - 7, dy = 2 * y - 7, r = dx * dx + dy * dy; on = r >= 16 - 8 * q && r <= 36 + 8 * q; }
            else on = q ? x == y || x == y + 1 : x + y == 7 || x + y == 8;
            px[y * MLP_SIDE + x] = (unsigned char)(on ? 160 + mlp_rand() % 96 : mlp_rand() % 90);
        }
}

/* All images, class by class: image i of class c at px + (c * MLP_PER_CLASS + i) * MLP_IN. */
static void mlp_draw_dataset(unsigned char *px) {
    int c, i;
    mlp_rng = 12345u;
    for (c = 0; c < MLP_OUT; c++)
        for (i = 0; i < MLP_PER_CLASS; i++) mlp_draw(c, px + ((size_t)c * MLP_PER_CLASS + (size_t)i) * MLP_IN);
}

/* Image i of class c becomes row mlp_row(c, i) of the data: the first
   MLP_TRAIN_PER_CLASS of each class train (rows 0 .. MLP_TRAIN-1), the
   rest test. Pixels become values 0..1. */
static int mlp_row(int c, int i) {
    return i < MLP_TRAIN_PER_CLASS ? c * MLP_TRAIN_PER_CLASS + i
                                   : MLP_TRAIN + c * (MLP_PER_CLASS - MLP_TRAIN_PER_CLASS) + i - MLP_TRAIN_PER_CLASS;
}

static void mlp_set_image(float *x, int *label, int c, int i, const unsigned char *px) {
    int row = mlp_row(c, i), n;
    for (n = 0; n < MLP_IN; n++) x[row * MLP_IN + n] = px[n] / 255.0f;
    label[row] = c;
}

/* The training batches of every step: row indices into the training set,
   the same in every run. */
static void mlp_batches(int *rows) {
    int i;
    mlp_rng = 4242u;
    for (i = 0; i < MLP_STEPS * MLP_BATCH; i++) rows[i] = (int)(mlp_rand() % (uint32_t)MLP_TRAIN);
}

/* ------------------------------------------------------------ elementwise math (CPU and GPU) */

/* e^x, correctly rounded to float except within ~2^-40 of a rounding
   boundary: x = k ln2 + r with |r| <= ln2/2, e^r by its Taylor series to
   r^13 (truncation error < 2e-16), times 2^k, all in double with fma; one
   rounding to float at the end. The coefficients 1/n! are divisions of
   exact integers, rounded by the compiler the same way on both sides. */
TC_HOST_DEVICE static float mlp_exp(float x) {
    double k, r, p;
    if (x != x) return x;
    if (x < -110.0f) return 0.0f;        /* e^x below half of fp32's smallest subnormal */
    if (x > 89.0f) return INFINITY;      /* beyond fp32's largest value */
    k = (double)x * 1.4426950408889634;  /* x / ln2, a statement of its own: never fused with the + 0.5 */
    k = floor(k + 0.5);
    r = fma(-k, 6.93147180369123816490e-01, (double)x);   /* ln2, high 32 bits: k * it is exact */
    r = fma(-k, 1.90821492927058770002e-10, r);           /* the rest of ln2 */
    p = 1.0 / 6227020800.0;
    p = fma(p, r, 1.0 / 479001600.0);
    p = fma(p, r, 1.0 / 39916800.0);
    p = fma(p, r, 1.0 / 3628800.0);
    p = fma(p, r, 1.0 / 362880.0);
    p = fma(p, r, 1.0 / 40320.0);
    p = fma(p, r, 1.0 / 5040.0);
    p = fma(p, r, 1.0 / 720.0);
    p = fma(p, r, 1.0 / 120.0);
    p = fma(p, r, 1.0 / 24.0);
    p = fma(p, r, 1.0 / 6.0);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    return (float)ldexp(p, (int)k);      /* exact: 2^k stays in double's normal range */
}

/* A hidden unit: the product (already stored in t) plus its bias, stored in t, ReLU. */
TC_HOST_DEVICE static float mlp_hidden(tc_dtype t, float product, float bias) {
    float v = tc_round(t, product + bias, TC_RN);
    return v > 0 ? v : 0;
}

/* A logit: the product (stored in t) plus its bias, stored in t. */
TC_HOST_DEVICE static float mlp_logit(tc_dtype t, float product, float bias) {
    return tc_round(t, product + bias, TC_RN);
}

/* Softmax cross-entropy of one row of MLP_OUT logits, in fp32 (as AMP keeps
   it): writes dlogits = d(loss * mult) / dlogits of the batch mean over n
   rows and returns the probability of the label (the loss is -log of it). */
TC_HOST_DEVICE static float mlp_softmax_xent_row(const float *logits, int label, float mult, int n, float *dlogits) {
    float mx = logits[0], sum = 0, p[MLP_OUT];
    int j;
    for (j = 1; j < MLP_OUT; j++) if (logits[j] > mx) mx = logits[j];
    for (j = 0; j < MLP_OUT; j++) { p[j] = mlp_exp(logits[j] - mx); sum += p[j]; }
    for (j = 0; j < MLP_OUT; j++) {
        float d;
        p[j] /= sum;
        d = (p[j] - (j == label ? 1.0f : 0.0f)) * mult;
        dlogits[j] = d / (float)n;
    }
    return p[label];
}

/* The gradient through ReLU: none where the unit was off. */
TC_HOST_DEVICE static float mlp_relu_backward(float grad, float hidden) { return hidden <= 0 ? 0 : grad; }

/* A bias gradient: n values a[0], a[stride], ... summed in order in fp32. */
TC_HOST_DEVICE static float mlp_sum(const float *a, int n, int stride) {
    float s = 0;
    int i;
    for (i = 0; i < n; i++) s += a[(size_t)i * (size_t)stride];
    return s;
}

/* One SGD step on an fp32 master weight. */
TC_HOST_DEVICE static float mlp_sgd(float w, float lr, float grad) {
    float step = lr * grad;
    return w - step;
}

/* ------------------------------------------------------------ the CPU run */

typedef struct {
    const char *name;
    tc_dtype dtype;     /* operands and stored activations/gradients */
    int scaled;         /* dynamic loss scaling */
} mlp_spec;

/* The lesson's five runs; the GPU repeats the last three. */
enum { MLP_RUNS = 5 };
static const mlp_spec mlp_runs[MLP_RUNS] = {
    { "FP32", TC_FP32, 0 }, { "TF32", TC_TF32, 0 }, { "BF16", TC_BF16, 0 },
    { "FP16, no scaling", TC_FP16, 0 }, { "FP16 + dynamic scaling", TC_FP16, 1 },
};

typedef struct {
    float w1[MLP_IN * MLP_HID], b1[MLP_HID], w2[MLP_HID * MLP_OUT], b2[MLP_OUT];   /* fp32 master weights */
} mlp_model;

typedef struct {
    double loss[MLP_STEPS];
    double scale[MLP_STEPS];             /* the loss scale used in each step */
    int skipped[MLP_STEPS];
    int status[MLP_STEPS];               /* tc_scaler_update's report after each step */
    tc_scaler scaler;                    /* after the last step */
    double accuracy;
    long grads_nonzero, grads_flushed;   /* fp32-nonzero gradient values, and those storage in the run's format makes 0 */
    long hist[MLP_HIST_BINS];            /* log2|g| of the first step's gradients, from -MLP_HIST_BINS+10 */
} mlp_result;

/* The run's loss scaler: dynamic with a short growth interval, or a static
   scale of 1 (no scaling). */
static void mlp_scaler(const mlp_spec *spec, tc_scaler *s) {
    tc_scaler_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.growth_interval = MLP_GROWTH_INTERVAL;
    desc.is_static = !spec->scaled;
    desc.init_scale = spec->scaled ? ldexpf(1.0f, MLP_INIT_SCALE_LOG2) : 1.0f;
    if (tc_scaler_init(s, &desc) != TC_OK) { fprintf(stderr, "scaler init failed\n"); exit(1); }
}

static void mlp_init(mlp_model *m) {
    int i;
    mlp_rng = 777u;   /* every run starts from the same weights */
    for (i = 0; i < MLP_IN * MLP_HID; i++) m->w1[i] = (mlp_rand_unit() - 0.5f) * 2.0f * sqrtf(6.0f / (MLP_IN + MLP_HID));
    for (i = 0; i < MLP_HID * MLP_OUT; i++) m->w2[i] = (mlp_rand_unit() - 0.5f) * 2.0f * sqrtf(6.0f / (MLP_HID + MLP_OUT));
    memset(m->b1, 0, sizeof m->b1);
    memset(m->b2, 0, sizeof m->b2);
}

/* D = A (M x K) * B (K x N), row-major, through the Tensor Core model of
   `arch` for the narrow formats and plain fp32 arithmetic for FP32.
   Operands must already be rounded to `t`; the fp32 result is then stored
   in `t`. */
static void mlp_matmul(tc_arch arch, tc_dtype t, int M, int N, int K, const float *A, const float *B, float *D) {
    int i, j, k;
    if (t == TC_FP32) {
        for (i = 0; i < M; i++)
            for (j = 0; j < N; j++) {
                float acc = 0;
                for (k = 0; k < K; k++) acc += A[i * K + k] * B[k * N + j];
                D[i * N + j] = acc;
            }
        return;
    }
    if (tc_gemm(arch, t, TC_FP32, M, N, K, A, K, B, N, NULL, N, D, N) != TC_OK) {
        fprintf(stderr, "tc_gemm refused a %dx%dx%d product\n", M, N, K);
        exit(1);
    }
    tc_round_array(t, D, D, (size_t)M * N, TC_RN);
}

static void mlp_transpose(const float *a, int rows, int cols, float *out) {
    int i, j;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) out[j * rows + i] = a[i * cols + j];
}

/* Forward for n <= MLP_BATCH rows: hidden (n x HID, after ReLU) and logits (n x OUT). */
static void mlp_forward(tc_arch arch, tc_dtype t, const mlp_model *m, const float *x, int n, float *hid, float *logits) {
    static float w1[MLP_IN * MLP_HID], w2[MLP_HID * MLP_OUT], xr[MLP_BATCH * MLP_IN];
    int i, j;
    tc_round_array(t, m->w1, w1, MLP_IN * MLP_HID, TC_RN);
    tc_round_array(t, m->w2, w2, MLP_HID * MLP_OUT, TC_RN);
    tc_round_array(t, x, xr, (size_t)n * MLP_IN, TC_RN);
    mlp_matmul(arch, t, n, MLP_HID, MLP_IN, xr, w1, hid);
    for (i = 0; i < n; i++)
        for (j = 0; j < MLP_HID; j++) hid[i * MLP_HID + j] = mlp_hidden(t, hid[i * MLP_HID + j], m->b1[j]);
    mlp_matmul(arch, t, n, MLP_OUT, MLP_HID, hid, w2, logits);
    for (i = 0; i < n; i++)
        for (j = 0; j < MLP_OUT; j++) logits[i * MLP_OUT + j] = mlp_logit(t, logits[i * MLP_OUT + j], m->b2[j]);
}

/* The loss of a row whose label has probability p (the GPU run's loss is
   formed from its p with this, on the host). */
static double mlp_row_loss(float p) { return -log(p > 1e-30f ? p : 1e-30f); }

/* Stores a gradient tensor in the run's format, counting how many nonzero
   values the storage flushes to zero. */
static void mlp_store_grad(tc_dtype t, float *g, size_t n, mlp_result *r) {
    size_t i;
    for (i = 0; i < n; i++) {
        float v = tc_round(t, g[i], TC_RN);
        if (g[i] != 0) { r->grads_nonzero++; r->grads_flushed += v == 0; }
        g[i] = v;
    }
}

static void mlp_histogram(const float *g, size_t n, long *hist) {
    size_t i;
    for (i = 0; i < n; i++) {
        int e, bin;
        if (g[i] == 0 || !tc_is_finite_f32(g[i])) continue;
        frexpf(g[i], &e);                          /* |g| in [2^(e-1), 2^e) */
        bin = (e - 1) + MLP_HIST_BINS - 10;        /* bins cover 2^-40 .. 2^9 */
        if (bin < 0) bin = 0;
        if (bin >= MLP_HIST_BINS) bin = MLP_HIST_BINS - 1;
        hist[bin]++;
    }
}

/* Test accuracy of a model, in batches of MLP_BATCH rows. */
static double mlp_accuracy(tc_arch arch, tc_dtype t, const mlp_model *m, const float *x, const int *y, int n) {
    float hid[MLP_BATCH * MLP_HID], logits[MLP_BATCH * MLP_OUT];
    int i, j, b, correct = 0;
    for (b = 0; b < n; b += MLP_BATCH) {
        int rows = n - b < MLP_BATCH ? n - b : MLP_BATCH;
        mlp_forward(arch, t, m, x + (size_t)b * MLP_IN, rows, hid, logits);
        for (i = 0; i < rows; i++) {
            int best = 0;
            for (j = 1; j < MLP_OUT; j++) if (logits[i * MLP_OUT + j] > logits[i * MLP_OUT + best]) best = j;
            correct += best == y[b + i];
        }
    }
    return (double)correct / n;
}

/* One training run: MLP_STEPS SGD steps on the batches of mlp_batches from
   the training rows of x/y (MLP_TRAIN of them, then MLP_TEST test rows);
   the final model in *m, the record in *r. */
static void mlp_train(const mlp_spec *spec, tc_arch arch, const float *x, const int *y, mlp_model *m, mlp_result *r) {
    enum { IN = MLP_IN, HID = MLP_HID, OUT = MLP_OUT, BATCH = MLP_BATCH };
    static float xb[BATCH * IN], hid[BATCH * HID], logits[BATCH * OUT], dlog[BATCH * OUT];
    static float dw1[IN * HID], dw2[HID * OUT], dhid[BATCH * HID], db1[HID], db2[OUT];
    static float hT[HID * BATCH], w2T[OUT * HID], xT[IN * BATCH], w2r[HID * OUT];
    static int rows[MLP_STEPS * BATCH];
    const float lr = MLP_LEARNING_RATE / MLP_LOSS_MULTIPLIER;
    int yb[BATCH], step, i, j;
    tc_dtype t = spec->dtype;
    memset(r, 0, sizeof *r);
    mlp_scaler(spec, &r->scaler);
    mlp_init(m);
    mlp_batches(rows);
    for (step = 0; step < MLP_STEPS; step++) {
        tc_scaler *sc = &r->scaler;
        tc_grad_array grads[4];
        int found_inf = 0;
        double loss = 0;
        for (i = 0; i < BATCH; i++) {
            memcpy(xb + i * IN, x + (size_t)rows[step * BATCH + i] * IN, IN * sizeof(float));
            yb[i] = y[rows[step * BATCH + i]];
        }
        mlp_forward(arch, t, m, xb, BATCH, hid, logits);
        for (i = 0; i < BATCH; i++)
            loss += mlp_row_loss(mlp_softmax_xent_row(logits + i * OUT, yb[i], MLP_LOSS_MULTIPLIER * sc->scale, BATCH, dlog + i * OUT));
        r->loss[step] = loss / BATCH;
        if (step == 0) mlp_histogram(dlog, BATCH * OUT, r->hist);
        mlp_store_grad(t, dlog, BATCH * OUT, r);
        /* dW2 = H^T dlogits, dH = dlogits W2^T (masked by ReLU), dW1 = X^T dH */
        mlp_transpose(hid, BATCH, HID, hT);
        mlp_matmul(arch, t, HID, OUT, BATCH, hT, dlog, dw2);
        tc_round_array(t, m->w2, w2r, HID * OUT, TC_RN);
        mlp_transpose(w2r, HID, OUT, w2T);
        mlp_matmul(arch, t, BATCH, HID, OUT, dlog, w2T, dhid);
        for (i = 0; i < BATCH * HID; i++) dhid[i] = mlp_relu_backward(dhid[i], hid[i]);
        tc_round_array(t, xb, xb, BATCH * IN, TC_RN);
        mlp_transpose(xb, BATCH, IN, xT);
        mlp_matmul(arch, t, IN, HID, BATCH, xT, dhid, dw1);
        for (j = 0; j < HID; j++) db1[j] = mlp_sum(dhid + j, BATCH, HID);
        for (j = 0; j < OUT; j++) db2[j] = mlp_sum(dlog + j, BATCH, OUT);
        if (step == 0) { mlp_histogram(dw2, HID * OUT, r->hist); mlp_histogram(dhid, BATCH * HID, r->hist); mlp_histogram(dw1, IN * HID, r->hist); }
        mlp_store_grad(t, dw1, IN * HID, r); mlp_store_grad(t, dw2, HID * OUT, r);
        mlp_store_grad(t, db1, HID, r); mlp_store_grad(t, db2, OUT, r);
        /* unscale with the header's fused pass, then step unless it overflowed */
        grads[0].dtype = TC_FP32; grads[0].data = dw1; grads[0].count = IN * HID;
        grads[1].dtype = TC_FP32; grads[1].data = dw2; grads[1].count = HID * OUT;
        grads[2].dtype = TC_FP32; grads[2].data = db1; grads[2].count = HID;
        grads[3].dtype = TC_FP32; grads[3].data = db2; grads[3].count = OUT;
        tc_scaler_unscale(sc, grads, 4, &found_inf);
        r->scale[step] = sc->scale;
        r->skipped[step] = found_inf;
        if (!found_inf) {
            for (i = 0; i < IN * HID; i++) m->w1[i] = mlp_sgd(m->w1[i], lr, dw1[i]);
            for (i = 0; i < HID * OUT; i++) m->w2[i] = mlp_sgd(m->w2[i], lr, dw2[i]);
            for (i = 0; i < HID; i++) m->b1[i] = mlp_sgd(m->b1[i], lr, db1[i]);
            for (i = 0; i < OUT; i++) m->b2[i] = mlp_sgd(m->b2[i], lr, db2[i]);
        }
        r->status[step] = (int)tc_scaler_update(sc, found_inf);
        if (r->status[step] != TC_OK) printf("   step %d: %s\n", step, tc_status_string((tc_status)r->status[step]));
    }
    r->accuracy = mlp_accuracy(arch, t, m, x + (size_t)MLP_TRAIN * IN, y + MLP_TRAIN, MLP_TEST);
}

#endif
