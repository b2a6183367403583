/* sparsity.cu - tensorcore.h section 4 on the GPU: pins the mma.sp
   (::ordered_metadata) register layouts of every shape, then times a sparse
   GEMM against the dense GEMM of the same design.

   Compile: nvcc -std=c++17 -O3 -gencode arch=compute_80,code=sm_80 \
              -gencode arch=compute_90,code=sm_90 -I. cuda/sparsity.cu -o build/cuda/sparsity
            (or: make cuda)
   Run:     build/cuda/sparsity            (make gpu-check runs it and logs the output)

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
      with tc_sparse_a_coord / tc_sparse_meta_coord and every difference is
      printed: this settles what the header marks UNCONFIRMED (m16n8k16 f16
      and both tf32 shapes).
   3. GEMM, f16 in, f32 out: a sparse kernel (one mma.sp m16n8k32 per k-step
      of 32) and a dense kernel of the same design (two mma.sync m16n8k16).
      Integer-valued inputs (every sum exact) must match a CPU reference bit
      for bit; random inputs compare sparse against dense on the decompressed
      A bit for bit, the assumption the header states for the sparse k-step
      (accumulated like the dense instruction of the same logical K). Then
      both are timed at 4096^3 (L2 flushed) and the speedup printed. The
      kernels read fragments straight from global memory (no shared-memory
      staging), so they are far from peak; the ratio is what they show.
      The random-input results are also compared bit for bit with the
      header: the dense kernel with tc_gemm on the decompressed A, the
      sparse kernel with tc_sparse_gemm on values + metadata, using the
      A100 model on sm_80/sm_86 and the H100 model on sm_90.
   Exit: 0 all equal, 1 any mismatch, 2 no suitable GPU (sm_80 or newer). */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <cuda_runtime.h>
#include "common.cuh"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>


static float small_int(int lo, int hi) { return (float)(lo + (int)(rand32() % (uint32_t)(hi - lo + 1))); }

/* ------------------------------------------------------- mma.sp, one warp */

/* One mma.sp::ordered_metadata; S is the tc_sparse_shape, BF selects bf16
   over f16 for the f16 shapes, SEL the sparsity selector (an immediate). */
template <int S, int BF, int SEL>
__device__ void mma_sp(float d[4], const uint32_t a[4], const uint32_t b[4], uint32_t e) {
    const float z = 0.0f;
    if constexpr (S == TC_SPARSE_M16N8K16_F16 && !BF)
        asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%8,%8,%8}, %9, %10;"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(z), "r"(e), "n"(SEL));
    else if constexpr (S == TC_SPARSE_M16N8K16_F16)
        asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%8,%8,%8}, %9, %10;"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(z), "r"(e), "n"(SEL));
    else if constexpr (S == TC_SPARSE_M16N8K32_F16 && !BF)
        asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%12,%12,%12}, %13, %14;"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(z), "r"(e), "n"(SEL));
    else if constexpr (S == TC_SPARSE_M16N8K32_F16)
        asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%12,%12,%12}, %13, %14;"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(z), "r"(e), "n"(SEL));
    else if constexpr (S == TC_SPARSE_M16N8K8_TF32)
        asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%8,%8,%8,%8}, %9, %10;"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "f"(z), "r"(e), "n"(SEL));
    else
        asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%12,%12,%12,%12}, %13, %14;"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "f"(z), "r"(e), "n"(SEL));
}

/* One warp per case: registers in, D out (32 lanes x 4 each). */
template <int S, int BF, int SEL>
__global__ void mma_sp_cases(const uint32_t *a, const uint32_t *meta, const uint32_t *b, float *d) {
    size_t c = blockIdx.x, lane = threadIdx.x;
    uint32_t ar[4], br[4];
    float dr[4];
    for (int r = 0; r < 4; r++) { ar[r] = a[(c * 32 + lane) * 4 + r]; br[r] = b[(c * 32 + lane) * 4 + r]; }
    mma_sp<S, BF, SEL>(dr, ar, br, meta[c * 32 + lane]);
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

template <int S, int BF, int SEL>
static void run_batch(Batch &bt) {
    uint32_t *da, *dm, *db;
    float *dd;
    CUDA_CHECK(cudaMalloc(&da, bt.a.size() * 4)); CUDA_CHECK(cudaMalloc(&dm, bt.meta.size() * 4));
    CUDA_CHECK(cudaMalloc(&db, bt.b.size() * 4)); CUDA_CHECK(cudaMalloc(&dd, bt.a.size() * 4));
    CUDA_CHECK(cudaMemcpy(da, bt.a.data(), bt.a.size() * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dm, bt.meta.data(), bt.meta.size() * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(db, bt.b.data(), bt.b.size() * 4, cudaMemcpyHostToDevice));
    mma_sp_cases<S, BF, SEL><<<bt.n, 32>>>(da, dm, db, dd);
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
template <int S, int BF, int SEL>
static long layout_cases() {
    const tc_sparse_shape_info *in = tc_sparse_shape_info_of((tc_sparse_shape)S);
    tc_dtype t = in->keep == 1 ? TC_TF32 : (BF ? TC_BF16 : TC_FP16);
    int groups = in->k / in->group, npairs = in->group == 4 ? 6 : 2;
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
                        for (int x = 0; x < in->group; x++) A[i * in->k + gg * in->group + x] = 0.0f;
                        for (int x = 0; x < in->keep; x++) {
                            int pos = in->group == 4 ? pairs4[q][x] : q;
                            A[i * in->k + gg * in->group + pos] = (rand32() & 1) ? small_int(1, 4) : small_int(-4, -1);
                        }
                    }
                for (int i = 0; i < in->k * 8; i++) B[i] = small_int(-3, 3);
                if (tc_sparse_compress(t, 16, in->k, A, in->k, V, in->k / 2, meta, 1, 0, NULL) != TC_OK ||
                    tc_sparse_pack_a((tc_sparse_shape)S, t, SEL, 16, in->k, V, in->k / 2, meta, 1, 0, 0, ar, mr) != TC_OK ||
                    tc_sparse_pack_b((tc_sparse_shape)S, t, in->k, 8, B, 8, 0, 0, br) != TC_OK) { printf("packing failed\n"); exit(1); }
                bt.add(ar, mr, br);
                for (int i = 0; i < 16; i++)
                    for (int n = 0; n < 8; n++) {
                        double s = 0;
                        for (int k = 0; k < in->k; k++) s += (double)A[i * in->k + k] * B[k * 8 + n];
                        ref.push_back((float)s);
                    }
            }
    run_batch<S, BF, SEL>(bt);
    long bad = 0;
    for (int c = 0; c < bt.n; c++) {
        float tile[16 * 8];
        case_tile(bt, c, tile);
        for (int i = 0; i < 128; i++)
            if (tile[i] != ref[(size_t)c * 128 + i]) {
                if (bad < 3) printf("    case %d (row %d, group %d, pair %d): D[%d][%d] = %g, expected %g\n",
                                    c, c / (groups * npairs), (c / npairs) % groups, c % npairs, i / 8, i % 8, tile[i], ref[(size_t)c * 128 + i]);
                bad++;
            }
    }
    printf("  %-14s %s selector %d: %5d cases, %ld mismatching D elements\n", in->name, BF ? "bf16" : (in->keep == 1 ? "tf32" : "f16 "), SEL, bt.n, bad);
    return bad;
}

/* ---- 2. probes: where does each register element and metadata nibble go ---- */
template <int S, int SEL>
static long probes() {
    const tc_sparse_shape_info *in = tc_sparse_shape_info_of((tc_sparse_shape)S);
    tc_dtype t = in->keep == 1 ? TC_TF32 : TC_FP16;
    uint32_t one = t == TC_TF32 ? 0x3F800000u : 0x3C00u;
    long diffs = 0;
    /* values: all metadata (0,1) in every lane, B[k][0] = k + 1 */
    {
        Batch bt;
        float B[32 * 8] = { 0 };
        uint32_t br[128], mr[32];
        for (int k = 0; k < in->k; k++) B[k * 8] = (float)(k + 1);
        tc_sparse_pack_b((tc_sparse_shape)S, t, in->k, 8, B, 8, 0, 0, br);
        for (int l = 0; l < 32; l++) mr[l] = 0x44444444u;
        for (int lane = 0; lane < 32; lane++)
            for (int e = 0; e < in->a_elems; e++) {
                uint32_t ar[128] = { 0 };
                ar[lane * 4 + (t == TC_TF32 ? e : e >> 1)] = t == TC_TF32 ? one : one << (16 * (e & 1));
                bt.add(ar, mr, br);
            }
        run_batch<S, 0, SEL>(bt);
        for (int c = 0; c < bt.n; c++) {
            int lane = c / in->a_elems, e = c % in->a_elems, row = -1, k = -1, hr = -1, hc = -1;
            float tile[16 * 8];
            case_tile(bt, c, tile);
            for (int i = 0; i < 16; i++) if (tile[i * 8] != 0) { row = i; k = (int)tile[i * 8] - 1; }
            tc_sparse_a_coord((tc_sparse_shape)S, lane, e, &hr, &hc);
            /* (0,1) everywhere: compressed column c is dense column (c / keep) * group + c % keep */
            int hk = (hc / in->keep) * in->group + hc % in->keep;
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
        for (int k = 0; k < in->k; k++) if (k % in->group >= in->group / 2) B[k * 8] = (float)(1 << (k / in->group));
        tc_sparse_pack_b((tc_sparse_shape)S, t, in->k, 8, B, 8, 0, 0, br);
        for (int lane = 0; lane < 32; lane++)
            for (int e = 0; e < in->a_elems; e++) ar[lane * 4 + (t == TC_TF32 ? e : e >> 1)] |= t == TC_TF32 ? one : one << (16 * (e & 1));
        for (int lane = 0; lane < 32; lane++)
            for (int j = 0; j < 8; j++) {
                uint32_t mr[32];
                for (int l = 0; l < 32; l++) mr[l] = 0x44444444u;
                mr[lane] = (mr[lane] & ~(0xFu << (4 * j))) | (0xEu << (4 * j));
                bt.add(ar, mr, br);
            }
        run_batch<S, 0, SEL>(bt);
        for (int c = 0; c < bt.n; c++) {
            int lane = c / 8, j = c % 8, row = -1, g = -1, hr = -1, hg = -1;
            float tile[16 * 8];
            case_tile(bt, c, tile);
            for (int i = 0; i < 16; i++) if (tile[i * 8] != 0) { row = i; g = (int)std::log2(tile[i * 8] / in->keep); }
            if (tc_sparse_meta_coord((tc_sparse_shape)S, SEL, lane, j, &hr, &hg) != 1) { hr = -1; hg = -1; }
            if (row != hr || g != hg) {
                if (diffs < 40) printf("    metadata lane %2d nibble %d: GPU row %d, group %d; header row %d, group %d (-1: not read)\n", lane, j, row, g, hr, hg);
                diffs++;
            }
        }
    }
    printf("  %-14s selector %d probes: %ld differences from the header's layout\n", in->name, SEL, diffs);
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
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                             : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]), "+f"(acc[i][j][3])
                             : "r"(a[i][0]), "r"(a[i][1]), "r"(a[i][2]), "r"(a[i][3]), "r"(b[j][0]), "r"(b[j][1]));
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
            /* tc_sparse_a_coord for m16n8k32: (g, 2t..), (g+8, 2t..), (g, 8+2t..), (g+8, 8+2t..) of the compressed tile */
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
                asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, 0;"
                             : "+f"(acc[i][j][0]), "+f"(acc[i][j][1]), "+f"(acc[i][j][2]), "+f"(acc[i][j][3])
                             : "r"(a[i][0]), "r"(a[i][1]), "r"(a[i][2]), "r"(a[i][3]),
                               "r"(b[j][0]), "r"(b[j][1]), "r"(b[j][2]), "r"(b[j][3]), "r"(e[i]));
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
    for (auto &x : Ad) x = integers ? small_int(-2, 2) : tc_round(TC_FP16, (float)((int)(rand32() % 20001) - 10000) / 4096.0f, TC_RN);
    for (auto &x : Bt) x = integers ? small_int(-2, 2) : tc_round(TC_FP16, (float)((int)(rand32() % 20001) - 10000) / 4096.0f, TC_RN);
    tc_sparse_prune(TC_FP16, M, K, Ad.data(), K, Ad.data(), K, NULL);
    V.resize((size_t)M * K / 2);
    meta.resize((size_t)M * K / 32);
    if (tc_sparse_compress(TC_FP16, M, K, Ad.data(), K, V.data(), K / 2, meta.data(), K / 32, 0, NULL) != TC_OK) { printf("compress failed\n"); exit(1); }
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
    long bd = 0, bs = 0;
    for (size_t i = 0; i < Hd.size(); i++) {
        bd += memcmp(&Hd[i], &Cd[i], 4) != 0;
        if (memcmp(&Hs[i], &Cs[i], 4) != 0) {
            if (bs < 3) printf("    C[%d][%d]: GPU sparse %a, tc_sparse_gemm %a\n", (int)(i / N), (int)(i % N), Cs[i], Hs[i]);
            bs++;
        }
    }
    printf("  random fp16 inputs vs the header (%s model): dense kernel vs tc_gemm %ld, sparse kernel vs tc_sparse_gemm %ld of %d differ\n",
           arch == TC_ARCH_H100 ? "H100" : "A100", bd, bs, M * N);
    return bd + bs;
}

static long gemm_checks(int sm) {
    long bad = 0;
    std::vector<float> Ad, Bt, V;
    std::vector<uint32_t> meta;
    for (int pass = 0; pass < 2; pass++) {
        Gemm G;
        int M = 256, N = 128, K = 1024;
        gemm_setup(G, M, N, K, pass == 0, Ad, Bt, V, meta);
        gemm_run(G, false); gemm_run(G, true);
        std::vector<float> Cd((size_t)M * N), Cs((size_t)M * N);
        CUDA_CHECK(cudaMemcpy(Cd.data(), G.Cd, Cd.size() * 4, cudaMemcpyDeviceToHost));
        CUDA_CHECK(cudaMemcpy(Cs.data(), G.Cs, Cs.size() * 4, cudaMemcpyDeviceToHost));
        long bd = 0, bs = 0, bsd = 0;
        for (int m = 0; m < M; m++)
            for (int n = 0; n < N; n++) {
                double s = 0;
                for (int k = 0; k < K; k++) s += (double)Ad[(size_t)m * K + k] * Bt[(size_t)n * K + k];
                float d = Cd[(size_t)m * N + n], sp = Cs[(size_t)m * N + n];
                if (pass == 0) { bd += d != (float)s; bs += sp != (float)s; }
                if (memcmp(&d, &sp, 4) != 0) {
                    if (bsd < 3) printf("    C[%d][%d]: sparse %.9g, dense %.9g\n", m, n, sp, d);
                    bsd++;
                }
            }
        if (pass == 0) printf("  integer inputs %dx%dx%d: dense %ld, sparse %ld mismatches against the exact CPU product\n", M, N, K, bd, bs);
        printf("  %s inputs: sparse vs dense on the decompressed A, %ld of %d differ in bits%s\n", pass == 0 ? "integer" : "random fp16",
               bsd, M * N, pass == 1 && bsd ? "  <- the header's assumption for the sparse k-step is wrong" : "");
        bad += bd + bs + bsd;
        /* sm_80/86 follow the A100 model, sm_90 the H100 one; others have none */
        if (pass == 1 && (sm == 80 || sm == 86 || sm == 90))
            bad += header_checks(sm == 90 ? TC_ARCH_H100 : TC_ARCH_A100, M, N, K, Ad, Bt, V, meta, Cd, Cs);
        else if (pass == 1)
            printf("  no header model for sm_%d: GPU vs tc_gemm / tc_sparse_gemm not compared\n", sm);
        gemm_free(G);
    }
    return bad;
}

static void gemm_time() {
    const int M = 4096, N = 4096, K = 4096, reps = 10;
    Gemm G;
    std::vector<float> Ad, Bt, V;
    std::vector<uint32_t> meta;
    gemm_setup(G, M, N, K, false, Ad, Bt, V, meta);
    size_t flush_bytes = (size_t)256 << 20;
    char *flush;
    CUDA_CHECK(cudaMalloc(&flush, flush_bytes));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    float ms[2] = { 0, 0 };
    for (int s = 0; s < 2; s++) {
        gemm_run(G, s == 1);   /* warm-up */
        for (int r = 0; r < reps; r++) {
            CUDA_CHECK(cudaMemset(flush, r, flush_bytes));   /* flush L2 */
            cudaEventRecord(e0);
            gemm_run(G, s == 1);
            cudaEventRecord(e1);
            cudaEventSynchronize(e1);
            float t;
            cudaEventElapsedTime(&t, e0, e1);
            ms[s] += t / reps;
        }
    }
    double flops = 2.0 * M * N * K;   /* dense-equivalent */
    printf("  %dx%dx%d f16->f32: dense %.3f ms (%.1f TFLOP/s), sparse %.3f ms (%.1f dense-equivalent TFLOP/s), speedup %.2fx\n",
           M, N, K, ms[0], flops / ms[0] / 1e9, ms[1], flops / ms[1] / 1e9, ms[0] / ms[1]);
    cudaFree(flush);
    gemm_free(G);
}

int main() {
    cudaDeviceProp prop;
    int sm = gpu_sm("sparsity", 80, &prop);   /* mma.sp::ordered_metadata runs on sm_80 (PTX 8.5) */
    if (!sm) return 2;
    printf("sparsity: %s (sm_%d)\n", prop.name, sm);
    long bad = 0;
    printf("1. layout cases (every selector, group position and ordered pair; exact small integers)\n");
    bad += layout_cases<TC_SPARSE_M16N8K16_F16, 0, 0>() + layout_cases<TC_SPARSE_M16N8K16_F16, 0, 1>();
    bad += layout_cases<TC_SPARSE_M16N8K16_F16, 0, 2>() + layout_cases<TC_SPARSE_M16N8K16_F16, 0, 3>();
    bad += layout_cases<TC_SPARSE_M16N8K16_F16, 1, 0>() + layout_cases<TC_SPARSE_M16N8K16_F16, 1, 3>();
    bad += layout_cases<TC_SPARSE_M16N8K32_F16, 0, 0>() + layout_cases<TC_SPARSE_M16N8K32_F16, 0, 1>();
    bad += layout_cases<TC_SPARSE_M16N8K32_F16, 1, 0>() + layout_cases<TC_SPARSE_M16N8K32_F16, 1, 1>();
    bad += layout_cases<TC_SPARSE_M16N8K8_TF32, 0, 0>() + layout_cases<TC_SPARSE_M16N8K8_TF32, 0, 1>();
    bad += layout_cases<TC_SPARSE_M16N8K8_TF32, 0, 2>() + layout_cases<TC_SPARSE_M16N8K8_TF32, 0, 3>();
    bad += layout_cases<TC_SPARSE_M16N8K16_TF32, 0, 0>() + layout_cases<TC_SPARSE_M16N8K16_TF32, 0, 1>();
    printf("2. probes (where each register element and metadata nibble lands)\n");
    bad += probes<TC_SPARSE_M16N8K16_F16, 0>() + probes<TC_SPARSE_M16N8K16_F16, 1>();
    bad += probes<TC_SPARSE_M16N8K16_F16, 2>() + probes<TC_SPARSE_M16N8K16_F16, 3>();
    bad += probes<TC_SPARSE_M16N8K32_F16, 0>() + probes<TC_SPARSE_M16N8K32_F16, 1>();
    bad += probes<TC_SPARSE_M16N8K8_TF32, 0>() + probes<TC_SPARSE_M16N8K8_TF32, 1>();
    bad += probes<TC_SPARSE_M16N8K8_TF32, 2>() + probes<TC_SPARSE_M16N8K8_TF32, 3>();
    bad += probes<TC_SPARSE_M16N8K16_TF32, 0>() + probes<TC_SPARSE_M16N8K16_TF32, 1>();
    printf("3. GEMM: sparse (mma.sp m16n8k32) against dense (mma.sync m16n8k16) of the same design\n");
    bad += gemm_checks(sm);
    if (bad) { printf("sparsity: %ld mismatches; not timing\n", bad); return 1; }
    gemm_time();
    printf("sparsity: all layouts and GEMM results match\n");
    return 0;
}
