/* sparsity.cu - tensorcore.h section 4 on the GPU: pins the mma.sp
   (::ordered_metadata) register layouts of every shape, then times a sparse
   GEMM against the dense GEMM of the same design.

   Compile (from the repository root; make cuda builds it for sm_80 and sm_90):
     nvcc -std=c++17 -O3 -arch=sm_80 -I. -Isupport cuda/sparsity.cu -o sparsity
   Run:  ./sparsity [PART]     (make gpu-check runs build/cuda/sparsity)
     PART  layout, probes, dense or sparse: that part alone (dense and
           sparse: the GEMM checks of 3, then only that kernel timed, e.g.
           ncu ./sparsity sparse); default: everything

   What it shows:
   1. Layout cases. For every shape (m16n8k16 and m16n8k32 .f16/.bf16,
      m16n8k8 and m16n8k16 .tf32), every sparsity selector, every group
      position of the 16 x k tile and every legal ordered index pair (6 for
      2:4, 2 for tf32's 1:2), one warp runs mma.sp on registers packed by the
      header (tc_sparse_pack_a / tc_sparse_pack_b; metadata only in the lanes
      the selector names) and D is compared with the exact product of the
      dense tile. Small integers keep every sum exact, so this tests layout
      only, not accumulation order.
   2. Probes, which find the layout instead of assuming it: one element of
      one lane set to 1 shows where that register lands (row, dense k); one
      metadata nibble of one lane changed from (0,1) to (2,3) shows which
      (row, group) it steers, or that the lane is not read. Each is compared
      with tc_mma_frag_coord / tc_sparse_meta_coord and every difference is
      printed: this settles what the header marks UNCONFIRMED (m16n8k16 f16
      and both tf32 shapes).
   3. GEMM, f16 in, f32 out: a sparse kernel (one mma.sp m16n8k32 per k-step
      of 32) and a dense kernel of the same design (two mma.sync m16n8k16).
      Integer-valued inputs (every sum exact) must match a CPU reference bit
      for bit; random inputs compare sparse against dense on the decompressed
      A bit for bit, the assumption the header states for the sparse k-step
      (accumulated like the dense instruction of the same logical K). Then,
      if everything matched, both are timed at 4096^3 with benchmark_ms
      (common.cuh: warm-up, L2 flushed, median of 10) and the speedup printed. The
      kernels read fragments straight from global memory (no shared-memory
      staging), so they are far from peak; the ratio is what they show.
      The random-input results are also compared bit for bit with the
      header: the dense kernel with tc_gemm on the decompressed A, the
      sparse kernel with tc_sparse_gemm on values + metadata, using the
      A100 model on sm_80/sm_86 and the H100 model on sm_90.
   Exit: 0 all equal, 1 any mismatch, 2 no suitable GPU (sm_80 or newer),
   3 usage error. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common.cuh"

/* ------------------------------------------------------- mma.sp, one warp */

/* One mma.sp::ordered_metadata (common.cuh) with C = 0; S is a sparse
   instruction of the header's table (TC_MMA_SP_*), SEL the sparsity
   selector. */
template <int S, int SEL>
__device__ void mma_sp(float d[4], const uint32_t a[4], const uint32_t b[4], uint32_t e) {
    for (int i = 0; i < 4; i++) d[i] = 0.0f;
    if constexpr (S == TC_MMA_SP_M16N8K16_F16) mma_sp_m16n8k16<__half, SEL>(d, a, b, e);
    else if constexpr (S == TC_MMA_SP_M16N8K16_BF16) mma_sp_m16n8k16<__nv_bfloat16, SEL>(d, a, b, e);
    else if constexpr (S == TC_MMA_SP_M16N8K32_F16) mma_sp_m16n8k32<__half, SEL>(d, a, b, e);
    else if constexpr (S == TC_MMA_SP_M16N8K32_BF16) mma_sp_m16n8k32<__nv_bfloat16, SEL>(d, a, b, e);
    else if constexpr (S == TC_MMA_SP_M16N8K8_TF32) mma_sp_m16n8k8_tf32<SEL>(d, a, b, e);
    else mma_sp_m16n8k16_tf32<SEL>(d, a, b, e);
}

/* One warp per case: registers in, D out (32 lanes x 4 each). */
template <int S, int SEL>
__global__ void mma_sp_cases(const uint32_t *a, const uint32_t *meta, const uint32_t *b, float *d) {
    size_t c = blockIdx.x, lane = threadIdx.x;
    uint32_t ar[4], br[4];
    float dr[4];
    for (int r = 0; r < 4; r++) { ar[r] = a[(c * 32 + lane) * 4 + r]; br[r] = b[(c * 32 + lane) * 4 + r]; }
    mma_sp<S, SEL>(dr, ar, br, meta[c * 32 + lane]);
    for (int r = 0; r < 4; r++) d[(c * 32 + lane) * 4 + r] = dr[r];
}

/* A batch of cases, as the warps' registers. */
struct Batch {
    std::vector<uint32_t> a, meta, b;
    std::vector<float> d;
    int n = 0;
    void add(const uint32_t *ar, const uint32_t *mr, const uint32_t *bri) {
        a.insert(a.end(), ar, ar + 128); meta.insert(meta.end(), mr, mr + 32); b.insert(b.end(), bri, bri + 128); n++;
    }
};

template <int S, int SEL>
static void run_batch(Batch &bt) {
    uint32_t *da, *dm, *db;
    float *dd;
    CUDA_CHECK(cudaMalloc(&da, bt.a.size() * 4)); CUDA_CHECK(cudaMalloc(&dm, bt.meta.size() * 4));
    CUDA_CHECK(cudaMalloc(&db, bt.b.size() * 4)); CUDA_CHECK(cudaMalloc(&dd, bt.a.size() * 4));
    CUDA_CHECK(cudaMemcpy(da, bt.a.data(), bt.a.size() * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dm, bt.meta.data(), bt.meta.size() * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, bt.b.data(), bt.b.size() * 4, cudaMemcpyHostToDevice));
    mma_sp_cases<S, SEL><<<bt.n, 32>>>(da, dm, db, dd);
    CUDA_CHECK(cudaGetLastError());
    bt.d.resize(bt.a.size());
    CUDA_CHECK(cudaMemcpy(bt.d.data(), dd, bt.d.size() * 4, cudaMemcpyDeviceToHost));
    cudaFree(da); cudaFree(dm); cudaFree(db); cudaFree(dd);
}

/* D of one case as a 16 x 8 row-major tile (the mma C/D layout: lane
   (g, t) holds (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1)). */
static void case_tile(const Batch &bt, int c, float tile[16 * 8]) {
    for (int lane = 0; lane < 32; lane++)
        for (int e = 0; e < 4; e++)
            tile[((lane >> 2) + 8 * (e >> 1)) * 8 + 2 * (lane & 3) + (e & 1)] = bt.d[((size_t)c * 32 + lane) * 4 + e];
}

/* ---- 1. layout cases: every selector x group position x legal pair ---- */
template <int S, int SEL>
static long layout_cases() {
    tc_mma_instr_info in;
    tc_mma_instr_get((tc_mma_instr)S, &in);
    const tc_dtype t = in.in;
    int groups = in.k / in.sparse_group, npairs = in.sparse_group == 4 ? 6 : 2;
    static const int pairs4[6][2] = { {0,1}, {0,2}, {0,3}, {1,2}, {1,3}, {2,3} };
    std::vector<float> dense, ref;
    Batch bt;
    for (int r = 0; r < 16; r++)
        for (int g = 0; g < groups; g++)
            for (int p = 0; p < npairs; p++) {
                float A[16 * 32], B[32 * 8], V[16 * 16];
                uint32_t meta[16], ar[128], mr[32], br[128];
                for (int i = 0; i < 16; i++)            /* every group a random legal pair of non-zeros */
                    for (int gg = 0; gg < groups; gg++) {
                        int q = (i == r && gg == g) ? p : (int)(rand32() % (uint32_t)npairs);
                        for (int x = 0; x < in.sparse_group; x++) A[i * in.k + gg * in.sparse_group + x] = 0.0f;
                        for (int x = 0; x < in.sparse_keep; x++) {
                            int pos = in.sparse_group == 4 ? pairs4[q][x] : q;
                            A[i * in.k + gg * in.sparse_group + pos] = (rand32() & 1) ? rand_int(1, 4) : rand_int(-4, -1);
                        }
                    }
                for (int i = 0; i < in.k * 8; i++) B[i] = rand_int(-3, 3);
                if (tc_sparse_compress(t, 16, in.k, A, in.k, V, in.k / 2, meta, 1, 0, NULL) != TC_OK ||
                    tc_sparse_pack_a((tc_mma_instr)S, SEL, 16, in.k, V, in.k / 2, meta, 1, 0, 0, ar, mr) != TC_OK ||
                    tc_sparse_pack_b((tc_mma_instr)S, in.k, 8, B, 8, 0, 0, br) != TC_OK) { printf("packing failed\n"); exit(EXIT_MISMATCH); }
                bt.add(ar, mr, br);
                for (int i = 0; i < 16; i++)
                    for (int n = 0; n < 8; n++) {
                        double s = 0;
                        for (int k = 0; k < in.k; k++) s += (double)A[i * in.k + k] * B[k * 8 + n];
                        ref.push_back((float)s);
                    }
            }
    run_batch<S, SEL>(bt);
    /* D of case c is rows 16c..16c+15; case c tests (row c / (groups * npairs),
       group (c / npairs) % groups, pair c % npairs). Compared by value: small
       integers, so only where each value lands can differ. */
    std::vector<float> got((size_t)bt.n * 128);
    for (int c = 0; c < bt.n; c++) case_tile(bt, c, &got[(size_t)c * 128]);
    char what[64];
    snprintf(what, sizeof what, "%s sel %d D", in.name, SEL);
    ValidateOptions opt;
    opt.compare = CMP_VALUE;
    opt.cols = 8;
    opt.show = 3;
    opt.summary = false;
    long bad = (long)validate(what, got, ref, opt);
    printf("  %-17s selector %d: %5d cases, %ld mismatching D elements\n", in.name, SEL, bt.n, bad);
    return bad;
}

/* ---- 2. probes: where does each register element and metadata nibble go ---- */
template <int S, int SEL>
static long probes() {
    tc_mma_instr_info in;
    tc_mma_instr_get((tc_mma_instr)S, &in);
    const tc_dtype t = in.in;
    uint32_t one = t == TC_TF32 ? 0x3F800000u : 0x3C00u;
    long diffs = 0;
    /* values: all metadata (0,1) in every lane, B[k][0] = k + 1 */
    {
        Batch bt;
        float B[32 * 8] = { 0 };
        uint32_t br[128], mr[32];
        for (int k = 0; k < in.k; k++) B[k * 8] = (float)(k + 1);
        tc_sparse_pack_b((tc_mma_instr)S, in.k, 8, B, 8, 0, 0, br);
        for (int l = 0; l < 32; l++) mr[l] = 0x44444444u;
        for (int lane = 0; lane < 32; lane++)
            for (int e = 0; e < in.a_elems; e++) {
                uint32_t ar[128] = { 0 };
                ar[lane * 4 + (t == TC_TF32 ? e : e >> 1)] = t == TC_TF32 ? one : one << (16 * (e & 1));
                bt.add(ar, mr, br);
            }
        run_batch<S, SEL>(bt);
        for (int c = 0; c < bt.n; c++) {
            int lane = c / in.a_elems, e = c % in.a_elems, row = -1, k = -1, hr = -1, hc = -1;
            float tile[16 * 8];
            case_tile(bt, c, tile);
            for (int i = 0; i < 16; i++) if (tile[i * 8] != 0) { row = i; k = (int)tile[i * 8] - 1; }
            tc_mma_frag_coord((tc_mma_instr)S, TC_FRAG_A, lane, e, &hr, &hc);
            /* (0,1) everywhere: compressed column c is dense column (c / keep) * group + c % keep */
            int hk = (hc / in.sparse_keep) * in.sparse_group + hc % in.sparse_keep;
            if (row != hr || k != hk) {
                if (diffs < 40) printf("    A lane %2d element %d: GPU row %d, dense k %d; header row %d, dense k %d\n", lane, e, row, k, hr, hk);
                diffs++;
            }
        }
    }
    /* metadata: A all ones, every nibble (0,1); one nibble of one lane -> (2,3).
       B[k][0] = 2^(k / group) on the upper half of each group, so D = keep * 2^g. */
    {
        Batch bt;
        float B[32 * 8] = { 0 };
        uint32_t ar[128] = { 0 }, br[128];
        for (int k = 0; k < in.k; k++) if (k % in.sparse_group >= in.sparse_group / 2) B[k * 8] = (float)(1 << (k / in.sparse_group));
        tc_sparse_pack_b((tc_mma_instr)S, in.k, 8, B, 8, 0, 0, br);
        for (int lane = 0; lane < 32; lane++)
            for (int e = 0; e < in.a_elems; e++) ar[lane * 4 + (t == TC_TF32 ? e : e >> 1)] |= t == TC_TF32 ? one : one << (16 * (e & 1));
        for (int lane = 0; lane < 32; lane++)
            for (int j = 0; j < 8; j++) {
                uint32_t mr[32];
                for (int l = 0; l < 32; l++) mr[l] = 0x44444444u;
                mr[lane] = (mr[lane] & ~(0xFu << (4 * j))) | (0xEu << (4 * j));
                bt.add(ar, mr, br);
            }
        run_batch<S, SEL>(bt);
        for (int c = 0; c < bt.n; c++) {
            int lane = c / 8, j = c % 8, row = -1, g = -1, hr = -1, hg = -1;
            float tile[16 * 8];
            case_tile(bt, c, tile);
            for (int i = 0; i < 16; i++) if (tile[i * 8] != 0) { row = i; g = (int)std::log2(tile[i * 8] / in.sparse_keep); }
            int used;
            tc_sparse_meta_coord((tc_mma_instr)S, SEL, lane, j, &used, &hr, &hg);   /* unused: -1, -1 */
            if (row != hr || g != hg) {
                if (diffs < 40) printf("    metadata lane %2d nibble %d: GPU row %d, group %d; header row %d, group %d (-1: not read)\n", lane, j, row, g, hr, hg);
                diffs++;
            }
        }
    }
    printf("  %-14s selector %d probes: %ld differences from the header's layout\n", in.name, SEL, diffs);
    return diffs;
}

/* ------------------------------------------------------------------- GEMM */
/* C (M x N, f32) = A (M x K, f16, row-major) * B, with B given transposed
   (N x K, row-major = "col" for mma). Each warp computes a 32 x 32 tile:
   2 x 4 fragments of 16 x 8; 4 warps per block. The sparse kernel reads A
   as values (M x K/2) + metadata (M x K/32 words) and issues one mma.sp
   m16n8k32 per k-step where the dense kernel issues two m16n8k16. */
__device__ inline uint32_t ld32(const uint16_t *p) { return *reinterpret_cast<const uint32_t *>(p); }

__global__ void gemm_dense(int M, int N, int K, const uint16_t *A, const uint16_t *Bt, float *C) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    int tiles_n = N / 32, m0 = (warp / tiles_n) * 32, n0 = (warp % tiles_n) * 32;
    if (m0 >= M) return;
    float acc[2][4][4] = {};
    for (int k0 = 0; k0 < K; k0 += 16) {
        uint32_t a[2][4], b[4][2];
        for (int i = 0; i < 2; i++) {
            const uint16_t *p = A + (size_t)(m0 + 16 * i + g) * K + k0 + 2 * t;
            a[i][0] = ld32(p); a[i][1] = ld32(p + 8 * (size_t)K); a[i][2] = ld32(p + 8); a[i][3] = ld32(p + 8 * (size_t)K + 8);
        }
        for (int j = 0; j < 4; j++) {
            const uint16_t *p = Bt + (size_t)(n0 + 8 * j + g) * K + k0 + 2 * t;
            b[j][0] = ld32(p); b[j][1] = ld32(p + 8);
        }
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 4; j++)
                mma_m16n8k16<__half>(acc[i][j], a[i], b[j]);
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++)
            for (int e = 0; e < 4; e++)
                C[(size_t)(m0 + 16 * i + g + 8 * (e >> 1)) * N + n0 + 8 * j + 2 * t + (e & 1)] = acc[i][j][e];
}

__global__ void gemm_sparse(int M, int N, int K, const uint16_t *V, const uint32_t *meta, const uint16_t *Bt, float *C) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3;
    int tiles_n = N / 32, m0 = (warp / tiles_n) * 32, n0 = (warp % tiles_n) * 32, kh = K / 2, words = K / 32;
    if (m0 >= M) return;
    float acc[2][4][4] = {};
    for (int k0 = 0; k0 < K; k0 += 32) {
        uint32_t a[2][4], e[2], b[4][4];
        for (int i = 0; i < 2; i++) {
            /* tc_mma_frag_coord (A) for sp.m16n8k32: (g, 2t..), (g+8, 2t..), (g, 8+2t..), (g+8, 8+2t..) of the compressed tile */
            const uint16_t *p = V + (size_t)(m0 + 16 * i + g) * kh + k0 / 2 + 2 * t;
            a[i][0] = ld32(p); a[i][1] = ld32(p + 8 * (size_t)kh); a[i][2] = ld32(p + 8); a[i][3] = ld32(p + 8 * (size_t)kh + 8);
            /* tc_sparse_meta_coord, selector 0: lane t (0 or 1) carries groups 4t..4t+3 of rows g (bits 15:0) and g+8 (31:16) */
            uint32_t lo = meta[(size_t)(m0 + 16 * i + g) * words + k0 / 32], hi = meta[(size_t)(m0 + 16 * i + g + 8) * words + k0 / 32];
            int sh = 16 * (t & 1);
            e[i] = ((lo >> sh) & 0xFFFFu) | (((hi >> sh) & 0xFFFFu) << 16);
        }
        for (int j = 0; j < 4; j++) {
            const uint16_t *p = Bt + (size_t)(n0 + 8 * j + g) * K + k0 + 2 * t;
            b[j][0] = ld32(p); b[j][1] = ld32(p + 8); b[j][2] = ld32(p + 16); b[j][3] = ld32(p + 24);
        }
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 4; j++)
                mma_sp_m16n8k32<__half, 0>(acc[i][j], a[i], b[j], e[i]);
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++)
            for (int q = 0; q < 4; q++)
                C[(size_t)(m0 + 16 * i + g + 8 * (q >> 1)) * N + n0 + 8 * j + 2 * t + (q & 1)] = acc[i][j][q];
}

struct Gemm {
    int M, N, K;
    uint16_t *A, *V, *Bt;
    uint32_t *meta;
    float *Cd, *Cs;
};

static void gemm_setup(Gemm &G, int M, int N, int K, bool integers, std::vector<float> &Ad, std::vector<float> &Bt,
                       std::vector<float> &V, std::vector<uint32_t> &meta) {
    G.M = M; G.N = N; G.K = K;
    Ad.resize((size_t)M * K); Bt.resize((size_t)N * K);
    for (auto &x : Ad) x = integers ? rand_int(-2, 2) : tc_round(TC_FP16, (float)((int)(rand32() % 20001) - 10000) / 4096.0f, TC_RN);
    for (auto &x : Bt) x = integers ? rand_int(-2, 2) : tc_round(TC_FP16, (float)((int)(rand32() % 20001) - 10000) / 4096.0f, TC_RN);
    tc_sparse_prune(TC_FP16, M, K, Ad.data(), K, Ad.data(), K, NULL);
    V.resize((size_t)M * K / 2);
    meta.resize((size_t)M * K / 32);
    if (tc_sparse_compress(TC_FP16, M, K, Ad.data(), K, V.data(), K / 2, meta.data(), K / 32, 0, NULL) != TC_OK) { printf("compress failed\n"); exit(EXIT_MISMATCH); }
    std::vector<uint16_t> hA(Ad.size()), hV(V.size()), hB(Bt.size());
    for (size_t i = 0; i < Ad.size(); i++) hA[i] = tc_fp16_from_f32(Ad[i], TC_RN);
    for (size_t i = 0; i < V.size(); i++) hV[i] = tc_fp16_from_f32(V[i], TC_RN);
    for (size_t i = 0; i < Bt.size(); i++) hB[i] = tc_fp16_from_f32(Bt[i], TC_RN);
    CUDA_CHECK(cudaMalloc(&G.A, hA.size() * 2)); CUDA_CHECK(cudaMalloc(&G.V, hV.size() * 2)); CUDA_CHECK(cudaMalloc(&G.Bt, hB.size() * 2));
    CUDA_CHECK(cudaMalloc(&G.meta, meta.size() * 4));
    CUDA_CHECK(cudaMalloc(&G.Cd, (size_t)M * N * 4)); CUDA_CHECK(cudaMalloc(&G.Cs, (size_t)M * N * 4));
    CUDA_CHECK(cudaMemcpy(G.A, hA.data(), hA.size() * 2, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(G.V, hV.data(), hV.size() * 2, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(G.Bt, hB.data(), hB.size() * 2, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(G.meta, meta.data(), meta.size() * 4, cudaMemcpyHostToDevice));
}

static void gemm_free(Gemm &G) { cudaFree(G.A); cudaFree(G.V); cudaFree(G.Bt); cudaFree(G.meta); cudaFree(G.Cd); cudaFree(G.Cs); }

static void gemm_run(const Gemm &G, bool sparse) {
    int warps = (G.M / 32) * (G.N / 32);
    if (sparse) gemm_sparse<<<(warps + 3) / 4, 128>>>(G.M, G.N, G.K, G.V, G.meta, G.Bt, G.Cs);
    else gemm_dense<<<(warps + 3) / 4, 128>>>(G.M, G.N, G.K, G.A, G.Bt, G.Cd);
    CUDA_CHECK(cudaGetLastError());
}

/* The header's models of both kernels on the same inputs: tc_gemm on the
   decompressed A for the dense kernel, tc_sparse_gemm on values + metadata
   for the sparse one; every bit must agree. */
static long header_checks(tc_arch arch, int M, int N, int K, const std::vector<float> &Ad, const std::vector<float> &Bt,
                          const std::vector<float> &V, const std::vector<uint32_t> &meta,
                          const std::vector<float> &Cd, const std::vector<float> &Cs) {
    std::vector<float> B((size_t)K * N), Hd((size_t)M * N), Hs((size_t)M * N);
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) B[(size_t)k * N + n] = Bt[(size_t)n * K + k];
    if (tc_gemm(arch, TC_FP16, TC_FP32, M, N, K, Ad.data(), K, B.data(), N, NULL, N, Hd.data(), N) != TC_OK ||
        tc_sparse_gemm(arch, TC_FP16, TC_FP32, M, N, K, V.data(), K / 2, meta.data(), K / 32, B.data(), N, NULL, N, Hs.data(), N) != TC_OK) {
        printf("    header GEMM failed\n");
        return 1;
    }
    printf("  random fp16 inputs vs the header (%s model):\n", arch == TC_ARCH_H100 ? "H100" : "A100");
    ValidateOptions opt;
    opt.cols = (size_t)N;
    opt.show = 3;
    return (long)(validate("dense kernel vs tc_gemm, C", Cd, Hd, opt) + validate("sparse kernel vs tc_sparse_gemm, C", Cs, Hs, opt));
}

static long gemm_checks(int sm) {
    long bad = 0;
    std::vector<float> Ad, Bt, V;
    std::vector<uint32_t> meta;
    rng_seed(0x5BA75Eull);
    for (int pass = 0; pass < 2; pass++) {
        Gemm G;
        int M = 256, N = 128, K = 1024;
        gemm_setup(G, M, N, K, pass == 0, Ad, Bt, V, meta);
        gemm_run(G, false); gemm_run(G, true);
        std::vector<float> Cd((size_t)M * N), Cs((size_t)M * N), exact((size_t)M * N);
        CUDA_CHECK(cudaMemcpy(Cd.data(), G.Cd, Cd.size() * 4, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(Cs.data(), G.Cs, Cs.size() * 4, cudaMemcpyDeviceToHost));
        ValidateOptions opt;
        opt.cols = (size_t)N;
        opt.show = 3;
        if (pass == 0) {
            /* integers: every partial sum is exact in fp32, so any order gives the same value */
            for (int m = 0; m < M; m++)
                for (int n = 0; n < N; n++) {
                    double s = 0;
                    for (int k = 0; k < K; k++) s += (double)Ad[(size_t)m * K + k] * Bt[(size_t)n * K + k];
                    exact[(size_t)m * N + n] = (float)s;
                }
            printf("  integer inputs %dx%dx%d against the exact CPU product:\n", M, N, K);
            ValidateOptions by_value = opt;
            by_value.compare = CMP_VALUE;
            bad += (long)(validate("dense C", Cd, exact, by_value) + validate("sparse C", Cs, exact, by_value));
        }
        printf("  %s inputs, sparse vs dense on the decompressed A, bit for bit:\n", pass == 0 ? "integer" : "random fp16");
        long bsd = (long)validate("sparse C vs dense C", Cs, Cd, opt);
        if (pass == 1 && bsd) printf("    <- the header's assumption for the sparse k-step is wrong\n");
        bad += bsd;
        /* sm_80/86 follow the A100 model, sm_90 the H100 one; others have none */
        if (pass == 1 && (sm == 80 || sm == 86 || sm == 90))
            bad += header_checks(sm == 90 ? TC_ARCH_H100 : TC_ARCH_A100, M, N, K, Ad, Bt, V, meta, Cd, Cs);
        else if (pass == 1)
            printf("  no header model for sm_%d: GPU vs tc_gemm / tc_sparse_gemm not compared\n", sm);
        gemm_free(G);
    }
    return bad;
}

/* Times the dense and/or sparse kernel (validated by gemm_checks) at 4096^3. */
static void gemm_time(bool dense, bool sparse) {
    const int M = 4096, N = 4096, K = 4096, reps = 10;
    Gemm G;
    std::vector<float> Ad, Bt, V;
    std::vector<uint32_t> meta;
    gemm_setup(G, M, N, K, false, Ad, Bt, V, meta);
    double flops = 2.0 * M * N * K;   /* dense-equivalent */
    double ms[2] = { 0, 0 };
    if (dense) {
        ms[0] = benchmark_ms(reps, [&] { gemm_run(G, false); });
        printf("  %dx%dx%d f16->f32: dense %.3f ms (%.1f TFLOP/s)\n", M, N, K, ms[0], flops / ms[0] / 1e9);
    }
    if (sparse) {
        ms[1] = benchmark_ms(reps, [&] { gemm_run(G, true); });
        printf("  %dx%dx%d f16->f32: sparse %.3f ms (%.1f dense-equivalent TFLOP/s)\n", M, N, K, ms[1], flops / ms[1] / 1e9);
    }
    if (dense && sparse) printf("  speedup %.2fx\n", ms[0] / ms[1]);
    gemm_free(G);
}

enum { LAYOUT, PROBES, DENSE, SPARSE, N_PARTS };
static const char *const PART_NAMES[] = { "layout", "probes", "dense", "sparse" };
static_assert(COUNT_OF(PART_NAMES) == N_PARTS, "one name per part");

int main(int argc, char **argv) {
    const int pick = parse_args(argc, argv, "sparsity [PART]", PART_NAMES, N_PARTS);
    cudaDeviceProp prop;
    int sm = gpu_sm("sparsity", 80, &prop);   /* mma.sp::ordered_metadata runs on sm_80 (PTX 8.5) */
    if (!sm) return EXIT_NO_GPU;
    printf("sparsity: %s (sm_%d)\n", prop.name, sm);
    long bad = 0;
    if (selected(pick, LAYOUT)) {
        rng_seed(0x1A70ull);
        printf("1. layout cases (every selector, group position and ordered pair; exact small integers)\n");
        bad += layout_cases<TC_MMA_SP_M16N8K16_F16, 0>() + layout_cases<TC_MMA_SP_M16N8K16_F16, 1>();
        bad += layout_cases<TC_MMA_SP_M16N8K16_F16, 2>() + layout_cases<TC_MMA_SP_M16N8K16_F16, 3>();
        bad += layout_cases<TC_MMA_SP_M16N8K16_BF16, 0>() + layout_cases<TC_MMA_SP_M16N8K16_BF16, 3>();
        bad += layout_cases<TC_MMA_SP_M16N8K32_F16, 0>() + layout_cases<TC_MMA_SP_M16N8K32_F16, 1>();
        bad += layout_cases<TC_MMA_SP_M16N8K32_BF16, 0>() + layout_cases<TC_MMA_SP_M16N8K32_BF16, 1>();
        bad += layout_cases<TC_MMA_SP_M16N8K8_TF32, 0>() + layout_cases<TC_MMA_SP_M16N8K8_TF32, 1>();
        bad += layout_cases<TC_MMA_SP_M16N8K8_TF32, 2>() + layout_cases<TC_MMA_SP_M16N8K8_TF32, 3>();
        bad += layout_cases<TC_MMA_SP_M16N8K16_TF32, 0>() + layout_cases<TC_MMA_SP_M16N8K16_TF32, 1>();
    }
    if (selected(pick, PROBES)) {
        printf("2. probes (where each register element and metadata nibble lands)\n");
        bad += probes<TC_MMA_SP_M16N8K16_F16, 0>() + probes<TC_MMA_SP_M16N8K16_F16, 1>();
        bad += probes<TC_MMA_SP_M16N8K16_F16, 2>() + probes<TC_MMA_SP_M16N8K16_F16, 3>();
        bad += probes<TC_MMA_SP_M16N8K32_F16, 0>() + probes<TC_MMA_SP_M16N8K32_F16, 1>();
        bad += probes<TC_MMA_SP_M16N8K8_TF32, 0>() + probes<TC_MMA_SP_M16N8K8_TF32, 1>();
        bad += probes<TC_MMA_SP_M16N8K8_TF32, 2>() + probes<TC_MMA_SP_M16N8K8_TF32, 3>();
        bad += probes<TC_MMA_SP_M16N8K16_TF32, 0>() + probes<TC_MMA_SP_M16N8K16_TF32, 1>();
    }
    if (selected(pick, DENSE) || selected(pick, SPARSE)) {
        printf("3. GEMM: sparse (mma.sp m16n8k32) against dense (mma.sync m16n8k16) of the same design\n");
        bad += gemm_checks(sm);
    }
    if (bad) { printf("sparsity: %ld mismatches; not timing\n", bad); return EXIT_MISMATCH; }
    if (selected(pick, DENSE) || selected(pick, SPARSE)) gemm_time(selected(pick, DENSE), selected(pick, SPARSE));
    printf("sparsity: all results match\n");
    return EXIT_OK;
}
