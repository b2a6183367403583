/* test_formats_exhaustive.cpp - every fp32 input, bit for bit, against NVIDIA's
   own host code and the CPU's F16C instructions.

   Oracles (independent of tensorcore.h):
     cuda_fp16.hpp  __float2half_rn/_rz/_rd/_ru, __half2float
     cuda_bf16.hpp  __float2bfloat16_rn/_rz/_rd/_ru, __bfloat162float
     cuda_fp8.hpp   __nv_cvt_float_to_fp8 (E4M3, E5M2; __NV_NOSAT, __NV_SATFINITE),
                    __nv_cvt_fp8_to_halfraw
     F16C           _mm_cvtps_ph with RN/RZ/RD/RU (x86 only), _mm_cvtph_ps
   Also proves every array function (each format, rounding and satfinite;
   the SSE2 or AVX2 kernel and F16C, whichever are compiled in) equal to the
   scalar functions, and the vector kernel itself on the RN cases whose
   arrays take a dedicated loop.

   Build: g++ -O2 -I. -Itests -I/usr/local/cuda/include -mf16c tests/test_formats_exhaustive.cpp -lpthread
   Run:   build/tests/test_formats_exhaustive [--stride N] [--all-modes]
          (N > 1 tests every Nth input; --all-modes checks the arrays' RNA,
          RZ, RD and RU on every input too, not on every 7th chunk)
   Prints progress, then "test_formats_exhaustive: N passed, N failed". Without
   the CUDA headers it says so and exits 0 after the F16C part. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"
#include "exhaustive.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <vector>

#if __has_include(<cuda_fp16.h>) && __has_include(<cuda_bf16.h>) && __has_include(<cuda_fp8.h>)
#define HAVE_CUDA_HEADERS 1
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#endif

#if defined(__F16C__)
#define HAVE_F16C 1
#include <immintrin.h>
#endif

enum { CHUNK = 1 << 16 };

/* The array functions, every format x rounding x satfinite, each against
   its scalar function; tc_round_array against the widening array applied
   to the narrowing array's output (the widening arrays are checked on all
   their inputs in widening()). */
static const tc_dtype arr_types[] = { TC_FP16, TC_BF16, TC_TF32, TC_E4M3, TC_E5M2 };
static const int arr_modes[] = { TC_RN, TC_RNA, TC_RZ, TC_RD, TC_RU };
enum { N_ARR_T = sizeof arr_types / sizeof arr_types[0], N_ARR_M = sizeof arr_modes / sizeof arr_modes[0] };

/* Each oracle comparison has a name so failures say which conversion broke. */
enum {
    K_FP16_RN, K_FP16_RZ, K_FP16_RD, K_FP16_RU,
    K_BF16_RN, K_BF16_RZ, K_BF16_RD, K_BF16_RU,
    K_E4M3_RN, K_E4M3_SAT, K_E5M2_RN, K_E5M2_SAT,
    K_F16C_RN, K_F16C_RZ, K_F16C_RD, K_F16C_RU,
    K_KERNEL_FP16, K_KERNEL_BF16, K_KERNEL_TF32,
    K_ARRAY, K_ROUND = K_ARRAY + N_ARR_T * N_ARR_M * 2, K_COUNT = K_ROUND + N_ARR_T * N_ARR_M * 2
};
static const char *const fixed_names[] = {
    "fp16 rn vs __float2half_rn", "fp16 rz vs __float2half_rz", "fp16 rd vs __float2half_rd", "fp16 ru vs __float2half_ru",
    "bf16 rn vs __float2bfloat16_rn", "bf16 rz vs __float2bfloat16_rz", "bf16 rd vs __float2bfloat16_rd", "bf16 ru vs __float2bfloat16_ru",
    "e4m3 rn vs __nv_cvt_float_to_fp8 NOSAT", "e4m3 rn.satfinite vs __nv_cvt_float_to_fp8 SATFINITE",
    "e5m2 rn vs __nv_cvt_float_to_fp8 NOSAT", "e5m2 rn.satfinite vs __nv_cvt_float_to_fp8 SATFINITE",
    "fp16 rn vs F16C", "fp16 rz vs F16C", "fp16 rd vs F16C", "fp16 ru vs F16C",
    "fp16 rn vector kernel vs scalar", "bf16 rn vector kernel vs scalar", "tf32 rn vector kernel vs scalar",
};
static_assert(sizeof fixed_names / sizeof fixed_names[0] == K_ARRAY, "one name per fixed comparison");
static char kind_names[K_COUNT][64];

static int arr_kind(int base, int ti, int mi, int sat) { return base + (ti * N_ARR_M + mi) * 2 + sat; }

static void name_kinds(void) {
    for (int k = 0; k < K_ARRAY; k++) snprintf(kind_names[k], sizeof kind_names[k], "%s", fixed_names[k]);
    for (int ti = 0; ti < N_ARR_T; ti++)
        for (int mi = 0; mi < N_ARR_M; mi++)
            for (int sat = 0; sat < 2; sat++) {
                int r = arr_modes[mi] | (sat ? TC_SATFINITE : 0);
                const char *fmt = tc_format_of(arr_types[ti])->name;
                snprintf(kind_names[arr_kind(K_ARRAY, ti, mi, sat)], 64, "%s %s array vs scalar", fmt, tc_rounding_name(r));
                snprintf(kind_names[arr_kind(K_ROUND, ti, mi, sat)], 64, "%s %s round_array vs arrays", fmt, tc_rounding_name(r));
            }
}

struct Totals {
    long passed[K_COUNT];
    long failed[K_COUNT];
};

#ifdef HAVE_F16C
/* F16C keeps a NaN's payload and sign and quiets it; CUDA returns 0x7FFF.
   Both are NaN: compare NaN-ness there, bits everywhere else. */
static uint16_t f16c(float x, int mode) {
    __m128 v = _mm_set1_ps(x);
    __m128i h;
    switch (mode) {
    case TC_RZ: h = _mm_cvtps_ph(v, _MM_FROUND_TO_ZERO); break;
    case TC_RD: h = _mm_cvtps_ph(v, _MM_FROUND_TO_NEG_INF); break;
    case TC_RU: h = _mm_cvtps_ph(v, _MM_FROUND_TO_POS_INF); break;
    default:    h = _mm_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT); break;
    }
    uint16_t r = (uint16_t)_mm_extract_epi16(h, 0);
    return ((r & 0x7C00) == 0x7C00 && (r & 0x3FF)) ? 0x7FFF : r;
}
#endif

#ifdef TC__SSE2
/* The generic kernel (tc__v_narrow) on the RN cases whose arrays take other kernels. */
static void check_kernel(int kind, tc_dtype ty, const float *in, Totals &t) {
    tc__vnarrow k;
    tc__vnarrow_init(&k, tc__fmt_of(ty), TC_RN, 0);
    for (int i = 0; i < CHUNK; i += TC__VW) {
        uint32_t lanes[TC__VW];
        TC__V_STORE32(lanes, tc__v_narrow(&k, TC__V_LOAD32(in + i), TC_RN));
        for (int j = 0; j < TC__VW; j++) CMP(kind, tct_f2u(in[i + j]), lanes[j], tc_encode(ty, in[i + j], TC_RN));
    }
}
#endif

/* Compares whole chunks first (the common case: all equal) and looks at
   single values only to report a mismatch, which keeps the 100 comparisons
   per input affordable. */
static void cmp_chunk(int kind, const float *in, const uint32_t *got, const uint32_t *want, Totals &t) {
    long bad = 0;
    for (int i = 0; i < CHUNK; i++) bad += got[i] != want[i];
    t.passed[kind] += CHUNK - bad;
    t.failed[kind] += bad;
    if (bad)
        for (int i = 0; i < CHUNK; i++)
            if (got[i] != want[i]) exhaustive_report(kind_names[kind], tct_f2u(in[i]), got[i], want[i]);
}

/* The modes of every_input() on every input; the others on every input
   with --all-modes, else on every 7th chunk (1/7 of the inputs, spread over
   the whole range), because 50 scalar conversions per input would make the
   full run take about 4 times as long. */
static bool all_modes = false;

/* Checked on every input: the RN family and the fp16/bf16 modes that the
   CUDA and F16C oracles below also check. Their scalar results are kept in
   `scalar` so that the oracle loop reuses them instead of converting again. */
static bool every_input(tc_dtype ty, int mode) {
    return mode == TC_RN || ((ty == TC_FP16 || ty == TC_BF16) && mode != TC_RNA);
}
static thread_local std::vector<uint32_t> scalar[N_ARR_T * N_ARR_M * 2];
static const uint32_t *kept(int ti, int mi, int sat) { return scalar[(ti * N_ARR_M + mi) * 2 + sat].data(); }

static void check_arrays(const std::vector<float> &in, uint64_t chunk, Totals &t) {
    static thread_local std::vector<uint8_t> enc(CHUNK * 4);
    static thread_local std::vector<float> wide(CHUNK), rounded(CHUNK);
    static thread_local std::vector<uint32_t> got(CHUNK), other(CHUNK);
    const float *x = in.data();
    for (int ti = 0; ti < N_ARR_T; ti++) {
        tc_dtype ty = arr_types[ti];
        for (int mi = 0; mi < N_ARR_M; mi++)
            for (int sat = 0; sat < 2; sat++) {
                int r = arr_modes[mi] | (sat ? TC_SATFINITE : 0);
                bool always = every_input(ty, arr_modes[mi]);
                if (!all_modes && !always && chunk % 7 != 0) continue;
                std::vector<uint32_t> &want = always ? scalar[(ti * N_ARR_M + mi) * 2 + sat] : other;
                want.resize(CHUNK);
                uint16_t *e16 = (uint16_t *)(void *)enc.data();
                float *e32 = (float *)(void *)enc.data();
                switch (ty) {
                case TC_FP16: tc_fp16_from_f32_array(x, e16, CHUNK, r); tc_fp16_to_f32_array(e16, wide.data(), CHUNK); break;
                case TC_BF16: tc_bf16_from_f32_array(x, e16, CHUNK, r); tc_bf16_to_f32_array(e16, wide.data(), CHUNK); break;
                case TC_TF32: tc_tf32_from_f32_array(x, e32, CHUNK, r); memcpy(wide.data(), e32, CHUNK * sizeof(float)); break;
                case TC_E4M3: tc_e4m3_from_f32_array(x, enc.data(), CHUNK, r); tc_e4m3_to_f32_array(enc.data(), wide.data(), CHUNK); break;
                default:      tc_e5m2_from_f32_array(x, enc.data(), CHUNK, r); tc_e5m2_to_f32_array(enc.data(), wide.data(), CHUNK); break;
                }
                for (int i = 0; i < CHUNK; i++) {
                    want[i] = tc_encode(ty, x[i], r);
                    got[i] = ty == TC_TF32 ? tct_f2u(e32[i]) >> 13 : tc__dtype_bytes(ty) == 2 ? e16[i] : enc[i];
                }
                cmp_chunk(arr_kind(K_ARRAY, ti, mi, sat), x, got.data(), want.data(), t);
                tc_round_array(ty, x, rounded.data(), CHUNK, r);
                cmp_chunk(arr_kind(K_ROUND, ti, mi, sat), x, (const uint32_t *)(const void *)rounded.data(),
                          (const uint32_t *)(const void *)wide.data(), t);
            }
    }
}

static void run_chunk(uint64_t first, uint32_t stride, Totals &t) {
    static thread_local std::vector<float> in(CHUNK);
    for (int i = 0; i < CHUNK; i++) in[i] = tct_u2f((uint32_t)(first + (uint64_t)i * stride));
    check_arrays(in, first / ((uint64_t)CHUNK * stride), t);
#ifdef TC__SSE2
    check_kernel(K_KERNEL_FP16, TC_FP16, in.data(), t);
    check_kernel(K_KERNEL_BF16, TC_BF16, in.data(), t);
    check_kernel(K_KERNEL_TF32, TC_TF32, in.data(), t);
#endif
    /* indices into arr_types / arr_modes */
    const uint32_t *h_rn = kept(0, 0, 0), *h_rz = kept(0, 2, 0), *h_rd = kept(0, 3, 0), *h_ru = kept(0, 4, 0);
    const uint32_t *b_rn = kept(1, 0, 0), *b_rz = kept(1, 2, 0), *b_rd = kept(1, 3, 0), *b_ru = kept(1, 4, 0);
    const uint32_t *e4 = kept(3, 0, 0), *e4_sat = kept(3, 0, 1), *e5 = kept(4, 0, 0), *e5_sat = kept(4, 0, 1);
    (void)h_rn; (void)h_rz; (void)h_rd; (void)h_ru; (void)b_rn; (void)b_rz; (void)b_rd; (void)b_ru;
    (void)e4; (void)e4_sat; (void)e5; (void)e5_sat;
    for (int i = 0; i < CHUNK; i++) {
        float x = in[i];
        uint32_t u = tct_f2u(x);
        (void)x; (void)u;
#ifdef HAVE_F16C
        CMP(K_F16C_RN, u, h_rn[i], f16c(x, TC_RN));
        CMP(K_F16C_RZ, u, h_rz[i], f16c(x, TC_RZ));
        CMP(K_F16C_RD, u, h_rd[i], f16c(x, TC_RD));
        CMP(K_F16C_RU, u, h_ru[i], f16c(x, TC_RU));
#endif
#ifdef HAVE_CUDA_HEADERS
        CMP(K_FP16_RN, u, h_rn[i], __half_raw(__float2half_rn(x)).x);
        CMP(K_FP16_RZ, u, h_rz[i], __half_raw(__float2half_rz(x)).x);
        CMP(K_FP16_RD, u, h_rd[i], __half_raw(__float2half_rd(x)).x);
        CMP(K_FP16_RU, u, h_ru[i], __half_raw(__float2half_ru(x)).x);
        CMP(K_BF16_RN, u, b_rn[i], __nv_bfloat16_raw(__float2bfloat16_rn(x)).x);
        CMP(K_BF16_RZ, u, b_rz[i], __nv_bfloat16_raw(__float2bfloat16_rz(x)).x);
        CMP(K_BF16_RD, u, b_rd[i], __nv_bfloat16_raw(__float2bfloat16_rd(x)).x);
        CMP(K_BF16_RU, u, b_ru[i], __nv_bfloat16_raw(__float2bfloat16_ru(x)).x);
        CMP(K_E4M3_RN, u, e4[i], __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3));
        CMP(K_E4M3_SAT, u, e4_sat[i], __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3));
        CMP(K_E5M2_RN, u, e5[i], __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2));
        CMP(K_E5M2_SAT, u, e5_sat[i], __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2));
#endif
    }
}

/* All 2^16 and 2^8 patterns of the widening conversions. */
static void widening(void) {
    /* Built without TC_THREADS: more than one thread is refused. */
    CHECK_STATUS(tc_convert_threads(2), TC_ERR_ARG);
    CHECK_STATUS(tc_convert_threads(1), TC_OK);
    {   /* the widening arrays, all patterns, against the scalar functions */
        std::vector<uint16_t> h16(65536);
        std::vector<uint8_t> h8(256);
        std::vector<float> w(65536);
        for (uint32_t v = 0; v < 65536; v++) h16[v] = (uint16_t)v;
        for (uint32_t v = 0; v < 256; v++) h8[v] = (uint8_t)v;
        CHECK_STATUS(tc_fp16_to_f32_array(h16.data(), w.data(), 65536), TC_OK);
        for (uint32_t v = 0; v < 65536; v++) CHECK_BITS(v, tct_f2u(w[v]), tct_f2u(tc_fp16_to_f32((uint16_t)v)));
        CHECK_STATUS(tc_bf16_to_f32_array(h16.data(), w.data(), 65536), TC_OK);
        for (uint32_t v = 0; v < 65536; v++) CHECK_BITS(v, tct_f2u(w[v]), tct_f2u(tc_bf16_to_f32((uint16_t)v)));
        CHECK_STATUS(tc_e4m3_to_f32_array(h8.data(), w.data(), 256), TC_OK);
        for (uint32_t v = 0; v < 256; v++) CHECK_BITS(v, tct_f2u(w[v]), tct_f2u(tc_e4m3_to_f32((uint8_t)v)));
        CHECK_STATUS(tc_e5m2_to_f32_array(h8.data(), w.data(), 256), TC_OK);
        for (uint32_t v = 0; v < 256; v++) CHECK_BITS(v, tct_f2u(w[v]), tct_f2u(tc_e5m2_to_f32((uint8_t)v)));
    }
    for (uint32_t v = 0; v < 65536; v++) {
        uint16_t h = (uint16_t)v;
#ifdef HAVE_CUDA_HEADERS
        __half_raw hr; hr.x = h;
        CHECK_BITS(v, tct_f2u(tc_fp16_to_f32(h)), tct_f2u(__half2float(__half(hr))));
        __nv_bfloat16_raw br; br.x = h;
        CHECK_BITS(v, tct_f2u(tc_bf16_to_f32(h)), tct_f2u(__bfloat162float(__nv_bfloat16(br))));
#endif
#ifdef HAVE_F16C
        float f = _mm_cvtss_f32(_mm_cvtph_ps(_mm_set1_epi16((short)h)));
        float ours = tc_fp16_to_f32(h);
        if (f != f) CHECK(ours != ours);   /* F16C keeps payloads; CUDA canonicalises */
        else CHECK_BITS(v, tct_f2u(ours), tct_f2u(f));
#endif
    }
#ifdef HAVE_CUDA_HEADERS
    for (uint32_t v = 0; v < 256; v++) {
        __half_raw e4 = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)v, __NV_E4M3);
        __half_raw e5 = __nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)v, __NV_E5M2);
        CHECK_BITS(v, tct_f2u(tc_e4m3_to_f32((uint8_t)v)), tct_f2u(__half2float(__half(e4))));
        CHECK_BITS(v, tct_f2u(tc_e5m2_to_f32((uint8_t)v)), tct_f2u(__half2float(__half(e5))));
    }
#endif
}

int main(int argc, char **argv) {
    uint32_t stride = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--stride") && i + 1 < argc) stride = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--all-modes")) all_modes = true;
        else { fprintf(stderr, "usage: %s [--stride N] [--all-modes]\n", argv[0]); return 2; }
    }
    if (stride < 1) stride = 1;
    name_kinds();
#ifndef HAVE_CUDA_HEADERS
    printf("note: CUDA headers not found (add -I/usr/local/cuda/include); skipping the CUDA oracles\n");
#endif
#ifndef HAVE_F16C
    printf("note: built without F16C (-mf16c on x86-64); skipping the F16C oracle\n");
#endif
    widening();
    return exhaustive_run<Totals>("test_formats_exhaustive", stride, CHUNK, K_COUNT, kind_names, run_chunk);
}
