/* test_fenv.c - the models give the same bits whatever floating-point
   environment the caller has set: each rounding mode by fesetround (C99)
   and, on x86, FTZ and DAZ in MXCSR. Before 2026-11-26 they did not:
   tc_decode(TC_S32, 2^31 - 1) under RZ or RD gave 2^31 - 128, tc_encode
   to the integer types under DAZ read a subnormal as zero (RU of 2^-149
   gave 0), tc_dot_fma and tc_dot_exact rounded in the caller's mode,
   and, until a second change that day, so did loss scaling, block
   scaling, tc_ulp and the simulator's and tiling model's times, pruning
   under DAZ took an fp32 subnormal for zero, and builds without SIMD
   (TC_NO_SIMD) guarded nothing (docs/REFERENCE.md 1.7). Checked here, part by part, against the
   same calls in the default environment, computed first: tc_encode,
   tc_decode and tc_round of every dtype in every mode on values that reach
   each rounding decision; custom formats and stochastic rounding; the
   array conversions; the dot products; GEMMs (fp32 subnormal operands
   among them) and a sparse one, scalar and SIMD; pruning and compression;
   every dense instruction through tc_mma_run; loss scaling; block scaling
   and the block-scaled MMAs; simulated runs, predictions and tiling
   models. The Makefile builds it three times: as it is, with TC_NO_SIMD,
   and with TC_NO_SIMD and TC__FENV_C99 (the <fenv.h> guard of CPUs
   without MXCSR). */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <fenv.h>
#include <stdlib.h>
#if defined(__SSE2__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

enum { NV = 4096, M = 16, N = 24, K = 64, NRES = 1 << 22 };

#if defined(TC__FENV_C99)
#define TEST_NAME "test_fenv_c99"
#elif defined(TC_NO_SIMD)
#define TEST_NAME "test_fenv_nosimd"
#else
#define TEST_NAME "test_fenv"
#endif

enum { BR = 8, BK = 64 };   /* block scaling's operand */

/* The inputs, made in main in the default environment: the parts do no
   arithmetic of their own, so only the calls see the caller's. */
static float vals[NV], A[3][M * K], B[3][K * N], C[3][M * N], A_tiny[M * K], X_block[BR * BK];
static float A_sub[2][M * K], B_sub[2][K * N], C_sub[M * N];   /* bf16 and tf32 operands, fp32 subnormals among them */
static const double backoffs[2] = { 0.6, 0.3 };
static float one_third;

/* The parts below each write their results, in order, as bits to r and
   return how many; main compares each part's under every environment. */

static size_t formats(uint32_t *r) {   /* tc_encode, tc_decode, tc_round of every dtype in every mode */
    size_t n = 0;
    int t, m, i;
    for (t = 0; t < TC_DTYPE_COUNT; t++)
        for (m = 0; m < 5; m++)
            for (i = 0; i < NV; i++) {
                const uint32_t e = tc_encode((tc_dtype)t, vals[i], m);
                r[n++] = e;
                r[n++] = tct_f2u(tc_decode((tc_dtype)t, e));
                r[n++] = tct_f2u(tc_round((tc_dtype)t, vals[i], m | TC_SATFINITE));
            }
    return n;
}

static size_t format_helpers(uint32_t *r) {   /* custom formats, stochastic rounding, tc_ulp, tc_next_up */
    static const tc_custom_format cf[3] = { { 3, 4, TC_SPECIALS_IEEE, 1 }, { 5, 7, TC_SPECIALS_NAN, 1 }, { 2, 2, TC_SPECIALS_NONE, 0 } };
    size_t n = 0;
    int t, m, i;
    uint32_t bits = 0;
    float o = 0;
    for (t = 0; t < 3; t++)
        for (m = 0; m < 5; m++)
            for (i = 0; i < NV; i += 3) {
                CHECK_STATUS(tc_custom_encode(&cf[t], vals[i], m, &bits), TC_OK);
                r[n++] = bits;
                CHECK_STATUS(tc_custom_decode(&cf[t], bits, &o), TC_OK);
                r[n++] = tct_f2u(o);
                CHECK_STATUS(tc_custom_round(&cf[t], vals[i], m | TC_SATFINITE, &o), TC_OK);
                r[n++] = tct_f2u(o);
            }
    for (t = 0; t < TC_DTYPE_COUNT; t++)
        for (i = 0; i < NV; i += 5) {
            const int nbits = tc_sr_bits((tc_dtype)t) ? tc_sr_bits((tc_dtype)t) : 8;
            r[n++] = tc_encode_sr((tc_dtype)t, vals[i], (uint32_t)i * 2654435761u, nbits, 0);
            r[n++] = tct_f2u(tc_ulp((tc_dtype)t, vals[i]));
            r[n++] = tct_f2u(tc_next_up((tc_dtype)t, vals[i]));
        }
    return n;
}

static size_t arrays(uint32_t *r) {   /* the array conversions (test_formats_vec checks each path under a caller's MXCSR) */
    static float rf[NV];
    static uint16_t h[NV];
    static uint8_t b8[NV];
    size_t n = 0;
    int m, i;
    for (m = 0; m < 5; m++) {
        CHECK_STATUS(tc_fp16_from_f32_array(vals, h, NV, m), TC_OK);
        CHECK_STATUS(tc_e4m3_from_f32_array(vals, b8, NV, m | TC_SATFINITE), TC_OK);
        CHECK_STATUS(tc_round_array(TC_E5M2, vals, rf, NV, m), TC_OK);
        for (i = 0; i < NV; i++) {
            r[n++] = (uint32_t)h[i] << 8 | b8[i];
            r[n++] = tct_f2u(rf[i]);
        }
    }
    CHECK_STATUS(tc_fp16_to_f32_array(h, rf, NV), TC_OK);
    for (i = 0; i < NV; i++) r[n++] = tct_f2u(rf[i]);
    return n;
}

static size_t dots(uint32_t *r) {   /* tc_dot_fma, tc_dot_exact, tc_mma_dot */
    size_t n = 0;
    int i;
    float o = 0;
    for (i = 1; i <= K; i++) {
        CHECK_STATUS(tc_dot_fma(i, A[0], 1, B[0], N, 0.1f, &o), TC_OK);
        r[n++] = tct_f2u(o);
        CHECK_STATUS(tc_dot_exact(i, A[0], 1, B[0], N, 0.1f, &o), TC_OK);
        r[n++] = tct_f2u(o);
    }
    for (i = 0; i < 16; i++) {
        r[n++] = tct_f2u(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 16, A[0] + i * K, A[0] + (i + 1) % 16 * K, vals[i + 64]));
        r[n++] = tct_f2u(tc_mma_dot(TC_ARCH_H100, TC_E4M3, TC_FP16, 32, A[2] + i * K, A[2] + (i + 1) % 16 * K, C[2][i]));
    }
    return n;
}

static size_t gemms(uint32_t *r) {   /* A100, V100 and H100 GEMMs and a 2:4 sparse one, scalar and SIMD */
    static const struct { tc_arch arch; tc_dtype in, out; int sub; } g[5] = {
        { TC_ARCH_A100, TC_FP16, TC_FP32, 0 }, { TC_ARCH_V100, TC_FP16, TC_FP32, 0 }, { TC_ARCH_H100, TC_E4M3, TC_FP16, 0 },
        { TC_ARCH_A100, TC_BF16, TC_FP32, 1 }, { TC_ARCH_H100, TC_TF32, TC_FP32, 1 },   /* operands with fp32 subnormals */
    };
    size_t n = 0;
    int i, j, fs;
    float D[M * N], V[M * K / 2];
    uint32_t meta[M * K / 32];
    for (i = 0; i < 5; i++)
        for (fs = 0; fs < 2; fs++) {
            tc_gemm_desc d;
            memset(&d, 0, sizeof d);
            d.arch = g[i].arch; d.in = g[i].in; d.out = g[i].out;
            d.M = M; d.N = N; d.K = K; d.D = D; d.force_scalar = fs;
            d.A = g[i].sub ? A_sub[g[i].in == TC_TF32] : A[i]; d.B = g[i].sub ? B_sub[g[i].in == TC_TF32] : B[i]; d.C = g[i].sub ? C_sub : C[i];
            CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
            for (j = 0; j < M * N; j++) r[n++] = tct_f2u(D[j]);
        }
    CHECK_STATUS(tc_sparse_compress(TC_FP16, M, K, A[0], K, V, K / 2, meta, K / 32, TC_SPARSE_PRUNE, NULL), TC_OK);
    for (fs = 0; fs < 2; fs++) {
        tc_sparse_gemm_desc d;
        memset(&d, 0, sizeof d);
        d.gemm.arch = TC_ARCH_A100; d.gemm.in = TC_FP16; d.gemm.out = TC_FP32;
        d.gemm.M = M; d.gemm.N = N; d.gemm.K = K; d.gemm.A = V; d.gemm.B = B[0]; d.gemm.C = C[0]; d.gemm.D = D;
        d.gemm.force_scalar = fs; d.meta = meta; d.ldm = K / 32;
        CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_OK);
        for (j = 0; j < M * N; j++) r[n++] = tct_f2u(D[j]);
    }
    return n;
}

static size_t sparsity(uint32_t *r) {   /* pruning, the pattern check and compression, on values with fp32 subnormals */
    static const tc_dtype types[2] = { TC_FP16, TC_TF32 };
    float P[M * K], V[M * K / 2];
    unsigned char mask[M * K];
    uint32_t meta[M * K / 16];
    tc_sparse_violation bad;
    size_t n = 0;
    int t, i;
    for (t = 0; t < 2; t++) {
        int words = 0;
        CHECK_STATUS(tc_sparse_prune(types[t], M, K, vals, K, P, K, mask), TC_OK);
        for (i = 0; i < M * K; i++) r[n++] = tct_f2u(P[i]) ^ mask[i];
        memset(&bad, 0, sizeof bad);
        r[n++] = (uint32_t)tc_sparse_check(types[t], M, K, vals, K, &bad);
        r[n++] = (uint32_t)bad.row << 16 ^ (uint32_t)bad.col << 8 ^ (uint32_t)bad.nonzeros;
        CHECK_STATUS(tc_sparse_meta_words(types[t], K, &words), TC_OK);
        CHECK_STATUS(tc_sparse_compress(types[t], M, K, vals, K, V, K / 2, meta, words, TC_SPARSE_PRUNE, NULL), TC_OK);
        for (i = 0; i < M * K / 2; i++) r[n++] = tct_f2u(V[i]);
        for (i = 0; i < M * words; i++) r[n++] = meta[i];
    }
    return n;
}

static size_t instructions(uint32_t *r) {   /* every dense instruction through tc_mma_run on A100, H100 and B200 */
    static const tc_arch archs[3] = { TC_ARCH_A100, TC_ARCH_H100, TC_ARCH_B200 };
    static float Ab[256 * 256], Bb[256 * 256], Cb[256 * 256], Db[256 * 256];
    size_t n = 0;
    int t, m, i;
    for (t = 0; t < 3; t++)
        for (m = 0; m < TC_MMA_INSTR_COUNT; m++) {
            tc_mma_instr_info info;
            CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)m, &info), TC_OK);
            const int w = info.n_step ? info.n_step : info.n;   /* the narrowest legal N: every kind, in little time */
            if (info.sparse_group || !(info.archs & TC_ARCH_BIT(archs[t])) || info.m * info.k > 256 * 256 || info.k * w > 256 * 256) continue;
            for (i = 0; i < info.m * info.k; i++) Ab[i] = tc_round(info.in, A_tiny[i % (M * K)], TC_RN | TC_SATFINITE);
            for (i = 0; i < info.k * w; i++) Bb[i] = tc_round(info.b_type, B[0][i % (K * N)], TC_RN | TC_SATFINITE);
            for (i = 0; i < info.m * w; i++) Cb[i] = tc_round(TC_FP16, C[0][i % (M * N)], TC_RN);
            if (tc_mma_run(archs[t], (tc_mma_instr)m, w, TC_FP32, Ab, Bb, Cb, Db) != TC_OK) continue;
            for (i = 0; i < info.m * w; i++) r[n++] = tct_f2u(Db[i]);
        }
    return n;
}

static size_t loss_scaling(uint32_t *r) {   /* scalers whose factors are not powers of two, and the unscale pass */
    static const float factors[2] = { 1.5f, 3.0f };
    float g32[NV / 4];
    uint16_t g16[NV / 4], gb[NV / 4];
    tc_grad_array ga[3];
    size_t n = 0;
    int i, j, found = -1;
    for (i = 0; i < 2; i++) {
        tc_scaler s;
        tc_scaler_desc d;
        memset(&d, 0, sizeof d);
        d.init_scale = 1000.1f; d.growth_factor = factors[i]; d.backoff_factor = backoffs[i]; d.growth_interval = 3;
        CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
        for (j = 0; j < 60; j++) {
            r[n++] = (uint32_t)tc_scaler_update(&s, j % 7 == 6);
            r[n++] = tct_f2u(s.scale);
            r[n++] = tct_f2u(tc_scaler_inv_scale(&s));
        }
    }
    for (i = 0; i < NV / 4; i++) {
        g32[i] = vals[i];
        g16[i] = (uint16_t)tc_encode(TC_FP16, vals[i], TC_RN);
        gb[i] = (uint16_t)tc_encode(TC_BF16, vals[i], TC_RN);
    }
    ga[0].dtype = TC_FP32; ga[0].data = g32; ga[0].count = NV / 4;
    ga[1].dtype = TC_FP16; ga[1].data = g16; ga[1].count = NV / 4;
    ga[2].dtype = TC_BF16; ga[2].data = gb; ga[2].count = NV / 4;
    CHECK_STATUS(tc_unscale_arrays(ga, 3, one_third, &found), TC_OK);
    r[n++] = (uint32_t)found;
    for (i = 0; i < NV / 4; i++) {
        r[n++] = tct_f2u(g32[i]);
        r[n++] = (uint32_t)g16[i] << 16 | gb[i];
    }
    return n;
}

static size_t put_f64(uint32_t *r, double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    r[0] = (uint32_t)u;
    r[1] = (uint32_t)(u >> 32);
    return 2;
}

static size_t block_scaling(uint32_t *r) {   /* every block kind quantized and back, its stats, and the scaled MMAs on its codes */
    float Y[BR * BK], D[M * N], s_enc = 0, o = 0;
    uint8_t codes[2][BR * BK], scales[2][BR * BK / 16];
    tc_block_stats st[BR * BK / 16];
    size_t n = 0;
    int t, i, j;
    CHECK_STATUS(tc_nvfp4_tensor_scale(BR, BK, X_block, BK, &s_enc), TC_OK);
    r[n++] = tct_f2u(s_enc);
    for (t = 0; t < TC_BLOCK_KIND_COUNT; t++) {
        const tc_block_info *bi = tc_block_info_of((tc_block_kind)t);
        const float ts = bi->tensor_scale ? s_enc : 1.0f;
        const int nb = BR * BK / bi->block;
        tc_mma_scaled_type ty;
        tc_gemm_scaled_desc g;
        for (j = 0; j < 2; j++) {   /* X, then its dequantized copy Y */
            CHECK_STATUS(tc_block_quantize((tc_block_kind)t, BR, BK, j ? Y : X_block, BK, ts, codes[j], scales[j], st), TC_OK);
            for (i = 0; i < BR * BK; i++) r[n++] = codes[j][i];
            for (i = 0; i < nb; i++) {
                r[n++] = scales[j][i];
                r[n++] = tct_f2u(st[i].amax);
                r[n++] = tct_f2u(st[i].scale);
                n += put_f64(r + n, st[i].max_abs_err);
                n += put_f64(r + n, st[i].rms_err);
            }
            if (!j) {
                CHECK_STATUS(tc_block_dequantize((tc_block_kind)t, BR, BK, codes[0], scales[0], ts, Y, BK), TC_OK);
                for (i = 0; i < BR * BK; i++) r[n++] = tct_f2u(Y[i]);
            }
        }
        memset(&ty, 0, sizeof ty);
        ty.arch = TC_ARCH_B200;
        ty.kind = bi->elem == TC_E2M1 ? (bi->block == 16 ? TC_KIND_MXF4NVF4 : TC_KIND_MXF4) : TC_KIND_MXF8F6F4;
        ty.a_type = ty.b_type = bi->elem; ty.out = TC_FP32; ty.scale_type = bi->scale; ty.block = bi->block;
        CHECK_STATUS(tc_mma_dot_scaled(&ty, BK, codes[0], codes[1] + BK, scales[0], scales[1] + BK / bi->block, 0.3f, NULL, &o), TC_OK);
        r[n++] = tct_f2u(o);
        memset(&g, 0, sizeof g);
        g.type = ty; g.M = BR / 2; g.N = BR / 2; g.K = BK;
        g.A = codes[0]; g.B = codes[1] + BR / 2 * BK; g.scale_A = scales[0]; g.scale_B = scales[1] + BR / 2 * BK / bi->block;
        g.C = C[0]; g.ldc = N; g.D = D; g.ldd = N;
        CHECK_STATUS(tc_gemm_scaled(&g), TC_OK);
        for (i = 0; i < BR / 2; i++) for (j = 0; j < BR / 2; j++) r[n++] = tct_f2u(D[i * N + j]);
    }
    return n;
}

static size_t timing(uint32_t *r) {   /* sections 5 and 6: simulated runs, predictions and tiling models, as bits */
    const tc_gpu *h100 = tc_gpu_find("h100");
    size_t n = 0;
    int g, i;
    for (i = 0; i < tc_sim_program_count(); i++) {
        tc_sim_program p;
        tc_sim_result res;
        memset(&p, 0, sizeof p);
        memset(&res, 0, sizeof res);
        CHECK_STATUS(tc_sim_build_named(&p, tc_sim_program_name(i)), TC_OK);
        if (tc_sim_run(&h100->profile, &p, NULL, &res) == TC_OK) {
            r[n++] = (uint32_t)res.cycles;
            n += put_f64(r + n, res.seconds);
            n += put_f64(r + n, res.flops_per_s);
            n += put_f64(r + n, res.dram_bytes_per_s);
            n += put_f64(r + n, res.peak_tensor_flops_per_s);
        }
        tc_sim_result_free(&res);
        tc_sim_program_free(&p);
    }
    for (g = 0; g < tc_gpu_count(); g++) {
        const tc_gpu *gpu = tc_gpu_get(g);
        tc_sim_prediction pr;
        tc_sim_elementwise_desc ew = { 1 << 24, 2, 1, 3 };
        memset(&pr, 0, sizeof pr);
        if (tc_sim_predict_gemm(&gpu->profile, 4096, 4096, 4096, &pr) == TC_OK) {
            n += put_f64(r + n, pr.seconds);
            n += put_f64(r + n, pr.kernel_seconds);
        }
        if (tc_sim_predict_elementwise(&gpu->profile, &ew, &pr) == TC_OK) {
            n += put_f64(r + n, pr.seconds);
            n += put_f64(r + n, pr.dram_bytes);
        }
        for (i = 0; i < tc_tile_ladder_count(); i++) {
            tc_tile_desc d = tc_tile_ladder_get(i)->tile;
            tc_tile_result t;
            d.M = d.N = d.K = 4096;
            if (tc_tile_model(gpu, &d, &t, NULL) != TC_OK) continue;
            n += put_f64(r + n, t.predicted_s);
            n += put_f64(r + n, t.roofline_s);
            n += put_f64(r + n, t.iter_cost);
            n += put_f64(r + n, t.wave_efficiency);
            n += put_f64(r + n, t.predicted_flops_per_s);
        }
    }
    return n;
}

static const struct { const char *name; size_t (*run)(uint32_t *r); } parts[] = {
    { "formats", formats }, { "custom formats, SR, ulp", format_helpers }, { "arrays", arrays }, { "dots", dots },
    { "GEMMs", gemms }, { "sparsity", sparsity }, { "tc_mma_run", instructions }, { "loss scaling", loss_scaling }, { "block scaling", block_scaling },
    { "timing", timing },
};
enum { NPARTS = sizeof parts / sizeof parts[0] };

int main(void) {
    static const struct { const char *name; int round; unsigned ftz_daz; } envs[] = {
        { "RZ", FE_TOWARDZERO, 0 }, { "RU", FE_UPWARD, 0 }, { "RD", FE_DOWNWARD, 0 },
#ifdef HAVE_MXCSR
        { "FTZ+DAZ", FE_TONEAREST, 0x8040u }, { "RZ+FTZ+DAZ", FE_TOWARDZERO, 0x8040u },
#endif
    };
    static uint32_t want[NRES], got[NRES];
    size_t at[NPARTS + 1], ng, i, k, e, p;
    for (i = 0; i < NV; i++) {   /* every bit pattern's neighbourhood: spread over the whole range, with subnormals and ties */
        uint32_t u = (uint32_t)(i * 2654435761u);
        if (i % 4 == 1) u &= 0x807FFFFFu;                                   /* fp32 subnormals */
        if (i % 4 == 2) u = (u & 0x80000000u) | (0x4E000000u + (u & 0x00FFFFFFu));   /* 2^29 .. 2^31: s32's rounding */
        if (i % 8 == 3) u = (u & 0x80000000u) | 0x3F000000u | ((i & 1) << 22);   /* 1/2 and 3/4: ties */
        memcpy(&vals[i], &u, sizeof u);
    }
    for (i = 0; i < 3; i++) {
        const tc_dtype in = i == 2 ? TC_E4M3 : TC_FP16, out = i == 2 ? TC_FP16 : TC_FP32;
        for (k = 0; k < M * K; k++) A[i][k] = tc_round(in, (float)((int)(tct_rand32() % 2001) - 1000) / 37.0f, TC_RN | TC_SATFINITE);
        for (k = 0; k < K * N; k++) B[i][k] = tc_round(in, (float)((int)(tct_rand32() % 2001) - 1000) / 53.0f, TC_RN | TC_SATFINITE);
        for (k = 0; k < M * N; k++) C[i][k] = tc_round(out, (float)((int)(tct_rand32() % 2001) - 1000) / 7.0f, TC_RN);
    }
    for (k = 0; k < M * K; k++) A_tiny[k] = A[0][k] * (k % 5 ? 1.0f : 1e-4f);
    for (k = 0; k < BR * BK; k++) {
        X_block[k] = vals[(k * 7) % NV] * (k % 3 ? 1.0f : 1e-3f);
        if (!isfinite(X_block[k]) || fabsf(X_block[k]) > 1e30f) X_block[k] = (float)k / 7.0f;
    }
    one_third = 1.0f / 3.0f;
    for (i = 0; i < 2; i++) {   /* vals' subnormals (every fourth), and scaled-down values whose products underflow */
        const tc_dtype t = i ? TC_TF32 : TC_BF16;
        for (k = 0; k < M * K; k++) A_sub[i][k] = tc_round(t, isfinite(vals[k]) ? vals[k] : 1.0f, TC_RN);
        for (k = 0; k < K * N; k++) B_sub[i][k] = tc_round(t, (float)((int)(tct_rand32() % 2001) - 1000) * 1e-38f, TC_RN);
    }
    for (k = 0; k < M * N; k++) C_sub[k] = vals[(k * 4 + 1) % NV];
    for (p = 0, at[0] = 0; p < NPARTS; p++) {
        at[p + 1] = at[p] + parts[p].run(want + at[p]);
        if (!CHECK(at[p + 1] <= NRES)) return tct_finish(TEST_NAME);
    }
    for (e = 0; e < sizeof envs / sizeof envs[0]; e++)
        for (p = 0; p < NPARTS; p++) {
            const uint32_t *w = want + at[p];
            const size_t nw = at[p + 1] - at[p];
            size_t bad = 0, first = 0;
#ifdef HAVE_MXCSR
            const unsigned csr = _mm_getcsr();
            _mm_setcsr(csr | envs[e].ftz_daz);
#endif
            CHECK(fesetround(envs[e].round) == 0);
            ng = parts[p].run(got);
            CHECK(fesetround(FE_TONEAREST) == 0);
#ifdef HAVE_MXCSR
            _mm_setcsr(csr);
#endif
            CHECK(ng == nw);
            for (i = 0; i < nw && i < ng; i++)
                if (got[i] != w[i] && !bad++) first = i;
            if (bad)
                printf("  %s, %s: %zu of %zu differ; the first, result %zu, is 0x%08X, 0x%08X by default\n", envs[e].name,
                       parts[p].name, bad, nw, first, (unsigned)got[first], (unsigned)w[first]);
            tct_add((long)(nw - bad), (long)bad);
        }
    return tct_finish(TEST_NAME);
}
