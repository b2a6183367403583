/* test_fp8_k16_sparse.c - issue 14: FP8 mma.sync m16n8k16 (Ada sm_89,
   H100 sm_90, B200 sm_100 and sm_120, the four e4m3/e5m2 pairings) and the
   sparse kinds on Ada, B200 and sm_120 (fp16, bf16, tf32 and FP8 mma.sp).

   1. tc_mma_dot_ex at K 16 (and 32) against an independent model written
      here, on random and adversarial inputs (subnormals, cancellation,
      zeros, Inf/NaN, fp16 overflow and ties), fixed seeds.
   2. tc_gemm_ex, SIMD and scalar, against the same model chained in
      groups along the padded K.
   3. tc_sparse_gemm_ex on the new architectures equals tc_gemm_ex on the
      decompressed matrix (the stated assumption: mma.sp = the dense
      instruction on A with its zeros; MMA-Sim has no mma.sp to say
      otherwise), and the statuses of what is refused.

   The model shares no arithmetic with tensorcore.h. Its rules, written out
   from MMA-Sim (mmasim/simulator/arithmetic.py fused_dot_add, fused_sum,
   nv_fused_dot_add; mmasim/simulator/nv_ptx.py for the parameters) and
   docs/REFERENCE.md section 2:
     each operand's exponent is floor(log2 |x|), at least its type's
     minimum (e4m3 -6, e5m2 -14); a zero's is -126; a product's exponent is
     the sum of its operands'; c's is its own (fp32 minimum -126, fp16 -14).
     E = the largest; every term cut toward zero to a multiple of 2^(E - F);
     the sum exact; then normalised to the output with its minimum exponent
     and cut to 13 fractional bits (Ada and H100 FP8 to fp32: "f32_e8m13")
     or 23 (sm_120), rounded to nearest-even at 23 (B200 to fp32) or at 10
     (fp16), Inf past the range. Any NaN, Inf*0 or Inf-Inf gives the
     canonical NaN, else an Inf input the Inf. Ada: F = 13, m16n8k16 one
     group of 16 and m16n8k32 two chained (is_split_k). sm_120: F = 25, one
     group per instruction (16 or 32). H100 (F = 13) and B200 (F = 31): one
     group per instruction too, the m16n8k16 rule ASSUMED (MMA-Sim has no
     FP8 mma.sync on either; docs/REFERENCE.md 2.3).
     A zero result from a non-zero sum takes the sum's sign (the header's
     default) or +0 (MMA-Sim, TC_MMA_ZERO_SIGN_PLUS). */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const tc_dtype fp8[2] = { TC_E4M3, TC_E5M2 };

/* ------------------------------------------------------------- oracle */

typedef struct { int F, mbits, fp16, rne, plus; } orc;

static int oexp(long double x, int emin) {
    int e;
    if (x == 0) return -126;
    frexpl(x, &e);
    return e - 1 < emin ? emin : e - 1;
}

static int emin_of(tc_dtype t) { return 1 - tc_format_of(t)->bias; }

/* The exact v to the output format. */
static float orc_out(long double v, const orc *o) {
    int e, emin = o->fp16 ? -14 : -126, mb = o->fp16 ? 10 : o->mbits;
    long double q, limit = o->fp16 ? 65536.0L : ldexpl(1.0L, 128);
    if (v == 0) return 0.0f;
    frexpl(v, &e);
    e = e - 1 < emin ? emin : e - 1;
    q = ldexpl(v, mb - e);
    q = o->fp16 || o->rne ? nearbyintl(q) : truncl(q);   /* nearbyintl: the default mode, nearest-even */
    q = ldexpl(q, e - mb);
    if (fabsl(q) >= limit) return v < 0 ? -INFINITY : INFINITY;
    if (q == 0) return v < 0 && !o->plus ? -0.0f : 0.0f;
    return (float)q;
}

/* One block FMA of n products. */
static float orc_group(int n, const float *a, tc_dtype ta, const float *b, tc_dtype tb, float c, const orc *o) {
    long double sig[65], S = 0, all = c;
    int ex[65], E, i;
    for (i = 0; i < n; i++) all += (long double)a[i] * (long double)b[i];
    if (isnan(all)) return tct_u2f(0x7FFFFFFFu);
    if (isinf(all)) return all < 0 ? -INFINITY : INFINITY;
    ex[0] = oexp(c, o->fp16 ? -14 : -126);
    sig[0] = ldexpl(c, -ex[0]);
    E = ex[0];
    for (i = 0; i < n; i++) {
        int ea = oexp(a[i], emin_of(ta)), eb = oexp(b[i], emin_of(tb));
        ex[i + 1] = ea + eb;
        sig[i + 1] = ldexpl((long double)a[i] * (long double)b[i], -(ea + eb));
        if (ex[i + 1] > E) E = ex[i + 1];
    }
    for (i = 0; i <= n; i++) S += truncl(ldexpl(sig[i], o->F + ex[i] - E));
    return orc_out(ldexpl(S, E - o->F), o);
}

/* k products in groups of g, each group's result the next one's c. */
static float orc_dot(int k, int g, const float *a, tc_dtype ta, const float *b, tc_dtype tb, float c, const orc *o) {
    int k0;
    for (k0 = 0; k0 < k; k0 += g) c = orc_group(k - k0 < g ? k - k0 : g, a + k0, ta, b + k0, tb, c, o);
    return c;
}

/* Ada FP8: F 13, fp32 cut to 13 bits, groups of 16; H100: F 13, cut to 13 bits; sm_120: F 25, fp32 cut to
   23; B200: F 31, fp32 rounded to nearest at 23; the last three one group per instruction. */
static orc orc_for(tc_arch arch, tc_dtype out, int plus) {
    orc o;
    int f13 = arch == TC_ARCH_ADA || arch == TC_ARCH_H100;
    o.F = f13 ? 13 : arch == TC_ARCH_B200 ? 31 : 25;
    o.mbits = f13 ? 13 : 23;
    o.fp16 = out == TC_FP16;
    o.rne = arch == TC_ARCH_B200;
    o.plus = plus;
    return o;
}

/* Products per block FMA: Ada splits m16n8k32 in two, the others do not. */
static int orc_group_of(tc_arch arch) { return arch == TC_ARCH_ADA ? 16 : 32; }

static const tc_arch k16_arches[4] = { TC_ARCH_ADA, TC_ARCH_RTX_BLACKWELL, TC_ARCH_H100, TC_ARCH_B200 };

static int same(float got, float want, int fp16) {
    if (want != want) return got != got && (fp16 || tct_f2u(got) == 0x7FFFFFFFu);
    return tct_f2u(got) == tct_f2u(want);
}

/* ------------------------------------------------------------- inputs */

static float rnd_fp8(tc_dtype t, int specials) {
    for (;;) {
        float x = tc_decode(t, tct_rand32() & 0xFFu);
        if (specials || isfinite(x)) return x;
    }
}

/* An FP8 value with its exponent field in [lo, hi] (0: subnormal or zero). */
static float rnd_fp8_exp(tc_dtype t, int lo, int hi) {
    const tc_format *f = tc_format_of(t);
    int mb = f->mantissa_bits, e = lo + (int)(tct_rand32() % (unsigned)(hi - lo + 1));
    uint32_t code = ((tct_rand32() & 1u) << (f->exponent_bits + mb)) | ((uint32_t)e << mb) | (tct_rand32() & ((1u << mb) - 1u));
    float x = tc_decode(t, code);
    return isfinite(x) ? x : 0.0f;
}

static float rnd_c(tc_dtype out, int e_lo, int e_hi) {
    float x = ldexpf(1.0f + (float)(tct_rand32() & 0xFFFFFFu) / 16777216.0f, e_lo + (int)(tct_rand32() % (unsigned)(e_hi - e_lo + 1)));
    if (tct_rand32() & 1u) x = -x;
    return out == TC_FP16 ? tc_round(TC_FP16, x, TC_RN) : x;
}

/* One K-32 sample of mode m (0 .. NMODES - 1). */
#define NMODES 8
static void make_case(int m, tc_dtype ta, tc_dtype tb, tc_dtype out, float *a, float *b, float *c) {
    int i, ma = tc_format_of(ta)->exponent_bits == 4 ? 15 : 30, mb = tc_format_of(tb)->exponent_bits == 4 ? 15 : 30;
    switch (m) {
    case 0:   /* any finite codes, c of any size the output holds */
        for (i = 0; i < 32; i++) { a[i] = rnd_fp8(ta, 0); b[i] = rnd_fp8(tb, 0); }
        *c = out == TC_FP16 ? rnd_c(out, -24, 15) : rnd_c(out, -140, 40);
        break;
    case 1:   /* products near each other and near c: the truncations matter */
        for (i = 0; i < 32; i++) { a[i] = rnd_fp8_exp(ta, ma / 2 - 2, ma / 2 + 2); b[i] = rnd_fp8_exp(tb, mb / 2 - 2, mb / 2 + 2); }
        *c = rnd_c(out, -4, 4);
        break;
    case 2:   /* cancellation: pairs that cancel exactly, one small survivor, c against the rest */
        for (i = 0; i < 32; i += 2) {
            a[i] = rnd_fp8_exp(ta, 1, ma); b[i] = rnd_fp8_exp(tb, 1, mb);
            a[i + 1] = -a[i]; b[i + 1] = b[i];
        }
        a[5] = rnd_fp8_exp(ta, 0, 2);
        *c = tct_rand32() & 1u ? 0.0f : rnd_c(out, -20, 0);
        break;
    case 3:   /* subnormal operands, tiny or zero c: underflow and the sign of zero */
        for (i = 0; i < 32; i++) { a[i] = rnd_fp8_exp(ta, 0, 0); b[i] = rnd_fp8_exp(tb, 0, 1); }
        *c = out == TC_FP16 ? 0.0f : (tct_rand32() & 1u ? tct_u2f(tct_rand32() & 0x800003FFu) : -0.0f);
        break;
    case 4:   /* specials: NaN, and Inf where the type has it */
        for (i = 0; i < 32; i++) { a[i] = rnd_fp8(ta, 1); b[i] = rnd_fp8(tb, 1); }
        *c = (tct_rand32() & 7u) == 0 ? INFINITY : rnd_c(out, -10, 10);
        break;
    case 5:   /* zeros against a tiny c: a zero operand's exponent (-126) plus a large one sets E */
        for (i = 0; i < 32; i++) { a[i] = 0.0f; b[i] = rnd_fp8_exp(tb, mb - 3, mb); }
        a[3] = rnd_fp8_exp(ta, 0, 0) * 0.0f;
        *c = out == TC_FP16 ? rnd_c(out, -24, -14) : rnd_c(out, -126, -95);
        break;
    case 6:   /* operands subnormal in their type next to a c of full width: the exponent clamp sets E */
        for (i = 0; i < 32; i++) { a[i] = rnd_fp8_exp(ta, 0, 0); b[i] = rnd_fp8_exp(tb, mb / 2, mb / 2 + 3); }
        *c = rnd_c(out, -12, -2);
        break;
    default:  /* large: fp16 output overflows, fp32 sums stay exact near the top of e5m2 */
        for (i = 0; i < 32; i++) { a[i] = rnd_fp8_exp(ta, ma - 1, ma); b[i] = rnd_fp8_exp(tb, mb - 1, mb); }
        *c = out == TC_FP16 ? tc_round(TC_FP16, 65504.0f * (tct_rand32() & 1u ? 1.0f : -1.0f), TC_RN) : rnd_c(out, 100, 127);
        break;
    }
}

/* ------------------------------------------------------------- tests */

static void test_params(void) {
    tc_mma_params p;
    memset(&p, 0, sizeof p);
    tc_mma_instr s;
    int i, j;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++) {
            CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_ADA, fp8[i], fp8[j], TC_FP32, &p), TC_OK);
            CHECK(p.frac_bits == 13 && p.group == 16 && p.min_k == 16 && p.instr_k == 32 && p.out_mbits == 13 && p.out_rounding == TC_RZ);
            CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_RTX_BLACKWELL, fp8[i], fp8[j], TC_FP32, &p), TC_OK);
            CHECK(p.frac_bits == 25 && p.group == 32 && p.min_k == 16 && p.instr_k == 32 && p.out_mbits == 23);
            /* H100 and B200: m16n8k16 in their k32 parameters (ptxas 13.0 assembles it for sm_90 and sm_100) */
            CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_H100, fp8[i], fp8[j], TC_FP32, &p), TC_OK);
            CHECK(p.frac_bits == 13 && p.group == 32 && p.min_k == 16 && p.instr_k == 32 && p.out_mbits == 13 && p.out_rounding == TC_RZ);
            CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_B200, fp8[i], fp8[j], TC_FP32, &p), TC_OK);
            CHECK(p.frac_bits == 31 && p.group == 32 && p.min_k == 16 && p.instr_k == 32 && p.out_mbits == 23 && p.out_rounding == TC_RN);
            CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_B200, fp8[i], fp8[j], TC_FP16, &p), TC_OK);
            CHECK(p.min_k == 16 && p.out_mbits == 10 && p.out_rounding == TC_RN);
            CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_A100, fp8[i], fp8[j], TC_FP32, &p), TC_ERR_ARCH);
        }
    CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_ADA, TC_E4M3, TC_FP16, TC_FP32, &p), TC_ERR_DTYPE);
    CHECK_STATUS(tc_mma_instr_find("m16n8k16.e4m3", &s), TC_OK); CHECK(s == TC_MMA_M16N8K16_E4M3);
    CHECK_STATUS(tc_mma_instr_find("m16n8k16.e5m2.e4m3", &s), TC_OK); CHECK(s == TC_MMA_M16N8K16_E5M2_E4M3);
    CHECK_STATUS(tc_mma_instr_find("sp.m16n8k64.e4m3.e5m2", &s), TC_OK); CHECK(s == TC_MMA_SP_M16N8K64_E4M3_E5M2);
    /* the 8-bit m16n8k16 layout (PTX ISA, "Matrix fragments for mma.m16n8k16" with .e4m3/.e5m2):
       a_i at (g + 8 [i >= 4], 4t + i%4), b_i at (4t + i, g) */
    {
        int r = -1, c = -1;
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K16_E4M3, TC_FRAG_A, 6, 5, &r, &c) == TC_OK && r == 9 && c == 9);
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K16_E5M2, TC_FRAG_B, 7, 3, &r, &c) == TC_OK && r == 15 && c == 1);
        CHECK_STATUS(tc_mma_frag_coord(TC_MMA_M16N8K16_E4M3, TC_FRAG_A, 0, 8, &r, &c), TC_ERR_ARG);
        CHECK_STATUS(tc_mma_frag_coord(TC_MMA_M16N8K16_E4M3, TC_FRAG_B, 0, 4, &r, &c), TC_ERR_ARG);
    }
}

static void test_dot(void) {
    int ai, i, j, oi, m, t, n = getenv("TC_QUICK") ? 300 : 1500;
    tct_seed(1489);
    for (ai = 0; ai < 4; ai++)
        for (i = 0; i < 2; i++)
            for (j = 0; j < 2; j++)
                for (oi = 0; oi < 2; oi++) {
                    tc_arch arch = k16_arches[ai];
                    tc_dtype out = oi ? TC_FP16 : TC_FP32;
                    int bad16 = 0, bad32 = 0, badp = 0, badpad = 0, zeros = 0;
                    orc o = orc_for(arch, out, 0), op = orc_for(arch, out, 1);
                    tc_mma_options opt, plus;
                    memset(&opt, 0, sizeof opt); opt.b_type = fp8[j];
                    plus = opt; plus.zero_sign = TC_MMA_ZERO_SIGN_PLUS;
                    for (m = 0; m < NMODES; m++)
                        for (t = 0; t < n; t++) {
                            float a[32], b[32], c, got, want;
                            make_case(m, fp8[i], fp8[j], out, a, b, &c);
                            got = tc_mma_dot_ex(arch, fp8[i], out, 16, a, b, c, &opt);
                            want = orc_dot(16, 16, a, fp8[i], b, fp8[j], c, &o);
                            bad16 += !same(got, want, oi);
                            zeros += want == 0;
                            got = tc_mma_dot_ex(arch, fp8[i], out, 16, a, b, c, &plus);
                            badp += !same(got, orc_dot(16, 16, a, fp8[i], b, fp8[j], c, &op), oi);
                            got = tc_mma_dot_ex(arch, fp8[i], out, 32, a, b, c, &opt);
                            bad32 += !same(got, orc_dot(32, orc_group_of(arch), a, fp8[i], b, fp8[j], c, &o), oi);
                            /* where m16n8k32 is one group, m16n8k16 is it with 16 zero products more
                               (zeros at exponent -126 + the other's never set E) */
                            if (orc_group_of(arch) == 32) {
                                float za[32], zb[32];
                                memcpy(za, a, sizeof za); memcpy(zb, b, sizeof zb);
                                memset(za + 16, 0, 16 * sizeof *za); memset(zb + 16, 0, 16 * sizeof *zb);
                                badpad += !same(tc_mma_dot_ex(arch, fp8[i], out, 16, a, b, c, &opt),
                                                tc_mma_dot_ex(arch, fp8[i], out, 32, za, zb, c, &opt), oi);
                            }
                        }
                    tct_add((long)NMODES * n - badpad, badpad);
                    tct_add((long)NMODES * n - bad16, bad16);
                    tct_add((long)NMODES * n - badp, badp);
                    tct_add((long)NMODES * n - bad32, bad32);
                    CHECK(zeros > 0);   /* the zero cases were reached */
                    if (bad16 || bad32 || badp || badpad)
                        printf("%s %s x %s -> %s: %d k16, %d k16 (+0), %d k32, %d k16-as-padded-k32 mismatches of %d\n", tc_arch_name(arch),
                               tc_format_of(fp8[i])->name, tc_format_of(fp8[j])->name, tc_format_of(out)->name, bad16, badp, bad32, badpad, NMODES * n);
                }
}

/* The model's K loop: instructions of instr_k (the last padded with zero
   products), each of groups of g. */
static float orc_gemm_elem(int K, int instr_k, int g, const float *a, tc_dtype ta, const float *b, tc_dtype tb, float c, const orc *o) {
    float pa[128] = { 0 }, pb[128] = { 0 };
    int Kp = (K + instr_k - 1) / instr_k * instr_k, i;
    for (i = 0; i < K; i++) { pa[i] = a[i]; pb[i] = b[i]; }
    return orc_dot(Kp, g, pa, ta, pb, tb, c, o);
}

static void test_gemm(void) {
    enum { M = 5, N = 19, K = 48 };
    static float A[M * K], B[K * N], Bt[N * K], C[M * N], D1[M * N], D2[M * N];
    int ai, i, j, r, x, y, m;
    tct_seed(2718);
    for (ai = 0; ai < 4; ai++)
        for (i = 0; i < 2; i++)
            for (j = 0; j < 2; j++)
                for (m = 0; m < 3; m++) {
                    tc_gemm_desc d;
                    const tc_arch arch = k16_arches[ai];
                    orc o = orc_for(arch, TC_FP32, 0);
                    int bad = 0, diff = 0;
                    for (r = 0; r < M * K; r++) A[r] = m == 2 ? rnd_fp8_exp(fp8[i], 0, 3) : rnd_fp8(fp8[i], 0);
                    for (r = 0; r < K * N; r++) B[r] = m == 2 ? rnd_fp8_exp(fp8[j], 0, 3) : rnd_fp8(fp8[j], 0);
                    for (r = 0; r < M * N; r++) C[r] = m == 1 ? rnd_c(TC_FP32, -3, 3) : 0.0f;
                    memset(&d, 0, sizeof d);
                    d.arch = arch; d.in = fp8[i]; d.out = TC_FP32; d.M = M; d.N = N; d.K = K;
                    d.A = A; d.B = B; d.C = C; d.D = D1; d.options.b_type = fp8[j];
                    CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
                    d.D = D2; d.force_scalar = 1;
                    CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
                    for (x = 0; x < M; x++)
                        for (y = 0; y < N; y++) {
                            float want;
                            for (r = 0; r < K; r++) Bt[y * K + r] = B[r * N + y];
                            want = orc_gemm_elem(K, 32, orc_group_of(arch), A + x * K, fp8[i], Bt + y * K, fp8[j], C[x * N + y], &o);
                            bad += !same(D2[x * N + y], want, 0);
                            diff += tct_f2u(D1[x * N + y]) != tct_f2u(D2[x * N + y]);
                        }
                    tct_add(M * N - bad, bad);    /* scalar model = the oracle */
                    tct_add(M * N - diff, diff);  /* SIMD path = the scalar model */
                }
}

/* A random value of t, magnitudes 2^-8 .. 2^8. */
static float rnd_val(tc_dtype t) {
    if (t == TC_E4M3 || t == TC_E5M2) return rnd_fp8_exp(t, tc_format_of(t)->exponent_bits == 4 ? 4 : 10, tc_format_of(t)->exponent_bits == 4 ? 10 : 20);
    return tc_round(t, rnd_c(TC_FP32, -8, 8), TC_RN);
}

static void test_sparse(void) {
    enum { M = 8, N = 16, K = 64 };
    static const tc_arch arches[4] = { TC_ARCH_ADA, TC_ARCH_B200, TC_ARCH_RTX_BLACKWELL, TC_ARCH_H100 };
    static const tc_dtype as[7] = { TC_FP16, TC_BF16, TC_TF32, TC_E4M3, TC_E5M2, TC_E4M3, TC_E5M2 };
    static const tc_dtype bs[7] = { TC_FP16, TC_BF16, TC_TF32, TC_E4M3, TC_E5M2, TC_E5M2, TC_E4M3 };
    static float A[M * K], P[M * K], V[M * K / 2], Dn[M * K], B[K * N], C[M * N], Ds[M * N], Dd[M * N], Df[M * N];
    static uint32_t meta[M * 4];
    int ai, ti, r, ran = 0;
    tct_seed(24);
    for (ai = 0; ai < 4; ai++)
        for (ti = 0; ti < 7; ti++) {
            tc_sparse_gemm_desc s;
            tc_gemm_desc d;
            int bad = 0, badf = 0, words = 0;
            tc_dtype ta = as[ti], tb = bs[ti];
            if (arches[ai] == TC_ARCH_H100 && ti < 3) continue;   /* H100's 16-bit/tf32 sparse: test_sparsity */
            for (r = 0; r < M * K; r++) A[r] = (tct_rand32() & 3u) ? rnd_val(ta) : 0.0f;
            for (r = 0; r < K * N; r++) B[r] = rnd_val(tb);
            for (r = 0; r < M * N; r++) C[r] = rnd_c(TC_FP32, 0, 0);   /* |c| in [1, 2): E never from a dropped zero */
            CHECK_STATUS(tc_sparse_prune(ta, M, K, A, K, P, K, NULL), TC_OK);
            CHECK_STATUS(tc_sparse_meta_words(ta, K, &words), TC_OK);
            CHECK_STATUS(tc_sparse_compress(ta, M, K, P, K, V, K / 2, meta, words, 0, NULL), TC_OK);
            CHECK_STATUS(tc_sparse_decompress(ta, M, K, V, K / 2, meta, words, Dn, K, NULL), TC_OK);
            memset(&d, 0, sizeof d);
            d.arch = arches[ai]; d.in = ta; d.out = TC_FP32; d.M = M; d.N = N; d.K = K;
            d.A = Dn; d.B = B; d.C = C; d.D = Dd; d.force_scalar = 1; d.options.b_type = tb;
            CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
            memset(&s, 0, sizeof s);
            s.gemm = d; s.gemm.A = V; s.gemm.D = Ds; s.meta = meta;
            CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_OK);
            s.gemm.D = Df; s.gemm.force_scalar = 0;
            CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_OK);
            for (r = 0; r < M * N; r++) {
                bad += tct_f2u(Ds[r]) != tct_f2u(Dd[r]);
                badf += tct_f2u(Df[r]) != tct_f2u(Dd[r]);
            }
            tct_add(M * N - bad, bad);
            tct_add(M * N - badf, badf);
            ran++;
        }
    CHECK(ran == 25);
    /* refused: no mma.sp before sm_80, no FP8 on A100, pairings no instruction has */
    {
        static float v[8] = { 1, 2, 1, 2, 1, 2, 1, 2 }, b[16] = { 1 }, c[4], dd[4] = { 42, 42, 42, 42 };
        static uint32_t m[2] = { 0x44u, 0x44u };
        tc_sparse_gemm_desc s;
        memset(&s, 0, sizeof s);
        s.gemm.in = TC_FP16; s.gemm.out = TC_FP32; s.gemm.M = 2; s.gemm.N = 2; s.gemm.K = 8;
        s.gemm.A = v; s.gemm.B = b; s.gemm.C = c; s.gemm.D = dd; s.meta = m;
        s.gemm.arch = TC_ARCH_V100; CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_ERR_ARCH);
        s.gemm.arch = TC_ARCH_TURING; CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_ERR_ARCH);
        s.gemm.arch = (tc_arch)-1; CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_ERR_ARCH);
        s.gemm.arch = (tc_arch)INT_MAX; CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_ERR_ARCH);
        s.gemm.arch = TC_ARCH_A100; s.gemm.in = TC_E4M3; CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_ERR_ARCH);
        s.gemm.options.b_type = TC_E5M2; CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_ERR_ARCH);
        s.gemm.arch = TC_ARCH_ADA; s.gemm.options.b_type = TC_FP16; CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_ERR_DTYPE);
        s.gemm.in = TC_FP32; s.gemm.options.b_type = TC_FP32; CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_ERR_DTYPE);
        s.gemm.in = TC_E2M1; CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_ERR_DTYPE);
        s.gemm.in = TC_BF16; s.gemm.out = TC_FP16; CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_ERR_DTYPE);
        s.gemm.in = TC_E4M3; s.gemm.out = TC_FP32; s.gemm.K = 6; CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_ERR_SHAPE);
        s.gemm.K = 8; s.gemm.arch = TC_ARCH_RTX_BLACKWELL; CHECK_STATUS(tc_sparse_gemm_ex(&s), TC_OK);
        CHECK(dd[0] == 1.0f + 2.0f * b[2]);   /* row 0: 1*B[0][0] + 2*B[2][0] over c = 0 */
    }
    /* the dense K a new row accepts, and what it does not */
    {
        float a[32] = { 1 }, b[32] = { 1 }, x;
        x = tc_mma_dot(TC_ARCH_ADA, TC_E4M3, TC_FP32, 16, a, b, 0.0f); CHECK(x == 1.0f);
        x = tc_mma_dot(TC_ARCH_RTX_BLACKWELL, TC_E5M2, TC_FP16, 16, a, b, 0.0f); CHECK(x == 1.0f);
        x = tc_mma_dot(TC_ARCH_ADA, TC_E4M3, TC_FP32, 0, a, b, 0.0f); CHECK(x != x);
        x = tc_mma_dot(TC_ARCH_ADA, TC_E4M3, TC_FP32, -1, a, b, 0.0f); CHECK(x != x);
        x = tc_mma_dot(TC_ARCH_ADA, TC_E4M3, TC_FP32, INT_MAX, a, b, 0.0f); CHECK(x != x);
        x = tc_mma_dot(TC_ARCH_ADA, TC_E4M3, TC_FP32, 64, a, b, 0.0f); CHECK(x != x);   /* k64 is only sparse */
        x = tc_mma_dot(TC_ARCH_B200, TC_E4M3, TC_FP32, 16, a, b, 0.0f); CHECK(x == 1.0f);
        x = tc_mma_dot(TC_ARCH_H100, TC_E5M2, TC_FP16, 16, a, b, 0.0f); CHECK(x == 1.0f);
        x = tc_mma_dot(TC_ARCH_A100, TC_E4M3, TC_FP32, 16, a, b, 0.0f); CHECK(x != x);   /* no FP8 before sm_89 */
        x = tc_mma_dot(TC_ARCH_TURING, TC_E4M3, TC_FP32, 16, a, b, 0.0f); CHECK(x != x);
    }
}

int main(void) {
    test_params();
    test_dot();
    test_gemm();
    test_sparse();
    return tct_finish("test_fp8_k16_sparse");
}
