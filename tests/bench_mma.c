/* bench_mma.c - section 2: the bit-accurate GEMM in emulated multiply-adds
   per second, for every architecture and input type (fp32 output; fp16
   output where offered), next to a plain fp32 triple loop over the same
   matrices in the same run. Per combination: the SIMD path on one core and
   on every online core (tc_gemm_desc.threads), the scalar model
   (force_scalar = 1, the path every combination took before the SIMD one)
   on one core, the ratio of the one-core SIMD path to the fp32 loop, and
   the scaling of the all-core rate over the one-core rate (both wall time),
   the time to verify one 4096 x 4096 x 4096 GEMM on every core,
   EXTRAPOLATED from the measured all-core rate (4096^3 multiply-adds at that
   rate; a 4096^3 run takes minutes per core, and its packed operands take
   0.4 GB; 2048^3 measured here ran at the 256^3 rate).
   Asserts nothing about time. Each figure is the best of REPS runs; the
   one-core figures (and the fp32 loop) in CPU time of the process, so that
   other programs sharing the machine do not skew the ratios; the all-core
   figure in wall time, which is what more cores buy: the best of
   SCALING_PAIRS one-thread and all-thread runs in turns (on the shared VM
   that builds this repository a run now and then has the second core
   busy for a second or more, and 9 pairs let that through at 0.5).
   The sparse rows (tc_sparse_gemm_ex: A pruned to the type's pattern and
   compressed, 2:4 or tf32's 1:2) count the dense shape's M x N x K
   multiply-adds, as the dense rows do: the rate at which a GEMM of that
   shape is verified, comparable row to row. */
#include "bench.h"
#define TC_THREADS
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <stdlib.h>
#include <unistd.h>

enum { M = 256, N = 256, K = 256, REPS = 3, SCALING_PAIRS = 45 };
static float *A, *B, *D, *values;   /* values: A compressed, M x K/2 (tf32: the same count, 1 of 2 kept) */
static uint32_t *meta;

typedef struct { tc_arch arch; tc_dtype in, out; int sparse, threads, force_scalar; } run_args;

static void run_model(void *arg) {
    const run_args *r = (const run_args *)arg;
    tc_sparse_gemm_desc sd;
    tc_gemm_desc *d = &sd.gemm;
    tc_status s;
    memset(&sd, 0, sizeof sd);
    d->arch = r->arch; d->in = r->in; d->out = r->out; d->M = M; d->N = N; d->K = K;
    d->A = r->sparse ? values : A; d->B = B; d->D = D; d->threads = r->threads; d->force_scalar = r->force_scalar;
    sd.meta = meta;
    s = r->sparse ? tc_sparse_gemm_ex(&sd) : tc_gemm_ex(d);
    if (s != TC_OK) { printf("%s: %s\n", r->sparse ? "tc_sparse_gemm_ex" : "tc_gemm_ex", tc_status_string(s)); exit(1); }
}

/* The reference: i-k-j order, what a compiler vectorises. */
static void run_fp32(void *arg) {
    int i, j, k;
    (void)arg;
    for (i = 0; i < M * N; i++) D[i] = 0.0f;
    for (i = 0; i < M; i++)
        for (k = 0; k < K; k++) {
            float a = A[i * K + k];
            for (j = 0; j < N; j++) D[i * N + j] += a * B[k * N + j];
        }
}

/* Random operands in the input type; for a sparse run A's compressed form
   (pruned by magnitude) in values and meta. */
static void fill(tc_dtype in, int sparse) {
    int i, words = 0;
    tc_status s;
    srand(1);
    for (i = 0; i < M * K; i++) A[i] = tc_round(in == TC_TF32 ? TC_FP32 : in, (float)rand() / (float)RAND_MAX - 0.5f, TC_RN);
    for (i = 0; i < K * N; i++) B[i] = tc_round(in == TC_TF32 ? TC_FP32 : in, (float)rand() / (float)RAND_MAX - 0.5f, TC_RN);
    if (sparse && ((s = tc_sparse_meta_words(in, K, &words)) != TC_OK ||
                   (s = tc_sparse_compress(in, M, K, A, K, values, K / 2, meta, words, TC_SPARSE_PRUNE, NULL)) != TC_OK)) {
        printf("tc_sparse_compress: %s\n", tc_status_string(s));
        exit(1);
    }
}

int main(void) {
    static const struct { tc_arch arch; tc_dtype in, out; int sparse; const char *name; } combos[] = {
        { TC_ARCH_V100, TC_FP16, TC_FP32, 0, "V100 fp16->fp32" },
        { TC_ARCH_V100, TC_FP16, TC_FP16, 0, "V100 fp16->fp16" },
        { TC_ARCH_A100, TC_FP16, TC_FP32, 0, "A100 fp16->fp32" },
        { TC_ARCH_A100, TC_FP16, TC_FP16, 0, "A100 fp16->fp16" },
        { TC_ARCH_A100, TC_BF16, TC_FP32, 0, "A100 bf16->fp32" },
        { TC_ARCH_A100, TC_TF32, TC_FP32, 0, "A100 tf32->fp32" },
        { TC_ARCH_H100, TC_FP16, TC_FP32, 0, "H100 fp16->fp32" },
        { TC_ARCH_H100, TC_FP16, TC_FP16, 0, "H100 fp16->fp16" },
        { TC_ARCH_H100, TC_BF16, TC_FP32, 0, "H100 bf16->fp32" },
        { TC_ARCH_H100, TC_TF32, TC_FP32, 0, "H100 tf32->fp32" },
        { TC_ARCH_H100, TC_E4M3, TC_FP32, 0, "H100 e4m3->fp32" },
        { TC_ARCH_H100, TC_E5M2, TC_FP16, 0, "H100 e5m2->fp16" },
        { TC_ARCH_A100, TC_FP16, TC_FP32, 1, "A100 sp fp16->fp32" },
        { TC_ARCH_A100, TC_BF16, TC_FP32, 1, "A100 sp bf16->fp32" },
        { TC_ARCH_A100, TC_TF32, TC_FP32, 1, "A100 sp tf32->fp32" },
        { TC_ARCH_H100, TC_FP16, TC_FP32, 1, "H100 sp fp16->fp32" },
        { TC_ARCH_H100, TC_E4M3, TC_FP32, 1, "H100 sp e4m3->fp32" },
    };
    double macs = (double)M * N * K, t_fp32, big = 4096.0 * 4096.0 * 4096.0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int c, i, words = 0;
    if (cores < 1) cores = 1;
    A = (float *)malloc(sizeof(float) * M * K);
    B = (float *)malloc(sizeof(float) * K * N);
    D = (float *)malloc(sizeof(float) * M * N);
    values = (float *)malloc(sizeof(float) * M * (K / 2));
    for (c = 0; c < (int)(sizeof combos / sizeof combos[0]); c++)   /* metadata words per row: the most any sparse row needs */
        if (combos[c].sparse && tc_sparse_meta_words(combos[c].in, K, &i) == TC_OK && i > words) words = i;
    meta = (uint32_t *)malloc(sizeof(uint32_t) * M * (size_t)words);
    if (!A || !B || !D || !values || !meta) return 1;
    fill(TC_FP16, 0);
    t_fp32 = bench_best_cpu(run_fp32, NULL, 5);
    printf("bench_mma: %dx%dx%d GEMM, SIMD kernel: %s, %ld online cores\n", M, N, K, tc_gemm_fast_path(), cores);
    printf("  plain fp32 triple loop, one core: %.1f M multiply-adds/s (CPU time)\n", macs / t_fp32 * 1e-6);
    bench_print_proc_line("  load average before the all-core runs (/proc/loadavg; other programs lower the scaling): ", "/proc/loadavg", "");
    printf("  %-19s %11s %11s %11s %8s %11s %9s %9s %11s\n", "M multiply-adds/s", "SIMD 1 cpu", "SIMD 1 wall", "SIMD all", "scaling",
           "scalar 1", "SIMD/fp32", "SIMD/scal", "4096^3 all");
    for (c = 0; c < (int)(sizeof combos / sizeof combos[0]); c++) {
        run_args r;
        double t1, t1w, tn, ts;
        r.arch = combos[c].arch; r.in = combos[c].in; r.out = combos[c].out; r.sparse = combos[c].sparse;
        fill(r.in, r.sparse);
        r.force_scalar = 0; r.threads = 1;    t1 = bench_best_cpu(run_model, &r, REPS);
        /* one thread and all of them in turns, best of each: the machine's
           speed drifts between runs (a shared VM), and a drift that falls
           between two separate series reads as a scaling change */
        for (t1w = tn = 1e30, i = 0; i < SCALING_PAIRS; i++) {
            double t;
            r.threads = 1;          t = bench_best(run_model, &r, 1); if (t < t1w) t1w = t;
            r.threads = (int)cores; t = bench_best(run_model, &r, 1); if (t < tn) tn = t;
        }
        r.force_scalar = 1; r.threads = 1;    ts = bench_best_cpu(run_model, &r, REPS);
        printf("  %-19s %11.1f %11.1f %11.1f %8.2f %11.1f %9.3f %9.2f %9.1f s\n", combos[c].name,
               macs / t1 * 1e-6, macs / t1w * 1e-6, macs / tn * 1e-6, t1w / tn / (double)cores, macs / ts * 1e-6,
               t_fp32 / t1, ts / t1, big / (macs / tn));
    }
    printf("  (1 cpu: one thread, CPU time; 1 wall, all: one and %ld threads, wall time; scaling: all-core\n"
           "   rate / (one-core wall rate x cores), 1 = linear, low when other programs hold the cores;\n"
           "   SIMD/fp32: one-core SIMD rate (CPU time) over the fp32 loop's; SIMD/scal: over the scalar\n"
           "   model's; 4096^3: time to verify one 4096x4096x4096 GEMM on all cores, EXTRAPOLATED from\n"
           "   the measured all-core rate, not run; sp: tc_sparse_gemm_ex, A 2:4 (tf32 1:2) sparse, counted as\n"
           "   the dense shape's multiply-adds)\n", cores);
    free(A); free(B); free(D); free(values); free(meta);
    return 0;
}
