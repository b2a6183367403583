/* wgmma.cu - every output bit of Hopper's wgmma.mma_async (sm_90a), dense
   and sparse (.sp), against tensorcore.h's H100 model (tc_mma_run,
   MMA-Sim's class wgmma: F = 25, FP8 13 bits, all of K one group; sparse:
   tc_sparse_gemm_ex), and each row's latency and issue rate beside the h100
   profile's.

   Compile (from the repository root; make cuda builds it for sm_90a alone
   whatever CUDA_ARCH says: NVCC_ARCH_wgmma):
     nvcc -std=c++17 -O3 -gencode arch=compute_90a,code=sm_90a -I. -Isupport \
          cuda/wgmma.cu -o wgmma
   Run:  ./wgmma [f16|bf16|tf32|e4m3|e5m2|e4m3.e5m2|e5m2.e4m3|sp.f16|sp.bf16|sp.tf32|sp.e4m3|...]
     (make gpu-check runs build/cuda/wgmma) one row alone (its table name
     less "wgmma.m64nNkK.", "sp." kept for the sparse rows); default: all.

   What it shows:
   - Every dense wgmma row of the instruction table (TC_WGMMA_*: f16, bf16,
     tf32, e4m3, e5m2 and the two mixed FP8 pairings; the cases below are
     generated from TC__MMA_INSTR_LIST, so table and program cannot drift,
     and main checks each PTX spelling built here against the table's), at
     N = 8, 64 and 256, fp32 accumulators and, for the rows that offer
     them (f16 and the FP8 ones), fp16 accumulators, one warpgroup (128 threads) per
     test matrix issuing wgmma.fence; wgmma.mma_async; wgmma.commit_group;
     wgmma.wait_group 0. Each row runs twice: A from shared memory through a
     descriptor ("ss") and A from registers ("rs"); B always from shared
     memory through a descriptor.
   - Every sparse wgmma row (TC_WGMMA_SP_*: wgmma.mma_async.sp m64nNk32
     f16 and bf16, m64nNk16 tf32, m64nNk64 in the four FP8 pairings) the
     same way (N = 8, 64, 256; A shared and A registers; fp32 and, f16 and
     FP8, fp16 accumulators) at every sparsity selector the row has (0 and
     1; FP8 0). A is drawn 64 x K with the row's pattern (2:4, tf32 1:2;
     kept positions random) and compressed on the CPU by
     tc_sparse_compress; the GPU gets the compressed codes (64 x K/2) and
     each thread's metadata register built from tc_sparse_meta_coord
     (meta_reg; the threads the selector leaves out get 0, an illegal code,
     so reading one shows). The model: tc_sparse_gemm_ex(TC_ARCH_H100) on
     the same compressed A and metadata, which ASSUMES the sparse wgmma
     computes as the dense wgmma on each K half of the decompressed A,
     chained (tensorcore.h section 4; no source has measured it). 16 test matrices of each family: random codes
     (every encoding: subnormals, Inf and NaN where the type has them; tf32
     gets raw fp32 bit patterns, whose low 13 bits the Tensor Core must
     ignore), normal codes, normal codes within 8 binades of 1 (sums that
     keep bits F = 25 cuts), subnormal and zero codes, and cancelling pairs
     (each odd k of B negates the even one before it, A repeats it); C
     random fp32 near the products' size, a quarter of it zero.
   - The CPU computes each test matrix with tc_mma_run(TC_ARCH_H100, row,
     N, TC_FP32, ...) (sparse rows: tc_sparse_gemm_ex) and every bit is
     compared (any NaN matches any NaN).
     On a mismatch it prints the first few differing (row, col, got, want)
     and the count per family and per warp/fragment position, which is what
     tells a layout error (whole rows or columns off, one warp off) from a
     numerics one (scattered elements, one family).
   - Then, only when every bit matched, the timing: per row at N = 256 and
     N = 64, clock64() around 64 wgmmas on one warpgroup (as cuda/cycles.cu
     times mma.sync): a dependent chain (each wgmma waits for the previous
     one: fence, wgmma, commit, wait_group 0) for the latency, and 64
     wgmmas issued back to back into the same accumulators, in batches of
     8 (fence, 8 wgmmas unrolled, commit; one wait at the end) for the
     issue interval. Every fence is in the source: ptxas reports no
     injected warpgroup.arrive (note C7519) for these kernels. Printed as "measured here"
     beside "model": the simulator's h100 profile run on the same chain
     (tc_sim_mma_n, one warpgroup), whose wgmma figures are the MEASURED
     N = 256 rate (Johnsonms/NVIDIA-Hopper-Benchmark) and an ASSUMED
     latency (docs/REFERENCE.md 3.4); its wgmma.sp figures are ASSUMED
     (the dense row's latency; its measured rate times the H100
     whitepaper's 2x sparse peak). A sparse row is timed by the same
     kernel with selector 0 and metadata 0x44444444 (every group keeps
     positions 0 and 1).

   Layout facts, read in the PTX ISA (section 9.7.15 "Asynchronous
   Warpgroup Level Matrix Multiply-Accumulate Instructions"; the
   subsection numbers below are PTX ISA 8.x's and move between versions,
   the titles do not) and never yet run on a GPU here; each is one
   function below, so a wrong one is one fix:
   - 9.7.15.5.1 "Matrix Descriptor Format": a 64-bit descriptor, bits 0-13
     the start address >> 4, bits 16-29 the leading dimension byte offset
     (LBO) >> 4, bits 32-45 the stride dimension byte offset (SBO) >> 4,
     bits 49-51 the base offset (0 without swizzle), bits 62-63 the swizzle
     mode (0: none, the "interleave" mode used here). smem_desc.
   - "Shared Memory Matrix Layout": without swizzling a matrix is a grid of
     core matrices, each 8 rows of 16 contiguous bytes (128 bytes, rows 16
     bytes apart). Both A (M x K) and B (N x K) are K-major here (no
     transpose: the only form FP8 and tf32 allow); LBO is the distance
     between core matrices adjacent in K, SBO between core matrices
     adjacent in M (A) or N (B). Every row here is 32 bytes of K (16
     fp16/bf16, 8 tf32, 32 FP8), two core matrices: core (i, j) of rows
     8i.., bytes 16j.. sits at 256 i + 128 j, so LBO = 128 and SBO = 256.
     core_offset.
   - "Register Fragments", the figures "WGMMA .m64nNk16/k8/k32 register
     fragment layout for matrix A": warp w of the warpgroup holds rows
     16w .. 16w+15 of A in the layout of mma.sync m16n8k16 (16-bit),
     m16n8k8 (tf32) or m16n8k32 (FP8) A (tc_mma_frag_coord of those rows).
     a_layout_row.
   - Same section, "... for accumulator matrix D": warp w, lane l (g = l/4,
     t = l%4), register i of N/2 holds D[16w + g + 8 ((i/2)%2)][8 (i/4) +
     2t + i%2]. d_coord.
   - "wgmma.mma_async": operands d, a-desc or {a regs}, b-desc, scale-d (a
     predicate; 1: D = A B + D), imm-scale-a and imm-scale-b (1 or -1), and
     for .f16/.bf16 imm-trans-a (descriptor A only) and imm-trans-b (0:
     K-major). Shared memory written by threads must be made visible to the
     async proxy (fence.proxy.async, "Async Proxy") before a wgmma reads it.
   - fp16 accumulators (.f16 in place of .f32): N/4 registers per lane,
     each two D elements, the lower index (d_coord's i even) in bits 0-15
     ("Register Fragments", as mma.sync's packed fp16 C/D).
   Sparse layout facts (PTX ISA section 9.7.15.6 "Asynchronous Warpgroup
   Level Multiply-and-Accumulate Operation using wgmma.mma_async.sp
   instruction"; read, never yet run on a GPU):
   - "Sparse matrix storage": A (M x K) is packed into M x K/2 elements,
     the metadata gives each kept element's index in its chunk (2:4 for
     f16, bf16 and FP8; tf32 1:2, one nibble per 2-element chunk); in each
     group of four consecutive threads one or more threads hold the
     metadata, named by the sparsity selector operand; a matrix A and its
     operand are "similar to" the mma.sp storage figure.
   - Operands ("wgmma.mma_async.sp" syntax): d, a-desc or {a}, b-desc,
     sp-meta (32-bit register), sp-sel (immediate), scale-d, imm-scale-a,
     imm-scale-b, then imm-trans-a (descriptor A) and imm-trans-b for
     f16/bf16. ptxas 13.0 accepts sp-sel 0 and 1 for f16/bf16/tf32, 0 for
     FP8 (docs/REFERENCE.md 2.13).
   - Which bits of which thread's metadata cover which rows and chunks of
     A: not read from the ISA's figures here but from CUTLASS's
     description of the same registers, ELayout_64x32 (f16, bf16),
     ELayout_64x16 (tf32), ELayout_64x64 (FP8) in
     include/cute/atom/mma_traits_sm90_gmma_sparse.hpp: per warp the
     f16/bf16/tf32 layout of mma.sp m16n8k32 / m16n8k16.tf32 (the selected
     thread pair of quad q: rows q in bits 15:0 and q+8 in 31:16, the
     second thread the right half of the chunks), FP8 all four threads,
     thread t one row q + 8 (t & 1) over dense K 32 (t >> 1) ..+31.
     tensorcore.h's tc_sparse_meta_coord (tests/test_sparsity.c
     test_wgmma_meta checks it against those layouts written out).
   - Compressed A, not drawn in the ISA text read here, worked out from
     CUTLASS's sparse GMMA traits (same file, NVIDIA/cutlass at
     044405ce10e21d44b65ccd40c4fc2bec68789dad): from registers, A is
     ALayout_64x32 / 64x16 / 64x64 over sparse_elem<2, T> (one stored
     element per 2 logical columns), which is the dense row's A fragment
     (a_layout_row) of the compressed 64 x K/2; from shared memory, the
     sparse smem atoms are the dense K-major atoms blocked by 2 in K, i.e.
     a dense 64 x K/2 matrix (K/2 elements = the dense row's 32 bytes per
     row, so smem_desc and core_offset are unchanged). B is K x N of the
     logical K: 64-byte rows (4 core matrices in K; SBO 512) for
     f16/bf16/FP8 and tf32 alike.
   Not covered: swizzled layouts, transposed (MN-major) 16-bit operands.

   Exit: 0 when every bit matches, 1 on any mismatch, 2 on any GPU but
   sm_90 (wgmma is sm_90a's), 3 usage error. No result of this program on
   any GPU is recorded yet. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "common.cuh"

/* A's rows are 32 bytes of K (a sparse row's A compressed: K/2 elements,
   the same 32 bytes); B's rows are up to 64 (wgmma.sp's logical K). */
enum { M = 64, ROW_BYTES = 32, B_ROW_MAX = 64, PER_FAM = 16, NMAX = 256, TIME_ITERS = 64, TIME_BATCH = 8 };
enum { FAM_RAW, FAM_NORMAL, FAM_BAND, FAM_SMALL, FAM_CANCEL, N_FAM };
static const char *const fam_names[] = { "random codes", "normal", "near 1", "subnormal/zero", "cancelling" };
static_assert(COUNT_OF(fam_names) == N_FAM, "one name per family");
static const int widths[] = { 8, 64, 256 };

/* ------------------------------------------------ layouts */

/* Bytes of one element: tf32 travels as a whole fp32 word. */
__device__ static int elem_bytes(tc_dtype t) { return t == TC_FP16 || t == TC_BF16 ? 2 : t == TC_TF32 ? 4 : 1; }

/* Byte offset of (row r, byte b of its K) in the no-swizzle K-major
   canonical layout of rows rb bytes long: 8 x 16-byte core matrices, LBO
   128 (next in K), SBO 8 rb (next 8 rows: 256 for 32-byte rows). */
__device__ static int core_offset(int r, int b, int rb) { return (r / 8) * 8 * rb + (b / 16) * 128 + (r % 8) * 16 + b % 16; }

/* The descriptor of a matrix laid out by core_offset with rows rb bytes long. */
__device__ static uint64_t smem_desc(const void *p, int rb) {
    const uint64_t addr = (uint64_t)__cvta_generic_to_shared(p);
    return ((addr & 0x3FFFF) >> 4) | ((uint64_t)(128 >> 4) << 16) | ((uint64_t)(8 * rb >> 4) << 32);
}

/* D register i of a lane of warp w: row and column. */
__device__ static void d_coord(int w, int lane, int i, int *r, int *c) {
    *r = 16 * w + lane / 4 + 8 * ((i / 2) % 2);
    *c = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
}

/* The mma.sync row whose A layout a warp's 16 rows of A follow. */
__device__ static tc_mma_instr a_layout_row(tc_dtype t) {
    return elem_bytes(t) == 2 ? TC_MMA_M16N8K16_F16 : elem_bytes(t) == 4 ? TC_MMA_M16N8K8_TF32 : TC_MMA_M16N8K32_E4M3;
}

/* ------------------------------------------------ the instructions */

/* D operand lists by the count R of a lane's D registers (fp32: N/2, fp16
   pairs: N/4): "{%0,..,%R-1}" and the bindings of d[] with constraint c. */
#define WG_D10(p) "%" #p "0,%" #p "1,%" #p "2,%" #p "3,%" #p "4,%" #p "5,%" #p "6,%" #p "7,%" #p "8,%" #p "9,"
#define WG_DREGS_2 "{%0,%1}"
#define WG_DREGS_4 "{%0,%1,%2,%3}"
#define WG_DREGS_16 "{" WG_D10() "%10,%11,%12,%13,%14,%15}"
#define WG_DREGS_32 "{" WG_D10() WG_D10(1) WG_D10(2) "%30,%31}"
#define WG_DREGS_64 "{" WG_D10() WG_D10(1) WG_D10(2) WG_D10(3) WG_D10(4) WG_D10(5) "%60,%61,%62,%63}"
#define WG_DREGS_128 "{" WG_D10() WG_D10(1) WG_D10(2) WG_D10(3) WG_D10(4) WG_D10(5) WG_D10(6) WG_D10(7) \
    WG_D10(8) WG_D10(9) WG_D10(10) WG_D10(11) "%120,%121,%122,%123,%124,%125,%126,%127}"
#define WG_F2(c, i) c(d[i]), c(d[(i) + 1])
#define WG_F4(c, i) WG_F2(c, i), WG_F2(c, (i) + 2)
#define WG_F16(c, i) WG_F4(c, i), WG_F4(c, (i) + 4), WG_F4(c, (i) + 8), WG_F4(c, (i) + 12)
#define WG_F32(c, i) WG_F16(c, i), WG_F16(c, (i) + 16)
#define WG_OUT_2(c) WG_F2(c, 0)
#define WG_OUT_4(c) WG_F4(c, 0)
#define WG_OUT_16(c) WG_F16(c, 0)
#define WG_OUT_32(c) WG_F32(c, 0)
#define WG_OUT_64(c) WG_F32(c, 0), WG_F32(c, 32)
#define WG_OUT_128(c) WG_F32(c, 0), WG_F32(c, 32), WG_F32(c, 64), WG_F32(c, 96)
/* The operands after D: descriptor A ("ss") or A's 4 registers ("rs"), descriptor B, scale-d. */
#define WG_SS_2 "%2, %3, p", "%4"
#define WG_SS_4 "%4, %5, p", "%6"
#define WG_SS_16 "%16, %17, p", "%18"
#define WG_SS_32 "%32, %33, p", "%34"
#define WG_SS_64 "%64, %65, p", "%66"
#define WG_SS_128 "%128, %129, p", "%130"
#define WG_RS_2 "{%2,%3,%4,%5}, %6, p", "%7"
#define WG_RS_4 "{%4,%5,%6,%7}, %8, p", "%9"
#define WG_RS_16 "{%16,%17,%18,%19}, %20, p", "%21"
#define WG_RS_32 "{%32,%33,%34,%35}, %36, p", "%37"
#define WG_RS_64 "{%64,%65,%66,%67}, %68, p", "%69"
#define WG_RS_128 "{%128,%129,%130,%131}, %132, p", "%133"
/* wgmma.sp: after descriptor B (or A's registers and descriptor B) come
   sp-meta and sp-sel (an immediate), then scale-d. */
#define WG_SPSS_2 "%2, %3, %4, %5, p", "%6"
#define WG_SPSS_4 "%4, %5, %6, %7, p", "%8"
#define WG_SPSS_16 "%16, %17, %18, %19, p", "%20"
#define WG_SPSS_32 "%32, %33, %34, %35, p", "%36"
#define WG_SPSS_64 "%64, %65, %66, %67, p", "%68"
#define WG_SPSS_128 "%128, %129, %130, %131, p", "%132"
#define WG_SPRS_2 "{%2,%3,%4,%5}, %6, %7, %8, p", "%9"
#define WG_SPRS_4 "{%4,%5,%6,%7}, %8, %9, %10, p", "%11"
#define WG_SPRS_16 "{%16,%17,%18,%19}, %20, %21, %22, p", "%23"
#define WG_SPRS_32 "{%32,%33,%34,%35}, %36, %37, %38, p", "%39"
#define WG_SPRS_64 "{%64,%65,%66,%67}, %68, %69, %70, p", "%71"
#define WG_SPRS_128 "{%128,%129,%130,%131}, %132, %133, %134, p", "%135"
/* Per form S (DN dense, SP sparse): the instruction's infix, the operand
   lists and the inputs after D. */
#define WG_SPX_DN ""
#define WG_SPX_SP ".sp"
#define WG_OPS_DN_SS(r) WG_SS_##r
#define WG_OPS_DN_RS(r) WG_RS_##r
#define WG_OPS_SP_SS(r) WG_SPSS_##r
#define WG_OPS_SP_RS(r) WG_SPRS_##r
#define WG_RA "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3])
#define WG_IN_DN_SS "l"(da), "l"(db), "r"(1)
#define WG_IN_DN_RS WG_RA, "l"(db), "r"(1)
#define WG_IN_SP_SS "l"(da), "l"(db), "r"(e), "n"(SEL), "r"(1)
#define WG_IN_SP_RS WG_RA, "l"(db), "r"(e), "n"(SEL), "r"(1)
/* PTX type names and the trailing transpose immediates (16-bit types only: K-major, 0). */
#define WG_T_TC_FP16 "f16"
#define WG_T_TC_BF16 "bf16"
#define WG_T_TC_TF32 "tf32"
#define WG_T_TC_E4M3 "e4m3"
#define WG_T_TC_E5M2 "e5m2"
#define WG_TR_ss_TC_FP16 ", 0, 0"
#define WG_TR_ss_TC_BF16 ", 0, 0"
#define WG_TR_ss_TC_TF32 ""
#define WG_TR_ss_TC_E4M3 ""
#define WG_TR_ss_TC_E5M2 ""
#define WG_TR_rs_TC_FP16 ", 0"
#define WG_TR_rs_TC_BF16 ", 0"
#define WG_TR_rs_TC_TF32 ""
#define WG_TR_rs_TC_E4M3 ""
#define WG_TR_rs_TC_E5M2 ""
#define WG_PTX(S, n, k, dt, a, b) "wgmma.mma_async" WG_SPX_##S ".sync.aligned.m64n" #n "k" #k "." dt "." WG_T_##a "." WG_T_##b
/* The asm text; ops_scale is two strings (the operands after D, the scale-d operand). */
#define WG_TEXT2(ptx, dregs, ops, scale, tr) \
    "{\n.reg .pred p;\nsetp.ne.b32 p, " scale ", 0;\n" ptx " " dregs ", " ops ", 1, 1" tr ";\n}\n"
#define WG_TEXT(ptx, dregs, ops_scale, tr) WG_TEXT2(ptx, dregs, ops_scale, tr)
/* One wgmma of form S (DN, SP) and width n with r D registers of type dt, bound with constraint c. */
#define WG_ASM(S, n, r, dt, c, k, a, b)                                                                       \
    if constexpr (RS)                                                                                         \
        asm volatile(WG_TEXT(WG_PTX(S, n, k, dt, a, b), WG_DREGS_##r, WG_OPS_##S##_RS(r), WG_TR_rs_##a)       \
                     : WG_OUT_##r(c) : WG_IN_##S##_RS : "memory");                                            \
    else                                                                                                      \
        asm volatile(WG_TEXT(WG_PTX(S, n, k, dt, a, b), WG_DREGS_##r, WG_OPS_##S##_SS(r), WG_TR_ss_##a)       \
                     : WG_OUT_##r(c) : WG_IN_##S##_SS : "memory");
/* fp16 accumulators, for the rows that offer them (f16 column 1). */
#define WG_H_0(S, n, r, k, a, b)
#define WG_H_1(S, n, r, k, a, b) if constexpr (H) { WG_ASM(S, n, r, "f16", "+r", k, a, b) }
#define WG_ONE(S, n, rf, rh, k, a, b, f16)                          \
    if constexpr (N == n) {                                         \
        if constexpr (!H) { WG_ASM(S, n, rf, "f32", "+f", k, a, b) } \
        TC__XPASTE3(WG_H_, f16, )(S, n, rh, k, a, b)                \
    }
/* One case per table row that one warpgroup issues (threads 128): dense
   (sparse group 0) and wgmma.sp (2:4 group 4, tf32's 1:2 group 2). */
#define WG_ROW(id, name, ptx, m, n, k, in, inb, f16, grp, keep, sel, ml, ae, be, ce, archs, layout, thr, nstep) \
    TC__XPASTE3(WG_ROW_, thr, )(id, k, in, inb, f16, grp)
#define WG_ROW_1(id, k, in, inb, f16, grp)
#define WG_ROW_32(id, k, in, inb, f16, grp)
#define WG_ROW_128(id, k, in, inb, f16, grp) TC__XPASTE3(WG_FORM_, grp, )(id, k, in, inb, f16)
#define WG_FORM_0(id, k, in, inb, f16) WG_CASE(DN, id, k, in, inb, f16)
#define WG_FORM_2(id, k, in, inb, f16) WG_CASE(SP, id, k, in, inb, f16)
#define WG_FORM_4(id, k, in, inb, f16) WG_CASE(SP, id, k, in, inb, f16)
#define WG_CASE(S, id, k, in, inb, f16)                                                                   \
    if constexpr (I == id) {                                                                              \
        WG_ONE(S, 8, 4, 2, k, in, inb, f16) WG_ONE(S, 64, 32, 16, k, in, inb, f16)                        \
        WG_ONE(S, 256, 128, 64, k, in, inb, f16)                                                          \
    }

/* D += A B for row I at width N, D in this lane's accumulators: d[N/2]
   fp32 (Acc float) or d[N/4] pairs of fp16 (Acc uint32_t, the lower
   element in the low half); A from descriptor da, or (RS) from registers
   ra; B from descriptor db; a wgmma.sp row also reads metadata register e
   with sparsity selector SEL (dense rows ignore both). Built for another
   target it traps; main runs it only on sm_90. */
template <int I, int N, bool RS, int SEL, typename Acc>
__device__ __forceinline__ void wgmma_op(Acc *d, uint64_t da, const uint32_t *ra, uint64_t db, uint32_t e) {
    constexpr bool H = std::is_same<Acc, uint32_t>::value;
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    TC__MMA_INSTR_LIST(WG_ROW)
#else
    (void)d; (void)da; (void)ra; (void)db; (void)e;
    __trap();
#endif
}

/* The PTX spelling wgmma_op issues for row `instr` at width n, written from
   the same pieces (NULL for a row that is not a dense warpgroup row). */
static const char *built_ptx(tc_mma_instr instr, int n) {
#undef WG_CASE
#define WG_CASE(S, id, k, in, inb, f16)                         \
    if (instr == id) {                                          \
        if (n == 8) return WG_PTX(S, 8, k, "f32", in, inb);     \
        if (n == 64) return WG_PTX(S, 64, k, "f32", in, inb);   \
        if (n == 256) return WG_PTX(S, 256, k, "f32", in, inb); \
    }
    TC__MMA_INSTR_LIST(WG_ROW)
    return NULL;
}

__device__ static void fence_async_shared(void) { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
__device__ static void wg_fence(void) { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ static void wg_commit(void) { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
/* Pins the accumulators in place among the volatile asms: the compiler may
   neither move their writes past the wgmma.fence that follows nor their
   reads before the wait that comes before (a register write inside the
   pipeline makes ptxas serialize every wgmma). */
template <int R> __device__ static void fence_operands(float *d) {
#pragma unroll
    for (int i = 0; i < R; i++) asm volatile("" : "+f"(d[i])::"memory");
}
template <int R> __device__ static void fence_operands(uint32_t *d) {
#pragma unroll
    for (int i = 0; i < R; i++) asm volatile("" : "+r"(d[i])::"memory");
}
/* Waits for every committed wgmma; R accumulator registers. */
template <int R, typename Acc> __device__ static void wg_wait(Acc *d) {
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    fence_operands<R>(d);
}

/* One wgmma start to finish on R accumulator registers: fence, issue,
   commit, wait. */
template <int I, int N, bool RS, int SEL, int R, typename Acc>
__device__ static void wgmma_once(Acc *d, uint64_t da, const uint32_t *ra, uint64_t db, uint32_t e) {
    fence_operands<R>(d);
    wg_fence();
    wgmma_op<I, N, RS, SEL>(d, da, ra, db, e);
    wg_commit();
    wg_wait<R>(d);
}

/* ------------------------------------------------ kernels */

/* Bytes of one row of B (N x K, K-major): K elements. */
__device__ static int b_row_bytes(const tc_mma_instr_info &in) { return in.k * elem_bytes(in.b_type); }

/* Fills shared A (64 rows of KA elements) and B (N rows, the columns of B)
   in the core layout from element bits (A 64 x KA row-major, B K x N
   row-major). */
__device__ static void fill_shared(const tc_mma_instr_info &in, int KA, int N, const uint32_t *A, const uint32_t *B,
                                   uint8_t *sA, uint8_t *sB) {
    const int ea = elem_bytes(in.in), eb = elem_bytes(in.b_type), K = in.k, rb = b_row_bytes(in);
    for (int i = threadIdx.x; i < M * KA; i += blockDim.x)
        for (int j = 0; j < ea; j++) sA[core_offset(i / KA, (i % KA) * ea + j, ROW_BYTES)] = (uint8_t)(A[i] >> (8 * j));
    for (int i = threadIdx.x; i < K * N; i += blockDim.x)
        for (int j = 0; j < eb; j++) sB[core_offset(i % N, (i / N) * eb + j, rb)] = (uint8_t)(B[i] >> (8 * j));
    fence_async_shared();
    __syncthreads();
}

/* The metadata register of warpgroup thread tid for a wgmma.sp row at
   selector sel: the nibbles tc_sparse_meta_coord names, from meta (64 rows
   of `words` words, tc_sparse_compress's layout); 0 in the threads the
   selector leaves out, so a GPU that read one would see illegal codes. */
__device__ static uint32_t meta_reg(tc_mma_instr I, int sel, int tid, const uint32_t *meta, int words) {
    uint32_t e = 0;
    for (int j = 0; j < 8; j++) {
        int used = 0, r = 0, g = 0;
        if (tc_sparse_meta_coord(I, sel, tid, j, &used, &r, &g) == TC_OK && used)
            e |= ((meta[r * words + g / 8] >> (4 * (g % 8))) & 0xFu) << (4 * j);
    }
    return e;
}

/* One warpgroup per test matrix t: D = A B + C, fp32 accumulators or (H)
   fp16 (C then holds fp16 values). A: 64 x KA codes, KA = K, or for a
   wgmma.sp row its compressed K/2 with metadata E (64 x words per test
   matrix) read at selector SEL. */
template <int I, int N, bool RS, bool H, int SEL>
__global__ void __launch_bounds__(128) wgmma_kernel(const uint32_t *A, const uint32_t *B, const uint32_t *E, int words,
                                                    const float *C, float *D) {
    __shared__ __align__(128) uint8_t sA[M * ROW_BYTES];
    __shared__ __align__(128) uint8_t sB[NMAX * B_ROW_MAX];
    tc_mma_instr_info info;
    tc_mma_instr_get((tc_mma_instr)I, &info);
    const int K = info.k, KA = info.sparse_group ? K / 2 : K, t = blockIdx.x, w = threadIdx.x / 32, lane = threadIdx.x % 32;
    const uint32_t *a = A + (size_t)t * M * KA;
    fill_shared(info, KA, N, a, B + (size_t)t * K * N, sA, sB);
    const uint32_t e = info.sparse_group ? meta_reg((tc_mma_instr)I, SEL, threadIdx.x, E + (size_t)t * M * words, words) : 0;
    uint32_t ra[4] = { 0, 0, 0, 0 };
    if (RS) {
        const tc_mma_instr lay = a_layout_row(info.in);
        tc_mma_instr_info li;
        tc_mma_instr_get(lay, &li);
        const int per = li.a_elems / li.a_regs, bits = 32 / per;
        for (int i = 0; i < li.a_elems; i++) {
            int r, c;
            tc_mma_frag_coord(lay, TC_FRAG_A, lane, i, &r, &c);
            const uint32_t v = a[(16 * w + r) * KA + c];   /* a code of the type: no bits above its width */
            ra[i / per] |= v << (bits * (i % per));
        }
    }
    float d[N / 2];
    const float *cm = C + (size_t)t * M * N;
    float *dm = D + (size_t)t * M * N;
#pragma unroll
    for (int i = 0; i < N / 2; i++) { int r, c; d_coord(w, lane, i, &r, &c); d[i] = cm[r * N + c]; }
    if constexpr (H) {
        uint32_t h[N / 4];
#pragma unroll
        for (int i = 0; i < N / 4; i++) h[i] = tc_encode(TC_FP16, d[2 * i], TC_RN) | tc_encode(TC_FP16, d[2 * i + 1], TC_RN) << 16;
        wgmma_once<I, N, RS, SEL, N / 4>(h, smem_desc(sA, ROW_BYTES), ra, smem_desc(sB, b_row_bytes(info)), e);
#pragma unroll
        for (int i = 0; i < N / 2; i++) d[i] = tc_decode(TC_FP16, (h[i / 2] >> (16 * (i % 2))) & 0xFFFFu);
    } else {
        wgmma_once<I, N, RS, SEL, N / 2>(d, smem_desc(sA, ROW_BYTES), ra, smem_desc(sB, b_row_bytes(info)), e);
    }
#pragma unroll
    for (int i = 0; i < N / 2; i++) { int r, c; d_coord(w, lane, i, &r, &c); dm[r * N + c] = d[i]; }
}

/* One warpgroup, cycles per wgmma in out[0]: DEP, a dependent chain (each
   waits for the one before: wgmma, commit, wait_group 0); else wgmmas
   issued back to back into the same accumulators, one commit and wait at
   the end. Operands are zero: the time does not depend on them; a
   wgmma.sp row gets selector 0 and metadata 0x44444444 (every group keeps
   positions 0 and 1: a legal code, 0b0100, for 2:4 and tf32's 1:2 alike). */
template <int I, int N, bool DEP>
__global__ void __launch_bounds__(128) wgmma_time_kernel(long long *out, float *sink) {
    __shared__ __align__(128) uint8_t sA[M * ROW_BYTES];
    __shared__ __align__(128) uint8_t sB[NMAX * B_ROW_MAX];
    tc_mma_instr_info info;
    tc_mma_instr_get((tc_mma_instr)I, &info);
    for (int i = threadIdx.x; i < M * ROW_BYTES; i += blockDim.x) sA[i] = 0;
    for (int i = threadIdx.x; i < NMAX * B_ROW_MAX; i += blockDim.x) sB[i] = 0;
    fence_async_shared();
    __syncthreads();
    const uint64_t da = smem_desc(sA, ROW_BYTES), db = smem_desc(sB, b_row_bytes(info));
    const uint32_t ra[4] = { 0, 0, 0, 0 };
    float d[N / 2];
#pragma unroll
    for (int i = 0; i < N / 2; i++) d[i] = 0.0f;
    fence_operands<N / 2>(d);
    const long long t0 = clock64();
    /* Each batch is fenced and committed as CUTLASS's main loops do: ptxas
       otherwise injects the fence itself (warpgroup.arrive, note C7519)
       at a looped wgmma and at the commit after the loop, and the loop ran
       with fences it did not show. A batch is one dependent wgmma, or
       TIME_BATCH back-to-back ones, unrolled. */
#pragma unroll 1
    for (int k = 0; k < TIME_ITERS; k += DEP ? 1 : TIME_BATCH) {
        wg_fence();
#pragma unroll
        for (int j = 0; j < (DEP ? 1 : TIME_BATCH); j++) wgmma_op<I, N, false, 0>(d, da, ra, db, 0x44444444u);
        wg_commit();
        if (DEP) wg_wait<N / 2>(d);
    }
    if (!DEP) wg_wait<N / 2>(d);
    const long long t1 = clock64();
    if (threadIdx.x == 0) out[0] = (t1 - t0) / TIME_ITERS;
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < N / 2; i++) s += d[i];
    sink[threadIdx.x] = s;
}

/* ------------------------------------------------ inputs */

/* A random element of t for family fam, as its register bits (tf32: fp32
   bits) and its value. FAM_BAND: normal, exponent within 8 of the bias. */
static uint32_t gen_code(tc_dtype t, int fam) {
    const tc_format *f = tc_format_of(t == TC_TF32 ? TC_FP32 : t);
    const uint32_t mask = f->total_bits == 32 ? 0xFFFFFFFFu : (1u << f->total_bits) - 1u;
    const uint32_t mant = (1u << f->mantissa_bits) - 1u, sign = 1u << (f->total_bits - 1);
    const uint32_t exp_top = (1u << f->exponent_bits) - 1u, bias = exp_top / 2;
    const int ieee_top = t != TC_E4M3;   /* the top exponent is Inf/NaN (e4m3: only S.1111.111 is NaN) */
    uint32_t c = rand32() & mask, e;
    if (fam == FAM_RAW) return c;
    if (fam == FAM_SMALL) return c & (sign | mant);
    e = fam == FAM_BAND && exp_top > 16 ? bias - 8 + rand32() % 16 : 1 + rand32() % (exp_top - (uint32_t)ieee_top);
    c = (c & (sign | mant)) | (e << f->mantissa_bits);
    if (t == TC_E4M3 && (c & ~sign) == 0x7F) c--;
    return c;
}

static float value_of(tc_dtype t, uint32_t code) {
    if (t == TC_TF32) { float f; memcpy(&f, &code, sizeof f); return f; }
    return tc_decode(t, code);
}

/* The register bits of value x of type t (tf32: its fp32 bits, low 13 kept). */
static uint32_t code_of(tc_dtype t, float x) {
    if (t == TC_TF32) { uint32_t c; memcpy(&c, &x, sizeof c); return c; }
    return tc_encode(t, x, TC_RN);
}

/* Test matrices of one row at width N. A dense row's A is ac (64 x K
   codes) with values A; a wgmma.sp row's A is 64 x K with the row's
   pattern (tf32 1:2, else 2:4; the kept positions random, the cancelling
   family keeps adjacent pairs), compressed by tc_sparse_compress into
   values A and metadata meta (64 x words per test matrix), ac then the
   64 x K/2 codes of those values (any NaN becomes the type's NaN code). */
struct Case {
    int T, K, KA, N, words;
    std::vector<uint32_t> ac, bc, meta;
    std::vector<float> A, B, C;
};

static void make_inputs(const tc_mma_instr_info &in, int N, Case &cs) {
    const int T = PER_FAM * N_FAM, K = in.k, grp = in.sparse_group;
    const tc_format *fb = tc_format_of(in.b_type == TC_TF32 ? TC_FP32 : in.b_type);
    cs.T = T; cs.K = K; cs.KA = grp ? K / 2 : K; cs.N = N; cs.words = 0;
    std::vector<uint32_t> ad((size_t)T * M * K);
    cs.bc.resize((size_t)T * K * N);
    cs.C.resize((size_t)T * M * N);
    for (int t = 0; t < T; t++) {
        const int fam = t / PER_FAM, gfam = fam == FAM_CANCEL ? FAM_BAND : fam;
        uint32_t *a = &ad[(size_t)t * M * K], *b = &cs.bc[(size_t)t * K * N];
        for (int i = 0; i < M * K; i++) a[i] = gen_code(in.in, gfam);
        for (int k = 0; k < K; k++)
            for (int j = 0; j < N; j++)
                b[k * N + j] = fam == FAM_CANCEL && (k & 1) ? b[(k - 1) * N + j] ^ (1u << (fb->total_bits - 1)) : gen_code(in.b_type, gfam);
        if (fam == FAM_CANCEL)
            for (int i = 0; i < M; i++) for (int k = 1; k < K; k += 2) a[i * K + k] = a[i * K + k - 1];
        for (int i = 0; grp && i < M * K; i += grp) {   /* zero all but in.sparse_keep of each group */
            unsigned keep;
            if (grp == 2) keep = 1u << (rand32() & 1);
            else if (fam == FAM_CANCEL) keep = rand32() & 1 ? 0xCu : 0x3u;
            else { static const unsigned pairs[6] = { 0x3, 0x5, 0x9, 0x6, 0xA, 0xC }; keep = pairs[rand32() % 6]; }
            for (int g = 0; g < grp; g++) if (!(keep >> g & 1)) a[i + g] = 0;   /* +0 in every type */
        }
        for (int i = 0; i < M * N; i++)
            cs.C[(size_t)t * M * N + i] = rand32() % 4 == 0 ? 0.0f : ldexpf(rand_sym(), (int)(rand32() % 16) - 8);
    }
    cs.B.resize(cs.bc.size());
    for (size_t i = 0; i < cs.bc.size(); i++) cs.B[i] = value_of(in.b_type, cs.bc[i]);
    std::vector<float> Ad(ad.size());
    for (size_t i = 0; i < ad.size(); i++) Ad[i] = value_of(in.in, ad[i]);
    if (!grp) { cs.ac = ad; cs.A = Ad; return; }
    if (tc_sparse_meta_words(in.in, K, &cs.words) != TC_OK) { printf("wgmma: no metadata size for %s\n", in.name); exit(EXIT_MISMATCH); }
    cs.A.resize((size_t)T * M * cs.KA); cs.ac.resize(cs.A.size()); cs.meta.resize((size_t)T * M * cs.words);
    for (int t = 0; t < T; t++)
        if (tc_sparse_compress(in.in, M, K, &Ad[(size_t)t * M * K], K, &cs.A[(size_t)t * M * cs.KA], cs.KA,
                               &cs.meta[(size_t)t * M * cs.words], cs.words, 0, NULL) != TC_OK) {
            printf("wgmma: tc_sparse_compress refused test %d of %s\n", t, in.name);
            exit(EXIT_MISMATCH);
        }
    for (size_t i = 0; i < cs.A.size(); i++) cs.ac[i] = code_of(in.in, cs.A[i]);
}

/* ------------------------------------------------ check and time */

/* Runs row I at width N (A from shared memory, or RS: registers; fp32
   accumulators, or H: fp16) on the GPU with C and compares with want;
   returns the mismatches. */
template <int I, int N, bool RS, bool H, int SEL>
static long check_one(const tc_mma_instr_info &in, const Case &cs, const std::vector<float> &C, const std::vector<float> &want) {
    const size_t outs = (size_t)cs.T * M * N;
    std::vector<float> D(outs);
    uint32_t *dA, *dB, *dE;
    float *dC, *dD;
    CUDA_CHECK(cudaMalloc(&dA, cs.ac.size() * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dB, cs.bc.size() * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&dE, (cs.meta.size() + 1) * sizeof(uint32_t)));   /* + 1: never a zero-byte allocation */
    if (!cs.meta.empty()) CUDA_CHECK(cudaMemcpy(dE, cs.meta.data(), cs.meta.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMalloc(&dC, outs * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dD, outs * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dA, cs.ac.data(), cs.ac.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, cs.bc.data(), cs.bc.size() * sizeof(uint32_t), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dC, C.data(), outs * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dD, 0xFF, outs * sizeof(float)));
    wgmma_kernel<I, N, RS, H, SEL><<<cs.T, 128>>>(dA, dB, dE, cs.words, dC, dD);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(D.data(), dD, outs * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(dA)); CUDA_CHECK(cudaFree(dB)); CUDA_CHECK(cudaFree(dE)); CUDA_CHECK(cudaFree(dC)); CUDA_CHECK(cudaFree(dD));
    ValidateOptions shown, count;
    shown.compare = count.compare = CMP_BITS_NAN;
    shown.cols = N;
    shown.show = 4;
    shown.summary = count.summary = false;
    count.show = 0;
    const long bad = (long)validate("D", D, want, shown);
    printf("  %s N = %-3d %s %s accumulators", in.name, N, RS ? "A registers" : "A shared", H ? "f16" : "f32");
    if (in.sparse_group) printf(" sp-sel %d", SEL);
    printf(" %7zu outputs: %ld mismatches\n", outs, bad);
    if (bad) {
        const size_t per = (size_t)PER_FAM * M * N;
        long by_warp[4] = { 0, 0, 0, 0 }, by_reg[NMAX / 2] = { 0 };
        printf("    (D[64 t + r][c] above: test matrix t, its row r; %d test matrices per family)\n    by family:", PER_FAM);
        for (int f = 0; f < N_FAM; f++) printf(" %s %zu", fam_names[f], validate("D", &D[f * per], &want[f * per], per, count));
        for (size_t e = 0; e < outs; e++) {
            if (values_match(D[e], want[e], count)) continue;
            const int r = (int)(e % ((size_t)M * N)) / N, c = (int)(e % N);
            by_warp[r / 16]++;
            by_reg[(c / 8) * 4 + ((r % 16) / 8) * 2 + c % 2]++;   /* d_coord's register index of (r, c) */
        }
        printf("\n    by warp (rows 16w..): %ld %ld %ld %ld; by fp32 D register index i (d_coord):", by_warp[0], by_warp[1],
               by_warp[2], by_warp[3]);
        for (int i = 0; i < N / 2; i++) if (by_reg[i]) printf(" %d:%ld", i, by_reg[i]);
        printf("\n    where to look: every family and both A sources wrong: B's descriptor or core layout (smem_desc,\n"
               "    core_offset); only \"A shared\": A's; only \"A registers\": a_layout_row; some registers or warps:\n"
               "    d_coord; only some families, scattered: the numerics model (tensorcore.h section 2); a wgmma.sp\n"
               "    row whose dense row matches: the metadata (tc_sparse_meta_coord, meta_reg) or the compressed A\n");
    }
    return bad;
}

/* Cycles of 64 wgmmas of row i at width n on the h100 profile (one
   warpgroup), per wgmma: dependent (each reads the last result) or
   independent (8 accumulators in turn). */
static double model_cycles(const tc_sim_profile *g, tc_mma_instr i, int n, int dependent) {
    tc_sim_program p;
    tc_sim_options o;
    tc_sim_result r;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    for (int k = 0; k < 64; k++) tc_sim_mma_n(&p, i, n, dependent ? 0 : 8 + k % 8, 1, 2, dependent ? 0 : 8 + k % 8);
    tc_sim_exit(&p);
    o.sms = 1;
    o.warps_per_sm = 4;
    const tc_status s = tc_sim_run(g, &p, &o, &r);
    tc_sim_program_free(&p);
    if (s != TC_OK) return -1.0;
    const double c = (double)r.cycles / 64.0;
    tc_sim_result_free(&r);
    return c;
}

template <int I, int N>
static void time_one(const tc_mma_instr_info &in, const tc_sim_profile *g, long long *d_out, float *d_sink) {
    long long out[2];
    for (int warm = 0; warm < 2; warm++) wgmma_time_kernel<I, N, true><<<1, 128>>>(d_out, d_sink);   /* the second: code cached */
    CUDA_CHECK(cudaMemcpy(&out[0], d_out, sizeof out[0], cudaMemcpyDeviceToHost));
    for (int warm = 0; warm < 2; warm++) wgmma_time_kernel<I, N, false><<<1, 128>>>(d_out, d_sink);
    CUDA_CHECK(cudaMemcpy(&out[1], d_out, sizeof out[1], cudaMemcpyDeviceToHost));
    printf("  %-26s N = %3d  latency %5lld measured here, %6.1f model;  interval %5lld measured here, %6.1f model\n", in.name,
           N, out[0], model_cycles(g, (tc_mma_instr)I, N, 1), out[1], model_cycles(g, (tc_mma_instr)I, N, 0));
}

/* Row I at width N: A from shared memory and from registers, at every
   sparsity selector of a wgmma.sp row (sp-sel is an immediate: 0 and 1
   for f16, bf16 and tf32, 0 for FP8; the table's selectors). */
#define WG_SELECTORS(id, name, ptx, m, n, k, in, inb, f16, grp, keep, sel, ml, ae, be, ce, archs, layout, thr, nstep) \
    I == id ? sel:
template <int I> constexpr int selectors_of() { return TC__MMA_INSTR_LIST(WG_SELECTORS) 0; }

template <int I, int N, bool H>
static long check_both(const tc_mma_instr_info &in, const Case &cs, const std::vector<float> &C, const std::vector<float> &want) {
    long bad = check_one<I, N, false, H, 0>(in, cs, C, want) + check_one<I, N, true, H, 0>(in, cs, C, want);
    if constexpr (selectors_of<I>() > 1) bad += check_one<I, N, false, H, 1>(in, cs, C, want) + check_one<I, N, true, H, 1>(in, cs, C, want);
    return bad;
}

/* The header's model of test matrix t: tc_mma_run for a dense row;
   tc_sparse_gemm_ex on the compressed A and its metadata for a wgmma.sp
   row (tc_mma_run refuses sparse kinds; its numerics for wgmma.sp are
   ASSUMED: the dense wgmma on each K half of the decompressed A, chained). */
static tc_status model(tc_mma_instr id, const tc_mma_instr_info &in, const Case &cs, int t, tc_dtype out, const float *C, float *D) {
    const int N = cs.N;
    const float *B = &cs.B[(size_t)t * cs.K * N];
    if (!in.sparse_group) return tc_mma_run(TC_ARCH_H100, id, N, out, &cs.A[(size_t)t * M * cs.K], B, C, D);
    tc_sparse_gemm_desc sd;
    memset(&sd, 0, sizeof sd);
    sd.gemm.arch = TC_ARCH_H100; sd.gemm.in = in.in; sd.gemm.out = out;
    sd.gemm.M = M; sd.gemm.N = N; sd.gemm.K = cs.K;
    sd.gemm.A = &cs.A[(size_t)t * M * cs.KA]; sd.gemm.lda = cs.KA;
    sd.gemm.B = B; sd.gemm.ldb = N; sd.gemm.C = C; sd.gemm.ldc = N; sd.gemm.D = D; sd.gemm.ldd = N;
    sd.gemm.options.b_type = in.b_type;
    sd.meta = &cs.meta[(size_t)t * M * cs.words]; sd.ldm = cs.words;
    return tc_sparse_gemm_ex(&sd);
}

/* Row I: its check at every width from both A sources with fp32
   accumulators and (where the row offers them) fp16 ones, or (timing) its
   latency and interval at N = 256 and 64. */
template <int I> static long run_row(bool timing, const tc_sim_profile *g, long long *d_out, float *d_sink) {
    tc_mma_instr_info in;
    tc_mma_instr_get((tc_mma_instr)I, &in);
    if (timing) {
        time_one<I, 256>(in, g, d_out, d_sink);
        time_one<I, 64>(in, g, d_out, d_sink);
        return 0;
    }
    long bad = 0;
    for (int w = 0; w < COUNT_OF(widths); w++) {
        const int N = widths[w];
        Case cs;
        rng_seed(0x3C90ull * 1000 + (uint64_t)I * 7 + (uint64_t)N);
        make_inputs(in, N, cs);
        for (int h = 0; h <= in.fp16_accumulate; h++) {
            const tc_dtype out = h ? TC_FP16 : TC_FP32;
            std::vector<float> C(cs.C), want(cs.C.size());
            for (float &c : C) c = tc_round(out, c, TC_RN);
            for (int t = 0; t < cs.T; t++)
                if (model((tc_mma_instr)I, in, cs, t, out, &C[(size_t)t * M * N], &want[(size_t)t * M * N]) != TC_OK) {
                    printf("wgmma: the model refused test %d of %s at N = %d\n", t, in.name, N);
                    return 1;
                }
            if (N == 8) bad += h ? check_both<I, 8, true>(in, cs, C, want) : check_both<I, 8, false>(in, cs, C, want);
            else if (N == 64) bad += h ? check_both<I, 64, true>(in, cs, C, want) : check_both<I, 64, false>(in, cs, C, want);
            else bad += h ? check_both<I, 256, true>(in, cs, C, want) : check_both<I, 256, false>(in, cs, C, want);
        }
    }
    return bad;
}

typedef long (*RowFn)(bool, const tc_sim_profile *, long long *, float *);
struct Row { tc_mma_instr id; RowFn run; };
#undef WG_CASE
#define WG_CASE(S, id, k, in, inb, f16) { id, run_row<id> },
static const Row rows[] = { TC__MMA_INSTR_LIST(WG_ROW) };

/* The table's PTX with "nN" spelled out as n<n>. */
static std::string table_ptx(const tc_mma_instr_info &in, int n) {
    std::string s = in.ptx;
    const size_t at = s.find("nN");
    if (at != std::string::npos) s.replace(at, 2, "n" + std::to_string(n));
    return s;
}

int main(int argc, char **argv) {
    std::vector<std::string> names;
    for (int k = 0; k < COUNT_OF(rows); k++) {
        tc_mma_instr_info in;
        tc_mma_instr_get(rows[k].id, &in);
        const std::string nm = in.name, sp = nm.compare(0, 3, "sp.") == 0 ? "sp." : "";
        names.push_back(sp + nm.substr(nm.find('.', nm.find('.', sp.size()) + 1) + 1));   /* less "wgmma.m64nNkK." */
        for (int w = 0; w < COUNT_OF(widths); w++)
            if (!built_ptx(rows[k].id, widths[w]) || table_ptx(in, widths[w]) != built_ptx(rows[k].id, widths[w])) {
                printf("wgmma: %s at N = %d: this program issues %s, the table says %s\n", in.name, widths[w],
                       built_ptx(rows[k].id, widths[w]), table_ptx(in, widths[w]).c_str());
                return EXIT_MISMATCH;
            }
    }
    std::vector<const char *> args;
    for (const std::string &a : names) args.push_back(a.c_str());
    const int pick = parse_args(argc, argv, "wgmma [f16|bf16|tf32|e4m3|e5m2|e4m3.e5m2|e5m2.e4m3|sp.f16|sp.bf16|sp.tf32|sp.e4m3|...]",
                                args.data(), (int)args.size());
    cudaDeviceProp prop;
    if (!gpu_sm("wgmma", 90, &prop)) return EXIT_NO_GPU;
    const int sm = prop.major * 10 + prop.minor;
    if (sm != 90) {
        printf("wgmma: no suitable GPU: %s is sm_%d; wgmma is sm_90a's\n", prop.name, sm);
        return EXIT_NO_GPU;
    }
    const tc_gpu *h100 = tc_gpu_find("h100");
    printf("wgmma: %s (sm_%d) against the %s model (tc_mma_run; MMA-Sim's wgmma: F = 25, FP8 13, one group of K;\n"
           "  wgmma.sp: tc_sparse_gemm_ex, ASSUMED the dense wgmma on each K half of the decompressed A)\n",
           prop.name, sm, tc_arch_name(TC_ARCH_H100));
    long long *d_out;
    float *d_sink;
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(long long)));
    CUDA_CHECK(cudaMalloc(&d_sink, 128 * sizeof(float)));
    long total_bad = 0;
    for (int k = 0; k < COUNT_OF(rows); k++)
        if (selected(pick, k)) total_bad += rows[k].run(false, &h100->profile, d_out, d_sink);
    printf("wgmma: %s\n", total_bad ? "MISMATCH (no timing: a wrong result's time means nothing)" : "every output bit equals the model");
    if (!total_bad) {
        printf("timing, cycles per wgmma (SM clock; clock64 adds a few per timed region), %s profile as the model\n"
               "  (its sp.wgmma figures are ASSUMED: the dense wgmma's latency, its measured rate x 2):\n", h100->name);
        for (int k = 0; k < COUNT_OF(rows); k++)
            if (selected(pick, k)) rows[k].run(true, &h100->profile, d_out, d_sink);
    }
    CUDA_CHECK(cudaFree(d_out)); CUDA_CHECK(cudaFree(d_sink));
    return total_bad ? EXIT_MISMATCH : EXIT_OK;
}
