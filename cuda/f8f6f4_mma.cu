/* f8f6f4_mma.cu - every output bit of RTX Blackwell's (sm_120a)
   mma.sync kind::f8f6f4 with an FP6 or FP4 operand and of its block-scaled
   mma.sync kinds (mxf8f6f4, mxf4, mxf4nvf4) against tensorcore.h's model of
   them (tc_mma_dot_scaled, MMA-Sim's rule).

   Compile (from the repository root; make cuda builds it for sm_120a alone
   whatever CUDA_ARCH says: NVCC_ARCH_f8f6f4_mma):
     nvcc -std=c++17 -O3 -gencode arch=compute_120a,code=sm_120a -I. -Isupport \
          cuda/f8f6f4_mma.cu -o f8f6f4_mma
   Run:  ./f8f6f4_mma [e2m1|e4m3.e2m1|mxf8f6f4.e4m3|mxf4.e2m1|...]
     (make gpu-check runs build/cuda/f8f6f4_mma) one row alone (its table
     name less "m16n8k32." or "m16n8k64."); default: all 49. Nothing is
     timed.

   What it shows:
   - The instruction table's 21 sm_120 kind::f8f6f4 rows (m16n8k32, A and B
     each e4m3, e5m2, e2m3, e3m2 or e2m1, at least one FP6 or FP4) and its
     28 block-scaled sm_120 rows (m16n8k32 kind::mxf8f6f4 scale_vec::1X
     ue8m0 in all 25 pairings; m16n8k64 e2m1 kind::mxf4 scale_vec::2X ue8m0,
     kind::mxf4nvf4 scale_vec::2X ue8m0 and 4X ue4m3), each issued with its
     row's own PTX spelling (the cases below come from the header's lists,
     so the table and this program cannot drift apart), fp32 accumulators.
     One warp runs one mma.sync per test matrix.
   - Operands: kind::f8f6f4 and mxf8f6f4 take one element per byte in the
     FP8 m16n8k32 fragment layout (tc_mma_frag_coord), four to a register,
     lowest first; within its byte an FP6 code sits in bits 0-5 and an FP4
     code in bits 2-5 (CUTLASS's cute/atom/mma_traits_sm120.hpp,
     fp4_shift_A: ldmatrix puts FP4 in the low bits and "MMA F8F6F4 expects
     the four-bit data to be in the middle of the eight-bit container", so
     it shifts e2m1 left by two and leaves FP6 and FP8 alone). kind::mxf4
     and mxf4nvf4 take e2m1 packed two to a byte, eight to a register, in
     the 4-bit m16n8k64 layout (the s4 rows' tc_mma_frag_coord).
   - Scales (PTX ISA 9.0, 9.7.14.3 "Block Scaling for mma.sync", and the
     register figures there): each lane passes one 32-bit scale-a-data and
     one scale-b-data register and the selectors {byte-id, thread-id}, here
     {0, 0}: scale_A for row g = lane / 4 comes from lane 4g, for row g + 8
     from lane 4g + 1; scale_B for column g from lane 4g; byte j of the
     register is the scale of the j-th block along K (1X: byte 0; 2X: bytes
     0-1; 4X: bytes 0-3). Every byte the hardware should not read holds a
     NaN scale (ue8m0 0xFF, ue4m3 0x7F), so a misread shows up as NaN.
   - Inputs per row, 64 test matrices of each family: random codes (every
     encoding, e4m3/e5m2 NaN and e5m2 Inf included), normal codes only,
     subnormal and zero codes only, and cancelling pairs (each odd k of B
     negates the even one before it, A repeats it); C random fp32 near the
     products' size, a quarter of it zero. Scales, in every family: even
     test matrices near 1 (ue8m0 119..135, ue4m3 any finite code), odd ones
     random codes with one in four a special (ue8m0 0x00, 0x7F, 0xFE, the
     NaN 0xFF; ue4m3 0 and the NaN 0x7F).
   - The CPU computes each test matrix with tc_mma_run(TC_ARCH_RTX_BLACKWELL,
     row, 8, TC_FP32, ...) (kind::f8f6f4) or tc_gemm_scaled with the row's
     tc_mma_instr_scaled_type (block-scaled rows), and every bit is
     compared (any NaN matches any NaN).
   Read, not yet run here: the operand and scale register layouts above and
   the FP4 container position; a mistake in them shows up as mismatches in
   every family. Exit: 0 when every bit matches, 1 on any mismatch, 2 on
   any GPU but sm_120 (the instructions are sm_120a's; ptxas 13.0 refuses
   FP6/FP4 mma for sm_100a), 3 usage error. No result of this program on
   any GPU is recorded in the repository yet. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "common.cuh"

enum { M = 16, N = 8, KMAX = 64, PER_FAM = 64 };
enum { FAM_RAW, FAM_NORMAL, FAM_SMALL, FAM_CANCEL, N_FAM };
static const char *const fam_names[] = { "random codes", "normal", "subnormal/zero", "cancelling" };
static_assert(COUNT_OF(fam_names) == N_FAM, "one name per family");

/* An element's bits in its register: eight to a register (kind::mxf4,
   mxf4nvf4) packed as they are, else one per byte with FP4 in bits 2-5,
   FP6 and FP8 from bit 0. */
__device__ static uint32_t container(tc_dtype t, int per_reg, uint32_t code) {
    return per_reg == 8 || t != TC_E2M1 ? code : code << 2;
}

/* D = A B + C for one row of the table (the warp's lanes hold the
   fragments a[4], b[2] and, for a block-scaled row, the scale registers
   sa, sb; d[4] holds C on entry). Built for another target it traps; main
   runs it only on sm_120. */
__device__ static void mma_row(tc_mma_instr instr, float d[4], const uint32_t a[4], const uint32_t b[2], uint32_t sa,
                               uint32_t sb) {
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM120_ALL)
#define F8F6F4_CASE(id, nm, ptx, ...)                                                                 \
    case id:                                                                                          \
        asm volatile(ptx " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"                   \
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                 \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));             \
        break;
#define SCALED_CASE(id, nm, ptx, ...)                                                                 \
    case id:                                                                                          \
        asm volatile(ptx " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3}, %10, {0, 0}, %11, {0, 0};\n" \
                     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])                                 \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(sa), "r"(sb)); \
        break;
    switch (instr) {
        TC__TCGEN05_F8F6F4_PAIRS(TC__MMA_F8F6F4_ROW, F8F6F4_CASE, 16, 0)
        TC__TCGEN05_F8F6F4_PAIRS(TC__MMA_MXF8F6F4_ROW, SCALED_CASE, 16, 0)
        TC__MMA_FP4_SCALED_ROWS(SCALED_CASE)
    default: __trap();
    }
#undef F8F6F4_CASE
#undef SCALED_CASE
#else
    (void)instr; (void)d; (void)a; (void)b; (void)sa; (void)sb;
    __trap();
#endif
}

/* The scale register of one lane (thread-id 0, byte-id 0): scale_A rows g
   and g + 8 in lanes 4g and 4g + 1, scale_B column g in lane 4g, block j in
   byte j; every other byte the NaN scale `nan`. s holds `per` scales of
   each row or column. */
__device__ static uint32_t scale_reg(const uint8_t *s, int per, int lane, int a_side, uint8_t nan) {
    const int g = lane >> 2, t = lane & 3;
    uint32_t r = 0;
    for (int j = 0; j < 4; j++) {
        uint8_t v = nan;
        if (j < per && (t == 0 || (a_side && t == 1))) v = s[(g + 8 * t) * per + j];
        r |= (uint32_t)v << (8 * j);
    }
    return r;
}

/* One warp per test matrix t: A (M x K row-major) and B (K x N) as codes of
   the row's types, scale_A M x per, scale_B N x per (per = 0: none), C and
   D fp32. */
__global__ void f8f6f4_kernel(tc_mma_instr instr, int per, uint8_t nan, const uint8_t *A, const uint8_t *B,
                              const uint8_t *SA, const uint8_t *SB, const float *C, float *D) {
    const int lane = threadIdx.x, t = blockIdx.x;
    tc_mma_instr_info info;
    tc_mma_instr_get(instr, &info);
    const int K = info.k, pa = info.a_elems / info.a_regs, pb = info.b_elems / info.b_regs;
    const uint8_t *a = A + (size_t)t * M * K, *b = B + (size_t)t * K * N;
    uint32_t ra[4] = { 0, 0, 0, 0 }, rb[2] = { 0, 0 }, sa = 0, sb = 0;
    float d[4];
    int i, r, c;
    for (i = 0; i < info.a_elems; i++) {
        tc_mma_frag_coord(instr, TC_FRAG_A, lane, i, &r, &c);
        ra[i / pa] |= container(info.in, pa, a[r * K + c]) << (32 / pa * (i % pa));
    }
    for (i = 0; i < info.b_elems; i++) {
        tc_mma_frag_coord(instr, TC_FRAG_B, lane, i, &r, &c);
        rb[i / pb] |= container(info.b_type, pb, b[r * N + c]) << (32 / pb * (i % pb));
    }
    if (per) {
        sa = scale_reg(SA + (size_t)t * M * per, per, lane, 1, nan);
        sb = scale_reg(SB + (size_t)t * N * per, per, lane, 0, nan);
    }
    for (i = 0; i < 4; i++) { tc_mma_frag_coord(instr, TC_FRAG_C, lane, i, &r, &c); d[i] = C[(size_t)t * M * N + r * N + c]; }
    mma_row(instr, d, ra, rb, sa, sb);
    for (i = 0; i < 4; i++) { tc_mma_frag_coord(instr, TC_FRAG_C, lane, i, &r, &c); D[(size_t)t * M * N + r * N + c] = d[i]; }
}

/* A random code of t for family fam: any, normal (exponent field neither 0
   nor all ones where the type has Inf/NaN there), or subnormal/zero. */
static uint8_t gen_code(tc_dtype t, int fam) {
    const tc_format *f = tc_format_of(t);
    const uint32_t mask = (1u << f->total_bits) - 1u, mant = (1u << f->mantissa_bits) - 1u;
    const uint32_t sign = 1u << (f->total_bits - 1), exp_top = (1u << f->exponent_bits) - 1u;
    uint32_t c = rand32() & mask;
    if (fam == FAM_SMALL) return (uint8_t)(c & (sign | mant));
    if (fam == FAM_NORMAL) {
        uint32_t e = 1 + rand32() % (exp_top - (t == TC_E5M2 ? 1u : 0u));   /* e5m2's top exponent is Inf/NaN */
        c = (c & (sign | mant)) | (e << f->mantissa_bits);
        if (t == TC_E4M3 && (c & ~sign) == 0x7F) c--;                          /* e4m3's NaN */
    }
    return (uint8_t)c;
}

/* A scale of type st: near 1 (ue8m0 119..135, ue4m3 any finite code), or
   (wild) any code with one in four a special (ue8m0 0x00, 0x7F, 0xFE and
   the NaN 0xFF; ue4m3 0 and the NaN 0x7F). */
static uint8_t gen_scale(tc_dtype st, int wild) {
    static const uint8_t sp8[] = { 0x00, 0x7F, 0xFE, 0xFF }, sp43[] = { 0x00, 0x7F };
    if (st == TC_UE4M3) {
        if (wild && rand32() % 4 == 0) return sp43[rand32() % 2];
        return (uint8_t)(rand32() % (wild ? 0x80 : 0x7F));
    }
    if (wild && rand32() % 4 == 0) return sp8[rand32() % 4];
    return (uint8_t)(wild ? rand32() % 0x100 : 119 + rand32() % 17);
}

/* The 64 * N_FAM test matrices of one row: codes, their values, C, and for
   a block-scaled row (per scales per row and column) the scales. */
static void make_inputs(const tc_mma_instr_info &in, int per, tc_dtype st, std::vector<uint8_t> &ac,
                        std::vector<uint8_t> &bc, std::vector<float> &A, std::vector<float> &B, std::vector<float> &C,
                        std::vector<uint8_t> &sa, std::vector<uint8_t> &sb) {
    const int T = PER_FAM * N_FAM, K = in.k;
    ac.resize((size_t)T * M * K); bc.resize((size_t)T * K * N); A.resize(ac.size()); B.resize(bc.size());
    C.resize((size_t)T * M * N);
    sa.resize((size_t)T * M * per); sb.resize((size_t)T * N * per);
    for (int t = 0; t < T; t++) {
        const int fam = t / PER_FAM, gfam = fam == FAM_CANCEL ? FAM_NORMAL : fam;
        uint8_t *a = &ac[(size_t)t * M * K], *b = &bc[(size_t)t * K * N];
        for (int i = 0; i < M * K; i++) a[i] = gen_code(in.in, gfam);
        for (int k = 0; k < K; k++)
            for (int j = 0; j < N; j++) {
                b[k * N + j] = gen_code(in.b_type, gfam);
                if (fam == FAM_CANCEL && (k & 1)) b[k * N + j] = (uint8_t)(b[(k - 1) * N + j] ^ (1u << (tc_format_of(in.b_type)->total_bits - 1)));
            }
        if (fam == FAM_CANCEL)
            for (int i = 0; i < M; i++) for (int k = 1; k < K; k += 2) a[i * K + k] = a[i * K + k - 1];
        for (int i = 0; i < M * N; i++)
            C[(size_t)t * M * N + i] = rand32() % 4 == 0 ? 0.0f : ldexpf(rand_sym(), (int)(rand32() % 16) - 8);
        for (int i = 0; i < M * per; i++) sa[(size_t)t * M * per + i] = gen_scale(st, t & 1);
        for (int i = 0; i < N * per; i++) sb[(size_t)t * N * per + i] = gen_scale(st, t & 1);
    }
    for (size_t i = 0; i < ac.size(); i++) A[i] = tc_decode(in.in, ac[i]);
    for (size_t i = 0; i < bc.size(); i++) B[i] = tc_decode(in.b_type, bc[i]);
}

/* The model's D of test matrix t: tc_mma_run for a kind::f8f6f4 row,
   tc_gemm_scaled (B as N x K codes) for a block-scaled one. */
static tc_status model(tc_mma_instr instr, const tc_mma_instr_info &in, int per, int t, const std::vector<uint8_t> &ac,
                       const std::vector<uint8_t> &bc, const std::vector<float> &A, const std::vector<float> &B,
                       const std::vector<float> &C, const std::vector<uint8_t> &sa, const std::vector<uint8_t> &sb,
                       float *want) {
    const int K = in.k;
    if (!per)
        return tc_mma_run(TC_ARCH_RTX_BLACKWELL, instr, N, TC_FP32, &A[(size_t)t * M * K], &B[(size_t)t * K * N],
                          &C[(size_t)t * M * N], want);
    uint8_t bt[N * KMAX];
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++) bt[j * K + k] = bc[(size_t)t * K * N + k * N + j];
    tc_gemm_scaled_desc d;
    memset(&d, 0, sizeof d);
    if (tc_mma_instr_scaled_type(instr, &d.type) != TC_OK) return TC_ERR_ARG;
    d.M = M; d.N = N; d.K = K;
    d.A = &ac[(size_t)t * M * K]; d.B = bt;
    d.scale_A = &sa[(size_t)t * M * per]; d.scale_B = &sb[(size_t)t * N * per];
    d.C = &C[(size_t)t * M * N]; d.D = want;
    return tc_gemm_scaled(&d);
}

/* Runs one row on the GPU and the model; returns the mismatches. */
static long check_row(tc_mma_instr instr, const tc_mma_instr_info &in, uint64_t seed) {
    const int T = PER_FAM * N_FAM;
    tc_mma_scaled_type st;
    const int per = tc_mma_instr_scaled_type(instr, &st) == TC_OK && st.kind != TC_KIND_F8F6F4 ? in.k / st.block : 0;
    const uint8_t nan = per && st.scale_type == TC_UE4M3 ? 0x7F : 0xFF;
    std::vector<uint8_t> ac, bc, sa, sb;
    std::vector<float> A, B, C, D((size_t)T * M * N), want(D.size());
    rng_seed(seed);
    make_inputs(in, per, per ? st.scale_type : TC_UE8M0, ac, bc, A, B, C, sa, sb);
    for (int t = 0; t < T; t++)
        if (model(instr, in, per, t, ac, bc, A, B, C, sa, sb, &want[(size_t)t * M * N]) != TC_OK) {
            printf("f8f6f4_mma: the model refused test %d of %s\n", t, in.name);
            return 1;
        }
    uint8_t *dA, *dB, *dSA = NULL, *dSB = NULL;
    float *dC, *dD;
    CUDA_CHECK(cudaMalloc(&dA, ac.size()));
    CUDA_CHECK(cudaMalloc(&dB, bc.size()));
    CUDA_CHECK(cudaMalloc(&dC, C.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dD, D.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dA, ac.data(), ac.size(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, bc.data(), bc.size(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dC, C.data(), C.size() * sizeof(float), cudaMemcpyHostToDevice));
    if (per) {
        CUDA_CHECK(cudaMalloc(&dSA, sa.size()));
        CUDA_CHECK(cudaMalloc(&dSB, sb.size()));
        CUDA_CHECK(cudaMemcpy(dSA, sa.data(), sa.size(), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy(dSB, sb.data(), sb.size(), cudaMemcpyHostToDevice));
    }
    f8f6f4_kernel<<<T, 32>>>(instr, per, nan, dA, dB, dSA, dSB, dC, dD);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(D.data(), dD, D.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dA)); CUDA_CHECK(cudaFree(dB)); CUDA_CHECK(cudaFree(dC)); CUDA_CHECK(cudaFree(dD));
    CUDA_CHECK(cudaFree(dSA)); CUDA_CHECK(cudaFree(dSB));
    ValidateOptions shown, count;
    shown.compare = count.compare = CMP_BITS_NAN;
    shown.cols = N;
    shown.summary = count.summary = false;
    count.show = 0;
    const long bad = (long)validate("D", D, want, shown);
    printf("mma.sync %-32s %6d outputs: %ld mismatches", in.name, T * M * N, bad);
    if (bad) {
        const size_t per_fam = (size_t)PER_FAM * M * N;
        printf(" (");
        for (int f = 0; f < N_FAM; f++)
            printf("%s%s %zu", f ? ", " : "", fam_names[f], validate("D", &D[f * per_fam], &want[f * per_fam], per_fam, count));
        printf(")");
    }
    printf("\n");
    return bad;
}

int main(int argc, char **argv) {
    std::vector<tc_mma_instr> rows;
    std::vector<const char *> args;
    for (int i = 0; i < TC_MMA_INSTR_COUNT; i++) {
        tc_mma_instr_info in;
        if (tc_mma_instr_get((tc_mma_instr)i, &in) == TC_OK && in.threads == 32 &&
            (strstr(in.ptx, "kind::f8f6f4") || strstr(in.ptx, ".block_scale"))) {
            rows.push_back((tc_mma_instr)i);
            args.push_back(in.name + 9);   /* less "m16n8k32." or "m16n8k64." */
        }
    }
    const int pick = parse_args(argc, argv, "f8f6f4_mma [A[.B]|mxf8f6f4.A[.B]|mxf4.e2m1|mxf4nvf4.e2m1.ue8m0|...]",
                                args.data(), (int)args.size());
    cudaDeviceProp prop;
    if (!gpu_sm("f8f6f4_mma", 120, &prop)) return EXIT_NO_GPU;
    const int sm = prop.major * 10 + prop.minor;
    if (sm != 120) {
        printf("f8f6f4_mma: no suitable GPU: %s is sm_%d; the FP6/FP4 and block-scaled mma.sync are sm_120a's\n",
               prop.name, sm);
        return EXIT_NO_GPU;
    }
    printf("f8f6f4_mma: %s (sm_%d) against the %s model (tc_mma_dot_scaled)\n", prop.name, sm,
           tc_arch_name(TC_ARCH_RTX_BLACKWELL));
    long total_bad = 0;
    for (int k = 0; k < (int)rows.size(); k++) {
        if (!selected(pick, k)) continue;
        tc_mma_instr_info in;
        tc_mma_instr_get(rows[k], &in);
        total_bad += check_row(rows[k], in, 0xF6F4ull + (uint64_t)k);
    }
    printf("f8f6f4_mma: %s\n", total_bad ? "MISMATCH" : "every output bit equals the model");
    return total_bad ? EXIT_MISMATCH : EXIT_OK;
}
