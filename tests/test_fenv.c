/* test_fenv.c - the models give the same bits whatever floating-point
   environment the caller has set: each rounding mode by fesetround (C99)
   and, where SSE2 is used, FTZ and DAZ in MXCSR. Before 2026-11-26 they
   did not: tc_decode(TC_S32, 2^31 - 1) under RZ or RD gave 2^31 - 128,
   tc_encode to the integer types under DAZ read a subnormal as zero (RU
   of 2^-149 gave 0), and tc_dot_fma and tc_dot_exact rounded in the
   caller's mode (docs/REFERENCE.md 1.7). Checked here: tc_encode,
   tc_decode and tc_round of every dtype in every mode on values that
   reach each rounding decision, the dot products, and A100, V100 and
   H100 GEMMs, scalar and SIMD, against the same calls in the default
   environment, computed first. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <fenv.h>
#include <stdlib.h>
#if defined(__SSE2__) && !defined(TC_NO_SIMD)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

enum { NV = 4096, M = 16, N = 24, K = 64, NRES = 1 << 20 };

static float vals[NV];
static float A[3][M * K], B[3][K * N], C[3][M * N];

/* Every result of the calls below, in order, as bits; returns how many. */
static size_t run_all(uint32_t *r) {
    static const struct { tc_arch arch; tc_dtype in, out; } g[3] = {
        { TC_ARCH_A100, TC_FP16, TC_FP32 }, { TC_ARCH_V100, TC_FP16, TC_FP32 }, { TC_ARCH_H100, TC_E4M3, TC_FP16 },
    };
    size_t n = 0;
    int t, m, i, fs;
    float D[M * N], o;
    for (t = 0; t < TC_DTYPE_COUNT; t++)
        for (m = 0; m < 5; m++)
            for (i = 0; i < NV; i++) {
                const uint32_t e = tc_encode((tc_dtype)t, vals[i], m);
                r[n++] = e;
                r[n++] = tct_f2u(tc_decode((tc_dtype)t, e));
                r[n++] = tct_f2u(tc_round((tc_dtype)t, vals[i], m | TC_SATFINITE));
            }
    for (i = 1; i <= K; i++) {
        CHECK_STATUS(tc_dot_fma(i, A[0], 1, B[0], N, 0.1f, &o), TC_OK);
        r[n++] = tct_f2u(o);
        CHECK_STATUS(tc_dot_exact(i, A[0], 1, B[0], N, 0.1f, &o), TC_OK);
        r[n++] = tct_f2u(o);
    }
    for (i = 0; i < 3; i++)
        for (fs = 0; fs < 2; fs++) {
            tc_gemm_desc d;
            memset(&d, 0, sizeof d);
            d.arch = g[i].arch; d.in = g[i].in; d.out = g[i].out;
            d.M = M; d.N = N; d.K = K; d.A = A[i]; d.B = B[i]; d.C = C[i]; d.D = D; d.force_scalar = fs;
            CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
            for (m = 0; m < M * N; m++) r[n++] = tct_f2u(D[m]);
        }
    return n;
}

int main(void) {
    static const struct { const char *name; int round; unsigned ftz_daz; } envs[] = {
        { "RZ", FE_TOWARDZERO, 0 }, { "RU", FE_UPWARD, 0 }, { "RD", FE_DOWNWARD, 0 },
#ifdef HAVE_MXCSR
        { "FTZ+DAZ", FE_TONEAREST, 0x8040u }, { "RZ+FTZ+DAZ", FE_TOWARDZERO, 0x8040u },
#endif
    };
    static uint32_t want[NRES], got[NRES];
    size_t nw, ng, i, k, e;
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
    nw = run_all(want);
    CHECK(nw <= NRES);
    for (e = 0; e < sizeof envs / sizeof envs[0]; e++) {
        long bad = 0;
#ifdef HAVE_MXCSR
        const unsigned csr = _mm_getcsr();
        _mm_setcsr(csr | envs[e].ftz_daz);
#endif
        CHECK(fesetround(envs[e].round) == 0);
        ng = run_all(got);
        CHECK(fesetround(FE_TONEAREST) == 0);
#ifdef HAVE_MXCSR
        _mm_setcsr(csr);
#endif
        CHECK(ng == nw);
        for (i = 0; i < nw && i < ng; i++)
            if (got[i] != want[i] && !bad++) printf("  %s: result %zu is 0x%08X, 0x%08X by default\n", envs[e].name, i, (unsigned)got[i], (unsigned)want[i]);
        tct_add((long)nw - bad, bad);
    }
    return tct_finish("test_fenv");
}
