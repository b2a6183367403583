/* test_sparsity.c - section 4: prune, check, compress and decompress on
   random matrices of many shapes; every metadata code and every group
   pattern; the fragment layouts as bijections and their pack/unpack round
   trip; and bad input. The layouts tested here are the header's reading of
   the PTX ISA: cuda/sparsity.cu is what confirms them on a GPU. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>

enum { MAXM = 48, MAXK = 72 };

/* A random value of type t, zero with probability 1/4 (sometimes -0), so
   that groups with 0, 1, 2, 3 and 4 non-zeros all occur. */
static float rand_value(tc_dtype t) {
    uint32_t r = tct_rand32();
    float x;
    if ((r & 3u) == 0) return (r & 4u) ? -0.0f : 0.0f;
    x = ((float)(r >> 8) / 16777216.0f - 0.5f) * 8.0f;
    if ((r & 0xF0u) == 0x10u) x = 1.0f;   /* repeated magnitudes exercise the tie rule */
    if ((r & 0xF0u) == 0x20u) x = -1.0f;
    return tc_round(t, x, TC_RN);
}

static void fill(tc_dtype t, float *a, int n) { int i; for (i = 0; i < n; i++) a[i] = rand_value(t); }

static int same_bits(float a, float b) { return tct_f2u(a) == tct_f2u(b); }

/* Metadata words per row of a K the caller knows is valid; a failure counts
   and gives 0. */
static int meta_words(tc_dtype t, int K) {
    int w = -1;
    if (!CHECK(tc_sparse_meta_words(t, K, &w) == TC_OK)) return 0;
    return w;
}

/* The descriptor entry points with every argument spelled out, so the
   checks below read like the calls they were written for (opt NULL = the
   architecture's own behaviour). */
static tc_status gemm_ex(tc_arch arch, tc_dtype in, tc_dtype out, int M, int N, int K,
                         const float *A, int lda, const float *B, int ldb,
                         const float *C, int ldc, float *D, int ldd, const tc_mma_options *opt) {
    tc_gemm_desc d;
    memset(&d, 0, sizeof d);
    d.arch = arch; d.in = in; d.out = out; d.M = M; d.N = N; d.K = K;
    d.A = A; d.lda = lda; d.B = B; d.ldb = ldb; d.C = C; d.ldc = ldc; d.D = D; d.ldd = ldd;
    if (opt) d.options = *opt;
    return tc_gemm_ex(&d);
}

static tc_status sparse_gemm_ex(tc_arch arch, tc_dtype in, tc_dtype out, int M, int N, int K,
                                const float *values, int ldv, const uint32_t *meta, int ldm,
                                const float *B, int ldb, const float *C, int ldc, float *D, int ldd,
                                const tc_mma_options *opt) {
    tc_sparse_gemm_desc d;
    memset(&d, 0, sizeof d);
    d.gemm.arch = arch; d.gemm.in = in; d.gemm.out = out; d.gemm.M = M; d.gemm.N = N; d.gemm.K = K;
    d.gemm.A = values; d.gemm.lda = ldv; d.meta = meta; d.ldm = ldm;
    d.gemm.B = B; d.gemm.ldb = ldb; d.gemm.C = C; d.gemm.ldc = ldc; d.gemm.D = D; d.gemm.ldd = ldd;
    if (opt) d.gemm.options = *opt;
    return tc_sparse_gemm_ex(&d);
}

/* The sparse kinds of the instruction table whose register layout is
   modelled, in table order; *unmodelled (optional) counts the others. */
static int sparse_kinds(tc_mma_instr *out, int *unmodelled) {
    int i, n = 0;
    tc_mma_instr_info info;
    if (unmodelled) *unmodelled = 0;
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++)
        if (tc_mma_instr_get((tc_mma_instr)i, &info) == TC_OK && info.sparse_group != 0) {
            if (info.layout) out[n++] = (tc_mma_instr)i;
            else if (unmodelled) (*unmodelled)++;
        }
    return n;
}

static void test_pattern_and_codes(void) {
    int g = 0, k = 0, i0, i1, code, legal = 0;
    unsigned u;
    CHECK_STATUS(tc_sparse_pattern(TC_FP16, &g, &k), TC_OK); CHECK(g == 4 && k == 2);
    CHECK_STATUS(tc_sparse_pattern(TC_BF16, &g, &k), TC_OK); CHECK(g == 4 && k == 2);
    CHECK_STATUS(tc_sparse_pattern(TC_TF32, &g, &k), TC_OK); CHECK(g == 2 && k == 1);
    CHECK_STATUS(tc_sparse_pattern(TC_FP32, &g, &k), TC_ERR_DTYPE);
    CHECK_STATUS(tc_sparse_pattern((tc_dtype)99, &g, &k), TC_ERR_DTYPE);
    /* the six ordered codes of docs/REFERENCE.md section 4, by value */
    u = 99; CHECK_STATUS(tc_sparse_meta_encode(0, 1, &u), TC_OK); CHECK(u == 0x4);
    u = 99; CHECK_STATUS(tc_sparse_meta_encode(0, 2, &u), TC_OK); CHECK(u == 0x8);
    u = 99; CHECK_STATUS(tc_sparse_meta_encode(0, 3, &u), TC_OK); CHECK(u == 0xC);
    u = 99; CHECK_STATUS(tc_sparse_meta_encode(1, 2, &u), TC_OK); CHECK(u == 0x9);
    u = 99; CHECK_STATUS(tc_sparse_meta_encode(1, 3, &u), TC_OK); CHECK(u == 0xD);
    u = 99; CHECK_STATUS(tc_sparse_meta_encode(2, 3, &u), TC_OK); CHECK(u == 0xE);
    /* unordered, repeated or out-of-range indices: TC_ERR_ARG, *code untouched */
    u = 99;
    CHECK_STATUS(tc_sparse_meta_encode(1, 1, &u), TC_ERR_ARG); CHECK_STATUS(tc_sparse_meta_encode(2, 1, &u), TC_ERR_ARG);
    CHECK_STATUS(tc_sparse_meta_encode(-1, 2, &u), TC_ERR_ARG); CHECK_STATUS(tc_sparse_meta_encode(0, 4, &u), TC_ERR_ARG);
    CHECK_STATUS(tc_sparse_meta_encode(0, 0, &u), TC_ERR_ARG); CHECK_STATUS(tc_sparse_meta_encode(3, 3, &u), TC_ERR_ARG);
    CHECK_STATUS(tc_sparse_meta_encode(-1, 0, &u), TC_ERR_ARG); CHECK_STATUS(tc_sparse_meta_encode(-1, -1, &u), TC_ERR_ARG);
    CHECK_STATUS(tc_sparse_meta_encode(0, INT_MAX, &u), TC_ERR_ARG); CHECK_STATUS(tc_sparse_meta_encode(INT_MAX, INT_MAX, &u), TC_ERR_ARG);
    CHECK_STATUS(tc_sparse_meta_encode(INT_MIN, 1, &u), TC_ERR_ARG); CHECK_STATUS(tc_sparse_meta_encode(INT_MAX, 3, &u), TC_ERR_ARG);
    CHECK(u == 99);
    CHECK_STATUS(tc_sparse_meta_encode(0, 1, NULL), TC_ERR_NULL);
    for (code = 0; code < 16; code++) {
        tc_status st = tc_sparse_meta_decode((unsigned)code, &i0, &i1);
        int ok = st == TC_OK;
        legal += ok;
        CHECK(ok == ((code & 3) < (code >> 2)));
        CHECK(ok || st == TC_ERR_SPARSE_META);
        if (ok) { u = 99; CHECK_STATUS(tc_sparse_meta_encode(i0, i1, &u), TC_OK); CHECK(u == (unsigned)code); }
    }
    CHECK(legal == 6);
    /* a code is 4 bits: anything above 15 is refused, even with a legal low nibble; outputs untouched */
    i0 = i1 = -7;
    CHECK_STATUS(tc_sparse_meta_decode(0x14u, &i0, &i1), TC_ERR_SPARSE_META);
    CHECK_STATUS(tc_sparse_meta_decode(0x1Eu, &i0, &i1), TC_ERR_SPARSE_META);
    CHECK_STATUS(tc_sparse_meta_decode(UINT_MAX, &i0, &i1), TC_ERR_SPARSE_META);
    CHECK_STATUS(tc_sparse_meta_decode(0xFFFFFFF4u, &i0, &i1), TC_ERR_SPARSE_META);
    CHECK_STATUS(tc_sparse_meta_decode(0u, &i0, &i1), TC_ERR_SPARSE_META);
    CHECK(i0 == -7 && i1 == -7);
    /* both outputs are required */
    CHECK_STATUS(tc_sparse_meta_decode(0x4u, NULL, &i1), TC_ERR_NULL);
    CHECK_STATUS(tc_sparse_meta_decode(0x4u, &i0, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_sparse_meta_decode(0x4u, NULL, NULL), TC_ERR_NULL);
    CHECK(i0 == -7 && i1 == -7);
}

/* tc_sparse_meta_words: the status for every kind of K, edge values included. */
static void test_meta_words(void) {
    int w;
    w = -5; CHECK_STATUS(tc_sparse_meta_words(TC_FP16, 0, &w), TC_OK); CHECK(w == 0);
    w = -5; CHECK_STATUS(tc_sparse_meta_words(TC_TF32, 0, &w), TC_OK); CHECK(w == 0);
    w = -5; CHECK_STATUS(tc_sparse_meta_words(TC_FP16, 4, &w), TC_OK); CHECK(w == 1);
    w = -5; CHECK_STATUS(tc_sparse_meta_words(TC_TF32, 2, &w), TC_OK); CHECK(w == 1);
    w = -5; CHECK_STATUS(tc_sparse_meta_words(TC_BF16, 64, &w), TC_OK); CHECK(w == 2);
    w = -5; CHECK_STATUS(tc_sparse_meta_words(TC_E4M3, 32, &w), TC_OK); CHECK(w == 1);
    w = -5; CHECK_STATUS(tc_sparse_meta_words(TC_E5M2, 33 * 4, &w), TC_OK); CHECK(w == 5);
    /* the largest K of each pattern: no overflow */
    w = -5; CHECK_STATUS(tc_sparse_meta_words(TC_FP16, INT_MAX / 4 * 4, &w), TC_OK); CHECK(w == (INT_MAX / 4 + 7) / 8);
    w = -5; CHECK_STATUS(tc_sparse_meta_words(TC_TF32, INT_MAX / 2 * 2, &w), TC_OK); CHECK(w == (INT_MAX / 2 + 7) / 8);
    /* refused: output untouched */
    w = -5;
    CHECK_STATUS(tc_sparse_meta_words(TC_FP16, -1, &w), TC_ERR_SIZE);
    CHECK_STATUS(tc_sparse_meta_words(TC_FP16, -4, &w), TC_ERR_SIZE);
    CHECK_STATUS(tc_sparse_meta_words(TC_TF32, -2, &w), TC_ERR_SIZE);
    CHECK_STATUS(tc_sparse_meta_words(TC_FP16, INT_MIN, &w), TC_ERR_SIZE);
    CHECK_STATUS(tc_sparse_meta_words(TC_FP16, INT_MAX, &w), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_meta_words(TC_TF32, INT_MAX, &w), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_meta_words(TC_FP16, 2, &w), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_meta_words(TC_TF32, 3, &w), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_meta_words(TC_FP32, 8, &w), TC_ERR_DTYPE);
    CHECK_STATUS(tc_sparse_meta_words((tc_dtype)-1, 8, &w), TC_ERR_DTYPE);
    CHECK_STATUS(tc_sparse_meta_words((tc_dtype)99, 8, &w), TC_ERR_DTYPE);
    CHECK(w == -5);
    CHECK_STATUS(tc_sparse_meta_words(TC_FP16, 8, NULL), TC_ERR_NULL);
}

/* The tie rule and NaN, by hand. */
static void test_prune_rules(void) {
    float w[8] = { 1.0f, -1.0f, 1.0f, 0.5f,   0.0f, NAN, 3.0f, -3.0f };
    float o[8];
    unsigned char m[8];
    float w2[4] = { 2.0f, -2.0f, 0.0f, 5.0f };
    CHECK_STATUS(tc_sparse_prune(TC_FP16, 1, 8, w, 8, o, 8, m), TC_OK);
    CHECK(m[0] == 1 && m[1] == 1 && m[2] == 0 && m[3] == 0);   /* equal |w|: lower index wins */
    CHECK(m[4] == 0 && m[5] == 1 && m[6] == 1 && m[7] == 0);   /* NaN kept; 3 beats -3 by index */
    CHECK(o[0] == 1.0f && o[1] == -1.0f && same_bits(o[2], 0.0f) && same_bits(o[3], 0.0f));
    CHECK(o[5] != o[5] && o[6] == 3.0f && same_bits(o[7], 0.0f));
    CHECK_STATUS(tc_sparse_prune(TC_TF32, 1, 4, w2, 4, w2, 4, NULL), TC_OK);   /* in place, 1:2 */
    CHECK(w2[0] == 2.0f && same_bits(w2[1], 0.0f) && same_bits(w2[2], 0.0f) && w2[3] == 5.0f);
}

/* Random matrices of many shapes through prune, check, compress, decompress. */
static void test_round_trips(void) {
    static const tc_dtype types[] = { TC_FP16, TC_BF16, TC_TF32, TC_E4M3 };
    static float A[MAXM * MAXK], P[MAXM * MAXK], V[MAXM * MAXK], D[MAXM * MAXK], V2[MAXM * MAXK];
    static uint32_t meta[MAXM * 16], meta2[MAXM * 16];
    static unsigned char mask[MAXM * MAXK];
    int ti, trial;
    tct_seed(6);
    for (ti = 0; ti < (int)(sizeof types / sizeof types[0]); ti++) {
        tc_dtype t = types[ti];
        int group = 4, keep = 2;
        tc_sparse_pattern(t, &group, &keep);
        for (trial = 0; trial < 60; trial++) {
            int M = 1 + (int)(tct_rand32() % MAXM), K = group * (int)(tct_rand32() % (MAXK / group + 1));
            int lda = K + (int)(tct_rand32() % 3), ldv = K / 2 + (int)(tct_rand32() % 2);
            int words = meta_words(t, K), ldm = words + (int)(tct_rand32() % 2);
            int r, c, bad_prune = 0, bad_mask = 0, bad_round = 0, bad_vals = 0;
            tc_sparse_violation v;
            if (M * lda > MAXM * MAXK) M = MAXM * MAXK / (lda ? lda : 1);
            fill(t, A, M * lda);
            CHECK_STATUS(tc_sparse_prune(t, M, K, A, lda, P, lda, mask), TC_OK);
            CHECK_STATUS(tc_sparse_check(t, M, K, P, lda, &v), TC_OK);
            for (r = 0; r < M; r++)
                for (c = 0; c < K; c += group) {
                    int i, j, kept = 0;
                    for (i = 0; i < group; i++) {
                        float a = A[r * lda + c + i], p = P[r * lda + c + i];
                        kept += mask[r * K + c + i];
                        if (mask[r * K + c + i] || a == 0 ? !same_bits(a, p) && !(a != a && p != p) : !same_bits(p, 0.0f)) bad_mask++;
                        /* everything kept is at least as large as everything dropped */
                        for (j = 0; j < group; j++)
                            if (mask[r * K + c + i] && !mask[r * K + c + j] && fabsf(a) < fabsf(A[r * lda + c + j])) bad_prune++;
                    }
                    if (kept != keep) bad_mask++;
                }
            CHECK(bad_prune == 0); CHECK(bad_mask == 0);
            CHECK_STATUS(tc_sparse_compress(t, M, K, P, lda, V, ldv, meta, ldm, 0, &v), TC_OK);
            CHECK_STATUS(tc_sparse_decompress(t, M, K, V, ldv, meta, ldm, D, lda, &v), TC_OK);
            /* exact, except that a zero the metadata does not name comes back +0 */
            for (r = 0; r < M; r++)
                for (c = 0; c < K; c++)
                    if (!same_bits(D[r * lda + c], P[r * lda + c]) && !(P[r * lda + c] == 0 && same_bits(D[r * lda + c], 0.0f))) bad_round++;
            CHECK(bad_round == 0);
            /* compress with TC_SPARSE_PRUNE on the unpruned matrix gives the same thing */
            CHECK_STATUS(tc_sparse_compress(t, M, K, A, lda, V2, ldv, meta2, ldm, TC_SPARSE_PRUNE, NULL), TC_OK);
            for (r = 0; r < M; r++) {
                for (c = 0; c < K / 2; c++) if (!same_bits(V[r * ldv + c], V2[r * ldv + c])) bad_vals++;
                for (c = 0; c < words; c++) if (meta[r * ldm + c] != meta2[r * ldm + c]) bad_vals++;
            }
            CHECK(bad_vals == 0);
        }
    }
}

/* Every group pattern that fits 2:4 (and 1:2), the code it gets, and exact
   values: PyTorch's choice for short groups, -0 kept where the code names it. */
static void test_every_group_pattern(void) {
    static const unsigned torch_code[16] = { 0xE, 0x8, 0x9, 0x4, 0xE, 0x8, 0x9, 0, 0xE, 0xC, 0xD, 0, 0xE, 0, 0, 0 };
    unsigned nz;
    float a[4], v[2], d[4];
    uint32_t meta;
    tc_sparse_violation bad;
    for (nz = 0; nz < 16; nz++) {
        int i, n = 0, exact = 1;
        for (i = 0; i < 4; i++) { a[i] = (nz >> i) & 1u ? (float)(i + 2) * ((i & 1) ? -1.0f : 1.0f) : -0.0f; n += (nz >> i) & 1u; }
        if (n > 2) {
            CHECK_STATUS(tc_sparse_compress(TC_FP16, 1, 4, a, 4, v, 2, &meta, 1, 0, &bad), TC_ERR_NOT_SPARSE);
            CHECK(bad.row == 0 && bad.col == 0 && bad.nonzeros == n);
            continue;
        }
        CHECK_STATUS(tc_sparse_compress(TC_FP16, 1, 4, a, 4, v, 2, &meta, 1, 0, NULL), TC_OK);
        CHECK_BITS(nz, meta, torch_code[nz]);
        CHECK_STATUS(tc_sparse_decompress(TC_FP16, 1, 4, v, 2, &meta, 1, d, 4, NULL), TC_OK);
        for (i = 0; i < 4; i++) {
            int named = i == (int)(meta & 3u) || i == (int)(meta >> 2);
            /* named zeros keep their -0; unnamed positions come back +0 */
            if (!same_bits(d[i], named ? a[i] : 0.0f)) exact = 0;
        }
        CHECK(exact);
    }
    for (nz = 0; nz < 4; nz++) {   /* tf32 1:2 */
        float t[2], tv, td[2];
        t[0] = (nz & 1u) ? 1.5f : 0.0f;
        t[1] = (nz & 2u) ? -2.5f : 0.0f;
        if (nz == 3) { CHECK_STATUS(tc_sparse_compress(TC_TF32, 1, 2, t, 2, &tv, 1, &meta, 1, 0, NULL), TC_ERR_NOT_SPARSE); continue; }
        CHECK_STATUS(tc_sparse_compress(TC_TF32, 1, 2, t, 2, &tv, 1, &meta, 1, 0, NULL), TC_OK);
        CHECK_BITS(nz, meta, nz == 1 ? 0x4u : 0xEu);
        CHECK_STATUS(tc_sparse_decompress(TC_TF32, 1, 2, &tv, 1, &meta, 1, td, 2, NULL), TC_OK);
        CHECK(td[0] == t[0] && td[1] == t[1]);
    }
    /* group j of a row sits in bits [4(j%8)+3 : 4(j%8)] of word j/8 */
    {
        float row[40] = { 0 };
        uint32_t m2[2];
        float vals[20];
        row[8 * 4 + 1] = 1.0f; row[8 * 4 + 3] = 2.0f;   /* group 8: (1,3) = 0xD */
        row[7 * 4 + 0] = 3.0f;                          /* group 7: (0,2) = 0x8 */
        CHECK_STATUS(tc_sparse_compress(TC_BF16, 1, 40, row, 40, vals, 20, m2, 2, 0, NULL), TC_OK);
        CHECK_BITS(0, m2[0], 0x8EEEEEEEu);
        CHECK_BITS(0, m2[1], 0xEDu);   /* groups 8, 9; the unused nibbles stay 0 */
        CHECK(vals[16] == 1.0f && vals[17] == 2.0f && vals[14] == 3.0f);
    }
}

static void test_violations_and_bad_input(void) {
    float a[3 * 12] = { 0 }, v[3 * 6], d[3 * 12];
    uint32_t meta[3];
    tc_sparse_violation bad = { -9, -9, -9 };
    a[2 * 12 + 8] = 1; a[2 * 12 + 9] = 1; a[2 * 12 + 11] = 1;   /* row 2, group at column 8: 3 non-zeros */
    a[2 * 12 + 4] = 1;
    CHECK_STATUS(tc_sparse_check(TC_FP16, 3, 12, a, 12, &bad), TC_ERR_NOT_SPARSE);
    CHECK(bad.row == 2 && bad.col == 8 && bad.nonzeros == 3);
    CHECK_STATUS(tc_sparse_check(TC_FP16, 3, 12, a, 12, NULL), TC_ERR_NOT_SPARSE);
    a[1 * 12 + 0] = 1; a[1 * 12 + 1] = 1; a[1 * 12 + 2] = NAN;  /* an earlier one, found by a NaN */
    CHECK_STATUS(tc_sparse_compress(TC_FP16, 3, 12, a, 12, v, 6, meta, 1, 0, &bad), TC_ERR_NOT_SPARSE);
    CHECK(bad.row == 1 && bad.col == 0 && bad.nonzeros == 3);
    CHECK_STATUS(tc_sparse_check(TC_TF32, 3, 12, a, 12, &bad), TC_ERR_NOT_SPARSE);   /* 1:2 fails earlier */
    CHECK(bad.row == 1 && bad.col == 0 && bad.nonzeros == 2);
    CHECK_STATUS(tc_sparse_compress(TC_FP16, 3, 12, a, 12, v, 6, meta, 1, TC_SPARSE_PRUNE, &bad), TC_OK);
    /* NULL, negative sizes, K not a multiple of the group, short leading dimensions, types, flags */
    CHECK_STATUS(tc_sparse_check(TC_FP16, 3, 12, NULL, 12, &bad), TC_ERR_NULL);
    CHECK_STATUS(tc_sparse_prune(TC_FP16, 3, 12, a, 12, NULL, 12, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_sparse_compress(TC_FP16, 3, 12, a, 12, NULL, 6, meta, 1, 0, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_sparse_decompress(TC_FP16, 3, 12, v, 6, NULL, 1, d, 12, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_sparse_check(TC_FP16, -1, 12, a, 12, NULL), TC_ERR_SIZE);
    CHECK_STATUS(tc_sparse_prune(TC_FP16, 3, -4, a, 12, d, 12, NULL), TC_ERR_SIZE);
    CHECK_STATUS(tc_sparse_compress(TC_FP16, 3, 10, a, 12, v, 6, meta, 1, 0, NULL), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_compress(TC_TF32, 3, 11, a, 12, v, 6, meta, 1, 0, NULL), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_decompress(TC_FP16, 3, 6, v, 6, meta, 1, d, 12, NULL), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_check(TC_FP16, 3, 12, a, 11, NULL), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_compress(TC_FP16, 3, 12, a, 12, v, 5, meta, 1, 0, NULL), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_compress(TC_FP16, 3, 12, a, 12, v, 6, meta, 0, 0, NULL), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_prune(TC_FP16, 3, 12, a, 12, a, 13, NULL), TC_ERR_SHAPE);   /* in place needs one ld */
    CHECK_STATUS(tc_sparse_compress(TC_FP32, 3, 12, a, 12, v, 6, meta, 1, 0, NULL), TC_ERR_DTYPE);
    CHECK_STATUS(tc_sparse_compress(TC_FP16, 3, 12, a, 12, v, 6, meta, 1, 8, NULL), TC_ERR_ARG);
    {
        int w1 = -9, w2 = -9, w3 = -9;
        CHECK_STATUS(tc_sparse_meta_words(TC_FP16, 6, &w1), TC_ERR_SHAPE);
        CHECK_STATUS(tc_sparse_meta_words(TC_FP16, 32, &w2), TC_OK);
        CHECK_STATUS(tc_sparse_meta_words(TC_FP16, 36, &w3), TC_OK);
        CHECK(w1 == -9 && w2 == 1 && w3 == 2);
        w1 = w2 = w3 = -9;
        CHECK_STATUS(tc_sparse_meta_words(TC_TF32, 16, &w1), TC_OK);
        CHECK_STATUS(tc_sparse_meta_words(TC_TF32, 18, &w2), TC_OK);
        CHECK_STATUS(tc_sparse_meta_words(TC_FP32, 8, &w3), TC_ERR_DTYPE);
        CHECK(w1 == 1 && w2 == 2 && w3 == -9);
    }
    CHECK_STATUS(tc_sparse_check(TC_FP16, 0, 0, a, 0, NULL), TC_OK);   /* empty is fine */
    /* illegal metadata: 0b0000 (0,0) in row 1 group 2; (0,2) for tf32 */
    meta[0] = 0xEEEu; meta[1] = 0xE0Eu; meta[2] = 0xEEEu;
    CHECK_STATUS(tc_sparse_decompress(TC_FP16, 3, 12, v, 6, meta, 1, d, 12, &bad), TC_ERR_SPARSE_META);
    CHECK(bad.row == 1 && bad.col == 4 && bad.nonzeros == -1);
    meta[0] = 0x4E8u;
    CHECK_STATUS(tc_sparse_decompress(TC_TF32, 1, 6, v, 3, meta, 1, d, 6, &bad), TC_ERR_SPARSE_META);
    CHECK(bad.row == 0 && bad.col == 0);
    CHECK(tc_status_string(TC_ERR_NOT_SPARSE)[0] != 'u' && tc_status_string(TC_ERR_SPARSE_META)[0] != 'u');
}

/* Each layout is a bijection onto its tile, for every sparse kind of the
   instruction table; the metadata lanes of each selector cover every
   (row, group) once. */
static void test_layouts(void) {
    tc_mma_instr kinds[TC_MMA_INSTR_COUNT];
    tc_mma_instr_info in;
    int nu = 0, nk = sparse_kinds(kinds, &nu), si, n16 = 0, n32 = 0, nbf = 0, used;
    CHECK_STATUS(tc_mma_instr_get(TC_MMA_INSTR_COUNT, &in), TC_ERR_ARG);
    CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)-1, &in), TC_ERR_ARG);
    CHECK(nk == 6);   /* f16 and bf16 m16n8k16/k32, tf32 m16n8k8/k16 */
    CHECK(nu == 11);   /* FP8 m16n8k64, four pairings, and the 7 wgmma.sp: layout not modelled */
    /* Those are refused by every fragment function, never packed wrong. */
    {
        static const tc_mma_instr fp8sp[4] = { TC_MMA_SP_M16N8K64_E4M3, TC_MMA_SP_M16N8K64_E5M2,
                                               TC_MMA_SP_M16N8K64_E4M3_E5M2, TC_MMA_SP_M16N8K64_E5M2_E4M3 };
        static float V[16 * 32], Bm[64 * 8];
        static uint32_t meta[16 * 2];
        uint32_t a[32 * 4], mr[32], b[32 * 4];
        int fi, r = 0, c = 0;
        for (fi = 0; fi < 4; fi++) {
            CHECK_STATUS(tc_mma_instr_get(fp8sp[fi], &in), TC_OK);
            CHECK(in.layout == 0 && in.k == 64 && in.selectors == 1 && in.meta_lanes == 4);   /* LLVM NVVM: selector 0 only */
            CHECK_STATUS(tc_mma_frag_coord(fp8sp[fi], TC_FRAG_A, 0, 0, &r, &c), TC_ERR_ARG);
            CHECK_STATUS(tc_sparse_meta_coord(fp8sp[fi], 0, 0, 0, &used, &r, &c), TC_ERR_ARG);
            CHECK_STATUS(tc_sparse_pack_a(fp8sp[fi], 0, 16, 64, V, 32, meta, 2, 0, 0, a, mr), TC_ERR_ARG);
            CHECK_STATUS(tc_sparse_pack_b(fp8sp[fi], 64, 8, Bm, 8, 0, 0, b), TC_ERR_ARG);
            CHECK_STATUS(tc_sparse_unpack_a(fp8sp[fi], 0, a, mr, V, NULL), TC_ERR_ARG);
        }
        /* a wgmma.sp too (its A comes from shared memory or 4 warps' registers; its metadata: test_wgmma_meta) */
        CHECK_STATUS(tc_sparse_pack_a(TC_WGMMA_SP_F16, 0, 64, 32, V, 16, meta, 1, 0, 0, a, mr), TC_ERR_ARG);
    }
    for (si = 0; si < nk; si++) {
        tc_mma_instr s = kinds[si];
        int seen_a[16 * 16] = { 0 }, seen_b[32 * 8] = { 0 };
        int lane, e, sel, ok_a = 1, ok_b = 1, r, c, unit;
        int group = 4, keep = 2;
        CHECK_STATUS(tc_mma_instr_get(s, &in), TC_OK);
        unit = in.sparse_keep == 2 ? 2 : 1;
        n16 += unit == 2; nbf += in.in == TC_BF16; n32 += in.in == TC_TF32;
        CHECK(unit == 2 ? (in.in == TC_FP16 || in.in == TC_BF16) : in.in == TC_TF32);
        CHECK_STATUS(tc_sparse_pattern(in.in, &group, &keep), TC_OK);
        CHECK(in.sparse_group == group && in.sparse_keep == keep && in.m == 16 && in.n == 8);
        CHECK(in.a_regs * unit == in.a_elems && in.b_regs * unit == in.b_elems);
        CHECK(in.a_elems * 32 == in.m * in.k / 2 && in.b_elems * 32 == in.k * in.n);
        CHECK(in.meta_lanes * in.selectors == 4 && in.m * (in.k / in.sparse_group) * 4 == 8 * in.meta_lanes * 32);
        /* only the m16n8k32 16-bit layout has run on hardware (docs/REFERENCE.md section 4) */
        CHECK(in.layout == (in.k == 32 && unit == 2 ? 2 : 1));
        for (lane = 0; lane < 32; lane++)
            for (e = 0; e < in.a_elems; e++) {
                if (tc_mma_frag_coord(s, TC_FRAG_A, lane, e, &r, &c) != TC_OK || r < 0 || r >= 16 || c < 0 || c >= in.k / 2) { ok_a = 0; continue; }
                seen_a[r * 16 + c]++;
                if (tc_mma_frag_coord(s, TC_FRAG_B, lane, e, &r, &c) != TC_OK || r < 0 || r >= in.k || c < 0 || c >= 8) { ok_b = 0; continue; }
                seen_b[r * 8 + c]++;
            }
        for (r = 0; r < 16; r++) for (c = 0; c < in.k / 2; c++) if (seen_a[r * 16 + c] != 1) ok_a = 0;
        for (r = 0; r < in.k; r++) for (c = 0; c < 8; c++) if (seen_b[r * 8 + c] != 1) ok_b = 0;
        CHECK(ok_a); CHECK(ok_b);
        CHECK_STATUS(tc_mma_frag_coord(s, TC_FRAG_A, 0, in.a_elems, &r, &c), TC_ERR_ARG);
        CHECK_STATUS(tc_mma_frag_coord(s, TC_FRAG_A, 32, 0, &r, &c), TC_ERR_ARG);
        CHECK_STATUS(tc_mma_frag_coord(s, TC_FRAG_B, -1, 0, &r, &c), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_coord(s, in.selectors, 0, 0, &used, &r, &c), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_coord(s, -1, 0, 0, &used, &r, &c), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_coord(s, 0, 0, 8, &used, &r, &c), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_coord(s, 0, 0, -1, &used, &r, &c), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_coord(s, 0, 32, 0, &used, &r, &c), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_coord(s, 0, 0, 0, NULL, &r, &c), TC_ERR_NULL);
        CHECK_STATUS(tc_sparse_meta_coord(s, 0, 0, 0, &used, NULL, &c), TC_ERR_NULL);
        CHECK_STATUS(tc_sparse_meta_coord(s, 0, 0, 0, &used, &r, NULL), TC_ERR_NULL);
        for (sel = 0; sel < in.selectors; sel++) {
            int seen_m[16 * 8] = { 0 }, ok_m = 1, j, readers = 0;
            for (lane = 0; lane < 32; lane++) {
                int reads = 0;
                for (j = 0; j < 8; j++) {
                    tc_status got = tc_sparse_meta_coord(s, sel, lane, j, &used, &r, &c);
                    if (got != TC_OK || (used != 0 && used != 1)) ok_m = 0;
                    else if (used) { seen_m[r * 8 + c]++; reads = 1; if ((r & 7) != lane >> 2) ok_m = 0; }
                    else if (r != -1 || c != -1) ok_m = 0;   /* unused: row and group -1 */
                }
                readers += reads;
            }
            for (r = 0; r < 16; r++) for (c = 0; c < 8; c++) if (seen_m[r * 8 + c] != (c < in.k / in.sparse_group)) ok_m = 0;
            CHECK(ok_m);
            CHECK(readers == 8 * in.meta_lanes);
        }
    }
    CHECK(n16 == 4 && nbf == 2 && n32 == 2);
    /* dense kinds have no metadata */
    {
        int i, r, g, dense = 0;
        for (i = 0; i < TC_MMA_INSTR_COUNT; i++) {
            CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)i, &in), TC_OK);
            if (in.sparse_group) continue;
            dense++;
            CHECK(in.sparse_keep == 0 && in.selectors == 0 && in.meta_lanes == 0);
            CHECK_STATUS(tc_sparse_meta_coord((tc_mma_instr)i, 0, 0, 0, &used, &r, &g), TC_ERR_ARG);
        }
        CHECK(dense + nk + nu == TC_MMA_INSTR_COUNT);
        CHECK_STATUS(tc_sparse_meta_coord(TC_MMA_INSTR_COUNT, 0, 0, 0, &used, &r, &g), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_coord((tc_mma_instr)-1, 0, 0, 0, &used, &r, &g), TC_ERR_ARG);
    }
    /* the m16n8k32 facts of docs/REFERENCE.md section 4: the thread with lane%2 = p
       carries rows g (bits 15:0) and g+8 (bits 31:16), dense columns 16p..16p+15;
       selector 0 -> T0/T1 of each quad, 1 -> T2/T3. f16 and bf16 share them. */
    {
        static const tc_mma_instr k32[2] = { TC_MMA_SP_M16N8K32_F16, TC_MMA_SP_M16N8K32_BF16 };
        int r, g, ki;
        for (ki = 0; ki < 2; ki++) {
            used = -1; CHECK(tc_sparse_meta_coord(k32[ki], 0, 5, 0, &used, &r, &g) == TC_OK && used == 1 && r == 1 && g == 4);
            used = -1; CHECK(tc_sparse_meta_coord(k32[ki], 0, 5, 7, &used, &r, &g) == TC_OK && used == 1 && r == 9 && g == 7);
            used = -1; CHECK(tc_sparse_meta_coord(k32[ki], 0, 6, 0, &used, &r, &g) == TC_OK && used == 0 && r == -1 && g == -1);
            used = -1; CHECK(tc_sparse_meta_coord(k32[ki], 1, 6, 4, &used, &r, &g) == TC_OK && used == 1 && r == 9 && g == 0);
            CHECK(tc_mma_frag_coord(k32[ki], TC_FRAG_A, 7, 5, &r, &g) == TC_OK && r == 1 && g == 15);
        }
    }
}

/* pack_a / unpack_a reproduce the decompressed tiles for every sparse kind
   and selector; metadata lanes outside the selector are 0 (so the wrong
   selector cannot decode); pack_b places B where frag_coord says. */
static void test_pack_unpack(void) {
    enum { M = 32, K = 64, N = 16 };
    static float A[M * K], P[M * K], V[M * K / 2], T[16 * 32], B[K * N];
    static uint32_t meta[M * 8];
    uint32_t a[32 * 4], mr[32], b[32 * 4];
    tc_mma_instr kinds[TC_MMA_INSTR_COUNT];
    int nk = sparse_kinds(kinds, NULL), si;
    tct_seed(66);
    for (si = 0; si < nk; si++) {
        tc_mma_instr s = kinds[si];
        tc_mma_instr_info in;
        tc_dtype t;
        int ldm, sel, row0, col0, bad = 0, badb = 0, lane, e;
        CHECK_STATUS(tc_mma_instr_get(s, &in), TC_OK);
        t = in.in;
        ldm = meta_words(t, K);
        fill(t, A, M * K);
        fill(t, B, K * N);
        tc_sparse_prune(t, M, K, A, K, P, K, NULL);
        CHECK_STATUS(tc_sparse_compress(t, M, K, P, K, V, K / 2, meta, ldm, 0, NULL), TC_OK);
        for (sel = 0; sel < in.selectors; sel++)
            for (row0 = 0; row0 < M; row0 += 16)
                for (col0 = 0; col0 < K; col0 += in.k) {
                    int r, c, nonreaders = 0;
                    CHECK_STATUS(tc_sparse_pack_a(s, sel, M, K, V, K / 2, meta, ldm, row0, col0, a, mr), TC_OK);
                    CHECK_STATUS(tc_sparse_unpack_a(s, sel, a, mr, T, NULL), TC_OK);
                    for (r = 0; r < 16; r++)
                        for (c = 0; c < in.k; c++) {
                            float p = P[(row0 + r) * K + col0 + c], q = T[r * in.k + c];
                            if (!(same_bits(p, q) || (p == 0 && q == 0))) bad++;
                        }
                    for (lane = 0; lane < 32; lane++) {
                        int rr, gg, used = -1;
                        if (tc_sparse_meta_coord(s, sel, lane, 0, &used, &rr, &gg) != TC_OK) nonreaders++;
                        else if (used == 0 && mr[lane] != 0) nonreaders++;
                    }
                    CHECK(nonreaders == 0);
                    /* another selector reads the zero registers: code 0 is illegal */
                    CHECK_STATUS(tc_sparse_unpack_a(s, (sel + 1) % in.selectors, a, mr, T, NULL), TC_ERR_SPARSE_META);
                }
        CHECK(bad == 0);
        CHECK_STATUS(tc_sparse_pack_b(s, K, N, B, N, in.k, 8, b), TC_OK);
        for (lane = 0; lane < 32; lane++)
            for (e = 0; e < in.b_elems; e++) {
                int k = 0, n = 0;
                uint32_t want;
                if (tc_mma_frag_coord(s, TC_FRAG_B, lane, e, &k, &n) != TC_OK) { badb++; continue; }
                want = tc_encode(t, B[(in.k + k) * N + 8 + n], TC_RN);
                if (t == TC_TF32 ? b[lane * 4 + e] != tct_f2u(B[(in.k + k) * N + 8 + n])
                                 : ((b[lane * 4 + (e >> 1)] >> (16 * (e & 1))) & 0xFFFFu) != want) badb++;
            }
        CHECK(badb == 0);
    }
    /* bad input. The type now comes from the instruction: a dense
       instruction (of either type family) is refused as not sparse. */
    CHECK_STATUS(tc_sparse_pack_a(TC_MMA_M16N8K8_TF32, 0, M, K, V, K / 2, meta, 2, 0, 0, a, mr), TC_ERR_ARG);
    CHECK_STATUS(tc_sparse_pack_a(TC_MMA_M16N8K16_F16, 0, M, K, V, K / 2, meta, 2, 0, 0, a, mr), TC_ERR_ARG);
    CHECK_STATUS(tc_sparse_pack_a(TC_MMA_INSTR_COUNT, 0, M, K, V, K / 2, meta, 2, 0, 0, a, mr), TC_ERR_ARG);
    CHECK_STATUS(tc_sparse_pack_a((tc_mma_instr)-1, 0, M, K, V, K / 2, meta, 2, 0, 0, a, mr), TC_ERR_ARG);
    CHECK_STATUS(tc_sparse_pack_a(TC_MMA_SP_M16N8K32_F16, 2, M, K, V, K / 2, meta, 2, 0, 0, a, mr), TC_ERR_ARG);
    CHECK_STATUS(tc_sparse_pack_a(TC_MMA_SP_M16N8K32_F16, 0, M, K, V, K / 2, meta, 2, 8, 0, a, mr), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_pack_a(TC_MMA_SP_M16N8K32_F16, 0, M, K, V, K / 2, meta, 2, 0, 48, a, mr), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_pack_a(TC_MMA_SP_M16N8K32_F16, 0, 20, K, V, K / 2, meta, 2, 16, 0, a, mr), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_pack_a(TC_MMA_SP_M16N8K32_F16, 0, M, K, NULL, K / 2, meta, 2, 0, 0, a, mr), TC_ERR_NULL);
    V[0] = 1.0f + 1.0f / 4096.0f;   /* not an fp16 (nor bf16) value; lane 0 element 0 */
    CHECK_STATUS(tc_sparse_pack_a(TC_MMA_SP_M16N8K32_F16, 0, M, K, V, K / 2, meta, 2, 0, 0, a, mr), TC_ERR_NOT_REPRESENTABLE);
    CHECK_STATUS(tc_sparse_pack_a(TC_MMA_SP_M16N8K32_BF16, 0, M, K, V, K / 2, meta, 2, 0, 0, a, mr), TC_ERR_NOT_REPRESENTABLE);
    CHECK_STATUS(tc_sparse_pack_b(TC_MMA_SP_M16N8K16_F16, K, N, B, N, 56, 0, b), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_pack_b(TC_MMA_SP_M16N8K16_F16, K, N, B, N - 1, 0, 0, b), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_pack_b(TC_MMA_SP_M16N8K16_F16, -1, N, B, N, 0, 0, b), TC_ERR_SIZE);
    /* offsets near INT_MAX: offset + tile overflowed, passed, and read far outside */
    CHECK_STATUS(tc_sparse_pack_b(TC_MMA_SP_M16N8K16_F16, K, N, B, N, INT_MAX - 7, 0, b), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_pack_b(TC_MMA_SP_M16N8K16_F16, K, N, B, N, 0, INT_MAX - 3, b), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_pack_a(TC_MMA_SP_M16N8K32_F16, 0, M, K, V, K / 2, meta, 2, INT_MAX - 15, 0, a, mr), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_pack_a(TC_MMA_SP_M16N8K32_F16, 0, M, K, V, K / 2, meta, 2, 0, INT_MAX - 31, a, mr), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_pack_b(TC_MMA_M16N8K16_F16, K, N, B, N, 0, 0, b), TC_ERR_ARG);
    CHECK_STATUS(tc_sparse_unpack_a(TC_MMA_SP_M16N8K16_F16, 0, a, NULL, T, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_sparse_unpack_a(TC_MMA_M16N8K16_F16, 0, a, mr, T, NULL), TC_ERR_ARG);
}

/* ---- sparse GEMM ---- */

/* rand_value scaled by 2^e, e in [-span, span), so the block FMA's
   alignment truncation matters; span keeps e4m3/fp16 clear of overflow. */
static float rand_scaled(tc_dtype t, int span) {
    int e = (int)(tct_rand32() % (uint32_t)(2 * span)) - span;
    return tc_round(t, ldexpf(rand_value(t), e), TC_RN);
}

/* tc_sparse_gemm on the compressed matrix against tc_gemm on the
   decompressed one, bit for bit: every arch with sparse Tensor Cores, every
   input type it has, fp32 and (where legal) fp16 output, both zero rules,
   random shapes and leading dimensions, C or no C, D aliasing C. */
static void test_sparse_gemm_matches_dense(void) {
    static const tc_dtype types[] = { TC_FP16, TC_BF16, TC_TF32, TC_E4M3, TC_E5M2 };
    static float A[MAXM * MAXK], P[MAXM * MAXK], V[MAXM * MAXK], Ad[MAXM * MAXK];
    static float B[MAXK * 24], C[MAXM * 24], Ds[MAXM * 24], Dd[MAXM * 24];
    static uint32_t meta[MAXM * 16];
    int arch, ti, oi, trial, cases = 0, mismatches = 0;
    tct_seed(66);
    for (arch = TC_ARCH_A100; arch <= TC_ARCH_H100; arch++)
        for (ti = 0; ti < (int)(sizeof types / sizeof types[0]); ti++)
            for (oi = 0; oi < 2; oi++) {
                tc_dtype t = types[ti], out = oi ? TC_FP16 : TC_FP32;
                int fp8 = t == TC_E4M3 || t == TC_E5M2, span = fp8 ? 4 : t == TC_FP16 ? 7 : 30;
                tc_mma_params mp;
                if (tc_mma_params_of((tc_arch)arch, t, out, &mp) != TC_OK) continue;
                for (trial = 0; trial < 24; trial++) {
                    int group = 4, keep = 2, M, N, K, lda, ldv, ldm, ldb, ldc, i, use_c = trial % 3 != 0;
                    tc_mma_options opt = { TC_MMA_ZEROS_MMASIM, 0, 0, TC_MMA_ZERO_SIGN_SUM, TC_FP32 };
                    tc_sparse_pattern(t, &group, &keep);
                    M = 1 + (int)(tct_rand32() % 20u);
                    N = 1 + (int)(tct_rand32() % 16u);
                    K = group * (int)(tct_rand32() % (uint32_t)(MAXK / group + 1));
                    lda = K + (int)(tct_rand32() % 3u);
                    ldv = K / 2 + (int)(tct_rand32() % 2u);
                    ldm = meta_words(t, K) + (int)(tct_rand32() % 2u);
                    ldb = N + (int)(tct_rand32() % 3u);
                    ldc = N + (int)(tct_rand32() % 3u);
                    if (trial % 2) opt.zero_rule = TC_MMA_ZEROS_KHATTAK;
                    for (i = 0; i < M * lda; i++) A[i] = rand_scaled(t, span);
                    for (i = 0; i < K * ldb; i++) B[i] = rand_scaled(t, span);
                    for (i = 0; i < M * ldc; i++) C[i] = tc_round(out, ldexpf(rand_value(TC_FP32), 3), TC_RN);
                    CHECK_STATUS(tc_sparse_compress(t, M, K, A, lda, V, ldv, meta, ldm, TC_SPARSE_PRUNE, NULL), TC_OK);
                    CHECK_STATUS(tc_sparse_decompress(t, M, K, V, ldv, meta, ldm, Ad, lda, NULL), TC_OK);
                    CHECK_STATUS(tc_sparse_prune(t, M, K, A, lda, P, lda, NULL), TC_OK);
                    CHECK_STATUS(gemm_ex((tc_arch)arch, t, out, M, N, K, Ad, lda, B, ldb, use_c ? C : NULL, ldc, Dd, ldc, &opt), TC_OK);
                    if (trial == 4) {   /* D aliases C */
                        memcpy(Ds, C, sizeof(float) * (size_t)(M * ldc));
                        CHECK_STATUS(sparse_gemm_ex((tc_arch)arch, t, out, M, N, K, V, ldv, meta, ldm, B, ldb, Ds, ldc, Ds, ldc, &opt), TC_OK);
                    } else {
                        CHECK_STATUS(sparse_gemm_ex((tc_arch)arch, t, out, M, N, K, V, ldv, meta, ldm, B, ldb, use_c ? C : NULL, ldc, Ds, ldc, &opt), TC_OK);
                    }
                    for (i = 0; i < M * ldc; i++) {
                        if (i % ldc >= N) continue;
                        cases++;
                        if (!same_bits(Ds[i], Dd[i])) {
                            mismatches++;
                            if (mismatches <= 5) printf("     arch %d type %d out %d M%d N%d K%d [%d]: sparse %a dense %a\n",
                                                        arch, (int)t, (int)out, M, N, K, i, (double)Ds[i], (double)Dd[i]);
                        }
                    }
                    /* the prune inside compress is tc_sparse_prune's */
                    for (i = 0; i < M * lda; i++) if (i % lda < K && !same_bits(P[i], Ad[i]) && !(P[i] == 0.0f && Ad[i] == 0.0f)) mismatches++;
                }
            }
    CHECK(mismatches == 0);
    CHECK(cases > 20000);
    /* the plain entry point is the default options' */
    {
        float a[8] = { 1.5f, 0.0f, -2.0f, 0.0f, 0.0f, 0.25f, 0.0f, 3.0f }, b[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
        float v[4], d1 = 0, d2 = 0, dd = 0;
        uint32_t m = 0;
        CHECK_STATUS(tc_sparse_compress(TC_FP16, 1, 8, a, 8, v, 4, &m, 1, 0, NULL), TC_OK);
        CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 1, 1, 8, v, 4, &m, 1, b, 1, NULL, 1, &d1, 1), TC_OK);
        CHECK_STATUS(sparse_gemm_ex(TC_ARCH_A100, TC_FP16, TC_FP32, 1, 1, 8, v, 4, &m, 1, b, 1, NULL, 1, &d2, 1, NULL), TC_OK);
        CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 1, 1, 8, a, 8, b, 1, NULL, 1, &dd, 1), TC_OK);
        CHECK(d1 == 1.5f - 6.0f + 1.5f + 24.0f && same_bits(d1, d2) && same_bits(d1, dd));
    }
}

/* The two documented differences: both come from a B value the metadata
   drops, and both vanish when that value is 0. */
static void test_sparse_gemm_dropped_b(void) {
    float a[4] = { 1.0f, 0.0f, 2.0f, 0.0f }, b[4] = { 1.0f, INFINITY, 1.0f, 1.0f }, b0[4];
    float v[2], ds = 0, dd = 0, d0 = 0;
    float ta = ldexpf(1.0f, -60), a2[4], bb[4], bz[4];
    uint32_t m = 0;
    tc_mma_options kh = { TC_MMA_ZEROS_KHATTAK, 0, 0, TC_MMA_ZERO_SIGN_SUM, TC_FP32 };
    /* Inf at a dropped position: dense 0*Inf = NaN, sparse never reads it */
    CHECK_STATUS(tc_sparse_compress(TC_FP16, 1, 4, a, 4, v, 2, &m, 1, 0, NULL), TC_OK);
    CHECK(m == 0x8u);   /* (0,2) */
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_H100, TC_FP16, TC_FP32, 1, 1, 4, v, 2, &m, 1, b, 1, NULL, 1, &ds, 1), TC_OK);
    CHECK_STATUS(tc_gemm(TC_ARCH_H100, TC_FP16, TC_FP32, 1, 1, 4, a, 4, b, 1, NULL, 1, &dd, 1), TC_OK);
    CHECK(ds == 3.0f);
    CHECK(dd != dd);
    memcpy(b0, b, sizeof b0); b0[1] = 0.0f;
    CHECK_STATUS(tc_gemm(TC_ARCH_H100, TC_FP16, TC_FP32, 1, 1, 4, a, 4, b0, 1, NULL, 1, &d0, 1), TC_OK);
    CHECK(same_bits(ds, d0));
    /* Inf at a kept position is seen by both */
    b[0] = INFINITY;
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_H100, TC_FP16, TC_FP32, 1, 1, 4, v, 2, &m, 1, b, 1, NULL, 1, &ds, 1), TC_OK);
    CHECK(ds == INFINITY);
    /* MMA-Sim zero rule: 0 * 2^100 has exponent -26 and swamps products of
       2^-120 in the dense model (bf16, A100: F = 24); the sparse model never
       forms that product. Khattak's rule drops zeros, so there they agree. */
    a2[0] = ta * 1.5f; a2[1] = ta; a2[2] = 0.0f; a2[3] = 0.0f;
    bb[0] = ta; bb[1] = ta * 1.25f; bb[2] = ldexpf(1.0f, 100); bb[3] = 0.0f;
    memcpy(bz, bb, sizeof bz); bz[2] = 0.0f;
    CHECK_STATUS(tc_sparse_compress(TC_BF16, 1, 4, a2, 4, v, 2, &m, 1, 0, NULL), TC_OK);
    CHECK(m == 0x4u);   /* (0,1) */
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_BF16, TC_FP32, 1, 1, 4, v, 2, &m, 1, bb, 1, NULL, 1, &ds, 1), TC_OK);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_BF16, TC_FP32, 1, 1, 4, a2, 4, bb, 1, NULL, 1, &dd, 1), TC_OK);
    CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_BF16, TC_FP32, 1, 1, 4, a2, 4, bz, 1, NULL, 1, &d0, 1), TC_OK);
    CHECK(ds == ldexpf(2.75f, -120));
    CHECK(dd == 0.0f);
    CHECK(same_bits(ds, d0));
    CHECK_STATUS(sparse_gemm_ex(TC_ARCH_A100, TC_BF16, TC_FP32, 1, 1, 4, v, 2, &m, 1, bb, 1, NULL, 1, &ds, 1, &kh), TC_OK);
    CHECK_STATUS(gemm_ex(TC_ARCH_A100, TC_BF16, TC_FP32, 1, 1, 4, a2, 4, bb, 1, NULL, 1, &dd, 1, &kh), TC_OK);
    CHECK(ds == ldexpf(2.75f, -120) && same_bits(ds, dd));
}

/* The descriptor: leading dimensions of 0 mean packed (K/2, the metadata
   words, N) and give the same bits as those leading dimensions spelled out
   and as the same matrices stored with padding; bad descriptors. */
static void test_sparse_gemm_desc(void) {
    static const tc_dtype types[] = { TC_FP16, TC_BF16, TC_TF32, TC_E4M3, TC_E5M2 };
    enum { M = 5, N = 3, K = 24, PV = 3, PM = 1, PB = 2, PC = 1, PD = 4 };
    static float A[M * K], V[M * K / 2], Vp[M * (K / 2 + PV)], B[K * N], Bp[K * (N + PB)];
    static float C[M * N], Cp[M * (N + PC)], D0[M * N], D1[M * N], D2[M * N], Dp[M * (N + PD)];
    static uint32_t meta[M * 4], metap[M * (4 + PM)];
    int arch, ti, oi, cases = 0, bad = 0;
    tct_seed(67);
    for (arch = TC_ARCH_A100; arch <= TC_ARCH_H100; arch++)
        for (ti = 0; ti < (int)(sizeof types / sizeof types[0]); ti++)
            for (oi = 0; oi < 2; oi++) {
                tc_dtype t = types[ti], out = oi ? TC_FP16 : TC_FP32;
                tc_mma_params mp;
                tc_sparse_gemm_desc d;
                int words, i, r, c, use_c;
                if (tc_mma_params_of((tc_arch)arch, t, out, &mp) != TC_OK) continue;
                words = meta_words(t, K);
                CHECK(words >= 1 && words <= 4);
                for (i = 0; i < M * K; i++) A[i] = rand_scaled(t, 4);
                for (i = 0; i < K * N; i++) B[i] = rand_scaled(t, 4);
                for (i = 0; i < M * N; i++) C[i] = tc_round(out, rand_value(TC_FP32), TC_RN);
                CHECK_STATUS(tc_sparse_compress(t, M, K, A, K, V, K / 2, meta, words, TC_SPARSE_PRUNE, NULL), TC_OK);
                for (r = 0; r < M; r++) {
                    for (c = 0; c < K / 2; c++) Vp[r * (K / 2 + PV) + c] = V[r * (K / 2) + c];
                    for (c = 0; c < words + PM; c++) metap[r * (words + PM) + c] = c < words ? meta[r * words + c] : 0xFFFFFFFFu;
                    for (c = 0; c < N; c++) Cp[r * (N + PC) + c] = C[r * N + c];
                }
                for (r = 0; r < K; r++) for (c = 0; c < N; c++) Bp[r * (N + PB) + c] = B[r * N + c];
                for (use_c = 0; use_c < 2; use_c++) {
                    CHECK_STATUS(tc_sparse_gemm((tc_arch)arch, t, out, M, N, K, V, K / 2, meta, words, B, N,
                                                use_c ? C : NULL, N, D0, N), TC_OK);
                    memset(&d, 0, sizeof d);
                    d.gemm.arch = (tc_arch)arch; d.gemm.in = t; d.gemm.out = out; d.gemm.M = M; d.gemm.N = N; d.gemm.K = K;
                    d.gemm.A = V; d.meta = meta; d.gemm.B = B; d.gemm.C = use_c ? C : NULL; d.gemm.D = D1;
                    CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_OK);   /* every ld 0: packed */
                    d.gemm.lda = K / 2; d.ldm = words; d.gemm.ldb = N; d.gemm.ldc = N; d.gemm.ldd = N; d.gemm.D = D2;
                    CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_OK);   /* the same, spelled out */
                    d.gemm.A = Vp; d.gemm.lda = K / 2 + PV; d.meta = metap; d.ldm = words + PM;
                    d.gemm.B = Bp; d.gemm.ldb = N + PB; d.gemm.C = use_c ? Cp : NULL; d.gemm.ldc = N + PC; d.gemm.D = Dp; d.gemm.ldd = N + PD;
                    CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_OK);   /* padded storage */
                    for (r = 0; r < M; r++)
                        for (c = 0; c < N; c++) {
                            float x = D0[r * N + c];
                            cases++;
                            if (!same_bits(x, D1[r * N + c]) || !same_bits(x, D2[r * N + c]) || !same_bits(x, Dp[r * (N + PD) + c])) bad++;
                        }
                }
            }
    CHECK(bad == 0);
    CHECK(cases == 2 * M * N * 12);   /* A100: fp16 x2, bf16, tf32; H100: those and e4m3 x2, e5m2 x2 */
    /* bad descriptors: D untouched */
    {
        tc_sparse_gemm_desc d;
        float v[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, b[16] = { 0 }, dd[4] = { 9, 9, 9, 9 };
        uint32_t m[2] = { 0x88888888u, 0x88888888u };
        CHECK_STATUS(tc_sparse_gemm_ex(NULL), TC_ERR_NULL);
        memset(&d, 0, sizeof d);
        d.gemm.arch = TC_ARCH_A100; d.gemm.in = TC_FP16; d.gemm.out = TC_FP32; d.gemm.M = 2; d.gemm.N = 2; d.gemm.K = 8;
        d.gemm.A = v; d.meta = m; d.gemm.B = b; d.gemm.D = dd;
        CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_OK);
        CHECK(dd[0] == 0.0f && dd[3] == 0.0f);   /* B is zero */
        dd[0] = dd[1] = dd[2] = dd[3] = 9;
        d.gemm.A = NULL; CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_ERR_NULL); d.gemm.A = v;
        d.meta = NULL; CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_ERR_NULL); d.meta = m;
        d.gemm.D = NULL; CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_ERR_NULL); d.gemm.D = dd;
        d.gemm.K = 6; CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_ERR_SHAPE);          /* packed ldm needs a valid K */
        d.gemm.K = -4; CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_ERR_SIZE);
        d.gemm.K = 8; d.gemm.in = TC_FP32; CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_ERR_DTYPE);
        d.gemm.in = TC_FP16; d.gemm.arch = TC_ARCH_V100; CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_ERR_ARCH);
        d.gemm.arch = TC_ARCH_A100; d.gemm.lda = 3; CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_ERR_SHAPE);
        d.gemm.lda = 0; d.gemm.options.zero_rule = (tc_mma_zero_rule)7; CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_ERR_ARG);
        d.gemm.options.zero_rule = TC_MMA_ZEROS_MMASIM; m[0] = 0x88888808u; CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_ERR_SPARSE_META);
        CHECK(dd[0] == 9 && dd[1] == 9 && dd[2] == 9 && dd[3] == 9);
    }
}

static void test_sparse_gemm_bad_input(void) {
    float a[16] = { 1, 0, 2, 0,  0, 3, 0, 4,  5, 6, 0, 0,  0, 0, 7, 8 }, v[8], b[16], c[4] = { 0 }, d[4] = { 9, 9, 9, 9 };
    uint32_t m[2] = { 0, 0 }, bad[2];
    int i;
    for (i = 0; i < 16; i++) b[i] = (float)(i - 8);
    CHECK_STATUS(tc_sparse_compress(TC_FP16, 2, 8, a, 8, v, 4, m, 1, 0, NULL), TC_OK);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, 8, v, 4, m, 1, b, 2, c, 2, d, 2), TC_OK);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, 8, NULL, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_NULL);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, 8, v, 4, NULL, 1, b, 2, c, 2, d, 2), TC_ERR_NULL);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, 8, v, 4, m, 1, NULL, 2, c, 2, d, 2), TC_ERR_NULL);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, 8, v, 4, m, 1, b, 2, c, 2, NULL, 2), TC_ERR_NULL);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, -1, 2, 8, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_SIZE);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, -2, 8, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_SIZE);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, -8, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_SIZE);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, 6, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_SHAPE);   /* K % 4 */
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_TF32, TC_FP32, 2, 2, 7, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_SHAPE);   /* K % 2 */
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, 8, v, 3, m, 1, b, 2, c, 2, d, 2), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, 8, v, 4, m, 0, b, 2, c, 2, d, 2), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, 8, v, 4, m, 1, b, 1, c, 2, d, 2), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, 8, v, 4, m, 1, b, 2, c, 2, d, 1), TC_ERR_SHAPE);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_V100, TC_FP16, TC_FP32, 2, 2, 8, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_ARCH);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_TURING, TC_FP16, TC_FP32, 2, 2, 8, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_ARCH);   /* mma.sp is sm_80+ */
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_E4M3, TC_FP32, 2, 2, 8, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_ARCH);
    CHECK_STATUS(tc_sparse_gemm((tc_arch)7, TC_FP16, TC_FP32, 2, 2, 8, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_ARCH);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP32, TC_FP32, 2, 2, 8, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_DTYPE);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_BF16, TC_FP16, 2, 2, 8, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_DTYPE);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 0, 2, 8, NULL, 4, NULL, 1, NULL, 2, NULL, 2, NULL, 2), TC_OK);
    /* every illegal code of either group is refused, D untouched */
    for (i = 0; i < 16; i++) {
        int lo = i & 3, hi = i >> 2;
        float keep_d = d[0];
        bad[0] = m[0]; bad[1] = m[1];
        bad[0] = (bad[0] & ~0xF0u) | ((uint32_t)i << 4);   /* group 1 of row 0 */
        CHECK_STATUS(tc_sparse_gemm(TC_ARCH_H100, TC_FP16, TC_FP32, 2, 2, 8, v, 4, bad, 1, b, 2, c, 2, d, 2),
                     lo < hi ? TC_OK : TC_ERR_SPARSE_META);
        if (lo >= hi) CHECK(same_bits(d[0], keep_d));
    }
    bad[0] = 0x4u; bad[1] = 0x5u;   /* tf32: only 0x4 and 0xE name a whole 32-bit element */
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_TF32, TC_FP32, 2, 2, 2, v, 1, bad, 1, b, 2, NULL, 2, d, 2), TC_ERR_SPARSE_META);
    bad[1] = 0xEu;
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_TF32, TC_FP32, 2, 2, 2, v, 1, bad, 1, b, 2, NULL, 2, d, 2), TC_OK);
    v[0] = 1.0f + 1.0f / 4096.0f;   /* not an fp16 value */
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_FP16, TC_FP32, 2, 2, 8, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_NOT_REPRESENTABLE);
    CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, TC_TF32, TC_FP32, 2, 2, 8, v, 4, m, 1, b, 2, c, 2, d, 2), TC_ERR_SPARSE_META);   /* m is 2:4, not 1:2 */
}

/* The wgmma.sp metadata positions against CUTLASS's description of the same
   registers, written out here as CuTe layouts: ELayout_64x32 (f16, bf16),
   ELayout_64x16 (tf32), ELayout_64x64 (FP8) of
   include/cute/atom/mma_traits_sm90_gmma_sparse.hpp (NVIDIA/cutlass at
   044405ce10e21d44b65ccd40c4fc2bec68789dad). Thread modes (2, 2, 8, 4) are
   the bits of the warpgroup thread id, fastest first; values, fastest
   first, are the register's bits in equal parts; the offset is
   row + 64 * (dense column) of the 64 x K tile. A stride-0 thread mode
   repeats a lane pair: the sparsity selector picks one copy. Every
   (row, group) must be named once per selector, by the lane and nibble
   these layouts give. */
typedef struct { int k, tstride[4], nv, vshape[2], vstride[2]; } wg_elayout;

static void test_wgmma_meta(void) {
    static const wg_elayout e32 = { 32, { 1024, 0, 1, 16 }, 32, { 16, 2 }, { 64, 8 } };
    static const wg_elayout e16 = { 16, { 512, 0, 1, 16 }, 16, { 8, 2 }, { 64, 8 } };
    static const wg_elayout e64 = { 64, { 8, 2048, 1, 16 }, 32, { 32, 1 }, { 64, 0 } };
    static const int bad_int[] = { -1, INT_MAX, INT_MIN };
    int kind, n_wg = 0;
    for (kind = 0; kind < TC_MMA_INSTR_COUNT; kind++) {
        const tc_mma_instr s = (tc_mma_instr)kind;
        tc_mma_instr_info in;
        const wg_elayout *el;
        int sel, used = 0, r = 0, g = 0, i;
        CHECK_STATUS(tc_mma_instr_get(s, &in), TC_OK);
        if (!in.sparse_group || in.threads != 128) continue;
        n_wg++;
        el = in.k == 32 ? &e32 : in.k == 16 ? &e16 : &e64;
        CHECK(el->k == in.k && in.m == 64);
        CHECK(in.selectors == (el->tstride[1] ? 1 : 2) && in.meta_lanes * in.selectors == 4);
        for (sel = 0; sel < in.selectors; sel++) {
            static int seen[64 * 16];
            int tid, v, ok = 1, named = 0;
            const int groups = in.k / in.sparse_group;
            memset(seen, 0, sizeof seen);
            for (tid = 0; tid < 128; tid++) {
                const int b0 = tid & 1, b1 = (tid >> 1) & 1, q = (tid >> 2) & 7, w = tid >> 5;
                const int toff = b0 * el->tstride[0] + b1 * el->tstride[1] + q * el->tstride[2] + w * el->tstride[3];
                const int carries = el->tstride[1] ? 1 : b1 == sel;
                int j, want_used[8] = { 0 }, want_row[8], want_group[8];
                for (v = 0; v < el->nv; v++) {
                    const int off = toff + (v % el->vshape[0]) * el->vstride[0] + (v / el->vshape[0]) * el->vstride[1];
                    const int jj = v * (32 / el->nv) / 4;   /* the nibble holding value v's bits */
                    want_used[jj] = carries;
                    want_row[jj] = off % 64;
                    want_group[jj] = off / 64 / in.sparse_group;
                }
                for (j = 0; j < 8; j++) {
                    if (tc_sparse_meta_coord(s, sel, tid, j, &used, &r, &g) != TC_OK) { ok = 0; continue; }
                    if (used != want_used[j]) ok = 0;
                    else if (!used) { if (r != -1 || g != -1) ok = 0; }
                    else if (r != want_row[j] || g != want_group[j] || r < 0 || r >= 64 || g < 0 || g >= groups) ok = 0;
                    else { seen[r * 16 + g]++; named++; }
                }
            }
            for (r = 0; r < 64; r++) for (g = 0; g < groups; g++) if (seen[r * 16 + g] != 1) ok = 0;
            CHECK(ok && named == 64 * groups);
        }
        /* refusals: selector, thread, nibble; NULL outputs */
        CHECK_STATUS(tc_sparse_meta_coord(s, in.selectors, 0, 0, &used, &r, &g), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_coord(s, 0, 128, 0, &used, &r, &g), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_coord(s, 0, 127, 8, &used, &r, &g), TC_ERR_ARG);
        for (i = 0; i < (int)(sizeof bad_int / sizeof bad_int[0]); i++) {
            CHECK_STATUS(tc_sparse_meta_coord(s, bad_int[i], 0, 0, &used, &r, &g), TC_ERR_ARG);
            CHECK_STATUS(tc_sparse_meta_coord(s, 0, bad_int[i], 0, &used, &r, &g), TC_ERR_ARG);
            CHECK_STATUS(tc_sparse_meta_coord(s, 0, 0, bad_int[i], &used, &r, &g), TC_ERR_ARG);
        }
        CHECK_STATUS(tc_sparse_meta_coord(s, 0, 0, 0, NULL, &r, &g), TC_ERR_NULL);
        CHECK_STATUS(tc_sparse_meta_coord(s, 0, 0, 0, &used, NULL, &g), TC_ERR_NULL);
        CHECK_STATUS(tc_sparse_meta_coord(s, 0, 0, 0, &used, &r, NULL), TC_ERR_NULL);
    }
    CHECK(n_wg == 7);   /* f16, bf16, tf32, four FP8 pairings */
    /* mma.sp keeps its 32 lanes; the FP8 mma.sp layout stays unmodelled */
    {
        int used, r, g;
        CHECK_STATUS(tc_sparse_meta_coord(TC_MMA_SP_M16N8K32_F16, 0, 32, 0, &used, &r, &g), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_coord(TC_MMA_SP_M16N8K64_E4M3, 0, 0, 0, &used, &r, &g), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_coord((tc_mma_instr)-1, 0, 0, 0, &used, &r, &g), TC_ERR_ARG);
        CHECK_STATUS(tc_sparse_meta_coord(TC_WGMMA_F16, 0, 0, 0, &used, &r, &g), TC_ERR_ARG);   /* dense */
    }
}

int main(void) {
    test_pattern_and_codes();
    test_meta_words();
    test_prune_rules();
    test_round_trips();
    test_every_group_pattern();
    test_violations_and_bad_input();
    test_layouts();
    test_wgmma_meta();
    test_pack_unpack();
    test_sparse_gemm_matches_dense();
    test_sparse_gemm_dropped_b();
    test_sparse_gemm_bad_input();
    test_sparse_gemm_desc();
    return tct_finish("test_sparsity");
}
