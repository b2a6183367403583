/* test_mma.c - section 2 (Tensor Core MMA numerics): the published
   behaviours as named tests, random differential tests against an
   independent model written here, the reference models, the fragment
   layouts and the bad inputs.

   The oracle in this file shares no code with tensorcore.h: it finds
   exponents with frexp, holds every term exactly as a wide sign-magnitude
   integer (bit 0 weighs 2^-400), truncates by clearing bits, and rounds by
   reading bits. It follows MMA-Sim's description (docs/REFERENCE.md section 2);
   the Khattak rule is an option, as in the header. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------ wide integers */

#define NL 28          /* 896 bits */
#define LSB 400        /* bit i weighs 2^(i - LSB) */
typedef struct { uint32_t w[NL]; } big;

static void big_zero(big *r) { memset(r, 0, sizeof *r); }
static int big_bit(const big *r, int i) { return i >= 0 && i < NL * 32 ? (int)((r->w[i / 32] >> (i % 32)) & 1u) : 0; }
static void big_setbit(big *r, int i) { r->w[i / 32] |= 1u << (i % 32); }
static void big_from(big *r, uint64_t m, int pos) {   /* r = m * 2^pos, bit by bit */
    int i;
    big_zero(r);
    for (i = 0; i < 64; i++) if ((m >> i) & 1u) big_setbit(r, pos + i);
}
static int big_top(const big *r) { int i; for (i = NL * 32 - 1; i >= 0; i--) if (big_bit(r, i)) return i; return -1; }
static int big_cmp(const big *a, const big *b) {
    int i;
    for (i = NL - 1; i >= 0; i--) if (a->w[i] != b->w[i]) return a->w[i] > b->w[i] ? 1 : -1;
    return 0;
}
static void big_add(big *a, const big *b) {
    uint64_t c = 0; int i;
    for (i = 0; i < NL; i++) { c += (uint64_t)a->w[i] + b->w[i]; a->w[i] = (uint32_t)c; c >>= 32; }
}
static void big_sub(big *a, const big *b) {   /* a >= b */
    int64_t br = 0; int i;
    for (i = 0; i < NL; i++) {
        int64_t d = (int64_t)a->w[i] - b->w[i] - br;
        br = d < 0; a->w[i] = (uint32_t)(d + (br ? ((int64_t)1 << 32) : 0));
    }
}
static void big_clear_below(big *r, int pos) { int i; for (i = 0; i < pos && i < NL * 32; i++) r->w[i / 32] &= ~(1u << (i % 32)); }

/* ---------------------------------------------------------- the oracle */

typedef struct {
    int F, group, emin_in, emin_b, emin_c, out_mbits, out_emin, out_emax, rne, khattak, floor, plus_zero;
} oracle_cfg;

static int type_emin(tc_dtype t) {
    switch (t) {
    case TC_FP16: case TC_E5M2: return -14;
    case TC_E4M3: return -6;
    default: return -126;
    }
}

/* |v| = m * 2^x with m an integer < 2^24, through frexp. */
static uint64_t exact_parts(double v, int *x) {
    int q;
    double f = frexp(fabs(v), &q);
    *x = q - 24;
    return (uint64_t)ldexp(f, 24);
}

/* MMA-Sim's exponent of an operand: floor(log2|v|) clamped at the type's
   minimum; -126 for zero. */
static int model_exp(double v, int emin) {
    int q;
    if (v == 0) return -126;
    frexp(v, &q);
    return q - 1 < emin ? emin : q - 1;
}

static float oracle_round(const oracle_cfg *o, const big *mag, int negative) {
    int top = big_top(mag), e, cut, i;
    double keep = 0, r;
    int up = 0, half, sticky = 0;
    if (top < 0) return 0.0f;
    e = top - LSB;
    if (e < o->out_emin) e = o->out_emin;
    cut = e - o->out_mbits + LSB;
    for (i = top; i >= cut; i--) keep = keep * 2 + big_bit(mag, i);
    half = big_bit(mag, cut - 1);
    for (i = cut - 2; i >= 0 && !sticky; i--) sticky = big_bit(mag, i);
    if (o->rne && half && (sticky || fmod(keep, 2.0) == 1.0)) up = 1;
    r = ldexp(keep + up, cut - LSB);
    if (r >= ldexp(1.0, o->out_emax + 1)) r = INFINITY;
    if (r == 0 && o->plus_zero) return 0.0f;
    return (float)(negative ? -r : r);
}

static float oracle_block(const oracle_cfg *o, int n, const float *a, const float *b, float c) {
    double s = c;
    int i, E = -100000, any = 0, x, x2;
    big P, N, t;
    for (i = 0; i < n; i++) s += (double)a[i] * (double)b[i];
    if (s != s) return tct_u2f(0x7FFFFFFFu);
    if (isinf(s)) return (float)s;
    if (!(o->khattak && c == 0)) { E = model_exp(c, o->emin_c); any = 1; }
    for (i = 0; i < n; i++) {
        int pe = model_exp(a[i], o->emin_in) + model_exp(b[i], o->emin_b);
        if (o->khattak && (a[i] == 0 || b[i] == 0)) continue;
        if (!any || pe > E) E = pe;
        any = 1;
    }
    if (o->khattak && E < o->floor) E = o->floor;
    big_zero(&P); big_zero(&N);
    for (i = -1; i < n; i++) {
        double v = i < 0 ? c : (double)a[i] * (double)b[i];
        uint64_t m;
        if (v == 0) continue;
        if (i < 0) m = exact_parts(c, &x);
        else { m = exact_parts(a[i], &x) * exact_parts(b[i], &x2); x += x2; }
        big_from(&t, m, x + LSB);
        big_clear_below(&t, E - o->F + LSB);
        big_add(v < 0 ? &N : &P, &t);
    }
    if (big_cmp(&P, &N) >= 0) { big_sub(&P, &N); return oracle_round(o, &P, 0); }
    big_sub(&N, &P);
    return oracle_round(o, &N, 1);
}

static float oracle_dot(const oracle_cfg *o, int k, const float *a, const float *b, float c) {
    int k0;
    for (k0 = 0; k0 < k; k0 += o->group)
        c = oracle_block(o, k - k0 < o->group ? k - k0 : o->group, a + k0, b + k0, c);
    return c;
}

/* The architecture facts, restated from docs/REFERENCE.md section 2. */
static int oracle_setup(oracle_cfg *o, tc_arch arch, tc_dtype in, tc_dtype out, int khattak, int plus_zero) {
    int fp8 = in == TC_E4M3 || in == TC_E5M2, tf32 = in == TC_TF32, h16 = in == TC_FP16 && out == TC_FP16;
    memset(o, 0, sizeof *o);
    if (arch == TC_ARCH_V100) { if (in != TC_FP16) return 0; o->F = 23; o->group = 4; o->floor = h16 ? -19 : -1024; }
    if (arch == TC_ARCH_A100) { if (fp8) return 0; o->F = 24; o->group = tf32 ? 4 : 8; o->floor = h16 ? -20 : -132; }
    if (arch == TC_ARCH_H100) { o->F = fp8 ? 13 : 25; o->group = fp8 ? 32 : tf32 ? 8 : 16; o->floor = h16 ? -21 : -133; }
    if (arch == TC_ARCH_ADA)  { o->F = fp8 ? 13 : 24; o->group = fp8 ? 16 : tf32 ? 4 : 8; o->floor = h16 ? -20 : -132; }
    if (arch == TC_ARCH_TURING) { if (in != TC_FP16) return 0; o->F = 24; o->group = 8; o->floor = h16 ? -20 : -132; }
    if (arch == TC_ARCH_B200) { o->F = fp8 ? 31 : 25; o->group = fp8 ? 32 : tf32 ? 8 : 16; o->floor = h16 ? -21 : -133; }
    if (arch == TC_ARCH_RTX_BLACKWELL) { o->F = 25; o->group = fp8 ? 32 : tf32 ? 8 : 16; o->floor = h16 ? -21 : -133; }
    o->emin_in = o->emin_b = type_emin(in);
    o->emin_c = out == TC_FP16 ? -14 : -126;
    o->out_mbits = out == TC_FP16 ? 10 : (fp8 && (arch == TC_ARCH_H100 || arch == TC_ARCH_ADA)) ? 13 : 23;
    o->out_emin = out == TC_FP16 ? -14 : -126;
    o->out_emax = out == TC_FP16 ? 15 : 127;
    o->rne = out == TC_FP16 || (fp8 && arch == TC_ARCH_B200);
    o->khattak = khattak;
    o->plus_zero = plus_zero;
    return 1;
}

/* ------------------------------------------- the reference models' values */

/* tc_dot_fma / tc_dot_exact on valid arguments: the status is checked (and
   counted) here, the value returned; a failure returns a NaN no model gives. */
static float dot_fma(int k, const float *a, int inc_a, const float *b, int inc_b, float c) {
    float r = tct_u2f(0x7FC0DEADu);
    CHECK_STATUS(tc_dot_fma(k, a, inc_a, b, inc_b, c, &r), TC_OK);
    return r;
}

static float dot_exact(int k, const float *a, int inc_a, const float *b, int inc_b, float c) {
    float r = tct_u2f(0x7FC0DEADu);
    CHECK_STATUS(tc_dot_exact(k, a, inc_a, b, inc_b, c, &r), TC_OK);
    return r;
}

/* ------------------------------------------------ the named behaviours */

static float two(int e) { return (float)ldexp(1.0, e); }

static void test_published(void) {
    float a[16], b[16];
    int i;
    tc_mma_options wide = { TC_MMA_ZEROS_MMASIM, 0, 0, TC_MMA_ZERO_SIGN_SUM, TC_FP32 };

    /* Truncation without guard bits (Fasi et al. 2021, V100): 1 + 4 * 2^-24
       keeps no bit below 2^-23, so the sum stays 1 (exact 1 + 2^-22). */
    for (i = 0; i < 4; i++) { a[i] = 1.0f; b[i] = two(-24); }
    CHECK(tc_mma_dot(TC_ARCH_V100, TC_FP16, TC_FP32, 4, a, b, 1.0f) == 1.0f);
    /* A100 keeps one more bit (F = 24, MMA-Sim): the same sum is 1 + 2^-22. */
    for (i = 4; i < 8; i++) { a[i] = 0.0f; b[i] = 0.0f; }
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 8, a, b, 1.0f) == 1.0f + two(-22));
    /* ...and a plain fp32 FMA loop rounds each 1 + 2^-24 back to 1. */
    CHECK(dot_fma(4, a, 1, b, 1, 1.0f) == 1.0f);
    CHECK(dot_exact(4, a, 1, b, 1, 1.0f) == 1.0f + two(-22));

    /* Carry-out bits (Fasi et al.; MMA-Sim: product significands in [1,4)):
       8 * (2 - 2^-10)^2 = 32 - 2^-5 + 2^-17 overflows the 2^E binade by two
       bits and nothing is lost. */
    for (i = 0; i < 8; i++) { a[i] = 2.0f - two(-10); b[i] = a[i]; }
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 8, a, b, 0.0f) == 32.0f - two(-5) + two(-17));

    /* Non-monotonic block sum (Mikaitis, "Monotonicity of multi-term
       floating-point adders", 2023): raising c from 1 - 2^-24 to 1 raises E,
       so seven products of 2^-25 are truncated away and the result drops
       from 1 + 2^-23 to 1. */
    for (i = 0; i < 8; i++) { a[i] = i < 7 ? two(-13) : 0.0f; b[i] = i < 7 ? two(-12) : 0.0f; }
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 8, a, b, 1.0f - two(-24)) == 1.0f + two(-23));
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 8, a, b, 1.0f) == 1.0f);

    /* A100 tf32 (Fasi et al.; MMA-Sim): raw fp32 1 - 2^-24 is truncated to
       tf32 1 - 2^-11, so the product is (1 - 2^-11)^2 = 1 - 2^-10 + 2^-22. */
    for (i = 0; i < 4; i++) { a[i] = i ? 0.0f : 1.0f - two(-24); b[i] = a[i]; }
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_TF32, TC_FP32, 4, a, b, 0.0f) == 1.0f - two(-10) + two(-22));

    /* Group size decides (in the spirit of FTTN, arXiv 2403.00232, whose
       matrix gives 0 on A100 and 191.875 on H100; that matrix could not be
       retrieved here, so this vector is ours): 2^22 + 7 * 2^-3 - 2^22.
       A100 splits k16 into two groups of 8 and truncates the 2^-3s against
       2^22 with F = 24 (quantum 2^-2): 0. H100 sums all 16 with F = 25
       (quantum 2^-3): 0.875. */
    for (i = 0; i < 16; i++) { a[i] = 0.0f; b[i] = 0.0f; }
    a[0] = two(11); b[0] = two(11);
    for (i = 1; i < 8; i++) { a[i] = two(-2); b[i] = 0.5f; }
    a[8] = -two(11); b[8] = two(11);
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 16, a, b, 0.0f) == 0.0f);
    CHECK(tc_mma_dot(TC_ARCH_H100, TC_FP16, TC_FP32, 16, a, b, 0.0f) == 0.875f);
    /* A wider adder on A100 (an option) recovers part of it. */
    wide.frac_bits = 25;   /* 2^22 + 0.875 survives the adder, the fp32 result keeps 0.5 of it */
    CHECK(tc_mma_dot_ex(TC_ARCH_A100, TC_FP16, TC_FP32, 16, a, b, 0.0f, &wide) == 0.5f);
    wide.group = 16;
    CHECK(tc_mma_dot_ex(TC_ARCH_A100, TC_FP16, TC_FP32, 16, a, b, 0.0f, &wide) == 0.875f);

    /* fp16 output is rounded to nearest-even (MMA-Sim; Fasi et al.): 1 +
       2^-11 is a tie and stays 1, 1 + 3 * 2^-11 ties up to 1 + 2^-9, and
       1 + 2^-11 + 2^-20 rounds up. fp32 output truncates instead. */
    for (i = 0; i < 8; i++) { a[i] = 0.0f; b[i] = 0.0f; }
    a[0] = two(-11); b[0] = 1.0f;
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP16, 8, a, b, 1.0f) == 1.0f);
    a[0] = 3 * two(-11);
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP16, 8, a, b, 1.0f) == 1.0f + two(-9));
    a[0] = two(-11); a[1] = two(-10); b[1] = two(-10);
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP16, 8, a, b, 1.0f) == 1.0f + two(-10));
    a[0] = -two(-24); a[1] = 0.0f;
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 8, a, b, 1.0f) == 1.0f - two(-24));
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP16, 8, a, b, 1.0f) == 1.0f);
    /* fp16 overflow gives Inf; fp32 overflow gives Inf, not the RZ maximum. */
    a[0] = 256.0f; b[0] = 256.0f;
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP16, 8, a, b, 0.0f) == INFINITY);
    a[0] = two(127); b[0] = 2.0f;
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_BF16, TC_FP32, 8, a, b, 0.0f) == INFINITY);
    /* Specials: Inf * 0 and Inf - Inf give the canonical NaN. */
    a[0] = INFINITY; b[0] = 0.0f;
    CHECK_BITS(0, tct_f2u(tc_mma_dot(TC_ARCH_H100, TC_FP16, TC_FP32, 16, a, b, 0.0f)), 0x7FFFFFFFu);
    b[0] = 1.0f;
    CHECK_BITS(0, tct_f2u(tc_mma_dot(TC_ARCH_H100, TC_FP16, TC_FP32, 16, a, b, 0.0f)), 0x7F800000u);
    CHECK_BITS(0, tct_f2u(tc_mma_dot(TC_ARCH_H100, TC_FP16, TC_FP32, 16, a, b, -INFINITY)), 0x7FFFFFFFu);

    /* The zero rules differ: a zero a times a huge b sets E under MMA-Sim
       (exponent -126 + 127 = 1) and truncates 0.75 * 2^-24 away... */
    for (i = 0; i < 8; i++) { a[i] = 0.0f; b[i] = 0.0f; }
    b[0] = two(127); a[1] = 0.75f; b[1] = two(-24);
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_BF16, TC_FP32, 8, a, b, 0.0f) == 0.0f);
    /* ...while Khattak drops the zero product and keeps it. */
    wide.zero_rule = TC_MMA_ZEROS_KHATTAK; wide.group = 0; wide.frac_bits = 0;
    CHECK(tc_mma_dot_ex(TC_ARCH_A100, TC_BF16, TC_FP32, 8, a, b, 0.0f, &wide) == 0.75f * two(-24));
}

/* Part 4 of issue 14 and the newer GPUs, each rule on a hand-made case. */
static void test_rules_2025(void) {
    float a[32], b[32];
    tc_mma_options opt;
    tc_mma_params p;
    int i;
    memset(&opt, 0, sizeof opt);
    /* The sign of a zero result: -2^-150 survives the adder (E = -126 from
       the zero c, 24 bits below) but truncates to zero in fp32... */
    for (i = 0; i < 8; i++) { a[i] = 0.0f; b[i] = 0.0f; }
    a[0] = -two(-75); b[0] = two(-75);
    CHECK_BITS(0, tct_f2u(tc_mma_dot(TC_ARCH_A100, TC_BF16, TC_FP32, 8, a, b, 0.0f)), 0x80000000u);
    opt.zero_sign = TC_MMA_ZERO_SIGN_PLUS;   /* MMA-Sim's +0 */
    CHECK_BITS(0, tct_f2u(tc_mma_dot_ex(TC_ARCH_A100, TC_BF16, TC_FP32, 8, a, b, 0.0f, &opt)), 0u);
    /* ...and -2^-26 rounds to zero in fp16 (below half of 2^-24)... */
    a[0] = two(-24); b[0] = -0.25f;
    CHECK_BITS(0, tct_f2u(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP16, 8, a, b, 0.0f)), 0x80000000u);
    CHECK_BITS(0, tct_f2u(tc_mma_dot_ex(TC_ARCH_A100, TC_FP16, TC_FP16, 8, a, b, 0.0f, &opt)), 0u);
    /* ...while an exact cancellation is +0 under both. */
    a[0] = 1.0f; b[0] = 1.0f; a[1] = 1.0f; b[1] = -1.0f;
    CHECK_BITS(0, tct_f2u(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 8, a, b, 0.0f)), 0u);
    CHECK_BITS(0, tct_f2u(tc_mma_dot_ex(TC_ARCH_A100, TC_FP16, TC_FP32, 8, a, b, 0.0f, &opt)), 0u);

    /* Khattak's fp16-output floors: 2^-25 + 2^-45 is just above half of
       fp16's 2^-24, so it rounds up if the 2^-45 survives the adder. With
       E clamped at -20 (A100, 24 bits: cut at 2^-44) or -19 (V100, 23 bits)
       it does not; at -21 (H100, 25 bits: cut at 2^-46) it does, and
       MMA-Sim's rule (E = -25) keeps it everywhere. */
    for (i = 0; i < 16; i++) { a[i] = 0.0f; b[i] = 0.0f; }
    a[0] = two(-13); b[0] = two(-12); a[1] = two(-24); b[1] = two(-21);
    memset(&opt, 0, sizeof opt);
    opt.zero_rule = TC_MMA_ZEROS_KHATTAK;
    CHECK(tc_mma_dot_ex(TC_ARCH_A100, TC_FP16, TC_FP16, 8, a, b, 0.0f, &opt) == 0.0f);
    CHECK(tc_mma_dot_ex(TC_ARCH_V100, TC_FP16, TC_FP16, 4, a, b, 0.0f, &opt) == 0.0f);
    CHECK(tc_mma_dot_ex(TC_ARCH_H100, TC_FP16, TC_FP16, 16, a, b, 0.0f, &opt) == two(-24));
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP16, 8, a, b, 0.0f) == two(-24));
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_A100, TC_FP16, TC_FP16, &p), TC_OK); CHECK(p.exp_floor == -20);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_A100, TC_FP16, TC_FP32, &p), TC_OK); CHECK(p.exp_floor == -132);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_V100, TC_FP16, TC_FP16, &p), TC_OK); CHECK(p.exp_floor == -19);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_V100, TC_FP16, TC_FP32, &p), TC_OK); CHECK(p.exp_floor == -1024);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_H100, TC_FP16, TC_FP16, &p), TC_OK); CHECK(p.exp_floor == -21);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_H100, TC_E4M3, TC_FP16, &p), TC_OK); CHECK(p.exp_floor == -133);

    /* B200 FP8 rounds its fp32 result to nearest: 128 + 0.75 ulp goes up;
       H100 and Ada (13-bit results, cut toward zero) stay at 128. */
    for (i = 0; i < 32; i++) { a[i] = 0.0f; b[i] = 0.0f; }
    a[0] = 3.0f * two(-9); b[0] = two(-9);   /* e4m3 subnormals: product 0.75 * 2^-16 */
    CHECK(tc_mma_dot(TC_ARCH_B200, TC_E4M3, TC_FP32, 32, a, b, 128.0f) == 128.0f + two(-16));
    CHECK(tc_mma_dot(TC_ARCH_H100, TC_E4M3, TC_FP32, 32, a, b, 128.0f) == 128.0f);
    CHECK(tc_mma_dot(TC_ARCH_ADA, TC_E4M3, TC_FP32, 32, a, b, 128.0f) == 128.0f);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_B200, TC_E5M2, TC_FP32, &p), TC_OK);
    CHECK(p.frac_bits == 31 && p.group == 32 && p.out_mbits == 23 && p.out_rounding == TC_RN);

    /* Ada's m16n8k32 FP8 is two groups of 16: 1 + 1 in the first, two
       2^-13 in the second. H100's one group of 32 has E = 0 and keeps both
       (2 + 2^-12, a 13-bit value); Ada's second group starts from c = 2, so
       E = 1 cuts them at 2^-12 and the result stays 2. */
    for (i = 0; i < 32; i++) { a[i] = 0.0f; b[i] = 0.0f; }
    a[0] = b[0] = a[1] = b[1] = 1.0f;
    a[16] = a[17] = two(-6); b[16] = b[17] = two(-7);
    CHECK(tc_mma_dot(TC_ARCH_H100, TC_E4M3, TC_FP32, 32, a, b, 0.0f) == 2.0f + two(-12));
    CHECK(tc_mma_dot(TC_ARCH_ADA, TC_E4M3, TC_FP32, 32, a, b, 0.0f) == 2.0f);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_ADA, TC_E4M3, TC_FP32, &p), TC_OK);
    CHECK(p.frac_bits == 13 && p.group == 16 && p.out_mbits == 13 && p.out_rounding == TC_RZ && p.instr_k == 32);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_ADA, TC_TF32, TC_FP32, &p), TC_OK);
    CHECK(p.frac_bits == 24 && p.group == 4);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_B200, TC_BF16, TC_FP32, &p), TC_OK);
    CHECK(p.frac_bits == 25 && p.group == 16 && p.out_rounding == TC_RZ);
}

/* ------------------------------------------------ random differential */

/* A random value of type t: raw encodings (specials, subnormals), or a
   narrow exponent band so that terms overlap and cancel. */
static float random_value(tc_dtype t, int mode, int band) {
    const tc_format *f = tc_format_of(t);
    uint32_t r = tct_rand32();
    if (t == TC_TF32 && mode != 1) return tct_u2f(r);   /* raw fp32: the MMA truncates */
    if (mode == 0) return tc_decode(t, t == TC_FP32 ? r : t == TC_TF32 ? r >> 13 : r & ((1u << f->total_bits) - 1u));
    if (mode == 1) {
        float v = (float)ldexp(1.0 + (double)(r & 0xFFFFFF) / 16777216.0, band + (int)((r >> 24) & 7) - 4);
        v = tc_round(t, (r >> 31) ? -v : v, TC_RN | TC_SATFINITE);
        return v;
    }
    return tc_decode(t, (r & 0xFFu) | ((r >> 16) & (1u << (f->total_bits - 1))));   /* tiny: subnormals */
}

typedef struct { tc_arch arch; tc_dtype in, out; } combo;
static const combo combos[] = {
    { TC_ARCH_V100, TC_FP16, TC_FP32 }, { TC_ARCH_V100, TC_FP16, TC_FP16 },
    { TC_ARCH_A100, TC_FP16, TC_FP32 }, { TC_ARCH_A100, TC_FP16, TC_FP16 },
    { TC_ARCH_A100, TC_BF16, TC_FP32 }, { TC_ARCH_A100, TC_TF32, TC_FP32 },
    { TC_ARCH_H100, TC_FP16, TC_FP32 }, { TC_ARCH_H100, TC_FP16, TC_FP16 },
    { TC_ARCH_H100, TC_BF16, TC_FP32 }, { TC_ARCH_H100, TC_TF32, TC_FP32 },
    { TC_ARCH_H100, TC_E4M3, TC_FP32 }, { TC_ARCH_H100, TC_E4M3, TC_FP16 },
    { TC_ARCH_H100, TC_E5M2, TC_FP32 }, { TC_ARCH_H100, TC_E5M2, TC_FP16 },
    { TC_ARCH_ADA, TC_FP16, TC_FP32 }, { TC_ARCH_ADA, TC_FP16, TC_FP16 },
    { TC_ARCH_ADA, TC_BF16, TC_FP32 }, { TC_ARCH_ADA, TC_TF32, TC_FP32 },
    { TC_ARCH_ADA, TC_E4M3, TC_FP32 }, { TC_ARCH_ADA, TC_E4M3, TC_FP16 },
    { TC_ARCH_ADA, TC_E5M2, TC_FP32 }, { TC_ARCH_ADA, TC_E5M2, TC_FP16 },
    { TC_ARCH_B200, TC_FP16, TC_FP32 }, { TC_ARCH_B200, TC_FP16, TC_FP16 },
    { TC_ARCH_B200, TC_BF16, TC_FP32 }, { TC_ARCH_B200, TC_TF32, TC_FP32 },
    { TC_ARCH_B200, TC_E4M3, TC_FP32 }, { TC_ARCH_B200, TC_E4M3, TC_FP16 },
    { TC_ARCH_B200, TC_E5M2, TC_FP32 }, { TC_ARCH_B200, TC_E5M2, TC_FP16 },
    { TC_ARCH_TURING, TC_FP16, TC_FP32 }, { TC_ARCH_TURING, TC_FP16, TC_FP16 },
    { TC_ARCH_RTX_BLACKWELL, TC_FP16, TC_FP32 }, { TC_ARCH_RTX_BLACKWELL, TC_FP16, TC_FP16 },
    { TC_ARCH_RTX_BLACKWELL, TC_BF16, TC_FP32 }, { TC_ARCH_RTX_BLACKWELL, TC_TF32, TC_FP32 },
    { TC_ARCH_RTX_BLACKWELL, TC_E4M3, TC_FP32 }, { TC_ARCH_RTX_BLACKWELL, TC_E4M3, TC_FP16 },
    { TC_ARCH_RTX_BLACKWELL, TC_E5M2, TC_FP32 }, { TC_ARCH_RTX_BLACKWELL, TC_E5M2, TC_FP16 },
};

static int same(float x, float y) { return tct_f2u(x) == tct_f2u(y) || (x != x && y != y && tct_f2u(x) == 0x7FFFFFFFu && tct_f2u(y) == 0x7FFFFFFFu); }

static void test_random(void) {
    size_t ci;
    int rule, n, ki, i, cases = 2000;
    float a[64], b[64], at[64], bt[64];
    for (ci = 0; ci < sizeof combos / sizeof combos[0]; ci++) {
        const combo *cb = &combos[ci];
        tc_mma_params p;
        memset(&p, 0, sizeof p);
        CHECK_STATUS(tc_mma_params_of(cb->arch, cb->in, cb->out, &p), TC_OK);
        for (rule = 0; rule < 4; rule++) {   /* bit 0: the zero rule; bit 1: the zero sign */
            tc_mma_options opt = { (tc_mma_zero_rule)(rule & 1), 0, 0, (tc_mma_zero_sign)(rule >> 1), TC_FP32 };
            oracle_cfg o;
            long bad = 0;
            CHECK(oracle_setup(&o, cb->arch, cb->in, cb->out, rule & 1, rule >> 1));
            CHECK(o.F == p.frac_bits && o.group == p.group && o.floor == p.exp_floor);
            CHECK(o.out_mbits == p.out_mbits && o.rne == (p.out_rounding == TC_RN));
            tct_seed(0x5EED0000u + ci * 4u + (unsigned)rule);
            for (n = 0; n < cases; n++) {
                int mode = (int)(tct_rand32() % 4), band = (int)(tct_rand32() % 40) - 20;
                int k = (ki = n & 1) ? p.instr_k : p.min_k;
                float c, got, want;
                if (mode == 3) mode = 1;
                for (i = 0; i < k; i++) {
                    a[i] = random_value(cb->in, mode, band);
                    b[i] = random_value(cb->in, mode, (int)(tct_rand32() % 3) - 1);
                    if (tct_rand32() % 8 == 0) a[i] = 0.0f;
                    at[i] = cb->in == TC_TF32 ? tc_tf32_truncate(a[i]) : a[i];
                    bt[i] = cb->in == TC_TF32 ? tc_tf32_truncate(b[i]) : b[i];
                }
                c = mode == 0 ? random_value(cb->out, 0, 0) : random_value(cb->out, 1, band + 2);
                if (tct_rand32() % 4 == 0) c = 0.0f;
                got = tc_mma_dot_ex(cb->arch, cb->in, cb->out, k, a, b, c, &opt);
                want = oracle_dot(&o, k, at, bt, c);
                if (!same(got, want)) {
                    if (++bad <= 3)
                        printf("mismatch arch %d in %s out %s rule %d k %d case %d: got %a (0x%08x) want %a (0x%08x)\n",
                               (int)cb->arch, tc_format_of(cb->in)->name, tc_format_of(cb->out)->name, rule, k, n,
                               got, tct_f2u(got), want, tct_f2u(want));
                }
            }
            tct_add(cases - bad, bad);
        }
    }
}

/* tc_gemm walks K like tc_mma_dot chains groups; any K pads with zeros. */
static void test_gemm_matches(void) {
    size_t ci;
    for (ci = 0; ci < sizeof combos / sizeof combos[0]; ci++) {
        const combo *cb = &combos[ci];
        enum { M = 5, N = 3, K = 37, LDA = 40, LDB = 4, LDC = 6 };
        float A[M * LDA], B[K * LDB], C[M * LDC], D[M * LDC], col[K], at[K], bt[K];
        oracle_cfg o;
        int i, j, k;
        long bad = 0;
        tct_seed(0xC0FFEEu + ci);
        oracle_setup(&o, cb->arch, cb->in, cb->out, 0, 0);
        for (i = 0; i < M * LDA; i++) A[i] = random_value(cb->in, 1, 0);
        for (i = 0; i < K * LDB; i++) B[i] = random_value(cb->in, 1, -3);
        for (i = 0; i < M * LDC; i++) C[i] = random_value(cb->out, 1, 2);
        CHECK_STATUS(tc_gemm(cb->arch, cb->in, cb->out, M, N, K, A, LDA, B, LDB, C, LDC, D, LDC), TC_OK);
        for (i = 0; i < M; i++) for (j = 0; j < N; j++) {
            for (k = 0; k < K; k++) {
                col[k] = B[k * LDB + j];
                at[k] = cb->in == TC_TF32 ? tc_tf32_truncate(A[i * LDA + k]) : A[i * LDA + k];
                bt[k] = cb->in == TC_TF32 ? tc_tf32_truncate(col[k]) : col[k];
            }
            if (!same(D[i * LDC + j], oracle_dot(&o, K, at, bt, C[i * LDC + j]))) bad++;
        }
        tct_add(M * N - bad, bad);
        /* In place (D = C) and C = NULL. */
        CHECK_STATUS(tc_gemm(cb->arch, cb->in, cb->out, M, N, K, A, LDA, B, LDB, C, LDC, C, LDC), TC_OK);
        for (i = 0; i < M; i++) for (j = 0; j < N; j++) if (!same(C[i * LDC + j], D[i * LDC + j])) bad++;
        CHECK(bad == 0);
        CHECK_STATUS(tc_gemm(cb->arch, cb->in, cb->out, M, N, K, A, LDA, B, LDB, NULL, 0, D, LDC), TC_OK);
        for (k = 0; k < K; k++) { at[k] = cb->in == TC_TF32 ? tc_tf32_truncate(A[k]) : A[k]; bt[k] = cb->in == TC_TF32 ? tc_tf32_truncate(B[k * LDB]) : B[k * LDB]; }
        CHECK(same(D[0], oracle_dot(&o, K, at, bt, 0.0f)));
    }
}

/* --------------------------------------------------------- Turing */

/* sm_75 (MMA-Sim's model; no hardware vectors): fp16 m8n8k4 and m16n8k8,
   F = 24, and m16n8k8 is one block FMA of 8 (MMA-Sim splits K only on
   Ampere and Ada, whose m16n8k8 is one group anyway). */
static void test_turing(void) {
    tc_mma_params p;
    float a[16], b[16], D[1];
    int i;
    CHECK(strcmp(tc_arch_name(TC_ARCH_TURING), "Turing") == 0);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_TURING, TC_FP16, TC_FP32, &p), TC_OK);
    CHECK(p.frac_bits == 24 && p.group == 8 && p.instr_k == 8 && p.min_k == 4 && p.out_rounding == TC_RZ);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_TURING, TC_FP16, TC_FP16, &p), TC_OK);
    CHECK(p.out_mbits == 10 && p.out_rounding == TC_RN);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_TURING, TC_BF16, TC_FP32, &p), TC_ERR_ARCH);   /* bf16, tf32, FP8: sm_80 and later */
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_TURING, TC_TF32, TC_FP32, &p), TC_ERR_ARCH);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_TURING, TC_E4M3, TC_FP32, &p), TC_ERR_ARCH);
    /* m8n8k4 with Turing's F = 24: 1 + 4 * 2^-24 keeps its 2^-24 bits
       (1 + 2^-22), where V100's F = 23 gives 1. */
    for (i = 0; i < 4; i++) { a[i] = 1.0f; b[i] = two(-24); }
    CHECK(tc_mma_dot(TC_ARCH_TURING, TC_FP16, TC_FP32, 4, a, b, 1.0f) == 1.0f + two(-22));
    CHECK(tc_mma_dot(TC_ARCH_V100, TC_FP16, TC_FP32, 4, a, b, 1.0f) == 1.0f);
    /* k = 16 is no Turing instruction (NaN). */
    CHECK(tc_mma_dot(TC_ARCH_TURING, TC_FP16, TC_FP32, 16, a, b, 0.0f) != tc_mma_dot(TC_ARCH_TURING, TC_FP16, TC_FP32, 16, a, b, 0.0f));
    /* One group of 8: four products 2^-10 beside 2^15 - 2^15 lie below
       2^(15 - 24) and are cut, so the sum is 0. In groups of 4 (V100's
       m8n8k4 chained) the first group's exact 2^-8 survives as c. */
    for (i = 0; i < 8; i++) { a[i] = i < 4 ? two(-10) : 0.0f; b[i] = 1.0f; }
    a[4] = 32768.0f; a[5] = -32768.0f;
    CHECK(tc_mma_dot(TC_ARCH_TURING, TC_FP16, TC_FP32, 8, a, b, 0.0f) == 0.0f);
    CHECK(tc_mma_dot(TC_ARCH_V100, TC_FP16, TC_FP32, 4, a + 4, b + 4, tc_mma_dot(TC_ARCH_V100, TC_FP16, TC_FP32, 4, a, b, 0.0f)) == two(-8));
    CHECK_STATUS(tc_gemm(TC_ARCH_TURING, TC_FP16, TC_FP32, 1, 1, 8, a, 8, b, 1, NULL, 0, D, 1), TC_OK);
    CHECK(D[0] == 0.0f);
}

/* ------------------------------------------------------ mixed FP8 */

/* e4m3 x e5m2 and e5m2 x e4m3. MMA-Sim (mmasim/simulator/nv_ptx.py, mma
   and wgmma) keys F, the group and the output format on A's type alone and
   both FP8 types get the same ones, so a mixed pairing has the same-type
   FP8 parameters; arithmetic.py's extract_significand_exponent takes each
   operand's exponent with its own type's minimum, so a B subnormal in e5m2
   clamps at -14 where an e4m3 A clamps at -6. The oracle restates that:
   oracle_setup for A's type, then B's minimum exponent. */
static void test_mixed_fp8(void) {
    static const tc_arch archs[] = { TC_ARCH_H100, TC_ARCH_ADA, TC_ARCH_B200 };
    static const tc_dtype fp8[] = { TC_E4M3, TC_E5M2 };
    size_t ai;
    int pi, oi, rule, n, i, cases = 1000;
    float a[32], b[32], c;
    for (ai = 0; ai < sizeof archs / sizeof archs[0]; ai++)
        for (pi = 0; pi < 2; pi++)
            for (oi = 0; oi < 2; oi++) {
                tc_dtype ta = fp8[pi], tb = fp8[1 - pi], out = oi ? TC_FP16 : TC_FP32;
                tc_mma_params pm, ps;
                CHECK_STATUS(tc_mma_params_of_mixed(archs[ai], ta, tb, out, &pm), TC_OK);
                CHECK_STATUS(tc_mma_params_of(archs[ai], ta, out, &ps), TC_OK);
                CHECK(memcmp(&pm, &ps, sizeof pm) == 0);
                for (rule = 0; rule < 4; rule++) {
                    tc_mma_options opt = { (tc_mma_zero_rule)(rule & 1), 0, 0, (tc_mma_zero_sign)(rule >> 1), tb };
                    tc_mma_options same_a = opt, dflt = opt;
                    oracle_cfg o;
                    long bad = 0;
                    same_a.b_type = ta; dflt.b_type = TC_FP32;
                    CHECK(oracle_setup(&o, archs[ai], ta, out, rule & 1, rule >> 1));
                    o.emin_b = type_emin(tb);
                    tct_seed(0x313A0000u + (unsigned)(ai * 16 + pi * 8 + oi * 4 + rule));
                    for (n = 0; n < cases; n++) {
                        int mode = (int)(tct_rand32() % 4), band = (int)(tct_rand32() % 30) - 15;
                        float got, want, ab[32];
                        if (mode == 3) mode = 1;
                        for (i = 0; i < 32; i++) {
                            a[i] = random_value(ta, mode, band);
                            b[i] = random_value(tb, mode, (int)(tct_rand32() % 3) - 1);
                            ab[i] = random_value(ta, mode, (int)(tct_rand32() % 3) - 1);
                            if (tct_rand32() % 8 == 0) a[i] = 0.0f;
                        }
                        c = mode == 0 ? random_value(out, 0, 0) : random_value(out, 1, band + 2);
                        if (tct_rand32() % 4 == 0) c = 0.0f;
                        got = tc_mma_dot_ex(archs[ai], ta, out, 32, a, b, c, &opt);
                        want = oracle_dot(&o, 32, a, b, c);
                        if (!same(got, want) && ++bad <= 3)
                            printf("mixed mismatch %s %s x %s -> %s rule %d case %d: got %a want %a\n", tc_arch_name(archs[ai]),
                                   tc_format_of(ta)->name, tc_format_of(tb)->name, tc_format_of(out)->name, rule, n, got, want);
                        /* b_type equal to A's reproduces the same-type path */
                        if (!same(tc_mma_dot_ex(archs[ai], ta, out, 32, a, ab, c, &same_a),
                                  tc_mma_dot_ex(archs[ai], ta, out, 32, a, ab, c, &dflt))) bad++;
                    }
                    tct_add(cases - bad, bad);
                }
            }
    /* B's own minimum exponent: Ada (F = 13, one group of 16), A = e4m3,
       B = e5m2. b[0] = 2^-16, an e5m2 subnormal: exponent -14 (e5m2's
       minimum), so E = -14 and the quantum 2^-27 keeps 2^-6 * 2^-14 =
       2^-20. Clamped at e4m3's -6 instead, E would be -6 and the quantum
       2^-19 would drop it. */
    {
        tc_mma_options mx;
        memset(&mx, 0, sizeof mx);
        mx.b_type = TC_E5M2;
        for (i = 0; i < 32; i++) a[i] = b[i] = 0.0f;
        a[0] = 1.0f; b[0] = two(-16);
        a[1] = two(-6); b[1] = two(-14);
        CHECK(tc_mma_dot_ex(TC_ARCH_ADA, TC_E4M3, TC_FP32, 32, a, b, 0.0f, &mx) == two(-16) + two(-20));
        /* and 2^-16 is not an e4m3 value: the GEMM refuses it as B of a same-type e4m3 GEMM */
        {
            float D[1];
            tc_gemm_desc d;
            memset(&d, 0, sizeof d);
            d.arch = TC_ARCH_ADA; d.in = TC_E4M3; d.out = TC_FP32; d.M = 1; d.N = 1; d.K = 32;
            d.A = a; d.B = b; d.D = D; d.ldb = 1;
            CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_NOT_REPRESENTABLE);
            d.options.b_type = TC_E5M2;
            CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
            CHECK(D[0] == two(-16) + two(-20));
            /* 57344 is e5m2 only (e4m3 stops at 448): as an e4m3 A it is refused */
            a[2] = 57344.0f;
            CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_NOT_REPRESENTABLE);
        }
    }
    /* Pairings that do not exist, and architectures without FP8. */
    {
        tc_mma_params p;
        tc_mma_options mx;
        float one[32];
        for (i = 0; i < 32; i++) one[i] = 1.0f;
        memset(&mx, 0, sizeof mx);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_H100, TC_FP16, TC_E4M3, TC_FP32, &p), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_H100, TC_E4M3, TC_FP16, TC_FP32, &p), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_H100, TC_BF16, TC_FP16, TC_FP32, &p), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_H100, TC_E4M3, TC_E2M1, TC_FP32, &p), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_H100, TC_E4M3, TC_FP32, TC_FP32, &p), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_H100, TC_E4M3, (tc_dtype)-1, TC_FP32, &p), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_H100, TC_E4M3, TC_DTYPE_COUNT, TC_FP32, &p), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_A100, TC_E4M3, TC_E5M2, TC_FP32, &p), TC_ERR_ARCH);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_V100, TC_E5M2, TC_E4M3, TC_FP32, &p), TC_ERR_ARCH);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_COUNT, TC_E5M2, TC_E4M3, TC_FP32, &p), TC_ERR_ARCH);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_ADA, TC_E5M2, TC_E4M3, TC_BF16, &p), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_ADA, TC_E5M2, TC_E4M3, TC_FP32, NULL), TC_ERR_NULL);
        mx.b_type = TC_E4M3;
        CHECK(tc_mma_dot_ex(TC_ARCH_H100, TC_FP16, TC_FP32, 16, one, one, 0.0f, &mx) != tc_mma_dot_ex(TC_ARCH_H100, TC_FP16, TC_FP32, 16, one, one, 0.0f, &mx));
        CHECK(tc_mma_dot_ex(TC_ARCH_A100, TC_E5M2, TC_FP32, 32, one, one, 0.0f, &mx) != tc_mma_dot_ex(TC_ARCH_A100, TC_E5M2, TC_FP32, 32, one, one, 0.0f, &mx));
        CHECK(tc_mma_dot_ex(TC_ARCH_H100, TC_E5M2, TC_FP32, 8, one, one, 0.0f, &mx) != tc_mma_dot_ex(TC_ARCH_H100, TC_E5M2, TC_FP32, 8, one, one, 0.0f, &mx));
        CHECK(tc_mma_dot_ex(TC_ARCH_H100, TC_E5M2, TC_FP32, 16, one, one, 0.0f, &mx) == 16.0f);   /* m16n8k16.e5m2.e4m3 on sm_90 */
        CHECK(tc_mma_dot_ex(TC_ARCH_ADA, TC_E5M2, TC_FP32, 8, one, one, 0.0f, &mx) != tc_mma_dot_ex(TC_ARCH_ADA, TC_E5M2, TC_FP32, 8, one, one, 0.0f, &mx));
        CHECK(tc_mma_dot_ex(TC_ARCH_ADA, TC_E5M2, TC_FP32, 16, one, one, 0.0f, &mx) == 16.0f);   /* m16n8k16.e5m2.e4m3 */
        CHECK(tc_mma_dot_ex(TC_ARCH_ADA, TC_E5M2, TC_FP32, 32, one, one, 0.0f, &mx) == 32.0f);
        mx.b_type = (tc_dtype)99;
        CHECK(tc_mma_dot_ex(TC_ARCH_ADA, TC_E5M2, TC_FP32, 32, one, one, 0.0f, &mx) != tc_mma_dot_ex(TC_ARCH_ADA, TC_E5M2, TC_FP32, 32, one, one, 0.0f, &mx));
        {
            float D[1];
            tc_gemm_desc d;
            memset(&d, 0, sizeof d);
            d.arch = TC_ARCH_A100; d.in = TC_E4M3; d.out = TC_FP32; d.M = 1; d.N = 1; d.K = 32;
            d.A = one; d.B = one; d.D = D; d.ldb = 1; d.options.b_type = TC_E5M2;
            CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARCH);
            d.arch = TC_ARCH_H100; d.in = TC_FP16;
            CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_DTYPE);
        }
    }
}

/* --------------------------------------------------- reference models */

static void test_references(void) {
    oracle_cfg exact;
    float a[300], b[300];
    int n, i;
    long bad = 0;
    /* tc_dot_exact = the oracle with an adder wide enough to lose nothing,
       rounded once to nearest-even; tc_dot_fma with k = 1 = libm's fmaf. */
    memset(&exact, 0, sizeof exact);
    exact.F = 1000; exact.group = 1000; exact.emin_in = -126; exact.emin_b = -126; exact.emin_c = -126;
    exact.out_mbits = 23; exact.out_emin = -126; exact.out_emax = 127; exact.rne = 1;
    tct_seed(77);
    for (n = 0; n < 300; n++) {
        int k = 1 + (int)(tct_rand32() % 300);
        float c = tct_u2f(tct_rand32());
        for (i = 0; i < k; i++) {
            a[i] = n % 3 ? (float)ldexp((double)(int32_t)tct_rand32(), (int)(tct_rand32() % 60) - 90) : tct_u2f(tct_rand32());
            b[i] = n % 3 ? (float)ldexp((double)(int32_t)tct_rand32(), (int)(tct_rand32() % 60) - 60) : tct_u2f(tct_rand32());
        }
        if (n % 3) c = (float)ldexp((double)(int32_t)tct_rand32(), -100);
        if (!same(dot_exact(k, a, 1, b, 1, c), oracle_dot(&exact, k, a, b, c))) bad++;
        if (!same(dot_exact(1, a, 1, b, 1, c), fmaf(a[0], b[0], c)) && fmaf(a[0], b[0], c) == fmaf(a[0], b[0], c)) bad++;
    }
    tct_add(600 - bad, bad);
    /* Cancellation the fp32 loop gets wrong and the exact model gets right. */
    a[0] = 1e20f; b[0] = 1.0f; a[1] = 1.0f; b[1] = 1.0f; a[2] = -1e20f; b[2] = 1.0f;
    CHECK(dot_exact(3, a, 1, b, 1, 0.0f) == 1.0f);
    CHECK(dot_fma(3, a, 1, b, 1, 0.0f) == 0.0f);
    CHECK(dot_exact(2, a, 2, b, 2, 0.0f) == 0.0f);            /* strides: a[0]*b[0] + a[2]*b[2] */
    CHECK_BITS(0, tct_f2u(dot_exact(1, a, 1, b, 1, -0.0f) * 0.0f), 0u);
    a[0] = -0.0f; b[0] = 1.0f;
    CHECK_BITS(0, tct_f2u(dot_exact(1, a, 1, b, 1, -0.0f)), 0x80000000u);
    a[0] = INFINITY; b[0] = 0.0f;
    CHECK(dot_exact(1, a, 1, b, 1, 0.0f) != dot_exact(1, a, 1, b, 1, 0.0f));
}

/* ------------------------------------------------------------ layouts */

/* Bits of storage per element of an instruction's A and B. */
static int storage_bits(tc_dtype t) {
    switch (t) {
    case TC_FP16: case TC_BF16: return 16;
    case TC_TF32: return 32;
    case TC_E4M3: case TC_E5M2: return 8;
    default: return 0;
    }
}

static const char *ptx_type(tc_dtype t) {
    switch (t) {
    case TC_FP16: return "f16";
    case TC_BF16: return "bf16";
    case TC_TF32: return "tf32";
    case TC_E4M3: return "e4m3";
    case TC_E5M2: return "e5m2";
    default: return "?";
    }
}

/* Every entry of the instruction table: its fields agree with each other,
   with PTX's spelling and with section 2's parameters; names are unique and
   found again by name. */
/* The element types of kind::f8f6f4, and those only it takes (FP6, FP4). */
static int f8f6f4_type(tc_dtype t) {
    return t == TC_E4M3 || t == TC_E5M2 || t == TC_E2M3 || t == TC_E3M2 || t == TC_E2M1;
}
static int f6f4_type(tc_dtype t) { return t == TC_E2M3 || t == TC_E3M2 || t == TC_E2M1; }

/* A kind::f8f6f4 row: tcgen05.mma on B200 (one thread, every pairing) or
   mma.sync on sm_120 (a warp, a pairing with FP6 or FP4), or a
   block-scaled one (tcgen05 and sm_120's mma.sync, any pairing). */
static int block_scaled_row(const tc_mma_instr_info *in) { return strstr(in->ptx, ".block_scale") != NULL; }
static int is_f8f6f4_row(const tc_mma_instr_info *in) {
    return (in->threads == 1 && f8f6f4_type(in->in)) || f6f4_type(in->in) || f6f4_type(in->b_type) ||
           block_scaled_row(in);
}

/* An sm_120 mma.sync kind::f8f6f4 row: m16n8k32 with FP8's element counts
   (FP6/FP4 one per byte), the FP8 m16n8k32 layout; numerics test_scaled's. */
static void check_sm120_f8f6f4_row(const tc_mma_instr_info *in) {
    char want[96];
    CHECK(in->threads == 32 && in->m == 16 && in->n == 8 && in->k == 32 && in->n_step == 0);
    CHECK(f8f6f4_type(in->in) && f8f6f4_type(in->b_type) && (f6f4_type(in->in) || f6f4_type(in->b_type)));
    CHECK(in->archs == TC_ARCH_BIT(TC_ARCH_RTX_BLACKWELL) && in->fp16_accumulate == 1 && in->layout == 1);
    CHECK(!in->sparse_group && !in->sparse_keep && !in->selectors && !in->meta_lanes);
    CHECK(in->a_elems == 16 && in->b_elems == 8 && in->c_elems == 4 && in->a_regs == 4 && in->b_regs == 2);
    sprintf(want, "m16n8k32.%s", tc_format_of(in->in)->name);
    if (in->b_type != in->in) sprintf(want + strlen(want), ".%s", tc_format_of(in->b_type)->name);
    CHECK(strcmp(in->name, want) == 0);
    sprintf(want, "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.%s.%s.f32", tc_format_of(in->in)->name,
            tc_format_of(in->b_type)->name);
    CHECK(strcmp(in->ptx, want) == 0);
}

/* A block-scaled tcgen05.mma row (B200, M 128, N step 16, fp32 D):
   kind::mxf8f6f4 K 32 in any pairing, kind::mxf4 / mxf4nvf4 K 64 e2m1;
   tc_mma_run refuses it (it needs scales), D untouched. */

static void check_block_scaled_row(const tc_mma_instr_info *in, tc_mma_instr id) {
    static float A[128 * 64], B[64 * 256], D[128 * 256];
    char want[96];
    const char *kind = in->k == 32 ? "mxf8f6f4" : strstr(in->ptx, "kind::mxf4nvf4") ? "mxf4nvf4" : "mxf4";
    CHECK(in->threads == 1 && in->m == 128 && in->n == 256 && in->n_step == 16 && (in->k == 32 || in->k == 64));
    CHECK(in->archs == TC_ARCH_BIT(TC_ARCH_B200) && in->fp16_accumulate == 0 && in->layout == 0);
    CHECK(!in->sparse_group && !in->a_elems && !in->b_elems && !in->c_elems && !in->a_regs && !in->b_regs);
    CHECK(in->k == 32 ? f8f6f4_type(in->b_type) : in->in == TC_E2M1 && in->b_type == TC_E2M1);
    sprintf(want, "tcgen05.m128nNk%d.%s.%s", in->k, kind, tc_format_of(in->in)->name);
    if (in->b_type != in->in) sprintf(want + strlen(want), ".%s", tc_format_of(in->b_type)->name);
    CHECK(strcmp(in->name, want) == 0);
    sprintf(want, "tcgen05.mma.cta_group::1.kind::%s.block_scale", kind);
    CHECK(strcmp(in->ptx, want) == 0);
    D[0] = 42.0f;
    CHECK_STATUS(tc_mma_run(TC_ARCH_B200, id, 16, TC_FP32, A, B, NULL, D), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_run(TC_ARCH_B200, id, 256, TC_FP32, A, B, D, D), TC_ERR_ARG);
    CHECK(D[0] == 42.0f);
}

/* A tcgen05.mma kind::f8f6f4 row (B200, one thread, K 32, M 64 N step 8 or
   M 128 N step 16, operands in shared/tensor memory): its name spells the
   shape and types, its PTX the kind; its numerics are test_scaled's. */
static void check_f8f6f4_row(const tc_mma_instr_info *in) {
    char want[64];
    if (in->threads == 32) { check_sm120_f8f6f4_row(in); return; }
    CHECK(in->threads == 1 && in->k == 32 && in->n == 256 && ((in->m == 64 && in->n_step == 8) || (in->m == 128 && in->n_step == 16)));
    CHECK(f8f6f4_type(in->b_type) && in->archs == TC_ARCH_BIT(TC_ARCH_B200) && in->fp16_accumulate == 1);
    CHECK(!in->sparse_group && !in->sparse_keep && !in->selectors && !in->meta_lanes && in->layout == 0);
    CHECK(!in->a_elems && !in->b_elems && !in->c_elems && !in->a_regs && !in->b_regs);
    sprintf(want, "tcgen05.m%dnNk32.%s", in->m, tc_format_of(in->in)->name);
    if (in->b_type != in->in) sprintf(want + strlen(want), ".%s", tc_format_of(in->b_type)->name);
    CHECK(strcmp(in->name, want) == 0);
    CHECK(strcmp(in->ptx, "tcgen05.mma.cta_group::1.kind::f8f6f4") == 0);
}

static void test_instr_table(void) {
    const char *names[TC_MMA_INSTR_COUNT];
    int i, j, n_sparse = 0, n_unmodelled = 0, n_fp8 = 0, n_wg = 0, n_tc5 = 0, n_f8f6f4 = 0, n_fp4_scaled = 0, n_sm120_scaled = 0,
        pair_seen[4][25];
    float ones[64];
    tc_mma_instr_info in;
    tc_mma_instr found;
    for (i = 0; i < 64; i++) ones[i] = 1.0f;
    memset(pair_seen, 0, sizeof pair_seen);
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++) {
        char want[64], shape[32], types[32];
        int bits, sparse, fp8, a, wg, tc5;
        memset(&in, 0xA5, sizeof in);
        CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)i, &in), TC_OK);
        names[i] = in.name;
        if (!CHECK(in.name != NULL && in.ptx != NULL)) continue;
        if (tc_format_of(in.in)->exponent_bits == 0) continue;   /* integer kinds: tests/test_imma.c */
        if (is_f8f6f4_row(&in)) {
            static const tc_dtype t5[5] = { TC_E4M3, TC_E5M2, TC_E2M3, TC_E3M2, TC_E2M1 };
            int x = 0, y = 0;
            if (block_scaled_row(&in) && in.threads == 32) {   /* sm_120's block-scaled mma.sync: tests/test_scaled.c */
                n_sm120_scaled++;
                continue;
            }
            if (block_scaled_row(&in)) check_block_scaled_row(&in, (tc_mma_instr)i);
            else check_f8f6f4_row(&in);
            while (x < 4 && t5[x] != in.in) x++;
            while (y < 4 && t5[y] != in.b_type) y++;
            if (block_scaled_row(&in) && in.k == 64) n_fp4_scaled++;
            else pair_seen[block_scaled_row(&in) ? 3 : in.threads == 32 ? 2 : in.m == 128][x * 5 + y]++;
            n_f8f6f4++;
            found = (tc_mma_instr)-1;
            CHECK_STATUS(tc_mma_instr_find(in.name, &found), TC_OK);
            CHECK(found == (tc_mma_instr)i);
            continue;
        }
        sparse = in.sparse_group != 0;
        fp8 = in.in == TC_E4M3 || in.in == TC_E5M2;
        /* a warp (mma.sync, fixed N), a warpgroup (wgmma, N in steps of 8 up to 256) or one
           thread (tcgen05.mma: M 64 with N in steps of 8, M 128 in steps of 16) */
        wg = in.threads == 128;
        tc5 = in.threads == 1;
        if (wg) CHECK(in.n_step == 8 && in.n == 256 && in.m == 64);
        else if (tc5) CHECK(in.n == 256 && ((in.m == 64 && in.n_step == 8) || (in.m == 128 && in.n_step == 16)) && !fp8);
        else CHECK(in.threads == 32 && in.n_step == 0);
        n_wg += wg;
        n_tc5 += tc5;
        n_sparse += sparse;
        n_fp8 += fp8;
        /* B's type is A's except in the mixed FP8 kinds */
        CHECK(in.b_type == in.in || (fp8 && (in.b_type == TC_E4M3 || in.b_type == TC_E5M2)));
        /* the name is [sp.]mMnNkK.type (mixed: .a.b), and the PTX spells the same shape and types */
        if (wg || tc5) sprintf(want, "%s%s.m%dnNk%d.%s", sparse ? "sp." : "", wg ? "wgmma" : "tcgen05", in.m, in.k, ptx_type(in.in));
        else sprintf(want, "%sm%dn%dk%d.%s", sparse ? "sp." : "", in.m, in.n, in.k, ptx_type(in.in));
        if (in.b_type != in.in) sprintf(want + strlen(want), ".%s", ptx_type(in.b_type));
        CHECK(strcmp(in.name, want) == 0);
        if (wg) sprintf(shape, ".m%dnNk%d.", in.m, in.k);
        else sprintf(shape, ".m%dn%dk%d.row.col.", in.m, in.n, in.k);
        sprintf(types, wg ? ".f32.%s.%s" : ".f32.%s.%s.f32", ptx_type(in.in), ptx_type(in.b_type));
        /* tcgen05.mma's PTX names its kind; shape and types sit in its instruction descriptor */
        if (tc5) CHECK(strcmp(in.ptx, in.in == TC_TF32 ? "tcgen05.mma.cta_group::1.kind::tf32" : "tcgen05.mma.cta_group::1.kind::f16") == 0);
        else CHECK(strstr(in.ptx, shape) != NULL && strlen(in.ptx) > strlen(types) &&
                   strcmp(in.ptx + strlen(in.ptx) - strlen(types), types) == 0);
        if (wg) CHECK(strncmp(in.ptx, sparse ? "wgmma.mma_async.sp.sync.aligned." : "wgmma.mma_async.sync.aligned.", sparse ? 32 : 29) == 0);
        else if (!tc5) CHECK(strncmp(in.ptx, sparse ? "mma.sp::ordered_metadata.sync.aligned." : "mma.sync.aligned.", sparse ? 38 : 17) == 0);
        /* registers from the element size */
        bits = storage_bits(in.in);
        CHECK(bits != 0);
        CHECK(in.a_regs * 32 == in.a_elems * bits && in.b_regs * 32 == in.b_elems * bits);
        if (tc5) CHECK(in.a_regs == 0 && in.b_regs == 0);   /* operands in shared and tensor memory */
        else CHECK(in.a_regs >= 1 && in.a_regs <= 4 && in.b_regs <= 4 && (wg ? in.b_regs == 0 : in.b_regs >= 1));   /* pack_a/pack_b's 4 per lane */
        /* elements per lane: one M x K, K x N, M x N tile over the issuing threads (a sparse A
           compressed; a wgmma's B comes from shared memory, its C at the largest N);
           m8n8k4 runs four 8x8x4 products, one per quad pair */
        if (tc5) {
            CHECK(!sparse && in.a_elems == 0 && in.b_elems == 0 && in.c_elems == 0);
        } else if (wg) {
            CHECK(in.a_elems * in.threads * (sparse ? in.sparse_group : 1) == in.m * in.k * (sparse ? in.sparse_keep : 1) &&
                  in.b_elems == 0 && in.c_elems * in.threads == in.m * in.n);
        } else if (in.m == 8) {
            CHECK(i == TC_MMA_M8N8K4_F16 && in.n == 8 && in.k == 4);
            CHECK(in.a_elems * 32 == 4 * in.m * in.k && in.b_elems * 32 == 4 * in.k * in.n && in.c_elems * 32 == 4 * in.m * in.n);
        } else {
            CHECK(in.m == 16 && in.n == 8);
            if (sparse) CHECK(in.a_elems * 32 * in.sparse_group == in.m * in.k * in.sparse_keep);
            else CHECK(in.a_elems * 32 == in.m * in.k);
            CHECK(in.b_elems * 32 == in.k * in.n && in.c_elems * 32 == in.m * in.n);
        }
        /* sparsity fields: all zero for dense, the type's pattern for sparse */
        if (sparse) {
            int g = 0, k = 0;
            CHECK_STATUS(tc_sparse_pattern(in.in, &g, &k), TC_OK);
            CHECK(in.sparse_group == g && in.sparse_keep == k);
            CHECK(in.selectors * in.meta_lanes == 4 && in.selectors >= 1);
            /* 4-bit codes over a warp's 8 quads; a wgmma.sp's warp holds 16 of its 64 rows */
            CHECK(in.m / (in.threads / 32) * (in.k / in.sparse_group) * 4 == 32 * 8 * in.meta_lanes);
        } else {
            CHECK(in.sparse_keep == 0 && in.selectors == 0 && in.meta_lanes == 0);
        }
        /* fp16 accumulation: f16 and FP8 inputs, not bf16 or tf32 */
        CHECK(in.fp16_accumulate == (in.in == TC_FP16 || fp8));
        /* architectures: m8n8k4 is V100's; the other kinds H100's, Ada's, B200's and
           sm_120's, and A100's too unless FP8 */
        {
            unsigned h_ada_b200 = TC_ARCH_BIT(TC_ARCH_H100) | TC_ARCH_BIT(TC_ARCH_ADA) | TC_ARCH_BIT(TC_ARCH_B200) |
                                  TC_ARCH_BIT(TC_ARCH_RTX_BLACKWELL);
            unsigned turing = i == TC_MMA_M8N8K4_F16 || i == TC_MMA_M16N8K8_F16 ? TC_ARCH_BIT(TC_ARCH_TURING) : 0u;
            CHECK(in.archs == (wg ? TC_ARCH_BIT(TC_ARCH_H100) : tc5 ? TC_ARCH_BIT(TC_ARCH_B200) : turing | (i == TC_MMA_M8N8K4_F16 ? TC_ARCH_BIT(TC_ARCH_V100)
                               : fp8 ? h_ada_b200 : (h_ada_b200 | TC_ARCH_BIT(TC_ARCH_A100)))));
        }
        for (a = 0; a < TC_ARCH_COUNT; a++) {
            tc_mma_params p;
            tc_mma_options mixed;
            memset(&mixed, 0, sizeof mixed);
            mixed.b_type = in.b_type;
            if (!(in.archs & TC_ARCH_BIT(a))) continue;
            CHECK_STATUS(tc_mma_params_of_mixed((tc_arch)a, in.in, in.b_type, TC_FP32, &p), TC_OK);
            CHECK_STATUS(tc_mma_params_of_mixed((tc_arch)a, in.in, in.b_type, TC_FP16, &p), in.fp16_accumulate ? TC_OK : TC_ERR_DTYPE);
            /* a dense instruction's K is one tc_mma_dot takes on every modelled arch */
            if (!sparse) CHECK(tc_mma_dot_ex((tc_arch)a, in.in, TC_FP32, in.k, ones, ones, 0.0f, &mixed) == (float)in.k);
        }
        /* layouts: not modelled for m8n8k4 and the FP8 sparse kinds; dense FP8 read from the PTX ISA, not yet run */
        CHECK(in.layout >= 0 && in.layout <= 2);
        CHECK((in.layout == 0) == (i == TC_MMA_M8N8K4_F16 || (fp8 && sparse) || wg || tc5));
        if (fp8 && !sparse && !wg) CHECK(in.layout == 1);
        n_unmodelled += in.layout == 0;
        /* the name finds the instruction again */
        found = (tc_mma_instr)-1;
        CHECK_STATUS(tc_mma_instr_find(in.name, &found), TC_OK);
        CHECK(found == (tc_mma_instr)i);
    }
    CHECK(n_sparse == 17 && n_fp8 == 20 && n_wg == 14 && n_tc5 == 6 && n_unmodelled == 25);   /* FP8: the four e4m3/e5m2 pairings in m16n8k32, m16n8k16, sp.m16n8k64, wgmma and wgmma.sp */
    /* tcgen05 kind::f8f6f4: each of the 25 pairings once at M 64 and once at M 128; sm_120 mma.sync
       kind::f8f6f4: each of the 21 with FP6 or FP4 once (its FP8-only four are the m16n8k32 FP8 rows) */
    CHECK(n_f8f6f4 == 98 && n_fp4_scaled == 2);   /* and the block-scaled: mxf8f6f4's 25 pairings, mxf4, mxf4nvf4 */
    CHECK(n_sm120_scaled == 28);   /* sm_120 mma.sync: mxf8f6f4's 25 pairings, mxf4, mxf4nvf4 with ue8m0 and ue4m3 */
    for (i = 0; i < 100; i++) CHECK(pair_seen[i / 25][i % 25] == (i < 50 || i >= 75 || i % 25 / 5 >= 2 || i % 5 >= 2));
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++)
        for (j = i + 1; j < TC_MMA_INSTR_COUNT; j++) CHECK(names[i] && names[j] && strcmp(names[i], names[j]) != 0);
    /* every K a power of two: tc_mma_dot keeps an (arch, type)'s Ks as one bit mask */
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++)
        CHECK(tc_mma_instr_get((tc_mma_instr)i, &in) == TC_OK && in.k > 0 && (in.k & (in.k - 1)) == 0);
    /* unknown instructions and names; outputs untouched */
    memset(&in, 0, sizeof in);
    CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)-1, &in), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_get(TC_MMA_INSTR_COUNT, &in), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)INT_MAX, &in), TC_ERR_ARG);
    CHECK(in.name == NULL && in.m == 0);
    CHECK_STATUS(tc_mma_instr_get(TC_MMA_M16N8K16_F16, NULL), TC_ERR_NULL);
    found = (tc_mma_instr)-1;
    CHECK_STATUS(tc_mma_instr_find("nope", &found), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_find("", &found), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_find("m16n8k16", &found), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_find("m16n8k16.f16 ", &found), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_find("m16n8k32.f16", &found), TC_ERR_ARG);   /* only sparse has k32 f16 */
    CHECK(found == (tc_mma_instr)-1);
    CHECK_STATUS(tc_mma_instr_find(NULL, &found), TC_ERR_NULL);
    CHECK_STATUS(tc_mma_instr_find("m16n8k16.f16", NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_mma_instr_find("sp.m16n8k32.bf16", &found), TC_OK);
    CHECK(found == TC_MMA_SP_M16N8K32_BF16);
}

/* Every modelled instruction's fragments: each element of A (M x K; a
   sparse kind's compressed M x K/2), B (K x N) and C (M x N) is held by
   exactly one (lane, element). */
static void test_layouts(void) {
    int s, f, lane, i, modelled = 0;
    for (s = 0; s < TC_MMA_INSTR_COUNT; s++) {
        tc_mma_instr_info in;
        int M, N, K, KA;
        CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)s, &in), TC_OK);
        if (in.layout == 0) {
            /* not modelled: every fragment refused, outputs untouched */
            for (f = TC_FRAG_A; f <= TC_FRAG_C; f++) {
                int r = -7, c = -7;
                CHECK_STATUS(tc_mma_frag_coord((tc_mma_instr)s, (tc_frag)f, 0, 0, &r, &c), TC_ERR_ARG);
                CHECK(r == -7 && c == -7);
            }
            continue;
        }
        modelled++;
        M = in.m; N = in.n; K = in.k;
        KA = in.sparse_group ? K * in.sparse_keep / in.sparse_group : K;
        for (f = TC_FRAG_A; f <= TC_FRAG_C; f++) {
            int rows = f == TC_FRAG_B ? K : M, cols = f == TC_FRAG_A ? KA : N;
            int seen[32 * 32], ok = 1, cnt = f == TC_FRAG_A ? in.a_elems : f == TC_FRAG_B ? in.b_elems : in.c_elems;
            int r = -7, c = -7;
            memset(seen, 0, sizeof seen);
            CHECK(cnt * 32 == rows * cols && rows * cols <= 32 * 32);
            for (lane = 0; lane < 32; lane++) for (i = 0; i < cnt; i++) {
                r = -1; c = -1;
                if (tc_mma_frag_coord((tc_mma_instr)s, (tc_frag)f, lane, i, &r, &c) != TC_OK || r < 0 || r >= rows || c < 0 || c >= cols) ok = 0;
                else seen[r * cols + c]++;
            }
            for (i = 0; i < rows * cols; i++) if (seen[i] != 1) ok = 0;
            CHECK(ok);   /* every element held exactly once */
            r = c = -7;
            CHECK_STATUS(tc_mma_frag_coord((tc_mma_instr)s, (tc_frag)f, 0, cnt, &r, &c), TC_ERR_ARG);
            CHECK_STATUS(tc_mma_frag_coord((tc_mma_instr)s, (tc_frag)f, 0, -1, &r, &c), TC_ERR_ARG);
            CHECK_STATUS(tc_mma_frag_coord((tc_mma_instr)s, (tc_frag)f, -1, 0, &r, &c), TC_ERR_ARG);
            CHECK_STATUS(tc_mma_frag_coord((tc_mma_instr)s, (tc_frag)f, 32, 0, &r, &c), TC_ERR_ARG);
            CHECK_STATUS(tc_mma_frag_coord((tc_mma_instr)s, (tc_frag)f, 0, 0, &r, NULL), TC_ERR_NULL);
            CHECK(r == -7 && c == -7);
        }
        CHECK_STATUS(tc_mma_frag_coord((tc_mma_instr)s, (tc_frag)3, 0, 0, &M, &N), TC_ERR_ARG);
        CHECK_STATUS(tc_mma_frag_coord((tc_mma_instr)s, (tc_frag)-1, 0, 0, &M, &N), TC_ERR_ARG);
    }
    CHECK(modelled == TC_MMA_INSTR_COUNT - 25 - 50 - 27);   /* m8n8k4, the 4 FP8 sp.m16n8k64, the 14 wgmma (7 sparse) and 83 tcgen05 kinds */
    /* Spot checks against the PTX ISA figures. */
    {
        int r, c;
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K16_F16, TC_FRAG_A, 5, 6, &r, &c) == TC_OK && r == 9 && c == 10);   /* g=1,t=1: a6 (g+8, 2t+8) */
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K16_F16, TC_FRAG_B, 7, 3, &r, &c) == TC_OK && r == 15 && c == 1);   /* b3 (2t+9, g) */
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K8_TF32, TC_FRAG_A, 6, 2, &r, &c) == TC_OK && r == 1 && c == 6);    /* a2 (g, t+4) */
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K8_TF32, TC_FRAG_B, 6, 1, &r, &c) == TC_OK && r == 6 && c == 1);    /* b1 (t+4, g) */
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K4_TF32, TC_FRAG_C, 31, 3, &r, &c) == TC_OK && r == 15 && c == 7);
        /* m16n8k32 8-bit: a_i row g for i in 0..3 and 8..11, else g+8; column 4t + i%4, +16 from a8;
           b_i row 4t + i%4, +16 from b4; column g */
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K32_E4M3, TC_FRAG_A, 5, 6, &r, &c) == TC_OK && r == 9 && c == 6);    /* g=1,t=1 */
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K32_E4M3, TC_FRAG_A, 5, 9, &r, &c) == TC_OK && r == 1 && c == 21);
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K32_E4M3, TC_FRAG_A, 31, 15, &r, &c) == TC_OK && r == 15 && c == 31);
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K32_E4M3, TC_FRAG_B, 6, 5, &r, &c) == TC_OK && r == 25 && c == 1);   /* g=1,t=2 */
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K32_E4M3, TC_FRAG_B, 6, 2, &r, &c) == TC_OK && r == 10 && c == 1);
    }
    /* Same-layout families (PTX ISA): bf16 is laid out as f16; a sparse A as
       the dense A of half its K on the compressed tile; a sparse B as the
       dense B of its K; C alike everywhere. */
    {
        static const struct { tc_mma_instr x, y; int fa, fb; } same_as[] = {
            { TC_MMA_M16N8K8_BF16, TC_MMA_M16N8K8_F16, 1, 1 },
            { TC_MMA_M16N8K16_BF16, TC_MMA_M16N8K16_F16, 1, 1 },
            { TC_MMA_SP_M16N8K16_F16, TC_MMA_M16N8K8_F16, 1, 0 },
            { TC_MMA_SP_M16N8K16_F16, TC_MMA_M16N8K16_F16, 0, 1 },
            { TC_MMA_SP_M16N8K32_F16, TC_MMA_M16N8K16_F16, 1, 0 },
            { TC_MMA_SP_M16N8K16_BF16, TC_MMA_M16N8K8_BF16, 1, 0 },
            { TC_MMA_SP_M16N8K16_BF16, TC_MMA_M16N8K16_BF16, 0, 1 },
            { TC_MMA_SP_M16N8K32_BF16, TC_MMA_SP_M16N8K32_F16, 1, 1 },
            { TC_MMA_SP_M16N8K8_TF32, TC_MMA_M16N8K4_TF32, 1, 0 },
            { TC_MMA_SP_M16N8K8_TF32, TC_MMA_M16N8K8_TF32, 0, 1 },
            { TC_MMA_SP_M16N8K16_TF32, TC_MMA_M16N8K8_TF32, 1, 0 },
            { TC_MMA_M16N8K32_E5M2, TC_MMA_M16N8K32_E4M3, 1, 1 },
            /* sm_120 kind::f8f6f4: FP6 and FP4 one per byte, as FP8 */
            { TC_MMA_M16N8K32_E2M1, TC_MMA_M16N8K32_E4M3, 1, 1 },
            { TC_MMA_M16N8K32_E2M3, TC_MMA_M16N8K32_E4M3, 1, 1 },
            { TC_MMA_M16N8K32_E3M2, TC_MMA_M16N8K32_E4M3, 1, 1 },
            { TC_MMA_M16N8K32_E4M3_E2M1, TC_MMA_M16N8K32_E4M3, 1, 1 },
            { TC_MMA_M16N8K32_E2M1_E5M2, TC_MMA_M16N8K32_E4M3, 1, 1 },
            { TC_MMA_M16N8K32_E3M2_E2M3, TC_MMA_M16N8K32_E4M3, 1, 1 },
        };
        size_t k;
        for (k = 0; k < sizeof same_as / sizeof same_as[0]; k++) {
            tc_mma_instr_info ix, iy;
            int diff = 0, r1, c1, r2, c2;
            CHECK_STATUS(tc_mma_instr_get(same_as[k].x, &ix), TC_OK);
            CHECK_STATUS(tc_mma_instr_get(same_as[k].y, &iy), TC_OK);
            for (f = TC_FRAG_A; f <= TC_FRAG_C; f++) {
                int cnt = f == TC_FRAG_A ? ix.a_elems : f == TC_FRAG_B ? ix.b_elems : ix.c_elems;
                int cy = f == TC_FRAG_A ? iy.a_elems : f == TC_FRAG_B ? iy.b_elems : iy.c_elems;
                if ((f == TC_FRAG_A && !same_as[k].fa) || (f == TC_FRAG_B && !same_as[k].fb)) continue;
                if (cnt != cy) { diff++; continue; }
                for (lane = 0; lane < 32; lane++)
                    for (i = 0; i < cnt; i++)
                        if (tc_mma_frag_coord(same_as[k].x, (tc_frag)f, lane, i, &r1, &c1) != TC_OK ||
                            tc_mma_frag_coord(same_as[k].y, (tc_frag)f, lane, i, &r2, &c2) != TC_OK || r1 != r2 || c1 != c2) diff++;
            }
            CHECK(diff == 0);
        }
    }
}

/* tc_dot_fma and tc_dot_exact: statuses, k = 0, and the output untouched on error. */
static void test_dot_status(void) {
    float a[4] = { 1.5f, -2.0f, 0.25f, 8.0f }, b[4] = { 2.0f, 0.5f, 4.0f, -1.0f }, x;
    int m;
    for (m = 0; m < 2; m++) {
        tc_status (*dot)(int, const float *, int, const float *, int, float, float *) = m ? tc_dot_exact : tc_dot_fma;
        x = 0; CHECK_STATUS(dot(4, a, 1, b, 1, 0.5f, &x), TC_OK); CHECK(x == 3.0f - 1.0f + 1.0f - 8.0f + 0.5f);
        x = 0; CHECK_STATUS(dot(2, a, 2, b, 2, 0.0f, &x), TC_OK); CHECK(x == 3.0f + 1.0f);
        x = 0; CHECK_STATUS(dot(2, a, 3, b, 1, 0.0f, &x), TC_OK); CHECK(x == 3.0f + 4.0f);   /* a[0]*b[0] + a[3]*b[1] */
        /* k = 0 gives c, bit for bit; the vectors are not read and may be NULL */
        x = 0; CHECK_STATUS(dot(0, a, 1, b, 1, 2.5f, &x), TC_OK); CHECK(x == 2.5f);
        x = 0; CHECK_STATUS(dot(0, NULL, 1, NULL, 1, -0.0f, &x), TC_OK); CHECK_BITS(0, tct_f2u(x), 0x80000000u);
        x = 0; CHECK_STATUS(dot(0, a, 1, b, 1, INFINITY, &x), TC_OK); CHECK(x == INFINITY);
        /* refused, *out untouched */
        x = 42.0f;
        CHECK_STATUS(dot(-1, a, 1, b, 1, 0.0f, &x), TC_ERR_SIZE);
        CHECK_STATUS(dot(INT_MIN, a, 1, b, 1, 0.0f, &x), TC_ERR_SIZE);
        CHECK_STATUS(dot(4, a, 0, b, 1, 0.0f, &x), TC_ERR_ARG);
        CHECK_STATUS(dot(4, a, 1, b, 0, 0.0f, &x), TC_ERR_ARG);
        CHECK_STATUS(dot(4, a, -1, b, 1, 0.0f, &x), TC_ERR_ARG);
        CHECK_STATUS(dot(4, a, 1, b, INT_MIN, 0.0f, &x), TC_ERR_ARG);
        CHECK_STATUS(dot(0, a, 0, b, 1, 0.0f, &x), TC_ERR_ARG);   /* a stride below 1 even with nothing to walk */
        CHECK_STATUS(dot(4, NULL, 1, b, 1, 0.0f, &x), TC_ERR_NULL);
        CHECK_STATUS(dot(4, a, 1, NULL, 1, 0.0f, &x), TC_ERR_NULL);
        CHECK(x == 42.0f);
        CHECK_STATUS(dot(4, a, 1, b, 1, 0.0f, NULL), TC_ERR_NULL);
        CHECK_STATUS(dot(0, a, 1, b, 1, 0.0f, NULL), TC_ERR_NULL);
    }
}

/* tc_gemm_ex's descriptor: leading dimensions 0 are packed and give the
   bits of the explicit ones and of padded storage; the options reach the
   model (checked against the oracle under Khattak's rule); bad descriptors. */
static void test_gemm_desc(void) {
    size_t ci;
    long bad = 0, cases = 0;
    enum { M = 4, N = 5, K = 40, PA = 3, PB = 1, PC = 2, PD = 5 };
    for (ci = 0; ci < sizeof combos / sizeof combos[0]; ci++) {
        const combo *cb = &combos[ci];
        float A[M * K], Ap[M * (K + PA)], B[K * N], Bp[K * (N + PB)], C[M * N], Cp[M * (N + PC)];
        float D0[M * N], D1[M * N], D2[M * N], Dp[M * (N + PD)], at[K], bt[K];
        tc_gemm_desc d;
        oracle_cfg o;
        int i, j, k, use_c;
        tct_seed(0xDE5Cu + ci);
        for (i = 0; i < M * K; i++) A[i] = random_value(cb->in, 1, 0);
        for (i = 0; i < K * N; i++) B[i] = random_value(cb->in, 1, -3);
        for (i = 0; i < M * N; i++) C[i] = random_value(cb->out, 1, 2);
        for (i = 0; i < M; i++) {
            for (k = 0; k < K + PA; k++) Ap[i * (K + PA) + k] = k < K ? A[i * K + k] : NAN;
            for (j = 0; j < N + PC; j++) Cp[i * (N + PC) + j] = j < N ? C[i * N + j] : NAN;
        }
        for (k = 0; k < K; k++) for (j = 0; j < N + PB; j++) Bp[k * (N + PB) + j] = j < N ? B[k * N + j] : NAN;
        for (use_c = 0; use_c < 2; use_c++) {
            CHECK_STATUS(tc_gemm(cb->arch, cb->in, cb->out, M, N, K, A, K, B, N, use_c ? C : NULL, N, D0, N), TC_OK);
            memset(&d, 0, sizeof d);
            d.arch = cb->arch; d.in = cb->in; d.out = cb->out; d.M = M; d.N = N; d.K = K;
            d.A = A; d.B = B; d.C = use_c ? C : NULL; d.D = D1;
            CHECK_STATUS(tc_gemm_ex(&d), TC_OK);   /* every ld 0: packed */
            d.lda = K; d.ldb = N; d.ldc = N; d.ldd = N; d.D = D2;
            CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
            d.A = Ap; d.lda = K + PA; d.B = Bp; d.ldb = N + PB; d.C = use_c ? Cp : NULL; d.ldc = N + PC; d.D = Dp; d.ldd = N + PD;
            CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
            for (i = 0; i < M; i++) for (j = 0; j < N; j++) {
                cases++;
                if (!same(D0[i * N + j], D1[i * N + j]) || !same(D0[i * N + j], D2[i * N + j]) || !same(D0[i * N + j], Dp[i * (N + PD) + j])) bad++;
            }
        }
        /* options in the descriptor: Khattak's rule, against the oracle */
        memset(&d, 0, sizeof d);
        d.arch = cb->arch; d.in = cb->in; d.out = cb->out; d.M = M; d.N = N; d.K = K;
        d.A = A; d.B = B; d.C = C; d.D = D1;
        d.options.zero_rule = TC_MMA_ZEROS_KHATTAK;
        CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
        CHECK(oracle_setup(&o, cb->arch, cb->in, cb->out, 1, 0));
        for (i = 0; i < M; i++) for (j = 0; j < N; j++) {
            for (k = 0; k < K; k++) {
                at[k] = cb->in == TC_TF32 ? tc_tf32_truncate(A[i * K + k]) : A[i * K + k];
                bt[k] = cb->in == TC_TF32 ? tc_tf32_truncate(B[k * N + j]) : B[k * N + j];
            }
            cases++;
            if (!same(D1[i * N + j], oracle_dot(&o, K, at, bt, C[i * N + j]))) bad++;
        }
    }
    CHECK(bad == 0);
    CHECK(cases == (long)(sizeof combos / sizeof combos[0]) * 3 * M * N);
    /* bad descriptors: D untouched */
    {
        float a[16], b[16], dd[16];
        tc_gemm_desc d;
        int i;
        for (i = 0; i < 16; i++) { a[i] = 1.0f; b[i] = 1.0f; dd[i] = 42.0f; }
        CHECK_STATUS(tc_gemm_ex(NULL), TC_ERR_NULL);
        memset(&d, 0, sizeof d);
        d.arch = TC_ARCH_A100; d.in = TC_FP16; d.out = TC_FP32; d.M = 4; d.N = 4; d.K = 4;
        d.A = a; d.B = b; d.D = dd;
        d.A = NULL; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_NULL); d.A = a;
        d.B = NULL; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_NULL); d.B = b;
        d.D = NULL; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_NULL); d.D = dd;
        d.M = -1; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_SIZE); d.M = 4;
        d.K = -1; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_SIZE); d.K = 4;
        d.lda = 3; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_SHAPE); d.lda = 0;
        d.ldd = 2; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_SHAPE); d.ldd = 0;
        d.arch = TC_ARCH_V100; d.in = TC_BF16; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARCH); d.arch = TC_ARCH_A100;
        d.out = TC_FP16; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_DTYPE); d.in = TC_FP16; d.out = TC_FP32;
        d.options.group = TC_MMA_MAX_GROUP + 1; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARG); d.options.group = 0;
        d.options.frac_bits = 41; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARG); d.options.frac_bits = 0;
        for (i = 0; i < 16; i++) if (dd[i] != 42.0f) bad++;
        CHECK(bad == 0);
        CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
        CHECK(dd[0] == 4.0f && dd[15] == 4.0f);
    }
}

/* ---------------------------------------------------------- bad input */

static void test_bad_input(void) {
    float A[64], B[64], C[64], D[64], x;
    tc_mma_params p = { 0, 0, 0, 0, 0, 0, 0 };
    tc_mma_options bad_opt = { (tc_mma_zero_rule)7, 0, 0, TC_MMA_ZERO_SIGN_SUM, TC_FP32 };
    int i, r, c;
    for (i = 0; i < 64; i++) { A[i] = 1.0f; B[i] = 1.0f; C[i] = 0.0f; D[i] = 42.0f; }
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 4, 4, 4, NULL, 4, B, 4, C, 4, D, 4), TC_ERR_NULL);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 4, 4, 4, A, 4, NULL, 4, C, 4, D, 4), TC_ERR_NULL);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, NULL, 4), TC_ERR_NULL);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, -1, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_SIZE);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 4, -1, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_SIZE);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 4, 4, -1, A, 4, B, 4, C, 4, D, 4), TC_ERR_SIZE);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 4, 4, 4, A, 3, B, 4, C, 4, D, 4), TC_ERR_SHAPE);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, D, 2), TC_ERR_SHAPE);
    CHECK_STATUS(tc_gemm(TC_ARCH_V100, TC_BF16, TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_ARCH);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_E4M3, TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_ARCH);
    CHECK_STATUS(tc_gemm((tc_arch)9, TC_FP16, TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_ARCH);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_BF16, TC_FP16, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_DTYPE);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_BF16, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_DTYPE);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP32, TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_DTYPE);
    {   /* section 1b's formats: tc_mma_params_of takes none of them, on any architecture; tc_gemm on B200
           and sm_120 takes FP6/FP4 through kind::f8f6f4 (tests/test_scaled.c), which needs values of them */
        static const tc_dtype small[] = { TC_E2M1, TC_E2M3, TC_E3M2, TC_UE8M0, TC_UE4M3 };
        tc_mma_params p;
        int a, t;
        for (a = 0; a < TC_ARCH_COUNT; a++)
            for (t = 0; t < (int)(sizeof small / sizeof small[0]); t++) {
                CHECK_STATUS(tc_mma_params_of((tc_arch)a, small[t], TC_FP32, &p), TC_ERR_DTYPE);
                CHECK_STATUS(tc_gemm((tc_arch)a, small[t], TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, D, 4),
                             (a == TC_ARCH_B200 || a == TC_ARCH_RTX_BLACKWELL) && t < 3 ? TC_OK : TC_ERR_DTYPE);
            }
    }
    {
        tc_gemm_desc gd;
        memset(&gd, 0, sizeof gd);
        gd.arch = TC_ARCH_A100; gd.in = TC_FP16; gd.out = TC_FP32; gd.M = 4; gd.N = 4; gd.K = 4;
        gd.A = A; gd.lda = 4; gd.B = B; gd.ldb = 4; gd.C = C; gd.ldc = 4; gd.D = D; gd.ldd = 4;
        gd.options = bad_opt;
        CHECK_STATUS(tc_gemm_ex(&gd), TC_ERR_ARG);
        gd.options.zero_rule = TC_MMA_ZEROS_MMASIM; gd.options.zero_sign = (tc_mma_zero_sign)INT_MAX;
        CHECK_STATUS(tc_gemm_ex(&gd), TC_ERR_ARG);
        gd.options.zero_sign = TC_MMA_ZERO_SIGN_PLUS; gd.arch = TC_ARCH_B200;
        CHECK_STATUS(tc_gemm_ex(&gd), TC_OK);
    }
    A[5] = 0.1f;   /* not an fp16 value */
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_NOT_REPRESENTABLE);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_TF32, TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_OK);   /* raw fp32 is fine for tf32 */
    A[5] = 1.0f; B[3] = 1e6f;   /* beyond fp16 */
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_NOT_REPRESENTABLE);
    B[3] = INFINITY;   /* e4m3 has no Inf */
    CHECK_STATUS(tc_gemm(TC_ARCH_H100, TC_E4M3, TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_NOT_REPRESENTABLE);
    CHECK_STATUS(tc_gemm(TC_ARCH_H100, TC_E5M2, TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_OK);
    B[3] = 1.0f; C[2] = 0.1f;   /* C must be an fp16 value for fp16 output */
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP16, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_NOT_REPRESENTABLE);
    for (i = 0; i < 16; i++) D[i] = 42.0f;
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP16, 4, 4, 4, A, 4, B, 4, C, 4, D, 4), TC_ERR_NOT_REPRESENTABLE);
    CHECK(D[0] == 42.0f);   /* untouched on error */
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 0, 0, 0, NULL, 0, NULL, 0, NULL, 0, NULL, 0), TC_OK);
    C[2] = 0.5f;
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, 0, NULL, 0, NULL, 2, C, 4, D, 4), TC_OK);   /* K = 0: D = C */
    CHECK(D[0] == C[0] && D[5] == C[5]);
    /* tc_mma_dot: k must be an instruction's K; bad combinations give NaN. */
    x = tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 12, A, B, 0.0f); CHECK(x != x);
    x = tc_mma_dot(TC_ARCH_V100, TC_FP16, TC_FP32, 8, A, B, 0.0f);  CHECK(x != x);
    x = tc_mma_dot(TC_ARCH_A100, TC_TF32, TC_FP32, 16, A, B, 0.0f); CHECK(x != x);
    x = tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 16, NULL, B, 0.0f); CHECK(x != x);
    x = tc_mma_dot(TC_ARCH_V100, TC_TF32, TC_FP32, 4, A, B, 0.0f);  CHECK(x != x);
    x = tc_mma_dot(TC_ARCH_H100, TC_E4M3, TC_FP32, 8, A, B, 0.0f);  CHECK(x != x);   /* FP8: K 16 and 32 only */
    x = tc_mma_dot(TC_ARCH_B200, TC_E5M2, TC_FP32, 64, A, B, 0.0f); CHECK(x != x);
    x = tc_mma_dot(TC_ARCH_ADA, TC_E4M3, TC_FP32, 8, A, B, 0.0f);   CHECK(x != x);
    x = tc_mma_dot(TC_ARCH_B200, TC_TF32, TC_FP32, 16, A, B, 0.0f); CHECK(x != x);
    x = tc_mma_dot(TC_ARCH_ADA, TC_BF16, TC_FP16, 16, A, B, 0.0f);  CHECK(x != x);
    x = tc_mma_dot(TC_ARCH_COUNT, TC_FP16, TC_FP32, 16, A, B, 0.0f); CHECK(x != x);
    x = tc_mma_dot((tc_arch)-1, TC_FP16, TC_FP32, 16, A, B, 0.0f);  CHECK(x != x);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_COUNT, TC_FP16, TC_FP32, &p), TC_ERR_ARCH);
    for (i = 0; i < TC_ARCH_COUNT; i++) CHECK(tc_arch_name((tc_arch)i) != NULL);
    CHECK(tc_arch_name(TC_ARCH_COUNT) == NULL && tc_arch_name((tc_arch)-1) == NULL);
    CHECK(strcmp(tc_arch_name(TC_ARCH_ADA), "Ada") == 0 && strcmp(tc_arch_name(TC_ARCH_B200), "B200") == 0);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_ADA, TC_TF32, TC_FP16, &p), TC_ERR_DTYPE);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_B200, TC_FP32, TC_FP32, &p), TC_ERR_DTYPE);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_B200, (tc_dtype)INT_MAX, TC_FP32, &p), TC_ERR_DTYPE);
    {
        tc_mma_options so;
        memset(&so, 0, sizeof so);
        so.zero_sign = (tc_mma_zero_sign)2;
        x = tc_mma_dot_ex(TC_ARCH_A100, TC_FP16, TC_FP32, 16, A, B, 0.0f, &so); CHECK(x != x);
        so.zero_sign = (tc_mma_zero_sign)-1;
        x = tc_mma_dot_ex(TC_ARCH_A100, TC_FP16, TC_FP32, 16, A, B, 0.0f, &so); CHECK(x != x);
    }
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 16, A, B, 0.0f) == 16.0f);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_A100, TC_FP16, TC_FP32, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_H100, TC_E4M3, TC_FP32, &p), TC_OK);
    CHECK(p.frac_bits == 13 && p.group == 32 && p.out_mbits == 13);
    CHECK_STATUS(tc_mma_frag_coord(TC_MMA_M16N8K16_F16, TC_FRAG_A, 32, 0, &r, &c), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_frag_coord(TC_MMA_M16N8K16_F16, TC_FRAG_A, 0, 8, &r, &c), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_frag_coord(TC_MMA_INSTR_COUNT, TC_FRAG_A, 0, 0, &r, &c), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_frag_coord((tc_mma_instr)-1, TC_FRAG_A, 0, 0, &r, &c), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_frag_coord(TC_MMA_M16N8K16_F16, TC_FRAG_A, 0, 0, NULL, &c), TC_ERR_NULL);
    x = 42.0f; CHECK_STATUS(tc_dot_exact(-1, A, 1, B, 1, 0.0f, &x), TC_ERR_SIZE); CHECK(x == 42.0f);
    x = 42.0f; CHECK_STATUS(tc_dot_fma(2, A, 0, B, 1, 0.0f, &x), TC_ERR_ARG);    CHECK(x == 42.0f);
}

/* ------------------------------------------- wgmma, tcgen05.mma */

/* One instruction of each variable-N kind (H100 wgmma, B200 tcgen05.mma
   kind::f16/tf32) at several widths through tc_mma_run: every output
   element equals tc_mma_dot_ex on the same row and column with the kind's
   B type and (same-type kinds) the independent oracle, bit for bit;
   operands mix random codes (NaN, Inf, subnormals), normal values and tiny
   ones. Every legal N is accepted, the rest refused with TC_ERR_SHAPE;
   mma.sync kinds run at their one N on each of their architectures. */
static void test_wide_kinds(void) {
    static float A[128 * 32], B[32 * 256], C[128 * 256], D[128 * 256];
    static const int bad_n[] = { 0, 4, 12, 260, 264, -1, -8, INT_MAX, INT_MIN };
    float col[32], row[32];
    int kind, wi, o, i, j, k, n, a;
    long bad = 0, bad_oracle = 0, checked = 0, n_wide = 0;
    for (kind = 0; kind < TC_MMA_INSTR_COUNT; kind++) {
        tc_mma_instr_info in;
        tc_mma_options opt;
        tc_arch arch = TC_ARCH_COUNT;
        CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)kind, &in), TC_OK);
        memset(&opt, 0, sizeof opt);
        opt.b_type = in.b_type;
        for (a = TC_ARCH_COUNT - 1; a >= 0; a--) {
            if (!(in.archs & TC_ARCH_BIT(a))) {   /* not modelled there */
                CHECK_STATUS(tc_mma_run((tc_arch)a, (tc_mma_instr)kind, in.n, TC_FP32, A, B, C, D),
                             in.sparse_group || block_scaled_row(&in) ? TC_ERR_ARG : TC_ERR_ARCH);
                continue;
            }
            arch = (tc_arch)a;
        }
        if (is_f8f6f4_row(&in)) continue;   /* kind::f8f6f4: tests/test_scaled.c */
        if (tc_format_of(in.in)->exponent_bits == 0) {   /* integer kinds: tc_imma_dot (tests/test_imma.c) */
            CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, in.n, TC_FP32, A, B, C, D), TC_ERR_DTYPE);
            continue;
        }
        if (!in.n_step) {   /* mma.sync: its one N only; sparse kinds need metadata, refused */
            CHECK(tc_mma_instr_n_ok((tc_mma_instr)kind, in.n) && !tc_mma_instr_n_ok((tc_mma_instr)kind, in.n + 8));
            CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, in.n + 8, TC_FP32, A, B, C, D), in.sparse_group ? TC_ERR_ARG : TC_ERR_SHAPE);
            if (in.sparse_group) continue;
            for (i = 0; i < in.m * in.k; i++) A[i] = random_value(in.in, 1, 0);
            for (i = 0; i < in.k * in.n; i++) B[i] = random_value(in.b_type, 1, -2);
            CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, in.n, TC_FP32, A, B, NULL, D), TC_OK);
            for (k = 0; k < in.k; k++) { row[k] = A[(in.m - 1) * in.k + k]; col[k] = B[k * in.n + in.n - 1]; }
            CHECK(same(D[in.m * in.n - 1], tc_mma_dot_ex(arch, in.in, TC_FP32, in.k, row, col, 0.0f, &opt)));
            continue;
        }
        if (in.sparse_group) continue;   /* wgmma.sp: test_sparse_wgmma */
        n_wide++;
        /* one architecture each: wgmma H100, tcgen05 B200 */
        CHECK(in.archs == TC_ARCH_BIT(arch) && (arch == (in.threads == 128 ? TC_ARCH_H100 : TC_ARCH_B200)));
        for (n = -16; n <= 272; n++)
            CHECK(tc_mma_instr_n_ok((tc_mma_instr)kind, n) == (n >= in.n_step && n <= 256 && n % in.n_step == 0));
        for (i = 0; i < (int)(sizeof bad_n / sizeof bad_n[0]); i++) {
            D[0] = 42.0f;
            CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, bad_n[i], TC_FP32, A, B, C, D), TC_ERR_SHAPE);
            CHECK(D[0] == 42.0f);
        }
        if (in.n_step == 16) CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, 8, TC_FP32, A, B, C, D), TC_ERR_SHAPE);
        for (o = 0; o < 2; o++) {
            tc_dtype out = o ? TC_FP16 : TC_FP32;
            oracle_cfg oc;
            int use_oracle = in.b_type == in.in && oracle_setup(&oc, arch, in.in, out, 0, 0);
            if (out == TC_FP16 && !in.fp16_accumulate) {
                CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, 256, out, A, B, C, D), TC_ERR_DTYPE);
                continue;
            }
            for (wi = 0; wi < 3; wi++) {
                const int N = wi == 0 ? in.n_step : wi == 1 ? 9 * in.n_step : 256;
                tct_seed(0x3A9u + (uint32_t)(kind * 16 + o * 4 + wi));
                for (i = 0; i < in.m * in.k; i++) A[i] = random_value(in.in, (int)(tct_rand32() % 3), 0);
                for (i = 0; i < in.k * N; i++) B[i] = random_value(in.b_type, (int)(tct_rand32() % 3), -2);
                for (i = 0; i < in.m * N; i++) C[i] = random_value(out, (int)(tct_rand32() % 3), 3);
                CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, N, out, A, B, C, D), TC_OK);
                for (i = 0; i < in.m; i++) for (j = 0; j < N; j++) {
                    for (k = 0; k < in.k; k++) { row[k] = A[i * in.k + k]; col[k] = B[k * N + j]; }
                    bad += !same(D[i * N + j], tc_mma_dot_ex(arch, in.in, out, in.k, row, col, C[i * N + j], &opt));
                    if (use_oracle) {
                        for (k = 0; in.in == TC_TF32 && k < in.k; k++) { row[k] = tc_tf32_truncate(row[k]); col[k] = tc_tf32_truncate(col[k]); }
                        bad_oracle += !same(D[i * N + j], oracle_dot(&oc, in.k, row, col, C[i * N + j]));
                    }
                    checked++;
                }
                /* C = NULL is zero; D may be C */
                CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, N, out, A, B, NULL, D), TC_OK);
                for (k = 0; k < in.k; k++) { row[k] = A[k]; col[k] = B[k * N]; }
                CHECK(same(D[0], tc_mma_dot_ex(arch, in.in, out, in.k, row, col, 0.0f, &opt)));
                CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, N, out, A, B, C, D), TC_OK);
                CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, N, out, A, B, C, C), TC_OK);
                CHECK(memcmp(C, D, sizeof(float) * (size_t)in.m * (size_t)N) == 0);
            }
        }
        /* bad input: D untouched */
        for (i = 0; i < in.m * in.k; i++) A[i] = 1.0f;
        for (i = 0; i < in.k * 256; i++) B[i] = 1.0f;
        D[0] = 42.0f;
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, 256, TC_BF16, A, B, NULL, D), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, 256, (tc_dtype)-1, A, B, NULL, D), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, 256, TC_FP32, NULL, B, NULL, D), TC_ERR_NULL);
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, 256, TC_FP32, A, NULL, NULL, D), TC_ERR_NULL);
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, 256, TC_FP32, A, B, NULL, NULL), TC_ERR_NULL);
        CHECK_STATUS(tc_mma_run((tc_arch)-1, (tc_mma_instr)kind, 256, TC_FP32, A, B, NULL, D), TC_ERR_ARCH);
        CHECK_STATUS(tc_mma_run((tc_arch)INT_MAX, (tc_mma_instr)kind, 256, TC_FP32, A, B, NULL, D), TC_ERR_ARCH);
        B[3] = 1.0f + 1.0f / 4096;   /* more mantissa than any input type here holds (tf32 truncates: accepted) */
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, 256, TC_FP32, A, B, NULL, D), in.in == TC_TF32 ? TC_OK : TC_ERR_NOT_REPRESENTABLE);
        if (in.in != TC_TF32) CHECK(D[0] == 42.0f);
    }
    CHECK_STATUS(tc_mma_run(TC_ARCH_H100, (tc_mma_instr)-1, 8, TC_FP32, A, B, C, D), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_run(TC_ARCH_H100, TC_MMA_INSTR_COUNT, 8, TC_FP32, A, B, C, D), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_run(TC_ARCH_H100, (tc_mma_instr)INT_MAX, 8, TC_FP32, A, B, C, D), TC_ERR_ARG);
    CHECK(!tc_mma_instr_n_ok((tc_mma_instr)-1, 8) && !tc_mma_instr_n_ok(TC_MMA_INSTR_COUNT, 8));
    CHECK(n_wide == 13 && checked > 0 && bad == 0 && bad_oracle == 0);   /* 7 wgmma, 6 tcgen05 */
    tct_add(checked - bad, bad);
}

/* The sparse wgmma rows (numerics ASSUMED as every sparse kind's: the
   dense instruction on A with its zeros). For each, at N = 8, 72 and 256
   and each D type it offers: tc_sparse_gemm_ex on H100 of a pruned,
   compressed 64 x K A equals the dense wgmma row of the same types (K/2
   wide) run twice through tc_mma_run on the decompressed A (the K halves
   in turn, the second taking the first's D as C), bit for bit. Refused:
   tc_mma_run (sparse: its metadata has no place there), architectures
   without wgmma.sp numerics for the type (V100), an illegal metadata code;
   D untouched. */
static void test_sparse_wgmma(void) {
    static float A[64 * 64], V[64 * 32], B[64 * 256], C[64 * 256], D[64 * 256], W[64 * 256], Ah[64 * 32], Bh[32 * 256];
    static uint32_t meta[64 * 2];
    static const int widths[] = { 8, 72, 256 };
    int kind, dense, o, wi, i, j, words = 0, n_sp = 0;
    long bad = 0, checked = 0;
    for (kind = 0; kind < TC_MMA_INSTR_COUNT; kind++) {
        tc_mma_instr_info in, dn;
        tc_sparse_gemm_desc sd;
        CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)kind, &in), TC_OK);
        if (!in.sparse_group || in.threads != 128) continue;
        n_sp++;
        for (dense = 0; dense < TC_MMA_INSTR_COUNT; dense++) {
            CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)dense, &dn), TC_OK);
            if (dn.threads == 128 && !dn.sparse_group && dn.in == in.in && dn.b_type == in.b_type && 2 * dn.k == in.k) break;
        }
        CHECK(dense < TC_MMA_INSTR_COUNT && in.m == 64 && in.n == 256 && in.n_step == 8 && in.archs == dn.archs &&
              in.fp16_accumulate == dn.fp16_accumulate);
        if (dense == TC_MMA_INSTR_COUNT) continue;
        CHECK_STATUS(tc_mma_run(TC_ARCH_H100, (tc_mma_instr)kind, 256, TC_FP32, A, B, C, D), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_words(in.in, in.k, &words), TC_OK);
        for (o = 0; o <= in.fp16_accumulate; o++) {
            const tc_dtype out = o ? TC_FP16 : TC_FP32;
            for (wi = 0; wi < 3; wi++) {
                const int N = widths[wi], K = in.k, H = in.k / 2;
                tct_seed(0x5B9u + (uint32_t)(kind * 8 + o * 4 + wi));
                for (i = 0; i < 64 * K; i++) A[i] = random_value(in.in, 1, 0);
                for (i = 0; i < K * N; i++) B[i] = random_value(in.b_type, 1, -2);
                for (i = 0; i < 64 * N; i++) C[i] = tct_rand32() % 4 ? random_value(out, 1, 3) : 0.0f;
                CHECK_STATUS(tc_sparse_prune(in.in, 64, K, A, K, A, K, NULL), TC_OK);
                CHECK_STATUS(tc_sparse_compress(in.in, 64, K, A, K, V, H, meta, words, 0, NULL), TC_OK);
                memset(&sd, 0, sizeof sd);
                sd.gemm.arch = TC_ARCH_H100; sd.gemm.in = in.in; sd.gemm.out = out;
                sd.gemm.M = 64; sd.gemm.N = N; sd.gemm.K = K;
                sd.gemm.A = V; sd.gemm.B = B; sd.gemm.ldb = N; sd.gemm.C = C; sd.gemm.ldc = N; sd.gemm.D = D; sd.gemm.ldd = N;
                sd.gemm.options.b_type = in.b_type;
                sd.meta = meta;
                CHECK_STATUS(tc_sparse_gemm_ex(&sd), TC_OK);
                for (j = 0; j < 2; j++) {   /* the dense wgmma on each K half of the decompressed A */
                    for (i = 0; i < 64 * H; i++) Ah[i] = A[(i / H) * K + j * H + i % H];
                    for (i = 0; i < H * N; i++) Bh[i] = B[j * H * N + i];
                    CHECK_STATUS(tc_mma_run(TC_ARCH_H100, (tc_mma_instr)dense, N, out, Ah, Bh, j ? W : C, W), TC_OK);
                }
                for (i = 0; i < 64 * N; i++) bad += !same(D[i], W[i]);
                checked += 64 * N;
            }
        }
        /* refusals, D untouched */
        D[0] = 42.0f;
        sd.gemm.arch = TC_ARCH_V100;
        CHECK_STATUS(tc_sparse_gemm_ex(&sd), TC_ERR_ARCH);
        sd.gemm.arch = TC_ARCH_H100;
        meta[0] &= ~0xFu;   /* code 0: indices (0, 0), not an ordered pair; for tf32 not a pair code */
        CHECK_STATUS(tc_sparse_gemm_ex(&sd), TC_ERR_SPARSE_META);
        CHECK(D[0] == 42.0f);
    }
    CHECK(n_sp == 7 && checked > 0 && bad == 0);   /* f16, bf16, tf32 and the four FP8 pairings */
    tct_add(checked - bad, bad);
}

int main(void) {
    test_published();
    test_rules_2025();
    test_random();
    test_gemm_matches();
    test_mixed_fp8();
    test_turing();
    test_references();
    test_instr_table();
    test_layouts();
    test_dot_status();
    test_gemm_desc();
    test_bad_input();
    test_wide_kinds();
    test_sparse_wgmma();
    return tct_finish("test_mma");
}
