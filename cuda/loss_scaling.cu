/* loss_scaling.cu - the GPU half of section 3: the fused unscale-and-check
   kernel and the scale-update kernel, bit-exact against tensorcore.h.

   Compile (from the repository root; make cuda builds it for sm_80 and sm_90):
     nvcc -std=c++17 -O3 -arch=sm_80 -fmad=false -I. -Isupport cuda/loss_scaling.cu -o loss_scaling
   Run:  ./loss_scaling [PART]     (make gpu-check runs build/cuda/loss_scaling)
     PART  unscale (1, then the timing of 4), update (2) or training (3):
           that part alone, e.g. ncu ./loss_scaling unscale; default: all

   What it shows:
   1. unscale_check: one launch over many gradient tensors of mixed storage
      (fp32, fp16, bf16), like PyTorch's _amp_foreach_non_finite_check_and_unscale_:
      each block takes one chunk of one tensor (a chunk table built on the
      host, as multi_tensor_apply does), multiplies every value by inv_scale
      with the header's tc_unscale_* and raises found_inf on any Inf or NaN.
      Checked bit for bit against tc_unscale_arrays on random bit patterns,
      with and without planted Inf and NaN, for several scales.
   2. update_scale: one thread runs tc_scaler_update on a tc_scaler kept in
      device memory, like amp_update_scale_cuda_kernel. Each preset (PyTorch,
      TensorFlow, apex, Megatron, and a static scale) is driven through the same
      random overflow sequence on both sides; the scale trajectory and the
      status of every step must match.
   3. training: the training run of lessons/07_loss_scaling.c (support/mlp.h)
      on the GPU with real fp16/bf16 arithmetic - the BF16, FP16 and FP16 +
      dynamic scaling runs. Every product is mma.sync m16n8k16 (fp16/bf16
      in, fp32 out; one warp per 16x8 tile, K walked from 0 in steps of 16,
      dimensions zero-padded to the tile), activations and gradients are
      stored as __half/__nv_bfloat16, the master weights and the gradients
      they are updated with are fp32, and each step ends with kernels 1 and
      2 above: unscale_check over the four fp32 gradient tensors, an SGD
      kernel that skips the step on found_inf, update_scale. The scale
      lives on the device; the host only launches. The same runs on the CPU
      (mlp_train, every product through tc_gemm for this GPU's arch: sm_80/86/87
      TC_ARCH_A100, sm_90 TC_ARCH_H100) are the reference: the skipped-step
      sequence, the scale before every step, the update statuses and the
      final scaler state must match exactly (else exit 1); the per-step
      losses and the final fp32 weights are compared bit for bit and every
      difference is printed (they match only if the Tensor Core model of
      section 2 is exact for this GPU; cuda/mma.cu tests that directly).
      The shared elementwise math needs this file built with -fmad=false
      (Makefile: NVCC_FLAGS_loss_scaling).
   4. Then, if everything matched, the unscale pass is timed on 64 Mi
      gradient values with benchmark_ms (common.cuh: warm-up, L2 flushed,
      median of 10).
   Exit: 0 all match, 1 a mismatch or CUDA error, 2 no suitable GPU, 3 usage
   error. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <type_traits>
#include <vector>

#include "common.cuh"
#include "mlp.h"        /* support/mlp.h: the training run, shared with lesson 07 */

/* ------------------------------------------------------------ random input */

/* A gradient-like value: mostly small normals of random sign spread over
   many binades (so fp16 storage has subnormals and zeros too). */
static float random_grad(void) {
    uint32_t r = rand32();
    uint32_t exponent = 100u + (r % 40u);           /* 2^-27 .. 2^12 */
    return tc_decode(TC_FP32, (r & 0x80000000u) | (exponent << 23) | (rand32() & 0x7FFFFFu));
}

/* ------------------------------------------------------------ kernels */

enum { CHUNK = 65536, THREADS = 256 };

typedef struct {
    void *data;
    int dtype;      /* tc_dtype: TC_FP32, TC_FP16 or TC_BF16 */
    size_t count;
} TensorRef;

/* Block b works on chunk (b - first_chunk[t]) of tensor t, where
   first_chunk is the prefix sum of the tensors' chunk counts. With a
   scaler in device memory, inv_scale is taken from it (as PyTorch keeps
   inv_scale in a device tensor), so a training loop never waits for it. */
__global__ void unscale_check_kernel(const TensorRef *tensors, const int *first_chunk, int n_tensors,
                                     const tc_scaler *scaler, float inv_scale, int *found_inf) {
    int lo = 0, hi = n_tensors - 1;
    int b = (int)blockIdx.x;
    while (lo < hi) {               /* last tensor whose first chunk is <= b */
        int mid = (lo + hi + 1) / 2;
        if (first_chunk[mid] <= b) lo = mid; else hi = mid - 1;
    }
    TensorRef t = tensors[lo];
    size_t begin = (size_t)(b - first_chunk[lo]) * CHUNK;
    size_t end = begin + CHUNK < t.count ? begin + CHUNK : t.count;
    int bad = 0;
    if (scaler) inv_scale = tc_scaler_inv_scale(scaler);
    for (size_t i = begin + threadIdx.x; i < end; i += blockDim.x) {
        if (t.dtype == TC_FP32) {
            float *g = (float *)t.data;
            bad |= !tc_is_finite_f32(g[i]);
            g[i] = tc_unscale_f32(g[i], inv_scale);
        } else {
            uint16_t *g = (uint16_t *)t.data;
            int fp16 = t.dtype == TC_FP16;
            uint16_t exp_mask = fp16 ? 0x7C00u : 0x7F80u;
            bad |= (g[i] & exp_mask) == exp_mask;
            g[i] = fp16 ? tc_unscale_fp16(g[i], inv_scale) : tc_unscale_bf16(g[i], inv_scale);
        }
    }
    /* PyTorch stores 1 unconditionally from every thread that saw one;
       a block-wide OR first keeps the stores to one per block. */
    if (__syncthreads_or(bad) && threadIdx.x == 0) *found_inf = 1;
}

/* amp_update_scale_cuda_kernel with the header's state machine; records
   the step's scale and status for the comparison. */
__global__ void update_scale_kernel(tc_scaler *s, const int *found_inf, int step, float *scales, int *statuses) {
    statuses[step] = (int)tc_scaler_update(s, found_inf[step]);
    scales[step] = s->scale;
}

/* ------------------------------------------------------------ launcher */

/* Holds device copies of a tensor list and its chunk table. */
struct DeviceTensors {
    TensorRef *refs = nullptr;
    int *first_chunk = nullptr;
    int n = 0, blocks = 0;
};

static DeviceTensors upload_tensor_table(const std::vector<TensorRef> &dev_refs) {
    DeviceTensors d;
    std::vector<int> first(dev_refs.size());
    int chunks = 0;
    for (size_t i = 0; i < dev_refs.size(); i++) {
        first[i] = chunks;
        chunks += (int)((dev_refs[i].count + CHUNK - 1) / CHUNK);
    }
    d.n = (int)dev_refs.size();
    d.blocks = chunks;
    CUDA_CHECK(cudaMalloc(&d.refs, dev_refs.size() * sizeof(TensorRef)));
    CUDA_CHECK(cudaMalloc(&d.first_chunk, first.size() * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d.refs, dev_refs.data(), dev_refs.size() * sizeof(TensorRef), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d.first_chunk, first.data(), first.size() * sizeof(int), cudaMemcpyHostToDevice));
    return d;
}

static void free_tensor_table(DeviceTensors *d) {
    CUDA_CHECK(cudaFree(d->refs));
    CUDA_CHECK(cudaFree(d->first_chunk));
}

/* found_inf must be zeroed by the caller, as GradScaler does per step.
   scaler (device memory) may be NULL: then inv_scale is used. */
static void unscale_check(const DeviceTensors &d, const tc_scaler *scaler, float inv_scale, int *found_inf) {
    if (d.blocks == 0) return;
    unscale_check_kernel<<<d.blocks, THREADS>>>(d.refs, d.first_chunk, d.n, scaler, inv_scale, found_inf);
    CUDA_CHECK(cudaGetLastError());
}

static size_t dtype_size(int dtype) { return dtype == TC_FP32 ? sizeof(float) : sizeof(uint16_t); }

/* ------------------------------------------------------------ checks */

/* One trial: tensors of the given sizes and storage, random values with
   `plant` Inf/NaN values at random places; GPU vs tc_unscale_arrays. */
static int check_unscale(const size_t *counts, const int *dtypes, int n, float inv_scale, int plant) {
    std::vector<std::vector<uint8_t> > host(n), back(n);
    std::vector<TensorRef> dev_refs(n);
    std::vector<tc_grad_array> cpu(n);
    int mismatches = 0, cpu_found = -1, gpu_found = 0, *d_found;
    for (int t = 0; t < n; t++) {
        size_t bytes = counts[t] * dtype_size(dtypes[t]);
        host[t].resize(bytes + 1);
        back[t].resize(bytes + 1);
        for (size_t i = 0; i < counts[t]; i++) {
            float g = random_grad();
            if (dtypes[t] == TC_FP32) memcpy(&host[t][i * 4], &g, 4);
            else {
                uint16_t h = dtypes[t] == TC_FP16 ? tc_fp16_from_f32(g, TC_RN) : tc_bf16_from_f32(g, TC_RN);
                memcpy(&host[t][i * 2], &h, 2);
            }
        }
        dev_refs[t].dtype = dtypes[t];
        dev_refs[t].count = counts[t];
        CUDA_CHECK(cudaMalloc(&dev_refs[t].data, bytes + 1));
    }
    for (int p = 0; p < plant; p++) {          /* +Inf, -Inf, NaN in turn */
        int t = (int)(rand32() % (uint32_t)n);
        if (counts[t] == 0) continue;
        size_t i = rand32() % counts[t];
        static const uint32_t f32_special[3] = { 0x7F800000u, 0xFF800000u, 0x7FC00000u };
        static const uint16_t f16_special[3] = { 0x7C00u, 0xFC00u, 0x7E00u };
        static const uint16_t bf16_special[3] = { 0x7F80u, 0xFF80u, 0x7FC0u };
        if (dtypes[t] == TC_FP32) memcpy(&host[t][i * 4], &f32_special[p % 3], 4);
        else memcpy(&host[t][i * 2], dtypes[t] == TC_FP16 ? &f16_special[p % 3] : &bf16_special[p % 3], 2);
    }
    for (int t = 0; t < n; t++)
        CUDA_CHECK(cudaMemcpy(dev_refs[t].data, host[t].data(), counts[t] * dtype_size(dtypes[t]), cudaMemcpyHostToDevice));
    DeviceTensors d = upload_tensor_table(dev_refs);
    CUDA_CHECK(cudaMalloc(&d_found, sizeof(int)));
    CUDA_CHECK(cudaMemset(d_found, 0, sizeof(int)));
    unscale_check(d, NULL, inv_scale, d_found);
    CUDA_CHECK(cudaMemcpy(&gpu_found, d_found, sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++) {
        cpu[t].dtype = (tc_dtype)dtypes[t];
        cpu[t].data = host[t].data();
        cpu[t].count = counts[t];
    }
    if (tc_unscale_arrays(cpu.data(), (size_t)n, inv_scale, &cpu_found) != TC_OK) {
        printf("  tc_unscale_arrays refused its input\n");
        return 1;
    }
    ValidateOptions opt;
    opt.show = 3;
    opt.summary = false;
    for (int t = 0; t < n; t++) {
        size_t bytes = counts[t] * dtype_size(dtypes[t]);
        char what[48];
        snprintf(what, sizeof what, "tensor %d (%s)", t, tc_format_of((tc_dtype)dtypes[t])->name);
        CUDA_CHECK(cudaMemcpy(back[t].data(), dev_refs[t].data, bytes, cudaMemcpyDeviceToHost));
        if (dtypes[t] == TC_FP32)
            mismatches += (int)validate(what, (const float *)back[t].data(), (const float *)host[t].data(), counts[t], opt);
        else
            mismatches += (int)validate(what, (const uint16_t *)back[t].data(), (const uint16_t *)host[t].data(), counts[t], opt);
        CUDA_CHECK(cudaFree(dev_refs[t].data));
    }
    if (gpu_found != cpu_found) {
        printf("  found_inf: GPU %d, CPU %d\n", gpu_found, cpu_found);
        mismatches++;
    }
    if (plant > 0 && cpu_found != 1) mismatches++;   /* the planted values must be seen */
    free_tensor_table(&d);
    CUDA_CHECK(cudaFree(d_found));
    return mismatches;
}

/* Drives a scaler through `steps` overflow flags on both sides. */
static int check_update(const char *name, const tc_scaler_desc *desc, const std::vector<int> &flags) {
    tc_scaler cpu, *d_s;
    int steps = (int)flags.size(), *d_flags, *d_status, mismatches = 0;
    float *d_scales;
    std::vector<float> scales(steps);
    std::vector<int> statuses(steps);
    if (tc_scaler_init(&cpu, desc) != TC_OK) { printf("  %s: init failed\n", name); return 1; }
    CUDA_CHECK(cudaMalloc(&d_s, sizeof cpu));
    CUDA_CHECK(cudaMalloc(&d_flags, steps * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_status, steps * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_scales, steps * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_s, &cpu, sizeof cpu, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_flags, flags.data(), steps * sizeof(int), cudaMemcpyHostToDevice));
    for (int i = 0; i < steps; i++) update_scale_kernel<<<1, 1>>>(d_s, d_flags, i, d_scales, d_status);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(scales.data(), d_scales, steps * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(statuses.data(), d_status, steps * sizeof(int), cudaMemcpyDeviceToHost));
    int warnings = 0;
    std::vector<float> cpu_scales(steps);
    std::vector<int> cpu_statuses(steps);
    for (int i = 0; i < steps; i++) {
        cpu_statuses[i] = (int)tc_scaler_update(&cpu, flags[i]);
        cpu_scales[i] = cpu.scale;
        warnings += cpu_statuses[i] != TC_OK;
    }
    ValidateOptions opt;
    opt.summary = false;
    mismatches += (int)validate("scale after step", scales, cpu_scales, opt);
    mismatches += (int)validate("status of step", statuses, cpu_statuses, opt);
    tc_scaler gpu_final;
    CUDA_CHECK(cudaMemcpy(&gpu_final, d_s, sizeof gpu_final, cudaMemcpyDeviceToHost));
    if (memcmp(&gpu_final, &cpu, sizeof cpu) != 0) { printf("  %s: final states differ\n", name); mismatches++; }
    printf("  %-22s %d steps, %lld skipped, %d warnings, final scale %g: %s\n", name, steps, (long long)cpu.skipped,
           warnings, (double)cpu.scale, mismatches ? "MISMATCH" : "bit-exact");
    CUDA_CHECK(cudaFree(d_s)); CUDA_CHECK(cudaFree(d_flags)); CUDA_CHECK(cudaFree(d_status)); CUDA_CHECK(cudaFree(d_scales));
    return mismatches;
}

/* ------------------------------------------------------------ training (part 3) */

/* 16-bit storage: the hardware's conversions (round to nearest even) and
   the bits an mma operand register holds. */
__device__ __forceinline__ float to_f32(__half h) { return __half2float(h); }
__device__ __forceinline__ float to_f32(__nv_bfloat16 h) { return __bfloat162float(h); }
__device__ __forceinline__ uint32_t bits16(__half h) { return __half_as_ushort(h); }
__device__ __forceinline__ uint32_t bits16(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }
template <typename T> __device__ T from_f32(float x);
template <> __device__ __forceinline__ __half from_f32<__half>(float x) { return __float2half_rn(x); }
template <> __device__ __forceinline__ __nv_bfloat16 from_f32<__nv_bfloat16>(float x) { return __float2bfloat16_rn(x); }

/* A matrix read in place, transposed or not: element (r, c) at p[r * rs + c * cs]. */
template <typename T> struct View {
    const T *p;
    int rs, cs;
};

/* D (M x N, row-major, stored in T) = A (M x K) * B (K x N) on the Tensor
   Cores. One warp per 16x8 tile of D; K walked from 0 in steps of 16 with
   the fp32 accumulator chained from 0, which is the order tc_gemm models;
   elements outside M, N or K are +0 (zero products, exact). The fragment
   layout is the header's (tc_mma_frag_coord); two 16-bit elements per
   register, element 2j in the low half of register j. */
template <typename T>
__global__ void mma_gemm_kernel(int M, int N, int K, View<T> A, View<T> B, T *D) {
    const tc_mma_instr s = std::is_same<T, __half>::value ? TC_MMA_M16N8K16_F16 : TC_MMA_M16N8K16_BF16;
    tc_mma_instr_info info;
    tc_mma_instr_get(s, &info);
    const int na = info.a_elems, nb = info.b_elems;
    int lane = (int)threadIdx.x, m0 = (int)blockIdx.x * 16, n0 = (int)blockIdx.y * 8, i, r, c;
    float acc[4] = { 0, 0, 0, 0 };
    for (int k0 = 0; k0 < K; k0 += 16) {
        uint32_t a[4] = { 0, 0, 0, 0 }, b[2] = { 0, 0 };
        for (i = 0; i < na; i++) {
            tc_mma_frag_coord(s, TC_FRAG_A, lane, i, &r, &c);
            r += m0; c += k0;
            if (r < M && c < K) a[i / 2] |= bits16(A.p[r * A.rs + c * A.cs]) << (16 * (i & 1));
        }
        for (i = 0; i < nb; i++) {
            tc_mma_frag_coord(s, TC_FRAG_B, lane, i, &r, &c);
            r += k0; c += n0;
            if (r < K && c < N) b[i / 2] |= bits16(B.p[r * B.rs + c * B.cs]) << (16 * (i & 1));
        }
        mma_m16n8k16<T>(acc, a, b);
    }
    for (i = 0; i < 4; i++) {
        tc_mma_frag_coord(s, TC_FRAG_C, lane, i, &r, &c);
        r += m0; c += n0;
        if (r < M && c < N) D[r * N + c] = from_f32<T>(acc[i]);
    }
}

enum { IN = MLP_IN, HID = MLP_HID, OUT = MLP_OUT, BATCH = MLP_BATCH, STEPS = MLP_STEPS, EW_THREADS = 128 };

/* Everything one run keeps on the device. */
template <typename T> struct GpuRun {
    const float *x;                         /* the dataset, fp32, MLP_IMAGES x IN */
    const int *y, *rows;                    /* labels; every step's batch rows */
    float *w1, *b1, *w2, *b2;               /* fp32 master weights */
    float *g_w1, *g_b1, *g_w2, *g_b2;       /* fp32 gradients: unscaled, then applied */
    T *xh, *w1h, *w2h;                      /* the step's operands in T */
    T *hid, *logits, *dlog, *dhid, *dw1, *dw2;   /* activations and gradients in T */
    tc_scaler *scaler;
    int *found_inf, *status;                /* per step */
    float *scale_after, *p_label;           /* per step; p_label per row too */
};

/* The step's operands: the batch and the weights, rounded into T. */
template <typename T> __global__ void operands_kernel(GpuRun<T> g, int step) {
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < BATCH * IN) g.xh[i] = from_f32<T>(g.x[(size_t)g.rows[step * BATCH + i / IN] * IN + i % IN]);
    if (i < IN * HID) g.w1h[i] = from_f32<T>(g.w1[i]);
    if (i < HID * OUT) g.w2h[i] = from_f32<T>(g.w2[i]);
}

template <typename T> __global__ void hidden_kernel(GpuRun<T> g, tc_dtype t) {
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < BATCH * HID) g.hid[i] = from_f32<T>(mlp_hidden(t, to_f32(g.hid[i]), g.b1[i % HID]));
}

/* One thread per row: logits, softmax cross-entropy, dlogits stored in T.
   The loss multiplier times the scale is formed here from the device's
   scale, as the CPU forms it from its own. */
template <typename T> __global__ void softmax_kernel(GpuRun<T> g, tc_dtype t, int step, float loss_multiplier) {
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x), j;
    float l[OUT], d[OUT];
    if (i >= BATCH) return;
    for (j = 0; j < OUT; j++) l[j] = mlp_logit(t, to_f32(g.logits[i * OUT + j]), g.b2[j]);
    g.p_label[step * BATCH + i] =
        mlp_softmax_xent_row(l, g.y[g.rows[step * BATCH + i]], loss_multiplier * g.scaler->scale, BATCH, d);
    for (j = 0; j < OUT; j++) g.dlog[i * OUT + j] = from_f32<T>(d[j]);
}

template <typename T> __global__ void relu_backward_kernel(GpuRun<T> g) {
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < BATCH * HID) g.dhid[i] = from_f32<T>(mlp_relu_backward(to_f32(g.dhid[i]), to_f32(g.hid[i])));
}

/* The gradients into fp32 for the unscale pass (apex's fp16 model grads
   copied to fp32 master grads): the weight gradients as stored, the bias
   gradients summed over the batch and stored in T first, as the CPU does. */
template <typename T> __global__ void gradients_kernel(GpuRun<T> g) {
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x), b;
    float col[BATCH];
    if (i < IN * HID) g.g_w1[i] = to_f32(g.dw1[i]);
    if (i < HID * OUT) g.g_w2[i] = to_f32(g.dw2[i]);
    if (i < HID) {
        for (b = 0; b < BATCH; b++) col[b] = to_f32(g.dhid[b * HID + i]);
        g.g_b1[i] = to_f32(from_f32<T>(mlp_sum(col, BATCH, 1)));
    }
    if (i < OUT) {
        for (b = 0; b < BATCH; b++) col[b] = to_f32(g.dlog[b * OUT + i]);
        g.g_b2[i] = to_f32(from_f32<T>(mlp_sum(col, BATCH, 1)));
    }
}

/* The optimiser step, skipped on the device when the unscale pass found
   Inf or NaN. */
template <typename T> __global__ void sgd_kernel(GpuRun<T> g, int step, float lr) {
    int i = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    if (g.found_inf[step]) return;
    if (i < IN * HID) g.w1[i] = mlp_sgd(g.w1[i], lr, g.g_w1[i]);
    if (i < HID * OUT) g.w2[i] = mlp_sgd(g.w2[i], lr, g.g_w2[i]);
    if (i < HID) g.b1[i] = mlp_sgd(g.b1[i], lr, g.g_b1[i]);
    if (i < OUT) g.b2[i] = mlp_sgd(g.b2[i], lr, g.g_b2[i]);
}

template <typename T> static void gemm(int M, int N, int K, View<T> A, View<T> B, T *D) {
    mma_gemm_kernel<T><<<dim3((M + 15) / 16, (N + 7) / 8), 32>>>(M, N, K, A, B, D);
    CUDA_CHECK(cudaGetLastError());
}

template <typename T> static T *dalloc(size_t n) {
    T *p;
    CUDA_CHECK(cudaMalloc(&p, (n ? n : 1) * sizeof(T)));
    return p;
}

static int blocks_for(int n) { return (n + EW_THREADS - 1) / EW_THREADS; }

/* What a GPU run hands back for the comparison. */
struct GpuRecord {
    mlp_model model;
    tc_scaler scaler;
    std::vector<int> found_inf, status;
    std::vector<float> scale_after, p_label;
};

/* The run of mlp_train, step for step, on the GPU. */
template <typename T>
static void train_gpu(const mlp_spec *spec, const float *d_x, const int *d_y, const int *d_rows, GpuRecord *out) {
    GpuRun<T> g;
    mlp_model m0;
    tc_scaler s0;
    memset(&s0, 0, sizeof s0);
    mlp_scaler(spec, &s0);
    mlp_init(&m0);
    g.x = d_x; g.y = d_y; g.rows = d_rows;
    g.w1 = dalloc<float>(IN * HID); g.b1 = dalloc<float>(HID); g.w2 = dalloc<float>(HID * OUT); g.b2 = dalloc<float>(OUT);
    g.g_w1 = dalloc<float>(IN * HID); g.g_b1 = dalloc<float>(HID); g.g_w2 = dalloc<float>(HID * OUT); g.g_b2 = dalloc<float>(OUT);
    g.xh = dalloc<T>(BATCH * IN); g.w1h = dalloc<T>(IN * HID); g.w2h = dalloc<T>(HID * OUT);
    g.hid = dalloc<T>(BATCH * HID); g.logits = dalloc<T>(BATCH * OUT); g.dlog = dalloc<T>(BATCH * OUT);
    g.dhid = dalloc<T>(BATCH * HID); g.dw1 = dalloc<T>(IN * HID); g.dw2 = dalloc<T>(HID * OUT);
    g.scaler = dalloc<tc_scaler>(1);
    g.found_inf = dalloc<int>(STEPS); g.status = dalloc<int>(STEPS);
    g.scale_after = dalloc<float>(STEPS); g.p_label = dalloc<float>(STEPS * BATCH);
    CUDA_CHECK(cudaMemcpy(g.w1, m0.w1, sizeof m0.w1, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(g.b1, m0.b1, sizeof m0.b1, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(g.w2, m0.w2, sizeof m0.w2, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(g.b2, m0.b2, sizeof m0.b2, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(g.scaler, &s0, sizeof s0, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(g.found_inf, 0, STEPS * sizeof(int)));   /* zeroed per step, as GradScaler does */

    std::vector<TensorRef> refs(4);
    float *grads[4] = { g.g_w1, g.g_w2, g.g_b1, g.g_b2 };
    const size_t counts[4] = { IN * HID, HID * OUT, HID, OUT };
    for (int k = 0; k < 4; k++) { refs[k].data = grads[k]; refs[k].dtype = TC_FP32; refs[k].count = counts[k]; }
    DeviceTensors table = upload_tensor_table(refs);

    const tc_dtype t = spec->dtype;
    const float lr = MLP_LEARNING_RATE / MLP_LOSS_MULTIPLIER, mult = MLP_LOSS_MULTIPLIER;
    const int most = blocks_for(IN * HID > BATCH * IN ? IN * HID : BATCH * IN);
    for (int step = 0; step < STEPS; step++) {
        operands_kernel<T><<<most, EW_THREADS>>>(g, step);
        gemm<T>(BATCH, HID, IN, View<T>{ g.xh, IN, 1 }, View<T>{ g.w1h, HID, 1 }, g.hid);
        hidden_kernel<T><<<blocks_for(BATCH * HID), EW_THREADS>>>(g, t);
        gemm<T>(BATCH, OUT, HID, View<T>{ g.hid, HID, 1 }, View<T>{ g.w2h, OUT, 1 }, g.logits);
        softmax_kernel<T><<<1, BATCH>>>(g, t, step, mult);
        /* dW2 = H^T dlogits, dH = dlogits W2^T (masked by ReLU), dW1 = X^T dH */
        gemm<T>(HID, OUT, BATCH, View<T>{ g.hid, 1, HID }, View<T>{ g.dlog, OUT, 1 }, g.dw2);
        gemm<T>(BATCH, HID, OUT, View<T>{ g.dlog, OUT, 1 }, View<T>{ g.w2h, 1, OUT }, g.dhid);
        relu_backward_kernel<T><<<blocks_for(BATCH * HID), EW_THREADS>>>(g);
        gemm<T>(IN, HID, BATCH, View<T>{ g.xh, 1, IN }, View<T>{ g.dhid, HID, 1 }, g.dw1);
        gradients_kernel<T><<<blocks_for(IN * HID), EW_THREADS>>>(g);
        unscale_check(table, g.scaler, 0.0f, g.found_inf + step);
        sgd_kernel<T><<<blocks_for(IN * HID), EW_THREADS>>>(g, step, lr);
        update_scale_kernel<<<1, 1>>>(g.scaler, g.found_inf, step, g.scale_after, g.status);
        CUDA_CHECK(cudaGetLastError());
    }
    CUDA_CHECK(cudaDeviceSynchronize());

    out->found_inf.resize(STEPS); out->status.resize(STEPS);
    out->scale_after.resize(STEPS); out->p_label.resize(STEPS * BATCH);
    CUDA_CHECK(cudaMemcpy(out->model.w1, g.w1, sizeof out->model.w1, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(out->model.b1, g.b1, sizeof out->model.b1, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(out->model.w2, g.w2, sizeof out->model.w2, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(out->model.b2, g.b2, sizeof out->model.b2, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&out->scaler, g.scaler, sizeof out->scaler, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(out->found_inf.data(), g.found_inf, STEPS * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(out->status.data(), g.status, STEPS * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(out->scale_after.data(), g.scale_after, STEPS * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(out->p_label.data(), g.p_label, STEPS * BATCH * sizeof(float), cudaMemcpyDeviceToHost));

    free_tensor_table(&table);
    void *bufs[] = { g.w1, g.b1, g.w2, g.b2, g.g_w1, g.g_b1, g.g_w2, g.g_b2, g.xh, g.w1h, g.w2h, g.hid, g.logits,
                     g.dlog, g.dhid, g.dw1, g.dw2, g.scaler, g.found_inf, g.status, g.scale_after, g.p_label };
    for (size_t k = 0; k < sizeof bufs / sizeof bufs[0]; k++) CUDA_CHECK(cudaFree(bufs[k]));
}

static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Values of one weight tensor whose bits differ, the first ones printed. */
static int weight_diffs(const char *name, const float *cpu, const float *gpu, int n) {
    ValidateOptions opt;
    opt.show = 3;
    opt.summary = false;
    return (int)validate(name, gpu, cpu, (size_t)n, opt);
}

/* The CPU run against the GPU run. Returns the mismatches of the scaler's
   record (skips, scales, statuses, final state); *other counts the
   differing losses and weights, which are reported, not failed. */
static int compare_runs(const mlp_spec *spec, tc_arch arch, const float *x, const int *y, const mlp_result *cpu,
                        const mlp_model *cm, const GpuRecord *gpu, long *other) {
    int bad = 0, loss_diff = 0, skips = 0, gpu_skips = 0;
    float scale = (float)cpu->scale[0];
    for (int s = 0; s < STEPS; s++) {
        double loss = 0;
        /* the scale used in step s: the initial one, then what update left */
        float gpu_scale = s == 0 ? scale : gpu->scale_after[s - 1];
        skips += cpu->skipped[s];
        gpu_skips += gpu->found_inf[s] != 0;
        if ((cpu->skipped[s] != (gpu->found_inf[s] != 0) || !same_bits((float)cpu->scale[s], gpu_scale) ||
             cpu->status[s] != gpu->status[s]) && bad++ < 5)
            printf("      step %d: CPU scale %g skipped %d status %d, GPU scale %g skipped %d status %d\n", s,
                   cpu->scale[s], cpu->skipped[s], cpu->status[s], (double)gpu_scale, gpu->found_inf[s], gpu->status[s]);
        for (int i = 0; i < BATCH; i++) loss += mlp_row_loss(gpu->p_label[s * BATCH + i]);
        loss_diff += loss / BATCH != cpu->loss[s];
    }
    const tc_scaler *a = &cpu->scaler, *b = &gpu->scaler;
    if (!same_bits(a->scale, b->scale) || a->growth_tracker != b->growth_tracker || a->hysteresis_left != b->hysteresis_left ||
        a->consecutive_skips != b->consecutive_skips || a->steps != b->steps || a->skipped != b->skipped) {
        printf("      final scaler: CPU scale %g after %lld steps, GPU %g after %lld\n", (double)a->scale,
               (long long)a->steps, (double)b->scale, (long long)b->steps);
        bad++;
    }
    int wd = weight_diffs("w1", cm->w1, gpu->model.w1, IN * HID) + weight_diffs("b1", cm->b1, gpu->model.b1, HID) +
             weight_diffs("w2", cm->w2, gpu->model.w2, HID * OUT) + weight_diffs("b2", cm->b2, gpu->model.b2, OUT);
    double gpu_acc = mlp_accuracy(arch, spec->dtype, &gpu->model, x + (size_t)MLP_TRAIN * IN, y + MLP_TRAIN, MLP_TEST);
    printf("  %-24s skipped steps CPU %d GPU %d; scale trajectory %s; losses differ in %d of %d steps;\n"
           "  %-24s final weights %s; test accuracy CPU %.1f%% GPU %.1f%% (evaluated on the CPU)\n",
           spec->name, skips, gpu_skips, bad ? "MISMATCH" : "identical", loss_diff, STEPS, "",
           wd ? "DIFFER (above)" : "bit-exact", 100 * cpu->accuracy, 100 * gpu_acc);
    *other += loss_diff + wd;
    return bad;
}

/* The comparison for the GPU's architecture: returns the scaler-record
   mismatches; *other gets the differing losses and weights. */
static int check_training(int sm, long *other) {
    static unsigned char px[MLP_IMAGES * IN];
    static float x[MLP_IMAGES * IN];
    static int y[MLP_IMAGES], rows[STEPS * BATCH];
    static mlp_model cpu_model;
    static mlp_result cpu;
    static GpuRecord gpu;
    tc_arch arch;
    if (sm == 80 || sm == 86 || sm == 87) arch = TC_ARCH_A100;
    else if (sm == 90) arch = TC_ARCH_H100;
    else {
        printf("  skipped: tensorcore.h has no MMA model for sm_%d (A100-class sm_80/86/87, H100 sm_90)\n", sm);
        return 0;
    }
    mlp_draw_dataset(px);
    for (int c = 0; c < OUT; c++)
        for (int i = 0; i < MLP_PER_CLASS; i++) mlp_set_image(x, y, c, i, px + ((size_t)c * MLP_PER_CLASS + (size_t)i) * IN);
    mlp_batches(rows);
    float *d_x = dalloc<float>(MLP_IMAGES * IN);
    int *d_y = dalloc<int>(MLP_IMAGES), *d_rows = dalloc<int>(STEPS * BATCH);
    CUDA_CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_y, y, sizeof y, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_rows, rows, sizeof rows, cudaMemcpyHostToDevice));
    printf("  MLP %d-%d-%d, batch %d, %d steps, loss x 2^%d; CPU reference: mlp_train with tc_gemm(%s)\n", IN, HID, OUT,
           BATCH, STEPS, LOSS_MULTIPLIER_LOG2, arch == TC_ARCH_A100 ? "TC_ARCH_A100" : "TC_ARCH_H100");
    int bad = 0;
    *other = 0;
    for (int k = 0; k < MLP_RUNS; k++) {
        const mlp_spec *spec = &mlp_runs[k];
        if (spec->dtype != TC_FP16 && spec->dtype != TC_BF16) continue;   /* FP32 and TF32 stay on the CPU */
        mlp_train(spec, arch, x, y, &cpu_model, &cpu);
        if (spec->dtype == TC_FP16) train_gpu<__half>(spec, d_x, d_y, d_rows, &gpu);
        else train_gpu<__nv_bfloat16>(spec, d_x, d_y, d_rows, &gpu);
        bad += compare_runs(spec, arch, x, y, &cpu, &cpu_model, &gpu, other);
    }
    if (*other)
        printf("  %ld losses/weights differ: the GPU's products are not what tensorcore.h's %s model\n"
               "  computes for these operands (cuda/mma.cu shows where)\n",
               *other, arch == TC_ARCH_A100 ? "A100" : "H100");
    CUDA_CHECK(cudaFree(d_x)); CUDA_CHECK(cudaFree(d_y)); CUDA_CHECK(cudaFree(d_rows));
    return bad;
}

/* ------------------------------------------------------------ timing */

static void time_unscale(void) {
    enum { TENSORS = 64 };
    size_t per = (size_t)1 << 20;      /* 64 Mi fp32 values, 256 MiB */
    std::vector<TensorRef> refs(TENSORS);
    for (int t = 0; t < TENSORS; t++) {
        refs[t].dtype = TC_FP32;
        refs[t].count = per;
        CUDA_CHECK(cudaMalloc(&refs[t].data, per * sizeof(float)));
        CUDA_CHECK(cudaMemset(refs[t].data, 0, per * sizeof(float)));
    }
    DeviceTensors d = upload_tensor_table(refs);
    int *d_found;
    CUDA_CHECK(cudaMalloc(&d_found, sizeof(int)));
    CUDA_CHECK(cudaMemset(d_found, 0, sizeof(int)));
    double ms = benchmark_ms(10, [&] { unscale_check(d, NULL, 0.5f, d_found); });
    double bytes = 2.0 * TENSORS * per * sizeof(float);   /* read and write */
    printf("unscale_check on %d fp32 tensors of %zu values: %.3f ms (median), %.0f GB/s\n", TENSORS, per, ms,
           bytes / (ms * 1e-3) / 1e9);
    for (int t = 0; t < TENSORS; t++) CUDA_CHECK(cudaFree(refs[t].data));
    free_tensor_table(&d);
    CUDA_CHECK(cudaFree(d_found));
}

/* ------------------------------------------------------------ main */

enum { UNSCALE, UPDATE, TRAINING, N_PARTS };
static const char *const PART_NAMES[] = { "unscale", "update", "training" };
static_assert(COUNT_OF(PART_NAMES) == N_PARTS, "one name per part");

int main(int argc, char **argv) {
    const int pick = parse_args(argc, argv, "loss_scaling [PART]", PART_NAMES, N_PARTS);
    cudaDeviceProp prop;
    if (!gpu_sm("loss_scaling", 80, &prop)) return EXIT_NO_GPU;
    printf("loss_scaling on %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);

    int failures = 0;
    if (selected(pick, UNSCALE)) {
        printf("1. unscale_check vs tc_unscale_arrays\n");
        rng_seed(0x0115CA1Eull);
        /* sizes that straddle chunk edges, an empty tensor, mixed storage */
        static const size_t counts[] = { 1, 1000, (size_t)CHUNK, (size_t)CHUNK + 1, 0, 3 * (size_t)CHUNK - 7, 12345, 777 };
        static const int dtypes[] = { TC_FP32, TC_FP16, TC_BF16, TC_FP32, TC_FP16, TC_FP16, TC_BF16, TC_FP32 };
        static const double scales[] = { 65536.0, 3.0, 0.125, 1.0, 1536.0, 4294967296.0 };
        const int n = (int)(sizeof counts / sizeof counts[0]);
        for (size_t k = 0; k < sizeof scales / sizeof scales[0]; k++)
            for (int plant = 0; plant <= 6; plant += 3) {
                float inv = (float)(1.0 / scales[k]);
                int m = check_unscale(counts, dtypes, n, inv, plant);
                printf("  scale %-12g planted %d: %s\n", scales[k], plant, m ? "MISMATCH" : "bit-exact");
                failures += m;
            }
    }

    if (selected(pick, UPDATE)) {
        printf("2. update_scale vs tc_scaler_update\n");
        rng_seed(0x5CA1E5ull);
        /* overflow bursts: rare isolated overflows, then a run of 40 in a
           row (a diverging stretch), so every preset grows, backs off and
           meets its floor or ceiling */
        std::vector<int> flags(6000);
        for (size_t i = 0; i < flags.size(); i++) flags[i] = (rand32() % 500u) == 0 || (i >= 3000 && i < 3040);
        static const tc_scaler_preset_kind kinds[] = { TC_SCALER_PYTORCH, TC_SCALER_TENSORFLOW, TC_SCALER_APEX, TC_SCALER_MEGATRON };
        static const char *const names[] = { "pytorch", "tensorflow", "apex", "megatron" };
        for (int k = 0; k < 4; k++) {
            tc_scaler_desc d;
            tc_scaler_preset(kinds[k], &d);
            d.growth_interval = 50 + 25 * k;   /* short windows, so growth happens often */
            failures += check_update(names[k], &d, flags);
        }
        tc_scaler_desc st;
        memset(&st, 0, sizeof st);
        st.is_static = 1;
        st.init_scale = 128.0f;
        failures += check_update("static 128", &st, flags);
        tc_scaler_desc every;
        memset(&every, 0, sizeof every);
        every.growth_interval = 1;
        every.allow_growth_every_step = 1;
        every.init_scale = 1e30f;         /* reaches the fp32 ceiling: TC_WARN_SCALE_OVERFLOW */
        failures += check_update("growth every step", &every, flags);
    }

    long training_diffs = 0;
    if (selected(pick, TRAINING)) {
        printf("3. training on the GPU vs support/mlp.h on the CPU\n");
        failures += check_training(prop.major * 10 + prop.minor, &training_diffs);
    }

    if (failures) {
        printf("loss_scaling: FAILED: %d mismatches; not timing\n", failures);
        return EXIT_MISMATCH;
    }
    if (selected(pick, UNSCALE)) {
        printf("4. timing (validated above)\n");
        time_unscale();
    }
    if (training_diffs)
        printf("kernels bit-exact and the training's skips and scales match; %ld training losses/weights differ (above)\n",
               training_diffs);
    else
        printf("all GPU results match tensorcore.h bit for bit\n");
    return EXIT_OK;
}
