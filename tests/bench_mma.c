/* bench_mma.c - section 2: the bit-accurate GEMM (A100 model, fp16 in, fp32
   out) in emulated multiply-adds per second, next to a plain fp32 triple
   loop over the same matrices in the same run. Prints the ratio; asserts
   nothing about time. */
#include "bench.h"
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <stdlib.h>

enum { M = 256, N = 256, K = 256 };
static float *A, *B, *D;

static void run_model(void *arg) {
    tc_status s = tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, M, N, K, A, K, B, N, NULL, 0, D, N);
    (void)arg;
    if (s != TC_OK) { printf("tc_gemm: %s\n", tc_status_string(s)); exit(1); }
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

int main(void) {
    double macs = (double)M * N * K, t_model, t_fp32;
    int i;
    A = (float *)malloc(sizeof(float) * M * K);
    B = (float *)malloc(sizeof(float) * K * N);
    D = (float *)malloc(sizeof(float) * M * N);
    if (!A || !B || !D) return 1;
    srand(1);
    for (i = 0; i < M * K; i++) A[i] = tc_round(TC_FP16, (float)rand() / (float)RAND_MAX - 0.5f, TC_RN);
    for (i = 0; i < K * N; i++) B[i] = tc_round(TC_FP16, (float)rand() / (float)RAND_MAX - 0.5f, TC_RN);
    t_model = bench_best(run_model, NULL, 5);
    t_fp32 = bench_best(run_fp32, NULL, 5);
    printf("bench_mma: %dx%dx%d GEMM, one core\n", M, N, K);
    printf("  tc_gemm A100 fp16->fp32 (bit-accurate) %8.1f M multiply-adds/s\n", macs / t_model * 1e-6);
    printf("  plain fp32 triple loop                 %8.1f M multiply-adds/s\n", macs / t_fp32 * 1e-6);
    printf("  model / fp32 loop = %.3f\n", t_fp32 / t_model);
    free(A); free(B); free(D);
    return 0;
}
