/* test_imma.c - integer types and integer mma.
   Section 1: s8, u8, s4, u4, s32 in the dtype table; tc_encode against C's
   own rounding functions (nearbyint, round, trunc, floor, ceil) clamped to
   the range, every code decoded and encoded back, the other format tools.
   Section 2: the 24 integer rows of the instruction table checked against
   their shapes, types and PTX spelling; tc_imma_dot and tc_igemm against a
   plain int64 loop written here (the whole sum modulo 2^32 without
   .satfinite; with it, each instruction's D clamped, the chain the header
   documents as ASSUMED), on every pairing and architecture, with C at the
   int32 edges; and bad input. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const tc_dtype int_types[] = { TC_S8, TC_U8, TC_S4, TC_U4, TC_S32 };
static const int modes[] = { TC_RN, TC_RNA, TC_RZ, TC_RD, TC_RU };

typedef struct { const char *name; int bits, is_signed; long long lo, hi; } int_fact;
static const int_fact facts[] = {
    { "s8", 8, 1, -128, 127 }, { "u8", 8, 0, 0, 255 }, { "s4", 4, 1, -8, 7 }, { "u4", 4, 0, 0, 15 },
    { "s32", 32, 1, INT32_MIN, INT32_MAX },
};

/* cvt.{rni,rna,rzi,rmi,rpi} by the C library, then the clamp cvt applies. */
static long long ref_convert(float x, int mode, const int_fact *f) {
    double v = x, r;
    if (x != x) return 0;
    switch (mode) {
    case TC_RN:  r = nearbyint(v); break;   /* the default FE_TONEAREST: ties to even */
    case TC_RNA: r = round(v); break;
    case TC_RZ:  r = trunc(v); break;
    case TC_RD:  r = floor(v); break;
    default:     r = ceil(v); break;
    }
    if (r < (double)f->lo) return f->lo;
    if (r > (double)f->hi) return f->hi;
    return (long long)r;
}

static uint32_t code_of(long long v, int bits) { return (uint32_t)((unsigned long long)v & (bits == 32 ? 0xFFFFFFFFull : (1ull << bits) - 1)); }

static void test_formats(void) {
    int ti, mi, i;
    char buf[64];
    float odd[] = { 0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 7.5f, -8.5f, 127.5f, -128.5f, 255.5f, 15.5f,
                    1e-45f, -1e-45f, 3e9f, -3e9f, 2147483520.0f, -2147483648.0f, 16777217.0f, 1e30f };
    for (ti = 0; ti < 5; ti++) {
        tc_dtype t = int_types[ti];
        const int_fact *f = &facts[ti];
        const tc_format *fmt = tc_format_of(t);
        uint32_t mask = f->bits == 32 ? 0xFFFFFFFFu : (1u << f->bits) - 1u;
        if (!CHECK(fmt != NULL)) continue;
        /* the table's facts */
        CHECK(strcmp(fmt->name, f->name) == 0 && fmt->total_bits == f->bits && fmt->exponent_bits == 0);
        CHECK(fmt->mantissa_bits == f->bits - f->is_signed && fmt->is_signed == f->is_signed && fmt->bias == 0);
        CHECK(!fmt->has_inf && !fmt->has_nan && fmt->nan_bits == 0 && fmt->max_finite_bits == (uint32_t)f->hi);
        CHECK(fmt->max_finite == (float)f->hi && fmt->min_normal == 1.0f && fmt->min_subnormal == 1.0f);
        CHECK(tc_decode(t, fmt->max_finite_bits) == fmt->max_finite);
        /* every code of the small types decodes to its value and encodes back, in every mode */
        if (f->bits <= 8) {
            uint32_t c;
            for (c = 0; c <= mask; c++) {
                long long v = f->is_signed && (c >> (f->bits - 1)) ? (long long)c - (1ll << f->bits) : (long long)c;
                CHECK(tc_decode(t, c) == (float)v);
                CHECK(tc_decode(t, c | ~mask) == (float)v);   /* bits above the width are ignored */
                for (mi = 0; mi < 5; mi++) CHECK_BITS(c, tc_encode(t, (float)v, modes[mi]), c);
                CHECK(tc_classify(t, c) == (v ? TC_CLASS_NORMAL : TC_CLASS_ZERO));
                {
                    tc_fields fl = tc_split(t, c);
                    CHECK(fl.sign == (v < 0) && fl.exponent == 0 && fl.mantissa == (uint32_t)(v < 0 ? -v : v) && fl.cls == tc_classify(t, c));
                }
                CHECK(tc_next_up(t, (float)v) == (float)(v < f->hi ? v + 1 : v));
                CHECK(tc_next_down(t, (float)v) == (float)(v > f->lo ? v - 1 : v));
                CHECK(tc_ulp(t, (float)v) == 1.0f);
            }
        }
        /* random floats of every magnitude, and the hand-picked edges, in every mode (satfinite and
           ftz accepted: cvt to an integer saturates anyway) */
        tct_seed(101 + (uint64_t)ti);
        for (i = 0; i < 20000 + (int)(sizeof odd / sizeof odd[0]); i++) {
            float x;
            if (i < (int)(sizeof odd / sizeof odd[0])) x = odd[i];
            else if (i & 1) x = tct_u2f(tct_rand32());
            else x = ((float)(int32_t)tct_rand32() / 2147483648.0f) * (float)(f->hi - f->lo + 3) * 0.6f;   /* in and near the range */
            for (mi = 0; mi < 5; mi++) {
                uint32_t want = code_of(ref_convert(x, modes[mi], f), f->bits);
                CHECK_BITS(tct_f2u(x), tc_encode(t, x, modes[mi]), want);
                CHECK_BITS(tct_f2u(x), tc_encode(t, x, modes[mi] | TC_SATFINITE), want);
                CHECK(tc_round(t, x, modes[mi]) == tc_decode(t, want));
            }
        }
        /* specials and flags: NaN gives 0, Inf the ends; .ftz makes a subnormal 0 before rounding up */
        CHECK_BITS(0, tc_encode(t, NAN, TC_RN), 0u);
        CHECK_BITS(0, tc_encode(t, INFINITY, TC_RN), code_of(f->hi, f->bits));
        CHECK_BITS(0, tc_encode(t, -INFINITY, TC_RZ), code_of(f->lo, f->bits));
        CHECK_BITS(0, tc_encode(t, 1e-45f, TC_RU), 1u);
        CHECK_BITS(0, tc_encode(t, 1e-45f, TC_RU | TC_FTZ), 0u);
        CHECK_BITS(0, tc_encode(t, 0.5f, 17), 0u);   /* a bad mode: 0, as NaN */
        CHECK(isnan(tc_ulp(t, NAN)) && isnan(tc_ulp(t, INFINITY)));
        /* the FP-only tools */
        CHECK_BITS(0, tc_encode_sr(t, 1.5f, 0xFFFFu, 16, 0), 0u);
        CHECK(tc_sr_bits(t) == 0);
        {
            float in[5] = { 1.5f, -3.5f, 1e9f, NAN, -1e-40f }, out[5];
            uint8_t codes[5];
            CHECK_STATUS(tc_encode_u8_array(t, in, codes, 5, TC_RN), TC_ERR_DTYPE);
            CHECK_STATUS(tc_decode_u8_array(t, codes, out, 5), TC_ERR_DTYPE);
            for (mi = 0; mi < 5; mi++) {
                CHECK_STATUS(tc_round_array(t, in, out, 5, modes[mi]), TC_OK);
                for (i = 0; i < 5; i++) CHECK(tct_f2u(out[i]) == tct_f2u(tc_round(t, in[i], modes[mi])));
            }
        }
    }
    CHECK_STATUS(tc_format_bits(TC_S8, 0x81u, buf, sizeof buf), TC_OK);
    CHECK(strcmp(buf, "1 0000001") == 0);
    CHECK_STATUS(tc_format_bits(TC_U4, 0xAu, buf, sizeof buf), TC_OK);
    CHECK(strcmp(buf, "1010") == 0);
    CHECK_STATUS(tc_format_bits(TC_S32, 0x80000000u, buf, sizeof buf), TC_OK);
    CHECK(strcmp(buf, "1 0000000000000000000000000000000") == 0);
    CHECK_STATUS(tc_format_bits(TC_S32, 0, buf, 34), TC_ERR_BUFFER);
    CHECK(tc_decode(TC_S32, 0x7FFFFFFFu) == 2147483648.0f);   /* cvt.rn.f32.s32 */
    CHECK(tc_decode(TC_S32, 0x80000000u) == -2147483648.0f);
    CHECK_BITS(0, tc_encode(TC_S32, 2147483520.0f, TC_RN), 2147483520u);
}

/* ---- the instruction table's integer rows */

static int is8(tc_dtype t) { return t == TC_S8 || t == TC_U8; }
static int is4(tc_dtype t) { return t == TC_S4 || t == TC_U4; }
static int is_int(tc_dtype t) { return is8(t) || is4(t); }

static void test_table(void) {
    int i, rows = 0, seen[6][4];
    memset(seen, 0, sizeof seen);
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++) {
        tc_mma_instr_info in;
        tc_mma_instr found = (tc_mma_instr)-1;
        char want[64];
        int bits, shape, pair;
        unsigned archs;
        CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)i, &in), TC_OK);
        if (!is_int(in.in)) { CHECK(!is_int(in.b_type)); continue; }
        rows++;
        bits = is8(in.in) ? 8 : 4;
        CHECK(is8(in.in) ? is8(in.b_type) : is4(in.b_type));
        /* name: mMnNkK.a[.b]; PTX: the s32 form */
        sprintf(want, "m%dn%dk%d.%s", in.m, in.n, in.k, tc_format_of(in.in)->name);
        if (in.b_type != in.in) sprintf(want + strlen(want), ".%s", tc_format_of(in.b_type)->name);
        CHECK(strcmp(in.name, want) == 0);
        sprintf(want, "mma.sync.aligned.m%dn%dk%d.row.col.s32.%s.%s.s32", in.m, in.n, in.k, tc_format_of(in.in)->name,
                tc_format_of(in.b_type)->name);
        CHECK(strcmp(in.ptx, want) == 0);
        /* one M x K, K x N and M x N tile over 32 lanes, 32-bit registers */
        CHECK(in.a_elems * 32 == in.m * in.k && in.b_elems * 32 == in.k * in.n && in.c_elems * 32 == in.m * in.n);
        CHECK(in.a_regs * 32 == in.a_elems * bits && in.b_regs * 32 == in.b_elems * bits);
        CHECK(!in.fp16_accumulate && !in.sparse_group && !in.sparse_keep && !in.selectors && !in.meta_lanes);
        CHECK(in.layout == 1);
        /* PTX's shapes: 8-bit m8n8k16, m16n8k16, m16n8k32; 4-bit m8n8k32, m16n8k32, m16n8k64 */
        shape = in.m == 8 ? 0 : in.k == 16 * (bits == 8 ? 1 : 2) ? 1 : 2;
        CHECK(in.n == 8 && in.k == (bits == 8 ? 16 : 32) << (shape == 2));
        archs = TC_ARCH_BIT(TC_ARCH_A100) | TC_ARCH_BIT(TC_ARCH_ADA);
        if (bits == 8) archs |= TC_ARCH_BIT(TC_ARCH_H100) | TC_ARCH_BIT(TC_ARCH_B200) | TC_ARCH_BIT(TC_ARCH_RTX_BLACKWELL);
        if (shape == 0) archs |= TC_ARCH_BIT(TC_ARCH_TURING);
        CHECK(in.archs == archs);
        pair = (in.in == TC_U8 || in.in == TC_U4) * 2 + (in.b_type == TC_U8 || in.b_type == TC_U4);
        seen[shape + (bits == 4) * 3][pair]++;
        CHECK_STATUS(tc_mma_instr_find(in.name, &found), TC_OK);
        CHECK(found == (tc_mma_instr)i);
        /* the float model has no integer kind */
        {
            tc_mma_params p;
            float ones[64];
            int j;
            for (j = 0; j < 64; j++) ones[j] = 1.0f;
            CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_A100, in.in, in.b_type, TC_FP32, &p), TC_ERR_DTYPE);
            CHECK(isnan(tc_mma_dot(TC_ARCH_A100, in.in, TC_FP32, in.k, ones, ones, 0.0f)));
        }
    }
    CHECK(rows == 24);
    for (i = 0; i < 24; i++) CHECK(seen[i / 4][i % 4] == 1);   /* every shape in all four signedness pairings */
    /* the register layouts against the PTX ISA figures ("Matrix fragments for mma.m8n8k16/m16n8k16/m8n8k32/m16n8k64") */
    {
        int r, c;
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K16_S8, TC_FRAG_A, 5, 5, &r, &c) == TC_OK && r == 9 && c == 5);    /* g=1,t=1: a5 (g+8, 4t+1) */
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K16_U8, TC_FRAG_B, 5, 3, &r, &c) == TC_OK && r == 7 && c == 1);    /* b3 (4t+3, g) */
        CHECK(tc_mma_frag_coord(TC_MMA_M8N8K16_S8, TC_FRAG_A, 30, 2, &r, &c) == TC_OK && r == 7 && c == 10);   /* g=7,t=2: a2 (g, 4t+2) */
        CHECK(tc_mma_frag_coord(TC_MMA_M8N8K16_S8, TC_FRAG_C, 30, 1, &r, &c) == TC_OK && r == 7 && c == 5);    /* c1 (g, 2t+1) */
        CHECK(tc_mma_frag_coord(TC_MMA_M8N8K32_S4, TC_FRAG_B, 6, 3, &r, &c) == TC_OK && r == 19 && c == 1);    /* g=1,t=2: b3 (8t+3, g) */
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K64_S4, TC_FRAG_A, 7, 20, &r, &c) == TC_OK && r == 1 && c == 60);  /* g=1,t=3: a20 (g, 8t+4+32) */
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K64_U4, TC_FRAG_A, 7, 28, &r, &c) == TC_OK && r == 9 && c == 60);  /* a28 (g+8, 8t+4+32) */
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K64_S4_U4, TC_FRAG_B, 7, 12, &r, &c) == TC_OK && r == 60 && c == 1); /* b12 (8t+4+32, g) */
        CHECK(tc_mma_frag_coord(TC_MMA_M16N8K32_S8_U8, TC_FRAG_A, 7, 12, &r, &c) == TC_OK && r == 9 && c == 28); /* as FP8 m16n8k32: a12 (g+8, 4t+16) */
    }
}

/* ---- numerics against an int64 loop */

/* What the header documents: c, then each instruction's `step` products;
   wrap: the exact total modulo 2^32; satfinite: clamp after each step. */
static int32_t ref_dot(int sat, int lo, int hi, int k, const long long *a, const long long *b, int32_t c) {
    long long acc = c, total = c;
    int i = 0;
    for (i = 0; i < k; i++) total += a[i] * b[i];
    if (!sat) {
        long long r = total % 4294967296ll;
        if (r < 0) r += 4294967296ll;
        return (int32_t)(r > INT32_MAX ? r - 4294967296ll : r);
    }
    for (i = 0; i < k;) {
        int step = k - i >= hi ? hi : lo, j;
        for (j = 0; j < step; j++, i++) acc += a[i] * b[i];
        if (acc > INT32_MAX) acc = INT32_MAX;
        if (acc < INT32_MIN) acc = INT32_MIN;
    }
    return (int32_t)acc;
}

static long long value_of(tc_dtype t, int8_t x) { return t == TC_U8 ? (long long)(uint8_t)x : (long long)x; }

/* A random operand: mostly uniform over the type, often an extreme. */
static int8_t rand_operand(tc_dtype t) {
    const int_fact *f = &facts[t == TC_S8 ? 0 : t == TC_U8 ? 1 : t == TC_S4 ? 2 : 3];
    uint32_t r = tct_rand32();
    long long v = (r & 7u) == 0 ? f->lo : (r & 7u) == 1 ? f->hi : f->lo + (long long)((r >> 8) % (uint32_t)(f->hi - f->lo + 1));
    return (int8_t)(uint8_t)v;   /* u8 above 127 as its bits */
}

enum { MAXK = 192 };

static void test_dot(void) {
    static const tc_dtype t8[] = { TC_S8, TC_U8 }, t4[] = { TC_S4, TC_U4 };
    static const int32_t cs[] = { 0, 1, -1, INT32_MAX, INT32_MIN, INT32_MAX - 100, INT32_MIN + 100, 123456789 };
    int arch, w, ai, bi, trial, sat, i;
    long mism = 0, cases = 0;
    tct_seed(7);
    for (arch = 0; arch < TC_ARCH_COUNT; arch++)
        for (w = 0; w < 2; w++)
            for (ai = 0; ai < 2; ai++)
                for (bi = 0; bi < 2; bi++)
                    for (sat = 0; sat < 2; sat++) {
                        tc_imma_type t;
                        int lo = 0, hi = 0;
                        tc_status st;
                        t.arch = (tc_arch)arch; t.a_type = w ? t4[ai] : t8[ai]; t.b_type = w ? t4[bi] : t8[bi]; t.satfinite = sat;
                        st = tc_imma_k(&t, &lo, &hi);
                        if (st != TC_OK) {
                            int32_t out = 77;
                            int8_t z[64] = { 0 };
                            CHECK(st == TC_ERR_ARCH);
                            CHECK(arch == TC_ARCH_V100 || (w && (arch == TC_ARCH_H100 || arch == TC_ARCH_B200 || arch == TC_ARCH_RTX_BLACKWELL)));
                            CHECK_STATUS(tc_imma_dot(&t, 32, z, z, 0, &out), TC_ERR_ARCH);
                            CHECK(out == 77);
                            continue;
                        }
                        CHECK(hi == (w ? 64 : 32) >> (arch == TC_ARCH_TURING) && lo == (w ? 32 : 16));
                        for (trial = 0; trial < 60; trial++) {
                            int8_t a[MAXK], b[MAXK];
                            long long av[MAXK], bv[MAXK];
                            int k = lo * (int)(tct_rand32() % (uint32_t)(MAXK / lo + 1));
                            int32_t c = trial < 8 ? cs[trial] : (int32_t)tct_rand32(), got = 0, want;
                            for (i = 0; i < k; i++) {
                                a[i] = rand_operand(t.a_type); b[i] = rand_operand(t.b_type);
                                if (trial % 3 == 1) { a[i] = (int8_t)(t.a_type == TC_S8 ? -128 : t.a_type == TC_S4 ? -8 : t.a_type == TC_U8 ? -1 : 15); b[i] = (int8_t)(t.b_type == TC_S8 ? -128 : t.b_type == TC_S4 ? -8 : t.b_type == TC_U8 ? -1 : 15); }
                                av[i] = value_of(t.a_type, a[i]); bv[i] = value_of(t.b_type, b[i]);
                            }
                            CHECK_STATUS(tc_imma_dot(&t, k, a, b, c, &got), TC_OK);
                            want = ref_dot(sat, lo, hi, k, av, bv, c);
                            cases++;
                            if (got != want) {
                                mism++;
                                if (mism < 5) printf("     imma %s %s x %s sat %d k %d c %d: got %d want %d\n", tc_arch_name(t.arch),
                                                     tc_format_of(t.a_type)->name, tc_format_of(t.b_type)->name, sat, k, c, got, want);
                            }
                        }
                    }
    CHECK(mism == 0 && cases > 1000);
    tct_add(cases - mism, mism);
}

/* The overflow corners by hand: wrap against satfinite, and the chain's
   per-instruction clamp (an excursion past INT32_MAX that comes back). */
static void test_overflow(void) {
    tc_imma_type t;
    int8_t a[64], b[64];
    int32_t out;
    int i;
    t.arch = TC_ARCH_A100; t.a_type = TC_U8; t.b_type = TC_U8; t.satfinite = 0;
    for (i = 0; i < 32; i++) { a[i] = (int8_t)-1; b[i] = (int8_t)-1; }   /* 255 x 255, 32 times = 2080800 */
    CHECK_STATUS(tc_imma_dot(&t, 32, a, b, INT32_MAX, &out), TC_OK);
    CHECK(out == (int32_t)(uint32_t)(2147483647u + 2080800u) && out < 0);   /* wraps */
    t.satfinite = 1;
    CHECK_STATUS(tc_imma_dot(&t, 32, a, b, INT32_MAX, &out), TC_OK);
    CHECK(out == INT32_MAX);
    t.a_type = TC_S8;   /* -1 x 255 */
    CHECK_STATUS(tc_imma_dot(&t, 32, a, b, INT32_MIN + 5, &out), TC_OK);
    CHECK(out == INT32_MIN);
    t.satfinite = 0;
    CHECK_STATUS(tc_imma_dot(&t, 32, a, b, INT32_MIN + 5, &out), TC_OK);
    CHECK(out == (int32_t)(uint32_t)((uint32_t)INT32_MIN + 5u - 8160u) && out > 0);
    /* 64 = two k32 instructions: +2^14 x 32 then -16256 x 32 from INT32_MAX - 5000 */
    t.a_type = TC_S8; t.b_type = TC_S8;
    for (i = 0; i < 64; i++) { a[i] = (int8_t)-128; b[i] = (int8_t)(i < 32 ? -128 : 127); }
    CHECK_STATUS(tc_imma_dot(&t, 64, a, b, INT32_MAX - 5000, &out), TC_OK);
    CHECK(out == INT32_MAX - 5000 + (32 * 16384 - 32 * 16256));   /* the total is in range: wrapping changes nothing */
    t.satfinite = 1;
    CHECK_STATUS(tc_imma_dot(&t, 64, a, b, INT32_MAX - 5000, &out), TC_OK);
    CHECK(out == INT32_MAX - 32 * 16256);   /* the first instruction clamped */
    /* the same products in the other order never touch the bound */
    for (i = 0; i < 64; i++) b[i] = (int8_t)(i < 32 ? 127 : -128);
    CHECK_STATUS(tc_imma_dot(&t, 64, a, b, INT32_MAX - 5000, &out), TC_OK);
    CHECK(out == INT32_MAX - 5000 + (32 * 16384 - 32 * 16256));
    /* Turing: one K of 16, so a k32 chain clamps after 16 */
    t.arch = TC_ARCH_TURING;
    for (i = 0; i < 32; i++) b[i] = (int8_t)(i < 16 ? -128 : 127);
    CHECK_STATUS(tc_imma_dot(&t, 32, a, b, INT32_MAX - 5000, &out), TC_OK);
    CHECK(out == INT32_MAX - 16 * 16256);
}

static void test_igemm(void) {
    enum { M = 7, N = 9, K = 96 };
    static int8_t A[M * K], B[K * N];
    static int32_t C[M * N], D[M * N], D2[M * N];
    tc_igemm_desc d;
    int m, n, k, sat;
    tct_seed(3);
    for (sat = 0; sat < 2; sat++) {
        memset(&d, 0, sizeof d);
        d.type.arch = TC_ARCH_ADA; d.type.a_type = TC_U4; d.type.b_type = TC_S4; d.type.satfinite = sat;
        for (m = 0; m < M * K; m++) A[m] = rand_operand(TC_U4);
        for (m = 0; m < K * N; m++) B[m] = rand_operand(TC_S4);
        for (m = 0; m < M * N; m++) C[m] = m % 3 ? (int32_t)tct_rand32() : INT32_MAX - m;
        d.M = M; d.N = N; d.K = K; d.A = A; d.B = B; d.C = C; d.D = D;
        CHECK_STATUS(tc_igemm(&d), TC_OK);
        for (m = 0; m < M; m++)
            for (n = 0; n < N; n++) {
                int8_t col[K];
                int32_t one = 0;
                for (k = 0; k < K; k++) col[k] = B[k * N + n];
                CHECK_STATUS(tc_imma_dot(&d.type, K, A + m * K, col, C[m * N + n], &one), TC_OK);
                CHECK(D[m * N + n] == one);
            }
        /* explicit leading dimensions give the same; D may be C */
        memcpy(D2, C, sizeof C);
        d.lda = K; d.ldb = N; d.ldc = N; d.ldd = N; d.C = D2; d.D = D2;
        CHECK_STATUS(tc_igemm(&d), TC_OK);
        CHECK(memcmp(D, D2, sizeof D) == 0);
    }
    /* K = 0: D = C (NULL C: 0), A and B not read */
    d.K = 0; d.A = NULL; d.B = NULL; d.C = C; d.D = D; d.lda = 0;
    CHECK_STATUS(tc_igemm(&d), TC_OK);
    CHECK(memcmp(D, C, sizeof C) == 0);
    d.C = NULL;
    CHECK_STATUS(tc_igemm(&d), TC_OK);
    for (m = 0; m < M * N; m++) CHECK(D[m] == 0);
    /* empty outputs need no D */
    d.K = K; d.A = A; d.B = B; d.M = 0; d.D = NULL;
    CHECK_STATUS(tc_igemm(&d), TC_OK);
    d.M = M; d.N = 0;
    CHECK_STATUS(tc_igemm(&d), TC_OK);
    /* bad input: D untouched */
    d.N = N; d.D = D; d.C = C;
    for (m = 0; m < M * N; m++) D[m] = 12345;
    CHECK_STATUS(tc_igemm(NULL), TC_ERR_NULL);
    d.D = NULL; CHECK_STATUS(tc_igemm(&d), TC_ERR_NULL); d.D = D;
    d.A = NULL; CHECK_STATUS(tc_igemm(&d), TC_ERR_NULL); d.A = A;
    d.B = NULL; CHECK_STATUS(tc_igemm(&d), TC_ERR_NULL); d.B = B;
    d.M = -1; CHECK_STATUS(tc_igemm(&d), TC_ERR_SIZE); d.M = M;
    d.N = INT_MIN; CHECK_STATUS(tc_igemm(&d), TC_ERR_SIZE); d.N = N;
    d.K = -32; CHECK_STATUS(tc_igemm(&d), TC_ERR_SIZE);
    d.K = 16; CHECK_STATUS(tc_igemm(&d), TC_ERR_SHAPE);   /* 4-bit: K a multiple of 32 */
    d.K = INT_MAX; CHECK_STATUS(tc_igemm(&d), TC_ERR_SHAPE); d.K = K;
    d.lda = K - 1; CHECK_STATUS(tc_igemm(&d), TC_ERR_SHAPE); d.lda = 0;
    d.ldb = -1; CHECK_STATUS(tc_igemm(&d), TC_ERR_SHAPE); d.ldb = 0;
    d.ldc = N - 1; CHECK_STATUS(tc_igemm(&d), TC_ERR_SHAPE); d.ldc = 0;
    d.ldd = INT_MIN; CHECK_STATUS(tc_igemm(&d), TC_ERR_SHAPE); d.ldd = 0;
    d.type.satfinite = 2; CHECK_STATUS(tc_igemm(&d), TC_ERR_ARG); d.type.satfinite = 0;
    d.type.arch = TC_ARCH_H100; CHECK_STATUS(tc_igemm(&d), TC_ERR_ARCH);
    d.type.arch = (tc_arch)-1; CHECK_STATUS(tc_igemm(&d), TC_ERR_ARCH);
    d.type.arch = TC_ARCH_COUNT; CHECK_STATUS(tc_igemm(&d), TC_ERR_ARCH); d.type.arch = TC_ARCH_ADA;
    d.type.b_type = TC_S8; CHECK_STATUS(tc_igemm(&d), TC_ERR_DTYPE);      /* 4-bit x 8-bit: no such mma */
    d.type.b_type = TC_FP16; CHECK_STATUS(tc_igemm(&d), TC_ERR_DTYPE);
    d.type.b_type = TC_S32; CHECK_STATUS(tc_igemm(&d), TC_ERR_DTYPE);
    d.type.b_type = (tc_dtype)INT_MAX; CHECK_STATUS(tc_igemm(&d), TC_ERR_DTYPE); d.type.b_type = TC_S4;
    A[K + 5] = 16; CHECK_STATUS(tc_igemm(&d), TC_ERR_NOT_REPRESENTABLE);   /* u4 holds 0..15 */
    A[K + 5] = -1; CHECK_STATUS(tc_igemm(&d), TC_ERR_NOT_REPRESENTABLE); A[K + 5] = 3;
    B[(K - 1) * N + N - 1] = 8; CHECK_STATUS(tc_igemm(&d), TC_ERR_NOT_REPRESENTABLE);   /* s4 holds -8..7 */
    B[(K - 1) * N + N - 1] = -9; CHECK_STATUS(tc_igemm(&d), TC_ERR_NOT_REPRESENTABLE); B[(K - 1) * N + N - 1] = -8;
    for (m = 0; m < M * N; m++) CHECK(D[m] == 12345);
    CHECK_STATUS(tc_igemm(&d), TC_OK);
}

static void test_dot_errors(void) {
    tc_imma_type t;
    int8_t a[32] = { 0 }, b[32] = { 0 };
    int32_t out = 99;
    int lo = -1, hi = -1;
    t.arch = TC_ARCH_A100; t.a_type = TC_S4; t.b_type = TC_U4; t.satfinite = 0;
    CHECK_STATUS(tc_imma_dot(&t, 0, NULL, NULL, -7, &out), TC_OK);   /* K = 0: c */
    CHECK(out == -7);
    out = 99;
    CHECK_STATUS(tc_imma_dot(NULL, 32, a, b, 0, &out), TC_ERR_NULL);
    CHECK_STATUS(tc_imma_dot(&t, 32, a, b, 0, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_imma_dot(&t, 32, NULL, b, 0, &out), TC_ERR_NULL);
    CHECK_STATUS(tc_imma_dot(&t, 32, a, NULL, 0, &out), TC_ERR_NULL);
    CHECK_STATUS(tc_imma_dot(&t, -1, a, b, 0, &out), TC_ERR_SHAPE);
    CHECK_STATUS(tc_imma_dot(&t, INT_MIN, a, b, 0, &out), TC_ERR_SHAPE);
    CHECK_STATUS(tc_imma_dot(&t, INT_MAX, a, b, 0, &out), TC_ERR_SHAPE);
    CHECK_STATUS(tc_imma_dot(&t, 16, a, b, 0, &out), TC_ERR_SHAPE);
    a[31] = 8; CHECK_STATUS(tc_imma_dot(&t, 32, a, b, 0, &out), TC_ERR_NOT_REPRESENTABLE); a[31] = 0;
    b[0] = -1; CHECK_STATUS(tc_imma_dot(&t, 32, a, b, 0, &out), TC_ERR_NOT_REPRESENTABLE); b[0] = 0;
    CHECK(out == 99);
    CHECK_STATUS(tc_imma_k(&t, &lo, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_imma_k(&t, NULL, &hi), TC_ERR_NULL);
    CHECK_STATUS(tc_imma_k(NULL, &lo, &hi), TC_ERR_NULL);
    t.satfinite = -1; CHECK_STATUS(tc_imma_k(&t, &lo, &hi), TC_ERR_ARG); t.satfinite = 0;
    t.a_type = TC_S32; CHECK_STATUS(tc_imma_k(&t, &lo, &hi), TC_ERR_DTYPE);
    t.a_type = TC_E4M3; CHECK_STATUS(tc_imma_k(&t, &lo, &hi), TC_ERR_DTYPE);
    t.a_type = (tc_dtype)-1; CHECK_STATUS(tc_imma_k(&t, &lo, &hi), TC_ERR_DTYPE);
    CHECK(lo == -1 && hi == -1);
    t.a_type = TC_U8; t.b_type = TC_S8; t.arch = TC_ARCH_V100;
    CHECK_STATUS(tc_imma_k(&t, &lo, &hi), TC_ERR_ARCH);
    t.arch = TC_ARCH_B200;
    CHECK_STATUS(tc_imma_k(&t, &lo, &hi), TC_OK);
    CHECK(lo == 16 && hi == 32);
    /* the float entry points refuse integer types */
    {
        tc_mma_params p;
        float x[32] = { 1.0f }, D1[1];
        CHECK_STATUS(tc_mma_params_of(TC_ARCH_A100, TC_S8, TC_FP32, &p), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_params_of(TC_ARCH_A100, TC_FP16, TC_S32, &p), TC_ERR_DTYPE);
        CHECK(isnan(tc_mma_dot(TC_ARCH_A100, TC_S8, TC_FP32, 32, x, x, 0.0f)));
        CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_S8, TC_FP32, 1, 1, 32, x, 32, x, 1, NULL, 1, D1, 1), TC_ERR_DTYPE);
        CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_S32, 1, 1, 16, x, 16, x, 1, NULL, 1, D1, 1), TC_ERR_DTYPE);
    }
}

int main(void) {
    test_formats();
    test_table();
    test_dot();
    test_overflow();
    test_igemm();
    test_dot_errors();
    return tct_finish("test_imma");
}
