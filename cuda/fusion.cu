/* fusion.cu - lesson 09 on the GPU: an elementwise chain unfused and fused,
   and an optimizer update per tensor against one multi-tensor launch, timed
   and printed beside tensorcore.h's simulated predictions.

   Compile (from the repository root; make cuda builds it for sm_80 and sm_90):
     nvcc -std=c++17 -O3 -arch=sm_80 -I. -Isupport cuda/fusion.cu -o fusion
   Run:  ./fusion [VERSION]     (make gpu-check runs build/cuda/fusion)
     VERSION  unfused, bn_relu (BN+ReLU fused), fused, per_tensor,
              multi_tensor or launch: that version alone, validated then
              timed (e.g. ncu ./fusion unfused); default: all of them

   What it shows:
   1. The tail of a BatchNorm layer over ResNet-50 stage 1 at batch 256
      (51.4M fp32 elements): scale, add bias, ReLU, residual add+ReLU as four
      kernels, as two (BN+ReLU fused, then add+ReLU) and as one. All three
      must equal the CPU reference (reference_bn_tail) bit for bit: every kernel does the same
      fp32 operations in the same order (__fmul_rn / __fadd_rn, so nvcc cannot
      contract a multiply and an add into an FMA).
   2. SGD with momentum (v = mu v + g; p = p - lr v) over ResNet-50's 161
      parameter tensors: one launch per tensor against one multi-tensor launch
      (a chunk table maps blocks to tensors, as apex's multi_tensor_apply
      does). Parameters and momenta must match the CPU reference
      (reference_sgd) bit for bit.
   3. Back-to-back launches of an empty kernel: the launch overhead the
      profiles assume (launch_overhead_us).
   Every sequence is validated first (a mismatch stops the program before
   any timing), then timed with benchmark_ms (common.cuh: CUDA events after
   a warm-up run, L2 flushed before each run, median of 5), beside the
   simulator's prediction for the nearest profile (tc_gpu_nearest: sm_80
   a100, sm_86 rtx3090, sm_89 rtx4090, sm_90 h100, sm_100 b200, sm_120
   rtx5090) with the ratio measured / predicted.
   Exit: 0 all equal, 1 any mismatch, 2 no suitable GPU (sm_80 or newer),
   3 usage error. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "common.cuh"

#define CHANNELS 64
#define THREADS 256
#define CHUNK 65536   /* elements per block in the multi-tensor kernel */

static const float SCALE = 0.7f, LR = 0.1f, MU = 0.9f;

__host__ __device__ static float relu(float v) { return v > 0.0f ? v : 0.0f; }

/* ------------------------------------------------------------ CPU reference */

/* The BatchNorm tail: scale, bias, ReLU, residual add and ReLU, one fp32
   rounding per operation, in the kernels' order. */
static std::vector<float> reference_bn_tail(const std::vector<float> &x, const std::vector<float> &b,
                                            const std::vector<float> &r) {
    std::vector<float> y(x.size());
    for (size_t i = 0; i < x.size(); i++) {
        float t = x[i] * SCALE;
        t = t + b[i % CHANNELS];
        y[i] = relu(relu(t) + r[i]);
    }
    return y;
}

/* One SGD-with-momentum step: v = mu v + g, p = p - lr v. */
static void reference_sgd(const std::vector<float> &p, const std::vector<float> &v, const std::vector<float> &g,
                          std::vector<float> *p_out, std::vector<float> *v_out) {
    p_out->resize(p.size());
    v_out->resize(p.size());
    for (size_t i = 0; i < p.size(); i++) {
        (*v_out)[i] = MU * v[i] + g[i];
        (*p_out)[i] = p[i] - LR * (*v_out)[i];
    }
}

/* ------------------------------------------------------------ kernels */

#define GRID_STRIDE(i, n) for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < (n); i += (long)gridDim.x * blockDim.x)

__global__ void scale_k(float *y, const float *x, float s, long n) { GRID_STRIDE(i, n) y[i] = __fmul_rn(x[i], s); }
__global__ void bias_k(float *y, const float *x, const float *b, long n) { GRID_STRIDE(i, n) y[i] = __fadd_rn(x[i], b[i % CHANNELS]); }
__global__ void relu_k(float *y, const float *x, long n) { GRID_STRIDE(i, n) y[i] = relu(x[i]); }
__global__ void add_relu_k(float *y, const float *x, const float *r, long n) { GRID_STRIDE(i, n) y[i] = relu(__fadd_rn(x[i], r[i])); }
__global__ void bn_relu_k(float *y, const float *x, const float *b, float s, long n) {
    GRID_STRIDE(i, n) y[i] = relu(__fadd_rn(__fmul_rn(x[i], s), b[i % CHANNELS]));
}
__global__ void bn_add_relu_k(float *y, const float *x, const float *r, const float *b, float s, long n) {
    GRID_STRIDE(i, n) y[i] = relu(__fadd_rn(relu(__fadd_rn(__fmul_rn(x[i], s), b[i % CHANNELS])), r[i]));
}

__device__ static void sgd_one(float *p, float *v, const float *g, long i, float lr, float mu) {
    float m = __fadd_rn(__fmul_rn(mu, v[i]), g[i]);
    v[i] = m;
    p[i] = __fsub_rn(p[i], __fmul_rn(lr, m));
}
__global__ void sgd_k(float *p, float *v, const float *g, long n, float lr, float mu) { GRID_STRIDE(i, n) sgd_one(p, v, g, i, lr, mu); }

/* Block b updates elements [chunk_start[b], +CHUNK) of tensor chunk_tensor[b] (offsets into one slab). */
__global__ void sgd_multi_k(float *p, float *v, const float *g, const long *offset, const long *size, const int *chunk_tensor,
                            const long *chunk_start, float lr, float mu) {
    const int t = chunk_tensor[blockIdx.x];
    const long end = chunk_start[blockIdx.x] + CHUNK < size[t] ? chunk_start[blockIdx.x] + CHUNK : size[t];
    for (long i = chunk_start[blockIdx.x] + threadIdx.x; i < end; i += blockDim.x) sgd_one(p, v, g, offset[t] + i, lr, mu);
}

__global__ void empty_k() {}

/* ------------------------------------------------------------ host side */

/* ResNet-50's parameter tensors, as in lessons/09_fusion.c: conv1 + BatchNorm,
   bottleneck stages (3, 4, 6, 3 blocks of widths 64..512; three convolutions
   with BatchNorm scale and bias each, plus a downsampling one in each stage's
   first block), fc weight and bias. */
static std::vector<long> resnet50() {
    std::vector<long> t = { 7 * 7 * 3 * 64, 64, 64 };
    const int blocks[4] = { 3, 4, 6, 3 };
    long in = 64;
    for (int s = 0; s < 4; s++) {
        const long w = 64L << s;
        for (int b = 0; b < blocks[s]; b++) {
            const long conv[4] = { in * w, 9 * w * w, 4 * w * w, in * 4 * w }, bn[4] = { w, w, 4 * w, 4 * w };
            for (int j = 0; j < (b == 0 ? 4 : 3); j++) t.insert(t.end(), { conv[j], bn[j], bn[j] });
            in = 4 * w;
        }
    }
    t.insert(t.end(), { 2048L * 1000, 1000 });
    return t;
}

static tc_sim_prediction predict(const tc_sim_profile *g, const std::vector<long> &sizes, int in, int out, int ops) {
    tc_sim_prediction sum;
    memset(&sum, 0, sizeof sum);
    for (long n : sizes) {
        tc_sim_elementwise_desc d = { n, in, out, ops };
        tc_sim_prediction k;
        tc_status s = tc_sim_predict_elementwise(g, &d, &k);
        if (s != TC_OK) { fprintf(stderr, "fusion: prediction: %s\n", tc_status_string(s)); exit(EXIT_MISMATCH); }
        tc_sim_prediction_add(&sum, &k);
    }
    return sum;
}

static void row(const char *what, double measured_us, const tc_sim_prediction &p) {
    printf("  %-28s %6lld launches %8.1f MB  measured %9.1f us (%6.0f GB/s)  predicted %9.1f us  ratio %.2f\n", what,
           (long long)p.launches, p.dram_bytes / 1e6, measured_us, p.dram_bytes / (measured_us * 1e3), p.seconds * 1e6,
           measured_us / (p.seconds * 1e6));
}

/* Device buffers: n elements, or a copy of a host vector; freed at exit. */
static std::vector<void *> allocations;
template <class T> static T *dev(size_t n) {
    T *d;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(T)));
    allocations.push_back(d);
    return d;
}
template <class T> static T *dev(const std::vector<T> &h) {
    T *d = dev<T>(h.size());
    CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

/* The versions, in order; the command line picks one by name. */
enum { UNFUSED, BN_RELU, FUSED, PER_TENSOR, MULTI_TENSOR, LAUNCH, N_VERSIONS };
static const char *const VERSION_NAMES[] = { "unfused", "bn_relu", "fused", "per_tensor", "multi_tensor", "launch" };
static_assert(COUNT_OF(VERSION_NAMES) == N_VERSIONS, "one name per version");

int main(int argc, char **argv) {
    const int pick = parse_args(argc, argv, "fusion [VERSION]", VERSION_NAMES, N_VERSIONS);
    cudaDeviceProp prop;
    const int sm = gpu_sm("fusion", 80, &prop);
    if (!sm) return EXIT_NO_GPU;
    const tc_gpu *gpu = tc_gpu_nearest(sm);
    const tc_sim_profile *g = &gpu->profile;
    const int grid = prop.multiProcessorCount * 8;
    printf("%s (sm_%d, %d SMs); predictions from profile %s (%.0f GB/s, %.1f us per launch)\n", prop.name, sm,
           prop.multiProcessorCount, gpu->name, g->dram_bytes_per_cycle * g->clock_ghz, g->launch_overhead_us);

    /* ---- 1. BatchNorm tail */
    if (selected(pick, UNFUSED) || selected(pick, BN_RELU) || selected(pick, FUSED)) {
        const long n = 256L * 64 * 56 * 56;
        std::vector<float> hx(n), hr(n), hb(CHANNELS), got(n);
        rng_seed(12345u);
        for (auto &b : hb) b = 0.25f * rand_sym();
        for (long i = 0; i < n; i++) { hx[i] = 4.0f * rand_sym(); hr[i] = rand_sym(); }
        const std::vector<float> want = reference_bn_tail(hx, hb, hr);
        float *x = dev(hx), *r = dev(hr), *b = dev(hb), *t1 = dev<float>(n), *t2 = dev<float>(n), *out = dev<float>(n);
        auto four = [&] {
            scale_k<<<grid, THREADS>>>(t1, x, SCALE, n);
            bias_k<<<grid, THREADS>>>(t2, t1, b, n);
            relu_k<<<grid, THREADS>>>(t1, t2, n);
            add_relu_k<<<grid, THREADS>>>(out, t1, r, n);
        };
        auto two = [&] {
            bn_relu_k<<<grid, THREADS>>>(t1, x, b, SCALE, n);
            add_relu_k<<<grid, THREADS>>>(out, t1, r, n);
        };
        auto one = [&] { bn_add_relu_k<<<grid, THREADS>>>(out, x, r, b, SCALE, n); };
        const std::function<void()> versions[3] = { four, two, one };
        const char *labels[3] = { "unfused (4 kernels)", "BN+ReLU fused, add+ReLU", "BN+add+ReLU fused" };
        tc_sim_prediction pred[3], k;
        pred[0] = predict(g, { n, n, n }, 1, 1, 1);
        k = predict(g, { n }, 2, 1, 2);
        tc_sim_prediction_add(&pred[0], &k);
        pred[1] = predict(g, { n }, 1, 1, 3);
        tc_sim_prediction_add(&pred[1], &k);
        pred[2] = predict(g, { n }, 2, 1, 5);
        printf("\n1. scale, bias, ReLU, residual add+ReLU over %ld fp32 elements\n", n);
        size_t bad = 0;
        for (int v = 0; v < 3; v++) {
            if (!selected(pick, UNFUSED + v)) continue;
            CUDA_CHECK(cudaMemset(out, 0xFF, n * sizeof(float)));
            versions[v]();
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
            bad += validate(labels[v], got, want);
        }
        if (bad) { printf("fusion: MISMATCH; not timing\n"); return EXIT_MISMATCH; }
        for (int v = 0; v < 3; v++)
            if (selected(pick, UNFUSED + v)) row(labels[v], 1e3 * benchmark_ms(5, versions[v]), pred[v]);
    }

    /* ---- 2. SGD with momentum over ResNet-50's tensors */
    if (selected(pick, PER_TENSOR) || selected(pick, MULTI_TENSOR)) {
        const std::vector<long> sizes = resnet50();
        const int nt = (int)sizes.size();
        std::vector<long> offset(nt), chunk_start;
        std::vector<int> chunk_tensor;
        long total = 0;
        for (int t = 0; t < nt; t++) {
            offset[t] = total;
            total += sizes[t];
            for (long c = 0; c < sizes[t]; c += CHUNK) { chunk_tensor.push_back(t); chunk_start.push_back(c); }
        }
        std::vector<float> hp(total), hv(total), hg(total), wp, wv, got(total);
        rng_seed(54321u);
        for (long i = 0; i < total; i++) { hp[i] = rand_sym(); hv[i] = 0.1f * rand_sym(); hg[i] = 0.01f * rand_sym(); }
        reference_sgd(hp, hv, hg, &wp, &wv);
        const int nchunks = (int)chunk_tensor.size();
        float *p = dev<float>(total), *mv = dev<float>(total), *gr = dev(hg);
        long *d_off = dev(offset), *d_size = dev(sizes), *d_cstart = dev(chunk_start);
        int *d_ct = dev(chunk_tensor);
        auto per_tensor = [&] {
            for (int t = 0; t < nt; t++) {
                const int blocks = (int)std::min<long>(grid, (sizes[t] + THREADS - 1) / THREADS);
                sgd_k<<<blocks, THREADS>>>(p + offset[t], mv + offset[t], gr + offset[t], sizes[t], LR, MU);
            }
        };
        auto multi = [&] { sgd_multi_k<<<nchunks, THREADS>>>(p, mv, gr, d_off, d_size, d_ct, d_cstart, LR, MU); };
        const std::function<void()> updates[2] = { per_tensor, multi };
        const char *ulabels[2] = { "SGD, one launch per tensor", "SGD, one multi-tensor launch" };
        tc_sim_prediction upred[2] = { predict(g, sizes, 3, 2, 2), predict(g, { total }, 3, 2, 2) };
        printf("\n2. SGD with momentum over ResNet-50's %d tensors (%ld parameters)\n", nt, total);
        size_t bad = 0;
        for (int v = 0; v < 2; v++) {
            if (!selected(pick, PER_TENSOR + v)) continue;
            CUDA_CHECK(cudaMemcpy(p, hp.data(), total * sizeof(float), cudaMemcpyHostToDevice));
            CUDA_CHECK(cudaMemcpy(mv, hv.data(), total * sizeof(float), cudaMemcpyHostToDevice));
            updates[v]();
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaMemcpy(got.data(), p, total * sizeof(float), cudaMemcpyDeviceToHost));
            bad += validate(ulabels[v], got, wp);
            CUDA_CHECK(cudaMemcpy(got.data(), mv, total * sizeof(float), cudaMemcpyDeviceToHost));
            bad += validate("momenta", got, wv);
        }
        if (bad) { printf("fusion: MISMATCH; not timing\n"); return EXIT_MISMATCH; }
        for (int v = 0; v < 2; v++)
            if (selected(pick, PER_TENSOR + v)) row(ulabels[v], 1e3 * benchmark_ms(5, updates[v]), upred[v]);
    }

    /* ---- 3. launch overhead: an empty kernel computes nothing to validate */
    if (selected(pick, LAUNCH)) {
        const int launches = 1000;
        const double us = 1e3 * benchmark_ms(5, [&] { for (int i = 0; i < launches; i++) empty_k<<<1, 32>>>(); });
        printf("\n3. %d empty kernels back to back: %.2f us per launch (profile %s assumes %.1f us)\n", launches,
               us / launches, gpu->name, g->launch_overhead_us);
    }

    for (void *a : allocations) CUDA_CHECK(cudaFree(a));
    printf("\nfusion: all results equal\n");
    return EXIT_OK;
}
