/* bench_mmasim.c - tensorcore.h's speed on the instructions that
   tests/mmasim/gen_vectors.py --time times in MMA-Sim (A100 mma.sync
   m16n8k16 fp16 -> fp32, H100 wgmma m64n8k16 fp16 -> fp32), in
   multiply-adds per second on one core, CPU time, best of REPS: tc_mma_run
   one instruction at a time (the same unit of work as one MMA-Sim call),
   and tc_gemm_ex's SIMD path on a 256^3 GEMM of the same types (bench_mma's
   figure). Given MMA-Sim's two rates (what gen_vectors.py --time printed,
   in the same session), it prints the ratios. Asserts nothing about time.

   Run: build/bench/bench_mmasim [MMASIM_A100_RATE MMASIM_H100_RATE] */
#include "bench.h"
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <stdlib.h>

enum { G = 256, REPS = 5, CALLS = 2000 };
static float A[G * G], B[G * G], C[G * G], D[G * G];

typedef struct { tc_arch arch; tc_mma_instr kind; int n; const char *name; } instr_case;

static void fill(void) {
    int i;
    srand(1);
    for (i = 0; i < G * G; i++) {
        A[i] = tc_round(TC_FP16, (float)rand() / (float)RAND_MAX - 0.5f, TC_RN);
        B[i] = tc_round(TC_FP16, (float)rand() / (float)RAND_MAX - 0.5f, TC_RN);
        C[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    }
}

static void run_instr(void *arg) {
    const instr_case *c = (const instr_case *)arg;
    int r;
    for (r = 0; r < CALLS; r++)
        if (tc_mma_run(c->arch, c->kind, c->n, TC_FP32, A, B, C, D) != TC_OK) { printf("tc_mma_run failed\n"); exit(1); }
}

static void run_gemm(void *arg) {
    const instr_case *c = (const instr_case *)arg;
    tc_gemm_desc d;
    memset(&d, 0, sizeof d);
    d.arch = c->arch; d.in = TC_FP16; d.out = TC_FP32;
    d.M = d.N = d.K = G;
    d.A = A; d.B = B; d.C = C; d.D = D;
    if (tc_gemm_ex(&d) != TC_OK) { printf("tc_gemm_ex failed\n"); exit(1); }
}

int main(int argc, char **argv) {
    static const instr_case cases[] = {
        { TC_ARCH_A100, TC_MMA_M16N8K16_F16, 8, "A100 mma.sync m16n8k16 fp16->fp32" },
        { TC_ARCH_H100, TC_WGMMA_F16, 8, "H100 wgmma m64n8k16 fp16->fp32" },
    };
    int c;
    fill();
    printf("bench_mmasim: one core, CPU time, best of %d; SIMD kernel: %s\n", REPS, tc_gemm_fast_path());
    bench_print_proc_line("  load average (/proc/loadavg): ", "/proc/loadavg", "");
    for (c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) {
        tc_mma_instr_info info;
        double macs_instr, t_instr, t_gemm, r_instr, r_gemm;
        if (tc_mma_instr_get(cases[c].kind, &info) != TC_OK) return 1;
        macs_instr = (double)CALLS * info.m * cases[c].n * info.k;
        t_instr = bench_best_cpu(run_instr, (void *)&cases[c], REPS);
        t_gemm = bench_best_cpu(run_gemm, (void *)&cases[c], REPS);
        r_instr = macs_instr / t_instr;
        r_gemm = (double)G * G * G / t_gemm;
        printf("  %-36s tc_mma_run %8.1f M multiply-adds/s, tc_gemm_ex %8.1f M/s", cases[c].name, r_instr * 1e-6,
               r_gemm * 1e-6);
        if (argc == 3 && atof(argv[1 + c]) > 0)
            printf(", MMA-Sim %.0f /s: x%.0f and x%.0f", atof(argv[1 + c]), r_instr / atof(argv[1 + c]),
                   r_gemm / atof(argv[1 + c]));
        printf("\n");
    }
    return 0;
}
