/* libFuzzer harness: 2:4 (tf32 1:2) structured sparsity.
   Byte 0 picks the entry point (mod 4):
     0  tc_sparse_prune -> tc_sparse_check -> tc_sparse_compress ->
        tc_sparse_decompress: dtype, M, K, ldw, values
     1  tc_sparse_gemm_ex against tc_gemm_ex on the decompressed matrix
     2  tc_sparse_pack_a -> tc_sparse_unpack_a at fuzzed (row0, col0)
     3  tc_sparse_pack_b at fuzzed (k0, n0)
   Offsets row0/col0/k0/n0 are one tag byte: below 0xF0 a small legal
   multiple, else the next 4 bytes as a raw int32 (INT_MAX - 15 and the like).
   Invariants: decompress(compress(prune(W))) == prune(W) (a zero may change
   sign, as documented), compress with TC_SPARSE_PRUNE == compress of the
   pruned matrix; tc_sparse_gemm equals tc_gemm on the decompressed A row by
   row, with the B values at positions the row's metadata drops set to 0 (the
   header's two documented differences both come from those values); pack_a
   then unpack_a gives back the dense tile; pack_b puts B's values where
   tc_mma_frag_coord says; a call that fails leaves its outputs untouched. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "fuzz.h"

static int same(float a, float b) { return fz_fbits(a) == fz_fbits(b) || (a != a && b != b) || (a == 0 && b == 0); }
static float value(fz *f, int t, int small) {
    float v = fz_f32(f);
    if (small) v = (float)((int)(fz_fbits(v) % 33) - 16) / (float)(1 << (fz_fbits(v) >> 28));
    return dtype_ok(t) ? tc_round((tc_dtype)t, v, TC_RN) : v;
}
/* A tile offset: a small multiple of `step`, or a raw int32. */
static int offset(fz *f, int step) {
    uint8_t t = fz_u8(f);
    return t < 0xF0 ? step * (t % 3) : fz_i32(f);
}
static float *floats(size_t n) { return (float *)malloc((n ? n : 1) * sizeof(float)); }

static void roundtrip(fz *f) {
    int t = fz_dtype(f), group = 4, keep = 2, M = fz_small(f, 7), K, ldw, words = 0, i, j;
    uint8_t flags = fz_u8(f);
    float *W, *P, *V, *V2, *D;
    uint32_t *meta, *meta2;
    unsigned char *mask;
    tc_status st;
    if (tc_sparse_pattern((tc_dtype)t, &group, &keep) != TC_OK) { group = 4; keep = 2; }
    K = group * fz_small(f, 5) + ((flags & 1) ? fz_small(f, 3) : 0);
    ldw = K + fz_small(f, 3);
    W = floats((size_t)M * ldw); P = floats((size_t)M * K); D = floats((size_t)M * K);
    mask = (unsigned char *)malloc((size_t)M * K + 1);
    for (i = 0; i < M * ldw; i++) W[i] = value(f, t, flags & 2);
    for (i = 0; i < M * K; i++) { P[i] = -7.0f; mask[i] = 9; }
    st = tc_sparse_prune((tc_dtype)t, M, K, W, ldw, P, K, mask);
    if (st != TC_OK) {
        for (i = 0; i < M * K; i++) FUZZ_CHECK(P[i] == -7.0f && mask[i] == 9, "tc_sparse_prune failed (%s) but wrote", tc_status_string(st));
        goto done0;
    }
    for (i = 0; i < M; i++)
        for (j = 0; j < K; j++) {
            FUZZ_CHECK(mask[i * K + j] <= 1, "mask value %d", mask[i * K + j]);
            if (mask[i * K + j]) FUZZ_CHECK(fz_fbits(P[i * K + j]) == fz_fbits(W[i * ldw + j]), "kept value changed at (%d,%d)", i, j);
            else FUZZ_CHECK(P[i * K + j] == 0, "dropped value %g at (%d,%d)", P[i * K + j], i, j);
        }
    FUZZ_CHECK(tc_sparse_check((tc_dtype)t, M, K, P, K, NULL) == TC_OK, "pruned matrix fails tc_sparse_check");
    st = tc_sparse_meta_words((tc_dtype)t, K, &words);
    FUZZ_CHECK(st == TC_OK, "tc_sparse_meta_words: %s", tc_status_string(st));
    V = floats((size_t)M * (K / 2)); V2 = floats((size_t)M * (K / 2));
    meta = (uint32_t *)malloc(((size_t)M * words + 1) * 4); meta2 = (uint32_t *)malloc(((size_t)M * words + 1) * 4);
    st = tc_sparse_compress((tc_dtype)t, M, K, P, K, V, K / 2, meta, words, 0, NULL);
    FUZZ_CHECK(st == TC_OK, "compressing the pruned matrix: %s", tc_status_string(st));
    st = tc_sparse_compress((tc_dtype)t, M, K, W, ldw, V2, K / 2, meta2, words, TC_SPARSE_PRUNE, NULL);
    FUZZ_CHECK(st == TC_OK, "compress with TC_SPARSE_PRUNE: %s", tc_status_string(st));
    FUZZ_CHECK(M * words == 0 || memcmp(meta, meta2, (size_t)M * words * 4) == 0, "compress(W, PRUNE) metadata != compress(prune(W))");
    for (i = 0; i < M * (K / 2); i++) FUZZ_CHECK(fz_fbits(V[i]) == fz_fbits(V2[i]), "compress(W, PRUNE) value %d differs", i);
    st = tc_sparse_decompress((tc_dtype)t, M, K, V, K / 2, meta, words, D, K, NULL);
    FUZZ_CHECK(st == TC_OK, "decompress: %s", tc_status_string(st));
    for (i = 0; i < M * K; i++) FUZZ_CHECK(same(D[i], P[i]), "decompress(compress(P))[%d] = %08x, P = %08x", i, fz_fbits(D[i]), fz_fbits(P[i]));
    free(V); free(V2); free(meta); free(meta2);
done0:
    free(W); free(P); free(D); free(mask);
}

static void sparse_vs_dense(fz *f) {
    static const int types[] = { TC_FP16, TC_BF16, TC_TF32, TC_E4M3, TC_E5M2 };
    uint8_t flags = fz_u8(f);
    int in = types[fz_small(f, 5)], out = (flags & 1) ? TC_FP16 : TC_FP32;
    int arch = (flags & 2) ? TC_ARCH_H100 : TC_ARCH_A100;
    int M = 1 + fz_small(f, 4), N = 1 + fz_small(f, 4), K = 4 * fz_small(f, 9), words = 0, i, j, k;
    float *A = floats((size_t)M * K), *P = floats((size_t)M * K), *B = floats((size_t)K * N), *Bi = floats((size_t)K * N);
    float *C = floats((size_t)M * N), *D = floats((size_t)M * N), *D0 = floats((size_t)M * N), *row = floats((size_t)N);
    float *V = floats((size_t)M * K / 2), *ones = floats((size_t)M * K / 2), *mask = floats((size_t)M * K);
    uint32_t *meta;
    tc_sparse_gemm_desc sd;
    tc_gemm_desc dd;
    tc_status st;
    if (flags & 0x80) arch = TC_ARCH_V100;
    for (i = 0; i < M * K; i++) A[i] = value(f, in, flags & 4);
    for (i = 0; i < K * N; i++) B[i] = value(f, in, flags & 8);
    for (i = 0; i < M * N; i++) { C[i] = value(f, out, 1); D[i] = D0[i] = fz_f32(f); }
    tc_sparse_meta_words((tc_dtype)in, K, &words);
    meta = (uint32_t *)malloc(((size_t)M * words + 1) * 4);
    st = tc_sparse_compress((tc_dtype)in, M, K, A, K, V, K / 2, meta, words, TC_SPARSE_PRUNE, NULL);
    FUZZ_CHECK(st == TC_OK, "compress: %s", tc_status_string(st));
    tc_sparse_decompress((tc_dtype)in, M, K, V, K / 2, meta, words, P, K, NULL);
    for (i = 0; i < M * K / 2; i++) ones[i] = 1.0f;
    tc_sparse_decompress((tc_dtype)in, M, K, ones, K / 2, meta, words, mask, K, NULL);   /* 1 where the metadata keeps */
    memset(&sd, 0, sizeof sd);
    sd.gemm.arch = (tc_arch)arch; sd.gemm.in = (tc_dtype)in; sd.gemm.out = (tc_dtype)out;
    sd.gemm.M = M; sd.gemm.N = N; sd.gemm.K = K;
    sd.gemm.A = V; sd.gemm.lda = K / 2; sd.gemm.B = B; sd.gemm.ldb = N;
    sd.gemm.C = (flags & 16) ? NULL : C; sd.gemm.ldc = N; sd.gemm.D = D; sd.gemm.ldd = N;
    sd.gemm.options.zero_rule = (tc_mma_zero_rule)((flags >> 5) & 1);
    sd.meta = meta; sd.ldm = words;
    st = tc_sparse_gemm_ex(&sd);
    if (st != TC_OK) {
        FUZZ_CHECK(memcmp(D, D0, (size_t)M * N * sizeof *D) == 0, "tc_sparse_gemm_ex failed (%s) but wrote D", tc_status_string(st));
        goto done1;
    }
    for (i = 0; i < M; i++) {
        for (k = 0; k < K; k++)
            for (j = 0; j < N; j++) Bi[k * N + j] = mask[i * K + k] != 0 ? B[k * N + j] : 0.0f;
        dd = sd.gemm;
        dd.M = 1; dd.A = P + (size_t)i * K; dd.lda = K; dd.B = Bi; dd.C = (flags & 16) ? NULL : C + (size_t)i * N; dd.D = row;
        st = tc_gemm_ex(&dd);
        FUZZ_CHECK(st == TC_OK, "dense gemm on the decompressed row: %s", tc_status_string(st));
        for (j = 0; j < N; j++)
            FUZZ_CHECK(fz_fbits(row[j]) == fz_fbits(D[i * N + j]) || (row[j] != row[j] && D[i * N + j] != D[i * N + j]),
                       "arch %d in %d out %d K %d: sparse D[%d][%d] = %08x, dense %08x", arch, in, out, K, i, j,
                       fz_fbits(D[i * N + j]), fz_fbits(row[j]));
    }
done1:
    free(A); free(P); free(B); free(Bi); free(C); free(D); free(D0); free(row); free(V); free(ones); free(mask); free(meta);
}

static int fz_sparse_instr(fz *f) {
    uint8_t b = fz_u8(f);
    if (b >= 0xF0) return (int)(int8_t)b;   /* -16..-1 */
    if (b >= 0xE0) return b & 15;          /* dense kinds and beyond */
    return TC_MMA_SP_M16N8K16_F16 + b % 6;
}

static void pack_a(fz *f) {
    int s = fz_sparse_instr(f), selector = fz_int(f), mt = 1 + fz_small(f, 2), kt = 1 + fz_small(f, 2);
    tc_mma_instr_info info;
    int M, K, words = 0, row0, col0, i, r, c;
    float *A, *V, *dense, tile[16 * 32];
    uint32_t *meta, a[128], a0[128], mr[32], mr0[32];
    tc_sparse_violation bad;
    tc_status st;
    if (tc_mma_instr_get((tc_mma_instr)s, &info) != TC_OK || !info.sparse_group) {
        info.m = 16; info.k = 16; info.in = TC_FP16;
    }
    M = info.m * mt; K = info.k * kt;
    row0 = offset(f, info.m); col0 = offset(f, info.k);
    A = floats((size_t)M * K); dense = floats((size_t)M * K); V = floats((size_t)M * K / 2);
    for (i = 0; i < M * K; i++) A[i] = value(f, info.in, 1);
    tc_sparse_meta_words(info.in, K, &words);
    meta = (uint32_t *)malloc(((size_t)M * words + 1) * 4);
    st = tc_sparse_compress(info.in, M, K, A, K, V, K / 2, meta, words, TC_SPARSE_PRUNE, NULL);
    FUZZ_CHECK(st == TC_OK, "compress: %s", tc_status_string(st));
    tc_sparse_decompress(info.in, M, K, V, K / 2, meta, words, dense, K, NULL);
    for (i = 0; i < 128; i++) a[i] = a0[i] = fz_u32(f);
    for (i = 0; i < 32; i++) mr[i] = mr0[i] = fz_u32(f);
    st = tc_sparse_pack_a((tc_mma_instr)s, selector, M, K, V, K / 2, meta, words, row0, col0, a, mr);
    if (st != TC_OK) {
        FUZZ_CHECK(!memcmp(a, a0, sizeof a) && !memcmp(mr, mr0, sizeof mr), "tc_sparse_pack_a failed (%s) but wrote", tc_status_string(st));
    } else {
        st = tc_sparse_unpack_a((tc_mma_instr)s, selector, a, mr, tile, &bad);
        FUZZ_CHECK(st == TC_OK, "unpack of a packed tile: %s", tc_status_string(st));
        for (r = 0; r < 16; r++)
            for (c = 0; c < info.k; c++)
                FUZZ_CHECK(same(tile[r * info.k + c], dense[(size_t)(row0 + r) * K + col0 + c]),
                           "instr %d sel %d tile (%d,%d) at (%d,%d): %g != %g", s, selector, r, c, row0, col0,
                           tile[r * info.k + c], dense[(size_t)(row0 + r) * K + col0 + c]);
    }
    free(A); free(dense); free(V); free(meta);
}

static void pack_b(fz *f) {
    int s = fz_sparse_instr(f), kt = 1 + fz_small(f, 2), nt = 1 + fz_small(f, 2);
    tc_mma_instr_info info;
    int K, N, ldb, k0, n0, i, lane, e;
    float *B;
    uint32_t b[128], b0[128];
    tc_status st;
    if (tc_mma_instr_get((tc_mma_instr)s, &info) != TC_OK || !info.sparse_group) {
        info.n = 8; info.k = 16; info.in = TC_FP16;
    }
    K = info.k * kt; N = info.n * nt; ldb = N + fz_small(f, 3);
    k0 = offset(f, info.k); n0 = offset(f, info.n);
    B = floats((size_t)K * ldb);
    for (i = 0; i < K * ldb; i++) B[i] = value(f, info.in, 1);
    for (i = 0; i < 128; i++) b[i] = b0[i] = fz_u32(f);
    st = tc_sparse_pack_b((tc_mma_instr)s, K, N, B, ldb, k0, n0, b);
    if (st != TC_OK) {
        FUZZ_CHECK(!memcmp(b, b0, sizeof b), "tc_sparse_pack_b failed (%s) but wrote", tc_status_string(st));
    } else {
        for (lane = 0; lane < 32; lane++)
            for (e = 0; e < info.b_elems; e++) {
                int k = -1, n = -1;
                float v;
                FUZZ_CHECK(tc_mma_frag_coord((tc_mma_instr)s, TC_FRAG_B, lane, e, &k, &n) == TC_OK, "frag_coord");
                if (info.in == TC_TF32) { uint32_t u = b[lane * 4 + e]; memcpy(&v, &u, 4); }
                else v = tc_decode(info.in, (b[lane * 4 + (e >> 1)] >> (16 * (e & 1))) & 0xFFFFu);
                FUZZ_CHECK(same(v, B[(size_t)(k0 + k) * ldb + n0 + n]), "pack_b lane %d e %d", lane, e);
            }
    }
    free(B);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    switch (fz_u8(&f) % 4) {
    case 0: roundtrip(&f); break;
    case 1: sparse_vs_dense(&f); break;
    case 2: pack_a(&f); break;
    case 3: pack_b(&f); break;
    }
    return 0;
}
