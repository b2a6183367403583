/* test_formats.c - section 1 (number formats) against independent models
   written here, plus a list of named edge cases and the bad inputs.

   Oracles in this file (none shares code with tensorcore.h):
   - the "set model": every finite value of a format, decoded with ldexp from
     the format's definition and sorted; x is rounded by finding its two
     neighbours and choosing by the rounding mode. Covers every format and mode.
   - a tf32 bit model: rounding on the fp32 encoding with integer adds.
   The CUDA headers and F16C check the same functions in
   test_formats_exhaustive.cpp. */
#define TC_THREADS   /* test_convert_threads; the exhaustive test covers the build without */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------- the set model */

typedef struct {
    tc_dtype t;
    int ebits, mbits, has_inf;
    int count;             /* finite non-negative encodings 0..count-1 */
    double *value;         /* value[code], increasing with code */
    double beyond;         /* max + ulp(max): what overflow rounds to */
} set_model;

static double definition_value(int code, int ebits, int mbits) {
    int bias = (1 << (ebits - 1)) - 1;
    int e = code >> mbits, f = code & ((1 << mbits) - 1);
    if (e == 0) return ldexp((double)f, 1 - bias - mbits);
    return ldexp(1.0 + ldexp((double)f, -mbits), e - bias);
}

static void set_model_init(set_model *m, tc_dtype t, int ebits, int mbits, int has_inf) {
    int code;
    m->t = t; m->ebits = ebits; m->mbits = mbits; m->has_inf = has_inf;
    /* IEEE-like: the all-ones exponent is Inf/NaN. e4m3: only S.1111.111 is NaN. */
    m->count = has_inf ? ((1 << ebits) - 1) << mbits : (1 << (ebits + mbits)) - 1;
    m->value = (double *)malloc((size_t)m->count * sizeof(double));
    for (code = 0; code < m->count; code++) m->value[code] = definition_value(code, ebits, mbits);
    m->beyond = m->value[m->count - 1] + (m->value[m->count - 1] - m->value[m->count - 2]);
}

/* Returns the encoding (right-aligned, sign at bit ebits+mbits). */
static uint32_t set_model_round(const set_model *m, float xf, int rounding) {
    int total = 1 + m->ebits + m->mbits;
    uint32_t sign_bit = 1u << (total - 1);
    uint32_t max_code = (uint32_t)m->count - 1;
    uint32_t nan_code = m->has_inf ? (sign_bit - 1u) : 0x7Fu;   /* 0x7FFF-style canonical NaN */
    uint32_t inf_code = m->has_inf ? (max_code + 1) : nan_code;
    int sat = (rounding & TC_SATFINITE) != 0, mode = rounding & ~TC_SATFINITE;
    double x = (double)xf, mag = fabs(x);
    int neg = signbit(xf) != 0;
    int lo, hi, mid, pick_up;
    uint32_t s = neg ? sign_bit : 0, code;
    /* Direction in magnitude: +1 away from zero, -1 toward zero, 0 nearest. */
    int dir = mode == TC_RZ ? -1 : mode == TC_RU ? (neg ? -1 : 1) : mode == TC_RD ? (neg ? 1 : -1) : 0;

    if (isnan(xf)) return m->t == TC_TF32 ? 0x3FFFFu : (m->has_inf ? nan_code : 0x7Fu);
    if (isinf(xf)) return sat ? (s | max_code) : (m->has_inf ? (s | inf_code) : (s | nan_code));
    if (mag >= m->beyond) {
        if (dir < 0 || sat) return s | max_code;
        return m->has_inf ? (s | inf_code) : (s | nan_code);
    }
    /* neighbours: value[lo] <= mag < value[lo+1] (value[count] = beyond) */
    lo = 0; hi = m->count;
    while (hi - lo > 1) {
        mid = (lo + hi) / 2;
        if (m->value[mid] <= mag) lo = mid; else hi = mid;
    }
    if (m->value[lo] == mag) return s | (uint32_t)lo;
    {
        double below = m->value[lo], above = hi < m->count ? m->value[hi] : m->beyond;
        if (dir > 0) pick_up = 1;
        else if (dir < 0) pick_up = 0;
        else if (mag - below != above - mag) pick_up = (above - mag) < (mag - below);
        else pick_up = mode == TC_RNA ? 1 : (lo & 1);   /* tie: away, or to the even code */
    }
    code = pick_up ? (uint32_t)lo + 1 : (uint32_t)lo;
    if (code > max_code) {   /* rounded to `beyond` */
        if (sat) return s | max_code;
        return m->has_inf ? (s | inf_code) : (s | nan_code);
    }
    return s | code;
}

/* ------------------------------------------------------- the tf32 bit model */

static uint32_t tf32_bit_model(uint32_t u, int rounding) {
    uint32_t mag = u & 0x7FFFFFFFu, low = u & 0x1FFFu, trunc = u & 0xFFFFE000u, r;
    int neg = (u >> 31) != 0, mode = rounding & ~TC_SATFINITE, sat = (rounding & TC_SATFINITE) != 0;
    if (mag > 0x7F800000u) return 0x7FFFE000u;
    if (mag == 0x7F800000u) return sat ? (u & 0x80000000u) | 0x7F7FE000u : u;
    switch (mode) {
    case TC_RN:  r = low > 0x1000u || (low == 0x1000u && (u & 0x2000u)) ? trunc + 0x2000u : trunc; break;
    case TC_RNA: r = low >= 0x1000u ? trunc + 0x2000u : trunc; break;
    case TC_RZ:  r = trunc; break;
    case TC_RD:  r = (low && neg) ? trunc + 0x2000u : trunc; break;
    default:     r = (low && !neg) ? trunc + 0x2000u : trunc; break;
    }
    /* A carry out of the largest binade lands on Inf's encoding. */
    if ((r & 0x7FFFFFFFu) == 0x7F800000u && sat) r = (r & 0x80000000u) | 0x7F7FE000u;
    return r;
}

/* ------------------------------------------------------------------ tests */

static const int all_modes[] = { TC_RN, TC_RNA, TC_RZ, TC_RD, TC_RU,
                                 TC_RN | TC_SATFINITE, TC_RNA | TC_SATFINITE, TC_RZ | TC_SATFINITE,
                                 TC_RD | TC_SATFINITE, TC_RU | TC_SATFINITE };
#define N_MODES ((int)(sizeof all_modes / sizeof all_modes[0]))

/* Inputs that matter for a format dropping `r` bits: every pattern of the
   kept bits with the dropped bits at 0, 1, half-1, half, half+1 and all ones. */
static void sweep_set_model(const set_model *m, uint32_t (*ours)(float, int)) {
    int r = 23 - m->mbits, k, mi;
    uint32_t half = 1u << (r - 1), full = (1u << r) - 1u;
    uint32_t lows[6];
    uint64_t hi;
    lows[0] = 0; lows[1] = 1; lows[2] = half - 1; lows[3] = half; lows[4] = half + 1; lows[5] = full;
    for (hi = 0; hi < (1ull << (32 - r)); hi++)
        for (k = 0; k < 6; k++) {
            uint32_t u = (uint32_t)(hi << r) | lows[k];
            for (mi = 0; mi < N_MODES; mi++)
                CHECK_BITS(u, ours(tct_u2f(u), all_modes[mi]), set_model_round(m, tct_u2f(u), all_modes[mi]));
        }
    tct_seed(0x5EED0000u + (uint64_t)m->t);
    for (k = 0; k < 200000; k++) {
        uint32_t u = tct_rand32();
        for (mi = 0; mi < N_MODES; mi++)
            CHECK_BITS(u, ours(tct_u2f(u), all_modes[mi]), set_model_round(m, tct_u2f(u), all_modes[mi]));
    }
}

static uint32_t ours_fp16(float x, int r) { return tc_fp16_from_f32(x, r); }
static uint32_t ours_bf16(float x, int r) { return tc_bf16_from_f32(x, r); }
static uint32_t ours_e4m3(float x, int r) { return tc_e4m3_from_f32(x, r); }
static uint32_t ours_e5m2(float x, int r) { return tc_e5m2_from_f32(x, r); }

static void test_against_set_model(void) {
    set_model fp16, bf16, e4m3, e5m2;
    set_model_init(&fp16, TC_FP16, 5, 10, 1);
    set_model_init(&bf16, TC_BF16, 8, 7, 1);
    set_model_init(&e4m3, TC_E4M3, 4, 3, 0);
    set_model_init(&e5m2, TC_E5M2, 5, 2, 1);
    sweep_set_model(&fp16, ours_fp16);
    sweep_set_model(&bf16, ours_bf16);
    sweep_set_model(&e4m3, ours_e4m3);
    sweep_set_model(&e5m2, ours_e5m2);
    free(fp16.value); free(bf16.value); free(e4m3.value); free(e5m2.value);
}

static void test_tf32_bit_model(void) {
    uint32_t hi, lows[] = { 0, 1, 0xFFF, 0x1000, 0x1001, 0x1FFF };
    int k, mi;
    for (hi = 0; hi < (1u << 19); hi++)
        for (k = 0; k < (int)(sizeof lows / sizeof lows[0]); k++) {
            uint32_t u = (hi << 13) | lows[k];
            for (mi = 0; mi < N_MODES; mi++)
                CHECK_BITS(u, tct_f2u(tc_tf32_from_f32(tct_u2f(u), all_modes[mi])), tf32_bit_model(u, all_modes[mi]));
        }
    /* tc_tf32_truncate is the mask, for every input class */
    for (hi = 0; hi < (1u << 19); hi++) {
        uint32_t u = (hi << 13) | 0x1ABCu;
        CHECK_BITS(u, tct_f2u(tc_tf32_truncate(tct_u2f(u))), u & 0xFFFFE000u);
    }
}

static void test_widening_definition(void) {
    uint32_t v;
    for (v = 0; v < 65536; v++) {
        int e = (int)((v >> 10) & 31), f = (int)(v & 1023);
        double want = e == 31 ? (f ? NAN : INFINITY) : definition_value((int)(v & 0x7FFF), 5, 10);
        float got = tc_fp16_to_f32((uint16_t)v);
        if (v & 0x8000) want = -want;
        if (e == 31 && f) CHECK_BITS(v, tct_f2u(got), 0x7FFFFFFFu);
        else CHECK_BITS(v, tct_f2u(got), tct_f2u((float)want));
        CHECK_BITS(v, tct_f2u(tc_bf16_to_f32((uint16_t)v)), v << 16);
    }
    for (v = 0; v < 256; v++) {
        int nan4 = (v & 0x7F) == 0x7F, e5 = (int)((v >> 2) & 31), f5 = (int)(v & 3);
        double w4 = definition_value((int)(v & 0x7F), 4, 3);
        double w5 = e5 == 31 ? INFINITY : definition_value((int)(v & 0x7F), 5, 2);
        if (v & 0x80) { w4 = -w4; w5 = -w5; }
        CHECK_BITS(v, tct_f2u(tc_e4m3_to_f32((uint8_t)v)), nan4 ? 0x7FFFFFFFu : tct_f2u((float)w4));
        CHECK_BITS(v, tct_f2u(tc_e5m2_to_f32((uint8_t)v)), (e5 == 31 && f5) ? 0x7FFFFFFFu : tct_f2u((float)w5));
    }
}

/* Named edge cases, each with the value a reader can check by hand. */
static void test_edges(void) {
    float nan = tct_u2f(0x7FC00000u), neg_nan = tct_u2f(0xFFC00001u), inf = tct_u2f(0x7F800000u);
    /* fp16: docs/REFERENCE.md 1, cuda_fp16.hpp */
    CHECK_BITS(0, tc_fp16_from_f32(1.0f, TC_RN), 0x3C00);
    CHECK_BITS(0, tc_fp16_from_f32(65504.0f, TC_RN), 0x7BFF);        /* max finite */
    CHECK_BITS(0, tc_fp16_from_f32(65519.99f, TC_RN), 0x7BFF);       /* just below the overflow threshold */
    CHECK_BITS(0, tc_fp16_from_f32(65520.0f, TC_RN), 0x7C00);        /* |x| >= 65520 -> Inf */
    CHECK_BITS(0, tc_fp16_from_f32(-65520.0f, TC_RN), 0xFC00);
    CHECK_BITS(0, tc_fp16_from_f32(65520.0f, TC_RZ), 0x7BFF);
    CHECK_BITS(0, tc_fp16_from_f32(1e9f, TC_RN | TC_SATFINITE), 0x7BFF);
    CHECK_BITS(0, tc_fp16_from_f32(-inf, TC_RN | TC_SATFINITE), 0xFBFF);
    CHECK_BITS(0, tc_fp16_from_f32(nan, TC_RN), 0x7FFF);             /* any NaN -> 0x7FFF */
    CHECK_BITS(0, tc_fp16_from_f32(neg_nan, TC_RN), 0x7FFF);         /* sign dropped */
    CHECK_BITS(0, tc_fp16_from_f32(-0.0f, TC_RN), 0x8000);
    CHECK_BITS(0, tc_fp16_from_f32(ldexpf(1, -24), TC_RN), 0x0001);  /* min subnormal */
    CHECK_BITS(0, tc_fp16_from_f32(ldexpf(1, -25), TC_RN), 0x0000);  /* tie -> even (0) */
    CHECK_BITS(0, tc_fp16_from_f32(ldexpf(3, -26), TC_RN), 0x0001);  /* 0.75 ulp -> 1 */
    CHECK_BITS(0, tc_fp16_from_f32(ldexpf(1, -25), TC_RNA), 0x0001); /* tie -> away */
    CHECK_BITS(0, tc_fp16_from_f32(ldexpf(1, -14), TC_RN), 0x0400);  /* min normal */
    CHECK_BITS(0, tc_fp16_from_f32(ldexpf(1023, -24) + ldexpf(1, -25), TC_RN), 0x0400); /* carry subnormal -> normal */
    CHECK_BITS(0, tc_fp16_from_f32(1.0f + ldexpf(1, -11), TC_RN), 0x3C00);      /* tie to even */
    CHECK_BITS(0, tc_fp16_from_f32(1.0f + ldexpf(3, -11), TC_RN), 0x3C02);      /* tie to even, up */
    CHECK_BITS(0, tc_fp16_from_f32(1.0f + ldexpf(1, -11), TC_RNA), 0x3C01);
    CHECK_BITS(0, tc_fp16_from_f32(-1e-8f, TC_RD), 0x8001);          /* toward -Inf: -min subnormal */
    CHECK_BITS(0, tc_fp16_from_f32(1e-8f, TC_RN), 0x0000);           /* the seeds' small gradient vanishes */
    /* bf16 */
    CHECK_BITS(0, tc_bf16_from_f32(1.0f, TC_RN), 0x3F80);
    CHECK_BITS(0, tc_bf16_from_f32(0.1f, TC_RN), 0x3DCD);
    CHECK_BITS(0, tc_bf16_from_f32(tct_u2f(0x7F7FFFFFu), TC_RN), 0x7F80);  /* fp32 max rounds to Inf */
    CHECK_BITS(0, tc_bf16_from_f32(tct_u2f(0x7F7FFFFFu), TC_RZ), 0x7F7F);
    CHECK_BITS(0, tc_bf16_from_f32(tct_u2f(0x3F808000u), TC_RN), 0x3F80);  /* tie to even */
    CHECK_BITS(0, tc_bf16_from_f32(tct_u2f(0x3F818000u), TC_RN), 0x3F82);
    CHECK_BITS(0, tc_bf16_from_f32(nan, TC_RN), 0x7FFF);
    CHECK(fabsf(tc_bf16_to_f32(tc_bf16_from_f32(1e-8f, TC_RN)) - 1e-8f) <= 1e-8f / 256);  /* bf16 keeps 1e-8 */
    /* tf32 */
    CHECK_BITS(0, tct_f2u(tc_tf32_from_f32(1.0f + ldexpf(1, -11), TC_RNA)), tct_f2u(1.0f + ldexpf(1, -10)));
    CHECK_BITS(0, tct_f2u(tc_tf32_from_f32(1.0f + ldexpf(1, -11), TC_RN)), tct_f2u(1.0f));
    CHECK_BITS(0, tct_f2u(tc_tf32_from_f32(tct_u2f(0x7F7FFFFFu), TC_RNA)), 0x7F800000u);
    CHECK_BITS(0, tct_f2u(tc_tf32_from_f32(tct_u2f(0x7F7FFFFFu), TC_RZ)), 0x7F7FE000u);
    CHECK_BITS(0, tct_f2u(tc_tf32_from_f32(nan, TC_RNA)), 0x7FFFE000u);   /* assumed, see header */
    CHECK_BITS(0, tct_f2u(tc_tf32_from_f32(tct_u2f(0x7F800001u), TC_RNA)), 0x7FFFE000u);
    CHECK_BITS(0, tct_f2u(tc_tf32_from_f32(ldexpf(1, -137), TC_RNA)), tct_f2u(ldexpf(1, -136)));
    CHECK_BITS(0, tct_f2u(tc_tf32_from_f32(ldexpf(1, -137), TC_RN)), 0u);
    CHECK_BITS(0, tct_f2u(tc_tf32_truncate(tct_u2f(0x3F7FFFFFu))), 0x3F7FE000u);
    /* e4m3: max 448, no Inf */
    CHECK_BITS(0, tc_e4m3_from_f32(448.0f, TC_RN), 0x7E);
    CHECK_BITS(0, tc_e4m3_from_f32(464.0f, TC_RN), 0x7E);            /* tie to even stays at 448 */
    CHECK_BITS(0, tc_e4m3_from_f32(465.0f, TC_RN), 0x7F);            /* > 464 -> NaN */
    CHECK_BITS(0, tc_e4m3_from_f32(465.0f, TC_RN | TC_SATFINITE), 0x7E);
    CHECK_BITS(0, tc_e4m3_from_f32(-inf, TC_RN), 0xFF);
    CHECK_BITS(0, tc_e4m3_from_f32(-inf, TC_RN | TC_SATFINITE), 0xFE);
    CHECK_BITS(0, tc_e4m3_from_f32(ldexpf(1, -9), TC_RN), 0x01);     /* min subnormal */
    CHECK_BITS(0, tc_e4m3_from_f32(ldexpf(1, -10), TC_RN), 0x00);
    CHECK_BITS(0, tc_e4m3_from_f32(neg_nan, TC_RN), 0x7F);
    /* e5m2 */
    CHECK_BITS(0, tc_e5m2_from_f32(57344.0f, TC_RN), 0x7B);
    CHECK_BITS(0, tc_e5m2_from_f32(61440.0f, TC_RN), 0x7C);
    CHECK_BITS(0, tc_e5m2_from_f32(61440.0f, TC_RN | TC_SATFINITE), 0x7B);
    CHECK_BITS(0, tc_e5m2_from_f32(inf, TC_RN), 0x7C);
    CHECK_BITS(0, tc_e5m2_from_f32(ldexpf(1, -16), TC_RN), 0x01);
    /* unknown rounding mode: the format's NaN, visibly wrong rather than silently RN */
    CHECK_BITS(0, tc_fp16_from_f32(1.0f, 7), 0x7FFF);
    CHECK_BITS(0, tc_e4m3_from_f32(1.0f, -1), 0x7F);
}

static void test_format_tools(void) {
    const tc_format *f16 = tc_format_of(TC_FP16), *b16 = tc_format_of(TC_BF16), *e4 = tc_format_of(TC_E4M3);
    const tc_format *e5 = tc_format_of(TC_E5M2), *t32 = tc_format_of(TC_TF32), *f32 = tc_format_of(TC_FP32);
    char buf[64];
    tc_fields fl;
    CHECK(f16 && b16 && e4 && e5 && t32 && f32);
    if (!(f16 && b16 && e4 && e5 && t32 && f32)) return;
    CHECK(f16->max_finite == 65504.0f && f16->min_normal == ldexpf(1, -14) && f16->min_subnormal == ldexpf(1, -24));
    CHECK(b16->max_finite > 3.38e38f && b16->max_finite < 3.40e38f && b16->mantissa_bits == 7);
    CHECK(t32->mantissa_bits == 10 && t32->total_bits == 19 && t32->max_finite == tct_u2f(0x7F7FE000u));
    CHECK(e4->max_finite == 448.0f && !e4->has_inf && e4->min_subnormal == ldexpf(1, -9));
    CHECK(e5->max_finite == 57344.0f && e5->has_inf);
    CHECK(f32->max_finite == tct_u2f(0x7F7FFFFFu));
    CHECK(tc_format_of((tc_dtype)99) == NULL && tc_format_of((tc_dtype)-1) == NULL);
    {   /* the constant table agrees with the encoders and decoders, field by field */
        int t;
        for (t = 0; t < TC_DTYPE_COUNT; t++) {
            const tc_format *f = tc_format_of((tc_dtype)t);
            uint32_t mask = f->total_bits >= 32 ? 0xFFFFFFFFu : (1u << f->total_bits) - 1u;
            /* ue8m0 alone has no zero and no subnormals: code 0 is its smallest value */
            uint32_t smallest = t == TC_UE8M0 ? 0u : 1u, first_normal = t == TC_UE8M0 ? 0u : 1u << f->mantissa_bits;
            CHECK(f->total_bits == f->is_signed + f->exponent_bits + f->mantissa_bits);
            if (f->exponent_bits == 0) continue;   /* the integer types: tests/test_imma.c */
            CHECK(f->bias == (1 << (f->exponent_bits - 1)) - 1);
            CHECK_BITS(t, tct_f2u(tc_decode((tc_dtype)t, f->max_finite_bits)), tct_f2u(f->max_finite));
            CHECK_BITS(t, tct_f2u(tc_decode((tc_dtype)t, first_normal)), tct_f2u(f->min_normal));
            CHECK_BITS(t, tct_f2u(tc_decode((tc_dtype)t, smallest)), tct_f2u(f->min_subnormal));
            CHECK(f->has_nan == (tc_classify((tc_dtype)t, f->nan_bits) == TC_CLASS_NAN));
            if (!f->has_nan) CHECK_BITS(t, f->nan_bits, f->max_finite_bits);   /* what NaN converts to */
            if (f->is_signed)
                CHECK_BITS(t, tct_f2u(tc_decode((tc_dtype)t, f->max_finite_bits | (1u << (f->total_bits - 1)))), tct_f2u(-f->max_finite));
            CHECK_BITS(t, tc_encode((tc_dtype)t, f->max_finite, TC_RN) & mask, f->max_finite_bits);
            CHECK(f->has_inf == (tc_classify((tc_dtype)t, (f->max_finite_bits + 1u) & mask) == TC_CLASS_INF));
        }
    }

    CHECK_STATUS(tc_format_bits(TC_FP16, 0x3C00, buf, sizeof buf), TC_OK);
    CHECK(strcmp(buf, "0 01111 0000000000") == 0);
    CHECK_STATUS(tc_format_bits(TC_BF16, tc_bf16_from_f32(0.1f, TC_RN), buf, sizeof buf), TC_OK);
    CHECK(strcmp(buf, "0 01111011 1001101") == 0);
    CHECK_STATUS(tc_format_bits(TC_E4M3, 0x7E, buf, sizeof buf), TC_OK);
    CHECK(strcmp(buf, "0 1111 110") == 0);
    CHECK_STATUS(tc_format_bits(TC_FP32, 0x3F800000u, buf, sizeof buf), TC_OK);
    CHECK(strcmp(buf, "0 01111111 00000000000000000000000") == 0);
    CHECK_STATUS(tc_format_bits(TC_FP16, 0, buf, 18), TC_ERR_BUFFER);   /* needs 19 */
    CHECK_STATUS(tc_format_bits(TC_FP16, 0, buf, 19), TC_OK);
    CHECK_STATUS(tc_format_bits(TC_FP16, 0, NULL, 64), TC_ERR_NULL);
    CHECK_STATUS(tc_format_bits((tc_dtype)42, 0, buf, 64), TC_ERR_DTYPE);

    fl = tc_split(TC_FP16, 0xBC00);   /* -1.0 */
    CHECK(fl.sign == 1 && fl.exponent == 15 && fl.mantissa == 0 && fl.unbiased == 0 && fl.cls == TC_CLASS_NORMAL);
    fl = tc_split(TC_FP16, 0x0001);
    CHECK(fl.sign == 0 && fl.exponent == 0 && fl.mantissa == 1 && fl.unbiased == -14 && fl.cls == TC_CLASS_SUBNORMAL);
    CHECK(tc_classify(TC_FP16, 0x7C00) == TC_CLASS_INF && tc_classify(TC_FP16, 0x7C01) == TC_CLASS_NAN);
    CHECK(tc_classify(TC_E4M3, 0x78) == TC_CLASS_NORMAL && tc_classify(TC_E4M3, 0xFF) == TC_CLASS_NAN);
    CHECK(tc_classify(TC_E5M2, 0x7C) == TC_CLASS_INF && tc_classify(TC_BF16, 0x8000) == TC_CLASS_ZERO);
    CHECK(tc_classify(TC_FP32, 0x00000001u) == TC_CLASS_SUBNORMAL && tc_classify(TC_TF32, 0x3FC00u) == TC_CLASS_INF);

    CHECK(tc_ulp(TC_FP16, 1.0f) == ldexpf(1, -10));
    CHECK(tc_ulp(TC_BF16, 1.0f) == ldexpf(1, -7));
    CHECK(tc_ulp(TC_TF32, 1.0f) == ldexpf(1, -10));
    CHECK(tc_ulp(TC_FP32, 1.0f) == ldexpf(1, -23));
    CHECK(tc_ulp(TC_E4M3, 1.0f) == 0.125f);
    CHECK(tc_ulp(TC_FP16, 65504.0f) == 32.0f);       /* at max: the spacing below */
    CHECK(tc_ulp(TC_E4M3, 448.0f) == 32.0f);
    CHECK(tc_ulp(TC_FP16, 0.0f) == ldexpf(1, -24));
    CHECK(tc_ulp(TC_FP16, -2.0f) == ldexpf(1, -9));
    CHECK(isnan(tc_ulp(TC_FP16, INFINITY)) && isnan(tc_ulp(TC_FP16, NAN)));
    CHECK(tc_next_up(TC_FP16, 1.0f) == 1.0f + ldexpf(1, -10));
    CHECK(tc_next_down(TC_FP16, 1.0f) == 1.0f - ldexpf(1, -11));
    CHECK(isinf(tc_next_up(TC_FP16, 65504.0f)));
    CHECK(tc_next_up(TC_E4M3, 448.0f) == 448.0f);   /* no Inf: saturates */
    CHECK(tc_next_down(TC_FP16, 0.0f) == -ldexpf(1, -24));
    CHECK(tc_next_up(TC_FP16, -ldexpf(1, -24)) == 0.0f && signbit(tc_next_up(TC_FP16, -ldexpf(1, -24))));
    CHECK(tc_next_down(TC_BF16, -INFINITY) == -INFINITY);
    CHECK(tc_next_up(TC_FP32, 1.0f) == nextafterf(1.0f, 2.0f));
    CHECK(isnan(tc_next_up(TC_FP16, NAN)));

    CHECK(strcmp(tc_rounding_name(TC_RNA), "rna") == 0 && strcmp(tc_rounding_name(TC_RN | TC_SATFINITE), "rn.satfinite") == 0);
    CHECK(strcmp(tc_rounding_name(9), "invalid") == 0);
    CHECK(tc_rounding_is_valid(TC_RU | TC_SATFINITE) && !tc_rounding_is_valid(5) && !tc_rounding_is_valid(-1));
    CHECK(tc_encode((tc_dtype)77, 1.0f, TC_RN) == 0 && isnan(tc_decode((tc_dtype)77, 0)));
    /* an unknown dtype: the documented defined results, not shifts by -1 */
    {
        tc_fields u = tc_split((tc_dtype)77, 0xFFFFFFFFu);
        CHECK(u.sign == 0 && u.exponent == 0 && u.mantissa == 0 && u.unbiased == 0 && u.cls == TC_CLASS_NAN);
        CHECK(tc_classify((tc_dtype)-1, 0x3C00u) == TC_CLASS_NAN);
        CHECK(isnan(tc_next_up((tc_dtype)77, 1.0f)) && isnan(tc_next_down((tc_dtype)-1, 0.0f)));
        CHECK(isnan(tc_ulp((tc_dtype)77, 1.0f)) && isnan(tc_ulp((tc_dtype)-1, 0.0f)));
    }
    CHECK(tc_round(TC_FP16, 0.1f, TC_RN) == tc_fp16_to_f32(tc_fp16_from_f32(0.1f, TC_RN)));
}

static void test_status_strings(void) {
    int s;
    for (s = 0; s < TC_STATUS_COUNT; s++) CHECK(tc_status_string((tc_status)s)[0] != '\0');
    CHECK(strcmp(tc_status_string(TC_OK), "ok") == 0);
    CHECK(strcmp(tc_status_string((tc_status)-3), "unknown tc_status value") == 0);
    CHECK(strcmp(tc_status_string(TC_STATUS_COUNT), "unknown tc_status value") == 0);
}

/* Arrays equal the scalars in every mode, at every length and alignment the
   vector loops split into; bad arguments give their status. */
static void test_arrays(void) {
    enum { N = 4099 };
    static float in[N + 1], outf[N + 1], outf2[N + 1];
    static uint16_t out16[N + 1];
    static uint8_t out8[N + 1];
    int i, mi, n;
    tct_seed(42);
    for (i = 0; i <= N; i++) in[i] = tct_u2f(tct_rand32());
    for (mi = 0; mi < N_MODES; mi++) {
        int r = all_modes[mi];
        for (n = 0; n < 40; n += 13) {
            const float *src = in + (n & 1);   /* misaligned too */
            int count = N - n;
            CHECK_STATUS(tc_fp16_from_f32_array(src, out16, (size_t)count, r), TC_OK);
            for (i = 0; i < count; i++) CHECK_BITS(tct_f2u(src[i]), out16[i], tc_fp16_from_f32(src[i], r));
            CHECK_STATUS(tc_bf16_from_f32_array(src, out16, (size_t)count, r), TC_OK);
            for (i = 0; i < count; i++) CHECK_BITS(tct_f2u(src[i]), out16[i], tc_bf16_from_f32(src[i], r));
            CHECK_STATUS(tc_tf32_from_f32_array(src, outf, (size_t)count, r), TC_OK);
            for (i = 0; i < count; i++) CHECK_BITS(tct_f2u(src[i]), tct_f2u(outf[i]), tct_f2u(tc_tf32_from_f32(src[i], r)));
            CHECK_STATUS(tc_e4m3_from_f32_array(src, out8, (size_t)count, r), TC_OK);
            for (i = 0; i < count; i++) CHECK_BITS(tct_f2u(src[i]), out8[i], tc_e4m3_from_f32(src[i], r));
            CHECK_STATUS(tc_e5m2_from_f32_array(src, out8, (size_t)count, r), TC_OK);
            for (i = 0; i < count; i++) CHECK_BITS(tct_f2u(src[i]), out8[i], tc_e5m2_from_f32(src[i], r));
        }
        {
            tc_dtype t;
            for (t = TC_FP32; t < TC_DTYPE_COUNT; t = (tc_dtype)(t + 1)) {
                CHECK_STATUS(tc_round_array(t, in, outf, N, r), TC_OK);
                for (i = 0; i < N; i++) CHECK_BITS(tct_f2u(in[i]), tct_f2u(outf[i]), tct_f2u(tc_round(t, in[i], r)));
            }
        }
    }
    /* in place */
    memcpy(outf2, in, sizeof in);
    CHECK_STATUS(tc_round_array(TC_BF16, outf2, outf2, N, TC_RN), TC_OK);
    for (i = 0; i < N; i++) CHECK_BITS(tct_f2u(in[i]), tct_f2u(outf2[i]), tct_f2u(tc_round(TC_BF16, in[i], TC_RN)));
    /* widening arrays */
    for (i = 0; i < N; i++) out16[i] = (uint16_t)tct_rand32();
    CHECK_STATUS(tc_fp16_to_f32_array(out16, outf, N), TC_OK);
    for (i = 0; i < N; i++) CHECK_BITS(out16[i], tct_f2u(outf[i]), tct_f2u(tc_fp16_to_f32(out16[i])));
    CHECK_STATUS(tc_bf16_to_f32_array(out16, outf, N), TC_OK);
    for (i = 0; i < N; i++) CHECK_BITS(out16[i], tct_f2u(outf[i]), (uint32_t)out16[i] << 16);
    for (n = 0; n < 40; n += 13) {   /* every FP8 pattern, at several offsets and tail lengths */
        for (i = 0; i < 256 + n; i++) out8[i] = (uint8_t)(i - n);
        CHECK_STATUS(tc_e4m3_to_f32_array(out8 + (n & 1), outf, (size_t)(256 + n - (n & 1))), TC_OK);
        for (i = 0; i < 256 + n - (n & 1); i++) CHECK_BITS(out8[i + (n & 1)], tct_f2u(outf[i]), tct_f2u(tc_e4m3_to_f32(out8[i + (n & 1)])));
        CHECK_STATUS(tc_e5m2_to_f32_array(out8 + (n & 1), outf, (size_t)(256 + n - (n & 1))), TC_OK);
        for (i = 0; i < 256 + n - (n & 1); i++) CHECK_BITS(out8[i + (n & 1)], tct_f2u(outf[i]), tct_f2u(tc_e5m2_to_f32(out8[i + (n & 1)])));
    }
    /* in place, every format and mode */
    for (mi = 0; mi < N_MODES; mi++) {
        tc_dtype t;
        for (t = TC_FP32; t < TC_DTYPE_COUNT; t = (tc_dtype)(t + 1)) {
            memcpy(outf2, in, sizeof in);
            CHECK_STATUS(tc_round_array(t, outf2, outf2, N, all_modes[mi]), TC_OK);
            for (i = 0; i < N; i++) CHECK_BITS(tct_f2u(in[i]), tct_f2u(outf2[i]), tct_f2u(tc_round(t, in[i], all_modes[mi])));
        }
    }
    /* bad input */
    CHECK_STATUS(tc_fp16_from_f32_array(NULL, out16, 4, TC_RN), TC_ERR_NULL);
    CHECK_STATUS(tc_fp16_from_f32_array(in, NULL, 4, TC_RN), TC_ERR_NULL);
    CHECK_STATUS(tc_fp16_from_f32_array(NULL, NULL, 0, TC_RN), TC_OK);
    CHECK_STATUS(tc_bf16_from_f32_array(in, out16, 4, 17), TC_ERR_ROUNDING);
    CHECK_STATUS(tc_tf32_from_f32_array(in, NULL, 1, TC_RN), TC_ERR_NULL);
    CHECK_STATUS(tc_tf32_from_f32_array(in, outf, 1, -2), TC_ERR_ROUNDING);
    CHECK_STATUS(tc_e4m3_from_f32_array(NULL, out8, 1, TC_RN), TC_ERR_NULL);
    CHECK_STATUS(tc_e5m2_from_f32_array(in, out8, 1, 0x200), TC_ERR_ROUNDING);
    CHECK_STATUS(tc_fp16_to_f32_array(NULL, outf, 1), TC_ERR_NULL);
    CHECK_STATUS(tc_bf16_to_f32_array(out16, NULL, 1), TC_ERR_NULL);
    CHECK_STATUS(tc_round_array(TC_DTYPE_COUNT, in, outf, 1, TC_RN), TC_ERR_DTYPE);
    CHECK_STATUS(tc_round_array(TC_FP16, in, outf, 1, 99), TC_ERR_ROUNDING);
    CHECK_STATUS(tc_round_array(TC_FP16, NULL, outf, 1, TC_RN), TC_ERR_NULL);
    CHECK_STATUS(tc_e4m3_to_f32_array(NULL, outf, 1), TC_ERR_NULL);
    CHECK_STATUS(tc_e5m2_to_f32_array(out8, NULL, 1), TC_ERR_NULL);
    CHECK_STATUS(tc_e5m2_to_f32_array(NULL, NULL, 0), TC_OK);
}

/* tc_convert_threads: out-of-range counts refused, and any count gives the
   single-thread result bit for bit, on arrays long enough to be split
   (odd lengths, so the slices' tails differ). */
static void test_convert_threads(void) {
    enum { N = 3 * 65536 + 7 };
    static const int counts[] = { 2, 3, 4 };
    static float in[N], one[N], many[N];
    static uint16_t h1[N], hn[N];
    static uint8_t b1[N], bn[N];
    int i, mi, ci;
    CHECK_STATUS(tc_convert_threads(0), TC_ERR_ARG);
    CHECK_STATUS(tc_convert_threads(-1), TC_ERR_ARG);
    CHECK_STATUS(tc_convert_threads(65), TC_ERR_ARG);
    CHECK_STATUS(tc_convert_threads(INT_MAX), TC_ERR_ARG);
    CHECK_STATUS(tc_convert_threads(64), TC_OK);
    CHECK_STATUS(tc_convert_threads(1), TC_OK);
    tct_seed(7);
    for (i = 0; i < N; i++) in[i] = tct_u2f(tct_rand32());
    in[0] = tct_u2f(0x7FC00001u); in[1] = tct_u2f(0xFF800000u); in[2] = tct_u2f(0x80000001u); in[3] = 65520.0f;
    for (ci = 0; ci < (int)(sizeof counts / sizeof counts[0]); ci++) {
        for (mi = 0; mi < N_MODES; mi++) {
            int r = all_modes[mi];
            tc_dtype t;
            for (t = TC_FP32; t < TC_DTYPE_COUNT; t = (tc_dtype)(t + 1)) {
                CHECK_STATUS(tc_round_array(t, in, one, N, r), TC_OK);
                CHECK_STATUS(tc_convert_threads(counts[ci]), TC_OK);
                CHECK_STATUS(tc_round_array(t, in, many, N, r), TC_OK);
                CHECK_STATUS(tc_convert_threads(1), TC_OK);
                CHECK(memcmp(one, many, sizeof one) == 0);
            }
            CHECK_STATUS(tc_fp16_from_f32_array(in, h1, N, r), TC_OK);
            CHECK_STATUS(tc_e4m3_from_f32_array(in, b1, N, r), TC_OK);
            CHECK_STATUS(tc_convert_threads(counts[ci]), TC_OK);
            CHECK_STATUS(tc_fp16_from_f32_array(in, hn, N, r), TC_OK);
            CHECK_STATUS(tc_e4m3_from_f32_array(in, bn, N, r), TC_OK);
            CHECK_STATUS(tc_convert_threads(1), TC_OK);
            CHECK(memcmp(h1, hn, sizeof h1) == 0);
            CHECK(memcmp(b1, bn, sizeof b1) == 0);
        }
        CHECK_STATUS(tc_convert_threads(counts[ci]), TC_OK);
        CHECK_STATUS(tc_fp16_to_f32_array(h1, many, N), TC_OK);
        CHECK_STATUS(tc_convert_threads(1), TC_OK);
        for (i = 0; i < N; i++) CHECK_BITS(h1[i], tct_f2u(many[i]), tct_f2u(tc_fp16_to_f32(h1[i])));
    }
}

int main(void) {
    test_edges();
    test_format_tools();
    test_status_strings();
    test_widening_definition();
    test_tf32_bit_model();
    test_arrays();
    test_convert_threads();
    test_against_set_model();
    return tct_finish("test_formats");
}
