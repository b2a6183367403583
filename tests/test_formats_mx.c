/* test_formats_mx.c - section 1b: the small formats' edges, custom formats
   against an enumeration oracle, cvt.rs stochastic rounding against the
   bit-space algorithm, MX and NVFP4 block scaling against an independent
   implementation, and bad input.

   The oracles here share no code with the header's encoder: a format is
   enumerated code by code from its definition (value = 2^(e - bias) * (1 +
   m / 2^M), subnormals, specials), sorted, and an input is rounded by
   looking up its two neighbours. Exhaustive comparisons against CUDA are
   in test_formats_exhaustive_mx.cpp. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

/* ---- the enumeration oracle */

typedef struct {
    int e, m, specials, sign;
    int bias, ncodes;
    double val[1 << 15];    /* by magnitude code; NaN for NaN and Inf codes */
    uint32_t max_code;      /* largest finite magnitude code */
} oracle;

static void oracle_init(oracle *o, int e, int m, int specials, int sign) {
    int code, all = (1 << (e + m)) - 1;
    o->e = e; o->m = m; o->specials = specials; o->sign = sign;
    o->bias = (1 << (e - 1)) - 1;
    o->ncodes = all + 1;
    o->max_code = 0;
    for (code = 0; code <= all; code++) {
        int ef = code >> m, mf = code & ((1 << m) - 1);
        double v = ef == 0 ? ldexp((double)mf, 1 - o->bias - m) : ldexp(1.0 + ldexp((double)mf, -m), ef - o->bias);
        if (specials == TC_SPECIALS_IEEE && ef == (1 << e) - 1) v = NAN;
        if (specials == TC_SPECIALS_NAN && code == all) v = NAN;
        o->val[code] = v;
        if (v == v) o->max_code = (uint32_t)code;
    }
}

/* The code the format's definition gives x under a rounding: the two
   magnitude neighbours of |x|, then the mode picks. */
static uint32_t oracle_encode(const oracle *o, float xf, int rounding) {
    int mode = rounding & 0xFF, sat = (rounding & TC_SATFINITE) || o->specials == TC_SPECIALS_NONE;
    uint32_t sbit = o->sign ? 1u << (o->e + o->m) : 0, nan = (uint32_t)o->ncodes - 1;
    double x = xf, a = fabs(x), maxv = o->val[o->max_code];
    int neg = signbit(xf) != 0, away;
    uint32_t lo = 0, hi, code;
    if (x != x) return nan;
    if (isinf(x)) {   /* exact: Inf where the format has it */
        if (!o->sign && neg) return sat ? 0 : nan;
        if (sat) return (neg ? sbit : 0) | o->max_code;
        return (neg ? sbit : 0) | (o->specials == TC_SPECIALS_IEEE ? o->max_code + 1 : nan);
    }
    if ((rounding & TC_FTZ) && a < FLT_MIN) a = 0;
    {   /* largest code <= a, by bisection over the monotone magnitude table */
        uint32_t top = o->max_code;
        if (a >= o->val[top]) lo = top;
        else while (top - lo > 1) { uint32_t mid = (lo + top) / 2; if (o->val[mid] <= a) lo = mid; else top = mid; }
    }
    hi = o->val[lo] == a ? lo : lo + 1;
    if (hi == lo) {
        code = lo;
    } else {
        /* above max: the value the next code would have without specials */
        int hef = (int)(hi >> o->m), hmf = (int)(hi & ((1u << o->m) - 1u));
        double vhi = hi <= o->max_code ? o->val[hi] : ldexp(1.0 + ldexp((double)hmf, -o->m), hef - o->bias);
        double mid = (o->val[lo] + vhi) / 2;
        switch (mode) {
        case TC_RN:  away = a > mid || (a == mid && (lo & 1)); break;
        case TC_RNA: away = a >= mid; break;
        case TC_RZ:  away = 0; break;
        case TC_RD:  away = neg; break;
        default:     away = !neg; break;
        }
        code = away ? hi : lo;
        if (code > o->max_code || a > maxv * 2) {   /* beyond the largest finite value */
            int to_max = sat || mode == TC_RZ || (mode == TC_RD && !neg) || (mode == TC_RU && neg);
            if (!o->sign && neg) return sat ? 0 : nan;
            if (to_max) return (neg ? sbit : 0) | o->max_code;
            return (neg ? sbit : 0) | (o->specials == TC_SPECIALS_IEEE ? o->max_code + 1 : nan);
        }
    }
    if ((rounding & TC_FTZ_OUT) && code < (1u << o->m)) code = 0;
    if (!o->sign && neg && code) return sat ? 0 : nan;
    return (neg ? sbit : 0) | code;
}

/* Inputs that matter: every code's value, the midpoints, one fp32 ulp
   either side, both signs, fp32 extremes and specials, and random floats. */
static int interesting(const oracle *o, float *out, int cap) {
    int n = 0, c, s, d;
    static const float fixed[] = { 0.0f, FLT_MIN, FLT_MAX, 1e-45f, 1e-40f, INFINITY, NAN };
    for (c = 0; c < (int)(sizeof fixed / sizeof fixed[0]) && n < cap - 1; c++) { out[n++] = fixed[c]; out[n++] = -fixed[c]; }
    for (c = 0; c <= (int)o->max_code + 1 && n < cap - 12; c++) {
        double v = c <= (int)o->max_code ? o->val[c] : o->val[o->max_code] * 1.25;
        double nx = c < (int)o->max_code ? o->val[c + 1] : v * 2;
        float pts[3];
        pts[0] = (float)v; pts[1] = (float)((v + nx) / 2); pts[2] = (float)(v * 1.0000001);
        for (d = 0; d < 3; d++)
            for (s = 0; s < 2; s++) {
                float p = s ? -pts[d] : pts[d];
                out[n++] = p; out[n++] = nextafterf(p, INFINITY);
            }
    }
    while (n < cap) out[n++] = tct_u2f(tct_rand32());
    return n;
}

static void test_custom_vs_enumeration(void) {
    static const int shapes[][4] = {   /* e, m, specials, signed */
        { 5, 10, TC_SPECIALS_IEEE, 1 }, { 4, 3, TC_SPECIALS_NAN, 1 }, { 2, 1, TC_SPECIALS_NONE, 1 },
        { 3, 4, TC_SPECIALS_IEEE, 1 }, { 6, 2, TC_SPECIALS_NONE, 1 }, { 1, 3, TC_SPECIALS_NONE, 1 },
        { 4, 3, TC_SPECIALS_NAN, 0 }, { 5, 0, TC_SPECIALS_NONE, 0 }, { 7, 5, TC_SPECIALS_NAN, 1 },
        { 2, 0, TC_SPECIALS_NAN, 1 }, { 3, 2, TC_SPECIALS_NONE, 0 }, { 8, 4, TC_SPECIALS_IEEE, 1 }, { 8, 6, TC_SPECIALS_IEEE, 0 },
    };
    static const int modes[] = { TC_RN, TC_RNA, TC_RZ, TC_RD, TC_RU };
    static oracle o;
    static float in[20000];
    int s, k, i, flags;
    tct_seed(14);
    for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) {
        tc_custom_format f;
        tc_format info;
        int n;
        f.exponent_bits = shapes[s][0]; f.mantissa_bits = shapes[s][1];
        f.specials = (tc_specials)shapes[s][2]; f.is_signed = shapes[s][3];
        oracle_init(&o, f.exponent_bits, f.mantissa_bits, shapes[s][2], f.is_signed);
        CHECK_STATUS(tc_custom_info(&f, &info), TC_OK);
        CHECK(info.max_finite == (float)o.val[o.max_code] && info.max_finite_bits == o.max_code);
        CHECK(info.min_subnormal == (float)o.val[1] && info.total_bits == f.is_signed + f.exponent_bits + f.mantissa_bits);
        n = interesting(&o, in, (int)(sizeof in / sizeof in[0]));
        for (k = 0; k < 5; k++)
            for (flags = 0; flags < 8; flags++) {
                int r = modes[k] | (flags & 1 ? TC_SATFINITE : 0) | (flags & 2 ? TC_FTZ : 0) | (flags & 4 ? TC_FTZ_OUT : 0);
                for (i = 0; i < n; i++) {
                    uint32_t got = 0xDEAD;
                    float back = 0;
                    CHECK_STATUS(tc_custom_encode(&f, in[i], r, &got), TC_OK);
                    if (got != oracle_encode(&o, in[i], r) && getenv("DBG"))
                        printf("encode e%dm%d sp%d s%d r 0x%x x %.9g got 0x%x want 0x%x\n", f.exponent_bits, f.mantissa_bits, (int)f.specials, f.is_signed, r, in[i], got, oracle_encode(&o, in[i], r));
                    CHECK_BITS(tct_f2u(in[i]), got, oracle_encode(&o, in[i], r));
                    CHECK_STATUS(tc_custom_decode(&f, got, &back), TC_OK);
                    {   /* decoding agrees with the enumerated value */
                        uint32_t mag = got & ((1u << (f.exponent_bits + f.mantissa_bits)) - 1u);
                        double want = o.val[mag];
                        if (f.is_signed && (got >> (f.exponent_bits + f.mantissa_bits))) want = -want;
                        if (f.specials == TC_SPECIALS_IEEE && mag == o.max_code + 1) want = (got >> (f.exponent_bits + f.mantissa_bits)) ? -INFINITY : INFINITY;
                        if (want != want) CHECK(back != back);
                        else if (!CHECK(back == (float)want && !signbit(back) == !signbit(want)) && getenv("DBG"))
                            printf("decode e%dm%d sp%d s%d code 0x%x: got %g want %g\n", f.exponent_bits, f.mantissa_bits, (int)f.specials, f.is_signed, got, back, want);
                    }
                }
            }
    }
}

/* ---- built-in small formats: edges */
static void test_small_format_edges(void) {
    char buf[32];
    tc_fields fl;
    /* e2m1: 0 0.5 1 1.5 2 3 4 6 */
    CHECK_BITS(0, tc_encode(TC_E2M1, 0.25f, TC_RN), 0x0);    /* tie to even: 0 */
    CHECK_BITS(0, tc_encode(TC_E2M1, 0.75f, TC_RN), 0x2);    /* tie 0.5/1.0: even code 2 */
    CHECK_BITS(0, tc_encode(TC_E2M1, 5.0f, TC_RN), 0x6);     /* tie 4/6: code 6 */
    CHECK_BITS(0, tc_encode(TC_E2M1, 5.0f, TC_RNA), 0x7);
    CHECK_BITS(0, tc_encode(TC_E2M1, 1e30f, TC_RN), 0x7);    /* saturates without being asked */
    CHECK_BITS(0, tc_encode(TC_E2M1, -INFINITY, TC_RU), 0xF);
    CHECK_BITS(0, tc_encode(TC_E2M1, NAN, TC_RN), 0x7);      /* NaN: +max, as CUDA */
    CHECK_BITS(0, tc_encode(TC_E2M1, -NAN, TC_RN), 0x7);
    CHECK_BITS(0, tc_encode(TC_E2M1, -0.1f, TC_RN), 0x8);    /* -0 */
    CHECK(tc_decode(TC_E2M1, 0xF) == -6.0f && tc_decode(TC_E2M1, 0x1) == 0.5f);
    CHECK(tc_decode(TC_E2M3, 0x1F) == 7.5f && tc_decode(TC_E3M2, 0x1F) == 28.0f && tc_decode(TC_E3M2, 0x1) == 0.0625f);
    /* ue8m0: 2^(code - 127), of |x|; no zero */
    CHECK_BITS(0, tc_encode(TC_UE8M0, 0.0f, TC_RZ), 0x00);
    CHECK_BITS(0, tc_encode(TC_UE8M0, 1.0f, TC_RZ), 0x7F);
    CHECK_BITS(0, tc_encode(TC_UE8M0, 3.0f, TC_RZ), 0x80);
    CHECK_BITS(0, tc_encode(TC_UE8M0, -3.0f, TC_RU), 0x81);
    CHECK_BITS(0, tc_encode(TC_UE8M0, 3.0f, TC_RN), 0x80);   /* 1.5 * 2 is a tie: the even code */
    CHECK_BITS(0, tc_encode(TC_UE8M0, 3.0f, TC_RNA), 0x81);
    CHECK_BITS(0, tc_encode(TC_UE8M0, 6.0f, TC_RN), 0x82);   /* 1.5 * 4: tie, 0x82 is even */
    CHECK_BITS(0, tc_encode(TC_UE8M0, 2.9f, TC_RN), 0x80);
    CHECK_BITS(0, tc_encode(TC_UE8M0, INFINITY, TC_RU), 0xFF);
    CHECK_BITS(0, tc_encode(TC_UE8M0, INFINITY, TC_RU | TC_SATFINITE), 0xFE);
    CHECK_BITS(0, tc_encode(TC_UE8M0, FLT_MAX, TC_RU), 0xFF);
    CHECK_BITS(0, tc_encode(TC_UE8M0, NAN, TC_RZ | TC_SATFINITE), 0xFF);
    CHECK(tc_decode(TC_UE8M0, 0) == ldexpf(1, -127) && tc_decode(TC_UE8M0, 0xFE) == ldexpf(1, 127));
    CHECK(tc_decode(TC_UE8M0, 0xFF) != tc_decode(TC_UE8M0, 0xFF));
    /* ue4m3: e4m3 without a sign */
    CHECK_BITS(0, tc_encode(TC_UE4M3, 448.0f, TC_RN), 0x7E);
    CHECK_BITS(0, tc_encode(TC_UE4M3, -1.0f, TC_RN), 0x7F);                  /* negative: NaN */
    CHECK_BITS(0, tc_encode(TC_UE4M3, -1.0f, TC_RN | TC_SATFINITE), 0x00);   /* or clamped to 0 */
    CHECK_BITS(0, tc_encode(TC_UE4M3, -1e-9f, TC_RN), 0x00);                 /* rounds to -0, which is 0 */
    /* flush to zero */
    CHECK_BITS(0, tc_encode(TC_FP16, 1e-40f, TC_RU), 0x0001);
    CHECK_BITS(0, tc_encode(TC_FP16, 1e-40f, TC_RU | TC_FTZ), 0x0000);
    CHECK_BITS(0, tc_encode(TC_FP16, -1e-40f, TC_RD | TC_FTZ), 0x8000);
    CHECK_BITS(0, tc_encode(TC_FP16, ldexpf(1, -20), TC_RN | TC_FTZ_OUT), 0x0000);
    CHECK_BITS(0, tc_encode(TC_FP16, ldexpf(1, -14), TC_RN | TC_FTZ_OUT), 0x0400);
    CHECK_BITS(0, tc_encode(TC_E2M1, -0.5f, TC_RN | TC_FTZ_OUT), 0x8);
    CHECK(tc_rounding_is_valid(TC_RN | TC_FTZ | TC_FTZ_OUT | TC_SATFINITE) && !tc_rounding_is_valid(0x200));
    /* bit-field tools */
    CHECK_STATUS(tc_format_bits(TC_E2M1, 0x7, buf, sizeof buf), TC_OK); CHECK(strcmp(buf, "0 11 1") == 0);
    CHECK_STATUS(tc_format_bits(TC_UE8M0, 0x7F, buf, sizeof buf), TC_OK); CHECK(strcmp(buf, "01111111") == 0);
    CHECK_STATUS(tc_format_bits(TC_UE4M3, 0x7E, buf, sizeof buf), TC_OK); CHECK(strcmp(buf, "1111 110") == 0);
    CHECK_STATUS(tc_format_bits(TC_E3M2, 0x21, buf, sizeof buf), TC_OK); CHECK(strcmp(buf, "1 000 01") == 0);
    fl = tc_split(TC_UE8M0, 0);
    CHECK(fl.sign == 0 && fl.exponent == 0 && fl.unbiased == -127 && fl.cls == TC_CLASS_NORMAL);
    fl = tc_split(TC_E2M1, 0x9);
    CHECK(fl.sign == 1 && fl.exponent == 0 && fl.mantissa == 1 && fl.unbiased == 0 && fl.cls == TC_CLASS_SUBNORMAL);
    CHECK(tc_classify(TC_E2M1, 0x7) == TC_CLASS_NORMAL && tc_classify(TC_UE8M0, 0xFF) == TC_CLASS_NAN);
    CHECK(tc_classify(TC_UE4M3, 0x7F) == TC_CLASS_NAN && tc_classify(TC_UE4M3, 0x00) == TC_CLASS_ZERO);
    CHECK(tc_next_up(TC_E2M1, 4.0f) == 6.0f && tc_next_up(TC_E2M1, 6.0f) == 6.0f && tc_next_down(TC_E2M1, 0.0f) == -0.5f);
    CHECK(tc_next_up(TC_UE8M0, 1.0f) == 2.0f && tc_next_down(TC_UE8M0, ldexpf(1, -127)) == ldexpf(1, -127));
    CHECK(tc_next_down(TC_UE4M3, 0.0f) == 0.0f && tc_next_up(TC_UE4M3, 448.0f) == 448.0f);
    CHECK(tc_ulp(TC_E2M1, 4.0f) == 2.0f && tc_ulp(TC_E2M1, 6.0f) == 2.0f && tc_ulp(TC_UE8M0, 8.0f) == 8.0f);
}

/* ---- stochastic rounding: the fp32 bit-space algorithm (add the random
   bits under the kept ones, truncate), for results in the normal range */
static void test_stochastic(void) {
    int i, k;
    static const struct { tc_dtype t; int keep; float lo, hi; } cases[] = {   /* keep: fp32 mantissa bits kept */
        { TC_FP16, 10, 6.2e-5f, 65000.0f }, { TC_BF16, 7, 1.2e-38f, 3.3e38f }, { TC_E4M3, 3, 0.016f, 440.0f },
        { TC_E5M2, 2, 6.2e-5f, 57000.0f }, { TC_E2M3, 3, 1.0f, 7.4f }, { TC_E3M2, 2, 0.25f, 27.0f }, { TC_E2M1, 1, 1.0f, 5.9f },
    };
    tct_seed(7);
    for (k = 0; k < (int)(sizeof cases / sizeof cases[0]); k++) {
        int nb = tc_sr_bits(cases[k].t), drop = 23 - cases[k].keep;
        for (i = 0; i < 20000; i++) {
            float x = cases[k].lo * powf(cases[k].hi / cases[k].lo, (float)(tct_rand32() >> 8) / 16777216.0f);
            uint32_t u, r = tct_rand32(), rb = r & ((1u << nb) - 1u), v;
            float want;
            if (i & 1) x = -x;
            u = tct_f2u(x);
            /* nb random bits placed under the top nb dropped bits; lower dropped bits cleared first */
            v = ((u & ~((1u << (drop - nb)) - 1u)) + (rb << (drop - nb))) & ~((1u << drop) - 1u);
            want = tct_u2f(v);
            if (fabsf(want) > tc_format_of(cases[k].t)->max_finite) continue;   /* overflow: saturation tested below */
            CHECK_BITS(u, tc_encode_sr(cases[k].t, x, r, nb, TC_SATFINITE), tc_encode(cases[k].t, want, TC_RZ));
        }
        /* no random bits: truncation; all ones: away from zero when the top nb dropped bits are not all zero */
        CHECK_BITS(k, tc_encode_sr(cases[k].t, 1.1f, 0, nb, 0), tc_encode(cases[k].t, 1.1f, TC_RZ));
        CHECK_BITS(k, tc_encode_sr(cases[k].t, 1.1f, 0xFFFFFFFFu, nb, 0), tc_encode(cases[k].t, 1.1f, TC_RU));
        CHECK_BITS(k, tc_encode_sr(cases[k].t, -1.1f, 0xFFFFFFFFu, nb, 0), tc_encode(cases[k].t, -1.1f, TC_RD));
        CHECK_BITS(k, tc_encode_sr(cases[k].t, 1.0f, 0xFFFFFFFFu, nb, 0), tc_encode(cases[k].t, 1.0f, TC_RN));   /* exact stays */
        CHECK_BITS(k, tc_encode_sr(cases[k].t, NAN, 0, nb, 0), tc_encode(cases[k].t, NAN, TC_RN));
        CHECK_BITS(k, tc_encode_sr(cases[k].t, 1e30f, 0xFFFFFFFFu, nb, TC_SATFINITE), tc_encode(cases[k].t, 1e30f, TC_RN | TC_SATFINITE));
    }
    {   /* unbiased: with every pattern of 8 random bits, e2m1's mean is x when x has no lower bits */
        float xs[] = { 1.25f, 2.5f, 0.3125f, -3.75f, 5.5f };
        for (k = 0; k < 5; k++) {
            double sum = 0;
            uint32_t r;
            for (r = 0; r < 256; r++) sum += tc_decode(TC_E2M1, tc_encode_sr(TC_E2M1, xs[k], r, 8, TC_SATFINITE));
            CHECK(sum / 256 == xs[k]);
        }
    }
    CHECK(tc_sr_bits(TC_FP16) == 13 && tc_sr_bits(TC_BF16) == 16 && tc_sr_bits(TC_E2M1) == 8 && tc_sr_bits(TC_UE8M0) == 0);
    CHECK_BITS(0, tc_encode_sr(TC_FP16, 1.0f, 0, 0, 0), 0x7FFF);      /* nbits 0: the format's NaN */
    CHECK_BITS(0, tc_encode_sr(TC_FP16, 1.0f, 0, 33, 0), 0x7FFF);
    CHECK_BITS(0, tc_encode_sr(TC_FP16, 1.0f, 0, 13, TC_RU), 0x7FFF); /* a mode is not a flag */
    CHECK_BITS(0, tc_encode_sr(TC_UE8M0, 1.0f, 0, 8, 0), 0xFF);
    CHECK_BITS(0, tc_encode_sr(TC_DTYPE_COUNT, 1.0f, 0, 8, 0), 0);
    {
        tc_custom_format f = { 5, 10, TC_SPECIALS_IEEE, 1 };
        uint32_t b = 0;
        CHECK_STATUS(tc_custom_encode_sr(&f, 1.1f, 0x1234, 13, 0, &b), TC_OK);
        CHECK_BITS(0, b, tc_encode_sr(TC_FP16, 1.1f, 0x1234, 13, 0));
        CHECK_STATUS(tc_custom_encode_sr(&f, 1.1f, 0, 0, 0, &b), TC_ERR_ARG);
        CHECK_STATUS(tc_custom_encode_sr(&f, 1.1f, 0, 13, 3, &b), TC_ERR_ROUNDING);
        CHECK_STATUS(tc_custom_encode_sr(NULL, 1.1f, 0, 13, 0, &b), TC_ERR_NULL);
    }
}

/* ---- block scaling, written again from the rules */
static uint8_t ref_nearest(tc_dtype t, float v) {   /* RN-even, saturating, by search over the codes */
    const tc_format *f = tc_format_of(t);
    uint32_t best = 0, c, sbit = 1u << (f->total_bits - 1);
    double a = fabs((double)v), bd = INFINITY;
    if (v != v) return (uint8_t)f->nan_bits;
    if (a > f->max_finite) a = f->max_finite;
    for (c = 0; c <= f->max_finite_bits; c++) {
        double d = fabs((double)tc_decode(t, c) - a);
        if (d < bd || (d == bd && !(c & 1))) { bd = d; best = c; }
    }
    return (uint8_t)((signbit(v) ? sbit : 0) | best);
}

static void check_block(tc_block_kind k, int rows, int K, const float *X, float ts) {
    const tc_block_info *bi = tc_block_info_of(k);
    int nb = K / bi->block, r, b, i;
    uint8_t *codes = (uint8_t *)malloc((size_t)rows * K), *scales = (uint8_t *)malloc((size_t)rows * nb);
    tc_block_stats *st = (tc_block_stats *)malloc(sizeof *st * (size_t)rows * nb);
    float *back = (float *)malloc(sizeof *back * (size_t)rows * K);
    const tc_format *ef = tc_format_of(bi->elem);
    CHECK_STATUS(tc_block_quantize(k, rows, K, X, K, ts, codes, scales, st), TC_OK);
    CHECK_STATUS(tc_block_dequantize(k, rows, K, codes, scales, ts, back, K), TC_OK);
    for (r = 0; r < rows; r++)
        for (b = 0; b < nb; b++) {
            const float *x = X + r * K + b * bi->block;
            double amax = 0, worst = 0;
            int special = 0;
            uint8_t want_scale;
            float mul, s;
            for (i = 0; i < bi->block; i++) {
                if (!isfinite(x[i])) special = 1;
                else if (fabs(x[i]) > amax) amax = fabs(x[i]);
            }
            if (bi->scale == TC_UE8M0) {   /* OCP MX v1.0 6.3: 2^(floor(log2 amax) - emax_elem) */
                int ex = 0, emax = 0, se;
                frexp(amax, &ex);
                frexp(ef->max_finite, &emax);
                se = amax == 0 ? -127 : (ex - 1) - (emax - 1);
                if (se < -127) se = -127;
                want_scale = special ? 0xFF : (uint8_t)(se + 127);
                mul = special ? NAN : (float)ldexp(1.0, -se);
                s = special ? NAN : (float)ldexp(1.0, se);
            } else {                       /* NVFP4, Transformer Engine's arithmetic in fp32 */
                float sd = (float)amax * (ts * (1.0f / 6.0f));
                want_scale = special ? 0x7F : ref_nearest(TC_E4M3, sd);
                s = special ? NAN : tc_decode(TC_E4M3, want_scale);
                mul = fminf(1.0f / (s * (1.0f / ts)), FLT_MAX);
            }
            CHECK_BITS((uint32_t)(r * nb + b), scales[r * nb + b], want_scale);
            for (i = 0; i < bi->block; i++) {
                uint8_t want = ref_nearest(bi->elem, x[i] * mul);
                double d = (double)tc_decode(bi->elem, want) * (double)(bi->scale == TC_UE8M0 ? s : s) / (double)ts;
                CHECK_BITS(tct_f2u(x[i]), codes[r * K + b * bi->block + i], want);
                if (special) CHECK(back[r * K + b * bi->block + i] != back[r * K + b * bi->block + i]);
                else {
                    CHECK_BITS(tct_f2u(x[i]), tct_f2u(back[r * K + b * bi->block + i]), tct_f2u((float)d));
                    if (fabs((float)d - (double)x[i]) > worst) worst = fabs((float)d - (double)x[i]);
                }
            }
            if (!special) CHECK(st[r * nb + b].max_abs_err == worst && st[r * nb + b].amax == (float)amax);
            else CHECK(!isfinite(st[r * nb + b].amax));
        }
    free(codes); free(scales); free(st); free(back);
}

static void test_block_scaling(void) {
    enum { ROWS = 6, K = 64 };
    static float X[ROWS * K];
    int k, i;
    tct_seed(3);
    for (i = 0; i < ROWS * K; i++) X[i] = ldexpf((float)(tct_rand32() % 2001) / 1000.0f - 1.0f, (int)(tct_rand32() % 24) - 12);
    for (i = 0; i < 32; i++) X[K + i] = 0.0f;                         /* an all-zero block (row 1, first 32) */
    X[2 * K + 3] = NAN;                                               /* NaN in a block */
    X[2 * K + 40] = -INFINITY;                                        /* Inf in another */
    X[3 * K + 5] = FLT_MAX;                                           /* amax at fp32's max */
    for (i = 0; i < 32; i++) X[4 * K + i] = ldexpf((float)i - 16, -140); /* subnormal amax */
    for (i = 0; i < 16; i++) X[5 * K + i] = 448.0f * 6.0f;            /* saturating NVFP4 block */
    for (k = 0; k < TC_NVFP4; k++) check_block((tc_block_kind)k, ROWS, K, X, 1.0f);
    {   /* NVFP4 on the finite rows, with its tensor scale */
        float s_enc = 0;
        const float *fin = X + 3 * K;
        CHECK_STATUS(tc_nvfp4_tensor_scale(3, K, fin, K, &s_enc), TC_OK);
        CHECK(s_enc == 448.0f * 6.0f / FLT_MAX);
        check_block(TC_NVFP4, 3, K, fin, s_enc);
        CHECK_STATUS(tc_nvfp4_tensor_scale(1, K, X + 4 * K, K, &s_enc), TC_OK);
        check_block(TC_NVFP4, 1, K, X + 4 * K, s_enc);
        CHECK_STATUS(tc_nvfp4_tensor_scale(1, K, X, K, &s_enc), TC_OK);
        check_block(TC_NVFP4, ROWS, K, X, s_enc);                     /* the NaN and Inf blocks too */
        CHECK_STATUS(tc_nvfp4_tensor_scale(1, 32, X + K, K, &s_enc), TC_OK);
        CHECK(s_enc == 1.0f);                                         /* all zero: 1 */
        CHECK_STATUS(tc_nvfp4_tensor_scale(1, K, X + 2 * K, K, &s_enc), TC_ERR_ARG);
    }
    {   /* stats: a block of exactly representable values has no error */
        float v[32];
        uint8_t c[32], s[1];
        tc_block_stats st;
        for (i = 0; i < 32; i++) v[i] = tc_decode(TC_E2M1, (uint32_t)i % 16);
        v[0] = 6.0f;
        CHECK_STATUS(tc_block_quantize(TC_MXFP4, 1, 32, v, 32, 1.0f, c, s, &st), TC_OK);
        CHECK(s[0] == 127 && st.max_abs_err == 0 && st.rms_err == 0 && st.saturated == 0 && st.flushed == 0 && st.scale == 1.0f);
        v[1] = 7.9f;   /* amax 7.9: scale 2^(2-2) = 1, 7.9 saturates to 6 */
        CHECK_STATUS(tc_block_quantize(TC_MXFP4, 1, 32, v, 32, 1.0f, c, s, &st), TC_OK);
        CHECK(st.saturated == 1 && fabs(st.max_abs_err - 1.9) < 1e-6);
        v[2] = 0.1f;   /* below half of 0.5: flushed */
        CHECK_STATUS(tc_block_quantize(TC_MXFP4, 1, 32, v, 32, 1.0f, c, s, &st), TC_OK);
        CHECK(st.flushed == 1);
    }
    {   /* bad input */
        float v[64] = { 0 };
        uint8_t c[64], s[4];
        CHECK(tc_block_info_of(TC_BLOCK_KIND_COUNT) == NULL && tc_block_info_of((tc_block_kind)-1) == NULL);
        CHECK(tc_block_info_of(TC_NVFP4)->block == 16 && tc_block_info_of(TC_MXFP4)->scale == TC_UE8M0);
        CHECK_STATUS(tc_block_quantize(TC_BLOCK_KIND_COUNT, 1, 32, v, 32, 1.0f, c, s, NULL), TC_ERR_ARG);
        CHECK_STATUS(tc_block_quantize(TC_MXFP4, 1, 48, v, 48, 1.0f, c, s, NULL), TC_ERR_SHAPE);
        CHECK_STATUS(tc_block_quantize(TC_MXFP4, 0, 32, v, 32, 1.0f, c, s, NULL), TC_ERR_SHAPE);
        CHECK_STATUS(tc_block_quantize(TC_MXFP4, -1, 32, v, 32, 1.0f, c, s, NULL), TC_ERR_SHAPE);
        CHECK_STATUS(tc_block_quantize(TC_MXFP4, 1, 32, v, 31, 1.0f, c, s, NULL), TC_ERR_SHAPE);
        CHECK_STATUS(tc_block_quantize(TC_MXFP4, 1, INT_MAX, v, INT_MAX, 1.0f, c, s, NULL), TC_ERR_SHAPE);
        CHECK_STATUS(tc_block_quantize(TC_MXFP4, 1, 32, NULL, 32, 1.0f, c, s, NULL), TC_ERR_NULL);
        CHECK_STATUS(tc_block_quantize(TC_MXFP4, 1, 32, v, 32, 1.0f, NULL, s, NULL), TC_ERR_NULL);
        CHECK_STATUS(tc_block_quantize(TC_MXFP4, 1, 32, v, 32, 2.0f, c, s, NULL), TC_ERR_ARG);       /* MX has no tensor scale */
        CHECK_STATUS(tc_block_quantize(TC_NVFP4, 1, 32, v, 32, 0.0f, c, s, NULL), TC_ERR_ARG);
        CHECK_STATUS(tc_block_quantize(TC_NVFP4, 1, 32, v, 32, -1.0f, c, s, NULL), TC_ERR_ARG);
        CHECK_STATUS(tc_block_quantize(TC_NVFP4, 1, 32, v, 32, NAN, c, s, NULL), TC_ERR_ARG);
        CHECK_STATUS(tc_block_quantize(TC_NVFP4, 1, 32, v, 32, INFINITY, c, s, NULL), TC_ERR_ARG);
        CHECK_STATUS(tc_block_dequantize(TC_MXFP4, 1, 33, c, s, 1.0f, v, 33), TC_ERR_SHAPE);
        CHECK_STATUS(tc_block_dequantize(TC_MXFP4, 1, 32, c, NULL, 1.0f, v, 32), TC_ERR_NULL);
        CHECK_STATUS(tc_nvfp4_tensor_scale(1, 32, v, 16, NULL), TC_ERR_NULL);
        CHECK_STATUS(tc_nvfp4_tensor_scale(1, 32, v, 16, v), TC_ERR_SHAPE);
    }
}

/* ---- arrays and bad input */
static void test_arrays_and_status(void) {
    float in[37], out[37];
    uint8_t c[37];
    tc_custom_format f = { 5, 10, TC_SPECIALS_IEEE, 1 };
    tc_format info;
    uint32_t b;
    int i;
    for (i = 0; i < 37; i++) in[i] = (float)(i - 18) * 0.37f;
    CHECK_STATUS(tc_encode_u8_array(TC_E2M1, in, c, 37, TC_RD), TC_OK);
    for (i = 0; i < 37; i++) CHECK_BITS(tct_f2u(in[i]), c[i], tc_encode(TC_E2M1, in[i], TC_RD));
    CHECK_STATUS(tc_decode_u8_array(TC_E2M1, c, out, 37), TC_OK);
    for (i = 0; i < 37; i++) CHECK(out[i] == tc_round(TC_E2M1, in[i], TC_RD));
    CHECK_STATUS(tc_encode_u8_array(TC_FP16, in, c, 1, TC_RN), TC_ERR_DTYPE);
    CHECK_STATUS(tc_encode_u8_array(TC_DTYPE_COUNT, in, c, 1, TC_RN), TC_ERR_DTYPE);
    CHECK_STATUS(tc_encode_u8_array((tc_dtype)-1, in, c, 1, TC_RN), TC_ERR_DTYPE);
    CHECK_STATUS(tc_encode_u8_array(TC_E2M1, NULL, c, 1, TC_RN), TC_ERR_NULL);
    CHECK_STATUS(tc_encode_u8_array(TC_E2M1, NULL, NULL, 0, TC_RN), TC_OK);
    CHECK_STATUS(tc_encode_u8_array(TC_E2M1, in, c, 1, 0x200), TC_ERR_ROUNDING);
    CHECK_STATUS(tc_decode_u8_array(TC_BF16, c, out, 1), TC_ERR_DTYPE);
    CHECK_STATUS(tc_decode_u8_array(TC_E2M1, c, NULL, 1), TC_ERR_NULL);
    /* custom format validation */
    CHECK_STATUS(tc_custom_info(&f, &info), TC_OK);
    CHECK(info.max_finite == 65504.0f && info.has_inf && info.has_nan && info.is_signed && info.bias == 15);
    CHECK_STATUS(tc_custom_info(NULL, &info), TC_ERR_NULL);
    CHECK_STATUS(tc_custom_info(&f, NULL), TC_ERR_NULL);
    {
        static const int bad[][4] = { { 0, 3, 0, 1 }, { 9, 3, 0, 1 }, { 4, -1, 0, 1 }, { 4, 24, 0, 1 }, { 4, 3, 3, 1 }, { 4, 3, -1, 1 },
                                      { 4, 3, 0, 2 }, { 8, 3, TC_SPECIALS_NONE, 1 }, { 8, 3, TC_SPECIALS_NAN, 1 }, { 5, 0, TC_SPECIALS_IEEE, 1 },
                                      { 1, 0, TC_SPECIALS_NAN, 1 }, { 1, 2, TC_SPECIALS_IEEE, 1 }, { INT_MAX, 3, 0, 1 } };
        for (i = 0; i < (int)(sizeof bad / sizeof bad[0]); i++) {
            tc_custom_format g;
            float v;
            g.exponent_bits = bad[i][0]; g.mantissa_bits = bad[i][1]; g.specials = (tc_specials)bad[i][2]; g.is_signed = bad[i][3];
            CHECK_STATUS(tc_custom_info(&g, &info), TC_ERR_ARG);
            CHECK_STATUS(tc_custom_encode(&g, 1.0f, TC_RN, &b), TC_ERR_ARG);
            CHECK_STATUS(tc_custom_decode(&g, 0, &v), TC_ERR_ARG);
        }
    }
    CHECK_STATUS(tc_custom_encode(&f, 1.0f, 17, &b), TC_ERR_ROUNDING);
    CHECK_STATUS(tc_custom_encode(&f, 1.0f, TC_RN, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_custom_decode(&f, 0x10000, out), TC_ERR_ARG);   /* wider than the format */
    CHECK_STATUS(tc_custom_round(&f, 0.1f, TC_RN, out), TC_OK);
    CHECK(out[0] == tc_round(TC_FP16, 0.1f, TC_RN));
    CHECK_STATUS(tc_custom_round(&f, 0.1f, TC_RN, NULL), TC_ERR_NULL);
}

int main(void) {
    test_small_format_edges();
    test_custom_vs_enumeration();
    test_stochastic();
    test_block_scaling();
    test_arrays_and_status();
    return tct_finish("test_formats_mx");
}
