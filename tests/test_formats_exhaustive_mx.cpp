/* test_formats_exhaustive_mx.cpp - the FP4, FP6 and E8M0 conversions of
   section 1b on every fp32 input, bit for bit, against the host code of
   CUDA 13's cuda_fp4.h, cuda_fp6.h and cuda_fp8.h.

   Oracles (independent of tensorcore.h):
     cuda_fp4.hpp  __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest / cudaRoundZero),
                   __nv_cvt_fp4_to_halfraw
     cuda_fp6.hpp  __nv_cvt_float_to_fp6(x, __NV_E2M3 / __NV_E3M2, cudaRoundNearest / cudaRoundZero),
                   __nv_cvt_fp6_to_halfraw
     cuda_fp8.hpp  __nv_cvt_float_to_e8m0(x, __NV_NOSAT / __NV_SATFINITE, cudaRoundZero / cudaRoundPosInf),
                   __nv_cvt_e8m0_to_bf16raw
   These are every (format, rounding, saturation) CUDA 13 has for them: FP4
   and FP6 always saturate, so TC_RN and TC_RN | TC_SATFINITE are both
   compared with the one CUDA mode. Also proves, on the same inputs:
     tc_encode_u8_array (the vector kernels) equal to tc_encode for every
       format of at most 8 bits, every mode with and without TC_SATFINITE
       (one combination per chunk of 2^16 inputs, in turn);
     ue4m3 equal to e4m3 on every non-negative input, all five modes;
     a tc_custom_format configured like fp16, bf16, e4m3, e5m2, e2m1, e2m3,
       e3m2 equal to the built-in format, RN and RZ (the other modes are
       proven equal by test_formats_mx's enumeration oracle).

   Build: g++ -O2 -I. -Itests -I/usr/local/cuda/include tests/test_formats_exhaustive_mx.cpp -lpthread
   Run:   build/tests/test_formats_exhaustive_mx [--stride N]   (N > 1 tests every Nth input)
   Without the CUDA headers it says so and checks only the properties above. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"
#include "exhaustive.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <vector>

#if __has_include(<cuda_fp4.h>) && __has_include(<cuda_fp6.h>) && __has_include(<cuda_fp8.h>) && !defined(TC_NO_CUDA_ORACLE)
#define HAVE_CUDA_HEADERS 1
/* cuda_fp4.hpp leaves its interpretation parameter unused (E2M1 is the only one) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>
#pragma GCC diagnostic pop
#endif

enum { CHUNK = 1 << 16 };

enum {
    K_E2M1_RN, K_E2M1_RZ, K_E2M3_RN, K_E2M3_RZ, K_E3M2_RN, K_E3M2_RZ,
    K_E8M0_RZ, K_E8M0_RZ_SAT, K_E8M0_RU, K_E8M0_RU_SAT,
    K_ARRAY, K_UE4M3, K_CUSTOM, K_COUNT
};
static const char *const kind_names[] = {
    "e2m1 rn vs __nv_cvt_float_to_fp4 RoundNearest", "e2m1 rz vs __nv_cvt_float_to_fp4 RoundZero",
    "e2m3 rn vs __nv_cvt_float_to_fp6 RoundNearest", "e2m3 rz vs __nv_cvt_float_to_fp6 RoundZero",
    "e3m2 rn vs __nv_cvt_float_to_fp6 RoundNearest", "e3m2 rz vs __nv_cvt_float_to_fp6 RoundZero",
    "ue8m0 rz vs __nv_cvt_float_to_e8m0 NOSAT RoundZero", "ue8m0 rz.satfinite vs ... SATFINITE RoundZero",
    "ue8m0 ru vs __nv_cvt_float_to_e8m0 NOSAT RoundPosInf", "ue8m0 ru.satfinite vs ... SATFINITE RoundPosInf",
    "u8 array vs scalar (7 formats, 5 modes, satfinite)", "ue4m3 vs e4m3 on x >= 0 (5 modes)",
    "custom format vs built-in (7 formats, rn/rz)",
};
static_assert(sizeof kind_names / sizeof kind_names[0] == K_COUNT, "one name per comparison");

struct Totals { long passed[K_COUNT]; long failed[K_COUNT]; };

static const tc_dtype u8_types[] = { TC_E4M3, TC_E5M2, TC_E2M1, TC_E2M3, TC_E3M2, TC_UE8M0, TC_UE4M3 };
enum { N_U8 = sizeof u8_types / sizeof u8_types[0] };

struct CustomCase { tc_dtype t; tc_custom_format f; };
static const CustomCase customs[] = {
    { TC_FP16, { 5, 10, TC_SPECIALS_IEEE, 1 } }, { TC_BF16, { 8, 7, TC_SPECIALS_IEEE, 1 } },
    { TC_E4M3, { 4, 3, TC_SPECIALS_NAN, 1 } },   { TC_E5M2, { 5, 2, TC_SPECIALS_IEEE, 1 } },
    { TC_E2M1, { 2, 1, TC_SPECIALS_NONE, 1 } },  { TC_E2M3, { 2, 3, TC_SPECIALS_NONE, 1 } },
    { TC_E3M2, { 3, 2, TC_SPECIALS_NONE, 1 } },
};
enum { N_CUSTOM = sizeof customs / sizeof customs[0] };

static void run_chunk(uint64_t first, uint32_t stride, Totals &t) {
    static thread_local std::vector<float> in(CHUNK);
    static thread_local std::vector<uint8_t> arr(CHUNK);
    for (int i = 0; i < CHUNK; i++) in[i] = tct_u2f((uint32_t)(first + (uint64_t)i * stride));
    /* The array paths: one format, mode and saturation per chunk, in turn
       (70 combinations, each met by over 900 of the run's 2^16 chunks). */
    uint64_t c = first / ((uint64_t)CHUNK * stride);
    tc_dtype at = u8_types[c % N_U8];
    int ar = (int)((c / N_U8) % 5) | ((c / (5 * N_U8)) % 2 ? TC_SATFINITE : 0);
    tc_encode_u8_array(at, in.data(), arr.data(), CHUNK, ar);
    const CustomCase &cc = customs[c % N_CUSTOM];
    int cr = (c / N_CUSTOM) % 2 ? TC_RZ : TC_RN;
    for (int i = 0; i < CHUNK; i++) {
        float x = in[i];
        uint32_t u = tct_f2u(x);
        CMP(K_ARRAY, u, arr[i], tc_encode(at, x, ar));
        uint32_t cbits = 0;
        tc_custom_encode(&cc.f, x, cr, &cbits);
        CMP(K_CUSTOM, u, cbits, tc_encode(cc.t, x, cr));
        if (!(u >> 31)) {
            static const int modes[] = { TC_RN, TC_RNA, TC_RZ, TC_RD, TC_RU };
            int m = modes[(u >> 7) % 5];
            CMP(K_UE4M3, u, tc_encode(TC_UE4M3, x, m), tc_encode(TC_E4M3, x, m));
        }
#ifdef HAVE_CUDA_HEADERS
        CMP(K_E2M1_RN, u, tc_encode(TC_E2M1, x, TC_RN), __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest));
        CMP(K_E2M1_RZ, u, tc_encode(TC_E2M1, x, TC_RZ | TC_SATFINITE), __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundZero));
        CMP(K_E2M3_RN, u, tc_encode(TC_E2M3, x, TC_RN | TC_SATFINITE), __nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundNearest));
        CMP(K_E2M3_RZ, u, tc_encode(TC_E2M3, x, TC_RZ), __nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundZero));
        CMP(K_E3M2_RN, u, tc_encode(TC_E3M2, x, TC_RN), __nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundNearest));
        CMP(K_E3M2_RZ, u, tc_encode(TC_E3M2, x, TC_RZ | TC_SATFINITE), __nv_cvt_float_to_fp6(x, __NV_E3M2, cudaRoundZero));
        CMP(K_E8M0_RZ, u, tc_encode(TC_UE8M0, x, TC_RZ), __nv_cvt_float_to_e8m0(x, __NV_NOSAT, cudaRoundZero));
        CMP(K_E8M0_RZ_SAT, u, tc_encode(TC_UE8M0, x, TC_RZ | TC_SATFINITE), __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundZero));
        CMP(K_E8M0_RU, u, tc_encode(TC_UE8M0, x, TC_RU), __nv_cvt_float_to_e8m0(x, __NV_NOSAT, cudaRoundPosInf));
        CMP(K_E8M0_RU_SAT, u, tc_encode(TC_UE8M0, x, TC_RU | TC_SATFINITE), __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundPosInf));
#endif
    }
}

/* Every code of the widening conversions, and tc_decode_u8_array on all 256 bytes. */
static void widening(void) {
    uint8_t bytes[256];
    float out[256];
    for (int v = 0; v < 256; v++) bytes[v] = (uint8_t)v;
    for (int k = 0; k < N_U8; k++) {
        CHECK_STATUS(tc_decode_u8_array(u8_types[k], bytes, out, 256), TC_OK);
        for (int v = 0; v < 256; v++) CHECK_BITS(v, tct_f2u(out[v]), tct_f2u(tc_decode(u8_types[k], (uint32_t)v)));
    }
#ifdef HAVE_CUDA_HEADERS
    for (uint32_t v = 0; v < 16; v++)
        CHECK_BITS(v, tct_f2u(tc_decode(TC_E2M1, v)), tct_f2u(__half2float(__half(__nv_cvt_fp4_to_halfraw((__nv_fp4_storage_t)v, __NV_E2M1)))));
    for (uint32_t v = 0; v < 64; v++) {
        CHECK_BITS(v, tct_f2u(tc_decode(TC_E2M3, v)), tct_f2u(__half2float(__half(__nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)v, __NV_E2M3)))));
        CHECK_BITS(v, tct_f2u(tc_decode(TC_E3M2, v)), tct_f2u(__half2float(__half(__nv_cvt_fp6_to_halfraw((__nv_fp6_storage_t)v, __NV_E3M2)))));
    }
    for (uint32_t v = 0; v < 256; v++) {
        /* bf16 keeps a NaN's payload: compare NaN-ness for 0xFF, bits elsewhere */
        float want = __bfloat162float(__nv_bfloat16(__nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t)v)));
        float got = tc_decode(TC_UE8M0, v);
        if (want != want) CHECK(got != got);
        else CHECK_BITS(v, tct_f2u(got), tct_f2u(want));
    }
#endif
}

int main(int argc, char **argv) {
    uint32_t stride = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--stride") && i + 1 < argc) stride = (uint32_t)strtoul(argv[++i], NULL, 10);
        else { fprintf(stderr, "usage: %s [--stride N]\n", argv[0]); return 2; }
    }
    if (stride < 1) stride = 1;
#ifndef HAVE_CUDA_HEADERS
    printf("note: CUDA headers not found (add -I/usr/local/cuda/include); skipping the CUDA oracles\n");
#endif
    widening();
    return exhaustive_run<Totals>("test_formats_exhaustive_mx", stride, CHUNK, K_COUNT, kind_names, run_chunk);
}
