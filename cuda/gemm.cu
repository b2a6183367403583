/* gemm.cu - a GEMM ladder, llm.c style: D = A*B (row-major, fp32 out), each
   kernel validated against tensorcore.h, then timed against cuBLAS and printed
   beside section 6's predicted time for this GPU.

   Compile (from the repository root; make cuda builds it for sm_80 and sm_90):
     nvcc -std=c++17 -O3 -arch=sm_80 -I. -Isupport cuda/gemm.cu -o gemm -lcublas
   Run:  ./gemm [VERSION] [--size N]     (make gpu-check runs build/cuda/gemm)
     VERSION  1..6: that ladder version alone (both input types of version
              4 and 5), validated and then timed with the cuBLAS GEMM of its
              types, e.g. ncu ./gemm 5; default: every version
     --size N M = N = K of the timed problem, a multiple of 128 up to
              32768; default 4096

   The ladder (tc_tile_ladder_get in the header holds each version's tiling,
   and the kernels below check their compile-time tiles against it):
     version 1  naive FFMA: one output per thread, operands from global memory
     version 2  FFMA with 32x32 shared-memory tiles
     version 3  FFMA, 128x128x8 tiles, 8x8 outputs per thread, 16-byte loads
     version 4  mma.sync m16n8k16 (fp16 and bf16 in, fp32 out) fed by ldmatrix,
                128x128x32 tiles, 64x64 per warp, one shared buffer
     version 5  version 4 with a 4-stage cp.async pipeline
     version 6  mma.sync m16n8k8 tf32, 128x128x16 tiles, 4-stage cp.async

   Validation, before any timing:
     FFMA kernels: every output equals, bit for bit, the sequential fp32 FMA
       chain over k = 0..K-1 (fmaf on the host), because each thread walks K
       in order with __fmaf_rn.
     MMA kernels: every output equals, bit for bit, tc_gemm for this GPU's
       architecture (sm_80/86/89 -> TC_ARCH_A100, sm_90 -> TC_ARCH_H100).
       The kernels walk K in instruction steps in order, each mma.sync adding
       to the running fp32 accumulator: that is tc_gemm's order, so no
       tolerance is needed anywhere. tf32 inputs are rounded to tf32 on the
       host first, so the hardware's truncation of raw fp32 changes nothing.
     Checked on a 256 x 256 x 512 problem in full (CPU model time: seconds)
     and on 64 sampled outputs of the timed size.
   A version that fails either check stops the program before it is timed.
   Timing: each kernel and cuBLAS (cublasGemmEx, same types; tf32 through
   CUBLAS_COMPUTE_32F_FAST_TF32) with benchmark_ms (common.cuh): a warm-up,
   L2 flushed before every run, the median of the runs. Printed: ms, TFLOP/s, % of cuBLAS, the model's
   predicted ms (section 6's tc_tile_predict, machine "a100" or "h100" with
   this GPU's SM count and each kernel's real register count), the same
   from the analytic counts alone (tc_tile_model), and each one's error.
   Exit: 0 all match, 1 a mismatch or CUDA error, 2 no suitable GPU (sm_8x
   or sm_90), 3 usage error.

   Not yet run on a GPU: the numbers it prints are still to be committed
   under tests/measured/ with the device, date and command. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "common.cuh"

#define CUBLAS_CHECK(call)                                                                \
    do {                                                                                  \
        cublasStatus_t s_ = (call);                                                       \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                \
            fprintf(stderr, "cuBLAS error %d at %s:%d\n", (int)s_, __FILE__, __LINE__);  \
            exit(EXIT_MISMATCH);                                                          \
        }                                                                                 \
    } while (0)

/* ------------------------------------------------------------ CPU reference */

/* Sequential fp32 FMA chain: what one FFMA thread computes. */
static float ref_fma_dot(const float *A, const float *B, int N, int K, int m, int n) {
    float acc = 0.0f;
    for (int k = 0; k < K; k++) acc = fmaf(A[(size_t)m * K + k], B[(size_t)k * N + n], acc);
    return acc;
}

/* ------------------------------------------------------------ kernels */

/* Version 1: one output per thread; threadIdx.x runs along N, so a warp's B
   loads are one coalesced 128-byte row and its A load is one broadcast. */
#define V1_BM 8
#define V1_BN 32
#define V1_UNROLL 8   /* K steps per loop trip: the ladder's cta_k */
__global__ void gemm_v1_naive(const float *A, const float *B, float *D, int N, int K) {
    int n = blockIdx.x * V1_BN + threadIdx.x;
    int m = blockIdx.y * V1_BM + threadIdx.y;
    float acc = 0.0f;
#pragma unroll 8   /* = V1_UNROLL: the pragma takes no macro */
    for (int k = 0; k < K; k++) acc = __fmaf_rn(A[(size_t)m * K + k], B[(size_t)k * N + n], acc);
    D[(size_t)m * N + n] = acc;
}

/* Version 2: 32x32 tiles of A and B in shared memory, one output per thread. */
#define V2_T 32
__global__ void gemm_v2_smem(const float *A, const float *B, float *D, int N, int K) {
    __shared__ float As[V2_T][V2_T], Bs[V2_T][V2_T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int m = blockIdx.y * V2_T + ty, n = blockIdx.x * V2_T + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += V2_T) {
        As[ty][tx] = A[(size_t)m * K + k0 + tx];
        Bs[ty][tx] = B[(size_t)(k0 + ty) * N + n];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < V2_T; k++) acc = __fmaf_rn(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    D[(size_t)m * N + n] = acc;
}

/* Version 3: 128x128x8 CTA tile, 256 threads = 8 warps as 2 (m) x 4 (n),
   each warp 64x32, its lanes 8 (m) x 4 (n), each thread 8x8 outputs: rows
   lm*4 + {0..3} and 32 + lm*4 + {0..3} of the warp tile, columns ln*4 + {0..3}
   and 16 + ln*4 + {0..3}, so every 16-byte shared load of a warp reads one
   contiguous run (A: 8 lanes x 16 bytes, B: 4 x 16). A is stored transposed
   (As[k][m]) so that a thread's A values are contiguous. */
#define V3_BM 128
#define V3_BN 128
#define V3_BK 8
#define V3_WM 64
#define V3_WN 32
#define V3_THREADS 256
__global__ void __launch_bounds__(V3_THREADS) gemm_v3_regblock(const float *A, const float *B, float *D, int N, int K) {
    __shared__ __align__(16) float As[V3_BK][V3_BM];
    __shared__ __align__(16) float Bs[V3_BK][V3_BN];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int wm0 = (warp / (V3_BN / V3_WN)) * V3_WM, wn0 = (warp % (V3_BN / V3_WN)) * V3_WN;
    int lm = lane / 4, ln = lane % 4;
    int m0 = blockIdx.y * V3_BM, n0 = blockIdx.x * V3_BN;
    /* global -> shared: A 128 x 8 is one float4 per thread (row tid/2, k (tid%2)*4);
       B 8 x 128 is one float4 per thread (row tid/32, column (tid%32)*4) */
    int a_row = tid / 2, a_k = (tid % 2) * 4, b_row = tid / 32, b_col = (tid % 32) * 4;
    float acc[8][8];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) acc[i][j] = 0.0f;
    for (int k0 = 0; k0 < K; k0 += V3_BK) {
        float4 av = *(const float4 *)&A[(size_t)(m0 + a_row) * K + k0 + a_k];
        float4 bv = *(const float4 *)&B[(size_t)(k0 + b_row) * N + n0 + b_col];
        As[a_k + 0][a_row] = av.x; As[a_k + 1][a_row] = av.y;
        As[a_k + 2][a_row] = av.z; As[a_k + 3][a_row] = av.w;
        *(float4 *)&Bs[b_row][b_col] = bv;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < V3_BK; k++) {
            float a[8], b[8];
            float4 a0 = *(const float4 *)&As[k][wm0 + lm * 4], a1 = *(const float4 *)&As[k][wm0 + 32 + lm * 4];
            float4 b0 = *(const float4 *)&Bs[k][wn0 + ln * 4], b1 = *(const float4 *)&Bs[k][wn0 + 16 + ln * 4];
            a[0] = a0.x; a[1] = a0.y; a[2] = a0.z; a[3] = a0.w; a[4] = a1.x; a[5] = a1.y; a[6] = a1.z; a[7] = a1.w;
            b[0] = b0.x; b[1] = b0.y; b[2] = b0.z; b[3] = b0.w; b[4] = b1.x; b[5] = b1.y; b[6] = b1.z; b[7] = b1.w;
#pragma unroll
            for (int i = 0; i < 8; i++)
#pragma unroll
                for (int j = 0; j < 8; j++) acc[i][j] = __fmaf_rn(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < 8; i++) {
        int m = m0 + wm0 + (i < 4 ? lm * 4 + i : 32 + lm * 4 + i - 4);
        for (int j = 0; j < 8; j++) {
            int n = n0 + wn0 + (j < 4 ? ln * 4 + j : 16 + ln * 4 + j - 4);
            D[(size_t)m * N + n] = acc[i][j];
        }
    }
}

/* ---- Tensor Core kernels (versions 4-6) */

/* 128x128 CTA tile, 4 warps as 2 x 2, each warp 64x64 = 4 (m16) x 8 (n8)
   mma tiles, 128 fp32 accumulators per thread. Shared rows are padded
   (A by PAD_A, B by PAD_B elements) so the 8 row addresses of every
   ldmatrix fall in 8 different 16-byte bank groups. */
#define MMA_BM 128
#define MMA_BN 128
#define MMA_WM 64
#define MMA_WN 64
#define MMA_THREADS 128

/* The C/D fragment (PTX: c0,c1 at row g, columns 2t, 2t+1; c2,c3 at row g+8)
   of every mma tile of the warp, written to D. */
__device__ __forceinline__ void store_acc(float *D, int N, int m0, int n0, const float acc[4][8][4], int lane) {
    int g = lane / 4, t = lane % 4;
    for (int mi = 0; mi < 4; mi++)
        for (int ni = 0; ni < 8; ni++) {
            int m = m0 + mi * 16 + g, n = n0 + ni * 8 + 2 * t;
            *(float2 *)&D[(size_t)m * N + n] = make_float2(acc[mi][ni][0], acc[mi][ni][1]);
            *(float2 *)&D[(size_t)(m + 8) * N + n] = make_float2(acc[mi][ni][2], acc[mi][ni][3]);
        }
}

/* Versions 4 and 5: fp16/bf16 in, fp32 out, m16n8k16, BK = 32.
   STAGES = 1: global -> registers -> shared, one buffer, two barriers per
   iteration. STAGES >= 2: cp.async ring of STAGES buffers, STAGES - 1 tiles
   in flight while one is computed. */
#define F16_BK 32
#define F16_PAD_A 8
#define F16_PAD_B 8
#define F16_LDA (F16_BK + F16_PAD_A)
#define F16_LDB (MMA_BN + F16_PAD_B)
#define F16_STAGE_ELEMS (MMA_BM * F16_LDA + F16_BK * F16_LDB)

template <typename T, int STAGES>
__global__ void __launch_bounds__(MMA_THREADS) gemm_mma16(const T *A, const T *B, float *D, int N, int K) {
    extern __shared__ uint4 smem_raw[];
    T *smem = (T *)smem_raw;
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int m0 = blockIdx.y * MMA_BM, n0 = blockIdx.x * MMA_BN;
    int wm0 = (warp / 2) * MMA_WM, wn0 = (warp % 2) * MMA_WN;
    int KT = K / F16_BK;
    float acc[4][8][4];
    for (int mi = 0; mi < 4; mi++)
        for (int ni = 0; ni < 8; ni++)
            for (int i = 0; i < 4; i++) acc[mi][ni][i] = 0.0f;
    /* 16-byte chunks of one stage: A 128 x 32 = 512 chunks (4 per row),
       B 32 x 128 = 512 chunks (16 per row); 4 of each per thread */
    auto As = [&](int s) { return smem + s * F16_STAGE_ELEMS; };
    auto Bs = [&](int s) { return smem + s * F16_STAGE_ELEMS + MMA_BM * F16_LDA; };
    auto a_src = [&](int kt, int c) { return A + (size_t)(m0 + c / 4) * K + kt * F16_BK + (c % 4) * 8; };
    auto a_dst = [&](int s, int c) { return As(s) + (c / 4) * F16_LDA + (c % 4) * 8; };
    auto b_src = [&](int kt, int c) { return B + (size_t)(kt * F16_BK + c / 16) * N + n0 + (c % 16) * 8; };
    auto b_dst = [&](int s, int c) { return Bs(s) + (c / 16) * F16_LDB + (c % 16) * 8; };
    auto load_async = [&](int s, int kt) {
        for (int i = 0; i < 4; i++) {
            int c = tid + i * MMA_THREADS;
            cp_async16(a_dst(s, c), a_src(kt, c));
            cp_async16(b_dst(s, c), b_src(kt, c));
        }
    };
    /* ldmatrix lane roles: lane l addresses row (j%2)*8 + l%8, column
       (j/2)*8 of its matrix j = l/8 */
    int lr = ((lane / 8) % 2) * 8 + lane % 8, lc = (lane / 16) * 8;
    auto compute = [&](int s) {
        const T *as = As(s), *bs = Bs(s);
#pragma unroll
        for (int kk = 0; kk < F16_BK; kk += 16) {
            uint32_t a[4][4], b[8][2];
#pragma unroll
            for (int mi = 0; mi < 4; mi++) ldmatrix_x4(a[mi], as + (wm0 + mi * 16 + lr) * F16_LDA + kk + lc);
#pragma unroll
            for (int nj = 0; nj < 4; nj++) {
                /* matrices: (k 0-7, n 0-7) (k 8-15, n 0-7) (k 0-7, n 8-15) (k 8-15, n 8-15) */
                uint32_t r[4];
                ldmatrix_x4_trans(r, bs + (kk + lr) * F16_LDB + wn0 + nj * 16 + lc);
                b[2 * nj][0] = r[0]; b[2 * nj][1] = r[1];
                b[2 * nj + 1][0] = r[2]; b[2 * nj + 1][1] = r[3];
            }
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
#pragma unroll
                for (int ni = 0; ni < 8; ni++) mma_m16n8k16<T>(acc[mi][ni], a[mi], b[ni]);
        }
    };
    if (STAGES == 1) {
        for (int kt = 0; kt < KT; kt++) {
            uint4 ra[4], rb[4];
            for (int i = 0; i < 4; i++) {
                int c = tid + i * MMA_THREADS;
                ra[i] = *(const uint4 *)a_src(kt, c);
                rb[i] = *(const uint4 *)b_src(kt, c);
            }
            __syncthreads();   /* everyone is done reading the previous tile */
            for (int i = 0; i < 4; i++) {
                int c = tid + i * MMA_THREADS;
                *(uint4 *)a_dst(0, c) = ra[i];
                *(uint4 *)b_dst(0, c) = rb[i];
            }
            __syncthreads();
            compute(0);
        }
    } else {
        for (int s = 0; s < STAGES - 1; s++) {
            if (s < KT) load_async(s, s);
            cp_async_commit();
        }
        for (int kt = 0; kt < KT; kt++) {
            cp_async_wait<STAGES - 2>();   /* tile kt has landed */
            __syncthreads();               /* ... for every thread, and slot (kt-1)%STAGES is free */
            int next = kt + STAGES - 1;
            if (next < KT) load_async(next % STAGES, next);
            cp_async_commit();             /* an empty group keeps the count in step */
            compute(kt % STAGES);
        }
    }
    store_acc(D, N, m0 + wm0, n0 + wn0, acc, lane);
}

/* Version 6: tf32 (fp32 storage), m16n8k8, BK = 16, cp.async ring. The A
   fragment (a0 (g,t), a1 (g+8,t), a2 (g,t+4), a3 (g+8,t+4)) is one
   ldmatrix.x4 of 8 rows x 16 bytes = 8 x 4 floats per matrix; the B fragment
   (b0 (t,g), b1 (t+4,g)) is two 32-bit shared loads, conflict-free because
   the B row pitch is 8 words past a multiple of 32 banks. */
#define TF_BK 16
#define TF_PAD_A 4
#define TF_PAD_B 8
#define TF_LDA (TF_BK + TF_PAD_A)
#define TF_LDB (MMA_BN + TF_PAD_B)
#define TF_STAGE_ELEMS (MMA_BM * TF_LDA + TF_BK * TF_LDB)
#define TF_STAGES 4

__global__ void __launch_bounds__(MMA_THREADS) gemm_v6_tf32(const float *A, const float *B, float *D, int N, int K) {
    extern __shared__ uint4 smem_raw[];
    float *smem = (float *)smem_raw;
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int g = lane / 4, t = lane % 4;
    int m0 = blockIdx.y * MMA_BM, n0 = blockIdx.x * MMA_BN;
    int wm0 = (warp / 2) * MMA_WM, wn0 = (warp % 2) * MMA_WN;
    int KT = K / TF_BK;
    float acc[4][8][4];
    for (int mi = 0; mi < 4; mi++)
        for (int ni = 0; ni < 8; ni++)
            for (int i = 0; i < 4; i++) acc[mi][ni][i] = 0.0f;
    /* 16-byte chunks: A 128 x 16 floats = 512 (4 per row), B 16 x 128 = 512 (32 per row) */
    auto load_async = [&](int s, int kt) {
        float *as = smem + s * TF_STAGE_ELEMS, *bs = as + MMA_BM * TF_LDA;
        for (int i = 0; i < 4; i++) {
            int c = tid + i * MMA_THREADS;
            cp_async16(as + (c / 4) * TF_LDA + (c % 4) * 4, A + (size_t)(m0 + c / 4) * K + kt * TF_BK + (c % 4) * 4);
            cp_async16(bs + (c / 32) * TF_LDB + (c % 32) * 4, B + (size_t)(kt * TF_BK + c / 32) * N + n0 + (c % 32) * 4);
        }
    };
    /* ldmatrix lane roles: matrix j = l/8 covers rows (j%2)*8.., floats (j/2)*4.. */
    int lr = ((lane / 8) % 2) * 8 + lane % 8, lc = (lane / 16) * 4;
    for (int s = 0; s < TF_STAGES - 1; s++) {
        if (s < KT) load_async(s, s);
        cp_async_commit();
    }
    for (int kt = 0; kt < KT; kt++) {
        cp_async_wait<TF_STAGES - 2>();
        __syncthreads();
        int next = kt + TF_STAGES - 1;
        if (next < KT) load_async(next % TF_STAGES, next);
        cp_async_commit();
        const float *as = smem + (kt % TF_STAGES) * TF_STAGE_ELEMS, *bs = as + MMA_BM * TF_LDA;
#pragma unroll
        for (int kk = 0; kk < TF_BK; kk += 8) {
            uint32_t a[4][4], b[8][2];
#pragma unroll
            for (int mi = 0; mi < 4; mi++) ldmatrix_x4(a[mi], as + (wm0 + mi * 16 + lr) * TF_LDA + kk + lc);
#pragma unroll
            for (int ni = 0; ni < 8; ni++) {
                b[ni][0] = __float_as_uint(bs[(kk + t) * TF_LDB + wn0 + ni * 8 + g]);
                b[ni][1] = __float_as_uint(bs[(kk + t + 4) * TF_LDB + wn0 + ni * 8 + g]);
            }
#pragma unroll
            for (int mi = 0; mi < 4; mi++)
#pragma unroll
                for (int ni = 0; ni < 8; ni++) mma_m16n8k8_tf32(acc[mi][ni], a[mi], b[ni]);
        }
    }
    store_acc(D, N, m0 + wm0, n0 + wn0, acc, lane);
}

/* ------------------------------------------------------------ launchers */

/* One rung as main sees it: which ladder entry, which input type, how to
   launch it, and its compile-time tile for the check against the header. */
typedef struct {
    int ladder;           /* index into tc_tile_ladder_get */
    tc_dtype in;
    const void *func;     /* for cudaFuncGetAttributes */
    int cta_m, cta_n, cta_k, threads, stages;
    size_t smem;          /* dynamic shared memory */
} rung;

static const size_t F16_SMEM1 = (size_t)F16_STAGE_ELEMS * sizeof(__half);
static const size_t F16_SMEM4 = 4 * (size_t)F16_STAGE_ELEMS * sizeof(__half);
static const size_t TF_SMEM = (size_t)TF_STAGES * TF_STAGE_ELEMS * sizeof(float);

static const rung rungs[] = {
    { 0, TC_FP32, (const void *)gemm_v1_naive, V1_BM, V1_BN, V1_UNROLL, V1_BM * V1_BN, 0, 0 },
    { 1, TC_FP32, (const void *)gemm_v2_smem, V2_T, V2_T, V2_T, V2_T * V2_T, 1, 0 },
    { 2, TC_FP32, (const void *)gemm_v3_regblock, V3_BM, V3_BN, V3_BK, V3_THREADS, 1, 0 },
    { 3, TC_FP16, (const void *)gemm_mma16<__half, 1>, MMA_BM, MMA_BN, F16_BK, MMA_THREADS, 1, F16_SMEM1 },
    { 3, TC_BF16, (const void *)gemm_mma16<__nv_bfloat16, 1>, MMA_BM, MMA_BN, F16_BK, MMA_THREADS, 1, F16_SMEM1 },
    { 4, TC_FP16, (const void *)gemm_mma16<__half, 4>, MMA_BM, MMA_BN, F16_BK, MMA_THREADS, 4, F16_SMEM4 },
    { 4, TC_BF16, (const void *)gemm_mma16<__nv_bfloat16, 4>, MMA_BM, MMA_BN, F16_BK, MMA_THREADS, 4, F16_SMEM4 },
    { 5, TC_TF32, (const void *)gemm_v6_tf32, MMA_BM, MMA_BN, TF_BK, MMA_THREADS, TF_STAGES, TF_SMEM },
};
#define N_RUNGS ((int)(sizeof rungs / sizeof rungs[0]))

/* The kernel's tile must be the header's, or the prediction is for another kernel. */
static int rung_matches_ladder(const rung *r) {
    const tc_tile_kernel *k = tc_tile_ladder_get(r->ladder);
    if (!k) return 0;
    const tc_tile_desc *d = &k->tile;
    int threads = 32 * (d->cta_m / d->warp_m) * (d->cta_n / d->warp_n);
    int stages = d->staging == TC_TILE_DIRECT ? 0 : (d->stages ? d->stages : 1);
    return d->cta_m == r->cta_m && d->cta_n == r->cta_n && d->cta_k == r->cta_k && threads == r->threads &&
           stages == r->stages && (d->in == r->in || (d->in == TC_FP16 && r->in == TC_BF16));
}

static void launch(const rung *r, const void *A, const void *B, float *D, int M, int N, int K) {
    dim3 grid(N / r->cta_n, M / r->cta_m);
    switch (r - rungs) {
    case 0: gemm_v1_naive<<<grid, dim3(V1_BN, V1_BM)>>>((const float *)A, (const float *)B, D, N, K); break;
    case 1: gemm_v2_smem<<<grid, dim3(V2_T, V2_T)>>>((const float *)A, (const float *)B, D, N, K); break;
    case 2: gemm_v3_regblock<<<grid, V3_THREADS>>>((const float *)A, (const float *)B, D, N, K); break;
    case 3: gemm_mma16<__half, 1><<<grid, MMA_THREADS, r->smem>>>((const __half *)A, (const __half *)B, D, N, K); break;
    case 4: gemm_mma16<__nv_bfloat16, 1><<<grid, MMA_THREADS, r->smem>>>((const __nv_bfloat16 *)A, (const __nv_bfloat16 *)B, D, N, K); break;
    case 5: gemm_mma16<__half, 4><<<grid, MMA_THREADS, r->smem>>>((const __half *)A, (const __half *)B, D, N, K); break;
    case 6: gemm_mma16<__nv_bfloat16, 4><<<grid, MMA_THREADS, r->smem>>>((const __nv_bfloat16 *)A, (const __nv_bfloat16 *)B, D, N, K); break;
    default: gemm_v6_tf32<<<grid, MMA_THREADS, r->smem>>>((const float *)A, (const float *)B, D, N, K); break;
    }
    CUDA_CHECK(cudaGetLastError());
}

/* cuBLAS with the same types. cuBLAS is column-major: row-major D = A*B is
   column-major D^T = B^T A^T, so B goes first and M, N swap. */
static void launch_cublas(cublasHandle_t h, tc_dtype in, const void *A, const void *B, float *D, int M, int N, int K) {
    const float one = 1.0f, zero = 0.0f;
    cudaDataType_t t = in == TC_FP16 ? CUDA_R_16F : in == TC_BF16 ? CUDA_R_16BF : CUDA_R_32F;
    cublasComputeType_t c = in == TC_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, t, N, A, t, K, &zero, D, CUDA_R_32F, N,
                              c, CUBLAS_GEMM_DEFAULT));
}

/* ------------------------------------------------------------ main */

/* Operands on the host as fp32 values (exactly representable in `in`) and
   on the device in `in`'s storage. */
typedef struct {
    std::vector<float> A, B;
    void *dA[TC_DTYPE_COUNT], *dB[TC_DTYPE_COUNT];   /* device copies by storage type (FP32 also serves TF32) */
} operands;

static void *to_device(const std::vector<float> &x, tc_dtype t) {
    size_t n = x.size();
    void *d = NULL;
    if (t == TC_FP16 || t == TC_BF16) {
        std::vector<uint16_t> h(n);
        for (size_t i = 0; i < n; i++) h[i] = (uint16_t)tc_encode(t, x[i], TC_RN);
        CUDA_CHECK(cudaMalloc(&d, n * 2));
        CUDA_CHECK(cudaMemcpy(d, h.data(), n * 2, cudaMemcpyHostToDevice));
    } else {
        CUDA_CHECK(cudaMalloc(&d, n * 4));
        CUDA_CHECK(cudaMemcpy(d, x.data(), n * 4, cudaMemcpyHostToDevice));
    }
    return d;
}

/* Random operands for M x K and K x N, each value representable in every
   type it will be read as: fp16 and bf16 rungs get their own rounding, the
   fp32/tf32 rungs share tf32-rounded values (exact for FFMA too). */
static void make_operands(operands *o, int M, int N, int K) {
    static const tc_dtype types[] = { TC_FP16, TC_BF16, TC_TF32 };
    memset(o->dA, 0, sizeof o->dA);
    memset(o->dB, 0, sizeof o->dB);
    o->A.resize((size_t)M * K);
    o->B.resize((size_t)K * N);
    /* uniform in [-1, 1) */
    for (float &v : o->A) v = rand_sym();
    for (float &v : o->B) v = rand_sym();
    for (tc_dtype t : types) {
        std::vector<float> a(o->A), b(o->B);
        for (float &v : a) v = tc_round(t, v, t == TC_TF32 ? TC_RNA : TC_RN);
        for (float &v : b) v = tc_round(t, v, t == TC_TF32 ? TC_RNA : TC_RN);
        o->dA[t] = to_device(a, t);
        o->dB[t] = to_device(b, t);
    }
    o->dA[TC_FP32] = o->dA[TC_TF32];
    o->dB[TC_FP32] = o->dB[TC_TF32];
}

static void free_operands(operands *o) {
    for (int t = 0; t < TC_DTYPE_COUNT; t++)
        if (t != TC_FP32) { cudaFree(o->dA[t]); cudaFree(o->dB[t]); }
}

/* The host value the GPU read for element i of A (or B) in rung type t. */
static float host_value(const std::vector<float> &x, size_t i, tc_dtype t) {
    tc_dtype s = t == TC_FP32 ? TC_TF32 : t;
    return tc_round(s, x[i], s == TC_TF32 ? TC_RNA : TC_RN);
}

static const char *type_name(tc_dtype t) { return t == TC_FP32 ? "fp32" : tc_format_of(t)->name; }

/* The reference for output (m, n) of a rung: the FFMA chain for fp32, the
   header's tc_gemm for this architecture for the Tensor Core types. */
static float reference(const rung *r, tc_arch arch, const operands *o, int N, int K, int m, int n) {
    std::vector<float> a(K), b(K);
    for (int k = 0; k < K; k++) {
        a[k] = host_value(o->A, (size_t)m * K + k, r->in);
        b[k] = host_value(o->B, (size_t)k * N + n, r->in);
    }
    if (r->in == TC_FP32) return ref_fma_dot(a.data(), b.data(), 1, K, 0, 0);
    float want;
    if (tc_gemm(arch, r->in, TC_FP32, 1, 1, K, a.data(), K, b.data(), 1, NULL, 1, &want, 1) != TC_OK) {
        fprintf(stderr, "tc_gemm refused the problem\n");
        exit(EXIT_MISMATCH);
    }
    return want;
}

/* Validate a rung: every output of a small problem (samples = 0), or
   `samples` outputs of the given one. Returns the mismatches. */
static size_t validate_rung(const rung *r, tc_arch arch, const operands *o, float *dD, int M, int N, int K, int samples) {
    std::vector<float> out((size_t)M * N), got, want;
    std::vector<size_t> where;
    CUDA_CHECK(cudaMemset(dD, 0xFF, out.size() * sizeof(float)));
    launch(r, o->dA[r->in], o->dB[r->in], dD, M, N, K);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(out.data(), dD, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < (samples ? samples : M * N); i++) {
        /* sampled: the corners of the matrix and of tiles, then random places */
        int m = !samples ? i / N : i < 4 ? (i & 1) * (M - 1) : (int)(rand32() % (uint32_t)M);
        int n = !samples ? i % N : i < 4 ? (i >> 1) * (N - 1) : (int)(rand32() % (uint32_t)N);
        where.push_back((size_t)m * N + n);
        got.push_back(out[(size_t)m * N + n]);
        want.push_back(reference(r, arch, o, N, K, m, n));
    }
    const tc_tile_kernel *k = tc_tile_ladder_get(r->ladder);
    char what[64];
    snprintf(what, sizeof what, "v%d %s %s D", k->version, k->name, type_name(r->in));
    ValidateOptions opt;
    opt.cols = (size_t)N;
    opt.index = where.data();
    return validate(what, got, want, opt);
}

static const char *const USAGE = "gemm [VERSION] [--size N]   (VERSION: one ladder version; N: M = N = K, a multiple of 128)";
static const char *const VERSIONS[] = { "1", "2", "3", "4", "5", "6" };

int main(int argc, char **argv) {
    long size = 4096;
    int pick = parse_args(argc, argv, USAGE, VERSIONS, COUNT_OF(VERSIONS), "--size", &size);
    if (size < 128 || size % 128 != 0 || size > 32768) {
        fprintf(stderr, "gemm: --size %ld: must be a multiple of 128, at most 32768\nusage: %s\n", size, USAGE);
        return EXIT_USAGE;
    }
    cudaDeviceProp prop;
    if (!gpu_sm("gemm", 80, &prop)) return EXIT_NO_GPU;
    if (prop.major != 8 && prop.major != 9) {
        printf("gemm: no suitable GPU: %s is sm_%d%d; the header models sm_8x and sm_90 only\n", prop.name, prop.major,
               prop.minor);
        return EXIT_NO_GPU;
    }
    tc_arch arch = prop.major == 9 ? TC_ARCH_H100 : TC_ARCH_A100;
    tc_gpu machine = *tc_gpu_find(prop.major == 9 ? "h100" : "a100");   /* a copy: this GPU's SM count */
    machine.profile.sms = prop.multiProcessorCount;
    printf("%s (sm_%d%d, %d SMs): numerics model %s, timing model \"%s\" with %d SMs\n", prop.name, prop.major,
           prop.minor, prop.multiProcessorCount, arch == TC_ARCH_H100 ? "H100" : "A100", machine.name, machine.profile.sms);

    bool run[N_RUNGS];
    for (int i = 0; i < N_RUNGS; i++) {
        if (!rung_matches_ladder(&rungs[i])) {
            fprintf(stderr, "rung %d: the kernel's tile differs from tc_tile_ladder_get(%d)\n", i, rungs[i].ladder);
            return EXIT_MISMATCH;
        }
        run[i] = selected(pick, tc_tile_ladder_get(rungs[i].ladder)->version - 1);
        if (rungs[i].smem > 0)
            CUDA_CHECK(cudaFuncSetAttribute(rungs[i].func, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)rungs[i].smem));
    }

    size_t failures = 0;
    const int vm = 256, vn = 256, vk = 512;
    {
        operands o;
        float *dD;
        make_operands(&o, vm, vn, vk);
        CUDA_CHECK(cudaMalloc(&dD, (size_t)vm * vn * sizeof(float)));
        printf("validation, %d x %d x %d, every output, bit-exact:\n", vm, vn, vk);
        for (int i = 0; i < N_RUNGS; i++)
            if (run[i]) failures += validate_rung(&rungs[i], arch, &o, dD, vm, vn, vk, 0);
        CUDA_CHECK(cudaFree(dD));
        free_operands(&o);
    }
    if (failures) {
        printf("gemm: validation failed: no timing\n");
        return EXIT_MISMATCH;
    }

    operands o;
    float *dD;
    int M = (int)size, N = (int)size, K = (int)size;
    make_operands(&o, M, N, K);
    CUDA_CHECK(cudaMalloc(&dD, (size_t)M * N * sizeof(float)));
    cublasHandle_t handle;
    CUBLAS_CHECK(cublasCreate(&handle));
    double flops = 2.0 * M * (double)N * K;
    double cublas_ms[TC_DTYPE_COUNT] = { 0 };
    printf("\n%d x %d x %d, D fp32: 64 sampled outputs checked bit for bit, then timed (median, L2 flushed before each run)\n",
           M, N, K);
    for (int i = 0; i < N_RUNGS; i++) {
        rng_seed(0x5A3D1E5ull + (uint64_t)i);   /* the same places whichever versions run */
        if (run[i]) failures += validate_rung(&rungs[i], arch, &o, dD, M, N, K, 64);
    }
    if (failures) {
        printf("gemm: validation failed: no timing\n");
        return EXIT_MISMATCH;
    }
    printf("%-3s %-13s %-4s %9s %9s %8s %11s %8s %11s %8s %s\n", "v", "kernel", "in", "ms", "TFLOP/s", "%cuBLAS",
           "model ms", "error", "analytic ms", "error", "limit");
    for (int i = 0; i < N_RUNGS; i++) {
        if (!run[i]) continue;
        const rung *r = &rungs[i];
        const tc_tile_kernel *k = tc_tile_ladder_get(r->ladder);
        if (cublas_ms[r->in] == 0.0)
            cublas_ms[r->in] = benchmark_ms(5, [&] { launch_cublas(handle, r->in, o.dA[r->in], o.dB[r->in], dD, M, N, K); });
        int reps = r->ladder < 2 ? 3 : 5;   /* the FFMA rungs take long */
        double ms = benchmark_ms(reps, [&] { launch(r, o.dA[r->in], o.dB[r->in], dD, M, N, K); });
        cudaFuncAttributes attr;
        CUDA_CHECK(cudaFuncGetAttributes(&attr, r->func));
        tc_tile_desc d = k->tile;
        d.M = M; d.N = N; d.K = K;
        d.in = r->in;
        d.regs_per_thread = attr.numRegs;
        tc_tile_result pr;
        const char *why = NULL;
        tc_status st = tc_tile_predict(&machine, &d, &pr, &why);
        if (st != TC_OK) {
            printf("v%d %s: the model refuses the tiling: %s\n", k->version, k->name, why);
            failures++;
            continue;
        }
        double pms = pr.predicted_s * 1e3, ams = pr.analytic_predicted_s * 1e3;
        printf("%-3d %-13s %-4s %9.3f %9.1f %7.1f%% %11.3f %+7.1f%% %11.3f %+7.1f%% %s\n", k->version, k->name,
               type_name(r->in), ms, flops / (ms * 1e-3) / 1e12, 100.0 * cublas_ms[r->in] / ms, pms, 100.0 * (pms - ms) / ms,
               ams, 100.0 * (ams - ms) / ms, tc_tile_limit_name(pr.limit));
    }
    printf("cuBLAS: ");
    for (int t = 0; t < TC_DTYPE_COUNT; t++)
        if (cublas_ms[t] > 0.0) printf("%s %.3f ms (%.1f TFLOP/s)  ", type_name((tc_dtype)t), cublas_ms[t], flops / (cublas_ms[t] * 1e-3) / 1e12);
    printf("\n(error = (model - measured) / measured; model = tc_tile_predict, the simulated main loop; analytic =\n"
           " tc_tile_model's resource counts; limit = what the analytic counts say sets the time)\n");
    CUBLAS_CHECK(cublasDestroy(handle));
    CUDA_CHECK(cudaFree(dD));
    free_operands(&o);
    return failures ? EXIT_MISMATCH : EXIT_OK;
}
