/* test_gemm_fast.c - the SIMD block-FMA path of tc_gemm_ex and
   tc_sparse_gemm_ex against the scalar model, bit for bit.

   Two oracles per GEMM: the same descriptor with force_scalar = 1 (the
   scalar model on pre-split operands), and tc_mma_dot_ex element by element
   (the primitive, chained in the same groups). Every architecture, input
   type, output type, zero rule and a spread of options (group, frac_bits,
   including frac_bits above TC_GEMM_FAST_MAX_FRAC, which must fall back),
   on odd shapes and padded leading dimensions, with inputs built to hit the
   fast path's edges: subnormals of every type, signed zeros, exact
   cancellation (an exact zero must come out +0), rounding ties for fp16
   outputs, huge exponent spreads, overflow, Inf and NaN. Then threads > 1
   against one thread, the sparse GEMM (dropped B values that are huge,
   Inf or NaN included), and bad descriptors. Fixed seeds.
   Built by the Makefile as test_gemm_fast (SSE2 kernel) and, where the CPU
   has them, test_gemm_fast_avx2 (-mavx2: the AVX2 kernel) and
   test_gemm_fast_avx512 (AVX-512 F, VL, BW and DQ: the AVX-512 kernel). */
#include "tc_test.h"
#define TC_THREADS
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *test_name(void) {
#if defined(__AVX512VL__) && defined(__AVX512BW__)
    return "test_gemm_fast_avx512";
#elif defined(__AVX2__)
    return "test_gemm_fast_avx2";
#else
    return "test_gemm_fast";
#endif
}

/* Input distributions. */
/* GEN_ZEROS pairs an A (and C) of zeros and tiny values with a B of
   GEN_HUGE values: under MMA-Sim's rule a zero's product 0 * b then has the
   group's largest exponent (-126 + e(b)) and truncates the others. */
enum { GEN_PLAIN, GEN_SPREAD, GEN_SPECIAL, GEN_CANCEL, GEN_TIES, GEN_TINY, GEN_ZEROS, GEN_COUNT, GEN_HUGE = GEN_COUNT };

/* A random fp32 value with exponent in [lo, hi], any mantissa, random sign. */
static float rand_exp(int lo, int hi) {
    int e = lo + (int)(tct_rand32() % (uint32_t)(hi - lo + 1));
    float m = 1.0f + (float)(tct_rand32() & 0xFFFFFFu) / 16777216.0f;
    float x = ldexpf(m, e);
    return (tct_rand32() & 1u) ? -x : x;
}

/* One value representable in t (tf32: a raw fp32, which the MMA truncates). */
static float gen_value(tc_dtype t, int mode) {
    uint32_t r = tct_rand32() % 100u;
    float x;
    switch (mode) {
    case GEN_PLAIN:
        x = rand_exp(-4, 2);
        break;
    case GEN_SPREAD:   /* every binade of the type, its subnormals and its largest values */
        if (t == TC_FP16) x = rand_exp(-26, 15);
        else if (t == TC_E4M3) x = rand_exp(-10, 8);
        else if (t == TC_E5M2) x = rand_exp(-17, 15);
        else x = rand_exp(-135, 127);
        break;
    case GEN_SPECIAL:
        if (r < 3) x = (r & 1u) ? tct_u2f(0x7FC00000u) : ((r & 2u) ? -1.0f : 1.0f) * tct_u2f(0x7F800000u);
        else if (r < 15) x = (r & 1u) ? -0.0f : 0.0f;
        else if (r < 25) x = rand_exp(t == TC_FP16 ? -24 : t == TC_E4M3 ? -9 : t == TC_E5M2 ? -16 : -133,
                                      t == TC_FP16 ? -15 : t == TC_E4M3 ? -7 : t == TC_E5M2 ? -15 : -127);
        else x = rand_exp(-3, 3);
        break;
    case GEN_CANCEL:   /* small integers times a few powers of two: exact zeros and cancellation */
        x = ldexpf((float)((int)(tct_rand32() % 7u) - 3), (int)(tct_rand32() % 5u) - 2);
        if (r < 10) x = -0.0f;
        break;
    case GEN_TINY:     /* products near and below the smallest normal of c's type, c subnormal or zero there */
        if (r < 20) x = (r & 1u) ? -0.0f : 0.0f;
        else if (t == TC_FP32) x = rand_exp(-149, -118);
        else if (t == TC_FP16) x = rand_exp(-24, -10);
        else if (t == TC_E4M3) x = rand_exp(-9, -3);
        else if (t == TC_E5M2) x = rand_exp(-16, -6);
        else x = rand_exp(-68, -58);
        break;
    case GEN_ZEROS:
        if (r < 50) x = (r & 1u) ? -0.0f : 0.0f;
        else if (t == TC_FP16) x = rand_exp(-24, -14);
        else if (t == TC_E4M3 || t == TC_E5M2) x = rand_exp(-9, -5);
        else x = rand_exp(-110, -90);
        break;
    case GEN_HUGE:
        if (t == TC_FP16 || t == TC_E5M2) x = rand_exp(-5, 15);
        else if (t == TC_E4M3) x = rand_exp(-3, 8);
        else x = rand_exp(-10, 60);
        break;
    default:           /* GEN_TIES: sums landing on fp16 rounding boundaries */
        x = ldexpf((float)((int)(tct_rand32() % 2049u) - 1024), (int)(tct_rand32() % 3u) - 12);
        if (r < 20) x = ldexpf(1.0f, (int)(tct_rand32() % 6u) - 12);
        break;
    }
    if (t == TC_TF32) return x;
    if (t == TC_E4M3 && x != x) return x;
    return tc_round(t, x, TC_RN);
}

static float *gen_matrix(tc_dtype t, int rows, int cols, int ld, int mode) {
    float *m = (float *)malloc(sizeof(float) * (size_t)(rows ? rows : 1) * (size_t)(ld ? ld : 1));
    int i, j;
    if (!m) { printf("out of memory\n"); exit(1); }
    for (i = 0; i < rows; i++)
        for (j = 0; j < ld; j++) m[(size_t)i * (size_t)ld + (size_t)j] = j < cols ? gen_value(t, mode) : tct_u2f(0x7FC00001u);
    return m;
}

static uint32_t fbits(float x) { return tct_f2u(x); }

/* The model element by element through tc_mma_dot_ex, chained in the
   GEMM's groups (opt.group set to the group the GEMM uses). */
static float dot_oracle(const tc_gemm_desc *d, int i, int j, int lda, int ldb, int ldc, float *acol) {
    tc_mma_options o = d->options;
    tc_mma_params p;
    int k;
    float c = d->C ? d->C[(size_t)i * (size_t)ldc + (size_t)j] : 0.0f;
    if (d->K == 0) return c;
    if (tc_mma_params_of_mixed(d->arch, d->in, o.b_type ? o.b_type : d->in, d->out, &p) != TC_OK) return tct_u2f(0x7FBADBADu);
    if (!o.group) o.group = p.group;
    for (k = 0; k < d->K; k++) acol[k] = d->B[(size_t)k * (size_t)ldb + (size_t)j];
    return tc_mma_dot_ex(d->arch, d->in, d->out, d->K, d->A + (size_t)i * (size_t)lda, acol, c, &o);
}

typedef struct { int M, N, K, pad; } shape;
/* N below the kernel's minimum width (3 to 5 columns) takes the scalar model; the others the SIMD path
   (N = 3: SSE2's alone; N = 5: every kernel's narrowest). */
static const shape shapes[] = { { 1, 1, 1, 0 }, { 3, 13, 7, 1 }, { 17, 29, 33, 3 }, { 2, 19, 64, 0 }, { 5, 16, 0, 2 }, { 9, 41, 100, 5 },
                                { 6, 3, 40, 1 }, { 7, 5, 24, 2 } };

static long compared;

/* One GEMM three ways: fast, scalar, per element. */
static void compare_gemm(tc_arch arch, tc_dtype in, tc_dtype out, const tc_mma_options *o, const shape *sh, int mode, int with_c) {
    tc_gemm_desc d;
    int lda = sh->K + sh->pad, ldb = sh->N + sh->pad, ldc = sh->N + sh->pad + 1, ldd = sh->N + sh->pad;
    tc_dtype bt = o->b_type ? o->b_type : in;   /* mixed FP8: B's own type */
    float *A = gen_matrix(in, sh->M, sh->K, lda, mode), *B = gen_matrix(bt, sh->K, sh->N, ldb, mode == GEN_ZEROS ? GEN_HUGE : mode);
    float *C = with_c ? gen_matrix(out, sh->M, sh->N, ldc, mode) : NULL;
    float *D1 = (float *)calloc((size_t)sh->M * (size_t)ldd + 1, sizeof(float));
    float *D2 = (float *)calloc((size_t)sh->M * (size_t)ldd + 1, sizeof(float));
    float *col = (float *)malloc(sizeof(float) * (size_t)(sh->K + 1));
    tc_status s1, s2;
    long ok_s = 0, bad_s = 0, ok_d = 0, bad_d = 0;
    int i, j;
    if (!D1 || !D2 || !col) { printf("out of memory\n"); exit(1); }
    memset(&d, 0, sizeof d);
    d.arch = arch; d.in = in; d.out = out; d.M = sh->M; d.N = sh->N; d.K = sh->K;
    d.A = A; d.lda = lda; d.B = B; d.ldb = ldb; d.C = C; d.ldc = ldc; d.D = D1; d.ldd = ldd;
    d.options = *o;
    s1 = tc_gemm_ex(&d);
    d.D = D2; d.force_scalar = 1;
    s2 = tc_gemm_ex(&d);
    CHECK_STATUS(s1, s2);
    if (s1 == TC_OK && s2 == TC_OK) {
        for (i = 0; i < sh->M; i++)
            for (j = 0; j < sh->N; j++) {
                float f = D1[(size_t)i * (size_t)ldd + (size_t)j], sc = D2[(size_t)i * (size_t)ldd + (size_t)j];
                float dot = dot_oracle(&d, i, j, lda, ldb, ldc, col);
                if (fbits(f) == fbits(sc)) ok_s++;
                else if (bad_s++ < 3)
                    printf("  fast %08x scalar %08x: arch %d in %d out %d zero %d group %d F %d, %dx%dx%d mode %d, D[%d][%d]\n",
                           (unsigned)fbits(f), (unsigned)fbits(sc), arch, in, out, o->zero_rule, o->group, o->frac_bits,
                           sh->M, sh->N, sh->K, mode, i, j);
                if (fbits(f) == fbits(dot)) ok_d++;
                else if (bad_d++ < 3)
                    printf("  fast %08x tc_mma_dot_ex %08x: arch %d in %d out %d zero %d group %d F %d, %dx%dx%d mode %d, D[%d][%d]\n",
                           (unsigned)fbits(f), (unsigned)fbits(dot), arch, in, out, o->zero_rule, o->group, o->frac_bits,
                           sh->M, sh->N, sh->K, mode, i, j);
            }
        /* columns beyond N in the leading dimension stay untouched */
        for (i = 0; i < sh->M; i++)
            for (j = sh->N; j < ldd; j++) CHECK(fbits(D1[(size_t)i * (size_t)ldd + (size_t)j]) == 0u);
    }
    tct_add(ok_s, bad_s);
    tct_add(ok_d, bad_d);
    compared += ok_s + bad_s;
    free(A); free(B); free(C); free(D1); free(D2); free(col);
}

static void test_every_combination(void) {
    static const tc_dtype ins[] = { TC_FP16, TC_BF16, TC_TF32, TC_E4M3, TC_E5M2 };
    static const tc_dtype outs[] = { TC_FP32, TC_FP16 };
    static const int opts[][2] = { { 0, 0 }, { 1, 0 }, { 3, 5 }, { 64, 0 }, { 0, 28 }, { 0, 29 }, { 5, 40 } };
    int a, ii, oo, z, op, mode, mixed, run = 0;
    tct_seed(18);
    for (a = 0; a < TC_ARCH_COUNT; a++)
        for (ii = 0; ii < (int)(sizeof ins / sizeof ins[0]); ii++)
            for (oo = 0; oo < 2; oo++)
                for (mixed = 0; mixed < 2; mixed++) {   /* 1: B the other FP8 type */
                tc_mma_params p;
                tc_dtype bt = !mixed ? TC_FP32 : ins[ii] == TC_E4M3 ? TC_E5M2 : TC_E4M3;
                if (mixed && ins[ii] != TC_E4M3 && ins[ii] != TC_E5M2) continue;
                if (tc_mma_params_of_mixed((tc_arch)a, ins[ii], bt ? bt : ins[ii], outs[oo], &p) != TC_OK) continue;
                for (z = 0; z < 2; z++)
                    for (op = 0; op < (int)(sizeof opts / sizeof opts[0]); op++)
                        for (mode = 0; mode < GEN_COUNT; mode++) {
                            tc_mma_options o;
                            memset(&o, 0, sizeof o);
                            o.b_type = bt;
                            o.zero_rule = z ? TC_MMA_ZEROS_KHATTAK : TC_MMA_ZEROS_MMASIM;
                            o.group = opts[op][0]; o.frac_bits = opts[op][1];
                            /* both signs of zero, alternating so that the run does not double */
                            o.zero_sign = (op + mode) % 2 ? TC_MMA_ZERO_SIGN_PLUS : TC_MMA_ZERO_SIGN_SUM;
                            /* every option set on every shape for the default options, one shape otherwise */
                            if (op == 0) {
                                int s;
                                for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++)
                                    compare_gemm((tc_arch)a, ins[ii], outs[oo], &o, &shapes[s], mode, (s + mode) % 2);
                            } else {
                                compare_gemm((tc_arch)a, ins[ii], outs[oo], &o, &shapes[(op + mode + run) % 6], mode, run % 2);
                                compare_gemm((tc_arch)a, ins[ii], outs[oo], &o, &shapes[(op + mode + run + 3) % 6], mode, 1);
                            }
                            run++;
                        }
            }
}

/* Outputs that must leave the lanes: overflow to Inf, fp16 subnormal
   results, an Inf c; checked against the scalar model above, here also
   that they really occur (the generator could drift away from them). */
/* Runs d (M = 1, K <= 64) with every one of WIDE columns of B equal to b
   and every C equal to c: wide enough for the SIMD path on any kernel.
   Checks the fast result against the scalar model; returns it. */
enum { WIDE = 16 };
static float run_wide(tc_gemm_desc *d, const float *b, float c) {
    float B[64 * WIDE], C[WIDE], D1[WIDE], D2[WIDE];
    int k, j, same = 1;
    for (k = 0; k < d->K; k++) for (j = 0; j < WIDE; j++) B[k * WIDE + j] = b[k];
    for (j = 0; j < WIDE; j++) C[j] = c;
    d->N = WIDE; d->B = B; d->C = C; d->ldb = d->ldc = d->ldd = 0;
    d->force_scalar = 0; d->D = D1; CHECK_STATUS(tc_gemm_ex(d), TC_OK);
    d->force_scalar = 1; d->D = D2; CHECK_STATUS(tc_gemm_ex(d), TC_OK);
    for (j = 0; j < WIDE; j++) same &= fbits(D1[j]) == fbits(D2[j]) && fbits(D1[j]) == fbits(D1[0]);
    CHECK(same);
    d->B = NULL; d->C = NULL; d->D = NULL;
    return D1[0];
}

/* Mixed FP8 in the lanes: B (e5m2) is split with its own minimum exponent
   -14, so Ada's E is -14 and 2^-6 * 2^-14 survives the 13-bit truncation
   (tests/test_mma.c derives the value); under e4m3's -6 it would not. */
static void test_mixed_edge(void) {
    float A[32], b[32];
    tc_gemm_desc d;
    int k;
    memset(&d, 0, sizeof d);
    d.arch = TC_ARCH_ADA; d.in = TC_E4M3; d.out = TC_FP32; d.M = 1; d.K = 32; d.A = A;
    d.options.b_type = TC_E5M2;
    for (k = 0; k < 32; k++) A[k] = b[k] = 0.0f;
    A[0] = 1.0f; b[0] = ldexpf(1.0f, -16);
    A[1] = ldexpf(1.0f, -6); b[1] = ldexpf(1.0f, -14);
    CHECK(run_wide(&d, b, 0.0f) == ldexpf(1.0f, -16) + ldexpf(1.0f, -20));
}

/* The edges of the SIMD path, each built on purpose (the random inputs
   above could drift away from them): outputs that must leave the lanes
   (overflow to Inf, an fp16 subnormal result, an Inf c) and ones that must
   not (the sign of an exact zero, a zero c's exponent). */
static void test_edges(void) {
    float A[64], b[64];
    tc_gemm_desc d;
    int k;
    memset(&d, 0, sizeof d);
    d.arch = TC_ARCH_A100; d.in = TC_FP16; d.out = TC_FP16; d.M = 1; d.K = 8; d.A = A;
    for (k = 0; k < 8; k++) { A[k] = 65504.0f; b[k] = 2.0f; }
    CHECK(fbits(run_wide(&d, b, 0.0f)) == 0x7F800000u);            /* overflow: Inf, not the largest finite */
    for (k = 0; k < 8; k++) { A[k] = k ? 0.0f : ldexpf(1.0f, -10); b[k] = k ? 0.0f : ldexpf(3.0f, -10); }
    CHECK(run_wide(&d, b, 0.0f) > 0.0f && run_wide(&d, b, 0.0f) < ldexpf(1.0f, -14));   /* an fp16 subnormal result */
    CHECK(fbits(run_wide(&d, b, tct_u2f(0xFF800000u))) == 0xFF800000u);   /* -Inf c stays -Inf */
    for (k = 0; k < 8; k++) { A[k] = (k & 1) ? -1.0f : 1.0f; b[k] = 1.0f; }
    CHECK(fbits(run_wide(&d, b, -0.0f)) == 0u);                      /* exact cancellation: +0 */
    for (k = 0; k < 8; k++) { A[k] = -0.0f; b[k] = 1.0f; }
    CHECK(fbits(run_wide(&d, b, -0.0f)) == 0u);                      /* -0 c plus -0 products: +0 */
    /* MMA-Sim: a zero c has exponent -126 and so sets E when every product
       lies below 2^-126: two products (1 + 2^-5) 2^-127 truncated to F = 5
       bits below 2^-126 lose their 2^-132 bit. */
    d.in = TC_BF16; d.out = TC_FP32; d.K = 2; d.options.frac_bits = 5; d.options.group = 2;
    A[0] = A[1] = ldexpf(1.0f + ldexpf(1.0f, -5), -64); b[0] = b[1] = ldexpf(1.0f, -63);
    CHECK(run_wide(&d, b, 0.0f) == ldexpf(1.0f, -126));
    /* Khattak: E is clamped at -132 (A100) below; 64 products of
       (2 + 2^-5 + ...) 2^-133 keep 4 fractional bits (F = 5) below 2^-132,
       not 5, and sum to exactly 2^-126. */
    d.options.zero_rule = TC_MMA_ZEROS_KHATTAK; d.options.group = 64; d.K = 64;
    for (k = 0; k < 64; k++) { A[k] = ldexpf(1.0f + ldexpf(1.0f, -5), -66); b[k] = ldexpf(2.0f - ldexpf(1.0f, -7), -67); }
    CHECK(run_wide(&d, b, 0.0f) == ldexpf(1.0f, -126));
}

/* threads > 1 gives the same bits as one thread, on the fast and the scalar path. */
static void test_threads(void) {
    enum { M = 75, N = 37, K = 70 };
    float *A, *B, *C, *D1, *D2;
    tc_gemm_desc d;
    int fs, t, i;
    long ok = 0, bad = 0;
    tct_seed(1818);
    A = gen_matrix(TC_BF16, M, K, K, GEN_SPECIAL); B = gen_matrix(TC_BF16, K, N, N, GEN_SPREAD);
    C = gen_matrix(TC_FP32, M, N, N, GEN_PLAIN);
    D1 = (float *)malloc(sizeof(float) * M * N); D2 = (float *)malloc(sizeof(float) * M * N);
    if (!D1 || !D2) { printf("out of memory\n"); exit(1); }
    memset(&d, 0, sizeof d);
    d.arch = TC_ARCH_H100; d.in = TC_BF16; d.out = TC_FP32; d.M = M; d.N = N; d.K = K;
    d.A = A; d.B = B; d.C = C;
    for (fs = 0; fs < 2; fs++) {
        d.force_scalar = fs; d.threads = 1; d.D = D1;
        CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
        for (t = 0; t <= 7; t += 3) {
            d.threads = t; d.D = D2;
            memset(D2, 0, sizeof(float) * M * N);
            CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
            for (i = 0; i < M * N; i++) { if (fbits(D1[i]) == fbits(D2[i])) ok++; else bad++; }
        }
    }
    tct_add(ok, bad);
    /* D aliasing C, on threads */
    memcpy(D2, C, sizeof(float) * M * N);
    d.force_scalar = 0; d.threads = 4; d.C = D2; d.D = D2;
    CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
    ok = bad = 0;
    for (i = 0; i < M * N; i++) { if (fbits(D1[i]) == fbits(D2[i])) ok++; else bad++; }
    tct_add(ok, bad);
    free(A); free(B); free(C); free(D1); free(D2);
}

/* The sparse GEMM: fast against scalar, B's dropped positions included. */
static void test_sparse(void) {
    static const tc_dtype ins[] = { TC_FP16, TC_BF16, TC_TF32, TC_E4M3, TC_E5M2 };
    int a, ii, oo, z, mode, words;
    long ok = 0, bad = 0;
    tct_seed(24);
    for (a = TC_ARCH_A100; a <= TC_ARCH_H100; a++)
        for (ii = 0; ii < 5; ii++)
            for (oo = 0; oo < 2; oo++)
                for (z = 0; z < 2; z++)
                    for (mode = 0; mode < GEN_COUNT; mode++) {
                        tc_dtype out = oo ? TC_FP16 : TC_FP32;
                        tc_mma_params p;
                        tc_sparse_gemm_desc d;
                        int M = 7 + mode, N = 13 + 2 * mode, K = 32 + 4 * mode, i;
                        float *A, *B, *C, *V, *D1, *D2;
                        uint32_t *meta;
                        if (tc_mma_params_of((tc_arch)a, ins[ii], out, &p) != TC_OK) continue;
                        if (tc_sparse_meta_words(ins[ii], K, &words) != TC_OK) continue;
                        A = gen_matrix(ins[ii], M, K, K, mode); B = gen_matrix(ins[ii], K, N, N, mode == GEN_PLAIN ? GEN_SPECIAL : mode);
                        C = gen_matrix(out, M, N, N, mode);
                        V = (float *)malloc(sizeof(float) * (size_t)M * (size_t)(K / 2));
                        meta = (uint32_t *)malloc(sizeof(uint32_t) * (size_t)M * (size_t)words);
                        D1 = (float *)malloc(sizeof(float) * (size_t)M * (size_t)N);
                        D2 = (float *)malloc(sizeof(float) * (size_t)M * (size_t)N);
                        if (!V || !meta || !D1 || !D2) { printf("out of memory\n"); exit(1); }
                        if (ins[ii] == TC_TF32)   /* the pruned values must be tf32 for compress's zero test */
                            for (i = 0; i < M * K; i++) A[i] = tc_tf32_truncate(A[i]);
                        CHECK_STATUS(tc_sparse_compress(ins[ii], M, K, A, K, V, K / 2, meta, words, TC_SPARSE_PRUNE, NULL), TC_OK);
                        memset(&d, 0, sizeof d);
                        d.gemm.arch = (tc_arch)a; d.gemm.in = ins[ii]; d.gemm.out = out;
                        d.gemm.M = M; d.gemm.N = N; d.gemm.K = K; d.gemm.A = V; d.gemm.B = B; d.gemm.C = mode % 2 ? C : NULL;
                        d.gemm.options.zero_rule = z ? TC_MMA_ZEROS_KHATTAK : TC_MMA_ZEROS_MMASIM;
                        d.gemm.options.group = mode == GEN_TIES ? 3 : 0;
                        d.gemm.options.zero_sign = mode % 2 ? TC_MMA_ZERO_SIGN_PLUS : TC_MMA_ZERO_SIGN_SUM;
                        d.meta = meta;
                        d.gemm.D = D1; d.gemm.threads = mode;
                        CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_OK);
                        d.gemm.D = D2; d.gemm.force_scalar = 1; d.gemm.threads = 0;
                        CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_OK);
                        d.gemm.threads = -1;
                        CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_ERR_ARG);
                        d.gemm.threads = 0; d.gemm.force_scalar = 3;
                        CHECK_STATUS(tc_sparse_gemm_ex(&d), TC_ERR_ARG);
                        for (i = 0; i < M * N; i++) {
                            if (fbits(D1[i]) == fbits(D2[i])) ok++;
                            else if (bad++ < 3) printf("  sparse fast %08x scalar %08x: arch %d in %d out %d zero %d mode %d at %d\n",
                                                       (unsigned)fbits(D1[i]), (unsigned)fbits(D2[i]), a, ins[ii], out, z, mode, i);
                        }
                        free(A); free(B); free(C); free(V); free(meta); free(D1); free(D2);
                    }
    tct_add(ok, bad);
    compared += ok + bad;
}

static void test_bad_descriptors(void) {
    float A[4] = { 1, 2, 3, 4 }, B[4] = { 1, 1, 1, 1 }, D[4] = { 7, 7, 7, 7 };
    tc_gemm_desc d;
    memset(&d, 0, sizeof d);
    d.arch = TC_ARCH_A100; d.in = TC_FP16; d.out = TC_FP32; d.M = 2; d.N = 2; d.K = 2;
    d.A = A; d.B = B; d.D = D;
    d.threads = -1;                  CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARG);
    d.threads = INT_MAX;             CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARG);
    d.threads = INT_MIN;             CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARG);
    d.threads = TC_GEMM_MAX_THREADS + 1; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARG);
    d.threads = 0; d.force_scalar = 2;   CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARG);
    d.force_scalar = -1;             CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARG);
    d.force_scalar = 0; d.M = 0; d.threads = -1;   CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_ARG);   /* checked before an empty GEMM returns */
    d.M = 2;
    CHECK(fbits(D[0]) == fbits(7.0f) && fbits(D[3]) == fbits(7.0f));   /* untouched */
    d.force_scalar = 0; d.threads = TC_GEMM_MAX_THREADS;
    CHECK_STATUS(tc_gemm_ex(&d), TC_OK);                              /* more threads than rows: fine */
    CHECK(D[0] == 3.0f && D[3] == 7.0f);
    {   /* K = 0 on the SIMD path's width: D = C; A is never read, so NULL with any lda is fine */
        float C0[3 * 16], D0[3 * 16];
        int i, t;
        for (i = 0; i < 3 * 16; i++) C0[i] = (float)i - 7.5f;
        for (t = 0; t <= 2; t += 2) {
            memset(&d, 0, sizeof d);
            d.arch = TC_ARCH_A100; d.in = TC_FP16; d.out = TC_FP32; d.M = 3; d.N = 16; d.K = 0;
            d.A = NULL; d.lda = -1; d.B = NULL; d.C = C0; d.D = D0; d.threads = t;
            memset(D0, 0xA5, sizeof D0);
            CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
            CHECK(memcmp(C0, D0, sizeof D0) == 0);
        }
    }
    CHECK(tc_gemm_fast_path() != NULL && strlen(tc_gemm_fast_path()) > 0);
#if defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && !defined(TC_NO_SIMD)
    CHECK(strncmp(tc_gemm_fast_path(), "AVX-512", 7) == 0);
#elif defined(__AVX2__) && !defined(TC_NO_SIMD)
    CHECK(strncmp(tc_gemm_fast_path(), "AVX2", 4) == 0);
#elif defined(__SSE2__) && !defined(TC_NO_SIMD)
    CHECK(strncmp(tc_gemm_fast_path(), "SSE2", 4) == 0);
#endif
}

/* The operands' representability check rounds in chunks of 256 through
   section 1's vector kernels: a value that is not representable is refused
   at every position around the chunk edges, for A, B and C, and NaN of any
   payload, both zeros and (but for e4m3) both infinities are accepted. */
static void test_representable_chunks(void) {
    enum { M = 2, N = 3, K = 600 };
    static const int at[] = { 0, 1, 255, 256, 257, 511, 512, 599 };
    static const uint32_t ok_bits[] = { 0x7fc00001u, 0xffc00000u, 0x7f800001u, 0x80000000u, 0x7f800000u, 0xff800000u };
    static const struct { tc_dtype in; float bad; } types[] = {
        { TC_FP16, 1.0f + 0x1p-11f }, { TC_BF16, 1.0f + 0x1p-8f }, { TC_E4M3, 1.0f + 0x1p-4f }, { TC_E5M2, 1.0f + 0x1p-3f } };
    float A[M * K], B[K * N], C[M * N], D[M * N];
    tc_gemm_desc d;
    size_t t, p;
    int i;
    for (t = 0; t < sizeof types / sizeof types[0]; t++) {
        for (i = 0; i < M * K; i++) A[i] = 1.0f;
        for (i = 0; i < K * N; i++) B[i] = 0.5f;
        for (i = 0; i < M * N; i++) C[i] = 0.0f;
        memset(&d, 0, sizeof d);
        d.arch = types[t].in == TC_E4M3 || types[t].in == TC_E5M2 ? TC_ARCH_H100 : TC_ARCH_A100;
        d.in = types[t].in; d.out = TC_FP32; d.M = M; d.N = N; d.K = K;
        d.A = A; d.B = B; d.C = C; d.D = D;
        CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
        for (p = 0; p < sizeof at / sizeof at[0]; p++) {
            float *a = &A[K + at[p]], *b = &B[(size_t)at[p] * N + N - 1], keep;
            keep = *a; *a = types[t].bad; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_NOT_REPRESENTABLE); *a = keep;
            keep = *b; *b = types[t].bad; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_NOT_REPRESENTABLE); *b = keep;
        }
        for (p = 0; p < sizeof ok_bits / sizeof ok_bits[0]; p++) {
            uint32_t u = ok_bits[p];
            memcpy(&A[K + 256], &u, sizeof u); memcpy(&B[511 * N], &u, sizeof u); memcpy(&C[N + 2], &u, sizeof u);
            /* e4m3 has no infinity */
            CHECK_STATUS(tc_gemm_ex(&d), types[t].in == TC_E4M3 && (u & 0x7fffffffu) == 0x7f800000u ? TC_ERR_NOT_REPRESENTABLE : TC_OK);
        }
        A[K + 256] = 1.0f; B[511 * N] = 0.5f; C[N + 2] = 0.0f;
    }
    d.in = TC_FP16; d.arch = TC_ARCH_A100; d.out = TC_FP16;
    C[N + 2] = 1.0f + 0x1p-11f; CHECK_STATUS(tc_gemm_ex(&d), TC_ERR_NOT_REPRESENTABLE);
    C[N + 2] = 0.0f; CHECK_STATUS(tc_gemm_ex(&d), TC_OK);
}

int main(void) {
    printf("%s: kernel %s\n", test_name(), tc_gemm_fast_path());
    test_every_combination();
    test_edges();
    test_mixed_edge();
    test_threads();
    test_representable_chunks();
    test_sparse();
    test_bad_descriptors();
    printf("%s: %ld outputs compared with the scalar model\n", test_name(), compared);
    return tct_finish(test_name());
}
