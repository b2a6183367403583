/* 07_loss_scaling.c - why fp16 training needs loss scaling, measured.

   What it teaches: a small MLP learns to tell four kinds of 8x8 images
   apart, five times over: in FP32, TF32, BF16, FP16 without loss scaling and
   FP16 with a dynamic loss scaler (tensorcore.h section 3, GradScaler rules).
   Every matrix product goes through the header's bit-accurate Tensor Core
   model (tc_gemm, A100) with operands rounded to the run's format; weights
   are kept in fp32 ("master weights") and rounded for each forward pass;
   activations and gradients are stored in the run's format.

   The data: on first run, 4 classes x 150 images (bars, crosses, rings,
   diagonals with noise) are drawn and written as PNGs into ./tc_dataset/
   and then loaded back with stb_image; `07_loss_scaling DIR` loads an
   existing folder DIR/0 .. DIR/3, each holding 000.png, 001.png, ... (8x8 grey).

   The setup that makes underflow real: the loss is multiplied by 2^-18 and
   the learning rate by 2^18. For SGD in FP32 that changes nothing (the
   update lr * grad is the same), and BF16/TF32 have fp32's exponent range,
   so they do not notice either. It stands in for the tiny gradients of deep
   networks (Micikevicius et al. 2017 found 67% of SSD's activation gradients
   flush to zero in fp16). In fp16 the gradients now sit near 2^-24, the
   smallest subnormal: about 12% round to zero and most of the rest keep
   only a few bits as subnormals. The dynamic scaler uses a growth interval
   of 10 instead of 2000 so that its trajectory fits in 400 steps.

   Run:    make lessons && cd build && ./lessons/07_loss_scaling
           ./lessons/07_loss_scaling --check   FP32 only; exits 1 below 90% test accuracy
   Prints: the share of gradient values that underflow in fp16, each run's
           loss and accuracy, the loss scale's trajectory with skipped steps.
   Writes: 07_grad_exponents.png, 07_loss_curves.png, 07_loss_scale.png

   Exercise: build with -DLOSS_MULTIPLIER_LOG2=-15. How much of the gap
   closes? Then set the scaler's init_scale to 2^30: how many steps are
   skipped before it settles, and why does that cost so little? */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "plot.h"
#include "stb_image.h"
#include "stb_image_write.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { SIDE = 8, IN = SIDE * SIDE, HID = 32, OUT = 4, PER_CLASS = 150, TRAIN_PER_CLASS = 100,
       BATCH = 32, STEPS = 400, RUNS = 5, HIST_BINS = 50 };
#ifndef LOSS_MULTIPLIER_LOG2
#define LOSS_MULTIPLIER_LOG2 (-18)
#endif
#define LOSS_MULTIPLIER ldexpf(1.0f, LOSS_MULTIPLIER_LOG2)
#define LEARNING_RATE 0.03f
#define CHECK_ACCURACY 0.90
#define SCALER_GROWTH_INTERVAL 10           /* GradScaler's 2000 is longer than this whole run */

/* ------------------------------------------------------------ dataset */

static uint32_t rng = 12345u;
static uint32_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static float rnd_unit(void) { return (float)(rnd() >> 8) / 16777216.0f; }

/* One 8x8 image of class c: 0 horizontal bar, 1 vertical bar, 2 ring, 3 diagonal. */
static void draw(int c, unsigned char *px) {
    int x, y, p = (int)(rnd() % 5) + 1, q = (int)(rnd() % 2);
    for (y = 0; y < SIDE; y++)
        for (x = 0; x < SIDE; x++) {
            int on;
            if (c == 0) on = y == p || y == p + 1;
            else if (c == 1) on = x == p || x == p + 1;
            else if (c == 2) { int dx = 2 * x - 7, dy = 2 * y - 7, r = dx * dx + dy * dy; on = r >= 16 - 8 * q && r <= 36 + 8 * q; }
            else on = q ? x == y || x == y + 1 : x + y == 7 || x + y == 8;
            px[y * SIDE + x] = (unsigned char)(on ? 160 + rnd() % 96 : rnd() % 90);
        }
}

static void make_dataset(const char *dir) {
    unsigned char px[IN];
    char path[512];
    int c, i;
    mkdir(dir, 0755);
    for (c = 0; c < OUT; c++) {
        snprintf(path, sizeof path, "%s/%d", dir, c);
        mkdir(path, 0755);
        for (i = 0; i < PER_CLASS; i++) {
            draw(c, px);
            snprintf(path, sizeof path, "%s/%d/%03d.png", dir, c, i);
            if (!stbi_write_png(path, SIDE, SIDE, 1, px, SIDE)) { fprintf(stderr, "cannot write %s\n", path); exit(1); }
        }
    }
}

/* Loads DIR/c/000.png .. into x (values 0..1) and labels; the first
   TRAIN_PER_CLASS of each class train, the rest test. */
static int load_dataset(const char *dir, float *x, int *label) {
    char path[512];
    int c, i, w, h, n;
    for (c = 0; c < OUT; c++)
        for (i = 0; i < PER_CLASS; i++) {
            int row = i < TRAIN_PER_CLASS ? c * TRAIN_PER_CLASS + i
                                          : OUT * TRAIN_PER_CLASS + c * (PER_CLASS - TRAIN_PER_CLASS) + i - TRAIN_PER_CLASS;
            unsigned char *px;
            snprintf(path, sizeof path, "%s/%d/%03d.png", dir, c, i);
            px = stbi_load(path, &w, &h, &n, 1);
            if (!px || w != SIDE || h != SIDE) { fprintf(stderr, "cannot load %s as an %dx%d image\n", path, SIDE, SIDE); stbi_image_free(px); return -1; }
            for (n = 0; n < IN; n++) x[row * IN + n] = px[n] / 255.0f;
            label[row] = c;
            stbi_image_free(px);
        }
    return 0;
}

/* ------------------------------------------------------------ one run */

typedef struct {
    const char *name;
    tc_dtype dtype;     /* operands and stored activations/gradients */
    int scaled;         /* dynamic loss scaling */
} run_spec;

typedef struct {
    float w1[IN * HID], b1[HID], w2[HID * OUT], b2[OUT];   /* fp32 master weights */
} mlp;

typedef struct {
    double loss[STEPS];
    double scale[STEPS];
    int skipped[STEPS];
    double accuracy;
    long grads_nonzero, grads_flushed;   /* fp32-nonzero gradient values, and those fp16 storage makes 0 */
    long hist[HIST_BINS];                /* log2|g| of the first step's gradients, from -HIST_BINS+10 */
} run_result;

/* D = A (M x K) * B (K x N), row-major, through the Tensor Core model for
   the narrow formats and plain fp32 arithmetic for FP32. Operands must
   already be rounded to `t`; the fp32 result is then stored in `t`. */
static void matmul(tc_dtype t, int M, int N, int K, const float *A, const float *B, float *D) {
    static float zero[BATCH * IN > IN * HID ? BATCH * IN : IN * HID];
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
    if (tc_gemm(TC_ARCH_A100, t, TC_FP32, M, N, K, A, K, B, N, zero, N, D, N) != TC_OK) {
        fprintf(stderr, "tc_gemm refused a %dx%dx%d product\n", M, N, K);
        exit(1);
    }
    tc_round_array(t, D, D, (size_t)M * N, TC_RN);
}

static void transpose(const float *a, int rows, int cols, float *out) {
    int i, j;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) out[j * rows + i] = a[i * cols + j];
}

static void init_mlp(mlp *m) {
    int i;
    rng = 777u;   /* every run starts from the same weights */
    for (i = 0; i < IN * HID; i++) m->w1[i] = (rnd_unit() - 0.5f) * 2.0f * sqrtf(6.0f / (IN + HID));
    for (i = 0; i < HID * OUT; i++) m->w2[i] = (rnd_unit() - 0.5f) * 2.0f * sqrtf(6.0f / (HID + OUT));
    memset(m->b1, 0, sizeof m->b1);
    memset(m->b2, 0, sizeof m->b2);
}

/* Forward for n rows: hidden (n x HID, after ReLU) and logits (n x OUT). */
static void forward(tc_dtype t, const mlp *m, const float *x, int n, float *hid, float *logits) {
    static float w1[IN * HID], w2[HID * OUT], xr[BATCH * IN];
    int i, j;
    tc_round_array(t, m->w1, w1, IN * HID, TC_RN);
    tc_round_array(t, m->w2, w2, HID * OUT, TC_RN);
    tc_round_array(t, x, xr, (size_t)n * IN, TC_RN);
    matmul(t, n, HID, IN, xr, w1, hid);
    for (i = 0; i < n; i++)
        for (j = 0; j < HID; j++) {
            float v = tc_round(t, hid[i * HID + j] + m->b1[j], TC_RN);
            hid[i * HID + j] = v > 0 ? v : 0;
        }
    matmul(t, n, OUT, HID, hid, w2, logits);
    for (i = 0; i < n; i++)
        for (j = 0; j < OUT; j++) logits[i * OUT + j] = tc_round(t, logits[i * OUT + j] + m->b2[j], TC_RN);
}

/* Softmax cross-entropy in fp32 (as AMP keeps it); returns the mean loss
   and writes dlogits = d(loss * multiplier * scale)/dlogits. */
static double softmax_xent(const float *logits, const int *y, int n, float mult, float *dlogits) {
    double loss = 0;
    int i, j;
    for (i = 0; i < n; i++) {
        float mx = logits[i * OUT], sum = 0, p[OUT];
        for (j = 1; j < OUT; j++) if (logits[i * OUT + j] > mx) mx = logits[i * OUT + j];
        for (j = 0; j < OUT; j++) { p[j] = expf(logits[i * OUT + j] - mx); sum += p[j]; }
        for (j = 0; j < OUT; j++) {
            p[j] /= sum;
            dlogits[i * OUT + j] = (p[j] - (j == y[i] ? 1.0f : 0.0f)) * mult / (float)n;
        }
        loss -= log(p[y[i]] > 1e-30f ? p[y[i]] : 1e-30f);
    }
    return loss / n;
}

/* Stores a gradient tensor in the run's format, counting how many nonzero
   values fp16 storage flushes to zero. */
static void store_grad(tc_dtype t, float *g, size_t n, run_result *r) {
    size_t i;
    for (i = 0; i < n; i++) {
        float v = tc_round(t, g[i], TC_RN);
        if (g[i] != 0) { r->grads_nonzero++; r->grads_flushed += v == 0; }
        g[i] = v;
    }
}

static void histogram(const float *g, size_t n, long *hist) {
    size_t i;
    for (i = 0; i < n; i++) {
        int e, bin;
        if (g[i] == 0 || !tc_is_finite_f32(g[i])) continue;
        frexpf(g[i], &e);                      /* |g| in [2^(e-1), 2^e) */
        bin = (e - 1) + HIST_BINS - 10;        /* bins cover 2^-40 .. 2^9 */
        if (bin < 0) bin = 0;
        if (bin >= HIST_BINS) bin = HIST_BINS - 1;
        hist[bin]++;
    }
}

static double accuracy(tc_dtype t, const mlp *m, const float *x, const int *y, int n) {
    float hid[BATCH * HID], logits[BATCH * OUT];
    int i, j, b, correct = 0;
    for (b = 0; b < n; b += BATCH) {
        int rows = n - b < BATCH ? n - b : BATCH;
        forward(t, m, x + (size_t)b * IN, rows, hid, logits);
        for (i = 0; i < rows; i++) {
            int best = 0;
            for (j = 1; j < OUT; j++) if (logits[i * OUT + j] > logits[i * OUT + best]) best = j;
            correct += best == y[b + i];
        }
    }
    return (double)correct / n;
}

static void train(const run_spec *spec, const float *x, const int *y, int n_train, const float *xt, const int *yt,
                  int n_test, run_result *r) {
    static mlp m;
    static float xb[BATCH * IN], hid[BATCH * HID], logits[BATCH * OUT], dlog[BATCH * OUT];
    static float dw1[IN * HID], dw2[HID * OUT], dhid[BATCH * HID], db1[HID], db2[OUT];
    static float hT[HID * BATCH], w2T[OUT * HID], xT[IN * BATCH], w2r[HID * OUT];
    int yb[BATCH], step, i, j;
    tc_dtype t = spec->dtype;
    tc_scaler sc;
    tc_scaler_desc desc;
    memset(r, 0, sizeof *r);
    memset(&desc, 0, sizeof desc);
    desc.growth_interval = SCALER_GROWTH_INTERVAL;
    desc.is_static = !spec->scaled;
    desc.init_scale = spec->scaled ? 0.0f : 1.0f;   /* unscaled = a static scale of 1 */
    if (tc_scaler_init(&sc, &desc) != TC_OK) { fprintf(stderr, "scaler init failed\n"); exit(1); }
    init_mlp(&m);
    rng = 4242u;   /* the same batches in every run */
    for (step = 0; step < STEPS; step++) {
        tc_grad_array grads[4];
        int found_inf = 0;
        tc_status st;
        for (i = 0; i < BATCH; i++) {
            int k = (int)(rnd() % (uint32_t)n_train);
            memcpy(xb + i * IN, x + (size_t)k * IN, IN * sizeof(float));
            yb[i] = y[k];
        }
        forward(t, &m, xb, BATCH, hid, logits);
        r->loss[step] = softmax_xent(logits, yb, BATCH, LOSS_MULTIPLIER * sc.scale, dlog);
        if (step == 0) histogram(dlog, BATCH * OUT, r->hist);
        store_grad(t, dlog, BATCH * OUT, r);
        /* dW2 = H^T dlogits, dH = dlogits W2^T (masked by ReLU), dW1 = X^T dH */
        transpose(hid, BATCH, HID, hT);
        matmul(t, HID, OUT, BATCH, hT, dlog, dw2);
        tc_round_array(t, m.w2, w2r, HID * OUT, TC_RN);
        transpose(w2r, HID, OUT, w2T);
        matmul(t, BATCH, HID, OUT, dlog, w2T, dhid);
        for (i = 0; i < BATCH * HID; i++) if (hid[i] <= 0) dhid[i] = 0;
        tc_round_array(t, xb, xb, BATCH * IN, TC_RN);
        transpose(xb, BATCH, IN, xT);
        matmul(t, IN, HID, BATCH, xT, dhid, dw1);
        for (j = 0; j < HID; j++) { db1[j] = 0; for (i = 0; i < BATCH; i++) db1[j] += dhid[i * HID + j]; }
        for (j = 0; j < OUT; j++) { db2[j] = 0; for (i = 0; i < BATCH; i++) db2[j] += dlog[i * OUT + j]; }
        if (step == 0) { histogram(dw2, HID * OUT, r->hist); histogram(dhid, BATCH * HID, r->hist); histogram(dw1, IN * HID, r->hist); }
        store_grad(t, dw1, IN * HID, r); store_grad(t, dw2, HID * OUT, r);
        store_grad(t, db1, HID, r); store_grad(t, db2, OUT, r);
        /* unscale with the header's fused pass, then step unless it overflowed */
        grads[0].dtype = TC_FP32; grads[0].data = dw1; grads[0].count = IN * HID;
        grads[1].dtype = TC_FP32; grads[1].data = dw2; grads[1].count = HID * OUT;
        grads[2].dtype = TC_FP32; grads[2].data = db1; grads[2].count = HID;
        grads[3].dtype = TC_FP32; grads[3].data = db2; grads[3].count = OUT;
        tc_scaler_unscale(&sc, grads, 4, &found_inf);
        r->scale[step] = sc.scale;
        r->skipped[step] = found_inf;
        if (!found_inf) {
            float lr = LEARNING_RATE / LOSS_MULTIPLIER;
            for (i = 0; i < IN * HID; i++) m.w1[i] -= lr * dw1[i];
            for (i = 0; i < HID * OUT; i++) m.w2[i] -= lr * dw2[i];
            for (i = 0; i < HID; i++) m.b1[i] -= lr * db1[i];
            for (i = 0; i < OUT; i++) m.b2[i] -= lr * db2[i];
        }
        st = tc_scaler_update(&sc, found_inf);
        if (st != TC_OK) printf("   step %d: %s\n", step, tc_status_string(st));
    }
    r->accuracy = accuracy(t, &m, xt, yt, n_test);
}

/* ------------------------------------------------------------ pictures */

static void plot_histogram(const run_result *r) {
    static const char *labels[HIST_BINS];
    static char text[HIST_BINS][8];
    double v[HIST_BINS];
    plot_chart_desc d;
    plot_chart *ch;
    int i;
    for (i = 0; i < HIST_BINS; i++) {
        snprintf(text[i], sizeof text[i], "%d", i - HIST_BINS + 10);
        labels[i] = i % 5 == 0 ? text[i] : "";
        v[i] = (double)r->hist[i];
    }
    memset(&d, 0, sizeof d);
    d.title = "FP32 gradients at step 0: exponent of |g|, loss x LOSS_MULTIPLIER";
    d.xlabel = "log2 |g|  (fp16: subnormal from -24, normal from -14)";
    d.ylabel = "values";
    ch = plot_chart_new(900, 420, &d);
    plot_chart_bars(ch, labels, v, HIST_BINS, "gradient values");
    plot_chart_vline(ch, -24 + HIST_BINS - 10, "fp16 min subnormal 2^-24");
    plot_chart_vline(ch, -14 + HIST_BINS - 10, "fp16 min normal 2^-14");
    plot_chart_write_png(ch, "07_grad_exponents.png");
    plot_chart_free(ch);
}

static void plot_runs(const run_spec *specs, const run_result *res) {
    static double xs[STEPS], ys[STEPS];
    plot_chart_desc d;
    plot_chart *ch;
    int k, i, w = 20;
    memset(&d, 0, sizeof d);
    d.title = "training loss (mean of 20 steps)";
    d.xlabel = "step";
    d.ylabel = "cross-entropy";
    ch = plot_chart_new(900, 480, &d);
    for (k = 0; k < RUNS; k++) {
        int n = 0;
        for (i = w - 1; i < STEPS; i += 5) {
            int j;
            double s = 0;
            for (j = i - w + 1; j <= i; j++) s += res[k].loss[j];
            xs[n] = i; ys[n] = s / w; n++;
        }
        plot_chart_line(ch, xs, ys, n, specs[k].name);
    }
    plot_chart_write_png(ch, "07_loss_curves.png");
    plot_chart_free(ch);

    memset(&d, 0, sizeof d);
    d.title = "FP16 dynamic loss scale (markers: skipped steps)";
    d.xlabel = "step";
    d.ylabel = "scale";
    d.logy = 1;
    ch = plot_chart_new(900, 420, &d);
    for (i = 0; i < STEPS; i++) { xs[i] = i; ys[i] = res[RUNS - 1].scale[i]; }
    plot_chart_line(ch, xs, ys, STEPS, "scale");
    {
        int n = 0;
        for (i = 0; i < STEPS; i++)
            if (res[RUNS - 1].skipped[i]) { xs[n] = i; ys[n] = res[RUNS - 1].scale[i]; n++; }
        if (n) plot_chart_points(ch, xs, ys, n, "skipped (Inf/NaN)");
    }
    plot_chart_write_png(ch, "07_loss_scale.png");
    plot_chart_free(ch);
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv) {
    static const run_spec specs[RUNS] = {
        { "FP32", TC_FP32, 0 }, { "TF32", TC_TF32, 0 }, { "BF16", TC_BF16, 0 },
        { "FP16, no scaling", TC_FP16, 0 }, { "FP16 + dynamic scaling", TC_FP16, 1 },
    };
    static run_result res[RUNS];
    static float x[OUT * PER_CLASS * IN];
    static int y[OUT * PER_CLASS];
    const char *dir = "tc_dataset";
    int check_only = 0, i, k, runs;
    const int n_train = OUT * TRAIN_PER_CLASS, n_test = OUT * (PER_CLASS - TRAIN_PER_CLASS);
    struct stat sb;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0) check_only = 1;
        else dir = argv[i];
    }
    if (stat(dir, &sb) != 0) {
        printf("drawing %d images into %s/ (first run)\n", OUT * PER_CLASS, dir);
        make_dataset(dir);
    }
    if (load_dataset(dir, x, y) != 0) return 1;
    printf("loaded %d training and %d test images (%dx%d) from %s/\n", n_train, n_test, SIDE, SIDE, dir);
    printf("MLP %d-%d-%d, batch %d, %d SGD steps, loss x 2^%d and learning rate x 2^%d\n", IN, HID, OUT, BATCH, STEPS,
           LOSS_MULTIPLIER_LOG2, -LOSS_MULTIPLIER_LOG2);
    printf("(in FP32 that rescaling changes nothing; it stands in for a deep net's tiny gradients)\n\n");

    runs = check_only ? 1 : RUNS;
    for (k = 0; k < runs; k++) {
        long skipped = 0;
        train(&specs[k], x, y, n_train, x + (size_t)n_train * IN, y + n_train, n_test, &res[k]);
        for (i = 0; i < STEPS; i++) skipped += res[k].skipped[i];
        printf("%-24s final loss %.4f  test accuracy %5.1f%%  gradients flushed to 0 by storage: %5.2f%%  skipped steps %ld\n",
               specs[k].name, (res[k].loss[STEPS - 1] + res[k].loss[STEPS - 2] + res[k].loss[STEPS - 3]) / 3,
               100 * res[k].accuracy, res[k].grads_nonzero ? 100.0 * res[k].grads_flushed / res[k].grads_nonzero : 0.0, skipped);
    }
    if (!check_only) {
        const run_result *s = &res[RUNS - 1];
        printf("\nthe FP16 loss scale: starts at %g (GradScaler's 2^16), doubles after %d clean steps, halves on overflow\n",
               s->scale[0], SCALER_GROWTH_INTERVAL);
        for (i = 0; i < STEPS; i++)
            if (i == 0 || s->scale[i] != s->scale[i - 1] || s->skipped[i])
                printf("  step %3d: scale %-12g%s\n", i, s->scale[i], s->skipped[i] ? "  overflow: step skipped" : "");
        plot_histogram(&res[0]);
        plot_runs(specs, res);
        printf("\nwrote 07_grad_exponents.png, 07_loss_curves.png, 07_loss_scale.png\n");
        printf("\nWhat happened: without scaling, FP16 stores the scaled-down gradients near or\n"
               "below 2^-24: the share printed above becomes exactly 0 and most of the rest\n"
               "keep only a few bits as subnormals, so FP16 learns slower.\n"
               "The dynamic scaler multiplies the loss until the gradients sit in fp16's range\n"
               "and divides them back in fp32 before the fp32 master weights are updated.\n"
               "BF16 and TF32 keep fp32's 8 exponent bits, so they need no scaling.\n");
        printf("\nExercise: build with -DLOSS_MULTIPLIER_LOG2=-15. How much of the gap closes?\n"
               "Then set init_scale to 2^30: how many steps are skipped before it settles?\n");
    }
    if (res[0].accuracy < CHECK_ACCURACY) {
        printf("check FAILED: FP32 test accuracy %.1f%% is below %.0f%%\n", 100 * res[0].accuracy, 100 * CHECK_ACCURACY);
        return 1;
    }
    printf("check: FP32 test accuracy %.1f%% >= %.0f%%\n", 100 * res[0].accuracy, 100 * CHECK_ACCURACY);
    return 0;
}
