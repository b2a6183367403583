/* tensorcore.h - how NVIDIA Tensor Cores compute, and how fast.      v0.1.0
   An educational, single-header C reference. Public domain / MIT (see end).

   USAGE
     In exactly one C or C++ file (or one .cu file):
         #define TENSORCORE_IMPLEMENTATION
         #include "tensorcore.h"
     Everywhere else just #include "tensorcore.h".

     Example: what does a bf16 Tensor Core operand do to 0.1?
         uint16_t b = tc_bf16_from_f32(0.1f, TC_RN);     // 0x3DCD
         char bits[40];
         tc_format_bits(TC_BF16, b, bits, sizeof bits);  // "0 01111011 1001101"
         printf("%s = %.9g\n", bits, tc_bf16_to_f32(b)); // 0.100097656

   OPTIONS (define before the #include that has TENSORCORE_IMPLEMENTATION)
     TC_STATIC              make every function static (private to one file)
     TC_ASSERT(x)           your assert; default assert() from <assert.h>.
                            Used only for internal invariants, never for user input.
     TC_MALLOC(n), TC_FREE(p)
                            your allocator: define both or neither.

   SECTIONS                                                       prefix
     1. Number formats: fp16, bf16, tf32, e4m3, e5m2 conversions    tc_fp16_ tc_bf16_
        with every rounding mode, array versions, bit-field tools   tc_tf32_ tc_e4m3_ ...
     2. Tensor Core MMA numerics (bit-accurate), fragment layouts   tc_mma_ tc_gemm tc_dot_
     3. Loss scaling                                                tc_scaler_
     4. 2:4 structured sparsity                                     tc_sparse_
     5. Cycle-approximate simulator                                 tc_sim_
   Sections 2-5 are filled in by later releases; the table says what the header
   will hold so that names stay stable.

   ERRORS
     Functions that can receive bad input return tc_status; tc_status_string()
     turns it into a sentence. Bad input never aborts. Scalar conversion
     primitives cannot fail except on an unknown rounding mode, for which they
     return the format's NaN (see tc_rounding_is_valid).

   GPU
     Under nvcc, functions marked TC_HOST_DEVICE are __host__ __device__, so
     kernels in cuda/ round with exactly the code the CPU tests verify.
*/
#ifndef TENSORCORE_H
#define TENSORCORE_H

#define TC_VERSION_MAJOR 0
#define TC_VERSION_MINOR 1
#define TC_VERSION_PATCH 0
#define TC_VERSION_STRING "0.1.0"

#include <stddef.h>
#include <stdint.h>

#ifdef TC_STATIC
#define TCDEF static
#else
#define TCDEF extern
#endif

#if defined(__CUDACC__)
#define TC_HOST_DEVICE __host__ __device__
#else
#define TC_HOST_DEVICE
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- status */

/* One table, so the enum and its messages cannot drift apart. */
#define TC__STATUS_LIST(X)                                                        \
    X(TC_OK,                   "ok")                                              \
    X(TC_ERR_NULL,             "a required pointer argument is NULL")            \
    X(TC_ERR_SIZE,             "a size or count is negative, zero where it must not be, or too large") \
    X(TC_ERR_ROUNDING,         "unknown rounding mode (use TC_RN, TC_RNA, TC_RZ, TC_RD or TC_RU, optionally | TC_SATFINITE)") \
    X(TC_ERR_DTYPE,            "unknown or unsupported data type for this operation") \
    X(TC_ERR_BUFFER,           "the output buffer is too small")                 \
    X(TC_ERR_NOT_REPRESENTABLE,"an input value is not representable in the declared input type") \
    X(TC_ERR_SHAPE,            "the matrix shape or leading dimension is invalid for this operation") \
    X(TC_ERR_ARCH,             "unknown architecture, or the architecture does not support this type") \
    X(TC_ERR_NOMEM,            "out of memory")                                   \
    X(TC_ERR_ARG,              "an argument is out of its valid range")

typedef enum {
#define TC__STATUS_ENUM(name, msg) name,
    TC__STATUS_LIST(TC__STATUS_ENUM)
#undef TC__STATUS_ENUM
    TC_STATUS_COUNT
} tc_status;

TCDEF const char *tc_status_string(tc_status s);

/* ==========================================================================
   SECTION 1: NUMBER FORMATS
   Models: the fp32 -> {fp16, bf16, tf32, e4m3, e5m2} conversions of CUDA 13
     (cuda_fp16.hpp, cuda_bf16.hpp, cuda_fp8.hpp host code and the PTX cvt
     instructions) and the widening conversions back to fp32, bit for bit.
   Simplifies: nothing for the modes CUDA offers. Modes CUDA lacks (FP8 with
     RZ/RD/RU/RNA, tf32 RD/RU) follow IEEE 754 rules applied to the format.
   Numbers from: ../shared/REFERENCE.md section 1; verified exhaustively by
     tests/test_formats_exhaustive.c against the CUDA headers and F16C.
   Assumed, not yet confirmed on a GPU: tf32 conversion of NaN returns
     0x7FFFE000 (cvt.rna.tf32.f32 on NaNs whose payload lies only in the low
     13 bits); cuda/formats.cu checks it when run.
   ========================================================================== */

typedef enum {
    TC_RN,   /* round to nearest, ties to even (IEEE default) */
    TC_RNA,  /* round to nearest, ties away from zero (cvt.rna.tf32.f32) */
    TC_RZ,   /* round toward zero (truncate) */
    TC_RD,   /* round down, toward -Inf */
    TC_RU    /* round up, toward +Inf */
} tc_rounding;

/* OR into the rounding: overflow and Inf clamp to the largest finite value
   (PTX .satfinite). NaN stays NaN. */
#define TC_SATFINITE 0x100

typedef enum { TC_FP32, TC_TF32, TC_FP16, TC_BF16, TC_E4M3, TC_E5M2, TC_DTYPE_COUNT } tc_dtype;

typedef enum { TC_CLASS_ZERO, TC_CLASS_SUBNORMAL, TC_CLASS_NORMAL, TC_CLASS_INF, TC_CLASS_NAN } tc_class;

/* Everything a student needs to know about a format, in one table
   (tc_format_of). Encodings ("bits") are right-aligned in a uint32_t:
   tf32 uses its 19-bit pattern sign|8 exponent|10 mantissa. */
typedef struct {
    const char *name;        /* "fp16" */
    int total_bits;          /* 16 */
    int exponent_bits;       /* 5 */
    int mantissa_bits;       /* 10 stored fraction bits */
    int bias;                /* 15 */
    int has_inf;             /* e4m3 has no Inf: its largest exponent holds normals */
    uint32_t max_finite_bits;/* 0x7BFF */
    uint32_t nan_bits;       /* the canonical NaN CUDA produces: 0x7FFF */
    float max_finite;        /* 65504 */
    float min_normal;        /* 2^-14 */
    float min_subnormal;     /* 2^-24 */
} tc_format;

/* NULL for an unknown dtype. */
TCDEF const tc_format *tc_format_of(tc_dtype t);
TCDEF const char *tc_rounding_name(int rounding);
TC_HOST_DEVICE TCDEF int tc_rounding_is_valid(int rounding);

/* Scalar conversions. `rounding` is a tc_rounding, optionally | TC_SATFINITE.
   fp16/bf16 RN match __float2half_rn / __float2bfloat16_rn, RZ/RD/RU their
   _rz/_rd/_ru; e4m3/e5m2 RN match __nv_cvt_float_to_fp8 (TC_RN = __NV_NOSAT,
   TC_RN|TC_SATFINITE = __NV_SATFINITE); tf32 RNA matches cvt.rna.tf32.f32 and
   RN/RZ the sm_90 cvt.rn/rz.tf32.f32. NaN becomes the format's canonical NaN. */
TC_HOST_DEVICE TCDEF uint16_t tc_fp16_from_f32(float x, int rounding);
TC_HOST_DEVICE TCDEF float    tc_fp16_to_f32(uint16_t h);
TC_HOST_DEVICE TCDEF uint16_t tc_bf16_from_f32(float x, int rounding);
TC_HOST_DEVICE TCDEF float    tc_bf16_to_f32(uint16_t b);
TC_HOST_DEVICE TCDEF float    tc_tf32_from_f32(float x, int rounding); /* tf32 value in fp32 bits, low 13 bits zero */
TC_HOST_DEVICE TCDEF float    tc_tf32_truncate(float x);  /* what a Tensor Core does to raw fp32 operands: drop the low 13 bits */
TC_HOST_DEVICE TCDEF uint8_t  tc_e4m3_from_f32(float x, int rounding);
TC_HOST_DEVICE TCDEF float    tc_e4m3_to_f32(uint8_t v);
TC_HOST_DEVICE TCDEF uint8_t  tc_e5m2_from_f32(float x, int rounding);
TC_HOST_DEVICE TCDEF float    tc_e5m2_to_f32(uint8_t v);

/* Any format by dtype: encode to right-aligned bits, decode to fp32,
   and round = decode(encode(x)). TC_FP32 encodes to its own bits. */
TC_HOST_DEVICE TCDEF uint32_t tc_encode(tc_dtype t, float x, int rounding);
TC_HOST_DEVICE TCDEF float    tc_decode(tc_dtype t, uint32_t bits);
TC_HOST_DEVICE TCDEF float    tc_round(tc_dtype t, float x, int rounding);

/* Array versions: n values in one call. RN to fp16, bf16 and tf32 take a
   vectorised path (SSE2 on x86-64; F16C for fp16 when compiled with -mf16c
   or -march=native) that the tests prove equal to the scalar functions on
   all 2^32 inputs. in and out may alias for tc_round_array. */
TCDEF tc_status tc_fp16_from_f32_array(const float *in, uint16_t *out, size_t n, int rounding);
TCDEF tc_status tc_bf16_from_f32_array(const float *in, uint16_t *out, size_t n, int rounding);
TCDEF tc_status tc_tf32_from_f32_array(const float *in, float *out, size_t n, int rounding);
TCDEF tc_status tc_e4m3_from_f32_array(const float *in, uint8_t *out, size_t n, int rounding);
TCDEF tc_status tc_e5m2_from_f32_array(const float *in, uint8_t *out, size_t n, int rounding);
TCDEF tc_status tc_fp16_to_f32_array(const uint16_t *in, float *out, size_t n);
TCDEF tc_status tc_bf16_to_f32_array(const uint16_t *in, float *out, size_t n);
TCDEF tc_status tc_round_array(tc_dtype t, const float *in, float *out, size_t n, int rounding);

/* Tools for looking inside a format. */
typedef struct {
    int sign;          /* 0 or 1 */
    int exponent;      /* the stored (biased) exponent field */
    uint32_t mantissa; /* the stored fraction field */
    int unbiased;      /* exponent - bias; for subnormals and zero, 1 - bias */
    tc_class cls;
} tc_fields;

TC_HOST_DEVICE TCDEF tc_fields tc_split(tc_dtype t, uint32_t bits);
TC_HOST_DEVICE TCDEF tc_class  tc_classify(tc_dtype t, uint32_t bits);
/* Spacing between |x| and the next larger-magnitude value of the format
   (for x exactly representable); NaN for NaN or Inf. */
TC_HOST_DEVICE TCDEF float tc_ulp(tc_dtype t, float x);
/* Next representable value above / below x in the format (x is first
   rounded with RN if it is not representable). Saturates at +-Inf, or at
   +-max for e4m3, which has no Inf. */
TC_HOST_DEVICE TCDEF float tc_next_up(tc_dtype t, float x);
TC_HOST_DEVICE TCDEF float tc_next_down(tc_dtype t, float x);
/* "0 01111 0000000000": sign, exponent, mantissa fields separated by
   spaces. Needs total_bits + 3 bytes; returns TC_ERR_BUFFER if cap is short. */
TCDEF tc_status tc_format_bits(tc_dtype t, uint32_t bits, char *buf, size_t cap);

/* ==========================================================================
   SECTION 2: TENSOR CORE MMA NUMERICS
   Models: what one mma.sync (and wgmma for FP8) computes, bit for bit, on
     V100, A100 and H100: the block FMA of REFERENCE.md section 2. Per group
     of products: every product exact; E = the largest product exponent (the
     sum of the two operands' exponents, so a product's significand lies in
     [1,4)) and c's; every term, c included, truncated toward zero to F
     fractional bits below 2^E (no guard, round or sticky bit); an exact sum;
     one normalisation; then round toward zero to fp32 (FP8 on H100: to 13
     mantissa bits) or to nearest-even to fp16. Longer K chains groups, each
     taking the previous rounded result as its c.
   Parameters (one table, tc__mma_table): F = 23 V100, 24 A100, 25 H100 (13 for
     H100 FP8); group = V100 fp16 4; A100 fp16/bf16 8, tf32 4; H100 fp16/bf16
     16, tf32 8, FP8 32 (the wgmma k32 group).
   Numbers from: MMA-Sim (Xie et al., arXiv 2511.10909, repo microsoft/MMA-Sim)
     and Khattak & Mikaitis (arXiv 2512.07004); both claim bit-exact agreement
     with hardware. Neither is measured here yet: cuda/mma.cu compares every
     output bit with the GPU and settles it when run.
   Where the two models differ (tc_mma_zero_rule), the default is MMA-Sim's:
     a zero operand takes part in choosing E with exponent -126, a zero c too,
     and an operand that is subnormal in its type has its type's minimum
     exponent. TC_MMA_ZEROS_KHATTAK drops zero products (and a zero c) from E
     and clamps E below at -132 (A100) / -133 (H100); V100's -131 is our
     extrapolation (-108 - F), unconfirmed. Which one the GPU follows is
     unconfirmed until cuda/mma.cu has run.
   Specials (MMA-Sim): NaN in, Inf*0 or Inf-Inf give the canonical NaN
     (0x7FFFFFFF, fp16 0x7FFF); otherwise an Inf input gives Inf; a finite
     sum beyond the output range gives Inf (not the RZ maximum); an exact
     zero gives +0. Raw fp32 fed to a tf32 MMA loses its low 13 bits first.
   Simplifies: one output element at a time; operands A and B of the same
     type (no e4m3 x e5m2 mix); FP8 on H100 follows wgmma (mma.sync FP8 on
     sm_90 is unconfirmed and not in cuda/mma.cu).
   ========================================================================== */

typedef enum { TC_ARCH_V100, TC_ARCH_A100, TC_ARCH_H100, TC_ARCH_COUNT } tc_arch;

/* The corner where the published models disagree (see the banner). */
typedef enum {
    TC_MMA_ZEROS_MMASIM = 0,   /* default: zeros take part in E as exponent -126 */
    TC_MMA_ZEROS_KHATTAK = 1   /* zeros dropped; E clamped below at tc_mma_params.exp_floor */
} tc_mma_zero_rule;

/* Zero-initialised = the architecture's own behaviour. group and frac_bits
   let a lesson ask "what if the block were wider / the adder narrower". */
typedef struct {
    tc_mma_zero_rule zero_rule;
    int group;       /* products per block FMA; 0 = the architecture's; else 1..TC_MMA_MAX_GROUP */
    int frac_bits;   /* F; 0 = the architecture's; else 1..40 */
} tc_mma_options;

#define TC_MMA_MAX_GROUP 64

/* What the model uses for one (arch, input, output) combination. */
typedef struct {
    int frac_bits;   /* F: fractional bits kept below 2^E */
    int group;       /* products summed in one block FMA */
    int instr_k;     /* K of the widest instruction (what tc_gemm steps by) */
    int min_k;       /* K of the narrowest instruction tc_mma_dot accepts */
    int out_mbits;   /* mantissa bits of the result: 23 (fp32), 13 (H100 FP8 -> fp32), 10 (fp16) */
    int exp_floor;   /* lower clamp on E under TC_MMA_ZEROS_KHATTAK */
} tc_mma_params;

/* TC_ERR_ARCH for an unknown arch or a type the arch lacks (V100: fp16
   only; FP8: H100 only), TC_ERR_DTYPE for an unknown type or an output
   other than fp32 / fp16 (fp16 output only with fp16 or FP8 inputs). */
TCDEF tc_status tc_mma_params_of(tc_arch arch, tc_dtype in, tc_dtype out, tc_mma_params *p);

/* One output element of one mma instruction: c + sum(a[i]*b[i], i < k).
   Unchecked primitive. Preconditions: a and b hold k values of `in` (tf32:
   any fp32, truncated here as the hardware does), c a value of `out`, and k
   an instruction's K: V100 4 (m8n8k4); fp16/bf16 8 or 16 (m16n8k8,
   m16n8k16); tf32 4 or 8 (m16n8k4, m16n8k8); FP8 32. A value that is not
   representable loses its excess low bits. An unsupported (arch, in, out, k)
   returns NaN. */
TC_HOST_DEVICE TCDEF float tc_mma_dot(tc_arch arch, tc_dtype in, tc_dtype out, int k,
                                      const float *a, const float *b, float c);
/* The same with options (NULL = defaults). With opt->group set, any k >= 1
   is accepted and chained in groups of that size. */
TC_HOST_DEVICE TCDEF float tc_mma_dot_ex(tc_arch arch, tc_dtype in, tc_dtype out, int k,
                                         const float *a, const float *b, float c,
                                         const tc_mma_options *opt);

/* D = A*B + C, row-major with leading dimensions, any M, N, K >= 0. K is
   walked in instruction-sized steps like a real kernel's K loop; a K that is
   not a multiple is padded with zero products (which change nothing under
   either zero rule). C may be NULL (zero); D may alias C (same ldc). Every
   A and B value must be representable in `in` (tf32: any fp32) and every C
   value in `out`, else TC_ERR_NOT_REPRESENTABLE and D is untouched; NaN and
   Inf are representable (except in e4m3, which has no Inf). Also
   TC_ERR_NULL, TC_ERR_SIZE (negative M, N, K), TC_ERR_SHAPE (ld too small),
   TC_ERR_ARCH / TC_ERR_DTYPE as tc_mma_params_of, TC_ERR_ARG (bad options),
   TC_ERR_NOMEM. */
TCDEF tc_status tc_gemm(tc_arch arch, tc_dtype in, tc_dtype out, int M, int N, int K,
                        const float *A, int lda, const float *B, int ldb,
                        const float *C, int ldc, float *D, int ldd);
TCDEF tc_status tc_gemm_ex(tc_arch arch, tc_dtype in, tc_dtype out, int M, int N, int K,
                           const float *A, int lda, const float *B, int ldb,
                           const float *C, int ldc, float *D, int ldd,
                           const tc_mma_options *opt);

/* Reference models to compare against, on fp32 values (a stride inc_a,
   inc_b >= 1 walks a column). tc_dot_fma: sequential IEEE fp32 FMA,
   c = fmaf(a[i], b[i], c) for i = 0..k-1, what a CUDA-core loop does.
   tc_dot_exact: the exact value of c + sum a[i]*b[i], rounded once to fp32
   (nearest-even); NaN is 0x7FFFFFFF. Both return NaN for k < 0 or NULL. */
TCDEF float tc_dot_fma(int k, const float *a, int inc_a, const float *b, int inc_b, float c);
TCDEF float tc_dot_exact(int k, const float *a, int inc_a, const float *b, int inc_b, float c);

/* mma.sync fragment layouts (PTX ISA, "Matrix fragments for mma.m16n8k*"):
   which element of A (M x K), B (K x N) or C/D (M x N) lane `lane` holds
   in its register element i. Written once here; tests, lessons and
   cuda/mma.cu use it. */
typedef enum {
    TC_MMA_M16N8K16_F16,   /* f16 or bf16 inputs */
    TC_MMA_M16N8K8_F16,    /* f16 or bf16 inputs */
    TC_MMA_M16N8K8_TF32,
    TC_MMA_M16N8K4_TF32,
    TC_MMA_SHAPE_COUNT
} tc_mma_shape;

typedef enum { TC_FRAG_A, TC_FRAG_B, TC_FRAG_C } tc_frag;   /* TC_FRAG_C is also D */

/* M, N, K of a shape; 0 for an unknown shape. */
TC_HOST_DEVICE TCDEF int tc_mma_shape_m(tc_mma_shape s);
TC_HOST_DEVICE TCDEF int tc_mma_shape_n(tc_mma_shape s);
TC_HOST_DEVICE TCDEF int tc_mma_shape_k(tc_mma_shape s);
/* Elements per lane of a fragment (A of m16n8k16: 8); 0 if unknown. */
TC_HOST_DEVICE TCDEF int tc_mma_frag_count(tc_mma_shape s, tc_frag f);
/* (row, col) of element i of lane's fragment; TC_ERR_ARG for a bad shape,
   fragment, lane (0..31) or i, TC_ERR_NULL for NULL row/col. */
TC_HOST_DEVICE TCDEF tc_status tc_mma_frag_coord(tc_mma_shape s, tc_frag f, int lane, int i,
                                                 int *row, int *col);

/* ==========================================================================
   SECTION 3: LOSS SCALING
   ========================================================================== */

/* ==========================================================================
   SECTION 4: 2:4 STRUCTURED SPARSITY
   ========================================================================== */

/* ==========================================================================
   SECTION 5: CYCLE-APPROXIMATE SIMULATOR
   ========================================================================== */

#ifdef __cplusplus
}
#endif
#endif /* TENSORCORE_H */

/* ========================================================================== */
/*                              IMPLEMENTATION                                */
/* ========================================================================== */
#ifdef TENSORCORE_IMPLEMENTATION
#ifndef TENSORCORE_IMPLEMENTATION_DONE
#define TENSORCORE_IMPLEMENTATION_DONE

#include <string.h>
#include <math.h>

#if defined(TC_MALLOC) && defined(TC_FREE)
#elif !defined(TC_MALLOC) && !defined(TC_FREE)
#include <stdlib.h>
#define TC_MALLOC(n) malloc(n)
#define TC_FREE(p) free(p)
#else
#error "tensorcore.h: define both TC_MALLOC and TC_FREE, or neither"
#endif

#ifndef TC_ASSERT
#include <assert.h>
#define TC_ASSERT(x) assert(x)
#endif

#if defined(__SSE2__) && !defined(__CUDACC__) && !defined(TC_NO_SIMD)
#define TC__SSE2 1
#include <emmintrin.h>
#if defined(__F16C__) && defined(__AVX__)
#define TC__F16C 1
#include <immintrin.h>
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

TCDEF const char *tc_status_string(tc_status s) {
    static const char *const messages[] = {
#define TC__STATUS_MSG(name, msg) msg,
        TC__STATUS_LIST(TC__STATUS_MSG)
#undef TC__STATUS_MSG
    };
    if ((int)s < 0 || (int)s >= (int)(sizeof messages / sizeof messages[0])) return "unknown tc_status value";
    return messages[s];
}

/* ----------------------------------------------------- section 1: formats */

TC_HOST_DEVICE static uint32_t tc__bits(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
TC_HOST_DEVICE static float tc__float(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }

/* The table behind tc_format_of. Plain integers so that device code can use
   it without float constants in static storage; tc_format_of fills in the
   float fields of its host-side copy. */
typedef struct { int total, ebits, mbits, has_inf; uint32_t max_bits, nan_bits; } tc__fmt;

TC_HOST_DEVICE static tc__fmt tc__fmt_of(tc_dtype t) {
    tc__fmt f;
    switch (t) {
    case TC_FP32: f.total = 32; f.ebits = 8; f.mbits = 23; f.has_inf = 1; f.max_bits = 0x7F7FFFFFu; f.nan_bits = 0x7FFFFFFFu; break;
    case TC_TF32: f.total = 19; f.ebits = 8; f.mbits = 10; f.has_inf = 1; f.max_bits = 0x3FBFFu;     f.nan_bits = 0x3FFFFu;     break;
    case TC_FP16: f.total = 16; f.ebits = 5; f.mbits = 10; f.has_inf = 1; f.max_bits = 0x7BFFu;      f.nan_bits = 0x7FFFu;      break;
    case TC_BF16: f.total = 16; f.ebits = 8; f.mbits = 7;  f.has_inf = 1; f.max_bits = 0x7F7Fu;      f.nan_bits = 0x7FFFu;      break;
    case TC_E4M3: f.total = 8;  f.ebits = 4; f.mbits = 3;  f.has_inf = 0; f.max_bits = 0x7Eu;        f.nan_bits = 0x7Fu;        break;
    case TC_E5M2: f.total = 8;  f.ebits = 5; f.mbits = 2;  f.has_inf = 1; f.max_bits = 0x7Bu;        f.nan_bits = 0x7Fu;        break;
    default:      f.total = 0;  f.ebits = 0; f.mbits = 0;  f.has_inf = 0; f.max_bits = 0;            f.nan_bits = 0;            break;
    }
    return f;
}

TC_HOST_DEVICE TCDEF int tc_rounding_is_valid(int rounding) {
    int mode = rounding & ~TC_SATFINITE;
    return mode >= TC_RN && mode <= TC_RU;
}

TCDEF const char *tc_rounding_name(int rounding) {
    static const char *const names[] = { "rn", "rna", "rz", "rd", "ru" };
    static const char *const sat_names[] = { "rn.satfinite", "rna.satfinite", "rz.satfinite", "rd.satfinite", "ru.satfinite" };
    if (!tc_rounding_is_valid(rounding)) return "invalid";
    return (rounding & TC_SATFINITE) ? sat_names[rounding & 0xFF] : names[rounding & 0xFF];
}

/* The one rounding routine behind every narrowing conversion. |x| = sig *
   2^lsb, and the result keeps the bits at or above the format's quantum
   2^q, where q = max(exponent of x, emin) - mbits. Because the encoding of a
   positive value is keep + ((max(e, emin) - emin) << mbits), a rounding that
   carries into the next binade (or from the largest subnormal into the
   smallest normal) needs no special case. Returns the encoding for a finite
   x, with 1 << (total) set to flag overflow beyond max_bits. */
TC_HOST_DEVICE static uint32_t tc__narrow(tc__fmt f, float x, int rounding) {
    uint32_t u = tc__bits(x);
    uint32_t sign = u >> 31;
    uint32_t mag = u & 0x7FFFFFFFu;
    uint32_t sign_bit = sign << (f.total - 1);
    int mode = rounding & ~TC_SATFINITE;
    int sat = (rounding & TC_SATFINITE) != 0;
    int bias = (1 << (f.ebits - 1)) - 1;
    int emin = 1 - bias;
    uint32_t sig;
    int lsb, e, q, shift;
    uint32_t keep, rem = 0, half = 0, enc;
    int up = 0;

    if (!tc_rounding_is_valid(rounding)) return f.nan_bits;
    if (mag > 0x7F800000u) return f.nan_bits;
    if (mag == 0x7F800000u) {
        if (sat) return sign_bit | f.max_bits;
        return f.has_inf ? (sign_bit | (f.max_bits + 1)) : (sign_bit | f.nan_bits);
    }
    if (mag == 0) return sign_bit;

    if (mag >= 0x00800000u) {
        sig = (mag & 0x7FFFFFu) | 0x800000u; lsb = (int)(mag >> 23) - 150; e = lsb + 23;
    } else {                                  /* fp32 subnormal: find its leading bit */
        uint32_t s = mag;
        sig = mag; lsb = -149; e = lsb;
        while (s > 1) { s >>= 1; e++; }
    }                                         /* e = floor(log2 |x|) */
    q = (e > emin ? e : emin) - f.mbits;
    shift = q - lsb;
    if (shift <= 0) {
        keep = sig << -shift;
    } else if (shift > 26) {          /* everything lies below half an ulp */
        keep = 0; rem = 1; half = 2;
    } else {
        keep = sig >> shift;
        rem = sig & ((1u << shift) - 1u);
        half = 1u << (shift - 1);
    }
    if (rem != 0) switch (mode) {
    case TC_RN:  up = rem > half || (rem == half && (keep & 1u)); break;
    case TC_RNA: up = rem >= half; break;
    case TC_RZ:  up = 0; break;
    case TC_RD:  up = sign != 0; break;
    case TC_RU:  up = sign == 0; break;
    default:     break;
    }
    keep += (uint32_t)up;
    if (e < emin) e = emin;
    enc = keep + ((uint32_t)(e - emin) << f.mbits);
    if (enc > f.max_bits) {
        /* Overflow: the rounded value lies beyond the largest finite one. */
        int to_max = sat || mode == TC_RZ || (mode == TC_RD && !sign) || (mode == TC_RU && sign);
        if (to_max) return sign_bit | f.max_bits;
        return f.has_inf ? (sign_bit | (f.max_bits + 1)) : (sign_bit | f.nan_bits);
    }
    return sign_bit | enc;
}

/* fp16's NaN, bf16's and the FP8 NaNs drop the sign, as CUDA does. */
TC_HOST_DEVICE TCDEF uint16_t tc_fp16_from_f32(float x, int rounding) { return (uint16_t)tc__narrow(tc__fmt_of(TC_FP16), x, rounding); }
TC_HOST_DEVICE TCDEF uint16_t tc_bf16_from_f32(float x, int rounding) { return (uint16_t)tc__narrow(tc__fmt_of(TC_BF16), x, rounding); }
TC_HOST_DEVICE TCDEF uint8_t  tc_e4m3_from_f32(float x, int rounding) { return (uint8_t)tc__narrow(tc__fmt_of(TC_E4M3), x, rounding); }
TC_HOST_DEVICE TCDEF uint8_t  tc_e5m2_from_f32(float x, int rounding) { return (uint8_t)tc__narrow(tc__fmt_of(TC_E5M2), x, rounding); }

TC_HOST_DEVICE TCDEF float tc_tf32_from_f32(float x, int rounding) {
    return tc__float(tc__narrow(tc__fmt_of(TC_TF32), x, rounding) << 13);
}

TC_HOST_DEVICE TCDEF float tc_tf32_truncate(float x) { return tc__float(tc__bits(x) & 0xFFFFE000u); }

/* Widening is exact (used for fp16 and FP8; bf16 and tf32 are shifts).
   A NaN becomes fp32's canonical 0x7FFFFFFF, sign and
   payload dropped, as __half2float's host code and the FP8 host code do. */
TC_HOST_DEVICE static float tc__widen(tc__fmt f, uint32_t bits) {
    uint32_t sign = (bits >> (f.total - 1)) & 1u;
    uint32_t mag = bits & ((1u << (f.total - 1)) - 1u);
    uint32_t exp_field = mag >> f.mbits;
    uint32_t frac = mag & ((1u << f.mbits) - 1u);
    uint32_t all_ones = (1u << f.ebits) - 1u;
    int bias = (1 << (f.ebits - 1)) - 1;
    uint32_t out;
    if (f.has_inf ? exp_field == all_ones && frac != 0 : mag == f.nan_bits) return tc__float(0x7FFFFFFFu);
    if (f.has_inf && exp_field == all_ones) {
        out = 0x7F800000u;
    } else if (exp_field == 0) {
        if (frac == 0) {
            out = 0;
        } else {  /* a subnormal of fp16 or FP8 is a normal fp32: normalise it */
            int top = 0;
            uint32_t s = frac;
            while (s > 1) { s >>= 1; top++; }
            out = ((uint32_t)(1 - bias - f.mbits + top + 127) << 23) | ((frac << (23 - top)) & 0x7FFFFFu);
        }
    } else {
        out = ((uint32_t)((int)exp_field - bias + 127) << 23) | (frac << (23 - f.mbits));
    }
    return tc__float((sign << 31) | out);
}

TC_HOST_DEVICE TCDEF float tc_fp16_to_f32(uint16_t h) { return tc__widen(tc__fmt_of(TC_FP16), h); }
/* bf16 -> fp32 is a shift; CUDA keeps the NaN payload here (host and sm_80). */
TC_HOST_DEVICE TCDEF float tc_bf16_to_f32(uint16_t b) { return tc__float((uint32_t)b << 16); }
TC_HOST_DEVICE TCDEF float tc_e4m3_to_f32(uint8_t v) { return tc__widen(tc__fmt_of(TC_E4M3), v); }
TC_HOST_DEVICE TCDEF float tc_e5m2_to_f32(uint8_t v) { return tc__widen(tc__fmt_of(TC_E5M2), v); }

TC_HOST_DEVICE TCDEF uint32_t tc_encode(tc_dtype t, float x, int rounding) {
    if (t == TC_FP32) return tc_rounding_is_valid(rounding) ? tc__bits(x) : 0x7FFFFFFFu;
    if (t < 0 || t >= TC_DTYPE_COUNT) return 0;
    return tc__narrow(tc__fmt_of(t), x, rounding);
}

TC_HOST_DEVICE TCDEF float tc_decode(tc_dtype t, uint32_t bits) {
    switch (t) {
    case TC_FP32: return tc__float(bits);
    case TC_TF32: return tc__float(bits << 13);
    case TC_BF16: return tc_bf16_to_f32((uint16_t)bits);
    case TC_FP16: case TC_E4M3: case TC_E5M2: return tc__widen(tc__fmt_of(t), bits);
    default: return tc__float(0x7FFFFFFFu);
    }
}

TC_HOST_DEVICE TCDEF float tc_round(tc_dtype t, float x, int rounding) {
    return tc_decode(t, tc_encode(t, x, rounding));
}

TCDEF const tc_format *tc_format_of(tc_dtype t) {
    static tc_format table[TC_DTYPE_COUNT];
    static const char *const names[TC_DTYPE_COUNT] = { "fp32", "tf32", "fp16", "bf16", "e4m3", "e5m2" };
    tc_format *out;
    tc__fmt f;
    if ((int)t < 0 || t >= TC_DTYPE_COUNT) return NULL;
    out = &table[t];
    f = tc__fmt_of(t);
    out->name = names[t];
    out->total_bits = f.total;
    out->exponent_bits = f.ebits;
    out->mantissa_bits = f.mbits;
    out->bias = (1 << (f.ebits - 1)) - 1;
    out->has_inf = f.has_inf;
    out->max_finite_bits = f.max_bits;
    out->nan_bits = f.nan_bits;
    out->max_finite = tc_decode(t, f.max_bits);
    out->min_normal = tc_decode(t, 1u << f.mbits);
    out->min_subnormal = tc_decode(t, 1u);
    return out;
}

TC_HOST_DEVICE TCDEF tc_fields tc_split(tc_dtype t, uint32_t bits) {
    tc__fmt f = tc__fmt_of(t);
    tc_fields r;
    int bias = (1 << (f.ebits - 1)) - 1;
    uint32_t mask = f.total >= 32 ? 0xFFFFFFFFu : ((1u << f.total) - 1u);
    bits &= mask;
    r.sign = (int)((bits >> (f.total - 1)) & 1u);
    r.exponent = (int)((bits >> f.mbits) & ((1u << f.ebits) - 1u));
    r.mantissa = bits & ((1u << f.mbits) - 1u);
    r.unbiased = (r.exponent == 0 ? 1 : r.exponent) - bias;
    r.cls = tc_classify(t, bits);
    return r;
}

TC_HOST_DEVICE TCDEF tc_class tc_classify(tc_dtype t, uint32_t bits) {
    tc__fmt f = tc__fmt_of(t);
    uint32_t mag = bits & ((f.total >= 32 ? 0xFFFFFFFFu : ((1u << f.total) - 1u)) >> 1);
    uint32_t exp_field = mag >> f.mbits;
    uint32_t frac = mag & ((1u << f.mbits) - 1u);
    uint32_t all_ones = (1u << f.ebits) - 1u;
    if (!f.has_inf) {
        if (mag == f.nan_bits) return TC_CLASS_NAN;
    } else if (exp_field == all_ones) {
        return frac ? TC_CLASS_NAN : TC_CLASS_INF;
    }
    if (exp_field == 0) return frac ? TC_CLASS_SUBNORMAL : TC_CLASS_ZERO;
    return TC_CLASS_NORMAL;
}

/* Next value up for a positive-or-negative encoding, by stepping the
   sign-magnitude integer: encodings of one sign are ordered like values. */
TC_HOST_DEVICE static float tc__step(tc_dtype t, float x, int dir) {
    tc__fmt f = tc__fmt_of(t);
    uint32_t bits, sign_bit, mag, top;
    if (x != x) return x;
    bits = tc_encode(t, x, TC_RN | (f.has_inf ? 0 : TC_SATFINITE));
    sign_bit = 1u << (f.total - 1);
    mag = bits & (sign_bit - 1u);
    top = f.has_inf ? f.max_bits + 1 : f.max_bits;
    if (mag == 0) return dir > 0 ? tc_decode(t, 1u) : tc_decode(t, sign_bit | 1u);
    if ((bits & sign_bit) == 0) mag = dir > 0 ? (mag < top ? mag + 1 : mag) : mag - 1;
    else                        mag = dir > 0 ? mag - 1 : (mag < top ? mag + 1 : mag);
    if (mag == 0) return dir > 0 ? tc__float(0x80000000u) : 0.0f;   /* -min_sub -> -0, +min_sub -> +0 */
    return tc_decode(t, (bits & sign_bit) | mag);
}

TC_HOST_DEVICE TCDEF float tc_next_up(tc_dtype t, float x) { return tc__step(t, x, +1); }
TC_HOST_DEVICE TCDEF float tc_next_down(tc_dtype t, float x) { return tc__step(t, x, -1); }

TC_HOST_DEVICE TCDEF float tc_ulp(tc_dtype t, float x) {
    float ax = x < 0 ? -x : x;
    float up;
    if (x != x || ax == tc__float(0x7F800000u)) return tc__float(0x7FFFFFFFu);
    ax = tc_round(t, ax, TC_RN | TC_SATFINITE);
    up = tc_next_up(t, ax);
    if (up == tc__float(0x7F800000u) || up == ax) return ax - tc_next_down(t, ax);   /* at max: spacing below */
    return up - ax;
}

TCDEF tc_status tc_format_bits(tc_dtype t, uint32_t bits, char *buf, size_t cap) {
    tc__fmt f;
    int i, pos = 0;
    if (!buf) return TC_ERR_NULL;
    if ((int)t < 0 || t >= TC_DTYPE_COUNT) return TC_ERR_DTYPE;
    f = tc__fmt_of(t);
    if (cap < (size_t)f.total + 3) return TC_ERR_BUFFER;
    for (i = f.total - 1; i >= 0; i--) {
        buf[pos++] = (char)('0' + ((bits >> i) & 1u));
        if (i == f.total - 1 || i == f.mbits) buf[pos++] = ' ';
    }
    buf[pos] = '\0';
    return TC_OK;
}

/* ---- array conversions ----
   The RN paths below are branch-free so that they vectorise; the SSE2
   versions do four floats per step. fp16 uses the float-add trick of
   F. Giesen ("float->half variants", 2016): adding 0.5 in the right binade
   makes the FPU do the subnormal rounding. It needs IEEE RN arithmetic with
   subnormals kept (no -ffast-math, FTZ or DAZ), which is the C default. */

static uint16_t tc__fp16_rn_fast(uint32_t u) {
    uint32_t sign = (u >> 16) & 0x8000u, mag = u & 0x7FFFFFFFu, o;
    if (mag >= 0x47800000u) {                       /* >= 65536, Inf or NaN */
        o = mag > 0x7F800000u ? 0x7FFFu : (sign | 0x7C00u);
    } else if (mag < 0x38800000u) {                 /* fp16 subnormal or zero */
        float f = tc__float(mag) + tc__float(0x3F000000u);   /* 0.5: ulp 2^-24 */
        o = sign | (tc__bits(f) - 0x3F000000u);
    } else {
        o = sign | ((mag - 0x38000000u + 0xFFFu + ((mag >> 13) & 1u)) >> 13);
    }
    return (uint16_t)o;
}

static uint16_t tc__bf16_rn_fast(uint32_t u) {
    uint32_t r = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
    return (uint16_t)((u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFu : r);
}

static uint32_t tc__tf32_rn_fast(uint32_t u) {
    uint32_t r = (u + 0xFFFu + ((u >> 13) & 1u)) & 0xFFFFE000u;
    return (u & 0x7FFFFFFFu) > 0x7F800000u ? 0x7FFFE000u : r;
}

#ifdef TC__SSE2
/* SSE2 has no unsigned compare; magnitudes are < 2^31 so signed works. */
static __m128i tc__sse_select(__m128i mask, __m128i a, __m128i b) {
    return _mm_or_si128(_mm_and_si128(mask, a), _mm_andnot_si128(mask, b));
}

/* Packs the low 16 bits of four 32-bit lanes (SSE2 has only a signed pack). */
static __m128i tc__sse_pack16(__m128i lo, __m128i hi) {
    lo = _mm_srai_epi32(_mm_slli_epi32(lo, 16), 16);
    hi = _mm_srai_epi32(_mm_slli_epi32(hi, 16), 16);
    return _mm_packs_epi32(lo, hi);
}

static __m128i tc__sse_bf16(__m128i u) {
    __m128i one = _mm_set1_epi32(1);
    __m128i lsb = _mm_and_si128(_mm_srli_epi32(u, 16), one);
    __m128i r = _mm_srli_epi32(_mm_add_epi32(_mm_add_epi32(u, _mm_set1_epi32(0x7FFF)), lsb), 16);
    __m128i mag = _mm_and_si128(u, _mm_set1_epi32(0x7FFFFFFF));
    __m128i nan = _mm_cmpgt_epi32(mag, _mm_set1_epi32(0x7F800000));
    return tc__sse_select(nan, _mm_set1_epi32(0x7FFF), r);
}

static __m128i tc__sse_fp16(__m128i u) {
    __m128i mag = _mm_and_si128(u, _mm_set1_epi32(0x7FFFFFFF));
    __m128i sign = _mm_and_si128(_mm_srli_epi32(u, 16), _mm_set1_epi32(0x8000));
    __m128i half = _mm_set1_epi32(0x3F000000);
    __m128i sub = _mm_sub_epi32(_mm_castps_si128(_mm_add_ps(_mm_castsi128_ps(mag), _mm_castsi128_ps(half))), half);
    __m128i lsb = _mm_and_si128(_mm_srli_epi32(mag, 13), _mm_set1_epi32(1));
    __m128i rebiased = _mm_sub_epi32(mag, _mm_set1_epi32(0x38000000));
    __m128i nrm = _mm_srli_epi32(_mm_add_epi32(_mm_add_epi32(rebiased, _mm_set1_epi32(0xFFF)), lsb), 13);
    __m128i is_sub = _mm_cmplt_epi32(mag, _mm_set1_epi32(0x38800000));
    __m128i is_big = _mm_cmpgt_epi32(mag, _mm_set1_epi32(0x477FFFFF));
    __m128i is_nan = _mm_cmpgt_epi32(mag, _mm_set1_epi32(0x7F800000));
    __m128i o = tc__sse_select(is_sub, sub, nrm);
    o = tc__sse_select(is_big, _mm_set1_epi32(0x7C00), o);
    o = _mm_or_si128(o, sign);
    return tc__sse_select(is_nan, _mm_set1_epi32(0x7FFF), o);
}

static __m128i tc__sse_tf32(__m128i u) {
    __m128i lsb = _mm_and_si128(_mm_srli_epi32(u, 13), _mm_set1_epi32(1));
    __m128i r = _mm_and_si128(_mm_add_epi32(_mm_add_epi32(u, _mm_set1_epi32(0xFFF)), lsb), _mm_set1_epi32(-0x2000));
    __m128i mag = _mm_and_si128(u, _mm_set1_epi32(0x7FFFFFFF));
    __m128i nan = _mm_cmpgt_epi32(mag, _mm_set1_epi32(0x7F800000));
    return tc__sse_select(nan, _mm_set1_epi32(0x7FFFE000), r);
}
#endif

TCDEF tc_status tc_bf16_from_f32_array(const float *in, uint16_t *out, size_t n, int rounding) {
    size_t i = 0;
    if (n && (!in || !out)) return TC_ERR_NULL;
    if (!tc_rounding_is_valid(rounding)) return TC_ERR_ROUNDING;
    if (rounding == TC_RN) {
#ifdef TC__SSE2
        for (; i < (n & ~(size_t)7); i += 8) {
            __m128i a = tc__sse_bf16(_mm_loadu_si128((const __m128i *)(const void *)(in + i)));
            __m128i b = tc__sse_bf16(_mm_loadu_si128((const __m128i *)(const void *)(in + i + 4)));
            _mm_storeu_si128((__m128i *)(void *)(out + i), tc__sse_pack16(a, b));
        }
#endif
        for (; i < n; i++) out[i] = tc__bf16_rn_fast(tc__bits(in[i]));
        return TC_OK;
    }
    for (; i < n; i++) out[i] = tc_bf16_from_f32(in[i], rounding);
    return TC_OK;
}

TCDEF tc_status tc_fp16_from_f32_array(const float *in, uint16_t *out, size_t n, int rounding) {
    size_t i = 0;
    if (n && (!in || !out)) return TC_ERR_NULL;
    if (!tc_rounding_is_valid(rounding)) return TC_ERR_ROUNDING;
    if (rounding == TC_RN) {
#if defined(TC__F16C)
        /* The CPU's own converter is RN and, the exhaustive test shows, equal
           to CUDA's but for NaN, where it keeps the payload: patch NaN lanes. */
        for (; i < (n & ~(size_t)7); i += 8) {
            __m256 x = _mm256_loadu_ps(in + i);
            __m128i h = _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT);
            __m256i nan32 = _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));
            __m128i nan16 = _mm_packs_epi32(_mm256_castsi256_si128(nan32), _mm256_extractf128_si256(nan32, 1));
            h = _mm_or_si128(_mm_and_si128(nan16, _mm_set1_epi16(0x7FFF)), _mm_andnot_si128(nan16, h));
            _mm_storeu_si128((__m128i *)(void *)(out + i), h);
        }
#elif defined(TC__SSE2)
        for (; i < (n & ~(size_t)7); i += 8) {
            __m128i a = tc__sse_fp16(_mm_loadu_si128((const __m128i *)(const void *)(in + i)));
            __m128i b = tc__sse_fp16(_mm_loadu_si128((const __m128i *)(const void *)(in + i + 4)));
            _mm_storeu_si128((__m128i *)(void *)(out + i), tc__sse_pack16(a, b));
        }
#endif
#ifdef TC__SSE2
        for (; i < (n & ~(size_t)3); i += 4) {   /* a 4..7 tail after the F16C loop */
            __m128i a = tc__sse_fp16(_mm_loadu_si128((const __m128i *)(const void *)(in + i)));
            _mm_storel_epi64((__m128i *)(void *)(out + i), tc__sse_pack16(a, a));
        }
#endif
        for (; i < n; i++) out[i] = tc__fp16_rn_fast(tc__bits(in[i]));
        return TC_OK;
    }
    for (; i < n; i++) out[i] = tc_fp16_from_f32(in[i], rounding);
    return TC_OK;
}

TCDEF tc_status tc_tf32_from_f32_array(const float *in, float *out, size_t n, int rounding) {
    size_t i = 0;
    if (n && (!in || !out)) return TC_ERR_NULL;
    if (!tc_rounding_is_valid(rounding)) return TC_ERR_ROUNDING;
    if (rounding == TC_RN) {
#ifdef TC__SSE2
        for (; i < (n & ~(size_t)3); i += 4) {
            __m128i a = tc__sse_tf32(_mm_loadu_si128((const __m128i *)(const void *)(in + i)));
            _mm_storeu_si128((__m128i *)(void *)(out + i), a);
        }
#endif
        for (; i < n; i++) out[i] = tc__float(tc__tf32_rn_fast(tc__bits(in[i])));
        return TC_OK;
    }
    for (; i < n; i++) out[i] = tc_tf32_from_f32(in[i], rounding);
    return TC_OK;
}

TCDEF tc_status tc_e4m3_from_f32_array(const float *in, uint8_t *out, size_t n, int rounding) {
    size_t i;
    if (n && (!in || !out)) return TC_ERR_NULL;
    if (!tc_rounding_is_valid(rounding)) return TC_ERR_ROUNDING;
    for (i = 0; i < n; i++) out[i] = tc_e4m3_from_f32(in[i], rounding);
    return TC_OK;
}

TCDEF tc_status tc_e5m2_from_f32_array(const float *in, uint8_t *out, size_t n, int rounding) {
    size_t i;
    if (n && (!in || !out)) return TC_ERR_NULL;
    if (!tc_rounding_is_valid(rounding)) return TC_ERR_ROUNDING;
    for (i = 0; i < n; i++) out[i] = tc_e5m2_from_f32(in[i], rounding);
    return TC_OK;
}

TCDEF tc_status tc_fp16_to_f32_array(const uint16_t *in, float *out, size_t n) {
    size_t i;
    if (n && (!in || !out)) return TC_ERR_NULL;
    for (i = 0; i < n; i++) out[i] = tc_fp16_to_f32(in[i]);
    return TC_OK;
}

TCDEF tc_status tc_bf16_to_f32_array(const uint16_t *in, float *out, size_t n) {
    size_t i;
    if (n && (!in || !out)) return TC_ERR_NULL;
    for (i = 0; i < n; i++) out[i] = tc_bf16_to_f32(in[i]);
    return TC_OK;
}

/* Round in place or out of place through a format, staying in fp32. */
TCDEF tc_status tc_round_array(tc_dtype t, const float *in, float *out, size_t n, int rounding) {
    size_t i;
    if (n && (!in || !out)) return TC_ERR_NULL;
    if ((int)t < 0 || t >= TC_DTYPE_COUNT) return TC_ERR_DTYPE;
    if (!tc_rounding_is_valid(rounding)) return TC_ERR_ROUNDING;
    if (t == TC_TF32) return tc_tf32_from_f32_array(in, out, n, rounding);
    if (rounding == TC_RN && t == TC_BF16) {
        i = 0;
#ifdef TC__SSE2
        for (; i < (n & ~(size_t)3); i += 4) {
            __m128i b = tc__sse_bf16(_mm_loadu_si128((const __m128i *)(const void *)(in + i)));
            _mm_storeu_si128((__m128i *)(void *)(out + i), _mm_slli_epi32(b, 16));
        }
#endif
        for (; i < n; i++) out[i] = tc__float((uint32_t)tc__bf16_rn_fast(tc__bits(in[i])) << 16);
        return TC_OK;
    }
    for (i = 0; i < n; i++) out[i] = tc_round(t, in[i], rounding);
    return TC_OK;
}

/* ------------------------------------------------ section 2: mma */

/* Operands are split once into a signed 24-bit significand with 23
   fractional bits and an exponent: value = sig * 2^(exp - 23). All input
   types are subsets of fp32, so one split serves them all; an operand that
   is subnormal in its type gets the type's minimum exponent (and a smaller
   significand), as both published models do. */
typedef struct { int32_t sig; int32_t exp; } tc__mma_op;

#define TC__MMA_SPECIAL_EXP   4096     /* exponent given to Inf and NaN operands */
#define TC__MMA_SPECIAL_MIN   1000     /* a product exponent above this involves one */
#define TC__MMA_KHATTAK_ZERO  (-2000)  /* zero's exponent when zeros are dropped: never the maximum */
#define TC__MMA_NO_FLOOR      (-100000)
#define TC__MMA_MMASIM_ZERO   (-126)   /* MMA-Sim: a zero has exponent -126, whatever its type */

typedef struct {
    tc_mma_params p;
    int emin_in, emin_c;     /* minimum exponents of the input type and of c's type */
    int out_emin, out_ebits, out_rne, out_fp16;
    int zero_exp, floor, tf32;
} tc__mma_cfg;

/* The architecture table: F, group, widest and narrowest instruction K per
   input family. Returns 0 where the architecture lacks the type. */
TC_HOST_DEVICE static int tc__mma_table(tc_arch arch, tc_dtype in, tc_mma_params *p) {
    int fp8 = in == TC_E4M3 || in == TC_E5M2, tf32 = in == TC_TF32;
    if (in != TC_FP16 && in != TC_BF16 && !tf32 && !fp8) return 0;
    p->out_mbits = 23;
    switch (arch) {
    case TC_ARCH_V100:   /* mma.sync m8n8k4: fp16 only */
        if (in != TC_FP16) return 0;
        p->frac_bits = 23; p->group = 4; p->instr_k = 4; p->min_k = 4;
        break;
    case TC_ARCH_A100:   /* m16n8k16 = two chained groups of 8; tf32 m16n8k8 = two of 4 */
        if (fp8) return 0;
        p->frac_bits = 24; p->group = tf32 ? 4 : 8; p->instr_k = tf32 ? 8 : 16; p->min_k = p->instr_k / 2;
        break;
    case TC_ARCH_H100:   /* one group per instruction; FP8 as wgmma k32 with a 13-bit adder */
        p->frac_bits = fp8 ? 13 : 25;
        p->group = fp8 ? 32 : tf32 ? 8 : 16; p->instr_k = p->group; p->min_k = fp8 ? 32 : p->group / 2;
        if (fp8) p->out_mbits = 13;
        break;
    default: return 0;
    }
    p->exp_floor = -108 - p->frac_bits;   /* Khattak: A100 -132, H100 -133 */
    return 1;
}

TC_HOST_DEVICE static int tc__type_emin(tc_dtype t) {
    tc__fmt f = tc__fmt_of(t);
    return 2 - (1 << (f.ebits - 1));
}

TC_HOST_DEVICE static tc_status tc__mma_setup(tc_arch arch, tc_dtype in, tc_dtype out, const tc_mma_options *opt,
                                              tc__mma_cfg *cfg) {
    int fp8 = in == TC_E4M3 || in == TC_E5M2;
    if ((int)in < 0 || in >= TC_DTYPE_COUNT || (out != TC_FP32 && out != TC_FP16)) return TC_ERR_DTYPE;
    if (in == TC_FP32 || (out == TC_FP16 && in != TC_FP16 && !fp8)) return TC_ERR_DTYPE;   /* fp32 operands: use TC_TF32 */
    if ((int)arch < 0 || arch >= TC_ARCH_COUNT || !tc__mma_table(arch, in, &cfg->p)) return TC_ERR_ARCH;
    if (out == TC_FP16) cfg->p.out_mbits = 10;
    if (opt) {
        if (opt->zero_rule != TC_MMA_ZEROS_MMASIM && opt->zero_rule != TC_MMA_ZEROS_KHATTAK) return TC_ERR_ARG;
        if (opt->group < 0 || opt->group > TC_MMA_MAX_GROUP || opt->frac_bits < 0 || opt->frac_bits > 40) return TC_ERR_ARG;
        if (opt->group) cfg->p.group = opt->group;
        if (opt->frac_bits) cfg->p.frac_bits = opt->frac_bits;
    }
    cfg->emin_in = tc__type_emin(in);
    cfg->emin_c = tc__type_emin(out);
    cfg->out_emin = out == TC_FP16 ? -14 : -126;
    cfg->out_ebits = out == TC_FP16 ? 5 : 8;
    cfg->out_rne = out == TC_FP16;
    cfg->out_fp16 = out == TC_FP16;
    cfg->tf32 = in == TC_TF32;
    if (opt && opt->zero_rule == TC_MMA_ZEROS_KHATTAK) {
        cfg->zero_exp = TC__MMA_KHATTAK_ZERO; cfg->floor = cfg->p.exp_floor;
    } else {
        cfg->zero_exp = TC__MMA_MMASIM_ZERO; cfg->floor = TC__MMA_NO_FLOOR;
    }
    return TC_OK;
}

TCDEF tc_status tc_mma_params_of(tc_arch arch, tc_dtype in, tc_dtype out, tc_mma_params *p) {
    tc__mma_cfg cfg;
    tc_status s;
    if (!p) return TC_ERR_NULL;
    s = tc__mma_setup(arch, in, out, NULL, &cfg);
    if (s == TC_OK) *p = cfg.p;
    return s;
}

TC_HOST_DEVICE static tc__mma_op tc__mma_split(float x, int emin, int zero_exp) {
    uint32_t u = tc__bits(x), mag = u & 0x7FFFFFFFu;
    int e = (int)(mag >> 23);
    int32_t sig;
    tc__mma_op op;
    if (e == 255) { op.sig = 0; op.exp = TC__MMA_SPECIAL_EXP; return op; }
    if (e == 0) { sig = (int32_t)mag; e = -126; }
    else        { sig = (int32_t)((mag & 0x7FFFFFu) | 0x800000u); e -= 127; }
    if (sig == 0) { op.sig = 0; op.exp = zero_exp; return op; }
    if (e < emin) { int sh = emin - e; sig = sh < 31 ? sig >> sh : 0; e = emin; }
    op.sig = (u >> 31) ? -sig : sig;
    op.exp = e;
    return op;
}

TC_HOST_DEVICE static int tc__bitlen64(uint64_t m) {
    int n = 0;
    if (m >> 32) { n += 32; m >>= 32; }
    if (m >> 16) { n += 16; m >>= 16; }
    if (m >> 8)  { n += 8;  m >>= 8; }
    if (m >> 4)  { n += 4;  m >>= 4; }
    if (m >> 2)  { n += 2;  m >>= 2; }
    if (m >> 1)  { n += 1;  m >>= 1; }
    return n + (int)m;
}

/* S * 2^scale rounded once to the output format (RZ for fp32, RNE for
   fp16), with the same keep + ((e - emin) << mbits) encoding trick as
   tc__narrow. A finite result beyond the range becomes Inf. */
TC_HOST_DEVICE static float tc__mma_round(const tc__mma_cfg *cfg, int64_t S, int scale) {
    int mbits = cfg->p.out_mbits, emin = cfg->out_emin;
    uint64_t m = S < 0 ? (uint64_t)0 - (uint64_t)S : (uint64_t)S, keep;
    uint32_t inf = ((1u << cfg->out_ebits) - 1u) << mbits, enc, sign = S < 0;
    int e, sh;
    if (m == 0) return 0.0f;
    e = tc__bitlen64(m) - 1 + scale;
    if (e < emin) e = emin;
    sh = e - mbits - scale;
    if (sh <= 0) {
        keep = m << -sh;
    } else if (sh >= 64) {
        keep = 0;
    } else {
        uint64_t rem = m & ((1ull << sh) - 1u), half = 1ull << (sh - 1);
        keep = m >> sh;
        if (cfg->out_rne && (rem > half || (rem == half && (keep & 1u)))) keep++;
    }
    enc = (uint32_t)keep + ((uint32_t)(e - emin) << mbits);
    if (enc > inf) enc = inf;
    if (cfg->out_fp16) return tc_fp16_to_f32((uint16_t)((sign << 15) | enc));
    return tc__float((sign << 31) | (enc << (23 - mbits)));
}

/* One block FMA: c + sum a[i]*b[i], i < n, on split operands. Sets
   *special and returns 0 when an Inf or NaN takes part. */
TC_HOST_DEVICE static float tc__mma_block(const tc__mma_cfg *cfg, int n, const tc__mma_op *a, const tc__mma_op *b,
                                          tc__mma_op c, int *special) {
    int pe[TC_MMA_MAX_GROUP];
    int E = c.exp, base, sh, i;
    int64_t S, p, t;
    uint64_t m;
    for (i = 0; i < n; i++) {
        pe[i] = a[i].exp + b[i].exp;
        if (pe[i] > E) E = pe[i];
    }
    if (E > TC__MMA_SPECIAL_MIN) { *special = 1; return 0.0f; }
    if (E < cfg->floor) E = cfg->floor;
    /* Products carry 46 fractional bits below 2^(ea+eb) and c is moved to
       46 too; shifting right by 46 - F + (E - exponent) truncates each term
       to F fractional bits below 2^E. F <= 40 keeps every shift >= 6. */
    base = 46 - cfg->p.frac_bits + E;
    sh = base - c.exp; if (sh > 63) sh = 63;
    m = (uint64_t)(c.sig < 0 ? -(int64_t)c.sig : (int64_t)c.sig) << 23;
    t = (int64_t)(m >> sh);
    S = c.sig < 0 ? -t : t;
    for (i = 0; i < n; i++) {
        p = (int64_t)a[i].sig * b[i].sig;
        sh = base - pe[i]; if (sh > 63) sh = 63;
        m = (uint64_t)(p < 0 ? -p : p);
        t = (int64_t)(m >> sh);
        S += p < 0 ? -t : t;
    }
    *special = 0;
    return tc__mma_round(cfg, S, E - cfg->p.frac_bits);
}

/* The IEEE-like outcome when Inf or NaN takes part (MMA-Sim: the fp64 sum
   of the products and c decides): NaN, or Inf of one sign. */
TC_HOST_DEVICE static float tc__mma_special(const tc__mma_cfg *cfg, int n, const float *a, int inc_a,
                                            const float *b, int inc_b, float c) {
    uint32_t cu = tc__bits(c), pos = 0, neg = 0, nan = 0;
    int i;
    if ((cu & 0x7FFFFFFFu) > 0x7F800000u) nan = 1;
    else if ((cu & 0x7FFFFFFFu) == 0x7F800000u) { if (cu >> 31) neg = 1; else pos = 1; }
    for (i = 0; i < n; i++) {
        uint32_t x = tc__bits(a[(ptrdiff_t)i * inc_a]), y = tc__bits(b[(ptrdiff_t)i * inc_b]);
        uint32_t mx, my;
        if (cfg->tf32) { x &= 0xFFFFE000u; y &= 0xFFFFE000u; }
        mx = x & 0x7FFFFFFFu; my = y & 0x7FFFFFFFu;
        if (mx > 0x7F800000u || my > 0x7F800000u) nan = 1;
        else if (mx == 0x7F800000u || my == 0x7F800000u) {
            if (mx == 0 || my == 0) nan = 1;
            else if ((x ^ y) >> 31) neg = 1;
            else pos = 1;
        }
    }
    if (nan || (pos && neg) || !(pos || neg)) return tc__float(0x7FFFFFFFu);
    return tc__float(neg ? 0xFF800000u : 0x7F800000u);
}

TC_HOST_DEVICE TCDEF float tc_mma_dot_ex(tc_arch arch, tc_dtype in, tc_dtype out, int k,
                                         const float *a, const float *b, float c, const tc_mma_options *opt) {
    tc__mma_cfg cfg;
    tc__mma_op pa[TC_MMA_MAX_GROUP], pb[TC_MMA_MAX_GROUP];
    int k0, i, n, special;
    if (!a || !b || tc__mma_setup(arch, in, out, opt, &cfg) != TC_OK) return tc__float(0x7FFFFFFFu);
    if (opt && opt->group) { if (k < 1) return tc__float(0x7FFFFFFFu); }
    else if (k != cfg.p.instr_k && k != cfg.p.min_k) return tc__float(0x7FFFFFFFu);
    for (k0 = 0; k0 < k; k0 += cfg.p.group) {
        float r;
        n = k - k0 < cfg.p.group ? k - k0 : cfg.p.group;
        for (i = 0; i < n; i++) {
            float x = a[k0 + i], y = b[k0 + i];
            if (cfg.tf32) { x = tc_tf32_truncate(x); y = tc_tf32_truncate(y); }
            pa[i] = tc__mma_split(x, cfg.emin_in, cfg.zero_exp);
            pb[i] = tc__mma_split(y, cfg.emin_in, cfg.zero_exp);
        }
        r = tc__mma_block(&cfg, n, pa, pb, tc__mma_split(c, cfg.emin_c, cfg.zero_exp), &special);
        c = special ? tc__mma_special(&cfg, n, a + k0, 1, b + k0, 1, c) : r;
    }
    return c;
}

TC_HOST_DEVICE TCDEF float tc_mma_dot(tc_arch arch, tc_dtype in, tc_dtype out, int k,
                                      const float *a, const float *b, float c) {
    return tc_mma_dot_ex(arch, in, out, k, a, b, c, NULL);
}

/* NaN stands for the type's NaN; e4m3 has no Inf, so tc_round maps Inf to
   NaN and the bit comparison rejects it. */
static int tc__representable(tc_dtype t, float x) {
    if (x != x) return 1;
    return tc__bits(tc_round(t, x, TC_RN)) == tc__bits(x);
}

TCDEF tc_status tc_gemm_ex(tc_arch arch, tc_dtype in, tc_dtype out, int M, int N, int K,
                           const float *A, int lda, const float *B, int ldb,
                           const float *C, int ldc, float *D, int ldd, const tc_mma_options *opt) {
    tc__mma_cfg cfg;
    tc__mma_op *pa, *pb, zero;
    tc_status s;
    int i, j, k, k0, G, Kp, special;
    size_t na, nb;
    s = tc__mma_setup(arch, in, out, opt, &cfg);
    if (s != TC_OK) return s;
    if (M < 0 || N < 0 || K < 0) return TC_ERR_SIZE;
    if ((M && N && K && (!A || !B)) || (M && N && !D)) return TC_ERR_NULL;
    if ((K && M && lda < K) || (N && K && ldb < N) || (C && N && M && ldc < N) || (N && M && ldd < N)) return TC_ERR_SHAPE;
    if (M == 0 || N == 0) return TC_OK;
    if (!cfg.tf32 && in != TC_FP32) {
        for (i = 0; i < M; i++) for (k = 0; k < K; k++)
            if (!tc__representable(in, A[(size_t)i * (size_t)lda + (size_t)k])) return TC_ERR_NOT_REPRESENTABLE;
        for (k = 0; k < K; k++) for (j = 0; j < N; j++)
            if (!tc__representable(in, B[(size_t)k * (size_t)ldb + (size_t)j])) return TC_ERR_NOT_REPRESENTABLE;
    }
    if (C && out != TC_FP32) {
        for (i = 0; i < M; i++) for (j = 0; j < N; j++)
            if (!tc__representable(out, C[(size_t)i * (size_t)ldc + (size_t)j])) return TC_ERR_NOT_REPRESENTABLE;
    }
    /* Split A (rows) and B (columns, transposed) once, padded with zero
       products to a whole number of groups. */
    G = cfg.p.group;
    Kp = (K + G - 1) / G * G;
    na = (size_t)M * (size_t)Kp; nb = (size_t)N * (size_t)Kp;
    if (Kp && (na / (size_t)Kp != (size_t)M || nb / (size_t)Kp != (size_t)N ||
               na > (size_t)-1 / sizeof *pa || nb > (size_t)-1 / sizeof *pb)) return TC_ERR_NOMEM;
    pa = (tc__mma_op *)TC_MALLOC((na ? na : 1) * sizeof *pa);
    pb = (tc__mma_op *)TC_MALLOC((nb ? nb : 1) * sizeof *pb);
    if (!pa || !pb) { TC_FREE(pa); TC_FREE(pb); return TC_ERR_NOMEM; }
    zero.sig = 0; zero.exp = cfg.zero_exp;
    for (i = 0; i < M; i++) for (k = 0; k < Kp; k++) {
        float x = k < K ? A[(size_t)i * (size_t)lda + (size_t)k] : 0.0f;
        if (cfg.tf32) x = tc_tf32_truncate(x);
        pa[(size_t)i * (size_t)Kp + (size_t)k] = k < K ? tc__mma_split(x, cfg.emin_in, cfg.zero_exp) : zero;
    }
    for (j = 0; j < N; j++) for (k = 0; k < Kp; k++) {
        float y = k < K ? B[(size_t)k * (size_t)ldb + (size_t)j] : 0.0f;
        if (cfg.tf32) y = tc_tf32_truncate(y);
        pb[(size_t)j * (size_t)Kp + (size_t)k] = k < K ? tc__mma_split(y, cfg.emin_in, cfg.zero_exp) : zero;
    }
    for (i = 0; i < M; i++) {
        const tc__mma_op *ra = pa + (size_t)i * (size_t)Kp;
        for (j = 0; j < N; j++) {
            const tc__mma_op *rb = pb + (size_t)j * (size_t)Kp;
            float c = C ? C[(size_t)i * (size_t)ldc + (size_t)j] : 0.0f;
            for (k0 = 0; k0 < Kp; k0 += G) {
                float r = tc__mma_block(&cfg, G, ra + k0, rb + k0, tc__mma_split(c, cfg.emin_c, cfg.zero_exp), &special);
                c = !special ? r : tc__mma_special(&cfg, K - k0 < G ? K - k0 : G, A + (size_t)i * (size_t)lda + (size_t)k0, 1,
                                                   B + (size_t)k0 * (size_t)ldb + (size_t)j, ldb, c);
            }
            D[(size_t)i * (size_t)ldd + (size_t)j] = c;
        }
    }
    TC_FREE(pa); TC_FREE(pb);
    return TC_OK;
}

TCDEF tc_status tc_gemm(tc_arch arch, tc_dtype in, tc_dtype out, int M, int N, int K,
                        const float *A, int lda, const float *B, int ldb,
                        const float *C, int ldc, float *D, int ldd) {
    return tc_gemm_ex(arch, in, out, M, N, K, A, lda, B, ldb, C, ldc, D, ldd, NULL);
}

/* ---- reference models ---- */

TCDEF float tc_dot_fma(int k, const float *a, int inc_a, const float *b, int inc_b, float c) {
    int i;
    if (k < 0 || (k && (!a || !b)) || inc_a < 1 || inc_b < 1) return tc__float(0x7FFFFFFFu);
    for (i = 0; i < k; i++) c = fmaf(a[(size_t)i * (size_t)inc_a], b[(size_t)i * (size_t)inc_b], c);
    return c;
}

/* A two's-complement fixed-point accumulator wide enough for any sum of
   fp32 products: bit 0 weighs 2^-300 (the smallest product is 2^-298), the
   largest product reaches bit 556, leaving 83 bits for carries. */
#define TC__EXACT_LIMBS 20
#define TC__EXACT_LSB 300

static void tc__exact_add(uint32_t *acc, uint64_t m, int pos, int negative) {
    int limb = pos >> 5, sh = pos & 31, i;
    uint64_t hi = sh ? m >> (32 - sh) : m >> 32;
    uint32_t part[3];
    uint64_t carry = 0;
    part[0] = (uint32_t)(m << sh); part[1] = (uint32_t)hi; part[2] = (uint32_t)(hi >> 32);
    for (i = limb; i < TC__EXACT_LIMBS; i++) {
        uint64_t v = i - limb < 3 ? part[i - limb] : 0;
        uint64_t r;
        if (!negative) { r = (uint64_t)acc[i] + v + carry; carry = r >> 32; }
        else { r = (uint64_t)acc[i] - v - carry; carry = (r >> 32) & 1u; }
        acc[i] = (uint32_t)r;
        if (i - limb >= 2 && carry == 0) break;
    }
}

/* sig and lsb exponent of a finite fp32: |x| = sig * 2^lsb. */
static uint32_t tc__exact_split(float x, int *lsb) {
    uint32_t mag = tc__bits(x) & 0x7FFFFFFFu;
    if (mag < 0x00800000u) { *lsb = -149; return mag; }
    *lsb = (int)(mag >> 23) - 150;
    return (mag & 0x7FFFFFu) | 0x800000u;
}

static int tc__exact_bit(const uint32_t *acc, int i) { return (int)((acc[i >> 5] >> (i & 31)) & 1u); }

TCDEF float tc_dot_exact(int k, const float *a, int inc_a, const float *b, int inc_b, float c) {
    uint32_t acc[TC__EXACT_LIMBS];
    uint32_t pos = 0, neg = 0, nan = 0, all_negzero, sign, keep = 0, enc;
    int i, top, e, cut, lsb, lsb2, sticky = 0;
    if (k < 0 || (k && (!a || !b)) || inc_a < 1 || inc_b < 1) return tc__float(0x7FFFFFFFu);
    /* Inf and NaN first: IEEE's rules for a sum of products. */
    if (c != c) nan = 1;
    else if (c - c != 0.0f) { if (c < 0) neg = 1; else pos = 1; }
    all_negzero = tc__bits(c) == 0x80000000u;
    for (i = 0; i < k; i++) {
        float x = a[(size_t)i * (size_t)inc_a], y = b[(size_t)i * (size_t)inc_b];
        if (x != x || y != y) nan = 1;
        else if (x - x != 0.0f || y - y != 0.0f) {
            if (x == 0.0f || y == 0.0f) nan = 1;
            else if ((x < 0) != (y < 0)) neg = 1;
            else pos = 1;
        }
        if (!((x == 0.0f || y == 0.0f) && ((tc__bits(x) ^ tc__bits(y)) >> 31))) all_negzero = 0;
    }
    if (nan || (pos && neg)) return tc__float(0x7FFFFFFFu);
    if (pos || neg) return tc__float(neg ? 0xFF800000u : 0x7F800000u);
    memset(acc, 0, sizeof acc);
    {
        uint32_t sc = tc__exact_split(c, &lsb);
        if (sc) tc__exact_add(acc, sc, lsb + TC__EXACT_LSB, c < 0);
    }
    for (i = 0; i < k; i++) {
        float x = a[(size_t)i * (size_t)inc_a], y = b[(size_t)i * (size_t)inc_b];
        uint64_t p = (uint64_t)tc__exact_split(x, &lsb) * tc__exact_split(y, &lsb2);
        if (p) tc__exact_add(acc, p, lsb + lsb2 + TC__EXACT_LSB, (x < 0) != (y < 0));
    }
    sign = acc[TC__EXACT_LIMBS - 1] >> 31;
    if (sign) {   /* magnitude = two's-complement negation */
        uint64_t carry = 1;
        for (i = 0; i < TC__EXACT_LIMBS; i++) {
            uint64_t r = (uint64_t)(uint32_t)~acc[i] + carry;
            acc[i] = (uint32_t)r; carry = r >> 32;
        }
    }
    for (top = TC__EXACT_LIMBS * 32 - 1; top >= 0 && !tc__exact_bit(acc, top); top--) {}
    if (top < 0) return all_negzero ? tc__float(0x80000000u) : 0.0f;
    e = top - TC__EXACT_LSB;
    if (e < -126) e = -126;
    cut = e - 23 + TC__EXACT_LSB;        /* lowest kept bit; >= 151 */
    for (i = top; i >= cut; i--) keep = (keep << 1) | (uint32_t)tc__exact_bit(acc, i);
    for (i = cut - 2; i >= 0 && !sticky; i--) sticky = tc__exact_bit(acc, i);
    if (tc__exact_bit(acc, cut - 1) && (sticky || (keep & 1u))) keep++;
    enc = keep + ((uint32_t)(e + 126) << 23);
    if (enc > 0x7F800000u) enc = 0x7F800000u;
    return tc__float((sign << 31) | enc);
}

/* ---- mma.sync fragment layouts ---- */

TC_HOST_DEVICE TCDEF int tc_mma_shape_m(tc_mma_shape s) { return (int)s >= 0 && s < TC_MMA_SHAPE_COUNT ? 16 : 0; }
TC_HOST_DEVICE TCDEF int tc_mma_shape_n(tc_mma_shape s) { return (int)s >= 0 && s < TC_MMA_SHAPE_COUNT ? 8 : 0; }
TC_HOST_DEVICE TCDEF int tc_mma_shape_k(tc_mma_shape s) {
    switch (s) {
    case TC_MMA_M16N8K16_F16: return 16;
    case TC_MMA_M16N8K8_F16: case TC_MMA_M16N8K8_TF32: return 8;
    case TC_MMA_M16N8K4_TF32: return 4;
    default: return 0;
    }
}

/* Each lane holds (M*K, K*N, M*N) / 32 elements. */
TC_HOST_DEVICE TCDEF int tc_mma_frag_count(tc_mma_shape s, tc_frag f) {
    int m = tc_mma_shape_m(s), n = tc_mma_shape_n(s), k = tc_mma_shape_k(s);
    switch (f) {
    case TC_FRAG_A: return m * k / 32;
    case TC_FRAG_B: return k * n / 32;
    case TC_FRAG_C: return m * n / 32;
    default: return 0;
    }
}

TC_HOST_DEVICE TCDEF tc_status tc_mma_frag_coord(tc_mma_shape s, tc_frag f, int lane, int i, int *row, int *col) {
    int g = lane >> 2, t = lane & 3;
    int tf32 = s == TC_MMA_M16N8K8_TF32 || s == TC_MMA_M16N8K4_TF32;
    if (!row || !col) return TC_ERR_NULL;
    if (lane < 0 || lane > 31 || i < 0 || i >= tc_mma_frag_count(s, f)) return TC_ERR_ARG;
    switch (f) {
    case TC_FRAG_A:
        if (tf32) { *row = g + 8 * (i & 1); *col = t + 4 * (i >> 1); }           /* a0 (g,t) a1 (g+8,t) a2 (g,t+4) a3 (g+8,t+4) */
        else { *row = g + 8 * ((i >> 1) & 1); *col = 2 * t + (i & 1) + 8 * (i >> 2); }
        break;
    case TC_FRAG_B:
        if (tf32) { *row = t + 4 * i; *col = g; }                                 /* b0 (t,g) b1 (t+4,g) */
        else { *row = 2 * t + (i & 1) + 8 * (i >> 1); *col = g; }
        break;
    default:                                                                      /* C and D: c0,c1 row g; c2,c3 row g+8 */
        *row = g + 8 * (i >> 1); *col = 2 * t + (i & 1);
        break;
    }
    return TC_OK;
}

/* ------------------------------------------------ section 3: loss scaling */

/* ------------------------------------------------ section 4: sparsity */

/* ------------------------------------------------ section 5: simulator */

#ifdef __cplusplus
}
#endif
#endif /* TENSORCORE_IMPLEMENTATION_DONE */
#endif /* TENSORCORE_IMPLEMENTATION */

/*
------------------------------------------------------------------------------
This software is available under 2 licenses -- choose whichever you prefer.
ALTERNATIVE A - MIT License. Copyright (c) 2026 the tensorcore.h authors.
Permission is hereby granted, free of charge, to any person obtaining a copy of
this software and associated documentation files (the "Software"), to deal in
the Software without restriction, including without limitation the rights to
use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of
the Software, and to permit persons to whom the Software is furnished to do so,
subject to the following conditions: The above copyright notice and this
permission notice shall be included in all copies or substantial portions of
the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.
ALTERNATIVE B - Public Domain (www.unlicense.org). Anyone is free to copy,
modify, publish, use, compile, sell, or distribute this software, either in
source code form or as a compiled binary, for any purpose, commercial or
non-commercial, and by any means.
------------------------------------------------------------------------------
*/
