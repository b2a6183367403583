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

#include <math.h>
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
    int F, group, emin_in, emin_c, out_mbits, out_emin, out_emax, rne, khattak, floor;
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
        int pe = model_exp(a[i], o->emin_in) + model_exp(b[i], o->emin_in);
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
static int oracle_setup(oracle_cfg *o, tc_arch arch, tc_dtype in, tc_dtype out, int khattak) {
    int fp8 = in == TC_E4M3 || in == TC_E5M2, tf32 = in == TC_TF32;
    memset(o, 0, sizeof *o);
    if (arch == TC_ARCH_V100) { if (in != TC_FP16) return 0; o->F = 23; o->group = 4; o->floor = -131; }
    if (arch == TC_ARCH_A100) { if (fp8) return 0; o->F = 24; o->group = tf32 ? 4 : 8; o->floor = -132; }
    if (arch == TC_ARCH_H100) { o->F = fp8 ? 13 : 25; o->group = fp8 ? 32 : tf32 ? 8 : 16; o->floor = fp8 ? -121 : -133; }
    o->emin_in = type_emin(in);
    o->emin_c = out == TC_FP16 ? -14 : -126;
    o->out_mbits = out == TC_FP16 ? 10 : (fp8 && arch == TC_ARCH_H100) ? 13 : 23;
    o->out_emin = out == TC_FP16 ? -14 : -126;
    o->out_emax = out == TC_FP16 ? 15 : 127;
    o->rne = out == TC_FP16;
    o->khattak = khattak;
    return 1;
}

/* ------------------------------------------------ the named behaviours */

static float two(int e) { return (float)ldexp(1.0, e); }

static void test_published(void) {
    float a[16], b[16];
    int i;
    tc_mma_options wide = { TC_MMA_ZEROS_MMASIM, 0, 0 };

    /* Truncation without guard bits (Fasi et al. 2021, V100): 1 + 4 * 2^-24
       keeps no bit below 2^-23, so the sum stays 1 (exact 1 + 2^-22). */
    for (i = 0; i < 4; i++) { a[i] = 1.0f; b[i] = two(-24); }
    CHECK(tc_mma_dot(TC_ARCH_V100, TC_FP16, TC_FP32, 4, a, b, 1.0f) == 1.0f);
    /* A100 keeps one more bit (F = 24, MMA-Sim): the same sum is 1 + 2^-22. */
    for (i = 4; i < 8; i++) { a[i] = 0.0f; b[i] = 0.0f; }
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 8, a, b, 1.0f) == 1.0f + two(-22));
    /* ...and a plain fp32 FMA loop rounds each 1 + 2^-24 back to 1. */
    CHECK(tc_dot_fma(4, a, 1, b, 1, 1.0f) == 1.0f);
    CHECK(tc_dot_exact(4, a, 1, b, 1, 1.0f) == 1.0f + two(-22));

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
        for (rule = 0; rule < 2; rule++) {
            tc_mma_options opt = { (tc_mma_zero_rule)rule, 0, 0 };
            oracle_cfg o;
            long bad = 0;
            CHECK(oracle_setup(&o, cb->arch, cb->in, cb->out, rule));
            CHECK(o.F == p.frac_bits && o.group == p.group && (!rule || o.floor == p.exp_floor));
            tct_seed(0x5EED0000u + ci * 2u + (unsigned)rule);
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
        oracle_setup(&o, cb->arch, cb->in, cb->out, 0);
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

/* --------------------------------------------------- reference models */

static void test_references(void) {
    oracle_cfg exact;
    float a[300], b[300];
    int n, i;
    long bad = 0;
    /* tc_dot_exact = the oracle with an adder wide enough to lose nothing,
       rounded once to nearest-even; tc_dot_fma with k = 1 = libm's fmaf. */
    memset(&exact, 0, sizeof exact);
    exact.F = 1000; exact.group = 1000; exact.emin_in = -126; exact.emin_c = -126;
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
        if (!same(tc_dot_exact(k, a, 1, b, 1, c), oracle_dot(&exact, k, a, b, c))) bad++;
        if (!same(tc_dot_exact(1, a, 1, b, 1, c), fmaf(a[0], b[0], c)) && fmaf(a[0], b[0], c) == fmaf(a[0], b[0], c)) bad++;
    }
    tct_add(600 - bad, bad);
    /* Cancellation the fp32 loop gets wrong and the exact model gets right. */
    a[0] = 1e20f; b[0] = 1.0f; a[1] = 1.0f; b[1] = 1.0f; a[2] = -1e20f; b[2] = 1.0f;
    CHECK(tc_dot_exact(3, a, 1, b, 1, 0.0f) == 1.0f);
    CHECK(tc_dot_fma(3, a, 1, b, 1, 0.0f) == 0.0f);
    CHECK(tc_dot_exact(2, a, 2, b, 2, 0.0f) == 0.0f);            /* strides: a[0]*b[0] + a[2]*b[2] */
    CHECK_BITS(0, tct_f2u(tc_dot_exact(1, a, 1, b, 1, -0.0f) * 0.0f), 0u);
    a[0] = -0.0f; b[0] = 1.0f;
    CHECK_BITS(0, tct_f2u(tc_dot_exact(1, a, 1, b, 1, -0.0f)), 0x80000000u);
    a[0] = INFINITY; b[0] = 0.0f;
    CHECK(tc_dot_exact(1, a, 1, b, 1, 0.0f) != tc_dot_exact(1, a, 1, b, 1, 0.0f));
}

/* ------------------------------------------------------------ layouts */

static void test_layouts(void) {
    int s, f, lane, i;
    for (s = 0; s < TC_MMA_SHAPE_COUNT; s++) {
        int M = tc_mma_shape_m((tc_mma_shape)s), N = tc_mma_shape_n((tc_mma_shape)s), K = tc_mma_shape_k((tc_mma_shape)s);
        for (f = TC_FRAG_A; f <= TC_FRAG_C; f++) {
            int rows = f == TC_FRAG_B ? K : M, cols = f == TC_FRAG_A ? K : N;
            int seen[16 * 16], ok = 1, cnt = tc_mma_frag_count((tc_mma_shape)s, (tc_frag)f);
            memset(seen, 0, sizeof seen);
            CHECK(cnt * 32 == rows * cols);
            for (lane = 0; lane < 32; lane++) for (i = 0; i < cnt; i++) {
                int r = -1, c = -1;
                if (tc_mma_frag_coord((tc_mma_shape)s, (tc_frag)f, lane, i, &r, &c) != TC_OK || r < 0 || r >= rows || c < 0 || c >= cols) ok = 0;
                else seen[r * cols + c]++;
            }
            for (i = 0; i < rows * cols; i++) if (seen[i] != 1) ok = 0;
            CHECK(ok);   /* every element held exactly once */
        }
    }
    /* Spot checks against the PTX ISA figures. */
    {
        int r, c;
        tc_mma_frag_coord(TC_MMA_M16N8K16_F16, TC_FRAG_A, 5, 6, &r, &c);  CHECK(r == 9 && c == 10);   /* g=1,t=1: a6 (g+8, 2t+8) */
        tc_mma_frag_coord(TC_MMA_M16N8K16_F16, TC_FRAG_B, 7, 3, &r, &c);  CHECK(r == 15 && c == 1);   /* b3 (2t+9, g) */
        tc_mma_frag_coord(TC_MMA_M16N8K8_TF32, TC_FRAG_A, 6, 2, &r, &c);  CHECK(r == 1 && c == 6);    /* a2 (g, t+4) */
        tc_mma_frag_coord(TC_MMA_M16N8K8_TF32, TC_FRAG_B, 6, 1, &r, &c);  CHECK(r == 6 && c == 1);    /* b1 (t+4, g) */
        tc_mma_frag_coord(TC_MMA_M16N8K4_TF32, TC_FRAG_C, 31, 3, &r, &c); CHECK(r == 15 && c == 7);
    }
}

/* ---------------------------------------------------------- bad input */

static void test_bad_input(void) {
    float A[64], B[64], C[64], D[64], x;
    tc_mma_params p = { 0, 0, 0, 0, 0, 0 };
    tc_mma_options bad_opt = { (tc_mma_zero_rule)7, 0, 0 };
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
    CHECK_STATUS(tc_gemm_ex(TC_ARCH_A100, TC_FP16, TC_FP32, 4, 4, 4, A, 4, B, 4, C, 4, D, 4, &bad_opt), TC_ERR_ARG);
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
    CHECK(tc_mma_dot(TC_ARCH_A100, TC_FP16, TC_FP32, 16, A, B, 0.0f) == 16.0f);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_A100, TC_FP16, TC_FP32, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_H100, TC_E4M3, TC_FP32, &p), TC_OK);
    CHECK(p.frac_bits == 13 && p.group == 32 && p.out_mbits == 13);
    CHECK_STATUS(tc_mma_frag_coord(TC_MMA_M16N8K16_F16, TC_FRAG_A, 32, 0, &r, &c), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_frag_coord(TC_MMA_M16N8K16_F16, TC_FRAG_A, 0, 8, &r, &c), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_frag_coord(TC_MMA_SHAPE_COUNT, TC_FRAG_A, 0, 0, &r, &c), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_frag_coord(TC_MMA_M16N8K16_F16, TC_FRAG_A, 0, 0, NULL, &c), TC_ERR_NULL);
    x = tc_dot_exact(-1, A, 1, B, 1, 0.0f); CHECK(x != x);
    x = tc_dot_fma(2, A, 0, B, 1, 0.0f);    CHECK(x != x);
}

int main(void) {
    test_published();
    test_random();
    test_gemm_matches();
    test_references();
    test_layouts();
    test_bad_input();
    return tct_finish("test_mma");
}
