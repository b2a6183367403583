/* test_formats_exhaustive.cpp - every fp32 input, bit for bit, against NVIDIA's
   own host code and the CPU's F16C instructions.

   Oracles (independent of tensorcore.h):
     cuda_fp16.hpp  __float2half_rn/_rz/_rd/_ru, __half2float
     cuda_bf16.hpp  __float2bfloat16_rn/_rz/_rd/_ru, __bfloat162float
     cuda_fp8.hpp   __nv_cvt_float_to_fp8 (E4M3, E5M2; __NV_NOSAT, __NV_SATFINITE),
                    __nv_cvt_fp8_to_halfraw
     F16C           _mm_cvtps_ph with RN/RZ/RD/RU (x86 only), _mm_cvtph_ps
   Also proves the vectorised array paths (SSE2, and F16C where compiled in)
   equal the scalar functions.

   Build: g++ -O2 -I. -Itests -I/usr/local/cuda/include -mf16c tests/test_formats_exhaustive.cpp -lpthread
   Run:   build/tests/test_formats_exhaustive [--stride N]   (N > 1 tests every Nth input)
   Prints progress, then "test_formats_exhaustive: N passed, N failed". Without
   the CUDA headers it says so and exits 0 after the F16C part. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <thread>
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

/* Each oracle comparison has a name so failures say which conversion broke. */
enum {
    K_FP16_RN, K_FP16_RZ, K_FP16_RD, K_FP16_RU,
    K_BF16_RN, K_BF16_RZ, K_BF16_RD, K_BF16_RU,
    K_E4M3_RN, K_E4M3_SAT, K_E5M2_RN, K_E5M2_SAT,
    K_F16C_RN, K_F16C_RZ, K_F16C_RD, K_F16C_RU,
    K_ARRAY_FP16, K_ARRAY_BF16, K_ARRAY_TF32, K_SSE2_FP16, K_COUNT
};
static const char *const kind_names[] = {
    "fp16 rn vs __float2half_rn", "fp16 rz vs __float2half_rz", "fp16 rd vs __float2half_rd", "fp16 ru vs __float2half_ru",
    "bf16 rn vs __float2bfloat16_rn", "bf16 rz vs __float2bfloat16_rz", "bf16 rd vs __float2bfloat16_rd", "bf16 ru vs __float2bfloat16_ru",
    "e4m3 rn vs __nv_cvt_float_to_fp8 NOSAT", "e4m3 rn.satfinite vs __nv_cvt_float_to_fp8 SATFINITE",
    "e5m2 rn vs __nv_cvt_float_to_fp8 NOSAT", "e5m2 rn.satfinite vs __nv_cvt_float_to_fp8 SATFINITE",
    "fp16 rn vs F16C", "fp16 rz vs F16C", "fp16 rd vs F16C", "fp16 ru vs F16C",
    "fp16 rn array vs scalar", "bf16 rn array vs scalar", "tf32 rn array vs scalar",
    "fp16 rn SSE2 path vs scalar",
};
static_assert(sizeof kind_names / sizeof kind_names[0] == K_COUNT, "one name per comparison");

struct Totals {
    long passed[K_COUNT];
    long failed[K_COUNT];
};

static std::mutex print_lock;
static std::atomic<long> failures_printed(0);

static void report(int kind, uint32_t in, uint32_t got, uint32_t want) {
    if (failures_printed.fetch_add(1) >= 20) return;
    std::lock_guard<std::mutex> g(print_lock);
    printf("FAIL %s: input %.9g (0x%08x): got 0x%x (%u), expected 0x%x (%u)\n", kind_names[kind],
           (double)tct_u2f(in), in, got, got, want, want);
}

#define CMP(kind, in, got, want)                                      \
    do {                                                              \
        uint32_t g_ = (uint32_t)(got), w_ = (uint32_t)(want);         \
        if (g_ == w_) t.passed[kind]++;                               \
        else { t.failed[kind]++; report(kind, in, g_, w_); }          \
    } while (0)

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

static void run_chunk(uint64_t first, uint32_t stride, Totals &t) {
    static thread_local std::vector<float> in(CHUNK), tf(CHUNK);
    static thread_local std::vector<uint16_t> h(CHUNK), b(CHUNK);
    for (int i = 0; i < CHUNK; i++) in[i] = tct_u2f((uint32_t)(first + (uint64_t)i * stride));
    tc_fp16_from_f32_array(in.data(), h.data(), CHUNK, TC_RN);
    tc_bf16_from_f32_array(in.data(), b.data(), CHUNK, TC_RN);
    tc_tf32_from_f32_array(in.data(), tf.data(), CHUNK, TC_RN);
#ifdef TC__SSE2
    /* The array function may take the F16C path; check the SSE2 one too. */
    for (int i = 0; i < CHUNK; i += 4) {
        uint32_t lanes[4];
        _mm_storeu_si128((__m128i *)lanes, tc__sse_fp16(_mm_loadu_si128((const __m128i *)&in[i])));
        for (int j = 0; j < 4; j++) CMP(K_SSE2_FP16, tct_f2u(in[i + j]), lanes[j], tc_fp16_from_f32(in[i + j], TC_RN));
    }
#endif
    for (int i = 0; i < CHUNK; i++) {
        float x = in[i];
        uint32_t u = tct_f2u(x);
        uint16_t h_rn = tc_fp16_from_f32(x, TC_RN), b_rn = tc_bf16_from_f32(x, TC_RN);
        CMP(K_ARRAY_FP16, u, h[i], h_rn);
        CMP(K_ARRAY_BF16, u, b[i], b_rn);
        CMP(K_ARRAY_TF32, u, tct_f2u(tf[i]), tct_f2u(tc_tf32_from_f32(x, TC_RN)));
#ifdef HAVE_F16C
        CMP(K_F16C_RN, u, h_rn, f16c(x, TC_RN));
        CMP(K_F16C_RZ, u, tc_fp16_from_f32(x, TC_RZ), f16c(x, TC_RZ));
        CMP(K_F16C_RD, u, tc_fp16_from_f32(x, TC_RD), f16c(x, TC_RD));
        CMP(K_F16C_RU, u, tc_fp16_from_f32(x, TC_RU), f16c(x, TC_RU));
#endif
#ifdef HAVE_CUDA_HEADERS
        CMP(K_FP16_RN, u, h_rn, __half_raw(__float2half_rn(x)).x);
        CMP(K_FP16_RZ, u, tc_fp16_from_f32(x, TC_RZ), __half_raw(__float2half_rz(x)).x);
        CMP(K_FP16_RD, u, tc_fp16_from_f32(x, TC_RD), __half_raw(__float2half_rd(x)).x);
        CMP(K_FP16_RU, u, tc_fp16_from_f32(x, TC_RU), __half_raw(__float2half_ru(x)).x);
        CMP(K_BF16_RN, u, b_rn, __nv_bfloat16_raw(__float2bfloat16_rn(x)).x);
        CMP(K_BF16_RZ, u, tc_bf16_from_f32(x, TC_RZ), __nv_bfloat16_raw(__float2bfloat16_rz(x)).x);
        CMP(K_BF16_RD, u, tc_bf16_from_f32(x, TC_RD), __nv_bfloat16_raw(__float2bfloat16_rd(x)).x);
        CMP(K_BF16_RU, u, tc_bf16_from_f32(x, TC_RU), __nv_bfloat16_raw(__float2bfloat16_ru(x)).x);
        CMP(K_E4M3_RN, u, tc_e4m3_from_f32(x, TC_RN), __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E4M3));
        CMP(K_E4M3_SAT, u, tc_e4m3_from_f32(x, TC_RN | TC_SATFINITE), __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3));
        CMP(K_E5M2_RN, u, tc_e5m2_from_f32(x, TC_RN), __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2));
        CMP(K_E5M2_SAT, u, tc_e5m2_from_f32(x, TC_RN | TC_SATFINITE), __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2));
#endif
    }
}

/* All 2^16 and 2^8 patterns of the widening conversions. */
static void widening(void) {
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
        else { fprintf(stderr, "usage: %s [--stride N]\n", argv[0]); return 2; }
    }
    if (stride < 1) stride = 1;
#ifndef HAVE_CUDA_HEADERS
    printf("note: CUDA headers not found (add -I/usr/local/cuda/include); skipping the CUDA oracles\n");
#endif
#ifndef HAVE_F16C
    printf("note: built without F16C (-mf16c on x86-64); skipping the F16C oracle\n");
#endif
    widening();

    const uint64_t span = (uint64_t)CHUNK * stride;
    const uint64_t chunks = ((1ull << 32) + span - 1) / span;
    std::atomic<uint64_t> next(0), done(0);
    unsigned nthreads = std::thread::hardware_concurrency();
    if (nthreads < 1) nthreads = 1;
    if (nthreads > 16) nthreads = 16;
    std::vector<Totals> totals(nthreads);
    std::vector<std::thread> workers;
    printf("checking %llu fp32 inputs (stride %u) on %u threads\n",
           (unsigned long long)(chunks * CHUNK), stride, nthreads);
    fflush(stdout);
    for (unsigned w = 0; w < nthreads; w++) {
        memset(&totals[w], 0, sizeof totals[w]);
        workers.emplace_back([&, w] {
            for (;;) {
                uint64_t c = next.fetch_add(1);
                if (c >= chunks) break;
                run_chunk(c * span, stride, totals[w]);
                uint64_t d = done.fetch_add(1) + 1;
                if (d % (chunks / 16 ? chunks / 16 : 1) == 0) {
                    std::lock_guard<std::mutex> g(print_lock);
                    printf("  %3d%%\n", (int)(100 * d / chunks));
                    fflush(stdout);
                }
            }
        });
    }
    for (auto &th : workers) th.join();
    for (int k = 0; k < K_COUNT; k++) {
        long p = 0, f = 0;
        for (unsigned w = 0; w < nthreads; w++) { p += totals[w].passed[k]; f += totals[w].failed[k]; }
        if (p + f) printf("  %-52s %12ld ok %ld mismatches\n", kind_names[k], p, f);
        tct_add(p, f);
    }
    return tct_finish("test_formats_exhaustive");
}
