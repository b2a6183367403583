/* mma.cu - every output bit of mma.sync against tensorcore.h's MMA model
   (section 2) for the GPU it runs on.

   Compile (from the repository root; make cuda builds it for sm_80 and sm_90):
     nvcc -std=c++17 -O3 -arch=sm_80 -I. -Isupport cuda/mma.cu -o mma
   Run:  ./mma [INSTRUCTION]     (make gpu-check runs build/cuda/mma)
     INSTRUCTION  m16n8k16_f16_f32, m16n8k16_f16_f16, m16n8k16_bf16,
                  m16n8k8_f16_f32, m16n8k8_f16_f16, m16n8k8_bf16,
                  m16n8k8_tf32 or m16n8k4_tf32: that one alone (e.g. under
                  ncu); default: all. Nothing is timed.

   What it shows:
   - For each instruction: m16n8k16 f16 (fp32 and fp16 accumulators) and
     bf16, m16n8k8 f16 (fp32 and fp16) and bf16, m16n8k8 tf32, m16n8k4 tf32,
     one warp runs one mma.sync per test matrix; the operands are placed in
     registers with the header's fragment layouts (tc_mma_frag_coord, the
     same code the CPU tests check). The CPU computes every element with
     tc_mma_dot for the GPU's architecture (sm_80/86 -> A100 model, sm_89 ->
     Ada model, sm_90 -> H100 model) under both zero rules. (sm_100 would
     need sm_100a code: not built.)
   - Inputs: the published vectors of tests/test_mma.c, then adversarial
     families (cancellation in a narrow exponent band, raw encodings with
     subnormals, Inf and NaN, zeros against huge operands, wide exponent
     spread, near-overflow) and uniform random values.
   - Prints per instruction the mismatch count for the default rule
     (MMA-Sim) and for Khattak's, the first mismatches in decimal and hex
     (D[16 t + i][j] is row i of test t) and the operands of the first. Any
     NaN matches any NaN (the model does not pin NaN payloads). The rule
     with zero mismatches is the one this GPU follows.
   Exit: 0 when the default model matches every bit, 1 on any mismatch, 2
   when there is no GPU of compute capability 8.x or 9.0, 3 usage error. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common.cuh"

/* ------------------------------------------------ the instructions, one table */

enum Kind { F16_K16_F32, F16_K16_F16, BF16_K16_F32, F16_K8_F32, F16_K8_F16, BF16_K8_F32, TF32_K8_F32, TF32_K4_F32, N_KIND };
/* Each run: an instruction of the header's table and the accumulator type
   (fp32, or fp16 where the instruction offers it). */
struct KindInfo { tc_mma_instr instr; tc_dtype out; const char *arg; };
static const KindInfo kinds[] = {
    { TC_MMA_M16N8K16_F16, TC_FP32, "m16n8k16_f16_f32" },
    { TC_MMA_M16N8K16_F16, TC_FP16, "m16n8k16_f16_f16" },
    { TC_MMA_M16N8K16_BF16, TC_FP32, "m16n8k16_bf16" },
    { TC_MMA_M16N8K8_F16, TC_FP32, "m16n8k8_f16_f32" },
    { TC_MMA_M16N8K8_F16, TC_FP16, "m16n8k8_f16_f16" },
    { TC_MMA_M16N8K8_BF16, TC_FP32, "m16n8k8_bf16" },
    { TC_MMA_M16N8K8_TF32, TC_FP32, "m16n8k8_tf32" },
    { TC_MMA_M16N8K4_TF32, TC_FP32, "m16n8k4_tf32" },
};
static_assert(COUNT_OF(kinds) == N_KIND, "one row per instruction");

enum { MM = 16, NN = 8, KMAX = 16 };

/* ------------------------------------------------ kernel */

__device__ static uint32_t operand_bits(tc_dtype t, float x) {
    if (t == TC_FP16) return tc_fp16_from_f32(x, TC_RN);
    if (t == TC_BF16) return tc_bf16_from_f32(x, TC_RN);
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;   /* tf32: raw fp32 bits, the Tensor Core truncates */
}

/* Registers of a fragment: 16-bit types pack elements 2r (low half) and
   2r+1 (high half) into register r; tf32 and fp32 use one per element. */
__device__ static void load_frag(tc_mma_instr s, tc_frag f, tc_dtype t, const float *M, int ld, int lane, uint32_t *reg) {
    tc_mma_instr_info info;
    tc_mma_instr_get(s, &info);
    int n = f == TC_FRAG_A ? info.a_elems : f == TC_FRAG_B ? info.b_elems : info.c_elems, i, r, c;
    int packed = t == TC_FP16 || t == TC_BF16;
    for (i = 0; i < 8; i++) reg[i] = 0;
    for (i = 0; i < n; i++) {
        tc_mma_frag_coord(s, f, lane, i, &r, &c);
        uint32_t b = operand_bits(t, M[r * ld + c]);
        if (packed) reg[i / 2] |= b << (16 * (i & 1));
        else reg[i] = b;
    }
}

__global__ void mma_kernel(int kind, KindInfo k, int K, const float *A, const float *B, const float *C, float *D) {
    int lane = threadIdx.x, t = blockIdx.x, i, r, c;
    tc_mma_instr_info info;
    tc_mma_instr_get(k.instr, &info);
    const float *a = A + (size_t)t * MM * K, *b = B + (size_t)t * K * NN;
    const float *cm = C + (size_t)t * MM * NN;
    float *d = D + (size_t)t * MM * NN;
    uint32_t ra[8], rb[8], rc[8];
    float fd[4];
    load_frag(k.instr, TC_FRAG_A, info.in, a, K, lane, ra);
    load_frag(k.instr, TC_FRAG_B, info.in, b, NN, lane, rb);
    load_frag(k.instr, TC_FRAG_C, k.out, cm, NN, lane, rc);
    for (i = 0; i < 4; i++) { tc_mma_frag_coord(k.instr, TC_FRAG_C, lane, i, &r, &c); fd[i] = cm[r * NN + c]; }
    uint32_t hd[2] = { rc[0], rc[1] };   /* fp16 accumulators: C as packed registers */
    /* d starts as C: the wrappers add in place */
    switch (kind) {
    case F16_K16_F32: mma_m16n8k16<__half>(fd, ra, rb); break;
    case F16_K16_F16: mma_m16n8k16_f16acc(hd, ra, rb); break;
    case BF16_K16_F32: mma_m16n8k16<__nv_bfloat16>(fd, ra, rb); break;
    case F16_K8_F32: mma_m16n8k8<__half>(fd, ra, rb); break;
    case F16_K8_F16: mma_m16n8k8_f16acc(hd, ra, rb); break;
    case BF16_K8_F32: mma_m16n8k8<__nv_bfloat16>(fd, ra, rb); break;
    case TF32_K8_F32: mma_m16n8k8_tf32(fd, ra, rb); break;
    case TF32_K4_F32: mma_m16n8k4_tf32(fd, ra, rb); break;
    default: break;
    }
    if (k.out == TC_FP16)
        for (i = 0; i < 4; i++) fd[i] = tc_fp16_to_f32((uint16_t)(hd[i / 2] >> (16 * (i & 1))));
    for (i = 0; i < 4; i++) { tc_mma_frag_coord(k.instr, TC_FRAG_C, lane, i, &r, &c); d[r * NN + c] = fd[i]; }
}

/* ------------------------------------------------ inputs */

static float u2f(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }

enum { FAM_PUBLISHED, FAM_BAND, FAM_RAW, FAM_ZEROS, FAM_SPREAD, FAM_BIG, FAM_UNIFORM, N_FAM };
static const char *fam_names[] = { "published", "band", "raw", "zeros", "spread", "big", "uniform" };
static_assert(sizeof fam_names / sizeof fam_names[0] == N_FAM, "one name per family");

static float gen(tc_dtype t, int fam, int band) {
    uint32_t r = rand32();
    const tc_format *f = tc_format_of(t);
    switch (fam) {
    case FAM_RAW:
        if (t == TC_TF32 || t == TC_FP32) return u2f(r);
        return tc_decode(t, r & ((1u << f->total_bits) - 1u));
    case FAM_ZEROS:
        if (r % 3 == 0) return (r & 8) ? -0.0f : 0.0f;
        return tc_round(t, ldexpf((r & 16) ? -1.0f : 1.0f, (int)(r % 40) - 20 + (t == TC_BF16 || t == TC_TF32 ? 80 : 0)), TC_RN | TC_SATFINITE);
    case FAM_SPREAD:
        return tc_round(t, ldexpf(1.0f + (float)(r & 0xFFFF) / 65536.0f, (int)(r >> 26) - 32) * ((r >> 25) & 1 ? -1.0f : 1.0f), TC_RN | TC_SATFINITE);
    case FAM_BIG:
        return tc_round(t, f->max_finite * (0.5f + (float)(r & 0xFFFF) / 131072.0f) * ((r >> 31) ? -1.0f : 1.0f), TC_RN | TC_SATFINITE);
    case FAM_UNIFORM:
        return tc_round(t, (float)(r & 0xFFFFFF) / 16777216.0f - 0.5f, TC_RN);
    default: /* FAM_BAND: cancellation */
        return tc_round(t, ldexpf(1.0f + (float)(r & 0xFFFFFF) / 16777216.0f, band + (int)((r >> 24) & 3)) * ((r >> 31) ? -1.0f : 1.0f), TC_RN | TC_SATFINITE);
    }
}

/* Row 0 / column 0 of the first tests carry the vectors of tests/test_mma.c. */
static void put_published(int which, int K, float *a, float *b, float *c) {
    int i;
    for (i = 0; i < K; i++) { a[i * 1] = 0.0f; b[i * NN] = 0.0f; }
    switch (which % 5) {
    case 0: for (i = 0; i < 4 && i < K; i++) { a[i] = 1.0f; b[i * NN] = ldexpf(1, -24); } *c = 1.0f; break;       /* truncation */
    case 1: for (i = 0; i < K && i < 8; i++) { a[i] = 2.0f - ldexpf(1, -10); b[i * NN] = a[i]; } *c = 0.0f; break; /* carry-out */
    case 2: for (i = 0; i < K && i < 7; i++) { a[i] = ldexpf(1, -13); b[i * NN] = ldexpf(1, -12); } *c = 1.0f - ldexpf(1, -24); break;
    case 3: a[0] = 1.0f - ldexpf(1, -24); b[0] = a[0]; *c = 0.0f; break;                                            /* raw fp32 to tf32 */
    default: /* group size: 2^22 + 7 * 2^-3 - 2^22 */
        a[0] = ldexpf(1, 11); b[0] = ldexpf(1, 11);
        for (i = 1; i < 8 && i < K; i++) { a[i] = 0.25f; b[i * NN] = 0.5f; }
        if (K > 8) { a[8] = -ldexpf(1, 11); b[8 * NN] = ldexpf(1, 11); }
        *c = 0.0f;
        break;
    }
}

/* ------------------------------------------------ main */

int main(int argc, char **argv) {
    const char *names[N_KIND];
    for (int k = 0; k < N_KIND; k++) names[k] = kinds[k].arg;
    const int pick = parse_args(argc, argv, "mma [INSTRUCTION]", names, N_KIND);
    cudaDeviceProp prop;
    if (!gpu_sm("mma", 80, &prop)) return EXIT_NO_GPU;
    tc_arch arch;
    if (prop.major == 8 && prop.minor == 9) arch = TC_ARCH_ADA;
    else if (prop.major == 8) arch = TC_ARCH_A100;
    else if (prop.major == 9 && prop.minor == 0) arch = TC_ARCH_H100;
    else {
        printf("mma: no suitable GPU: %s is sm_%d%d; the header models sm_8x and sm_90 only\n", prop.name, prop.major, prop.minor);
        return EXIT_NO_GPU;
    }
    printf("mma: %s (sm_%d%d) against the %s model\n", prop.name, prop.major, prop.minor, tc_arch_name(arch));

    const int per_fam = 64, T = per_fam * N_FAM;
    long total_bad = 0;
    for (int kind = 0; kind < N_KIND; kind++) {
        if (!selected(pick, kind)) continue;
        const KindInfo &ki = kinds[kind];
        tc_mma_instr_info info;
        tc_mma_instr_get(ki.instr, &info);
        const int K = info.k;
        char label[48];
        snprintf(label, sizeof label, "mma.sync %s -> %s", info.name, tc_format_of(ki.out)->name);
        std::vector<float> A((size_t)T * MM * K), B((size_t)T * K * NN), C((size_t)T * MM * NN), D((size_t)T * MM * NN);
        rng_seed(0x1234567ull + (uint64_t)kind);
        for (int t = 0; t < T; t++) {
            int fam = t / per_fam, band = (int)(rand32() % 30) - 15;
            float *a = &A[(size_t)t * MM * K], *b = &B[(size_t)t * K * NN], *c = &C[(size_t)t * MM * NN];
            for (int i = 0; i < MM * K; i++) a[i] = gen(info.in, fam == FAM_PUBLISHED ? FAM_BAND : fam, band);
            for (int i = 0; i < K * NN; i++) b[i] = gen(info.in, fam == FAM_PUBLISHED ? FAM_BAND : fam, fam == FAM_BAND ? 0 : band);
            for (int i = 0; i < MM * NN; i++) c[i] = gen(ki.out, fam == FAM_RAW ? FAM_RAW : FAM_BAND, band + 2);
            if (fam == FAM_PUBLISHED) put_published(t, K, a, b, c);
            if (info.in != TC_TF32) {   /* the model's precondition: values of the type (tf32 takes raw fp32) */
                for (int i = 0; i < MM * K; i++) a[i] = tc_round(info.in, a[i], TC_RN);
                for (int i = 0; i < K * NN; i++) b[i] = tc_round(info.in, b[i], TC_RN);
            }
            for (int i = 0; i < MM * NN; i++) c[i] = tc_round(ki.out, c[i], TC_RN);
        }
        float *dA, *dB, *dC, *dD;
        CUDA_CHECK(cudaMalloc(&dA, A.size() * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&dB, B.size() * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
        CUDA_CHECK(cudaMalloc(&dD, D.size() * sizeof(float)));
        CUDA_CHECK(cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(dC, C.data(), C.size() * sizeof(float), cudaMemcpyHostToDevice));
        mma_kernel<<<T, 32>>>(kind, ki, K, dA, dB, dC, dD);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(D.data(), dD, D.size() * sizeof(float), cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaFree(dA)); CUDA_CHECK(cudaFree(dB)); CUDA_CHECK(cudaFree(dC)); CUDA_CHECK(cudaFree(dD));

        /* the model's D under each zero rule, element (t, i, j) where D has it */
        std::vector<float> want[2] = { std::vector<float>(D.size()), std::vector<float>(D.size()) };
        for (int t = 0; t < T; t++)
            for (int i = 0; i < MM; i++)
                for (int j = 0; j < NN; j++) {
                    float arow[KMAX], bcol[KMAX];
                    for (int k = 0; k < K; k++) { arow[k] = A[(size_t)t * MM * K + i * K + k]; bcol[k] = B[(size_t)t * K * NN + k * NN + j]; }
                    for (int rule = 0; rule < 2; rule++) {
                        tc_mma_options opt = { (tc_mma_zero_rule)rule, 0, 0, TC_MMA_ZERO_SIGN_SUM, TC_FP32 };
                        want[rule][(size_t)t * MM * NN + i * NN + j] =
                            tc_mma_dot_ex(arch, info.in, ki.out, K, arow, bcol, C[(size_t)t * MM * NN + i * NN + j], &opt);
                    }
                }
        ValidateOptions shown, count;
        size_t first = 0;
        shown.compare = count.compare = CMP_BITS_NAN;
        shown.cols = NN;
        shown.summary = count.summary = false;
        shown.first = &first;
        count.show = 0;
        long bad[2] = { (long)validate("D", D, want[0], shown), (long)validate("D", D, want[1], count) };
        printf("%-38s %6d outputs: %ld mismatches (MMA-Sim rule, default), %ld (Khattak rule)\n",
               label, T * MM * NN, bad[0], bad[1]);
        if (bad[0]) {
            const size_t per = (size_t)per_fam * MM * NN;
            printf("   by input family:");
            for (int f = 0; f < N_FAM; f++)
                printf(" %s %zu", fam_names[f], validate("D", &D[f * per], &want[0][f * per], per, count));
            int t = (int)(first / (MM * NN)), i = (int)(first % (MM * NN)) / NN, j = (int)(first % NN);
            printf("\n   first: test %d (%s) D[%d][%d]\n    a:", t, fam_names[t / per_fam], i, j);
            for (int k = 0; k < K; k++) printf(" %08x", f2u(A[(size_t)t * MM * K + i * K + k]));
            printf("\n    b:");
            for (int k = 0; k < K; k++) printf(" %08x", f2u(B[(size_t)t * K * NN + k * NN + j]));
            printf("\n    c: %08x\n", f2u(C[first]));
        }
        total_bad += bad[0];
    }
    printf("mma: %s\n", total_bad ? "MISMATCH" : "every output bit equals the model");
    return total_bad ? EXIT_MISMATCH : EXIT_OK;
}
