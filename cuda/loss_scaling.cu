/* loss_scaling.cu - the GPU half of section 3: the fused unscale-and-check
   kernel and the scale-update kernel, bit-exact against tensorcore.h.

   Compile:  make cuda          (or: nvcc -std=c++17 -O3 -arch=sm_80 -I. cuda/loss_scaling.cu -o loss_scaling)
   Run:      build/cuda/loss_scaling        (make gpu-check runs it with the others)

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
   3. Then, validated, the unscale pass is timed on 64 Mi gradient values.
   Exit: 0 all match, 1 a mismatch or CUDA error, 2 no suitable GPU.

   Not here yet: the training run of lessons/07 on the GPU with real fp16
   arithmetic (see the issue). */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

#include "common.cuh"   /* CUDA_CHECK, gpu_sm */

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
   first_chunk is the prefix sum of the tensors' chunk counts. */
__global__ void unscale_check_kernel(const TensorRef *tensors, const int *first_chunk, int n_tensors,
                                     float inv_scale, int *found_inf) {
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

/* found_inf must be zeroed by the caller, as GradScaler does per step. */
static void unscale_check(const DeviceTensors &d, float inv_scale, int *found_inf) {
    if (d.blocks == 0) return;
    unscale_check_kernel<<<d.blocks, THREADS>>>(d.refs, d.first_chunk, d.n, inv_scale, found_inf);
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
    unscale_check(d, inv_scale, d_found);
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
    for (int t = 0; t < n; t++) {
        size_t bytes = counts[t] * dtype_size(dtypes[t]);
        CUDA_CHECK(cudaMemcpy(back[t].data(), dev_refs[t].data, bytes, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < bytes; i += dtype_size(dtypes[t]))
            if (memcmp(&back[t][i], &host[t][i], dtype_size(dtypes[t])) != 0 && mismatches++ < 5)
                printf("  tensor %d (%s) value %zu differs\n", t, tc_format_of((tc_dtype)dtypes[t])->name, i / dtype_size(dtypes[t]));
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
    for (int i = 0; i < steps; i++) {
        int st = (int)tc_scaler_update(&cpu, flags[i]);
        warnings += st != TC_OK;
        if ((st != statuses[i] || memcmp(&scales[i], &cpu.scale, sizeof(float)) != 0) && mismatches++ < 5)
            printf("  %s step %d: GPU scale %g status %d, CPU %g %d\n", name, i, (double)scales[i], statuses[i],
                   (double)cpu.scale, st);
    }
    tc_scaler gpu_final;
    CUDA_CHECK(cudaMemcpy(&gpu_final, d_s, sizeof gpu_final, cudaMemcpyDeviceToHost));
    if (memcmp(&gpu_final, &cpu, sizeof cpu) != 0) { printf("  %s: final states differ\n", name); mismatches++; }
    printf("  %-22s %d steps, %lld skipped, %d warnings, final scale %g: %s\n", name, steps, (long long)cpu.skipped,
           warnings, (double)cpu.scale, mismatches ? "MISMATCH" : "bit-exact");
    CUDA_CHECK(cudaFree(d_s)); CUDA_CHECK(cudaFree(d_flags)); CUDA_CHECK(cudaFree(d_status)); CUDA_CHECK(cudaFree(d_scales));
    return mismatches;
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
    cudaEvent_t a, b;
    float ms = 0;
    CUDA_CHECK(cudaMalloc(&d_found, sizeof(int)));
    CUDA_CHECK(cudaMemset(d_found, 0, sizeof(int)));
    CUDA_CHECK(cudaEventCreate(&a));
    CUDA_CHECK(cudaEventCreate(&b));
    unscale_check(d, 0.5f, d_found);   /* warm-up */
    const int reps = 10;
    CUDA_CHECK(cudaEventRecord(a));
    for (int r = 0; r < reps; r++) unscale_check(d, 0.5f, d_found);
    CUDA_CHECK(cudaEventRecord(b));
    CUDA_CHECK(cudaEventSynchronize(b));
    CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    double bytes = 2.0 * TENSORS * per * sizeof(float);   /* read and write */
    printf("unscale_check on %d fp32 tensors of %zu values: %.3f ms, %.0f GB/s\n", TENSORS, per, ms / reps,
           bytes / (ms / reps * 1e-3) / 1e9);
    for (int t = 0; t < TENSORS; t++) CUDA_CHECK(cudaFree(refs[t].data));
    free_tensor_table(&d);
    CUDA_CHECK(cudaFree(d_found));
}

/* ------------------------------------------------------------ main */

int main(void) {
    cudaDeviceProp prop;
    if (!gpu_sm("loss_scaling", 80, &prop)) return 2;
    printf("loss_scaling on %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);

    int failures = 0;
    printf("1. unscale_check vs tc_unscale_arrays\n");
    {
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
    if (cudaDeviceSynchronize() == cudaErrorNoKernelImageForDevice) {
        printf("loss_scaling: no kernel image for this GPU\n");
        return 2;
    }

    printf("2. update_scale vs tc_scaler_update\n");
    {
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

    if (failures) {
        printf("FAILED: %d mismatches\n", failures);
        return 1;
    }
    printf("3. timing (validated above)\n");
    time_unscale();
    printf("all GPU results match tensorcore.h bit for bit\n");
    return 0;
}
