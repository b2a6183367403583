/* Lesson 09: kernel fusion - fewer round trips to memory, fewer launches.

   Teaches: why XLA, cuDNN's fused BatchNorm+ReLU / BatchNorm+Add+ReLU and
   aggregated (multi-tensor) optimizer updates pay (seeds 001, 002). Part 1:
   the tail of a BatchNorm layer - scale, add bias, ReLU, then a residual
   add+ReLU - run as four kernels (each reads its input from DRAM and writes
   its output back), as two (BN+ReLU fused, then add+ReLU) and as one. Part 2:
   SGD with momentum over ResNet-50's 161 parameter tensors, one launch per
   tensor against one multi-tensor launch. The simulator predicts bytes,
   launches and time on seven GPUs: launched back to back, the host launches
   the next kernel while one runs, so each kernel costs the longer of its
   run and its launch (2.5 us, fitted to measured back-to-back launches;
   from a Python loop the interpreter's dispatch is that floor instead:
   about 20 us a call, measured on one RTX 5090 machine); the CPU
   computes every version and checks the results are bit-equal (the same
   fp32 operations in the same order, only the memory traffic differs).

   Sizes: part 1 predicts the BatchNorm output of ResNet-50's first stage at
   batch 256 (256 x 64 x 56 x 56 = 51.4M elements); the CPU check runs on 4M
   of them. Part 2 uses the real tensor sizes (25.6M parameters). The
   simulator runs slices and extends them (tc_sim_predict_elementwise).

   Run:    make tour        (or: build/lessons/09_fusion)
           build/lessons/09_fusion --adam US   the exercise's experiment
   Prints: bytes, launches and predicted time of each version; CPU checks;
           the measured launch costs the launch figure is fitted to; the
           published fused and unfused kernels beside their simulation.
   Writes: 09_fusion.png  predicted kernel time, launches and their overlap on A100
   Exercise: at the end of the output. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "plot.h"
#include "measured.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const gpus[] = { "v100", "a100", "h100", "rtx3090", "rtx4090", "b200", "rtx5090" };
#define N_GPUS ((int)(sizeof gpus / sizeof gpus[0]))
#define CHANNELS 64
#define MAX_TENSORS 200

static float relu(float v) { return v > 0.0f ? v : 0.0f; }

/* ---- part 1 on the CPU: the four operations, one pass each or one pass in all */
static void bn_unfused(float *out, float *t1, float *t2, const float *x, const float *res, const float *bias, float scale, long n) {
    long i;
    for (i = 0; i < n; i++) t1[i] = x[i] * scale;                 /* kernel 1: scale */
    for (i = 0; i < n; i++) t2[i] = t1[i] + bias[i % CHANNELS];   /* kernel 2: add bias */
    for (i = 0; i < n; i++) t1[i] = relu(t2[i]);                  /* kernel 3: ReLU */
    for (i = 0; i < n; i++) out[i] = relu(t1[i] + res[i]);        /* kernel 4: add + ReLU */
}

static void bn_fused(float *out, const float *x, const float *res, const float *bias, float scale, long n) {
    long i;
    for (i = 0; i < n; i++) {
        float t = x[i] * scale;
        t = t + bias[i % CHANNELS];
        out[i] = relu(relu(t) + res[i]);
    }
}

/* ---- part 2: SGD with momentum, v = mu v + g; p = p - lr v */
static void sgd(float *p, float *v, const float *g, long n, float lr, float mu) {
    long i;
    for (i = 0; i < n; i++) {
        v[i] = mu * v[i] + g[i];
        p[i] = p[i] - lr * v[i];
    }
}

/* ResNet-50's parameter tensors in order: conv1, bn1, four stages of bottleneck
   blocks (1x1, 3x3, 1x1 convolutions, each with a BatchNorm scale and bias, and a
   downsampling 1x1 + BatchNorm in each stage's first block), then fc. */
static int resnet50_sizes(long *size) {
    static const int blocks[] = { 3, 4, 6, 3 }, width[] = { 64, 128, 256, 512 };
    long in = 64;
    int t = 0, s, b, j;
    size[t++] = 7 * 7 * 3 * 64;
    size[t++] = 64;
    size[t++] = 64;
    for (s = 0; s < 4; s++) {
        long w = width[s];
        for (b = 0; b < blocks[s]; b++) {
            const long conv[4] = { in * w, 9 * w * w, w * 4 * w, in * 4 * w }, bn[4] = { w, w, 4 * w, 4 * w };
            for (j = 0; j < (b == 0 ? 4 : 3); j++) {
                size[t++] = conv[j];
                size[t++] = bn[j];
                size[t++] = bn[j];
            }
            in = 4 * w;
        }
    }
    size[t++] = 2048 * 1000;
    size[t++] = 1000;
    return t;
}

/* Adds count kernels of n elements, reading `in` and writing `out` streams with
   `ops` operations per element, to a sequence; returns 0 or prints the failure. */
static int add_kernels(const tc_gpu *gpu, int64_t n, int in, int out, int ops, int count, tc_sim_prediction *seq) {
    tc_sim_elementwise_desc d;
    tc_sim_prediction k;
    tc_status s;
    d.elements = n;
    d.inputs = in;
    d.outputs = out;
    d.ops = ops;
    s = tc_sim_predict_elementwise(&gpu->profile, &d, &k);
    if (s != TC_OK) { fprintf(stderr, "09_fusion: %s: %s\n", gpu->name, tc_status_string(s)); return -1; }
    while (count-- > 0) tc_sim_prediction_add(seq, &k);
    return 0;
}

/* seconds: each kernel the longer of its run and its launch, summed */
static void print_row(const char *what, const tc_sim_prediction *p) {
    printf("    %-28s %8.1f MB %5lld launches %9.1f us kernels, %7.1f us launches -> %9.1f us overlapped\n", what, p->dram_bytes / 1e6,
           (long long)p->launches, p->kernel_seconds * 1e6, p->launch_seconds * 1e6, p->seconds * 1e6);
}

/* Three bars per version, in us: simulated kernel time, the launches, and
   the time back to back (each kernel the longer of its run and its launch:
   not their sum). */
#define N_CHART 5
static int write_chart(const tc_sim_prediction *v) {
    static const char *const cat[N_CHART] = { "4 kernels", "BN+ReLU, add+ReLU", "fused BN-add-ReLU", "SGD per tensor",
                                              "SGD multi-tensor" };
    double us[3][N_CHART];
    plot_chart_desc cd;
    plot_chart *ch;
    int i, rc;
    for (i = 0; i < N_CHART; i++) {
        us[0][i] = v[i].kernel_seconds * 1e6;
        us[1][i] = v[i].launch_seconds * 1e6;
        us[2][i] = v[i].seconds * 1e6;
    }
    memset(&cd, 0, sizeof cd);
    cd.title = "A100, predicted: kernels, launches, and both overlapped";
    cd.xlabel = "version";
    cd.ylabel = "microseconds";
    ch = plot_chart_new(1200, 700, &cd);
    if (!ch) return -1;
    rc = plot_chart_bars(ch, cat, us[0], N_CHART, "kernel time (simulated)") |
         plot_chart_bars(ch, cat, us[1], N_CHART, "launches (the profile's launch cost each)") |
         plot_chart_bars(ch, cat, us[2], N_CHART, "back to back: per kernel max(run, launch)") | plot_chart_write(ch, plot_out("09_fusion.png"));
    plot_chart_free(ch);
    return rc;
}

static float frand(unsigned *state) {
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 8388608.0f - 1.0f;   /* [-1, 1) */
}

/* The exercise's experiment: Adam (read param, grad, two moments; write
   param and both moments; about 10 operations per element) over ResNet-50's
   tensors on h100, one launch per tensor against one multi-tensor launch,
   with the launch cost set to `launch_us`. */
static int adam_experiment(double launch_us) {
    long sizes[MAX_TENSORS], total = 0;
    int nt = resnet50_sizes(sizes), j;
    const tc_gpu *h = tc_gpu_find("h100");
    tc_gpu g;
    tc_sim_prediction each, multi;
    if (!h) { fprintf(stderr, "09_fusion: no GPU entry 'h100'\n"); return 1; }
    g = *h;
    g.profile.launch_overhead_us = launch_us;
    memset(&each, 0, sizeof each);
    memset(&multi, 0, sizeof multi);
    for (j = 0; j < nt; j++) {
        total += sizes[j];
        if (add_kernels(&g, sizes[j], 4, 3, 10, 1, &each)) return 1;
    }
    if (add_kernels(&g, total, 4, 3, 10, 1, &multi)) return 1;
    printf("Adam over ResNet-50's %d tensors on h100, %.3g us per launch:\n", nt, launch_us);
    print_row("one launch per tensor", &each);
    print_row("one multi-tensor launch", &multi);
    printf("    aggregation speedup: %.2fx\n", each.seconds / multi.seconds);
    return 0;
}

int main(int argc, char **argv) {
    const int64_t bn_elements = (int64_t)256 * 64 * 56 * 56;
    const long n = 1L << 22;
    long sizes[MAX_TENSORS], total = 0, off;
    int nt = resnet50_sizes(sizes), i, j, bad;
    float *x, *res, *out_a, *out_b, *t1, *t2, bias[CHANNELS];
    float *p_a, *v_a, *p_b, *v_b, *grad;
    unsigned seed = 12345u;
    tc_sim_prediction chart[N_CHART];

    if (plot_out_args(&argc, argv) != 0) return 2;
    if (argc == 3 && strcmp(argv[1], "--adam") == 0) {
        char *end;
        double us = strtod(argv[2], &end);
        if (end == argv[2] || *end || !(us >= 0 && us <= 1000)) {
            fprintf(stderr, "%s: '%s' is not a launch cost from 0 to 1000 us\n", argv[0], argv[2]);
            return 2;
        }
        return adam_experiment(us);
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--out DIR] [--adam LAUNCH_US]\n", argv[0]);
        return 2;
    }
    for (i = 0; i < nt; i++) total += sizes[i];

    /* ---- part 1 */
    printf("Part 1: scale, bias, ReLU, residual add+ReLU over %lld fp32 elements (ResNet-50 stage 1, batch 256)\n",
           (long long)bn_elements);
    printf("  per element: unfused, 4 kernels read 1+1+1+2 and write 4 streams = 36 bytes; BN+ReLU fused\n"
           "  (read 1, write 1) then add+ReLU (read 2, write 1) = 20 bytes; all fused (read x and the\n"
           "  residual, write out) = 12 bytes\n"
           "  Each row: simulated kernel time, launch time, and the two combined. They overlap, not add: the\n"
           "  host launches the next kernel while one runs, so each kernel costs max(its run, one launch).\n");
    {   /* the same max() one level up: a Python loop's dispatch is a floor too */
        double v0;
        if (measured_value("gn-bf16gemm-v0-1024-rtx5090", &v0) != TC_OK) return 1;
        printf("  From Python the floor is the interpreter's dispatch, not the launch: on one RTX 5090 machine\n"
               "  three 1024^3 GEMM kernels of different design each took about %.0f us a call (MEASURED: tests/measured\n"
               "  row gn-bf16gemm-v0-1024-rtx5090 and its notes), the host's pace; at 2048^3 they differ again.\n",
               2e6 * 1024.0 * 1024 * 1024 / (v0 * 1e12));
    }
    for (i = 0; i < N_GPUS; i++) {
        const tc_gpu *gpu = tc_gpu_find(gpus[i]);
        const tc_sim_profile *g;
        tc_sim_prediction v4, v2, v1;
        if (!gpu) { fprintf(stderr, "09_fusion: no GPU entry '%s'\n", gpus[i]); return 1; }
        g = &gpu->profile;
        memset(&v4, 0, sizeof v4);
        memset(&v2, 0, sizeof v2);
        memset(&v1, 0, sizeof v1);
        if (add_kernels(gpu, bn_elements, 1, 1, 1, 3, &v4) || add_kernels(gpu, bn_elements, 2, 1, 2, 1, &v4) ||
            add_kernels(gpu, bn_elements, 1, 1, 3, 1, &v2) || add_kernels(gpu, bn_elements, 2, 1, 2, 1, &v2) ||
            add_kernels(gpu, bn_elements, 2, 1, 5, 1, &v1))
            return 1;
        printf("  %s (%.0f GB/s%s, %.1f us per launch%s)\n", gpu->name, g->dram_bytes_per_cycle * g->clock_ghz,
               measured_count(gpu->name, "dram_read_bandwidth") == 0 ? " ASSUMED" : "", g->launch_overhead_us,
               measured_count(gpu->name, "launch_back_to_back") == 0 ? " ASSUMED, not measured on this GPU"
                                                                    : " fitted to the measurements below");
        print_row("unfused (4 kernels)", &v4);
        print_row("BN+ReLU fused, add+ReLU", &v2);
        print_row("BN+add+ReLU fused", &v1);
        printf("    fusion speedup: %.2fx (two kernels: %.2fx)\n", v4.seconds / v1.seconds, v4.seconds / v2.seconds);
        if (strcmp(gpu->name, "a100") == 0) {
            chart[0] = v4;
            chart[1] = v2;
            chart[2] = v1;
        }
    }

    x = (float *)malloc((size_t)n * 6 * sizeof *x);   /* x, res, out_a, out_b, t1, t2 */
    if (!x) { fprintf(stderr, "09_fusion: out of memory\n"); return 1; }
    res = x + n; out_a = res + n; out_b = out_a + n; t1 = out_b + n; t2 = t1 + n;
    for (i = 0; i < CHANNELS; i++) bias[i] = 0.25f * frand(&seed);
    for (off = 0; off < n; off++) { x[off] = 4.0f * frand(&seed); res[off] = frand(&seed); }
    bn_unfused(out_a, t1, t2, x, res, bias, 0.7f, n);
    bn_fused(out_b, x, res, bias, 0.7f, n);
    bad = memcmp(out_a, out_b, (size_t)n * sizeof *out_a) != 0;
    printf("  CPU check on %ld elements: unfused and fused outputs are %s\n", n, bad ? "DIFFERENT" : "bit-identical");
    free(x);
    if (bad) return 1;

    /* ---- part 2 */
    printf("\nPart 2: SGD with momentum over ResNet-50's %d parameter tensors (%ld parameters; the smallest\n"
           "  has %ld elements). Per element: read param, grad, momentum, write param, momentum = 20 bytes.\n",
           nt, total, sizes[1]);
    for (i = 0; i < N_GPUS; i++) {
        const tc_gpu *gpu = tc_gpu_find(gpus[i]);
        tc_sim_prediction each, multi;
        if (!gpu) { fprintf(stderr, "09_fusion: no GPU entry '%s'\n", gpus[i]); return 1; }
        memset(&each, 0, sizeof each);
        memset(&multi, 0, sizeof multi);
        for (j = 0; j < nt; j++)
            if (add_kernels(gpu, sizes[j], 3, 2, 2, 1, &each)) return 1;
        if (add_kernels(gpu, total, 3, 2, 2, 1, &multi)) return 1;
        printf("  %s\n", gpu->name);
        print_row("one launch per tensor", &each);
        print_row("one multi-tensor launch", &multi);
        printf("    aggregation speedup: %.2fx; waiting for launches is %.0f%% of the per-tensor time\n",
               each.seconds / multi.seconds, 100.0 * (each.seconds - each.kernel_seconds) / each.seconds);
        if (strcmp(gpu->name, "a100") == 0) {
            chart[3] = each;
            chart[4] = multi;
        }
    }

    p_a = (float *)malloc((size_t)total * 5 * sizeof *p_a);   /* p_a, v_a, p_b, v_b, grad */
    if (!p_a) { fprintf(stderr, "09_fusion: out of memory\n"); return 1; }
    v_a = p_a + total; p_b = v_a + total; v_b = p_b + total; grad = v_b + total;
    for (off = 0; off < total; off++) { p_a[off] = p_b[off] = frand(&seed); v_a[off] = v_b[off] = 0.1f * frand(&seed); grad[off] = 0.01f * frand(&seed); }
    for (off = 0, j = 0; j < nt; off += sizes[j], j++)   /* per tensor: each tensor its own call */
        sgd(p_a + off, v_a + off, grad + off, sizes[j], 0.1f, 0.9f);
    sgd(p_b, v_b, grad, total, 0.1f, 0.9f);               /* multi-tensor: one pass over all of them */
    bad = memcmp(p_a, p_b, (size_t)total * sizeof *p_a) != 0 || memcmp(v_a, v_b, (size_t)total * sizeof *v_a) != 0;
    printf("  CPU check: per-tensor and multi-tensor parameters and momenta are %s\n", bad ? "DIFFERENT" : "bit-identical");
    free(p_a);
    if (bad) return 1;

    printf("\nFusion removes round trips (36 -> 12 bytes per element: ~3x for a bandwidth-bound chain) and\n"
           "launches; aggregation removes launches only, and pays most where tensors are small: ResNet-50's\n"
           "BatchNorm vectors are hundreds of elements, far too few to fill a GPU, so each of their kernels\n"
           "finishes before the next launch arrives and costs a whole launch. Launches overlap running\n"
           "kernels, so a big kernel hides the next launch: the BatchNorm tail above costs only its run.\n"
           "The launch figure (profile field launch_overhead_us, %.1f us on\n"
           "every GPU) is fitted to these measurements of tiny kernels launched back to back\n"
           "(tests/measured/dataset.csv; assumed equal on the GPUs without a row:",
           tc_gpu_find("a100")->profile.launch_overhead_us);
    for (i = 0; i < N_GPUS; i++)
        if (measured_count(gpus[i], "launch_back_to_back") == 0) printf(" %s", gpus[i]);
    printf("):\n");
    if (measured_print(stdout, NULL, "launch_back_to_back", "  ") < 0) return 1;
    printf("  CUDA graphs replay the same kernels for about half the cost (profile field graph_launch_us,\n"
           "  %.1f us, fitted to these two rows):\n", tc_gpu_find("a100")->profile.graph_launch_us);
    if (measured_print(stdout, NULL, "launch_graph", "  ") < 0) return 1;
    printf("\nPublished fused and unfused kernels (Liger-Kernel's benchmarks: validation rows, nothing is\n"
           "fitted to them), each beside the same kernels as simulated elementwise streams. The fused\n"
           "kernels read and write each element once, as part 1's all-fused version does; the eager\n"
           "sequences are simulated only where their kernels are published:\n");
    if (measured_print(stdout, NULL, "fusion_time", "  ") < 0) return 1;
    printf("  Where a row differs by more than 25%%, the kernel ran slower than its bytes at the GPU's measured\n"
           "  bandwidth: the same benchmark file's size sweeps show a fixed 8-10 us per timed call and a stream\n"
           "  at 65-76%% of peak, below what the GPUs' bandwidth benchmarks reach (docs/REFERENCE.md 3.11).\n"
           "  The model (a stream at the profile's bandwidth, plus launches) has neither, and nothing is\n"
           "  fitted to these rows.\n");

    if (write_chart(chart) != 0) { fprintf(stderr, "09_fusion: cannot write 09_fusion.png\n"); return 1; }
    printf("\nwrote 09_fusion.png\n");

    printf("\nExercise: Adam reads param, grad and two moments and writes three (28 bytes per element,\n"
           "about 10 FP32 operations). `build/lessons/09_fusion --adam US` predicts per-tensor against\n"
           "multi-tensor Adam over ResNet-50's tensors on h100 with a launch cost of US microseconds.\n"
           "Predict the speedup at h100's own %.1f us before you run it. Then lower US: below which launch\n"
           "cost does the speedup stop falling, and why does it not reach 1x even at 0? (What does a\n"
           "kernel of a few hundred elements cost when its launch is free? Ask tc_sim_predict_elementwise.)\n",
           tc_gpu_find("h100")->profile.launch_overhead_us);
    return 0;
}
