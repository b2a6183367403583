/* common.cuh - what every program in cuda/ shares, in the shape of llm.c's
   dev/cuda/common.h:
     - error checks (CUDA_CHECK) and the exit codes below;
     - gpu_sm: "is there a suitable GPU", the test behind exit code 2;
     - parse_args: the command line every program takes;
     - the fixed-seed random generator for test inputs (never time-seeded,
       so a mismatch can be reproduced);
     - validate: GPU output against the CPU reference, printing the first
       mismatches;
     - benchmark_ms: warm-up, L2 flush, CUDA events, median of N runs;
     - the PTX wrappers (mma.sync, mma.sp, ldmatrix, cp.async), written once.

   Exit codes, the same for every program:
     0  every result matched its reference (and then was timed)
     1  a mismatch (nothing is timed after one), or a CUDA error
     2  no suitable GPU (none, too old, or no kernel image for it)
     3  usage error: an argument the program does not know */
#ifndef TC_CUDA_COMMON_CUH
#define TC_CUDA_COMMON_CUH
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <type_traits>
#include <vector>

enum { EXIT_OK = 0, EXIT_MISMATCH = 1, EXIT_NO_GPU = 2, EXIT_USAGE = 3 };

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ------------------------------------------------------------ checks */

#define CUDA_CHECK(call)                                                                  \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(e_), __FILE__, \
                    __LINE__, cudaGetErrorString(e_));                                    \
            exit(EXIT_MISMATCH);                                                          \
        }                                                                                 \
    } while (0)

/* Launched by no one: gpu_sm asks the runtime whether this binary holds
   code the GPU can run, before any real kernel fails on it. */
__global__ void common_image_probe() {}

/* Device 0's compute capability as 80, 90, ... if it is at least min_sm and
   this binary has code for it; else 0 after saying why (the caller then
   returns EXIT_NO_GPU). */
static inline int gpu_sm(const char *program, int min_sm, cudaDeviceProp *prop) {
    int ndev = 0;
    cudaError_t e = cudaGetDeviceCount(&ndev);
    if (e != cudaSuccess || ndev == 0) {
        printf("%s: no suitable GPU: no CUDA device found (%s)\n", program,
               e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
        return 0;
    }
    CUDA_CHECK(cudaGetDeviceProperties(prop, 0));
    int sm = prop->major * 10 + prop->minor;
    if (sm < min_sm) {
        printf("%s: no suitable GPU: %s is sm_%d; needs sm_%d or newer\n", program, prop->name, sm, min_sm);
        return 0;
    }
    cudaFuncAttributes attr;
    if (cudaFuncGetAttributes(&attr, common_image_probe) != cudaSuccess) {
        (void)cudaGetLastError();   /* clear it: the error is this binary's, not the device's state */
        /* NVCC_ARCH_<program> overrides both CUDA_ARCH and a program's own
           list in the Makefile, so this hint is right for every program. */
        printf("%s: no suitable GPU: this binary has no code for %s (sm_%d); rebuild it with "
               "make -B build/cuda/%s NVCC_ARCH_%s=sm_%d\n",
               program, prop->name, sm, program, program, sm);
        return 0;
    }
    return sm;
}

/* ------------------------------------------------------------ command line */

/* Every program takes:  PROGRAM [NAME] [--help]
   NAME (one of names[]) runs that kernel or part alone, validated first,
   so that it can be profiled by itself (ncu / nsys); without it all run.
   int_option (gemm's "--size") takes a number into *int_value.
   Returns NAME's index in names, or -1 for none. --help prints the usage
   and exits 0; an unknown or repeated argument prints it to stderr and
   exits EXIT_USAGE. */
static inline int parse_args(int argc, char **argv, const char *usage, const char *const *names, int n_names,
                             const char *int_option = nullptr, long *int_value = nullptr) {
    int pick = -1;
    const char *bad = nullptr;
    for (int i = 1; i < argc && !bad; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: %s\n  to run one alone:", usage);
            for (int k = 0; k < n_names; k++) printf(" %s", names[k]);
            printf("\nexit: 0 all match, 1 mismatch or CUDA error, 2 no suitable GPU, 3 usage error\n");
            exit(EXIT_OK);
        }
        if (int_option && !strcmp(a, int_option)) {
            char *end = nullptr;
            if (i + 1 < argc) *int_value = strtol(argv[i + 1], &end, 10);
            if (i + 1 >= argc || *end != '\0') bad = a;
            i++;
            continue;
        }
        int k = 0;
        while (k < n_names && strcmp(a, names[k]) != 0) k++;
        if (k == n_names || pick >= 0) bad = a;
        else pick = k;
    }
    if (bad) {
        fprintf(stderr, "%s: bad argument '%s'\nusage: %s\n  to run one alone:", argv[0], bad, usage);
        for (int k = 0; k < n_names; k++) fprintf(stderr, " %s", names[k]);
        fprintf(stderr, "\n");
        exit(EXIT_USAGE);
    }
    return pick;
}

/* Whether part `k` runs: no NAME given, or NAME is k. */
static inline bool selected(int pick, int k) { return pick < 0 || pick == k; }

/* ------------------------------------------------------------ random inputs */

/* xorshift64*: one stream for the whole program, reseeded where a part
   must not depend on what ran before it (a NAME given on the command line
   skips parts). */
static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static inline void rng_seed(uint64_t seed) { rng_state = seed ? seed : 1; }
static inline uint32_t rand32(void) {
    uint64_t x = rng_state;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    rng_state = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}
/* Uniform in [-1, 1), a multiple of 2^-31. */
static inline float rand_sym(void) { return (float)((double)rand32() / 2147483648.0 - 1.0); }
/* Uniform integer in [lo, hi], as a float. */
static inline float rand_int(int lo, int hi) { return (float)(lo + (int)(rand32() % (uint32_t)(hi - lo + 1))); }

/* ------------------------------------------------------------ validation */

/* How validate compares got with want. */
enum Compare {
    CMP_BITS,       /* bit for bit: the rule of every numerics check */
    CMP_BITS_NAN,   /* bit for bit, except any NaN matches any NaN (payloads the model leaves open) */
    CMP_VALUE,      /* ==, so +0 matches -0: tests of where a value lands, not of its rounding */
    CMP_TOL,        /* |got - want| <= tol * (1 + |want|): kernels whose sums run in another order */
};

struct ValidateOptions {
    Compare compare = CMP_BITS;
    double tol = 0.0;
    size_t cols = 0;                 /* > 0: indices printed as [i / cols][i % cols] */
    const size_t *index = nullptr;   /* where value i came from, when the arrays hold samples */
    int show = 5;                    /* mismatches printed in full */
    bool summary = true;             /* the count line */
    size_t *first = nullptr;         /* out: position of the first mismatch (unchanged if none) */
};

template <typename T> static inline uint64_t value_bits(T v) {
    uint64_t u = 0;
    memcpy(&u, &v, sizeof v);
    return u;
}

template <typename T> static inline void print_value(T v) {
    if constexpr (std::is_floating_point<T>::value) printf("%.*g", sizeof(T) == 4 ? 9 : 17, (double)v);
    else if constexpr (std::is_signed<T>::value) printf("%lld", (long long)v);
    else printf("%llu", (unsigned long long)v);
    printf(" (0x%0*llx)", (int)(2 * sizeof(T)), (unsigned long long)value_bits(v));
}

template <typename T> static inline bool values_match(T g, T w, const ValidateOptions &o) {
    if (value_bits(g) == value_bits(w)) return true;
    if constexpr (std::is_floating_point<T>::value) {
        if (o.compare == CMP_BITS_NAN) return g != g && w != w;
        if (o.compare == CMP_VALUE) return g == w;
        if (o.compare == CMP_TOL) return fabs((double)g - (double)w) <= o.tol * (1.0 + fabs((double)w));
    }
    return false;
}

/* got[i] (from the GPU) against want[i] (the CPU reference, from the
   header or a reference function) for i < n. Prints the first o.show
   mismatches (index, got and expected, in decimal and hex) and a count
   line; returns the number of mismatches. */
template <typename T>
static size_t validate(const char *what, const T *got, const T *want, size_t n, const ValidateOptions &o = ValidateOptions()) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        if (values_match(got[i], want[i], o)) continue;
        if (bad == 0 && o.first) *o.first = i;
        if ((int)bad < o.show) {
            size_t at = o.index ? o.index[i] : i;
            if (o.cols) printf("    %s[%zu][%zu]: got ", what, at / o.cols, at % o.cols);
            else printf("    %s[%zu]: got ", what, at);
            print_value(got[i]);
            printf(", expected ");
            print_value(want[i]);
            printf("\n");
        }
        bad++;
    }
    if (o.summary) {
        if (bad) printf("  MISMATCH %s: %zu of %zu differ\n", what, bad, n);
        else printf("  %s: %zu values match%s\n", what, n, o.compare == CMP_TOL ? " within tolerance" : " bit for bit");
    }
    return bad;
}

template <typename T>
static size_t validate(const char *what, const std::vector<T> &got, const std::vector<T> &want,
                       const ValidateOptions &o = ValidateOptions()) {
    if (got.size() != want.size()) {
        printf("  MISMATCH %s: %zu values, expected %zu\n", what, got.size(), want.size());
        return want.size() ? want.size() : 1;
    }
    return validate(what, got.data(), want.data(), want.size(), o);
}

/* ------------------------------------------------------------ timing */

/* Median milliseconds of `reps` timed runs of launch() (any host code that
   enqueues work on the default stream), after one untimed warm-up run;
   before each timed run L2 is flushed by writing twice its size, so every
   run starts from DRAM. Timed with CUDA events around launch() alone. */
template <typename F> static double benchmark_ms(int reps, F &&launch) {
    int dev = 0, l2 = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
    const size_t flush_bytes = 2 * (size_t)std::max(l2, 1 << 20);
    void *flush;
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaMalloc(&flush, flush_bytes));
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    launch();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> ms((size_t)std::max(reps, 1));
    for (size_t r = 0; r < ms.size(); r++) {
        CUDA_CHECK(cudaMemset(flush, (int)(r & 0xFF), flush_bytes));
        CUDA_CHECK(cudaEventRecord(start));
        launch();
        CUDA_CHECK(cudaEventRecord(stop));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    CUDA_CHECK(cudaFree(flush));
    std::sort(ms.begin(), ms.end());
    size_t h = ms.size() / 2;
    return ms.size() % 2 ? ms[h] : 0.5 * ((double)ms[h - 1] + ms[h]);
}

/* ------------------------------------------------------------ PTX wrappers */

/* Operands as the registers of one lane (the fragment layouts of PTX, which
   tc_mma_frag_coord and tc_sparse_*_coord reproduce); every mma adds to
   d in place (d += a * b), so a C operand is passed by setting d = C. */

__device__ __forceinline__ uint32_t smem_addr(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

/* mma.sync m16n8k16, fp32 accumulators; T = __half or __nv_bfloat16. */
template <typename T> __device__ __forceinline__ void mma_m16n8k16(float d[4], const uint32_t a[4], const uint32_t b[2]);
template <> __device__ __forceinline__ void mma_m16n8k16<__half>(float d[4], const uint32_t a[4], const uint32_t b[2]) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
template <> __device__ __forceinline__ void mma_m16n8k16<__nv_bfloat16>(float d[4], const uint32_t a[4], const uint32_t b[2]) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* mma.sync m16n8k16 f16 with fp16 accumulators (two per register). */
__device__ __forceinline__ void mma_m16n8k16_f16acc(uint32_t d[2], const uint32_t a[4], const uint32_t b[2]) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};\n"
                 : "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* mma.sync m16n8k8, fp32 accumulators; T = __half or __nv_bfloat16. */
template <typename T> __device__ __forceinline__ void mma_m16n8k8(float d[4], const uint32_t a[2], const uint32_t b[1]);
template <> __device__ __forceinline__ void mma_m16n8k8<__half>(float d[4], const uint32_t a[2], const uint32_t b[1]) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
}
template <> __device__ __forceinline__ void mma_m16n8k8<__nv_bfloat16>(float d[4], const uint32_t a[2], const uint32_t b[1]) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
}

/* mma.sync m16n8k8 f16 with fp16 accumulators. */
__device__ __forceinline__ void mma_m16n8k8_f16acc(uint32_t d[2], const uint32_t a[2], const uint32_t b[1]) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3}, {%4}, {%0,%1};\n"
                 : "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
}

/* mma.sync tf32 (raw fp32 bits in; the Tensor Core drops the low 13). */
__device__ __forceinline__ void mma_m16n8k8_tf32(float d[4], const uint32_t a[4], const uint32_t b[2]) {
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ void mma_m16n8k4_tf32(float d[4], const uint32_t a[2], const uint32_t b[1]) {
    asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
}

/* mma.sync m8n8k4 f16 (Volta's shape, still issued on sm_80/90): 8 accumulators. */
__device__ __forceinline__ void mma_m8n8k4(float d[8], const uint32_t a[2], const uint32_t b[2]) {
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, "
                 "{%0,%1,%2,%3,%4,%5,%6,%7};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]));
}

/* mma.sync m16n8k32 FP8 with fp32 accumulators, e4m3 or e5m2 (sm_89+).
   Built for an older target it traps: callers check
   cudaFuncAttributes::binaryVersion >= 89 first. */
#define TC_CUDA_MMA_FP8(T)                                                                                  \
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." T "." T ".f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, " \
                 "{%0,%1,%2,%3};\n"                                                                           \
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                              \
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
template <bool E5M2> __device__ __forceinline__ void mma_m16n8k32_fp8(float d[4], const uint32_t a[4], const uint32_t b[2]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    if (E5M2) TC_CUDA_MMA_FP8("e5m2");
    else TC_CUDA_MMA_FP8("e4m3");
#else
    (void)d; (void)a; (void)b;
    __trap();
#endif
}
__device__ __forceinline__ void mma_m16n8k32_e4m3(float d[4], const uint32_t a[4], const uint32_t b[2]) {
    mma_m16n8k32_fp8<false>(d, a, b);
}

/* mma.sync m16n8k16 FP8 with fp32 accumulators (PTX ISA 8.7, sm_89+): A in
   two registers, B in one. Built for an older target it traps, as above. */
template <bool E5M2> __device__ __forceinline__ void mma_m16n8k16_fp8(float d[4], const uint32_t a[2], const uint32_t b[1]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
    if (E5M2)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e5m2.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]));
#else
    (void)d; (void)a; (void)b;
    __trap();
#endif
}

/* mma.sp::ordered_metadata (2:4 for f16/bf16, 1:2 for tf32), fp32
   accumulators; e is the lane's metadata register, SEL the sparsity
   selector (an immediate). T = __half or __nv_bfloat16. */
template <typename T, int SEL>
__device__ __forceinline__ void mma_sp_m16n8k16(float d[4], const uint32_t a[2], const uint32_t b[2], uint32_t e) {
    if constexpr (std::is_same<T, __half>::value)
        asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, %9;\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(e), "n"(SEL));
    else
        asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, %9;\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(e), "n"(SEL));
}
template <typename T, int SEL>
__device__ __forceinline__ void mma_sp_m16n8k32(float d[4], const uint32_t a[4], const uint32_t b[4], uint32_t e) {
    if constexpr (std::is_same<T, __half>::value)
        asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, %13;\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(e), "n"(SEL));
    else
        asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, %13;\n"
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(e), "n"(SEL));
}
template <int SEL>
__device__ __forceinline__ void mma_sp_m16n8k8_tf32(float d[4], const uint32_t a[2], const uint32_t b[2], uint32_t e) {
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, %9;\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(e), "n"(SEL));
}
template <int SEL>
__device__ __forceinline__ void mma_sp_m16n8k16_tf32(float d[4], const uint32_t a[4], const uint32_t b[4], uint32_t e) {
    asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, %13;\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(e), "n"(SEL));
}

/* ldmatrix: four 8x8 b16 matrices from shared memory; lane l gives the
   address of row l % 8 of matrix l / 8. .trans transposes each matrix. */
__device__ __forceinline__ void ldmatrix_x4(uint32_t r[4], const void *p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr(p)));
}
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t r[4], const void *p) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem_addr(p)));
}

/* cp.async: 16 bytes global -> shared, bypassing L1 (.cg) and registers;
   commit closes a group, wait<N> blocks until at most N groups are pending. */
__device__ __forceinline__ void cp_async16(void *dst, const void *src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(dst)), "l"(src));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N)); }

#endif
