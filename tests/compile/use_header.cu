// Compile test: the header inside a .cu file; TC_HOST_DEVICE functions are
// called from a kernel, so cuda/ kernels can share the CPU's rounding code.
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

__global__ void round_kernel(const float *in, unsigned short *h, unsigned short *b, float *t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        h[i] = tc_fp16_from_f32(in[i], TC_RN);
        b[i] = tc_bf16_from_f32(in[i], TC_RZ);
        t[i] = tc_tf32_from_f32(in[i], TC_RNA) + tc_e4m3_to_f32(tc_e4m3_from_f32(in[i], TC_RN | TC_SATFINITE));
    }
}

int main(void) { return tc_fp16_from_f32(1.0f, TC_RN) == 0x3C00 ? 0 : 1; }
