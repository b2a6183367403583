/* common.cuh - helpers every program in cuda/ shares: the CUDA error check
   and the tests' fixed-seed random generator (never time-seeded). */
#ifndef TC_CUDA_COMMON_CUH
#define TC_CUDA_COMMON_CUH
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

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static inline uint32_t rand32(void) {
    uint64_t x = rng_state;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    rng_state = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}
#endif
