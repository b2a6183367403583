/* common.cuh - what every program in cuda/ shares: the CUDA error check, the
   "is there a suitable GPU" test behind exit code 2, the fixed-seed
   random generator for test inputs (never time-seeded), and the
   m16n8k16 mma.sync wrapper. */
#ifndef TC_CUDA_COMMON_CUH
#define TC_CUDA_COMMON_CUH
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CUDA_CHECK(call)                                                                  \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), __FILE__, \
                    __LINE__, cudaGetErrorString(e_));                                    \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

/* Device 0's compute capability as 80, 90, ... if it is at least min_sm,
   else 0 after saying why (the caller then exits 2). */
static inline int gpu_sm(const char *program, int min_sm, cudaDeviceProp *prop) {
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) { printf("%s: no CUDA GPU found\n", program); return 0; }
    CUDA_CHECK(cudaGetDeviceProperties(prop, 0));
    int sm = prop->major * 10 + prop->minor;
    if (sm < min_sm) { printf("%s: %s is sm_%d; needs sm_%d or newer\n", program, prop->name, sm, min_sm); return 0; }
    return sm;
}

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static inline uint32_t rand32(void) {
    uint64_t x = rng_state;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    rng_state = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

/* d += a * b for one m16n8k16 (T = __half or __nv_bfloat16). */
template <typename T> __device__ __forceinline__ void mma_16816(float d[4], const uint32_t a[4], uint32_t b0, uint32_t b1);
template <> __device__ __forceinline__ void mma_16816<__half>(float d[4], const uint32_t a[4], uint32_t b0, uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
template <> __device__ __forceinline__ void mma_16816<__nv_bfloat16>(float d[4], const uint32_t a[4], uint32_t b0, uint32_t b1) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

#endif
