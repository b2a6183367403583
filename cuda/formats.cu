/* formats.cu - every conversion of tensorcore.h section 1 against the GPU's
   own cvt instructions, over all 2^32 fp32 inputs, bit for bit.

   Compile (from the repository root; make cuda builds it for sm_80 and sm_90):
     nvcc -std=c++17 -O3 -arch=sm_80 -I. -Isupport cuda/formats.cu -o formats
   Run:  ./formats [PART]     (make gpu-check runs build/cuda/formats)
     PART  sweep (every conversion over all 2^32 inputs), widen, or one
           timed kernel, bf16_cvt or bf16_header (validated on its input,
           then timed with the copy it is measured against), e.g.
           ncu ./formats bf16_cvt; default: all of them

   What it shows:
   - For each conversion: the hardware result (cvt.rn/rz/rm/rp.f16.f32,
     cvt.rn/rz(.rm/.rp on sm_90).bf16.f32, cvt.rna.tf32.f32, sm_90's
     cvt.rn/rz.tf32.f32, sm_89+'s cvt.rn.satfinite.e4m3x2/e5m2x2.f32, and the
     widening cvt.f32.f16 / bf16 / FP8) compared with the header's function
     called from device code (TC_HOST_DEVICE) and with the same function run
     on the CPU. The first mismatches are printed in hex. A conversion runs
     where the GPU and the code built for it have it (sm_90 for bf16
     rd/ru and tf32 rn/rz, sm_89 for FP8).
   - This settles what docs/REFERENCE.md marks unconfirmed: cvt.rna.tf32.f32 on NaN
     (the header assumes 0x7FFFE000) and whether widening keeps NaN payloads
     (the header follows CUDA's host code: canonical 0x7FFFFFFF).
   - Then fp32 -> bf16 RN over 1 GiB of random bit patterns, hardware cvt
     and the header's code: each kernel's output is checked bit for bit
     against the header on the CPU, and only if everything matched, timed
     with benchmark_ms (common.cuh: warm-up, L2 flushed, median of 5) as a
     fraction of a device-to-device copy of the same fp32 array.
   Exit: 0 all equal, 1 any mismatch, 2 no suitable GPU (sm_80 or newer),
   3 usage error. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "common.cuh"

/* ------------------------------------------------ the conversions, one table */

enum Conv {
    FP16_RN, FP16_RZ, FP16_RD, FP16_RU,
    BF16_RN, BF16_RZ, BF16_RD, BF16_RU,
    TF32_RNA, TF32_RN, TF32_RZ,
    E4M3_SAT, E5M2_SAT,
    N_CONV
};
struct ConvInfo { const char *name; int min_sm; };
static const ConvInfo conv_info[] = {
    { "fp16 rn  (cvt.rn.f16.f32)", 80 }, { "fp16 rz  (cvt.rz.f16.f32)", 80 },
    { "fp16 rd  (cvt.rm.f16.f32)", 80 }, { "fp16 ru  (cvt.rp.f16.f32)", 80 },
    { "bf16 rn  (cvt.rn.bf16.f32)", 80 }, { "bf16 rz  (cvt.rz.bf16.f32)", 80 },
    { "bf16 rd  (cvt.rm.bf16.f32, sm_90)", 90 }, { "bf16 ru  (cvt.rp.bf16.f32, sm_90)", 90 },
    { "tf32 rna (cvt.rna.tf32.f32)", 80 }, { "tf32 rn  (cvt.rn.tf32.f32, sm_90)", 90 },
    { "tf32 rz  (cvt.rz.tf32.f32, sm_90)", 90 },
    { "e4m3 rn.satfinite (cvt.rn.satfinite.e4m3x2.f32)", 89 },
    { "e5m2 rn.satfinite (cvt.rn.satfinite.e5m2x2.f32)", 89 },
};
static_assert(sizeof conv_info / sizeof conv_info[0] == N_CONV, "one row per conversion");

/* CPU reference and device reference: the header's own functions. */
TC_HOST_DEVICE static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }

TC_HOST_DEVICE static uint32_t header_convert(int k, float x) {
    switch (k) {
    case FP16_RN: return tc_fp16_from_f32(x, TC_RN);
    case FP16_RZ: return tc_fp16_from_f32(x, TC_RZ);
    case FP16_RD: return tc_fp16_from_f32(x, TC_RD);
    case FP16_RU: return tc_fp16_from_f32(x, TC_RU);
    case BF16_RN: return tc_bf16_from_f32(x, TC_RN);
    case BF16_RZ: return tc_bf16_from_f32(x, TC_RZ);
    case BF16_RD: return tc_bf16_from_f32(x, TC_RD);
    case BF16_RU: return tc_bf16_from_f32(x, TC_RU);
    case TF32_RNA: return f2u(tc_tf32_from_f32(x, TC_RNA));
    case TF32_RN: return f2u(tc_tf32_from_f32(x, TC_RN));
    case TF32_RZ: return f2u(tc_tf32_from_f32(x, TC_RZ));
    case E4M3_SAT: return tc_e4m3_from_f32(x, TC_RN | TC_SATFINITE);
    default: return tc_e5m2_from_f32(x, TC_RN | TC_SATFINITE);
    }
}

/* ------------------------------------------------------------- GPU kernels */

__device__ static uint32_t hw_convert(int k, float x) {
    uint32_t r = 0;
    switch (k) {
    case FP16_RN: return __half_as_ushort(__float2half_rn(x));
    case FP16_RZ: return __half_as_ushort(__float2half_rz(x));
    case FP16_RD: return __half_as_ushort(__float2half_rd(x));
    case FP16_RU: return __half_as_ushort(__float2half_ru(x));
    case BF16_RN: return __bfloat16_as_ushort(__float2bfloat16_rn(x));
    case BF16_RZ: return __bfloat16_as_ushort(__float2bfloat16_rz(x));
    case BF16_RD: return __bfloat16_as_ushort(__float2bfloat16_rd(x));
    case BF16_RU: return __bfloat16_as_ushort(__float2bfloat16_ru(x));
    case TF32_RNA: asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x)); return r;
#if __CUDA_ARCH__ >= 900
    case TF32_RN: asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(r) : "f"(x)); return r;
    case TF32_RZ: asm("cvt.rz.tf32.f32 %0, %1;" : "=r"(r) : "f"(x)); return r;
#endif
#if __CUDA_ARCH__ >= 890
    case E4M3_SAT: return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3);
    case E5M2_SAT: return __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E5M2);
#endif
    default: return 0xDEADBEEFu;   /* not available on this architecture: skipped by the host */
    }
}

struct Mismatch { uint32_t input, got, want; };
enum { MAX_SHOWN = 8 };

/* For inputs first..first+n-1: store the hardware result, and compare it
   with the header's function run on the device. */
__global__ void convert_all(uint32_t first, uint32_t n, uint32_t *hw_out, unsigned long long *dev_mismatch,
                            Mismatch *dev_first, const int *enabled) {
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        uint32_t u = first + i;
        float x;
        memcpy(&x, &u, sizeof x);
        for (int k = 0; k < N_CONV; k++) {
            if (!enabled[k]) continue;
            uint32_t hw = hw_convert(k, x), ref = header_convert(k, x);
            hw_out[(size_t)k * n + i] = hw;
            if (hw != ref) {
                unsigned long long slot = atomicAdd(&dev_mismatch[k], 1ull);
                if (slot < MAX_SHOWN) dev_first[k * MAX_SHOWN + slot] = Mismatch{ u, hw, ref };
            }
        }
    }
}

/* Widening: every fp16, bf16 and FP8 pattern through the hardware. */
__global__ void widen_all(uint32_t *fp16, uint32_t *bf16, uint32_t *e4m3, uint32_t *e5m2) {
    uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= 65536) return;
    fp16[v] = f2u(__half2float(__ushort_as_half((unsigned short)v)));
    bf16[v] = f2u(__bfloat162float(__ushort_as_bfloat16((unsigned short)v)));
    if (v < 256) {
        e4m3[v] = f2u(__half2float(__half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)v, __NV_E4M3))));
        e5m2[v] = f2u(__half2float(__half(__nv_cvt_fp8_to_halfraw((__nv_fp8_storage_t)v, __NV_E5M2))));
    }
}

__global__ void bf16_hw_kernel(const float *in, __nv_bfloat16 *out, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = __float2bfloat16_rn(in[i]);
}

__global__ void bf16_header_kernel(const float *in, uint16_t *out, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = tc_bf16_from_f32(in[i], TC_RN);
}

/* ------------------------------------------------------------------ launcher */

static int sm_count;

static void launch_convert(uint32_t first, uint32_t n, uint32_t *hw, unsigned long long *mm, Mismatch *fm, const int *en) {
    convert_all<<<sm_count * 8, 256>>>(first, n, hw, mm, fm, en);
    CUDA_CHECK(cudaGetLastError());
}

/* ------------------------------------------------------------------ parts */

/* Every conversion over all 2^32 inputs: hardware against the header on
   the GPU and on the CPU. Returns the mismatches. */
static unsigned long long sweep(int sm) {
    /* the code that runs is built for binaryVersion, which may be older
       than the GPU (sm_80 code on an sm_89): its cvt are the ones tested */
    cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(&attr, convert_all));
    int code_sm = std::min(sm, attr.binaryVersion);
    printf("sweep: all 2^32 fp32 inputs, code built for sm_%d\n", code_sm);
    int enabled[N_CONV];
    for (int k = 0; k < N_CONV; k++) enabled[k] = code_sm >= conv_info[k].min_sm;

    const uint32_t chunk = 1u << 26;
    uint32_t *d_hw;
    unsigned long long *d_mm;
    Mismatch *d_first;
    int *d_enabled;
    CUDA_CHECK(cudaMalloc(&d_hw, (size_t)N_CONV * chunk * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_mm, N_CONV * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_first, N_CONV * MAX_SHOWN * sizeof(Mismatch)));
    CUDA_CHECK(cudaMalloc(&d_enabled, sizeof enabled));
    CUDA_CHECK(cudaMemcpy(d_enabled, enabled, sizeof enabled, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_mm, 0, N_CONV * sizeof(unsigned long long)));
    std::vector<uint32_t> hw((size_t)N_CONV * chunk);

    /* CPU side: the same header functions, compiled for the host. */
    std::vector<std::atomic<unsigned long long>> cpu_mm(N_CONV);
    std::vector<std::vector<Mismatch>> cpu_first(N_CONV);
    for (auto &c : cpu_mm) c = 0;
    unsigned nthreads = std::thread::hardware_concurrency();
    if (nthreads < 1) nthreads = 1;

    for (uint64_t first = 0; first < (1ull << 32); first += chunk) {
        launch_convert((uint32_t)first, chunk, d_hw, d_mm, d_first, d_enabled);
        CUDA_CHECK(cudaMemcpy(hw.data(), d_hw, hw.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < nthreads; t++)
            pool.emplace_back([&, t] {
                std::vector<unsigned long long> local(N_CONV, 0);
                for (uint32_t i = t; i < chunk; i += nthreads) {
                    uint32_t u = (uint32_t)first + i;
                    float x;
                    memcpy(&x, &u, sizeof x);
                    for (int k = 0; k < N_CONV; k++) {
                        if (!enabled[k]) continue;
                        uint32_t got = hw[(size_t)k * chunk + i], want = header_convert(k, x);
                        if (got != want) {
                            if (cpu_mm[k].fetch_add(1) < MAX_SHOWN) {
                                static std::mutex lock;
                                std::lock_guard<std::mutex> g(lock);
                                cpu_first[k].push_back(Mismatch{ u, got, want });
                            }
                        }
                    }
                }
            });
        for (auto &th : pool) th.join();
        printf("  %3d%%\n", (int)((first + chunk) * 100 >> 32));
        fflush(stdout);
    }

    unsigned long long dev_mm[N_CONV];
    Mismatch dev_first[N_CONV * MAX_SHOWN];
    CUDA_CHECK(cudaMemcpy(dev_mm, d_mm, sizeof dev_mm, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(dev_first, d_first, sizeof dev_first, cudaMemcpyDeviceToHost));
    unsigned long long total = 0;
    printf("%-50s %16s %16s\n", "conversion (hardware vs tensorcore.h)", "vs header (GPU)", "vs header (CPU)");
    for (int k = 0; k < N_CONV; k++) {
        if (!enabled[k]) { printf("%-50s %16s %16s\n", conv_info[k].name, "n/a on this GPU", ""); continue; }
        printf("%-50s %16llu %16llu\n", conv_info[k].name, dev_mm[k], (unsigned long long)cpu_mm[k]);
        total += dev_mm[k] + cpu_mm[k];
        for (unsigned long long j = 0; j < dev_mm[k] && j < MAX_SHOWN; j++)
            printf("    input 0x%08x (%.9g): hardware 0x%x, header 0x%x\n", dev_first[k * MAX_SHOWN + j].input,
                   (double)tc_decode(TC_FP32, dev_first[k * MAX_SHOWN + j].input), dev_first[k * MAX_SHOWN + j].got,
                   dev_first[k * MAX_SHOWN + j].want);
    }
    CUDA_CHECK(cudaFree(d_hw));
    CUDA_CHECK(cudaFree(d_mm));
    CUDA_CHECK(cudaFree(d_first));
    CUDA_CHECK(cudaFree(d_enabled));
    return total;
}

/* Every fp16, bf16 and FP8 pattern widened to fp32 by the hardware against
   the header. Returns the mismatches. */
static unsigned long long widen(void) {
    unsigned long long total = 0;
    uint32_t *d_w;
    CUDA_CHECK(cudaMalloc(&d_w, 4 * 65536 * sizeof(uint32_t)));
    widen_all<<<256, 256>>>(d_w, d_w + 65536, d_w + 2 * 65536, d_w + 3 * 65536);
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint32_t> w(4 * 65536);
    CUDA_CHECK(cudaMemcpy(w.data(), d_w, w.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    const char *wname[4] = { "fp16 -> fp32 (cvt.f32.f16)", "bf16 -> fp32", "e4m3 -> fp32 (via f16)", "e5m2 -> fp32 (via f16)" };
    printf("widening, every input pattern (index = the input's bits):\n");
    for (int j = 0; j < 4; j++) {
        uint32_t count = j < 2 ? 65536 : 256;
        std::vector<float> got(count), want(count);
        unsigned long long bad_nan_only = 0;
        for (uint32_t v = 0; v < count; v++) {
            want[v] = j == 0 ? tc_fp16_to_f32((uint16_t)v) : j == 1 ? tc_bf16_to_f32((uint16_t)v)
                    : j == 2 ? tc_e4m3_to_f32((uint8_t)v) : tc_e5m2_to_f32((uint8_t)v);
            uint32_t u = w[(size_t)j * 65536 + v];
            memcpy(&got[v], &u, sizeof u);
            bad_nan_only += want[v] != want[v] && got[v] != got[v] && u != f2u(want[v]);
        }
        ValidateOptions opt;
        opt.show = 4;
        size_t bad = validate(wname[j], got, want, opt);
        if (bad) printf("    of which NaN payload/sign only: %llu\n", bad_nan_only);
        total += bad;
    }
    CUDA_CHECK(cudaFree(d_w));
    return total;
}

/* fp32 -> bf16 RN over 2^28 random fp32 patterns (1 GiB): the hardware
   kernel and/or the header's, each checked against the header on the CPU,
   then (if both matched) timed against a device-to-device copy. Returns
   the mismatches. */
static size_t bf16_timing(bool hw, bool header) {
    const size_t n = (size_t)1 << 28;
    std::vector<float> in(n);
    std::vector<uint16_t> want(n), got(n);
    rng_seed(0xB16ull);
    for (size_t i = 0; i < n; i++) { uint32_t u = rand32(); memcpy(&in[i], &u, sizeof u); }
    for (size_t i = 0; i < n; i++) want[i] = tc_bf16_from_f32(in[i], TC_RN);
    float *d_in, *d_copy;
    uint16_t *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_copy, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(uint16_t)));
    CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    auto run_hw = [&] { bf16_hw_kernel<<<sm_count * 8, 256>>>(d_in, (__nv_bfloat16 *)d_out, n); };
    auto run_header = [&] { bf16_header_kernel<<<sm_count * 8, 256>>>(d_in, d_out, n); };
    printf("\nfp32 -> bf16 RN on 2^28 random fp32 patterns, against tc_bf16_from_f32 on the CPU:\n");
    size_t bad = 0;
    for (int which = 0; which < 2; which++) {
        if (!(which == 0 ? hw : header)) continue;
        CUDA_CHECK(cudaMemset(d_out, 0xFF, n * sizeof(uint16_t)));
        if (which == 0) run_hw(); else run_header();
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(got.data(), d_out, n * sizeof(uint16_t), cudaMemcpyDeviceToHost));
        bad += validate(which == 0 ? "hardware cvt" : "tensorcore.h", got, want);
    }
    if (!bad) {
        double copy = benchmark_ms(5, [&] {
            CUDA_CHECK(cudaMemcpyAsync(d_copy, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice));
        });
        printf("timing, 2^28 fp32 values (1 GiB), median of 5:\n");
        printf("  D2D copy of the fp32 array     %8.3f ms  %7.1f GB/s (read + write)\n", copy, 2.0 * n * 4 / copy * 1e-6);
        if (hw) {
            double ms = benchmark_ms(5, run_hw);
            printf("  fp32 -> bf16 RN, hardware cvt  %8.3f ms  %5.2fx the copy's time\n", ms, ms / copy);
        }
        if (header) {
            double ms = benchmark_ms(5, run_header);
            printf("  fp32 -> bf16 RN, tensorcore.h  %8.3f ms  %5.2fx the copy's time\n", ms, ms / copy);
        }
    }
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_copy));
    CUDA_CHECK(cudaFree(d_out));
    return bad;
}

/* ---------------------------------------------------------------------- main */

enum { SWEEP, WIDEN, BF16_CVT, BF16_HEADER, N_PARTS };
static const char *const PART_NAMES[] = { "sweep", "widen", "bf16_cvt", "bf16_header" };
static_assert(COUNT_OF(PART_NAMES) == N_PARTS, "one name per part");

int main(int argc, char **argv) {
    const int pick = parse_args(argc, argv, "formats [PART]", PART_NAMES, N_PARTS);
    cudaDeviceProp prop;
    int sm = gpu_sm("formats", 80, &prop);
    if (!sm) return EXIT_NO_GPU;
    sm_count = prop.multiProcessorCount;
    printf("formats: %s (sm_%d)\n", prop.name, sm);
    unsigned long long total = 0;
    if (selected(pick, SWEEP)) total += sweep(sm);
    if (selected(pick, WIDEN)) total += widen();
    if (total) {
        printf("\nformats: MISMATCH (%llu); not timing\n", total);
        return EXIT_MISMATCH;
    }
    if (selected(pick, BF16_CVT) || selected(pick, BF16_HEADER))
        total += bf16_timing(selected(pick, BF16_CVT), selected(pick, BF16_HEADER));
    printf("\nformats: %s (%llu mismatches)\n", total ? "MISMATCH" : "all conversions bit-exact", total);
    return total ? EXIT_MISMATCH : EXIT_OK;
}
