/* cycles.cu - clock64() microbenchmarks of the programs tensorcore.h's cycle
   simulator models (section 5), printed as measured vs simulated for this
   GPU's nearest profile (tc_gpu_nearest: sm_80 -> a100, sm_89 -> rtx4090,
   sm_90 -> h100, sm_100 -> b200, sm_120 -> rtx5090), with the ratio.

   Compile (from the repository root; make cuda builds it for sm_80 and sm_90):
     nvcc -std=c++17 -O3 -arch=sm_80 -I. -Isupport cuda/cycles.cu -o cycles
   Run:  ./cycles [PART]     (make gpu-check runs build/cuda/cycles)
     PART  global, shared, ffma, mma, matmul or units (6): that benchmark alone (e.g.
           under ncu); default: all, the matmul (validated) first
   Exit: 0 ok, 1 a matmul mismatch (then nothing is measured) or CUDA
   error, 2 no suitable GPU (sm_80 or newer), 3 usage error.

   Measures, one warp at a time unless said otherwise:
     1. global load latency: a dependent pointer chase that hits L2 (1 MiB,
        warmed) and one that misses to DRAM (256 MiB, 4 KiB stride, L2 flushed)
     2. shared load latency with 1, 2, 4, 8 and 32-way bank conflicts
        (each lane chases its own word; the pattern sets the conflict degree)
     3. a dependent FFMA chain
     4. mma.sync latency (a dependent chain) and throughput (8 independent
        accumulators) for every shape the simulator knows and the GPU has
     6. dependent chains of warp shuffles (shfl.sync.bfly), integer
        multiply-adds (mad.lo.u32 = IMAD) and adds (add.u32 = IADD3), and of
        shared and global atomicAdds that feed each result into the next,
        each lane on its own word and all 32 on one word (the simulator's
        shfl_latency, int_latency, atoms_latency, atomg_latency and
        atom_same_address_cycles, all assumptions until this runs)
     5. a 32x32 fp32 matmul through shared memory with FFMA (8 blocks x 8
        warps, as in Dettmers' example) and with Tensor Cores (WMMA
        16x16x16 fp16, 4 warps), validated against the CPU (within a
        tolerance: the kernels sum in another order) before any result of
        it is reported. The other benchmarks compute nothing but their
        clock64() counts. Times here are cycles inside the kernels, so
        benchmark_ms (CUDA events) is not used.
   The matmul kernels do the whole product, which Dettmers' schedule (and
   so the simulated program) does not: compare their ratios, not equality.
   When this runs on an H100, commit the output under tests/measured/ and
   update the h100 profile in tensorcore.h, keeping where each number came from. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common.cuh"

/* ---------------------------------------------------------------- simulator side */

static const tc_gpu *g_gpu;            /* the header's model of this GPU */
static const tc_sim_profile *g_prof;   /* its timing profile */

static long long sim_cycles(tc_sim_program *p, int sms, int warps) {
    tc_sim_options o;
    tc_sim_result r;
    memset(&o, 0, sizeof o);
    o.sms = sms;
    o.warps_per_sm = warps;
    tc_status s = tc_sim_run(g_prof, p, &o, &r);
    tc_sim_program_free(p);
    if (s != TC_OK) return -1;
    long long c = (long long)r.cycles;
    tc_sim_result_free(&r);
    return c;
}

static void report(const char *what, double measured, double simulated) {
    if (simulated > 0)
        printf("  %-40s measured %8.1f  simulated %8.1f  ratio %5.2f\n", what, measured, simulated, measured / simulated);
    else
        printf("  %-40s measured %8.1f  simulated      n/a\n", what, measured);
}

/* ---------------------------------------------------------------- kernels */

/* 1. pointer chase: `hops` dependent loads; cycles per load in out[0]. */
__global__ void chase_kernel(const unsigned *next, int hops, long long *out, unsigned *sink) {
    unsigned i = 0;
    long long t0 = clock64();
    for (int h = 0; h < hops; h++) i = __ldcg(&next[i]);   /* .cg: L2, not L1 */
    long long t1 = clock64();
    out[0] = (t1 - t0) / hops;
    sink[0] = i;
}

/* 2. shared chase: lane l starts at word start[l]; sh[w] = w, so every load
   returns its own address and the chain repeats the same pattern. */
__global__ void shared_kernel(const unsigned *start, int iters, long long *out, unsigned *sink) {
    __shared__ unsigned sh[32 * 33];
    for (int w = threadIdx.x; w < 32 * 33; w += 32) sh[w] = (unsigned)w;
    __syncwarp();
    unsigned i = start[threadIdx.x];
    long long t0 = clock64();
    for (int k = 0; k < iters; k++) i = sh[i];
    long long t1 = clock64();
    if (threadIdx.x == 0) out[0] = (t1 - t0) / iters;
    sink[threadIdx.x] = i;
}

/* 3. dependent FFMA chain */
__global__ void ffma_kernel(float a, float b, int iters, long long *out, float *sink) {
    float x = a;
    long long t0 = clock64();
    for (int k = 0; k < iters; k++) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(b), "f"(a));
    long long t1 = clock64();
    out[0] = (t1 - t0) / iters;
    sink[0] = x;
}

/* 4. one mma.sync of a kind (common.cuh); accumulators d[] in place. */
template <int KIND>
__device__ __forceinline__ void mma_op(float *d, const uint32_t *a, const uint32_t *b) {
    if constexpr (KIND == TC_MMA_M8N8K4_F16) mma_m8n8k4(d, a, b);
    else if constexpr (KIND == TC_MMA_M16N8K8_F16) mma_m16n8k8<__half>(d, a, b);
    else if constexpr (KIND == TC_MMA_M16N8K16_F16) mma_m16n8k16<__half>(d, a, b);
    else if constexpr (KIND == TC_MMA_M16N8K16_BF16) mma_m16n8k16<__nv_bfloat16>(d, a, b);
    else if constexpr (KIND == TC_MMA_M16N8K8_TF32) mma_m16n8k8_tf32(d, a, b);
    else mma_m16n8k32_e4m3(d, a, b);
}

/* DEP = 1: every MMA reads the previous result (latency). DEP = 0: 8
   independent accumulators per step (throughput of one warp). */
template <int KIND, int DEP>
__global__ void mma_kernel(int iters, long long *out, float *sink) {
    uint32_t a[4], b[2];
    float d[8][8];
    for (int i = 0; i < 4; i++) a[i] = 0x3C003C00u ^ (threadIdx.x & 1);   /* small finite values */
    for (int i = 0; i < 2; i++) b[i] = 0x3C003C00u;
    for (int j = 0; j < 8; j++) for (int i = 0; i < 8; i++) d[j][i] = 0.0f;
    __syncwarp();
    long long t0 = clock64();
    for (int k = 0; k < iters; k++) {
        if (DEP) mma_op<KIND>(d[0], a, b);
        else
#pragma unroll
            for (int j = 0; j < 8; j++) mma_op<KIND>(d[j], a, b);
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) out[0] = (t1 - t0) / (DEP ? iters : 8 * iters);
    float s = 0.0f;
    for (int j = 0; j < 8; j++) for (int i = 0; i < 8; i++) s += d[j][i];
    sink[threadIdx.x] = s;
}

/* 6. dependent chains of one operation each (OP below), one warp; the
   cycles per operation in out[0]. `word` picks each lane's word (lane or
   0); g is a global array of at least 32 words, L2-resident after a first
   run. */
enum { OP_SHFL, OP_IMAD, OP_IADD, OP_ATOMS, OP_ATOMG, OP_COUNT };
template <int OP>
__global__ void unit_kernel(unsigned seed, int iters, int spread, unsigned *g, long long *out, unsigned *sink) {
    __shared__ unsigned sh[32];
    const int word = spread ? (int)threadIdx.x : 0;
    unsigned v = seed + threadIdx.x;
    sh[threadIdx.x] = 0;
    __syncwarp();
    long long t0 = clock64();
    for (int k = 0; k < iters; k++) {
        if constexpr (OP == OP_SHFL) v = __shfl_xor_sync(0xFFFFFFFFu, v, 1);
        else if constexpr (OP == OP_IMAD) asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(v) : "r"(seed), "r"(seed + 1));
        else if constexpr (OP == OP_IADD) asm volatile("add.u32 %0, %0, %1;" : "+r"(v) : "r"(seed));
        else if constexpr (OP == OP_ATOMS) v = atomicAdd(&sh[word], v & 1u);
        else v = atomicAdd(&g[word], v & 1u);
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) out[0] = (t1 - t0) / iters;
    sink[threadIdx.x] = v;
}

/* 5a. 32x32 fp32 matmul, FFMA: 8 blocks x 256 threads; block b computes rows
   4b..4b+3; thread t computes output (row, col) = (4b + t/64, (t/2)%32) over
   half of k, and adds its partner's half with a shuffle. */
__global__ void matmul_ffma_kernel(const float *A, const float *B, float *C, long long *cycles) {
    __shared__ float sa[4][32], sb[32][33];
    long long t0 = clock64();
    int t = threadIdx.x, row = t / 64, col = (t / 2) % 32, half = t % 2;
    for (int i = t; i < 32 * 32; i += 256) sb[i / 32][i % 32] = B[i];
    if (t < 128) sa[t / 32][t % 32] = A[(blockIdx.x * 4 + t / 32) * 32 + t % 32];
    __syncthreads();
    float acc = 0.0f;
    for (int k = half * 16; k < half * 16 + 16; k++) acc = fmaf(sa[row][k], sb[k][col], acc);
    acc += __shfl_xor_sync(0xFFFFFFFFu, acc, 1);
    if (!half) C[(blockIdx.x * 4 + row) * 32 + col] = acc;
    __syncthreads();
    if (t == 0) cycles[blockIdx.x] = clock64() - t0;
}

/* 5b. the same with Tensor Cores: fp16 inputs, fp32 accumulate; 4 warps,
   one 16x16 tile of C each, two 16x16x16 steps along k. */
__global__ void matmul_tc_kernel(const half *A, const half *B, float *C, long long *cycles) {
    using namespace nvcuda;
    __shared__ half sa[32 * 32], sb[32 * 32];
    long long t0 = clock64();
    for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) { sa[i] = A[i]; sb[i] = B[i]; }
    __syncthreads();
    int w = threadIdx.x / 32, tr = w / 2, tc = w % 2;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    for (int k = 0; k < 32; k += 16) {
        wmma::load_matrix_sync(fa, sa + tr * 16 * 32 + k, 32);
        wmma::load_matrix_sync(fb, sb + k * 32 + tc * 16, 32);
        wmma::mma_sync(fc, fa, fb, fc);
    }
    wmma::store_matrix_sync(C + tr * 16 * 32 + tc * 16, fc, 32, wmma::mem_row_major);
    __syncthreads();
    if (threadIdx.x == 0) cycles[0] = clock64() - t0;
}

/* ---------------------------------------------------------------- launchers */

static long long *d_out;
static unsigned *d_usink;
static float *d_fsink;

static long long read_out(void) {
    long long v = 0;
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(&v, d_out, sizeof v, cudaMemcpyDeviceToHost));
    return v;
}

static void bench_global(void) {
    const size_t l2_bytes = 1u << 20, dram_bytes = 256u << 20;
    const size_t l2_stride = 128 / 4, dram_stride = 4096 / 4;
    std::vector<unsigned> h(dram_bytes / 4);
    unsigned *d_next, *d_flush;
    CUDA_CHECK(cudaMalloc(&d_next, dram_bytes));
    CUDA_CHECK(cudaMalloc(&d_flush, 128u << 20));
    /* L2: a ring over 1 MiB, 128-byte steps; run it once to warm, then time */
    size_t n = l2_bytes / 4;
    for (size_t i = 0; i < n; i++) h[i] = (unsigned)((i + l2_stride) % n);
    CUDA_CHECK(cudaMemcpy(d_next, h.data(), n * 4, cudaMemcpyHostToDevice));
    chase_kernel<<<1, 1>>>(d_next, (int)(n / l2_stride), d_out, d_usink);
    read_out();
    chase_kernel<<<1, 1>>>(d_next, 4096, d_out, d_usink);
    double l2 = (double)read_out();
    /* DRAM: 4 KiB steps over 256 MiB, after writing 128 MiB elsewhere to evict L2 */
    n = dram_bytes / 4;
    for (size_t i = 0; i < n; i++) h[i] = (unsigned)((i + dram_stride) % n);
    CUDA_CHECK(cudaMemcpy(d_next, h.data(), dram_bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_flush, 1, 128u << 20));
    chase_kernel<<<1, 1>>>(d_next, 4096, d_out, d_usink);
    double dram = (double)read_out();
    tc_sim_program p;
    memset(&p, 0, sizeof p);
    tc_sim_build_global_load(&p, 1);
    report("global load, L2 hit (cycles)", l2, (double)(sim_cycles(&p, 1, 1) - g_prof->ffma_latency));
    tc_sim_build_global_load(&p, 0);
    report("global load, DRAM (cycles)", dram, (double)(sim_cycles(&p, 1, 1) - g_prof->ffma_latency));
    CUDA_CHECK(cudaFree(d_next));
    CUDA_CHECK(cudaFree(d_flush));
}

static void bench_shared(void) {
    static const int ways[] = { 1, 2, 4, 8, 32 };
    unsigned *d_start;
    CUDA_CHECK(cudaMalloc(&d_start, 32 * sizeof(unsigned)));
    for (int w : ways) {
        unsigned start[32];
        uint32_t bytes[32];
        for (int l = 0; l < 32; l++) {   /* k-way: lanes share banks in groups of k distinct words */
            start[l] = (unsigned)((l % (32 / w)) + (l / (32 / w)) * 32);
            bytes[l] = start[l] * 4;
        }
        CUDA_CHECK(cudaMemcpy(d_start, start, sizeof start, cudaMemcpyHostToDevice));
        shared_kernel<<<1, 32>>>(d_start, 1024, d_out, d_usink);
        double m = (double)read_out();
        tc_sim_program p;
        memset(&p, 0, sizeof p);
        tc_sim_build_shared_pattern(&p, bytes, 4);
        char what[64];
        snprintf(what, sizeof what, "shared load, %d-way conflict (cycles)", w);
        report(what, m, (double)(sim_cycles(&p, 1, 1) - g_prof->ffma_latency));
    }
    CUDA_CHECK(cudaFree(d_start));
}

static void bench_ffma(void) {
    ffma_kernel<<<1, 1>>>(1.0f, 0.999f, 4096, d_out, d_fsink);
    double m = (double)read_out();
    tc_sim_program p;
    memset(&p, 0, sizeof p);
    tc_sim_build_ffma_chain(&p, 64);
    report("FFMA, dependent (cycles)", m, (double)sim_cycles(&p, 1, 1) / 64.0);
}

template <int KIND>
static void bench_mma_kind(void) {
    const int iters = 256;
    if (g_prof->mma_latency[KIND] == 0) return;
    mma_kernel<KIND, 1><<<1, 32>>>(iters, d_out, d_fsink);
    double lat = (double)read_out();
    mma_kernel<KIND, 0><<<1, 32>>>(iters, d_out, d_fsink);
    double thr = (double)read_out();
    tc_sim_program p;
    char what[64];
    memset(&p, 0, sizeof p);
    tc_mma_instr_info info;
    tc_mma_instr_get((tc_mma_instr)KIND, &info);
    tc_sim_build_mma_chain(&p, (tc_mma_instr)KIND, 64, 1);
    snprintf(what, sizeof what, "mma %s latency", info.name);
    report(what, lat, (double)sim_cycles(&p, 1, 1) / 64.0);
    tc_sim_build_mma_chain(&p, (tc_mma_instr)KIND, 256, 0);
    snprintf(what, sizeof what, "mma %s interval", info.name);
    report(what, thr, (double)sim_cycles(&p, 1, 1) / 256.0);
}

/* The simulated chain: 64 copies of one .tcs instruction that reads its own
   result, per instruction. */
static double sim_chain(const char *settings, const char *instr) {
    std::string text = settings;
    for (int i = 0; i < 64; i++) text += std::string(instr) + "\n";
    text += "exit\n";
    tc_sim_program p;
    memset(&p, 0, sizeof p);
    if (tc_sim_program_parse(text.c_str(), text.size(), &p, NULL, 0) != TC_OK) return -1.0;
    return (double)sim_cycles(&p, 1, 1) / 64.0;
}

template <int OP>
static double unit_measure(int spread, unsigned *g) {
    unit_kernel<OP><<<1, 32>>>(3u, 16, spread, g, d_out, d_usink);   /* warm: code, and g into L2 */
    read_out();
    unit_kernel<OP><<<1, 32>>>(3u, 1024, spread, g, d_out, d_usink);
    return (double)read_out();
}

static void bench_units(void) {
    unsigned *g;
    CUDA_CHECK(cudaMalloc(&g, 32 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(g, 0, 32 * sizeof(unsigned)));
    const char *glob = ".global_bytes 128\n.l2_resident_bytes 128\n", *shr = ".shared_bytes 128\n";
    report("SHFL, dependent (cycles)", unit_measure<OP_SHFL>(1, g), sim_chain("", "shfl r1, r1"));
    report("IMAD (mad.lo.u32), dependent (cycles)", unit_measure<OP_IMAD>(1, g), sim_chain("", "imad r1, r1, r2, r3"));
    report("IADD3 (add.u32), dependent (cycles)", unit_measure<OP_IADD>(1, g), sim_chain("", "imad r1, r1, r2, -"));
    report("shared atomicAdd, own words (cycles)", unit_measure<OP_ATOMS>(1, g), sim_chain(shr, "atoms r1, r1, [4*lane]"));
    report("shared atomicAdd, one word (cycles)", unit_measure<OP_ATOMS>(0, g), sim_chain(shr, "atoms r1, r1, [0]"));
    report("global atomicAdd, L2, own words (cycles)", unit_measure<OP_ATOMG>(1, g), sim_chain(glob, "atomg r1, r1, [4*lane]"));
    report("global atomicAdd, L2, one word (cycles)", unit_measure<OP_ATOMG>(0, g), sim_chain(glob, "atomg r1, r1, [0]"));
    CUDA_CHECK(cudaFree(g));
}

static int bench_matmul(void) {
    float hA[1024], hB[1024], hC[1024], ref[1024], refh[1024];
    half hAh[1024], hBh[1024];
    tc_sim_program p;
    tc_sim_matmul32_desc d;
    int bad = 0;
    for (int i = 0; i < 1024; i++) {
        hA[i] = (float)((i * 37) % 17) / 16.0f - 0.5f;
        hB[i] = (float)((i * 11) % 13) / 12.0f - 0.5f;
        hAh[i] = __float2half(hA[i]);
        hBh[i] = __float2half(hB[i]);
    }
    for (int r = 0; r < 32; r++)   /* CPU references: fp32, and fp16-rounded inputs (exact in fp32 products) */
        for (int c = 0; c < 32; c++) {
            double s = 0.0, sh = 0.0;
            for (int k = 0; k < 32; k++) {
                s += (double)hA[r * 32 + k] * hB[k * 32 + c];
                sh += (double)tc_fp16_to_f32(tc_fp16_from_f32(hA[r * 32 + k], TC_RN)) *
                      tc_fp16_to_f32(tc_fp16_from_f32(hB[k * 32 + c], TC_RN));
            }
            ref[r * 32 + c] = (float)s;
            refh[r * 32 + c] = (float)sh;
        }
    float *dA, *dB, *dC;
    half *dAh, *dBh;
    long long *dcyc, cyc[8];
    CUDA_CHECK(cudaMalloc(&dA, 4096)); CUDA_CHECK(cudaMalloc(&dB, 4096)); CUDA_CHECK(cudaMalloc(&dC, 4096));
    CUDA_CHECK(cudaMalloc(&dAh, 2048)); CUDA_CHECK(cudaMalloc(&dBh, 2048)); CUDA_CHECK(cudaMalloc(&dcyc, sizeof cyc));
    CUDA_CHECK(cudaMemcpy(dA, hA, 4096, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, hB, 4096, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dAh, hAh, 2048, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dBh, hBh, 2048, cudaMemcpyHostToDevice));

    ValidateOptions opt;
    opt.compare = CMP_TOL;
    opt.cols = 32;
    matmul_ffma_kernel<<<8, 256>>>(dA, dB, dC, dcyc);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hC, dC, 4096, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(cyc, dcyc, sizeof cyc, cudaMemcpyDeviceToHost));
    opt.tol = 1e-4;
    bad += (int)validate("FFMA matmul C", hC, ref, 1024, opt);
    long long worst = 0, tc_cycles = 0;
    for (int i = 0; i < 8; i++) if (cyc[i] > worst) worst = cyc[i];

    matmul_tc_kernel<<<1, 128>>>(dAh, dBh, dC, dcyc);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(hC, dC, 4096, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&tc_cycles, dcyc, sizeof tc_cycles, cudaMemcpyDeviceToHost));
    opt.tol = 1e-3;
    bad += (int)validate("Tensor Core matmul C", hC, refh, 1024, opt);
    CUDA_CHECK(cudaFree(dA)); CUDA_CHECK(cudaFree(dB)); CUDA_CHECK(cudaFree(dC));
    CUDA_CHECK(cudaFree(dAh)); CUDA_CHECK(cudaFree(dBh)); CUDA_CHECK(cudaFree(dcyc));
    if (bad) return bad;

    memset(&p, 0, sizeof p);
    memset(&d, 0, sizeof d);
    d.sync = 1;
    tc_sim_build_matmul32(&p, &d);
    report("32x32 matmul, FFMA (cycles, slowest block)", (double)worst, (double)sim_cycles(&p, 0, 0));
    d.tensor_cores = 1;
    tc_sim_build_matmul32(&p, &d);
    report("32x32 matmul, Tensor Cores (cycles)", (double)tc_cycles, (double)sim_cycles(&p, 0, 0));
    return 0;
}

enum { GLOBAL, SHARED, FFMA, MMA, MATMUL, UNITS, N_PARTS };
static const char *const PART_NAMES[] = { "global", "shared", "ffma", "mma", "matmul", "units" };
static_assert(COUNT_OF(PART_NAMES) == N_PARTS, "one name per part");

int main(int argc, char **argv) {
    const int pick = parse_args(argc, argv, "cycles [PART]", PART_NAMES, N_PARTS);
    cudaDeviceProp prop;
    if (!gpu_sm("cycles", 80, &prop)) return EXIT_NO_GPU;
    g_gpu = tc_gpu_nearest(prop.major * 10 + prop.minor);
    g_prof = &g_gpu->profile;
    printf("cycles: %s (sm_%d%d, %d SMs), compared with the simulator's %s profile\n", prop.name, prop.major, prop.minor,
           prop.multiProcessorCount, g_gpu->name);
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(long long)));
    CUDA_CHECK(cudaMalloc(&d_usink, 32 * sizeof(unsigned)));
    CUDA_CHECK(cudaMalloc(&d_fsink, 32 * sizeof(float)));
    if (selected(pick, MATMUL)) {
        printf("32x32 matmul, validated against the CPU, then its cycles:\n");
        int bad = bench_matmul();
        if (bad) { printf("cycles: %d matmul mismatches; nothing measured\n", bad); return EXIT_MISMATCH; }
    }
    printf("latencies and intervals:\n");
    if (selected(pick, GLOBAL)) bench_global();
    if (selected(pick, SHARED)) bench_shared();
    if (selected(pick, FFMA)) bench_ffma();
    if (selected(pick, MMA)) {
        bench_mma_kind<TC_MMA_M8N8K4_F16>();
        bench_mma_kind<TC_MMA_M16N8K8_F16>();
        bench_mma_kind<TC_MMA_M16N8K16_F16>();
        bench_mma_kind<TC_MMA_M16N8K16_BF16>();
        bench_mma_kind<TC_MMA_M16N8K8_TF32>();
        /* FP8 mma needs sm_89 code, which an sm_80 build run on an sm_89 GPU lacks */
        cudaFuncAttributes attr;
        CUDA_CHECK(cudaFuncGetAttributes(&attr, mma_kernel<TC_MMA_M16N8K32_E4M3, 1>));
        if (attr.binaryVersion >= 89) bench_mma_kind<TC_MMA_M16N8K32_E4M3>();
    }
    if (selected(pick, UNITS)) bench_units();
    printf("ratio = measured / simulated. clock64() adds a few cycles per timed region;\n"
           "the dependent chains divide it over hundreds of operations.\n");
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_usink));
    CUDA_CHECK(cudaFree(d_fsink));
    return EXIT_OK;
}
