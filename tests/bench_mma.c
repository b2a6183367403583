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
   figure in wall time, which is what more cores buy. */
#include "bench.h"
#define TC_THREADS
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <stdlib.h>
#include <unistd.h>

enum { M = 256, N = 256, K = 256, REPS = 3, SCALING_PAIRS = 9 };
static float *A, *B, *D;

typedef struct { tc_arch arch; tc_dtype in, out; int threads, force_scalar; } run_args;

static void run_model(void *arg) {
    const run_args *r = (const run_args *)arg;
    tc_gemm_desc d;
    tc_status s;
    memset(&d, 0, sizeof d);
    d.arch = r->arch; d.in = r->in; d.out = r->out; d.M = M; d.N = N; d.K = K;
    d.A = A; d.B = B; d.D = D; d.threads = r->threads; d.force_scalar = r->force_scalar;
    s = tc_gemm_ex(&d);
    if (s != TC_OK) { printf("tc_gemm_ex: %s\n", tc_status_string(s)); exit(1); }
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

static void fill(tc_dtype in) {
    int i;
    srand(1);
    for (i = 0; i < M * K; i++) A[i] = tc_round(in == TC_TF32 ? TC_FP32 : in, (float)rand() / (float)RAND_MAX - 0.5f, TC_RN);
    for (i = 0; i < K * N; i++) B[i] = tc_round(in == TC_TF32 ? TC_FP32 : in, (float)rand() / (float)RAND_MAX - 0.5f, TC_RN);
}

int main(void) {
    static const struct { tc_arch arch; tc_dtype in, out; const char *name; } combos[] = {
        { TC_ARCH_V100, TC_FP16, TC_FP32, "V100 fp16->fp32" },
        { TC_ARCH_V100, TC_FP16, TC_FP16, "V100 fp16->fp16" },
        { TC_ARCH_A100, TC_FP16, TC_FP32, "A100 fp16->fp32" },
        { TC_ARCH_A100, TC_FP16, TC_FP16, "A100 fp16->fp16" },
        { TC_ARCH_A100, TC_BF16, TC_FP32, "A100 bf16->fp32" },
        { TC_ARCH_A100, TC_TF32, TC_FP32, "A100 tf32->fp32" },
        { TC_ARCH_H100, TC_FP16, TC_FP32, "H100 fp16->fp32" },
        { TC_ARCH_H100, TC_FP16, TC_FP16, "H100 fp16->fp16" },
        { TC_ARCH_H100, TC_BF16, TC_FP32, "H100 bf16->fp32" },
        { TC_ARCH_H100, TC_TF32, TC_FP32, "H100 tf32->fp32" },
        { TC_ARCH_H100, TC_E4M3, TC_FP32, "H100 e4m3->fp32" },
        { TC_ARCH_H100, TC_E5M2, TC_FP16, "H100 e5m2->fp16" },
    };
    double macs = (double)M * N * K, t_fp32, big = 4096.0 * 4096.0 * 4096.0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int c, i;
    if (cores < 1) cores = 1;
    A = (float *)malloc(sizeof(float) * M * K);
    B = (float *)malloc(sizeof(float) * K * N);
    D = (float *)malloc(sizeof(float) * M * N);
    if (!A || !B || !D) return 1;
    fill(TC_FP16);
    t_fp32 = bench_best_cpu(run_fp32, NULL, 5);
    printf("bench_mma: %dx%dx%d GEMM, SIMD kernel: %s, %ld online cores\n", M, N, K, tc_gemm_fast_path(), cores);
    printf("  plain fp32 triple loop, one core: %.1f M multiply-adds/s (CPU time)\n", macs / t_fp32 * 1e-6);
    bench_print_proc_line("  load average before the all-core runs (/proc/loadavg; other programs lower the scaling): ", "/proc/loadavg", "");
    printf("  %-19s %11s %11s %11s %8s %11s %9s %9s %11s\n", "M multiply-adds/s", "SIMD 1 cpu", "SIMD 1 wall", "SIMD all", "scaling",
           "scalar 1", "SIMD/fp32", "SIMD/scal", "4096^3 all");
    for (c = 0; c < (int)(sizeof combos / sizeof combos[0]); c++) {
        run_args r;
        double t1, t1w, tn, ts;
        r.arch = combos[c].arch; r.in = combos[c].in; r.out = combos[c].out;
        fill(r.in);
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
           "   the measured all-core rate, not run)\n", cores);
    free(A); free(B); free(D);
    return 0;
}
