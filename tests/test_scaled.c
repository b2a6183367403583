/* test_scaled.c - section 2's Blackwell kinds (tcgen05.mma kind::f8f6f4,
   mxf8f6f4, mxf4, mxf4nvf4): named cases, random and adversarial
   differential tests against an independent model written here, the GEMM
   against the dot, block quantization -> GEMM against the fp32 product
   within the bound the formats give, and bad input.

   The oracle shares no arithmetic with tensorcore.h: it decodes codes with
   section 1b's tc_decode (verified exhaustively elsewhere), finds exponents
   with frexpl, holds every product and scale exactly in long double (64-bit
   significand: an FP8 product has at most 8 significant bits, an FP4
   16-sum times two ue4m3 significands at most 20), truncates with truncl
   and rounds by scaling. The rules it follows, written out from MMA-Sim's
   mmasim/simulator/arithmetic.py (fused_dot_add, nv_fused_dot_add,
   nv_fused_dot_add_with_block_scale) and docs/REFERENCE.md section 2.12:
     f8f6f4 kinds: each product's exponent is ea + eb + the two scale
       exponents (an operand subnormal in its type has the type's minimum
       exponent, a zero -126); E = the largest of those and c's; each
       product (times the scales) and c truncated toward zero to a multiple
       of 2^(E - F); exact sum; fp32 cut toward zero (fp16: nearest-even).
     FP4 kinds: per 16 products, the exact sum times the two scales is one
       term at exponent esa + esb (a zero ue4m3 scale: -126); then as above
       with F = 35; any NaN scale or a NaN c gives NaN. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>

static uint32_t rng = 0x5CA1EDu;
static uint32_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static uint32_t fbits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static float ffrom(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }

static const tc_dtype elem_types[] = { TC_E4M3, TC_E5M2, TC_E2M3, TC_E3M2, TC_E2M1 };
#define NTYPES ((int)(sizeof elem_types / sizeof elem_types[0]))

/* ------------------------------------------------------------- oracle */

static int emin_of(tc_dtype t) { return 1 - tc_format_of(t)->bias; }

/* The exponent a block FMA gives a finite value of a type with minimum
   exponent emin: floor(log2 |x|), at least emin; -126 for zero. */
static int oexp(long double x, int emin) {
    int e;
    if (x == 0) return -126;
    frexpl(x, &e);
    return e - 1 < emin ? emin : e - 1;
}

typedef struct { int F, fp16, plus; } orc_opt;

/* MMA-Sim mmasim/simulator/nv_ptx.py: F = 35 for the K-64 (FP4) kinds, else 25. */
static int orc_frac_bits(tc_mma_kind kind) { return kind == TC_KIND_MXF4 || kind == TC_KIND_MXF4NVF4 ? 35 : 25; }

/* S * 2^(E - F), S an integer, rounded to the output; the sign of a zero
   result from a non-zero S follows the option. */
static float orc_round(long double S, int E, const orc_opt *o) {
    long double v = ldexpl(S, E - o->F), ax = fabsl(v), q, r;
    int e, emin = o->fp16 ? -14 : -126, mb = o->fp16 ? 10 : 23;
    float out;
    if (S == 0) return 0.0f;
    frexpl(ax, &e);
    e = e - 1 < emin ? emin : e - 1;
    q = ldexpl(1.0L, e - mb);
    r = o->fp16 ? nearbyintl(ax / q) * q : truncl(ax / q) * q;
    if (o->fp16) out = r >= 65520.0L ? INFINITY : (float)r;
    else out = r >= ldexpl(1.0L, 128) ? INFINITY : (float)r;
    if (out == 0.0f && o->plus) return 0.0f;
    return v < 0 ? -out : out;
}

/* One f8f6f4-kind instruction (32 products), scale exponents xa, xb. */
static float orc_f8(tc_dtype ta, tc_dtype tb, const uint8_t *a, const uint8_t *b, int xa, int xb, float c,
                    const orc_opt *o, long double *budget) {
    long double va[32], vb[32], sum = c, S = 0;
    int i, E, pe[32], ec = oexp(c, o->fp16 ? -14 : -126);
    float r;
    for (i = 0; i < 32; i++) {
        va[i] = tc_decode(ta, a[i]);
        vb[i] = tc_decode(tb, b[i]);
        sum += va[i] * vb[i];
    }
    if (sum != sum) return ffrom(0x7FFFFFFFu);
    if (sum - sum != 0) return sum > 0 ? INFINITY : -INFINITY;
    E = ec;
    for (i = 0; i < 32; i++) {
        pe[i] = oexp(va[i], emin_of(ta)) + oexp(vb[i], emin_of(tb)) + xa + xb;
        if (pe[i] > E) E = pe[i];
    }
    for (i = 0; i < 32; i++) S += truncl(ldexpl(va[i] * vb[i], xa + xb + o->F - E));
    S += truncl(ldexpl((long double)c, o->F - E));
    r = orc_round(S, E, o);
    if (budget) *budget += 33.0L * ldexpl(1.0L, E - o->F) + fabsl((long double)r) * ldexpl(1.0L, -23) + ldexpl(1.0L, -149);
    return r;
}

/* A scale's exponent as the block FMA sees it; NaN codes are the caller's. */
static int scale_exp(tc_dtype st, uint8_t code) {
    return st == TC_UE8M0 ? (int)code - 127 : oexp(tc_decode(TC_UE4M3, code), -6);
}
static int scale_nan(tc_dtype st, uint8_t code) { return st == TC_UE8M0 ? code == 0xFF : code == 0x7F; }

/* One FP4-kind instruction: 64 products, 64 / block scales of each. */
static float orc_fp4(tc_dtype st, int block, const uint8_t *a, const uint8_t *b, const uint8_t *sa,
                     const uint8_t *sb, float c, const orc_opt *o, long double *budget) {
    long double term[4], S = 0;
    int j, i, te[4], E;
    float r;
    for (j = 0; j < 64 / block; j++) if (scale_nan(st, sa[j]) || scale_nan(st, sb[j])) return ffrom(0x7FFFFFFFu);
    if (c != c) return ffrom(0x7FFFFFFFu);
    if (c - c != 0) return c;
    E = oexp(c, -126);
    for (j = 0; j < 4; j++) {
        long double s = 0;
        int k = j * 16 / block;
        for (i = 0; i < 16; i++) s += (long double)tc_decode(TC_E2M1, a[j * 16 + i]) * tc_decode(TC_E2M1, b[j * 16 + i]);
        term[j] = s * tc_decode(st, sa[k]) * tc_decode(st, sb[k]);
        te[j] = scale_exp(st, sa[k]) + scale_exp(st, sb[k]);
        if (te[j] > E) E = te[j];
    }
    for (j = 0; j < 4; j++) S += truncl(ldexpl(term[j], o->F - E));
    S += truncl(ldexpl((long double)c, o->F - E));
    r = orc_round(S, E, o);
    if (budget) *budget += 5.0L * ldexpl(1.0L, E - o->F) + fabsl((long double)r) * ldexpl(1.0L, -23) + ldexpl(1.0L, -149);
    return r;
}

/* k / K_instr instructions chained. */
static float orc_dot(const tc_mma_scaled_type *t, int k, const uint8_t *a, const uint8_t *b, const uint8_t *sa,
                     const uint8_t *sb, float c, const orc_opt *o, long double *budget) {
    int k0;
    if (t->kind == TC_KIND_MXF4 || t->kind == TC_KIND_MXF4NVF4) {
        for (k0 = 0; k0 < k; k0 += 64)
            c = orc_fp4(t->scale_type, t->block, a + k0, b + k0, sa + k0 / t->block, sb + k0 / t->block, c, o, budget);
        return c;
    }
    for (k0 = 0; k0 < k; k0 += 32) {
        int xa = 0, xb = 0;
        if (t->kind == TC_KIND_MXF8F6F4) {
            if (sa[k0 / 32] == 0xFF || sb[k0 / 32] == 0xFF) { c = ffrom(0x7FFFFFFFu); continue; }
            xa = sa[k0 / 32] - 127; xb = sb[k0 / 32] - 127;
        }
        c = orc_f8(t->a_type, t->b_type, a + k0, b + k0, xa, xb, c, o, budget);
    }
    return c;
}

/* ------------------------------------------------------------ helpers */

static uint8_t rnd_code(tc_dtype t) { return (uint8_t)(rnd() & ((1u << tc_format_of(t)->total_bits) - 1u)); }

/* A random fp32 c: zero, tiny, or near the products' size 2^e. */
static float rnd_c(int e, int fp16) {
    float c;
    switch (rnd() % 6) {
    case 0: c = 0.0f; break;
    case 1: c = ldexpf((float)(rnd() & 0xFFFFFF), e - 24 - (int)(rnd() % 40)); break;
    default: c = ldexpf((float)(int32_t)(rnd() & 0x1FFFFFF) - (float)0x1000000, e - 24 + (int)(rnd() % 8) - 4); break;
    }
    if (fp16) c = tc_fp16_to_f32(tc_fp16_from_f32(c, TC_RN));
    return c;
}

static tc_arch cur_arch = TC_ARCH_B200;   /* the random tests run on both Blackwell architectures */
static tc_mma_scaled_type stype(tc_mma_kind kind, tc_dtype ta, tc_dtype tb, tc_dtype out, tc_dtype st, int block) {
    tc_mma_scaled_type t;
    memset(&t, 0, sizeof t);
    t.arch = cur_arch; t.kind = kind; t.a_type = ta; t.b_type = tb; t.out = out; t.scale_type = st; t.block = block;
    return t;
}

static long mism;
static void cmp(const tc_mma_scaled_type *t, int k, const uint8_t *a, const uint8_t *b, const uint8_t *sa,
                const uint8_t *sb, float c, const tc_mma_options *opt, long *n) {
    orc_opt o;
    float got = -1.0f, want;
    tc_status st;
    o.F = opt && opt->frac_bits ? opt->frac_bits : orc_frac_bits(t->kind);
    o.fp16 = t->out == TC_FP16;
    o.plus = opt && opt->zero_sign == TC_MMA_ZERO_SIGN_PLUS;
    want = orc_dot(t, k, a, b, sa, sb, c, &o, NULL);
    st = tc_mma_dot_scaled(t, k, a, b, sa, sb, c, opt, &got);
    (*n)++;
    if (st == TC_OK && fbits(got) == fbits(want)) return;
    if (++mism <= 10) {
        int i;
        printf("  %s %s x %s -> %s k %d c %a: got %a (0x%08x, status %d), want %a (0x%08x)\n  a:",
               tc_mma_kind_name(t->kind), tc_format_of(t->a_type)->name, tc_format_of(t->b_type)->name,
               tc_format_of(t->out)->name, k, c, got, fbits(got), st, want, fbits(want));
        for (i = 0; i < k; i++) printf(" %02x", a[i]);
        printf("\n  b:");
        for (i = 0; i < k; i++) printf(" %02x", b[i]);
        if (sa) printf("\n  scales %02x %02x", sa[0], sb[0]);
        printf("\n");
    }
}

/* ------------------------------------------------------------- tests */

/* Cases worked by hand from the rules above. */
static void test_named(void) {
    uint8_t a[64], b[64], sa[4], sb[4];
    tc_mma_scaled_type t = stype(TC_KIND_MXF8F6F4, TC_E4M3, TC_E4M3, TC_FP32, TC_UE8M0, 32);
    tc_mma_params p;
    float d = -1.0f;
    memset(&p, 0, sizeof p);
    memset(a, 0, sizeof a); memset(b, 0, sizeof b);
    /* The scale enters before alignment: 256*256 - 256*256 with scales
       2^-10 each puts E at -4, so c = 2^-40 falls below 2^(-4-25) and is
       cut: the result is 0, not the exact 2^-40. */
    a[0] = tc_e4m3_from_f32(256.0f, TC_RN); b[0] = a[0]; b[1] = a[0];
    a[1] = tc_e4m3_from_f32(-256.0f, TC_RN);
    sa[0] = sb[0] = 127 - 10;
    CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, sa, sb, ldexpf(1.0f, -40), NULL, &d), TC_OK);
    CHECK(fbits(d) == 0);
    /* Unscaled (scales 2^0) the same products put E at 16, and 2^-40 is
       cut too; with c = 2^-8 it survives unscaled but not at scale 2^-20. */
    sa[0] = sb[0] = 127;
    CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, sa, sb, ldexpf(1.0f, -8), NULL, &d), TC_OK);
    CHECK(d == ldexpf(1.0f, -8));
    sa[0] = sb[0] = 117;
    CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, sa, sb, ldexpf(1.0f, -30), NULL, &d), TC_OK);
    CHECK(d == 0.0f);
    /* All-zero codes with the largest scales: zeros have exponent -126
       each, plus 127 + 127, so E = 2 and a c of 2^-30 is cut away. */
    memset(a, 0, sizeof a); memset(b, 0, sizeof b);
    sa[0] = sb[0] = 254;
    CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, sa, sb, ldexpf(1.0f, -30), NULL, &d), TC_OK);
    CHECK(fbits(d) == 0);
    /* A NaN scale makes NaN even of zeros. */
    sa[0] = 0xFF;
    CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, sa, sb, 1.0f, NULL, &d), TC_OK);
    CHECK(fbits(d) == 0x7FFFFFFFu);
    /* Largest e4m3 products at the largest scales overflow to +Inf. */
    memset(a, 0x7E, 32); memset(b, 0x7E, 32);
    sa[0] = sb[0] = 254;
    CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, sa, sb, 0.0f, NULL, &d), TC_OK);
    CHECK(d == INFINITY);
    /* mxf4nvf4, ue4m3 per 16: 16 products 6*6 = 576, times 448*448, as one
       term at E = 2 * 8; c = 1 survives the F = 35 alignment but lies
       below the fp32 result's last bit (2^3) and is cut. */
    t = stype(TC_KIND_MXF4NVF4, TC_E2M1, TC_E2M1, TC_FP32, TC_UE4M3, 16);
    memset(a, 0, sizeof a); memset(b, 0, sizeof b);
    memset(a, 0x7, 16); memset(b, 0x7, 16);
    memset(sa, 0x7E, 4); memset(sb, 0x7E, 4);
    CHECK_STATUS(tc_mma_dot_scaled(&t, 64, a, b, sa, sb, 1.0f, NULL, &d), TC_OK);
    CHECK(d == 576.0f * 448.0f * 448.0f);
    /* A zero ue4m3 scale zeroes its term; a 0x7F scale is NaN. */
    sa[0] = 0;
    CHECK_STATUS(tc_mma_dot_scaled(&t, 64, a, b, sa, sb, 1.0f, NULL, &d), TC_OK);
    CHECK(d == 1.0f);
    sa[3] = 0x7F;
    CHECK_STATUS(tc_mma_dot_scaled(&t, 64, a, b, sa, sb, 1.0f, NULL, &d), TC_OK);
    CHECK(fbits(d) == 0x7FFFFFFFu);
    /* The parameters. */
    CHECK_STATUS(tc_mma_scaled_params_of(&t, &p), TC_OK);
    CHECK(p.frac_bits == 35 && p.group == 16 && p.instr_k == 64 && p.out_rounding == TC_RZ && p.out_mbits == 23);
    t = stype(TC_KIND_F8F6F4, TC_E2M1, TC_E3M2, TC_FP16, TC_FP32, 0);
    CHECK_STATUS(tc_mma_scaled_params_of(&t, &p), TC_OK);
    CHECK(p.frac_bits == 25 && p.group == 32 && p.instr_k == 32 && p.out_rounding == TC_RN && p.out_mbits == 10);
    CHECK(strcmp(tc_mma_kind_name(TC_KIND_MXF4NVF4), "mxf4nvf4") == 0 && tc_mma_kind_name(TC_KIND_COUNT) == NULL);
}

/* Random and adversarial codes, scales and c, every A/B type pair of the
   f8f6f4 kinds (fp32 and fp16 out), chained K, both signs of zero. */
static void test_random_f8(void) {
    int ia, ib, it, i, kinds, arch;
    long n = 0;
    uint8_t a[96], b[96], sa[3], sb[3];
    mism = 0;
    for (arch = 0; arch < 2; arch++)
    for (cur_arch = arch ? TC_ARCH_RTX_BLACKWELL : TC_ARCH_B200, ia = 0; ia < NTYPES; ia++)
        for (ib = 0; ib < NTYPES; ib++)
            for (kinds = 0; kinds < 3; kinds++) {
                tc_mma_scaled_type t = kinds == 2 ? stype(TC_KIND_MXF8F6F4, elem_types[ia], elem_types[ib], TC_FP32, TC_UE8M0, 32)
                                                  : stype(TC_KIND_F8F6F4, elem_types[ia], elem_types[ib], kinds ? TC_FP16 : TC_FP32, TC_FP32, 0);
                for (it = 0; it < 200; it++) {
                    int k = 32 * (1 + (int)(rnd() % 3)), mode = (int)(rnd() % 8), e;
                    tc_mma_options opt;
                    memset(&opt, 0, sizeof opt);
                    if (rnd() % 4 == 0) opt.zero_sign = TC_MMA_ZERO_SIGN_PLUS;
                    for (i = 0; i < k; i++) { a[i] = rnd_code(t.a_type); b[i] = rnd_code(t.b_type); }
                    for (i = 0; i < 3; i++) {
                        sa[i] = (uint8_t)(mode == 1 ? 254 : mode == 2 ? 0 : 100 + rnd() % 55);
                        sb[i] = (uint8_t)(mode == 1 ? 254 : mode == 2 ? rnd() % 4 : 100 + rnd() % 55);
                        if (rnd() % 300 == 0) sa[i] = 0xFF;
                        if (mode == 7) sa[i] = sb[i] = (uint8_t)(rnd() % 256);
                    }
                    if (mode == 3) memset(a, 0, 32);                             /* an all-zero block */
                    if (mode == 4)                                               /* cancellation: b pairs negate */
                        for (i = 0; i + 1 < k; i += 2) { a[i + 1] = a[i]; b[i + 1] = (uint8_t)(b[i] ^ (1u << (tc_format_of(t.b_type)->total_bits - 1))); }
                    if (mode == 5) for (i = 0; i < k; i++) { a[i] &= (uint8_t)((1u << tc_format_of(t.a_type)->mantissa_bits) | (1u << (tc_format_of(t.a_type)->total_bits - 1))) - 1u; }
                    e = 2 * (int)(rnd() % 8);
                    if (kinds == 2) e += sa[0] + sb[0] - 254;
                    cmp(&t, k, a, b, kinds == 2 ? sa : NULL, kinds == 2 ? sb : NULL, rnd_c(e, kinds == 1), &opt, &n);
                }
            }
    tct_add(n - mism, mism);
}

/* The FP4 kinds: every scale variant, random and adversarial. */
static void test_random_fp4(void) {
    static const struct { tc_arch arch; tc_mma_kind kind; tc_dtype st; int block; } v[] = {
        { TC_ARCH_B200, TC_KIND_MXF4, TC_UE8M0, 32 }, { TC_ARCH_B200, TC_KIND_MXF4NVF4, TC_UE8M0, 32 },
        { TC_ARCH_B200, TC_KIND_MXF4NVF4, TC_UE8M0, 16 }, { TC_ARCH_B200, TC_KIND_MXF4NVF4, TC_UE4M3, 16 },
        { TC_ARCH_RTX_BLACKWELL, TC_KIND_MXF4, TC_UE8M0, 32 }, { TC_ARCH_RTX_BLACKWELL, TC_KIND_MXF4NVF4, TC_UE8M0, 32 },
        { TC_ARCH_RTX_BLACKWELL, TC_KIND_MXF4NVF4, TC_UE4M3, 16 } };
    int iv, it, i;
    long n = 0;
    uint8_t a[128], b[128], sa[8], sb[8];
    mism = 0;
    for (iv = 0; iv < (int)(sizeof v / sizeof v[0]); iv++) {
        tc_mma_scaled_type t;
        cur_arch = v[iv].arch;
        t = stype(v[iv].kind, TC_E2M1, TC_E2M1, TC_FP32, v[iv].st, v[iv].block);
        for (it = 0; it < 3000; it++) {
            int k = 64 * (1 + (int)(rnd() % 2)), mode = (int)(rnd() % 7), ue4 = v[iv].st == TC_UE4M3, e;
            tc_mma_options opt;
            memset(&opt, 0, sizeof opt);
            if (rnd() % 4 == 0) opt.zero_sign = TC_MMA_ZERO_SIGN_PLUS;
            if (rnd() % 8 == 0) opt.frac_bits = 1 + (int)(rnd() % 40);
            for (i = 0; i < k; i++) { a[i] = rnd_code(TC_E2M1); b[i] = rnd_code(TC_E2M1); }
            for (i = 0; i < k / v[iv].block; i++) {
                if (ue4) { sa[i] = (uint8_t)(rnd() % 0x7F); sb[i] = (uint8_t)(rnd() % 0x7F); }
                else { sa[i] = (uint8_t)(100 + rnd() % 55); sb[i] = (uint8_t)(100 + rnd() % 55); }
                if (mode == 1) { sa[i] = ue4 ? 0x7E : 254; sb[i] = ue4 ? 0x7E : 254; }
                if (mode == 2) { sa[i] = (uint8_t)(rnd() % 8); sb[i] = (uint8_t)(rnd() % 8); }
                if (mode == 5) sa[i] = 0;   /* ue4m3: every term zero, at exponent -126 + esb */
                if (rnd() % 200 == 0) sb[i] = ue4 ? 0x7F : 0xFF;
            }
            if (mode == 3) memset(b + 16, 0, 32);
            if (mode == 4) for (i = 0; i + 1 < k; i += 2) { a[i + 1] = a[i]; b[i + 1] = (uint8_t)(b[i] ^ 8u); }
            e = ue4 ? (int)(rnd() % 30) - 10 : sa[0] + sb[0] - 254 + (int)(rnd() % 12);
            cmp(&t, k, a, b, sa, sb, rnd() % 50 ? rnd_c(e, 0) : (rnd() % 2 ? INFINITY : -INFINITY), &opt, &n);
        }
    }
    tct_add(n - mism, mism);
}

/* Scales of 1 (ue8m0 127) change nothing: mxf8f6f4 equals f8f6f4 bit for
   bit, every type pair. */
static void test_unit_scales(void) {
    int ia, ib, it, i;
    long n = 0, bad = 0;
    uint8_t a[64], b[64], one[2] = { 127, 127 };
    for (ia = 0; ia < NTYPES; ia++)
        for (ib = 0; ib < NTYPES; ib++) {
            tc_mma_scaled_type ts = stype(TC_KIND_MXF8F6F4, elem_types[ia], elem_types[ib], TC_FP32, TC_UE8M0, 32);
            tc_mma_scaled_type tu = stype(TC_KIND_F8F6F4, elem_types[ia], elem_types[ib], TC_FP32, TC_FP32, 0);
            for (it = 0; it < 200; it++) {
                float c = rnd_c(2 * (int)(rnd() % 8), 0), x = 1.0f, y = 2.0f;
                for (i = 0; i < 64; i++) { a[i] = rnd_code(ts.a_type); b[i] = rnd_code(ts.b_type); }
                tc_mma_dot_scaled(&ts, 64, a, b, one, one, c, NULL, &x);
                tc_mma_dot_scaled(&tu, 64, a, b, NULL, NULL, c, NULL, &y);
                n++;
                if (fbits(x) != fbits(y)) bad++;
            }
        }
    tct_add(n - bad, bad);
}

/* sm_120's mma.sync f8f6f4 on FP8 is section 2's m16n8k32 for that
   architecture: tc_mma_dot and tc_mma_dot_scaled (unscaled, and at scales
   of 1) agree bit for bit, fp32 and fp16 out. */
static void test_sm120_unscaled(void) {
    static const tc_dtype fp8[] = { TC_E4M3, TC_E5M2 };
    int it, i, o;
    long n = 0, bad = 0;
    uint8_t a[32], b[32], one[1] = { 127 };
    float fa[32], fb[32];
    cur_arch = TC_ARCH_RTX_BLACKWELL;
    for (o = 0; o < 2; o++)
        for (it = 0; it < 2000; it++) {
            tc_dtype t = fp8[it % 2], out = o ? TC_FP16 : TC_FP32;
            tc_mma_scaled_type tu = stype(TC_KIND_F8F6F4, t, t, out, TC_FP32, 0), ts = stype(TC_KIND_MXF8F6F4, t, t, TC_FP32, TC_UE8M0, 32);
            float c = rnd_c(2 * (int)(rnd() % 8), o), x = 1.0f, y = 2.0f, z;
            for (i = 0; i < 32; i++) { a[i] = rnd_code(t); b[i] = rnd_code(t); fa[i] = tc_decode(t, a[i]); fb[i] = tc_decode(t, b[i]); }
            z = tc_mma_dot(TC_ARCH_RTX_BLACKWELL, t, out, 32, fa, fb, c);
            tc_mma_dot_scaled(&tu, 32, a, b, NULL, NULL, c, NULL, &x);
            if (!o) tc_mma_dot_scaled(&ts, 32, a, b, one, one, c, NULL, &y);
            else y = x;
            n++;
            if (fbits(x) != fbits(z) || fbits(y) != fbits(z)) bad++;
        }
    cur_arch = TC_ARCH_B200;
    tct_add(n - bad, bad);
}

/* tc_gemm_scaled equals tc_mma_dot_scaled element by element, with leading
   dimensions, C, and D aliasing C. */
static void test_gemm_vs_dot(void) {
    enum { M = 5, N = 7, K = 128, LD = K + 3, LS = 9 };
    static uint8_t A[M * LD], B[N * LD], SA[M * LS], SB[N * LS];
    float C[M * N], D[M * N];
    int kind, i, j;
    long n = 0, bad = 0;
    for (kind = 0; kind < TC_KIND_COUNT; kind++) {
        tc_gemm_scaled_desc d;
        int fp4 = kind == TC_KIND_MXF4 || kind == TC_KIND_MXF4NVF4, ue4 = kind == TC_KIND_MXF4NVF4;
        memset(&d, 0, sizeof d);
        d.type = stype((tc_mma_kind)kind, fp4 ? TC_E2M1 : TC_E4M3, fp4 ? TC_E2M1 : TC_E2M3, TC_FP32, ue4 ? TC_UE4M3 : TC_UE8M0, ue4 ? 16 : 32);
        if (kind == TC_KIND_F8F6F4) d.type.block = 0;
        for (i = 0; i < M * LD; i++) A[i] = rnd_code(d.type.a_type);
        for (i = 0; i < N * LD; i++) B[i] = rnd_code(d.type.b_type);
        for (i = 0; i < M * LS; i++) SA[i] = (uint8_t)(ue4 ? 40 + rnd() % 20 : 120 + rnd() % 10);
        for (i = 0; i < N * LS; i++) SB[i] = (uint8_t)(ue4 ? 40 + rnd() % 20 : 120 + rnd() % 10);
        for (i = 0; i < M * N; i++) C[i] = D[i] = rnd_c(4, 0);
        d.M = M; d.N = N; d.K = K; d.A = A; d.lda = LD; d.B = B; d.ldb = LD;
        if (kind != TC_KIND_F8F6F4) { d.scale_A = SA; d.ldsa = LS; d.scale_B = SB; d.ldsb = LS; }
        d.C = D; d.D = D;
        CHECK_STATUS(tc_gemm_scaled(&d), TC_OK);
        for (i = 0; i < M; i++)
            for (j = 0; j < N; j++) {
                float x = 0.0f;
                tc_mma_dot_scaled(&d.type, K, A + i * LD, B + j * LD, SA + i * LS, SB + j * LS, C[i * N + j], NULL, &x);
                n++;
                if (fbits(x) != fbits(D[i * N + j])) bad++;
            }
    }
    tct_add(n - bad, bad);
}

/* Quantize fp32 operands with tc_block_quantize, multiply with the kind
   that consumes them, compare with the exact fp32 product. The bound:
   each element's quantization error is at most half its spacing in the
   scaled grid (spacing 2^(max(floor(log2 |x/s|), emin) - m) * s) or, past
   the element's largest value, |x| - max * s; the product's error is
   sum_k (da_k |b_k| + |a^_k| db_k); the Tensor Core adds at most one
   2^(E - F) per truncated term and one fp32 ulp per instruction (the
   oracle's budget). NVFP4 elements come from x * (1 / scale) in fp32,
   whose rounding is a relative 2^-23 more. */
static long double elem_err(float x, float s, tc_dtype et, int nv) {
    const tc_format *f = tc_format_of(et);
    long double ax = fabsl((long double)x), y = ax / s, half;
    int e;
    if (y > f->max_finite) return ax - (long double)f->max_finite * s;
    if (y == 0) return 0;
    frexpl(y, &e);
    e = e - 1 < 1 - f->bias ? 1 - f->bias : e - 1;
    half = ldexpl(1.0L, e - f->mantissa_bits - 1) * s;
    return half + (nv ? ax * ldexpl(1.0L, -22) : 0);
}

static void test_quantized_gemm(void) {
    static const struct { tc_block_kind q; tc_mma_kind kind; } v[] = {
        { TC_MXFP8_E4M3, TC_KIND_MXF8F6F4 }, { TC_MXFP8_E5M2, TC_KIND_MXF8F6F4 }, { TC_MXFP6_E2M3, TC_KIND_MXF8F6F4 },
        { TC_MXFP6_E3M2, TC_KIND_MXF8F6F4 }, { TC_MXFP4, TC_KIND_MXF8F6F4 }, { TC_MXFP4, TC_KIND_MXF4 },
        { TC_NVFP4, TC_KIND_MXF4NVF4 } };
    enum { M = 6, N = 5, K = 128 };
    static float A[M * K], B[N * K], D[M * N], Ad[M * K], Bd[N * K];
    static uint8_t qa[M * K], qb[N * K], sa[M * K / 16], sb[N * K / 16];
    int iv, i, j, k;
    for (iv = 0; iv < (int)(sizeof v / sizeof v[0]); iv++) {
        const tc_block_info *bi = tc_block_info_of(v[iv].q);
        float ta = 1.0f, tb = 1.0f;
        tc_gemm_scaled_desc d;
        int nv = bi->tensor_scale, ok = 1;
        long double worst = 0;
        for (i = 0; i < M * K; i++) A[i] = ldexpf((float)((int)(rnd() % 2001) - 1000), (int)(rnd() % 12) - 16 + i / K);
        for (i = 0; i < N * K; i++) B[i] = ldexpf((float)((int)(rnd() % 2001) - 1000), (int)(rnd() % 12) - 10);
        for (i = 0; i < K; i += 7) A[i] = 0.0f;   /* zeros and a block of them */
        memset(B + K, 0, 32 * sizeof(float));
        if (nv) { tc_nvfp4_tensor_scale(M, K, A, K, &ta); tc_nvfp4_tensor_scale(N, K, B, K, &tb); }
        CHECK_STATUS(tc_block_quantize(v[iv].q, M, K, A, K, ta, qa, sa, NULL), TC_OK);
        CHECK_STATUS(tc_block_quantize(v[iv].q, N, K, B, K, tb, qb, sb, NULL), TC_OK);
        tc_block_dequantize(v[iv].q, M, K, qa, sa, ta, Ad, K);
        tc_block_dequantize(v[iv].q, N, K, qb, sb, tb, Bd, K);
        memset(&d, 0, sizeof d);
        d.type = stype(v[iv].kind, bi->elem, bi->elem, TC_FP32, bi->scale, bi->block);
        d.M = M; d.N = N; d.K = K; d.A = qa; d.B = qb; d.scale_A = sa; d.scale_B = sb; d.D = D;
        CHECK_STATUS(tc_gemm_scaled(&d), TC_OK);
        for (i = 0; i < M; i++)
            for (j = 0; j < N; j++) {
                long double exact = 0, qerr = 0, budget = 0, got = (long double)D[i * N + j] / ta / tb, err;
                orc_opt o;
                o.F = orc_frac_bits(v[iv].kind); o.fp16 = 0; o.plus = 0;
                orc_dot(&d.type, K, qa + i * K, qb + j * K, sa + i * (K / bi->block), sb + j * (K / bi->block), 0.0f, &o, &budget);
                for (k = 0; k < K; k++) {
                    float s_a = tc_decode(bi->scale, sa[i * (K / bi->block) + k / bi->block]) / ta;
                    float s_b = tc_decode(bi->scale, sb[j * (K / bi->block) + k / bi->block]) / tb;
                    exact += (long double)A[i * K + k] * B[j * K + k];
                    qerr += elem_err(A[i * K + k] * ta, s_a * ta, bi->elem, nv) / ta * fabsl((long double)B[j * K + k]) +
                            fabsl((long double)Ad[i * K + k]) * (elem_err(B[j * K + k] * tb, s_b * tb, bi->elem, nv) / tb);
                }
                err = fabsl(got - exact);
                if (err > qerr + budget / ta / tb) ok = 0;
                if (qerr > 0 && err / (qerr + budget / ta / tb) > worst) worst = err / (qerr + budget / ta / tb);
            }
        if (getenv("TC_VERBOSE")) printf("  %s via %s: error up to %.3Lg of the bound\n", bi->name, tc_mma_kind_name(v[iv].kind), worst);
        if (!CHECK(ok)) printf("  %s via %s: error up to %.3Lg of the bound\n", bi->name, tc_mma_kind_name(v[iv].kind), worst);
        CHECK(worst > 0.01L);   /* the bound is not vacuous: errors reach a visible part of it */
    }
}

static void test_bad_input(void) {
    uint8_t a[64], b[64], s[4] = { 127, 127, 127, 127 };
    tc_mma_scaled_type t = stype(TC_KIND_MXF8F6F4, TC_E4M3, TC_E5M2, TC_FP32, TC_UE8M0, 32), u;
    tc_mma_options opt;
    tc_gemm_scaled_desc d;
    tc_mma_params p;
    float x = 42.0f, D[1], C[1] = { 0.0f };
    memset(a, 0, sizeof a); memset(b, 0, sizeof b);
    CHECK_STATUS(tc_mma_dot_scaled(NULL, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_NULL);
    CHECK_STATUS(tc_mma_dot_scaled(&t, 32, NULL, b, s, s, 0.0f, NULL, &x), TC_ERR_NULL);
    CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, NULL, s, 0.0f, NULL, &x), TC_ERR_NULL);
    CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, s, s, 0.0f, NULL, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_mma_dot_scaled(&t, 0, a, b, s, s, 0.0f, NULL, &x), TC_ERR_SHAPE);
    CHECK_STATUS(tc_mma_dot_scaled(&t, -1, a, b, s, s, 0.0f, NULL, &x), TC_ERR_SHAPE);
    CHECK_STATUS(tc_mma_dot_scaled(&t, 16, a, b, s, s, 0.0f, NULL, &x), TC_ERR_SHAPE);
    CHECK_STATUS(tc_mma_dot_scaled(&t, INT_MAX, a, b, s, s, 0.0f, NULL, &x), TC_ERR_SHAPE);
    CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, s, s, NAN, NULL, &x), TC_OK);
    CHECK(x != x);
    CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, s, s, INFINITY, NULL, &x), TC_OK);
    CHECK(x == INFINITY);
    u = t; u.arch = TC_ARCH_H100; CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_ARCH);
    u = t; u.arch = (tc_arch)-1; CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_ARCH);
    u = t; u.kind = TC_KIND_COUNT; CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_ARG);
    u = t; u.kind = (tc_mma_kind)-1; CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_ARG);
    u = t; u.a_type = TC_FP16; CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_DTYPE);
    u = t; u.b_type = TC_UE8M0; CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_DTYPE);
    u = t; u.b_type = (tc_dtype)INT_MAX; CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_DTYPE);
    u = t; u.out = TC_FP16; CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_DTYPE);
    u = t; u.scale_type = TC_UE4M3; CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_DTYPE);
    u = t; u.block = 16; CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_SHAPE);
    u = stype(TC_KIND_MXF4, TC_E2M1, TC_E4M3, TC_FP32, TC_UE8M0, 32);
    CHECK_STATUS(tc_mma_dot_scaled(&u, 64, a, b, s, s, 0.0f, NULL, &x), TC_ERR_DTYPE);
    u.b_type = TC_E2M1; u.block = 16; CHECK_STATUS(tc_mma_dot_scaled(&u, 64, a, b, s, s, 0.0f, NULL, &x), TC_ERR_SHAPE);
    u.block = 32; CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_SHAPE);
    u.kind = TC_KIND_MXF4NVF4; u.scale_type = TC_UE4M3; CHECK_STATUS(tc_mma_dot_scaled(&u, 64, a, b, s, s, 0.0f, NULL, &x), TC_ERR_SHAPE);
    /* sm_120: ue4m3 per 32 and ue8m0 per 16 are in MMA-Sim's list but no PTX spelling reaches them */
    u.arch = TC_ARCH_RTX_BLACKWELL; CHECK_STATUS(tc_mma_dot_scaled(&u, 64, a, b, s, s, 0.0f, NULL, &x), TC_ERR_SHAPE);
    u.scale_type = TC_UE8M0; u.block = 16; CHECK_STATUS(tc_mma_dot_scaled(&u, 64, a, b, s, s, 0.0f, NULL, &x), TC_ERR_SHAPE);
    u.block = 32; CHECK_STATUS(tc_mma_dot_scaled(&u, 64, a, b, s, s, 0.0f, NULL, &x), TC_OK);
    u.scale_type = TC_UE4M3; u.block = 16; CHECK_STATUS(tc_mma_dot_scaled(&u, 64, a, b, s, s, 0.0f, NULL, &x), TC_OK);
    u.arch = TC_ARCH_B200; u.block = 32;
    u.block = 16; s[0] = 0x80; CHECK_STATUS(tc_mma_dot_scaled(&u, 64, a, b, s, s, 0.0f, NULL, &x), TC_ERR_NOT_REPRESENTABLE);
    s[0] = 127; a[5] = 0x10; CHECK_STATUS(tc_mma_dot_scaled(&u, 64, a, b, s, s, 0.0f, NULL, &x), TC_ERR_NOT_REPRESENTABLE);
    a[5] = 0;
    u = stype(TC_KIND_MXF8F6F4, TC_E2M3, TC_E3M2, TC_FP32, TC_UE8M0, 32);
    b[31] = 0x40; CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, s, s, 0.0f, NULL, &x), TC_ERR_NOT_REPRESENTABLE);
    b[31] = 0;
    u = stype(TC_KIND_F8F6F4, TC_E4M3, TC_E4M3, TC_FP16, TC_FP32, 0);
    CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, NULL, NULL, 0.1f, NULL, &x), TC_ERR_NOT_REPRESENTABLE);
    CHECK_STATUS(tc_mma_dot_scaled(&u, 32, a, b, NULL, NULL, 0.5f, NULL, &x), TC_OK);
    CHECK(x == 0.5f);
    memset(&opt, 0, sizeof opt);
    opt.zero_rule = TC_MMA_ZEROS_KHATTAK; CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, s, s, 0.0f, &opt, &x), TC_ERR_ARG);
    opt.zero_rule = TC_MMA_ZEROS_MMASIM; opt.group = 16; CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, s, s, 0.0f, &opt, &x), TC_ERR_ARG);
    opt.group = 0; opt.frac_bits = 41; CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, s, s, 0.0f, &opt, &x), TC_ERR_ARG);
    opt.frac_bits = -1; CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, s, s, 0.0f, &opt, &x), TC_ERR_ARG);
    opt.frac_bits = 0; opt.zero_sign = (tc_mma_zero_sign)7; CHECK_STATUS(tc_mma_dot_scaled(&t, 32, a, b, s, s, 0.0f, &opt, &x), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_scaled_params_of(NULL, &p), TC_ERR_NULL);
    CHECK_STATUS(tc_mma_scaled_params_of(&t, NULL), TC_ERR_NULL);
    /* The GEMM: D untouched on every error. */
    memset(&d, 0, sizeof d);
    d.type = t; d.M = 1; d.N = 1; d.K = 32; d.A = a; d.B = b; d.scale_A = s; d.scale_B = s; d.D = D;
    D[0] = 42.0f;
    CHECK_STATUS(tc_gemm_scaled(NULL), TC_ERR_NULL);
    d.M = -1; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SIZE); d.M = 1;
    d.N = INT_MIN; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SIZE); d.N = 1;
    d.K = 33; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE);
    d.K = 0; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE); d.K = 32;
    d.lda = 31; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE); d.lda = 0;
    d.ldsb = -1; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE); d.ldsb = 0;
    d.ldd = -5; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE); d.ldd = 0;
    d.C = D; d.ldc = 2; d.ldd = 3; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE); d.C = NULL; d.ldc = d.ldd = 0;
    d.scale_B = NULL; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_NULL); d.scale_B = s;
    d.D = NULL; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_NULL); d.D = D;
    d.options.zero_rule = TC_MMA_ZEROS_KHATTAK; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_ARG); d.options.zero_rule = TC_MMA_ZEROS_MMASIM;
    C[0] = NAN; d.C = C; CHECK_STATUS(tc_gemm_scaled(&d), TC_OK); CHECK(D[0] != D[0]);
    D[0] = 42.0f;
    d.type.a_type = TC_E2M1; a[0] = 0xF0; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_NOT_REPRESENTABLE); a[0] = 0;
    CHECK(D[0] == 42.0f);
    d.M = 0; d.A = NULL; CHECK_STATUS(tc_gemm_scaled(&d), TC_OK);
}

/* The instruction table's kind::f8f6f4 rows (tcgen05.mma on B200: the 25
   pairings at M 64 and 128; mma.sync m16n8k32 on sm_120: the 21 pairings
   with FP6 or FP4) through tc_mma_run on float operands: every output
   element equals tc_mma_dot_scaled's TC_KIND_F8F6F4 for the row's
   architecture on the same codes (and every 7th the oracle here), bit for
   bit (any NaN matches any NaN): fp32 out at the narrowest N (TC_QUICK:
   only there), 9 steps and 256 (tcgen05); fp16 out at one N. Then what it
   refuses, D untouched. */
static int same_or_nan(float x, float y) { return x != x ? y != y : fbits(x) == fbits(y); }

static void test_f8f6f4_rows(void) {
    static float A[128 * 32], B[32 * 256], C[128 * 256], D[128 * 256];
    static uint8_t ac[128 * 32], bc[256 * 32];
    static const int bad_n[] = { 0, 4, 260, 264, -1, -16, INT_MAX, INT_MIN };
    const int quick = getenv("TC_QUICK") != NULL;
    int kind, rows[2] = { 0, 0 }, o, w, i, j, k;
    long n = 0, n_orc = 0, bad = 0, bad_orc = 0;
    for (kind = 0; kind < TC_MMA_INSTR_COUNT; kind++) {
        tc_mma_instr_info in;
        tc_mma_scaled_type t;
        int tc5, n1;
        tc_arch arch, other;
        CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)kind, &in), TC_OK);
        if (!strstr(in.ptx, "kind::f8f6f4")) continue;
        tc5 = in.threads == 1;
        arch = tc5 ? TC_ARCH_B200 : TC_ARCH_RTX_BLACKWELL;
        other = tc5 ? TC_ARCH_RTX_BLACKWELL : TC_ARCH_B200;
        n1 = tc5 ? in.n_step : in.n;   /* the narrowest N */
        rows[!tc5]++;
        CHECK(in.k == 32 && in.archs == TC_ARCH_BIT(arch));
        if (tc5) CHECK(strcmp(in.ptx, "tcgen05.mma.cta_group::1.kind::f8f6f4") == 0);
        else {   /* sm_120: mma.sync m16n8k32 with an FP6 or FP4 operand */
            char want[96];
            sprintf(want, "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.%s.%s.f32", tc_format_of(in.in)->name,
                    tc_format_of(in.b_type)->name);
            CHECK(strcmp(in.ptx, want) == 0 && in.m == 16 && in.n == 8 && in.n_step == 0 && in.threads == 32);
            CHECK(tc_format_of(in.in)->total_bits < 8 || tc_format_of(in.b_type)->total_bits < 8);
        }
        for (o = 0; o < 2; o++)
            for (w = 0; w < 3; w++) {
                const int N = w == 0 ? n1 : w == 1 ? 9 * n1 : 256, mode = (kind + w) % 3;
                orc_opt oo;
                if (!tc5 && w > 0) continue;   /* mma.sync: its one N */
                if (o == 1 ? w != (quick || !tc5 ? 0 : 1) : quick && w > 0) continue;   /* fp16 out at one N; TC_QUICK: the narrowest */
                cur_arch = arch;
                t = stype(TC_KIND_F8F6F4, in.in, in.b_type, o ? TC_FP16 : TC_FP32, TC_FP32, 0);
                oo.F = 25; oo.fp16 = o; oo.plus = 0;
                /* mode 0 random codes (NaN, Inf, subnormals); 1 subnormal and zero codes of A;
                   2 cancellation: B's column pairs negate */
                for (i = 0; i < in.m * 32; i++) {
                    ac[i] = rnd_code(in.in);
                    if (mode == 1) ac[i] &= (uint8_t)((1u << tc_format_of(in.in)->mantissa_bits) | (1u << (tc_format_of(in.in)->total_bits - 1))) - 1u;
                    A[i] = tc_decode(in.in, ac[i]);
                }
                for (j = 0; j < N; j++)
                    for (k = 0; k < 32; k++) {
                        uint8_t *x = &bc[j * 32 + k];
                        *x = mode == 2 && (k & 1) ? (uint8_t)(x[-1] ^ (1u << (tc_format_of(in.b_type)->total_bits - 1))) : rnd_code(in.b_type);
                        if (mode == 2 && (k & 1)) ac[(j % in.m) * 32 + k] = ac[(j % in.m) * 32 + k - 1];
                        B[k * N + j] = tc_decode(in.b_type, *x);
                    }
                for (i = 0; i < in.m * 32; i++) A[i] = tc_decode(in.in, ac[i]);
                for (i = 0; i < in.m * N; i++) C[i] = rnd_c(2 * (int)(rnd() % 8), o);
                CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, N, t.out, A, B, C, D), TC_OK);
                for (i = 0; i < in.m; i++)
                    for (j = 0; j < N; j++) {
                        float want = -1.0f, c = C[i * N + j], got = D[i * N + j];
                        CHECK_STATUS(tc_mma_dot_scaled(&t, 32, ac + i * 32, bc + j * 32, NULL, NULL, c, NULL, &want), TC_OK);
                        bad += !same_or_nan(got, want);
                        if ((i * N + j) % 7 == 0) {   /* the oracle on every 7th (test_random_f8 holds it to the dot) */
                            bad_orc += !same_or_nan(got, orc_dot(&t, 32, ac + i * 32, bc + j * 32, NULL, NULL, c, &oo, NULL));
                            n_orc++;
                        }
                        n++;
                    }
                if (w) continue;
                /* C = NULL is zero; D may be C */
                CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, N, t.out, A, B, NULL, D), TC_OK);
                {
                    float want = -1.0f;
                    CHECK_STATUS(tc_mma_dot_scaled(&t, 32, ac, bc, NULL, NULL, 0.0f, NULL, &want), TC_OK);
                    CHECK(same_or_nan(D[0], want));
                }
                CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, N, t.out, A, B, C, D), TC_OK);
                CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, N, t.out, A, B, C, C), TC_OK);
                CHECK(memcmp(C, D, sizeof(float) * (size_t)in.m * (size_t)N) == 0);
            }
        /* refused, D untouched */
        for (i = 0; i < in.m * 32; i++) A[i] = 1.0f;
        for (i = 0; i < 32 * 256; i++) B[i] = 1.0f;
        D[0] = 42.0f;
        for (i = 0; i < (int)(sizeof bad_n / sizeof bad_n[0]); i++)
            CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, bad_n[i], TC_FP32, A, B, NULL, D), TC_ERR_SHAPE);
        if (in.n_step == 16) CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, 24, TC_FP32, A, B, NULL, D), TC_ERR_SHAPE);
        if (!tc5) CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, 16, TC_FP32, A, B, NULL, D), TC_ERR_SHAPE);
        CHECK_STATUS(tc_mma_run(TC_ARCH_H100, (tc_mma_instr)kind, n1, TC_FP32, A, B, NULL, D), TC_ERR_ARCH);
        CHECK_STATUS(tc_mma_run(other, (tc_mma_instr)kind, n1, TC_FP32, A, B, NULL, D), TC_ERR_ARCH);
        CHECK_STATUS(tc_mma_run((tc_arch)-1, (tc_mma_instr)kind, n1, TC_FP32, A, B, NULL, D), TC_ERR_ARCH);
        CHECK_STATUS(tc_mma_run(TC_ARCH_COUNT, (tc_mma_instr)kind, n1, TC_FP32, A, B, NULL, D), TC_ERR_ARCH);
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, n1, TC_BF16, A, B, NULL, D), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, n1, TC_E4M3, A, B, NULL, D), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, n1, TC_FP32, NULL, B, NULL, D), TC_ERR_NULL);
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, n1, TC_FP32, A, NULL, NULL, D), TC_ERR_NULL);
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, n1, TC_FP32, A, B, NULL, NULL), TC_ERR_NULL);
        A[5] = 1.0f + 1.0f / 64;      /* more mantissa than any of the five types holds */
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, n1, TC_FP32, A, B, NULL, D), TC_ERR_NOT_REPRESENTABLE);
        A[5] = NAN;                   /* a NaN only where the type has one (e4m3, e5m2) */
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, n1, TC_FP32, A, B, NULL, D),
                     in.in == TC_E4M3 || in.in == TC_E5M2 ? TC_OK : TC_ERR_NOT_REPRESENTABLE);
        D[0] = 42.0f;
        A[5] = 1.0f;
        B[7] = INFINITY;              /* an Inf only in e5m2 */
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, n1, TC_FP32, A, B, NULL, D),
                     in.b_type == TC_E5M2 ? TC_OK : TC_ERR_NOT_REPRESENTABLE);
        if (in.b_type != TC_E5M2) CHECK(D[0] == 42.0f);
        B[7] = 1.0f;
        D[0] = 42.0f;
        C[0] = 1.0f + 1.0f / 4096;    /* fine in fp32, not in fp16 */
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, n1, TC_FP16, A, B, C, D), TC_ERR_NOT_REPRESENTABLE);
        CHECK(D[0] == 42.0f);
        CHECK_STATUS(tc_mma_run(arch, (tc_mma_instr)kind, n1, TC_FP32, A, B, C, D), TC_OK);
        CHECK(D[0] == 33.0f + 1.0f / 4096);   /* 32 ones, c: exact under F = 25 */
    }
    CHECK(rows[0] == 50 && rows[1] == 21);
    tct_add(n - bad, bad);
    tct_add(n_orc - bad_orc, bad_orc);
    if (bad || bad_orc) printf("kind::f8f6f4 rows: %ld of %ld against tc_mma_dot_scaled, %ld of %ld against the oracle\n", bad, n, bad_orc, n_orc);
}

/* tc_gemm with an FP6/FP4 operand is kind::f8f6f4 (tcgen05.mma on B200,
   mma.sync on sm_120): on both, for every such pairing (A's type,
   options.b_type), K = 40 padded to 64 with zero codes, D equals
   tc_mma_dot_scaled on the padded codes and the oracle; FP8 x FP8 stays
   mma.sync's model; K = 0 gives C; what it refuses, D untouched. */
static void test_gemm_fp6_fp4(void) {
    enum { M = 5, N = 7, K = 40, KP = 64 };
    float A[M * K], B[K * N], C[M * N], D[M * N];
    uint8_t ac[M * KP], bc[N * KP];
    int ia, ib, i, j, k, ar, pairs = 0;
    long n = 0, bad = 0;
    for (ar = 0; ar < 2; ar++)
    for (ia = 0; ia < NTYPES; ia++)
        for (ib = 0; ib < NTYPES; ib++) {
            const tc_arch arch = ar ? TC_ARCH_RTX_BLACKWELL : TC_ARCH_B200;
            tc_gemm_desc d;
            tc_mma_scaled_type t;
            orc_opt oo;
            const tc_dtype ta = elem_types[ia], tb = elem_types[ib];
            const int fp8_only = ia < 2 && ib < 2;   /* elem_types: e4m3, e5m2 first */
            memset(ac, 0, sizeof ac);
            memset(bc, 0, sizeof bc);
            for (i = 0; i < M; i++) for (k = 0; k < K; k++) { ac[i * KP + k] = rnd_code(ta); A[i * K + k] = tc_decode(ta, ac[i * KP + k]); }
            for (j = 0; j < N; j++) for (k = 0; k < K; k++) { bc[j * KP + k] = rnd_code(tb); B[k * N + j] = tc_decode(tb, bc[j * KP + k]); }
            for (i = 0; i < M * N; i++) C[i] = rnd_c(2 * (int)(rnd() % 8), 0);
            memset(&d, 0, sizeof d);
            d.arch = arch; d.in = ta; d.out = TC_FP32; d.M = M; d.N = N; d.K = K;
            d.A = A; d.B = B; d.C = C; d.D = D; d.options.b_type = tb; d.threads = 2;
            CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
            cur_arch = arch;
            t = stype(TC_KIND_F8F6F4, ta, tb, TC_FP32, TC_FP32, 0);
            oo.F = 25; oo.fp16 = 0; oo.plus = 0;
            for (i = 0; i < M; i++)
                for (j = 0; j < N; j++) {
                    float want = -1.0f;
                    if (fp8_only) {   /* mma.sync's model (two m16n8k32 steps, the second padded), not the tcgen05 kind's */
                        float row[KP], col[KP];
                        tc_mma_options o;
                        memset(&o, 0, sizeof o); o.b_type = tb;
                        for (k = 0; k < KP; k++) { row[k] = k < K ? A[i * K + k] : 0.0f; col[k] = k < K ? B[k * N + j] : 0.0f; }
                        want = tc_mma_dot_ex(arch, ta, TC_FP32, 32, row, col, C[i * N + j], &o);
                        want = tc_mma_dot_ex(arch, ta, TC_FP32, 32, row + 32, col + 32, want, &o);
                        bad += !same_or_nan(D[i * N + j], want);
                        n++;
                        continue;
                    }
                    CHECK_STATUS(tc_mma_dot_scaled(&t, KP, ac + i * KP, bc + j * KP, NULL, NULL, C[i * N + j], NULL, &want), TC_OK);
                    bad += !same_or_nan(D[i * N + j], want);
                    bad += !same_or_nan(D[i * N + j], orc_dot(&t, KP, ac + i * KP, bc + j * KP, NULL, NULL, C[i * N + j], &oo, NULL));
                    n += 2;
                }
            if (fp8_only) continue;
            pairs++;
            /* K = 0: D = C; refusals leave D untouched */
            d.K = 0;
            CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
            CHECK(memcmp(C, D, sizeof D) == 0);
            d.K = K;
            D[0] = 42.0f;
            d.options.zero_rule = TC_MMA_ZEROS_KHATTAK; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARG);
            d.options.zero_rule = TC_MMA_ZEROS_MMASIM; d.options.group = 16; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARG);
            d.options.group = 0; d.out = TC_BF16; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_DTYPE);
            d.out = TC_FP32; d.M = -1; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_SIZE);
            d.M = M; d.ldb = N - 1; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_SHAPE);
            d.ldb = 0; d.threads = -1; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARG);
            d.threads = 0; d.A = NULL; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_NULL);
            d.A = A; d.arch = TC_ARCH_H100; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_DTYPE);   /* no FP6/FP4 before sm_100 */
            d.arch = TC_ARCH_ADA; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_DTYPE);
            d.arch = (tc_arch)-1; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_DTYPE);
            d.arch = arch;
            A[3] = NAN;   /* a value of e4m3 and e5m2 only */
            CHECK_STATUS(tc_gemm_ex(&d), ia < 2 ? TC_OK : TC_ERR_NOT_REPRESENTABLE);
            if (ia >= 2) CHECK(D[0] == 42.0f);
            A[3] = 0.0f;
            B[5] = 0.3f;  /* a value of none of the five */
            D[0] = 42.0f;
            CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_NOT_REPRESENTABLE);
            CHECK(D[0] == 42.0f);
        }
    CHECK(pairs == 42);   /* 25 pairings less the four FP8 x FP8, on each */
    tct_add(n - bad, bad);
}

/* A scale byte of a family: 0 random codes with the specials (ue8m0 0x00,
   0x7F, 0xFE, 0xFF NaN; ue4m3 0 and 0x7F NaN) one time in four, 1 near 1
   (ue8m0 127 +- 8, ue4m3 any finite code), so that most results stay finite. */
static uint8_t rnd_scale(tc_dtype st, int fam) {
    static const uint8_t sp8[] = { 0x00, 0x7F, 0xFE, 0xFF }, sp43[] = { 0x00, 0x7F };
    if (st == TC_UE4M3) {
        if (fam == 0 && rnd() % 4 == 0) return sp43[rnd() % 2];
        return (uint8_t)(fam == 0 ? rnd() % 0x80 : rnd() % 0x7F);
    }
    if (fam == 0 && rnd() % 4 == 0) return sp8[rnd() % 4];
    return (uint8_t)(fam == 0 ? rnd() % 0x100 : 119 + rnd() % 17);
}

/* sm_120's block-scaled mma.sync rows: the table's fields against the PTX
   ISA spellings written out here, the scaled type each row gives
   (tc_mma_instr_scaled_type), tc_mma_run's refusal, and tc_gemm_scaled at
   the row's M16 N8 and its K (and 2K: two chained instructions) against
   the oracle and tc_mma_dot_scaled, every bit, in the families the GPU
   program uses (random codes, normal, subnormal/zero, cancelling; random
   and special scales); then what each row's type refuses. */
static void test_block_scaled_rows(void) {
    enum { M = 16, N = 8, KMAX = 128 };
    static uint8_t A[M * KMAX], B[N * KMAX], sA[M * 8], sB[N * 8];
    static float C[M * N], D[M * N];
    int seen[5][5], i, j, r, rows = 0, fp4_rows = 0;
    long n = 0, bad = 0, bad_dot = 0;
    memset(seen, 0, sizeof seen);
    for (r = 0; r < TC_MMA_INSTR_COUNT; r++) {
        tc_mma_instr_info in;
        tc_mma_scaled_type t, u;
        tc_mma_params p = { 0 };
        tc_gemm_scaled_desc d;
        char want[160];
        int fp4, fam, rep, ta = -1, tb = -1, K;
        const char *sv;
        float one = 1.0f;
        CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)r, &in), TC_OK);
        if (!strstr(in.ptx, ".block_scale") || in.threads != 32) continue;
        rows++;
        fp4 = strstr(in.ptx, "kind::mxf4") != NULL;
        fp4_rows += fp4;
        /* the spelling (PTX ISA 9.7.14.3 Table 36, as ptxas 13.0 takes it) */
        sv = r == TC_MMA_M16N8K64_MXF4NVF4_UE4M3 ? "4X.f32.e2m1.e2m1.f32.ue4m3" : fp4 ? "2X.f32.e2m1.e2m1.f32.ue8m0" : NULL;
        if (fp4)
            sprintf(want, "mma.sync.aligned.m16n8k64.row.col.kind::%s.block_scale.scale_vec::%s",
                    r == TC_MMA_M16N8K64_MXF4 ? "mxf4" : "mxf4nvf4", sv);
        else
            sprintf(want, "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.%s.%s.f32.ue8m0",
                    tc_format_of(in.in)->name, tc_format_of(in.b_type)->name);
        if (!CHECK(strcmp(in.ptx, want) == 0)) printf("  row %s: %s, want %s\n", in.name, in.ptx, want);
        CHECK(in.m == M && in.n == N && in.k == (fp4 ? 64 : 32) && in.n_step == 0 && in.threads == 32);
        CHECK(in.archs == TC_ARCH_BIT(TC_ARCH_RTX_BLACKWELL) && in.fp16_accumulate == 0 && in.sparse_group == 0);
        CHECK(in.a_elems == in.k / 2 && in.b_elems == in.k / 4 && in.c_elems == 4 && in.a_regs == 4 && in.b_regs == 2);
        CHECK(in.layout == 1);
        {
            tc_mma_instr found = (tc_mma_instr)-1;
            /* fragments: the 4-bit m16n8k64 layout of the s4 row, or FP8 m16n8k32's */
            const tc_mma_instr same = fp4 ? TC_MMA_M16N8K64_S4 : TC_MMA_M16N8K32_E4M3;
            int f, l, e, r0, c0, r1, c1, diff = 0;
            CHECK_STATUS(tc_mma_instr_find(in.name, &found), TC_OK);
            CHECK(found == (tc_mma_instr)r);
            for (f = 0; f < 3; f++)
                for (l = 0; l < 32; l++)
                    for (e = 0; e < (f == 0 ? in.a_elems : f == 1 ? in.b_elems : in.c_elems); e++) {
                        r0 = c0 = r1 = c1 = -1;
                        diff += tc_mma_frag_coord((tc_mma_instr)r, (tc_frag)f, l, e, &r0, &c0) != TC_OK ||
                                tc_mma_frag_coord(same, (tc_frag)f, l, e, &r1, &c1) != TC_OK || r0 != r1 || c0 != c1;
                    }
            CHECK(diff == 0);
        }
        for (i = 0; i < NTYPES; i++) {
            if (elem_types[i] == in.in) ta = i;
            if (elem_types[i] == in.b_type) tb = i;
        }
        if (!CHECK(ta >= 0 && tb >= 0)) continue;
        if (!fp4) seen[ta][tb]++;
        else CHECK(in.in == TC_E2M1 && in.b_type == TC_E2M1);
        /* the scaled type read from the row */
        memset(&t, 0x5A, sizeof t);
        CHECK_STATUS(tc_mma_instr_scaled_type((tc_mma_instr)r, &t), TC_OK);
        CHECK(t.arch == TC_ARCH_RTX_BLACKWELL && t.a_type == in.in && t.b_type == in.b_type && t.out == TC_FP32);
        CHECK(t.kind == (!fp4 ? TC_KIND_MXF8F6F4 : r == TC_MMA_M16N8K64_MXF4 ? TC_KIND_MXF4 : TC_KIND_MXF4NVF4));
        CHECK(t.scale_type == (r == TC_MMA_M16N8K64_MXF4NVF4_UE4M3 ? TC_UE4M3 : TC_UE8M0));
        CHECK(t.block == (r == TC_MMA_M16N8K64_MXF4NVF4_UE4M3 ? 16 : 32));
        CHECK_STATUS(tc_mma_scaled_params_of(&t, &p), TC_OK);
        CHECK(p.instr_k == in.k && p.frac_bits == orc_frac_bits(t.kind));
        /* tc_mma_run has no place for scales */
        {
            static float fa[M * 64], fb[64 * N], fd[M * N];
            for (i = 0; i < M * 64; i++) fa[i] = 1.0f;
            for (i = 0; i < 64 * N; i++) fb[i] = 1.0f;
            fd[0] = 42.0f;
            CHECK_STATUS(tc_mma_run(TC_ARCH_RTX_BLACKWELL, (tc_mma_instr)r, N, TC_FP32, fa, fb, NULL, fd), TC_ERR_ARG);
            CHECK(fd[0] == 42.0f);
        }
        /* the GEMM at the row's shape, one instruction and two chained */
        for (fam = 0; fam < 4; fam++)
            for (rep = 0; rep < 6; rep++) {
                K = in.k * (1 + rep % 2);
                for (i = 0; i < M * K; i++) {
                    A[i] = rnd_code(in.in);
                    if (fam == 1) A[i] |= (uint8_t)(1u << tc_format_of(in.in)->mantissa_bits);   /* a non-zero exponent field */
                    if (fam == 2) A[i] &= (uint8_t)((1u << tc_format_of(in.in)->mantissa_bits) | (1u << (tc_format_of(in.in)->total_bits - 1))) - 1u;
                    if (fam == 1 && tc_decode(in.in, A[i]) - tc_decode(in.in, A[i]) != 0) A[i] = 0;
                }
                for (j = 0; j < N; j++)
                    for (i = 0; i < K; i++) {
                        uint8_t *y = &B[j * K + i];
                        *y = rnd_code(in.b_type);
                        if (fam == 1) *y |= (uint8_t)(1u << tc_format_of(in.b_type)->mantissa_bits);
                        if (fam == 2) *y &= (uint8_t)((1u << tc_format_of(in.b_type)->mantissa_bits) | (1u << (tc_format_of(in.b_type)->total_bits - 1))) - 1u;
                        if (fam == 1 && tc_decode(in.b_type, *y) - tc_decode(in.b_type, *y) != 0) *y = 0;
                        if (fam == 3 && (i & 1)) {   /* cancelling: B's odd k negates the even one, A repeats it */
                            *y = (uint8_t)(y[-1] ^ (1u << (tc_format_of(in.b_type)->total_bits - 1)));
                            A[(j % M) * K + i] = A[(j % M) * K + i - 1];
                        }
                    }
                for (i = 0; i < M * K / t.block; i++) sA[i] = rnd_scale(t.scale_type, fam == 0 ? 0 : 1);
                for (i = 0; i < N * K / t.block; i++) sB[i] = rnd_scale(t.scale_type, fam == 0 ? 0 : 1);
                if (fam == 3)   /* equal scales within a row and a column keep the cancellation exact */
                    for (i = 0; i < M * K / t.block; i++) sA[i] = sA[i - i % (K / t.block)];
                for (i = 0; i < M * N; i++) C[i] = rnd_c(2 * (int)(rnd() % 8), 0);
                memset(&d, 0, sizeof d);
                d.type = t; d.M = M; d.N = N; d.K = K;
                d.A = A; d.B = B; d.scale_A = sA; d.scale_B = sB; d.C = C; d.D = D;
                CHECK_STATUS(tc_gemm_scaled(&d), TC_OK);
                for (i = 0; i < M; i++)
                    for (j = 0; j < N; j++) {
                        orc_opt o;
                        float w = -1.0f, got = D[i * N + j];
                        const int ns = K / t.block;
                        o.F = orc_frac_bits(t.kind); o.fp16 = 0; o.plus = 0;
                        bad += !same_or_nan(got, orc_dot(&t, K, A + i * K, B + j * K, sA + i * ns, sB + j * ns,
                                                         C[i * N + j], &o, NULL));
                        bad_dot += tc_mma_dot_scaled(&t, K, A + i * K, B + j * K, sA + i * ns, sB + j * ns,
                                                     C[i * N + j], NULL, &w) != TC_OK || !same_or_nan(got, w);
                        n++;
                    }
            }
        /* what the row's type refuses */
        memset(A, 0, sizeof A); memset(B, 0, sizeof B); memset(sA, 127, sizeof sA); memset(sB, 127, sizeof sB);
        if (t.scale_type == TC_UE4M3) { memset(sA, 0x38, sizeof sA); memset(sB, 0x38, sizeof sB); }
        memset(&d, 0, sizeof d);
        d.type = t; d.M = M; d.N = N; d.K = in.k; d.A = A; d.B = B; d.scale_A = sA; d.scale_B = sB; d.D = D;
        D[0] = 42.0f;
        d.K = in.k / 2; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE);
        d.K = in.k + in.k / 2; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE);
        d.K = INT_MAX; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE);
        d.K = in.k;
        /* the other block, or for mxf4nvf4 the other scale type with this block: in MMA-Sim's sm_120 list,
           but no row (no PTX spelling) has it */
        u = t; u.block = t.block == 16 ? 32 : 16;
        d.type = u;
        CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE);
        u.block = 64; d.type = u; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE);
        u.block = 0; d.type = u; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE);
        u.block = -1; d.type = u; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_SHAPE);
        u = t; u.scale_type = t.scale_type == TC_UE4M3 ? TC_UE8M0 : TC_UE4M3; d.type = u;
        CHECK_STATUS(tc_gemm_scaled(&d), t.kind == TC_KIND_MXF4NVF4 ? TC_ERR_SHAPE : TC_ERR_DTYPE);
        u = t; u.scale_type = TC_E4M3; d.type = u; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_DTYPE);
        u = t; u.out = TC_FP16; d.type = u; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_DTYPE);
        u = t; u.arch = TC_ARCH_H100; d.type = u; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_ARCH);
        d.type = t;
        d.scale_A = NULL; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_NULL);
        d.scale_A = sA;
        if (t.scale_type == TC_UE4M3) { sA[3] = 0x80; CHECK_STATUS(tc_gemm_scaled(&d), TC_ERR_NOT_REPRESENTABLE); sA[3] = 0x38; }
        D[0] = 42.0f;
        A[5] = 0xFF;   /* wider than any of the five types but FP8 */
        CHECK_STATUS(tc_gemm_scaled(&d), tc_format_of(in.in)->total_bits == 8 ? TC_OK : TC_ERR_NOT_REPRESENTABLE);
        if (tc_format_of(in.in)->total_bits < 8) CHECK(D[0] == 42.0f);
        A[5] = 0;
        /* zero codes, unit scales, C = 1: D = 1 exactly */
        d.C = &one; d.ldc = 0; d.M = 1; d.N = 1; d.ldd = 1;
        CHECK_STATUS(tc_gemm_scaled(&d), TC_OK);
        CHECK(D[0] == 1.0f);
    }
    for (i = 0; i < NTYPES; i++)
        for (j = 0; j < NTYPES; j++) CHECK(seen[i][j] == 1);
    CHECK(rows == 28 && fp4_rows == 3);
    tct_add(n - bad, bad);
    tct_add(n - bad_dot, bad_dot);
    if (bad || bad_dot) printf("sm_120 block-scaled rows: %ld of %ld against the oracle, %ld against tc_mma_dot_scaled\n", bad, n, bad_dot);
}

/* tc_mma_instr_scaled_type on the other rows: kind::f8f6f4 (no scales),
   tcgen05's block-scaled rows (B200; PTX's default scale_vec, none for
   mxf4nvf4), rows of no Blackwell kind, bad arguments. */
static void test_instr_scaled_type(void) {
    tc_mma_scaled_type t;
    CHECK_STATUS(tc_mma_instr_scaled_type(TC_MMA_M16N8K32_E2M1, &t), TC_OK);
    CHECK(t.arch == TC_ARCH_RTX_BLACKWELL && t.kind == TC_KIND_F8F6F4 && t.a_type == TC_E2M1 && t.block == 0);
    CHECK_STATUS(tc_mma_instr_scaled_type(TC_TCGEN05_M64_E2M3_E4M3, &t), TC_OK);
    CHECK(t.arch == TC_ARCH_B200 && t.kind == TC_KIND_F8F6F4 && t.a_type == TC_E2M3 && t.b_type == TC_E4M3);
    CHECK_STATUS(tc_mma_instr_scaled_type(TC_TCGEN05_MXF8F6F4_M128_E5M2_E2M1, &t), TC_OK);
    CHECK(t.arch == TC_ARCH_B200 && t.kind == TC_KIND_MXF8F6F4 && t.scale_type == TC_UE8M0 && t.block == 32);
    CHECK_STATUS(tc_mma_instr_scaled_type(TC_TCGEN05_MXF4_M128, &t), TC_OK);
    CHECK(t.arch == TC_ARCH_B200 && t.kind == TC_KIND_MXF4 && t.scale_type == TC_UE8M0 && t.block == 32);
    CHECK_STATUS(tc_mma_instr_scaled_type(TC_TCGEN05_MXF4NVF4_M128, &t), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_scaled_type(TC_MMA_M16N8K32_E4M3, &t), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_scaled_type(TC_MMA_M16N8K16_F16, &t), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_scaled_type(TC_TCGEN05_M128_F16, &t), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_scaled_type((tc_mma_instr)-1, &t), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_scaled_type(TC_MMA_INSTR_COUNT, &t), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_scaled_type((tc_mma_instr)INT_MAX, &t), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_scaled_type(TC_MMA_M16N8K64_MXF4, NULL), TC_ERR_NULL);
}

int main(void) {
    test_named();
    test_random_f8();
    test_random_fp4();
    test_unit_scales();
    test_sm120_unscaled();
    test_gemm_vs_dot();
    test_quantized_gemm();
    test_bad_input();
    test_f8f6f4_rows();
    test_gemm_fp6_fp4();
    test_block_scaled_rows();
    test_instr_scaled_type();
    return tct_finish("test_scaled");
}
