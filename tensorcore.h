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
     TC_NO_SIMD             scalar code only: no SSE2/F16C paths in the array
                            conversions and no SIMD GEMM (results are identical;
                            for comparing speed, or for compilers without the
                            intrinsics).
     TC_THREADS             let tc_gemm_desc.threads > 1 and
                            tc_convert_threads(n > 1) use POSIX threads (link
                            -lpthread); without it the GEMMs run on the
                            calling thread and tc_convert_threads refuses n > 1.

   SECTIONS                                                       prefix
     1. Number formats: fp16, bf16, tf32, e4m3, e5m2 conversions    tc_fp16_ tc_bf16_
        with every rounding mode, array versions, bit-field tools   tc_tf32_ tc_e4m3_ ...
        1b. FP4/FP6/E8M0/UE4M3, cvt.rs stochastic rounding,          tc_encode_sr
        custom formats, MX and NVFP4 block scaling                   tc_custom_ tc_block_
        integers s8/u8/s4/u4/s32 (cvt to integer)                    tc_encode
     2. Tensor Core MMA numerics (bit-accurate), fragment layouts   tc_mma_ tc_gemm tc_dot_
        integer mma (s8/u8/s4/u4, s32 wrap or satfinite)            tc_imma_ tc_igemm
     3. Loss scaling: dynamic scalers, fused unscale-and-check      tc_scaler_ tc_unscale_
     4. 2:4 structured sparsity: prune, check, compress, metadata   tc_sparse_
     5. Cycle-approximate simulator: warps, schedulers, scoreboard, tc_sim_
        shared-memory banks, sectors and bandwidth; GPU profiles;     tc_sim_predict_
        kernel-sequence predictions (bytes, launches, time)
     6. GEMM tiling: counts, occupancy, waves, roofline, time       tc_tile_
   Each section opens with what it models, what it simplifies, where its
   numbers come from, and which of them are assumptions.

   ERRORS
     Every public function that can fail returns tc_status, with its results
     through pointers; tc_status_string() turns a status into a sentence and
     tc_status_is_error() / tc_status_is_warning() tell errors (nothing was
     done) from warnings (done, with a report). Bad input never aborts.
     Documented exceptions, each stating its contract where it is declared:
     the per-element primitives meant for kernels (scalar conversions give
     the format's NaN for an unknown rounding mode, see tc_rounding_is_valid;
     tc_mma_dot gives NaN for an unsupported combination; tc_split,
     tc_classify, tc_ulp and tc_next_up/down for an unknown dtype; the
     unscale primitives), and lookups by name or index, which return NULL when there
     is no such entry (tc_format_of, tc_gpu_find, tc_gpu_get, ...).

   FLOATING-POINT ENVIRONMENT
     Results do not depend on the rounding mode the caller set (fesetround)
     or, on x86, on FTZ and DAZ: a function that computes in float or
     double sets C's default for the call and puts the caller's control
     bits back (MXCSR on x86, <fenv.h> elsewhere); the exceptions it raised
     stay raised. The rest compute with integers, or exactly.
     tests/test_fenv.c checks it.

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
#if defined(__GNUC__) || defined(__clang__)
#define TCDEF static __attribute__((unused))   /* a file may use only a few */
#else
#define TCDEF static
#endif
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

/* One table, so the enum, its messages and its kinds cannot drift apart.
   OK: success. ERR: bad input or a failure; the call changed nothing unless
   its comment says otherwise. WARN: the call did its job and reports a
   failure case of the thing modelled (the state stays usable). */
#define TC__STATUS_LIST(X) \
    X(TC_OK,                   OK  , "ok") \
    X(TC_ERR_NULL,             ERR , "a required pointer argument is NULL") \
    X(TC_ERR_SIZE,             ERR , "a size or count is negative, zero where it must not be, or too large") \
    X(TC_ERR_ROUNDING,         ERR , "unknown rounding mode (use TC_RN, TC_RNA, TC_RZ, TC_RD or TC_RU, optionally | TC_SATFINITE)") \
    X(TC_ERR_DTYPE,            ERR , "unknown or unsupported data type for this operation") \
    X(TC_ERR_BUFFER,           ERR , "the output buffer is too small") \
    X(TC_ERR_NOT_REPRESENTABLE,ERR , "an input value is not representable in the declared input type") \
    X(TC_ERR_SHAPE,            ERR , "the matrix shape or leading dimension is invalid for this operation") \
    X(TC_ERR_ARCH,             ERR , "unknown architecture, or the architecture does not support this type") \
    X(TC_ERR_NOMEM,            ERR , "out of memory") \
    X(TC_ERR_ARG,              ERR , "an argument is out of its valid range") \
    X(TC_ERR_GROWTH_EVERY_STEP,ERR , "growth_interval 1 grows the loss scale on every clean step, so half the steps overflow and are skipped; set allow_growth_every_step to insist") \
    X(TC_WARN_SCALE_OVERFLOW,  WARN, "growing the loss scale would overflow fp32 to Inf; the scale was kept") \
    X(TC_WARN_SCALE_COLLAPSED, WARN, "the loss scale would fall below FLT_MIN, where its reciprocal overflows; the scale was kept (are gradients ever cleared?)") \
    X(TC_WARN_SCALE_BELOW_ONE, WARN, "the loss scale fell below 1: gradients overflow even unscaled (often a bf16-trained model run in fp16), scaling cannot help") \
    X(TC_WARN_SCALE_AT_MIN,    WARN, "overflow at the minimum loss scale: the scale cannot back off further and the step is skipped") \
    X(TC_ERR_PROFILE,          ERR , "invalid GPU profile (tc_sim_profile_validate says which field)") \
    X(TC_ERR_PROGRAM,          ERR , "invalid simulator program: bad register, opcode, loop, alignment, or an address outside its memory") \
    X(TC_ERR_LIMIT,            ERR , "the simulation ran past max_cycles") \
    X(TC_ERR_NOT_SPARSE,       ERR , "the matrix breaks the 2:4 (tf32: 1:2) pattern: a group along K has too many non-zeros (see the violation report)") \
    X(TC_ERR_SPARSE_META,      ERR , "sparsity metadata holds a code that mma.sp::ordered_metadata does not accept (an unsorted or repeated index pair)") \
    X(TC_ERR_TILE_DIVIDE,      ERR , "tiling: the warp tile does not divide the CTA tile, or the instruction does not divide the warp tile") \
    X(TC_ERR_TILE_KSTEP,       ERR , "tiling: the CTA's K step is not a multiple of the instruction's K") \
    X(TC_ERR_TILE_INST,        ERR , "tiling: the instruction shape is not an mma.sync or wgmma shape for the input type on this machine (or not a 32-lane FFMA arrangement)") \
    X(TC_ERR_TILE_THREADS,     ERR , "tiling: the CTA has more threads than a CTA or an SM may hold") \
    X(TC_ERR_TILE_SHARED,      ERR , "tiling: the CTA needs more shared memory than the machine gives one CTA") \
    X(TC_ERR_TILE_REGS,        ERR , "tiling: the CTA needs more registers per thread, or per CTA, than the machine has")

typedef enum {
#define TC__STATUS_ENUM(name, kind, msg) name,
    TC__STATUS_LIST(TC__STATUS_ENUM)
#undef TC__STATUS_ENUM
    TC_STATUS_COUNT
} tc_status;

TCDEF const char *tc_status_string(tc_status s);
/* 1 for a TC_ERR_* status (the call did nothing), else 0. */
TC_HOST_DEVICE TCDEF int tc_status_is_error(tc_status s);
/* 1 for a TC_WARN_* status (done, with a report), else 0. */
TC_HOST_DEVICE TCDEF int tc_status_is_warning(tc_status s);

/* ==========================================================================
   SECTION 1: NUMBER FORMATS
   Models: the fp32 -> {fp16, bf16, tf32, e4m3, e5m2} conversions of CUDA 13
     (cuda_fp16.hpp, cuda_bf16.hpp, cuda_fp8.hpp host code and the PTX cvt
     instructions) and the widening conversions back to fp32, bit for bit.
   Simplifies: nothing for the modes CUDA offers. Modes CUDA lacks (FP8 with
     RZ/RD/RU/RNA, tf32 RD/RU) follow IEEE 754 rules applied to the format.
   Numbers from: docs/REFERENCE.md section 1; verified exhaustively by
     tests/test_formats_exhaustive.cpp against the CUDA headers and F16C.
   Assumed, not yet confirmed on a GPU: tf32 conversion of NaN returns
     0x7FFFE000 (cvt.rna.tf32.f32 on NaNs whose payload lies only in the low
     13 bits); cuda/formats.cu checks it when run.
   Integers (s8, u8, s4, u4, s32; integer mma in section 2) share the one
     dtype table: tc_format_of gives them exponent_bits 0 (what marks an
     integer), mantissa_bits the value bits, no Inf or NaN, spacing 1
     (s32's max_finite is 2^31, the fp32 nearest INT32_MAX).
     tc_encode is PTX cvt.{rni,rzi,rmi,rpi}.sN.f32 (TC_RN, RZ, RD, RU; TC_RNA,
     ties away, is ours): float-to-integer cvt clamps to the type's range
     whether or not .sat is given, and NaN gives 0 (PTX ISA, cvt, "Saturation
     modifier"); s4/u4 clamp the same way to -8..7 / 0..15, as
     cvt.pack.sat.s4.s32 does. tc_decode sign-extends (s32 beyond 2^24 rounds
     to nearest fp32, cvt.rn.f32.s32). tc_classify gives ZERO or NORMAL,
     tc_ulp 1, tc_next_up/down step by 1 and stop at the ends. The FP-only
     tools refuse them: tc_encode_sr (0: no cvt.rs to integers) and the u8
     arrays (TC_ERR_DTYPE); tc_round_array gives tc_round's values (on x86
     by vrndscaleps with AVX-512, else by cvtps2dq; elsewhere by tc_round
     in a loop).
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
/* OR into the rounding: flush fp32 subnormal inputs to sign-preserving zero
   before converting (PTX cvt .ftz, PTX ISA 9.7.9.21 "Subnormal numbers"). */
#define TC_FTZ 0x400
/* OR into the rounding: a result that is subnormal in the target format
   becomes a sign-preserving zero (flush after rounding), for "what if this
   format had no subnormals" questions. Not a PTX modifier. */
#define TC_FTZ_OUT 0x800

/* TC_E2M1 (FP4), TC_E2M3 and TC_E3M2 (FP6): OCP MX element types, no Inf or
   NaN; every conversion saturates and NaN becomes +max, as CUDA's
   cuda_fp4.h/cuda_fp6.h do. TC_UE8M0: the MX scale, 2^(code - 127), no
   sign, no zero, 0xFF is NaN. TC_UE4M3: e4m3 without its sign bit (7 bits),
   NVFP4's block scale. Where a format has no NaN, the scalar conversions'
   "NaN for an unknown rounding mode" (see ERRORS) is +max. */
/* TC_S8, TC_U8, TC_S4, TC_U4 (integer mma operands) and TC_S32 (its
   accumulator): two's-complement / unsigned integers, right-aligned codes
   like the others. See the banner's "Integers". */
typedef enum { TC_FP32, TC_TF32, TC_FP16, TC_BF16, TC_E4M3, TC_E5M2,
               TC_E2M1, TC_E2M3, TC_E3M2, TC_UE8M0, TC_UE4M3,
               TC_S8, TC_U8, TC_S4, TC_U4, TC_S32, TC_DTYPE_COUNT } tc_dtype;

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
    int has_nan;             /* e2m1, e2m3, e3m2 have no NaN either */
    int is_signed;           /* ue8m0 and ue4m3 have no sign bit */
    uint32_t max_finite_bits;/* 0x7BFF */
    uint32_t nan_bits;       /* the canonical NaN CUDA produces: 0x7FFF */
    float max_finite;        /* 65504 */
    float min_normal;        /* 2^-14 */
    float min_subnormal;     /* 2^-24; ue8m0, which has no subnormals: its smallest value */
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

/* Array versions: n values in one call. Every format and rounding mode
   (satfinite included; the FTZ flags take the scalar encoder) takes a
   vectorised path on x86-64 (tc_round_array to the integer types only with
   AVX-512; to fp32 it is a copy): SSE2, AVX2 when
   the compiler may use it (-mavx2 or -march=native), F16C for fp16
   RN/RZ/RD/RU (-mf16c); the tests prove it equal to the scalar functions
   (tests/test_formats_exhaustive.cpp). Elsewhere (or with TC_NO_SIMD) they loop over the scalar
   functions. in and out may alias for tc_round_array. */
TCDEF tc_status tc_fp16_from_f32_array(const float *in, uint16_t *out, size_t n, int rounding);
TCDEF tc_status tc_bf16_from_f32_array(const float *in, uint16_t *out, size_t n, int rounding);
TCDEF tc_status tc_tf32_from_f32_array(const float *in, float *out, size_t n, int rounding);
TCDEF tc_status tc_e4m3_from_f32_array(const float *in, uint8_t *out, size_t n, int rounding);
TCDEF tc_status tc_e5m2_from_f32_array(const float *in, uint8_t *out, size_t n, int rounding);
TCDEF tc_status tc_fp16_to_f32_array(const uint16_t *in, float *out, size_t n);
TCDEF tc_status tc_bf16_to_f32_array(const uint16_t *in, float *out, size_t n);
TCDEF tc_status tc_round_array(tc_dtype t, const float *in, float *out, size_t n, int rounding);
TCDEF tc_status tc_e4m3_to_f32_array(const uint8_t *in, float *out, size_t n);
TCDEF tc_status tc_e5m2_to_f32_array(const uint8_t *in, float *out, size_t n);
/* Threads for the array conversions above, 1 (the default) to 64. More
   than 1 needs the implementation compiled with TC_THREADS (and
   -lpthread); without it, or out of range, TC_ERR_ARG and nothing changes.
   Arrays under 128 Ki elements stay on one thread. Results are identical
   for any count. A process-wide setting: set it before converting, not
   while another thread converts. */
TCDEF tc_status tc_convert_threads(int n);

/* Tools for looking inside a format. */
typedef struct {
    int sign;          /* 0 or 1 */
    int exponent;      /* the stored (biased) exponent field */
    uint32_t mantissa; /* the stored fraction field */
    int unbiased;      /* exponent - bias; for subnormals and zero, 1 - bias */
    tc_class cls;
} tc_fields;

/* Per-element primitives (see ERRORS): an unknown dtype gives all fields 0
   with cls TC_CLASS_NAN from tc_split, TC_CLASS_NAN from tc_classify, and
   NaN from tc_ulp, tc_next_up and tc_next_down. */
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

/* ---- 1b. Small formats, custom formats, stochastic rounding, block scaling
   Models: the fp32 -> e2m1/e2m3/e3m2 conversions of CUDA 13's cuda_fp4.hpp
     and cuda_fp6.hpp host code (RN and RZ, always saturating, NaN -> +max),
     fp32 -> ue8m0 of cuda_fp8.hpp (__nv_cvt_float_to_e8m0: RZ and RU on
     |x|, with or without satfinite), PTX cvt.rs stochastic rounding with
     the random bits as an operand, and block scaling: OCP MX v1.0 (MXFP8,
     MXFP6, MXFP4: 32 elements, an E8M0 scale) and NVIDIA's NVFP4 (16
     elements, an E4M3 scale, a per-tensor fp32 scale).
   Simplifies: modes CUDA lacks for these formats (RNA, RD, RU for FP4/FP6;
     RN, RNA, RD for ue8m0; everything for ue4m3, which CUDA converts to only
     as e4m3) follow IEEE 754 rules applied to the format. Where the .rs
     random bits sit when the discarded field is wider than they are is
     ASSUMED (see tc_encode_sr); no sm_100a GPU has checked it here.
   Numbers from: docs/REFERENCE.md section 1.5; verified exhaustively by
     tests/test_formats_exhaustive_mx.cpp against the CUDA 13 headers. */

/* Any format of at most 8 bits (e4m3, e5m2, e2m1, e2m3, e3m2, ue8m0, ue4m3),
   one right-aligned code per byte. Every mode, with or without satfinite,
   runs on section 1's vector kernels (and tc_convert_threads), proven
   equal to tc_encode / tc_decode by the tests. */
TCDEF tc_status tc_encode_u8_array(tc_dtype t, const float *in, uint8_t *out, size_t n, int rounding);
TCDEF tc_status tc_decode_u8_array(tc_dtype t, const uint8_t *in, float *out, size_t n);

/* Stochastic rounding as PTX cvt.rs (sm_100a; PTX ISA 9.7.9.21, modifier
   .rs): the magnitude is truncated, then rounded away from zero when adding
   the random bits to the discarded mantissa bits carries out. `nbits` random
   bits (the low bits of rbits) line up with the most significant discarded
   bits; discarded bits below them do not take part. PTX gives fp16 13 bits
   and bf16 16 (exactly their discarded field for normal results, where this
   model is the spec); e4m3/e5m2/e2m3/e3m2 16 and e2m1 8 (tc_sr_bits): for
   those, and for subnormal results, the alignment is ASSUMED. `flags`:
   TC_SATFINITE, TC_FTZ, TC_FTZ_OUT. Per-element primitive (see ERRORS): an
   unknown or integer dtype gives 0, a bad nbits or flag or TC_UE8M0 the format's NaN
   code (+max where it has none). */
TC_HOST_DEVICE TCDEF uint32_t tc_encode_sr(tc_dtype t, float x, uint32_t rbits, int nbits, int flags);
/* The random bits cvt.rs uses per element for a destination type; 0 where
   PTX has no cvt.rs (fp32, tf32, ue8m0, ue4m3). */
TC_HOST_DEVICE TCDEF int tc_sr_bits(tc_dtype t);

/* A format of your own, for "what if" questions: any exponent width 1..8
   and mantissa width 0..23, IEEE-style Inf/NaN, only a NaN (the all-ones
   code, like e4m3), or neither (saturating, like e2m1), signed or not. The
   bias is 2^(e-1) - 1. Configured like a built-in format it gives the
   built-in's bits (tests/test_formats_exhaustive_mx.cpp checks fp16, bf16,
   e4m3, e5m2, e2m1, e2m3, e3m2 on every fp32 input). */
typedef enum { TC_SPECIALS_IEEE, TC_SPECIALS_NAN, TC_SPECIALS_NONE } tc_specials;
typedef struct {
    int exponent_bits;    /* 1..8 (8 only with TC_SPECIALS_IEEE: fp32's range) */
    int mantissa_bits;    /* 0..23 */
    tc_specials specials;
    int is_signed;        /* 0 or 1 */
} tc_custom_format;
/* Fills *out (name "custom") with the format's facts; TC_ERR_NULL, or
   TC_ERR_ARG for widths or specials out of range, IEEE specials without a
   mantissa bit (no NaN code) or with one exponent bit, 8 exponent bits
   without IEEE specials, or no finite non-zero value. Every tc_custom_
   function validates the same way. */
TCDEF tc_status tc_custom_info(const tc_custom_format *f, tc_format *out);
TCDEF tc_status tc_custom_encode(const tc_custom_format *f, float x, int rounding, uint32_t *bits);
TCDEF tc_status tc_custom_decode(const tc_custom_format *f, uint32_t bits, float *out);
TCDEF tc_status tc_custom_round(const tc_custom_format *f, float x, int rounding, float *out);
/* cvt.rs on a custom format: see tc_encode_sr. TC_ERR_ARG for nbits outside 1..32. */
TCDEF tc_status tc_custom_encode_sr(const tc_custom_format *f, float x, uint32_t rbits, int nbits, int flags, uint32_t *bits);

/* Block scaling along K, as block-scaled MMAs consume it: a rows x K
   operand (element (r, k) at X[r * ld + k]: A row-major, or B stored
   column-major) is cut into blocks of `block` consecutive k; each block
   gets one scale. One table (tc_block_info_of). */
typedef enum { TC_MXFP8_E4M3, TC_MXFP8_E5M2, TC_MXFP6_E2M3, TC_MXFP6_E3M2, TC_MXFP4, TC_NVFP4, TC_BLOCK_KIND_COUNT } tc_block_kind;
typedef struct {
    const char *name;     /* "mxfp4" */
    tc_dtype elem;        /* TC_E2M1 */
    tc_dtype scale;       /* TC_UE8M0 (MX) or TC_UE4M3 (NVFP4) */
    int block;            /* 32 (MX) or 16 (NVFP4) */
    int tensor_scale;     /* 1: also a per-tensor fp32 scale (NVFP4) */
} tc_block_info;
/* NULL for an unknown kind. */
TCDEF const tc_block_info *tc_block_info_of(tc_block_kind k);

/* Per-block report of a quantization. */
typedef struct {
    float amax;           /* largest |x| in the block (NaN if it holds a NaN) */
    float scale;          /* the value one element code is multiplied by: decoded block scale / tensor scale */
    double max_abs_err;   /* largest |dequantized - x| over the block's finite x */
    double rms_err;       /* sqrt(mean (dequantized - x)^2) over the same */
    int saturated;        /* elements whose scaled magnitude exceeded the element format's max */
    int flushed;          /* non-zero elements that became zero */
} tc_block_stats;

/* NVFP4's per-tensor encode scale S_enc = 448 * 6 / amax of the whole
   tensor, at most FLT_MAX, and 1 when amax is 0 or S_enc underflows
   (Transformer Engine, core_nvfp4.cuh compute_global_encode_scaling_factor_FP4).
   TC_ERR_ARG when the operand holds a NaN or Inf. */
TCDEF tc_status tc_nvfp4_tensor_scale(int rows, int K, const float *X, int ld, float *s_enc);

/* Quantize: codes (rows * K bytes, row-major, one code per byte),
   scales (rows * K / block codes of the kind's scale type), and optionally
   stats (rows * K / block entries, or NULL). MX (OCP MX v1.0 section 6.3):
   scale = 2^(floor(log2 amax) - emax_elem) clamped below at 2^-127,
   elements RN of x / scale with saturation; a block holding a NaN or Inf
   gets the NaN scale 0xFF; an all-zero block the scale 2^-127.
   tensor_scale must be 1 for MX. NVFP4 (NVIDIA, Transformer Engine
   core_nvfp4.cuh): tensor_scale is S_enc (> 0, finite); the block scale is
   the e4m3 (RN, satfinite) of amax * (S_enc * (1/6)), elements are e2m1 RN
   of x * min(1 / (scale * (1 / S_enc)), FLT_MAX); a block holding a NaN or
   Inf gets the NaN scale 0x7F (our choice; TE's amax skips NaN).
   Errors: TC_ERR_NULL, TC_ERR_ARG (kind, tensor_scale), TC_ERR_SHAPE (rows
   or K < 1, K not a multiple of the block, ld < K), TC_ERR_SIZE (rows * ld
   floats do not fit in a size_t). */
TCDEF tc_status tc_block_quantize(tc_block_kind k, int rows, int K, const float *X, int ld, float tensor_scale,
                                  uint8_t *codes, uint8_t *scales, tc_block_stats *stats);
/* Dequantize: X[r * ld + k] = elem * scale / tensor_scale, one rounding to
   fp32. A NaN scale code gives NaN for its whole block. Same errors. */
TCDEF tc_status tc_block_dequantize(tc_block_kind k, int rows, int K, const uint8_t *codes, const uint8_t *scales,
                                    float tensor_scale, float *X, int ld);

/* ==========================================================================
   SECTION 2: TENSOR CORE MMA NUMERICS
   Models: what one mma.sync, H100 wgmma or B200 tcgen05.mma computes, bit for bit, on
     V100, A100, H100, Ada (sm_89), B200 (sm_100, mma.sync), and from
     MMA-Sim's model alone (no hardware vectors) Turing (sm_75, fp16 only)
     and RTX Blackwell (sm_120): the block
     FMA of docs/REFERENCE.md section 2. Per group of products: every product
     exact; E = the largest product exponent (the sum of the two operands'
     exponents, so a product's significand lies in [1,4)) and c's; every
     term, c included, truncated toward zero to F fractional bits below 2^E
     (F above fp32's 23 gives extra alignment bits, but there is no round or
     sticky bit); an exact sum; one normalisation; then
     round to the output (tc_mma_params.out_rounding): toward zero to fp32
     (FP8 on H100 and Ada: to 13 mantissa bits), to nearest-even to fp32 for
     B200 FP8, to nearest-even to fp16. Longer K chains groups, each taking
     the previous rounded result as its c.
   Parameters (one table, tc__mma_table): F = 23 V100, 24 A100, Ada and
     Turing, 25 H100, B200 and sm_120; FP8: 13 H100 and Ada, 31 B200, 25
     sm_120. group = V100 fp16 4; Turing fp16 8 (m16n8k8 one group; m8n8k4
     one of 4); A100 and Ada fp16/bf16 8, tf32 4; H100, B200 and sm_120
     fp16/bf16 16, tf32 8, FP8 32 (H100: the wgmma k32 group); Ada FP8 16
     (m16n8k32 = two groups). FP8 m16n8k16 (PTX ISA 8.7, all four e4m3/e5m2
     pairings; MMA-Sim isa/nv_ptx/nv_mma.py lists it for Ada and, through
     the Ada list, sm_120): one block FMA of 16 on both, with each one's F
     and output (simulator/nv_ptx.py splits only Ada's K 32, not K 16).
     PTX also lets sm_90 and sm_100 issue it (ptxas 13.0 assembles all four
     pairings, f32 and f16 out, for both), where MMA-Sim has no FP8
     mma.sync: ASSUMED one block FMA of 16 in the arch's FP8 k32 parameters
     (H100 F = 13, cut to 13 bits; B200 F = 31, rounded to nearest), i.e.
     the k32 block with 16 zero products, because their measured k32 is one
     group of 32, not two chained k16 (test_hw_vectors: two chained k16 of
     this model match 429/465 of 500 H100 and 405/412 of 500 B200 e4m3/e5m2
     samples; one group all 500), so a k16 fits in one pass of that adder.
   Mixed FP8 (e4m3 x e5m2, e5m2 x e4m3; tc_mma_options.b_type): the
     same-type FP8 parameters (MMA-Sim keys them on A's type, and both FP8
     types get the same); each operand's exponent clamps at its own type's
     minimum (e4m3 -6, e5m2 -14). No hardware vectors for mixed pairs.
   Numbers from: MMA-Sim (Xie et al., arXiv 2511.10909, repo microsoft/MMA-Sim)
     and Khattak & Mikaitis (arXiv 2512.07004, repo north-numerical-computing/
     MATLAB-tensor-core); MEASURED: tests/test_hw_vectors.c matches every
     parameter above but sm_120's (MMA-Sim's, no vectors) bit for bit against their dot products measured on the
     five GPUs (fp32 output; fp16 output for fp16 inputs); tests/test_mmasim.c
     matches MMA-Sim's executable model itself (commit c785138) on every
     output of 52 instruction combinations, the scaled kinds below included
     (docs/REFERENCE.md 2.14). B200 FP8 is ours:
     both published models say F = 25 with a cut result, which matches 63%
     of the B200 samples; a result rounded to nearest matches every e4m3
     sample of the 5000 upstream for F >= 30 and 4999 of 5000 e5m2 for
     F >= 31 (the last matches no F), so F = 31 is the smallest width the
     data allow, an ASSUMPTION, not a measured width.
   Where the two models differ (tc_mma_zero_rule), the default is MMA-Sim's:
     a zero operand takes part in choosing E with exponent -126, a zero c too,
     and an operand that is subnormal in its type has its type's minimum
     exponent. TC_MMA_ZEROS_KHATTAK drops zero products (and a zero c) from E
     and clamps E below at their min_exp_limit: fp32 output -132 (A100, Ada),
     -133 (H100, B200), none (V100); fp16 inputs with fp16 output -19 (V100),
     -20 (A100, Ada), -21 (H100, B200). The measured vectors match both rules
     on every sample: they do not say which one the GPU follows.
   Specials (MMA-Sim): NaN in, Inf*0 or Inf-Inf give the canonical NaN
     (0x7FFFFFFF, fp16 0x7FFF); otherwise an Inf input gives Inf; a finite
     sum beyond the output range gives Inf (not the RZ maximum); an exact
     zero gives +0. Raw fp32 fed to a tf32 MMA loses its low 13 bits first.
   Sign of zero (tc_mma_zero_sign): a sum that is not zero but rounds to
     zero in the output keeps its sign by default (-0 for a negative one, as
     IEEE rounding would); MMA-Sim returns +0 (TC_MMA_ZERO_SIGN_PLUS). The
     vectors hold one zero result (an Ada e5m2 sample, +0: the second
     group's truncated sum is exactly zero, where both agree), so the choice
     is unsettled until a GPU runs such a case.
   Speed: tc_gemm_ex and tc_sparse_gemm_ex compute the same block FMAs in
     fp64 SIMD lanes (SSE2, AVX2) where that is exact, the scalar model
     elsewhere, and on N threads on request (tc_gemm_desc; docs/REFERENCE.md
     section 2.10).
   Simplifies: one output element at a time; A and B of one type except
     the FP8 pairings; FP8 on H100 follows wgmma (mma.sync FP8 on sm_90 is
     unconfirmed; cuda/fp8_mma.cu checks it on a GPU); integer mma (s8,
     u8, s4, u4) is exact and has its own functions (tc_imma_dot, tc_igemm,
     "Integer MMA" below), not run on a GPU here; wgmma (H100: m64nNk16
     f16/bf16, m64nNk8 tf32, m64nNk32 in the four FP8 pairings, N = 8..256
     step 8) is in the instruction table and runs through tc_mma_run with
     H100's parameters (MMA-Sim's class wgmma: F = 25, FP8 13, all of K one
     group, as this model's H100); its register layout is not modelled
     and no GPU has checked it (cuda/wgmma.cu is written for that); the
     sparse wgmma.sp rows (m64nNk32 f16/bf16, m64nNk16 tf32, m64nNk64 in
     the four FP8 pairings) are ASSUMED to compute as the dense wgmma on A
     with its zeros, like every sparse kind, and run through
     tc_sparse_gemm (tc_mma_run refuses sparse kinds; their metadata
     positions are tc_sparse_meta_coord's, and cuda/wgmma.cu issues them
     too, never yet run); tcgen05.mma
     (B200) has rows for kind::f16 (f16, bf16) and kind::tf32, M = 64 and
     128, through tc_mma_run with B200's f16/tf32 parameters (MMA-Sim's class
     tcgen05mma: F = 25, all of K one group), timed by the b200 profile only
     (datasheet rate, assumed latency) and no GPU check; its kind::f8f6f4
     rows (the 25 pairings of e4m3, e5m2, e2m3, e3m2, e2m1 at M = 64 and
     128) run tc_mma_dot_scaled's TC_KIND_F8F6F4 (MMA-Sim's F = 25, cut:
     not B200 mma.sync's measured FP8), timed at the FP8 rate; sm_120's
     mma.sync m16n8k32 kind::f8f6f4 rows (the 21 pairings with an FP6 or
     FP4 operand) run the same kind's model on sm_120, have the FP8
     m16n8k32 register layout (FP6/FP4 one per byte) and are timed by the
     rtx5090 profile only (section 5); the block-scaled tcgen05 kinds
     (mxf8f6f4, mxf4, mxf4nvf4) have rows that the b200 profile times
     (datasheet FP8 / FP4 rates) but tc_mma_run refuses; Turing has
     no GPU profile in section 5; FP8 m16n8k16 on H100 and B200 is
     ASSUMED (above), not measured; sparse kinds (section 4) on every
     architecture with mma.sp (sm_80+), ASSUMED to compute as the dense
     instruction on A with its zeros (MMA-Sim has no mma.sp). B200's
     tcgen05 kinds f8f6f4, mxf8f6f4, mxf4 and mxf4nvf4 (FP4/FP6 operands,
     block scales) have their own functions below (tc_mma_dot_scaled,
     tc_gemm_scaled; MMA-Sim's rules, docs/REFERENCE.md section 2.11), not
     yet checked on a GPU.
   ========================================================================== */

/* Named after the GPU whose Tensor Cores were measured: TC_ARCH_ADA is sm_89
   (the vectors come from an RTX 40 / L40 class part), TC_ARCH_B200 sm_100
   (mma.sync here; tcgen05.mma's FP8/FP6/FP4 kinds through tc_mma_dot_scaled).
   TC_ARCH_RTX_BLACKWELL is sm_120 (RTX 50 class), MMA-Sim's "RTX Blackwell",
   and TC_ARCH_TURING sm_75: no vectors measured for either, their numbers
   are MMA-Sim's (docs/REFERENCE.md 2.3). */
typedef enum { TC_ARCH_V100, TC_ARCH_A100, TC_ARCH_H100, TC_ARCH_ADA, TC_ARCH_B200,
               TC_ARCH_TURING, TC_ARCH_RTX_BLACKWELL, TC_ARCH_COUNT } tc_arch;
#define TC_ARCH_BIT(a) (1u << (a))   /* for tc_mma_instr_info.archs */
/* "V100", "A100", "H100", "Ada", "B200", "Turing", "RTX50" (sm_120); NULL for an unknown arch. */
TCDEF const char *tc_arch_name(tc_arch a);

/* ---- the one table of Tensor Core instructions ----
   Every section keys on it: fragment layouts and the numerics here, sparse
   layouts in section 4, per-instruction latency and interval in section 5's
   GPU profiles, instruction shapes in section 6. Adding an instruction is
   one line here plus its latency and interval in each profile.
   Columns: id, name, PTX spelling, M, N, K (the logical shape: a sparse A
   is M x K with K/2 stored), A and B type, fp16 accumulation offered,
   sparsity group and kept values (0 0: dense; 4 2: 2:4; 2 1: tf32's 1:2),
   metadata selectors and lanes per quad, A, B and C elements per lane (A
   compressed for sparse kinds), the architectures whose numerics section 2
   models for it (which GPUs can issue it, and how fast, is each GPU
   profile's mma_latency/mma_interval: PTX still offers m8n8k4 on sm_80 and
   sm_90, where only its timing is modelled), and the register layout: 0 not modelled, 1 the PTX ISA figures read here but not
   yet run on hardware, 2 confirmed by a source that ran it (docs/REFERENCE.md
   sections 2 and 4). m8n8k4 runs as four 8x8x4 products, one per quad pair,
   which one M x N tile cannot describe; its layout is not modelled. The
   last two columns: the threads that issue it together (32: mma.sync, one
   warp; 128: wgmma, one warpgroup of 4 warps) and the N step (0: N fixed;
   8: wgmma, whose N is any multiple of 8 up to the N column, 256, PTX ISA
   9.7.15 "wgmma.mma_async"). A wgmma row is one row per type, its name
   spelling N as "nN" ("wgmma.m64nNk16.f16"); its A and C elements per lane
   are at the largest N (C: 64 x N / 128 = N / 2), its B is read from
   shared memory (0 per lane) and its register layout is not modelled.
   The sparse wgmma rows (wgmma.mma_async.sp, named "sp.wgmma.m64nNkK.T",
   logical K: 32 for f16/bf16, 16 tf32, 64 FP8) close the wgmma block; their
   selectors and metadata lanes per quad are each warp's (its 16 rows):
   sp-sel 0..1 for f16/bf16/tf32 and 0 for FP8, as ptxas 13.0 accepts for
   sm_90a, which are the counts of mma.sp m16n8k32, m16n8k16.tf32 and
   m16n8k64 (docs/REFERENCE.md 2.13).
   tcgen05.mma (B200, cta_group::1; one thread issues it for the CTA, so
   threads 1) has rows for kind::f16 (f16, bf16) and kind::tf32 at M = 64
   (N step 8) and M = 128 (N step 16), PTX ISA "tcgen05.mma" (the shape and
   types sit in its instruction descriptor, not in its PTX spelling); its
   operands live in shared and tensor memory (0 elements per lane).
   kind::f8f6f4 has rows too (K 32, every pairing of its five types,
   generated by TC__TCGEN05_F8F6F4_PAIRS below) whose numerics are
   tc_mma_dot_scaled's, and so has sm_120's mma.sync kind::f8f6f4
   (m16n8k32, the pairings with FP6 or FP4, from the same pair list); the
   block-scaled kinds (tcgen05 mxf8f6f4, mxf4, mxf4nvf4, M = 128; sm_120's
   mma.sync m16n8k32 mxf8f6f4 in all 25 pairings and m16n8k64 mxf4 and
   mxf4nvf4) have rows too, but need scales: tc_mma_run refuses them
   (tc_mma_instr_scaled_type gives the row's tc_mma_scaled_type for
   tc_mma_dot_scaled and tc_gemm_scaled). */
#define TC__ARCH_V   TC_ARCH_BIT(TC_ARCH_V100)
#define TC__ARCH_VT  (TC__ARCH_V | TC_ARCH_BIT(TC_ARCH_TURING))
#define TC__ARCH_H   TC_ARCH_BIT(TC_ARCH_H100)
#define TC__ARCH_B   TC_ARCH_BIT(TC_ARCH_B200)
#define TC__ARCH_AH  (TC_ARCH_BIT(TC_ARCH_A100) | TC__ARCH_H)
#define TC__ARCH_AHAB (TC__ARCH_AH | TC_ARCH_BIT(TC_ARCH_ADA) | TC_ARCH_BIT(TC_ARCH_B200) | TC_ARCH_BIT(TC_ARCH_RTX_BLACKWELL))
#define TC__ARCH_HAB (TC_ARCH_BIT(TC_ARCH_H100) | TC_ARCH_BIT(TC_ARCH_ADA) | TC_ARCH_BIT(TC_ARCH_B200) | TC_ARCH_BIT(TC_ARCH_RTX_BLACKWELL))
/* Integer mma (see "Integer MMA" below): 8-bit everywhere from Turing (which has only the m8n8 shape), 4-bit on
   Turing, A100 and Ada */
#define TC__ARCH_I8  TC__ARCH_AHAB
#define TC__ARCH_I8T (TC__ARCH_AHAB | TC_ARCH_BIT(TC_ARCH_TURING))
#define TC__ARCH_I4  (TC_ARCH_BIT(TC_ARCH_A100) | TC_ARCH_BIT(TC_ARCH_ADA))
#define TC__ARCH_I4T (TC__ARCH_I4 | TC_ARCH_BIT(TC_ARCH_TURING))
/* tcgen05.mma kind::f8f6f4 (cta_group::1, K 32): A and B each e4m3, e5m2,
   e2m3, e3m2 or e2m1 (PTX ISA "tcgen05.mma" kinds and types), the 25
   pairings at M = 64 (N step 8) and M = 128 (N step 16), one row each,
   named tcgen05.mMnNk32.A[.B] (B only when it differs), e.g.
   TC_TCGEN05_M128_E4M3_E2M1 "tcgen05.m128nNk32.e4m3.e2m1". Their numerics
   are tc_mma_dot_scaled's TC_KIND_F8F6F4 (see tc_mma_run). */
#define TC__TCGEN05_F8F6F4_ROW(X, M, STEP, ID, A, B, NAME) \
    X(TC_TCGEN05_M##M##_##ID, "tcgen05.m" #M "nNk32." NAME, "tcgen05.mma.cta_group::1.kind::f8f6f4", \
      M, 256, 32, TC_##A, TC_##B, 1, 0, 0, 0, 0, 0, 0, 0, TC__ARCH_B, 0, 1, STEP)
#define TC__TCGEN05_F8F6F4_PAIRS(R, X, M, STEP) \
    R(X, M, STEP, E4M3, E4M3, E4M3, "e4m3")      R(X, M, STEP, E4M3_E5M2, E4M3, E5M2, "e4m3.e5m2") R(X, M, STEP, E4M3_E2M3, E4M3, E2M3, "e4m3.e2m3") \
    R(X, M, STEP, E4M3_E3M2, E4M3, E3M2, "e4m3.e3m2") R(X, M, STEP, E4M3_E2M1, E4M3, E2M1, "e4m3.e2m1") \
    R(X, M, STEP, E5M2_E4M3, E5M2, E4M3, "e5m2.e4m3") R(X, M, STEP, E5M2, E5M2, E5M2, "e5m2")      R(X, M, STEP, E5M2_E2M3, E5M2, E2M3, "e5m2.e2m3") \
    R(X, M, STEP, E5M2_E3M2, E5M2, E3M2, "e5m2.e3m2") R(X, M, STEP, E5M2_E2M1, E5M2, E2M1, "e5m2.e2m1") \
    R(X, M, STEP, E2M3_E4M3, E2M3, E4M3, "e2m3.e4m3") R(X, M, STEP, E2M3_E5M2, E2M3, E5M2, "e2m3.e5m2") R(X, M, STEP, E2M3, E2M3, E2M3, "e2m3") \
    R(X, M, STEP, E2M3_E3M2, E2M3, E3M2, "e2m3.e3m2") R(X, M, STEP, E2M3_E2M1, E2M3, E2M1, "e2m3.e2m1") \
    R(X, M, STEP, E3M2_E4M3, E3M2, E4M3, "e3m2.e4m3") R(X, M, STEP, E3M2_E5M2, E3M2, E5M2, "e3m2.e5m2") R(X, M, STEP, E3M2_E2M3, E3M2, E2M3, "e3m2.e2m3") \
    R(X, M, STEP, E3M2, E3M2, E3M2, "e3m2")      R(X, M, STEP, E3M2_E2M1, E3M2, E2M1, "e3m2.e2m1") \
    R(X, M, STEP, E2M1_E4M3, E2M1, E4M3, "e2m1.e4m3") R(X, M, STEP, E2M1_E5M2, E2M1, E5M2, "e2m1.e5m2") R(X, M, STEP, E2M1_E2M3, E2M1, E2M3, "e2m1.e2m3") \
    R(X, M, STEP, E2M1_E3M2, E2M1, E3M2, "e2m1.e3m2") R(X, M, STEP, E2M1, E2M1, E2M1, "e2m1")
/* tcgen05.mma's block-scaled kinds (cta_group::1, M = 128 only: MMA-Sim's
   tcgen05mma_block_scale asserts m == 128), rows for the simulator's timing
   and the tiling model: kind::mxf8f6f4 K 32 in the 25 pairings, named
   tcgen05.m128nNk32.mxf8f6f4.A[.B]; kind::mxf4 and kind::mxf4nvf4 K 64,
   e2m1 only. Their numerics need scales (tc_mma_dot_scaled, tc_gemm_scaled):
   tc_mma_run refuses them. fp32 D only. A row's kind is the tc_mma_kind
   whose name follows "kind::" in its PTX. */
#define TC__TCGEN05_MXF8F6F4_ROW(X, M, STEP, ID, A, B, NAME) \
    X(TC_TCGEN05_MXF8F6F4_M##M##_##ID, "tcgen05.m" #M "nNk32.mxf8f6f4." NAME, \
      "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale", M, 256, 32, TC_##A, TC_##B, 0, 0, 0, 0, 0, 0, 0, 0, \
      TC__ARCH_B, 0, 1, STEP)
/* mma.sync kind::f8f6f4 on sm_120a (RTX Blackwell): m16n8k32, A and B each
   of the same five types, the 21 pairings with an FP6 or FP4 operand (the
   four FP8-only ones are the m16n8k32 rows above), one row each from the
   pair list above: TC_MMA_M16N8K32_A[_B] "m16n8k32.A[.B]", PTX
   "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.A.B.f32". ptxas 13.0
   assembles the FP6/FP4 forms for sm_120a, sm_121a and sm_120f only (sm_100a:
   "mma with FP6/FP4 floating point type not supported"). Each FP6/FP4 value
   sits in an 8-bit container, so the registers follow the FP8 m16n8k32
   layout. Numerics: tc_mma_dot_scaled's TC_KIND_F8F6F4 (see tc_mma_run).
   TC__F8F6F4_FP8_T says whether type T is FP8 and TC__F8F6F4_PTX_T spells
   it, so one macro can skip the FP8-only pairings. */
#define TC__F8F6F4_FP8_E4M3 1
#define TC__F8F6F4_FP8_E5M2 1
#define TC__F8F6F4_FP8_E2M3 0
#define TC__F8F6F4_FP8_E3M2 0
#define TC__F8F6F4_FP8_E2M1 0
#define TC__F8F6F4_PTX_E4M3 "e4m3"
#define TC__F8F6F4_PTX_E5M2 "e5m2"
#define TC__F8F6F4_PTX_E2M3 "e2m3"
#define TC__F8F6F4_PTX_E3M2 "e3m2"
#define TC__F8F6F4_PTX_E2M1 "e2m1"
#define TC__PASTE3(a, b, c) a##b##c
#define TC__XPASTE3(a, b, c) TC__PASTE3(a, b, c)
#define TC__MMA_F8F6F4_ROW(X, M, STEP, ID, A, B, NAME) \
    TC__XPASTE3(TC__MMA_F8F6F4_ROW_, TC__F8F6F4_FP8_##A, TC__F8F6F4_FP8_##B)(X, ID, A, B, NAME)
#define TC__MMA_F8F6F4_ROW_11(X, ID, A, B, NAME)
#define TC__MMA_F8F6F4_ROW_10(X, ID, A, B, NAME) TC__MMA_F8F6F4_ROW_00(X, ID, A, B, NAME)
#define TC__MMA_F8F6F4_ROW_01(X, ID, A, B, NAME) TC__MMA_F8F6F4_ROW_00(X, ID, A, B, NAME)
#define TC__MMA_F8F6F4_ROW_00(X, ID, A, B, NAME) \
    X(TC_MMA_M16N8K32_##ID, "m16n8k32." NAME, \
      "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32." TC__F8F6F4_PTX_##A "." TC__F8F6F4_PTX_##B ".f32", \
      16, 8, 32, TC_##A, TC_##B, 1, 0, 0, 0, 0, 16, 8, 4, TC_ARCH_BIT(TC_ARCH_RTX_BLACKWELL), 1, 32, 0)
/* sm_120a's block-scaled mma.sync (PTX ISA 9.0, 9.7.14.3 "Block Scaling
   for mma.sync", Table 36 "Valid combinations of .scale_vec_size and .kind
   qualifier"; MMA-Sim mmasim/isa/nv_ptx/nv_mma.py
   rtx_blackwell_mma_block_scale_qualifiers), fp32 C and D only, one row
   per spelling that ptxas 13.0 assembles for sm_120a:
     kind::mxf8f6f4 scale_vec::1X ue8m0, m16n8k32, every pairing of the five
       types (all 25: the scales make even the FP8-only ones new rows),
       TC_MMA_M16N8K32_MXF8F6F4_A[_B] "m16n8k32.mxf8f6f4.A[.B]"; operands in
       the kind::f8f6f4 rows' 8-bit containers and layout;
     kind::mxf4 scale_vec::2X ue8m0 and kind::mxf4nvf4 scale_vec::2X ue8m0
       and scale_vec::4X ue4m3, m16n8k64, e2m1 packed two to a byte (the
       4-bit m16n8k64 layout of the s4 rows).
   ptxas 13.0 refuses the other scale spellings ("Illegal modifier
   '.scale_vec::4X' for instruction 'mma' with type '.ue8m0'", likewise 2X
   with ue4m3, 2X on mxf8f6f4, 4X on mxf4), although Table 36 lists
   mxf4nvf4 ue8m0 at 4X too and MMA-Sim's sm_120 list has mxf4nvf4 ue8m0
   per 16 and ue4m3 per 32: on sm_120 tc_mma_dot_scaled and tc_gemm_scaled
   take only what a row here spells and refuse those (TC_ERR_SHAPE), as no
   program can issue them.
   A row's kind is the word after "kind::" (as the tcgen05 rows'), its
   scale type the PTX's last word (.ue8m0 or .ue4m3) and its block K / X
   for scale_vec::XX: 32 at 1X with K 32 and 2X with K 64, 16 at 4X;
   tc_mma_instr_scaled_type reads all three. The scale operands (one 32-bit
   register per lane for A and one for B, with byte-id and thread-id
   selectors) have no column: cuda/f8f6f4_mma.cu places them. */
#define TC__MMA_MXF8F6F4_ROW(X, M, STEP, ID, A, B, NAME) \
    X(TC_MMA_M16N8K32_MXF8F6F4_##ID, "m16n8k32.mxf8f6f4." NAME, \
      "mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32." TC__F8F6F4_PTX_##A "." \
      TC__F8F6F4_PTX_##B ".f32.ue8m0", 16, 8, 32, TC_##A, TC_##B, 0, 0, 0, 0, 0, 16, 8, 4, \
      TC_ARCH_BIT(TC_ARCH_RTX_BLACKWELL), 1, 32, 0)
#define TC__MMA_INSTR_LIST(X) \
    X(TC_MMA_M8N8K4_F16,       "m8n8k4.f16",       "mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32",                        8, 8,  4, TC_FP16, TC_FP16, 1, 0, 0, 0, 0,  4, 4, 8, TC__ARCH_VT,  0, 32, 0) \
    X(TC_MMA_M16N8K8_F16,      "m16n8k8.f16",      "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32",                      16, 8,  8, TC_FP16, TC_FP16, 1, 0, 0, 0, 0,  4, 2, 4, TC__ARCH_AHAB | TC_ARCH_BIT(TC_ARCH_TURING), 2, 32, 0) \
    X(TC_MMA_M16N8K16_F16,     "m16n8k16.f16",     "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",                     16, 8, 16, TC_FP16, TC_FP16, 1, 0, 0, 0, 0,  8, 4, 4, TC__ARCH_AHAB, 2, 32, 0) \
    X(TC_MMA_M16N8K8_BF16,     "m16n8k8.bf16",     "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32",                    16, 8,  8, TC_BF16, TC_BF16, 0, 0, 0, 0, 0,  4, 2, 4, TC__ARCH_AHAB, 2, 32, 0) \
    X(TC_MMA_M16N8K16_BF16,    "m16n8k16.bf16",    "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",                   16, 8, 16, TC_BF16, TC_BF16, 0, 0, 0, 0, 0,  8, 4, 4, TC__ARCH_AHAB, 2, 32, 0) \
    X(TC_MMA_M16N8K4_TF32,     "m16n8k4.tf32",     "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32",                    16, 8,  4, TC_TF32, TC_TF32, 0, 0, 0, 0, 0,  2, 1, 4, TC__ARCH_AHAB, 2, 32, 0) \
    X(TC_MMA_M16N8K8_TF32,     "m16n8k8.tf32",     "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",                    16, 8,  8, TC_TF32, TC_TF32, 0, 0, 0, 0, 0,  4, 2, 4, TC__ARCH_AHAB, 2, 32, 0) \
    X(TC_MMA_M16N8K32_E4M3,    "m16n8k32.e4m3",    "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",                   16, 8, 32, TC_E4M3, TC_E4M3, 1, 0, 0, 0, 0, 16, 8, 4, TC__ARCH_HAB, 1, 32, 0) \
    X(TC_MMA_M16N8K32_E5M2,    "m16n8k32.e5m2",    "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32",                   16, 8, 32, TC_E5M2, TC_E5M2, 1, 0, 0, 0, 0, 16, 8, 4, TC__ARCH_HAB, 1, 32, 0) \
    X(TC_MMA_SP_M16N8K16_F16,  "sp.m16n8k16.f16",  "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",  16, 8, 16, TC_FP16, TC_FP16, 1, 4, 2, 4, 1,  4, 4, 4, TC__ARCH_AHAB, 1, 32, 0) \
    X(TC_MMA_SP_M16N8K32_F16,  "sp.m16n8k32.f16",  "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32",  16, 8, 32, TC_FP16, TC_FP16, 1, 4, 2, 2, 2,  8, 8, 4, TC__ARCH_AHAB, 2, 32, 0) \
    X(TC_MMA_SP_M16N8K16_BF16, "sp.m16n8k16.bf16", "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",16, 8, 16, TC_BF16, TC_BF16, 0, 4, 2, 4, 1,  4, 4, 4, TC__ARCH_AHAB, 1, 32, 0) \
    X(TC_MMA_SP_M16N8K32_BF16, "sp.m16n8k32.bf16", "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32",16, 8, 32, TC_BF16, TC_BF16, 0, 4, 2, 2, 2,  8, 8, 4, TC__ARCH_AHAB, 2, 32, 0) \
    X(TC_MMA_SP_M16N8K8_TF32,  "sp.m16n8k8.tf32",  "mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 16, 8,  8, TC_TF32, TC_TF32, 0, 2, 1, 4, 1,  2, 2, 4, TC__ARCH_AHAB, 1, 32, 0) \
    X(TC_MMA_SP_M16N8K16_TF32, "sp.m16n8k16.tf32", "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32",16, 8, 16, TC_TF32, TC_TF32, 0, 2, 1, 2, 2,  4, 4, 4, TC__ARCH_AHAB, 1, 32, 0) \
    X(TC_MMA_M16N8K32_E4M3_E5M2, "m16n8k32.e4m3.e5m2", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32",                   16, 8, 32, TC_E4M3, TC_E5M2, 1, 0, 0, 0, 0, 16, 8, 4, TC__ARCH_HAB, 1, 32, 0) \
    X(TC_MMA_M16N8K32_E5M2_E4M3, "m16n8k32.e5m2.e4m3", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32",                   16, 8, 32, TC_E5M2, TC_E4M3, 1, 0, 0, 0, 0, 16, 8, 4, TC__ARCH_HAB, 1, 32, 0) \
    X(TC_MMA_M16N8K16_E4M3,      "m16n8k16.e4m3",      "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32",                   16, 8, 16, TC_E4M3, TC_E4M3, 1, 0, 0, 0, 0,  8, 4, 4, TC__ARCH_HAB, 1, 32, 0) \
    X(TC_MMA_M16N8K16_E5M2,      "m16n8k16.e5m2",      "mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e5m2.f32",                   16, 8, 16, TC_E5M2, TC_E5M2, 1, 0, 0, 0, 0,  8, 4, 4, TC__ARCH_HAB, 1, 32, 0) \
    X(TC_MMA_M16N8K16_E4M3_E5M2, "m16n8k16.e4m3.e5m2", "mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e5m2.f32",                   16, 8, 16, TC_E4M3, TC_E5M2, 1, 0, 0, 0, 0,  8, 4, 4, TC__ARCH_HAB, 1, 32, 0) \
    X(TC_MMA_M16N8K16_E5M2_E4M3, "m16n8k16.e5m2.e4m3", "mma.sync.aligned.m16n8k16.row.col.f32.e5m2.e4m3.f32",                   16, 8, 16, TC_E5M2, TC_E4M3, 1, 0, 0, 0, 0,  8, 4, 4, TC__ARCH_HAB, 1, 32, 0) \
    X(TC_MMA_SP_M16N8K64_E4M3,      "sp.m16n8k64.e4m3",      "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32", 16, 8, 64, TC_E4M3, TC_E4M3, 1, 4, 2, 1, 4, 16, 16, 4, TC__ARCH_HAB, 0, 32, 0) \
    X(TC_MMA_SP_M16N8K64_E5M2,      "sp.m16n8k64.e5m2",      "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e5m2.e5m2.f32", 16, 8, 64, TC_E5M2, TC_E5M2, 1, 4, 2, 1, 4, 16, 16, 4, TC__ARCH_HAB, 0, 32, 0) \
    X(TC_MMA_SP_M16N8K64_E4M3_E5M2, "sp.m16n8k64.e4m3.e5m2", "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e5m2.f32", 16, 8, 64, TC_E4M3, TC_E5M2, 1, 4, 2, 1, 4, 16, 16, 4, TC__ARCH_HAB, 0, 32, 0) \
    X(TC_MMA_SP_M16N8K64_E5M2_E4M3, "sp.m16n8k64.e5m2.e4m3", "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e5m2.e4m3.f32", 16, 8, 64, TC_E5M2, TC_E4M3, 1, 4, 2, 1, 4, 16, 16, 4, TC__ARCH_HAB, 0, 32, 0) \
    X(TC_MMA_M8N8K16_S8,         "m8n8k16.s8",        "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32",                          8, 8, 16, TC_S8, TC_S8, 0, 0, 0, 0, 0,  4,  4, 2, TC__ARCH_I8T, 1, 32, 0) \
    X(TC_MMA_M8N8K16_U8,         "m8n8k16.u8",        "mma.sync.aligned.m8n8k16.row.col.s32.u8.u8.s32",                          8, 8, 16, TC_U8, TC_U8, 0, 0, 0, 0, 0,  4,  4, 2, TC__ARCH_I8T, 1, 32, 0) \
    X(TC_MMA_M8N8K16_S8_U8,      "m8n8k16.s8.u8",     "mma.sync.aligned.m8n8k16.row.col.s32.s8.u8.s32",                          8, 8, 16, TC_S8, TC_U8, 0, 0, 0, 0, 0,  4,  4, 2, TC__ARCH_I8T, 1, 32, 0) \
    X(TC_MMA_M8N8K16_U8_S8,      "m8n8k16.u8.s8",     "mma.sync.aligned.m8n8k16.row.col.s32.u8.s8.s32",                          8, 8, 16, TC_U8, TC_S8, 0, 0, 0, 0, 0,  4,  4, 2, TC__ARCH_I8T, 1, 32, 0) \
    X(TC_MMA_M16N8K16_S8,        "m16n8k16.s8",       "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32",                        16, 8, 16, TC_S8, TC_S8, 0, 0, 0, 0, 0,  8,  4, 4, TC__ARCH_I8, 1, 32, 0) \
    X(TC_MMA_M16N8K16_U8,        "m16n8k16.u8",       "mma.sync.aligned.m16n8k16.row.col.s32.u8.u8.s32",                        16, 8, 16, TC_U8, TC_U8, 0, 0, 0, 0, 0,  8,  4, 4, TC__ARCH_I8, 1, 32, 0) \
    X(TC_MMA_M16N8K16_S8_U8,     "m16n8k16.s8.u8",    "mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32",                        16, 8, 16, TC_S8, TC_U8, 0, 0, 0, 0, 0,  8,  4, 4, TC__ARCH_I8, 1, 32, 0) \
    X(TC_MMA_M16N8K16_U8_S8,     "m16n8k16.u8.s8",    "mma.sync.aligned.m16n8k16.row.col.s32.u8.s8.s32",                        16, 8, 16, TC_U8, TC_S8, 0, 0, 0, 0, 0,  8,  4, 4, TC__ARCH_I8, 1, 32, 0) \
    X(TC_MMA_M16N8K32_S8,        "m16n8k32.s8",       "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32",                        16, 8, 32, TC_S8, TC_S8, 0, 0, 0, 0, 0, 16,  8, 4, TC__ARCH_I8, 1, 32, 0) \
    X(TC_MMA_M16N8K32_U8,        "m16n8k32.u8",       "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32",                        16, 8, 32, TC_U8, TC_U8, 0, 0, 0, 0, 0, 16,  8, 4, TC__ARCH_I8, 1, 32, 0) \
    X(TC_MMA_M16N8K32_S8_U8,     "m16n8k32.s8.u8",    "mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32",                        16, 8, 32, TC_S8, TC_U8, 0, 0, 0, 0, 0, 16,  8, 4, TC__ARCH_I8, 1, 32, 0) \
    X(TC_MMA_M16N8K32_U8_S8,     "m16n8k32.u8.s8",    "mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32",                        16, 8, 32, TC_U8, TC_S8, 0, 0, 0, 0, 0, 16,  8, 4, TC__ARCH_I8, 1, 32, 0) \
    X(TC_MMA_M8N8K32_S4,         "m8n8k32.s4",        "mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32",                          8, 8, 32, TC_S4, TC_S4, 0, 0, 0, 0, 0,  8,  8, 2, TC__ARCH_I4T, 1, 32, 0) \
    X(TC_MMA_M8N8K32_U4,         "m8n8k32.u4",        "mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32",                          8, 8, 32, TC_U4, TC_U4, 0, 0, 0, 0, 0,  8,  8, 2, TC__ARCH_I4T, 1, 32, 0) \
    X(TC_MMA_M8N8K32_S4_U4,      "m8n8k32.s4.u4",     "mma.sync.aligned.m8n8k32.row.col.s32.s4.u4.s32",                          8, 8, 32, TC_S4, TC_U4, 0, 0, 0, 0, 0,  8,  8, 2, TC__ARCH_I4T, 1, 32, 0) \
    X(TC_MMA_M8N8K32_U4_S4,      "m8n8k32.u4.s4",     "mma.sync.aligned.m8n8k32.row.col.s32.u4.s4.s32",                          8, 8, 32, TC_U4, TC_S4, 0, 0, 0, 0, 0,  8,  8, 2, TC__ARCH_I4T, 1, 32, 0) \
    X(TC_MMA_M16N8K32_S4,        "m16n8k32.s4",       "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32",                        16, 8, 32, TC_S4, TC_S4, 0, 0, 0, 0, 0, 16,  8, 4, TC__ARCH_I4, 1, 32, 0) \
    X(TC_MMA_M16N8K32_U4,        "m16n8k32.u4",       "mma.sync.aligned.m16n8k32.row.col.s32.u4.u4.s32",                        16, 8, 32, TC_U4, TC_U4, 0, 0, 0, 0, 0, 16,  8, 4, TC__ARCH_I4, 1, 32, 0) \
    X(TC_MMA_M16N8K32_S4_U4,     "m16n8k32.s4.u4",    "mma.sync.aligned.m16n8k32.row.col.s32.s4.u4.s32",                        16, 8, 32, TC_S4, TC_U4, 0, 0, 0, 0, 0, 16,  8, 4, TC__ARCH_I4, 1, 32, 0) \
    X(TC_MMA_M16N8K32_U4_S4,     "m16n8k32.u4.s4",    "mma.sync.aligned.m16n8k32.row.col.s32.u4.s4.s32",                        16, 8, 32, TC_U4, TC_S4, 0, 0, 0, 0, 0, 16,  8, 4, TC__ARCH_I4, 1, 32, 0) \
    X(TC_MMA_M16N8K64_S4,        "m16n8k64.s4",       "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32",                        16, 8, 64, TC_S4, TC_S4, 0, 0, 0, 0, 0, 32, 16, 4, TC__ARCH_I4, 1, 32, 0) \
    X(TC_MMA_M16N8K64_U4,        "m16n8k64.u4",       "mma.sync.aligned.m16n8k64.row.col.s32.u4.u4.s32",                        16, 8, 64, TC_U4, TC_U4, 0, 0, 0, 0, 0, 32, 16, 4, TC__ARCH_I4, 1, 32, 0) \
    X(TC_MMA_M16N8K64_S4_U4,     "m16n8k64.s4.u4",    "mma.sync.aligned.m16n8k64.row.col.s32.s4.u4.s32",                        16, 8, 64, TC_S4, TC_U4, 0, 0, 0, 0, 0, 32, 16, 4, TC__ARCH_I4, 1, 32, 0) \
    X(TC_MMA_M16N8K64_U4_S4,     "m16n8k64.u4.s4",    "mma.sync.aligned.m16n8k64.row.col.s32.u4.s4.s32",                        16, 8, 64, TC_U4, TC_S4, 0, 0, 0, 0, 0, 32, 16, 4, TC__ARCH_I4, 1, 32, 0) \
    X(TC_WGMMA_F16,            "wgmma.m64nNk16.f16",      "wgmma.mma_async.sync.aligned.m64nNk16.f32.f16.f16",     64, 256, 16, TC_FP16, TC_FP16, 1, 0, 0, 0, 0,  8, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_BF16,           "wgmma.m64nNk16.bf16",     "wgmma.mma_async.sync.aligned.m64nNk16.f32.bf16.bf16",   64, 256, 16, TC_BF16, TC_BF16, 0, 0, 0, 0, 0,  8, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_TF32,           "wgmma.m64nNk8.tf32",      "wgmma.mma_async.sync.aligned.m64nNk8.f32.tf32.tf32",    64, 256,  8, TC_TF32, TC_TF32, 0, 0, 0, 0, 0,  4, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_E4M3,           "wgmma.m64nNk32.e4m3",     "wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e4m3",   64, 256, 32, TC_E4M3, TC_E4M3, 1, 0, 0, 0, 0, 16, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_E5M2,           "wgmma.m64nNk32.e5m2",     "wgmma.mma_async.sync.aligned.m64nNk32.f32.e5m2.e5m2",   64, 256, 32, TC_E5M2, TC_E5M2, 1, 0, 0, 0, 0, 16, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_E4M3_E5M2,      "wgmma.m64nNk32.e4m3.e5m2", "wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e5m2",   64, 256, 32, TC_E4M3, TC_E5M2, 1, 0, 0, 0, 0, 16, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_E5M2_E4M3,      "wgmma.m64nNk32.e5m2.e4m3", "wgmma.mma_async.sync.aligned.m64nNk32.f32.e5m2.e4m3",   64, 256, 32, TC_E5M2, TC_E4M3, 1, 0, 0, 0, 0, 16, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_SP_F16,         "sp.wgmma.m64nNk32.f16",   "wgmma.mma_async.sp.sync.aligned.m64nNk32.f32.f16.f16",  64, 256, 32, TC_FP16, TC_FP16, 1, 4, 2, 2, 2,  8, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_SP_BF16,        "sp.wgmma.m64nNk32.bf16",  "wgmma.mma_async.sp.sync.aligned.m64nNk32.f32.bf16.bf16", 64, 256, 32, TC_BF16, TC_BF16, 0, 4, 2, 2, 2,  8, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_SP_TF32,        "sp.wgmma.m64nNk16.tf32",  "wgmma.mma_async.sp.sync.aligned.m64nNk16.f32.tf32.tf32", 64, 256, 16, TC_TF32, TC_TF32, 0, 2, 1, 2, 2,  4, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_SP_E4M3,        "sp.wgmma.m64nNk64.e4m3",  "wgmma.mma_async.sp.sync.aligned.m64nNk64.f32.e4m3.e4m3", 64, 256, 64, TC_E4M3, TC_E4M3, 1, 4, 2, 1, 4, 16, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_SP_E5M2,        "sp.wgmma.m64nNk64.e5m2",  "wgmma.mma_async.sp.sync.aligned.m64nNk64.f32.e5m2.e5m2", 64, 256, 64, TC_E5M2, TC_E5M2, 1, 4, 2, 1, 4, 16, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_SP_E4M3_E5M2,   "sp.wgmma.m64nNk64.e4m3.e5m2", "wgmma.mma_async.sp.sync.aligned.m64nNk64.f32.e4m3.e5m2", 64, 256, 64, TC_E4M3, TC_E5M2, 1, 4, 2, 1, 4, 16, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_WGMMA_SP_E5M2_E4M3,   "sp.wgmma.m64nNk64.e5m2.e4m3", "wgmma.mma_async.sp.sync.aligned.m64nNk64.f32.e5m2.e4m3", 64, 256, 64, TC_E5M2, TC_E4M3, 1, 4, 2, 1, 4, 16, 0, 128, TC__ARCH_H, 0, 128, 8) \
    X(TC_TCGEN05_M64_F16,      "tcgen05.m64nNk16.f16",     "tcgen05.mma.cta_group::1.kind::f16",                     64, 256, 16, TC_FP16, TC_FP16, 1, 0, 0, 0, 0,  0, 0,   0, TC__ARCH_B, 0, 1, 8) \
    X(TC_TCGEN05_M128_F16,     "tcgen05.m128nNk16.f16",    "tcgen05.mma.cta_group::1.kind::f16",                    128, 256, 16, TC_FP16, TC_FP16, 1, 0, 0, 0, 0,  0, 0,   0, TC__ARCH_B, 0, 1, 16) \
    X(TC_TCGEN05_M64_BF16,     "tcgen05.m64nNk16.bf16",    "tcgen05.mma.cta_group::1.kind::f16",                     64, 256, 16, TC_BF16, TC_BF16, 0, 0, 0, 0, 0,  0, 0,   0, TC__ARCH_B, 0, 1, 8) \
    X(TC_TCGEN05_M128_BF16,    "tcgen05.m128nNk16.bf16",   "tcgen05.mma.cta_group::1.kind::f16",                    128, 256, 16, TC_BF16, TC_BF16, 0, 0, 0, 0, 0,  0, 0,   0, TC__ARCH_B, 0, 1, 16) \
    X(TC_TCGEN05_M64_TF32,     "tcgen05.m64nNk8.tf32",     "tcgen05.mma.cta_group::1.kind::tf32",                    64, 256,  8, TC_TF32, TC_TF32, 0, 0, 0, 0, 0,  0, 0,   0, TC__ARCH_B, 0, 1, 8) \
    X(TC_TCGEN05_M128_TF32,    "tcgen05.m128nNk8.tf32",    "tcgen05.mma.cta_group::1.kind::tf32",                   128, 256,  8, TC_TF32, TC_TF32, 0, 0, 0, 0, 0,  0, 0,   0, TC__ARCH_B, 0, 1, 16) \
    TC__TCGEN05_F8F6F4_PAIRS(TC__TCGEN05_F8F6F4_ROW, X, 64, 8) \
    TC__TCGEN05_F8F6F4_PAIRS(TC__TCGEN05_F8F6F4_ROW, X, 128, 16) \
    TC__TCGEN05_F8F6F4_PAIRS(TC__TCGEN05_MXF8F6F4_ROW, X, 128, 16) \
    X(TC_TCGEN05_MXF4_M128,     "tcgen05.m128nNk64.mxf4.e2m1",     "tcgen05.mma.cta_group::1.kind::mxf4.block_scale", \
      128, 256, 64, TC_E2M1, TC_E2M1, 0, 0, 0, 0, 0, 0, 0, 0, TC__ARCH_B, 0, 1, 16) \
    X(TC_TCGEN05_MXF4NVF4_M128, "tcgen05.m128nNk64.mxf4nvf4.e2m1", "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale", \
      128, 256, 64, TC_E2M1, TC_E2M1, 0, 0, 0, 0, 0, 0, 0, 0, TC__ARCH_B, 0, 1, 16) \
    TC__TCGEN05_F8F6F4_PAIRS(TC__MMA_F8F6F4_ROW, X, 16, 0) \
    TC__TCGEN05_F8F6F4_PAIRS(TC__MMA_MXF8F6F4_ROW, X, 16, 0) \
    TC__MMA_FP4_SCALED_ROWS(X)

/* The list and the cases of cuda/f8f6f4_mma.cu come from the same macro. */
#define TC__MMA_FP4_SCALED_ROWS(X) \
    X(TC_MMA_M16N8K64_MXF4,           "m16n8k64.mxf4.e2m1", \
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0", \
      16, 8, 64, TC_E2M1, TC_E2M1, 0, 0, 0, 0, 0, 32, 16, 4, TC_ARCH_BIT(TC_ARCH_RTX_BLACKWELL), 1, 32, 0) \
    X(TC_MMA_M16N8K64_MXF4NVF4_UE8M0, "m16n8k64.mxf4nvf4.e2m1.ue8m0", \
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0", \
      16, 8, 64, TC_E2M1, TC_E2M1, 0, 0, 0, 0, 0, 32, 16, 4, TC_ARCH_BIT(TC_ARCH_RTX_BLACKWELL), 1, 32, 0) \
    X(TC_MMA_M16N8K64_MXF4NVF4_UE4M3, "m16n8k64.mxf4nvf4.e2m1.ue4m3", \
      "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3", \
      16, 8, 64, TC_E2M1, TC_E2M1, 0, 0, 0, 0, 0, 32, 16, 4, TC_ARCH_BIT(TC_ARCH_RTX_BLACKWELL), 1, 32, 0)

typedef enum {
#define TC__MMA_INSTR_ENUM(id, name, ptx, m, n, k, in, inb, f16, grp, keep, sel, ml, ae, be, ce, archs, layout, thr, nstep) id,
    TC__MMA_INSTR_LIST(TC__MMA_INSTR_ENUM)
#undef TC__MMA_INSTR_ENUM
    TC_MMA_INSTR_COUNT
} tc_mma_instr;

typedef struct {
    const char *name;         /* "m16n8k16.f16"; sparse kinds "sp.m16n8k32.f16" */
    const char *ptx;          /* the full PTX instruction (f32 accumulate) */
    int m, n, k;              /* the logical shape */
    tc_dtype in;              /* type of A */
    tc_dtype b_type;          /* type of B: in, except the mixed kinds (FP8 e4m3 x e5m2) */
    int fp16_accumulate;      /* 1: also offered with fp16 C and D */
    int sparse_group;         /* 0: dense; else A keeps sparse_keep of every sparse_group values along K */
    int sparse_keep;
    int selectors;            /* sparse: legal sparsity selectors 0 .. selectors-1 */
    int meta_lanes;           /* sparse: lanes per quad that supply metadata */
    int a_elems, b_elems, c_elems;  /* elements each lane holds */
    int a_regs, b_regs;       /* 32-bit registers those take */
    unsigned archs;           /* TC_ARCH_BIT(a) set when section 2 models it on architecture a */
    int layout;               /* 0 not modelled, 1 PTX ISA reading (unconfirmed), 2 confirmed on hardware */
    int threads;              /* threads that issue it together: 32 (mma.sync, a warp), 128 (wgmma, a warpgroup),
                                 1 (tcgen05.mma: one thread for the CTA) */
    int n_step;               /* 0: N is fixed; else N may be any multiple of n_step up to n (wgmma, tcgen05) */
} tc_mma_instr_info;

/* Everything about one instruction. TC_ERR_ARG for an unknown one,
   TC_ERR_NULL for a NULL out. Works in device code (a switch over the
   table, not a host array). */
TC_HOST_DEVICE TCDEF tc_status tc_mma_instr_get(tc_mma_instr i, tc_mma_instr_info *out);
/* By name ("m16n8k16.f16", "sp.m16n8k32.bf16"): TC_ERR_ARG if unknown,
   TC_ERR_NULL for a NULL name or out. */
TCDEF tc_status tc_mma_instr_find(const char *name, tc_mma_instr *out);
/* 1 if n is a legal N of instruction i: its N for a fixed-N kind, a
   multiple of n_step up to N for a wgmma or tcgen05 kind; 0 otherwise (also for an
   unknown instruction). */
TC_HOST_DEVICE TCDEF int tc_mma_instr_n_ok(tc_mma_instr i, int n);

/* One dense instruction of the table (mma.sync, wgmma, tcgen05.mma) of
   width n through architecture arch's numerics: D = A*B + C with A M x K,
   B K x n, C and D M x n (M, K the kind's), row-major and tightly packed.
   Each output element is one block FMA chain, tc_mma_dot_ex on its row of A
   and column of B with the kind's B type: what tc_gemm computes for the
   same data (a wgmma on H100, a tcgen05.mma kind::f16/tf32 on B200: one
   group of all K). A kind::f8f6f4 row (tcgen05.mma on B200, mma.sync with
   FP6/FP4 on sm_120) instead runs
   tc_gemm_scaled's TC_KIND_F8F6F4 on the values' codes (FP6/FP4 values too;
   one not of its type, a NaN in FP6/FP4 or an Inf outside e5m2 included,
   is TC_ERR_NOT_REPRESENTABLE). C may be NULL (zero); D may be C. out: TC_FP32, or
   TC_FP16 for kinds that offer fp16 accumulation. TC_ERR_ARG for an unknown
   or sparse kind (its metadata has no place here) or a block-scaled
   tcgen05 kind (mxf8f6f4, mxf4, mxf4nvf4: its scales have none either; run
   it with tc_mma_dot_scaled / tc_gemm_scaled), TC_ERR_ARCH for a kind
   not modelled on arch, TC_ERR_SHAPE for an n tc_mma_instr_n_ok refuses
   (0, 4, 260, negative), TC_ERR_DTYPE for another out or an integer kind
   (those take int8_t operands: tc_imma_dot, tc_igemm), TC_ERR_NULL,
   TC_ERR_NOT_REPRESENTABLE as tc_gemm (D untouched). */
TCDEF tc_status tc_mma_run(tc_arch arch, tc_mma_instr kind, int n, tc_dtype out, const float *A, const float *B,
                           const float *C, float *D);

/* The corner where the published models disagree (see the banner). */
typedef enum {
    TC_MMA_ZEROS_MMASIM = 0,   /* default: zeros take part in E as exponent -126 */
    TC_MMA_ZEROS_KHATTAK = 1   /* zeros dropped; E clamped below at tc_mma_params.exp_floor */
} tc_mma_zero_rule;

/* The sign of a block FMA whose result is zero though its sum of
   truncated terms is not (a tiny sum that truncates or rounds to zero in
   the output format). An exact zero sum is +0 under both. */
typedef enum {
    TC_MMA_ZERO_SIGN_SUM = 0,  /* default: the sign of that sum, -0 for a negative one (as IEEE rounding does) */
    TC_MMA_ZERO_SIGN_PLUS = 1  /* MMA-Sim: every zero result is +0 */
} tc_mma_zero_sign;

/* Zero-initialised = the architecture's own behaviour. group and frac_bits
   let a lesson ask "what if the block were wider / the adder narrower". */
typedef struct {
    tc_mma_zero_rule zero_rule;
    int group;       /* products per block FMA; 0 = the architecture's; else 1..TC_MMA_MAX_GROUP */
    int frac_bits;   /* F; 0 = the architecture's; else 1..40 */
    tc_mma_zero_sign zero_sign;
    tc_dtype b_type; /* type of B; TC_FP32 (0, never an mma input) = the same as A's. Mixed kinds:
                        e4m3 x e5m2 and e5m2 x e4m3 (FP8 on H100, Ada, B200) */
} tc_mma_options;

#define TC_MMA_MAX_GROUP 64

/* What the model uses for one (arch, input, output) combination. */
typedef struct {
    int frac_bits;   /* F: fractional bits kept below 2^E */
    int group;       /* products summed in one block FMA */
    int instr_k;     /* K of the widest instruction (what tc_gemm steps by) */
    int min_k;       /* K of the narrowest instruction tc_mma_dot accepts */
    int out_mbits;   /* mantissa bits of the result: 23 (fp32), 13 (H100 and Ada FP8 -> fp32), 10 (fp16) */
    int exp_floor;   /* lower clamp on E under TC_MMA_ZEROS_KHATTAK */
    int out_rounding;/* TC_RZ, or TC_RN (fp16 output; B200 FP8 -> fp32) */
} tc_mma_params;

/* TC_ERR_ARCH for an unknown arch or a type the arch lacks (V100: fp16
   only; FP8: H100, Ada, B200), TC_ERR_DTYPE for an unknown type, an input
   no modelled mma takes (fp32: use TC_TF32; FP4, FP6 and the scale
   formats: the kind::f8f6f4 instructions that take FP6/FP4 have
   tc_mma_scaled_params_of) or an output other than fp32 / fp16 (fp16
   output only with fp16 or FP8 inputs). */
TCDEF tc_status tc_mma_params_of(tc_arch arch, tc_dtype in, tc_dtype out, tc_mma_params *p);
/* The same for A of type a and B of type b (a == b is tc_mma_params_of).
   TC_ERR_DTYPE also for a pairing no instruction in the table has (fp16 x
   e4m3), TC_ERR_ARCH for one the arch lacks. */
TCDEF tc_status tc_mma_params_of_mixed(tc_arch arch, tc_dtype a, tc_dtype b, tc_dtype out, tc_mma_params *p);

/* One output element of one mma instruction: c + sum(a[i]*b[i], i < k).
   Unchecked primitive. Preconditions: a and b hold k values of `in` (tf32:
   any fp32, truncated here as the hardware does), c a value of `out`, and k
   an instruction's K: V100 4 (m8n8k4); fp16/bf16 8 or 16 (m16n8k8,
   m16n8k16); tf32 4 or 8 (m16n8k4, m16n8k8); FP8 32 (and
   16, m16n8k16). A value that is not
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
   TC_ERR_NOMEM. On B200 and sm_120 an FP6 or FP4 A or B (e2m3, e3m2, e2m1;
   the other any of those or e4m3/e5m2: options.b_type) runs the one
   instruction there that takes them, kind::f8f6f4 (tcgen05.mma on B200,
   mma.sync m16n8k32 on sm_120; both tc_gemm_scaled's
   TC_KIND_F8F6F4: F = 25, cut; K padded to 32; a value not of its type,
   NaN in FP6/FP4 included, is TC_ERR_NOT_REPRESENTABLE; Khattak's zero
   rule or a group: TC_ERR_ARG; threads and force_scalar change nothing);
   FP8 x FP8 stays mma.sync's model. */
TCDEF tc_status tc_gemm(tc_arch arch, tc_dtype in, tc_dtype out, int M, int N, int K,
                        const float *A, int lda, const float *B, int ldb,
                        const float *C, int ldc, float *D, int ldd);

/* tc_gemm with every knob, as a descriptor. Zero-initialise, then set what
   you need: a leading dimension of 0 means tightly packed (K for A, N for
   B, C and D); options left zero are the architecture's own behaviour.
   Speed (the result is the same bit for bit either way): where the
   compiler may use SSE2 (AVX2 when enabled, e.g. -mavx2 or -march=native)
   and F <= TC_GEMM_FAST_MAX_FRAC, the block FMAs run in fp64 SIMD lanes,
   eight output columns at a time (tc_gemm_fast_path names the kernel);
   any output step that leaves the fast path's proven range (Inf or NaN
   operands, a subnormal or overflowing result) is redone by the scalar
   model, and GEMMs narrower than the kernel (N below 6 columns with SSE2,
   12 with AVX2) take the scalar model, which is faster there. force_scalar = 1 takes the scalar model throughout (tests compare
   the two). threads: 0 or 1 runs on the calling thread; N > 1 splits the
   rows over N POSIX threads when the implementation was compiled with
   TC_THREADS defined (link -lpthread); without TC_THREADS, or on Windows,
   threads > 1 runs on the calling thread (same result). Negative or more
   than TC_GEMM_MAX_THREADS: TC_ERR_ARG. */
#define TC_GEMM_MAX_THREADS 1024
#define TC_GEMM_FAST_MAX_FRAC 28
typedef struct {
    tc_arch arch;
    tc_dtype in, out;
    int M, N, K;
    const float *A; int lda;
    const float *B; int ldb;
    const float *C; int ldc;      /* C may be NULL (zero) */
    float *D; int ldd;
    tc_mma_options options;
    int threads;                  /* 0/1: calling thread; N > 1: N threads (TC_THREADS) */
    int force_scalar;             /* 1: never the SIMD path (for comparing) */
} tc_gemm_desc;
TCDEF tc_status tc_gemm_ex(const tc_gemm_desc *d);
/* The kernel tc_gemm_ex and tc_sparse_gemm_ex use for combinations it
   covers: "AVX-512, 8 fp64 lanes" (built with AVX-512 F, VL, BW and DQ),
   "AVX2, 4 fp64 lanes", "SSE2, 2 fp64 lanes", or "scalar" when
   the header was built without SIMD (TC_NO_SIMD, not x86, nvcc). */
TCDEF const char *tc_gemm_fast_path(void);

/* Reference models to compare against, on fp32 values (a stride inc_a,
   inc_b >= 1 walks a column), result in *out. tc_dot_fma: sequential IEEE
   fp32 FMA, c = fmaf(a[i], b[i], c) for i = 0..k-1, what a CUDA-core loop
   does. tc_dot_exact: the exact value of c + sum a[i]*b[i], rounded once to
   fp32 (nearest-even); NaN is 0x7FFFFFFF. TC_ERR_SIZE for k < 0, TC_ERR_ARG
   for a stride below 1, TC_ERR_NULL for NULL vectors (with k > 0) or out. */
TCDEF tc_status tc_dot_fma(int k, const float *a, int inc_a, const float *b, int inc_b, float c, float *out);
TCDEF tc_status tc_dot_exact(int k, const float *a, int inc_a, const float *b, int inc_b, float c, float *out);

/* ---- Blackwell MMA kinds with FP4/FP6 operands and block scaling
   tcgen05.mma on B200 (sm_100) and mma.sync on RTX Blackwell (sm_120) take
   e4m3, e5m2, e2m3, e3m2 and e2m1 codes, A and B of independent types, in
   these kinds (PTX ISA, tcgen05.mma .kind and mma .block_scale; the type
   lists also in LLVM's NVVMOps.td; MMA-Sim mmasim/isa/nv_ptx/
   nv_tcgen05mma.py and nv_mma.py):
     TC_KIND_F8F6F4    no scale; one block FMA of 32 products per
                       instruction (K 32), F = 25, fp32 out cut toward zero
                       or fp16 out rounded to nearest.
     TC_KIND_MXF8F6F4  the same with a ue8m0 scale per 32 along K for each
                       row of A and column of B; the two scale exponents are
                       added to each product's exponent before alignment
                       (MMA-Sim mmasim/simulator/arithmetic.py fused_dot_add),
                       so E and the truncation see the scaled products.
     TC_KIND_MXF4      e2m1 only, ue8m0 per 32, K 64.
     TC_KIND_MXF4NVF4  e2m1 only, ue8m0 per 32 or 16, or ue4m3 per 16
                       (sm_120: ue8m0 per 32 and ue4m3 per 16 only, the
                       spellings ptxas takes), K 64.
                       For both FP4 kinds each 16 products are summed
                       exactly, the sum is multiplied by the two scales and
                       enters the block FMA as one term whose exponent is
                       the sum of the scales' exponents (not the term's own
                       magnitude), F = 35, fp32 out cut toward zero
                       (arithmetic.py nv_fused_dot_add_with_block_scale;
                       simulator/nv_ptx.py sets F = 35 for K 64, else 25).
   Operands that are subnormal in their type take the type's minimum
   exponent, zeros (and a zero ue4m3 scale) -126, as in the rest of section
   2. Specials: a NaN scale (ue8m0 0xFF, ue4m3 0x7F) or a NaN c gives the
   canonical NaN; for the F8F6F4 kinds an Inf or NaN operand gives what the
   fp64 sum gives (NaN, or Inf of one sign); an Inf c in an FP4 kind gives
   c (ASSUMED: MMA-Sim fails on it). A finite result past fp32 is Inf.
   sm_120's mma.sync kinds compute the same (MMA-Sim uses one function for
   both); the instruction table has a row for each block-scaled mma.sync
   spelling ptxas 13.0 assembles for sm_120a (mxf8f6f4 1X ue8m0 in every
   pairing, mxf4 2X ue8m0, mxf4nvf4 2X ue8m0 and 4X ue4m3: block 32, 32,
   32, 16), and tc_mma_instr_scaled_type turns a row into the type here.
   Longer K chains instructions, each taking the previous result as c.
   ASSUMED, not measured: no Blackwell GPU has run these kinds here, and
   MMA-Sim's F = 25 with a cut result for mma.sync FP8 on B200 matches only
   63% of the measured B200 samples (see the banner), so F8F6F4's F = 25 is
   MMA-Sim's word, not the hardware's; opt->frac_bits changes it. FP6 in
   these kinds follows the FP8 rule (MMA-Sim runs only e4m3, e5m2, e2m1). */
typedef enum { TC_KIND_F8F6F4, TC_KIND_MXF8F6F4, TC_KIND_MXF4, TC_KIND_MXF4NVF4, TC_KIND_COUNT } tc_mma_kind;
/* "f8f6f4", "mxf8f6f4", "mxf4", "mxf4nvf4"; NULL for an unknown kind. */
TCDEF const char *tc_mma_kind_name(tc_mma_kind kind);

/* One block-scaled combination. scale_type and block are ignored (set 0)
   for TC_KIND_F8F6F4. */
typedef struct {
    tc_arch arch;         /* TC_ARCH_B200 (tcgen05.mma) or TC_ARCH_RTX_BLACKWELL (mma.sync) */
    tc_mma_kind kind;
    tc_dtype a_type, b_type;   /* e4m3, e5m2, e2m3, e3m2, e2m1 (FP4 kinds: e2m1) */
    tc_dtype out;         /* TC_FP32; TC_FP16 only for TC_KIND_F8F6F4 */
    tc_dtype scale_type;  /* TC_UE8M0, or TC_UE4M3 for mxf4nvf4 */
    int block;            /* elements per scale: 32, or 16 for mxf4nvf4 */
} tc_mma_scaled_type;

/* F, group (products per block FMA term set: 32; FP4 kinds 16 per scaled
   term), instr_k = min_k = the instruction's K (32 or 64), out rounding.
   TC_ERR_NULL; TC_ERR_ARCH for an architecture without the kind;
   TC_ERR_ARG for an unknown kind; TC_ERR_DTYPE for a type, output or scale
   type the kind rejects; TC_ERR_SHAPE for a block it rejects (on sm_120
   also a scale type and block that no row of the table spells). */
TCDEF tc_status tc_mma_scaled_params_of(const tc_mma_scaled_type *t, tc_mma_params *p);

/* c + sum a[i]*b[i]*scale_a[i/block]*scale_b[i/block], i < k, on codes
   (one right-aligned code per byte, as tc_block_quantize writes them) and
   scale bytes (k / block of each; NULL for TC_KIND_F8F6F4), result in *out.
   k a positive multiple of the instruction's K, else TC_ERR_SHAPE; a code
   wider than its type or a scale byte above 0x7F for ue4m3, or a c not
   representable in out: TC_ERR_NOT_REPRESENTABLE; options: zero_sign and
   frac_bits (1..40) apply, a non-zero group or TC_MMA_ZEROS_KHATTAK (their
   model has no tcgen05 kind) is TC_ERR_ARG. NULL opt = defaults. */
TCDEF tc_status tc_mma_dot_scaled(const tc_mma_scaled_type *t, int k, const uint8_t *a, const uint8_t *b,
                                  const uint8_t *scale_a, const uint8_t *scale_b, float c,
                                  const tc_mma_options *opt, float *out);

/* D = (A scaled) * (B scaled) + C, M x N, for codes laid out as
   tc_block_quantize writes them: A is M x K row-major (A[m * lda + k]), B is
   N x K (B[n * ldb + k], i.e. B stored column-major), scale_A M x K/block
   (scale_A[m * ldsa + j]), scale_B N x K/block. A leading dimension of 0
   means packed (K for codes, K/block for scales, N for C and D). C may be
   NULL (zero), D may alias C. The per-tensor fp32 scale of NVFP4 is not
   applied (the hardware does not): divide D by the two tensor scales.
   Errors as tc_mma_dot_scaled, plus TC_ERR_NULL, TC_ERR_SIZE (M, N < 0),
   TC_ERR_SHAPE (K not a positive multiple of the instruction's K, an ld
   too small); D is untouched on error. */
typedef struct {
    tc_mma_scaled_type type;
    int M, N, K;
    const uint8_t *A; int lda;
    const uint8_t *B; int ldb;
    const uint8_t *scale_A; int ldsa;   /* NULL for TC_KIND_F8F6F4 */
    const uint8_t *scale_B; int ldsb;
    const float *C; int ldc;
    float *D; int ldd;
    tc_mma_options options;
} tc_gemm_scaled_desc;
TCDEF tc_status tc_gemm_scaled(const tc_gemm_scaled_desc *d);

/* The scaled type one row of the instruction table runs with, read from
   the row alone, so that tc_mma_dot_scaled and tc_gemm_scaled can run it
   on the CPU with scales (tc_mma_run cannot: no place for them): arch the
   row's (TC_ARCH_B200 for tcgen05.mma, TC_ARCH_RTX_BLACKWELL for sm_120's
   mma.sync), kind the word after "kind::" in its PTX, A and B types, out
   TC_FP32, and for a block-scaled row its scale type (the PTX's .ue4m3,
   else .ue8m0) and block: K / X for .scale_vec::XX (32 at 1X on K 32 and
   2X on K 64, 16 at 4X). A tcgen05 row spells no scale_vec: PTX ISA
   9.7.14.3's defaults for mma (mxf8f6f4 1X, mxf4 2X) are taken for it.
   TC_ERR_NULL; TC_ERR_ARG for an unknown row, a row of none of these
   kinds, or tcgen05 mxf4nvf4 (its scale_vec is mandatory and its row names
   none: set scale_type and block yourself). */
TCDEF tc_status tc_mma_instr_scaled_type(tc_mma_instr i, tc_mma_scaled_type *out);

/* Fragment layouts (PTX ISA, "Matrix fragments for mma.m16n8k*" and, for
   sparse kinds, "Matrix fragments for sparse mma"): which element lane
   `lane` holds in its register element i (0 .. the info's a/b/c_elems - 1).
   A: (row, col) of the M x K tile, for a sparse kind (row, column of the
   compressed M x K/2 tile: register i/2 for 16-bit types, low half first,
   register i for tf32); B: (row, col) of the K x N tile; C and D: of the
   M x N tile. Written once here; tests, lessons and cuda/ use it.
   TC_ERR_ARG for an unknown instruction, one whose layout is not modelled
   (tc_mma_instr_info.layout == 0), a bad fragment, lane (0..31) or i;
   TC_ERR_NULL for NULL row/col. */
typedef enum { TC_FRAG_A, TC_FRAG_B, TC_FRAG_C } tc_frag;   /* TC_FRAG_C is also D */
TC_HOST_DEVICE TCDEF tc_status tc_mma_frag_coord(tc_mma_instr s, tc_frag f, int lane, int i,
                                                 int *row, int *col);

/* ---- Integer MMA: mma.sync .s32.{s8,u8}.{s8,u8}.s32 and .{s4,u4}.{s4,u4}
   Models: mma.sync.aligned.{m8n8k16, m16n8k16, m16n8k32} for 8-bit and
     {m8n8k32, m16n8k32, m16n8k64} for 4-bit operands, A and B signed or
     unsigned independently (the table's four pairings per shape), s32 C and
     D, with or without .satfinite (PTX ISA, "Warp-level matrix multiply-
     accumulate instructions: mma"; the shapes and types in its "Matrix
     shape" and "Data types" tables, the same in LLVM's NVVM mma intrinsics).
   Numerics (SPEC): integer products are exact, so is their sum; the PTX
     ISA's mma (and wmma.mma) qualifier .satfinite: for integer mma with
     .satfinite an overflowing result saturates to MIN_INT32 / MAX_INT32,
     without it the result wraps modulo 2^32 (paraphrased). ASSUMED, not run
     here: (1) the clamp is applied once per instruction to the exact
     c + sum of its K products (saturating after each product would differ
     when partial sums cross a bound and come back; no GPU has told us);
     (2) a K longer than one instruction chains instructions, each clamping
     its own D (what a kernel's K loop does), in steps of the widest K the
     architecture has for the types (as tc_gemm), a remainder taking the
     narrower K. Without .satfinite none of this matters: arithmetic modulo
     2^32 is exact whatever the order.
   Architectures: 8-bit on Turing (m8n8k16 only; sm_75), A100, H100, Ada,
     B200 and sm_120 (PTX: m16n8k16/k32 need sm_80). 4-bit on Turing
     (m8n8k32) and A100 and Ada (m16n8k32/k64); not on H100, B200 or
     sm_120: their whitepapers give no INT4 Tensor Core rate (H100: "N/A";
     A100 lists 1248 INT4 TOPS, the Ada whitepaper INT4 rates too; we found
     none for B200 or RTX 50: ASSUMED absent) - PTX still accepts the s4
     shapes for sm_90, which we ASSUME runs without INT4 Tensor Cores
     (emulated), so the model refuses them there (TC_ERR_ARCH).
   Operands: one value per int8_t: s8 -128..127, u8 0..255 held as the
     same bits (a u8 255 is the int8_t -1, read back as (uint8_t)), s4
     -8..7, u4 0..15 (a value outside is TC_ERR_NOT_REPRESENTABLE: no hidden
     masking). */
typedef struct {
    tc_arch arch;
    tc_dtype a_type, b_type;   /* TC_S8/TC_U8 in any pairing, or TC_S4/TC_U4 in any pairing */
    int satfinite;             /* 0: D wraps modulo 2^32; 1: .satfinite, D clamps to [INT32_MIN, INT32_MAX] */
} tc_imma_type;

/* K of the narrowest and of the widest instruction for the type on its
   architecture (Turing has one). TC_ERR_NULL; TC_ERR_DTYPE for a type
   that is not s8/u8 or s4/u4 or 8-bit with 4-bit; TC_ERR_ARCH for an
   unknown architecture or one without the types; TC_ERR_ARG for satfinite
   other than 0 or 1. */
TCDEF tc_status tc_imma_k(const tc_imma_type *t, int *min_k, int *max_k);

/* c + sum a[i]*b[i], i < k, as the chain of instructions above; *out
   untouched on error. k: 0 (gives c) or a positive multiple of min_k, else
   TC_ERR_SHAPE; TC_ERR_NULL (a or b NULL with k > 0, out NULL);
   TC_ERR_NOT_REPRESENTABLE for an operand out of its type's range; and
   tc_imma_k's errors. */
TCDEF tc_status tc_imma_dot(const tc_imma_type *t, int k, const int8_t *a, const int8_t *b, int32_t c, int32_t *out);

/* D = A*B + C, M x N, int32 C and D, row-major: A is M x K (A[m * lda + k]),
   B is K x N (B[k * ldb + n]), as tc_gemm. A leading dimension of 0 means
   packed (K for A, N for B, C and D). C may be NULL (zero), D may alias C
   (same ldc). M, N, K >= 0 (TC_ERR_SIZE); K a multiple of min_k (K = 0:
   D = C), else TC_ERR_SHAPE, as is an ld too small; A or B may be NULL
   only when no product reads them (M, N or K zero), D only when M or N is
   zero (TC_ERR_NULL); every A and B value in range, else
   TC_ERR_NOT_REPRESENTABLE. D is untouched on error. */
typedef struct {
    tc_imma_type type;
    int M, N, K;
    const int8_t *A; int lda;
    const int8_t *B; int ldb;
    const int32_t *C; int ldc;
    int32_t *D; int ldd;
} tc_igemm_desc;
TCDEF tc_status tc_igemm(const tc_igemm_desc *d);

/* ==========================================================================
   SECTION 3: LOSS SCALING
   Models: the dynamic loss scalers of mixed-precision training, as state
     machines with the exact arithmetic of their reference implementations:
     PyTorch torch.amp.GradScaler by default (the update is the CUDA kernel
     amp_update_scale_cuda_kernel: scale in fp32, products formed in double
     and rounded to fp32, growth kept only if finite), and by option
     TensorFlow's LossScaleOptimizer (floor at 1), apex amp (ceiling 2^24)
     and Megatron-LM (floor 1, hysteresis refilled only on growth). The
     unscale pass is _amp_foreach_non_finite_check_and_unscale_: every
     gradient is multiplied by inv_scale = (float)(1.0 / (double)scale) in
     fp32 and stored back in its own format with RN; any Inf or NaN sets
     found_inf, and the optimiser step is then skipped.
   Simplifies: one scaler for the whole model (PyTorch keeps one per device;
     with one device they are the same); no optimiser, the caller skips.
   Differs from the references on purpose, and says so with a status: a
     growth that would overflow fp32 is refused (as PyTorch does, but
     silently there), a backoff below FLT_MIN, whose reciprocal no longer
     exists in fp32, is refused (PyTorch would reach 0 and then NaN), and a
     growth interval of 1 must be asked for explicitly.
   Numbers from: docs/REFERENCE.md section 5 (framework defaults and
     the failure cases users report). All of it is arithmetic, so nothing
     here is measured; tests/test_loss_scaling.c checks hand-derived
     sequences and cuda/loss_scaling.cu checks the GPU kernels bit for bit.
   ========================================================================== */

/* Zero-initialised = PyTorch GradScaler. tc_scaler_preset() fills in the
   other frameworks. A field left 0 takes the default in brackets. */
typedef struct {
    int is_static;          /* nonzero: a fixed scale, never updated [0: dynamic] */
    float init_scale;       /* [65536 = 2^16] */
    double growth_factor;   /* > 1 [2.0] */
    double backoff_factor;  /* in (0, 1) [0.5] */
    int growth_interval;    /* clean steps between growths [2000] */
    float min_scale;        /* floor for backoff; 0 = none [0, PyTorch has none] */
    float max_scale;        /* ceiling for growth; 0 = none [0] */
    int hysteresis;         /* overflows tolerated before a backoff [1] */
    int allow_growth_every_step; /* permit growth_interval 1 (see tc_scaler_init) */
} tc_scaler_desc;

typedef enum {
    TC_SCALER_PYTORCH,      /* 2^16, x2 / 2000 clean steps, x0.5 on overflow, no bounds */
    TC_SCALER_TENSORFLOW,   /* 2^15, same rates, never below 1 */
    TC_SCALER_APEX,         /* 2^16, same rates, never above 2^24 */
    TC_SCALER_MEGATRON,     /* 2^32, x2 / 1000, floor 1, hysteresis 2 */
    TC_SCALER_PRESET_COUNT
} tc_scaler_preset_kind;

/* The whole state: plain values, no pointers, so a GPU kernel can hold it
   in device memory and update it with the same code (tc_scaler_update). */
typedef struct {
    float scale;            /* the current loss scale, fp32 as in PyTorch */
    int growth_tracker;     /* clean steps since the last growth or overflow */
    int hysteresis_left;    /* overflows still tolerated before the next backoff */
    int consecutive_skips;  /* overflowing steps in a row; a long run means trouble */
    int64_t steps, skipped; /* updates seen, of which overflowed (skipped) */
    /* the options, resolved (no zeros left) */
    int is_static, growth_interval, hysteresis;
    double growth_factor, backoff_factor;
    float min_scale, max_scale; /* 0 = none */
} tc_scaler;

/* One gradient tensor for the fused unscale: `count` values of `dtype`
   (TC_FP32: float; TC_FP16 or TC_BF16: uint16_t bits) at `data`. */
typedef struct {
    tc_dtype dtype;
    void *data;
    size_t count;
} tc_grad_array;

/* A framework's settings as a desc (TC_ERR_ARG for an unknown kind). */
TCDEF tc_status tc_scaler_preset(tc_scaler_preset_kind kind, tc_scaler_desc *out);

/* desc may be NULL (= all defaults). TC_ERR_ARG for a non-finite scale or
   bound, or one below FLT_MIN (its reciprocal, the unscale factor, would
   overflow to Inf), growth <= 1, backoff outside (0, 1),
   negative interval or hysteresis, min > max, or init outside [min, max];
   TC_ERR_GROWTH_EVERY_STEP for growth_interval 1 unless
   allow_growth_every_step is set: the scale then doubles on every clean
   step, so once it reaches the overflow threshold every second step
   overflows and is skipped - half the training is thrown away. */
TCDEF tc_status tc_scaler_init(tc_scaler *s, const tc_scaler_desc *desc);

/* What GradScaler.update() does after a step; found_inf != 0 means the
   step overflowed and was (must be) skipped. Returns TC_OK, or a report
   about a failure case (the state stays usable):
     TC_WARN_SCALE_OVERFLOW   growth would reach Inf: the scale was kept
     TC_WARN_SCALE_COLLAPSED  backoff would go below FLT_MIN, where
                              1/scale overflows: the scale was kept
     TC_WARN_SCALE_BELOW_ONE  the scale is now below 1: the gradients
                              overflow unscaled (often a model trained in
                              bf16 run in fp16); scaling cannot help
     TC_WARN_SCALE_AT_MIN     an overflow at the floor: cannot back off
   TC_ERR_NULL for s == NULL. Static scalers only count. */
TC_HOST_DEVICE TCDEF tc_status tc_scaler_update(tc_scaler *s, int found_inf);

/* (float)(1.0 / (double)scale), as GradScaler computes it. */
TC_HOST_DEVICE TCDEF float tc_scaler_inv_scale(const tc_scaler *s);

/* The per-value primitives of the unscale pass, shared with the CUDA
   kernel: g * inv_scale in fp32 (g itself when inv_scale is 1), rounded RN
   back into the storage format. Non-finite values stay non-finite. */
TC_HOST_DEVICE TCDEF float    tc_unscale_f32(float g, float inv_scale);
TC_HOST_DEVICE TCDEF uint16_t tc_unscale_fp16(uint16_t g, float inv_scale);
TC_HOST_DEVICE TCDEF uint16_t tc_unscale_bf16(uint16_t g, float inv_scale);
TC_HOST_DEVICE TCDEF int      tc_is_finite_f32(float x);

/* The fused pass over n_arrays gradient tensors: unscale each value in
   place and set *found_inf to 1 if any value (before unscaling) is Inf or
   NaN, else 0. Arrays are checked before anything is written, so on an
   error nothing changes. TC_ERR_NULL (NULL arrays, found_inf, or data with
   count > 0), TC_ERR_SIZE (n_arrays == 0), TC_ERR_DTYPE (not fp32, fp16
   or bf16), TC_ERR_ARG (inv_scale not finite or <= 0). Empty tensors are
   allowed. */
TCDEF tc_status tc_unscale_arrays(tc_grad_array *arrays, size_t n_arrays, float inv_scale, int *found_inf);
/* The same with the scaler's inv_scale. */
TCDEF tc_status tc_scaler_unscale(const tc_scaler *s, tc_grad_array *arrays, size_t n_arrays, int *found_inf);

/* ==========================================================================
   SECTION 4: 2:4 STRUCTURED SPARSITY
   Models: the operand A of mma.sp::ordered_metadata (sm_80+): a dense M x K
     matrix in which every group of 4 consecutive elements of a row (along K)
     holds at most 2 non-zeros (fp16, bf16, e4m3, e5m2), or every pair at most
     1 (tf32: "1:2"), stored as M x K/2 values plus 4-bit metadata per group.
     Pruning by magnitude, checking, compressing, decompressing, and the
     per-lane register layout of the sparse fragments and their metadata.
   Also the sparse GEMM (tc_sparse_gemm): section 2's block FMA on the
     kept products only, B gathered by the metadata (see its comment).
   Simplifies: no padding. K must be a multiple of the group (4, or 2 for
     tf32) and fragment tiles must fit exactly; pad with zeros yourself (an
     all-zero group is legal). Zero means "compares equal to 0", so -0.0 is a
     zero: a -0.0 in a dropped position comes back as +0.0.
   Numbers from: docs/REFERENCE.md section 4 (PTX ISA "Sparse matrix
     storage" and mma.sp; PyTorch/CUTLASS for groups with fewer than 2
     non-zeros). Measured vs assumed: only the m16n8k32 f16/bf16 layout has a
     source that ran on hardware (MLIR's sparse-mma-2-4-f16 integration test;
     an NVIDIA forum report for the A fragment). The m16n8k16 f16/bf16 and
     both tf32 layouts are this header's reading of the PTX ISA figures and
     are UNCONFIRMED (tc_mma_instr_info.layout == 1); cuda/sparsity.cu
     pins every shape on a GPU and prints the true layout when they differ.
     FP8 mma.sp m16n8k64 (e4m3/e5m2, four pairings, sm_89+): 2:4 over
     single 8-bit elements with the same 4-bit codes (tc_sparse_pattern),
     one sparsity selector (0: LLVM's IntrinsicsNVVM.td NVVM_MMA_SP, so all
     four lanes of a quad carry metadata); its register layout (four
     8-bit values per register, the metadata nibble order) is NOT modelled
     (layout 0): the fragment functions refuse it, tc_sparse_gemm computes it.
   Architectures: every one with mma.sp (A100, H100, Ada, B200, sm_120; not
     V100 or Turing), from the instruction table's sparse rows. No source
     gives mma.sp's numerics on any of them (MMA-Sim models no mma.sp, and
     no sparse dot product was measured): that it accumulates like the
     dense instruction on A with its zeros is an ASSUMPTION everywhere.
   ========================================================================== */

/* Options for tc_sparse_compress. */
#define TC_SPARSE_PRUNE 1   /* prune groups that break the pattern instead of failing */

/* Where a pattern check failed: the first offending group, row-major order. */
typedef struct {
    int row, col;     /* row, and the group's first column in the dense matrix */
    int nonzeros;     /* how many non-zeros the group holds (or -1: bad metadata) */
} tc_sparse_violation;

/* The pattern of a dtype: group size and how many of each group may be
   non-zero. 4 and 2 for fp16, bf16, e4m3, e5m2; 2 and 1 for tf32. Other
   types: TC_ERR_DTYPE. */
TCDEF tc_status tc_sparse_pattern(tc_dtype t, int *group, int *keep);

/* Prune W (M x K, row-major, leading dimension ldw) to the pattern of t by
   magnitude: in each group the `keep` largest |w| survive, the other
   non-zeros become +0 (zeros stay as they are, -0 included). Ties: on equal magnitude the lower index wins; NaN counts as larger
   than any number (it is kept, so it cannot hide). out may equal W (same ld).
   mask (optional, M x K with leading dimension K) gets 1 where kept. */
TCDEF tc_status tc_sparse_prune(tc_dtype t, int M, int K, const float *W, int ldw,
                                float *out, int ldo, unsigned char *mask);

/* TC_OK if A follows the pattern of t, else TC_ERR_NOT_SPARSE with the first
   violating group in *first (optional). */
TCDEF tc_status tc_sparse_check(tc_dtype t, int M, int K, const float *A, int lda,
                                tc_sparse_violation *first);

/* ---- metadata: one 4-bit code per group, two 2-bit indices, the lower in
   bits [1:0]; ordered_metadata accepts only sorted pairs (6 codes). For tf32
   a kept element at position p of its pair is the 16-bit pair (2p, 2p+1):
   0b0100 for position 0, 0b1110 for position 1. */
/* TC_ERR_ARG unless 0 <= i0 < i1 <= 3; TC_ERR_NULL for a NULL code. */
TC_HOST_DEVICE TCDEF tc_status tc_sparse_meta_encode(int i0, int i1, unsigned *code);
/* TC_ERR_SPARSE_META for a code that is not an ordered pair; TC_ERR_NULL
   unless both outputs are given. */
TC_HOST_DEVICE TCDEF tc_status tc_sparse_meta_decode(unsigned code, int *i0, int *i1);

/* Compressed form: values is M x K/2 (leading dimension ldv >= K/2), the kept
   elements of each group in increasing column order; meta is M rows of
   tc_sparse_meta_words(t, K) uint32 words (leading dimension ldm in words),
   group j of a row in bits [4(j%8)+3 : 4(j%8)] of word j/8, exactly as one
   mma.sp metadata register holds 8 groups. Groups with fewer non-zeros than
   `keep` use PyTorch's choice (all zero -> (2,3)); the stored values are the
   matrix's own zeros there, so decompression is exact. A matrix that breaks
   the pattern is TC_ERR_NOT_SPARSE (first group in *bad, optional) unless
   flags has TC_SPARSE_PRUNE, which prunes as tc_sparse_prune does.
   tc_sparse_meta_words: words per row of meta; TC_ERR_NULL for a NULL
   words, TC_ERR_DTYPE for a type
   without a pattern, TC_ERR_SIZE for K < 0, TC_ERR_SHAPE for a K that is
   not a multiple of the group. */
TCDEF tc_status tc_sparse_meta_words(tc_dtype t, int K, int *words);
TCDEF tc_status tc_sparse_compress(tc_dtype t, int M, int K, const float *A, int lda,
                                   float *values, int ldv, uint32_t *meta, int ldm,
                                   int flags, tc_sparse_violation *bad);
/* Back to dense: dropped positions become +0. A metadata code that is not a
   legal ordered code is TC_ERR_SPARSE_META, with the group in *bad. */
TCDEF tc_status tc_sparse_decompress(tc_dtype t, int M, int K, const float *values, int ldv,
                                     const uint32_t *meta, int ldm, float *out, int ldo,
                                     tc_sparse_violation *bad);

/* ---- fragments: which lane holds what, for one mma.sp instruction ----
   The sparse kinds of section 2's instruction table (TC_MMA_SP_*); their
   A, B and C layouts are tc_mma_frag_coord's. Metadata: for the given
   selector, *used = 1 if nibble j (0..7) of the lane's metadata register is
   read, with the tile row and group index (group g covers dense columns
   g*group .. g*group+group-1) it describes; *used = 0 (row, group -1) if not.
   Layout: the selected lanes of quad q carry rows q (bits [15:0]) and q+8
   (bits [31:16]); with two lanes per quad the second carries the right half
   of the groups.
   The sparse wgmma rows (TC_WGMMA_SP_*) take lane = the thread of the
   warpgroup, 0..127, and give the row of the 64-row A: warp w = lane / 32
   carries rows 16w..16w+15 as above (f16, bf16, tf32: two lanes per quad,
   sp-sel 0 lanes 0-1, 1 lanes 2-3); the FP8 rows (selector 0, all four
   lanes): lane t of quad q carries all 32 bits of row q + 8 (t & 1), the
   groups 8 (t >> 1) .. 8 (t >> 1) + 7 (dense K 32 (t >> 1) ..), nibble j
   group 8 (t >> 1) + j. The PTX ISA ("Sparse matrix storage" of
   wgmma.mma_async.sp) says one or more threads of each group of four hold
   the metadata, named by the selector; which threads and bits is CUTLASS's
   ELayout_64x32/64x16/64x64 (include/cute/atom/mma_traits_sm90_gmma_sparse.hpp
   at 044405ce10e21d44b65ccd40c4fc2bec68789dad; a stride-0 thread mode is
   the pair the selector picks). Never yet run on a GPU (cuda/wgmma.cu is
   written for that).
   TC_ERR_ARG for a dense or unknown instruction, a bad selector, lane or
   j, or a kind whose layout is not modelled (the FP8 m16n8k64 mma.sp
   kinds; pack/unpack refuse those and every wgmma.sp row); TC_ERR_NULL for
   NULL outputs. */
TC_HOST_DEVICE TCDEF tc_status tc_sparse_meta_coord(tc_mma_instr s, int selector, int lane, int j,
                                                    int *used, int *row, int *group);

/* Pack one tile of a compressed matrix into the registers of a warp: the tile
   whose top-left dense element is (row0, col0) (row0 % 16 == 0, col0 % k == 0).
   s is a sparse kind (TC_MMA_SP_*, else TC_ERR_ARG); values must be
   representable in its type (else TC_ERR_NOT_REPRESENTABLE).
   M x K is the dense shape of the compressed matrix (values M x K/2).
   a gets 32 lanes x 4 registers (a[lane * 4 + r], unused registers 0) and
   meta_regs one register per lane. Metadata goes to the lanes the selector names; the other lanes get 0, so a
   GPU that read another lane would see a different matrix. */
TCDEF tc_status tc_sparse_pack_a(tc_mma_instr s, int selector, int M, int K,
                                 const float *values, int ldv, const uint32_t *meta, int ldm,
                                 int row0, int col0, uint32_t *a, uint32_t *meta_regs);
/* Pack the k x 8 tile of B (row-major K x N, leading dimension ldb) at
   (k0, n0) into b[lane * 4 + r]. */
TCDEF tc_status tc_sparse_pack_b(tc_mma_instr s, int K, int N, const float *B, int ldb,
                                 int k0, int n0, uint32_t *b);
/* The inverse of tc_sparse_pack_a for one instruction: the dense 16 x k tile
   (row-major, leading dimension k) that mma.sp multiplies, from the warp's
   registers and the selector. TC_ERR_SPARSE_META if a read code is illegal. */
TCDEF tc_status tc_sparse_unpack_a(tc_mma_instr s, int selector,
                                   const uint32_t *a, const uint32_t *meta_regs,
                                   float *tile, tc_sparse_violation *bad);

/* ---- sparse MMA: D = A*B + C with A in compressed form ----
   values/meta as tc_sparse_compress makes them (M x K dense), B row-major
   K x N, C and D M x N; C may be NULL (zero), D may alias C (same ld).
   What it computes: each output walks K like tc_gemm_ex (the architecture's
   groups of the dense K, chained, each rounded), but a group's block FMA
   takes only the products the metadata keeps: B's rows are gathered by the
   metadata indices, so a dropped position of B is never read.
   Assumption (the GPU decides; cuda/sparsity.cu compares mma.sp with the
   dense mma.sync on hardware): an mma.sp of logical K accumulates like the
   dense instruction of the same K on the decompressed A.
   So the result equals tc_gemm_ex on tc_sparse_decompress's matrix bit for
   bit, with two deliberate differences, both from B values at positions the
   metadata drops (the dense model multiplies them by the stored zero):
     - Inf or NaN there: dense gives 0*Inf = NaN, sparse never sees it;
     - TC_MMA_ZEROS_MMASIM only: a dropped zero has exponent -126 there, so
       0*b has exponent -126 + e(b) and, when that is the largest exponent of
       the group (tiny c and kept products, huge dropped b: bf16 or tf32),
       truncates the other terms harder. Under TC_MMA_ZEROS_KHATTAK zeros
       are dropped from E and this case does not arise.
   In both cases sparse equals dense with those dropped B values set to 0
   (row by row: each row of A drops its own positions).
   Types: those of the instruction table's sparse kinds: fp16, bf16 (2:4),
   tf32 (1:2) on A100, H100, Ada, B200 and sm_120 (mma.sp, sm_80+); e4m3
   and e5m2 in all four pairings (options.b_type) on H100 (its wgmma
   numerics), Ada, B200 and sm_120 (mma.sp m16n8k64, sm_89+), each with
   the architecture's dense parameters. V100 and Turing have no mma.sp, A100
   no FP8: TC_ERR_ARCH; a pairing no sparse kind has: TC_ERR_DTYPE. K must be a
   multiple of 4 (tf32: 2), else TC_ERR_SHAPE; illegal metadata:
   TC_ERR_SPARSE_META; other statuses as tc_gemm_ex. On error D is untouched. */
TCDEF tc_status tc_sparse_gemm(tc_arch arch, tc_dtype in, tc_dtype out, int M, int N, int K,
                               const float *values, int ldv, const uint32_t *meta, int ldm,
                               const float *B, int ldb, const float *C, int ldc, float *D, int ldd);
/* The same as a descriptor: tc_gemm_ex's, with gemm.A holding the
   compressed values (M x K/2 for the dense shape M x K; gemm.lda 0 means
   K/2), plus the metadata (ldm 0: tc_sparse_meta_words). Zero-initialise.
   gemm.threads and gemm.force_scalar work as in tc_gemm_ex (the SIMD path
   places the stored values at their dense columns; dropped positions never
   take part, as here). */
typedef struct {
    tc_gemm_desc gemm;
    const uint32_t *meta; int ldm;
} tc_sparse_gemm_desc;
TCDEF tc_status tc_sparse_gemm_ex(const tc_sparse_gemm_desc *d);


/* ==========================================================================
   SECTION 5: CYCLE-APPROXIMATE SIMULATOR
   Models: SMs running warp programs cycle by cycle. Each SM has sub-partitions
     (warp w lives on sub-partition w % subpartitions), each with a scheduler
     that issues at most one instruction per cycle from a ready warp (GTO or
     LRR). A per-warp scoreboard holds the cycle at which each register is
     written. FFMA, MMA and integer (IMAD class) pipes per sub-partition
     have a latency and an initiation interval; each SM has one shuffle
     unit (SHFL). Shared memory has `banks` banks of `bank_bytes`:
     a request costs as many passes (wavefronts) as the most distinct words
     any bank must deliver (same word = broadcast), computed from the 32
     per-thread addresses. Global requests coalesce into 32-byte sectors;
     a sector seen before (or inside the program's L2-resident range) is an
     L2 hit, otherwise a DRAM access; bandwidth is a token bucket per SM
     (L2 -> SM) and one for the GPU (DRAM). Shared atomics serialise lanes
     on one bank word; global atomics run at L2, serialising lanes of a
     request on one address. BAR (__syncthreads) waits for
     the warps of one thread block: all warps of an SM, or warps_per_block
     consecutive ones; exited warps count as arrived.
   Simplifies: no instruction cache, no register-bank conflicts, no dual
     issue; memory queues are unbounded (back-pressure shows up as
     long/short_scoreboard at the consumer, not as lg/mio_throttle); stores
     are fire-and-forget: no warp waits for them, but a shared store pays its
     bank conflicts in wavefronts of the SM's shared bandwidth as a load
     does, while cp.async's shared-memory side is conflict-free;
     L2 has no capacity limit and write-backs to DRAM are not counted
     (unless a program sets writes_reach_dram: then every stored sector
     also spends DRAM bandwidth, as when the data outgrow L2);
     BAR, LOOP, BRA_WARP and memory instructions take one issue slot and no
     pipe (a branch resolves as it issues: no branch latency or divergence);
     EXIT takes no slot: a warp retires in the cycle its last result is
     written. Total cycles = the cycle at which the last warp retires.
   Numbers from: docs/REFERENCE.md section 3. Each profile number below
     carries its source; "assumption" marks numbers nobody has measured for
     that GPU (cuda/cycles.cu measures them when a GPU is lent).
   Calibrated to published measurements (tests/measured/dataset.csv, the
     rows each number names; `make validate` prints every row beside its
     prediction): latencies from pointer chases, one method on every GPU;
     DRAM bandwidth as streaming kernels achieve it (about 90% of peak),
     not the datasheet's; L2 -> SM bandwidth as the whole GPU's measured L2
     bandwidth shared by its SMs (so one SM alone is not faster than its
     share: not modelled); H100's half-K mma.sync shapes at their measured
     74% rate; one launch cost for every GPU, overlapped with the previous
     kernel (a kernel costs the longer of its run and its launch), and one
     for kernels replayed from a CUDA graph (graph_launch_us); an L1 hit's
     latency (l1_latency: pointer chases over an L1-resident set), its rate
     the shared path's (H100's L1 and shared bandwidth rows agree). Not
     modelled, so not predicted: whole networks.
     tc_sim_predict_elementwise never beats the achievable DRAM bandwidth
     (every byte is a first touch): a one- or two-trip slice ended before
     the DRAM token bucket throttled it and gave h100 4.3 TB/s at 2^19
     elements, above its 3.0 TB/s (row jm-bw-dram-h100-sxm).
   Stall names follow Nsight Compute (smsp__pcsamp_warps_issue_stalled_*):
     long_scoreboard = waiting on global memory (L1TEX), short_scoreboard =
     waiting on shared memory (MIO), wait = fixed-latency dependency (FFMA,
     MMA), math_pipe_throttle = pipe busy, barrier, not_selected, selected.
   ========================================================================== */

#define TC_SIM_MAX_REGS 64     /* registers a warp program may name (0..63) */
#define TC_SIM_NOREG 255       /* "no register" in an instruction's dst/src */

typedef enum {
    TC_SIM_LDG,     /* global -> register (ld.global / LDG) */
    TC_SIM_STG,     /* register -> global (st.global / STG) */
    TC_SIM_LDGSTS,  /* global -> shared, asynchronous (cp.async / LDGSTS); dst is a token register */
    TC_SIM_LDS,     /* shared -> register (ld.shared / LDS) */
    TC_SIM_STS,     /* register -> shared (st.shared / STS) */
    TC_SIM_LDSM,    /* ldmatrix .x1/.x2/.x4 (LDSM): `count` 8x8 matrices, lanes give 16-byte row addresses */
    TC_SIM_FFMA,    /* fp32 fused multiply-add, one per thread (FFMA) */
    TC_SIM_MMA,     /* mma.sync of kind `mma` (HMMA) */
    TC_SIM_BAR,     /* __syncthreads (BAR.SYNC) */
    TC_SIM_LOOP,    /* run the instructions from `target` up to here `count` times in all */
    TC_SIM_EXIT,    /* end of the warp's program */
    TC_SIM_BRA_WARP,/* per-warp branch: a warp whose index in its thread block is >= `count` jumps forward to `target` */
    TC_SIM_SHFL,    /* warp shuffle (shfl.sync / SHFL): dst from src[0] of another lane, through the SM's shuffle unit */
    TC_SIM_IMAD,    /* integer/address arithmetic (IADD3, IMAD, LEA, ...) on the integer pipe */
    TC_SIM_ATOMS,   /* shared-memory atomic (atom.shared / ATOMS): src[0] into the addressed words, old value to dst (or none) */
    TC_SIM_ATOMG,   /* global atomic at L2 (atom.global / ATOMG; no dst: red.global / RED) */
    TC_SIM_OP_COUNT
} tc_sim_opcode;

/* MMA instructions are section 2's table (tc_mma_instr). A sparse kind
   (TC_MMA_SP_*) counts the FLOPs of its logical shape, 2*m*n*k as if A were
   dense; each issues like the dense instruction of half its K (the same
   operand registers and bandwidth: A holds k/2 values) and so does twice
   the math per cycle; its metadata is a fourth source (tc_sim_mma_sp).
   A wgmma kind (TC_WGMMA_*) of width N: the simulator runs warps, so each
   of the 4 warps of a warpgroup issues its own quarter, a 16 x N x K
   product on its sub-partition's Tensor Core (tc_sim_mma_n, once per warp;
   no synchronisation between the 4 is modelled). The profile's
   mma_latency and mma_interval of a wgmma kind are that quarter's at the
   largest N (256); width N takes interval * N / 256 (rounded up) and the
   same latency beyond its interval (docs/REFERENCE.md 3.4). In .tcs a wgmma
   spells its N: mma.wgmma.m64n128k16.f16. */

/* Per-thread address of a memory instruction, in bytes:
     base + warp * warp_stride + iter * iter_stride + lane_part(lane)
   lane_part = lane * lane_stride, or the table's entry for the lane when
   lane_table holds a handle from tc_sim_lane_table. warp is the global warp index
   (sm * warps_per_sm + warp in SM) for global memory and the warp inside its
   SM for shared memory; iter counts completed trips of the innermost LOOP
   around the instruction. Addresses must be multiples of width. */
typedef struct {
    int64_t base, lane_stride, warp_stride, iter_stride;
    int width;        /* bytes per thread: 4, 8 or 16 (0 = 4) */
    int lane_table;   /* 0: affine; otherwise a handle from tc_sim_lane_table */
} tc_sim_addr;

typedef struct {
    uint8_t op;            /* tc_sim_opcode */
    uint8_t dst;           /* register written, or TC_SIM_NOREG */
    uint8_t src[4];        /* registers read, TC_SIM_NOREG for unused (src[3]: mma.sp metadata) */
    uint8_t mma;           /* tc_mma_instr for TC_SIM_MMA */
    int32_t count;         /* LOOP: trips; LDSM: matrices (1, 2, 4); MMA of a variable-N kind: N (else 0) */
    int32_t target;        /* LOOP: first instruction of the body */
    tc_sim_addr addr;      /* memory instructions */
} tc_sim_instr;

/* A warp program: every warp of every SM runs it. Zero-initialise, fill with
   the tc_sim_* emitters (or tc_sim_emit), free with tc_sim_program_free.
   Emitters record their first failure in `status`, so a builder can emit a
   sequence and check once; tc_sim_run refuses a program whose status is not
   TC_OK. */
typedef struct {
    char name[48];
    tc_sim_instr *code;
    int n, cap;
    uint32_t (*lane_tables)[32];
    int n_tables, cap_tables;
    int64_t global_bytes;       /* global memory the addresses may touch */
    int64_t l2_resident_bytes;  /* [0, this) is already in L2 when the kernel starts */
    int64_t shared_bytes;       /* shared memory per SM (one thread block per SM) */
    int default_sms, default_warps_per_sm;
    tc_status status;
    int writes_reach_dram;      /* stores also spend DRAM bandwidth (the data outgrow L2); 0: they stay in L2 */
    int default_warps_per_block; /* warps that share a BAR when tc_sim_options leaves it 0; 0: all warps of an SM */
} tc_sim_program;

TCDEF void      tc_sim_program_free(tc_sim_program *p);
TCDEF tc_status tc_sim_emit(tc_sim_program *p, const tc_sim_instr *ins);
/* Registers a 32-entry table of per-lane byte offsets; *handle goes into
   tc_sim_addr.lane_table. */
TCDEF tc_status tc_sim_lane_table(tc_sim_program *p, const uint32_t offsets[32], int *handle);
TCDEF tc_sim_addr tc_sim_addr_affine(int64_t base, int64_t lane_stride, int64_t warp_stride, int64_t iter_stride, int width);
/* Emitters; `addr_reg` is a register the address depends on (or TC_SIM_NOREG). */
TCDEF tc_status tc_sim_ldg(tc_sim_program *p, int dst, int addr_reg, tc_sim_addr a);
TCDEF tc_status tc_sim_stg(tc_sim_program *p, int src, tc_sim_addr a);
TCDEF tc_status tc_sim_ldgsts(tc_sim_program *p, int token, tc_sim_addr a);
TCDEF tc_status tc_sim_lds(tc_sim_program *p, int dst, int addr_reg, int token, tc_sim_addr a);
TCDEF tc_status tc_sim_sts(tc_sim_program *p, int src, tc_sim_addr a);
TCDEF tc_status tc_sim_ldsm(tc_sim_program *p, int dst, int matrices, int token, tc_sim_addr a);
TCDEF tc_status tc_sim_ffma(tc_sim_program *p, int dst, int a, int b, int c);
TCDEF tc_status tc_sim_mma(tc_sim_program *p, tc_mma_instr kind, int dst, int a, int b, int c);
/* A sparse MMA (a TC_MMA_SP_* kind, else TC_ERR_ARG) that also reads its
   metadata register `meta`. */
TCDEF tc_status tc_sim_mma_sp(tc_sim_program *p, tc_mma_instr kind, int dst, int a, int b, int c, int meta);
/* An MMA of a variable-N kind (wgmma: one warp's quarter; tcgen05.mma)
   of width n: TC_ERR_ARG for a fixed-N kind, TC_ERR_SHAPE unless
   tc_mma_instr_n_ok. tc_sim_mma with such a kind issues its largest N. */
TCDEF tc_status tc_sim_mma_n(tc_sim_program *p, tc_mma_instr kind, int n, int dst, int a, int b, int c);
/* BAR first waits for wait_reg (cp.async.wait_all; TC_SIM_NOREG for none). */
TCDEF tc_status tc_sim_bar(tc_sim_program *p, int wait_reg);
TCDEF tc_status tc_sim_loop(tc_sim_program *p, int target, int trips);
TCDEF tc_status tc_sim_exit(tc_sim_program *p);
/* Warps of one block running different code (a producer warp, the active
   warps of a reduction level): warps whose index inside their thread block
   (tc_sim_options.warps_per_block) is at least min_warp jump forward to
   instruction `target`; the others fall through. min_warp 0 jumps always.
   It takes one issue slot and no pipe and resolves as it issues (an
   assumption: no branch latency or divergence cost is modelled). tc_sim_run
   refuses a target not after the branch or past the end, and a jump over a
   LOOP instruction (out of a loop body, or over a whole loop). */
TCDEF tc_status tc_sim_bra_warp(tc_sim_program *p, int min_warp, int target);
/* A warp shuffle: dst gets src from the lane the mode names (which lane does
   not change the timing). It goes through the SM's shuffle unit, one warp
   per shfl_interval cycles per SM; a reader of dst waits shfl_latency and
   counts as short_scoreboard (a MIO instruction, as Nsight Compute counts it). */
TCDEF tc_status tc_sim_shfl(tc_sim_program *p, int dst, int src);
/* Integer/address arithmetic (IADD3, IMAD, LEA, shifts, compares: one
   class): its own pipe per sub-partition (int_latency, int_interval),
   separate from FFMA's, so the two overlap as on Volta and later. Any
   source may be TC_SIM_NOREG. */
TCDEF tc_status tc_sim_imad(tc_sim_program *p, int dst, int a, int b, int c);
/* A shared-memory atomic add of src to each lane's word; dst (or
   TC_SIM_NOREG) gets the old value. Lanes on the same word serialise (one
   lane per pass: an assumption, no combining), on top of the bank
   conflicts of distinct words: a request costs as many passes as the most
   lanes one bank serves. Result after atoms_latency + passes - 1.
   addr_reg: a register the address depends on (a bin index), or TC_SIM_NOREG. */
TCDEF tc_status tc_sim_atoms(tc_sim_program *p, int dst, int src, int addr_reg, tc_sim_addr a);
/* A global atomic (dst: the old value) or reduction (dst TC_SIM_NOREG,
   fire and forget) performed at L2: sectors and bandwidth as a load, the
   L2 round trip atomg_latency instead of l2_latency, plus
   atom_same_address_cycles for each further lane of the request on the
   address most lanes hit (contention inside one request only: an
   assumption, see docs/REFERENCE.md). */
TCDEF tc_status tc_sim_atomg(tc_sim_program *p, int dst, int src, int addr_reg, tc_sim_addr a);

/* Builders for the programs the lessons, tcsim and cuda/cycles.cu share.
   The 32x32 matmul is Tim Dettmers' example: 8 SMs x 8 warps; each warp
   copies its part of A and B into shared memory with one cp.async, then
   does 8 x (shared load, FFMA) or 1 x (ldmatrix, MMA m8n8k4). Each warp
   does 256 multiply-adds either way (the blog's schedule; 64 warps cover
   16384 of the product's 32768). The blog adds latencies, so by default
   each shared load waits for the previous FFMA (its address register is
   the accumulator) and there is no barrier; `pipelined` removes that
   dependency (loads run ahead, as a compiler would schedule them) and
   `sync` adds the __syncthreads a correct kernel needs after the copy. */
typedef struct {
    int tensor_cores;       /* 0: FFMA version, 1: ldmatrix + MMA version */
    int pipelined;
    int sync;
    tc_mma_instr mma;       /* 0 = m8n8k4.f16 */
} tc_sim_matmul32_desc;
TCDEF tc_status tc_sim_build_matmul32(tc_sim_program *p, const tc_sim_matmul32_desc *d);
/* n FFMAs, each reading the previous one's result: n x FFMA latency. */
TCDEF tc_status tc_sim_build_ffma_chain(tc_sim_program *p, int n);
/* n MMAs of one kind; dependent (latency) or independent (throughput). */
TCDEF tc_status tc_sim_build_mma_chain(tc_sim_program *p, tc_mma_instr kind, int n, int dependent);
/* One shared load (width bytes per thread) whose per-lane byte offsets are
   given, followed by an FFMA that consumes it. */
TCDEF tc_status tc_sim_build_shared_pattern(tc_sim_program *p, const uint32_t offsets[32], int width);
/* Shared load where lane i reads 4-byte word i * stride_words. */
TCDEF tc_status tc_sim_build_shared_stride(tc_sim_program *p, int stride_words);
/* One global load (4 bytes per thread, coalesced) and a dependent FFMA;
   l2_hit = 1 makes the data L2-resident. */
TCDEF tc_status tc_sim_build_global_load(tc_sim_program *p, int l2_hit);
/* Streaming read: each warp loads `trips` x 4 independent 512-byte blocks
   (16 bytes per thread), from DRAM, then consumes them. */
TCDEF tc_status tc_sim_build_stream(tc_sim_program *p, int trips);

/* The named programs (tcsim programs). */
TCDEF int         tc_sim_program_count(void);
TCDEF const char *tc_sim_program_name(int i);
TCDEF const char *tc_sim_program_description(int i);
TCDEF tc_status   tc_sim_build_named(tc_sim_program *p, const char *name);

/* The timing side of a GPU (its identity is tc_gpu, below). Latencies and
   intervals in SM cycles; 0 bandwidth = unlimited (not modelled);
   mma_latency[i] = 0: the GPU lacks instruction i (tc_mma_instr).
   tc_sim_profile_validate bounds every field, far outside any real GPU, so
   that no arithmetic overflows: clock 0.01..100 GHz, latencies and
   intervals 1..2^20 cycles, bandwidths 0 or 1/64..2^30 bytes per cycle,
   shared memory up to 2^30 bytes; NaN and Inf are refused. */
typedef struct {
    double clock_ghz;
    int sms, subpartitions, max_warps_per_sm;
    int64_t shared_bytes_per_sm;
    int banks, bank_bytes, sector_bytes;
    int dram_latency, l2_latency, shared_latency;
    int ffma_latency, ffma_interval;
    int mma_latency[TC_MMA_INSTR_COUNT], mma_interval[TC_MMA_INSTR_COUNT];
    int shared_wavefronts_per_cycle;   /* per SM; 0 = unlimited */
    double sm_bytes_per_cycle;         /* L2 -> SM, per SM; 0 = unlimited */
    double dram_bytes_per_cycle;       /* whole GPU; 0 = unlimited */
    double launch_overhead_us;         /* the least time per kernel launched back to back (the launch path); 0 = not modelled */
    int shfl_latency, shfl_interval;   /* SHFL: issue to result; cycles between warps' SHFLs on one SM */
    int int_latency, int_interval;     /* integer pipe (IMAD class): issue to result; cycles between issues per sub-partition */
    int atoms_latency;                 /* shared atomic without conflicts: issue to result */
    int atomg_latency;                 /* global atomic at L2 (hit): issue to result */
    int atom_same_address_cycles;      /* global atomic: cycles per further lane on one address */
    int l1_latency;                    /* global load hitting L1: issue to result; 0 = as a shared load */
    double graph_launch_us;            /* the least time per kernel replayed from a CUDA graph; 0 = not modelled */
} tc_sim_profile;

/* Occupancy limits (section 6), from the CUDA programming guide's
   compute-capability table. The tiling model refuses (TC_ERR_ARG) a field
   outside its range, given here, so that its integer arithmetic cannot
   overflow (real GPUs sit far inside). */
typedef struct {
    int max_ctas_per_sm;             /* 1..1024 */
    int max_threads_per_cta;         /* 32..65536 */
    int64_t shared_bytes_per_cta;    /* the most one CTA may opt in to; 0..2^30 */
    int64_t shared_reserved_per_cta; /* the system's share of each CTA's shared memory; 0..2^30 */
    int regs_per_sm;                 /* 32-bit registers; 1..2^24 */
    int max_regs_per_thread;         /* 1..65536 */
    int reg_alloc_unit;              /* registers per thread are allocated in multiples of this; 1..65536 */
} tc_occupancy;

/* A GPU, the one identity every section uses: its Tensor Core numerics
   (section 2), its timing profile (section 5) and its occupancy limits
   (section 6), so "a100" means one thing everywhere. A new GPU is one entry
   of the table. Copy an entry and change fields to ask "what if". */
typedef struct {
    const char *name;          /* "a100" */
    const char *description;
    int sm;                    /* compute capability x 10 (80 for sm_80); 0: a blog's idealised machine */
    tc_arch arch;              /* whose Tensor Core numerics it has */
    tc_sim_profile profile;
    tc_occupancy occupancy;    /* all 0 where not given: the tiling model refuses such a GPU */
} tc_gpu;

TCDEF int tc_gpu_count(void);
TCDEF const tc_gpu *tc_gpu_get(int i);              /* NULL if out of range */
TCDEF const tc_gpu *tc_gpu_find(const char *name);  /* "a100", "h100", ...; NULL if unknown */
/* The built-in real GPU (sm > 0) of the largest compute capability at or
   below sm (x 10: 89 for sm_89), for a program that compares the model
   with the GPU it runs on: sm_86 gets rtx3090, sm_89 rtx4090, sm_103 b200
   (the nearest older design, not the same chip), sm_120 and later rtx5090.
   NULL below every real profile (0, negative). */
TCDEF const tc_gpu *tc_gpu_nearest(int sm);
/* Where a built-in GPU's profile number comes from, for a key of
   tc_sim_profile_print ("dram_latency", "mma_interval.m16n8k16.f16"): its
   status (MEASURED, SPEC, DERIVED, ASSUMED, or the blog's own figure) and
   source in one line, as tcsim show-profile prints it above the key; the
   C comments beside the numbers and docs/REFERENCE.md section 3 say more.
   NULL for a NULL or unknown GPU or key. */
TCDEF const char *tc_gpu_source(const tc_gpu *gpu, const char *key);

/* TC_ERR_PROFILE (with what is wrong in *why, if why is not NULL) or TC_OK. */
TCDEF tc_status tc_sim_profile_validate(const tc_sim_profile *g, const char **why);

/* Shared-memory passes (wavefronts) for one request, in *passes: the lanes
   are split into phases of banks*bank_bytes/width lanes; each phase costs
   the largest number of distinct bank words one bank must deliver.
   TC_ERR_NULL, or TC_ERR_ARG for lanes outside 1..32, a width other than
   4, 8 or 16, banks not a power of two up to 128, bank_bytes not 4 or 8,
   or an address that is not a multiple of width. */
TCDEF tc_status tc_sim_shared_passes(const uint32_t addr[32], int lanes, int width, int banks, int bank_bytes, int *passes);
/* Distinct sector_bytes sectors touched by the lanes' width-byte accesses,
   in *sectors. The same statuses (sector_bytes not a power of two of at
   least 16, or an address beyond 2^62: TC_ERR_ARG). */
TCDEF tc_status tc_sim_global_sectors(const uint64_t addr[32], int lanes, int width, int sector_bytes, int *sectors);

typedef enum {
    TC_SIM_SELECTED,            /* issued this cycle */
    TC_SIM_NOT_SELECTED,        /* ready, but the scheduler picked another warp */
    TC_SIM_LONG_SCOREBOARD,     /* waiting for global memory */
    TC_SIM_SHORT_SCOREBOARD,    /* waiting for shared memory */
    TC_SIM_WAIT,                /* waiting for a fixed-latency result (FFMA, MMA) */
    TC_SIM_MATH_PIPE_THROTTLE,  /* its pipe is still busy */
    TC_SIM_BARRIER,             /* waiting at __syncthreads */
    TC_SIM_EXITED,              /* finished (Nsight does not sample these) */
    TC_SIM_STATE_COUNT
} tc_sim_state;
TCDEF const char *tc_sim_state_name(tc_sim_state s);

typedef enum { TC_SIM_GTO, TC_SIM_LRR } tc_sim_policy;

typedef struct {
    int sms;              /* 0: the program's default (or 1) */
    int warps_per_sm;     /* 0: the program's default (or 1) */
    tc_sim_policy policy; /* 0: greedy-then-oldest */
    int record_timeline;  /* keep per-warp state segments in the result */
    int64_t max_cycles;   /* 0: 1e9; beyond it the run stops with TC_ERR_LIMIT */
    int warps_per_block;  /* warps that share a BAR; 0: all warps of an SM. Must divide warps_per_sm */
    int per_instruction;  /* fill the result's instr_* arrays (Nsight Compute's source view) */
} tc_sim_options;

/* One stretch of a warp's timeline: from `start` until the next segment's
   start (or the end of the run) the warp was in `state`, at instruction `pc`
   (the one it issued or waits to issue). Without per_instruction a stretch
   of back-to-back issues is one segment, at its first instruction. */
typedef struct { int64_t start; int32_t state; int32_t pc; } tc_sim_segment;

typedef struct {
    int64_t cycles;
    int sms, warps_per_sm, warps;
    int64_t instructions;                       /* warp instructions issued */
    int64_t state_cycles[TC_SIM_STATE_COUNT];   /* summed over warps: adds up to warps * cycles */
    double flops;                               /* 2 per multiply-add */
    double dram_bytes, l2_bytes;                /* sector bytes from DRAM, and all sector bytes to SMs */
    double dram_write_bytes;                    /* sector bytes stored to DRAM (writes_reach_dram programs) */
    int64_t shared_wavefronts;
    double seconds;                             /* cycles / clock */
    double flops_per_s, dram_bytes_per_s, l2_bytes_per_s;
    double peak_fp32_flops_per_s;               /* of the simulated SMs, from the FFMA pipes */
    double peak_tensor_flops_per_s;             /* best dense MMA kind of the simulated SMs (2:4 sparse kinds double it) */
    double peak_dram_bytes_per_s;               /* 0 if not modelled */
    tc_sim_segment *segments;                   /* record_timeline: warp w's segments are */
    int64_t *warp_segments;                     /* segments[warp_segments[w] .. warp_segments[w+1]) */
    int timeline_truncated;                     /* segment budget ran out; totals stay exact */
    /* per_instruction: for instruction i of the program (instr_n of them),
       instr_issued[i] warp-level issues and instr_state_cycles[i *
       TC_SIM_STATE_COUNT + s] the warp-cycles warps spent in state s at it
       (issuing it, or stalled waiting to issue it); they add up to
       state_cycles. A stall is charged to the instruction the warp would
       issue next, as Nsight Compute's sampler charges the warp's program
       counter: the one that waits for an operand, and after a BAR the one
       following it. */
    int instr_n;
    int64_t *instr_issued;
    int64_t *instr_state_cycles;
} tc_sim_result;

TCDEF tc_status tc_sim_run(const tc_sim_profile *g, const tc_sim_program *p, const tc_sim_options *opt, tc_sim_result *out);
TCDEF void tc_sim_result_free(tc_sim_result *r);

/* ---- kernels in sequence: bandwidth, launches, fusion (lessons 08, 09, cuda/fusion.cu)
   An elementwise kernel reads `inputs` fp32 streams and writes `outputs`,
   with `ops` FP32-pipe instructions per element (FFMA, FMUL, FADD and the
   FMNMX of a ReLU all issue as FFMA: same pipe, same rate - assumption).
   Scale, add bias, ReLU, a residual add+ReLU, a fused chain of them and an
   optimizer update (param, grad, moment streams) are all this kernel. The
   streams are assumed larger than L2, so every byte goes to or from DRAM. */
typedef struct {
    int64_t elements;   /* per stream */
    int inputs;         /* 1..8 */
    int outputs;        /* 0..8 */
    int ops;            /* 0..64 per element */
} tc_sim_elementwise_desc;

/* The kernel for sms x warps_per_sm warps: each thread moves 16 bytes
   (a float4) of every stream per trip, warps grid-stride, elements rounded
   up to whole trips of sms * warps_per_sm * 128. TC_ERR_SIZE beyond 2^24
   trips or 2^34 bytes of streams in all. */
TCDEF tc_status tc_sim_build_elementwise(tc_sim_program *p, const tc_sim_elementwise_desc *d, int sms, int warps_per_sm);

/* A prediction for one kernel, or (tc_sim_prediction_add) a sequence. */
typedef struct {
    double dram_bytes;       /* bytes a real kernel reads from and writes to DRAM */
    double flops;
    int64_t launches;
    double kernel_seconds;   /* simulated (or, for the GEMM, derived from a simulated rate) */
    double launch_seconds;   /* launches x the profile's launch_overhead_us */
    double seconds;          /* back to back in one stream: the host launches the next kernel while this
                                one runs, so each kernel costs the longer of its run and its launch;
                                a sequence sums those */
} tc_sim_prediction;

/* Simulates a slice: at most 8 SMs with their share of the DRAM bandwidth
   (every SM does the same work, so one SM's time is the GPU's), up to 8
   trips; beyond 8 trips the time grows by the simulated cost of trips 5-8
   per 4 trips (steady state). Warps: up to 32 per SM, fewer for small tensors.
   Never faster than all its bytes at the profile's DRAM bandwidth. */
TCDEF tc_status tc_sim_predict_elementwise(const tc_sim_profile *g, const tc_sim_elementwise_desc *d, tc_sim_prediction *out);
/* A large fp16 GEMM (fp32 accumulate, m x n x k): one SM issuing independent
   MMAs of the profile's fastest fp16 kind from 4 warps per sub-partition
   gives the Tensor Core rate; the GEMM takes its FLOPs at that rate on every
   SM (perfect tiling and load balance: section 6 models tiling), or the
   time to move A and B (fp16) and C (fp32) once at the DRAM bandwidth if
   that is longer. TC_ERR_ARCH if the profile has no fp16 MMA. */
TCDEF tc_status tc_sim_predict_gemm(const tc_sim_profile *g, int64_t m, int64_t n, int64_t k, tc_sim_prediction *out);
/* sum += k (kernels run one after another). */
TCDEF void tc_sim_prediction_add(tc_sim_prediction *sum, const tc_sim_prediction *k);

/* ---- text files: warp programs (.tcs) and profiles (docs/tcs.md)
   A .tcs program is one instruction per line, the way tcsim shows the
   built-ins and students write their own:
       .program transpose           # settings: .sms .warps_per_sm .warps_per_block
       .shared_bytes 4096           #   .global_bytes .l2_resident_bytes .writes_reach_dram
       .reg acc r1                  # a name for a register (r0..r63)
       .table diag 0 132 264 ...    # 32 per-lane byte offsets
       top:                         # a label
           ldg.w16 r2, [512*warp + 16*lane + 2048*iter]
           lds.w4 r3, [4*lane + 128*warp], addr r2, after r0
           ffma acc, r3, r3, acc
           mma.m16n8k16.f16 r8, r4, r5, r8
           bar wait r0
           loop top, 16             # run top..here 16 times in all
           exit
   Parsing builds exactly what the emitters build; printing a program and
   parsing the text gives the identical program back.
   Parse errors go to err as "line:col: message" (err may be NULL; it is
   always NUL-terminated when err_cap > 0). Bounded: text up to 2^26 bytes,
   4096 labels, 64 register names, 64 lane tables, the emitters' limit on
   instructions; TC_ERR_PROGRAM for malformed text (p is then freed), TC_ERR_SIZE
   past a bound, TC_ERR_NULL for a NULL text or program. */
TCDEF tc_status tc_sim_program_parse(const char *text, size_t len, tc_sim_program *p, char *err, size_t err_cap);
/* Writes the program as .tcs text into buf (always NUL-terminated when
   cap > 0); *needed (if not NULL) gets the full length without the NUL, so
   a NULL buf with cap 0 asks for the size. TC_ERR_BUFFER if it did not fit,
   TC_ERR_PROGRAM for a program the format cannot express (a field its
   opcode does not use set, a register out of range, an address term beyond
   2^62, a name outside [A-Za-z0-9_.-]). */
TCDEF tc_status tc_sim_program_print(const tc_sim_program *p, char *buf, size_t cap, size_t *needed);

/* A profile as "key = value" lines, one per tc_sim_profile field, each with
   its unit and meaning as a comment; MMA kinds are keys such as
   mma_latency.m16n8k16.f16 (kinds with latency 0, which the GPU lacks, are
   left out). Same buffer rules as tc_sim_program_print. */
TCDEF tc_status tc_sim_profile_print(const tc_sim_profile *g, char *buf, size_t cap, size_t *needed);
/* Reads "key = value" lines (# comments, blank lines) into *g, changing
   only the keys given: start from zeros for a whole file, or from a GPU's
   profile to override fields (tcsim --set). Each value is range-checked
   as it is read (the bounds of tc_sim_profile_validate), so an error names
   its key: "line:col: dram_latency: must be an integer in 1..1048576".
   A first key `base = NAME` (a tc_gpu name) starts from that GPU's profile
   instead, so a file lists only the fields it changes; base anywhere but
   before every other key is an error.
   TC_ERR_PROFILE for a bad line (*g may be partly changed), TC_ERR_NULL. */
TCDEF tc_status tc_sim_profile_parse(const char *text, size_t len, tc_sim_profile *g, char *err, size_t err_cap);

/* ==========================================================================
   SECTION 6: GEMM TILING
   Models: how an M x N x K GEMM (D = A*B, A row-major M x K, B row-major
     K x N, D fp32) is cut into CTA tiles, warp tiles and instructions, and
     what that costs on a machine: instruction counts, shared-memory, L2 and
     DRAM bytes, arithmetic intensity, occupancy from registers, shared
     memory and warps, waves across the SMs and the tail, a roofline bound,
     and a predicted time. The instruction is an mma.sync shape, a wgmma
     (H100: inst_m 64, inst_n its N, 8..256 in steps of 8; warp_m x warp_n
     is then one warpgroup's tile, 4 warps, one wgmma per 64 x inst_n
     block), or (for input TC_FP32) one warp-wide FFMA: 32 lanes arranged
     inst_m x inst_n, inst_k = 1.
   wgmma tiles: the Tensor Cores read A and B from shared memory (no
     ldmatrix, no fragment registers), so the shared-memory count is each
     wgmma's 64 x K slice of A and inst_n x K of B, and the register
     estimate is the accumulators alone. Simplified: the tiles arrive by
     cp.async issued by every warp, standing in for TMA (one thread issues
     it, so the real kernel spends fewer issue slots); no producer
     warpgroup, no thread-block cluster sharing a tile by multicast (each
     CTA reads all of its tiles from L2, so a clustered kernel may be
     predicted L2-bound where its cluster halves a tile's reads), no
     wgmma.wait before a stage is refilled;
     the simulated loop does not charge the Tensor Cores' shared reads
     (the analytic count does). The rates are the h100 profile's wgmma
     intervals (MEASURED for f16 and e4m3 at N = 256, bf16 ASSUMED as f16:
     section 5) scaled by N as section 5 does. Checked against the dataset's H100 rows
     (pj-bf16gemm-kernel-*: a clustered wgmma kernel, 9.5% and 12.7% slow;
     with its cluster's sharing it would be compute-bound at the profile's
     datasheet clock and fast instead: docs/REFERENCE.md 3.11).
   Sparse tiles (sparse = 1): A is 2:4 (tf32 1:2) sparse and the
     instruction the table's mma.sp (inst_k the dense K, m16n8k32 for
     f16/bf16): half the instructions at the sparse kind's interval (section
     5: ASSUMED to issue like the dense half-K kind), A's kept values plus 4
     bits of metadata per group across L2 and shared memory, and one 4-byte
     LDS of metadata per A fragment and K step. Not modelled: wgmma.sp,
     direct loads (refused). The dataset's sparse rows use it
     (support/measured.h, docs/REFERENCE.md 3.7: 16.3% over 16 rows).
   How the time is built (tc_tile_model, analytic): for one main-loop
     iteration of one CTA (cta_k of K) the model counts what each SM
     resource must do - MMA or FFMA pipe, shared-memory wavefronts (128
     bytes each, conflict-free layouts assumed: padded or swizzled), issue
     slots (every warp instruction: compute, shared loads, global loads or
     cp.async, shared stores, barriers, loop overhead), L2 -> SM bytes - and
     takes the slowest as the iteration's throughput cost W. The iteration
     also has a latency floor L: the global load (overlapped by stages - 1
     iterations under cp.async pipelining), a shared load, and the dependent
     chain of cta_k / inst_k accumulations; with a single buffer the CTA
     waits for its load and then computes, so L = load latency + W, or
     load_rounds load latencies + W where the kernel's compiled code
     issues its loads in dependent rounds (each round's shared stores wait
     for its loads before the next round's loads issue: read off the
     kernel's SASS, as the dataset's single-buffered rows do). With r
     CTAs resident on an SM, r iterations cost max(r W, L). Each wave adds a
     global-latency prologue and the store of its D tiles; the last wave
     runs with fewer CTAs per SM. The kernel takes max(that, compulsory DRAM
     bytes / bandwidth).
   The simulated part (tc_tile_predict): the same kernel's main loop as a
     warp program for section 5's simulator (tc_tile_build_mainloop): per
     iteration each warp waits for its share of the tile (cp.async.wait +
     __syncthreads; with one buffer LDG, STS per load round, BAR), issues
     the next tile's cp.async, then per instruction step loads its A and B fragments
     (ldmatrix, or LDS for FFMA) and issues its MMAs (or FFMAs). r CTAs'
     warps run on one simulated SM, each CTA with its own barrier; two short
     runs (a few iterations each) give the steady-state cycles per iteration
     as their difference, so the prologue cancels. That number replaces
     max(r W, L) in the wave time: it sees the scheduler, the scoreboard's
     dependences, the pipes' intervals, bank conflicts of the real ldmatrix
     row addresses (padding matters there) and the barrier's stall, which
     the analytic counts assume away. The analytic W, L and limit are kept
     beside it as the explanation.
   Simplifies: L2 catches every re-read (DRAM sees A, B once and D once; the
     simulated loads all hit L2); direct loads (the naive kernel) always hit
     L1, at L1's measured hit latency and the shared path's rate (one SRAM:
     H100 measures 124-126 B/clk/SM for L1 hits, 127.5 for shared loads),
     so the L1 misses and global-load overheads that make a published naive
     kernel slower than its shared-memory version are not modelled (the
     ladder's v1 predicts faster than v2); partial edge tiles cost a full tile; the
     analytic part assumes no bank conflicts; register counts are estimated
     unless the descriptor gives them; launch overhead and clock changes are
     ignored; in the simulation all CTAs of an SM read the same shared
     addresses (bank conflicts arise within one request only, as on the GPU)
     and global loads narrower than 4 bytes are modelled as 4-byte words.
   Numbers from: section 5's profile (tc_sim_profile: clock, SMs,
     schedulers, warps, shared memory, latencies, pipe intervals, L2 -> SM
     and DRAM bandwidth - each with its source there), plus the occupancy
     limits a profile lacks, from the CUDA programming guide's
     compute-capability table (each tc_gpu entry gives a source for each).
     Measured: latencies (L1 hits too), H100's mma.sync rate, L2 -> SM
     bandwidth (the whole GPU's measured L2 rate shared by its SMs).
     Assumed: 4 loop-overhead instructions per iteration, the register
     estimate. cuda/gemm.cu measures the ladder and prints the
     model's error beside each kernel.
   Library GEMMs (cuBLAS rows of tests/measured/dataset.csv): a library picks
     the fastest of a few tilings per problem, so support/measured.h runs
     tc_tile_predict over CUTLASS's sm80 fp16 tile set (128x256, 256x128,
     128x128 with 32 or 64 of K, 256x64, 64x256, 128x64, 64x128, 64x64;
     3-6 stages; on H100 CUTLASS's sm90 wgmma CTA tiles, two consumer
     warpgroups, as many stages as fit) and takes the best, instead of the
     Tensor Core peak: the waves, the partial last wave, occupancy and the
     D store then count.
     It rests on no dataset row (the cuBLAS rows are validation rows): on
     A100 at 4096^3 it predicts 280 TFLOP/s (peak 312) against cuBLAS's
     211-239, so the tiling model, not the library's choice, is what stays
     optimistic there. The clock stays the boost clock: the one wall-clock
     Tensor Core peak published for an A100 SXM4 (calibration row
     gpui-wmma-f16-tput-a100-sxm4-40gb) ran at 99.8% of it. Where the
     library's own tiling is published (the CUTLASS profiler's documented
     A100 runs, cutlass-doc-* rows) the model is within 5% with the
     profile's L2 rate (19% slow for the Tensor Core one with the copy
     rate below).
   Operand copy rate (support/measured.h, not this section): GEMM operand
     tiles reached shared memory on A100 at about half the streaming L2
     rate above (MEASURED: calibration row xd-hsgemm-k05-copy-a100, the
     xudoong/GEMM author's copy loop with the math removed; ASSUMED for
     every tiling and A100 part), so the dataset's predictions run every
     tile and library GEMM on a copy of the GPU whose L2 -> SM rate is that
     rate (measured_tile_gpu: "copy an entry and change fields"), and GEMM
     rows give the kernel's ptxas register count (regs_per_thread). With
     them cuBLAS at 4096^3 is predicted at 220 TFLOP/s. The a100 profile
     itself keeps the streaming rate: the lessons' and cuda/gemm.cu's
     ladder numbers do not include the copy rate (docs/REFERENCE.md 3.11).
   ========================================================================== */

/* The machine is a tc_gpu (section 5): its profile gives every rate,
   latency and size, its occupancy limits the rest. Rates the model derives
   from the profile, per SM per clock: multiply-adds through mma.sync for an
   input type and shape (0: not on this GPU; TC_FP32 means FFMA, inst_m/n/k
   ignored), and bytes of shared memory. */
TCDEF double tc_tile_fma_per_clk(const tc_gpu *gpu, tc_dtype in, int inst_m, int inst_n, int inst_k);
TCDEF double tc_tile_shared_bytes_per_clk(const tc_gpu *gpu);

/* How operands reach the compute instructions. */
typedef enum {
    TC_TILE_SHARED = 0,     /* global -> shared memory (stages buffers) -> registers: the usual GEMM */
    TC_TILE_DIRECT          /* every thread loads its operands straight from global memory (through L1):
                               the naive kernel; stages and pads must be 0 */
} tc_tile_staging;

/* One tiling. Zero fields mean defaults where a default exists. */
typedef struct {
    int M, N, K;
    tc_dtype in;                  /* TC_FP16, TC_BF16, TC_TF32, TC_E4M3, TC_E5M2 (mma.sync) or TC_FP32 (FFMA) */
    int cta_m, cta_n, cta_k;      /* CTA tile; cta_k is the K of one main-loop iteration */
    int warp_m, warp_n;           /* warp tile (for a wgmma: one warpgroup's) */
    int inst_m, inst_n, inst_k;   /* mma.sync or wgmma shape (64 x N x K: warp_m x warp_n is one warpgroup's tile),
                                     or FFMA lane arrangement (inst_m * inst_n = 32, inst_k = 1) */
    tc_tile_staging staging;
    int stages;                   /* shared-memory buffers; 0 = 1. >= 2 means a cp.async pipeline */
    int pad_a, pad_b;             /* elements added to each shared row of A (rows hold cta_k) and B (rows hold cta_n) */
    int regs_per_thread;          /* 0 = estimate (accumulators + fragments + 40) */
    int sparse;                   /* 1: A is structured-sparse (2:4; tf32 1:2) and the instruction is the table's
                                     mma.sp of inst_m x inst_n x inst_k (inst_k the dense K: 32 for f16/bf16) */
    int load_rounds;              /* one buffer (stages 0 or 1): the iteration's global loads go in this many dependent
                                     rounds, each round's shared stores waiting for its loads before the next round's
                                     loads issue, as a compiler may schedule them (read it from the kernel's SASS);
                                     0 = 1; 0..64; more rounds than a warp has loads count as one round per load */
} tc_tile_desc;

/* Which resource set the predicted time. */
typedef enum {
    TC_TILE_LIMIT_COMPUTE,        /* MMA or FFMA pipe */
    TC_TILE_LIMIT_SHARED,         /* shared-memory (or L1) wavefronts */
    TC_TILE_LIMIT_ISSUE,          /* warp-instruction issue slots */
    TC_TILE_LIMIT_L2,             /* L2 -> SM bytes */
    TC_TILE_LIMIT_LATENCY,        /* too few CTAs per SM to hide one iteration's latency */
    TC_TILE_LIMIT_DRAM,           /* compulsory DRAM traffic */
    TC_TILE_LIMIT_COUNT
} tc_tile_limit;
TCDEF const char *tc_tile_limit_name(tc_tile_limit l);

typedef struct {
    /* the grid and its counts */
    int64_t ctas_m, ctas_n, ctas;
    int warps_per_cta, threads_per_cta;
    int64_t k_iters;              /* main-loop iterations per CTA: ceil(K / cta_k) */
    double flops;                 /* 2 M N K */
    double instructions;          /* warp-level MMA (or FFMA) instructions, partial tiles counted whole */
    double shared_bytes;          /* read from and written to shared memory (L1 for TC_TILE_DIRECT), whole kernel */
    double l2_bytes;              /* global -> SM (A and B tiles, every CTA) plus the D stores */
    double dram_bytes;            /* compulsory: A and B read once, D written once */
    double intensity;             /* flops / dram_bytes */
    double intensity_l2;          /* flops / l2_bytes */
    /* occupancy */
    int regs_per_thread;          /* as given, or the estimate; before rounding to the allocation unit */
    int64_t shared_per_cta;       /* stages * (A tile + B tile) with padding, bytes */
    int ctas_per_sm;
    int warps_per_sm;
    int ctas_by_regs, ctas_by_shared, ctas_by_warps; /* each limit alone (max_ctas_per_sm if it does not bind) */
    /* waves */
    int64_t concurrent_ctas;      /* sms * ctas_per_sm */
    int64_t waves;                /* ceil(ctas / concurrent_ctas) */
    int last_wave_ctas_per_sm;    /* CTAs on the busiest SM in the last wave */
    double wave_efficiency;       /* ctas / (waves * concurrent_ctas): 1 = no tail */
    /* roofline */
    double peak_flops_per_s;      /* the compute path's peak: mma.sync for the type, or FFMA */
    double ridge_intensity;       /* peak_flops_per_s / dram_bytes_per_s */
    double roofline_s;            /* max(flops / peak, dram_bytes / bandwidth) */
    int memory_bound;             /* 1 if the DRAM side of the roofline is the larger */
    /* one CTA-iteration, in cycles */
    double iter_cycles[TC_TILE_LIMIT_COUNT]; /* each resource alone (LATENCY: the floor L; DRAM unused) */
    double iter_cost;             /* W: the largest of the throughput resources */
    /* the prediction */
    double predicted_cycles;      /* SM cycles over all waves */
    double predicted_s;
    double predicted_flops_per_s; /* flops / predicted_s */
    tc_tile_limit limit;          /* what set the time (the analytic counts say; the simulation's states say more) */
    /* the simulated main loop: tc_tile_predict only (tc_tile_model leaves sim_* 0) */
    int simulated;                /* 1: predicted_* use the simulated iteration time */
    double sim_iter_cycles;       /* one main-loop iteration of ctas_per_sm CTAs sharing an SM, steady state */
    double sim_last_iter_cycles;  /* the same with last_wave_ctas_per_sm CTAs */
    double sim_state_share[TC_SIM_STATE_COUNT]; /* where the warps' cycles went (the ctas_per_sm run), sums to 1 */
    double analytic_predicted_s;  /* tc_tile_model's time (both fill it), kept beside the simulated one */
} tc_tile_result;

/* Check a tiling against a machine. TC_OK, or the constraint that failed
   (and a sentence in *why when why is not NULL):
     TC_ERR_NULL, TC_ERR_SIZE (M, N, K or a tile size < 1; stages < 0),
     TC_ERR_TILE_DIVIDE  (warp tile does not divide the CTA tile, or the
                          instruction does not divide the warp tile),
     TC_ERR_TILE_KSTEP   (cta_k not a multiple of the instruction's K),
     TC_ERR_TILE_INST    (not an mma.sync or wgmma shape for the type, the
                          machine has no such instruction, or a bad FFMA
                          arrangement),
     TC_ERR_TILE_THREADS (threads per CTA over the limit or over the SM's warps),
     TC_ERR_TILE_SHARED  (shared memory per CTA over the machine's limit;
                          DIRECT: A and B tiles over the SM's shared memory,
                          where the simulated main loop models L1),
     TC_ERR_TILE_REGS    (registers per thread over the limit, the warp
                          tile's accumulators alone over it, or one CTA's
                          registers over the SM's file),
     TC_ERR_ARG          (staging unknown, or DIRECT with stages or pads; an
                          occupancy limit of the machine out of its range),
     TC_ERR_PROFILE      (no profile, an invalid one, or one without the
                          shared, L2 -> SM and DRAM bandwidths the model needs). */
TCDEF tc_status tc_tile_check(const tc_gpu *gpu, const tc_tile_desc *d, const char **why);

/* Everything above for a valid tiling; the same statuses as tc_tile_check
   (out is then zeroed). */
TCDEF tc_status tc_tile_model(const tc_gpu *gpu, const tc_tile_desc *d, tc_tile_result *out, const char **why);

/* The main loop of one CTA as a section 5 warp program (every warp of the
   CTA runs it): `iters` iterations, a multiple of max(stages, 1) (the loop
   body is unrolled over the stages, as the real kernel's buffer index
   rotates). The program's defaults are one SM holding `ctas` CTAs; run it
   with tc_sim_options.warps_per_block = the CTA's warps. Besides
   tc_tile_check's statuses: TC_ERR_SIZE (iters or ctas out of range),
   TC_ERR_SHAPE (an ldmatrix row of A or B, (cta_k + pad_a) or
   (cta_n + pad_b) elements, is not a multiple of 16 bytes). */
TCDEF tc_status tc_tile_build_mainloop(tc_sim_program *p, const tc_gpu *gpu, const tc_tile_desc *d, int iters, int ctas);
/* Steady-state SM cycles per main-loop iteration with `ctas` CTAs on one SM
   (1 <= ctas <= the occupancy limit): two runs of tc_tile_build_mainloop's
   program, a few iterations apart, differenced. `run` (may be NULL) gets
   the longer run's result (free it with tc_sim_result_free). TC_ERR_SIZE
   when the longer run would issue more than 2^24 warp-level MMAs or FFMAs
   (a bound on its time; tc_tile_predict passes it on). */
TCDEF tc_status tc_tile_simulate(const tc_gpu *gpu, const tc_tile_desc *d, int ctas, double *cycles_per_iter, tc_sim_result *run);
/* tc_tile_model, then the simulated main loop in place of the analytic
   iteration time: the sim_* fields, and predicted_* from them. */
TCDEF tc_status tc_tile_predict(const tc_gpu *gpu, const tc_tile_desc *d, tc_tile_result *out, const char **why);

/* The GEMM ladder of cuda/gemm.cu, one entry per kernel version: its tiling
   with M = N = K = 0 (fill them in). The kernels in cuda/gemm.cu check their
   compile-time tiles against this table. */
typedef struct {
    int version;
    const char *name;             /* "mma_cp_async" */
    const char *description;
    tc_tile_desc tile;
} tc_tile_kernel;
TCDEF int tc_tile_ladder_count(void);
TCDEF const tc_tile_kernel *tc_tile_ladder_get(int i);   /* NULL if out of range */

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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

#if defined(__GNUC__) || defined(__clang__)
#define TC__ALWAYS_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define TC__ALWAYS_INLINE __forceinline
#else
#define TC__ALWAYS_INLINE inline
#endif

/* MXCSR holds the floating-point environment of float and double on x86
   with SSE2 (the host side of nvcc and TC_NO_SIMD builds included); other
   CPUs, and x86 builds with TC__FENV_C99 (tests/test_fenv.c's third
   build), reach theirs through C99's <fenv.h>. See "the floating-point
   environment" below. */
#if !defined(__CUDA_ARCH__) && !defined(TC__FENV_C99) && \
    (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#define TC__MXCSR 1
#include <xmmintrin.h>
#else
#include <fenv.h>
#endif

#if defined(__SSE2__) && defined(TC__MXCSR) && !defined(__CUDACC__) && !defined(TC_NO_SIMD)
#define TC__SSE2 1
#include <emmintrin.h>
#if defined(__F16C__) && defined(__AVX__)
#define TC__F16C 1
#endif
#if defined(__SSE4_1__) || defined(__AVX__)
#include <immintrin.h>
#endif
#if defined(__AVX2__)
#define TC__AVX2 1
#include <immintrin.h>
#endif
/* DQ too (vrangeps, vfpclassps): every CPU with VL and BW has it, and one
   set of AVX-512 paths is one set to test (the Makefile's AVX512_FLAGS). */
#if defined(__AVX2__) && defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX512BW__) && defined(__AVX512DQ__)
#define TC__AVX512VL 1
#if defined(__AVX512VBMI__) && defined(TC__F16C)
#define TC__AVX512VBMI 1
#endif
#endif
#endif

/* tc_gemm_desc.threads > 1 uses POSIX threads only when asked for at build
   time, so a user who never asks needs no threads library. */
#if defined(TC_THREADS) && !defined(_WIN32) && !defined(__CUDACC__)
#define TC__PTHREADS 1
#include <pthread.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Entries in a static table: one definition for every section. */
#define TC__COUNT_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- the floating-point environment ----
   The models' float and double arithmetic (fmaf in tc_dot_fma, the
   rounding of tc_dot_exact, the GEMMs' fp64 and float steps, block and
   loss scaling, tc_ulp, the simulator's and the tiling model's times) is
   written for C's default: round to nearest, subnormals kept. Under a
   caller's RZ, RU or RD, 59-61 of 128 dot products came out different,
   and so did loss scaling, block scaling and the times; under FTZ and DAZ
   also tc_ulp (MEASURED on the Intel Xeon VM, docs/REFERENCE.md 1.7). The
   GEMMs tried did not, and the same guard spares them a proof that every
   step is exact in every mode. So each public function that computes in
   float or double runs its body through TC__IN_DEFAULT_FP, which sets the
   default for the call and puts the caller's control bits back (threads
   started inside inherit it). The array conversions set MXCSR themselves
   (tc__csr_set: a mode of their own, or DAZ); pruning compares bits
   (tc__sparse_mag). tests/test_fenv.c checks every part, built three ways. */
#ifdef TC__MXCSR
/* MXCSR with the FPU's rounding set to `mode` (not RNA, which SSE lacks)
   and subnormals kept (no FTZ, no DAZ), or with DAZ where `mode` carries
   TC__CSR_DAZ: a kernel whose result is the same when an fp32 subnormal
   input reads as zero (tc__v_lut_loop in RNA) asks for it. */
#define TC__CSR_DAZ 0x200
static unsigned tc__csr_for(unsigned csr, int mode) {
    static const unsigned rc[] = { _MM_ROUND_NEAREST, _MM_ROUND_NEAREST, _MM_ROUND_TOWARD_ZERO, _MM_ROUND_DOWN, _MM_ROUND_UP };
    return (csr & ~(unsigned)(_MM_ROUND_MASK | 0x8040u)) | rc[mode & ~TC__CSR_DAZ] | (mode & TC__CSR_DAZ ? 0x0040u : 0u);
}
/* Sets it for this thread; returns what tc__csr_restore(csr, mode) puts
   back. Each writes MXCSR only when it changes: the C default (RN, no FTZ
   or DAZ) suits RN as it is, and a read, a write and a restore cost 9.8 ns
   against 6.4 for the read alone (MEASURED on the Zen 4 VM, 2026-11-25).
   The restore puts back the caller's control bits but keeps the exception
   flags (bits 0-5) as the call left them, raised where its conversions
   raised them, as the same conversions in C would: writing the caller's
   flags back cleared the ones the call had raised, and a write that
   changes the flags costs far more than one that changes only the
   rounding (an inference from timings; no counters here). On data with
   NaN, Inf and subnormals, fp16 RZ ran 1.15 -> 0.68 ns for 16 elements
   at the L1 size, fp16 RNA 2.2 -> 1.75, in a program whose flags start
   clear (MEASURED on the Intel Xeon VM, docs/REFERENCE.md 1.6, (w)). */
static unsigned tc__csr_set(int mode) {
    unsigned csr = _mm_getcsr();
    if (tc__csr_for(csr, mode) != csr) _mm_setcsr(tc__csr_for(csr, mode));
    return csr;
}
static void tc__csr_restore(unsigned csr, int mode) { if (tc__csr_for(csr, mode) != csr) _mm_setcsr((csr & ~0x3Fu) | (_mm_getcsr() & 0x3Fu)); }
typedef unsigned tc__fp_env;
static tc__fp_env tc__fp_enter(void) { return tc__csr_set(TC_RN); }
static void tc__fp_leave(const tc__fp_env *saved) { tc__csr_restore(*saved, TC_RN); }
#else
/* C99: the whole environment saved and the platform's default installed
   (FE_DFL_ENV; with glibc on x86-64 that clears FTZ and DAZ too, as
   test_fenv_c99 shows; elsewhere ASSUMED); feupdateenv puts the caller's
   back and raises again the exceptions the call raised. */
typedef fenv_t tc__fp_env;
static tc__fp_env tc__fp_enter(void) {
    fenv_t saved;
    fegetenv(&saved);
    fesetenv(FE_DFL_ENV);
    return saved;
}
static void tc__fp_leave(const tc__fp_env *saved) { feupdateenv(saved); }
#endif
/* The body of a public function: return call, evaluated in the default
   environment. On the GPU (device code) there is no caller's environment.
   C promises nothing here without FENV_ACCESS, which gcc does not
   implement: gcc 12 -O2 moved an inlined 1.0f / scale past feupdateenv,
   to where the caller's rounding was back (the local it read had not
   escaped). The volatile result keeps the arithmetic before the leave. */
#ifdef __CUDA_ARCH__
#define TC__IN_DEFAULT_FP(type, call) return call
#else
#define TC__IN_DEFAULT_FP(type, call) \
    do { \
        const tc__fp_env tc__fp_saved = tc__fp_enter(); \
        const volatile type tc__fp_result = call; \
        tc__fp_leave(&tc__fp_saved); \
        return tc__fp_result; \
    } while (0)
#endif

TCDEF const char *tc_status_string(tc_status s) {
    static const char *const messages[] = {
#define TC__STATUS_MSG(name, kind, msg) msg,
        TC__STATUS_LIST(TC__STATUS_MSG)
#undef TC__STATUS_MSG
    };
    if ((int)s < 0 || (int)s >= TC__COUNT_OF(messages)) return "unknown tc_status value";
    return messages[s];
}

/* A switch, not a table: device code cannot read host tables. An unknown
   value counts as an error. */
#define TC__STATUS_KIND_OK(x)   0
#define TC__STATUS_KIND_WARN(x) x
#define TC__STATUS_KIND_ERR(x)  !(x)
TC_HOST_DEVICE TCDEF int tc_status_is_warning(tc_status s) {
    switch (s) {
#define TC__STATUS_CASE(name, kind, msg) case name: return TC__STATUS_KIND_##kind(1);
    TC__STATUS_LIST(TC__STATUS_CASE)
#undef TC__STATUS_CASE
    default: return 0;
    }
}

TC_HOST_DEVICE TCDEF int tc_status_is_error(tc_status s) {
    switch (s) {
#define TC__STATUS_CASE(name, kind, msg) case name: return TC__STATUS_KIND_##kind(0);
    TC__STATUS_LIST(TC__STATUS_CASE)
#undef TC__STATUS_CASE
    default: return 1;
    }
}

/* ----------------------------------------------------- section 1: formats */

TC_HOST_DEVICE static uint32_t tc__bits(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
TC_HOST_DEVICE static float tc__float(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }

/* The encoders' table. Plain integers so that device code can use it
   without float constants in static storage; tc_format_of is the
   student-facing view of the same facts, checked against this by
   tests/test_formats.c. */
typedef struct { int total, ebits, mbits, has_inf; uint32_t max_bits, nan_bits; int has_nan, sign, pow2; } tc__fmt;

/* A standard-bias format from its widths and specials: the built-in small
   formats and tc_custom_format share it. */
TC_HOST_DEVICE static TC__ALWAYS_INLINE tc__fmt tc__fmt_make(int ebits, int mbits, int specials, int sign) {
    tc__fmt f;
    uint32_t all = (1u << (ebits + mbits)) - 1u;   /* every magnitude bit set */
    f.total = sign + ebits + mbits; f.ebits = ebits; f.mbits = mbits; f.sign = sign; f.pow2 = 0;
    f.has_inf = specials == TC_SPECIALS_IEEE;
    f.has_nan = specials != TC_SPECIALS_NONE;
    f.max_bits = specials == TC_SPECIALS_IEEE ? ((((1u << ebits) - 1u) << mbits) - 1u) : specials == TC_SPECIALS_NAN ? all - 1u : all;
    f.nan_bits = all;   /* the canonical NaN; with no NaN it is +max, what CUDA returns for NaN */
    return f;
}

/* Inlined, with tc__fmt_make: called, it returned the struct through
   memory, and each array call (which asks more than once) ran 1.5-4.5
   ns longer (MEASURED on the Zen 4 VM, calls of 8 elements,
   docs/REFERENCE.md 1.6). */
TC_HOST_DEVICE static TC__ALWAYS_INLINE tc__fmt tc__fmt_of(tc_dtype t) {
    tc__fmt f;
    f.has_nan = 1; f.sign = 1; f.pow2 = 0;
    switch (t) {
    case TC_E2M1:  return tc__fmt_make(2, 1, TC_SPECIALS_NONE, 1);
    case TC_E2M3:  return tc__fmt_make(2, 3, TC_SPECIALS_NONE, 1);
    case TC_E3M2:  return tc__fmt_make(3, 2, TC_SPECIALS_NONE, 1);
    case TC_UE4M3: return tc__fmt_make(4, 3, TC_SPECIALS_NAN, 0);
    case TC_UE8M0: f = tc__fmt_make(8, 0, TC_SPECIALS_NAN, 0); f.pow2 = 1; return f;
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
    int mode = rounding & ~(TC_SATFINITE | TC_FTZ | TC_FTZ_OUT);
    return mode >= TC_RN && mode <= TC_RU;
}

TCDEF const char *tc_rounding_name(int rounding) {
    static const char *const names[] = { "rn", "rna", "rz", "rd", "ru" };
    static const char *const sat_names[] = { "rn.satfinite", "rna.satfinite", "rz.satfinite", "rd.satfinite", "ru.satfinite" };
    if (!tc_rounding_is_valid(rounding)) return "invalid";
    return (rounding & TC_SATFINITE) ? sat_names[rounding & 0xFF] : names[rounding & 0xFF];   /* FTZ flags not named */
}

/* The one rounding routine behind every narrowing conversion. |x| = sig *
   2^lsb, and the result keeps the bits at or above the format's quantum
   2^q, where q = max(exponent of x, emin) - mbits. Because the encoding of a
   positive value is keep + ((max(e, emin) - emin) << mbits), a rounding that
   carries into the next binade (or from the largest subnormal into the
   smallest normal) needs no special case. Returns the encoding for a finite
   x, with 1 << (total) set to flag overflow beyond max_bits. */
#define TC__RS 8   /* internal mode: stochastic rounding (tc_encode_sr) */

TC_HOST_DEVICE static uint32_t tc__narrow_pow2(tc__fmt f, float x, int rounding);

/* rbits/nbits serve the stochastic mode only. */
TC_HOST_DEVICE static uint32_t tc__narrow_ex(tc__fmt f, float x, int rounding, uint32_t rbits, int nbits) {
    uint32_t u = tc__bits(x);
    uint32_t sign = u >> 31;
    uint32_t mag = u & 0x7FFFFFFFu;
    uint32_t sign_bit = f.sign ? sign << (f.total - 1) : 0;
    int mode = rounding & ~(TC_SATFINITE | TC_FTZ | TC_FTZ_OUT);
    int sat = (rounding & TC_SATFINITE) != 0 || (!f.has_inf && !f.has_nan);   /* no Inf, no NaN: always saturates */
    int unsigned_neg = !f.sign && sign;   /* a negative value has no code in an unsigned format */
    int bias = (1 << (f.ebits - 1)) - 1;
    int emin = 1 - bias;
    uint32_t sig;
    int lsb, e, q, shift;
    uint32_t keep, rem = 0, half = 0, enc;
    int up = 0;

    if (mode != TC__RS && !tc_rounding_is_valid(rounding)) return f.nan_bits;
    if (mag > 0x7F800000u) return f.nan_bits;
    if (f.pow2) return mode == TC__RS ? f.nan_bits : tc__narrow_pow2(f, x, rounding);
    if ((rounding & TC_FTZ) && mag < 0x00800000u) mag = 0;
    if (mag == 0x7F800000u) {
        if (unsigned_neg) return sat ? 0 : f.nan_bits;
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
    case TC_RN: {   /* even code; with no mantissa bits the code's parity is the exponent's */
        uint32_t code = f.mbits ? keep : keep + (uint32_t)((e > emin ? e : emin) - emin);
        up = rem > half || (rem == half && (code & 1u));
        break;
    }
    case TC_RNA: up = rem >= half; break;
    case TC_RZ:  up = 0; break;
    case TC_RD:  up = sign != 0; break;
    case TC_RU:  up = sign == 0; break;
    case TC__RS: {   /* the nbits random bits meet the top nbits discarded bits */
        uint64_t field = shift > 26 ? sig : rem;   /* every discarded bit */
        uint64_t top = shift - nbits >= 32 ? 0 : shift >= nbits ? field >> (shift - nbits) : field << (nbits - shift);
        up = top + (rbits & (nbits >= 32 ? 0xFFFFFFFFu : (1u << nbits) - 1u)) >= ((uint64_t)1 << nbits);
        break;
    }
    default:     break;
    }
    keep += (uint32_t)up;
    if (e < emin) e = emin;
    enc = keep + ((uint32_t)(e - emin) << f.mbits);
    if (enc > f.max_bits) {
        /* Overflow: the rounded value lies beyond the largest finite one. */
        int to_max = sat || mode == TC_RZ || (mode == TC_RD && !sign) || (mode == TC_RU && sign);
        if (unsigned_neg) return sat ? 0 : f.nan_bits;
        if (to_max) return sign_bit | f.max_bits;
        return f.has_inf ? (sign_bit | (f.max_bits + 1)) : (sign_bit | f.nan_bits);
    }
    if ((rounding & TC_FTZ_OUT) && enc < (1u << f.mbits)) enc = 0;
    if (unsigned_neg && enc) return sat ? 0 : f.nan_bits;
    return sign_bit | enc;
}

TC_HOST_DEVICE static uint32_t tc__narrow(tc__fmt f, float x, int rounding) { return tc__narrow_ex(f, x, rounding, 0, 0); }

/* ue8m0: 2^(code - 127) for code 0..254, 0xFF NaN; of |x|, as
   __nv_cvt_float_to_e8m0 does. Values below 2^-127 (zero too) clip to code
   0. RZ and RD floor log2|x|, RU takes its ceiling, RN and RNA the nearer
   power of two (a tie, 1.5 * 2^k, goes to the even code / away). */
TC_HOST_DEVICE static uint32_t tc__narrow_pow2(tc__fmt f, float x, int rounding) {
    uint32_t mag = tc__bits(x) & 0x7FFFFFFFu, frac;
    int mode = rounding & ~(TC_SATFINITE | TC_FTZ | TC_FTZ_OUT), e, code, above, tie;
    if (mag == 0x7F800000u) return (rounding & TC_SATFINITE) ? f.max_bits : f.nan_bits;
    if ((rounding & TC_FTZ) && mag < 0x00800000u) mag = 0;
    if (mag == 0) return 0;
    if (mag >= 0x00800000u) {
        e = (int)(mag >> 23) - 127; frac = (mag & 0x7FFFFFu) << 9;    /* bits below the leading one, left-aligned */
    } else {
        int top = 0;
        uint32_t s = mag;
        while (s > 1) { s >>= 1; top++; }
        e = top - 149; frac = top ? (mag << (32 - top)) : 0;
    }
    above = frac > 0x80000000u; tie = frac == 0x80000000u;
    code = e + 127;
    switch (mode) {
    case TC_RU:  code += frac != 0; break;
    case TC_RN:  code += above || (tie && (code & 1)); break;
    case TC_RNA: code += above || tie; break;
    default:     break;
    }
    if (code < 0) return 0;
    if (code > (int)f.max_bits) return (rounding & TC_SATFINITE) ? f.max_bits : f.nan_bits;
    return (uint32_t)code;
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
    uint32_t sign = f.sign ? (bits >> (f.total - 1)) & 1u : 0u;
    uint32_t mag = bits & ((1u << (f.ebits + f.mbits)) - 1u);
    uint32_t exp_field = mag >> f.mbits;
    uint32_t frac = mag & ((1u << f.mbits) - 1u);
    uint32_t all_ones = (1u << f.ebits) - 1u;
    int bias = (1 << (f.ebits - 1)) - 1;
    uint32_t out;
    if (f.pow2) return mag == f.nan_bits ? tc__float(0x7FFFFFFFu) : tc__float(mag ? mag << 23 : 0x00400000u);
    if (f.has_inf ? exp_field == all_ones && frac != 0 : f.has_nan && mag == f.nan_bits) return tc__float(0x7FFFFFFFu);
    if (f.has_inf && exp_field == all_ones) {
        out = 0x7F800000u;
    } else if (f.ebits == 8) {   /* fp32's exponent: its subnormals are fp32's too */
        out = (exp_field << 23) | (frac << (23 - f.mbits));
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

/* ---- integer dtypes (s8, u8, s4, u4, s32) */

/* Width in bits, 0 for a floating-point dtype; *is_signed for the signed ones. */
TC_HOST_DEVICE static int tc__int_bits(tc_dtype t, int *is_signed) {
    *is_signed = t == TC_S8 || t == TC_S4 || t == TC_S32;
    switch (t) {
    case TC_S8: case TC_U8: return 8;
    case TC_S4: case TC_U4: return 4;
    case TC_S32: return 32;
    default: return 0;
    }
}

TC_HOST_DEVICE static int64_t tc__int_min(int bits, int sgn) { return sgn ? -((int64_t)1 << (bits - 1)) : 0; }
TC_HOST_DEVICE static int64_t tc__int_max(int bits, int sgn) { return ((int64_t)1 << (bits - sgn)) - 1; }

/* The value of a code: its low `bits` bits, sign-extended when signed. */
TC_HOST_DEVICE static int64_t tc__int_value(int bits, int sgn, uint32_t code) {
    uint64_t mask = ((uint64_t)1 << bits) - 1u;
    int64_t v = (int64_t)(code & mask);
    return sgn && v > tc__int_max(bits, 1) ? v - (int64_t)(mask + 1u) : v;
}

/* v as fp32 rounded to nearest, ties to even, whatever the caller's
   rounding mode: (float)v follows it where |v| > 2^24, and under RZ or
   RD s32's 2^31 - 1 came out 2^31 - 128, not 2^31 (docs/REFERENCE.md
   1.7). The kept bits are rounded as integers, then converted exactly. */
TC_HOST_DEVICE static float tc__int_to_float(int64_t v) {
    uint64_t m = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
    int drop = 0;
    while ((m >> drop) >= ((uint64_t)1 << 24)) drop++;
    if (drop) {
        uint64_t q = m >> drop, rest = m & (((uint64_t)1 << drop) - 1u), half = (uint64_t)1 << (drop - 1);
        if (rest > half || (rest == half && (q & 1u))) q++;
        m = q << drop;   /* at most 24 significant bits: exact */
    }
    return v < 0 ? -(float)m : (float)m;
}

/* cvt.{rni,rzi,rmi,rpi}.sN.f32: clamp (float-to-integer cvt always
   saturates; the bounds are integers, so clamping first changes no
   rounding), round, NaN and a bad mode give 0. v - r is exact (v is a
   float) but for a negative v of magnitude below 2^-30, where it lies
   within 2^-53 of 1, which each comparison below reads alike in every
   mode. */
TC_HOST_DEVICE static uint32_t tc__int_encode(int bits, int sgn, float x, int rounding) {
    double v = x, r;
    if (x != x || !tc_rounding_is_valid(rounding)) return 0;
    /* A subnormal x as the smallest normal of its sign, which every mode
       rounds alike (|x| < 1/2), because a caller's DAZ reads x as zero in
       the conversion to double: RU of 2^-149 gave 0, not 1 (MEASURED,
       docs/REFERENCE.md 1.7). */
    if ((tc__bits(x) & 0x7F800000u) == 0 && (tc__bits(x) & 0x7FFFFFu)) v = (tc__bits(x) >> 31) ? -0x1p-126 : 0x1p-126;
    if ((rounding & TC_FTZ) && (tc__bits(x) & 0x7F800000u) == 0) v = 0;   /* .ftz: subnormal inputs are zero */
    if (v < (double)tc__int_min(bits, sgn)) v = (double)tc__int_min(bits, sgn);
    if (v > (double)tc__int_max(bits, sgn)) v = (double)tc__int_max(bits, sgn);
    r = floor(v);
    switch (rounding & ~(TC_SATFINITE | TC_FTZ | TC_FTZ_OUT)) {
    case TC_RN:  if (v - r > 0.5 || (v - r == 0.5 && ((int64_t)r & 1))) r += 1; break;
    case TC_RNA: if (v - r > 0.5 || (v - r == 0.5 && v > 0)) r += 1; break;
    case TC_RZ:  if (v < 0 && v != r) r += 1; break;
    case TC_RU:  if (v != r) r += 1; break;
    default:     break;   /* TC_RD: floor */
    }
    return (uint32_t)((uint64_t)(int64_t)r & (((uint64_t)1 << bits) - 1u));
}

TC_HOST_DEVICE TCDEF uint32_t tc_encode(tc_dtype t, float x, int rounding) {
    int sgn, ibits = tc__int_bits(t, &sgn);
    if (t == TC_FP32) return tc_rounding_is_valid(rounding) ? tc__bits(x) : 0x7FFFFFFFu;
    if (t < 0 || t >= TC_DTYPE_COUNT) return 0;
    if (ibits) return tc__int_encode(ibits, sgn, x, rounding);
    return tc__narrow(tc__fmt_of(t), x, rounding);
}

TC_HOST_DEVICE TCDEF float tc_decode(tc_dtype t, uint32_t bits) {
    switch (t) {
    case TC_FP32: return tc__float(bits);
    case TC_TF32: return tc__float(bits << 13);
    case TC_BF16: return tc_bf16_to_f32((uint16_t)bits);
    case TC_FP16: case TC_E4M3: case TC_E5M2: return tc__widen(tc__fmt_of(t), bits);
    case TC_E2M1: case TC_E2M3: case TC_E3M2: case TC_UE8M0: case TC_UE4M3: return tc__widen(tc__fmt_of(t), bits);
    case TC_S8: case TC_U8: case TC_S4: case TC_U4: case TC_S32: {
        int sgn, ibits = tc__int_bits(t, &sgn);
        return tc__int_to_float(tc__int_value(ibits, sgn, bits));
    }
    default: return tc__float(0x7FFFFFFFu);
    }
}

TC_HOST_DEVICE TCDEF float tc_round(tc_dtype t, float x, int rounding) {
    return tc_decode(t, tc_encode(t, x, rounding));
}

/* Constant, so concurrent callers share it safely; tests/test_formats.c
   checks every field against the encoders above. */
TCDEF const tc_format *tc_format_of(tc_dtype t) {
    static const tc_format table[TC_DTYPE_COUNT] = {
        { "fp32", 32, 8, 23, 127, 1, 1, 1, 0x7F7FFFFFu, 0x7FFFFFFFu, 0x1.fffffep+127f, 0x1p-126f, 0x1p-149f },
        { "tf32", 19, 8, 10, 127, 1, 1, 1, 0x3FBFFu,    0x3FFFFu,    0x1.ffcp+127f,    0x1p-126f, 0x1p-136f },
        { "fp16", 16, 5, 10,  15, 1, 1, 1, 0x7BFFu,     0x7FFFu,     0x1.ffcp+15f,     0x1p-14f,  0x1p-24f },
        { "bf16", 16, 8,  7, 127, 1, 1, 1, 0x7F7Fu,     0x7FFFu,     0x1.fep+127f,     0x1p-126f, 0x1p-133f },
        { "e4m3",  8, 4,  3,   7, 0, 1, 1, 0x7Eu,       0x7Fu,       0x1.cp+8f,        0x1p-6f,   0x1p-9f },
        { "e5m2",  8, 5,  2,  15, 1, 1, 1, 0x7Bu,       0x7Fu,       0x1.cp+15f,       0x1p-14f,  0x1p-16f },
        { "e2m1",  4, 2,  1,   1, 0, 0, 1, 0x7u,        0x7u,        0x1.8p+2f,        0x1p+0f,   0x1p-1f },
        { "e2m3",  6, 2,  3,   1, 0, 0, 1, 0x1Fu,       0x1Fu,       0x1.ep+2f,        0x1p+0f,   0x1p-3f },
        { "e3m2",  6, 3,  2,   3, 0, 0, 1, 0x1Fu,       0x1Fu,       0x1.cp+4f,        0x1p-2f,   0x1p-4f },
        { "ue8m0", 8, 8,  0, 127, 0, 1, 0, 0xFEu,       0xFFu,       0x1p+127f,        0x1p-127f, 0x1p-127f },
        { "ue4m3", 7, 4,  3,   7, 0, 1, 0, 0x7Eu,       0x7Fu,       0x1.cp+8f,        0x1p-6f,   0x1p-9f },
        { "s8",    8, 0,  7,   0, 0, 0, 1, 0x7Fu,       0u,          127.0f,           1.0f,      1.0f },
        { "u8",    8, 0,  8,   0, 0, 0, 0, 0xFFu,       0u,          255.0f,           1.0f,      1.0f },
        { "s4",    4, 0,  3,   0, 0, 0, 1, 0x7u,        0u,          7.0f,             1.0f,      1.0f },
        { "u4",    4, 0,  4,   0, 0, 0, 0, 0xFu,        0u,          15.0f,            1.0f,      1.0f },
        { "s32",  32, 0, 31,   0, 0, 0, 1, 0x7FFFFFFFu, 0u,          0x1p+31f,         1.0f,      1.0f },
    };
    if ((int)t < 0 || t >= TC_DTYPE_COUNT) return NULL;
    return &table[t];
}

TC_HOST_DEVICE TCDEF tc_fields tc_split(tc_dtype t, uint32_t bits) {
    tc__fmt f = tc__fmt_of(t);
    tc_fields r;
    int bias, sgn, ibits = tc__int_bits(t, &sgn);
    uint32_t mask;
    if (ibits) {   /* an integer: sign and magnitude, no exponent */
        int64_t v = tc__int_value(ibits, sgn, bits);
        r.sign = v < 0; r.exponent = 0; r.unbiased = 0; r.mantissa = (uint32_t)(v < 0 ? -v : v);
        r.cls = v ? TC_CLASS_NORMAL : TC_CLASS_ZERO;
        return r;
    }
    if (f.total == 0) {   /* unknown dtype: the shifts below would be by -1 */
        r.sign = 0; r.exponent = 0; r.mantissa = 0; r.unbiased = 0; r.cls = TC_CLASS_NAN;
        return r;
    }
    bias = (1 << (f.ebits - 1)) - 1;
    mask = f.total >= 32 ? 0xFFFFFFFFu : ((1u << f.total) - 1u);
    bits &= mask;
    r.sign = f.sign ? (int)((bits >> (f.total - 1)) & 1u) : 0;
    r.exponent = (int)((bits >> f.mbits) & ((1u << f.ebits) - 1u));
    r.mantissa = bits & ((1u << f.mbits) - 1u);
    r.unbiased = (r.exponent == 0 && !f.pow2 ? 1 : r.exponent) - bias;   /* ue8m0 has no subnormals */
    r.cls = tc_classify(t, bits);
    return r;
}

TC_HOST_DEVICE TCDEF tc_class tc_classify(tc_dtype t, uint32_t bits) {
    tc__fmt f = tc__fmt_of(t);
    uint32_t mag, exp_field, frac, all_ones;
    int sgn, ibits = tc__int_bits(t, &sgn);
    if (ibits) return tc__int_value(ibits, sgn, bits) ? TC_CLASS_NORMAL : TC_CLASS_ZERO;
    if (f.total == 0) return TC_CLASS_NAN;   /* unknown dtype: no value at all */
    mag = bits & ((f.total >= 32 ? 0xFFFFFFFFu : ((1u << f.total) - 1u)) >> f.sign);
    exp_field = mag >> f.mbits;
    frac = mag & ((1u << f.mbits) - 1u);
    all_ones = (1u << f.ebits) - 1u;
    if (f.pow2) return mag == f.nan_bits ? TC_CLASS_NAN : TC_CLASS_NORMAL;
    if (!f.has_inf) {
        if (f.has_nan && mag == f.nan_bits) return TC_CLASS_NAN;
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
    int sgn, ibits = tc__int_bits(t, &sgn);
    if (x != x) return x;
    if (ibits) {   /* integers: one step, stopping at the ends */
        int64_t v = tc__int_value(ibits, sgn, tc_encode(t, x, TC_RN));
        if (dir > 0 ? v < tc__int_max(ibits, sgn) : v > tc__int_min(ibits, sgn)) v += dir;
        return tc__int_to_float(v);
    }
    if (f.total == 0) return tc__float(0x7FFFFFFFu);   /* unknown dtype: no neighbours */
    bits = tc_encode(t, x, TC_RN | (f.has_inf ? 0 : TC_SATFINITE));
    if (!f.sign) {   /* codes ordered like values; the ends saturate */
        if (dir > 0) return tc_decode(t, bits < f.max_bits ? bits + 1 : bits);
        return tc_decode(t, bits > 0 ? bits - 1 : bits);
    }
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

TC_HOST_DEVICE static float tc__ulp_in(tc_dtype t, float x) {
    float ax = x < 0 ? -x : x;
    float up;
    int sgn;
    if (x != x || ax == tc__float(0x7F800000u) || (tc__fmt_of(t).total == 0 && !tc__int_bits(t, &sgn))) return tc__float(0x7FFFFFFFu);
    if (tc__int_bits(t, &sgn)) return 1.0f;
    ax = tc_round(t, ax, TC_RN | TC_SATFINITE);
    up = tc_next_up(t, ax);
    if (up == tc__float(0x7F800000u) || up == ax) return ax - tc_next_down(t, ax);   /* at max: spacing below */
    return up - ax;
}
TC_HOST_DEVICE TCDEF float tc_ulp(tc_dtype t, float x) { TC__IN_DEFAULT_FP(float, tc__ulp_in(t, x)); }

TCDEF tc_status tc_format_bits(tc_dtype t, uint32_t bits, char *buf, size_t cap) {
    const tc_format *f = tc_format_of(t);   /* integers too: sign bit, then value bits */
    int i, pos = 0;
    if (!buf) return TC_ERR_NULL;
    if (!f) return TC_ERR_DTYPE;
    if (cap < (size_t)f->total_bits + 3) return TC_ERR_BUFFER;
    for (i = f->total_bits - 1; i >= 0; i--) {
        buf[pos++] = (char)('0' + ((bits >> i) & 1u));
        if ((i == f->total_bits - 1 && f->is_signed) || (i == f->mantissa_bits && i > 0)) buf[pos++] = ' ';
    }
    buf[pos] = '\0';
    return TC_OK;
}

/* ---- array conversions ----
   Every array conversion (section 1's typed arrays, tc_round_array, and
   1b's u8 arrays: FP4, FP6, ue4m3, ue8m0) runs on these kernels, each
   parameterised by the format (tc__vnarrow: bits, bias, max and overflow
   codes) and specialised per rounding mode at compile time.
   tc__v_narrow is tc__narrow with the per-element branches turned into
   lane masks, for the formats with fewer exponent bits than fp32; tc__v_widen
   is tc__widen. Lanes are 32-bit integers: four with SSE2 (every x86-64),
   eight when the compiler may use AVX2. Values that land on the target's
   subnormals take a float path (scale by a power of two, which is exact,
   then truncate and compare the fraction with 0.5), because SSE2 has no
   per-lane shift; that, like F. Giesen's float->half trick it replaces,
   needs IEEE arithmetic (no -ffast-math) with subnormals kept: the loops
   clear FTZ and DAZ in MXCSR for the call (tc__csr_set), whatever the
   caller set, and put its control bits back (the exception flags the
   call raised stay raised, as after the same conversions in C:
   tc__csr_restore). Shorter kernels: fp16 with F16C; bf16 and tf32
   (fp32's exponent) tc__v_narrow_e8, integer adds only; ue8m0
   tc__v_narrow_pow2; with AVX2, every small format (fp16, FP8, FP6, FP4,
   ue4m3) in every mode (RNA too) takes tc__v_narrow_small (about half the
   lane operations: the FPU, its rounding mode set per call, rounds
   subnormal results) and tc_round_array to them tc__v_round_small; with
   AVX2 and F16C the byte formats widen by way of fp16 (tc__v_widen_f16).
   The FTZ flags take the scalar encoder. With AVX-512 F, VL, BW and DQ
   (TC__AVX512VL) most lanes stay 256 bits wide: Zen 4 runs a 512-bit
   instruction on its 256-bit units ("double-pumping", A. J. Yee's Zen 5
   AVX-512 teardown, numberworld.org, 2024, recalling his Zen 4 one), so
   a 512-bit step saves front-end slots, not execution units. The FP8,
   FP6 and FP4 narrowing (tc__v_narrow_lut) gained 4-42% from 512-bit
   lanes; tc__v_narrow_small with them ran no faster, timed the bench's
   earlier way (docs/REFERENCE.md 1.6: (n), and "512-bit lanes for FP8
   narrowing"). Selects that end a kernel become a compare
   into a mask register (vpcmpd; vcmpps ordered or unordered for NaN) and a masked
   operation that does the step's work as well: vpminsd, vpsrld, vpandd,
   vpord, vmulps or vmovdqu16 with NaN lanes taking the NaN code, and
   vpternlogd for x | (neg & sign) in one instruction; used in
   tc__v_narrow_small, tc__v_narrow_e8,
   tc__v_narrow_pow2, tc__v_widen_f16, tc__v_widen's e2m1 table and the
   F16C fp16 loop. With AVX-512 VBMI as well (TC__AVX512VBMI) the byte
   formats but ue8m0 widen by table (tc__v_widen_vbmi: vpermi2b, two
   128-entry byte planes, 512-bit registers, stores aligned to 64 bytes):
   20 vector instructions per 64 codes against about 15 per 16 for
   tc__v_widen_f16 (gcc 12 -O3). MEASURED 2026-11-24 on the 2-core Zen 4 VM
   (bench_formats, 4 runs of each build alternately, load average 0.9-1.1):
   e4m3, e5m2 and e3m2 widening +23-26% GB/s at the L1 size, +61-71% at the
   L2 and LLC sizes (+46% and +38% for e2m1, whose vpermd table it
   replaces), -0 to -6% at the DRAM size; its table is built once per
   format and cached (tc__vbmi_planes_of, lock-free): +4-7% GB/s at the L1
   size. With AVX-512VL the bf16/tf32, F16C fp16 (narrowing 16 elements
   a step, one 32-byte store) and tc_round_array loops start with a masked
   step up to out's 32-byte boundary (tc__head), so that their 32-byte
   stores cross no cache line (docs/REFERENCE.md 1.6: +41-50% GB/s for tf32 and
   tc_round_array bf16/tf32 at the L2 and LLC sizes), and every loop ends
   with one masked step (tc__tail8, and one of 64 codes in
   tc__v_widen_vbmi) instead of up to 7 scalar conversions (25-45 ns a
   call).
   bf16 narrowing without satfinite takes the integer kernel 16 lanes a
   step in every mode. It took vcvtneps2bf16 in RN where AVX512_BF16 was
   there (a subnormal input, which it reads as zero, sending the step to
   the integer kernel): on the Intel Xeon VM the 16-lane integer loop ran
   22% faster at L1 and 15% at L2 (docs/REFERENCE.md 1.6, (q)).
   docs/REFERENCE.md 1.6 (MEASURED 2026-11-24/25, same VM, main's and this bench_formats
   alternately, 5 runs each, load average 1.0-1.05): fp16 narrowing +85-92%
   GB/s at L1, +55% L2, +29-30% LLC; tc_round_array fp16 +50-51%, +46%,
   +18-21%; tf32 and the other tc_round_array rows +13-20% at L1; the byte
   formats' widening +24-31% at L1 (with the table cache); bf16 RN +33% L1,
   +27% L2, +18% LLC; tc_round_array bf16 by vcvtneps2bf16 was slower (-9%
   at L1) and is not used. With AVX2 bf16 widens 8 a step (vpmovzxwd and
   a shift, tc__bf16_widen8): +81% GB/s at L1, +31% at L2; with AVX-512VL
   16 a step (tc__bf16_widen16), first and last steps masked.
   Per call and per step (issue 18, MEASURED 2026-11-25 on the same VM,
   docs/REFERENCE.md 1.6): the kernel's parameters are built inside each
   loop's function, where they live in registers (tc__vnarrow_init; built
   in memory they cost 13-25 ns a call); MXCSR is written only when it
   differs (the read costs 6.4 ns, a write and restore 3.4 more); the loops
   that store one vector of fp32 a step (tf32, tc_round_array) run four a
   turn; without satfinite, tf32 and tc_round_array to bf16/tf32 clear the
   dropped bits of the rounded value and patch NaN lanes by one masked
   vpternlogd (tc__v_e8_value: 5 vector operations a step in RN, against
   10 for the code shifted out and back), and bf16's other modes take the
   biased sums' top halves from two steps by one vpermt2w; RN in
   tc__v_narrow_small finds the kept lsb by a test into a mask register
   (no shift); tc_round_array to fp16 (where F16C does not serve),
   FP8, FP6, FP4 and ue4m3 in every mode rounds once on the FPU at x's
   binade, 16 elements a step (tc__v_round_fast); ue8m0 adds a bias that carries into the
   exponent (tc__v_narrow_pow2); narrowing to FP8, FP6 and FP4 in every
   mode (and fp16 with satfinite) adds to |x| a number picked by x's
   binade, and the sum's low bits are the code (tc__v_narrow_lut: +11-37%
   GB/s at the L2 and LLC sizes).
   tests/test_formats_vec.c compares every path with the scalar functions
   in seconds, also under a caller's MXCSR with another rounding, FTZ and
   DAZ; the exhaustive tests on every fp32 input. */

#ifdef TC__SSE2

/* The lane operations the kernels use, at the widest width compiled in. */
#ifdef __AVX2__
#define TC__VW 8
typedef __m256i tc__vi;
#define TC__V_SET1(x)     _mm256_set1_epi32(x)
#define TC__V_AND(a, b)   _mm256_and_si256(a, b)
#define TC__V_OR(a, b)    _mm256_or_si256(a, b)
#define TC__V_ANDNOT(a, b) _mm256_andnot_si256(a, b)
#define TC__V_ADD(a, b)   _mm256_add_epi32(a, b)
#define TC__V_SUB(a, b)   _mm256_sub_epi32(a, b)
#define TC__V_GT(a, b)    _mm256_cmpgt_epi32(a, b)
#define TC__V_EQ(a, b)    _mm256_cmpeq_epi32(a, b)
#define TC__V_SRL(a, n)   _mm256_srl_epi32(a, _mm_cvtsi32_si128(n))
#define TC__V_SLL(a, n)   _mm256_sll_epi32(a, _mm_cvtsi32_si128(n))
#define TC__V_SIGN(a)     _mm256_srai_epi32(a, 31)
#define TC__V_FMUL(a, b)  _mm256_castps_si256(_mm256_mul_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)))
#define TC__V_FSUB(a, b)  _mm256_castps_si256(_mm256_sub_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)))
#define TC__V_FADD(a, b)  _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)))
#define TC__V_FMIN(a, b)  _mm256_castps_si256(_mm256_min_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)))
#define TC__V_FMAX(a, b)  _mm256_castps_si256(_mm256_max_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)))
#define TC__V_FROUND(a)   _mm256_cvtps_epi32(_mm256_castsi256_ps(a))   /* to int32 in MXCSR's mode */
#define TC__V_FTRUNC(a)   _mm256_cvttps_epi32(_mm256_castsi256_ps(a))
#define TC__V_TOFLOAT(a)  _mm256_castps_si256(_mm256_cvtepi32_ps(a))
#define TC__V_LOAD32(p)   _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define TC__V_LOAD16(p)   _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(p)))
static inline tc__vi tc__v_load8(const uint8_t *p) { return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p)); }
#define TC__V_STORE32(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
/* Codes are below 2^16, so SSE4.1's unsigned pack (AVX2 implies it) is exact. */
static inline __m128i tc__v_pack16(tc__vi v) {
    return _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
}
static inline void tc__v_store16(uint16_t *p, tc__vi v) { _mm_storeu_si128((__m128i *)(void *)p, tc__v_pack16(v)); }
static inline void tc__v_store8(uint8_t *p, tc__vi v) {
    __m128i h = tc__v_pack16(v);
    _mm_storel_epi64((__m128i *)(void *)p, _mm_packus_epi16(h, h));
}
#else
/* Packs the low 16 bits of four 32-bit lanes (SSE2 has only a signed pack). */
static __m128i tc__sse_pack16(__m128i lo, __m128i hi) {
    lo = _mm_srai_epi32(_mm_slli_epi32(lo, 16), 16);
    hi = _mm_srai_epi32(_mm_slli_epi32(hi, 16), 16);
    return _mm_packs_epi32(lo, hi);
}
#define TC__VW 4
typedef __m128i tc__vi;
#define TC__V_SET1(x)     _mm_set1_epi32(x)
#define TC__V_AND(a, b)   _mm_and_si128(a, b)
#define TC__V_OR(a, b)    _mm_or_si128(a, b)
#define TC__V_ANDNOT(a, b) _mm_andnot_si128(a, b)
#define TC__V_ADD(a, b)   _mm_add_epi32(a, b)
#define TC__V_SUB(a, b)   _mm_sub_epi32(a, b)
#define TC__V_GT(a, b)    _mm_cmpgt_epi32(a, b)
#define TC__V_EQ(a, b)    _mm_cmpeq_epi32(a, b)
#define TC__V_SRL(a, n)   _mm_srl_epi32(a, _mm_cvtsi32_si128(n))
#define TC__V_SLL(a, n)   _mm_sll_epi32(a, _mm_cvtsi32_si128(n))
#define TC__V_SIGN(a)     _mm_srai_epi32(a, 31)
#define TC__V_FMUL(a, b)  _mm_castps_si128(_mm_mul_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b)))
#define TC__V_FSUB(a, b)  _mm_castps_si128(_mm_sub_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b)))
#define TC__V_FADD(a, b)  _mm_castps_si128(_mm_add_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b)))
#define TC__V_FMIN(a, b)  _mm_castps_si128(_mm_min_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b)))
#define TC__V_FMAX(a, b)  _mm_castps_si128(_mm_max_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b)))
#define TC__V_FROUND(a)   _mm_cvtps_epi32(_mm_castsi128_ps(a))   /* to int32 in MXCSR's mode */
#define TC__V_FTRUNC(a)   _mm_cvttps_epi32(_mm_castsi128_ps(a))
#define TC__V_TOFLOAT(a)  _mm_castps_si128(_mm_cvtepi32_ps(a))
#define TC__V_LOAD32(p)   _mm_loadu_si128((const __m128i *)(const void *)(p))
#define TC__V_LOAD16(p)   _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(const void *)(p)), _mm_setzero_si128())
#define TC__V_STORE32(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
static inline tc__vi tc__v_load8(const uint8_t *p) {
    int32_t w;
    memcpy(&w, p, sizeof w);
    return _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(w), _mm_setzero_si128()), _mm_setzero_si128());
}
static inline void tc__v_store16(uint16_t *p, tc__vi v) { _mm_storel_epi64((__m128i *)(void *)p, tc__sse_pack16(v, v)); }
static inline void tc__v_store8(uint8_t *p, tc__vi v) {
    __m128i h = tc__sse_pack16(v, v);
    int32_t w = _mm_cvtsi128_si32(_mm_packus_epi16(h, h));
    memcpy(p, &w, sizeof w);
}
#endif

/* Lane masks are all ones or all zeros, so a byte blend selects lanes.
   Compares are signed (SSE2 has no unsigned one); every compared value is
   below 2^31. */
static TC__ALWAYS_INLINE tc__vi tc__v_select(tc__vi mask, tc__vi a, tc__vi b) {
#if defined(__AVX2__)
    return _mm256_blendv_epi8(b, a, mask);
#elif defined(__SSE4_1__)
    return _mm_blendv_epi8(b, a, mask);
#else
    return TC__V_OR(TC__V_AND(mask, a), TC__V_ANDNOT(mask, b));
#endif
}

/* Everything tc__v_narrow needs, worked out once per call from the format
   and the rounding: the mode becomes masks (all ones or zero) so that the
   loop has no branch on it. */
typedef struct {
    int shift;        /* 23 - mbits: fp32 fraction bits below the quantum of a normal */
    int sign_shift;   /* 32 - total: moves fp32's sign bit to the format's (32, dropping it, if unsigned) */
    int is_signed;    /* 0: ue4m3, whose negative inputs give 0 or NaN (tc__v_unsigned) */
    int pow2;         /* ue8m0: tc__v_narrow_pow2 */
    int small_path;   /* the format's subnormals lie above fp32's (ebits < 8) */
    int sat;          /* TC_SATFINITE asked for, or a format with neither Inf nor NaN (FP4, FP6) */
    tc__vi low_mask, half, rebias, min_normal, scale, max_bits, overflow_bits, nan_bits;
    tc__vi to_max_pos, to_max_neg, sat_mask;
    /* for tc__v_narrow_small: the magic number of tc__rn8_of, the smallest
       normal's code, RN's bias less the smallest normal's bits, the sign, and the code an overflow gives (positive, negative,
       from Inf), the mode's choices made once */
    tc__vi magic, min_code, rn_bias, sign_bit, ov_pos, ov_neg, ov_inf;
    tc__vi half_sub;  /* half the smallest subnormal, as fp32 bits (RNA) */
    /* for tc__v_round_small: the largest finite value's fp32 bits, and the
       fp32 bits of the overflow codes above with the sign applied; 2^k and
       2^-k, k such that 2^k times the first power of two above the largest
       finite is 2^128; the fp32 bits above which a result is NaN (Inf's,
       or for a format without Inf the largest finite value's) */
    tc__vi max_val, ovv_pos, ovv_neg, ovv_inf_pos, ovv_inf_neg, nan_val, ovf_up, ovf_down, nan_above;
    tc__vi neg_code;  /* an unsigned format's code for a negative value that does not round to 0 */
#ifdef TC__AVX512VL
    /* for tc__v_narrow_lut: lut_n binades (0: the kernel does not apply),
       the fp32 bits every magnitude is clamped to and those Inf takes,
       M of binade E as E * lut_mul + lut_add (tc__v_lut_table) */
    int lut_n;
    tc__vi lut_clamp, lut_inf, lut_mul, lut_add;
#endif
} tc__vnarrow;

static tc__vi tc__v_mask(int on) { return TC__V_SET1(on ? -1 : 0); }

/* fp32 bits of 2^e; 0 where e is out of the normal range (the formats
   with fp32's exponent never use their scale). */
static int tc__pow2_bits(int e) { return e >= -126 && e <= 127 ? (e + 127) << 23 : 0; }

/* `values`: also the fields tc__v_round_small needs (fp32 values of codes).
   Inlined into each loop and every field assigned, with no memset: the
   compiler then keeps the fields in registers. Built in memory (a memset
   of its 864 bytes, then a copy for the loop) it cost 13-25 ns of every
   array call, 10-20% of a call on 2 Ki elements (MEASURED on the Zen 4 VM,
   docs/REFERENCE.md 1.6). */
static TC__ALWAYS_INLINE void tc__vnarrow_init(tc__vnarrow *k, tc__fmt f, int rounding, int values) {
    int mode = rounding & ~TC_SATFINITE, sat = (rounding & TC_SATFINITE) != 0 || (!f.has_inf && !f.has_nan);
    int bias = (1 << (f.ebits - 1)) - 1, emin = 1 - bias;
    k->sat = sat;
    k->shift = 23 - f.mbits;
    k->sign_shift = f.sign ? 32 - f.total : 32;
    k->is_signed = f.sign;
    k->pow2 = f.pow2;
    k->neg_code = TC__V_SET1(sat ? 0 : (int)f.nan_bits);
    k->small_path = f.ebits < 8;
    k->low_mask = TC__V_SET1((1 << k->shift) - 1);
    k->half = TC__V_SET1(1 << (k->shift - 1));
    k->rebias = TC__V_SET1((127 - bias) << f.mbits);
    k->min_normal = TC__V_SET1((emin + 127) << 23);
    k->scale = TC__V_SET1(tc__pow2_bits(f.mbits - emin));   /* quantum -> 1 */
    k->max_bits = TC__V_SET1((int)f.max_bits);
    k->overflow_bits = TC__V_SET1((int)(f.has_inf ? f.max_bits + 1 : f.nan_bits));
    k->nan_bits = TC__V_SET1((int)f.nan_bits);
    k->to_max_pos = tc__v_mask(sat || mode == TC_RZ || mode == TC_RD);
    k->to_max_neg = tc__v_mask(sat || mode == TC_RZ || mode == TC_RU);
    k->sat_mask = tc__v_mask(sat);
    k->magic = TC__V_SET1((emin - f.mbits + 23 + 127) << 23);
    k->min_code = TC__V_SET1(1 << f.mbits);
    k->half_sub = TC__V_SET1(tc__pow2_bits(emin - f.mbits - 1));
    k->rn_bias = TC__V_SET1((1 << (k->shift - 1)) - 1 - ((emin + 127) << 23));
    k->sign_bit = TC__V_SET1(f.sign ? 1 << (f.total - 1) : 0);
    {   /* the code an overflow gives: positive, negative, from Inf */
        uint32_t over = f.has_inf ? f.max_bits + 1 : f.nan_bits, sb = 1u << (f.total - 1);
        uint32_t ovp = sat || mode == TC_RZ || mode == TC_RD ? f.max_bits : over;
        uint32_t ovn = sat || mode == TC_RZ || mode == TC_RU ? f.max_bits : over;
        uint32_t ovi = sat ? f.max_bits : over, max_val_bits;
        int e_o;
        k->ov_pos = TC__V_SET1((int)ovp);
        k->ov_neg = TC__V_SET1((int)ovn);
        k->ov_inf = TC__V_SET1((int)ovi);
#ifdef TC__AVX512VL
        k->lut_n = 0;
        k->lut_clamp = k->lut_inf = k->lut_mul = k->lut_add = TC__V_SET1(0);
        if (!values && f.ebits < 8) {
            /* tc__v_narrow_lut: binades E (fp32's field) from the smallest
               normal's to that of code `cl` (the largest finite with
               satfinite, else the overflow code) */
            uint32_t cl = sat ? f.max_bits : over;
            uint32_t cl_bits = ((cl >> f.mbits) - (uint32_t)bias + 127u) << 23 | (cl & ((1u << f.mbits) - 1u)) << k->shift;
            int e_lo = emin + 127, n = (int)(cl_bits >> 23) - e_lo + 1;
            if ((int)(cl_bits >> 23) + k->shift <= 254 && n <= 32) {
                /* M of binade E: (E + shift) << 23 | (E - 128 + bias) << mbits */
                k->lut_n = n;
                k->lut_clamp = TC__V_SET1((int)(sat ? cl_bits : cl_bits - 1u));
                k->lut_inf = TC__V_SET1((int)cl_bits);
                k->lut_mul = TC__V_SET1((1 << 23) + (1 << f.mbits));
                k->lut_add = TC__V_SET1((int)((uint32_t)k->shift << 23) - ((128 - bias) << f.mbits));
            }
        }
#endif
        if (!values) {
            k->max_val = k->ovv_pos = k->ovv_neg = k->ovv_inf_pos = k->ovv_inf_neg = k->nan_val = TC__V_SET1(0);
            k->ovf_up = k->ovf_down = k->nan_above = TC__V_SET1(0);
            return;
        }
        max_val_bits = tc__bits(tc__widen(f, f.max_bits));
        k->max_val = TC__V_SET1((int)max_val_bits);
        k->ovv_pos = TC__V_SET1((int)tc__bits(tc__widen(f, ovp)));
        k->ovv_neg = TC__V_SET1((int)tc__bits(tc__widen(f, ovn | sb)));
        k->ovv_inf_pos = TC__V_SET1((int)tc__bits(tc__widen(f, ovi)));
        k->ovv_inf_neg = TC__V_SET1((int)tc__bits(tc__widen(f, ovi | sb)));
        k->nan_val = TC__V_SET1((int)tc__bits(tc__widen(f, f.nan_bits)));   /* FP4/FP6: +max */
        e_o = (int)(max_val_bits >> 23) + 1;   /* fp32's exponent field of that power of two (at least 130, FP4's 8) */
        k->ovf_up = TC__V_SET1((382 - e_o) << 23);
        k->ovf_down = TC__V_SET1((e_o - 128) << 23);
        k->nan_above = f.has_inf ? TC__V_SET1(0x7F800000) : k->max_val;
    }
}

/* An unsigned format (ue4m3) has no code for a negative value: one that
   rounds to zero gives 0, any other (overflow and -Inf included) 0 with
   satfinite, else NaN, as tc__narrow_ex does. */
static TC__ALWAYS_INLINE tc__vi tc__v_unsigned(const tc__vnarrow *k, tc__vi neg, tc__vi enc) {
    if (k->is_signed) return enc;
    return tc__v_select(TC__V_ANDNOT(TC__V_EQ(enc, TC__V_SET1(0)), neg), k->neg_code, enc);
}

/* ue8m0 (powers of two, of |x|; tc__narrow_pow2): the code is fp32's
   exponent field, plus one where the mode rounds the 23 fraction bits up
   (RN: above half, or half and an odd code). fp32 subnormals: those in
   [2^-127, 2^-126) are code 0 with their bits below the leading one as the
   fraction (shifted up one); smaller ones are code 0 in every mode. With
   AVX-512VL, tc__v_pow2 instead. */
static TC__ALWAYS_INLINE tc__vi tc__v_narrow_pow2(const tc__vnarrow *k, tc__vi u, int mode) {
    tc__vi mag = TC__V_AND(u, TC__V_SET1(0x7FFFFFFF)), frac_mask = TC__V_SET1(0x7FFFFF), half = TC__V_SET1(0x400000);
    tc__vi code = TC__V_SRL(mag, 23), frac = TC__V_AND(mag, frac_mask), up;
    tc__vi sub_frac = tc__v_select(TC__V_GT(half, mag), TC__V_SET1(0), TC__V_AND(TC__V_ADD(mag, mag), frac_mask));
    frac = tc__v_select(TC__V_GT(TC__V_SET1(0x800000), mag), sub_frac, frac);
    switch (mode) {
    case TC_RU:  up = TC__V_ANDNOT(TC__V_EQ(frac, TC__V_SET1(0)), TC__V_SET1(-1)); break;
    case TC_RN:  up = TC__V_OR(TC__V_GT(frac, half), TC__V_AND(TC__V_EQ(frac, half), TC__V_SUB(TC__V_SET1(0), TC__V_AND(code, TC__V_SET1(1))))); break;
    case TC_RNA: up = TC__V_GT(frac, TC__V_SUB(half, TC__V_SET1(1))); break;
    default:     up = TC__V_SET1(0); break;
    }
    code = TC__V_SUB(code, up);
    code = tc__v_select(TC__V_GT(code, k->max_bits), tc__v_select(k->sat_mask, k->max_bits, k->nan_bits), code);
    return tc__v_select(TC__V_GT(mag, TC__V_SET1(0x7F800000)), k->nan_bits, code);
}

/* fp32 bits in, the format's encodings out (right-aligned in each lane).
   `mode` (without TC_SATFINITE) is a constant at every call, so that the
   compiler drops the other modes' work. */
static TC__ALWAYS_INLINE tc__vi tc__v_narrow(const tc__vnarrow *k, tc__vi u, int mode) {
    tc__vi zero = TC__V_SET1(0), exp_all = TC__V_SET1(0x7F800000);
    tc__vi mag = TC__V_AND(u, TC__V_SET1(0x7FFFFFFF)), neg = TC__V_SIGN(u);
    tc__vi keep = TC__V_SRL(mag, k->shift), rem = TC__V_AND(mag, k->low_mask), half = k->half;
    tc__vi odd, above, tie, inexact, up, enc, to_max;
    if (k->small_path) {   /* results below the format's smallest normal: by the float path */
        tc__vi small = TC__V_GT(k->min_normal, mag);
        tc__vi x = TC__V_FMUL(mag, k->scale);
        tc__vi t = TC__V_FTRUNC(x);
        keep = tc__v_select(small, t, TC__V_SUB(keep, k->rebias));
        rem = tc__v_select(small, TC__V_FSUB(x, TC__V_TOFLOAT(t)), rem);   /* the fraction, >= 0: its bits order like its values */
        half = tc__v_select(small, TC__V_SET1(0x3F000000), half);
    }
    odd = TC__V_SUB(zero, TC__V_AND(keep, TC__V_SET1(1)));
    above = TC__V_GT(rem, half);
    tie = TC__V_EQ(rem, half);
    inexact = TC__V_ANDNOT(TC__V_EQ(rem, zero), TC__V_SET1(-1));
    switch (mode) {
    case TC_RN:  up = TC__V_OR(above, TC__V_AND(tie, odd)); break;
    case TC_RNA: up = TC__V_OR(above, tie); break;
    case TC_RD:  up = TC__V_AND(inexact, neg); break;
    case TC_RU:  up = TC__V_ANDNOT(neg, inexact); break;
    default:     up = zero; break;
    }
    enc = TC__V_SUB(keep, up);
    to_max = tc__v_select(TC__V_EQ(mag, exp_all), k->sat_mask, tc__v_select(neg, k->to_max_neg, k->to_max_pos));
    enc = tc__v_select(TC__V_GT(enc, k->max_bits), tc__v_select(to_max, k->max_bits, k->overflow_bits), enc);
    enc = TC__V_OR(tc__v_unsigned(k, neg, enc), TC__V_SRL(TC__V_AND(u, TC__V_SET1((int)0x80000000u)), k->sign_shift));
    return tc__v_select(TC__V_GT(mag, exp_all), k->nan_bits, enc);
}

#ifdef __AVX2__
/* tc__v_narrow for the formats with fewer exponent bits than fp32 (FP8,
   fp16, FP6, FP4, ue4m3) in every mode, in half the lane operations: the method of
   tc__rn8_of extended to the directed modes, with its selects replaced by
   minimums. `nrm` is the code of a normal result: the mode's bias added to
   the fp32 bits less the smallest normal's, one shift, plus that normal's
   code M = 2^mbits. `sub` is the code of a subnormal
   result: one float add of the magic number (ulp = the format's smallest
   subnormal), carrying x's sign so that the FPU, whose rounding mode the
   caller has set to `mode` (tc__csr_set), rounds the signed value. RNA,
   which the FPU lacks, adds half a subnormal step first, both adds
   truncating (the caller sets RZ): a truncated sum lies on a grid finer
   than the step, so it reaches the next multiple exactly when the exact
   sum does.
   Why min(sub, nrm) (unsigned) is the right one: below the smallest
   normal, either the bias carries the sum to >= 0 and both give M (x
   rounds up to it), or the sum wraps and nrm >= 2^(31-shift) (the bits
   differ by < 2^30) exceeds any subnormal code; in the first normal binade
   both count the same quantum; in binade k >= 1 of the normals (codes
   (k+1)M..., y = x / its quantum in [M, 2M)), sub = R(2^k y) >= R(y + (2^k - 1)M) =
   R(y) + (2^k - 1)M >= R(y) + kM = nrm, R being monotonic and commuting
   with adding an even integer (ties to even or away included). Overflow: every
   overflow code here is max_bits or max_bits + 1 (fp16 and e5m2: Inf,
   e4m3: its NaN 0x7F), so one more minimum clamps to it; with satfinite
   (`sat`, a constant at each call) every overflow code is max_bits. */
static TC__ALWAYS_INLINE tc__vi tc__v_narrow_small(const tc__vnarrow *k, tc__vi u, int mode, int sat) {
    tc__vi inf = TC__V_SET1(0x7F800000), neg = TC__V_SIGN(u);
    tc__vi mag = TC__V_AND(u, TC__V_SET1(0x7FFFFFFF)), nrm, sub, enc, ov;
    if (mode == TC_RN || mode == TC_RZ)   /* symmetric: the magnitude's rounding is the value's */
        sub = _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(mag), _mm256_castsi256_ps(k->magic)));
    else if (mode == TC_RNA)
        sub = _mm256_castps_si256(_mm256_add_ps(_mm256_add_ps(_mm256_castsi256_ps(mag), _mm256_castsi256_ps(k->half_sub)),
                                                _mm256_castsi256_ps(k->magic)));
    else
        sub = TC__V_AND(_mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(u),
                        _mm256_castsi256_ps(TC__V_OR(k->magic, TC__V_ANDNOT(TC__V_SET1(0x7FFFFFFF), u))))), TC__V_SET1(0x7FFFFFFF));
    sub = TC__V_SUB(sub, k->magic);
    switch (mode) {
#ifdef TC__AVX512VL   /* the kept lsb by a test into a mask: no shift */
    case TC_RN: nrm = _mm256_mask_add_epi32(TC__V_ADD(mag, k->rn_bias), _mm256_test_epi32_mask(mag, TC__V_ADD(k->low_mask, TC__V_SET1(1))),
                                            mag, TC__V_ADD(k->rn_bias, TC__V_SET1(1))); break;
#else
    case TC_RN: nrm = TC__V_ADD(TC__V_ADD(mag, k->rn_bias), TC__V_AND(TC__V_SRL(mag, k->shift), TC__V_SET1(1))); break;
#endif
    case TC_RNA: nrm = TC__V_ADD(TC__V_SUB(mag, k->min_normal), k->half); break;
    case TC_RU: nrm = TC__V_ADD(TC__V_SUB(mag, k->min_normal), TC__V_ANDNOT(neg, k->low_mask)); break;
    case TC_RD: nrm = TC__V_ADD(TC__V_SUB(mag, k->min_normal), TC__V_AND(neg, k->low_mask)); break;
    default:    nrm = TC__V_SUB(mag, k->min_normal); break;
    }
    enc = _mm256_min_epu32(sub, TC__V_ADD(TC__V_SRL(nrm, k->shift), k->min_code));
    ov = mode == TC_RN || mode == TC_RNA || sat ? k->ov_inf : tc__v_select(TC__V_EQ(mag, inf), k->ov_inf, tc__v_select(neg, k->ov_neg, k->ov_pos));
#ifdef TC__AVX512VL
    {   /* NaN lanes (num clear) keep nan_bits through a masked minimum and a masked vpternlogd (enc | neg & sign_bit) */
        __mmask8 num = _mm256_cmple_epi32_mask(mag, inf);
        enc = tc__v_unsigned(k, _mm256_maskz_mov_epi32(num, neg), _mm256_mask_min_epi32(k->nan_bits, num, enc, ov));
        return _mm256_mask_ternarylogic_epi32(enc, num, neg, k->sign_bit, 0xF8);
    }
#else
    enc = TC__V_OR(tc__v_unsigned(k, neg, _mm256_min_epi32(enc, ov)), TC__V_AND(neg, k->sign_bit));
    return tc__v_select(TC__V_GT(mag, inf), k->nan_bits, enc);
#endif
}

/* tc_round_array's form of tc__v_narrow_small: the rounded value's fp32
   bits straight from the same two roundings, with no code in between.
   Subnormal results: (x + magic) - magic (the second step is exact).
   Normal results: the mode's bias added, the dropped bits cleared (the
   overflow codes' values in k already say whether satfinite was asked
   for). With AVX-512VL, tc__v_round_fast (16 lanes, every mode) instead. */
static TC__ALWAYS_INLINE tc__vi tc__v_round_small(const tc__vnarrow *k, tc__vi u, int mode) {
    tc__vi inf = TC__V_SET1(0x7F800000), abs_mask = TC__V_SET1(0x7FFFFFFF), neg;
    tc__vi mag = TC__V_AND(u, abs_mask), sgn, sub, nrm, r, ov;
    const int sym = mode == TC_RN || mode == TC_RZ || mode == TC_RNA;
    __m256 m, x;
    neg = TC__V_SIGN(u);
    sgn = TC__V_ANDNOT(abs_mask, u);
    m = _mm256_castsi256_ps(sym ? k->magic : TC__V_OR(k->magic, sgn));
    x = _mm256_castsi256_ps(sym ? mag : u);
    if (mode == TC_RNA) x = _mm256_add_ps(x, _mm256_castsi256_ps(k->half_sub));
    sub = _mm256_castps_si256(_mm256_sub_ps(_mm256_add_ps(x, m), m));
    switch (mode) {
    case TC_RN: nrm = TC__V_ADD(TC__V_ADD(mag, TC__V_SUB(k->half, TC__V_SET1(1))), TC__V_AND(TC__V_SRL(mag, k->shift), TC__V_SET1(1))); break;
    case TC_RNA: nrm = TC__V_ADD(mag, k->half); break;
    case TC_RU: nrm = TC__V_ADD(mag, TC__V_ANDNOT(neg, k->low_mask)); break;
    case TC_RD: nrm = TC__V_ADD(mag, TC__V_AND(neg, k->low_mask)); break;
    default:    nrm = mag; break;
    }
    ov = tc__v_select(neg, k->ovv_neg, k->ovv_pos);
    if (mode != TC_RN && mode != TC_RNA) ov = tc__v_select(TC__V_EQ(mag, inf), tc__v_select(neg, k->ovv_inf_neg, k->ovv_inf_pos), ov);
    r = tc__v_select(TC__V_GT(k->min_normal, mag), TC__V_AND(sub, abs_mask), TC__V_ANDNOT(k->low_mask, nrm));
    r = tc__v_select(TC__V_GT(r, k->max_val), ov, TC__V_OR(r, sgn));
    return tc__v_select(TC__V_GT(mag, inf), k->nan_val, r);
}

/* Four vectors of codes below 256 to 32 bytes in element order (the packs
   work within 128-bit halves; the permute undoes their interleave). */
static TC__ALWAYS_INLINE void tc__v_store8x4(uint8_t *p, tc__vi a, tc__vi b, tc__vi c, tc__vi d) {
    __m256i x = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
    _mm256_storeu_si256((__m256i *)(void *)p, _mm256_permutevar8x32_epi32(x, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
}

/* Two vectors of codes below 2^16 to 16 halves in element order. */
static TC__ALWAYS_INLINE __m256i tc__v_pack16x2(tc__vi a, tc__vi b) {
    return _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8);
}
static TC__ALWAYS_INLINE void tc__v_store16x2(uint16_t *p, tc__vi a, tc__vi b) {
    _mm256_storeu_si256((__m256i *)(void *)p, tc__v_pack16x2(a, b));
}

/* Asks for the `lines` cache lines of fp32 input TC__PREFETCH_AHEAD
   elements (8 KiB) past in[i], when they lie before in[e]. Without it the
   narrowing to a byte format ran at 0.65-0.76x of a copy of the same bytes
   at the DRAM size: its vector work (0.09 ns an element) and the memory's
   (0.17) add up instead of overlapping, as if the hardware prefetcher did
   not run far enough ahead. 1024 and 2048 elements ahead gave 0.96-1.02x,
   8192 0.85-0.91x; in AVX2 builds (8 lanes) the byte narrowing went from
   0.40-0.50x to 0.61-0.93x, fp16 RNA and bf16 from 0.68-0.75x to
   0.94-1.01x (MEASURED on the Intel Xeon VM, docs/REFERENCE.md 1.6, (u),
   (v)). A prefetch takes a load slot, not a vector unit. The loops of
   tc_round_array (4 bytes to 4, at memory speed without it) and fp16's
   F16C loop go without: in that loop's 3 operations a step the test cost
   10-15% at L1 and L2 for 0-4% at DRAM. */
#define TC__PREFETCH_AHEAD 2048
static TC__ALWAYS_INLINE void tc__prefetch_ahead(const float *in, size_t i, size_t e, int lines) {
    int l;
    if (e - i >= TC__PREFETCH_AHEAD + 16 * (size_t)lines)
        for (l = 0; l < lines; l++) _mm_prefetch((const char *)(const void *)(in + i + TC__PREFETCH_AHEAD + 16 * l), _MM_HINT_T0);
}

#ifdef TC__AVX512VL
/* Elements of `size` bytes before p's next `bound`-byte boundary (32 or
   64; 0 when p is not aligned to its element). A loop whose first step
   stores only these (through a mask) makes every later store of `bound`
   bytes stay within a cache line: MEASURED on the Zen 4 VM
   (docs/REFERENCE.md 1.6), 16-byte-aligned arrays against 64-byte-aligned
   ones cost up to a third of the GB/s of the fp32 -> fp32 rows at the L2
   size. */
static size_t tc__head(const void *p, size_t size, size_t bound) {
    uintptr_t a = (uintptr_t)p;
    return a % size ? 0 : (bound - a % bound) % bound / size;
}

/* The last e - i (< 8) elements of an 8-lane loop as one masked step, in
   place of the scalar tail: up to 7 calls of the scalar encoder, which
   cost 25-45 ns per array call (MEASURED on the Zen 4 VM, 2048 elements,
   docs/REFERENCE.md 1.6), a fifth of an L1-sized call. A masked load reads
   nothing past the end: AVX-512 suppresses faults on masked-off lanes
   (Intel SDM vol. 1, 15.4.1, memory fault suppression). */
static TC__ALWAYS_INLINE __mmask8 tc__tail8(size_t i, size_t e) { return (__mmask8)((1u << (e - i)) - 1); }
static TC__ALWAYS_INLINE tc__vi tc__v_load32_masked(const float *p, __mmask8 m) { return _mm256_maskz_loadu_epi32(m, p); }
/* codes (bytes 1 or 2, truncated from the 32-bit lanes) or 32-bit lanes (4) */
static TC__ALWAYS_INLINE void tc__v_store_masked(void *p, int bytes, __mmask8 m, tc__vi v) {
    if (bytes == 1) _mm256_mask_cvtepi32_storeu_epi8(p, m, v);
    else if (bytes == 2) _mm256_mask_cvtepi32_storeu_epi16(p, m, v);
    else _mm256_mask_storeu_epi32(p, m, v);
}
#endif

#ifdef TC__AVX512VL
/* Narrowing to a format with fewer exponent bits than fp32 (FP8, FP6,
   FP4, ue4m3, and fp16 with satfinite, which F16C lacks) in every mode, by
   one FPU add: 8 vector operations a step in RN and RZ (10 in RD, RU and
   RNA, 2 more without satfinite in RD and RU and in RZ), against 13 in RN for
   tc__v_narrow_small. |x|, clamped, plus M = 2^(e + shift) + c 2^(e - mbits),
   e being x's exponent held at or above the smallest normal's and c the
   code of 2^e less 2^mbits (0 at the smallest normal), lies in M's binade,
   whose ulp is the format's quantum at x: the FPU (its mode set by the
   caller, tc__csr_set) rounds the sum as the format rounds x, ties to the
   even code (c is even when mbits > 0; with none, the sum's parity is the
   code's), and the sum's low bits are the code: subnormal, normal, or one
   binade up. M's bits are linear in fp32's exponent field E: E * lut_mul +
   lut_add; a format of up to 16 binades looks them up in a table indexed
   by E (vpermd on 16 lanes reads its low 4 bits), one of up to 32 (`big`:
   e5m2, fp16) in a table of 32 in two registers (vpermt2d reads 5 bits):
   +9-12% GB/s for e5m2 at L2 and LLC against E * lut_mul by vpmulld
   (MEASURED on the Zen 4 VM, docs/REFERENCE.md 1.6, (p)). The clamp
   makes every overflow the scalar encoder's code:
   with satfinite, the largest finite value; else the fp32 value just
   below the overflow code's (Inf, or e4m3's NaN), which rounds up to that
   code in RN, RU and RD away from zero, and down to max_bits towards zero;
   Inf itself then takes the overflow code's value (lut_inf; `inf_fix`).
   RD and RU add with x's sign on both terms, so that the FPU rounds the
   signed value. One vpternlogd then takes the code's bits from the sum
   and the sign from x; NaN lanes keep nan_bits, which for a signed format
   is also the mask of the magnitude's bits. `mode`, `inf_fix` and `big`
   are constants at each call. RNA (the FPU set to RZ) first adds half
   the quantum, 2^e 2^-(mbits + 1), by one FMA: truncated, |x| + q/2 gives
   |x| rounded to nearest with ties away; the first add truncates only
   below the quantum, and a sum that reaches 2^(e + 1) is a code M's
   binade still holds, as in RN. In 512-bit lanes it runs 10 operations
   for 16 elements against tc__v_narrow_small's 13 for 8: e2m1 RNA +37%
   GB/s at L1, +22% at L2, +20% at LLC, +4% at DRAM (MEASURED on the
   Zen 4 VM, docs/REFERENCE.md 1.6, (o)).
   |x| is clamped by one vrangeps (the smaller magnitude, its sign
   cleared), Inf found by vfpclassps and NaN by an ordered vcmpps on x:
   one operation fewer than an integer and, minimum and compare, and +3%
   to +12% GB/s at the L2 and LLC sizes in every mode (MEASURED on the
   Zen 4 VM, docs/REFERENCE.md 1.6, (j) and (m)). vrangeps gives a QNaN
   the clamp and an SNaN a QNaN, so the NaN lanes' mask comes from x.
   Its lanes are 512 bits wide, 16 elements a step: +6-42% GB/s at the
   L1 size, +5-22% at L2, +4-20% at LLC and +7-10% at DRAM against
   256-bit lanes, each step taking one front-end slot for twice the
   elements (MEASURED on the Zen 4 VM, docs/REFERENCE.md 1.6, (n)).
   ue4m3 (`uns`) is e4m3's magnitude with no sign bit: its code is taken
   as e4m3's, and a negative x whose code is not 0 then takes neg_code (0
   with satfinite, else NaN), as tc__v_unsigned; 3 operations more:
   0.13-0.17 ns an element against 0.22-0.30 in tc__v_narrow_small's
   256-bit lanes (MEASURED on the Intel Xeon VM, docs/REFERENCE.md 1.6,
   (q)). */
/* tc__vnarrow's fields for tc__v_narrow_lut, widened to 512 bits once per call. */
typedef struct { __m512i clamp, inf, table, table_hi, min_normal, nan_bits, exp_mask, neg_code; __m512 half_q; } tc__vlut;

static TC__ALWAYS_INLINE __m512i tc__v_narrow_lut(const tc__vlut *z, __m512i u, int mode, int inf_fix, int big, int sign_shift, int uns) {
    const __mmask16 all = 0xFFFF;   /* the maskz forms: see tc__v_widen_vbmi64 */
    const __m512 x = _mm512_castsi512_ps(u);
    const __mmask16 num = _mm512_cmp_ps_mask(x, x, _CMP_ORD_Q);
    __m512i xc = _mm512_castps_si512(_mm512_range_ps(x, _mm512_castsi512_ps(z->clamp), 0x0A)), e, idx, m, s;   /* min |.|, sign 0 */
    if (inf_fix) xc = _mm512_mask_mov_epi32(xc, _mm512_fpclass_ps_mask(x, 0x18), z->inf);   /* +-Inf */
    e = _mm512_maskz_max_epu32(all, xc, z->min_normal);
    idx = _mm512_maskz_srli_epi32(all, e, 23);
    if (mode == TC_RNA)   /* |x| + 2^e half_q, truncated: ties away from zero */
        xc = _mm512_castps_si512(_mm512_fmadd_ps(_mm512_castsi512_ps(_mm512_and_si512(e, z->exp_mask)), z->half_q, _mm512_castsi512_ps(xc)));
    m = big ? _mm512_maskz_permutex2var_epi32(all, z->table, idx, z->table_hi) : _mm512_maskz_permutexvar_epi32(all, idx, z->table);
    if (mode == TC_RD || mode == TC_RU) {
        const __m512i sign = _mm512_set1_epi32((int)0x80000000u);
        xc = _mm512_ternarylogic_epi32(xc, u, sign, 0xF8);   /* xc | u & sign */
        m = _mm512_ternarylogic_epi32(m, u, sign, 0xF8);
    }
    s = _mm512_castps_si512(_mm512_add_ps(_mm512_castsi512_ps(xc), _mm512_castsi512_ps(m)));
    s = _mm512_mask_ternarylogic_epi32(z->nan_bits, num, s, _mm512_maskz_srli_epi32(all, u, (unsigned)sign_shift), 0xCA);   /* nan_bits ? s : x >> sign_shift */
    if (uns)   /* ue4m3 (sign_shift 32: no sign bit): a negative x whose code is not 0 takes neg_code, as tc__v_unsigned */
        s = _mm512_mask_mov_epi32(s, _mm512_mask_test_epi32_mask(num & _mm512_movepi32_mask(u), s, s), z->neg_code);
    return s;
}

/* Entries `first` to `first` + 15 of tc__v_narrow_lut's table: entry j
   holds M of the binade E = j (mod 16, or 32 when `big`) at or above the
   smallest normal's. */
static TC__ALWAYS_INLINE __m512i tc__v_lut_table(const tc__vnarrow *k, int first, int big) {
    const __mmask16 all = 0xFFFF;
    const __m512i e_lo = _mm512_maskz_broadcast_i32x8(all, TC__V_SRL(k->min_normal, 23));
    const __m512i j = _mm512_add_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), _mm512_set1_epi32(first));
    const __m512i e = _mm512_add_epi32(_mm512_and_si512(_mm512_sub_epi32(j, e_lo), _mm512_set1_epi32(big ? 31 : 15)), e_lo);
    return _mm512_add_epi32(_mm512_mullo_epi32(e, _mm512_maskz_broadcast_i32x8(all, k->lut_mul)), _mm512_maskz_broadcast_i32x8(all, k->lut_add));
}

/* Four steps' codes (each below 2^8) to 64 bytes in element order: the
   packs saturate, which no code reaches, and interleave 128-bit lanes,
   which one permute puts back in order. */
static TC__ALWAYS_INLINE void tc__v_store_bytes64(uint8_t *p, __m512i a, __m512i b, __m512i c, __m512i d) {
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    _mm512_storeu_si512(p, _mm512_maskz_permutexvar_epi32((__mmask16)0xFFFF, order, _mm512_packus_epi16(_mm512_packus_epi32(a, b), _mm512_packus_epi32(c, d))));
}

/* ue8m0 on 16 lanes (tc__v_narrow_pow2's job): the mode's bias added to
   the bits carries into the exponent field exactly when the code rounds
   up: RU all 23 fraction bits, RN just under half plus the exponent's lsb
   (a test into a mask), RNA half. fp32 subnormals (a mask) take half
   those biases, their code 1 starting at 2^-126 and its midpoint 1.5 *
   2^-127. RU takes 7 vector operations and RN 9, against 14 and 18 in
   tc__v_narrow_pow2's select form. `ov`: the code above 254 (satfinite:
   254; else NaN's). */
static TC__ALWAYS_INLINE __m512i tc__v_pow2(__m512i u, __m512i ov, int mode) {
    const __m512i mag = _mm512_and_si512(u, _mm512_set1_epi32(0x7FFFFFFF));
    const __mmask16 sub = _mm512_cmpgt_epi32_mask(_mm512_set1_epi32(0x800000), mag);
    __m512i t;
    switch (mode) {
    case TC_RU:  t = _mm512_mask_add_epi32(_mm512_add_epi32(mag, _mm512_set1_epi32(0x7FFFFF)), sub, mag, _mm512_set1_epi32(0x3FFFFF)); break;
    case TC_RN:  t = _mm512_mask_add_epi32(_mm512_add_epi32(mag, _mm512_set1_epi32(0x3FFFFF)), _mm512_test_epi32_mask(mag, _mm512_set1_epi32(0x800000)),
                                           mag, _mm512_set1_epi32(0x400000));
                 t = _mm512_mask_add_epi32(t, sub, mag, _mm512_set1_epi32(0x1FFFFF)); break;
    case TC_RNA: t = _mm512_mask_add_epi32(_mm512_add_epi32(mag, _mm512_set1_epi32(0x400000)), sub, mag, _mm512_set1_epi32(0x200000)); break;
    default:     t = mag; break;
    }
    return _mm512_mask_min_epi32(_mm512_set1_epi32(0xFF), _mm512_cmple_epi32_mask(mag, _mm512_set1_epi32(0x7F800000)),
                                 _mm512_maskz_srli_epi32((__mmask16)0xFFFF, t, 23), ov);
}
/* ue8m0's code to its value's fp32 bits, as tc__widen: code << 23, but 0
   is 2^-127 (an fp32 subnormal) and 0xFF NaN. */
static TC__ALWAYS_INLINE __m512i tc__v_pow2_value(__m512i c) {
    const __m512i v = _mm512_mask_mov_epi32(_mm512_maskz_slli_epi32((__mmask16)0xFFFF, c, 23), _mm512_testn_epi32_mask(c, c), _mm512_set1_epi32(0x400000));
    return _mm512_mask_mov_epi32(v, _mm512_cmpeq_epi32_mask(c, _mm512_set1_epi32(0xFF)), _mm512_set1_epi32(0x7FFFFFFF));
}
/* tc__v_pow2 over [i, e) to codes (bytes 1) or, for tc_round_array,
   values (bytes 0): 64 elements a step, then steps of 16, the last one
   masked; returns e. */
static TC__ALWAYS_INLINE size_t tc__v_pow2_loop(const float *in, void *out, size_t i, size_t e, int mode, int sat, int bytes) {
    const __m512i ov = _mm512_set1_epi32(sat ? 0xFE : 0xFF);
    uint8_t *out8 = (uint8_t *)out;
    float *out32 = (float *)out;
    for (; i + 64 <= e; i += 64) {
        tc__prefetch_ahead(in, i, e, 4);
        const __m512i a = tc__v_pow2(_mm512_loadu_si512(in + i), ov, mode), b = tc__v_pow2(_mm512_loadu_si512(in + i + 16), ov, mode);
        const __m512i c = tc__v_pow2(_mm512_loadu_si512(in + i + 32), ov, mode), d = tc__v_pow2(_mm512_loadu_si512(in + i + 48), ov, mode);
        if (bytes) {
            tc__v_store_bytes64(out8 + i, a, b, c, d);
        } else {
            _mm512_storeu_si512(out32 + i, tc__v_pow2_value(a));
            _mm512_storeu_si512(out32 + i + 16, tc__v_pow2_value(b));
            _mm512_storeu_si512(out32 + i + 32, tc__v_pow2_value(c));
            _mm512_storeu_si512(out32 + i + 48, tc__v_pow2_value(d));
        }
    }
    for (; i < e; i += 16) {
        const __mmask16 m = e - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (e - i)) - 1u);
        const __m512i r = tc__v_pow2(_mm512_maskz_loadu_epi32(m, in + i), ov, mode);
        if (bytes) _mm512_mask_cvtepi32_storeu_epi8(out8 + i, m, r);
        else _mm512_mask_storeu_epi32(out32 + i, m, tc__v_pow2_value(r));
    }
    return e;
}

/* tc__v_narrow_lut over [i, e): 64 elements a step to bytes
   (tc__v_store_bytes64), 32 to halves (whose pack interleaves 128-bit
   lanes as well), then steps of 16 and one masked step; returns e. */
static TC__ALWAYS_INLINE size_t tc__v_lut_loop(const tc__vnarrow *k, const float *in, void *out, size_t i, size_t e,
                                               int bytes, int mode, int inf_fix, int big, int uns) {
    uint8_t *out8 = (uint8_t *)out;
    uint16_t *out16 = (uint16_t *)out;
    const __mmask16 all = 0xFFFF;   /* the maskz forms: see tc__v_widen_vbmi64 */
    tc__vlut z;
    z.clamp = _mm512_maskz_broadcast_i32x8(all, k->lut_clamp);
    z.inf = _mm512_maskz_broadcast_i32x8(all, k->lut_inf);
    z.table = tc__v_lut_table(k, 0, big);
    z.table_hi = big ? tc__v_lut_table(k, 16, big) : z.table;
    z.min_normal = _mm512_maskz_broadcast_i32x8(all, k->min_normal);
    z.nan_bits = _mm512_maskz_broadcast_i32x8(all, k->nan_bits);
    z.exp_mask = _mm512_set1_epi32(0x7F800000);
    z.neg_code = _mm512_maskz_broadcast_i32x8(all, k->neg_code);
    z.half_q = _mm512_set1_ps(1.0f / (float)(2 << (23 - k->shift)));   /* 2^-(mbits + 1) */
    if (bytes == 1) {
        for (; i + 64 <= e; i += 64) {
            tc__prefetch_ahead(in, i, e, 4);
            const __m512i a = tc__v_narrow_lut(&z, _mm512_loadu_si512(in + i), mode, inf_fix, big, k->sign_shift, uns);
            const __m512i b = tc__v_narrow_lut(&z, _mm512_loadu_si512(in + i + 16), mode, inf_fix, big, k->sign_shift, uns);
            const __m512i c = tc__v_narrow_lut(&z, _mm512_loadu_si512(in + i + 32), mode, inf_fix, big, k->sign_shift, uns);
            const __m512i d = tc__v_narrow_lut(&z, _mm512_loadu_si512(in + i + 48), mode, inf_fix, big, k->sign_shift, uns);
            tc__v_store_bytes64(out8 + i, a, b, c, d);
        }
    } else {
        const __m512i order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
        for (; i + 32 <= e; i += 32) {
            tc__prefetch_ahead(in, i, e, 2);
            const __m512i a = tc__v_narrow_lut(&z, _mm512_loadu_si512(in + i), mode, inf_fix, big, k->sign_shift, uns);
            const __m512i b = tc__v_narrow_lut(&z, _mm512_loadu_si512(in + i + 16), mode, inf_fix, big, k->sign_shift, uns);
            _mm512_storeu_si512(out16 + i, _mm512_maskz_permutexvar_epi64((__mmask8)0xFF, order, _mm512_packus_epi32(a, b)));
        }
    }
    for (; i < e; i += 16) {
        const __mmask16 m = e - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (e - i)) - 1u);
        const __m512i r = tc__v_narrow_lut(&z, _mm512_maskz_loadu_epi32(m, in + i), mode, inf_fix, big, k->sign_shift, uns);
        if (bytes == 1) _mm512_mask_cvtepi32_storeu_epi8(out8 + i, m, r);
        else _mm512_mask_cvtepi32_storeu_epi16(out16 + i, m, r);
    }
    return e;
}
#endif

#ifdef TC__AVX512VL
/* tc_round_array to a format with fewer exponent bits than fp32, every
   mode, by one rounding: x + M - M, M = 2^(e + shift), e the exponent of
   |x| held within the format's normal binades (up to the one above its
   largest finite), so that the sum's ulp is the format's quantum at x;
   the FPU rounds it in the mode (the caller has set MXCSR; RNA runs in
   RZ with half the quantum added first). RN, RNA and RZ round |x| (and
   put x's sign back); RD and RU round x itself, M taking x's sign, and
   the result takes x's sign from u, since RD's M - M is -0. With
   satfinite, and in RZ, RD and RU, x is first clamped to the largest
   finite value (vrangeps: the smaller magnitude; a QNaN gives the clamp,
   so NaN lanes are found on x), which bounds e and the result as well;
   without satfinite those three then give the overflow value (Inf with
   x's sign; e4m3's NaN) where x lies beyond the largest finite value on
   the side the mode rounds away from zero (RU above it, RD below its
   negative), and where x is Inf. RN and RNA without satfinite hold e within the
   binade above the largest finite value instead: in RN a result of
   2^(emax + 1) or more, times 2^k (ovf_up), overflows fp32 to Inf and
   times 2^-k (ovf_down) stays Inf, every other result comes back exact
   (a normal fp32 value, or 0: no multiply here sees a subnormal, which
   Zen 4 would take a microcode assist for); RNA (in RZ) gives any result
   above the largest finite value the overflow value. A format without
   Inf (e4m3, ue4m3) takes NaN for any of those, 480 included. An
   unsigned format (`uns`): a
   negative x that rounds to 0 gives +0, any other NaN (0 with
   satfinite). 9 vector operations in RN with satfinite, 12 without,
   against 17 for tc__v_round_small (8 lanes); the clamp and the patch
   in place of clamping the rounded result (after RN's multiplies in RD
   and RU): -12% ns an element (MEASURED on the Intel Xeon VM, docs/REFERENCE.md 1.6,
   (t)); the multiplies in place of
   a compare, a masked compare and a move: +3-8% GB/s for e5m2 RN at L2
   and LLC; the clamp in place of clamping e and the result: +4%; 512-bit
   lanes, 16 elements a step, with the stores aligned to 64 bytes: +8%
   at L1, +8-12% at L2 (MEASURED on the Zen 4 VM, docs/REFERENCE.md 1.6,
   (k), (m), (o)). `mode`, `sat` and `uns` are constants at each call. */
typedef struct { __m512i max_val, min_normal, e_cap, m_add, h_sub, ovf_up, ovf_down, nan_above, nan_val, over, over_sign; } tc__vround;

static TC__ALWAYS_INLINE __m512i tc__v_round_fast(const tc__vround *z, __m512i u, int mode, int sat, int uns) {
    const __mmask16 all = 0xFFFF;   /* the maskz forms: see tc__v_widen_vbmi64 */
    const __m512i sign = _mm512_set1_epi32((int)0x80000000u), inf = _mm512_set1_epi32(0x7F800000);
    const int signed_x = mode == TC_RD || mode == TC_RU;   /* rounds x, not |x| */
    const int clamp = sat || (mode != TC_RN && mode != TC_RNA);   /* RZ, RD, RU clamp as satfinite does, then patch overflows */
    const __m512 xf = _mm512_castsi512_ps(u);
    const __m512 maxf = _mm512_castsi512_ps(z->max_val);   /* vrangeps 6: the smaller magnitude, x's sign; 10: no sign */
    const __m512i xc = clamp ? _mm512_castps_si512(signed_x ? _mm512_range_ps(xf, maxf, 0x06) : _mm512_range_ps(xf, maxf, 0x0A))
                             : _mm512_and_si512(u, _mm512_set1_epi32(0x7FFFFFFF));
    __m512i e = _mm512_maskz_max_epu32(all, _mm512_and_si512(xc, inf), z->min_normal), r, m;
    __m512 x = _mm512_castsi512_ps(xc);
    __mmask16 nan, ovf = 0;
    if (!clamp) e = _mm512_maskz_min_epu32(all, e, z->e_cap);
    m = _mm512_add_epi32(e, z->m_add);
    if (signed_x) m = _mm512_ternarylogic_epi32(m, u, sign, 0xF8);   /* M | x & sign */
    if (mode == TC_RNA) x = _mm512_add_ps(x, _mm512_castsi512_ps(_mm512_sub_epi32(e, z->h_sub)));
    r = _mm512_castps_si512(_mm512_sub_ps(_mm512_add_ps(x, _mm512_castsi512_ps(m)), _mm512_castsi512_ps(m)));
    if (clamp) {
        nan = _mm512_cmp_ps_mask(xf, xf, _CMP_UNORD_Q);
        if (!sat) {   /* what rounds away from zero past the largest finite value, and Inf, overflow */
            switch (mode) {
            case TC_RU: ovf = _kor_mask16(_mm512_cmp_ps_mask(xf, maxf, _CMP_GT_OQ), _mm512_fpclass_ps_mask(xf, 0x10)); break;
            case TC_RD: ovf = _kor_mask16(_mm512_cmp_ps_mask(xf, _mm512_castsi512_ps(_mm512_or_si512(z->max_val, sign)), _CMP_LT_OQ),
                                          _mm512_fpclass_ps_mask(xf, 0x08)); break;
            default:    ovf = _mm512_fpclass_ps_mask(xf, 0x18); break;
            }
        }
    } else if (mode == TC_RN) {   /* overflow to Inf (see above); NaN lanes, and e4m3's overflow, then take the canonical NaN */
        r = _mm512_castps_si512(_mm512_mul_ps(_mm512_mul_ps(_mm512_castsi512_ps(r), _mm512_castsi512_ps(z->ovf_up)),
                                              _mm512_castsi512_ps(z->ovf_down)));
        nan = _mm512_cmpgt_epi32_mask(r, z->nan_above);
    } else {   /* RNA: NaN lanes, and e4m3's overflow; any other overflow takes Inf */
        nan = _mm512_cmpgt_epi32_mask(r, z->nan_above);
        r = _mm512_mask_mov_epi32(r, _mm512_cmpgt_epi32_mask(r, z->max_val), z->over);
    }
    if (uns) {   /* r's sign is x's or r is +0, except RD's -0: a test of the magnitude */
        const __mmask16 neg = _mm512_movepi32_mask(u);
        if (sat) r = _mm512_mask_mov_epi32(r, neg, _mm512_setzero_si512());
        else nan = _kor_mask16(_kor_mask16(nan, ovf), _mm512_mask_test_epi32_mask(neg, r, _mm512_set1_epi32(0x7FFFFFFF)));
        return _mm512_mask_mov_epi32(_mm512_and_si512(r, _mm512_set1_epi32(0x7FFFFFFF)), nan, z->nan_val);
    }
    r = _mm512_ternarylogic_epi32(r, u, sign, 0xD8);   /* r's magnitude, u's sign */
    if (clamp && !sat) r = _mm512_mask_mov_epi32(r, ovf, _mm512_ternarylogic_epi32(z->over, u, z->over_sign, 0xF8));   /* Inf, x's sign; e4m3: NaN */
    return _mm512_mask_mov_epi32(r, nan, z->nan_val);
}

/* tc__v_round_fast over [i, e): a first masked step up to out's 64-byte
   boundary (tc__head), 64 elements a turn, then steps of 16 and one
   masked step; returns e. */
static TC__ALWAYS_INLINE size_t tc__v_round_fast_loop(const tc__vnarrow *k, const float *in, float *out, size_t i, size_t e,
                                                      int mode, int sat, int uns) {
    const __mmask16 all = 0xFFFF;
    const size_t h = tc__head(out + i, 4, 64);
    tc__vround z;
    z.max_val = _mm512_maskz_broadcast_i32x8(all, k->max_val);
    z.min_normal = _mm512_maskz_broadcast_i32x8(all, k->min_normal);
    z.e_cap = _mm512_maskz_broadcast_i32x8(all, TC__V_ADD(TC__V_AND(k->max_val, TC__V_SET1(0x7F800000)), TC__V_SET1(1 << 23)));
    z.m_add = _mm512_set1_epi32(k->shift << 23);
    z.h_sub = _mm512_set1_epi32((24 - k->shift) << 23);
    z.ovf_up = _mm512_maskz_broadcast_i32x8(all, k->ovf_up);
    z.ovf_down = _mm512_maskz_broadcast_i32x8(all, k->ovf_down);
    z.nan_above = _mm512_maskz_broadcast_i32x8(all, k->nan_above);
    z.nan_val = _mm512_maskz_broadcast_i32x8(all, k->nan_val);
    z.over = _mm512_maskz_broadcast_i32x8(all, k->ovv_inf_pos);   /* without satfinite: Inf, or e4m3's NaN */
    z.over_sign = _mm512_maskz_broadcast_i32x8(all, _mm256_xor_si256(k->ovv_inf_pos, k->ovv_inf_neg));   /* the sign, where over has one */
    if (h && h < e - i) {
        const __mmask16 m = (__mmask16)((1u << h) - 1u);
        _mm512_mask_storeu_epi32(out + i, m, tc__v_round_fast(&z, _mm512_maskz_loadu_epi32(m, in + i), mode, sat, uns));
        i += h;
    }
    for (; i + 64 <= e; i += 64) {
        _mm512_storeu_si512(out + i, tc__v_round_fast(&z, _mm512_loadu_si512(in + i), mode, sat, uns));
        _mm512_storeu_si512(out + i + 16, tc__v_round_fast(&z, _mm512_loadu_si512(in + i + 16), mode, sat, uns));
        _mm512_storeu_si512(out + i + 32, tc__v_round_fast(&z, _mm512_loadu_si512(in + i + 32), mode, sat, uns));
        _mm512_storeu_si512(out + i + 48, tc__v_round_fast(&z, _mm512_loadu_si512(in + i + 48), mode, sat, uns));
    }
    for (; i < e; i += 16) {
        const __mmask16 m = e - i >= 16 ? all : (__mmask16)((1u << (e - i)) - 1u);
        _mm512_mask_storeu_epi32(out + i, m, tc__v_round_fast(&z, _mm512_maskz_loadu_epi32(m, in + i), mode, sat, uns));
    }
    return e;
}
#endif

/* The byte formats' kernel: tc__v_narrow_pow2 (ue8m0) or tc__v_narrow_small
   (`pow2`, like `mode` and `sat`, is a constant at each call). */
static TC__ALWAYS_INLINE tc__vi tc__v_narrow_byte(const tc__vnarrow *k, tc__vi u, int mode, int sat, int pow2) {
    return pow2 ? tc__v_narrow_pow2(k, u, mode) : tc__v_narrow_small(k, u, mode, sat);
}

/* tc__v_round_small over [i, e) in whole steps, four a turn (see "array
   conversions" above); returns where it stopped. */
static TC__ALWAYS_INLINE size_t tc__v_round_loop(const tc__vnarrow *k, const float *in, float *out, size_t i, size_t e, int mode) {
    for (; i + 32 <= e; i += 32) {
        TC__V_STORE32(out + i, tc__v_round_small(k, TC__V_LOAD32(in + i), mode));
        TC__V_STORE32(out + i + 8, tc__v_round_small(k, TC__V_LOAD32(in + i + 8), mode));
        TC__V_STORE32(out + i + 16, tc__v_round_small(k, TC__V_LOAD32(in + i + 16), mode));
        TC__V_STORE32(out + i + 24, tc__v_round_small(k, TC__V_LOAD32(in + i + 24), mode));
    }
    for (; i + TC__VW <= e; i += TC__VW) TC__V_STORE32(out + i, tc__v_round_small(k, TC__V_LOAD32(in + i), mode));
    return i;
}

/* tc__v_narrow_byte over 32 elements a step, stored by one pack-and-permute;
   returns where it stopped. */
static TC__ALWAYS_INLINE size_t tc__v_narrow_x32(const tc__vnarrow *k, const float *in, uint8_t *out,
                                                 size_t i, size_t e, int mode, int sat, int pow2) {
    for (; i + 32 <= e; i += 32) {
        tc__prefetch_ahead(in, i, e, 2);
        tc__v_store8x4(out + i, tc__v_narrow_byte(k, TC__V_LOAD32(in + i), mode, sat, pow2),
                       tc__v_narrow_byte(k, TC__V_LOAD32(in + i + 8), mode, sat, pow2),
                       tc__v_narrow_byte(k, TC__V_LOAD32(in + i + 16), mode, sat, pow2),
                       tc__v_narrow_byte(k, TC__V_LOAD32(in + i + 24), mode, sat, pow2));
    }
    return i;
}
#endif

/* bf16 and tf32, whose exponent is fp32's (fp32's subnormals are theirs),
   in every mode: add the mode's bias to the bits (RN: just under half an
   ulp plus the kept lsb; RNA: half; RU/RD: all the dropped bits when the
   sign rounds away from zero), drop `shift` bits. A carry into the exponent
   gives the next binade or Inf, as it should, and the sign rides on top.
   Satfinite (`sat`, a constant at each call) clamps the magnitude's code,
   Inf's included, to max_bits. */
static TC__ALWAYS_INLINE tc__vi tc__v_narrow_e8(const tc__vnarrow *k, tc__vi u, int mode, int sat) {
    tc__vi mag = TC__V_AND(u, TC__V_SET1(0x7FFFFFFF)), neg = TC__V_SIGN(u), bias, r;
    switch (mode) {
    case TC_RN:  bias = TC__V_ADD(TC__V_SUB(k->half, TC__V_SET1(1)), TC__V_AND(TC__V_SRL(u, k->shift), TC__V_SET1(1))); break;
    case TC_RNA: bias = k->half; break;
    case TC_RU:  bias = TC__V_ANDNOT(neg, k->low_mask); break;
    case TC_RD:  bias = TC__V_AND(neg, k->low_mask); break;
    default:     bias = TC__V_SET1(0); break;
    }
    if (sat) {
        r = TC__V_SRL(TC__V_ADD(mag, bias), k->shift);
        r = TC__V_OR(tc__v_select(TC__V_GT(r, k->max_bits), k->max_bits, r), TC__V_AND(neg, k->sign_bit));
    } else {
        r = TC__V_SRL(TC__V_ADD(u, bias), k->shift);
    }
    return tc__v_select(TC__V_GT(mag, TC__V_SET1(0x7F800000)), k->nan_bits, r);
}

/* tc__v_narrow_e8 as the rounded value's fp32 bits (tf32's array,
   tc_round_array to bf16 and tf32): the code shifted back. */
static TC__ALWAYS_INLINE tc__vi tc__v_e8_value(const tc__vnarrow *k, tc__vi u, int mode, int sat) {
    return TC__V_SLL(tc__v_narrow_e8(k, u, mode, sat), k->shift);
}

#ifdef TC__AVX512VL
/* With AVX-512VL: in[0, 32) (the lanes of m) to out as 16-bit codes (bytes
   2, bf16) or as the rounded values' fp32 bits. x's bits with the mode's
   bias added (tc__v_narrow_e8's; lanes picked by mask registers: RN the
   kept lsb by a test, RU and RD the sign); satfinite clamps the sum, a
   sign and a magnitude, by a signed minimum with maxv (the largest finite
   value's bits: positive lanes) and an unsigned one with maxv's negative
   (negative lanes); one masked vpternlogd clears the dropped bits and
   gives NaN lanes nan (the NaN's fp32 bits); the codes are the values'
   top halves, taken from both halves by one vpermt2w. half, low, maxv,
   nan: k's, widened. bf16 RU +71% GB/s at L1, +50% at L2 against steps
   of 8 (MEASURED on the Intel Xeon VM, docs/REFERENCE.md 1.6, (q), (r)). */
static TC__ALWAYS_INLINE void tc__v_e8_step32(const float *in, void *out, __mmask32 m, int mode, int sat, int bytes,
                                             __m512i half, __m512i low, __m512i maxv, __m512i nan) {
    const __mmask16 all = 0xFFFF;   /* the maskz forms: see tc__v_widen_vbmi64 */
    const __m512i one = _mm512_set1_epi32(1), maxv_neg = _mm512_or_si512(maxv, _mm512_set1_epi32((int)0x80000000u));
    const __m512i top = _mm512_setr_epi32(0x00030001, 0x00070005, 0x000B0009, 0x000F000D, 0x00130011, 0x00170015, 0x001B0019, 0x001F001D,
                                          0x00230021, 0x00270025, 0x002B0029, 0x002F002D, 0x00330031, 0x00370035, 0x003B0039, 0x003F003D);
    __m512i t[2];
    int h;
    for (h = 0; h < 2; h++) {
        const __m512i u = _mm512_maskz_loadu_epi32((__mmask16)(m >> 16 * h), in + 16 * h);
        const __mmask16 num = _mm512_cmp_ps_mask(_mm512_castsi512_ps(u), _mm512_castsi512_ps(u), _CMP_ORD_Q);
        __m512i b;
        switch (mode) {
        case TC_RN:  b = _mm512_mask_add_epi32(_mm512_add_epi32(u, _mm512_sub_epi32(half, one)), _mm512_test_epi32_mask(u, _mm512_add_epi32(low, one)), u, half); break;
        case TC_RNA: b = _mm512_add_epi32(u, half); break;
        case TC_RU:  b = _mm512_mask_add_epi32(u, _mm512_cmpgt_epi32_mask(u, _mm512_set1_epi32(-1)), u, low); break;
        case TC_RD:  b = _mm512_mask_add_epi32(u, _mm512_cmpgt_epi32_mask(_mm512_setzero_si512(), u), u, low); break;
        default:     b = u; break;
        }
        if (sat) b = _mm512_maskz_min_epu32(all, _mm512_maskz_min_epi32(all, b, maxv), maxv_neg);
        t[h] = _mm512_mask_ternarylogic_epi32(nan, num, b, low, 0x44);   /* b & ~low */
    }
    if (bytes == 2) {
        _mm512_mask_storeu_epi16(out, m, _mm512_permutex2var_epi16(t[0], top, t[1]));
    } else {
        _mm512_mask_storeu_epi32(out, (__mmask16)m, t[0]);
        _mm512_mask_storeu_epi32((float *)out + 16, (__mmask16)(m >> 16), t[1]);
    }
}
#endif

/* The same for widening fp16 and FP8 encodings to fp32 bits. */
typedef struct {
    int sign_shift, frac_shift, pow2, table;
    tc__vi sign_bit, mag_mask, rebias, min_normal, scale, inf_enc, nan_above;
    tc__vi mags;   /* table: the fp32 bits of the 8 magnitudes of a format with 3 magnitude bits (e2m1) */
} tc__vwiden;

static void tc__vwiden_init(tc__vwiden *k, tc__fmt f) {
    int bias = (1 << (f.ebits - 1)) - 1;
    int inf_enc = (int)(((1u << f.ebits) - 1u) << f.mbits);
    k->sign_shift = 32 - f.total;
    k->frac_shift = 23 - f.mbits;
    k->pow2 = f.pow2;
    k->table = 0;
    k->mags = TC__V_SET1(0);
#ifdef __AVX2__
    if (f.total - f.sign == 3) {   /* e2m1: one register holds every magnitude, looked up by vpermd */
        int m[8], i;
        for (i = 0; i < 8; i++) m[i] = (int)tc__bits(tc__widen(f, (uint32_t)i));
        k->mags = _mm256_setr_epi32(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]);
        k->table = 1;
    }
#endif
    k->sign_bit = TC__V_SET1(f.sign ? 1 << (f.total - 1) : 0);
    k->mag_mask = TC__V_SET1((1 << (f.total - f.sign)) - 1);
    k->rebias = TC__V_SET1((127 - bias) << 23);
    k->min_normal = TC__V_SET1(1 << f.mbits);
    k->scale = TC__V_SET1(tc__pow2_bits(1 - bias - f.mbits));   /* one subnormal step */
    k->inf_enc = TC__V_SET1(f.has_inf ? inf_enc : -1);          /* e4m3: no Inf, so no lane matches */
    k->nan_above = TC__V_SET1(f.has_inf ? inf_enc : f.has_nan ? (int)f.nan_bits - 1 : 0x7FFFFFFF);   /* FP4/FP6: none */
}

static TC__ALWAYS_INLINE tc__vi tc__v_widen(const tc__vwiden *k, tc__vi v) {
    tc__vi mag = TC__V_AND(v, k->mag_mask);
#ifdef __AVX2__
    if (k->table) {   /* exact by construction: the entries are tc__widen's; vpermd reads only the index's low 3 bits */
        tc__vi m = _mm256_permutevar8x32_epi32(k->mags, v), s = TC__V_SLL(v, k->sign_shift), sign = TC__V_SLL(k->sign_bit, k->sign_shift);
#ifdef TC__AVX512VL
        return _mm256_ternarylogic_epi32(m, s, sign, 0xF8);   /* m | s & sign */
#else
        return TC__V_OR(m, TC__V_AND(s, sign));
#endif
    }
#endif
    if (k->pow2) {   /* ue8m0: code 0 is 2^-127, an fp32 subnormal; 0xFF NaN */
        tc__vi r = tc__v_select(TC__V_EQ(mag, TC__V_SET1(0)), TC__V_SET1(0x400000), TC__V_SLL(mag, 23));
        return tc__v_select(TC__V_EQ(mag, k->mag_mask), TC__V_SET1(0x7FFFFFFF), r);
    }
    tc__vi normal = TC__V_ADD(TC__V_SLL(mag, k->frac_shift), k->rebias);
    tc__vi subnormal = TC__V_FMUL(TC__V_TOFLOAT(mag), k->scale);
    tc__vi r = tc__v_select(TC__V_GT(k->min_normal, mag), subnormal, normal);
    r = tc__v_select(TC__V_EQ(mag, k->inf_enc), TC__V_SET1(0x7F800000), r);
    r = TC__V_OR(r, TC__V_SLL(TC__V_AND(v, k->sign_bit), k->sign_shift));
    return tc__v_select(TC__V_GT(mag, k->nan_above), TC__V_SET1(0x7FFFFFFF), r);
}
#endif

#if defined(TC__AVX2) && defined(TC__F16C)
/* Widening the byte formats whose exponent fits fp16's (FP8, FP6, ue4m3),
   16 codes a step: each code's fields shifted into fp16's (exponent on
   exponent, fraction at the top of fp16's, sign on sign) make an fp16 worth
   the value times 2^(bias - 15), the format's subnormals fp16's subnormals
   scaled alike; F16C's vcvtph2ps widens it exactly and a multiply by
   2^(15 - bias) (exact: no result is an fp32 subnormal) restores it. e5m2
   (bias 15) is fp16's top byte: its Inf and NaN are fp16's; NaN codes of
   every format give 0x7FFFFFFF, as tc__widen. Bits above the format's
   width are ignored. Narrowing the other way (fp32 to fp16 rounded to odd
   by VCVTPS2PH rounding down and up, the odd one of the two, then 16-bit
   lanes; exact by S. Boldo and G. Melquiond, IEEE Trans. Computers 57(4),
   2008, as fp16 keeps p + 2 bits or more) passed test_formats_vec but was
   slower than tc__v_narrow_small on Zen 4: more operations per element
   even on normal inputs, and fp32 subnormals in the scaling and in
   VCVTPS2PH take microcode assists there (docs/REFERENCE.md 1.6), so it is
   not used. */
typedef struct {
    __m128i shift, sign_shift;
    __m256i mag_mask, sign16, nan_above;
    __m256 scale, qnan;
} tc__vwiden16;

static TC__ALWAYS_INLINE tc__vwiden16 tc__vwiden16_init(tc__fmt f) {
    const int bias = (1 << (f.ebits - 1)) - 1;
    const uint32_t inf_enc = ((1u << f.ebits) - 1u) << f.mbits;
    tc__vwiden16 k;
    k.shift = _mm_cvtsi32_si128(10 - f.mbits);
    k.sign_shift = _mm_cvtsi32_si128(16 - f.total);
    k.mag_mask = _mm256_set1_epi16((short)((1 << (f.total - f.sign)) - 1));
    k.sign16 = _mm256_set1_epi16((short)(f.sign ? 0x8000 : 0));   /* fp16's sign bit, where the code's lands */
    k.nan_above = _mm256_set1_epi16((short)(f.has_inf ? inf_enc : f.has_nan ? f.nan_bits - 1 : 0x7FFF));
    k.scale = _mm256_castsi256_ps(_mm256_set1_epi32(tc__pow2_bits(15 - bias)));
    k.qnan = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
    return k;
}

/* 16 codes in 16-bit lanes to their 16 fp32 values, in r[0] and r[1]. */
static TC__ALWAYS_INLINE void tc__v_widen16(const tc__vwiden16 *k, __m256i c, __m256 r[2]) {
    __m256i mag = _mm256_and_si256(c, k->mag_mask);
#ifdef TC__AVX512VL   /* vpternlogd merges the fields; the non-NaN lanes as a mask make the scaling a masked multiply */
    __m256i h = _mm256_ternarylogic_epi32(_mm256_sll_epi16(mag, k->shift), _mm256_sll_epi16(c, k->sign_shift), k->sign16, 0xF8);
    __mmask16 num = _mm256_cmple_epi16_mask(mag, k->nan_above);
    r[0] = _mm256_mask_mul_ps(k->qnan, (__mmask8)num, _mm256_cvtph_ps(_mm256_castsi256_si128(h)), k->scale);
    r[1] = _mm256_mask_mul_ps(k->qnan, (__mmask8)(num >> 8), _mm256_cvtph_ps(_mm256_extracti128_si256(h, 1)), k->scale);
#else
    __m256i nan = _mm256_cmpgt_epi16(mag, k->nan_above);
    __m256i h = _mm256_or_si256(_mm256_sll_epi16(mag, k->shift), _mm256_and_si256(_mm256_sll_epi16(c, k->sign_shift), k->sign16));
    __m256 lo = _mm256_mul_ps(_mm256_cvtph_ps(_mm256_castsi256_si128(h)), k->scale);
    __m256 hi = _mm256_mul_ps(_mm256_cvtph_ps(_mm256_extracti128_si256(h, 1)), k->scale);
    r[0] = _mm256_blendv_ps(lo, k->qnan, _mm256_castsi256_ps(_mm256_cvtepi16_epi32(_mm256_castsi256_si128(nan))));
    r[1] = _mm256_blendv_ps(hi, k->qnan, _mm256_castsi256_ps(_mm256_cvtepi16_epi32(_mm256_extracti128_si256(nan, 1))));
#endif
}

static TC__ALWAYS_INLINE size_t tc__v_widen_f16(tc__fmt f, const uint8_t *in, float *out, size_t i, size_t e) {
    const tc__vwiden16 k = tc__vwiden16_init(f);
    __m256 r[2];
    for (; i + 16 <= e; i += 16) {
        tc__v_widen16(&k, _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)(in + i))), r);
        _mm256_storeu_ps(out + i, r[0]);
        _mm256_storeu_ps(out + i + 8, r[1]);
    }
#ifdef TC__AVX512VL
    if (i < e) {   /* the last codes as one masked step (tc__tail8) */
        const __mmask16 m = (__mmask16)((1u << (e - i)) - 1);
        tc__v_widen16(&k, _mm256_cvtepu8_epi16(_mm_maskz_loadu_epi8(m, in + i)), r);
        _mm256_mask_storeu_ps(out + i, (__mmask8)m, r[0]);
        _mm256_mask_storeu_ps(out + i + 8, (__mmask8)(m >> 8), r[1]);
        i = e;
    }
#endif
    return i;
}

#ifdef TC__AVX512VBMI
/* Widening every byte format but ue8m0 by table, 64 codes a step, for
   arrays of 512 codes or more (MEASURED on the Zen 4 VM, docs/REFERENCE.md 1.6:
   below that tc__v_widen_f16 is quicker, even with the table cached). Every value of these formats (3 fraction bits or fewer,
   exponents within fp32's normal range) is an fp32 whose low 16 bits are
   zero and whose byte 2 has its low 4 bits clear; NaN is 0x7FFFFFFF. The
   table is tc__v_widen16's answer for codes 0-127 (exact by
   construction), cut into two byte planes of 128 entries, fp32's byte 3
   and byte 2; vpermi2b (VBMI) looks a byte up in two registers by the
   code's low 7 bits. A signed 8-bit format's sign (bit 7) is OR'd into
   byte 3; narrower formats carry their sign in the index, and bits above
   the width are ignored as tc__widen does. NaN lanes, known by byte 2's
   low bit, get a low half of 0xFFFF and lose that sign. The unpacks work
   within 128-bit lanes: a dword transpose of the codes first makes their
   output land in element order. */
/* 64 codes (`codes`, as loaded) to 64 fp32 bits in four registers (tc__v_widen_vbmi). */
static TC__ALWAYS_INLINE void tc__v_widen_vbmi64(const __m512i *plane, __m512i sign, __m512i perm, __m512i codes, __m512i d[4]) {
    /* maskz (here and in the table's build): g++ 12 -O2 warns
       (maybe-uninitialized) on the plain forms' undefined source */
    __m512i c = _mm512_maskz_permutexvar_epi32((__mmask16)0xFFFF, perm, codes);
    __m512i hi = _mm512_ternarylogic_epi32(_mm512_permutex2var_epi8(plane[0], c, plane[1]), c, sign, 0xF8);   /* hi | c & sign */
    __m512i lo = _mm512_permutex2var_epi8(plane[2], c, plane[3]);
    __m512i h[2], l[2];
    int q;
    h[0] = _mm512_unpacklo_epi8(lo, hi);
    h[1] = _mm512_unpackhi_epi8(lo, hi);
    for (q = 0; q < 2; q++) {   /* NaN: low word 0xFFFF, sign cleared */
        l[q] = _mm512_srai_epi16(_mm512_slli_epi16(h[q], 15), 15);
        h[q] = _mm512_ternarylogic_epi32(h[q], l[q], _mm512_set1_epi16((short)0x8000), 0x70);   /* h & ~(l & 0x8000) */
        d[2 * q] = _mm512_unpacklo_epi16(l[q], h[q]);
        d[2 * q + 1] = _mm512_unpackhi_epi16(l[q], h[q]);
    }
}

/* The table's two planes of each byte, for format f (plane: byte 3's two
   halves, then byte 2's). */
static void tc__vbmi_build(tc__fmt f, __m512i plane[4]) {
    /* Lane numbers, and from them 4 times the byte numbers. */
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m512i by4 = _mm512_add_epi32(_mm512_mullo_epi32(lane, _mm512_set1_epi32(0x10101010)), _mm512_set1_epi32(0x0C080400));   /* byte j: 4j mod 256; vpermi2b reads 7 bits */
    const tc__vwiden16 k = tc__vwiden16_init(f);
    __m512i t[8];
    __m256 r[2];
    int j, q, b;
    for (j = 0; j < 8; j++) {   /* codes 16j..16j+15 */
        tc__v_widen16(&k, _mm512_maskz_cvtepi32_epi16((__mmask16)0xFFFF, _mm512_add_epi32(lane, _mm512_set1_epi32(16 * j))), r);
        t[j] = _mm512_maskz_inserti64x4((__mmask8)0xFF, _mm512_castsi256_si512(_mm256_castps_si256(r[0])), _mm256_castps_si256(r[1]), 1);
    }
    for (b = 0; b < 2; b++) {
        __m512i idx = _mm512_add_epi8(by4, _mm512_set1_epi8((char)(3 - b)));
        for (q = 0; q < 2; q++)   /* entries 64q..64q+63: dwords 0-31 from t[4q], t[4q+1], 32-63 from the next two */
            plane[2 * b + q] = _mm512_mask_blend_epi8((__mmask64)0xFFFFFFFF00000000ull, _mm512_permutex2var_epi8(t[4 * q], idx, t[4 * q + 1]),
                                                 _mm512_permutex2var_epi8(t[4 * q + 2], idx, t[4 * q + 3]));
    }
}

/* The planes are built once per dtype and kept: building them took 30-40
   ns of a 2 Ki-code call's 160 (docs/REFERENCE.md 1.6). Concurrent callers
   (tc_convert_threads' slices, or the user's own threads) take no lock and
   never wait: a slot's state goes from 0 to 1 by one compare-and-swap, so
   exactly one caller writes its planes, and a caller reads them only after
   it has seen state 2, which that writer stores after the planes with
   release order and the reader loads with acquire order. Until then every
   caller builds its own copy on its stack. Without the GNU __atomic
   builtins (gcc, clang) the planes are built on every call. */
#if defined(__GNUC__) || defined(__clang__)
#define TC__VBMI_CACHE 1
static __m512i tc__vbmi_planes[TC_DTYPE_COUNT][4];
static int tc__vbmi_state[TC_DTYPE_COUNT];
#endif

static void tc__vbmi_planes_of(tc_dtype t, tc__fmt f, __m512i plane[4]) {
#ifdef TC__VBMI_CACHE
    int q, empty = 0;
    if (__atomic_load_n(&tc__vbmi_state[t], __ATOMIC_ACQUIRE) == 2) {
        for (q = 0; q < 4; q++) plane[q] = tc__vbmi_planes[t][q];
        return;
    }
    tc__vbmi_build(f, plane);
    if (__atomic_compare_exchange_n(&tc__vbmi_state[t], &empty, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
        for (q = 0; q < 4; q++) tc__vbmi_planes[t][q] = plane[q];
        __atomic_store_n(&tc__vbmi_state[t], 2, __ATOMIC_RELEASE);
    }
#else
    tc__vbmi_build(f, plane);
#endif
}

static size_t tc__v_widen_vbmi(tc_dtype t, tc__fmt f, const uint8_t *in, float *out, size_t i, size_t e) {
    /* the dword transpose of the codes (tc__v_widen_vbmi64): lane j takes dword 4(j mod 4) + j / 4 */
    const __m512i perm = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    __m512i plane[4], sign, d[4];
    int q;
    if (e - i < 512) return i;
    tc__vbmi_planes_of(t, f, plane);
    sign = _mm512_set1_epi8((char)(f.sign && f.total == 8 ? 0x80 : 0));   /* a sign the index does not carry */
    if (!((uintptr_t)(out + i) & 3)) {   /* stores that cross no cache line: the first step stores up to a 64-byte boundary */
        size_t head = (64 - ((uintptr_t)(out + i) & 63)) % 64 / 4;
        if (head) {
            tc__v_widen_vbmi64(plane, sign, perm, _mm512_loadu_si512((const void *)(in + i)), d);
            _mm512_mask_storeu_epi32((void *)(out + i), (__mmask16)((1u << head) - 1), d[0]);
            i += head;
        }
    }
    for (; i + 64 <= e; i += 64) {
        tc__v_widen_vbmi64(plane, sign, perm, _mm512_loadu_si512((const void *)(in + i)), d);
        for (q = 0; q < 4; q++) _mm512_storeu_si512((void *)(out + i + 16 * q), d[q]);
    }
    if (i < e) {   /* the last codes as one masked step (see tc__tail8) */
        const __mmask64 m = ((__mmask64)1 << (e - i)) - 1;
        tc__v_widen_vbmi64(plane, sign, perm, _mm512_maskz_loadu_epi8(m, (const void *)(in + i)), d);
        for (q = 0; q < 4; q++) _mm512_mask_storeu_epi32((void *)(out + i + 16 * q), (__mmask16)(m >> (16 * q)), d[q]);
        i = e;
    }
    return i;
}
#endif
#endif

#if defined(TC__F16C)
/* fp16 by the CPU's converter, which rounds as MXCSR says (RN, RZ, RD or
   RU; no RNA, no satfinite) and, the exhaustive test shows, equals CUDA's
   but for NaN, where it keeps the payload: NaN lanes are patched to
   CUDA's 0x7FFF (narrowing) and 0x7FFFFFFF (widening, rounding). */
static TC__ALWAYS_INLINE __m256 tc__f16c_nan32(__m256 x, __m256 r) {
#ifdef TC__AVX512VL   /* the NaN lanes as a mask: one masked move patches them */
    return _mm256_mask_mov_ps(r, _mm256_cmp_ps_mask(x, x, _CMP_UNORD_Q), _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)));
#else
    return _mm256_blendv_ps(r, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)), _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
#endif
}
static TC__ALWAYS_INLINE __m256 tc__f16c_widen8(__m128i h) {
    __m256 x = _mm256_cvtph_ps(h);
    return _mm256_blendv_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)), _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}
static TC__ALWAYS_INLINE __m256 tc__f16c_round8(__m256 x) {
    return tc__f16c_nan32(x, _mm256_cvtph_ps(_mm256_cvtps_ph(x, _MM_FROUND_CUR_DIRECTION)));
}
#ifdef TC__AVX512VL   /* the 16-lane forms of tc__f16c_nan32, tc__f16c_widen8 and tc__f16c_round8 */
/* v's NaN lanes to 0x7FFFFFFF by one vfixupimmps in place of a compare
   and a masked move: it classes each lane of v (QNaN, SNaN, zero, one,
   -Inf, +Inf, negative, positive) and takes, by the table's 4 bits for
   that class, the first operand (0) or v itself (1). Under DAZ it would
   read a subnormal v as zero; none reaches it (v holds fp16 values,
   normal in fp32). vcvtph2ps is 2 operations for 16 elements, so the
   patch had been half the work: fp16 widening 0.63-0.67 -> 0.47-0.48 ns
   for 16 elements at the L1 size, whatever the data (MEASURED on the
   Intel Xeon VM, docs/REFERENCE.md 1.6, (w)). Skipping the patch in
   64-element turns with no NaN (two compares and a test) ran 0.40-0.45
   ns on data with none, 0.70-0.73 on the bench's, where most turns hold
   one. */
static TC__ALWAYS_INLINE __m512 tc__f16c_nan16(__m512 v) {
    return _mm512_maskz_fixupimm_ps((__mmask16)0xFFFF, _mm512_castsi512_ps(_mm512_set1_epi32(0x7FFFFFFF)), v, _mm512_set1_epi32(0x11111100), 0);
}
static TC__ALWAYS_INLINE __m512 tc__f16c_widen16(const uint16_t *h) {
    return tc__f16c_nan16(_mm512_maskz_cvtph_ps((__mmask16)0xFFFF, _mm256_loadu_si256((const __m256i *)(const void *)h)));
}
static TC__ALWAYS_INLINE __m512 tc__f16c_round16(__m512 x) {
    return tc__f16c_nan16(_mm512_maskz_cvtph_ps((__mmask16)0xFFFF, _mm512_maskz_cvtps_ph((__mmask16)0xFFFF, x, _MM_FROUND_CUR_DIRECTION)));
}
#endif
static TC__ALWAYS_INLINE __m128i tc__f16c_narrow8(__m256 x) {
    __m128i h = _mm256_cvtps_ph(x, _MM_FROUND_CUR_DIRECTION);
#ifdef TC__AVX512VL
    return _mm_mask_mov_epi16(h, _mm256_cmp_ps_mask(x, x, _CMP_UNORD_Q), _mm_set1_epi16(0x7FFF));
#else
    __m256i nan32 = _mm256_castps_si256(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    __m128i nan16 = _mm_packs_epi32(_mm256_castsi256_si128(nan32), _mm256_extractf128_si256(nan32, 1));
    return _mm_or_si128(_mm_and_si128(nan16, _mm_set1_epi16(0x7FFF)), _mm_andnot_si128(nan16, h));
#endif
}
#ifdef __AVX2__
/* 16 at a time, for one 32-byte store. */
static TC__ALWAYS_INLINE __m256i tc__f16c_narrow16(const float *in) {
#ifdef TC__AVX512VL   /* one 512-bit conversion, compare and move in place of two of each and a vinserti128: +96-101%
                         GB/s at L1, +45-58% at L2 (MEASURED on the Intel Xeon VM, docs/REFERENCE.md 1.6, (q)); the
                         patch by tc__f16c_nan16 on x, or by a conversion that writes only the lanes that are not
                         NaN, was slower at L2 or at DRAM ((w)) */
    const __m512 x = _mm512_loadu_ps(in);
    return _mm256_mask_mov_epi16(_mm512_maskz_cvtps_ph((__mmask16)0xFFFF, x, _MM_FROUND_CUR_DIRECTION), _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q), _mm256_set1_epi16(0x7FFF));
#else
    return _mm256_inserti128_si256(_mm256_castsi128_si256(tc__f16c_narrow8(_mm256_loadu_ps(in))), tc__f16c_narrow8(_mm256_loadu_ps(in + 8)), 1);
#endif
}
#endif
#endif

#ifdef TC__AVX2
/* 8 bf16 codes to their fp32 bits: a shift (NaN payloads kept, as CUDA's
   host conversion keeps them). */
static TC__ALWAYS_INLINE __m256i tc__bf16_widen8(__m128i h) { return _mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16); }
#endif
#ifdef TC__AVX512VL
static TC__ALWAYS_INLINE __m512i tc__bf16_widen16(__m256i h) {   /* the maskz forms: see tc__v_widen_vbmi64 */
    return _mm512_maskz_slli_epi32((__mmask16)0xFFFF, _mm512_maskz_cvtepu16_epi32((__mmask16)0xFFFF, h), 16);
}
#endif

/* One array conversion as data, so that tc__parallel_for can hand slices of
   it to threads. */
typedef enum { TC__CVT_NARROW, TC__CVT_WIDEN, TC__CVT_ROUND } tc__cvt_kind;
typedef struct {
    tc__cvt_kind kind;
    tc_dtype t;
    int rounding;
    const void *in;
    void *out;
} tc__cvt;

static int tc__dtype_bytes(tc_dtype t) { return t == TC_TF32 ? 4 : (tc__fmt_of(t).total + 7) / 8; }

#ifdef TC__SSE2
/* The vector kernels do every format in the five modes with or without
   satfinite; the FTZ flags (tc_encode_sr's world) take the scalar encoder. */
static int tc__cvt_vector_ok(const tc__cvt *c) { return !(c->rounding & (TC_FTZ | TC_FTZ_OUT)); }

/* tc__v_narrow_e8 over an array: 16-bit codes (bf16), or the rounded
   value's fp32 bits (tf32's array and tc_round_array, bytes 4 or 0). */
static TC__ALWAYS_INLINE size_t tc__v_e8_loop(const tc__vnarrow *k, const float *in, void *out, size_t i, size_t e,
                                              int mode, int sat, int bytes) {
#ifdef TC__AVX512VL
    {   /* tc__v_e8_step32: the first step up to out's 64-byte boundary (tc__head), the last masked */
        const size_t size = bytes == 2 ? 2 : 4;
        const __mmask32 all = 0xFFFFFFFFu;   /* the maskz forms: see tc__v_widen_vbmi64 */
        const __m512i half = _mm512_maskz_broadcast_i32x8((__mmask16)all, k->half), low = _mm512_maskz_broadcast_i32x8((__mmask16)all, k->low_mask);
        const __m512i maxv = _mm512_maskz_broadcast_i32x8((__mmask16)all, TC__V_SLL(k->max_bits, k->shift));
        const __m512i nan = _mm512_maskz_broadcast_i32x8((__mmask16)all, TC__V_SLL(k->nan_bits, k->shift));
        size_t n = tc__head((const char *)out + i * size, size, 64);
        if (n > e - i) n = e - i;
        if (n) tc__v_e8_step32(in + i, (char *)out + i * size, (__mmask32)((1u << n) - 1u), mode, sat, bytes, half, low, maxv, nan);
        for (i += n; i + 32 <= e; i += 32) {
            tc__prefetch_ahead(in, i, e, 2);
            tc__v_e8_step32(in + i, (char *)out + i * size, all, mode, sat, bytes, half, low, maxv, nan);
        }
        if (i < e) tc__v_e8_step32(in + i, (char *)out + i * size, (__mmask32)((1u << (e - i)) - 1u), mode, sat, bytes, half, low, maxv, nan);
        return e;
    }
#else
#ifdef __AVX2__
    if (bytes == 2) for (; i + 16 <= e; i += 16) {
        tc__prefetch_ahead(in, i, e, 1);
        tc__v_store16x2((uint16_t *)out + i, tc__v_narrow_e8(k, TC__V_LOAD32(in + i), mode, sat),
                        tc__v_narrow_e8(k, TC__V_LOAD32(in + i + 8), mode, sat));
    } else for (; i + 32 <= e; i += 32) {   /* four steps a turn (see "array conversions" above) */
        tc__prefetch_ahead(in, i, e, 2);
        TC__V_STORE32((float *)out + i, tc__v_e8_value(k, TC__V_LOAD32(in + i), mode, sat));
        TC__V_STORE32((float *)out + i + 8, tc__v_e8_value(k, TC__V_LOAD32(in + i + 8), mode, sat));
        TC__V_STORE32((float *)out + i + 16, tc__v_e8_value(k, TC__V_LOAD32(in + i + 16), mode, sat));
        TC__V_STORE32((float *)out + i + 24, tc__v_e8_value(k, TC__V_LOAD32(in + i + 24), mode, sat));
    }
#endif
    for (; i + TC__VW <= e; i += TC__VW) {
        if (bytes == 2) tc__v_store16((uint16_t *)out + i, tc__v_narrow_e8(k, TC__V_LOAD32(in + i), mode, sat));
        else TC__V_STORE32((float *)out + i, tc__v_e8_value(k, TC__V_LOAD32(in + i), mode, sat));
    }
    return i;
#endif
}

/* The narrowing and rounding loop for one rounding mode (a constant at
   each call, see tc__v_narrow); returns where the scalar tail starts. */
static TC__ALWAYS_INLINE size_t tc__v_narrow_loop(const tc__cvt *c, tc__fmt f, size_t i, size_t e, int mode) {
    /* Local, so that the stores below, which may alias anything (__m128i
       is a may_alias type), do not make the compiler reload every field. */
    tc__vnarrow k;
#ifndef __AVX2__
    tc__vwiden w;   /* tc_round_array's way back to fp32 (the AVX2 kernels give fp32 bits) */
#endif
    const float *in = (const float *)c->in;
    uint8_t *out8 = (uint8_t *)c->out;
    uint16_t *out16 = (uint16_t *)c->out;
    float *out32 = (float *)c->out;
    int bytes, sat;
    tc__vnarrow_init(&k, f, c->rounding, c->kind == TC__CVT_ROUND && f.ebits < 8);   /* tc__v_round_fast's or tc__v_round_small's fields (six scalar decodes, 7 ns) */
    bytes = c->kind == TC__CVT_ROUND ? 0 : tc__dtype_bytes(c->t);
    sat = k.sat;
    if (k.pow2) {
#ifdef TC__AVX512VL
        return sat ? tc__v_pow2_loop(in, c->out, i, e, mode, 1, bytes) : tc__v_pow2_loop(in, c->out, i, e, mode, 0, bytes);
#else
#ifdef __AVX2__
        i = tc__v_narrow_x32(&k, in, out8, i, e, mode, 0, 1);
#endif
        for (; i + TC__VW <= e; i += TC__VW) tc__v_store8(out8 + i, tc__v_narrow_pow2(&k, TC__V_LOAD32(in + i), mode));
        return i;
#endif
    }
    if (!k.small_path) return sat ? tc__v_e8_loop(&k, in, c->out, i, e, mode, 1, bytes) : tc__v_e8_loop(&k, in, c->out, i, e, mode, 0, bytes);
#ifdef __AVX2__
    {
#ifdef TC__AVX512VL
        const int lut = k.lut_n && bytes;
#else
        const int lut = 0;
#endif
        /* RNA: the FPU truncates (see tc__v_narrow_small); tc__v_narrow_lut's
           FMA reads as zero an fp32 subnormal |x|, which rounds to 0 in every
           format it serves either way, because an FMA with a subnormal
           input takes a microcode assist on Intel: e2m1 RNA ran 0.27 ns an
           element against 0.11 with such inputs made normal (MEASURED on the
           Intel Xeon VM, docs/REFERENCE.md 1.6, (q)). */
        const int fpu_mode = mode == TC_RNA ? TC_RZ | (lut ? TC__CSR_DAZ : 0) : mode;
        unsigned csr = tc__csr_set(fpu_mode);
#ifdef TC__AVX512VL
        if (lut) {
            const int inf_fix = !(mode == TC_RN || mode == TC_RNA || sat);
            if (!k.is_signed)   /* ue4m3: 15 binades */
                i = inf_fix ? tc__v_lut_loop(&k, in, c->out, i, e, bytes, mode, 1, 0, 1) : tc__v_lut_loop(&k, in, c->out, i, e, bytes, mode, 0, 0, 1);
            else if (!inf_fix)
                i = k.lut_n > 16 ? tc__v_lut_loop(&k, in, c->out, i, e, bytes, mode, 0, 1, 0) : tc__v_lut_loop(&k, in, c->out, i, e, bytes, mode, 0, 0, 0);
            else
                i = k.lut_n > 16 ? tc__v_lut_loop(&k, in, c->out, i, e, bytes, mode, 1, 1, 0) : tc__v_lut_loop(&k, in, c->out, i, e, bytes, mode, 1, 0, 0);
            tc__csr_restore(csr, fpu_mode);
            return i;
        }
        if (bytes == 0) {
            if (k.is_signed) i = sat ? tc__v_round_fast_loop(&k, in, out32, i, e, mode, 1, 0) : tc__v_round_fast_loop(&k, in, out32, i, e, mode, 0, 0);
            else i = sat ? tc__v_round_fast_loop(&k, in, out32, i, e, mode, 1, 1) : tc__v_round_fast_loop(&k, in, out32, i, e, mode, 0, 1);
            tc__csr_restore(csr, fpu_mode);
            return i;
        }
#endif
        if (bytes == 1) i = sat ? tc__v_narrow_x32(&k, in, out8, i, e, mode, 1, 0) : tc__v_narrow_x32(&k, in, out8, i, e, mode, 0, 0);
        if (bytes == 0) i = tc__v_round_loop(&k, in, out32, i, e, mode);   /* AVX2 (with AVX-512VL, tc__v_round_fast above) */
        if (bytes == 2) for (; i + 16 <= e; i += 16) {
            tc__prefetch_ahead(in, i, e, 1);
            tc__v_store16x2(out16 + i, tc__v_narrow_small(&k, TC__V_LOAD32(in + i), mode, sat),
                            tc__v_narrow_small(&k, TC__V_LOAD32(in + i + 8), mode, sat));
        }
        for (; i + TC__VW <= e; i += TC__VW) {
            tc__vi enc = tc__v_narrow_small(&k, TC__V_LOAD32(in + i), mode, sat);
            if (bytes == 1) tc__v_store8(out8 + i, enc);
            else tc__v_store16(out16 + i, enc);
        }
#ifdef TC__AVX512VL
        if (i < e) {
            const __mmask8 m = tc__tail8(i, e);
            const tc__vi u = tc__v_load32_masked(in + i, m);
            tc__v_store_masked(out8 + i * (size_t)bytes, bytes, m, tc__v_narrow_small(&k, u, mode, sat));
            i = e;
        }
#endif
        tc__csr_restore(csr, fpu_mode);
        return i;
    }
#else
    {   /* the float path of tc__v_narrow and tc__v_widen: RN with subnormals kept, whatever the caller's MXCSR */
        unsigned csr = tc__csr_set(TC_RN);
        if (c->kind == TC__CVT_ROUND) tc__vwiden_init(&w, f);
        for (; i + TC__VW <= e; i += TC__VW) {
            tc__vi u = TC__V_LOAD32(in + i);
            tc__vi enc = tc__v_narrow(&k, u, mode);
            switch (bytes) {
            case 1:  tc__v_store8(out8 + i, enc); break;
            case 2:  tc__v_store16(out16 + i, enc); break;
            default: TC__V_STORE32(out32 + i, tc__v_widen(&w, enc)); break;
            }
        }
        tc__csr_restore(csr, TC_RN);
        return i;
    }
#endif
}
#endif

#ifdef TC__SSE2
/* The largest value of an integer type as fp32 whatever MXCSR's mode:
   s32's 2^31 - 1 is 2^31, as its decode rounds it (a conversion under a
   caller's RZ or RD gave 2^31 - 128). The others are exact. */
static float tc__int_max_f32(int bits, int sgn) { return bits == 32 ? 0x1p31f : (float)tc__int_max(bits, sgn); }
#endif

#ifdef TC__AVX512VL
/* tc_round_array to an integer type (cvt.{rni,rzi,rmi,rpi}.sN.f32's
   value, tc__int_encode): x clamped to [lo, hi] (the bounds as fp32: 2^31
   for s32's 2^31 - 1, which its decode rounds to), then rounded to an
   integer by vrndscaleps in `mode` (RNA: truncated, plus one away from
   zero where the exact remainder is half or more); NaN and -0 give +0.
   max(lo, x) and min(hi, .) return x's NaN, so the last compare with 0
   finds both. 16 a step, the last one masked. */
static TC__ALWAYS_INLINE size_t tc__v_round_int_loop(const float *in, float *out, size_t i, size_t e, float lo, float hi, int mode) {
    const __mmask16 all = 0xFFFF;   /* the maskz forms: see tc__v_widen_vbmi64 */
    const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi), zero = _mm512_setzero_ps();
    for (; i < e; i += 16) {
        const __mmask16 m = e - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (e - i)) - 1u);
        const __m512 x = _mm512_maskz_min_ps(all, vhi, _mm512_maskz_max_ps(all, vlo, _mm512_maskz_loadu_ps(m, in + i)));
        __m512 r;
        switch (mode) {
        case TC_RN: r = _mm512_maskz_roundscale_ps(all, x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); break;
        case TC_RD: r = _mm512_maskz_roundscale_ps(all, x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); break;
        case TC_RU: r = _mm512_maskz_roundscale_ps(all, x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); break;
        case TC_RZ: r = _mm512_maskz_roundscale_ps(all, x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); break;
        default:
            r = _mm512_maskz_roundscale_ps(all, x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
            r = _mm512_mask_add_ps(r, _mm512_cmp_ps_mask(_mm512_abs_ps(_mm512_sub_ps(x, r)), _mm512_set1_ps(0.5f), _CMP_GE_OQ), r,
                                   _mm512_or_ps(_mm512_set1_ps(1.0f), _mm512_and_ps(x, _mm512_set1_ps(-0.0f))));
            break;
        }
        _mm512_mask_storeu_ps(out + i, m, _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(r, zero, _CMP_NEQ_OQ), r));
    }
    return e;
}
#elif defined(TC__SSE2)
/* The same without AVX-512, TC__VW lanes a step: a NaN lane reads as +0;
   |x| below 2^23 goes to int32 by cvtps2dq in MXCSR's mode (the caller
   sets it: RZ for RNA, which rounds |x| + 1/2 and puts x's sign back on
   a result that is not 0) and back, both exact; |x| of 2^23 or more (Inf
   too) is an integer already and stays (s32's clamp, 2^31, would overflow
   the conversion); then the clamp to [lo, hi]. No result is -0.
   s8 RN in an AVX2 build 1.3-1.5 -> 61 GB/s at L1 and L2 and at memory
   speed at DRAM; SSE2 alone 1.2-1.3 -> 31 GB/s, 0.9x at DRAM, against
   tc_round element by element (MEASURED on the Intel Xeon VM,
   docs/REFERENCE.md 1.6, (v)).
   Returns where the scalar tail starts. */
static TC__ALWAYS_INLINE size_t tc__v_round_int_loop(const float *in, float *out, size_t i, size_t e, float lo, float hi, int rna) {
    const tc__vi vlo = TC__V_SET1((int)tc__bits(lo)), vhi = TC__V_SET1((int)tc__bits(hi)), sign = TC__V_SET1((int)0x80000000u);
    for (; i + TC__VW <= e; i += TC__VW) {
        const tc__vi u = TC__V_LOAD32(in + i), mag = TC__V_AND(u, TC__V_SET1(0x7FFFFFFF));
        const tc__vi x = TC__V_ANDNOT(TC__V_GT(mag, TC__V_SET1(0x7F800000)), u);
        tc__vi r;
        if (rna) {
            const tc__vi t = TC__V_FROUND(TC__V_FADD(mag, TC__V_SET1(0x3F000000)));
            r = TC__V_OR(TC__V_TOFLOAT(t), TC__V_AND(TC__V_GT(t, TC__V_SET1(0)), TC__V_AND(u, sign)));
        } else {
            r = TC__V_TOFLOAT(TC__V_FROUND(x));
        }
        r = tc__v_select(TC__V_GT(TC__V_SET1(0x4B000000), mag), r, x);
        TC__V_STORE32(out + i, TC__V_FMIN(TC__V_FMAX(r, vlo), vhi));
    }
    return i;
}
#endif

/* tc_round_array's cases that no kernel rounds in one pass, which
   tc__cvt_range takes through codes: without AVX-512VL (no
   tc__v_round_fast) ue4m3 (tc_round, element by element, took 11-17 ns an
   element) and ue8m0 (no tc__v_pow2). */
static int tc__round_by_codes(const tc__cvt *c) {
#ifdef TC__AVX512VL
    (void)c;
    return 0;
#else
    return c->kind == TC__CVT_ROUND && (c->t == TC_UE4M3 || c->t == TC_UE8M0);
#endif
}

/* Elements [b, e) of the conversion. Slices start at multiples of 64, so
   a slice's vector loop sees the same alignment as a whole-array call. */
static void tc__cvt_range(void *ctx, size_t b, size_t e) {
    const tc__cvt *c = (const tc__cvt *)ctx;
    const tc__fmt f = tc__fmt_of(c->t);
    const int bytes = tc__dtype_bytes(c->t);
    const float *in32 = (const float *)c->in;
    float *outf32 = (float *)c->out;
    size_t i = b;
    if (tc__round_by_codes(c)) {
        /* tc_round is tc_decode(tc_encode), so this runs the narrowing's
           and the widening's vector loops a block at a time, through codes
           (a byte each) that stay in L1. 2048 a block, so that each pair
           of calls' set-up is a small part of the block's time; 512 for
           more than 64 Ki elements, which memory serves better in shorter
           turns of reads and writes: e4m3 RU through codes (as AVX-512
           builds took it until tc__v_round_fast served every mode) ran
           0.66x -> 0.80x of the copy at the DRAM size, 0.58x -> 0.52x at
           L2 (MEASURED on the Intel Xeon VM, docs/REFERENCE.md 1.6, (s)). */
        uint8_t code[2048];
        const size_t block = e - b > 65536 ? 512 : 2048;
        tc__cvt narrow = *c, widen = *c;
        narrow.kind = TC__CVT_NARROW;
        narrow.out = code;
        widen.kind = TC__CVT_WIDEN;
        widen.rounding = TC_RN;
        widen.in = code;
        while (i < e) {
            const size_t m = e - i < block ? e - i : block;
            narrow.in = in32 + i;
            widen.out = outf32 + i;
            tc__cvt_range(&narrow, 0, m);
            tc__cvt_range(&widen, 0, m);
            i += m;
        }
        return;
    }
    if (c->kind == TC__CVT_ROUND && f.total == 0) {   /* the integer types (tc__fmt_of gives them no fields) */
#ifdef TC__AVX512VL
        if (tc__cvt_vector_ok(c)) {
            int sgn, bits = tc__int_bits(c->t, &sgn);
            const float lo = (float)tc__int_min(bits, sgn), hi = tc__int_max_f32(bits, sgn);
            unsigned csr = tc__csr_set(TC_RN);   /* DAZ off: a subnormal x rounds up to 1 in RU */
            switch (c->rounding & ~TC_SATFINITE) {
            case TC_RN:  i = tc__v_round_int_loop(in32, outf32, i, e, lo, hi, TC_RN); break;
            case TC_RZ:  i = tc__v_round_int_loop(in32, outf32, i, e, lo, hi, TC_RZ); break;
            case TC_RD:  i = tc__v_round_int_loop(in32, outf32, i, e, lo, hi, TC_RD); break;
            case TC_RU:  i = tc__v_round_int_loop(in32, outf32, i, e, lo, hi, TC_RU); break;
            default:     i = tc__v_round_int_loop(in32, outf32, i, e, lo, hi, TC_RNA); break;
            }
            tc__csr_restore(csr, TC_RN);
        }
#elif defined(TC__SSE2)
        if (tc__cvt_vector_ok(c)) {
            int sgn, bits = tc__int_bits(c->t, &sgn);
            const float lo = (float)tc__int_min(bits, sgn), hi = tc__int_max_f32(bits, sgn);
            const int mode = c->rounding & ~TC_SATFINITE, rna = mode == TC_RNA;
            unsigned csr = tc__csr_set(rna ? TC_RZ : mode);
            i = rna ? tc__v_round_int_loop(in32, outf32, i, e, lo, hi, 1) : tc__v_round_int_loop(in32, outf32, i, e, lo, hi, 0);
            tc__csr_restore(csr, rna ? TC_RZ : mode);
        }
#endif
        for (; i < e; i++) outf32[i] = tc_round(c->t, in32[i], c->rounding);
        return;
    }
    if (c->kind == TC__CVT_WIDEN) {
        const uint8_t *in8 = (const uint8_t *)c->in;
        const uint16_t *in16 = (const uint16_t *)c->in;
        if (c->t == TC_BF16) {
#ifdef TC__AVX512VL   /* 16 a step from out's 64-byte boundary (tc__head), the last step masked: 0.55-0.60 -> 0.42-0.48 ns
                         for 16 elements at the L1 size against 8 a step from its 32-byte one (MEASURED on the
                         Intel Xeon VM, docs/REFERENCE.md 1.6, (w)) */
            if (i + 16 <= e) {
                size_t h = tc__head(outf32 + i, 4, 64);
                if (h) _mm512_mask_storeu_epi32(outf32 + i, (__mmask16)((1u << h) - 1), tc__bf16_widen16(_mm256_loadu_si256((const __m256i *)(const void *)(in16 + i))));
                i += h;
            }
            for (; i + 32 <= e; i += 32) {
                _mm512_storeu_si512(outf32 + i, tc__bf16_widen16(_mm256_loadu_si256((const __m256i *)(const void *)(in16 + i))));
                _mm512_storeu_si512(outf32 + i + 16, tc__bf16_widen16(_mm256_loadu_si256((const __m256i *)(const void *)(in16 + i + 16))));
            }
            for (; i < e; i += 16) {
                const __mmask16 m = e - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (e - i)) - 1u);
                _mm512_mask_storeu_epi32(outf32 + i, m, tc__bf16_widen16(_mm256_maskz_loadu_epi16(m, in16 + i)));
            }
#elif defined(TC__AVX2)   /* 8 a step, one 32-byte store (tc__bf16_widen8) */
            for (; i + 16 <= e; i += 16) {
                _mm256_storeu_si256((__m256i *)(void *)(outf32 + i), tc__bf16_widen8(_mm_loadu_si128((const __m128i *)(const void *)(in16 + i))));
                _mm256_storeu_si256((__m256i *)(void *)(outf32 + i + 8), tc__bf16_widen8(_mm_loadu_si128((const __m128i *)(const void *)(in16 + i + 8))));
            }
            for (; i + 8 <= e; i += 8) _mm256_storeu_si256((__m256i *)(void *)(outf32 + i), tc__bf16_widen8(_mm_loadu_si128((const __m128i *)(const void *)(in16 + i))));
#endif
#ifdef TC__SSE2
            for (; i + 8 <= e; i += 8) {
                __m128i h = _mm_loadu_si128((const __m128i *)(const void *)(in16 + i));
                _mm_storeu_si128((__m128i *)(void *)(outf32 + i), _mm_unpacklo_epi16(_mm_setzero_si128(), h));
                _mm_storeu_si128((__m128i *)(void *)(outf32 + i + 4), _mm_unpackhi_epi16(_mm_setzero_si128(), h));
            }
#endif
            for (; i < e; i++) outf32[i] = tc_bf16_to_f32(in16[i]);
            return;
        }
#if defined(TC__F16C)
        if (c->t == TC_FP16) {
            /* Two steps a turn: with one, the same loop read 0.58-0.85x at
               the L1 size from build to build, in the bench's earlier timing
               that the machine's state moved as much (docs/REFERENCE.md 1.6,
               (l)); no first step to out's 32-byte boundary: -14% at L1, +4%
               at L2 (the 256-bit loop, on the Zen 4 VM). */
#ifdef TC__AVX512VL   /* 512-bit lanes, as tc__f16c_narrow16, from out's 64-byte boundary (tc__head): +11% GB/s at L1 and
                         +41% at L2 against the same loop without that first step (MEASURED on the Intel Xeon VM,
                         docs/REFERENCE.md 1.6, (q)) */
            if (i + 16 <= e) {
                size_t h = tc__head(outf32 + i, 4, 64);
                if (h) _mm512_mask_storeu_ps(outf32 + i, (__mmask16)((1u << h) - 1), tc__f16c_widen16(in16 + i));
                i += h;
            }
            for (; i + 32 <= e; i += 32) {
                _mm512_storeu_ps(outf32 + i, tc__f16c_widen16(in16 + i));
                _mm512_storeu_ps(outf32 + i + 16, tc__f16c_widen16(in16 + i + 16));
            }
#endif
            for (; i + 16 <= e; i += 16) {
                _mm256_storeu_ps(outf32 + i, tc__f16c_widen8(_mm_loadu_si128((const __m128i *)(const void *)(in16 + i))));
                _mm256_storeu_ps(outf32 + i + 8, tc__f16c_widen8(_mm_loadu_si128((const __m128i *)(const void *)(in16 + i + 8))));
            }
            for (; i + 8 <= e; i += 8) _mm256_storeu_ps(outf32 + i, tc__f16c_widen8(_mm_loadu_si128((const __m128i *)(const void *)(in16 + i))));
#ifdef TC__AVX512VL
            if (i < e) _mm256_mask_storeu_ps(outf32 + i, tc__tail8(i, e), tc__f16c_widen8(_mm_maskz_loadu_epi16(tc__tail8(i, e), in16 + i))), i = e;
#endif
        }
#endif
#if defined(TC__AVX2) && defined(TC__F16C)
#ifdef TC__AVX512VBMI
        if (bytes == 1 && f.ebits <= 5 && !f.pow2) i = tc__v_widen_vbmi(c->t, f, in8, outf32, i, e);
#endif
        if (bytes == 1 && f.ebits <= 5 && !f.pow2 && f.total - f.sign != 3)   /* e2m1: tc__v_widen's table is quicker */
            i = tc__v_widen_f16(f, in8, outf32, i, e);
#endif
#ifdef TC__SSE2
        if (tc__cvt_vector_ok(c) && i < e) {
            tc__vwiden k;
            tc__vwiden_init(&k, f);
            for (; i + TC__VW <= e; i += TC__VW)
                TC__V_STORE32(outf32 + i, tc__v_widen(&k, bytes == 1 ? tc__v_load8(in8 + i) : TC__V_LOAD16(in16 + i)));
#ifdef TC__AVX512VL
            if (i < e) {   /* the last codes as one masked step (tc__tail8) */
                const __mmask8 m = tc__tail8(i, e);
                const tc__vi v = bytes == 1 ? _mm256_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, in8 + i)) : _mm256_cvtepu16_epi32(_mm_maskz_loadu_epi16(m, in16 + i));
                _mm256_mask_storeu_epi32(outf32 + i, m, tc__v_widen(&k, v));
                i = e;
            }
#endif
        }
#endif
        for (; i < e; i++) outf32[i] = tc_decode(c->t, bytes == 1 ? in8[i] : in16[i]);
        return;
    }
#if defined(TC__F16C)
    /* fp16 by the CPU's converter (tc__f16c_narrow8) in every mode it has;
       MXCSR is the thread's own and is restored at once. */
    if (c->t == TC_FP16 && c->rounding != TC_RNA && !(c->rounding & TC_SATFINITE) && tc__cvt_vector_ok(c) && i + 8 <= e) {
        const int narrow = c->kind == TC__CVT_NARROW;
        uint16_t *out16 = (uint16_t *)c->out;
        unsigned csr = tc__csr_set(c->rounding);
#ifdef TC__AVX512VL
        if (i + 16 <= e) {   /* a first step up to out's 32-byte boundary, or for tc_round_array's 64-byte stores its
                                64-byte one (tc__head): with 32, those stores ran 16% slower at L2 than 256-bit ones
                                (MEASURED on the Intel Xeon VM, docs/REFERENCE.md 1.6, (q)) */
            size_t h = narrow ? tc__head(out16 + i, 2, 32) : tc__head(outf32 + i, 4, 64);
            if (h && narrow) _mm256_mask_storeu_epi16(out16 + i, (__mmask16)((1u << h) - 1), tc__f16c_narrow16(in32 + i));
            else if (h) _mm512_mask_storeu_ps(outf32 + i, (__mmask16)((1u << h) - 1), tc__f16c_round16(_mm512_loadu_ps(in32 + i)));
            i += h;
        }
#endif
#ifdef __AVX2__
        if (narrow) for (; i + 16 <= e; i += 16) _mm256_storeu_si256((__m256i *)(void *)(out16 + i), tc__f16c_narrow16(in32 + i));
#ifdef TC__AVX512VL
        else for (; i + 32 <= e; i += 32) {   /* 512-bit lanes, as tc__f16c_narrow16 */
            _mm512_storeu_ps(outf32 + i, tc__f16c_round16(_mm512_loadu_ps(in32 + i)));
            _mm512_storeu_ps(outf32 + i + 16, tc__f16c_round16(_mm512_loadu_ps(in32 + i + 16)));
        }
#else
        else for (; i + 32 <= e; i += 32) {   /* four steps a turn (see "array conversions" above) */
            _mm256_storeu_ps(outf32 + i, tc__f16c_round8(_mm256_loadu_ps(in32 + i)));
            _mm256_storeu_ps(outf32 + i + 8, tc__f16c_round8(_mm256_loadu_ps(in32 + i + 8)));
            _mm256_storeu_ps(outf32 + i + 16, tc__f16c_round8(_mm256_loadu_ps(in32 + i + 16)));
            _mm256_storeu_ps(outf32 + i + 24, tc__f16c_round8(_mm256_loadu_ps(in32 + i + 24)));
        }
#endif
#endif
        for (; i + 8 <= e; i += 8) {
            if (narrow) _mm_storeu_si128((__m128i *)(void *)(out16 + i), tc__f16c_narrow8(_mm256_loadu_ps(in32 + i)));
            else _mm256_storeu_ps(outf32 + i, tc__f16c_round8(_mm256_loadu_ps(in32 + i)));
        }
#ifdef TC__AVX512VL
        if (i < e) {   /* the last elements as one masked step (tc__tail8) */
            const __mmask8 m = tc__tail8(i, e);
            const __m256 x = _mm256_maskz_loadu_ps(m, in32 + i);
            if (narrow) _mm_mask_storeu_epi16(out16 + i, m, tc__f16c_narrow8(x));
            else _mm256_mask_storeu_ps(outf32 + i, m, tc__f16c_round8(x));
            i = e;
        }
#endif
        tc__csr_restore(csr, c->rounding);
    }
#endif
#ifdef TC__SSE2
    if (tc__cvt_vector_ok(c) && i + TC__VW <= e) {   /* at least one whole step; shorter calls take the scalar tail */
        /* RNA last: with its loops placed between RN's and RZ's, gcc 12's
           layout ran the RZ rows 19-23% slower at the L1 size, the code
           unchanged (placement; docs/REFERENCE.md 1.6, (o)) */
        switch (c->rounding & ~TC_SATFINITE) {
        case TC_RN:  i = tc__v_narrow_loop(c, f, i, e, TC_RN); break;
        case TC_RZ:  i = tc__v_narrow_loop(c, f, i, e, TC_RZ); break;
        case TC_RD:  i = tc__v_narrow_loop(c, f, i, e, TC_RD); break;
        case TC_RU:  i = tc__v_narrow_loop(c, f, i, e, TC_RU); break;
        default:     i = tc__v_narrow_loop(c, f, i, e, TC_RNA); break;
        }
    }
#endif
    for (; i < e; i++) {   /* the tail, and the FTZ flags */
        uint32_t enc = tc__narrow(f, in32[i], c->rounding);
        if (c->kind == TC__CVT_ROUND || bytes == 4) outf32[i] = tc_decode(c->t, enc);
        else if (bytes == 2) ((uint16_t *)c->out)[i] = (uint16_t)enc;
        else ((uint8_t *)c->out)[i] = (uint8_t)enc;
    }
}

/* ---- opt-in threads (tc_convert_threads) ----
   Small and local on purpose: a range split into one contiguous slice per
   thread, the caller working the first. Elementwise work, so the result
   cannot depend on the split. */
#define TC__CVT_MAX_THREADS 64
static int tc__convert_threads_n = 1;

TCDEF tc_status tc_convert_threads(int n) {
    if (n < 1 || n > TC__CVT_MAX_THREADS) return TC_ERR_ARG;
#ifndef TC__PTHREADS
    if (n > 1) return TC_ERR_ARG;
#endif
    tc__convert_threads_n = n;
    return TC_OK;
}

#ifdef TC__PTHREADS
typedef struct { void (*fn)(void *, size_t, size_t); void *ctx; size_t b, e; } tc__slice;
static void *tc__slice_run(void *p) {
    tc__slice *s = (tc__slice *)p;
    s->fn(s->ctx, s->b, s->e);
    return NULL;
}
#endif

/* The one way the header uses threads (array conversions, GEMMs):
   fn(ctx, b, e) over [0, n) on up to `threads` threads, each slice a
   multiple of `grain` items (the last may be shorter). One thread, no
   TC_THREADS, or no memory for the bookkeeping: the caller runs it all. A
   thread that cannot be started has its slice run by the caller, so the
   work and its result never depend on how many threads ran. */
static void tc__parallel_for(int threads, size_t n, size_t grain, void (*fn)(void *, size_t, size_t), void *ctx) {
#ifdef TC__PTHREADS
    size_t per;
    int t, nt = threads;
    if (grain < 1) grain = 1;
    if ((size_t)nt > (n + grain - 1) / grain) nt = (int)((n + grain - 1) / grain);
    if (nt > 1) {
        tc__slice *s = (tc__slice *)TC_MALLOC((size_t)nt * sizeof *s);
        pthread_t *id = (pthread_t *)TC_MALLOC((size_t)nt * sizeof *id);
        unsigned char *started = (unsigned char *)TC_MALLOC((size_t)nt);
        if (s && id && started) {
            per = ((n + (size_t)nt - 1) / (size_t)nt + grain - 1) / grain * grain;
            for (t = 0; t < nt; t++) {
                s[t].fn = fn; s[t].ctx = ctx;
                s[t].b = per * (size_t)t < n ? per * (size_t)t : n;
                s[t].e = s[t].b + per < n ? s[t].b + per : n;
                started[t] = t > 0 && pthread_create(&id[t], NULL, tc__slice_run, &s[t]) == 0;
            }
            for (t = 0; t < nt; t++) if (!started[t]) fn(ctx, s[t].b, s[t].e);
            for (t = 1; t < nt; t++) if (started[t]) pthread_join(id[t], NULL);
        }
        TC_FREE(s); TC_FREE(id); TC_FREE(started);
        if (s && id && started) return;
    }
#endif
    (void)threads; (void)grain;
    fn(ctx, 0, n);
}

/* Below this many elements a thread costs more than it saves. */
#define TC__CVT_GRAIN ((size_t)1 << 16)

static tc_status tc__convert(tc__cvt_kind kind, tc_dtype t, int rounding, const void *in, void *out, size_t n) {
    tc__cvt c;
    if (n && (!in || !out)) return TC_ERR_NULL;
    if (kind != TC__CVT_WIDEN && !tc_rounding_is_valid(rounding)) return TC_ERR_ROUNDING;
    c.kind = kind; c.t = t; c.rounding = rounding; c.in = in; c.out = out;
    tc__parallel_for(tc__convert_threads_n, n, TC__CVT_GRAIN, tc__cvt_range, &c);
    return TC_OK;
}

TCDEF tc_status tc_bf16_from_f32_array(const float *in, uint16_t *out, size_t n, int rounding) { return tc__convert(TC__CVT_NARROW, TC_BF16, rounding, in, out, n); }
TCDEF tc_status tc_fp16_from_f32_array(const float *in, uint16_t *out, size_t n, int rounding) { return tc__convert(TC__CVT_NARROW, TC_FP16, rounding, in, out, n); }
TCDEF tc_status tc_tf32_from_f32_array(const float *in, float *out, size_t n, int rounding) { return tc__convert(TC__CVT_NARROW, TC_TF32, rounding, in, out, n); }
TCDEF tc_status tc_e4m3_from_f32_array(const float *in, uint8_t *out, size_t n, int rounding) { return tc__convert(TC__CVT_NARROW, TC_E4M3, rounding, in, out, n); }
TCDEF tc_status tc_e5m2_from_f32_array(const float *in, uint8_t *out, size_t n, int rounding) { return tc__convert(TC__CVT_NARROW, TC_E5M2, rounding, in, out, n); }
TCDEF tc_status tc_fp16_to_f32_array(const uint16_t *in, float *out, size_t n) { return tc__convert(TC__CVT_WIDEN, TC_FP16, TC_RN, in, out, n); }
TCDEF tc_status tc_bf16_to_f32_array(const uint16_t *in, float *out, size_t n) { return tc__convert(TC__CVT_WIDEN, TC_BF16, TC_RN, in, out, n); }
TCDEF tc_status tc_e4m3_to_f32_array(const uint8_t *in, float *out, size_t n) { return tc__convert(TC__CVT_WIDEN, TC_E4M3, TC_RN, in, out, n); }
TCDEF tc_status tc_e5m2_to_f32_array(const uint8_t *in, float *out, size_t n) { return tc__convert(TC__CVT_WIDEN, TC_E5M2, TC_RN, in, out, n); }

/* Round in place or out of place through a format, staying in fp32. */
TCDEF tc_status tc_round_array(tc_dtype t, const float *in, float *out, size_t n, int rounding) {
    if (n && (!in || !out)) return TC_ERR_NULL;
    if ((int)t < 0 || t >= TC_DTYPE_COUNT) return TC_ERR_DTYPE;
    if (!tc_rounding_is_valid(rounding)) return TC_ERR_ROUNDING;
    if (t == TC_FP32) {   /* tc_round(TC_FP32, x) is x, bits and all */
        if (n) memmove(out, in, n * sizeof *out);
        return TC_OK;
    }
    return tc__convert(TC__CVT_ROUND, t, rounding, in, out, n);
}

/* ---- 1b. small formats, custom formats, stochastic rounding, block scaling */

TC_HOST_DEVICE static int tc__flags_ok(int flags) { return (flags & ~(TC_SATFINITE | TC_FTZ | TC_FTZ_OUT)) == 0; }

TC_HOST_DEVICE TCDEF int tc_sr_bits(tc_dtype t) {
    switch (t) {
    case TC_FP16: return 13;
    case TC_BF16: case TC_E4M3: case TC_E5M2: case TC_E2M3: case TC_E3M2: return 16;
    case TC_E2M1: return 8;
    default: return 0;
    }
}

TC_HOST_DEVICE static uint32_t tc__encode_sr(tc__fmt f, float x, uint32_t rbits, int nbits, int flags) {
    if (nbits < 1 || nbits > 32 || !tc__flags_ok(flags) || f.pow2) return f.nan_bits;
    return tc__narrow_ex(f, x, TC__RS | flags, rbits, nbits);
}

TC_HOST_DEVICE TCDEF uint32_t tc_encode_sr(tc_dtype t, float x, uint32_t rbits, int nbits, int flags) {
    int sgn;
    if ((int)t < 0 || t >= TC_DTYPE_COUNT || tc__int_bits(t, &sgn)) return 0;   /* no cvt.rs to integers */
    if (t == TC_FP32) return tc__bits(x);   /* nothing is discarded */
    return tc__encode_sr(tc__fmt_of(t), x, rbits, nbits, flags);
}

/* The custom format as an encoder table entry, or 0 if it is invalid. */
static int tc__custom_fmt(const tc_custom_format *c, tc__fmt *f) {
    if (!c || c->exponent_bits < 1 || c->exponent_bits > 8 || c->mantissa_bits < 0 || c->mantissa_bits > 23) return 0;
    if ((c->specials != TC_SPECIALS_IEEE && c->specials != TC_SPECIALS_NAN && c->specials != TC_SPECIALS_NONE) ||
        (c->is_signed != 0 && c->is_signed != 1)) return 0;
    /* Non-IEEE specials give the all-ones exponent to finite values: with 8
       exponent bits those pass fp32's range. IEEE without a mantissa bit has
       no NaN code. */
    if (c->exponent_bits == 8 && c->specials != TC_SPECIALS_IEEE) return 0;
    if (c->specials == TC_SPECIALS_IEEE && c->mantissa_bits == 0) return 0;
    *f = tc__fmt_make(c->exponent_bits, c->mantissa_bits, (int)c->specials, c->is_signed);
    return f->max_bits > 0 && !(c->specials == TC_SPECIALS_IEEE && c->exponent_bits == 1);
}

TCDEF tc_status tc_custom_info(const tc_custom_format *c, tc_format *out) {
    tc__fmt f;
    int bias;
    if (!c || !out) return TC_ERR_NULL;
    if (!tc__custom_fmt(c, &f)) return TC_ERR_ARG;
    bias = (1 << (f.ebits - 1)) - 1;
    out->name = "custom";
    out->total_bits = f.total; out->exponent_bits = f.ebits; out->mantissa_bits = f.mbits; out->bias = bias;
    out->has_inf = f.has_inf; out->has_nan = f.has_nan; out->is_signed = f.sign;
    out->max_finite_bits = f.max_bits; out->nan_bits = f.nan_bits;
    out->max_finite = tc__widen(f, f.max_bits);
    out->min_normal = tc__widen(f, 1u << f.mbits);
    out->min_subnormal = tc__widen(f, 1u);
    return TC_OK;
}

TCDEF tc_status tc_custom_encode(const tc_custom_format *c, float x, int rounding, uint32_t *bits) {
    tc__fmt f;
    if (!c || !bits) return TC_ERR_NULL;
    if (!tc__custom_fmt(c, &f)) return TC_ERR_ARG;
    if (!tc_rounding_is_valid(rounding)) return TC_ERR_ROUNDING;
    *bits = tc__narrow(f, x, rounding);
    return TC_OK;
}

TCDEF tc_status tc_custom_decode(const tc_custom_format *c, uint32_t bits, float *out) {
    tc__fmt f;
    if (!c || !out) return TC_ERR_NULL;
    if (!tc__custom_fmt(c, &f)) return TC_ERR_ARG;
    if (f.total < 32 && (bits >> f.total) != 0) return TC_ERR_ARG;   /* not a code of this width */
    *out = tc__widen(f, bits);
    return TC_OK;
}

TCDEF tc_status tc_custom_round(const tc_custom_format *c, float x, int rounding, float *out) {
    uint32_t bits;
    tc_status st;
    if (!out) return TC_ERR_NULL;
    st = tc_custom_encode(c, x, rounding, &bits);
    if (st != TC_OK) return st;
    return tc_custom_decode(c, bits, out);
}

TCDEF tc_status tc_custom_encode_sr(const tc_custom_format *c, float x, uint32_t rbits, int nbits, int flags, uint32_t *bits) {
    tc__fmt f;
    if (!c || !bits) return TC_ERR_NULL;
    if (!tc__custom_fmt(c, &f) || nbits < 1 || nbits > 32) return TC_ERR_ARG;
    if (!tc__flags_ok(flags)) return TC_ERR_ROUNDING;
    *bits = tc__encode_sr(f, x, rbits, nbits, flags);
    return TC_OK;
}

static int tc__u8_dtype(tc_dtype t) {
    return t == TC_E4M3 || t == TC_E5M2 || t == TC_E2M1 || t == TC_E2M3 || t == TC_E3M2 || t == TC_UE8M0 || t == TC_UE4M3;
}

TCDEF tc_status tc_encode_u8_array(tc_dtype t, const float *in, uint8_t *out, size_t n, int rounding) {
    if (n && (!in || !out)) return TC_ERR_NULL;
    if ((int)t < 0 || t >= TC_DTYPE_COUNT || !tc__u8_dtype(t)) return TC_ERR_DTYPE;
    return tc__convert(TC__CVT_NARROW, t, rounding, in, out, n);
}

TCDEF tc_status tc_decode_u8_array(tc_dtype t, const uint8_t *in, float *out, size_t n) {
    if (n && (!in || !out)) return TC_ERR_NULL;
    if ((int)t < 0 || t >= TC_DTYPE_COUNT || !tc__u8_dtype(t)) return TC_ERR_DTYPE;
    return tc__convert(TC__CVT_WIDEN, t, TC_RN, in, out, n);   /* bits above the format's width are ignored */
}

/* ---- block scaling */

TCDEF const tc_block_info *tc_block_info_of(tc_block_kind k) {
    static const tc_block_info table[TC_BLOCK_KIND_COUNT] = {
        { "mxfp8.e4m3", TC_E4M3, TC_UE8M0, 32, 0 },
        { "mxfp8.e5m2", TC_E5M2, TC_UE8M0, 32, 0 },
        { "mxfp6.e2m3", TC_E2M3, TC_UE8M0, 32, 0 },
        { "mxfp6.e3m2", TC_E3M2, TC_UE8M0, 32, 0 },
        { "mxfp4",      TC_E2M1, TC_UE8M0, 32, 0 },
        { "nvfp4",      TC_E2M1, TC_UE4M3, 16, 1 },
    };
    if ((int)k < 0 || k >= TC_BLOCK_KIND_COUNT) return NULL;
    return &table[k];
}

/* floor(log2 |x|) of a finite non-zero float, subnormals included. */
static int tc__ilog2(float x) {
    uint32_t mag = tc__bits(x) & 0x7FFFFFFFu;
    int e = (int)(mag >> 23) - 127;
    if (mag < 0x00800000u) { e = -127; while (mag < 0x00400000u) { mag <<= 1; e--; } }
    return e;
}

static tc_status tc__block_args(tc_block_kind k, int rows, int K, const void *X, int ld, float tensor_scale,
                                const void *codes, const void *scales, const tc_block_info **info) {
    *info = tc_block_info_of(k);
    if (!X || !codes || !scales) return TC_ERR_NULL;
    if (!*info) return TC_ERR_ARG;
    if (rows < 1 || K < 1 || K % (*info)->block != 0 || ld < K) return TC_ERR_SHAPE;
    if ((size_t)rows > ((size_t)-1 / 4) / (size_t)ld) return TC_ERR_SIZE;
    if ((*info)->tensor_scale ? !(tensor_scale > 0 && tensor_scale <= 0x1.fffffep+127f) : tensor_scale != 1.0f) return TC_ERR_ARG;
    return TC_OK;
}

static tc_status tc__nvfp4_tensor_scale_in(int rows, int K, const float *X, int ld, float *s_enc) {
    float amax = 0, s;
    int r, c;
    if (!X || !s_enc) return TC_ERR_NULL;
    if (rows < 1 || K < 1 || ld < K) return TC_ERR_SHAPE;
    for (r = 0; r < rows; r++)
        for (c = 0; c < K; c++) {
            float a = fabsf(X[(size_t)r * (size_t)ld + (size_t)c]);
            if (!(a <= 0x1.fffffep+127f)) return TC_ERR_ARG;   /* NaN or Inf */
            if (a > amax) amax = a;
        }
    s = 448.0f * 6.0f / amax;
    if (s > 0x1.fffffep+127f) s = 0x1.fffffep+127f;
    *s_enc = (amax == 0.0f || s == 0.0f) ? 1.0f : s;
    return TC_OK;
}
TCDEF tc_status tc_nvfp4_tensor_scale(int rows, int K, const float *X, int ld, float *s_enc) { TC__IN_DEFAULT_FP(tc_status, tc__nvfp4_tensor_scale_in(rows, K, X, ld, s_enc)); }

static tc_status tc__block_quantize_in(tc_block_kind k, int rows, int K, const float *X, int ld, float tensor_scale,
                                       uint8_t *codes, uint8_t *scales, tc_block_stats *stats) {
    const tc_block_info *info;
    tc_status st = tc__block_args(k, rows, K, X, ld, tensor_scale, codes, scales, &info);
    int r, b, i, nb;
    tc__fmt ef;
    float emax_val;
    if (st != TC_OK) return st;
    ef = tc__fmt_of(info->elem);
    emax_val = tc__widen(ef, ef.max_bits);
    nb = K / info->block;
    for (r = 0; r < rows; r++)
        for (b = 0; b < nb; b++) {
            const float *x = X + (size_t)r * (size_t)ld + (size_t)b * (size_t)info->block;
            uint8_t *q = codes + (size_t)r * (size_t)K + (size_t)b * (size_t)info->block;
            size_t si = (size_t)r * (size_t)nb + (size_t)b;
            float amax = 0, mul;
            int special = 0, nan = 0, sat = 0, flushed = 0, finite = 0;
            double err_max = 0, err_sq = 0, scale;
            for (i = 0; i < info->block; i++) {
                float a = fabsf(x[i]);
                if (a != a) nan = 1;
                if (!(a <= 0x1.fffffep+127f)) special = 1;
                else if (a > amax) amax = a;
            }
            if (info->scale == TC_UE8M0) {
                int e = amax == 0.0f ? -127 : tc__ilog2(amax) - tc__ilog2(emax_val);
                if (e < -127) e = -127;
                scales[si] = special ? (uint8_t)0xFF : (uint8_t)(e + 127);
                mul = special ? tc__float(0x7FFFFFFFu) : ldexpf(1.0f, -e);
            } else {
                scales[si] = special ? (uint8_t)0x7F : (uint8_t)tc__narrow(tc__fmt_of(TC_E4M3), amax * (tensor_scale * (1.0f / 6.0f)), TC_RN | TC_SATFINITE);
                mul = 1.0f / (tc__widen(tc__fmt_of(TC_UE4M3), scales[si]) * (1.0f / tensor_scale));
                if (!(mul <= 0x1.fffffep+127f)) mul = 0x1.fffffep+127f;   /* fminf: NaN and Inf give FLT_MAX */
            }
            scale = (double)tc__widen(tc__fmt_of(info->scale), scales[si]);
            for (i = 0; i < info->block; i++) {
                float v = x[i] * mul, d;
                q[i] = (uint8_t)tc__narrow(ef, v, TC_RN | TC_SATFINITE);
                if (fabsf(v) > emax_val) sat++;
                d = (float)((double)tc__widen(ef, q[i]) * scale / (double)tensor_scale);   /* as tc_block_dequantize */
                if (x[i] != 0 && d == 0) flushed++;
                if (fabsf(x[i]) <= 0x1.fffffep+127f && d == d) {
                    double err = fabs((double)d - (double)x[i]);
                    if (err > err_max) err_max = err;
                    err_sq += err * err;
                    finite++;
                }
            }
            if (stats) {
                stats[si].amax = nan ? tc__float(0x7FFFFFFFu) : special ? tc__float(0x7F800000u) : amax;
                stats[si].scale = (float)(scale / (double)tensor_scale);
                stats[si].max_abs_err = err_max;
                stats[si].rms_err = finite ? sqrt(err_sq / finite) : 0.0;
                stats[si].saturated = sat;
                stats[si].flushed = flushed;
            }
        }
    return TC_OK;
}
TCDEF tc_status tc_block_quantize(tc_block_kind k, int rows, int K, const float *X, int ld, float tensor_scale,
                                  uint8_t *codes, uint8_t *scales, tc_block_stats *stats) {
    TC__IN_DEFAULT_FP(tc_status, tc__block_quantize_in(k, rows, K, X, ld, tensor_scale, codes, scales, stats));
}

static tc_status tc__block_dequantize_in(tc_block_kind k, int rows, int K, const uint8_t *codes, const uint8_t *scales,
                                         float tensor_scale, float *X, int ld) {
    const tc_block_info *info;
    tc_status st = tc__block_args(k, rows, K, X, ld, tensor_scale, codes, scales, &info);
    int r, c, nb;
    tc__fmt ef, sf;
    if (st != TC_OK) return st;
    ef = tc__fmt_of(info->elem);
    sf = tc__fmt_of(info->scale);
    nb = K / info->block;
    for (r = 0; r < rows; r++)
        for (c = 0; c < K; c++) {
            double s = (double)tc__widen(sf, scales[(size_t)r * (size_t)nb + (size_t)(c / info->block)]);
            X[(size_t)r * (size_t)ld + (size_t)c] = (float)((double)tc__widen(ef, codes[(size_t)r * (size_t)K + (size_t)c]) * s / (double)tensor_scale);
        }
    return TC_OK;
}
TCDEF tc_status tc_block_dequantize(tc_block_kind k, int rows, int K, const uint8_t *codes, const uint8_t *scales,
                                    float tensor_scale, float *X, int ld) {
    TC__IN_DEFAULT_FP(tc_status, tc__block_dequantize_in(k, rows, K, codes, scales, tensor_scale, X, ld));
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
    tc_dtype in_a, in_b;     /* types of A and B */
    int emin_in, emin_b, emin_c; /* minimum exponents of A's type, B's and c's */
    int out_emin, out_ebits, out_rne, out_fp16;
    int zero_exp, floor, tf32, plus_zero;
    unsigned k_mask;         /* the dense instructions' Ks (tc__mma_k_mask) */
} tc__mma_cfg;

/* Khattak & Mikaitis' min_exp_limit, the lower clamp on E under
   TC_MMA_ZEROS_KHATTAK, from models/V100TC.m, A100TC.m, H100TC.m, AdaTC.m
   and B200TC.m of north-numerical-computing/MATLAB-tensor-core: one value
   for fp32 output whatever the inputs (V100's -1024 is no clamp at all), a
   higher one for fp16 inputs with fp16 output. A switch, for device code. */
TC_HOST_DEVICE static int tc__mma_khattak_floor(tc_arch arch, int fp16_out) {
    switch (arch) {
    case TC_ARCH_V100: return fp16_out ? -19 : -1024;
    case TC_ARCH_A100: case TC_ARCH_ADA:
    case TC_ARCH_TURING: return fp16_out ? -20 : -132;   /* Turing ASSUMED: they model no Turing; A100's (same F) */
    default: return fp16_out ? -21 : -133;   /* H100, B200; RTX Blackwell, which they do not model, as B200 */
    }
}

/* The architecture table: F and group per input family; which K an
   instruction may have comes from the instruction table (the dense
   instructions of that architecture and type). Returns 0 where the
   architecture has no instruction for the type. */
TC_HOST_DEVICE static int tc__is_f8f6f4_type(tc_dtype t) {
    return t == TC_E4M3 || t == TC_E5M2 || t == TC_E2M3 || t == TC_E3M2 || t == TC_E2M1;
}

/* FP6 and FP4: only the kind::f8f6f4 instructions take them. */
TC_HOST_DEVICE static int tc__is_f6f4_type(tc_dtype t) { return t == TC_E2M3 || t == TC_E3M2 || t == TC_E2M1; }

/* 1 if string w occurs in s; strstr is host-only. */
TC_HOST_DEVICE static int tc__str_has(const char *s, const char *w) {
    int i;
    for (; *s; s++) {
        for (i = 0; w[i] && s[i] == w[i]; i++) {}
        if (!w[i]) return 1;
    }
    return 0;
}

/* The fields table scans compare, without building a whole
   tc_mma_instr_info: tc_mma_dot's checks scan the table per dot product. */
typedef struct { const char *ptx; tc_dtype in, b_type; int k, sparse_group, threads; unsigned archs; } tc__instr_key;

TC_HOST_DEVICE static int tc__instr_key_of(int i, tc__instr_key *r) {
    switch (i) {
#define TC__MMA_INSTR_KEY(id, nm, px, M, N, K, IN, INB, F16, GRP, KEEP, SEL, ML, AE, BE, CE, ARCHS, LAYOUT, THR, NSTEP) \
    case id: r->ptx = px; r->in = IN; r->b_type = INB; r->k = K; r->sparse_group = GRP; r->threads = THR;       \
        r->archs = ARCHS; return 1;
    TC__MMA_INSTR_LIST(TC__MMA_INSTR_KEY)
#undef TC__MMA_INSTR_KEY
    default: return 0;
    }
}

/* 1 for a kind::f8f6f4 row (tcgen05.mma on B200, every pairing; mma.sync
   on sm_120, the pairings with FP6 or FP4) or a block-scaled one (the
   tcgen05 kinds, sm_120's mma.sync with .block_scale): its numerics are
   the Blackwell kinds' (tc_mma_dot_scaled), not the per-architecture
   parameters below, which the helpers here therefore skip. */
TC_HOST_DEVICE static int tc__instr_is_f8f6f4(int threads, tc_dtype in, tc_dtype b_type, const char *ptx) {
    /* the string test last, and only for types a block-scaled row can have: this runs per row of table scans */
    return (threads == 1 && tc__is_f8f6f4_type(in)) || tc__is_f6f4_type(in) || tc__is_f6f4_type(b_type) ||
           (tc__is_f8f6f4_type(in) && tc__str_has(ptx, ".block_scale"));
}

/* The Ks of the dense instructions of the table for A of type in and B of
   type inb on arch, OR-ed together (each K is a power of two, which
   test_mma checks), so that one scan gives tc_mma_dot both the K range and
   the check of its k; 0 if there is none. */
TC_HOST_DEVICE static unsigned tc__mma_k_mask(tc_arch arch, tc_dtype in, tc_dtype inb) {
    int i;
    unsigned mask = 0;
    tc__instr_key r;
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++)
        if (tc__instr_key_of(i, &r) && !r.sparse_group && r.in == in && r.b_type == inb &&
            (r.archs & TC_ARCH_BIT(arch)) && !tc__instr_is_f8f6f4(r.threads, r.in, r.b_type, r.ptx))
            mask |= (unsigned)r.k;
    return mask;
}

/* The smallest and largest K of a tc__mma_k_mask; both 0 for none. */
TC_HOST_DEVICE static void tc__mma_k_range(unsigned mask, int *min_k, int *max_k) {
    unsigned top = mask;
    while (top & (top - 1)) top &= top - 1;
    *min_k = (int)(mask & (0u - mask));
    *max_k = (int)top;
}

/* 1 if k is one of the Ks of a tc__mma_k_mask. */
TC_HOST_DEVICE static int tc__mma_k_in(unsigned mask, int k) {
    return k > 0 && (k & (k - 1)) == 0 && (mask & (unsigned)k);
}

TC_HOST_DEVICE static int tc__mma_table(tc_arch arch, tc_dtype in, tc_dtype inb, tc_mma_params *p, unsigned *k_mask) {
    int fp8 = in == TC_E4M3 || in == TC_E5M2, tf32 = in == TC_TF32;
    *k_mask = tc__mma_k_mask(arch, in, inb);
    if (!*k_mask) return 0;
    tc__mma_k_range(*k_mask, &p->min_k, &p->instr_k);
    p->out_mbits = 23;
    p->out_rounding = TC_RZ;
    switch (arch) {
    case TC_ARCH_V100:   /* mma.sync m8n8k4: fp16 only */
        p->frac_bits = 23; p->group = 4;
        break;
    case TC_ARCH_A100:   /* m16n8k16 = two chained groups of 8; tf32 m16n8k8 = two of 4 */
        p->frac_bits = 24; p->group = tf32 ? 4 : 8;
        break;
    case TC_ARCH_H100:   /* one group per instruction; FP8 as wgmma k32 with a 13-bit adder (k16: ASSUMED the same) */
        p->frac_bits = fp8 ? 13 : 25;
        p->group = fp8 ? 32 : tf32 ? 8 : 16;
        if (fp8) p->out_mbits = 13;
        break;
    case TC_ARCH_ADA:    /* A100's adder for fp16/bf16/tf32; FP8 m16n8k32 = two groups of 16, 13-bit adder and result */
        p->frac_bits = fp8 ? 13 : 24;
        p->group = fp8 ? 16 : tf32 ? 4 : 8;
        if (fp8) p->out_mbits = 13;
        break;
    case TC_ARCH_TURING: /* fp16 only; MMA-Sim: F = 24, and m16n8k8 is one group of 8 (no split, unlike sm_80) */
        p->frac_bits = 24; p->group = 8;
        break;
    case TC_ARCH_B200:   /* H100's fp16/bf16/tf32; FP8: one group of 32, a wider adder, fp32 result rounded to nearest
                            (k16: ASSUMED the same adder) */
        p->frac_bits = fp8 ? 31 : 25;
        p->group = fp8 ? 32 : tf32 ? 8 : 16;
        if (fp8) p->out_rounding = TC_RN;
        break;
    case TC_ARCH_RTX_BLACKWELL:   /* MMA-Sim: F = 25, one group per instruction (FP8: f8f6f4 m16n8k32), cut */
        p->frac_bits = 25;
        p->group = fp8 ? 32 : tf32 ? 8 : 16;
        break;
    default: return 0;
    }
    p->exp_floor = tc__mma_khattak_floor(arch, 0);
    return 1;
}

TC_HOST_DEVICE static int tc__type_emin(tc_dtype t) {
    tc__fmt f = tc__fmt_of(t);
    return 2 - (1 << (f.ebits - 1));
}

/* 1 if some instruction of the table, dense or sparse as asked, takes A of
   type a and B of type b on one of the architectures in archs (a mask). */
TC_HOST_DEVICE static int tc__mma_kind_exists(int sparse, unsigned archs, tc_dtype a, tc_dtype b) {
    int i;
    tc__instr_key r;
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++)
        if (tc__instr_key_of(i, &r) && !r.sparse_group == !sparse && r.in == a && r.b_type == b && (r.archs & archs) &&
            !tc__instr_is_f8f6f4(r.threads, r.in, r.b_type, r.ptx)) return 1;
    return 0;
}

/* A Blackwell row's kind: the tc_mma_kind whose name follows "kind::" in
   its PTX (tcgen05 kind::f8f6f4, the block-scaled kinds, sm_120's mma.sync
   kind::f8f6f4); -1 for any other row. */
static int tc__instr_kind(const tc_mma_instr_info *info) {
    const char *k = strstr(info->ptx, "kind::");
    int i;
    size_t n;
    if (!k) return -1;
    k += 6;
    n = strcspn(k, ".");
    for (i = 0; i < TC_KIND_COUNT; i++)
        if (strlen(tc_mma_kind_name((tc_mma_kind)i)) == n && strncmp(k, tc_mma_kind_name((tc_mma_kind)i), n) == 0) return i;
    return -1;
}

TCDEF tc_status tc_mma_instr_scaled_type(tc_mma_instr i, tc_mma_scaled_type *out) {
    tc_mma_instr_info info;
    const char *v;
    int kind, x;
    if (!out) return TC_ERR_NULL;
    if (tc_mma_instr_get(i, &info) != TC_OK || (kind = tc__instr_kind(&info)) < 0) return TC_ERR_ARG;
    v = strstr(info.ptx, "scale_vec::");
    x = v ? v[11] - '0' : kind == TC_KIND_MXF8F6F4 ? 1 : kind == TC_KIND_MXF4 ? 2 : 0;
    if (kind != TC_KIND_F8F6F4 && x < 1) return TC_ERR_ARG;
    memset(out, 0, sizeof *out);
    out->arch = info.archs & TC_ARCH_BIT(TC_ARCH_B200) ? TC_ARCH_B200 : TC_ARCH_RTX_BLACKWELL;
    out->kind = (tc_mma_kind)kind;
    out->a_type = info.in;
    out->b_type = info.b_type;
    out->out = TC_FP32;
    if (kind != TC_KIND_F8F6F4) {
        out->scale_type = strstr(info.ptx, ".ue4m3") ? TC_UE4M3 : TC_UE8M0;
        out->block = info.k / x;
    }
    return TC_OK;
}

/* 1 if a kind::f8f6f4 row of the table takes A of type a and B of type b on arch. */
static int tc__f8f6f4_row_on(tc_arch arch, tc_dtype a, tc_dtype b) {
    int i;
    tc_mma_instr_info info;
    if ((int)arch < 0 || arch >= TC_ARCH_COUNT) return 0;
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++)
        if (tc_mma_instr_get((tc_mma_instr)i, &info) == TC_OK && tc__instr_kind(&info) == TC_KIND_F8F6F4 &&
            info.in == a && info.b_type == b && (info.archs & TC_ARCH_BIT(arch))) return 1;
    return 0;
}

/* A dense pairing on any architecture: separates a pairing that does not
   exist (TC_ERR_DTYPE) from one the architecture lacks (TC_ERR_ARCH). */
TC_HOST_DEVICE static int tc__mma_pair_exists(tc_dtype a, tc_dtype b) { return tc__mma_kind_exists(0, ~0u, a, b); }

TC_HOST_DEVICE static tc_status tc__mma_setup(tc_arch arch, tc_dtype in, tc_dtype out, const tc_mma_options *opt,
                                              tc__mma_cfg *cfg) {
    int fp8 = in == TC_E4M3 || in == TC_E5M2;
    tc_dtype inb = opt && opt->b_type != TC_FP32 ? opt->b_type : in;
    if ((int)in < 0 || in >= TC_DTYPE_COUNT || (int)inb < 0 || inb >= TC_DTYPE_COUNT || (out != TC_FP32 && out != TC_FP16)) return TC_ERR_DTYPE;
    /* fp32 operands: use TC_TF32. FP4/FP6 and the scale formats take no mma.sync modelled here. */
    if (!(in == TC_FP16 || in == TC_BF16 || in == TC_TF32 || fp8) || (out == TC_FP16 && in != TC_FP16 && !fp8)) return TC_ERR_DTYPE;
    if (inb != in && !tc__mma_pair_exists(in, inb)) return TC_ERR_DTYPE;
    if ((int)arch < 0 || arch >= TC_ARCH_COUNT || !tc__mma_table(arch, in, inb, &cfg->p, &cfg->k_mask)) return TC_ERR_ARCH;
    if (out == TC_FP16) { cfg->p.out_mbits = 10; cfg->p.out_rounding = TC_RN; }
    if (out == TC_FP16 && in == TC_FP16) cfg->p.exp_floor = tc__mma_khattak_floor(arch, 1);
    if (opt) {
        if (opt->zero_rule != TC_MMA_ZEROS_MMASIM && opt->zero_rule != TC_MMA_ZEROS_KHATTAK) return TC_ERR_ARG;
        if (opt->group < 0 || opt->group > TC_MMA_MAX_GROUP || opt->frac_bits < 0 || opt->frac_bits > 40) return TC_ERR_ARG;
        if (opt->zero_sign != TC_MMA_ZERO_SIGN_SUM && opt->zero_sign != TC_MMA_ZERO_SIGN_PLUS) return TC_ERR_ARG;
        if (opt->group) cfg->p.group = opt->group;
        if (opt->frac_bits) cfg->p.frac_bits = opt->frac_bits;
    }
    cfg->emin_in = tc__type_emin(in);
    cfg->emin_b = tc__type_emin(inb);
    cfg->in_a = in; cfg->in_b = inb;
    cfg->emin_c = tc__type_emin(out);
    cfg->out_emin = out == TC_FP16 ? -14 : -126;
    cfg->out_ebits = out == TC_FP16 ? 5 : 8;
    cfg->out_rne = cfg->p.out_rounding == TC_RN;
    cfg->out_fp16 = out == TC_FP16;
    cfg->tf32 = in == TC_TF32;
    cfg->plus_zero = opt && opt->zero_sign == TC_MMA_ZERO_SIGN_PLUS;
    if (opt && opt->zero_rule == TC_MMA_ZEROS_KHATTAK) {
        cfg->zero_exp = TC__MMA_KHATTAK_ZERO; cfg->floor = cfg->p.exp_floor;
    } else {
        cfg->zero_exp = TC__MMA_MMASIM_ZERO; cfg->floor = TC__MMA_NO_FLOOR;
    }
    return TC_OK;
}

TCDEF const char *tc_arch_name(tc_arch a) {
    switch (a) {
    case TC_ARCH_V100: return "V100";
    case TC_ARCH_A100: return "A100";
    case TC_ARCH_H100: return "H100";
    case TC_ARCH_ADA:  return "Ada";
    case TC_ARCH_B200: return "B200";
    case TC_ARCH_TURING: return "Turing";
    case TC_ARCH_RTX_BLACKWELL: return "RTX50";
    default: return NULL;
    }
}

TCDEF tc_status tc_mma_params_of_mixed(tc_arch arch, tc_dtype a, tc_dtype b, tc_dtype out, tc_mma_params *p) {
    tc__mma_cfg cfg;
    tc_mma_options o;
    tc_status s;
    if (!p) return TC_ERR_NULL;
    if (b == TC_FP32) return TC_ERR_DTYPE;   /* would mean "same as a" in the options */
    memset(&o, 0, sizeof o);
    o.b_type = b;
    s = tc__mma_setup(arch, a, out, &o, &cfg);
    if (s == TC_OK) *p = cfg.p;
    return s;
}

TCDEF tc_status tc_mma_params_of(tc_arch arch, tc_dtype in, tc_dtype out, tc_mma_params *p) {
    return tc_mma_params_of_mixed(arch, in, in, out, p);
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
    if (enc == 0 && cfg->plus_zero) sign = 0;
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

/* One step of a K chain: the block FMA of n split operands onto c, or the
   IEEE-like outcome (from the unsplit values a, b, which a tf32 step
   truncates itself) when an Inf or NaN takes part. Shared by tc_mma_dot_ex,
   tc_gemm_ex and tc_sparse_gemm_ex. */
TC_HOST_DEVICE static float tc__mma_step(const tc__mma_cfg *cfg, int n, const tc__mma_op *pa, const tc__mma_op *pb,
                                         const float *a, int inc_a, const float *b, int inc_b, float c) {
    int special;
    float r = tc__mma_block(cfg, n, pa, pb, tc__mma_split(c, cfg->emin_c, cfg->zero_exp), &special);
    return special ? tc__mma_special(cfg, n, a, inc_a, b, inc_b, c) : r;
}

/* One group from unsplit operands (strides inc_a, inc_b): split, then
   tc__mma_step. tc_mma_dot_ex's loop, and the GEMM fast path's fallback. */
TC_HOST_DEVICE static float tc__mma_group(const tc__mma_cfg *cfg, int n, const float *a, ptrdiff_t inc_a,
                                          const float *b, ptrdiff_t inc_b, float c) {
    tc__mma_op pa[TC_MMA_MAX_GROUP], pb[TC_MMA_MAX_GROUP];
    int i;
    for (i = 0; i < n; i++) {
        float x = a[i * inc_a], y = b[i * inc_b];
        if (cfg->tf32) { x = tc_tf32_truncate(x); y = tc_tf32_truncate(y); }
        pa[i] = tc__mma_split(x, cfg->emin_in, cfg->zero_exp);
        pb[i] = tc__mma_split(y, cfg->emin_b, cfg->zero_exp);
    }
    return tc__mma_step(cfg, n, pa, pb, a, (int)inc_a, b, (int)inc_b, c);
}

TC_HOST_DEVICE static float tc__mma_dot_ex_in(tc_arch arch, tc_dtype in, tc_dtype out, int k,
                                              const float *a, const float *b, float c, const tc_mma_options *opt) {
    tc__mma_cfg cfg;
    int k0;
    if (!a || !b || tc__mma_setup(arch, in, out, opt, &cfg) != TC_OK) return tc__float(0x7FFFFFFFu);
    if (opt && opt->group) { if (k < 1) return tc__float(0x7FFFFFFFu); }
    else if (!tc__mma_k_in(cfg.k_mask, k)) return tc__float(0x7FFFFFFFu);
    for (k0 = 0; k0 < k; k0 += cfg.p.group)
        c = tc__mma_group(&cfg, k - k0 < cfg.p.group ? k - k0 : cfg.p.group, a + k0, 1, b + k0, 1, c);
    return c;
}

TC_HOST_DEVICE TCDEF float tc_mma_dot_ex(tc_arch arch, tc_dtype in, tc_dtype out, int k,
                                         const float *a, const float *b, float c, const tc_mma_options *opt) {
    TC__IN_DEFAULT_FP(float, tc__mma_dot_ex_in(arch, in, out, k, a, b, c, opt));
}

TC_HOST_DEVICE TCDEF float tc_mma_dot(tc_arch arch, tc_dtype in, tc_dtype out, int k,
                                      const float *a, const float *b, float c) {
    TC__IN_DEFAULT_FP(float, tc__mma_dot_ex_in(arch, in, out, k, a, b, c, NULL));
}

/* NaN stands for the type's NaN; e4m3 has no Inf, so tc_round maps Inf to
   NaN and the bit comparison rejects it. */
static int tc__representable(tc_dtype t, float x) {
    if (x != x) return 1;
    return tc__bits(tc_round(t, x, TC_RN)) == tc__bits(x);
}

/* 1 if every value of the rows x cols row-major matrix X is representable
   in t (tf32 operands: any fp32, the MMA truncates them). Rounds in chunks
   through section 1's vector kernels, bit-identical to tc_round: value by
   value, this check took a quarter of a 256^3 GEMM's time on one thread
   (20 A100 fp16 GEMMs: 219 -> 163 ms CPU time with the chunks),
   all of it before the GEMM's threads start (perf, 2026-11-24). */
static int tc__representable_matrix(tc_dtype t, int rows, int cols, const float *X, int ld) {
    float r[256];
    int i, j, k, n;
    if (t == TC_TF32 || t == TC_FP32) return 1;
    for (i = 0; i < rows; i++) for (j = 0; j < cols; j += n) {
        const float *x = X + (size_t)i * (size_t)ld + (size_t)j;
        n = cols - j < (int)(sizeof r / sizeof r[0]) ? cols - j : (int)(sizeof r / sizeof r[0]);
        if (tc_round_array(t, x, r, (size_t)n, TC_RN) != TC_OK) return 0;
        for (k = 0; k < n; k++) if (tc__bits(r[k]) != tc__bits(x[k]) && x[k] == x[k]) return 0;
    }
    return 1;
}

/* Splits a rows x k operand once: out[r * k + i] = X[r * step_r + i * step_i],
   so a row of A (step_r = lda, step_i = 1) or a column of B (step_r = 1,
   step_i = ldb) lies contiguous. NULL on overflow or out of memory. */
static tc__mma_op *tc__mma_split_matrix(const tc__mma_cfg *cfg, int emin, int rows, int k, const float *X,
                                        size_t step_r, size_t step_i) {
    size_t n = (size_t)rows * (size_t)k, r, i;
    tc__mma_op *out;
    if (k && (n / (size_t)k != (size_t)rows || n > (size_t)-1 / sizeof *out)) return NULL;
    out = (tc__mma_op *)TC_MALLOC((n ? n : 1) * sizeof *out);
    if (!out) return NULL;
    for (r = 0; r < (size_t)rows; r++) for (i = 0; i < (size_t)k; i++) {
        float x = X[r * step_r + i * step_i];
        if (cfg->tf32) x = tc_tf32_truncate(x);
        out[r * (size_t)k + i] = tc__mma_split(x, emin, cfg->zero_exp);
    }
    return out;
}

/* ---- the GEMM driver, shared by tc_gemm_ex and tc_sparse_gemm_ex ----
   One job: rows are spread over threads; each row runs either the scalar
   model (pre-split operands, tc__mma_step per group) or the SIMD kernel
   below. */
typedef struct {
    const tc__mma_cfg *cfg;
    int M, N, K;
    const float *A; size_t lda;      /* dense A, or the sparse values (M x K/2) */
    const float *B; size_t ldb;
    const float *C; size_t ldc;
    float *D; size_t ldd;
    const int *kpos; int H;          /* sparse: dense column of each stored value, H per row; NULL when dense */
    const tc__mma_op *pa, *pb;       /* scalar: split rows of A (values) and columns of B */
    const float *aval, *apow;        /* fast: A as M x K at dense positions, see tc__gemm_pack */
    const double *bval, *bpow;       /* fast: B in panels of TC__GEMM_W columns, [panel][k][lane] */
    const unsigned char *rowbad, *colbad;   /* fast: a row / column holding Inf or NaN */
} tc__gemm_job;

/* The scalar model for output row i. */
static void tc__gemm_scalar_row(const tc__gemm_job *jb, int i) {
    const tc__mma_cfg *cfg = jb->cfg;
    tc__mma_op gb[TC_MMA_MAX_GROUP];
    float fb[TC_MMA_MAX_GROUP];
    int j, k0, t, n, G = cfg->p.group, K = jb->K;
    /* K = 0 may come with NULL A and no packed operands: no pointer
       arithmetic on them (an offset, even 0, from NULL is undefined) */
    const float *arow = K ? jb->A + (size_t)i * jb->lda : NULL;
    for (j = 0; j < jb->N; j++) {
        const tc__mma_op *rb;
        float c = jb->C ? jb->C[(size_t)i * jb->ldc + (size_t)j] : 0.0f;
        if (!K) { jb->D[(size_t)i * jb->ldd + (size_t)j] = c; continue; }
        rb = jb->pb + (size_t)j * (size_t)K;
        if (!jb->kpos) {
            const tc__mma_op *ra = jb->pa + (size_t)i * (size_t)K;
            for (k0 = 0; k0 < K; k0 += G)
                c = tc__mma_step(cfg, K - k0 < G ? K - k0 : G, ra + k0, rb + k0,
                                 arow + k0, 1, jb->B + (size_t)k0 * jb->ldb + (size_t)j, (int)jb->ldb, c);
        } else {
            const int *kp = jb->kpos + (size_t)i * (size_t)jb->H;
            const tc__mma_op *rv = jb->pa + (size_t)i * (size_t)jb->H;
            for (t = 0, k0 = 0; k0 < K; k0 += G, t += n) {
                /* the stored values whose dense column lies in this group of
                   the dense K, and the rows of B they select */
                for (n = 0; t + n < jb->H && kp[t + n] < k0 + G; n++) {
                    gb[n] = rb[kp[t + n]];
                    fb[n] = jb->B[(size_t)kp[t + n] * jb->ldb + (size_t)j];
                }
                c = tc__mma_step(cfg, n, rv + t, gb, arow + t, 1, fb, 1, c);
            }
        }
        jb->D[(size_t)i * jb->ldd + (size_t)j] = c;
    }
}

#if defined(TC__SSE2)
/* ---- the SIMD block FMA ----
   tc__mma_block's arithmetic in fp64 lanes, one output column per lane,
   TC__GEMM_W columns per pass. It is the same arithmetic, not an
   approximation, because every step is exact in fp64 for the combinations
   tc__gemm_fast_ok admits:
     - operands of at most 11 significant bits (fp16, bf16, tf32, FP8) and
       exponents within fp32's: a product a*b is exact (22 bits);
     - E is kept as the power 2^E: an operand carries 2^exp (exp from
       tc__mma_split, so a subnormal-in-type operand has its type's minimum,
       a zero 2^-126 under MMA-Sim's rule and 0, never the maximum, under
       Khattak's), a product 2^(ea+eb) = 2^ea * 2^eb, c's power is its fp64
       exponent field (max 2^emin_c; zero as an operand), and the floor a
       power too;
     - "truncate to F fractional bits below 2^E" is trunc(term * 2^(F-E)):
       a power-of-two scaling, exact, then an integer below 2^(F+2) <= 2^30
       (SSE2: cvttpd to int32 and back; AVX2, AVX-512: round toward zero);
     - the sum of at most TC_MMA_MAX_GROUP + 1 such integers is below 2^37:
       exact, and times 2^(E-F) exact again;
     - rounding to the output is done on the fp64 bits: a mask for round
       toward zero to out_mbits, add-then-mask for nearest-even.
   What the lanes do not cover is flagged and redone by the scalar model,
   for that output and that group only: a c that is Inf or NaN, a result
   below the output's normal range (its subnormals) or at or beyond its
   overflow threshold. Rows or columns holding Inf or NaN operands run
   scalar throughout. */
#if defined(TC__AVX512VL)
/* Comparisons give mask registers (tc__vm), so a select is one blend and
   the flags' bits need no movemask. The maskz forms: see tc__v_widen_vbmi64. */
typedef __m512d tc__vd;
typedef __m512i tc__vq;
typedef __mmask8 tc__vm;
#define TC__VL 8
#define TC__VD_SET1(x)      _mm512_set1_pd(x)
#define TC__VD_LOAD(p)      _mm512_loadu_pd(p)
#define TC__VD_STORE(p, v)  _mm512_storeu_pd(p, v)
#define TC__VD_ADD          _mm512_add_pd
#define TC__VD_MUL          _mm512_mul_pd
#define TC__VD_MAX(a, b)    _mm512_maskz_max_pd(0xFF, a, b)
#define TC__VD_AND          _mm512_and_pd
#define TC__VD_TRUNC(v)     _mm512_maskz_roundscale_pd(0xFF, v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define TC__VD_EQ(a, b)     _mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ)
#define TC__VD_NEQ(a, b)    _mm512_cmp_pd_mask(a, b, _CMP_NEQ_UQ)
#define TC__VD_LT(a, b)     _mm512_cmp_pd_mask(a, b, _CMP_LT_OQ)
#define TC__VD_NLT(a, b)    _mm512_cmp_pd_mask(a, b, _CMP_NLT_UQ)
#define TC__VD_SEL(m, a, b) _mm512_mask_blend_pd(m, b, a)
#define TC__VM_OR(a, b)     ((tc__vm)((a) | (b)))
#define TC__VM_AND(a, b)    ((tc__vm)((a) & (b)))
#define TC__VM_BITS(m)      ((unsigned)(m))
#define TC__VD_BITS         _mm512_castpd_si512
#define TC__VI_AS_D         _mm512_castsi512_pd
#define TC__VI_SET1(x)      _mm512_set1_epi64(x)
#define TC__VI_ADD          _mm512_add_epi64
#define TC__VI_AND          _mm512_and_si512
#define TC__VI_SRL(v, n)    _mm512_maskz_srl_epi64(0xFF, v, _mm_cvtsi32_si128(n))
#define TC__VI_SUB          _mm512_sub_epi64
#define TC__GEMM_PATH       "AVX-512, 8 fp64 lanes"
#define TC__GEMM_MIN_N      5
#elif defined(TC__AVX2)
typedef __m256d tc__vd;
typedef __m256i tc__vq;
typedef __m256d tc__vm;
#define TC__VL 4
#define TC__VD_SET1(x)      _mm256_set1_pd(x)
#define TC__VD_LOAD(p)      _mm256_loadu_pd(p)
#define TC__VD_STORE(p, v)  _mm256_storeu_pd(p, v)
#define TC__VD_ADD          _mm256_add_pd
#define TC__VD_MUL          _mm256_mul_pd
#define TC__VD_MAX          _mm256_max_pd
#define TC__VD_AND          _mm256_and_pd
#define TC__VD_ANDNOT       _mm256_andnot_pd
#define TC__VD_OR           _mm256_or_pd
#define TC__VD_TRUNC(v)     _mm256_round_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define TC__VD_EQ(a, b)     _mm256_cmp_pd(a, b, _CMP_EQ_OQ)
#define TC__VD_NEQ(a, b)    _mm256_cmp_pd(a, b, _CMP_NEQ_UQ)
#define TC__VD_LT(a, b)     _mm256_cmp_pd(a, b, _CMP_LT_OQ)
#define TC__VD_NLT(a, b)    _mm256_cmp_pd(a, b, _CMP_NLT_UQ)
#define TC__VM_BITS(m)      ((unsigned)_mm256_movemask_pd(m))
#define TC__VD_BITS         _mm256_castpd_si256
#define TC__VI_AS_D         _mm256_castsi256_pd
#define TC__VI_SET1(x)      _mm256_set1_epi64x(x)
#define TC__VI_ADD          _mm256_add_epi64
#define TC__VI_AND          _mm256_and_si256
#define TC__VI_SRL(v, n)    _mm256_srl_epi64(v, _mm_cvtsi32_si128(n))
#define TC__VI_SUB          _mm256_sub_epi64
#define TC__GEMM_PATH       "AVX2, 4 fp64 lanes"
#define TC__GEMM_MIN_N      4
#else
typedef __m128d tc__vd;
typedef __m128i tc__vq;
typedef __m128d tc__vm;
#define TC__VL 2
#define TC__VD_SET1(x)      _mm_set1_pd(x)
#define TC__VD_LOAD(p)      _mm_loadu_pd(p)
#define TC__VD_STORE(p, v)  _mm_storeu_pd(p, v)
#define TC__VD_ADD          _mm_add_pd
#define TC__VD_MUL          _mm_mul_pd
#define TC__VD_MAX          _mm_max_pd
#define TC__VD_AND          _mm_and_pd
#define TC__VD_ANDNOT       _mm_andnot_pd
#define TC__VD_OR           _mm_or_pd
#define TC__VD_TRUNC(v)     _mm_cvtepi32_pd(_mm_cvttpd_epi32(v))
#define TC__VD_EQ           _mm_cmpeq_pd
#define TC__VD_NEQ          _mm_cmpneq_pd
#define TC__VD_LT           _mm_cmplt_pd
#define TC__VD_NLT          _mm_cmpnlt_pd
#define TC__VM_BITS(m)      ((unsigned)_mm_movemask_pd(m))
#define TC__VD_BITS         _mm_castpd_si128
#define TC__VI_AS_D         _mm_castsi128_pd
#define TC__VI_SET1(x)      _mm_set1_epi64x(x)
#define TC__VI_ADD          _mm_add_epi64
#define TC__VI_AND          _mm_and_si128
#define TC__VI_SRL(v, n)    _mm_srl_epi64(v, _mm_cvtsi32_si128(n))
#define TC__VI_SUB          _mm_sub_epi64
#define TC__GEMM_PATH       "SSE2, 2 fp64 lanes"
#define TC__GEMM_MIN_N      3
#endif
#if !defined(TC__AVX512VL)   /* comparisons give all-ones lanes: masks are vectors */
#define TC__VD_SEL(m, a, b) TC__VD_OR(TC__VD_AND(m, a), TC__VD_ANDNOT(m, b))
#define TC__VM_OR           TC__VD_OR
#define TC__VM_AND          TC__VD_AND
#endif
/* Four vectors per pass: four independent chains of block FMAs keep the
   core busy while each waits on the one before it (c feeds the next E). */
#define TC__GEMM_NV 4
#define TC__GEMM_W (TC__GEMM_NV * TC__VL)
/* A pass costs the same for 1 column as for TC__GEMM_W, so narrow GEMMs
   take the scalar model: TC__GEMM_MIN_N, each kernel's own, is the fewest
   columns at which its pass beat the scalar model on every one of A100
   fp16 -> fp32, A100 tf32, V100 fp16 -> fp16 and H100 e4m3 (the scalar
   model's fastest), 256x256 GEMMs, two rows a pass: 1.02-1.63x at 3
   columns on SSE2, 1.13-2.17x at 4 on AVX2, 1.13-1.94x at 5 on AVX-512,
   and for H100 e4m3 one column fewer 0.83x, 0.92-0.96x and 0.92-1.02x
   (MEASURED on the Intel Xeon VM, three runs, docs/REFERENCE.md 2.10). */

static int tc__gemm_fast_ok(const tc__mma_cfg *cfg, tc_dtype in) {
    return tc__fmt_of(in).mbits <= 10 && cfg->p.frac_bits <= TC_GEMM_FAST_MAX_FRAC && cfg->p.out_mbits <= 23 &&
           cfg->p.group >= 1 && cfg->p.group <= TC_MMA_MAX_GROUP;
}

static int tc__finite(float x) { return (tc__bits(x) & 0x7F800000u) != 0x7F800000u; }

/* One operand for the lanes: its value (tf32: truncated) and 2^exp, 0 for
   a zero under Khattak's rule (-2000 is below every product); exp lies in
   [-126, 127] otherwise, so 2^exp is built as an fp32. Reports Inf and NaN
   through *bad. */
static void tc__gemm_pack_one(const tc__mma_cfg *cfg, int emin, float x, float *val, float *pw, unsigned char *bad) {
    tc__mma_op op;
    if (cfg->tf32) x = tc_tf32_truncate(x);
    if (!tc__finite(x)) { *bad = 1; *val = 0.0f; *pw = 0.0f; return; }
    op = tc__mma_split(x, emin, cfg->zero_exp);
    *val = x;
    *pw = !op.sig && cfg->zero_exp == TC__MMA_KHATTAK_ZERO ? 0.0f : tc__float((uint32_t)(op.exp + 127) << 23);
}

/* The scalar model for one group of output (i, j) from the unsplit
   operands: the fast path's fallback. */
static float tc__gemm_group(const tc__gemm_job *jb, int i, int j, int k0, int n, float c) {
    const float *b = jb->B + (size_t)j;
    float fb[TC_MMA_MAX_GROUP];
    int t, m;
    if (!jb->kpos)
        return tc__mma_group(jb->cfg, n, jb->A + (size_t)i * jb->lda + (size_t)k0, 1,
                             b + (size_t)k0 * jb->ldb, (ptrdiff_t)jb->ldb, c);
    {
        /* 2:4 and 1:2 both store half of every complete pattern group, so
           at least (k0 / 4) * 2 stored values lie before column k0 */
        const int *kp = jb->kpos + (size_t)i * (size_t)jb->H;
        for (t = k0 / 4 * 2; t < jb->H && kp[t] < k0; t++) {}
        for (m = 0; t + m < jb->H && kp[t + m] < k0 + n; m++) fb[m] = b[(size_t)kp[t + m] * jb->ldb];
        return tc__mma_group(jb->cfg, m, jb->A + (size_t)i * jb->lda + (size_t)t, 1, fb, 1, c);
    }
}

static void tc__gemm_scalar_elem(const tc__gemm_job *jb, int i, int j) {
    int k0, G = jb->cfg->p.group;
    float c = jb->C ? jb->C[(size_t)i * jb->ldc + (size_t)j] : 0.0f;
    for (k0 = 0; k0 < jb->K; k0 += G) c = tc__gemm_group(jb, i, j, k0, jb->K - k0 < G ? jb->K - k0 : G, c);
    jb->D[(size_t)i * jb->ldd + (size_t)j] = c;
}

/* Output rows i .. i+R-1 (R, 1 or 2, a constant at each call; rows flagged
   in rowbad only with R = 1), columns p*W .. p*W+W-1 (those below N). Two
   rows share each load of B's panel and give the core twice the
   independent chains: +3-10% on AVX-512, +8-16% on SSE2 (MEASURED on the
   Intel Xeon VM, docs/REFERENCE.md 2.10). */
static TC__ALWAYS_INLINE void tc__gemm_fast_rows(const tc__gemm_job *jb, int i, int R, int p) {
    const tc__mma_cfg *cfg = jb->cfg;
    const int K = jb->K, G = cfg->p.group, F = cfg->p.frac_bits, mbits = cfg->p.out_mbits;
    const double *bv = jb->bval + (size_t)p * (size_t)K * TC__GEMM_W, *bp = jb->bpow + (size_t)p * (size_t)K * TC__GEMM_W;
    const int j0 = p * TC__GEMM_W, cols = jb->N - j0 < TC__GEMM_W ? jb->N - j0 : TC__GEMM_W;
    const int drop = 52 - mbits;
    const tc__vd zero = TC__VD_SET1(0.0), expmask = TC__VI_AS_D(TC__VI_SET1(0x7FF0000000000000LL));
    const tc__vd absmask = TC__VI_AS_D(TC__VI_SET1(0x7FFFFFFFFFFFFFFFLL));
    const tc__vd cmin = TC__VD_SET1(ldexp(1.0, cfg->emin_c)), zpow = TC__VD_SET1(cfg->zero_exp == TC__MMA_KHATTAK_ZERO ? 0.0 : ldexp(1.0, cfg->zero_exp));
    const tc__vd floorv = TC__VD_SET1(cfg->floor == TC__MMA_NO_FLOOR ? 0.0 : ldexp(1.0, cfg->floor));
    const tc__vq recip = TC__VI_SET1((long long)((unsigned long long)(2046 + F) << 52));   /* 2^F / 2^E: bits (2046 + F) << 52 less those of 2^E */
    const tc__vd twomF = TC__VD_SET1(ldexp(1.0, -F));
    const tc__vd special = TC__VD_SET1(ldexp(1.0, TC__MMA_SPECIAL_MIN));
    const tc__vd tiny = TC__VD_SET1(ldexp(1.0, cfg->out_emin)), ovf = TC__VD_SET1(ldexp(1.0, 1 << (cfg->out_ebits - 1)));
    const tc__vq keepmask = TC__VI_SET1(~(long long)((1ull << drop) - 1u));
    const tc__vq half = TC__VI_SET1(cfg->out_rne ? (long long)((1ull << (drop - 1)) - 1u) : 0);
    const tc__vq one = TC__VI_SET1(cfg->out_rne ? 1 : 0);
    const float *av[2], *ap[2];
    tc__vd c[2][TC__GEMM_NV], E[2][TC__GEMM_NV], s[2][TC__GEMM_NV], acc[2][TC__GEMM_NV], r[2][TC__GEMM_NV];
    double cl[TC__GEMM_W], rl[TC__GEMM_W];
    int k0, k, n, v, l, q;
    unsigned bad[2];
    if (R == 1 && jb->rowbad[i]) {
        for (l = 0; l < cols; l++) tc__gemm_scalar_elem(jb, i, j0 + l);
        return;
    }
    for (q = 0; q < R; q++) {
        av[q] = jb->aval + (size_t)(i + q) * (size_t)K; ap[q] = jb->apow + (size_t)(i + q) * (size_t)K;
        for (l = 0; l < TC__GEMM_W; l++) cl[l] = jb->C && l < cols ? (double)jb->C[(size_t)(i + q) * jb->ldc + (size_t)(j0 + l)] : 0.0;
        for (v = 0; v < TC__GEMM_NV; v++) c[q][v] = TC__VD_LOAD(cl + v * TC__VL);
    }
    for (k0 = 0; k0 < K; k0 += G) {
        const double *gv = bv + (size_t)k0 * TC__GEMM_W, *gp = bp + (size_t)k0 * TC__GEMM_W;
        n = K - k0 < G ? K - k0 : G;
        for (q = 0; q < R; q++)
            for (v = 0; v < TC__GEMM_NV; v++) {
                tc__vd cp = TC__VD_MAX(TC__VD_AND(c[q][v], expmask), cmin);
                E[q][v] = TC__VD_SEL(TC__VD_EQ(c[q][v], zero), zpow, cp);
            }
        for (k = 0; k < n; k++) {
            tc__vd a[2];
            for (q = 0; q < R; q++) a[q] = TC__VD_SET1((double)ap[q][k0 + k]);
            for (v = 0; v < TC__GEMM_NV; v++) {
                const tc__vd b = TC__VD_LOAD(gp + k * TC__GEMM_W + v * TC__VL);
                for (q = 0; q < R; q++) E[q][v] = TC__VD_MAX(E[q][v], TC__VD_MUL(a[q], b));
            }
        }
        for (q = 0; q < R; q++)
            for (v = 0; v < TC__GEMM_NV; v++) {
                E[q][v] = TC__VD_MAX(E[q][v], floorv);
                s[q][v] = TC__VI_AS_D(TC__VI_SUB(recip, TC__VD_BITS(E[q][v])));
                acc[q][v] = TC__VD_ADD(zero, TC__VD_TRUNC(TC__VD_MUL(c[q][v], s[q][v])));   /* 0 + (-0) = +0: an exact zero is +0 */
            }
        for (k = 0; k < n; k++) {
            tc__vd a[2];
            for (q = 0; q < R; q++) a[q] = TC__VD_SET1((double)av[q][k0 + k]);
            for (v = 0; v < TC__GEMM_NV; v++) {
                const tc__vd b = TC__VD_LOAD(gv + k * TC__GEMM_W + v * TC__VL);
                for (q = 0; q < R; q++) acc[q][v] = TC__VD_ADD(acc[q][v], TC__VD_TRUNC(TC__VD_MUL(TC__VD_MUL(a[q], b), s[q][v])));
            }
        }
        for (q = 0; q < R; q++) {
            bad[q] = 0;
            for (v = 0; v < TC__GEMM_NV; v++) {
                tc__vd x = TC__VD_MUL(acc[q][v], TC__VD_MUL(E[q][v], twomF)), ax = TC__VD_AND(x, absmask);
                tc__vm flag;
                tc__vq bits = TC__VD_BITS(x);
                bits = TC__VI_ADD(bits, TC__VI_ADD(half, TC__VI_AND(TC__VI_SRL(bits, drop), one)));
                r[q][v] = TC__VI_AS_D(TC__VI_AND(bits, keepmask));
                flag = TC__VM_OR(TC__VD_NLT(E[q][v], special), TC__VD_NLT(TC__VD_AND(r[q][v], absmask), ovf));
                flag = TC__VM_OR(flag, TC__VM_AND(TC__VD_LT(ax, tiny), TC__VD_NEQ(ax, zero)));
                bad[q] |= TC__VM_BITS(flag) << (v * TC__VL);
            }
            if (bad[q]) {
                for (v = 0; v < TC__GEMM_NV; v++) { TC__VD_STORE(cl + v * TC__VL, c[q][v]); TC__VD_STORE(rl + v * TC__VL, r[q][v]); }
                for (l = 0; l < cols; l++)
                    if (bad[q] >> l & 1) rl[l] = (double)tc__gemm_group(jb, i + q, j0 + l, k0, n, (float)cl[l]);
                for (v = 0; v < TC__GEMM_NV; v++) c[q][v] = TC__VD_LOAD(rl + v * TC__VL);
            } else {
                for (v = 0; v < TC__GEMM_NV; v++) c[q][v] = r[q][v];
            }
        }
    }
    for (q = 0; q < R; q++) {
        for (v = 0; v < TC__GEMM_NV; v++) TC__VD_STORE(rl + v * TC__VL, c[q][v]);
        for (l = 0; l < cols; l++)
            if (jb->colbad[j0 + l]) tc__gemm_scalar_elem(jb, i + q, j0 + l);
            else jb->D[(size_t)(i + q) * jb->ldd + (size_t)(j0 + l)] = (float)rl[l];
    }
}

/* Rows [i, i1) of panel p: two at a time where neither holds Inf or NaN. */
static void tc__gemm_fast_panel(const tc__gemm_job *jb, int i, int i1, int p) {
    while (i < i1)
        if (i + 1 < i1 && !jb->rowbad[i] && !jb->rowbad[i + 1]) { tc__gemm_fast_rows(jb, i, 2, p); i += 2; }
        else { tc__gemm_fast_rows(jb, i, 1, p); i++; }
}
#else
#define TC__GEMM_PATH "scalar"
#endif

TCDEF const char *tc_gemm_fast_path(void) { return TC__GEMM_PATH; }

/* Rows in blocks of TC__GEMM_ROWS, consecutive blocks to a thread; within
   a block, panel by panel, so one panel of B serves every row of the
   block while it is in cache. */
#define TC__GEMM_ROWS 16

static void tc__gemm_blocks(void *ctx, size_t b0, size_t b1) {
    const tc__gemm_job *jb = (const tc__gemm_job *)ctx;
    int i, i1;
    size_t b;
    for (b = b0; b < b1; b++) {
        int r0 = (int)b * TC__GEMM_ROWS;
        i1 = jb->M - r0 < TC__GEMM_ROWS ? jb->M : r0 + TC__GEMM_ROWS;
#if defined(TC__SSE2)
        if (jb->aval) {
            int p;
            for (p = 0; p * TC__GEMM_W < jb->N; p++) tc__gemm_fast_panel(jb, r0, i1, p);
            continue;
        }
#endif
        for (i = r0; i < i1; i++) tc__gemm_scalar_row(jb, i);
    }
}

/* Runs the job on `threads` threads (tc__parallel_for: one without
   TC_THREADS); the result is the same for any count. */
static tc_status tc__gemm_run(const tc__gemm_job *jb, int threads) {
    size_t blocks = ((size_t)jb->M + TC__GEMM_ROWS - 1) / TC__GEMM_ROWS;
    tc__parallel_for(threads, blocks, 1, tc__gemm_blocks, (void *)jb);
    return TC_OK;
}

#if defined(TC__SSE2)
/* Repacks the operands once for the SIMD kernel into one allocation:
   aval/apow (float: every value and power lies in fp32) M x K at dense
   positions; for a sparse A every dropped position holds 0 with power 0,
   so it adds nothing and never sets E, as in the scalar sparse model, which
   never sees it. bval/bpow: B in panels of TC__GEMM_W columns, padding
   columns 0 with power 0. Rows of A and panels of B are packed on the
   GEMM's threads (each writes only its own rows, panels and flags): on
   one thread, packing was the serial part beside the threaded kernel. */
typedef struct {
    const tc__gemm_job *jb;
    float *aval, *apow;
    double *bval, *bpow;
    unsigned char *rowbad, *colbad;
} tc__gemm_packing;

static void tc__gemm_pack_rows(void *ctx, size_t i0, size_t i1) {
    const tc__gemm_packing *pk = (const tc__gemm_packing *)ctx;
    const tc__gemm_job *jb = pk->jb;
    const tc__mma_cfg *cfg = jb->cfg;
    size_t K = (size_t)jb->K, H = (size_t)jb->H, i, k, t;
    if (!K) return;   /* then lda is unchecked and A may be NULL */
    for (i = i0; i < i1; i++) {
        float *av = pk->aval + i * K, *ap = pk->apow + i * K;
        const float *a = jb->A + i * jb->lda;
        if (jb->kpos) {
            for (k = 0; k < K; k++) av[k] = ap[k] = 0.0f;
            for (t = 0; t < H; t++) {
                size_t at = (size_t)jb->kpos[i * H + t];
                tc__gemm_pack_one(cfg, cfg->emin_in, a[t], &av[at], &ap[at], &pk->rowbad[i]);
            }
        } else {
            for (k = 0; k < K; k++) tc__gemm_pack_one(cfg, cfg->emin_in, a[k], &av[k], &ap[k], &pk->rowbad[i]);
        }
    }
}

static void tc__gemm_pack_panels(void *ctx, size_t p0, size_t p1) {
    const tc__gemm_packing *pk = (const tc__gemm_packing *)ctx;
    const tc__gemm_job *jb = pk->jb;
    size_t K = (size_t)jb->K, p, k, l;
    for (p = p0; p < p1; p++) for (k = 0; k < K; k++) for (l = 0; l < TC__GEMM_W; l++) {
        size_t j = p * TC__GEMM_W + l, at = (p * K + k) * TC__GEMM_W + l;
        float v = 0.0f, w = 0.0f;
        if (j < (size_t)jb->N) tc__gemm_pack_one(jb->cfg, jb->cfg->emin_b, jb->B[k * jb->ldb + j], &v, &w, &pk->colbad[j]);
        pk->bval[at] = v; pk->bpow[at] = w;
    }
}

static void *tc__gemm_pack(tc__gemm_job *jb, int threads) {
    size_t M = (size_t)jb->M, K = (size_t)jb->K, P = ((size_t)jb->N + TC__GEMM_W - 1) / TC__GEMM_W;
    size_t na = M * K, nb = P * K * TC__GEMM_W;
    char *mem;
    tc__gemm_packing pk;
    if (K && (na / K != M || nb / K / TC__GEMM_W != P || na > ((size_t)-1 - 64 - M - P * TC__GEMM_W) / 48 ||
              nb > ((size_t)-1 - 64 - M - P * TC__GEMM_W) / 48)) return NULL;
    mem = (char *)TC_MALLOC(64 + 2 * nb * sizeof(double) + 2 * na * sizeof(float) + M + P * TC__GEMM_W + 1);
    if (!mem) return NULL;
    pk.jb = jb;
    /* from a 64-byte boundary, so that no load of a panel's row (32 or 64
       bytes at a multiple of its own size) straddles two cache lines:
       +7-19% on AVX-512 (MEASURED on the Intel Xeon VM, docs/REFERENCE.md 2.10) */
    pk.bval = (double *)(void *)(mem + (64 - (uintptr_t)mem % 64) % 64); pk.bpow = pk.bval + nb;
    pk.aval = (float *)(void *)(pk.bpow + nb); pk.apow = pk.aval + na;
    pk.rowbad = (unsigned char *)(pk.apow + na); pk.colbad = pk.rowbad + M;
    memset(pk.rowbad, 0, M + P * TC__GEMM_W);
    tc__parallel_for(threads, M, TC__GEMM_ROWS, tc__gemm_pack_rows, &pk);
    tc__parallel_for(threads, P, 1, tc__gemm_pack_panels, &pk);
    jb->aval = pk.aval; jb->apow = pk.apow; jb->bval = pk.bval; jb->bpow = pk.bpow;
    jb->rowbad = pk.rowbad; jb->colbad = pk.colbad;
    return mem;
}
#endif

/* tc_gemm_desc's threads and force_scalar. */
static int tc__gemm_knobs_ok(int threads, int force_scalar) {
    return threads >= 0 && threads <= TC_GEMM_MAX_THREADS && (force_scalar == 0 || force_scalar == 1);
}

/* Prepares the operands for the path the job takes (the SIMD kernel where
   tc__gemm_fast_ok admits the combination and force_scalar is 0, else the
   scalar model's splits), runs it on `threads` threads, and frees. */
static tc_status tc__gemm_exec_in(tc__gemm_job *jb, tc_dtype in, int threads, int force_scalar) {
    tc__mma_op *pa, *pb;
    tc_status s;
    int arows = jb->kpos ? jb->H : jb->K;
#if defined(TC__SSE2)
    if (!force_scalar && jb->N >= TC__GEMM_MIN_N && tc__gemm_fast_ok(jb->cfg, in)) {
        void *mem = tc__gemm_pack(jb, threads);
        if (!mem) return TC_ERR_NOMEM;
        s = tc__gemm_run(jb, threads);
        TC_FREE(mem);
        return s;
    }
#else
    (void)in; (void)force_scalar;
#endif
    /* Split A (rows) and B (columns, transposed) once. */
    pa = tc__mma_split_matrix(jb->cfg, jb->cfg->emin_in, jb->M, arows, jb->A, jb->lda, 1);
    pb = tc__mma_split_matrix(jb->cfg, jb->cfg->emin_b, jb->N, jb->K, jb->B, 1, jb->ldb);
    if (!pa || !pb) { TC_FREE(pa); TC_FREE(pb); return TC_ERR_NOMEM; }
    jb->pa = pa; jb->pb = pb;
    s = tc__gemm_run(jb, threads);
    TC_FREE(pa); TC_FREE(pb);
    return s;
}

static tc_status tc__gemm_exec(tc__gemm_job *jb, tc_dtype in, int threads, int force_scalar) {
    TC__IN_DEFAULT_FP(tc_status, tc__gemm_exec_in(jb, in, threads, force_scalar));
}

/* x as a code of t; 0 unless x is a value of t (a NaN only where t has one). */
static int tc__code_of(tc_dtype t, float x, uint8_t *code) {
    uint32_t c = tc_encode(t, x, TC_RN);
    float back = tc_decode(t, c);
    *code = (uint8_t)c;
    return x != x ? back != back : tc__bits(back) == tc__bits(x);
}

/* kind::f8f6f4 on float operands (tcgen05.mma on B200, mma.sync on sm_120):
   a table row through tc_mma_run, and tc_gemm with an FP6 or FP4 operand
   (the only instruction on either that takes one). The values become codes
   (K padded to the instruction's 32 with zero codes, which add zero
   products that never set E) and tc_gemm_scaled runs that kind's model.
   K = 0 gives C. The same checks as tc__gemm, in its order. */
static tc_status tc__gemm_f8f6f4(tc_arch arch, tc_dtype in, tc_dtype inb, tc_dtype out, int M, int N, int K,
                                 const float *A, int lda, const float *B, int ldb,
                                 const float *C, int ldc, float *D, int ldd, const tc_mma_options *opt,
                                 int threads, int force_scalar) {
    tc_gemm_scaled_desc d;
    uint8_t *a, *b;
    tc_status s;
    int Kp = (K + 31) / 32 * 32, i, j;
    if (out != TC_FP32 && out != TC_FP16) return TC_ERR_DTYPE;
    if (M < 0 || N < 0 || K < 0) return TC_ERR_SIZE;
    if ((M && N && K && (!A || !B)) || (M && N && !D)) return TC_ERR_NULL;
    if ((K && M && lda < K) || (N && K && ldb < N) || (C && N && M && ldc < N) || (N && M && ldd < N)) return TC_ERR_SHAPE;
    if (!tc__gemm_knobs_ok(threads, force_scalar)) return TC_ERR_ARG;
    memset(&d, 0, sizeof d);
    if (opt) { d.options = *opt; d.options.b_type = TC_FP32; }
    d.type.arch = arch; d.type.kind = TC_KIND_F8F6F4;
    d.type.a_type = in; d.type.b_type = inb; d.type.out = out;
    d.K = 32;   /* an empty product: tc_gemm_scaled checks the type and the options, nothing else */
    s = tc_gemm_scaled(&d);
    if (s != TC_OK || M == 0 || N == 0) return s;
    if (C) for (i = 0; i < M; i++) for (j = 0; j < N; j++)
        if (!tc__representable(out, C[(size_t)i * (size_t)ldc + (size_t)j])) return TC_ERR_NOT_REPRESENTABLE;
    if (!K) {
        for (i = 0; i < M; i++) for (j = 0; j < N; j++)
            D[(size_t)i * (size_t)ldd + (size_t)j] = C ? C[(size_t)i * (size_t)ldc + (size_t)j] : 0.0f;
        return TC_OK;
    }
    if ((size_t)M > (size_t)-1 / (size_t)Kp / 2 || (size_t)N > (size_t)-1 / (size_t)Kp / 2) return TC_ERR_NOMEM;
    a = (uint8_t *)TC_MALLOC((size_t)M * (size_t)Kp);
    b = (uint8_t *)TC_MALLOC((size_t)N * (size_t)Kp);
    if (!a || !b) { TC_FREE(a); TC_FREE(b); return TC_ERR_NOMEM; }
    memset(a, 0, (size_t)M * (size_t)Kp);
    memset(b, 0, (size_t)N * (size_t)Kp);
    s = TC_OK;
    for (i = 0; i < M && s == TC_OK; i++)
        for (j = 0; j < K; j++)
            if (!tc__code_of(in, A[(size_t)i * (size_t)lda + (size_t)j], &a[(size_t)i * (size_t)Kp + (size_t)j])) s = TC_ERR_NOT_REPRESENTABLE;
    for (j = 0; j < K && s == TC_OK; j++)
        for (i = 0; i < N; i++)
            if (!tc__code_of(inb, B[(size_t)j * (size_t)ldb + (size_t)i], &b[(size_t)i * (size_t)Kp + (size_t)j])) s = TC_ERR_NOT_REPRESENTABLE;
    if (s == TC_OK) {
        d.M = M; d.N = N; d.K = Kp;
        d.A = a; d.B = b; d.C = C; d.ldc = C ? ldc : 0; d.D = D; d.ldd = ldd;
        s = tc_gemm_scaled(&d);
    }
    TC_FREE(a); TC_FREE(b);
    return s;
}

static tc_status tc__gemm(tc_arch arch, tc_dtype in, tc_dtype out, int M, int N, int K,
                          const float *A, int lda, const float *B, int ldb,
                          const float *C, int ldc, float *D, int ldd, const tc_mma_options *opt,
                          int threads, int force_scalar) {
    tc__mma_cfg cfg;
    tc__gemm_job jb;
    tc_status s;
    tc_dtype inb = opt && opt->b_type != TC_FP32 ? opt->b_type : in;
    if ((tc__is_f6f4_type(in) || tc__is_f6f4_type(inb)) && tc__f8f6f4_row_on(arch, in, inb))
        return tc__gemm_f8f6f4(arch, in, inb, out, M, N, K, A, lda, B, ldb, C, ldc, D, ldd, opt, threads, force_scalar);
    s = tc__mma_setup(arch, in, out, opt, &cfg);
    if (s != TC_OK) return s;
    if (M < 0 || N < 0 || K < 0) return TC_ERR_SIZE;
    if ((M && N && K && (!A || !B)) || (M && N && !D)) return TC_ERR_NULL;
    if ((K && M && lda < K) || (N && K && ldb < N) || (C && N && M && ldc < N) || (N && M && ldd < N)) return TC_ERR_SHAPE;
    if (!tc__gemm_knobs_ok(threads, force_scalar)) return TC_ERR_ARG;
    if (M == 0 || N == 0) return TC_OK;
    if (!tc__representable_matrix(in, M, K, A, lda) || !tc__representable_matrix(cfg.in_b, K, N, B, ldb) ||
        (C && !tc__representable_matrix(out, M, N, C, ldc))) return TC_ERR_NOT_REPRESENTABLE;
    /* The last group of a K that is not a multiple is short: the zero
       products a padded kernel would add change nothing under either zero
       rule (their exponent is below c's, and they add 0). */
    memset(&jb, 0, sizeof jb);
    jb.cfg = &cfg; jb.M = M; jb.N = N; jb.K = K;
    jb.A = A; jb.lda = (size_t)lda; jb.B = B; jb.ldb = (size_t)ldb;
    jb.C = C; jb.ldc = (size_t)ldc; jb.D = D; jb.ldd = (size_t)ldd;
    return tc__gemm_exec(&jb, in, threads, force_scalar);
}

TCDEF tc_status tc_gemm(tc_arch arch, tc_dtype in, tc_dtype out, int M, int N, int K,
                        const float *A, int lda, const float *B, int ldb,
                        const float *C, int ldc, float *D, int ldd) {
    return tc__gemm(arch, in, out, M, N, K, A, lda, B, ldb, C, ldc, D, ldd, NULL, 0, 0);
}

/* A leading dimension of 0 in a descriptor means tightly packed. */
static int tc__ld(int ld, int packed) { return ld ? ld : packed; }

TCDEF tc_status tc_gemm_ex(const tc_gemm_desc *d) {
    if (!d) return TC_ERR_NULL;
    return tc__gemm(d->arch, d->in, d->out, d->M, d->N, d->K, d->A, tc__ld(d->lda, d->K), d->B, tc__ld(d->ldb, d->N),
                    d->C, tc__ld(d->ldc, d->N), d->D, tc__ld(d->ldd, d->N), &d->options, d->threads, d->force_scalar);
}

/* ---- reference models ---- */

static tc_status tc__dot_args(int k, const float *a, int inc_a, const float *b, int inc_b, float *out) {
    if (!out || (k > 0 && (!a || !b))) return TC_ERR_NULL;
    if (k < 0) return TC_ERR_SIZE;
    if (inc_a < 1 || inc_b < 1) return TC_ERR_ARG;
    return TC_OK;
}

static tc_status tc__dot_fma_in(int k, const float *a, int inc_a, const float *b, int inc_b, float c, float *out) {
    int i;
    tc_status st = tc__dot_args(k, a, inc_a, b, inc_b, out);
    if (st != TC_OK) return st;
    for (i = 0; i < k; i++) c = fmaf(a[(size_t)i * (size_t)inc_a], b[(size_t)i * (size_t)inc_b], c);
    *out = c;
    return TC_OK;
}

TCDEF tc_status tc_dot_fma(int k, const float *a, int inc_a, const float *b, int inc_b, float c, float *out) {
    TC__IN_DEFAULT_FP(tc_status, tc__dot_fma_in(k, a, inc_a, b, inc_b, c, out));
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

static float tc__dot_exact(int k, const float *a, int inc_a, const float *b, int inc_b, float c) {
    uint32_t acc[TC__EXACT_LIMBS];
    uint32_t pos = 0, neg = 0, nan = 0, all_negzero, sign, keep = 0, enc;
    int i, top, e, cut, lsb, lsb2, sticky = 0;
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

static tc_status tc__dot_exact_in(int k, const float *a, int inc_a, const float *b, int inc_b, float c, float *out) {
    tc_status st = tc__dot_args(k, a, inc_a, b, inc_b, out);
    if (st != TC_OK) return st;
    *out = tc__dot_exact(k, a, inc_a, b, inc_b, c);
    return TC_OK;
}

TCDEF tc_status tc_dot_exact(int k, const float *a, int inc_a, const float *b, int inc_b, float c, float *out) {
    TC__IN_DEFAULT_FP(tc_status, tc__dot_exact_in(k, a, inc_a, b, inc_b, c, out));
}

/* ---- Blackwell kinds: FP4/FP6 operands, block scaling ---- */

TCDEF const char *tc_mma_kind_name(tc_mma_kind kind) {
    switch (kind) {
    case TC_KIND_F8F6F4:   return "f8f6f4";
    case TC_KIND_MXF8F6F4: return "mxf8f6f4";
    case TC_KIND_MXF4:     return "mxf4";
    case TC_KIND_MXF4NVF4: return "mxf4nvf4";
    default: return NULL;
    }
}

/* The per-kind configuration: section 2's cfg (F, output, sign of zero),
   the instruction's K, the scale block, and for the FP4 kinds the 16
   products summed exactly into one scaled term (chunk). */
typedef struct {
    tc__mma_cfg cfg;
    tc_mma_scaled_type t;
    int ik, chunk, emin_a, emin_b, scaled;
} tc__scaled_cfg;

/* 1 if a row of the table spells block-scaled type t on t->arch (kind,
   types, scale type and block). sm_120 takes only those: ptxas refuses
   its other scale spellings, so the hardware cannot be asked for them,
   although MMA-Sim's sm_120 list also computes mxf4nvf4 with ue8m0 per 16
   and ue4m3 per 32. */
static int tc__scaled_row_on(const tc_mma_scaled_type *t) {
    int i;
    tc__instr_key r;
    tc_mma_scaled_type rt;
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++)
        if (tc__instr_key_of(i, &r) && (r.archs & TC_ARCH_BIT(t->arch)) && r.in == t->a_type && r.b_type == t->b_type &&
            tc_mma_instr_scaled_type((tc_mma_instr)i, &rt) == TC_OK && rt.kind == t->kind &&
            rt.scale_type == t->scale_type && rt.block == t->block) return 1;
    return 0;
}

static tc_status tc__scaled_setup(const tc_mma_scaled_type *t, const tc_mma_options *opt, tc__scaled_cfg *s) {
    int fp4 = t->kind == TC_KIND_MXF4 || t->kind == TC_KIND_MXF4NVF4;
    tc__mma_cfg *cfg = &s->cfg;
    if ((int)t->kind < 0 || t->kind >= TC_KIND_COUNT) return TC_ERR_ARG;
    if (t->arch != TC_ARCH_B200 && t->arch != TC_ARCH_RTX_BLACKWELL) return TC_ERR_ARCH;
    if (!tc__is_f8f6f4_type(t->a_type) || !tc__is_f8f6f4_type(t->b_type) ||
        (fp4 && (t->a_type != TC_E2M1 || t->b_type != TC_E2M1))) return TC_ERR_DTYPE;
    if (t->out != TC_FP32 && !(t->out == TC_FP16 && t->kind == TC_KIND_F8F6F4)) return TC_ERR_DTYPE;
    s->scaled = t->kind != TC_KIND_F8F6F4;
    if (s->scaled) {
        int ue4m3 = t->scale_type == TC_UE4M3;
        if (t->scale_type != TC_UE8M0 && !(ue4m3 && t->kind == TC_KIND_MXF4NVF4)) return TC_ERR_DTYPE;
        if (t->block != 32 && !(t->block == 16 && t->kind == TC_KIND_MXF4NVF4)) return TC_ERR_SHAPE;
        if (ue4m3 && t->block != 16 && t->arch == TC_ARCH_B200) return TC_ERR_SHAPE;
        if (t->arch == TC_ARCH_RTX_BLACKWELL && !tc__scaled_row_on(t)) return TC_ERR_SHAPE;
    }
    if (opt) {
        /* B's type is t->b_type here, so options.b_type must stay 0 */
        if (opt->zero_rule != TC_MMA_ZEROS_MMASIM || opt->group != 0 || opt->frac_bits < 0 || opt->frac_bits > 40 ||
            opt->b_type != TC_FP32 ||
            (opt->zero_sign != TC_MMA_ZERO_SIGN_SUM && opt->zero_sign != TC_MMA_ZERO_SIGN_PLUS)) return TC_ERR_ARG;
    }
    s->t = *t;
    if (!s->scaled) { s->t.scale_type = TC_FP32; s->t.block = 0; }
    s->ik = fp4 ? 64 : 32;
    s->chunk = fp4 ? 16 : 0;
    s->emin_a = tc__type_emin(t->a_type);
    s->emin_b = tc__type_emin(t->b_type);
    cfg->p.frac_bits = opt && opt->frac_bits ? opt->frac_bits : fp4 ? 35 : 25;
    cfg->p.group = fp4 ? 16 : 32;
    cfg->p.instr_k = cfg->p.min_k = s->ik;
    cfg->p.out_mbits = t->out == TC_FP16 ? 10 : 23;
    cfg->p.out_rounding = t->out == TC_FP16 ? TC_RN : TC_RZ;
    cfg->p.exp_floor = TC__MMA_NO_FLOOR;
    cfg->emin_in = s->emin_a;
    cfg->emin_b = s->emin_b;
    cfg->emin_c = tc__type_emin(t->out);
    cfg->out_emin = t->out == TC_FP16 ? -14 : -126;
    cfg->out_ebits = t->out == TC_FP16 ? 5 : 8;
    cfg->out_rne = t->out == TC_FP16;
    cfg->out_fp16 = t->out == TC_FP16;
    cfg->zero_exp = TC__MMA_MMASIM_ZERO;
    cfg->floor = TC__MMA_NO_FLOOR;
    cfg->tf32 = 0;
    cfg->plus_zero = opt && opt->zero_sign == TC_MMA_ZERO_SIGN_PLUS;
    return TC_OK;
}

TCDEF tc_status tc_mma_scaled_params_of(const tc_mma_scaled_type *t, tc_mma_params *p) {
    tc__scaled_cfg s;
    tc_status st;
    if (!t || !p) return TC_ERR_NULL;
    st = tc__scaled_setup(t, NULL, &s);
    if (st == TC_OK) *p = s.cfg.p;
    return st;
}

/* A scale code as significand * 2^(exp - 3) with an integer significand of
   3 fractional bits (ue8m0: 8, ue4m3: its 4 bits, subnormals 0..7 at the
   minimum exponent -6; a zero scale has exponent -126 as any zero). -1: the
   NaN code. The caller has checked the code's width. */
static int tc__scale_split(tc_dtype st, uint8_t code, int *exp) {
    if (st == TC_UE8M0) {
        if (code == 0xFF) return -1;
        *exp = (int)code - 127;
        return 8;
    }
    if (code == 0x7F) return -1;
    if (code == 0) { *exp = TC__MMA_MMASIM_ZERO; return 0; }
    if (code >> 3) { *exp = (int)(code >> 3) - 7; return 8 | (code & 7); }
    *exp = -6;
    return code & 7;
}

/* One F8F6F4-kind instruction: 32 products, each product's exponent raised
   by the two scale exponents (0 unscaled), one block FMA onto c. */
static float tc__scaled_f8(const tc__scaled_cfg *s, const uint8_t *a, const uint8_t *b, int ea, int eb, float c) {
    tc__mma_op pa[32], pb[32];
    float fa[32], fb[32];
    int i, special;
    float r;
    for (i = 0; i < 32; i++) {
        fa[i] = tc_decode(s->t.a_type, a[i]);
        fb[i] = tc_decode(s->t.b_type, b[i]);
        pa[i] = tc__mma_split(fa[i], s->emin_a, TC__MMA_MMASIM_ZERO);
        pb[i] = tc__mma_split(fb[i], s->emin_b, TC__MMA_MMASIM_ZERO);
        pa[i].exp += ea;
        pb[i].exp += eb;
    }
    r = tc__mma_block(&s->cfg, 32, pa, pb, tc__mma_split(c, s->cfg.emin_c, TC__MMA_MMASIM_ZERO), &special);
    return special ? tc__mma_special(&s->cfg, 32, fa, 1, fb, 1, c) : r;
}

/* One FP4-kind instruction (K 64): four terms, each the exact sum of 16
   e2m1 products (in quarters) times the two scale significands, at the
   exponent of the two scales; c; truncation to F bits below the largest
   exponent; one rounding. */
static float tc__scaled_fp4(const tc__scaled_cfg *s, const uint8_t *a, const uint8_t *b,
                            const uint8_t *sa, const uint8_t *sb, float c) {
    int64_t T[4], S = 0;
    int te[4], E, F = s->cfg.p.frac_bits, j, i;
    tc__mma_op oc;
    if (c != c) return tc__float(0x7FFFFFFFu);
    for (j = 0; j < 4; j++) {
        int idx = j * 16 / s->t.block, xa, xb, ma = tc__scale_split(s->t.scale_type, sa[idx], &xa),
            mb = tc__scale_split(s->t.scale_type, sb[idx], &xb);
        int32_t q = 0;
        if (ma < 0 || mb < 0) return tc__float(0x7FFFFFFFu);
        for (i = 0; i < 16; i++)
            q += (int32_t)(2.0f * tc_decode(TC_E2M1, a[j * 16 + i])) * (int32_t)(2.0f * tc_decode(TC_E2M1, b[j * 16 + i]));
        T[j] = (int64_t)q * ma * mb;    /* value T * 2^(te - 8) */
        te[j] = xa + xb;
    }
    if (c - c != 0.0f) return c;        /* Inf c: ASSUMED (see the declaration) */
    oc = tc__mma_split(c, -126, TC__MMA_MMASIM_ZERO);
    E = oc.exp;
    for (j = 0; j < 4; j++) if (te[j] > E) E = te[j];
    for (j = 0; j <= 4; j++) {
        int64_t v = j < 4 ? T[j] : oc.sig;
        int sh = j < 4 ? te[j] - 8 - E + F : oc.exp - 23 - E + F;
        uint64_t m = (uint64_t)(v < 0 ? -v : v);
        m = sh >= 0 ? m << sh : -sh > 63 ? 0 : m >> -sh;
        S += v < 0 ? -(int64_t)m : (int64_t)m;
    }
    return tc__mma_round(&s->cfg, S, E - F);
}

/* 1 if each of the n codes fits the bit width of type t. */
static int tc__codes_ok(tc_dtype t, const uint8_t *x, int n) {
    int i, bits = tc_format_of(t)->total_bits;
    for (i = 0; i < n; i++) if (x[i] >> bits) return 0;
    return 1;
}

/* One output: k / ik instructions chained, codes contiguous along K. */
static float tc__scaled_dot(const tc__scaled_cfg *s, int k, const uint8_t *a, const uint8_t *b,
                            const uint8_t *sa, const uint8_t *sb, float c) {
    int k0;
    for (k0 = 0; k0 < k; k0 += s->ik) {
        if (s->chunk) { c = tc__scaled_fp4(s, a + k0, b + k0, sa + k0 / s->t.block, sb + k0 / s->t.block, c); continue; }
        if (s->scaled) {
            int xa, xb;
            if (tc__scale_split(TC_UE8M0, sa[k0 / 32], &xa) < 0 || tc__scale_split(TC_UE8M0, sb[k0 / 32], &xb) < 0) {
                c = tc__float(0x7FFFFFFFu);
                continue;
            }
            c = tc__scaled_f8(s, a + k0, b + k0, xa, xb, c);
        } else {
            c = tc__scaled_f8(s, a + k0, b + k0, 0, 0, c);
        }
    }
    return c;
}

static tc_status tc__mma_dot_scaled_in(const tc_mma_scaled_type *t, int k, const uint8_t *a, const uint8_t *b,
                                       const uint8_t *scale_a, const uint8_t *scale_b, float c,
                                       const tc_mma_options *opt, float *out) {
    tc__scaled_cfg s;
    tc_status st;
    if (!t || !a || !b || !out) return TC_ERR_NULL;
    st = tc__scaled_setup(t, opt, &s);
    if (st != TC_OK) return st;
    if (s.scaled && (!scale_a || !scale_b)) return TC_ERR_NULL;
    if (k < 1 || k % s.ik) return TC_ERR_SHAPE;
    if (!tc__codes_ok(t->a_type, a, k) || !tc__codes_ok(t->b_type, b, k) || !tc__representable(t->out, c) ||
        (s.scaled && (!tc__codes_ok(s.t.scale_type, scale_a, k / s.t.block) ||
                      !tc__codes_ok(s.t.scale_type, scale_b, k / s.t.block)))) return TC_ERR_NOT_REPRESENTABLE;
    *out = tc__scaled_dot(&s, k, a, b, scale_a, scale_b, c);
    return TC_OK;
}

TCDEF tc_status tc_mma_dot_scaled(const tc_mma_scaled_type *t, int k, const uint8_t *a, const uint8_t *b,
                                  const uint8_t *scale_a, const uint8_t *scale_b, float c,
                                  const tc_mma_options *opt, float *out) {
    TC__IN_DEFAULT_FP(tc_status, tc__mma_dot_scaled_in(t, k, a, b, scale_a, scale_b, c, opt, out));
}

/* 1 if the rows x cols byte matrix at X (leading dimension ld) fits type t. */
static int tc__codes_matrix_ok(tc_dtype t, int rows, int cols, const uint8_t *X, int ld) {
    int r;
    for (r = 0; r < rows; r++) if (!tc__codes_ok(t, X + (size_t)r * (size_t)ld, cols)) return 0;
    return 1;
}

static tc_status tc__gemm_scaled_in(const tc_gemm_scaled_desc *d) {
    tc__scaled_cfg s;
    tc_status st;
    int M, N, K, nb, lda, ldb, ldsa, ldsb, ldc, ldd, i, j;
    if (!d) return TC_ERR_NULL;
    st = tc__scaled_setup(&d->type, &d->options, &s);
    if (st != TC_OK) return st;
    M = d->M; N = d->N; K = d->K;
    if (M < 0 || N < 0) return TC_ERR_SIZE;
    if (K < 1 || K % s.ik) return TC_ERR_SHAPE;
    if ((M && !d->A) || (N && !d->B) || (M && N && !d->D) || (s.scaled && ((M && !d->scale_A) || (N && !d->scale_B))))
        return TC_ERR_NULL;
    nb = s.scaled ? K / s.t.block : 0;
    lda = d->lda ? d->lda : K; ldb = d->ldb ? d->ldb : K;
    ldsa = d->ldsa ? d->ldsa : nb; ldsb = d->ldsb ? d->ldsb : nb;
    ldc = d->ldc ? d->ldc : N; ldd = d->ldd ? d->ldd : N;
    if (lda < K || ldb < K || ldsa < nb || ldsb < nb || ldc < N || ldd < N || (d->C == d->D && d->C && ldc != ldd))
        return TC_ERR_SHAPE;
    if (!tc__codes_matrix_ok(d->type.a_type, M, K, d->A, lda) || !tc__codes_matrix_ok(d->type.b_type, N, K, d->B, ldb) ||
        (s.scaled && (!tc__codes_matrix_ok(s.t.scale_type, M, nb, d->scale_A, ldsa) ||
                      !tc__codes_matrix_ok(s.t.scale_type, N, nb, d->scale_B, ldsb))))
        return TC_ERR_NOT_REPRESENTABLE;
    if (d->C)
        for (i = 0; i < M; i++) for (j = 0; j < N; j++)
            if (!tc__representable(d->type.out, d->C[(size_t)i * (size_t)ldc + (size_t)j])) return TC_ERR_NOT_REPRESENTABLE;
    for (i = 0; i < M; i++)
        for (j = 0; j < N; j++) {
            size_t ci = (size_t)i * (size_t)ldc + (size_t)j;
            d->D[(size_t)i * (size_t)ldd + (size_t)j] =
                tc__scaled_dot(&s, K, d->A + (size_t)i * (size_t)lda, d->B + (size_t)j * (size_t)ldb,
                               s.scaled ? d->scale_A + (size_t)i * (size_t)ldsa : NULL,
                               s.scaled ? d->scale_B + (size_t)j * (size_t)ldsb : NULL, d->C ? d->C[ci] : 0.0f);
        }
    return TC_OK;
}

TCDEF tc_status tc_gemm_scaled(const tc_gemm_scaled_desc *d) {
    TC__IN_DEFAULT_FP(tc_status, tc__gemm_scaled_in(d));
}

/* ---- the instruction table and fragment layouts ---- */

/* Bytes of one element of an instruction's A or B. */
TC_HOST_DEVICE static int tc__mma_elem_bits(tc_dtype t) {
    return t == TC_TF32 ? 32 : t == TC_FP16 || t == TC_BF16 ? 16 : t == TC_S4 || t == TC_U4 ? 4 : 8;
}

TC_HOST_DEVICE TCDEF tc_status tc_mma_instr_get(tc_mma_instr i, tc_mma_instr_info *out) {
    tc_mma_instr_info r;
    if (!out) return TC_ERR_NULL;
    switch (i) {
#define TC__MMA_INSTR_CASE(id, nm, px, M, N, K, IN, INB, F16, GRP, KEEP, SEL, ML, AE, BE, CE, ARCHS, LAYOUT, THR, NSTEP) \
    case id: r.name = nm; r.ptx = px; r.m = M; r.n = N; r.k = K; r.in = IN; r.b_type = INB;              \
        r.fp16_accumulate = F16;                                                                           \
        r.sparse_group = GRP; r.sparse_keep = KEEP; r.selectors = SEL; r.meta_lanes = ML;                  \
        r.a_elems = AE; r.b_elems = BE; r.c_elems = CE; r.archs = ARCHS; r.layout = LAYOUT;          \
        r.threads = THR; r.n_step = NSTEP; break;
    TC__MMA_INSTR_LIST(TC__MMA_INSTR_CASE)
#undef TC__MMA_INSTR_CASE
    default: return TC_ERR_ARG;
    }
    /* kind::mxf4 and mxf4nvf4 (e2m1, K 64) pack e2m1 two to a byte;
       kind::f8f6f4 and mxf8f6f4 give every value a byte (tc__mma_elem_bits).
       The string is read only for e2m1 rows of K 64: table scans call this
       for every row, per dot product */
    {
        const int packed = r.in == TC_E2M1 && r.k == 64 && tc__str_has(r.ptx, "kind::mxf4");
        r.a_regs = (r.a_elems * (packed ? 4 : tc__mma_elem_bits(r.in)) + 31) / 32;
        r.b_regs = (r.b_elems * (packed ? 4 : tc__mma_elem_bits(r.b_type)) + 31) / 32;
    }
    *out = r;
    return TC_OK;
}

TCDEF tc_status tc_mma_instr_find(const char *name, tc_mma_instr *out) {
    int i;
    tc_mma_instr_info info;
    if (!name || !out) return TC_ERR_NULL;
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++)
        if (tc_mma_instr_get((tc_mma_instr)i, &info) == TC_OK && strcmp(info.name, name) == 0) {
            *out = (tc_mma_instr)i;
            return TC_OK;
        }
    return TC_ERR_ARG;
}

TC_HOST_DEVICE TCDEF int tc_mma_instr_n_ok(tc_mma_instr i, int n) {
    tc_mma_instr_info info;
    if (tc_mma_instr_get(i, &info) != TC_OK) return 0;
    if (!info.n_step) return n == info.n;
    return n >= info.n_step && n <= info.n && n % info.n_step == 0;
}

TCDEF tc_status tc_mma_run(tc_arch arch, tc_mma_instr kind, int n, tc_dtype out, const float *A, const float *B,
                           const float *C, float *D) {
    tc_mma_instr_info info;
    tc_gemm_desc d;
    if (tc_mma_instr_get(kind, &info) != TC_OK || info.sparse_group || tc__instr_kind(&info) > TC_KIND_F8F6F4)
        return TC_ERR_ARG;
    if ((int)arch < 0 || arch >= TC_ARCH_COUNT || !(info.archs & TC_ARCH_BIT(arch))) return TC_ERR_ARCH;
    if (!tc_mma_instr_n_ok(kind, n)) return TC_ERR_SHAPE;
    if (out != TC_FP32 && !(out == TC_FP16 && info.fp16_accumulate)) return TC_ERR_DTYPE;
    if (!A || !B || !D) return TC_ERR_NULL;
    if (tc__instr_is_f8f6f4(info.threads, info.in, info.b_type, info.ptx))
        return tc__gemm_f8f6f4(arch, info.in, info.b_type, out, info.m, n, info.k, A, info.k, B, n, C, n, D, n, NULL, 0, 0);
    memset(&d, 0, sizeof d);
    d.arch = arch; d.in = info.in; d.out = out;
    d.M = info.m; d.N = n; d.K = info.k;
    d.A = A; d.B = B; d.C = C; d.D = D;
    d.options.b_type = info.b_type;
    return tc_gemm_ex(&d);
}

/* The m16n8 layouts share one pattern per element size: 16-bit types hold
   two elements per register, tf32 one; a sparse kind's A is the dense
   layout of the instruction of half its K, on the compressed tile, and its
   B the dense B of its full K. g = lane / 4 (the group), t = lane % 4. */
TC_HOST_DEVICE TCDEF tc_status tc_mma_frag_coord(tc_mma_instr s, tc_frag f, int lane, int i, int *row, int *col) {
    tc_mma_instr_info info;
    int g = lane >> 2, t = lane & 3, tf32, count, per;
    if (!row || !col) return TC_ERR_NULL;
    if (tc_mma_instr_get(s, &info) != TC_OK || !info.layout) return TC_ERR_ARG;
    count = f == TC_FRAG_A ? info.a_elems : f == TC_FRAG_B ? info.b_elems : f == TC_FRAG_C ? info.c_elems : 0;
    if (lane < 0 || lane > 31 || i < 0 || i >= count) return TC_ERR_ARG;
    tf32 = info.in == TC_TF32;
    /* 16- and 8-bit types: `per` elements share a register (2 or 4), a
       quad's four lanes cover 4 * per consecutive k, and registers step
       rows g / g+8 (A) before columns; for 8-bit m16n8k32 that is PTX's
       a_i at (g + 8 [i%8 >= 4], 4t + i%4 + 16 [i >= 8]), b_i at (4t + i%4 + 16 [i >= 4], g). */
    per = f == TC_FRAG_A ? info.a_elems / info.a_regs : info.b_elems / info.b_regs;
    switch (f) {
    case TC_FRAG_A:
        if (tf32) { *row = g + 8 * (i & 1); *col = t + 4 * (i >> 1); }           /* a0 (g,t) a1 (g+8,t) a2 (g,t+4) a3 (g+8,t+4) */
        else { *row = g + 8 * ((i / per) & 1); *col = per * t + i % per + 4 * per * (i / (2 * per)); }
        break;
    case TC_FRAG_B:
        if (tf32) { *row = t + 4 * i; *col = g; }                                 /* b0 (t,g) b1 (t+4,g) */
        else { *row = per * t + i % per + 4 * per * (i / per); *col = g; }
        break;
    default:                                                                      /* C and D: c0,c1 row g; c2,c3 row g+8 */
        *row = g + 8 * (i >> 1); *col = 2 * t + (i & 1);
        break;
    }
    return TC_OK;
}

/* ------------------------------------------------ section 2: integer mma */

static int tc__imma_is8(tc_dtype t) { return t == TC_S8 || t == TC_U8; }
static int tc__imma_is4(tc_dtype t) { return t == TC_S4 || t == TC_U4; }

TCDEF tc_status tc_imma_k(const tc_imma_type *t, int *min_k, int *max_k) {
    int lo, hi;
    if (!t || !min_k || !max_k) return TC_ERR_NULL;
    if (!(tc__imma_is8(t->a_type) && tc__imma_is8(t->b_type)) && !(tc__imma_is4(t->a_type) && tc__imma_is4(t->b_type)))
        return TC_ERR_DTYPE;
    if (t->satfinite != 0 && t->satfinite != 1) return TC_ERR_ARG;
    if ((int)t->arch < 0 || t->arch >= TC_ARCH_COUNT) return TC_ERR_ARCH;
    tc__mma_k_range(tc__mma_k_mask(t->arch, t->a_type, t->b_type), &lo, &hi);
    if (!hi) return TC_ERR_ARCH;
    *min_k = lo; *max_k = hi;
    return TC_OK;
}

/* An operand's value: u8 codes are held as int8_t bits. */
static int32_t tc__imma_val(tc_dtype t, int8_t x) { return t == TC_U8 ? (int32_t)(uint8_t)x : (int32_t)x; }

/* 1 if every one of n values (stride inc) lies in the type's range; only
   the 4-bit types can hold a byte outside it. */
static int tc__imma_in_range(tc_dtype t, const int8_t *x, size_t n, size_t inc) {
    size_t i;
    int sgn, bits = tc__int_bits(t, &sgn);
    if (bits == 8) return 1;
    for (i = 0; i < n; i++)
        if (x[i * inc] < tc__int_min(bits, sgn) || x[i * inc] > tc__int_max(bits, sgn)) return 0;
    return 1;
}

/* The chain of instructions: each adds its K exact products to the
   previous D, then wraps modulo 2^32 or clamps (.satfinite). */
static int32_t tc__imma_chain(const tc_imma_type *t, int lo, int hi, int k, const int8_t *a, const int8_t *b,
                              size_t inc_b, int32_t c) {
    int64_t acc = c;
    int i = 0;
    while (i < k) {
        int end = i + (k - i >= hi ? hi : lo);
        for (; i < end; i++) acc += (int64_t)tc__imma_val(t->a_type, a[i]) * tc__imma_val(t->b_type, b[(size_t)i * inc_b]);
        if (t->satfinite) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
        else {
            uint32_t u = (uint32_t)(uint64_t)acc;   /* modulo 2^32 */
            acc = u > (uint32_t)INT32_MAX ? (int64_t)u - ((int64_t)1 << 32) : (int64_t)u;
        }
    }
    return (int32_t)acc;
}

TCDEF tc_status tc_imma_dot(const tc_imma_type *t, int k, const int8_t *a, const int8_t *b, int32_t c, int32_t *out) {
    int lo, hi;
    tc_status st = tc_imma_k(t, &lo, &hi);
    if (!out) return TC_ERR_NULL;
    if (st != TC_OK) return st;
    if (k < 0 || k % lo) return TC_ERR_SHAPE;
    if (k && (!a || !b)) return TC_ERR_NULL;
    if (!tc__imma_in_range(t->a_type, a, (size_t)k, 1) || !tc__imma_in_range(t->b_type, b, (size_t)k, 1)) return TC_ERR_NOT_REPRESENTABLE;
    *out = tc__imma_chain(t, lo, hi, k, a, b, 1, c);
    return TC_OK;
}

TCDEF tc_status tc_igemm(const tc_igemm_desc *d) {
    int lo, hi, m, n;
    size_t lda, ldb, ldc, ldd;
    tc_status st;
    if (!d) return TC_ERR_NULL;
    if ((st = tc_imma_k(&d->type, &lo, &hi)) != TC_OK) return st;
    if (d->M < 0 || d->N < 0 || d->K < 0) return TC_ERR_SIZE;
    lda = (size_t)tc__ld(d->lda, d->K); ldb = (size_t)tc__ld(d->ldb, d->N);
    ldc = (size_t)tc__ld(d->ldc, d->N); ldd = (size_t)tc__ld(d->ldd, d->N);
    if (d->lda < 0 || d->ldb < 0 || d->ldc < 0 || d->ldd < 0 || lda < (size_t)d->K || ldb < (size_t)d->N ||
        ldc < (size_t)d->N || ldd < (size_t)d->N || d->K % lo) return TC_ERR_SHAPE;
    if (d->M == 0 || d->N == 0) return TC_OK;
    if (!d->D || (d->K && (!d->A || !d->B))) return TC_ERR_NULL;
    for (m = 0; m < d->M && d->K; m++)
        if (!tc__imma_in_range(d->type.a_type, d->A + (size_t)m * lda, (size_t)d->K, 1)) return TC_ERR_NOT_REPRESENTABLE;
    for (n = 0; n < d->N && d->K; n++)
        if (!tc__imma_in_range(d->type.b_type, d->B + n, (size_t)d->K, ldb)) return TC_ERR_NOT_REPRESENTABLE;
    for (m = 0; m < d->M; m++)
        for (n = 0; n < d->N; n++) {
            int32_t c = d->C ? d->C[(size_t)m * ldc + (size_t)n] : 0;
            d->D[(size_t)m * ldd + (size_t)n] = d->K ? tc__imma_chain(&d->type, lo, hi, d->K, d->A + (size_t)m * lda, d->B + n, ldb, c) : c;
        }
    return TC_OK;
}

/* ------------------------------------------------ section 3: loss scaling */

/* A double rounds to fp32 Inf from here up (FLT_MAX plus half an ulp; the
   tie goes to Inf because FLT_MAX's last mantissa bit is odd). Tested before
   the cast, since converting an out-of-range double to float is undefined
   in ISO C. */
#define TC__F32_OVERFLOW_THRESHOLD 3.4028235677973366e38
#define TC__F32_MIN_NORMAL 1.1754943508222875e-38

TCDEF tc_status tc_scaler_preset(tc_scaler_preset_kind kind, tc_scaler_desc *out) {
    tc_scaler_desc d;
    if (!out) return TC_ERR_NULL;
    memset(&d, 0, sizeof d);
    switch (kind) {
    case TC_SCALER_PYTORCH: break;
    case TC_SCALER_TENSORFLOW: d.init_scale = 32768.0f; d.min_scale = 1.0f; break;
    case TC_SCALER_APEX: d.max_scale = 16777216.0f; break;
    case TC_SCALER_MEGATRON:
        d.init_scale = 4294967296.0f; d.min_scale = 1.0f; d.growth_interval = 1000; d.hysteresis = 2;
        break;
    default: return TC_ERR_ARG;
    }
    *out = d;
    return TC_OK;
}

/* finite and > 0 (false for NaN) */
static int tc__positive_finite(double x) { return x > 0 && x < TC__F32_OVERFLOW_THRESHOLD; }

/* A usable loss scale: finite, and at least FLT_MIN so that its fp32
   reciprocal (the unscale factor) is finite too - the floor updates keep. */
static int tc__scale_ok(double x) { return x >= TC__F32_MIN_NORMAL && x < TC__F32_OVERFLOW_THRESHOLD; }

static tc_status tc__scaler_init_in(tc_scaler *s, const tc_scaler_desc *desc) {
    tc_scaler_desc d;
    tc_scaler r;
    if (!s) return TC_ERR_NULL;
    if (desc) d = *desc; else memset(&d, 0, sizeof d);
    if (d.init_scale == 0) d.init_scale = 65536.0f;
    if (d.growth_factor == 0) d.growth_factor = 2.0;
    if (d.backoff_factor == 0) d.backoff_factor = 0.5;
    if (d.growth_interval == 0) d.growth_interval = 2000;
    if (d.hysteresis == 0) d.hysteresis = 1;
    if (!tc__scale_ok(d.init_scale) || !(d.growth_factor > 1) || !(d.growth_factor < TC__F32_OVERFLOW_THRESHOLD) ||
        !(d.backoff_factor > 0 && d.backoff_factor < 1) || d.growth_interval < 0 || d.hysteresis < 0)
        return TC_ERR_ARG;
    if (!(d.min_scale == 0 || tc__scale_ok(d.min_scale)) || !(d.max_scale == 0 || tc__scale_ok(d.max_scale)))
        return TC_ERR_ARG;
    if ((d.min_scale > 0 && d.init_scale < d.min_scale) || (d.max_scale > 0 && d.init_scale > d.max_scale))
        return TC_ERR_ARG;
    if (d.growth_interval == 1 && !d.is_static && !d.allow_growth_every_step) return TC_ERR_GROWTH_EVERY_STEP;
    memset(&r, 0, sizeof r);
    r.scale = d.init_scale;
    r.hysteresis_left = d.hysteresis;
    r.is_static = d.is_static != 0;
    r.growth_interval = d.growth_interval;
    r.hysteresis = d.hysteresis;
    r.growth_factor = d.growth_factor;
    r.backoff_factor = d.backoff_factor;
    r.min_scale = d.min_scale;
    r.max_scale = d.max_scale;
    *s = r;
    return TC_OK;
}
TCDEF tc_status tc_scaler_init(tc_scaler *s, const tc_scaler_desc *desc) { TC__IN_DEFAULT_FP(tc_status, tc__scaler_init_in(s, desc)); }

/* The order of tests follows PyTorch's kernel, with Megatron's hysteresis
   and the floors and ceilings of TF, apex and Megatron applied to the
   product before it is kept. */
TC_HOST_DEVICE static tc_status tc__scaler_update_in(tc_scaler *s, int found_inf) {
    double p;
    float next;
    if (!s) return TC_ERR_NULL;
    s->steps++;
    if (found_inf) {
        s->skipped++;
        s->consecutive_skips++;
        if (s->is_static) return TC_OK;
        s->growth_tracker = 0;
        if (s->hysteresis_left > 0) s->hysteresis_left--;
        if (s->hysteresis_left > 0) return TC_OK;
        p = (double)s->scale * s->backoff_factor;
        if (s->min_scale > 0 && p < s->min_scale) {
            if (s->scale <= s->min_scale) return TC_WARN_SCALE_AT_MIN;
            p = s->min_scale;
        }
        if (p < TC__F32_MIN_NORMAL) return TC_WARN_SCALE_COLLAPSED;
        s->scale = (float)p;
        return s->scale < 1.0f ? TC_WARN_SCALE_BELOW_ONE : TC_OK;
    }
    s->consecutive_skips = 0;
    if (s->is_static) return TC_OK;
    if (++s->growth_tracker < s->growth_interval) return TC_OK;
    s->growth_tracker = 0;
    s->hysteresis_left = s->hysteresis;
    p = (double)s->scale * s->growth_factor;
    if (s->max_scale > 0 && p > s->max_scale) p = s->max_scale;
    if (p >= TC__F32_OVERFLOW_THRESHOLD) return TC_WARN_SCALE_OVERFLOW;
    next = (float)p;
    s->scale = next;
    return TC_OK;
}
TC_HOST_DEVICE TCDEF tc_status tc_scaler_update(tc_scaler *s, int found_inf) {
    TC__IN_DEFAULT_FP(tc_status, tc__scaler_update_in(s, found_inf));
}

TC_HOST_DEVICE TCDEF float tc_scaler_inv_scale(const tc_scaler *s) {
    TC__IN_DEFAULT_FP(float, s ? (float)(1.0 / (double)s->scale) : tc__float(0x7FFFFFFFu));
}

TC_HOST_DEVICE TCDEF int tc_is_finite_f32(float x) { return (tc__bits(x) & 0x7F800000u) != 0x7F800000u; }

/* The primitives as the guarded calls and the array pass use them. */
TC_HOST_DEVICE static float tc__unscale_f32(float g, float inv_scale) { return inv_scale == 1.0f ? g : g * inv_scale; }
TC_HOST_DEVICE static uint16_t tc__unscale_fp16(uint16_t g, float inv_scale) {
    return tc_fp16_from_f32(tc__unscale_f32(tc_fp16_to_f32(g), inv_scale), TC_RN);
}
TC_HOST_DEVICE static uint16_t tc__unscale_bf16(uint16_t g, float inv_scale) {
    return tc_bf16_from_f32(tc__unscale_f32(tc_bf16_to_f32(g), inv_scale), TC_RN);
}
TC_HOST_DEVICE TCDEF float tc_unscale_f32(float g, float inv_scale) { TC__IN_DEFAULT_FP(float, tc__unscale_f32(g, inv_scale)); }
TC_HOST_DEVICE TCDEF uint16_t tc_unscale_fp16(uint16_t g, float inv_scale) { TC__IN_DEFAULT_FP(uint16_t, tc__unscale_fp16(g, inv_scale)); }
TC_HOST_DEVICE TCDEF uint16_t tc_unscale_bf16(uint16_t g, float inv_scale) { TC__IN_DEFAULT_FP(uint16_t, tc__unscale_bf16(g, inv_scale)); }

/* One tensor of the unscale pass; returns 1 if a value was Inf or NaN.
   fp16 and bf16 go TC__UNSCALE_CHUNK values at a time through the array
   converters (section 1: exact widening, RN narrowing bit-identical to the
   scalar functions), each chunk checked, widened, multiplied and narrowed
   while it sits in L1: every value gets what tc_unscale_fp16/bf16 give it
   (NaN codes canonicalised even when inv_scale is 1), 5-70x faster than
   calling them per value (docs/REFERENCE.md 5.5). */
#define TC__UNSCALE_CHUNK 512
static int tc__unscale_one(const tc_grad_array *a, float inv_scale) {
    float f[TC__UNSCALE_CHUNK];
    const int fp16 = a->dtype == TC_FP16;
    const uint16_t exp_mask = fp16 ? 0x7C00u : 0x7F80u;   /* fp16 and bf16 alike: an all-ones exponent is Inf or NaN */
    size_t i, j, m;
    int bad = 0;
    if (a->dtype == TC_FP32) {
        float *g = (float *)a->data;
        for (i = 0; i < a->count; i++) {
            bad |= !tc_is_finite_f32(g[i]);
            g[i] = tc__unscale_f32(g[i], inv_scale);
        }
        return bad;
    }
    for (i = 0; i < a->count; i += m) {
        uint16_t *g = (uint16_t *)a->data + i;
        m = a->count - i < TC__UNSCALE_CHUNK ? a->count - i : TC__UNSCALE_CHUNK;
        for (j = 0; j < m; j++) bad |= (g[j] & exp_mask) == exp_mask;
        (void)(fp16 ? tc_fp16_to_f32_array(g, f, m) : tc_bf16_to_f32_array(g, f, m));
        if (inv_scale != 1.0f) for (j = 0; j < m; j++) f[j] *= inv_scale;
        (void)(fp16 ? tc_fp16_from_f32_array(f, g, m, TC_RN) : tc_bf16_from_f32_array(f, g, m, TC_RN));
    }
    return bad;
}

static tc_status tc__unscale_arrays_in(tc_grad_array *arrays, size_t n_arrays, float inv_scale, int *found_inf) {
    size_t a;
    int bad = 0;
    if (!arrays || !found_inf) return TC_ERR_NULL;
    if (n_arrays == 0) return TC_ERR_SIZE;
    if (!tc__positive_finite(inv_scale)) return TC_ERR_ARG;
    for (a = 0; a < n_arrays; a++) {
        tc_dtype t = arrays[a].dtype;
        if (t != TC_FP32 && t != TC_FP16 && t != TC_BF16) return TC_ERR_DTYPE;
        if (arrays[a].count && !arrays[a].data) return TC_ERR_NULL;
    }
    for (a = 0; a < n_arrays; a++) bad |= tc__unscale_one(&arrays[a], inv_scale);
    *found_inf = bad;
    return TC_OK;
}
TCDEF tc_status tc_unscale_arrays(tc_grad_array *arrays, size_t n_arrays, float inv_scale, int *found_inf) {
    TC__IN_DEFAULT_FP(tc_status, tc__unscale_arrays_in(arrays, n_arrays, inv_scale, found_inf));
}

TCDEF tc_status tc_scaler_unscale(const tc_scaler *s, tc_grad_array *arrays, size_t n_arrays, int *found_inf) {
    if (!s) return TC_ERR_NULL;
    return tc_unscale_arrays(arrays, n_arrays, tc_scaler_inv_scale(s), found_inf);
}

/* ------------------------------------------------ section 4: sparsity */

TCDEF tc_status tc_sparse_pattern(tc_dtype t, int *group, int *keep) {
    int g, k;
    switch (t) {
    case TC_FP16: case TC_BF16: case TC_E4M3: case TC_E5M2: g = 4; k = 2; break;
    case TC_TF32: g = 2; k = 1; break;
    default: return TC_ERR_DTYPE;
    }
    if (group) *group = g;
    if (keep) *keep = k;
    return TC_OK;
}

/* Shared argument checks of the matrix-level functions: pattern of t, sizes,
   K a multiple of the group, and every leading dimension wide enough. */
static tc_status tc__sparse_args(tc_dtype t, int M, int K, int *group, int *keep) {
    tc_status st = tc_sparse_pattern(t, group, keep);
    if (st != TC_OK) return st;
    if (M < 0 || K < 0) return TC_ERR_SIZE;
    if (K % *group != 0) return TC_ERR_SHAPE;
    return TC_OK;
}

static void tc__sparse_report(tc_sparse_violation *v, int row, int col, int nonzeros) {
    if (!v) return;
    v->row = row; v->col = col; v->nonzeros = nonzeros;
}

/* Pruning compares magnitudes as bits, not as floats: a caller's DAZ
   reads an fp32 subnormal as zero in a float compare (docs/REFERENCE.md
   1.7), and the bits order every non-NaN magnitude as its value. */
static uint32_t tc__sparse_mag(float x) { return tc__bits(x) & 0x7FFFFFFFu; }

/* Bit i set when element i of the group is a non-zero (NaN counts). */
static unsigned tc__sparse_nz_mask(const float *g, int group) {
    unsigned m = 0;
    int i;
    for (i = 0; i < group; i++) if (tc__sparse_mag(g[i]) != 0) m |= 1u << i;
    return m;
}

static int tc__sparse_popcount(unsigned m) { int n = 0; for (; m; m &= m - 1) n++; return n; }

/* "a is kept in preference to b": NaN beats numbers, then larger |x|. The
   caller scans from the lowest index with this strict test, so on equal
   magnitude the lower index wins. */
static int tc__sparse_beats(float a, float b) {
    const uint32_t ma = tc__sparse_mag(a), mb = tc__sparse_mag(b);
    if (ma > 0x7F800000u) return mb <= 0x7F800000u;
    if (mb > 0x7F800000u) return 0;
    return ma > mb;
}

/* The mask of the `keep` elements of a group that pruning keeps. */
static unsigned tc__sparse_keep_mask(const float *g, int group, int keep) {
    unsigned chosen = 0;
    int r, i;
    for (r = 0; r < keep; r++) {
        int best = -1;
        for (i = 0; i < group; i++)
            if (!(chosen & (1u << i)) && (best < 0 || tc__sparse_beats(g[i], g[best]))) best = i;
        chosen |= 1u << best;
    }
    return chosen;
}

TCDEF tc_status tc_sparse_prune(tc_dtype t, int M, int K, const float *W, int ldw,
                                float *out, int ldo, unsigned char *mask) {
    int group, keep, r, c, i;
    tc_status st = tc__sparse_args(t, M, K, &group, &keep);
    if (st != TC_OK) return st;
    if (!W || !out) return TC_ERR_NULL;
    if (ldw < K || ldo < K || (W == out && ldw != ldo)) return TC_ERR_SHAPE;
    for (r = 0; r < M; r++) {
        const float *w = W + (size_t)r * (size_t)ldw;
        float *o = out + (size_t)r * (size_t)ldo;
        for (c = 0; c < K; c += group) {
            unsigned kept = tc__sparse_keep_mask(w + c, group, keep);
            for (i = 0; i < group; i++) {
                int on = (kept >> i) & 1u;
                o[c + i] = on || tc__sparse_mag(w[c + i]) == 0 ? w[c + i] : 0.0f;   /* zeros keep their sign */
                if (mask) mask[(size_t)r * (size_t)K + (size_t)(c + i)] = (unsigned char)on;
            }
        }
    }
    return TC_OK;
}

TCDEF tc_status tc_sparse_check(tc_dtype t, int M, int K, const float *A, int lda,
                                tc_sparse_violation *first) {
    int group, keep, r, c;
    tc_status st = tc__sparse_args(t, M, K, &group, &keep);
    if (st != TC_OK) return st;
    if (!A) return TC_ERR_NULL;
    if (lda < K) return TC_ERR_SHAPE;
    for (r = 0; r < M; r++)
        for (c = 0; c < K; c += group) {
            int n = tc__sparse_popcount(tc__sparse_nz_mask(A + (size_t)r * (size_t)lda + c, group));
            if (n > keep) { tc__sparse_report(first, r, c, n); return TC_ERR_NOT_SPARSE; }
        }
    return TC_OK;
}

TC_HOST_DEVICE TCDEF tc_status tc_sparse_meta_encode(int i0, int i1, unsigned *code) {
    if (!code) return TC_ERR_NULL;
    if (i0 < 0 || i0 >= i1 || i1 > 3) return TC_ERR_ARG;
    *code = (unsigned)(i0 | (i1 << 2));
    return TC_OK;
}

TC_HOST_DEVICE TCDEF tc_status tc_sparse_meta_decode(unsigned code, int *i0, int *i1) {
    int lo = (int)(code & 3u), hi = (int)((code >> 2) & 3u);
    if (!i0 || !i1) return TC_ERR_NULL;
    if (code > 15u || lo >= hi) return TC_ERR_SPARSE_META;
    *i0 = lo;
    *i1 = hi;
    return TC_OK;
}

/* The positions (within its group) of the elements a code selects: two for
   2:4, one for tf32's 1:2, where only the 16-bit pairs (0,1) and (2,3) name
   a whole 32-bit element. Returns how many, or -1 for an illegal code. */
TC_HOST_DEVICE static int tc__sparse_code_positions(int group, unsigned code, int pos[2]) {
    int i0, i1;
    if (tc_sparse_meta_decode(code, &i0, &i1) != TC_OK) return -1;
    if (group == 4) { pos[0] = i0; pos[1] = i1; return 2; }
    if (i1 != i0 + 1 || (i0 & 1)) return -1;
    pos[0] = i0 >> 1;
    return 1;
}

/* The code for a group whose non-zeros are `nz` (at most `keep` bits):
   PyTorch's and CUTLASS's choice (torch/sparse/_semi_structured_conversions.py),
   a table because it is not "first free slots": one non-zero at 0 -> (0,2),
   at 1 -> (1,2), at 2 or 3 -> (2,3); none -> (2,3). */
static unsigned tc__sparse_code_for(int group, unsigned nz) {
    static const unsigned char code24[16] = {
        0xE, 0x8, 0x9, 0x4, 0xE, 0x8, 0x9, 0, 0xE, 0xC, 0xD, 0, 0xE, 0, 0, 0 };
    if (group == 2) return nz == 1u ? 0x4u : 0xEu;   /* position 0 only when it alone is non-zero */
    TC_ASSERT(nz < 16u && code24[nz] != 0);
    return code24[nz];
}

/* Metadata words per row, for a K already checked by tc__sparse_args. */
static int tc__sparse_words(int group, int K) { return (K / group + 7) / 8; }

TCDEF tc_status tc_sparse_meta_words(tc_dtype t, int K, int *words) {
    int group, keep;
    tc_status st;
    if (!words) return TC_ERR_NULL;
    if ((st = tc__sparse_args(t, 0, K, &group, &keep)) != TC_OK) return st;
    *words = tc__sparse_words(group, K);
    return TC_OK;
}

TCDEF tc_status tc_sparse_compress(tc_dtype t, int M, int K, const float *A, int lda,
                                   float *values, int ldv, uint32_t *meta, int ldm,
                                   int flags, tc_sparse_violation *bad) {
    int group, keep, r, c, i, words;
    tc_status st = tc__sparse_args(t, M, K, &group, &keep);
    if (st != TC_OK) return st;
    if (!A || !values || !meta) return TC_ERR_NULL;
    if (flags & ~TC_SPARSE_PRUNE) return TC_ERR_ARG;
    words = tc__sparse_words(group, K);
    if (lda < K || ldv < K / 2 || ldm < words) return TC_ERR_SHAPE;
    if (!(flags & TC_SPARSE_PRUNE) && (st = tc_sparse_check(t, M, K, A, lda, bad)) != TC_OK) return st;
    for (r = 0; r < M; r++) {
        const float *a = A + (size_t)r * (size_t)lda;
        float *v = values + (size_t)r * (size_t)ldv;
        uint32_t *m = meta + (size_t)r * (size_t)ldm;
        for (i = 0; i < words; i++) m[i] = 0;
        for (c = 0; c < K; c += group) {
            int j = c / group, pos[2], n;
            unsigned nz = tc__sparse_nz_mask(a + c, group);
            unsigned code;
            if (tc__sparse_popcount(nz) > keep) nz &= tc__sparse_keep_mask(a + c, group, keep);
            code = tc__sparse_code_for(group, nz);
            n = tc__sparse_code_positions(group, code, pos);
            TC_ASSERT(n == keep);
            /* The code names every element of nz, plus zeros of A when nz is
               short (pruning leaves exactly `keep`: more than keep non-zeros
               means the top `keep` are all non-zero). So storing A's own
               element is exact, -0 included. */
            for (i = 0; i < n; i++) v[j * keep + i] = a[c + pos[i]];
            m[j / 8] |= (uint32_t)code << (4 * (j % 8));
        }
    }
    return TC_OK;
}

TCDEF tc_status tc_sparse_decompress(tc_dtype t, int M, int K, const float *values, int ldv,
                                     const uint32_t *meta, int ldm, float *out, int ldo,
                                     tc_sparse_violation *bad) {
    int group, keep, r, c, i;
    tc_status st = tc__sparse_args(t, M, K, &group, &keep);
    if (st != TC_OK) return st;
    if (!values || !meta || !out) return TC_ERR_NULL;
    if (ldv < K / 2 || ldm < tc__sparse_words(group, K) || ldo < K) return TC_ERR_SHAPE;
    for (r = 0; r < M; r++) {
        const float *v = values + (size_t)r * (size_t)ldv;
        const uint32_t *m = meta + (size_t)r * (size_t)ldm;
        float *o = out + (size_t)r * (size_t)ldo;
        for (c = 0; c < K; c += group) {
            int j = c / group, pos[2];
            unsigned code = (m[j / 8] >> (4 * (j % 8))) & 0xFu;
            int n = tc__sparse_code_positions(group, code, pos);
            if (n < 0) { tc__sparse_report(bad, r, c, -1); return TC_ERR_SPARSE_META; }
            for (i = 0; i < group; i++) o[c + i] = 0.0f;
            for (i = 0; i < n; i++) o[c + pos[i]] = v[j * keep + i];
        }
    }
    return TC_OK;
}

/* ---- fragments ----
   Selector counts and which lanes carry metadata (the instruction table's
   selectors and meta_lanes) follow from the metadata bits per tile: 16 rows
   x k/group codes x 4 bits, spread over 8 quads, 32 bits per lane, so 1 or
   2 lanes per quad. */

/* A sparse kind whose register layout is modelled (the FP8 m16n8k64 kinds'
   is not: their 8-bit packing and 4-lane metadata are unread). */
TC_HOST_DEVICE static int tc__sparse_info(tc_mma_instr s, tc_mma_instr_info *info) {
    return tc_mma_instr_get(s, info) == TC_OK && info->sparse_group && info->layout;
}

TC_HOST_DEVICE TCDEF tc_status tc_sparse_meta_coord(tc_mma_instr s, int selector, int lane, int j,
                                                    int *used, int *row, int *group) {
    tc_mma_instr_info info;
    int first, t = lane & 3, q = (lane & 31) >> 2, wg;
    if (!used || !row || !group) return TC_ERR_NULL;
    if (tc_mma_instr_get(s, &info) != TC_OK || !info.sparse_group) return TC_ERR_ARG;
    wg = info.threads == 128;   /* wgmma.sp: 4 warps of 16 rows each */
    if (!(info.layout || wg) || lane < 0 || lane >= info.threads || j < 0 || j > 7 ||
        selector < 0 || selector >= info.selectors) return TC_ERR_ARG;
    first = selector * info.meta_lanes;
    if (t < first || t >= first + info.meta_lanes) { *used = 0; *row = -1; *group = -1; return TC_OK; }
    *used = 1;
    if (info.meta_lanes == 4) {   /* wgmma.sp FP8: one row per lane (mma.sp m16n8k64 is refused above) */
        *row = 16 * (lane >> 5) + q + 8 * (t & 1);
        *group = 8 * (t >> 1) + j;
        return TC_OK;
    }
    *row = 16 * (lane >> 5) + q + 8 * (j >> 2);
    *group = 4 * (t - first) + (j & 3);
    return TC_OK;
}

/* Elements in registers: 16-bit types two per register (element e in
   register e/2, low half first), tf32 one. */
static tc_status tc__sparse_put(tc_dtype t, uint32_t reg[4], int e, float x) {
    uint32_t bits = tc_encode(t, x, TC_RN);
    float back = tc_decode(t, bits);
    if (tc__bits(back) != tc__bits(x) && !(x != x && back != back)) return TC_ERR_NOT_REPRESENTABLE;
    if (t == TC_TF32) reg[e] = tc__bits(back);
    else reg[e >> 1] |= bits << (16 * (e & 1));
    return TC_OK;
}

static float tc__sparse_get(tc_dtype t, const uint32_t reg[4], int e) {
    if (t == TC_TF32) return tc_tf32_truncate(tc__float(reg[e]));
    return tc_decode(t, (reg[e >> 1] >> (16 * (e & 1))) & 0xFFFFu);
}

TCDEF tc_status tc_sparse_pack_a(tc_mma_instr s, int selector, int M, int K,
                                 const float *values, int ldv, const uint32_t *meta, int ldm,
                                 int row0, int col0, uint32_t *a, uint32_t *meta_regs) {
    tc_mma_instr_info info;
    int lane, e, j, group, keep;
    tc_status st;
    if (!tc__sparse_info(s, &info)) return TC_ERR_ARG;
    if ((st = tc__sparse_args(info.in, M, K, &group, &keep)) != TC_OK) return st;
    if (!values || !meta || !a || !meta_regs) return TC_ERR_NULL;
    if (selector < 0 || selector >= info.selectors) return TC_ERR_ARG;
    if (ldv < K / 2 || ldm < tc__sparse_words(group, K)) return TC_ERR_SHAPE;
    if (row0 < 0 || col0 < 0 || row0 % info.m || col0 % info.k || row0 > M - info.m || col0 > K - info.k) return TC_ERR_SHAPE;   /* subtract: row0 + m could overflow */
    for (lane = 0; lane < 32; lane++) {
        meta_regs[lane] = 0;
        for (e = 0; e < 4; e++) a[lane * 4 + e] = 0;
        for (e = 0; e < info.a_elems; e++) {
            int r = 0, c = 0;
            tc_mma_frag_coord(s, TC_FRAG_A, lane, e, &r, &c);
            if ((st = tc__sparse_put(info.in, a + lane * 4, e, values[(size_t)(row0 + r) * (size_t)ldv + (size_t)(col0 / 2 + c)])) != TC_OK) return st;
        }
        for (j = 0; j < 8; j++) {
            int used = 0, r = 0, g = 0;
            if (tc_sparse_meta_coord(s, selector, lane, j, &used, &r, &g) == TC_OK && used) {
                int gg = col0 / group + g;
                uint32_t code = (meta[(size_t)(row0 + r) * (size_t)ldm + (size_t)(gg / 8)] >> (4 * (gg % 8))) & 0xFu;
                meta_regs[lane] |= code << (4 * j);
            }
        }
    }
    return TC_OK;
}

TCDEF tc_status tc_sparse_pack_b(tc_mma_instr s, int K, int N, const float *B, int ldb,
                                 int k0, int n0, uint32_t *b) {
    tc_mma_instr_info info;
    int lane, e;
    tc_status st;
    if (!tc__sparse_info(s, &info)) return TC_ERR_ARG;
    if (!B || !b) return TC_ERR_NULL;
    if (K < 0 || N < 0) return TC_ERR_SIZE;
    if (ldb < N || k0 < 0 || n0 < 0 || k0 > K - info.k || n0 > N - info.n) return TC_ERR_SHAPE;   /* subtract: k0 + k could overflow */
    for (lane = 0; lane < 32; lane++) {
        for (e = 0; e < 4; e++) b[lane * 4 + e] = 0;
        for (e = 0; e < info.b_elems; e++) {
            int k = 0, n = 0;
            tc_mma_frag_coord(s, TC_FRAG_B, lane, e, &k, &n);
            if ((st = tc__sparse_put(info.in, b + lane * 4, e, B[(size_t)(k0 + k) * (size_t)ldb + (size_t)(n0 + n)])) != TC_OK) return st;
        }
    }
    return TC_OK;
}

TCDEF tc_status tc_sparse_unpack_a(tc_mma_instr s, int selector,
                                   const uint32_t *a, const uint32_t *meta_regs,
                                   float *tile, tc_sparse_violation *bad) {
    tc_mma_instr_info info;
    unsigned codes[16][8] = {{0}};   /* [row][group] of the tile, as the selected lanes supply them; 0 is illegal */
    int lane, e, j, r, i;
    if (!tc__sparse_info(s, &info)) return TC_ERR_ARG;
    if (!a || !meta_regs || !tile) return TC_ERR_NULL;
    if (selector < 0 || selector >= info.selectors) return TC_ERR_ARG;
    for (lane = 0; lane < 32; lane++)
        for (j = 0; j < 8; j++) {
            int used = 0, g = 0;
            if (tc_sparse_meta_coord(s, selector, lane, j, &used, &r, &g) == TC_OK && used)
                codes[r][g] = (meta_regs[lane] >> (4 * j)) & 0xFu;
        }
    for (i = 0; i < info.m * info.k; i++) tile[i] = 0.0f;
    for (lane = 0; lane < 32; lane++)
        for (e = 0; e < info.a_elems; e++) {
            int c = 0, g, pos[2] = { 0, 0 };
            r = 0;
            tc_mma_frag_coord(s, TC_FRAG_A, lane, e, &r, &c);
            g = c / info.sparse_keep;
            if (tc__sparse_code_positions(info.sparse_group, codes[r][g], pos) < 0) {
                tc__sparse_report(bad, r, g * info.sparse_group, -1);
                return TC_ERR_SPARSE_META;
            }
            tile[r * info.k + g * info.sparse_group + pos[c % info.sparse_keep]] = tc__sparse_get(info.in, a + lane * 4, e);
        }
    return TC_OK;
}

/* ---- sparse MMA: section 2's GEMM driver on gathered operands (the
   scalar model gathers B's rows by the metadata; the SIMD kernel places
   the stored values at their dense columns with power 0 elsewhere) */

static tc_status tc__sparse_gemm(tc_arch arch, tc_dtype in, tc_dtype out, int M, int N, int K,
                                 const float *values, int ldv, const uint32_t *meta, int ldm,
                                 const float *B, int ldb, const float *C, int ldc, float *D, int ldd,
                                 const tc_mma_options *opt, int threads, int force_scalar) {
    tc__mma_cfg cfg;
    tc__gemm_job jb;
    int *kpos = NULL, group, keep, H, i, j, t;
    tc_status s = tc__mma_setup(arch, in, out, opt, &cfg);
    if (s != TC_OK) return s;
    if (!tc__mma_kind_exists(1, TC_ARCH_BIT(arch), in, cfg.in_b)) return TC_ERR_ARCH;   /* V100 and Turing: no mma.sp */
    if ((s = tc__sparse_args(in, M, K, &group, &keep)) != TC_OK) return s;
    if (N < 0) return TC_ERR_SIZE;
    if ((M && N && K && (!values || !meta || !B)) || (M && N && !D)) return TC_ERR_NULL;
    H = K / 2;
    if ((M && K && (ldv < H || ldm < tc__sparse_words(group, K))) || (N && K && ldb < N) ||
        (C && N && M && ldc < N) || (N && M && ldd < N)) return TC_ERR_SHAPE;
    if (!tc__gemm_knobs_ok(threads, force_scalar)) return TC_ERR_ARG;
    if (M == 0 || N == 0) return TC_OK;
    if (!tc__representable_matrix(in, M, H, values, ldv) || !tc__representable_matrix(cfg.in_b, K, N, B, ldb) ||
        (C && !tc__representable_matrix(out, M, N, C, ldc))) return TC_ERR_NOT_REPRESENTABLE;
    /* The dense column of every stored value, in storage order (so sorted):
       the metadata decoded once, before D is touched. */
    kpos = (int *)TC_MALLOC(((size_t)M * (size_t)H + 1) * sizeof *kpos);
    if (!kpos) return TC_ERR_NOMEM;
    for (i = 0; i < M; i++)
        for (j = 0; j < K / group; j++) {
            unsigned code = (meta[(size_t)i * (size_t)ldm + (size_t)(j / 8)] >> (4 * (j % 8))) & 0xFu;
            int pos[2];
            if (tc__sparse_code_positions(group, code, pos) < 0) { TC_FREE(kpos); return TC_ERR_SPARSE_META; }
            for (t = 0; t < keep; t++) kpos[(size_t)i * (size_t)H + (size_t)(j * keep + t)] = j * group + pos[t];
        }
    memset(&jb, 0, sizeof jb);
    jb.cfg = &cfg; jb.M = M; jb.N = N; jb.K = K;
    jb.A = values; jb.lda = (size_t)ldv; jb.B = B; jb.ldb = (size_t)ldb;
    jb.C = C; jb.ldc = (size_t)ldc; jb.D = D; jb.ldd = (size_t)ldd;
    jb.kpos = kpos; jb.H = H;
    s = tc__gemm_exec(&jb, in, threads, force_scalar);
    TC_FREE(kpos);
    return s;
}

TCDEF tc_status tc_sparse_gemm(tc_arch arch, tc_dtype in, tc_dtype out, int M, int N, int K,
                               const float *values, int ldv, const uint32_t *meta, int ldm,
                               const float *B, int ldb, const float *C, int ldc, float *D, int ldd) {
    return tc__sparse_gemm(arch, in, out, M, N, K, values, ldv, meta, ldm, B, ldb, C, ldc, D, ldd, NULL, 0, 0);
}

TCDEF tc_status tc_sparse_gemm_ex(const tc_sparse_gemm_desc *d) {
    const tc_gemm_desc *g;
    int group = 0, keep, words = 0;
    if (!d) return TC_ERR_NULL;
    g = &d->gemm;
    /* the packed metadata width needs a valid pattern; an invalid one is
       reported by the GEMM itself */
    if (tc_sparse_pattern(g->in, &group, &keep) == TC_OK && g->K >= 0 && g->K % group == 0)
        words = tc__sparse_words(group, g->K);
    return tc__sparse_gemm(g->arch, g->in, g->out, g->M, g->N, g->K, g->A, tc__ld(g->lda, g->K / 2),
                           d->meta, tc__ld(d->ldm, words), g->B, tc__ld(g->ldb, g->N), g->C, tc__ld(g->ldc, g->N),
                           g->D, tc__ld(g->ldd, g->N), &g->options, g->threads, g->force_scalar);
}

/* ------------------------------------------------ section 5: simulator */

/* Every number: where it comes from (docs/REFERENCE.md section 3 gathers
   them). MMA arrays follow the instruction table's order: m8n8k4.f16,
   m16n8k8/k16 f16, m16n8k8/k16 bf16, m16n8k4/k8 tf32, m16n8k32 e4m3/e5m2,
   then sparse k16/k32 f16, k16/k32 bf16, k8/k16 tf32. Everywhere, by
   assumption (no source separates them): bf16 as f16, e5m2 as e4m3, sparse
   bf16 as sparse f16, and m16n8k4.tf32 as sp.m16n8k8.tf32 (both issue half
   of m16n8k8.tf32's work). */

/* Launch cost of one kernel launched back to back in one stream, one figure
   for every real GPU, fitted to the dataset (tests/measured/dataset.csv
   rows rrze-launch-a100-80gb, 2.62 us, and rrze-launch-h200, 2.43 us: tiny
   kernels, where the launch path alone sets the pace). The host launches
   the next kernel while this one runs, so a kernel costs max(its time,
   this) - tc_sim_prediction.seconds. V100, RTX 3090, RTX 4090, B200 and
   RTX 5090: assumption (not measured here); cuda/fusion.cu measures it. */
#define TC__SIM_LAUNCH_US 2.5
/* The same for kernels replayed from one CUDA graph (cudaGraphLaunch), one
   figure for every real GPU, fitted to rows rrze-graph-a100-80gb (1.34 us)
   and rrze-graph-h200 (1.26 us), the same tiny kernels as above: the
   graph halves the launch path. V100, RTX 3090, RTX 4090, B200 and
   RTX 5090: assumption. */
#define TC__SIM_GRAPH_LAUNCH_US 1.3

/* One timing for each of tcgen05.mma kind::f8f6f4's 25 type pairings of one M
   (TC__TCGEN05_F8F6F4_PAIRS' order), in a profile's positional MMA arrays. */
#define TC__SIM_F8F6F4_5(v) v, v, v, v, v
#define TC__SIM_F8F6F4_PAIRS(v) TC__SIM_F8F6F4_5(v), TC__SIM_F8F6F4_5(v), TC__SIM_F8F6F4_5(v), TC__SIM_F8F6F4_5(v), \
    TC__SIM_F8F6F4_5(v)
/* The same for mma.sync kind::f8f6f4's 21 pairings (the 25 less the four FP8-only ones, TC__MMA_F8F6F4_ROW). */
#define TC__SIM_F8F6F4_MMA_PAIRS(v) TC__SIM_F8F6F4_5(v), TC__SIM_F8F6F4_5(v), TC__SIM_F8F6F4_5(v), TC__SIM_F8F6F4_5(v), v
static const tc_gpu tc__gpus[] = {
    {   "dettmers2020",
        "Tim Dettmers' 2020 blog example: 8 SMs x 8 warps, global 200, shared 20, FFMA 4, Tensor Core 1",
        0, TC_ARCH_A100,            /* the blog's machine is a GA100 (A100) SM, so A100 numerics */
        {
            1.41,          /* clock: GA100 boost 1410 MHz (the blog's figures are for GA100); only converts cycles to seconds */
            8,             /* SMs: the blog's example uses 8 */
            8,             /* sub-partitions: assumption - the blog starts all 8 warps of an SM in the same cycle, i.e. one scheduler per warp */
            64,            /* warps per SM: GA100 whitepaper */
            164 * 1024,    /* shared memory per SM: the blog ("up to 164 KB per SM") */
            32, 4, 32,     /* banks x bytes, sector bytes: CUDA programming guide */
            200, 200,      /* DRAM, L2: the blog's "global memory ~200 cycles"; it gives no separate L2 figure */
            20,            /* shared: the blog */
            4, 1,          /* FFMA latency: the blog; interval: assumption (the blog never overlaps FFMAs) */
            { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
              1, 1, 1, 1, 1, 1, 1, 1,
              /* integer kinds: 1 as well (assumption) */
              1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },  /* MMA latency: the blog's "Tensor Core 1 cycle", for every shape (assumption) */
            { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
              1, 1, 1, 1, 1, 1, 1, 1,
              /* integer kinds: 1 */
              1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },  /* MMA interval: assumption; the blog has no sparsity, sparse kinds as dense */
            0, 0.0, 0.0,   /* bandwidths: not modelled - the blog's arithmetic adds latencies only */
            0.0,           /* launch overhead: not modelled */
            /* the blog gives none: tc__gpu_sources' "*blog" rows (SHFL as its shared latency, integer as its
               FFMA, atomics as 2 x shared and as L2: assumptions) */
            20, 1, 4, 1, 40, 200, 1,
            0,             /* L1 hit: the blog gives none, so as its shared load */
            0.0            /* graph launches: not modelled */
        },
        /* occupancy: the blog gives none, so this is no tiling machine */
        { 0, 0, 0, 0, 0, 0, 0 }
    },
    {   "dettmers2023",
        "Tim Dettmers' 2023 blog revision: global 380, L2 200, shared 34, FFMA 4, Tensor Core 1",
        0, TC_ARCH_H100,            /* the 2023 revision's figures are for H100 */
        {
            1.83,          /* clock: assumption (H100 tensor clock); only converts cycles to seconds */
            8, 8, 64,      /* as dettmers2020: the same 8 x 8 example (sub-partitions: assumption) */
            228 * 1024,    /* shared memory per SM: H100 whitepaper (the blog's "up to 128 kb" is the L1/shared figure it quotes) */
            32, 4, 32,
            380, 200,      /* DRAM "global memory ~380", L2 "~200": the 2023 blog */
            34,            /* "L1 cache or shared memory ~34": the 2023 blog */
            4, 1,          /* FFMA 4: the blog; interval: assumption */
            { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
              1, 1, 1, 1, 1, 1, 1, 1,
              /* integer kinds: 1 as well (assumption) */
              1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
            { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
              1, 1, 1, 1, 1, 1, 1, 1,
              /* integer kinds: 1 */
              1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
            0, 0.0, 0.0,   /* not modelled, as in the blog */
            0.0,
            /* the blog gives none: tc__gpu_sources' "*blog" rows (SHFL as its shared latency, integer as its
               FFMA, atomics as 2 x shared and as L2: assumptions) */
            34, 1, 4, 1, 68, 200, 1,
            34,            /* L1 hit: the 2023 blog's 'L1 cache or shared memory ~34' */
            0.0            /* graph launches: not modelled */
        },
        /* occupancy: the blog gives none */
        { 0, 0, 0, 0, 0, 0, 0 }
    },
    {   "a100",
        "NVIDIA A100 SXM4 40 GB (sm_80): pointer-chase latencies, measured L2 and DRAM bandwidth; MMA from the whitepaper",
        80, TC_ARCH_A100,            /* sm_80 */
        {
            1.41,          /* boost clock: A100 whitepaper */
            108, 4, 64,    /* SMs, schedulers per SM, warps per SM: A100 whitepaper */
            164 * 1024,    /* shared carve-out: A100 whitepaper */
            32, 4, 32,
            571,           /* DRAM: pointer chase, mean of dataset rows rrze-lat-dram-a100-40gb 574.6, -80gb 571.8,
                              luo-lat-dram-a100-pcie 566.3 (Abdelkhalik et al.'s 290 uses ld.cv, another method) */
            209,           /* L2 hit: pointer chase, mean of rrze-lat-l2-a100-40gb 213, -80gb 211, luo-lat-l2-a100-pcie 202.7 */
            23,            /* shared load: Abdelkhalik et al. 2022 (not in the dataset; Luo et al. report 29, not re-checked) */
            4,             /* FFMA dependent: Abdelkhalik et al. 2022 */
            2,             /* FFMA interval: 16 FP32 lanes per sub-partition (64 per SM, whitepaper) -> 2 cycles per warp */
            /* MMA latency: m8n8k4 assumption; m16n8k8.f16 assumption (H100's 16); m16n8k16 25 = Accel-Sim config
               (not measured); bf16 = f16 (assumption); tf32 25 assumption; e4m3 not on sm_80.
               mma.sp: as the dense instruction of half the K (assumption, consistent with the whitepaper's 2x
               sparse rate at equal operand bandwidth); sp.m16n8k8.tf32 as a dense m16n8k4.tf32: 17 (assumption) */
            { 25, 17, 25, 17, 25, 17, 25, 0, 0, 17, 25, 17, 25, 17, 25, 0, 0,
              0, 0, 0, 0, 0, 0, 0, 0,
              /* integer kinds (8-bit m8n8k16, m16n8k16, m16n8k32; 4-bit m8n8k32, m16n8k32, m16n8k64; four pairings each): assumption, the fp16 instruction of as many cycles (m16n8k8.f16's 17, m16n8k16.f16's 25) */
              17, 17, 17, 17, 17, 17, 17, 17, 25, 25, 25, 25, 17, 17, 17, 17, 17, 17, 17, 17, 25, 25, 25, 25 },
            /* MMA interval from 1024 fp16 FMA/clk/SM (whitepaper; 312 TFLOPS at 1.41 GHz) = 256 per sub-partition:
               m16n8k16 has 2048 FMA: 2048/256 = 8, m16n8k8 4; tf32 at half rate: 1024/128 = 8; m8n8k4 4 assumption.
               (Accel-Sim's config says initiation 16, which gives half the whitepaper rate.)
               mma.sp: the dense half-K instruction's interval, i.e. 2048 sparse fp16 FMA/clk/SM (whitepaper's 2x) */
            { 4, 4, 8, 4, 8, 4, 8, 0, 0, 4, 8, 4, 8, 4, 8, 0, 0,
              0, 0, 0, 0, 0, 0, 0, 0,
              /* integer kinds: whitepaper INT8 624 / INT4 1248 dense TOPS = 2048 / 4096 MAC/clk/SM, 512 / 1024 per sub-partition: MACs per instruction over that */
              2, 2, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8, 2, 2, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8 },
            1,             /* 128 bytes of shared memory per cycle per SM */
            35.7,          /* L2 -> SM bytes per cycle per SM: the whole GPU's measured L2 read bandwidth shared by all
                              SMs, mean of rrze-l2bw-8192k-a100-80gb 5436.5 and -16896k 5447.7 GB/s / 1.41 GHz / 108 */
            1000.0,        /* DRAM: achievable, mean of rrze-stream-read/scale/triad-a100-40gb 1490, 1381, 1360 GB/s
                              / 1.41 GHz (90% of the 1555 GB/s peak) */
            TC__SIM_LAUNCH_US,
            /* SHFL latency/interval, integer latency/interval, shared and global atomic latency, cycles per
               lane on one address: tc__gpu_sources' "*" rows (rates from the CUDA guide, latencies assumed) */
            23, 1, 4, 2, 46, 209, 1,
            36,            /* L1 hit: pointer chase, rrze-lat-l1-a100-40gb and -80gb (36 both) */
            TC__SIM_GRAPH_LAUNCH_US
        },
        { 32, 1024,      /* CTAs per SM, threads per CTA: CUDA guide, cc 8.0 */
          163 * 1024,    /* shared memory per CTA (opt-in): CUDA guide, cc 8.0 */
          1024,          /* reserved per CTA: CUDA guide, cc 8.0 and later */
          65536, 255, 8 } /* registers per SM, per thread, allocation unit: CUDA guide */
    },
    {   "h100",
        "NVIDIA H100 SXM (sm_90): measured latencies (HPMLL, Luo et al. 2024), mma.sync rate ~65% of dense peak",
        90, TC_ARCH_H100,            /* sm_90 */
        {
            1.83,          /* tensor clock: docs/REFERENCE.md section 3 (1.98 GHz max) */
            132, 4, 64,    /* H100 SXM whitepaper */
            228 * 1024,    /* H100 whitepaper */
            32, 4, 32,
            481,           /* DRAM: pointer chase, dataset row jm-lat-dram-h100-sxm 481.4 (Luo et al.'s suite on an H100 SXM;
                              the H800 PCIe measures 657) */
            272,           /* L2 hit: jm-lat-l2-h100-sxm 272.3 (the H800's 264.5 stands in only where H100 is missing) */
            29,            /* shared load: measured (same sources) */
            4,             /* FFMA dependent: 4.07 measured */
            1,             /* FFMA interval: 32 FP32 lanes per sub-partition (128 per SM, whitepaper) */
            /* MMA latency: m8n8k4 assumption; m16n8k8.f16 16.0, m16n8k16.f16 24.1, m16n8k8.tf32 24.1 measured
               (Johnsonms/NVIDIA-Hopper-Benchmark); bf16 = f16 and e4m3 24 are assumptions.
               mma.sp: as the dense instruction of half the K (assumption; no published mma.sp latency);
               mixed e4m3 x e5m2 as same-type e4m3 (assumption); FP8 m16n8k16 and mma.sp m16n8k64 (PTX: sm_89+, so
               sm_90 issues them): 24 as e4m3 m16n8k32 (assumption, no measured row).
               wgmma (one warp's quarter at N = 256, scaled by N in the simulator): its interval, 128, plus
               the 18 cycles m16n8k16.f16's measured latency has beyond its interval (assumption: no wgmma
               latency was measured) */
            { 16, 16, 24, 16, 24, 16, 24, 24, 24, 16, 24, 16, 24, 16, 24, 24, 24,
              24, 24, 24, 24, 24, 24, 24, 24,
              /* integer kinds: 8-bit as e4m3 and m16n8k8.f16 (assumption: the whitepaper gives INT8 the FP8 rate); no 4-bit: the H100 whitepaper lists INT4 Tensor TOPS as N/A */
              16, 16, 16, 16, 16, 16, 16, 16, 24, 24, 24, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
              /* wgmma */
              146, 146, 146, 146, 146, 146, 146,
              /* wgmma.sp: as the dense wgmma of half its logical K (assumption, no wgmma.sp latency measured) */
              146, 146, 146, 146, 146, 146, 146 },
            /* MMA interval from the measured mma.sync peak, ~1340 of 2048 fp16 FMA/clk/SM (335 per sub-partition):
               m16n8k16 (2048 FMA) 2048/335 = 6 (jm-mma-tput-m16n8k16-f32-f16-h100-sxm, 713.7 TFLOP/s); the half-K
               shapes do not reach that rate: m16n8k8.f16 runs at 74% of it (jm-mma-tput-m16n8k8-f32-f16, 529.1)
               and m16n8k4.tf32 at 74% of m16n8k8.tf32 (jm-mma-tput-m16n8k4-tf32, 264.5 vs 356.8), interval 4;
               tf32 m16n8k8 at half rate 1024/167 = 6; e4m3 at twice the rate, m16n8k32 4096/670 = 6 (within 6%
               of jm-mma-tput-m16n8k32-e4m3, 1349 at one warp of ILP); m8n8k4 2 (assumption). mma.sp: the dense
               half-K instruction's interval (assumption: no mma.sync-level sparse rate is published for H100);
               mixed FP8 as e4m3 (assumption); FP8 m16n8k16 half of m16n8k32's 6, i.e. the same FP8 rate, and
               FP8 mma.sp m16n8k64 the dense m16n8k32's (assumption).
               wgmma: the full dense rate, 512 fp16 FMA/clk per sub-partition
               (tf32 half, FP8 twice), so a warp's 16 x 256 x K quarter takes 128 cycles for every type:
               measured 976.6 (f16), 488.2 (tf32), 1951.2 (e4m3) TFLOP/s at N = 256, 99% of that rate
               (Johnsonms/NVIDIA-Hopper-Benchmark raw/wgmma_*.log); bf16 and e5m2 as f16 and e4m3 (assumption) */
            { 2, 4, 6, 4, 6, 4, 6, 6, 6, 4, 6, 4, 6, 4, 6, 6, 6,
              3, 3, 3, 3, 6, 6, 6, 6,
              /* integer kinds: 8-bit at e4m3's measured rate (assumption), m8n8k16 half of m16n8k16's; 4-bit none */
              2, 2, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
              /* wgmma */
              128, 128, 128, 128, 128, 128, 128,
              /* wgmma.sp: the dense wgmma's measured rate times the whitepaper's 2x sparse ratio (989.4 dense / 1978.9
                 sparse fp16 TFLOPS, docs/REFERENCE.md 3.4): twice the logical math in the same 128 cycles (assumption:
                 no wgmma.sp rate measured) */
              128, 128, 128, 128, 128, 128, 128 },
            1,             /* 128 bytes of shared memory per cycle per SM */
            38.0,          /* L2 -> SM bytes per cycle per SM: the whole GPU's measured L2 bandwidth over 132 SMs, fitted to
                              jm-bw-l2-64f-h100-sxm (4808 B/clk) and the H200 rows rrze-l2bw-* (9.7-10.3 TB/s; same die
                              and L2) */
            1644.0,        /* DRAM: achievable, jm-bw-dram-h100-sxm 3008 GB/s / 1.83 GHz (90% of the 3.35 TB/s peak) */
            TC__SIM_LAUNCH_US,
            /* SHFL latency/interval, integer latency/interval, shared and global atomic latency, cycles per
               lane on one address: tc__gpu_sources' "*" rows (rates from the CUDA guide, latencies assumed) */
            29, 1, 4, 2, 58, 272, 1,
            41,            /* L1 hit: jm-lat-l1-h100-sxm 41.1 (the source of its L2 and DRAM latencies) */
            TC__SIM_GRAPH_LAUNCH_US
        },
        { 32, 1024,      /* CUDA guide, cc 9.0 */
          227 * 1024,    /* CUDA guide, cc 9.0 */
          1024,
          65536, 255, 8 }
    },
    {   "v100",
        "NVIDIA V100 SXM2 (sm_70): whitepaper rates; latencies Jia et al. 2018 or assumed; mma.sync m8n8k4 only",
        70, TC_ARCH_V100,            /* sm_70 */
        {
            1.53,          /* boost clock: V100 whitepaper (SXM2) */
            80, 4, 64,     /* SMs, sub-partitions, warps per SM: V100 whitepaper */
            96 * 1024,     /* shared memory per SM, up to 96 KB: V100 whitepaper */
            32, 4, 32,
            437,           /* DRAM: pointer chase, rrze-lat-dram-v100 437 (mdw-lat-dram-v100 says 460) */
            215,           /* L2 hit: pointer chase, rrze-lat-l2-v100 215 (Jia et al. 2018: 193, not re-checked) */
            19,            /* shared load: Jia et al. 2018 */
            4,             /* FFMA dependent: Jia et al. 2018 */
            2,             /* FFMA interval: 16 FP32 lanes per sub-partition (64 per SM, whitepaper) */
            /* MMA: sm_70 has only m8n8k4. Latency 24: assumption. Rate: 8 Tensor Cores x 64 FMA/clk = 512 per SM
               (whitepaper; 125 TFLOPS at 1.53 GHz) = 128 per sub-partition. PTX says one warp-wide m8n8k4 computes
               four 8x8x4 products; the instruction table's 8x8x4 shape counts one (256 FMA), so interval 2
               gives 128 counted FMA/clk. */
            { 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
              0, 0, 0, 0, 0, 0, 0, 0,
              /* no integer mma on sm_70 */
              0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },   /* no mma.sp before sm_80 */
            { 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
              0, 0, 0, 0, 0, 0, 0, 0,
              /* no integer mma on sm_70 */
              0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
            1,             /* 128 bytes of shared memory per cycle per SM: assumption (as A100) */
            35.7,          /* L2 -> SM bytes per cycle per SM: assumption, A100's measured share (no V100 row) */
            541.0,         /* DRAM: achievable, mean of rrze-stream-read/scale/triad-v100 866, 802, 814 GB/s / 1.53 GHz
                              (92% of the 900 GB/s peak) */
            TC__SIM_LAUNCH_US,
            /* SHFL latency/interval, integer latency/interval, shared and global atomic latency, cycles per
               lane on one address: tc__gpu_sources' "*" rows (rates from the CUDA guide, latencies assumed) */
            19, 1, 4, 2, 38, 215, 1,
            30,            /* L1 hit: pointer chase, rrze-lat-l1-v100 29.9 */
            TC__SIM_GRAPH_LAUNCH_US
        },
        { 32, 1024,      /* CUDA guide, cc 7.0 */
          96 * 1024,     /* CUDA guide, cc 7.0 */
          0,             /* no per-CTA reservation before cc 8.0: CUDA guide */
          65536, 255, 8 }
    },
    {   "rtx3090",
        "NVIDIA GeForce RTX 3090 (sm_86, GA102): whitepaper rates (fp16 MMA at fp32 accumulate); latencies assumed as A100",
        86, TC_ARCH_A100,            /* sm_86: Ampere Tensor Cores; assumption: the same numerics as sm_80 */
        {
            1.695,         /* boost clock: GA102 whitepaper */
            82, 4, 48,     /* SMs: GA102 whitepaper (RTX 3090); 48 warps per SM: CUDA guide, compute capability 8.6 */
            100 * 1024,    /* shared memory per SM, up to 100 KB: CUDA guide, compute capability 8.6 */
            32, 4, 32,
            571,           /* DRAM (GDDR6X): assumption, A100's pointer-chase 571 (no RTX 3090 row in the dataset) */
            209, 23, 4,    /* L2 hit, shared load, FFMA dependent: assumption (A100's values, same SM generation) */
            1,             /* FFMA interval: 128 FP32 lanes per SM (GA102 whitepaper) = 32 per sub-partition */
            /* MMA latency: assumption (A100's). Rate: GeForce GA102 runs fp16 with fp32 accumulate at half its fp16-accumulate
               rate: 71 of 142 dense TFLOPS = 256 FMA/clk/SM (a quarter of A100's 1024), 64 per sub-partition:
               m16n8k16 2048/64 = 32, m16n8k8 16, bf16 = f16; tf32 35.6 TFLOPS = 32 per sub-partition: 1024/32 = 32;
               m8n8k4 8 (assumption, A100's ratio); no e4m3 on sm_86 */
            { 25, 17, 25, 17, 25, 17, 25, 0, 0, 17, 25, 17, 25, 17, 25, 0, 0,
              0, 0, 0, 0, 0, 0, 0, 0,
              /* integer kinds: A100's (assumption) */
              17, 17, 17, 17, 17, 17, 17, 17, 25, 25, 25, 25, 17, 17, 17, 17, 17, 17, 17, 17, 25, 25, 25, 25 },
            /* mma.sp: the dense half-K instruction's interval, as on A100 (assumption) */
            { 8, 16, 32, 16, 32, 16, 32, 0, 0, 16, 32, 16, 32, 16, 32, 0, 0,
              0, 0, 0, 0, 0, 0, 0, 0,
              /* integer kinds: GA102 whitepaper INT8 284 / INT4 568 dense TOPS = 1024 / 2048 MAC/clk/SM, 256 / 512 per sub-partition */
              4, 4, 4, 4, 8, 8, 8, 8, 16, 16, 16, 16, 4, 4, 4, 4, 8, 8, 8, 8, 16, 16, 16, 16 },
            1,             /* 128 bytes of shared memory per cycle per SM */
            35.7,          /* L2 -> SM bytes per cycle per SM: assumption, A100's measured share */
            497.0,         /* DRAM: assumption, 90% of 936 GB/s (GDDR6X, GA102 whitepaper; the fraction A100, H100 and
                              V100 reach in the dataset) / 1.695 GHz */
            TC__SIM_LAUNCH_US,
            /* SHFL latency/interval, integer latency/interval, shared and global atomic latency, cycles per
               lane on one address: tc__gpu_sources' "*" rows (rates from the CUDA guide, latencies assumed) */
            23, 1, 4, 2, 46, 209, 1,
            36,            /* L1 hit: assumption, A100's (same SM generation) */
            TC__SIM_GRAPH_LAUNCH_US
        },
        { 16, 1024,      /* CUDA guide, cc 8.6 */
          99 * 1024,     /* CUDA guide, cc 8.6 */
          1024,
          65536, 255, 8 }
    },
    {   "rtx4090",
        "NVIDIA GeForce RTX 4090 (sm_89, AD102): measured L1/L2/DRAM latencies (HPMLL suite); Ada whitepaper rates (MMA at fp32 accumulate); MMA latencies assumed",
        89, TC_ARCH_ADA,             /* sm_89 */
        {
            2.52,          /* boost clock: Ada whitepaper (RTX 4090); the latency run held 2235 MHz, cycles carry over */
            128, 4, 48,    /* SMs: Ada whitepaper (RTX 4090); 4 sub-partitions: Ada whitepaper; 48 warps per SM: CUDA guide, cc 8.9 */
            100 * 1024,    /* shared memory per SM, up to 100 KB: CUDA guide, compute capability 8.9 */
            32, 4, 32,
            571,           /* DRAM (GDDR6X): pointer chase, dataset row luo-lat-dram-rtx4090 (HPMLL/NVIDIA-Hopper-Benchmark
                              RegularUnits/random_latency/rtx4090.txt), 571.6 cycles at a 1 GB working set */
            285,           /* L2 hit: the same log's plateau, luo-lat-l2-rtx4090 284.8 (the L40, same die: rrze-lat-l2-l40 276.5) */
            23,            /* shared load: assumption, A100's (no Ada measurement read) */
            4,             /* FFMA dependent: assumption, A100's and H100's 4 */
            1,             /* FFMA interval: 128 FP32 lanes per SM (Ada whitepaper) = 32 per sub-partition */
            /* MMA latency: assumption (no Ada mma latency was measured): this profile's interval plus the cycles
               A100's assumed latency has beyond its interval (m16n8k16 25 - 8 = 17, m16n8k8 17 - 4 = 13), as if
               the GeForce half-rate path held each instruction its interval longer in the same pipeline: m16n8k16
               32 + 17 = 49, m16n8k8 16 + 13 = 29; FP8 m16n8k32 as m16n8k16.f16 (the same operand bytes) and FP8
               m16n8k16 as m16n8k8.f16; mma.sp as the dense instruction of half the K, as on A100 */
            { 29, 29, 49, 29, 49, 29, 49, 49, 49, 29, 49, 29, 49, 29, 49, 49, 49,
              29, 29, 29, 29, 49, 49, 49, 49,
              /* integer kinds: the same rule on A100's (m8n8k16 17 - 2, m16n8k16 17 - 4, m16n8k32 25 - 8 beyond the interval) */
              19, 19, 19, 19, 21, 21, 21, 21, 33, 33, 33, 33, 19, 19, 19, 19, 21, 21, 21, 21, 33, 33, 33, 33 },
            /* MMA interval from the Ada whitepaper's dense RTX 4090 rates with fp32 accumulate (GeForce runs it at half
               the fp16-accumulate rate): fp16/bf16 165.2 TFLOPS = 256 FMA/clk/SM at 2.52 GHz, 64 per sub-partition:
               m16n8k16 2048/64 = 32, m16n8k8 16; tf32 82.6 = 32 per sub-partition: m16n8k8 32, m16n8k4 16; FP8 330.3 =
               128 per sub-partition: m16n8k32 4096/128 = 32, m16n8k16 16; m8n8k4 8 (assumption, rtx3090's).
               mma.sp: the dense half-K instruction's interval (the whitepaper's sparse rates are twice the dense) */
            { 8, 16, 32, 16, 32, 16, 32, 32, 32, 16, 32, 16, 32, 16, 32, 32, 32,
              16, 16, 16, 16, 32, 32, 32, 32,
              /* integer kinds: Ada whitepaper INT8 660.6 / INT4 1321.2 dense TOPS = 1024 / 2048 MAC/clk/SM, 256 / 512 per sub-partition */
              4, 4, 4, 4, 8, 8, 8, 8, 16, 16, 16, 16, 4, 4, 4, 4, 8, 8, 8, 8, 16, 16, 16, 16 },
            1,             /* 128 bytes of shared memory per cycle per SM */
            35.7,          /* L2 -> SM bytes per cycle per SM: assumption, A100's measured share */
            360.0,         /* DRAM: assumption, 90% of 1008 GB/s (GDDR6X, Ada whitepaper; the fraction A100, H100 and
                              V100 reach in the dataset) / 2.52 GHz */
            TC__SIM_LAUNCH_US,
            /* SHFL latency/interval, integer latency/interval, shared and global atomic latency, cycles per
               lane on one address: tc__gpu_sources' "*" rows (rates from the CUDA guide, latencies assumed) */
            23, 1, 4, 2, 46, 285, 1,
            36,            /* L1 hit: the same log's plateau, luo-lat-l1-rtx4090 36.0-36.4 up to 84 kB (rrze-lat-l1-l40 36.1) */
            TC__SIM_GRAPH_LAUNCH_US
        },
        { 24, 1024,      /* CUDA guide, cc 8.9 */
          99 * 1024,     /* CUDA guide, cc 8.9 */
          1024,
          65536, 255, 8 }
    },
    {   "b200",
        "NVIDIA B200 (sm_100): datasheet rates, tcgen05.mma at the dense peak; L1/L2/DRAM latencies H100's moved by the measured B200/H100 ratio; DRAM bandwidth measured on a GB200; shared latency and mma.sync assumed as H100",
        100, TC_ARCH_B200,           /* sm_100 */
        {
            1.86,          /* tensor clock: derived, the clock at which the datasheet's dense fp16 2.25 PFLOPS is 4096 FMA/clk
                              per SM (assumption: twice H100's 2048) on 148 SMs */
            148, 4, 64,    /* SMs: 74 of 80 per die (reported by Chips and Cheese; the datasheet gives no count); sub-partitions:
                              assumption, as H100; 64 warps: CUDA guide, cc 10.0 */
            228 * 1024,    /* shared memory per SM: CUDA guide, cc 10.0 */
            32, 4, 32,
            /* DRAM, L2 hit: H100's pointer-chase values (Luo et al. suite, jm-lat-dram/l2-h100-sxm 481, 272) times the
               B200/H100 ratio of one other method that measured both (markdewing/AI_kernels: mdw-lat-dram-b200 860 over
               mdw-lat-dram-h100-sxm 700, mdw-lat-l2-b200 295 over mdw-lat-l2-h100-sxm 291): 591, 276. That method reads
               H100's DRAM 46% above the Luo suite, so its B200 value taken as is would mix methods across profiles */
            591, 276,
            29,            /* shared load: assumption, H100's measured value (no B200 row read) */
            4,             /* FFMA dependent: assumption, H100's */
            1,             /* FFMA interval: assumption, 128 FP32 lanes per SM as H100 */
            /* MMA latency: mma.sync assumption, H100's (measured m16n8k8/k16 f16 and m16n8k8 tf32, the rest assumed);
               no wgmma on sm_100 (PTX ISA: sm_90a only). tcgen05.mma: its interval plus the 18 cycles H100's
               m16n8k16.f16 latency has beyond its interval (assumption: no tcgen05 latency was measured) */
            { 16, 16, 24, 16, 24, 16, 24, 24, 24, 16, 24, 16, 24, 16, 24, 24, 24,
              24, 24, 24, 24, 24, 24, 24, 24,
              /* integer kinds: 8-bit as H100 (assumption); no 4-bit on sm_100 */
              16, 16, 16, 16, 16, 16, 16, 16, 24, 24, 24, 24, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
              /* wgmma and wgmma.sp: none */
              0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
              /* tcgen05.mma m64/m128 f16, bf16, tf32 */
              274, 530, 274, 530, 274, 530,
              /* tcgen05.mma kind::f8f6f4, the 25 pairings at M 64, then at M 128: the same rule */
              TC__SIM_F8F6F4_PAIRS(274), TC__SIM_F8F6F4_PAIRS(530),
              /* block-scaled: kind::mxf8f6f4's 25 pairings, mxf4, mxf4nvf4 (M 128): the same rule */
              TC__SIM_F8F6F4_PAIRS(530), 530, 530 },
            /* MMA interval: mma.sync assumption, H100's measured rates. tcgen05.mma (one thread issues it; the
               simulator runs it on the issuing warp's sub-partition, so the SM's 4096 dense fp16 FMA/clk are 1024
               per sub-partition): m128n256k16 524288 FMA / 1024 = 512, m64 256; tf32 at half rate (datasheet 1.1
               PFLOPS): m128n256k8 262144 / 512 = 512, m64 256. kind::f8f6f4 at the datasheet's dense FP8 4.5
               PFLOPS, twice fp16's (2048 FMA/clk per sub-partition): m128n256k32 1048576 / 2048 = 512, m64 256;
               its FP6 and FP4 pairings at that FP8 rate too (assumption: the datasheet's FP4 9 PFLOPS is the
               mxf4 kinds', K 64; the FP6 rate equals FP8's there). Block-scaled: kind::mxf8f6f4 at that FP8
               rate, m128n256k32 512; kind::mxf4 and mxf4nvf4 at the datasheet's dense FP4 9 PFLOPS, twice FP8's
               (4096 FMA/clk per sub-partition): m128n256k64 2097152 / 4096 = 512 (the scales' cost: none,
               assumption). A kernel reaches the SM's peak by issuing from 4 warps, one per sub-partition (the
               hardware reaches it from one thread: simplification) */
            { 2, 4, 6, 4, 6, 4, 6, 6, 6, 4, 6, 4, 6, 4, 6, 6, 6,
              3, 3, 3, 3, 6, 6, 6, 6,
              2, 2, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
              0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
              256, 512, 256, 512, 256, 512,
              TC__SIM_F8F6F4_PAIRS(256), TC__SIM_F8F6F4_PAIRS(512),
              TC__SIM_F8F6F4_PAIRS(512), 512, 512 },
            1,             /* 128 bytes of shared memory per cycle per SM */
            70.6,          /* L2 -> SM bytes per cycle per SM: measured, mean of xr-l2bw-8192k/16896k/40448k-gb200 / 1.86 GHz / 148 */
            3806.0,        /* DRAM: measured, mean of xr-l2bw-dram-gb200 7768 and xr-roofline-read-gb200 6389 GB/s / 1.86 GHz (88% of 8 TB/s) */
            TC__SIM_LAUNCH_US,
            /* SHFL latency/interval, integer latency/interval, shared and global atomic latency, cycles per
               lane on one address: tc__gpu_sources' "*" rows (rates from the CUDA guide, latencies assumed) */
            29, 1, 4, 2, 58, 276, 1,
            41,            /* L1 hit: H100's jm-lat-l1-h100-sxm 41 times mdw-lat-l1-b200 40 over mdw-lat-l1-h100-sxm 40 */
            TC__SIM_GRAPH_LAUNCH_US
        },
        { 32, 1024,      /* CUDA guide, cc 10.0 */
          227 * 1024,    /* CUDA guide, cc 10.0 */
          1024,
          65536, 255, 8 }
    },
    {   "rtx5090",
        "NVIDIA GeForce RTX 5090 (sm_120, GB202): mma.sync rates per SM assumed as Ada's, with the precision ratios measured on an RTX 5060 Ti (sm_120); L1/L2/DRAM latencies rtx4090's moved by the measured RTX 5090/4090 ratio; MMA latencies assumed",
        120, TC_ARCH_RTX_BLACKWELL,  /* sm_120 */
        {
            2.407,         /* boost clock: RTX Blackwell whitepaper (RTX 5090, 2407 MHz) */
            170, 4, 48,    /* SMs: RTX Blackwell whitepaper (RTX 5090); 4 sub-partitions: assumption, as Ada; 48 warps per SM:
                              CUDA guide, cc 12.0 */
            100 * 1024,    /* shared memory per SM, up to 100 KB: CUDA guide, compute capability 12.0 */
            32, 4, 32,
            /* DRAM, L2 hit: rtx4090's pointer-chase values (luo-lat-dram/l2-rtx4090 571, 285) times the RTX 5090/4090
               ratio of one method that measured both (markdewing/AI_kernels: mdw-lat-dram-rtx5090 936 over
               mdw-lat-dram-rtx4090 636, mdw-lat-l2-rtx5090 360 over mdw-lat-l2-rtx4090 296): 840, 347, as b200's
               from H100's (that method reads the 4090's DRAM 11% above the HPMLL suite) */
            840, 347,
            23,            /* shared load: assumption, rtx4090's (A100's; no sm_120 measurement read) */
            4,             /* FFMA dependent: assumption, A100's and H100's 4 */
            1,             /* FFMA interval: 128 FP32 lanes per SM (whitepaper: 21760 CUDA cores on 170 SMs) = 32 per sub-partition */
            /* MMA latency: assumption (no sm_120 mma latency was measured), rtx4090's rule: this profile's interval
               plus the cycles A100's assumed latency has beyond its interval for an instruction of the same operand
               bytes (m16n8k16.f16 17, m16n8k8.f16 13): f16/bf16 m16n8k16 32 + 17 = 49, m16n8k8 29; tf32 m16n8k8 49,
               m16n8k4 29; FP8 m16n8k32 16 + 17 = 33, m16n8k16 8 + 13 = 21; kind::f8f6f4 and the block-scaled
               m16n8k32 (8-bit containers) and m16n8k64 e2m1 (4-bit, the bytes of m16n8k16.f16) 16 + 17 = 33;
               mma.sp as the dense instruction of half the K; no m8n8k4 (the table gives it V100 and Turing) */
            { 0, 29, 49, 29, 49, 29, 49, 33, 33, 29, 49, 29, 49, 29, 49, 33, 33,
              21, 21, 21, 21, 33, 33, 33, 33,
              /* integer kinds: 8-bit as rtx4090 (the same intervals); no 4-bit on sm_120 (the table's archs) */
              19, 19, 19, 19, 21, 21, 21, 21, 33, 33, 33, 33, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
              /* wgmma and wgmma.sp: none (sm_90a only) */
              0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
              /* tcgen05.mma, every kind: none (sm_100a/sm_101a/sm_103a) */
              0, 0, 0, 0, 0, 0,
              TC__SIM_F8F6F4_PAIRS(0), TC__SIM_F8F6F4_PAIRS(0),
              TC__SIM_F8F6F4_PAIRS(0), 0, 0,
              /* mma.sync kind::f8f6f4 (21 pairings), kind::mxf8f6f4 (25), mxf4 / mxf4nvf4 m16n8k64 (3) */
              TC__SIM_F8F6F4_MMA_PAIRS(33), TC__SIM_F8F6F4_PAIRS(33), 33, 33, 33 },
            /* MMA interval: per SM, Ada's dense fp16 rate with fp16 accumulate (assumption: 512 FMA/clk/SM, the Ada
               whitepaper's RTX 4090 330.3 TFLOPS on 128 SMs at 2.52 GHz) and the ratios between precisions that
               cuBLAS reaches on an RTX 5060 Ti (sm_120, 36 SMs, ~2.57 GHz; QuantumDrizzy/BLACKWALL README, N = 8192):
               fp16/bf16 with fp32 accumulate 47.0 vs 87.9 TFLOP/s with fp16 accumulate (half: 256 FMA/clk/SM,
               64 per sub-partition: m16n8k16 2048/64 = 32, m16n8k8 16); tf32 23.8 (a quarter: 32 per
               sub-partition: m16n8k8 32, m16n8k4 16); FP8 e4m3 184.6 (fp32 accumulate at twice fp16's fp16-accumulate
               rate, not halved as on Ada: 256 per sub-partition: m16n8k32 4096/256 = 16, m16n8k16 8); nvfp4 341.9
               (twice FP8: 512 per sub-partition: m16n8k64 8192/512 = 16). kind::f8f6f4 and mxf8f6f4 m16n8k32 at
               the FP8 rate (assumption: FP6/FP4 in 8-bit containers, scales free); mxf4/mxf4nvf4 at nvfp4's.
               mma.sp: the dense half-K instruction's interval (assumption, as the other profiles) */
            { 0, 16, 32, 16, 32, 16, 32, 16, 16, 16, 32, 16, 32, 16, 32, 16, 16,
              8, 8, 8, 8, 16, 16, 16, 16,
              /* integer kinds: 8-bit at the FP8 rate (assumption: Ada's whitepaper gives INT8 the FP8 rate),
                 1024 MAC/clk/SM, 256 per sub-partition */
              4, 4, 4, 4, 8, 8, 8, 8, 16, 16, 16, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
              0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
              0, 0, 0, 0, 0, 0,
              TC__SIM_F8F6F4_PAIRS(0), TC__SIM_F8F6F4_PAIRS(0),
              TC__SIM_F8F6F4_PAIRS(0), 0, 0,
              TC__SIM_F8F6F4_MMA_PAIRS(16), TC__SIM_F8F6F4_PAIRS(16), 16, 16, 16 },
            1,             /* 128 bytes of shared memory per cycle per SM */
            35.7,          /* L2 -> SM bytes per cycle per SM: assumption, A100's measured share (as rtx4090) */
            670.0,         /* DRAM: assumption, 90% of 1792 GB/s (GDDR7, whitepaper; the fraction A100, H100 and V100
                              reach in the dataset) / 2.407 GHz */
            TC__SIM_LAUNCH_US,
            /* SHFL latency/interval, integer latency/interval, shared and global atomic latency, cycles per
               lane on one address: tc__gpu_sources' "*" rows (rates from the CUDA guide, latencies assumed) */
            23, 1, 4, 2, 46, 347, 1,
            40,            /* L1 hit: rtx4090's luo-lat-l1-rtx4090 36 times mdw-lat-l1-rtx5090 44 over mdw-lat-l1-rtx4090 40 */
            TC__SIM_GRAPH_LAUNCH_US
        },
        { 32, 1024,      /* CUDA guide, cc 12.0 */
          99 * 1024,     /* CUDA guide, cc 12.0 */
          1024,
          65536, 255, 8 }
    },
};

/* The instruction table as a host array, for the simulator's inner loop. */
static const tc_mma_instr_info tc__mma_instrs[] = {
#define TC__MMA_INSTR_ROW(id, nm, px, M, N, K, IN, INB, F16, GRP, KEEP, SEL, ML, AE, BE, CE, ARCHS, LAYOUT, THR, NSTEP) \
    { nm, px, M, N, K, IN, INB, F16, GRP, KEEP, SEL, ML, AE, BE, CE, 0, 0, ARCHS, LAYOUT, THR, NSTEP },
    TC__MMA_INSTR_LIST(TC__MMA_INSTR_ROW)
#undef TC__MMA_INSTR_ROW
};

TCDEF int tc_gpu_count(void) { return TC__COUNT_OF(tc__gpus); }

TCDEF const tc_gpu *tc_gpu_get(int i) {
    return i >= 0 && i < tc_gpu_count() ? &tc__gpus[i] : NULL;
}

TCDEF const tc_gpu *tc_gpu_find(const char *name) {
    int i;
    if (!name) return NULL;
    for (i = 0; i < tc_gpu_count(); i++)
        if (strcmp(tc__gpus[i].name, name) == 0) return &tc__gpus[i];
    return NULL;
}

TCDEF const tc_gpu *tc_gpu_nearest(int sm) {
    const tc_gpu *best = NULL;
    int i;
    for (i = 0; i < tc_gpu_count(); i++)
        if (tc__gpus[i].sm > 0 && tc__gpus[i].sm <= sm && (!best || tc__gpus[i].sm > best->sm)) best = &tc__gpus[i];
    return best;
}

/* One line per (GPU, profile key): where the number comes from (tc_gpu_source).
   GPU "" is every GPU, "*" every real GPU (sm > 0), "*blog" the blog
   profiles (sm 0); a named row wins over them. The MMA arrays have one row
   for all their kinds. */
static const struct { const char *gpu, *key, *source; } tc__gpu_sources[] = {
    { "", "banks", "SPEC: CUDA C++ Programming Guide, shared memory: 32 banks of 4 bytes" },
    { "", "bank_bytes", "SPEC: CUDA C++ Programming Guide, shared memory: 32 banks of 4 bytes" },
    { "", "sector_bytes", "SPEC: CUDA C++ Programming Guide, global memory: 32-byte sectors" },
    { "*", "shared_wavefronts_per_cycle", "SPEC: 32 banks x 4 bytes = one 128-byte wavefront per cycle per SM (H100 MEASURED 127.5 B/clk: jm-bw-shared-h100-sxm)" },
    { "*", "launch_overhead_us", "MEASURED fit: rrze-launch-a100-80gb 2.62 us, rrze-launch-h200 2.43 us (ASSUMED for v100 and rtx3090)" },
    { "*", "graph_launch_us", "MEASURED fit: rrze-graph-a100-80gb 1.34 us, rrze-graph-h200 1.26 us (ASSUMED for v100 and rtx3090)" },
    { "*", "shfl_latency", "ASSUMED: the shared-load latency (SHFL takes the MIO path; no measured row)" },
    { "*", "shfl_interval", "SPEC: CUDA guide throughput table, warp shuffle: 32 results per clock per SM" },
    { "*", "int_latency", "ASSUMED: the FFMA dependent latency" },
    { "*", "int_interval", "SPEC: CUDA guide throughput table, 32-bit integer add and multiply-add: 64 per clock per SM = 16 per sub-partition" },
    { "*", "atoms_latency", "ASSUMED: 2 x the shared-load latency (a load and a store back)" },
    { "*", "atomg_latency", "ASSUMED: the L2 hit latency (the atomic is performed at L2)" },
    { "*", "atom_same_address_cycles", "ASSUMED: one update per cycle on one address" },
    { "*blog", "sms", "the blog's example: 8 SMs x 8 warps" },
    { "*blog", "subpartitions", "ASSUMED: one scheduler per warp (the blog starts all 8 warps of an SM in the same cycle)" },
    { "*blog", "max_warps_per_sm", "SPEC: GA100 whitepaper" },
    { "*blog", "ffma_latency", "the blog: FFMA 4 cycles" },
    { "*blog", "ffma_interval", "ASSUMED: the blog never overlaps FFMAs" },
    { "*blog", "mma_latency", "the blog: Tensor Core 1 cycle, for every shape (ASSUMED for shapes it does not name)" },
    { "*blog", "mma_interval", "ASSUMED: the blog never overlaps MMAs" },
    { "*blog", "shared_wavefronts_per_cycle", "not modelled: the blog adds latencies only" },
    { "*blog", "sm_bytes_per_cycle", "not modelled: the blog adds latencies only" },
    { "*blog", "dram_bytes_per_cycle", "not modelled: the blog adds latencies only" },
    { "*blog", "launch_overhead_us", "not modelled: the blog adds latencies only" },
    { "*blog", "graph_launch_us", "not modelled: the blog adds latencies only" },
    { "*blog", "shfl_latency", "ASSUMED: the blog gives none; its shared latency" },
    { "*blog", "shfl_interval", "ASSUMED: the blog gives none" },
    { "*blog", "int_latency", "ASSUMED: the blog gives none; its FFMA latency" },
    { "*blog", "int_interval", "ASSUMED: the blog gives none; its FFMA interval" },
    { "*blog", "atoms_latency", "ASSUMED: the blog gives none; 2 x its shared latency" },
    { "*blog", "atomg_latency", "ASSUMED: the blog gives none; its L2 latency" },
    { "*blog", "atom_same_address_cycles", "ASSUMED: the blog gives none" },
    { "dettmers2020", "l1_latency", "the blog (2020) gives none: 0, an L1 hit costs its shared load" },
    { "dettmers2023", "l1_latency", "the blog (2023): L1 or shared memory ~34 cycles" },
    { "a100", "l1_latency", "MEASURED: pointer chase, rrze-lat-l1-a100-40gb and -80gb (36); luo-lat-l1-a100-pcie 32.7 and mdw-lat-l1-a100-sxm 39 by other suites" },
    { "h100", "l1_latency", "MEASURED: pointer chase, jm-lat-l1-h100-sxm 41.1 (the suite of its L2 and DRAM latencies)" },
    { "v100", "l1_latency", "MEASURED: pointer chase, rrze-lat-l1-v100 29.9" },
    { "rtx3090", "l1_latency", "ASSUMED: A100's value (same SM generation)" },
    { "dettmers2020", "clock_ghz", "SPEC: GA100 boost 1410 MHz (the blog's figures are for GA100; only converts cycles to seconds)" },
    { "dettmers2020", "shared_bytes_per_sm", "the blog (2020): up to 164 KB per SM" },
    { "dettmers2020", "dram_latency", "the blog (2020): global memory ~200 cycles" },
    { "dettmers2020", "l2_latency", "the blog (2020) gives no L2 figure: its global 200" },
    { "dettmers2020", "shared_latency", "the blog (2020): shared memory ~20 cycles" },
    { "dettmers2023", "clock_ghz", "ASSUMED: H100 tensor clock (only converts cycles to seconds)" },
    { "dettmers2023", "shared_bytes_per_sm", "SPEC: H100 whitepaper, 228 KB" },
    { "dettmers2023", "dram_latency", "the blog (2023): global memory ~380 cycles" },
    { "dettmers2023", "l2_latency", "the blog (2023): L2 ~200 cycles" },
    { "dettmers2023", "shared_latency", "the blog (2023): L1 or shared memory ~34 cycles" },
    { "a100", "clock_ghz", "SPEC: A100 whitepaper, boost 1410 MHz" },
    { "a100", "sms", "SPEC: A100 whitepaper" },
    { "a100", "subpartitions", "SPEC: A100 whitepaper" },
    { "a100", "max_warps_per_sm", "SPEC: A100 whitepaper" },
    { "a100", "shared_bytes_per_sm", "SPEC: A100 whitepaper, 164 KB carve-out" },
    { "a100", "dram_latency", "MEASURED: pointer chase, mean of rrze-lat-dram-a100-40gb, -80gb and luo-lat-dram-a100-pcie" },
    { "a100", "l2_latency", "MEASURED: pointer chase, mean of rrze-lat-l2-a100-40gb, -80gb and luo-lat-l2-a100-pcie" },
    { "a100", "shared_latency", "MEASURED by Abdelkhalik et al. 2022 (not in the dataset)" },
    { "a100", "ffma_latency", "MEASURED by Abdelkhalik et al. 2022" },
    { "a100", "ffma_interval", "DERIVED: 64 FP32 lanes per SM (A100 whitepaper) = 16 per sub-partition" },
    { "a100", "mma_latency", "ASSUMED: m16n8k16 25 from the Accel-Sim SM80_A100 config (a simulator parameter), the rest by analogy; integer kinds ASSUMED as the fp16 kind of as many cycles" },
    { "a100", "mma_interval", "DERIVED: A100 whitepaper, 1024 fp16 FMA/clk/SM (312 TFLOPS), tf32 half; sparse kinds ASSUMED as the half-K dense; integer kinds DERIVED: INT8 624 / INT4 1248 TOPS" },
    { "a100", "sm_bytes_per_cycle", "MEASURED: rrze-l2bw-8192k and -16896k-a100-80gb (whole GPU) / 1.41 GHz / 108 SMs" },
    { "a100", "dram_bytes_per_cycle", "MEASURED: mean of rrze-stream-read, -scale, -triad-a100-40gb / 1.41 GHz (90% of peak)" },
    { "h100", "clock_ghz", "SPEC: H100 SXM tensor clock (docs/REFERENCE.md section 3.4)" },
    { "h100", "sms", "SPEC: H100 SXM whitepaper" },
    { "h100", "subpartitions", "SPEC: H100 whitepaper" },
    { "h100", "max_warps_per_sm", "SPEC: H100 whitepaper" },
    { "h100", "shared_bytes_per_sm", "SPEC: H100 whitepaper, 228 KB" },
    { "h100", "dram_latency", "MEASURED: pointer chase, jm-lat-dram-h100-sxm" },
    { "h100", "l2_latency", "MEASURED: pointer chase, jm-lat-l2-h100-sxm" },
    { "h100", "shared_latency", "MEASURED by Luo et al. 2024 (HPMLL suite)" },
    { "h100", "ffma_latency", "MEASURED: 4.07 cycles (Luo et al. 2024)" },
    { "h100", "ffma_interval", "DERIVED: 128 FP32 lanes per SM (H100 whitepaper) = 32 per sub-partition" },
    { "h100", "mma_latency", "MEASURED: m16n8k8/k16 f16 and m16n8k8 tf32 (Johnsonms/NVIDIA-Hopper-Benchmark); bf16, e4m3, FP8 m16n8k16, m8n8k4, sparse, wgmma, wgmma.sp ASSUMED; integer 8-bit ASSUMED as e4m3, no 4-bit (whitepaper: INT4 N/A)" },
    { "h100", "mma_interval", "MEASURED rates: the jm-mma-tput-* rows (mma.sync reaches ~65% of the dense peak); wgmma at N = 256: raw/wgmma_*.log, 99% of the dense peak; m8n8k4, FP8 m16n8k16, sparse, wgmma bf16/e5m2, wgmma.sp (the dense wgmma's x the whitepaper's 2x) ASSUMED; integer 8-bit ASSUMED at e4m3's measured rate" },
    { "h100", "sm_bytes_per_cycle", "fitted: jm-bw-l2-64f-h100-sxm and the H200 rrze-l2bw-* rows, over 132 SMs" },
    { "h100", "dram_bytes_per_cycle", "MEASURED: jm-bw-dram-h100-sxm 3008 GB/s / 1.83 GHz (90% of peak)" },
    { "v100", "clock_ghz", "SPEC: V100 whitepaper (SXM2 boost)" },
    { "v100", "sms", "SPEC: V100 whitepaper" },
    { "v100", "subpartitions", "SPEC: V100 whitepaper" },
    { "v100", "max_warps_per_sm", "SPEC: V100 whitepaper" },
    { "v100", "shared_bytes_per_sm", "SPEC: V100 whitepaper, up to 96 KB" },
    { "v100", "dram_latency", "MEASURED: pointer chase, rrze-lat-dram-v100" },
    { "v100", "l2_latency", "MEASURED: pointer chase, rrze-lat-l2-v100" },
    { "v100", "shared_latency", "MEASURED by Jia et al. 2018" },
    { "v100", "ffma_latency", "MEASURED by Jia et al. 2018" },
    { "v100", "ffma_interval", "DERIVED: 64 FP32 lanes per SM (V100 whitepaper) = 16 per sub-partition" },
    { "v100", "mma_latency", "ASSUMED (sm_70 has only m8n8k4; no measured row)" },
    { "v100", "mma_interval", "DERIVED: V100 whitepaper, 125 TFLOPS = 512 FMA/clk/SM" },
    { "v100", "shared_wavefronts_per_cycle", "ASSUMED: as A100 (128 bytes per cycle per SM)" },
    { "v100", "sm_bytes_per_cycle", "ASSUMED: A100's measured share (no V100 row)" },
    { "v100", "dram_bytes_per_cycle", "MEASURED: mean of rrze-stream-read, -scale, -triad-v100 / 1.53 GHz (92% of peak)" },
    { "rtx3090", "clock_ghz", "SPEC: GA102 whitepaper, boost clock" },
    { "rtx3090", "sms", "SPEC: GA102 whitepaper (RTX 3090)" },
    { "rtx3090", "subpartitions", "SPEC: GA102 whitepaper" },
    { "rtx3090", "max_warps_per_sm", "SPEC: CUDA guide, compute capability 8.6" },
    { "rtx3090", "shared_bytes_per_sm", "SPEC: CUDA guide, compute capability 8.6 (100 KB)" },
    { "rtx3090", "dram_latency", "ASSUMED: A100's pointer-chase 571 (no RTX 3090 row)" },
    { "rtx3090", "l2_latency", "ASSUMED: A100's value (same SM generation)" },
    { "rtx3090", "shared_latency", "ASSUMED: A100's value (same SM generation)" },
    { "rtx3090", "ffma_latency", "ASSUMED: A100's value (same SM generation)" },
    { "rtx3090", "ffma_interval", "DERIVED: 128 FP32 lanes per SM (GA102 whitepaper) = 32 per sub-partition" },
    { "rtx3090", "mma_latency", "ASSUMED: A100's" },
    { "rtx3090", "mma_interval", "DERIVED: GA102 whitepaper, fp16 with fp32 accumulate 71 TFLOPS = 256 FMA/clk/SM; sparse ASSUMED; integer kinds DERIVED: INT8 284 / INT4 568 TOPS" },
    { "rtx3090", "sm_bytes_per_cycle", "ASSUMED: A100's measured share (no RTX 3090 row)" },
    { "rtx3090", "dram_bytes_per_cycle", "ASSUMED: 90% of 936 GB/s (GA102 whitepaper)" },
    { "rtx4090", "clock_ghz", "SPEC: Ada whitepaper, RTX 4090 boost 2520 MHz" },
    { "rtx4090", "sms", "SPEC: Ada whitepaper (RTX 4090)" },
    { "rtx4090", "subpartitions", "SPEC: Ada whitepaper" },
    { "rtx4090", "max_warps_per_sm", "SPEC: CUDA guide, compute capability 8.9" },
    { "rtx4090", "shared_bytes_per_sm", "SPEC: CUDA guide, compute capability 8.9 (100 KB)" },
    { "rtx4090", "dram_latency", "MEASURED: pointer chase 571.6 at 1 GB, github:HPMLL/NVIDIA-Hopper-Benchmark@ded6f5765ad1b6e58573abb7cfe9c9b10a1719a7:RegularUnits/random_latency/rtx4090.txt, dataset row luo-lat-dram-rtx4090" },
    { "rtx4090", "l2_latency", "MEASURED: pointer chase plateau 284.8 (0.2-32 MB), the same log, dataset row luo-lat-l2-rtx4090 (the L40, same die: 276.5, rrze-lat-l2-l40)" },
    { "rtx4090", "l1_latency", "MEASURED: pointer chase plateau 36.0-36.4 (up to 84 kB), the same log, dataset row luo-lat-l1-rtx4090 (the L40: 36.1, rrze-lat-l1-l40)" },
    { "rtx4090", "shared_latency", "ASSUMED: A100's value (no Ada measurement read)" },
    { "rtx4090", "ffma_latency", "ASSUMED: A100's and H100's 4" },
    { "rtx4090", "ffma_interval", "DERIVED: 128 FP32 lanes per SM (Ada whitepaper) = 32 per sub-partition" },
    { "rtx4090", "mma_latency", "ASSUMED: the interval + A100's latency beyond its interval (no Ada mma latency measured); FP8 m16n8k32 as m16n8k16.f16, FP8 m16n8k16 as m16n8k8.f16" },
    { "rtx4090", "mma_interval", "DERIVED: Ada whitepaper RTX 4090 dense, fp32 accumulate: fp16/bf16 165.2, tf32 82.6, FP8 330.3 TFLOPS; INT8 660.6 / INT4 1321.2 TOPS; sparse the dense half-K; m8n8k4 ASSUMED" },
    { "rtx4090", "sm_bytes_per_cycle", "ASSUMED: A100's measured share (no RTX 4090 row)" },
    { "rtx4090", "dram_bytes_per_cycle", "ASSUMED: 90% of 1008 GB/s (Ada whitepaper)" },
    { "rtx4090", "launch_overhead_us", "ASSUMED: the A100/H200 fit (no RTX 4090 row)" },
    { "rtx4090", "graph_launch_us", "ASSUMED: the A100/H200 fit (no RTX 4090 row)" },
    { "b200", "clock_ghz", "DERIVED: datasheet dense fp16 2.25 PFLOPS / (148 SMs x 8192 FLOP/clk; ASSUMED twice H100's per SM)" },
    { "b200", "sms", "SPEC (reported): Chips and Cheese B200 article, 74 of 80 SMs per die enabled (the datasheet gives no SM count)" },
    { "b200", "subpartitions", "ASSUMED: as H100" },
    { "b200", "max_warps_per_sm", "SPEC: CUDA guide, compute capability 10.0" },
    { "b200", "shared_bytes_per_sm", "SPEC: CUDA guide, compute capability 10.0 (228 KB)" },
    { "b200", "dram_latency", "DERIVED from MEASURED: H100's 481 (jm-lat-dram-h100-sxm) x 860/700, the B200/H100 ratio of one method (dataset rows mdw-lat-dram-b200, mdw-lat-dram-h100-sxm; github:markdewing/AI_kernels latency/README.md)" },
    { "b200", "l2_latency", "DERIVED from MEASURED: H100's 272 (jm-lat-l2-h100-sxm) x 295/291 (dataset rows mdw-lat-l2-b200, mdw-lat-l2-h100-sxm)" },
    { "b200", "l1_latency", "DERIVED from MEASURED: H100's 41 (jm-lat-l1-h100-sxm) x 40/40 (dataset rows mdw-lat-l1-b200, mdw-lat-l1-h100-sxm)" },
    { "b200", "shared_latency", "ASSUMED: H100's measured 29 (no B200 row)" },
    { "b200", "ffma_latency", "ASSUMED: H100's measured 4" },
    { "b200", "ffma_interval", "ASSUMED: 128 FP32 lanes per SM, as H100" },
    { "b200", "mma_latency", "ASSUMED: mma.sync as H100; tcgen05.mma its interval + 18 (H100 m16n8k16.f16's latency beyond its interval); no wgmma (sm_90a only)" },
    { "b200", "mma_interval", "DERIVED: tcgen05.mma from the datasheet dense fp16 2.25 / tf32 1.1 / FP8 4.5 / FP4 9 PFLOPS = 1024 / 512 / 2048 / 4096 FMA/clk per sub-partition (kind::f8f6f4's FP6/FP4 pairings and kind::mxf8f6f4 ASSUMED at the FP8 rate; mxf4, mxf4nvf4 at FP4's); mma.sync ASSUMED at H100's measured rates" },
    { "b200", "sm_bytes_per_cycle", "MEASURED on a GB200: mean of xr-l2bw-8192k, -16896k and -40448k-gb200 (whole GPU) / 1.86 GHz / 148 SMs" },
    { "b200", "dram_bytes_per_cycle", "MEASURED on a GB200 (same dies and HBM3e): mean of xr-l2bw-dram-gb200 and xr-roofline-read-gb200 / 1.86 GHz (88% of 8 TB/s)" },
    { "b200", "launch_overhead_us", "ASSUMED: the A100/H200 fit (no B200 row)" },
    { "b200", "graph_launch_us", "ASSUMED: the A100/H200 fit (no B200 row)" },
    { "rtx5090", "clock_ghz", "SPEC: RTX Blackwell whitepaper, RTX 5090 boost 2407 MHz" },
    { "rtx5090", "sms", "SPEC: RTX Blackwell whitepaper (RTX 5090: 170 SMs)" },
    { "rtx5090", "subpartitions", "ASSUMED: as Ada (4 per SM)" },
    { "rtx5090", "max_warps_per_sm", "SPEC: CUDA guide, compute capability 12.0" },
    { "rtx5090", "shared_bytes_per_sm", "SPEC: CUDA guide, compute capability 12.0 (100 KB)" },
    { "rtx5090", "dram_latency", "DERIVED from MEASURED: rtx4090's luo-lat-dram-rtx4090 571 x mdw-lat-dram-rtx5090 936 / mdw-lat-dram-rtx4090 636 (one method on both GPUs)" },
    { "rtx5090", "l2_latency", "DERIVED from MEASURED: rtx4090's luo-lat-l2-rtx4090 285 x mdw-lat-l2-rtx5090 360 / mdw-lat-l2-rtx4090 296" },
    { "rtx5090", "l1_latency", "DERIVED from MEASURED: rtx4090's luo-lat-l1-rtx4090 36 x mdw-lat-l1-rtx5090 44 / mdw-lat-l1-rtx4090 40" },
    { "rtx5090", "shared_latency", "ASSUMED: rtx4090's (A100's) value (no sm_120 measurement read)" },
    { "rtx5090", "ffma_latency", "ASSUMED: A100's and H100's 4" },
    { "rtx5090", "ffma_interval", "DERIVED: 21760 CUDA cores on 170 SMs (whitepaper) = 128 per SM, 32 per sub-partition" },
    { "rtx5090", "mma_latency", "ASSUMED: the interval + A100's latency beyond its interval for the instruction of the same operand bytes (no sm_120 mma latency measured); no m8n8k4, 4-bit integer, wgmma or tcgen05 (the table's archs)" },
    { "rtx5090", "mma_interval", "DERIVED: Ada's 512 fp16 FMA/clk/SM (ASSUMED per SM) x the ratios MEASURED by cuBLAS on an RTX 5060 Ti (sm_120): fp32-accumulate fp16/bf16 1/2, tf32 1/4, FP8 2, nvfp4 4 (github:QuantumDrizzy/BLACKWALL@2dc1d9c5884e9888d3dbc2b63e3bace238b48a3c:README.md); f8f6f4, mxf8f6f4 and INT8 ASSUMED at the FP8 rate; sparse the dense half-K" },
    { "rtx5090", "sm_bytes_per_cycle", "ASSUMED: A100's measured share (no RTX 5090 row)" },
    { "rtx5090", "dram_bytes_per_cycle", "ASSUMED: 90% of 1792 GB/s (GDDR7, RTX Blackwell whitepaper)" },
    { "rtx5090", "launch_overhead_us", "ASSUMED: the A100/H200 fit (no RTX 5090 row)" },
    { "rtx5090", "graph_launch_us", "ASSUMED: the A100/H200 fit (no RTX 5090 row)" },
};

TCDEF const char *tc_gpu_source(const tc_gpu *gpu, const char *key) {
    const char *dot, *found[3] = { NULL, NULL, NULL };
    size_t klen;
    int i;
    if (!gpu || !key || tc_gpu_find(gpu->name) != gpu) return NULL;
    dot = strncmp(key, "mma_", 4) == 0 ? strchr(key, '.') : NULL;   /* one row for every MMA kind */
    if (dot) {
        tc_mma_instr kind;
        if (tc_mma_instr_find(dot + 1, &kind) != TC_OK) return NULL;
    }
    klen = dot ? (size_t)(dot - key) : strlen(key);
    for (i = 0; i < TC__COUNT_OF(tc__gpu_sources); i++) {
        const char *g = tc__gpu_sources[i].gpu;
        if (strlen(tc__gpu_sources[i].key) != klen || strncmp(tc__gpu_sources[i].key, key, klen) != 0) continue;
        if (strcmp(g, gpu->name) == 0) found[0] = tc__gpu_sources[i].source;
        else if (strcmp(g, gpu->sm ? "*" : "*blog") == 0) found[1] = tc__gpu_sources[i].source;
        else if (!g[0]) found[2] = tc__gpu_sources[i].source;
    }
    return found[0] ? found[0] : found[1] ? found[1] : found[2];
}

static int tc__is_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

/* The longest latency or issue interval a profile may give (cycles): far
   beyond any GPU's, small enough that cycle counts stay exact in int64. */
#define TC__SIM_MAX_LATENCY (1 << 20)

/* 0 (unlimited), or a rate at which no request of a program the simulator
   accepts waits past what an int64 cycle count holds: the slowest allowed
   moves a 2^34-byte program in 2^40 cycles. NaN and Inf fail both tests. */
static int tc__sim_bandwidth_ok(double b) { return b == 0.0 || (b >= 1.0 / 64 && b <= (double)((int64_t)1 << 30)); }

static int tc__sim_cycles_ok(int c) { return c >= 1 && c <= TC__SIM_MAX_LATENCY; }

TCDEF tc_status tc_sim_profile_validate(const tc_sim_profile *g, const char **why) {
    const char *w = NULL;
    int k;
    if (!g) { if (why) *why = "profile is NULL"; return TC_ERR_NULL; }
    if (!(g->clock_ghz >= 0.01 && g->clock_ghz <= 100.0)) w = "clock_ghz must be in [0.01, 100]";
    else if (g->sms < 1 || g->sms > 4096) w = "sms must be 1..4096";
    else if (g->subpartitions < 1 || g->subpartitions > 64) w = "subpartitions must be 1..64";
    else if (g->max_warps_per_sm < 1 || g->max_warps_per_sm > 1024) w = "max_warps_per_sm must be 1..1024";
    else if (g->shared_bytes_per_sm < 0 || g->shared_bytes_per_sm > ((int64_t)1 << 30)) w = "shared_bytes_per_sm must be 0..2^30";
    else if (!tc__is_pow2(g->banks) || g->banks > 128) w = "banks must be a power of two, at most 128";
    else if (g->bank_bytes != 4 && g->bank_bytes != 8) w = "bank_bytes must be 4 or 8";
    else if (!tc__is_pow2(g->sector_bytes) || g->sector_bytes < 16 || g->sector_bytes > 4096) w = "sector_bytes must be a power of two, 16..4096";
    else if (g->dram_latency < 1 || g->l2_latency < 1 || g->shared_latency < 1 || g->ffma_latency < 1 ||
             g->dram_latency > TC__SIM_MAX_LATENCY || g->l2_latency > TC__SIM_MAX_LATENCY ||
             g->shared_latency > TC__SIM_MAX_LATENCY || g->ffma_latency > TC__SIM_MAX_LATENCY)
        w = "latencies must be 1..2^20 cycles";
    else if (g->ffma_interval < 1 || g->ffma_interval > TC__SIM_MAX_LATENCY) w = "ffma_interval must be 1..2^20";
    else if (g->shared_wavefronts_per_cycle < 0 || g->shared_wavefronts_per_cycle > 1024) w = "shared_wavefronts_per_cycle must be 0..1024";
    else if (!tc__sim_bandwidth_ok(g->sm_bytes_per_cycle) || !tc__sim_bandwidth_ok(g->dram_bytes_per_cycle))
        w = "bandwidths must be 0 (unlimited) or in [1/64, 2^30] bytes per cycle";
    else if (!(g->launch_overhead_us >= 0.0 && g->launch_overhead_us < 1e6)) w = "launch_overhead_us must be in [0, 1e6)";
    else if (!tc__sim_cycles_ok(g->shfl_latency) || !tc__sim_cycles_ok(g->shfl_interval) || !tc__sim_cycles_ok(g->int_latency) ||
             !tc__sim_cycles_ok(g->int_interval) || !tc__sim_cycles_ok(g->atoms_latency) || !tc__sim_cycles_ok(g->atomg_latency))
        w = "shfl_, int_, atoms_ and atomg_ latencies and intervals must be 1..2^20 cycles";
    else if (g->atom_same_address_cycles < 0 || g->atom_same_address_cycles > 1024) w = "atom_same_address_cycles must be 0..1024";
    else if (g->l1_latency < 0 || g->l1_latency > TC__SIM_MAX_LATENCY) w = "l1_latency must be 0 (as a shared load) or 1..2^20 cycles";
    else if (!(g->graph_launch_us >= 0.0 && g->graph_launch_us < 1e6)) w = "graph_launch_us must be in [0, 1e6)";
    for (k = 0; !w && k < TC_MMA_INSTR_COUNT; k++)
        if (g->mma_latency[k] < 0 || g->mma_latency[k] > TC__SIM_MAX_LATENCY ||
            (g->mma_latency[k] > 0 && (g->mma_interval[k] < 1 || g->mma_interval[k] > TC__SIM_MAX_LATENCY)))
            w = "an MMA kind needs latency 0 (unsupported) or latency and interval in 1..2^20";
    if (why) *why = w ? w : "ok";
    return w ? TC_ERR_PROFILE : TC_OK;
}

/* ---- address patterns */

static int tc__sim_width(const tc_sim_addr *a) { return a->width ? a->width : 4; }

static int64_t tc__sim_lane_off(const tc_sim_program *p, const tc_sim_addr *a, int lane) {
    if (a->lane_table > 0) return (int64_t)p->lane_tables[a->lane_table - 1][lane];
    return (int64_t)lane * a->lane_stride;
}

/* Sorts v[0..n) (n <= 128: insertion sort) and drops duplicates; returns the new count. */
static int tc__sim_unique(int64_t *v, int n) {
    int i, j, m = 0;
    for (i = 1; i < n; i++) {
        int64_t x = v[i];
        for (j = i; j > 0 && v[j - 1] > x; j--) v[j] = v[j - 1];
        v[j] = x;
    }
    for (i = 0; i < n; i++) if (m == 0 || v[i] != v[m - 1]) v[m++] = v[i];
    return m;
}

static int tc__sim_passes_i64(const int64_t *addr, int lanes, int width, int banks, int bank_bytes) {
    int64_t words[128];
    int in_bank[2 * 128];   /* banks is at most 128 (tc_sim_profile_validate, tc_sim_shared_passes) */
    int per_word = width > bank_bytes ? width / bank_bytes : 1;
    int lanes_per_phase = banks * bank_bytes / width, total = 0, first, i, j;
    if (lanes_per_phase < 1) lanes_per_phase = 1;
    if (lanes_per_phase > 32) lanes_per_phase = 32;
    for (first = 0; first < lanes; first += lanes_per_phase) {
        int n = 0, m, worst = 0, last = first + lanes_per_phase < lanes ? first + lanes_per_phase : lanes;
        for (i = first; i < last; i++)
            for (j = 0; j < per_word && n < TC__COUNT_OF(words); j++) words[n++] = addr[i] / bank_bytes + j;
        m = tc__sim_unique(words, n);   /* the same word twice is a broadcast, not a conflict */
        for (i = 0; i < m; i++) in_bank[words[i] % banks + banks] = 0;   /* + banks: an index for either sign */
        for (i = 0; i < m; i++)         /* distinct words of one bank */
            if (++in_bank[words[i] % banks + banks] > worst) worst = in_bank[words[i] % banks + banks];
        total += worst;
    }
    return total;
}

static int tc__sim_width_ok(int width) { return width == 4 || width == 8 || width == 16; }

TCDEF tc_status tc_sim_shared_passes(const uint32_t addr[32], int lanes, int width, int banks, int bank_bytes, int *passes) {
    int64_t a[32];
    int i;
    if (!addr || !passes) return TC_ERR_NULL;
    if (lanes < 1 || lanes > 32 || !tc__sim_width_ok(width) || !tc__is_pow2(banks) || banks > 128 ||
        (bank_bytes != 4 && bank_bytes != 8))
        return TC_ERR_ARG;
    for (i = 0; i < lanes; i++) {
        if (addr[i] % (uint32_t)width) return TC_ERR_ARG;
        a[i] = addr[i];
    }
    *passes = tc__sim_passes_i64(a, lanes, width, banks, bank_bytes);
    return TC_OK;
}

TCDEF tc_status tc_sim_global_sectors(const uint64_t addr[32], int lanes, int width, int sector_bytes, int *sectors) {
    int64_t s[32];
    int i;
    if (!addr || !sectors) return TC_ERR_NULL;
    if (lanes < 1 || lanes > 32 || !tc__sim_width_ok(width) || !tc__is_pow2(sector_bytes) || sector_bytes < 16)
        return TC_ERR_ARG;
    for (i = 0; i < lanes; i++) {
        if (addr[i] % (uint64_t)width || addr[i] > ((uint64_t)1 << 62)) return TC_ERR_ARG;
        s[i] = (int64_t)(addr[i] / (uint64_t)sector_bytes);
    }
    *sectors = tc__sim_unique(s, lanes);
    return TC_OK;
}

/* ---- programs */

TCDEF void tc_sim_program_free(tc_sim_program *p) {
    if (!p) return;
    TC_FREE(p->code);
    TC_FREE(p->lane_tables);
    memset(p, 0, sizeof *p);
}

static tc_status tc__sim_fail(tc_sim_program *p, tc_status s) {
    if (p->status == TC_OK) p->status = s;
    return s;
}

static int tc__sim_reg_ok(int r) { return r == TC_SIM_NOREG || (r >= 0 && r < TC_SIM_MAX_REGS); }

TCDEF tc_status tc_sim_emit(tc_sim_program *p, const tc_sim_instr *ins) {
    if (!p || !ins) return p ? tc__sim_fail(p, TC_ERR_NULL) : TC_ERR_NULL;
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 16;
        tc_sim_instr *c;
        if (cap > (1 << 24)) return tc__sim_fail(p, TC_ERR_SIZE);
        c = (tc_sim_instr *)TC_MALLOC((size_t)cap * sizeof *c);
        if (!c) return tc__sim_fail(p, TC_ERR_NOMEM);
        if (p->n) memcpy(c, p->code, (size_t)p->n * sizeof *c);
        TC_FREE(p->code);
        p->code = c;
        p->cap = cap;
    }
    p->code[p->n++] = *ins;
    return TC_OK;
}

TCDEF tc_status tc_sim_lane_table(tc_sim_program *p, const uint32_t offsets[32], int *handle) {
    if (!p) return TC_ERR_NULL;
    if (!offsets || !handle) return tc__sim_fail(p, TC_ERR_NULL);
    if (p->n_tables == p->cap_tables) {
        int cap = p->cap_tables ? 2 * p->cap_tables : 4;
        uint32_t (*t)[32];
        if (cap > 4096) return tc__sim_fail(p, TC_ERR_SIZE);
        t = (uint32_t (*)[32])TC_MALLOC((size_t)cap * sizeof *t);
        if (!t) return tc__sim_fail(p, TC_ERR_NOMEM);
        if (p->n_tables) memcpy(t, p->lane_tables, (size_t)p->n_tables * sizeof *t);
        TC_FREE(p->lane_tables);
        p->lane_tables = t;
        p->cap_tables = cap;
    }
    memcpy(p->lane_tables[p->n_tables++], offsets, sizeof p->lane_tables[0]);
    *handle = p->n_tables;
    return TC_OK;
}

TCDEF tc_sim_addr tc_sim_addr_affine(int64_t base, int64_t lane_stride, int64_t warp_stride, int64_t iter_stride, int width) {
    tc_sim_addr a;
    memset(&a, 0, sizeof a);
    a.base = base; a.lane_stride = lane_stride; a.warp_stride = warp_stride; a.iter_stride = iter_stride; a.width = width;
    return a;
}

static tc_status tc__sim_op(tc_sim_program *p, int op, int dst, int s0, int s1, int s2, const tc_sim_addr *a) {
    tc_sim_instr ins;
    if (!p) return TC_ERR_NULL;
    if (!tc__sim_reg_ok(dst) || !tc__sim_reg_ok(s0) || !tc__sim_reg_ok(s1) || !tc__sim_reg_ok(s2))
        return tc__sim_fail(p, TC_ERR_PROGRAM);
    memset(&ins, 0, sizeof ins);
    ins.op = (uint8_t)op;
    ins.dst = (uint8_t)dst;
    ins.src[0] = (uint8_t)s0; ins.src[1] = (uint8_t)s1; ins.src[2] = (uint8_t)s2; ins.src[3] = TC_SIM_NOREG;
    if (a) ins.addr = *a;
    return tc_sim_emit(p, &ins);
}

#define TC__R TC_SIM_NOREG
TCDEF tc_status tc_sim_ldg(tc_sim_program *p, int dst, int addr_reg, tc_sim_addr a) { return tc__sim_op(p, TC_SIM_LDG, dst, addr_reg, TC__R, TC__R, &a); }
TCDEF tc_status tc_sim_stg(tc_sim_program *p, int src, tc_sim_addr a) { return tc__sim_op(p, TC_SIM_STG, TC__R, src, TC__R, TC__R, &a); }
TCDEF tc_status tc_sim_ldgsts(tc_sim_program *p, int token, tc_sim_addr a) { return tc__sim_op(p, TC_SIM_LDGSTS, token, TC__R, TC__R, TC__R, &a); }
TCDEF tc_status tc_sim_lds(tc_sim_program *p, int dst, int addr_reg, int token, tc_sim_addr a) { return tc__sim_op(p, TC_SIM_LDS, dst, addr_reg, token, TC__R, &a); }
TCDEF tc_status tc_sim_sts(tc_sim_program *p, int src, tc_sim_addr a) { return tc__sim_op(p, TC_SIM_STS, TC__R, src, TC__R, TC__R, &a); }
TCDEF tc_status tc_sim_ffma(tc_sim_program *p, int dst, int a, int b, int c) { return tc__sim_op(p, TC_SIM_FFMA, dst, a, b, c, NULL); }
TCDEF tc_status tc_sim_bar(tc_sim_program *p, int wait_reg) { return tc__sim_op(p, TC_SIM_BAR, TC__R, wait_reg, TC__R, TC__R, NULL); }
TCDEF tc_status tc_sim_exit(tc_sim_program *p) { return tc__sim_op(p, TC_SIM_EXIT, TC__R, TC__R, TC__R, TC__R, NULL); }
TCDEF tc_status tc_sim_shfl(tc_sim_program *p, int dst, int src) { return tc__sim_op(p, TC_SIM_SHFL, dst, src, TC__R, TC__R, NULL); }
TCDEF tc_status tc_sim_imad(tc_sim_program *p, int dst, int a, int b, int c) { return tc__sim_op(p, TC_SIM_IMAD, dst, a, b, c, NULL); }
TCDEF tc_status tc_sim_atoms(tc_sim_program *p, int dst, int src, int addr_reg, tc_sim_addr a) { return tc__sim_op(p, TC_SIM_ATOMS, dst, src, addr_reg, TC__R, &a); }
TCDEF tc_status tc_sim_atomg(tc_sim_program *p, int dst, int src, int addr_reg, tc_sim_addr a) { return tc__sim_op(p, TC_SIM_ATOMG, dst, src, addr_reg, TC__R, &a); }

TCDEF tc_status tc_sim_ldsm(tc_sim_program *p, int dst, int matrices, int token, tc_sim_addr a) {
    tc_status s;
    if (p && matrices != 1 && matrices != 2 && matrices != 4) return tc__sim_fail(p, TC_ERR_PROGRAM);   /* refused here, not first by the run */
    s = tc__sim_op(p, TC_SIM_LDSM, dst, TC__R, token, TC__R, &a);
    if (s == TC_OK) p->code[p->n - 1].count = matrices;
    return s;
}

TCDEF tc_status tc_sim_mma(tc_sim_program *p, tc_mma_instr kind, int dst, int a, int b, int c) {
    tc_status s;
    if (!p) return TC_ERR_NULL;
    if ((int)kind < 0 || (int)kind >= TC_MMA_INSTR_COUNT) return tc__sim_fail(p, TC_ERR_ARG);
    s = tc__sim_op(p, TC_SIM_MMA, dst, a, b, c, NULL);
    if (s == TC_OK) {
        p->code[p->n - 1].mma = (uint8_t)kind;
        p->code[p->n - 1].count = tc__mma_instrs[kind].n_step ? tc__mma_instrs[kind].n : 0;
    }
    return s;
}

TCDEF tc_status tc_sim_mma_n(tc_sim_program *p, tc_mma_instr kind, int n, int dst, int a, int b, int c) {
    tc_status s;
    if (!p) return TC_ERR_NULL;
    if ((int)kind < 0 || (int)kind >= TC_MMA_INSTR_COUNT || !tc__mma_instrs[kind].n_step) return tc__sim_fail(p, TC_ERR_ARG);
    if (!tc_mma_instr_n_ok(kind, n)) return tc__sim_fail(p, TC_ERR_SHAPE);
    s = tc_sim_mma(p, kind, dst, a, b, c);
    if (s == TC_OK) p->code[p->n - 1].count = n;
    return s;
}

TCDEF tc_status tc_sim_mma_sp(tc_sim_program *p, tc_mma_instr kind, int dst, int a, int b, int c, int meta) {
    tc_status s;
    if (!p) return TC_ERR_NULL;
    if ((int)kind < 0 || (int)kind >= TC_MMA_INSTR_COUNT || !tc__mma_instrs[kind].sparse_group) return tc__sim_fail(p, TC_ERR_ARG);
    if (!tc__sim_reg_ok(meta)) return tc__sim_fail(p, TC_ERR_PROGRAM);
    s = tc_sim_mma(p, kind, dst, a, b, c);
    if (s == TC_OK) p->code[p->n - 1].src[3] = (uint8_t)meta;
    return s;
}

TCDEF tc_status tc_sim_loop(tc_sim_program *p, int target, int trips) {
    tc_status s;
    /* the run's bounds (tc__sim_prepare), refused at once: the body starts at or before the LOOP */
    if (p && (target < 0 || target > p->n || trips < 1 || trips > (1 << 24))) return tc__sim_fail(p, TC_ERR_PROGRAM);
    s = tc__sim_op(p, TC_SIM_LOOP, TC__R, TC__R, TC__R, TC__R, NULL);
    if (s == TC_OK) { p->code[p->n - 1].target = target; p->code[p->n - 1].count = trips; }
    return s;
}

TCDEF tc_status tc_sim_bra_warp(tc_sim_program *p, int min_warp, int target) {
    tc_status s = tc__sim_op(p, TC_SIM_BRA_WARP, TC__R, TC__R, TC__R, TC__R, NULL);
    if (s == TC_OK) { p->code[p->n - 1].target = target; p->code[p->n - 1].count = min_warp; }
    return s;
}
#undef TC__R

/* Global layouts of the builders leave room for this many warps in all. */
#define TC__SIM_MAX_WARPS (1 << 16)

static void tc__sim_begin(tc_sim_program *p, const char *name, int sms, int warps) {
    tc_sim_program_free(p);
    strncpy(p->name, name, sizeof p->name - 1);
    p->default_sms = sms;
    p->default_warps_per_sm = warps;
}

/* Dettmers' 32x32 matmul. A and B (8 KB of fp32) are split over the 64
   warps: 128 bytes each, one cp.async per warp. The 2023 blog charges the
   global load 200 cycles, its L2 figure, so the inputs are L2-resident (a
   previous kernel just wrote them); with dettmers2020 L2 and DRAM agree. */
TCDEF tc_status tc_sim_build_matmul32(tc_sim_program *p, const tc_sim_matmul32_desc *d) {
    enum { TOKEN = 0, ACC = 1, FRAG = 2, STEPS = 8 };
    tc_sim_matmul32_desc def;
    int i;
    if (!p) return TC_ERR_NULL;
    if (!d) { memset(&def, 0, sizeof def); d = &def; }
    if ((int)d->mma < 0 || (int)d->mma >= TC_MMA_INSTR_COUNT || tc__mma_instrs[d->mma].threads != 32) return TC_ERR_ARG;
    tc__sim_begin(p, d->tensor_cores ? "matmul32_tc" : "matmul32_ffma", 8, 8);
    p->global_bytes = p->l2_resident_bytes = (int64_t)TC__SIM_MAX_WARPS * 128;
    p->shared_bytes = (64 + STEPS) * 128;              /* a row per warp, plus the rows steps reach past the last warp */
    tc_sim_ldgsts(p, TOKEN, tc_sim_addr_affine(0, 4, 128, 0, 4));
    if (d->sync) tc_sim_bar(p, TOKEN);
    if (d->tensor_cores) {
        const int m = tc__mma_instrs[d->mma].m, k = tc__mma_instrs[d->mma].k, bits = tc__mma_elem_bits(tc__mma_instrs[d->mma].in);
        int mats = m * k * bits / 8 / 128;              /* the A fragment in 8x8 (128-byte) ldmatrix tiles */
        if (mats < 1) mats = 1;
        if (mats > 4) mats = 4;
        tc_sim_ldsm(p, FRAG, mats, TOKEN, tc_sim_addr_affine(0, 16, 0, 0, 16));
        tc_sim_mma(p, d->mma, ACC, FRAG, FRAG, ACC);
    } else {
        /* step i reads row (warp + i) of the tile; serially its address waits for the accumulator */
        for (i = 0; i < STEPS; i++) {
            tc_sim_addr row = tc_sim_addr_affine(i * 128, 4, 128, 0, 4);
            if (d->pipelined) {
                tc_sim_lds(p, FRAG + i, TC_SIM_NOREG, TOKEN, row);
            } else {
                tc_sim_lds(p, FRAG, ACC, TOKEN, row);
                tc_sim_ffma(p, ACC, FRAG, FRAG, ACC);
            }
        }
        for (i = 0; d->pipelined && i < STEPS; i++) tc_sim_ffma(p, ACC, FRAG + i, FRAG + i, ACC);
    }
    tc_sim_exit(p);
    return p->status;
}

TCDEF tc_status tc_sim_build_ffma_chain(tc_sim_program *p, int n) {
    int i;
    if (!p) return TC_ERR_NULL;
    if (n < 1 || n > (1 << 20)) return TC_ERR_SIZE;
    tc__sim_begin(p, "ffma_chain", 1, 1);
    for (i = 0; i < n; i++) tc_sim_ffma(p, 0, 1, 2, 0);
    tc_sim_exit(p);
    return p->status;
}

TCDEF tc_status tc_sim_build_mma_chain(tc_sim_program *p, tc_mma_instr kind, int n, int dependent) {
    int i;
    if (!p) return TC_ERR_NULL;
    if ((int)kind < 0 || (int)kind >= TC_MMA_INSTR_COUNT) return TC_ERR_ARG;
    if (n < 1 || n > (1 << 20)) return TC_ERR_SIZE;
    tc__sim_begin(p, dependent ? "mma_latency" : "mma_throughput", 1, 1);
    /* independent MMAs rotate over 8 accumulators, as a 2x4 warp tile does */
    for (i = 0; i < n; i++) tc_sim_mma(p, kind, dependent ? 0 : 8 + i % 8, 1, 2, dependent ? 0 : 8 + i % 8);
    tc_sim_exit(p);
    return p->status;
}

TCDEF tc_status tc_sim_build_shared_pattern(tc_sim_program *p, const uint32_t offsets[32], int width) {
    int h = 0, i;
    int64_t top = 0;
    tc_sim_addr a;
    if (!p) return TC_ERR_NULL;
    if (!offsets) return TC_ERR_NULL;
    if (!tc__sim_width_ok(width)) return TC_ERR_ARG;
    for (i = 0; i < 32; i++) {
        if (offsets[i] % (uint32_t)width) return TC_ERR_ARG;
        if ((int64_t)offsets[i] + width > top) top = (int64_t)offsets[i] + width;
    }
    tc__sim_begin(p, "shared_pattern", 1, 1);
    p->shared_bytes = top;
    tc_sim_lane_table(p, offsets, &h);
    a = tc_sim_addr_affine(0, 0, 0, 0, width);
    a.lane_table = h;
    tc_sim_lds(p, 1, TC_SIM_NOREG, TC_SIM_NOREG, a);
    tc_sim_ffma(p, 2, 1, 1, 2);
    tc_sim_exit(p);
    return p->status;
}

TCDEF tc_status tc_sim_build_shared_stride(tc_sim_program *p, int stride_words) {
    uint32_t off[32];
    int i;
    tc_status s;
    if (!p) return TC_ERR_NULL;
    if (stride_words < 0 || stride_words > (1 << 16)) return TC_ERR_ARG;
    for (i = 0; i < 32; i++) off[i] = (uint32_t)(i * stride_words * 4);
    s = tc_sim_build_shared_pattern(p, off, 4);
    if (s == TC_OK) strncpy(p->name, "shared_stride", sizeof p->name - 1);
    return s;
}

TCDEF tc_status tc_sim_build_global_load(tc_sim_program *p, int l2_hit) {
    if (!p) return TC_ERR_NULL;
    tc__sim_begin(p, l2_hit ? "global_load_l2" : "global_load_dram", 1, 1);
    p->global_bytes = (int64_t)TC__SIM_MAX_WARPS * 128;
    p->l2_resident_bytes = l2_hit ? p->global_bytes : 0;
    tc_sim_ldg(p, 1, TC_SIM_NOREG, tc_sim_addr_affine(0, 4, 128, 0, 4));
    tc_sim_ffma(p, 2, 1, 1, 2);
    tc_sim_exit(p);
    return p->status;
}

TCDEF tc_status tc_sim_build_stream(tc_sim_program *p, int trips) {
    enum { LOADS = 4, BLOCK = 32 * 16 };
    int j, top;
    int64_t per_warp;
    if (!p) return TC_ERR_NULL;
    if (trips < 1 || trips > 512) return TC_ERR_SIZE;   /* keeps global_bytes under 2^34 */
    per_warp = (int64_t)trips * LOADS * BLOCK;
    tc__sim_begin(p, "stream", 8, 32);
    p->global_bytes = per_warp * 8448;   /* room for every warp of the largest profile (132 SMs x 64) */
    top = p->n;
    for (j = 0; j < LOADS; j++)
        tc_sim_ldg(p, 1 + j, TC_SIM_NOREG, tc_sim_addr_affine(j * BLOCK, 16, per_warp, LOADS * BLOCK, 16));
    tc_sim_ffma(p, 8, 1, 2, 8);
    tc_sim_ffma(p, 8, 3, 4, 8);
    tc_sim_loop(p, top, trips);
    tc_sim_exit(p);
    return p->status;
}

/* Stream s (inputs first, then outputs) starts at s * stream bytes; in trip
   t warp w's lane l moves bytes (t * warps + w) * 512 + l * 16 of each. Per
   trip: the loads, then `ops` FFMAs on each of the float4's four elements
   (four independent chains reading the loaded registers), then the stores. */
TCDEF tc_status tc_sim_build_elementwise(tc_sim_program *p, const tc_sim_elementwise_desc *d, int sms, int warps_per_sm) {
    enum { IN = 1, ACC = 16, LANES = 4, CHUNK = 32 * 16 };
    int64_t warps, trips, stream;
    int s, o, e, top;
    if (!p || !d) return TC_ERR_NULL;
    if (d->inputs < 1 || d->inputs > 8 || d->outputs < 0 || d->outputs > 8 || d->ops < 0 || d->ops > 64) return TC_ERR_ARG;
    if (d->elements < 1 || sms < 1 || sms > 4096 || warps_per_sm < 1 || warps_per_sm > 1024) return TC_ERR_SIZE;
    warps = (int64_t)sms * warps_per_sm;
    trips = (d->elements - 1) / (warps * (CHUNK / 4)) + 1;   /* rounds up without elements + ... overflowing */
    if (trips > (1 << 24)) return TC_ERR_SIZE;
    stream = trips * warps * CHUNK;
    if (stream * (d->inputs + d->outputs) > ((int64_t)1 << 34)) return TC_ERR_SIZE;
    tc__sim_begin(p, "elementwise", sms, warps_per_sm);
    p->global_bytes = stream * (d->inputs + d->outputs);
    p->writes_reach_dram = 1;
    top = p->n;
    for (s = 0; s < d->inputs; s++)
        tc_sim_ldg(p, IN + s, TC_SIM_NOREG, tc_sim_addr_affine(s * stream, 16, CHUNK, warps * CHUNK, 16));
    for (o = 0; o < d->ops; o++)
        for (e = 0; e < LANES; e++) tc_sim_ffma(p, ACC + e, IN + o % d->inputs, IN, o ? ACC + e : IN + o % d->inputs);
    for (s = 0; s < d->outputs; s++)
        tc_sim_stg(p, d->ops ? ACC + LANES - 1 : IN, tc_sim_addr_affine((d->inputs + s) * stream, 16, CHUNK, warps * CHUNK, 16));
    if (trips > 1) tc_sim_loop(p, top, (int)trips);
    tc_sim_exit(p);
    return p->status;
}

/* ---- named programs: the ones tcsim, the lessons and cuda/cycles.cu share */

static const struct { const char *name, *description; } tc__sim_named[] = {
    { "matmul32_ffma", "Dettmers' 32x32 matmul without Tensor Cores: cp.async, 8 x (LDS, FFMA), serial" },
    { "matmul32_tc", "Dettmers' 32x32 matmul with Tensor Cores: cp.async, ldmatrix, MMA m8n8k4" },
    { "matmul32_ffma_pipelined", "the FFMA matmul with loads issued ahead of the FFMAs" },
    { "matmul32_ffma_sync", "the FFMA matmul with the __syncthreads a correct kernel needs" },
    { "ffma_chain", "8 dependent FFMAs" },
    { "mma_latency", "8 dependent MMA m16n8k16.f16" },
    { "mma_throughput", "64 independent MMA m16n8k16.f16" },
    { "shared_stride1", "shared load, lane i reads word i (no conflict)" },
    { "shared_stride2", "shared load, lane i reads word 2i (2-way conflict)" },
    { "shared_stride32", "shared load, lane i reads word 32i (32-way conflict)" },
    { "shared_stride33", "shared load, stride 33 words (padding removes the conflict)" },
    { "global_load_dram", "one coalesced global load from DRAM and a dependent FFMA" },
    { "global_load_l2", "one coalesced global load that hits L2 and a dependent FFMA" },
    { "stream", "streaming read, 16 trips of 4 x 512 bytes per warp (bandwidth)" },
};

TCDEF int tc_sim_program_count(void) { return TC__COUNT_OF(tc__sim_named); }
TCDEF const char *tc_sim_program_name(int i) { return i >= 0 && i < tc_sim_program_count() ? tc__sim_named[i].name : NULL; }
TCDEF const char *tc_sim_program_description(int i) { return i >= 0 && i < tc_sim_program_count() ? tc__sim_named[i].description : NULL; }

TCDEF tc_status tc_sim_build_named(tc_sim_program *p, const char *name) {
    tc_sim_matmul32_desc d;
    if (!p || !name) return TC_ERR_NULL;
    memset(&d, 0, sizeof d);
    if (strncmp(name, "matmul32_", 9) == 0) {
        d.tensor_cores = strcmp(name, "matmul32_tc") == 0;
        d.pipelined = strcmp(name, "matmul32_ffma_pipelined") == 0;
        d.sync = strcmp(name, "matmul32_ffma_sync") == 0;
        if (!d.tensor_cores && !d.pipelined && !d.sync && strcmp(name, "matmul32_ffma") != 0) return TC_ERR_ARG;
        return tc_sim_build_matmul32(p, &d);
    }
    if (strcmp(name, "ffma_chain") == 0) return tc_sim_build_ffma_chain(p, 8);
    if (strcmp(name, "mma_latency") == 0) return tc_sim_build_mma_chain(p, TC_MMA_M16N8K16_F16, 8, 1);
    if (strcmp(name, "mma_throughput") == 0) return tc_sim_build_mma_chain(p, TC_MMA_M16N8K16_F16, 64, 0);
    if (strcmp(name, "shared_stride1") == 0) return tc_sim_build_shared_stride(p, 1);
    if (strcmp(name, "shared_stride2") == 0) return tc_sim_build_shared_stride(p, 2);
    if (strcmp(name, "shared_stride32") == 0) return tc_sim_build_shared_stride(p, 32);
    if (strcmp(name, "shared_stride33") == 0) return tc_sim_build_shared_stride(p, 33);
    if (strcmp(name, "global_load_dram") == 0) return tc_sim_build_global_load(p, 0);
    if (strcmp(name, "global_load_l2") == 0) return tc_sim_build_global_load(p, 1);
    if (strcmp(name, "stream") == 0) return tc_sim_build_stream(p, 16);
    return TC_ERR_ARG;
}

/* ---- the cycle loop */

TCDEF const char *tc_sim_state_name(tc_sim_state s) {
    static const char *const names[] = {
        "selected", "not_selected", "long_scoreboard", "short_scoreboard", "wait",
        "math_pipe_throttle", "barrier", "exited",
    };
    if ((int)s < 0 || (int)s >= TC__COUNT_OF(names)) return "unknown";
    return names[s];
}

#define TC__SIM_NEVER INT64_MAX
#define TC__SIM_SEGMENT_BUDGET ((int64_t)1 << 21)   /* timeline segments kept per run (32 MiB) */

/* Pipes of a sub-partition; NONE, for instructions that need none, is never busy. */
enum { TC__SIM_PIPE_NONE, TC__SIM_PIPE_FFMA, TC__SIM_PIPE_MMA, TC__SIM_PIPE_INT, TC__SIM_PIPES };

/* A warp whose operands are ready waits for its pipe (math_pipe_throttle) in
   exactly the cycles after an issue to the pipe and before `free`, and is
   not_selected in the others. Counting the busy cycles lets such a warp be
   charged once, when it issues, instead of changing state every cycle: in a
   pipe-bound run every waiting warp alternates between the two. */
typedef struct {
    int64_t free;     /* the first cycle it accepts an issue */
    int64_t issued;   /* the cycle of its last issue (-1: none) */
    int64_t busy;     /* its busy cycles before that issue */
} tc__sim_pipe;

/* Busy cycles of q before cycle t (t not before its last issue). */
static int64_t tc__sim_busy_before(const tc__sim_pipe *q, int64_t t) {
    const int64_t open = (t < q->free ? t : q->free) - q->issued - 1;
    return q->busy + (open > 0 ? open : 0);
}

static void tc__sim_pipe_issue(tc__sim_pipe *q, int64_t t, int64_t interval) {
    q->busy += q->free - q->issued - 1;
    q->issued = t;
    q->free = t + interval;
}

typedef struct {
    /* first, in one cache line: what a scheduler reads of every awake warp */
    int64_t wake;                     /* before this cycle the warp cannot issue ... (TC__SIM_NEVER: exited, or at */
    int reason;                       /* ... and is in this state                     a barrier until released) */
    int state;                        /* -1 before cycle 0 */
    const tc__sim_pipe *pool;         /* while its operands at pc are ready (only its own issue, which moves the pc */
                                      /* and writes its registers, changes that), the pipe that decides when it issues */
    int pc;
    int state_pc;                     /* per_instruction: the instruction charged since pc_since */
    int64_t since;                    /* current state, since this cycle */
    int64_t pc_since;
    int64_t pool_busy;                /* its pipe's busy cycles before it joined (tc__sim_pool_leave) */
    int sm, sub, local, global, block, at_barrier;
    unsigned pool_bit;                /* in the pool: 1 << its pipe (TC__SIM_PIPE_*) */
    int operands_ready;               /* its operands at pc are ready by `wake` (known at its issue, or it sleeps */
                                      /* on them): no second look (only its own issue, which clears it, changes that) */
    tc__sim_pipe *pipes;              /* its sub-partition's */
    int32_t *trips;                   /* LOOP counters, one per LOOP instruction (its slot) */
    tc_sim_segment *seg;
    int64_t nseg, capseg;
    int64_t all_ready;                /* the latest of ready[] (EXIT waits for it) */
    uint8_t all_why;
    int64_t ready[TC_SIM_MAX_REGS];   /* cycle each register is written */
    uint8_t why[TC_SIM_MAX_REGS];     /* the stall state of a warp waiting for it */
} tc__sim_warp;

typedef struct {
    int loop;                 /* innermost LOOP around the instruction (its slot), -1 if none */
    int pipe;                 /* the pipe its issue waits for (TC__SIM_PIPE_*) */
    int slot;                 /* LOOP: its trip counter's index in each warp's trips[] */
    int lanes, width, passes; /* shared: passes per request; global: sectors if `aligned` */
    int64_t off_min, off_max; /* lane offsets, for bounds checks */
    int sec_first, sec_n, aligned;
    int contiguous;           /* aligned, and the sectors are one run */
} tc__sim_pre;

typedef struct { int64_t wake; int n; } tc__sim_sleeper;   /* an asleep warp (n: its index in its sub-partition) */

typedef struct {
    const tc_sim_profile *g;
    const tc_sim_program *p;
    tc_sim_result *r;
    tc__sim_pre *pre;
    int64_t *secpool;
    tc__sim_warp *w;
    int nw, wps, wpb, record, policy;
    int nloops;                       /* LOOP instructions: trip counters per warp */
    int *arrived, *exited;            /* per thread block */
    double *port_free, *shared_free;  /* per SM: L2 -> SM and shared memory token buckets */
    tc__sim_pipe *pipes;              /* per sub-partition: TC__SIM_PIPES of them */
    double *shfl_free;                /* per SM: the shuffle unit */
    int *last;                        /* per sub-partition: last issued warp (local index) */
    int64_t *sched_next;              /* per sub-partition: no warp of it changes state before this cycle */
    int wps_sub, mwords;              /* warps per sub-partition (at most), 64-bit words for a bit per warp */
    uint64_t *awake;                  /* per sub-partition, mwords words: bit n for its warp n (local index */
                                      /* sub + n * subpartitions) unless asleep (on `sleepers`, or waiting for a release) */
    tc__sim_sleeper *sleepers;        /* per sub-partition, wps_sub slots: a min-heap of asleep warps by wake */
    int *nsleep;                      /* per sub-partition: warps on it */
    int64_t *sm_next;                 /* per SM: the smallest sched_next of its sub-partitions */
    double dram_free;
    uint8_t *resident;                /* one bit per sector: in L2 */
    int64_t segments;
    int64_t *pc_cycles;               /* per_instruction: the result's instr_state_cycles, else NULL */
    tc_status err;
} tc__sim;

/* The timeline's segment for a state change at t (tc__sim_set_state).
   Apart from it, so that inlining the state change, which every issue
   makes once or twice, does not copy the timeline's code. */
static void tc__sim_segment(tc__sim *S, tc__sim_warp *w, int state, int64_t t) {
    if (w->nseg > 0 && w->seg[w->nseg - 1].start == t) { w->seg[w->nseg - 1].state = state; w->seg[w->nseg - 1].pc = w->pc; return; }
    if (S->segments >= TC__SIM_SEGMENT_BUDGET) { S->r->timeline_truncated = 1; return; }
    if (w->nseg == w->capseg) {
        int64_t cap = w->capseg ? 2 * w->capseg : 64;
        tc_sim_segment *n = (tc_sim_segment *)TC_MALLOC((size_t)cap * sizeof *n);
        if (!n) { S->r->timeline_truncated = 1; return; }
        if (w->nseg) memcpy(n, w->seg, (size_t)w->nseg * sizeof *n);
        TC_FREE(w->seg);
        w->seg = n;
        w->capseg = cap;
    }
    w->seg[w->nseg].start = t;
    w->seg[w->nseg].state = state;
    w->seg[w->nseg].pc = w->pc;
    w->nseg++;
    S->segments++;
}

/* Also called when only the pc moved (back-to-back issues): with
   per_instruction each instruction gets its own cycles and segment. */
static TC__ALWAYS_INLINE void tc__sim_set_state(tc__sim *S, tc__sim_warp *w, int state, int64_t t) {
    const int moved = S->pc_cycles && w->pc != w->state_pc;
    if (state == w->state && !moved) return;
    if (S->pc_cycles) {
        if (w->state >= 0) S->pc_cycles[(int64_t)w->state_pc * TC_SIM_STATE_COUNT + w->state] += t - w->pc_since;
        w->state_pc = w->pc;
        w->pc_since = t;
    }
    if (state != w->state) {
        if (w->state >= 0) S->r->state_cycles[w->state] += t - w->since;
        w->state = state;
        w->since = t;
    }
    if (S->record && !S->r->timeline_truncated) tc__sim_segment(S, w, state, t);
}

static int64_t tc__sim_iter(const tc__sim *S, const tc__sim_warp *w, int pc) {
    return S->pre[pc].loop >= 0 ? w->trips[S->pre[pc].loop] : 0;
}

/* Marks sectors [s, s + n) resident in L2; returns how many were not. */
static int tc__sim_touch(uint8_t *resident, int64_t s, int n) {
    int fresh = 0;
    while (n > 0) {   /* a byte of the bitmap at a time */
        const int at = (int)(s & 7), k = n < 8 - at ? n : 8 - at;
        const unsigned bits = ((1u << k) - 1) << at, old = resident[s >> 3];
        fresh += old & bits ? tc__sparse_popcount(bits & ~old) : k;
        resident[s >> 3] = (uint8_t)(old | bits);
        s += k;
        n -= k;
    }
    return fresh;
}

/* A global request issued at cycle t by warp w; returns the cycle its data
   arrive, or -1 (S->err set) if an address leaves the program's memory. */
static int64_t tc__sim_global(tc__sim *S, tc__sim_warp *w, int pc, int64_t t, int store) {
    const tc_sim_instr *ins = &S->p->code[pc];
    const tc__sim_pre *pre = &S->pre[pc];
    const int64_t sb = S->g->sector_bytes;
    int64_t shift = (int64_t)w->global * ins->addr.warp_stride + tc__sim_iter(S, w, pc) * ins->addr.iter_stride;
    int64_t lo = ins->addr.base + shift + pre->off_min, hi = ins->addr.base + shift + pre->off_max + pre->width;
    int64_t sec[32], start = t, ready, first = 0;
    const int64_t *list = sec;
    int n, i, k, fresh, misses = 0;
    double bytes;
    if (lo < 0 || hi > S->p->global_bytes) { S->err = TC_ERR_PROGRAM; return -1; }
    if (pre->aligned) {
        list = S->secpool + pre->sec_first;
        first = shift / sb;
        n = pre->sec_n;
    } else {
        for (i = 0; i < pre->lanes; i++) sec[i] = (ins->addr.base + shift + tc__sim_lane_off(S->p, &ins->addr, i)) / sb;
        n = tc__sim_unique(sec, pre->lanes);
    }
    for (i = 0; i < n; i += k) {   /* sorted: runs of adjacent sectors (a coalesced request is one) */
        for (k = pre->contiguous ? n : 1; i + k < n && list[i + k] == list[i] + k; k++) {}
        fresh = tc__sim_touch(S->resident, list[i] + first, k);
        if (!store) misses += fresh;
    }
    bytes = (double)n * (double)sb;
    S->r->l2_bytes += bytes;
    if (S->g->sm_bytes_per_cycle > 0.0) {
        double s = S->port_free[w->sm] > (double)t ? S->port_free[w->sm] : (double)t;
        S->port_free[w->sm] = s + bytes / S->g->sm_bytes_per_cycle;
        start = (int64_t)s;
    }
    ready = start + S->g->l2_latency;
    if (misses) {
        double mb = (double)misses * (double)sb, d = (double)start;
        S->r->dram_bytes += mb;
        if (S->g->dram_bytes_per_cycle > 0.0) {
            if (S->dram_free > d) d = S->dram_free;
            S->dram_free = d + mb / S->g->dram_bytes_per_cycle;
        }
        if ((int64_t)d + S->g->dram_latency > ready) ready = (int64_t)d + S->g->dram_latency;
    }
    if (store && S->p->writes_reach_dram) {   /* fire and forget, but later requests queue behind the write */
        double d = (double)start;
        S->r->dram_write_bytes += bytes;
        if (S->g->dram_bytes_per_cycle > 0.0) {
            if (S->dram_free > d) d = S->dram_free;
            S->dram_free = d + bytes / S->g->dram_bytes_per_cycle;
        }
    }
    return ready;
}

/* A shared request: passes wavefronts through the SM's shared memory. */
static int64_t tc__sim_shared(tc__sim *S, tc__sim_warp *w, int pc, int64_t t) {
    const tc_sim_instr *ins = &S->p->code[pc];
    const tc__sim_pre *pre = &S->pre[pc];
    int64_t shift = (int64_t)w->local * ins->addr.warp_stride + tc__sim_iter(S, w, pc) * ins->addr.iter_stride;
    int64_t lo = ins->addr.base + shift + pre->off_min, hi = ins->addr.base + shift + pre->off_max + pre->width;
    double start = (double)t;
    if (lo < 0 || hi > S->p->shared_bytes) { S->err = TC_ERR_PROGRAM; return -1; }
    S->r->shared_wavefronts += pre->passes;
    if (S->g->shared_wavefronts_per_cycle > 0) {
        if (S->shared_free[w->sm] > start) start = S->shared_free[w->sm];
        S->shared_free[w->sm] = start + (double)pre->passes / S->g->shared_wavefronts_per_cycle;
    }
    return (int64_t)start + S->g->shared_latency + pre->passes - 1;
}

static void tc__sim_write(tc__sim_warp *w, int reg, int64_t ready, int why) {
    if (reg == TC_SIM_NOREG) return;
    w->ready[reg] = ready;
    w->why[reg] = (uint8_t)why;
    if (ready > w->all_ready) { w->all_ready = ready; w->all_why = (uint8_t)why; }
}

/* A scheduler looks only at its awake warps: a warp asleep until a known
   cycle waits on a heap, one waiting for a release (exited, at a barrier)
   nowhere. An asleep warp's state was recorded as it fell asleep, so
   leaving it alone is exact. */
static int tc__sim_ctz64(uint64_t x) {   /* x != 0: de Bruijn multiplication */
    static const unsigned char index[64] = {
        0, 1, 56, 2, 57, 49, 28, 3, 61, 58, 42, 50, 38, 29, 17, 4, 62, 47, 59, 36, 45, 43, 51, 22, 53, 39, 33, 30, 24, 18, 12, 5,
        63, 55, 48, 27, 60, 41, 37, 16, 46, 35, 44, 21, 52, 32, 23, 11, 54, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6 };
    return index[((x & (~x + 1)) * 0x03f79d71b4ca8b09ull) >> 58];
}

/* The lowest bit above n (n = -1: the lowest) set in mask[0 .. words), or -1. */
static int tc__sim_next_bit(const uint64_t *mask, int words, int n) {
    int i = (n + 1) >> 6;
    uint64_t m;
    if (i >= words) return -1;
    m = mask[i] & (~(uint64_t)0 << ((n + 1) & 63));
    while (!m) {
        if (++i >= words) return -1;
        m = mask[i];
    }
    return i * 64 + tc__sim_ctz64(m);
}

static void tc__sim_awaken(tc__sim *S, int sp, int n) { S->awake[(int64_t)sp * S->mwords + (n >> 6)] |= (uint64_t)1 << (n & 63); }

/* Warp n of sub-partition sp falls asleep until `wake`. */
static void tc__sim_sleep(tc__sim *S, int sp, int n, int64_t wake) {
    tc__sim_sleeper *h = &S->sleepers[(int64_t)sp * S->wps_sub];
    int i = S->nsleep[sp];
    S->awake[(int64_t)sp * S->mwords + (n >> 6)] &= ~((uint64_t)1 << (n & 63));
    if (wake == TC__SIM_NEVER) return;
    S->nsleep[sp]++;
    for (; i > 0 && h[(i - 1) / 2].wake > wake; i = (i - 1) / 2) h[i] = h[(i - 1) / 2];
    h[i].wake = wake;
    h[i].n = n;
}

/* Wakes the warps of sub-partition sp due by t. */
static void tc__sim_wake_due(tc__sim *S, int sp, int64_t t) {
    tc__sim_sleeper *h = &S->sleepers[(int64_t)sp * S->wps_sub];
    int *cnt = &S->nsleep[sp];
    while (*cnt > 0 && h[0].wake <= t) {
        const tc__sim_sleeper last = h[--*cnt];
        int i = 0;
        tc__sim_awaken(S, sp, h[0].n);
        for (;;) {
            int c = 2 * i + 1;
            if (c >= *cnt) break;
            if (c + 1 < *cnt && h[c + 1].wake < h[c].wake) c++;
            if (h[c].wake >= last.wake) break;
            h[i] = h[c];
            i = c;
        }
        h[i] = last;
    }
}

static void tc__sim_release(tc__sim *S, int block, int64_t t) {
    int i, sm = block * S->wpb / S->wps;
    if (S->arrived[block] == 0 || S->arrived[block] + S->exited[block] < S->wpb) return;
    for (i = 0; i < S->wpb; i++) {
        tc__sim_warp *w = &S->w[block * S->wpb + i];
        if (!w->at_barrier) continue;
        w->at_barrier = 0;
        w->wake = t + 1;
        tc__sim_awaken(S, w->sm * S->g->subpartitions + w->sub, w->local / S->g->subpartitions);
        w->reason = TC_SIM_BARRIER;
    }
    /* Wake every scheduler of the SM by t + 1 at the latest, never later than
       it already wakes: one not yet run this cycle must still run at t. */
    for (i = 0; i < S->g->subpartitions; i++) {
        int64_t *next = &S->sched_next[sm * S->g->subpartitions + i];
        if (*next > t + 1) *next = t + 1;
    }
    S->arrived[block] = 0;
}

static tc__sim_pipe *tc__sim_pipe_of(tc__sim *S, const tc__sim_warp *w) {
    return &w->pipes[S->pre[w->pc].pipe];
}

/* The cycle the operands of the warp's instruction at pc are ready (EXIT:
   all its results), and in *why the state it waits in until then. */
static int64_t tc__sim_need(const tc__sim *S, const tc__sim_warp *w, int *why) {
    const tc_sim_instr *ins = &S->p->code[w->pc];
    int64_t need = 0;
    int i;
    *why = TC_SIM_WAIT;
    if (ins->op == TC_SIM_EXIT) { *why = w->all_why; return w->all_ready; }
    for (i = 0; i < (int)sizeof ins->src; i++)
        if (ins->src[i] != TC_SIM_NOREG && w->ready[ins->src[i]] > need) { need = w->ready[ins->src[i]]; *why = w->why[ins->src[i]]; }
    if (ins->dst != TC_SIM_NOREG && w->ready[ins->dst] > need) { need = w->ready[ins->dst]; *why = w->why[ins->dst]; }
    return need;
}

/* The state at cycle t of an awake warp not in the pool: a stall state,
   TC_SIM_EXITED, or -1 (ready to issue). A warp whose operands are ready
   joins the pool (ready, or throttled by its pipe). */
static int tc__sim_check(tc__sim *S, tc__sim_warp *w, int64_t t, int *progress) {
    const tc__sim_pipe *q;
    int64_t need;
    int why;
    if (!w->operands_ready) {
        need = tc__sim_need(S, w, &why);
        if (need > t) { w->wake = need; w->reason = why; w->operands_ready = 1; return why; }
    }
    if (S->p->code[w->pc].op == TC_SIM_EXIT) {   /* retires without an issue slot */
        w->wake = TC__SIM_NEVER;
        w->reason = TC_SIM_EXITED;
        S->exited[w->block]++;
        tc__sim_release(S, w->block, t);
        *progress = 1;
        return TC_SIM_EXITED;
    }
    q = w->pool = tc__sim_pipe_of(S, w);
    w->pool_bit = 1u << S->pre[w->pc].pipe;
    w->pool_busy = tc__sim_busy_before(q, t);
    if (q->free > t) { w->wake = q->free; w->reason = TC_SIM_MATH_PIPE_THROTTLE; return TC_SIM_MATH_PIPE_THROTTLE; }
    return -1;
}

/* Charges a pool warp, about to issue at t, for its cycles since it joined
   the pool (tc__sim_check; tc__sim_set_state charged the cycles before):
   math_pipe_throttle while its pipe was busy, not_selected otherwise, what
   the per-cycle state changes add up to without a timeline. */
static void tc__sim_pool_leave(tc__sim *S, tc__sim_warp *w, int64_t t) {
    const int64_t thr = tc__sim_busy_before(w->pool, t) - w->pool_busy, ns = t - w->since - thr;
    S->r->state_cycles[TC_SIM_MATH_PIPE_THROTTLE] += thr;
    S->r->state_cycles[TC_SIM_NOT_SELECTED] += ns;
    if (S->pc_cycles) {
        S->pc_cycles[(int64_t)w->pc * TC_SIM_STATE_COUNT + TC_SIM_MATH_PIPE_THROTTLE] += thr;
        S->pc_cycles[(int64_t)w->pc * TC_SIM_STATE_COUNT + TC_SIM_NOT_SELECTED] += ns;
    }
    w->state = -1;   /* charged: tc__sim_set_state starts afresh */
}

/* Warps that share one instruction's work: a wgmma's 4 (each issues its
   quarter); 1 for mma.sync and for tcgen05.mma (one thread issues all). */
static int tc__mma_warps(const tc_mma_instr_info *in) { return in->threads > 32 ? in->threads / 32 : 1; }

/* Latency, interval and multiply-adds of one warp's MMA: the profile's for
   a fixed-N kind; a variable-N kind's scaled to its N (see tc_sim_instr). */
static double tc__sim_mma_timing(const tc_sim_profile *g, const tc_sim_instr *ins, int *latency, int *interval) {
    const tc_mma_instr_info *in = &tc__mma_instrs[ins->mma];
    const int n = in->n_step ? ins->count : in->n;
    const int full = g->mma_interval[ins->mma];
    *interval = (int)(((int64_t)full * n + in->n - 1) / in->n);
    *latency = g->mma_latency[ins->mma] - full + *interval;
    if (*latency < *interval) *latency = *interval;
    return (double)in->m * n * in->k / tc__mma_warps(in);
}

static void tc__sim_issue(tc__sim *S, tc__sim_warp *w, int64_t t) {
    const tc_sim_instr *ins = &S->p->code[w->pc];
    const tc_sim_profile *g = S->g;
    int64_t ready;
    S->r->instructions++;
    if (S->r->instr_issued) S->r->instr_issued[w->pc]++;
    w->pool = NULL;
    w->operands_ready = 0;
    w->wake = t + 1;
    w->reason = TC_SIM_NOT_SELECTED;
    switch (ins->op) {
    case TC_SIM_LDG: case TC_SIM_LDGSTS: case TC_SIM_STG:
        ready = tc__sim_global(S, w, w->pc, t, ins->op == TC_SIM_STG);
        tc__sim_write(w, ins->dst, ready, TC_SIM_LONG_SCOREBOARD);
        break;
    case TC_SIM_LDS: case TC_SIM_LDSM: case TC_SIM_STS:
        ready = tc__sim_shared(S, w, w->pc, t);
        tc__sim_write(w, ins->dst, ready, TC_SIM_SHORT_SCOREBOARD);
        break;
    case TC_SIM_FFMA:
        tc__sim_pipe_issue(tc__sim_pipe_of(S, w), t, g->ffma_interval);
        tc__sim_write(w, ins->dst, t + g->ffma_latency, TC_SIM_WAIT);
        S->r->flops += 2.0 * 32.0;
        break;
    case TC_SIM_MMA:
    {
        int latency, interval;
        double fma = tc__sim_mma_timing(g, ins, &latency, &interval);
        tc__sim_pipe_issue(tc__sim_pipe_of(S, w), t, interval);
        tc__sim_write(w, ins->dst, t + latency, TC_SIM_WAIT);
        S->r->flops += 2.0 * fma;
    }
        break;
    case TC_SIM_IMAD:
        tc__sim_pipe_issue(tc__sim_pipe_of(S, w), t, g->int_interval);
        tc__sim_write(w, ins->dst, t + g->int_latency, TC_SIM_WAIT);
        break;
    case TC_SIM_SHFL:
    {   /* queues at the SM's shuffle unit like a shared request (unbounded MIO queue) */
        double start = S->shfl_free[w->sm] > (double)t ? S->shfl_free[w->sm] : (double)t;
        S->shfl_free[w->sm] = start + g->shfl_interval;
        tc__sim_write(w, ins->dst, (int64_t)start + g->shfl_latency, TC_SIM_SHORT_SCOREBOARD);
    }
        break;
    case TC_SIM_ATOMS:
        ready = tc__sim_shared(S, w, w->pc, t);
        tc__sim_write(w, ins->dst, ready < 0 ? ready : ready - g->shared_latency + g->atoms_latency, TC_SIM_SHORT_SCOREBOARD);
        break;
    case TC_SIM_ATOMG:
        ready = tc__sim_global(S, w, w->pc, t, 0);
        if (ready >= 0) ready += g->atomg_latency - g->l2_latency + (int64_t)(S->pre[w->pc].passes - 1) * g->atom_same_address_cycles;
        tc__sim_write(w, ins->dst, ready, TC_SIM_LONG_SCOREBOARD);
        break;
    case TC_SIM_BAR:
        w->at_barrier = 1;
        w->wake = TC__SIM_NEVER;   /* until tc__sim_release */
        w->reason = TC_SIM_BARRIER;
        S->arrived[w->block]++;
        tc__sim_release(S, w->block, t);
        break;
    case TC_SIM_BRA_WARP:
        if (w->local % S->wpb >= ins->count) { w->pc = ins->target; return; }
        break;
    case TC_SIM_LOOP:
    {
        int32_t *trip = &w->trips[S->pre[w->pc].slot];
        if (*trip + 1 < ins->count) { ++*trip; w->pc = ins->target; return; }
        *trip = 0;
    }
        break;
    default:
        break;
    }
    w->pc++;
}

static void *tc__sim_calloc(int64_t n, size_t size) {
    void *q;
    if (n < 1) n = 1;
    q = TC_MALLOC((size_t)n * size);
    if (q) memset(q, 0, (size_t)n * size);
    return q;
}

/* Heap order for tc__sim_loops: the shorter body, then the earlier LOOP. */
static int tc__sim_loop_before(const tc_sim_program *p, int a, int b) {
    int sa = a - p->code[a].target, sb = b - p->code[b].target;
    return sa < sb || (sa == sb && a < b);
}

/* Numbers the LOOPs (pre.slot) and gives every instruction its innermost
   LOOP (pre.loop): of the LOOPs whose body [target, LOOP] holds it, the one
   with the shortest body. One sweep over the program with a heap of the
   bodies open at pc, O(n log n), so preparing a long program cannot take
   longer than running it. Expects pre[] allocated and LOOP targets checked. */
static tc_status tc__sim_loops(tc__sim *S) {
    const tc_sim_program *p = S->p;
    int *first = (int *)tc__sim_calloc(p->n, sizeof(int));        /* LOOPs by target: a list per pc, */
    int *next = (int *)tc__sim_calloc(p->n, sizeof(int));         /* 1-based, 0 ends it */
    int *heap = (int *)tc__sim_calloc(p->n, sizeof(int));
    int pc, l, n = 0;
    if (!first || !next || !heap) { TC_FREE(first); TC_FREE(next); TC_FREE(heap); return TC_ERR_NOMEM; }
    S->nloops = 0;
    for (pc = 0; pc < p->n; pc++) {
        memset(&S->pre[pc], 0, sizeof S->pre[pc]);
        S->pre[pc].loop = -1;
        if (p->code[pc].op != TC_SIM_LOOP) continue;
        S->pre[pc].slot = S->nloops++;
        next[pc] = first[p->code[pc].target];
        first[p->code[pc].target] = pc + 1;
    }
    for (pc = 0; pc < p->n; pc++) {
        for (l = first[pc]; l; l = next[l - 1]) {   /* bodies opening here: sift up */
            int i = n++;
            while (i > 0 && tc__sim_loop_before(p, l - 1, heap[(i - 1) / 2])) { heap[i] = heap[(i - 1) / 2]; i = (i - 1) / 2; }
            heap[i] = l - 1;
        }
        while (n > 0 && heap[0] < pc) {   /* bodies closed before pc: pop, sift down */
            int i = 0, last = heap[--n];
            for (;;) {
                int c = 2 * i + 1;
                if (c >= n) break;
                if (c + 1 < n && tc__sim_loop_before(p, heap[c + 1], heap[c])) c++;
                if (!tc__sim_loop_before(p, heap[c], last)) break;
                heap[i] = heap[c];
                i = c;
            }
            heap[i] = last;
        }
        if (n > 0) S->pre[pc].loop = S->pre[heap[0]].slot;
    }
    TC_FREE(first); TC_FREE(next); TC_FREE(heap);
    return TC_OK;
}

static int tc__sim_is_memory(int op) {
    return op == TC_SIM_LDG || op == TC_SIM_STG || op == TC_SIM_LDGSTS || op == TC_SIM_LDS || op == TC_SIM_STS ||
           op == TC_SIM_LDSM || op == TC_SIM_ATOMS || op == TC_SIM_ATOMG;
}

/* The most lanes that land on one key: the address / unit, modulo `mod`
   unless mod is 0 (atomics: lanes on one address or one bank serialise). */
static int tc__sim_most_lanes(const int64_t *off, int lanes, int unit, int mod) {
    int64_t key[32];
    int i, j, most = 0;
    for (i = 0; i < lanes; i++) key[i] = mod ? (off[i] / unit) % mod : off[i] / unit;
    for (i = 0; i < lanes; i++) {
        int n = 0;
        for (j = 0; j < lanes; j++) n += key[j] == key[i];
        if (n > most) most = n;
    }
    return most;
}

/* Checks the program against the profile and precomputes what does not
   change between issues: the innermost loop, the shared passes (the bank
   pattern of a request does not change when all addresses move by a
   multiple of the width) and the sector pattern (unchanged by moves that are
   multiples of the sector size). */
static tc_status tc__sim_prepare(tc__sim *S) {
    const tc_sim_program *p = S->p;
    const tc_sim_profile *g = S->g;
    const int64_t lim = (int64_t)1 << 34;
    int pc, nsec = 0;
    tc_status st;
    /* an emitter's error is passed on; anything else there is no status an emitter sets */
    if (p->status != TC_OK)
        return (unsigned)p->status < TC_STATUS_COUNT && tc_status_is_error(p->status) ? p->status : TC_ERR_PROGRAM;
    if (p->n < 1 || !p->code || p->code[p->n - 1].op != TC_SIM_EXIT) return TC_ERR_PROGRAM;
    if (p->global_bytes < 0 || p->global_bytes > lim || p->shared_bytes < 0 || p->shared_bytes > g->shared_bytes_per_sm ||
        p->l2_resident_bytes < 0 || p->l2_resident_bytes > p->global_bytes)
        return TC_ERR_PROGRAM;
    S->pre = (tc__sim_pre *)TC_MALLOC((size_t)p->n * sizeof *S->pre);
    S->secpool = (int64_t *)TC_MALLOC((size_t)p->n * 32 * sizeof *S->secpool);
    if (!S->pre || !S->secpool) return TC_ERR_NOMEM;
    for (pc = 0; pc < p->n; pc++) {   /* LOOPs first: the sweep below needs every body's extent */
        const tc_sim_instr *ins = &p->code[pc];
        if (ins->op == TC_SIM_LOOP && (ins->target < 0 || ins->target > pc || ins->count < 1 || ins->count > (1 << 24)))
            return TC_ERR_PROGRAM;
    }
    {   /* branches: forward, inside the program, over no LOOP (loops[i]: LOOPs before pc i) */
        int *loops = (int *)tc__sim_calloc((int64_t)p->n + 1, sizeof(int));
        if (!loops) return TC_ERR_NOMEM;
        for (pc = 0; pc < p->n; pc++) loops[pc + 1] = loops[pc] + (p->code[pc].op == TC_SIM_LOOP);
        for (pc = 0; pc < p->n; pc++) {
            const tc_sim_instr *ins = &p->code[pc];
            if (ins->op == TC_SIM_BRA_WARP && (ins->target <= pc || ins->target >= p->n || ins->count < 0 ||
                                               loops[ins->target] != loops[pc + 1])) {
                TC_FREE(loops);
                return TC_ERR_PROGRAM;
            }
        }
        TC_FREE(loops);
    }
    if ((st = tc__sim_loops(S)) != TC_OK) return st;
    for (pc = 0; pc < p->n; pc++) {
        const tc_sim_instr *ins = &p->code[pc];
        tc__sim_pre *pre = &S->pre[pc];
        const tc_sim_addr *a = &ins->addr;
        int i;
        for (i = 0; i < (int)sizeof ins->src; i++) if (!tc__sim_reg_ok(ins->src[i])) return TC_ERR_PROGRAM;
        if (!tc__sim_reg_ok(ins->dst) || ins->op >= TC_SIM_OP_COUNT) return TC_ERR_PROGRAM;
        pre->pipe = ins->op == TC_SIM_FFMA ? TC__SIM_PIPE_FFMA : ins->op == TC_SIM_MMA ? TC__SIM_PIPE_MMA
                  : ins->op == TC_SIM_IMAD ? TC__SIM_PIPE_INT : TC__SIM_PIPE_NONE;
        if (ins->op == TC_SIM_MMA) {
            if (ins->mma >= TC_MMA_INSTR_COUNT) return TC_ERR_PROGRAM;
            if (tc__mma_instrs[ins->mma].n_step ? !tc_mma_instr_n_ok((tc_mma_instr)ins->mma, ins->count) : ins->count != 0)
                return TC_ERR_PROGRAM;
            if (g->mma_latency[ins->mma] == 0) return TC_ERR_ARCH;
        }
        if (tc__sim_is_memory(ins->op)) {
            int64_t off[32];
            int global = ins->op == TC_SIM_LDG || ins->op == TC_SIM_STG || ins->op == TC_SIM_LDGSTS || ins->op == TC_SIM_ATOMG;
            pre->width = tc__sim_width(a);
            pre->lanes = 32;
            if (ins->op == TC_SIM_LDSM) {
                if (ins->count != 1 && ins->count != 2 && ins->count != 4) return TC_ERR_PROGRAM;
                pre->width = 16;   /* each lane names one 16-byte row */
                pre->lanes = 8 * ins->count;
            }
            if (!tc__sim_width_ok(pre->width) || a->lane_table < 0 || a->lane_table > p->n_tables) return TC_ERR_PROGRAM;
            if (a->base < -lim || a->base > lim || a->lane_stride < -lim || a->lane_stride > lim || a->warp_stride < -lim ||
                a->warp_stride > lim || a->iter_stride < -lim || a->iter_stride > lim)
                return TC_ERR_PROGRAM;
            if (a->base % pre->width || a->warp_stride % pre->width || a->iter_stride % pre->width) return TC_ERR_PROGRAM;
            for (i = 0; i < pre->lanes; i++) {
                off[i] = tc__sim_lane_off(p, a, i);
                if (off[i] % pre->width) return TC_ERR_PROGRAM;
                if (i == 0 || off[i] < pre->off_min) pre->off_min = off[i];
                if (i == 0 || off[i] > pre->off_max) pre->off_max = off[i];
            }
            if (global) {
                const int64_t sb = g->sector_bytes;
                pre->aligned = a->warp_stride % sb == 0 && a->iter_stride % sb == 0 && a->base + pre->off_min >= 0;
                if (pre->aligned) {
                    for (i = 0; i < pre->lanes; i++) S->secpool[nsec + i] = (a->base + off[i]) / sb;
                    pre->sec_first = nsec;
                    pre->sec_n = tc__sim_unique(S->secpool + nsec, pre->lanes);
                    pre->contiguous = S->secpool[nsec + pre->sec_n - 1] - S->secpool[nsec] == pre->sec_n - 1;
                    nsec += pre->sec_n;
                }
                if (ins->op == TC_SIM_ATOMG) pre->passes = tc__sim_most_lanes(off, pre->lanes, 1, 0);
            } else {
                for (i = 0; i < pre->lanes; i++) off[i] -= pre->off_min;
                pre->passes = ins->op == TC_SIM_ATOMS ? tc__sim_most_lanes(off, pre->lanes, g->bank_bytes, g->banks)
                                                      : tc__sim_passes_i64(off, pre->lanes, pre->width, g->banks, g->bank_bytes);
            }
        }
    }
    return TC_OK;
}

static void tc__sim_free(tc__sim *S) {
    int i;
    for (i = 0; S->w && i < S->nw; i++) { TC_FREE(S->w[i].trips); TC_FREE(S->w[i].seg); }
    TC_FREE(S->w); TC_FREE(S->pre); TC_FREE(S->secpool); TC_FREE(S->arrived); TC_FREE(S->exited);
    TC_FREE(S->port_free); TC_FREE(S->shared_free); TC_FREE(S->pipes); TC_FREE(S->shfl_free);
    TC_FREE(S->last); TC_FREE(S->sched_next); TC_FREE(S->sm_next); TC_FREE(S->resident);
    TC_FREE(S->awake); TC_FREE(S->sleepers); TC_FREE(S->nsleep);
}

static tc_status tc__sim_setup(tc__sim *S, int sms) {
    const tc_sim_profile *g = S->g;
    const int nsp = sms * g->subpartitions;
    const int64_t sectors = S->p->global_bytes / g->sector_bytes + 1;
    int64_t s;
    int i;
    S->nw = sms * S->wps;
    S->w = (tc__sim_warp *)tc__sim_calloc(S->nw, sizeof *S->w);
    S->arrived = (int *)tc__sim_calloc(S->nw / S->wpb, sizeof *S->arrived);
    S->exited = (int *)tc__sim_calloc(S->nw / S->wpb, sizeof *S->exited);
    S->port_free = (double *)tc__sim_calloc(sms, sizeof *S->port_free);
    S->shared_free = (double *)tc__sim_calloc(sms, sizeof *S->shared_free);
    S->pipes = (tc__sim_pipe *)tc__sim_calloc((int64_t)nsp * TC__SIM_PIPES, sizeof *S->pipes);
    S->shfl_free = (double *)tc__sim_calloc(sms, sizeof *S->shfl_free);
    S->last = (int *)tc__sim_calloc(nsp, sizeof *S->last);
    S->sched_next = (int64_t *)tc__sim_calloc(nsp, sizeof *S->sched_next);
    S->wps_sub = (S->wps + g->subpartitions - 1) / g->subpartitions;
    S->mwords = (S->wps_sub + 63) / 64;
    S->awake = (uint64_t *)tc__sim_calloc((int64_t)nsp * S->mwords, sizeof *S->awake);
    S->sleepers = (tc__sim_sleeper *)tc__sim_calloc((int64_t)nsp * S->wps_sub, sizeof *S->sleepers);
    S->nsleep = (int *)tc__sim_calloc(nsp, sizeof *S->nsleep);
    S->sm_next = (int64_t *)tc__sim_calloc(sms, sizeof *S->sm_next);
    S->resident = (uint8_t *)tc__sim_calloc(sectors / 8 + 1, 1);
    if (!S->w || !S->arrived || !S->exited || !S->port_free || !S->shared_free || !S->pipes || !S->shfl_free ||
        !S->last || !S->sched_next || !S->sm_next || !S->resident || !S->awake || !S->sleepers || !S->nsleep)
        return TC_ERR_NOMEM;
    {
        int64_t n = S->p->l2_resident_bytes / g->sector_bytes;   /* sectors [0, n) start in L2 */
        if (n > sectors) n = sectors;
        memset(S->resident, 0xFF, (size_t)(n >> 3));
        for (s = n & ~(int64_t)7; s < n; s++) S->resident[s >> 3] |= (uint8_t)(1u << (s & 7));
    }
    for (i = 0; i < nsp; i++) S->last[i] = -1;
    for (i = 0; i < nsp * TC__SIM_PIPES; i++) S->pipes[i].issued = -1;
    for (i = 0; i < S->nw; i++) {
        tc__sim_warp *w = &S->w[i];
        w->sm = i / S->wps;
        w->local = i % S->wps;
        w->sub = w->local % g->subpartitions;
        w->global = i;
        w->block = i / S->wpb;
        w->pipes = &S->pipes[(w->sm * g->subpartitions + w->sub) * TC__SIM_PIPES];
        w->state = -1;
        S->awake[(int64_t)(w->sm * g->subpartitions + w->sub) * S->mwords + w->local / g->subpartitions / 64] |=
            (uint64_t)1 << (w->local / g->subpartitions % 64);   /* every warp starts awake */
        w->trips = (int32_t *)tc__sim_calloc(S->nloops, sizeof *w->trips);
        if (!w->trips) return TC_ERR_NOMEM;
    }
    return TC_OK;
}

/* Without a timeline, a warp that will wait at t + 1 for the operands of its
   next instruction sleeps from its issue at t: only its own issue writes
   its registers, so tc__sim_check at t + 1 would find the same, and its
   scheduler need not run then (in a pipe-bound run, every other cycle).
   With a timeline that state change is recorded at t + 1, in order.
   Returns the cycle its scheduler must look at the warp again. */
static int64_t tc__sim_stall_ahead(tc__sim *S, tc__sim_warp *w, int64_t t) {
    int why;
    int64_t need;
    if (S->record || w->wake != t + 1) return t + 1;   /* at a barrier (wake TC__SIM_NEVER): "barrier" from t + 1 */
    need = tc__sim_need(S, w, &why);
    w->operands_ready = 1;   /* by t + 1 (its wake), or by need */
    if (need <= t + 1) return t + 1;
    w->wake = need;
    w->reason = why;
    tc__sim_set_state(S, w, why, t + 1);
    return need;
}

/* One cycle of one scheduler due at t: every awake warp's state, and at
   most one issue. Returns 1 if it issued. A scheduler none of whose warps
   can change state before sched_next is skipped: states are recorded only
   when they change, so skipping is exact, and it keeps long memory waits
   cheap. */
static int tc__sim_schedule(tc__sim *S, int sm, int sub, int64_t t, int *progress, int *states) {
    const int nsub = S->g->subpartitions;
    const int sp = sm * nsub + sub;
    const tc__sim_pipe *pipes = &S->pipes[sp * TC__SIM_PIPES];
    const uint64_t *awake = &S->awake[(int64_t)sp * S->mwords];
    tc__sim_warp *base = &S->w[sm * S->wps];
    int k, n, chosen = -1, first_ready = -1, after_last = -1, last_ready = 0, nt = 0, last = S->last[sp], lazy = 1;
    unsigned pooled = 0;              /* without a timeline: the pipes pool warps wait for ... */
    int npooled = 0;                  /* ... and how many they are */
    int *touched = states + S->wps;   /* second half of the caller's buffer */
    int64_t wake = TC__SIM_NEVER, due;
    tc__sim_wake_due(S, sp, t);
    for (n = tc__sim_next_bit(awake, S->mwords, -1); n >= 0; n = tc__sim_next_bit(awake, S->mwords, n)) {
        tc__sim_warp *w = &base[sub + n * nsub];
        int retired = 0, st, charged_later = 0;
        if (t < w->wake) {   /* asleep since it was last looked at: a warp that issued BAR, or released this cycle */
            st = w->reason;
            tc__sim_sleep(S, sp, n, w->wake);
        } else if (w->pool) {   /* its pipe alone decides: tc__sim_check's answer, without the call */
            const int64_t free_at = w->pool->free;
            st = free_at > t ? TC_SIM_MATH_PIPE_THROTTLE : -1;
            if (!S->record) {   /* its state changes are charged when it issues (tc__sim_pool_leave) */
                pooled |= w->pool_bit;
                npooled++;
                charged_later = 1;
            } else if (st < 0) wake = t + 1;
            else if (free_at < wake) wake = free_at;
        } else {
            st = tc__sim_check(S, w, t, &retired);
            if (retired) *progress = 1;
            if (retired) wake = t + 1;   /* it may have released a barrier */
            else if (w->pool && !S->record) {
                pooled |= w->pool_bit;
                npooled++;
            } else if (st < 0) wake = t + 1;
            if (t < w->wake) tc__sim_sleep(S, sp, n, w->wake);   /* stalled, throttled as it joined the pool, or exited */
        }
        states[n] = st;
        if (st < 0) {
            if (first_ready < 0) first_ready = n;
            if (after_last < 0 && n > last) after_last = n;
            last_ready |= n == last;
            if (!charged_later) touched[nt++] = n;
        } else if (!charged_later && (st != w->state || (S->pc_cycles && w->pc != w->state_pc))) {
            touched[nt++] = n;   /* tc__sim_set_state's early return, inline */
        }
    }
    if (first_ready >= 0) {
        if (S->policy == TC_SIM_GTO) chosen = last_ready ? last : first_ready;   /* greedy: the warp issued last, while it can; then the oldest ready one */
        else chosen = after_last >= 0 ? after_last : first_ready;              /* loose round-robin: the first ready warp after the last one issued */
    }
    /* the warps whose state may change, in warp order as before */
    for (k = 0; k < nt; k++) {
        int st = states[touched[k]];
        if (touched[k] == chosen) { st = TC_SIM_SELECTED; lazy = 0; }
        else if (st < 0) st = TC_SIM_NOT_SELECTED;
        tc__sim_set_state(S, &base[sub + touched[k] * nsub], st, t);
    }
    S->sched_next[sp] = TC__SIM_NEVER;   /* a barrier the issue releases wakes it at t + 1 */
    if (chosen >= 0) {
        tc__sim_warp *w = &base[sub + chosen * nsub];
        if (lazy) {   /* a pool warp that joined before t */
            tc__sim_pool_leave(S, w, t);
            tc__sim_set_state(S, w, TC_SIM_SELECTED, t);
        }
        S->last[sp] = chosen;
        if (npooled == 1) pooled = 0;   /* the pool was the chosen warp alone: its next cycle is `due` */
        tc__sim_issue(S, w, t);
        due = tc__sim_stall_ahead(S, w, t);
        if (due > t + 1) tc__sim_sleep(S, sp, chosen, due);
        else if (due < wake) wake = due;
    }
    /* the other pool warps are due when their pipe frees (after this cycle's issue) */
    for (k = 0; pooled; k++, pooled >>= 1) {
        due = pipes[k].free > t ? pipes[k].free : t + 1;
        if ((pooled & 1) && due < wake) wake = due;
    }
    if (S->nsleep[sp] > 0 && S->sleepers[(int64_t)sp * S->wps_sub].wake < wake) wake = S->sleepers[(int64_t)sp * S->wps_sub].wake;
    if (wake < S->sched_next[sp]) S->sched_next[sp] = wake;
    return chosen >= 0;
}

TCDEF void tc_sim_result_free(tc_sim_result *r) {
    if (!r) return;
    TC_FREE(r->segments);
    TC_FREE(r->warp_segments);
    TC_FREE(r->instr_issued);
    TC_FREE(r->instr_state_cycles);
    r->segments = NULL;
    r->warp_segments = NULL;
    r->instr_issued = r->instr_state_cycles = NULL;
    r->instr_n = 0;
}

/* Closes every warp's timeline at `end`, gathers segments, derives rates. */
static tc_status tc__sim_finish(tc__sim *S, int64_t end) {
    tc_sim_result *r = S->r;
    const tc_sim_profile *g = S->g;
    double best = 0.0, hz = g->clock_ghz * 1e9;
    int i, k;
    int64_t total = 0, at = 0;
    for (i = 0; i < S->nw; i++) {
        tc__sim_warp *w = &S->w[i];
        r->state_cycles[w->state] += end - w->since;
        if (S->pc_cycles) S->pc_cycles[(int64_t)w->state_pc * TC_SIM_STATE_COUNT + w->state] += end - w->pc_since;
        while (w->nseg > 0 && w->seg[w->nseg - 1].start >= end) w->nseg--;
        total += w->nseg;
    }
    r->cycles = end;
    r->seconds = (double)end / hz;
    if (end > 0) {
        r->flops_per_s = r->flops / r->seconds;
        r->dram_bytes_per_s = r->dram_bytes / r->seconds;
        r->l2_bytes_per_s = r->l2_bytes / r->seconds;
    }
    for (k = 0; k < TC_MMA_INSTR_COUNT; k++) {
        double f;
        if (g->mma_latency[k] == 0 || tc__mma_instrs[k].sparse_group) continue;
        f = 2.0 * tc__mma_instrs[k].m * tc__mma_instrs[k].n * tc__mma_instrs[k].k / tc__mma_warps(&tc__mma_instrs[k]) /
            g->mma_interval[k];
        if (f > best) best = f;
    }
    r->peak_fp32_flops_per_s = (double)r->sms * g->subpartitions * 2.0 * 32.0 / g->ffma_interval * hz;
    r->peak_tensor_flops_per_s = (double)r->sms * g->subpartitions * best * hz;
    r->peak_dram_bytes_per_s = g->dram_bytes_per_cycle * hz;
    if (!S->record) return TC_OK;
    r->segments = (tc_sim_segment *)tc__sim_calloc(total, sizeof *r->segments);
    r->warp_segments = (int64_t *)tc__sim_calloc(S->nw + 1, sizeof *r->warp_segments);
    if (!r->segments || !r->warp_segments) { tc_sim_result_free(r); return TC_ERR_NOMEM; }
    for (i = 0; i < S->nw; i++) {
        r->warp_segments[i] = at;
        if (S->w[i].nseg) memcpy(r->segments + at, S->w[i].seg, (size_t)S->w[i].nseg * sizeof *r->segments);
        at += S->w[i].nseg;
    }
    r->warp_segments[S->nw] = at;
    return TC_OK;
}

/* The SMs in a binary min-heap on (sm_next, SM index), so that a cycle
   visits only the SMs due then, in SM order: with 132 SMs mostly asleep
   on memory, scanning all of them every cycle took a sixth of the run. */
static int tc__sim_heap_less(const tc__sim *S, int a, int b) {
    return S->sm_next[a] < S->sm_next[b] || (S->sm_next[a] == S->sm_next[b] && a < b);
}

static int64_t tc__sim_heap_top(const tc__sim *S, const int *heap, int n) { return n > 0 ? S->sm_next[heap[0]] : TC__SIM_NEVER; }

static void tc__sim_heap_down(const tc__sim *S, int *heap, int n, int i) {
    for (;;) {
        int c = 2 * i + 1, x;
        if (c >= n) return;
        if (c + 1 < n && tc__sim_heap_less(S, heap[c + 1], heap[c])) c++;
        if (!tc__sim_heap_less(S, heap[c], heap[i])) return;
        x = heap[c]; heap[c] = heap[i]; heap[i] = x;
        i = c;
    }
}

static tc_status tc__sim_run_in(const tc_sim_profile *g, const tc_sim_program *p, const tc_sim_options *opt, tc_sim_result *out) {
    tc__sim S;
    tc_sim_options o;
    tc_status st;
    int64_t t = 0, limit;
    int *states = NULL, *heap = NULL, sms, done = 0, b;
    if (!out) return TC_ERR_NULL;
    memset(out, 0, sizeof *out);
    if (!g || !p) return TC_ERR_NULL;
    if (opt) o = *opt; else memset(&o, 0, sizeof o);
    st = tc_sim_profile_validate(g, NULL);
    if (st != TC_OK) return st;
    sms = o.sms ? o.sms : (p->default_sms ? p->default_sms : 1);
    memset(&S, 0, sizeof S);
    S.wps = o.warps_per_sm ? o.warps_per_sm : (p->default_warps_per_sm ? p->default_warps_per_sm : 1);
    S.wpb = o.warps_per_block ? o.warps_per_block : (p->default_warps_per_block ? p->default_warps_per_block : S.wps);
    if (o.sms < 0 || o.warps_per_sm < 0 || o.max_cycles < 0 || sms < 1 || S.wpb < 1 || S.wps % S.wpb) return TC_ERR_SIZE;
    if (sms > g->sms || S.wps > g->max_warps_per_sm) return TC_ERR_SIZE;
    if (o.policy != TC_SIM_GTO && o.policy != TC_SIM_LRR) return TC_ERR_ARG;
    limit = o.max_cycles ? o.max_cycles : 1000000000;
    S.g = g; S.p = p; S.r = out; S.record = o.record_timeline != 0; S.policy = o.policy;
    out->sms = sms; out->warps_per_sm = S.wps; out->warps = sms * S.wps;
    st = tc__sim_prepare(&S);
    if (st == TC_OK) st = tc__sim_setup(&S, sms);
    if (st == TC_OK && o.per_instruction) {
        out->instr_n = p->n;
        out->instr_issued = (int64_t *)tc__sim_calloc(p->n, sizeof *out->instr_issued);
        out->instr_state_cycles = (int64_t *)tc__sim_calloc((int64_t)p->n * TC_SIM_STATE_COUNT, sizeof *out->instr_state_cycles);
        if (!out->instr_issued || !out->instr_state_cycles) st = TC_ERR_NOMEM;
        S.pc_cycles = out->instr_state_cycles;
    }
    if (st == TC_OK) {
        states = (int *)tc__sim_calloc(2 * (int64_t)S.wps, sizeof *states);
        if (!states) st = TC_ERR_NOMEM;
    }
    if (st == TC_OK) {
        heap = (int *)tc__sim_calloc(sms, sizeof *heap);
        if (!heap) st = TC_ERR_NOMEM;
        for (b = 0; b < sms && heap; b++) heap[b] = b;   /* every sm_next is 0: already a heap */
    }
    while (st == TC_OK) {
        int issued = 0, progress = 0, sm, sub;
        int64_t next;
        /* A whole SM asleep until sm_next is skipped: nothing on it can
           change state before then, and no other SM can wake it (a barrier
           only wakes warps of its own SM), so this is exact. The SMs due at
           t (sm_next is never below t) come to the top in SM order, as the
           plain scan over SMs ran them; one that ran is due after t and
           sinks below the rest. */
        while (tc__sim_heap_top(&S, heap, sms) <= t) {
            int64_t sm_next = TC__SIM_NEVER;
            sm = heap[0];
            for (sub = 0; sub < g->subpartitions; sub++) {
                const int64_t *due = &S.sched_next[sm * g->subpartitions + sub];
                if (*due <= t) issued |= tc__sim_schedule(&S, sm, sub, t, &progress, states);
                if (*due < sm_next) sm_next = *due;
            }
            S.sm_next[sm] = sm_next;
            tc__sim_heap_down(&S, heap, sms, 0);
        }
        next = tc__sim_heap_top(&S, heap, sms);   /* the cycle the next scheduler is due */
        if (S.err != TC_OK) { st = S.err; break; }
        if (progress) {   /* only a retiring warp changes the count */
            for (done = 0, b = 0; b < S.nw / S.wpb; b++) done += S.exited[b];
            if (done == S.nw) break;
        }
        if (issued || progress) t++;
        else if (next == TC__SIM_NEVER) st = TC_ERR_PROGRAM;   /* cannot happen: kept as a guard against a hang */
        else t = next;
        if (t > limit) st = TC_ERR_LIMIT;
    }
    if (st == TC_OK) st = tc__sim_finish(&S, t);
    TC_FREE(states);
    TC_FREE(heap);
    tc__sim_free(&S);
    if (st != TC_OK) {
        tc_sim_result_free(out);
        memset(out, 0, sizeof *out);
    }
    return st;
}
TCDEF tc_status tc_sim_run(const tc_sim_profile *g, const tc_sim_program *p, const tc_sim_options *opt, tc_sim_result *out) {
    TC__IN_DEFAULT_FP(tc_status, tc__sim_run_in(g, p, opt, out));
}

/* ---- kernels in sequence */

static void tc__sim_predict_finish(const tc_sim_profile *g, double cycles, tc_sim_prediction *out) {
    out->launches = 1;
    out->kernel_seconds = cycles / (g->clock_ghz * 1e9);
    out->launch_seconds = g->launch_overhead_us * 1e-6;
    out->seconds = out->kernel_seconds > out->launch_seconds ? out->kernel_seconds : out->launch_seconds;
}

/* Cycles of the elementwise kernel on `sms` SMs of profile g for `trips` trips. */
static tc_status tc__sim_elementwise_cycles(const tc_sim_profile *g, const tc_sim_elementwise_desc *d, int sms, int wps,
                                            int64_t trips, double *cycles) {
    tc_sim_elementwise_desc one = *d;
    tc_sim_program p;
    tc_sim_result r;
    tc_status st;
    memset(&p, 0, sizeof p);
    one.elements = trips * sms * wps * 128;
    st = tc_sim_build_elementwise(&p, &one, sms, wps);
    if (st == TC_OK) st = tc_sim_run(g, &p, NULL, &r);
    tc_sim_program_free(&p);
    if (st != TC_OK) return st;
    *cycles = (double)r.cycles;
    tc_sim_result_free(&r);
    return TC_OK;
}

static tc_status tc__sim_predict_elementwise_in(const tc_sim_profile *g, const tc_sim_elementwise_desc *d, tc_sim_prediction *out) {
    enum { SLICE_SMS = 8, MAX_TRIPS = 8, WARPS = 32 };
    tc_sim_profile slice;
    int64_t warps, wps, sms, trips;
    double c4 = 0.0, c8 = 0.0, cycles = 0.0;
    tc_status st;
    if (!out) return TC_ERR_NULL;
    memset(out, 0, sizeof *out);
    if (!g || !d) return TC_ERR_NULL;
    st = tc_sim_profile_validate(g, NULL);
    if (st != TC_OK) return st;
    if (d->inputs < 1 || d->inputs > 8 || d->outputs < 0 || d->outputs > 8 || d->ops < 0 || d->ops > 64) return TC_ERR_ARG;
    if (d->elements < 1 || d->elements > ((int64_t)1 << 40)) return TC_ERR_SIZE;
    /* small tensors get fewer warps, spread over as many SMs as they can use */
    warps = (d->elements + 127) / 128;
    wps = g->max_warps_per_sm < WARPS ? g->max_warps_per_sm : WARPS;
    if ((warps + g->sms - 1) / g->sms < wps) wps = (warps + g->sms - 1) / g->sms;
    sms = (warps + wps - 1) / wps;
    if (sms > g->sms) sms = g->sms;
    trips = (d->elements + sms * wps * 128 - 1) / (sms * wps * 128);
    slice = *g;
    slice.sms = sms < SLICE_SMS ? (int)sms : SLICE_SMS;
    slice.dram_bytes_per_cycle = g->dram_bytes_per_cycle * slice.sms / (double)sms;
    if (trips <= MAX_TRIPS) {
        st = tc__sim_elementwise_cycles(&slice, d, slice.sms, (int)wps, trips, &cycles);
    } else {
        st = tc__sim_elementwise_cycles(&slice, d, slice.sms, (int)wps, MAX_TRIPS / 2, &c4);
        if (st == TC_OK) st = tc__sim_elementwise_cycles(&slice, d, slice.sms, (int)wps, MAX_TRIPS, &c8);
        cycles = c8 + (c8 - c4) * (double)(trips - MAX_TRIPS) / (MAX_TRIPS / 2);
    }
    if (st != TC_OK) return st;
    out->dram_bytes = (double)d->elements * (double)sizeof(float) * (d->inputs + d->outputs);
    out->flops = (double)d->elements * d->ops;
    /* every byte of the stream is a first touch (the model keeps nothing in
       L2 between kernels), so no size beats the GPU's achievable DRAM
       bandwidth: a slice of one or two trips ends before the DRAM token
       bucket has throttled it (h100, 2^19 elements, simulated 4.3 TB/s) */
    if (g->dram_bytes_per_cycle > 0.0 && cycles < out->dram_bytes / g->dram_bytes_per_cycle)
        cycles = out->dram_bytes / g->dram_bytes_per_cycle;
    tc__sim_predict_finish(g, cycles, out);
    return TC_OK;
}
TCDEF tc_status tc_sim_predict_elementwise(const tc_sim_profile *g, const tc_sim_elementwise_desc *d, tc_sim_prediction *out) {
    TC__IN_DEFAULT_FP(tc_status, tc__sim_predict_elementwise_in(g, d, out));
}

static tc_status tc__sim_predict_gemm_in(const tc_sim_profile *g, int64_t m, int64_t n, int64_t k, tc_sim_prediction *out) {
    static const tc_mma_instr fp16[] = { TC_MMA_M8N8K4_F16, TC_MMA_M16N8K8_F16, TC_MMA_M16N8K16_F16 };
    tc_sim_options o;
    tc_sim_program p;
    tc_sim_result r;
    tc_status st;
    double best = 0.0, per_sm, compute, memory;
    int i, kind = -1;
    if (!out) return TC_ERR_NULL;
    memset(out, 0, sizeof *out);
    if (!g) return TC_ERR_NULL;
    st = tc_sim_profile_validate(g, NULL);
    if (st != TC_OK) return st;
    if (m < 1 || n < 1 || k < 1 || m > ((int64_t)1 << 24) || n > ((int64_t)1 << 24) || k > ((int64_t)1 << 24)) return TC_ERR_SIZE;
    for (i = 0; i < TC__COUNT_OF(fp16); i++) {
        double rate;
        if (g->mma_latency[fp16[i]] == 0) continue;
        rate = (double)tc__mma_instrs[fp16[i]].m * tc__mma_instrs[fp16[i]].n * tc__mma_instrs[fp16[i]].k /
               g->mma_interval[fp16[i]];
        if (rate > best) { best = rate; kind = (int)fp16[i]; }
    }
    if (kind < 0) return TC_ERR_ARCH;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    o.sms = 1;
    o.warps_per_sm = 4 * g->subpartitions < g->max_warps_per_sm ? 4 * g->subpartitions : g->max_warps_per_sm;
    /* 256 MMAs of at most 1024 warps through one pipe, each at most 2^20
       cycles of interval and latency, end within 2^39 cycles: the default
       limit (1e9) would refuse a slow but valid profile */
    o.max_cycles = (int64_t)1 << 40;
    st = tc_sim_build_mma_chain(&p, (tc_mma_instr)kind, 256, 0);
    if (st == TC_OK) st = tc_sim_run(g, &p, &o, &r);
    tc_sim_program_free(&p);
    if (st != TC_OK) return st;
    per_sm = r.flops / (double)r.cycles;   /* FLOPs per cycle of one busy SM */
    tc_sim_result_free(&r);
    out->flops = 2.0 * (double)m * (double)n * (double)k;
    out->dram_bytes = 2.0 * ((double)m * (double)k + (double)k * (double)n) + 4.0 * (double)m * (double)n;
    compute = out->flops / (per_sm * g->sms);
    memory = g->dram_bytes_per_cycle > 0.0 ? out->dram_bytes / g->dram_bytes_per_cycle : 0.0;
    tc__sim_predict_finish(g, compute > memory ? compute : memory, out);
    return TC_OK;
}
TCDEF tc_status tc_sim_predict_gemm(const tc_sim_profile *g, int64_t m, int64_t n, int64_t k, tc_sim_prediction *out) {
    TC__IN_DEFAULT_FP(tc_status, tc__sim_predict_gemm_in(g, m, n, k, out));
}

TCDEF void tc_sim_prediction_add(tc_sim_prediction *sum, const tc_sim_prediction *k) {
    tc__fp_env fp;
    if (!sum || !k) return;
    fp = tc__fp_enter();
    sum->dram_bytes += k->dram_bytes;
    sum->flops += k->flops;
    sum->launches += k->launches;
    sum->kernel_seconds += k->kernel_seconds;
    sum->launch_seconds += k->launch_seconds;
    sum->seconds += k->seconds;
    tc__fp_leave(&fp);
}

/* ---- text files: .tcs programs and profiles */

/* How each opcode is written: its name, its operands in order (d: dst,
   0-3: src[i], m: memory operand, L: a label, n: trip count, k: a warp
   index), and the
   optional trailing "keyword register" operands, by src index. One row per
   tc_sim_opcode, in its order. */
static const struct { const char *name, *slots, *opt[4]; } tc__tcs_ops[] = {
    { "ldg",    "dm",   { "addr", NULL, NULL, NULL } },
    { "stg",    "0m",   { NULL, NULL, NULL, NULL } },
    { "ldgsts", "dm",   { NULL, NULL, NULL, NULL } },
    { "lds",    "dm",   { "addr", "after", NULL, NULL } },
    { "sts",    "0m",   { NULL, NULL, NULL, NULL } },
    { "ldsm",   "dm",   { NULL, "after", NULL, NULL } },
    { "ffma",   "d012", { NULL, NULL, NULL, NULL } },
    { "mma",    "d012", { NULL, NULL, NULL, "meta" } },
    { "bar",    "",     { "wait", NULL, NULL, NULL } },
    { "loop",   "Ln",   { NULL, NULL, NULL, NULL } },
    { "exit",   "",     { NULL, NULL, NULL, NULL } },
    { "bra.warp_ge", "kL", { NULL, NULL, NULL, NULL } },
    { "shfl",   "d0",   { NULL, NULL, NULL, NULL } },
    { "imad",   "d012", { NULL, NULL, NULL, NULL } },
    { "atoms",  "d0m",  { NULL, "addr", NULL, NULL } },
    { "atomg",  "d0m",  { NULL, "addr", NULL, NULL } },
};
typedef char tc__tcs_ops_match_enum[TC__COUNT_OF(tc__tcs_ops) == TC_SIM_OP_COUNT ? 1 : -1];

#define TC__TCS_MAX_TEXT ((size_t)1 << 26)
#define TC__TCS_MAX_LABELS 4096
#define TC__TCS_NAME 32                           /* label and register names: up to 31 characters */
#define TC__TCS_MAX_TERM ((int64_t)1 << 62)       /* address terms and settings: |v| <= 2^62 */
#define TC__TCS_MAX_WARP 65536                    /* bra.warp_ge's warp index */

/* ---- writing: a snprintf that appends and counts what did not fit */

typedef struct { char *buf; size_t cap, len; } tc__out;

static void tc__outf(tc__out *o, const char *fmt, ...) {
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(o->buf && o->len < o->cap ? o->buf + o->len : NULL, o->buf && o->len < o->cap ? o->cap - o->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0) o->len += (size_t)n;
}

static tc_status tc__out_finish(tc__out *o, size_t *needed) {
    if (needed) *needed = o->len;
    if (o->buf && o->cap > 0 && o->len >= o->cap) o->buf[o->cap - 1] = '\0';
    return o->len < o->cap || (!o->buf && o->cap == 0 && needed) ? TC_OK : TC_ERR_BUFFER;
}

static int tc__tcs_name_ok(const char *s, int dots) {
    int i;
    if (!s[0]) return 0;
    for (i = 0; s[i]; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || (dots && (c == '.' || c == '-'))))
            return 0;
    }
    return 1;
}

static void tc__tcs_reg(tc__out *o, int r) {
    if (r == TC_SIM_NOREG) tc__outf(o, "-");
    else tc__outf(o, "r%d", r);
}

static void tc__tcs_mem(tc__out *o, const tc_sim_addr *a) {
    static const char *const names[] = { "lane", "warp", "iter" };
    int64_t v[3];
    int i, first = 1;
    v[0] = a->lane_table ? 0 : a->lane_stride; v[1] = a->warp_stride; v[2] = a->iter_stride;
    tc__outf(o, "[");
    if (a->base != 0 || (!a->lane_table && !v[0] && !v[1] && !v[2])) { tc__outf(o, "%lld", (long long)a->base); first = 0; }
    if (a->lane_table) { tc__outf(o, "%st%d[lane]", first ? "" : " + ", a->lane_table); first = 0; }
    for (i = 0; i < 3; i++) {
        if (!v[i]) continue;
        if (first) tc__outf(o, "%lld*%s", (long long)v[i], names[i]);
        else tc__outf(o, " %c %lld*%s", v[i] < 0 ? '-' : '+', (long long)(v[i] < 0 ? -v[i] : v[i]), names[i]);
        first = 0;
    }
    tc__outf(o, "]");
}

static int tc__tcs_big(int64_t v) { return v > TC__TCS_MAX_TERM || v < -TC__TCS_MAX_TERM; }

/* Whether the printer can write instruction i so that parsing gives it back. */
/* An MMA kind's .tcs name: the table's, a wgmma's with its N spelled
   ("wgmma.m64n128k16.f16" for "wgmma.m64nNk16.f16" at N = 128). */
static void tc__mma_name_n(tc_mma_instr k, int n, char out[64]) {
    const char *name = tc__mma_instrs[k].name, *at = strstr(name, "nN");
    if (tc__mma_instrs[k].n_step && at) sprintf(out, "%.*sn%d%s", (int)(at - name), name, n, at + 2);
    else sprintf(out, "%.63s", name);
}

/* The kind and N (0 for a fixed-N kind) a .tcs name spells; 0 if none. */
static int tc__mma_name_find(const char *name, tc_mma_instr *kind, int *n) {
    int k, w;
    char buf[64];
    if (tc_mma_instr_find(name, kind) == TC_OK && !tc__mma_instrs[*kind].n_step) { *n = 0; return 1; }
    for (k = 0; k < TC_MMA_INSTR_COUNT; k++)
        for (w = tc__mma_instrs[k].n_step; w > 0 && w <= tc__mma_instrs[k].n; w += tc__mma_instrs[k].n_step) {
            tc__mma_name_n((tc_mma_instr)k, w, buf);
            if (strcmp(buf, name) == 0) { *kind = (tc_mma_instr)k; *n = w; return 1; }
        }
    return 0;
}

static int tc__tcs_printable(const tc_sim_program *p, int pc) {
    const tc_sim_instr *ins = &p->code[pc];
    const char *slots;
    int i, used[5] = { 0, 0, 0, 0, 0 }, mem, reg[5];
    if (ins->op >= TC_SIM_OP_COUNT) return 0;
    slots = tc__tcs_ops[ins->op].slots;
    mem = strchr(slots, 'm') != NULL;
    for (i = 0; slots[i]; i++) {
        if (slots[i] == 'd') used[4] = 1;
        if (slots[i] >= '0' && slots[i] <= '3') used[slots[i] - '0'] = 1;
    }
    for (i = 0; i < 4; i++) if (tc__tcs_ops[ins->op].opt[i]) used[i] = 1;
    for (i = 0; i < 4; i++) reg[i] = ins->src[i];
    reg[4] = ins->dst;
    for (i = 0; i < 5; i++)
        if ((!used[i] && reg[i] != TC_SIM_NOREG) || (reg[i] != TC_SIM_NOREG && reg[i] >= TC_SIM_MAX_REGS)) return 0;
    if (ins->op != TC_SIM_MMA && ins->mma) return 0;
    if (ins->op == TC_SIM_MMA && ins->mma >= TC_MMA_INSTR_COUNT) return 0;
    if (ins->op == TC_SIM_LOOP) { if (ins->target < 0 || ins->target > pc || ins->count < 1 || ins->count > (1 << 24)) return 0; }
    else if (ins->op == TC_SIM_BRA_WARP) { if (ins->target <= pc || ins->target >= p->n || ins->count < 0 || ins->count > TC__TCS_MAX_WARP) return 0; }
    else if (ins->target) return 0;
    if (ins->op == TC_SIM_LDSM) { if (ins->count != 1 && ins->count != 2 && ins->count != 4) return 0; }
    else if (ins->op == TC_SIM_MMA && tc__mma_instrs[ins->mma].n_step) { if (!tc_mma_instr_n_ok((tc_mma_instr)ins->mma, ins->count)) return 0; }
    else if (ins->op != TC_SIM_LOOP && ins->op != TC_SIM_BRA_WARP && ins->count) return 0;
    if (!mem) {
        tc_sim_addr z;
        memset(&z, 0, sizeof z);
        return memcmp(&z, &ins->addr, sizeof z) == 0;
    }
    if (ins->addr.width != 0 && !tc__sim_width_ok(ins->addr.width)) return 0;
    if (ins->addr.lane_table < 0 || ins->addr.lane_table > p->n_tables || (ins->addr.lane_table && ins->addr.lane_stride)) return 0;
    return !tc__tcs_big(ins->addr.base) && !tc__tcs_big(ins->addr.lane_stride) && !tc__tcs_big(ins->addr.warp_stride) &&
           !tc__tcs_big(ins->addr.iter_stride);
}

TCDEF tc_status tc_sim_program_print(const tc_sim_program *p, char *buf, size_t cap, size_t *needed) {
    tc__out o;
    int pc, i, j, *labelled;
    if (needed) *needed = 0;
    if (buf && cap > 0) buf[0] = '\0';
    if (!p || (!buf && cap > 0)) return TC_ERR_NULL;
    if (p->n < 0 || (p->n > 0 && !p->code) || p->n_tables < 0 || (p->n_tables > 0 && !p->lane_tables)) return TC_ERR_PROGRAM;
    if (memchr(p->name, '\0', sizeof p->name) == NULL || (p->name[0] && !tc__tcs_name_ok(p->name, 1))) return TC_ERR_PROGRAM;
    if (tc__tcs_big(p->global_bytes) || tc__tcs_big(p->l2_resident_bytes) || tc__tcs_big(p->shared_bytes)) return TC_ERR_PROGRAM;
    for (pc = 0; pc < p->n; pc++) if (!tc__tcs_printable(p, pc)) return TC_ERR_PROGRAM;
    labelled = (int *)tc__sim_calloc(p->n, sizeof *labelled);
    if (!labelled) return TC_ERR_NOMEM;
    for (pc = 0; pc < p->n; pc++)
        if (p->code[pc].op == TC_SIM_LOOP || p->code[pc].op == TC_SIM_BRA_WARP) labelled[p->code[pc].target] = 1;
    o.buf = buf; o.cap = cap; o.len = 0;
    tc__outf(&o, "# tcsim warp program (docs/tcs.md)\n");
    if (p->name[0]) tc__outf(&o, ".program %s\n", p->name);
    tc__outf(&o, ".sms %d\n.warps_per_sm %d\n.warps_per_block %d\n", p->default_sms, p->default_warps_per_sm, p->default_warps_per_block);
    tc__outf(&o, ".global_bytes %lld\n.l2_resident_bytes %lld\n.shared_bytes %lld\n.writes_reach_dram %d\n",
             (long long)p->global_bytes, (long long)p->l2_resident_bytes, (long long)p->shared_bytes, p->writes_reach_dram);
    for (i = 0; i < p->n_tables; i++) {
        tc__outf(&o, ".table t%d", i + 1);
        for (j = 0; j < 32; j++) tc__outf(&o, " %lu", (unsigned long)p->lane_tables[i][j]);
        tc__outf(&o, "\n");
    }
    for (pc = 0; pc < p->n; pc++) {
        const tc_sim_instr *ins = &p->code[pc];
        const char *slots = tc__tcs_ops[ins->op].slots;
        int first = 1;
        if (labelled[pc]) tc__outf(&o, "L%d:\n", pc);
        tc__outf(&o, "    %s", tc__tcs_ops[ins->op].name);
        if (ins->op == TC_SIM_MMA) {
            char name[64];
            tc__mma_name_n((tc_mma_instr)ins->mma, ins->count, name);
            tc__outf(&o, ".%s", name);
        }
        if (ins->op == TC_SIM_LDSM) tc__outf(&o, ".x%d", ins->count);
        if (strchr(slots, 'm') && ins->addr.width) tc__outf(&o, ".w%d", ins->addr.width);
        for (i = 0; slots[i]; i++) {
            tc__outf(&o, first ? " " : ", ");
            first = 0;
            switch (slots[i]) {
            case 'd': tc__tcs_reg(&o, ins->dst); break;
            case 'm': tc__tcs_mem(&o, &ins->addr); break;
            case 'L': tc__outf(&o, "L%d", ins->target); break;
            case 'n': case 'k': tc__outf(&o, "%d", ins->count); break;
            default: tc__tcs_reg(&o, ins->src[slots[i] - '0']); break;
            }
        }
        for (i = 0; i < 4; i++) {
            if (!tc__tcs_ops[ins->op].opt[i] || ins->src[i] == TC_SIM_NOREG) continue;
            tc__outf(&o, "%s%s r%d", first ? " " : ", ", tc__tcs_ops[ins->op].opt[i], ins->src[i]);
            first = 0;
        }
        tc__outf(&o, "\n");
    }
    TC_FREE(labelled);
    return tc__out_finish(&o, needed);
}

/* ---- reading: a cursor over the text that knows its line and column */

typedef struct {
    const char *s;
    size_t n, i, line_start;
    size_t tok;   /* where the last word or number began: errors about it point there */
    int line;
    char *err;
    size_t err_cap;
    int failed;
} tc__rd;

static void tc__rd_fail(tc__rd *r, const char *fmt, ...) {
    va_list ap;
    int k;
    if (r->failed) return;
    r->failed = 1;
    if (!r->err || r->err_cap == 0) return;
    k = snprintf(r->err, r->err_cap, "%d:%lu: ", r->line, (unsigned long)(r->i - r->line_start + 1));
    if (k < 0 || (size_t)k >= r->err_cap) return;
    va_start(ap, fmt);
    vsnprintf(r->err + k, r->err_cap - (size_t)k, fmt, ap);
    va_end(ap);
}

/* Fails pointing at the start of the last word or number read. */
#define TC__RD_FAIL_TOK(r, ...) ((r)->i = (r)->tok, tc__rd_fail((r), __VA_ARGS__))
static int tc__rd_peek(const tc__rd *r) { return r->i < r->n ? (unsigned char)r->s[r->i] : -1; }
static void tc__rd_space(tc__rd *r) { while (r->i < r->n && (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\r')) r->i++; }
/* After spaces: at the end of the line (a newline, a comment, the end). */
static int tc__rd_eol(tc__rd *r) { int c; tc__rd_space(r); c = tc__rd_peek(r); return c < 0 || c == '\n' || c == '#'; }
static void tc__rd_next_line(tc__rd *r) {
    while (r->i < r->n && r->s[r->i] != '\n') r->i++;
    if (r->i < r->n) { r->i++; r->line++; r->line_start = r->i; }
}
static int tc__rd_char(tc__rd *r, int c) { tc__rd_space(r); if (tc__rd_peek(r) == c) { r->i++; return 1; } return 0; }
static int tc__rd_is_word(int c, int dots) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || (dots && (c == '.' || c == '-'));
}
/* A word of letters, digits and _ (and . - if dots) into w[cap]; 0 if none or too long (failed). */
static int tc__rd_word(tc__rd *r, char *w, size_t cap, int dots, const char *what) {
    size_t k = 0;
    tc__rd_space(r);
    r->tok = r->i;
    if (!tc__rd_is_word(tc__rd_peek(r), dots)) { tc__rd_fail(r, "expected %s", what); return 0; }
    while (r->i < r->n && tc__rd_is_word((unsigned char)r->s[r->i], dots)) {
        if (k + 1 >= cap) { tc__rd_fail(r, "%s is longer than %d characters", what, (int)cap - 1); return 0; }
        w[k++] = r->s[r->i++];
    }
    w[k] = '\0';
    return 1;
}
/* A decimal integer with optional sign, |v| <= max. */
static int tc__rd_int(tc__rd *r, int64_t max, int64_t *v, const char *what) {
    int neg = 0, digits = 0;
    int64_t x = 0;
    tc__rd_space(r);
    r->tok = r->i;
    if (tc__rd_peek(r) == '-' || tc__rd_peek(r) == '+') neg = r->s[r->i++] == '-';
    while (r->i < r->n && r->s[r->i] >= '0' && r->s[r->i] <= '9') {
        if (x > (max - (r->s[r->i] - '0')) / 10) { tc__rd_fail(r, "%s is out of range (at most %lld in magnitude)", what, (long long)max); return 0; }
        x = 10 * x + (r->s[r->i++] - '0');
        digits++;
    }
    if (!digits) { tc__rd_fail(r, "expected a number for %s", what); return 0; }
    if (tc__rd_is_word(tc__rd_peek(r), 1)) { tc__rd_fail(r, "%s: junk after the number", what); return 0; }
    *v = neg ? -x : x;
    return 1;
}

typedef struct { char name[TC__TCS_NAME]; int value; } tc__tcs_sym;
typedef struct { char name[TC__TCS_NAME]; int pc, line; size_t at, line_start; } tc__tcs_fix;   /* a branch to a label below it */

typedef struct {
    tc__rd r;
    tc_sim_program *p;
    tc__tcs_sym regs[TC_SIM_MAX_REGS];
    int nregs;
    tc__tcs_sym *labels;
    int nlabels;
    tc__tcs_fix *fix;
    int nfix;
    tc__tcs_sym tables[64];
    int ntables_named;
} tc__tcs;

static int tc__tcs_find(const tc__tcs_sym *v, int n, const char *name) {
    int i;
    for (i = 0; i < n; i++) if (strcmp(v[i].name, name) == 0) return i;
    return -1;
}

/* rN, a .reg name, or "-" (none) when allowed. */
static int tc__tcs_reg_read(tc__tcs *T, int none_ok, int *reg) {
    char w[TC__TCS_NAME];
    int k;
    tc__rd_space(&T->r);
    if (tc__rd_peek(&T->r) == '-') {
        if (!none_ok) { tc__rd_fail(&T->r, "a register is required here"); return 0; }
        T->r.i++;
        *reg = TC_SIM_NOREG;
        return 1;
    }
    if (!tc__rd_word(&T->r, w, sizeof w, 0, "a register (r0..r63 or a .reg name)")) return 0;
    if ((k = tc__tcs_find(T->regs, T->nregs, w)) >= 0) { *reg = T->regs[k].value; return 1; }
    if (w[0] == 'r' && w[1] >= '0' && w[1] <= '9' && (w[2] == '\0' || (w[1] != '0' && w[2] >= '0' && w[2] <= '9' && w[3] == '\0'))) {
        k = atoi(w + 1);
        if (k < TC_SIM_MAX_REGS) { *reg = k; return 1; }
    }
    TC__RD_FAIL_TOK(&T->r, "'%s' is not a register (r0..r63 or a .reg name)", w);
    return 0;
}

/* [term +/- term ...]: an integer, INT*lane / INT*warp / INT*iter (or the
   name alone for 1), or TABLE[lane]. */
static int tc__tcs_mem_read(tc__tcs *T, tc_sim_addr *a) {
    static const char *const names[] = { "lane", "warp", "iter" };
    int seen[5] = { 0, 0, 0, 0, 0 }, sign = 1, first = 1;
    memset(a, 0, sizeof *a);
    if (!tc__rd_char(&T->r, '[')) { tc__rd_fail(&T->r, "expected a memory operand [ ... ]"); return 0; }
    for (;;) {
        int64_t v = 1;
        int kind = -1, k, have_num = 0;
        char w[TC__TCS_NAME];
        tc__rd_space(&T->r);
        if (!first) {
            if (tc__rd_char(&T->r, ']')) break;
            if (tc__rd_char(&T->r, '+')) sign = 1;
            else if (tc__rd_char(&T->r, '-')) sign = -1;
            else { tc__rd_fail(&T->r, "expected + - or ] in the memory operand"); return 0; }
        } else if (tc__rd_char(&T->r, '-')) sign = -1;
        first = 0;
        tc__rd_space(&T->r);
        if (tc__rd_peek(&T->r) >= '0' && tc__rd_peek(&T->r) <= '9') {
            if (!tc__rd_int(&T->r, TC__TCS_MAX_TERM, &v, "an address term")) return 0;
            have_num = 1;
            if (!tc__rd_char(&T->r, '*')) kind = 0;   /* the base */
        }
        if (kind < 0) {
            if (!tc__rd_word(&T->r, w, sizeof w, 0, "lane, warp, iter or a table name")) return 0;
            for (k = 0; k < 3; k++) if (strcmp(w, names[k]) == 0) kind = k + 1;
            if (kind < 0) {
                k = tc__tcs_find(T->tables, T->ntables_named, w);
                if (k < 0) { TC__RD_FAIL_TOK(&T->r, "unknown name '%s' (lane, warp, iter, or a .table)", w); return 0; }
                if (have_num || sign < 0) { TC__RD_FAIL_TOK(&T->r, "a lane table '%s' cannot be scaled or negated", w); return 0; }
                if (!tc__rd_char(&T->r, '[') || !tc__rd_word(&T->r, w, sizeof w, 0, "lane") || strcmp(w, "lane") != 0 ||
                    !tc__rd_char(&T->r, ']')) {
                    tc__rd_fail(&T->r, "a table is indexed as NAME[lane]");
                    return 0;
                }
                kind = 4;
                v = T->tables[k].value;
            }
        }
        if (seen[kind] || (kind == 4 && seen[1]) || (kind == 1 && seen[4])) {
            tc__rd_fail(&T->r, "the %s term appears twice", kind == 0 ? "base" : kind == 4 ? "lane" : names[kind - 1]);
            return 0;
        }
        seen[kind] = 1;
        v *= sign;
        switch (kind) {
        case 0: a->base = v; break;
        case 1: a->lane_stride = v; break;
        case 2: a->warp_stride = v; break;
        case 3: a->iter_stride = v; break;
        default: a->lane_table = (int)v; break;
        }
    }
    return 1;
}

static int tc__tcs_setting(tc__tcs *T, const char *d) {
    static const char *const keys[] = { "sms", "warps_per_sm", "warps_per_block", "global_bytes", "l2_resident_bytes",
                                        "shared_bytes", "writes_reach_dram" };
    tc_sim_program *p = T->p;
    int64_t v;
    int k;
    for (k = 0; k < TC__COUNT_OF(keys) && strcmp(d, keys[k]) != 0; k++) {}
    if (k == TC__COUNT_OF(keys)) return 0;
    if (!tc__rd_int(&T->r, k < 3 || k == 6 ? (int64_t)INT32_MAX : TC__TCS_MAX_TERM, &v, d)) return -1;
    switch (k) {
    case 0: p->default_sms = (int)v; break;
    case 1: p->default_warps_per_sm = (int)v; break;
    case 2: p->default_warps_per_block = (int)v; break;
    case 3: p->global_bytes = v; break;
    case 4: p->l2_resident_bytes = v; break;
    case 5: p->shared_bytes = v; break;
    default: p->writes_reach_dram = (int)v; break;
    }
    return 1;
}

/* A line that starts with '.': settings, .program, .reg, .table. */
static void tc__tcs_directive(tc__tcs *T) {
    char d[TC__TCS_NAME], w[TC__TCS_NAME];
    tc_sim_program *p = T->p;
    int k, reg;
    T->r.i++;   /* the '.' */
    if (!tc__rd_word(&T->r, d, sizeof d, 0, "a directive after '.'")) return;
    if (strcmp(d, "program") == 0) {
        if (!tc__rd_word(&T->r, p->name, sizeof p->name, 1, "a program name")) return;
    } else if (strcmp(d, "reg") == 0) {
        if (!tc__rd_word(&T->r, w, sizeof w, 0, "a register name")) return;
        if ((w[0] == 'r' && w[1] >= '0' && w[1] <= '9') || strcmp(w, "lane") == 0 || strcmp(w, "warp") == 0 || strcmp(w, "iter") == 0) {
            tc__rd_fail(&T->r, "'%s' cannot name a register (rN, lane, warp and iter are taken)", w);
            return;
        }
        if (tc__tcs_find(T->regs, T->nregs, w) >= 0) { tc__rd_fail(&T->r, "register name '%s' given twice", w); return; }
        if (T->nregs == TC_SIM_MAX_REGS) { tc__rd_fail(&T->r, "more than %d register names", TC_SIM_MAX_REGS); return; }
        if (!tc__tcs_reg_read(T, 0, &reg)) return;
        strcpy(T->regs[T->nregs].name, w);
        T->regs[T->nregs++].value = reg;
    } else if (strcmp(d, "table") == 0) {
        uint32_t off[32];
        int64_t v;
        int h = 0;
        if (!tc__rd_word(&T->r, w, sizeof w, 0, "a table name")) return;
        if (tc__tcs_find(T->tables, T->ntables_named, w) >= 0) { tc__rd_fail(&T->r, "table '%s' given twice", w); return; }
        if (T->ntables_named == TC__COUNT_OF(T->tables)) { tc__rd_fail(&T->r, "more than %d tables", TC__COUNT_OF(T->tables)); return; }
        for (k = 0; k < 32; k++) {
            if (tc__rd_eol(&T->r)) { tc__rd_fail(&T->r, "a table has 32 entries, one per lane (got %d)", k); return; }
            if (!tc__rd_int(&T->r, (int64_t)UINT32_MAX, &v, "a table entry")) return;
            if (v < 0) { tc__rd_fail(&T->r, "table entries are byte offsets, not negative"); return; }
            off[k] = (uint32_t)v;
        }
        if (tc_sim_lane_table(p, off, &h) != TC_OK) { tc__rd_fail(&T->r, "cannot add the table: %s", tc_status_string(p->status)); return; }
        strcpy(T->tables[T->ntables_named].name, w);
        T->tables[T->ntables_named++].value = h;
    } else if ((k = tc__tcs_setting(T, d)) <= 0) {
        if (k == 0) TC__RD_FAIL_TOK(&T->r, "unknown directive '.%s'", d);
        return;
    }
    if (!tc__rd_eol(&T->r)) tc__rd_fail(&T->r, "unexpected text after .%s", d);
}

static void tc__tcs_instruction(tc__tcs *T, const char *word) {
    tc_sim_program *p = T->p;
    tc_sim_instr ins;
    const char *mods = NULL, *slots;
    size_t oplen = 0;
    int op, i, reg, first = 1, best = -1;
    memset(&ins, 0, sizeof ins);
    ins.dst = TC_SIM_NOREG;
    for (i = 0; i < 4; i++) ins.src[i] = TC_SIM_NOREG;
    for (op = 0; op < TC_SIM_OP_COUNT; op++) {   /* the longest name that is the word or a prefix before a '.' */
        size_t k = strlen(tc__tcs_ops[op].name);
        if (strncmp(tc__tcs_ops[op].name, word, k) == 0 && (word[k] == '\0' || word[k] == '.') && k > oplen) { best = op; oplen = k; }
    }
    if (best < 0) {
        TC__RD_FAIL_TOK(&T->r, "unknown instruction '%.*s'", (int)(strchr(word, '.') ? (size_t)(strchr(word, '.') - word) : strlen(word)), word);
        return;
    }
    op = best;
    if (word[oplen] == '.') mods = word + oplen;
    ins.op = (uint8_t)op;
    slots = tc__tcs_ops[op].slots;
    if (op == TC_SIM_MMA) {
        tc_mma_instr kind;
        int n = 0;
        if (!mods || !tc__mma_name_find(mods + 1, &kind, &n)) {
            TC__RD_FAIL_TOK(&T->r, "mma needs a known kind, as in mma.m16n8k16.f16 or mma.wgmma.m64n128k16.f16 (got '%s')", word);
            return;
        }
        ins.mma = (uint8_t)kind;
        ins.count = n;
    } else {
        while (mods) {
            const char *m = mods + 1, *end = strchr(m, '.');
            size_t ml = end ? (size_t)(end - m) : strlen(m);
            if (strchr(slots, 'm') && m[0] == 'w' && ((ml == 2 && (m[1] == '4' || m[1] == '8')) || (ml == 3 && m[1] == '1' && m[2] == '6')))
                ins.addr.width = atoi(m + 1);
            else if (op == TC_SIM_LDSM && ml == 2 && m[0] == 'x' && (m[1] == '1' || m[1] == '2' || m[1] == '4'))
                ins.count = m[1] - '0';
            else { TC__RD_FAIL_TOK(&T->r, "'%s' has an unknown modifier '.%.*s'", word, (int)ml, m); return; }
            mods = end;
        }
        if (op == TC_SIM_LDSM && !ins.count) { TC__RD_FAIL_TOK(&T->r, "ldsm needs .x1, .x2 or .x4"); return; }
    }
    for (i = 0; slots[i]; i++) {
        if (!first && !tc__rd_char(&T->r, ',')) { tc__rd_fail(&T->r, "expected ',' before the next operand of %s", tc__tcs_ops[op].name); return; }
        first = 0;
        switch (slots[i]) {
        case 'm': {
            int width = ins.addr.width;
            if (!tc__tcs_mem_read(T, &ins.addr)) return;
            ins.addr.width = width;
            break;
        }
        case 'L': {
            char w[TC__TCS_NAME];
            int k;
            if (!tc__rd_word(&T->r, w, sizeof w, 0, "a label")) return;
            if ((k = tc__tcs_find(T->labels, T->nlabels, w)) >= 0) ins.target = T->labels[k].value;
            else if (op != TC_SIM_BRA_WARP) {
                TC__RD_FAIL_TOK(&T->r, "unknown label '%s' (a loop jumps back to a label above it)", w);
                return;
            } else if (T->nfix == TC__TCS_MAX_LABELS) {
                TC__RD_FAIL_TOK(&T->r, "more than %d branches to labels below them", TC__TCS_MAX_LABELS);
                return;
            } else {   /* resolved at the end */
                strcpy(T->fix[T->nfix].name, w);
                T->fix[T->nfix].pc = p->n;
                T->fix[T->nfix].line = T->r.line;
                T->fix[T->nfix].at = T->r.tok;
                T->fix[T->nfix++].line_start = T->r.line_start;
            }
            break;
        }
        case 'k': {
            int64_t v;
            if (!tc__rd_int(&T->r, TC__TCS_MAX_WARP, &v, "a warp index")) return;
            if (v < 0) { TC__RD_FAIL_TOK(&T->r, "a warp index is 0..%d", TC__TCS_MAX_WARP); return; }
            ins.count = (int32_t)v;
            break;
        }
        case 'n': {
            int64_t v;
            if (!tc__rd_int(&T->r, 1 << 24, &v, "a trip count")) return;
            if (v < 1) { TC__RD_FAIL_TOK(&T->r, "a loop runs 1..16777216 times"); return; }
            ins.count = (int32_t)v;
            break;
        }
        default:
            if (!tc__tcs_reg_read(T, 1, &reg)) return;
            if (slots[i] == 'd') ins.dst = (uint8_t)reg; else ins.src[slots[i] - '0'] = (uint8_t)reg;
            break;
        }
    }
    while (!tc__rd_eol(&T->r)) {
        char w[TC__TCS_NAME];
        int k;
        for (k = 0; k < 4 && !tc__tcs_ops[op].opt[k]; k++) {}
        if (k == 4) { tc__rd_fail(&T->r, "unexpected text after %s's operands", tc__tcs_ops[op].name); return; }
        if (!first && !tc__rd_char(&T->r, ',')) { tc__rd_fail(&T->r, "expected ',' or the end of the line"); return; }
        first = 0;
        if (!tc__rd_word(&T->r, w, sizeof w, 0, "an operand keyword")) return;
        for (k = 0; k < 4 && !(tc__tcs_ops[op].opt[k] && strcmp(tc__tcs_ops[op].opt[k], w) == 0); k++) {}
        if (k == 4) { TC__RD_FAIL_TOK(&T->r, "%s takes no operand '%s'", tc__tcs_ops[op].name, w); return; }
        if (ins.src[k] != TC_SIM_NOREG) { TC__RD_FAIL_TOK(&T->r, "'%s' given twice", w); return; }
        if (!tc__tcs_reg_read(T, 0, &reg)) return;
        ins.src[k] = (uint8_t)reg;
    }
    if (ins.addr.lane_table && ins.addr.lane_stride) { tc__rd_fail(&T->r, "a lane table and a lane stride together"); return; }
    if (tc_sim_emit(p, &ins) != TC_OK) tc__rd_fail(&T->r, "cannot add the instruction: %s", tc_status_string(p->status));
}

TCDEF tc_status tc_sim_program_parse(const char *text, size_t len, tc_sim_program *p, char *err, size_t err_cap) {
    tc__tcs *T;
    tc_status st = TC_OK;
    int i;
    if (err && err_cap) err[0] = '\0';
    if (!p) return TC_ERR_NULL;
    tc_sim_program_free(p);
    if (!text) return TC_ERR_NULL;
    if (len > TC__TCS_MAX_TEXT) {
        if (err && err_cap) snprintf(err, err_cap, "1:1: the text is longer than %lu bytes", (unsigned long)TC__TCS_MAX_TEXT);
        return TC_ERR_SIZE;
    }
    T = (tc__tcs *)tc__sim_calloc(1, sizeof *T);
    if (T) T->labels = (tc__tcs_sym *)tc__sim_calloc(TC__TCS_MAX_LABELS, sizeof *T->labels);
    if (T) T->fix = (tc__tcs_fix *)tc__sim_calloc(TC__TCS_MAX_LABELS, sizeof *T->fix);
    if (!T || !T->labels || !T->fix) {
        if (T) { TC_FREE(T->labels); TC_FREE(T->fix); TC_FREE(T); }
        return TC_ERR_NOMEM;
    }
    T->r.s = text; T->r.n = len; T->r.line = 1; T->r.err = err; T->r.err_cap = err_cap;
    T->p = p;
    while (!T->r.failed && T->r.i < T->r.n) {
        char w[64];
        tc__rd_space(&T->r);
        if (tc__rd_eol(&T->r)) { tc__rd_next_line(&T->r); continue; }
        if (tc__rd_peek(&T->r) == '.') { tc__tcs_directive(T); if (!T->r.failed) tc__rd_next_line(&T->r); continue; }
        if (!tc__rd_word(&T->r, w, sizeof w, 1, "an instruction, a label or a directive")) break;
        if (tc__rd_char(&T->r, ':')) {   /* a label, maybe followed by an instruction */
            if (strchr(w, '.') || strchr(w, '-') || strlen(w) >= TC__TCS_NAME) { tc__rd_fail(&T->r, "bad label name '%s'", w); break; }
            if (tc__tcs_find(T->labels, T->nlabels, w) >= 0) { TC__RD_FAIL_TOK(&T->r, "label '%s' defined twice", w); break; }
            if (T->nlabels == TC__TCS_MAX_LABELS) { tc__rd_fail(&T->r, "more than %d labels", TC__TCS_MAX_LABELS); st = TC_ERR_SIZE; break; }
            strcpy(T->labels[T->nlabels].name, w);
            T->labels[T->nlabels++].value = p->n;
            continue;
        }
        tc__tcs_instruction(T, w);
        if (T->r.failed) break;
        tc__rd_next_line(&T->r);
    }
    if (!T->r.failed && (p->n < 1 || p->code[p->n - 1].op != TC_SIM_EXIT)) tc__rd_fail(&T->r, "the program must end with exit");
    for (i = 0; !T->r.failed && i < T->nfix; i++) {
        int k = tc__tcs_find(T->labels, T->nlabels, T->fix[i].name);
        if (k >= 0 && T->labels[k].value < p->n) { p->code[T->fix[i].pc].target = T->labels[k].value; continue; }
        T->r.line = T->fix[i].line;
        T->r.line_start = T->fix[i].line_start;
        T->r.i = T->fix[i].at;
        tc__rd_fail(&T->r, k < 0 ? "unknown label '%s'" : "label '%s' has no instruction after it", T->fix[i].name);
    }
    if (T->r.failed) {
        if (st == TC_OK) st = p->status == TC_ERR_SIZE || p->status == TC_ERR_NOMEM ? p->status : TC_ERR_PROGRAM;
        tc_sim_program_free(p);
    }
    TC_FREE(T->labels);
    TC_FREE(T->fix);
    TC_FREE(T);
    return st;
}

/* ---- profiles as text: one row per tc_sim_profile field (MMA arrays
   apart), with the bounds tc_sim_profile_validate enforces. */
static const struct { const char *key; size_t offset; char type; double lo, hi; const char *what; } tc__prof_fields[] = {
    { "clock_ghz", offsetof(tc_sim_profile, clock_ghz), 'd', 0.01, 100.0, "SM clock in GHz (only converts cycles to seconds)" },
    { "sms", offsetof(tc_sim_profile, sms), 'i', 1, 4096, "streaming multiprocessors" },
    { "subpartitions", offsetof(tc_sim_profile, subpartitions), 'i', 1, 64, "schedulers per SM (warp w lives on w % subpartitions)" },
    { "max_warps_per_sm", offsetof(tc_sim_profile, max_warps_per_sm), 'i', 1, 1024, "resident warps per SM" },
    { "shared_bytes_per_sm", offsetof(tc_sim_profile, shared_bytes_per_sm), 'l', 0, 1073741824.0, "shared memory per SM, bytes" },
    { "banks", offsetof(tc_sim_profile, banks), 'i', 1, 128, "shared-memory banks (a power of two)" },
    { "bank_bytes", offsetof(tc_sim_profile, bank_bytes), 'i', 4, 8, "bytes per bank word (4 or 8)" },
    { "sector_bytes", offsetof(tc_sim_profile, sector_bytes), 'i', 16, 4096, "global-memory sector, bytes (a power of two)" },
    { "dram_latency", offsetof(tc_sim_profile, dram_latency), 'i', 1, TC__SIM_MAX_LATENCY, "cycles: a global load that misses L2" },
    { "l2_latency", offsetof(tc_sim_profile, l2_latency), 'i', 1, TC__SIM_MAX_LATENCY, "cycles: a global load that hits L2" },
    { "shared_latency", offsetof(tc_sim_profile, shared_latency), 'i', 1, TC__SIM_MAX_LATENCY, "cycles: a conflict-free shared load" },
    { "ffma_latency", offsetof(tc_sim_profile, ffma_latency), 'i', 1, TC__SIM_MAX_LATENCY, "cycles: FFMA issue to result" },
    { "ffma_interval", offsetof(tc_sim_profile, ffma_interval), 'i', 1, TC__SIM_MAX_LATENCY, "cycles between FFMAs on one sub-partition" },
    { "shared_wavefronts_per_cycle", offsetof(tc_sim_profile, shared_wavefronts_per_cycle), 'i', 0, 1024, "per SM; 0 = unlimited" },
    { "sm_bytes_per_cycle", offsetof(tc_sim_profile, sm_bytes_per_cycle), 'd', 0, 1073741824.0, "L2 -> SM bytes per cycle per SM; 0 = unlimited, else >= 1/64" },
    { "dram_bytes_per_cycle", offsetof(tc_sim_profile, dram_bytes_per_cycle), 'd', 0, 1073741824.0, "DRAM bytes per cycle, whole GPU; 0 = unlimited, else >= 1/64" },
    { "launch_overhead_us", offsetof(tc_sim_profile, launch_overhead_us), 'd', 0, 999999.0, "least time per kernel launched back to back; 0 = not modelled" },
    { "shfl_latency", offsetof(tc_sim_profile, shfl_latency), 'i', 1, TC__SIM_MAX_LATENCY, "cycles: SHFL issue to result" },
    { "shfl_interval", offsetof(tc_sim_profile, shfl_interval), 'i', 1, TC__SIM_MAX_LATENCY, "cycles between SHFLs on one SM" },
    { "int_latency", offsetof(tc_sim_profile, int_latency), 'i', 1, TC__SIM_MAX_LATENCY, "cycles: integer (IMAD class) issue to result" },
    { "int_interval", offsetof(tc_sim_profile, int_interval), 'i', 1, TC__SIM_MAX_LATENCY, "cycles between integer instructions on one sub-partition" },
    { "atoms_latency", offsetof(tc_sim_profile, atoms_latency), 'i', 1, TC__SIM_MAX_LATENCY, "cycles: a conflict-free shared atomic" },
    { "atomg_latency", offsetof(tc_sim_profile, atomg_latency), 'i', 1, TC__SIM_MAX_LATENCY, "cycles: a global atomic that hits L2" },
    { "atom_same_address_cycles", offsetof(tc_sim_profile, atom_same_address_cycles), 'i', 0, 1024, "global atomic: cycles per further lane on one address" },
    { "l1_latency", offsetof(tc_sim_profile, l1_latency), 'i', 0, TC__SIM_MAX_LATENCY, "cycles: a global load hitting L1; 0 = as a shared load" },
    { "graph_launch_us", offsetof(tc_sim_profile, graph_launch_us), 'd', 0, 999999.0, "least time per kernel replayed from a CUDA graph; 0 = not modelled" },
};

/* The shortest %g that reads back as the same double. */
static void tc__out_double(tc__out *o, double v) {
    char t[40];
    int prec;
    if (v == floor(v) && fabs(v) < 1e15) { tc__outf(o, "%.0f", v); return; }
    for (prec = 1; prec < 17; prec++) {
        snprintf(t, sizeof t, "%.*g", prec, v);
        if (strtod(t, NULL) == v) break;
    }
    tc__outf(o, "%.*g", prec, v);
}

static tc_status tc__sim_profile_print_in(const tc_sim_profile *g, char *buf, size_t cap, size_t *needed) {
    tc__out o;
    int f, k;
    if (needed) *needed = 0;
    if (buf && cap > 0) buf[0] = '\0';
    if (!g || (!buf && cap > 0)) return TC_ERR_NULL;
    o.buf = buf; o.cap = cap; o.len = 0;
    for (f = 0; f < TC__COUNT_OF(tc__prof_fields); f++) {
        const char *at = (const char *)g + tc__prof_fields[f].offset;
        size_t start = o.len;
        tc__outf(&o, "%s = ", tc__prof_fields[f].key);
        if (tc__prof_fields[f].type == 'd') { double v; memcpy(&v, at, sizeof v); tc__out_double(&o, v); }
        else if (tc__prof_fields[f].type == 'l') { int64_t v; memcpy(&v, at, sizeof v); tc__outf(&o, "%lld", (long long)v); }
        else { int v; memcpy(&v, at, sizeof v); tc__outf(&o, "%d", v); }
        tc__outf(&o, "%*s# %s\n", (int)(start + 40 > o.len ? start + 40 - o.len : 1), "", tc__prof_fields[f].what);
    }
    for (k = 0; k < TC_MMA_INSTR_COUNT; k++) {
        tc_mma_instr_info info;
        if (!g->mma_latency[k] && !g->mma_interval[k]) continue;
        tc_mma_instr_get((tc_mma_instr)k, &info);
        tc__outf(&o, "mma_latency.%s = %d   # cycles, issue to result%s\n", info.name, g->mma_latency[k],
                 !info.n_step ? "" : info.threads > 32 ? " (one warp's quarter at the largest N; scaled by N)"
                                                      : " (the whole instruction, one warp issues it, at the largest N; scaled by N)");
        tc__outf(&o, "mma_interval.%s = %d   # cycles between issues on one sub-partition%s\n", info.name, g->mma_interval[k],
                 info.n_step ? " (same)" : "");
    }
    return tc__out_finish(&o, needed);
}
TCDEF tc_status tc_sim_profile_print(const tc_sim_profile *g, char *buf, size_t cap, size_t *needed) {
    TC__IN_DEFAULT_FP(tc_status, tc__sim_profile_print_in(g, buf, cap, needed));
}

static tc_status tc__sim_profile_parse_in(const char *text, size_t len, tc_sim_profile *g, char *err, size_t err_cap) {
    tc__rd r;
    int keys = 0;   /* keys read so far: base must be the first */
    if (err && err_cap) err[0] = '\0';
    if (!text || !g) return TC_ERR_NULL;
    memset(&r, 0, sizeof r);
    r.s = text; r.n = len; r.line = 1; r.err = err; r.err_cap = err_cap;
    if (len > TC__TCS_MAX_TEXT) { tc__rd_fail(&r, "the text is longer than %lu bytes", (unsigned long)TC__TCS_MAX_TEXT); return TC_ERR_PROFILE; }
    while (!r.failed && r.i < r.n) {
        char key[64], num[64];
        size_t at;
        int f, k = -1, *mma = NULL;
        double v;
        if (tc__rd_eol(&r)) { tc__rd_next_line(&r); continue; }
        at = r.i;
        if (!tc__rd_word(&r, key, sizeof key, 1, "a key")) break;
        if (strcmp(key, "base") == 0) {
            char name[64];
            const tc_gpu *gpu;
            if (keys) { TC__RD_FAIL_TOK(&r, "base must come before every other key"); break; }
            if (!tc__rd_char(&r, '=')) { tc__rd_fail(&r, "base: expected '=' after the key"); break; }
            if (!tc__rd_word(&r, name, sizeof name, 1, "a GPU name (tcsim profiles lists them)")) break;
            if (!(gpu = tc_gpu_find(name))) { TC__RD_FAIL_TOK(&r, "base: unknown GPU '%s' (tcsim profiles lists them)", name); break; }
            if (!tc__rd_eol(&r)) { tc__rd_fail(&r, "base: unexpected text after the GPU name"); break; }
            *g = gpu->profile;
            keys++;
            tc__rd_next_line(&r);
            continue;
        }
        keys++;
        for (f = 0; f < TC__COUNT_OF(tc__prof_fields) && strcmp(key, tc__prof_fields[f].key) != 0; f++) {}
        if (f == TC__COUNT_OF(tc__prof_fields)) {
            tc_mma_instr kind;
            if (strncmp(key, "mma_latency.", 12) == 0 && tc_mma_instr_find(key + 12, &kind) == TC_OK) mma = g->mma_latency;
            else if (strncmp(key, "mma_interval.", 13) == 0 && tc_mma_instr_find(key + 13, &kind) == TC_OK) mma = g->mma_interval;
            else { TC__RD_FAIL_TOK(&r, "unknown key '%s' (tcsim show-profile lists them)", key); break; }
            k = (int)kind;
        }
        if (!tc__rd_char(&r, '=')) { tc__rd_fail(&r, "%s: expected '=' after the key", key); break; }
        tc__rd_space(&r);
        at = r.i;
        {
            size_t m = 0;
            char *end = NULL;
            while (r.i < r.n && tc__rd_is_word((unsigned char)r.s[r.i], 1) | (r.s[r.i] == '+')) {
                if (m + 1 >= sizeof num) { r.i = at; tc__rd_fail(&r, "%s: the value is too long", key); break; }
                num[m++] = r.s[r.i++];
            }
            if (r.failed) break;
            num[m] = '\0';
            v = m ? strtod(num, &end) : 0.0;
            if (!m || *end || !(v == v) || v - v != 0.0) { r.i = at; tc__rd_fail(&r, "%s: '%s' is not a finite number", key, num); break; }
        }
        if (mma || tc__prof_fields[f].type != 'd') {
            double lo = mma ? 0 : tc__prof_fields[f].lo, hi = mma ? TC__SIM_MAX_LATENCY : tc__prof_fields[f].hi;
            if (v != floor(v) || v < lo || v > hi) { r.i = at; tc__rd_fail(&r, "%s: must be an integer in %.0f..%.0f", key, lo, hi); break; }
            if (mma) mma[k] = (int)v;
            else if (tc__prof_fields[f].type == 'l') { int64_t x = (int64_t)v; memcpy((char *)g + tc__prof_fields[f].offset, &x, sizeof x); }
            else { int x = (int)v; memcpy((char *)g + tc__prof_fields[f].offset, &x, sizeof x); }
        } else {
            if (v < tc__prof_fields[f].lo || v > tc__prof_fields[f].hi) {
                r.i = at;
                tc__rd_fail(&r, "%s: must be in [%g, %g]", key, tc__prof_fields[f].lo, tc__prof_fields[f].hi);
                break;
            }
            memcpy((char *)g + tc__prof_fields[f].offset, &v, sizeof v);
        }
        if (!tc__rd_eol(&r)) { tc__rd_fail(&r, "%s: unexpected text after the value", key); break; }
        tc__rd_next_line(&r);
    }
    return r.failed ? TC_ERR_PROFILE : TC_OK;
}
TCDEF tc_status tc_sim_profile_parse(const char *text, size_t len, tc_sim_profile *g, char *err, size_t err_cap) {
    TC__IN_DEFAULT_FP(tc_status, tc__sim_profile_parse_in(text, len, g, err, err_cap));
}

/* ------------------------------------------------ section 6: tiling */

/* The machine is a tc_gpu: its profile for rates, latencies and sizes,
   its occupancy limits for the rest. */
static const tc_sim_profile *tc__tile_profile(const tc_gpu *m) { return m ? &m->profile : NULL; }

TCDEF const char *tc_tile_limit_name(tc_tile_limit l) {
    static const char *const names[] = { "compute", "shared", "issue", "L2", "latency", "DRAM" };
    if ((int)l < 0 || (int)l >= TC__COUNT_OF(names)) return "unknown";
    return names[l];
}

/* Bytes per element of an operand in global and shared memory. */
static int tc__tile_elem_bytes(tc_dtype t) {
    switch (t) {
    case TC_FP32: case TC_TF32: return 4;
    case TC_FP16: case TC_BF16: return 2;
    case TC_E4M3: case TC_E5M2: return 1;
    default: return 0;
    }
}

static int64_t tc__tile_cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Direct loads hit L1, whose bandwidth is the shared memory's (the same
   SRAM: jm-bw-l1-*-h100-sxm measure 124-126 bytes/clock/SM beside shared's
   127.5) but whose hit latency is the profile's L1 figure (0: a shared
   load's). */
static int tc__tile_l1_latency(const tc_sim_profile *g) { return g->l1_latency ? g->l1_latency : g->shared_latency; }

/* The dense instruction of the table for a type and shape, or -1: an
   mma.sync (a warp's), or a wgmma (a warpgroup's, m 64, any N its row
   allows). */
static int tc__tile_mma_instr(tc_dtype in, int im, int in_, int ik, int sparse) {
    int i;
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++) {
        const tc_mma_instr_info *I = &tc__mma_instrs[i];
        if (!I->sparse_group != !sparse || I->in != in || I->b_type != in || I->m != im || I->k != ik) continue;
        if (I->threads == 32 && I->n == in_) return i;
        if (I->threads == 128 && tc_mma_instr_n_ok((tc_mma_instr)i, in_)) return i;
    }
    return -1;
}

/* Warps that issue one instruction of the tiling together: 4 for a wgmma,
   whose warp_m x warp_n is then one warpgroup's tile; 1 otherwise. */
static int tc__tile_parts(const tc_tile_desc *d) {
    int kind = d->in == TC_FP32 ? -1 : tc__tile_mma_instr(d->in, d->inst_m, d->inst_n, d->inst_k, d->sparse);
    return kind < 0 ? 1 : tc__mma_warps(&tc__mma_instrs[kind]);
}

/* A's pattern: keep of every group values along K are stored (1 of 1 when
   dense), with 4 bits of metadata per group (tc_sparse_meta_words). */
static void tc__tile_sparsity(const tc_tile_desc *d, int *group, int *keep) {
    int kind = d->sparse && d->in != TC_FP32 ? tc__tile_mma_instr(d->in, d->inst_m, d->inst_n, d->inst_k, 1) : -1;
    *group = kind < 0 ? 1 : tc__mma_instrs[kind].sparse_group;
    *keep = kind < 0 ? 1 : tc__mma_instrs[kind].sparse_keep;
}

/* Metadata bytes of `rows` rows of A over k of K (0 when dense). */
static double tc__tile_meta_bytes(const tc_tile_desc *d, double rows, double k) {
    int group, keep;
    tc__tile_sparsity(d, &group, &keep);
    return d->sparse ? rows * (k / group) / 2.0 : 0.0;
}

/* The simulator's latency and interval of one warp's share of the
   instruction at width inst_n (section 5's scaling of a wgmma by N);
   returns its multiply-adds. */
static double tc__tile_mma_timing(const tc_sim_profile *g, int kind, int inst_n, int *latency, int *interval) {
    tc_sim_instr ins;
    memset(&ins, 0, sizeof ins);
    ins.mma = (uint8_t)kind;
    ins.count = tc__mma_instrs[kind].n_step ? inst_n : 0;
    return tc__sim_mma_timing(g, &ins, latency, interval);
}

/* Multiply-adds per clock per SM: a pipe per sub-partition accepts one
   instruction every `interval` cycles. */
static double tc__tile_fma_per_clk(const tc_gpu *m, tc_dtype in, int inst_m, int inst_n, int inst_k, int sparse) {
    const tc_sim_profile *g = tc__tile_profile(m);
    int kind;
    if (!g || g->ffma_interval < 1) return 0.0;
    if (in == TC_FP32) return sparse ? 0.0 : (double)g->subpartitions * 32.0 / g->ffma_interval;
    kind = tc__tile_mma_instr(in, inst_m, inst_n, inst_k, sparse);
    if (kind < 0 || g->mma_latency[kind] < 1 || g->mma_interval[kind] < 1) return 0.0;
    {
        int latency, interval;
        const double fma = tc__tile_mma_timing(g, kind, inst_n, &latency, &interval);
        return (double)g->subpartitions * fma / interval;
    }
}

static double tc__tile_fma_per_clk_in(const tc_gpu *m, tc_dtype in, int inst_m, int inst_n, int inst_k) {
    return tc__tile_fma_per_clk(m, in, inst_m, inst_n, inst_k, 0);
}
TCDEF double tc_tile_fma_per_clk(const tc_gpu *m, tc_dtype in, int inst_m, int inst_n, int inst_k) {
    TC__IN_DEFAULT_FP(double, tc__tile_fma_per_clk_in(m, in, inst_m, inst_n, inst_k));
}

TCDEF double tc_tile_shared_bytes_per_clk(const tc_gpu *m) {
    const tc_sim_profile *g = tc__tile_profile(m);
    return g ? (double)g->shared_wavefronts_per_cycle * g->banks * g->bank_bytes : 0.0;
}

/* The dependent load rounds of a single-buffered iteration: as asked, but
   no more than a warp's loads (a round needs one). */
static double tc__tile_rounds(const tc_tile_desc *d, int64_t loads_per_warp) {
    int64_t want = d->load_rounds > 1 ? d->load_rounds : 1;
    return (double)(want < loads_per_warp ? want : loads_per_warp > 1 ? loads_per_warp : 1);
}

/* Register estimate: fp32 accumulators of the thread's share of the warp
   (or warpgroup) tile, one step of A and B fragments (double-buffered; a
   wgmma reads both from shared memory), 40 for addresses, indices and loop
   state. */
static int tc__tile_regs_estimate(const tc_tile_desc *d) {
    int eb = tc__tile_elem_bytes(d->in), parts = tc__tile_parts(d), group, keep;
    int64_t acc = (int64_t)d->warp_m * d->warp_n / (32 * parts), frag;
    tc__tile_sparsity(d, &group, &keep);
    /* a sparse A fragment holds the kept values, plus one metadata register per instruction row block */
    frag = parts > 1 ? 0 : ((int64_t)d->warp_m * keep / group + d->warp_n) * d->inst_k * eb / 128 +
                           (d->sparse ? d->warp_m / d->inst_m : 0);
    if (d->in == TC_FP32) frag = (int64_t)d->warp_m / d->inst_m + d->warp_n / d->inst_n;
    return (int)(acc + 2 * frag + 40);
}

static tc_status tc__tile_fail(const char **why, const char *msg, tc_status s) {
    if (why) *why = msg;
    return s;
}

/* The checks, in the order a designer meets them; fills the derived
   occupancy numbers into r when r is not NULL. */
static tc_status tc__tile_validate(const tc_gpu *m, const tc_tile_desc *d, const char **why, tc_tile_result *r) {
    int eb, warps, threads, stages, regs, regs_alloc, ctas_regs, ctas_shared, ctas_warps;
    int64_t smem;
    const tc_sim_profile *g;
    if (why) *why = "ok";
    if (!m || !d) return tc__tile_fail(why, "machine or descriptor is NULL", TC_ERR_NULL);
    g = tc__tile_profile(m);
    if (tc_sim_profile_validate(g, why) != TC_OK) return TC_ERR_PROFILE;
    if (!(g->sm_bytes_per_cycle > 0.0) || !(g->dram_bytes_per_cycle > 0.0) || g->shared_wavefronts_per_cycle < 1)
        return tc__tile_fail(why, "the profile leaves shared, L2 -> SM or DRAM bandwidth unmodelled (0)", TC_ERR_PROFILE);
    if (m->occupancy.max_ctas_per_sm < 1 || m->occupancy.max_ctas_per_sm > 1024 ||
        m->occupancy.max_threads_per_cta < 32 || m->occupancy.max_threads_per_cta > 65536 ||
        m->occupancy.shared_bytes_per_cta < 0 || m->occupancy.shared_bytes_per_cta > ((int64_t)1 << 30) ||
        m->occupancy.shared_reserved_per_cta < 0 || m->occupancy.shared_reserved_per_cta > ((int64_t)1 << 30) ||
        m->occupancy.regs_per_sm < 1 || m->occupancy.regs_per_sm > (1 << 24) ||
        m->occupancy.max_regs_per_thread < 1 || m->occupancy.max_regs_per_thread > 65536 ||
        m->occupancy.reg_alloc_unit < 1 || m->occupancy.reg_alloc_unit > 65536)
        return tc__tile_fail(why, "an occupancy limit of the machine is out of its range (see tc_occupancy)", TC_ERR_ARG);
    if (d->M < 1 || d->N < 1 || d->K < 1) return tc__tile_fail(why, "M, N and K must be at least 1", TC_ERR_SIZE);
    if (d->cta_m < 1 || d->cta_n < 1 || d->cta_k < 1 || d->warp_m < 1 || d->warp_n < 1 ||
        d->inst_m < 1 || d->inst_n < 1 || d->inst_k < 1)
        return tc__tile_fail(why, "every tile and instruction size must be at least 1", TC_ERR_SIZE);
    if (d->cta_m > 4096 || d->cta_n > 4096 || d->cta_k > 4096)
        return tc__tile_fail(why, "CTA tile sizes must be at most 4096", TC_ERR_SIZE);
    if (d->stages < 0 || d->stages > 16 || d->pad_a < 0 || d->pad_b < 0 || d->pad_a > 256 || d->pad_b > 256 ||
        d->regs_per_thread < 0)
        return tc__tile_fail(why, "stages must be 0..16, pads 0..256, regs_per_thread >= 0", TC_ERR_SIZE);
    if (d->staging != TC_TILE_SHARED && d->staging != TC_TILE_DIRECT)
        return tc__tile_fail(why, "unknown staging", TC_ERR_ARG);
    if (d->staging == TC_TILE_DIRECT && (d->stages > 0 || d->pad_a > 0 || d->pad_b > 0))
        return tc__tile_fail(why, "direct loads use no shared memory: stages and pads must be 0", TC_ERR_ARG);
    if (d->sparse != 0 && d->sparse != 1) return tc__tile_fail(why, "sparse must be 0 or 1", TC_ERR_ARG);
    if (d->load_rounds < 0 || d->load_rounds > 64) return tc__tile_fail(why, "load_rounds must be 0..64", TC_ERR_SIZE);
    if (d->load_rounds > 1 && (d->stages >= 2 || d->staging != TC_TILE_SHARED))
        return tc__tile_fail(why, "load_rounds > 1 needs one buffer filled through registers (stages 0 or 1, shared staging): "
                                  "cp.async and direct loads have no shared store to wait", TC_ERR_ARG);
    eb = tc__tile_elem_bytes(d->in);
    if (eb == 0) return tc__tile_fail(why, "unknown input type", TC_ERR_DTYPE);
    if (d->in == TC_FP32) {
        if (d->sparse) return tc__tile_fail(why, "FFMA has no sparse form: sparse needs a Tensor Core input type", TC_ERR_TILE_INST);
        if (d->inst_m > 32 || d->inst_n > 32 || d->inst_m * d->inst_n != 32 || d->inst_k != 1)   /* no int overflow */
            return tc__tile_fail(why, "an FFMA instruction is 32 lanes: inst_m * inst_n = 32, inst_k = 1", TC_ERR_TILE_INST);
    } else if (!(tc__tile_fma_per_clk(m, d->in, d->inst_m, d->inst_n, d->inst_k, d->sparse) > 0.0)) {
        return tc__tile_fail(why, d->sparse ? "no mma.sp of this shape (inst_k the dense K) for this input type on this machine"
                                            : "no mma.sync or wgmma of this shape for this input type on this machine", TC_ERR_TILE_INST);
    }
    if (tc__tile_parts(d) > 1 && d->staging != TC_TILE_SHARED)
        return tc__tile_fail(why, "a wgmma reads A and B from shared memory: staging must be TC_TILE_SHARED", TC_ERR_ARG);
    if (d->sparse && (tc__tile_parts(d) > 1 || d->staging != TC_TILE_SHARED))
        return tc__tile_fail(why, "sparse tilings model mma.sp staged through shared memory (wgmma.sp and direct loads are not modelled)", TC_ERR_ARG);
    if (d->cta_m % d->warp_m || d->cta_n % d->warp_n)
        return tc__tile_fail(why, "the warp tile does not divide the CTA tile", TC_ERR_TILE_DIVIDE);
    if (d->warp_m % d->inst_m || d->warp_n % d->inst_n)
        return tc__tile_fail(why, "the instruction does not divide the warp tile", TC_ERR_TILE_DIVIDE);
    if (d->cta_k % d->inst_k)
        return tc__tile_fail(why, "cta_k is not a multiple of the instruction's K", TC_ERR_TILE_KSTEP);
    warps = (d->cta_m / d->warp_m) * (d->cta_n / d->warp_n);
    warps *= tc__tile_parts(d);
    if (warps > m->occupancy.max_threads_per_cta / 32 || warps > g->max_warps_per_sm)
        return tc__tile_fail(why, "more threads per CTA than the machine allows", TC_ERR_TILE_THREADS);
    threads = warps * 32;
    stages = d->stages ? d->stages : 1;
    smem = 0;
    if (d->staging == TC_TILE_SHARED) {
        int group, keep;
        tc__tile_sparsity(d, &group, &keep);
        smem = (int64_t)stages * (((int64_t)d->cta_m * (d->cta_k / group * keep + d->pad_a) + (int64_t)d->cta_k * (d->cta_n + d->pad_b)) * eb +
                                  (int64_t)tc__tile_meta_bytes(d, d->cta_m, d->cta_k));
    }
    if (smem > m->occupancy.shared_bytes_per_cta || smem + m->occupancy.shared_reserved_per_cta > g->shared_bytes_per_sm)
        return tc__tile_fail(why, "the CTA's shared memory (stages x (A tile + B tile)) is over the machine's per-CTA limit", TC_ERR_TILE_SHARED);
    /* Direct loads use no shared memory, but the simulated main loop
       (tc_tile_predict) models their L1 traffic as one buffer of the CTA's
       tiles in the simulated shared memory: it must fit there. */
    if (d->staging == TC_TILE_DIRECT &&
        ((int64_t)d->cta_m * d->cta_k + (int64_t)d->cta_k * d->cta_n) * eb > g->shared_bytes_per_sm)
        return tc__tile_fail(why, "direct loads: the CTA's A and B tiles, which the simulated main loop keeps in L1 as a shared buffer, exceed the SM's shared memory", TC_ERR_TILE_SHARED);
    if ((int64_t)d->warp_m * d->warp_n / (32 * tc__tile_parts(d)) > m->occupancy.max_regs_per_thread)
        return tc__tile_fail(why, "the warp tile's fp32 accumulators alone (warp_m * warp_n / 32 per thread, a warpgroup's / 128) exceed the registers a thread may have", TC_ERR_TILE_REGS);
    regs = d->regs_per_thread ? d->regs_per_thread : tc__tile_regs_estimate(d);
    if (regs > m->occupancy.max_regs_per_thread)
        return tc__tile_fail(why, "more registers per thread than the machine allows (spills)", TC_ERR_TILE_REGS);
    regs_alloc = (int)tc__tile_cdiv(regs, m->occupancy.reg_alloc_unit) * m->occupancy.reg_alloc_unit;
    ctas_regs = m->occupancy.regs_per_sm / (regs_alloc * 32) / warps;
    if (ctas_regs < 1)
        return tc__tile_fail(why, "one CTA's registers exceed the SM's register file", TC_ERR_TILE_REGS);
    ctas_shared = smem + m->occupancy.shared_reserved_per_cta > 0 ? (int)(g->shared_bytes_per_sm / (smem + m->occupancy.shared_reserved_per_cta))
                                                         : m->occupancy.max_ctas_per_sm;
    ctas_warps = g->max_warps_per_sm / warps;
    if (r) {
        r->warps_per_cta = warps;
        r->threads_per_cta = threads;
        r->regs_per_thread = regs;
        r->shared_per_cta = smem;
        r->ctas_by_regs = ctas_regs < m->occupancy.max_ctas_per_sm ? ctas_regs : m->occupancy.max_ctas_per_sm;
        r->ctas_by_shared = ctas_shared < m->occupancy.max_ctas_per_sm ? ctas_shared : m->occupancy.max_ctas_per_sm;
        r->ctas_by_warps = ctas_warps < m->occupancy.max_ctas_per_sm ? ctas_warps : m->occupancy.max_ctas_per_sm;
        r->ctas_per_sm = r->ctas_by_regs;
        if (r->ctas_by_shared < r->ctas_per_sm) r->ctas_per_sm = r->ctas_by_shared;
        if (r->ctas_by_warps < r->ctas_per_sm) r->ctas_per_sm = r->ctas_by_warps;
        r->warps_per_sm = r->ctas_per_sm * warps;
    }
    return TC_OK;
}

TCDEF tc_status tc_tile_check(const tc_gpu *m, const tc_tile_desc *d, const char **why) {
    return tc__tile_validate(m, d, why, NULL);
}

/* Widest global access (bytes per thread, at most 16) that every row start
   of A (K elements apart) and B (N elements apart) allows: 4097 fp16 columns
   leave rows 2-byte aligned, so the loads cannot be 16-byte vectors. */
static int tc__tile_vector_bytes(const tc_tile_desc *d, int eb) {
    int v = 16, group, keep;
    tc__tile_sparsity(d, &group, &keep);
    while (v > eb && (((int64_t)d->K / group * keep * eb) % v || ((int64_t)d->N * eb) % v)) v /= 2;
    return v;
}

/* Loads of one operand slice per k by an FFMA warp: `per_thread` values,
   as 16-byte vectors when they come in fours; each instruction costs one
   wavefront per 128 distinct bytes (lanes reading the same value share). */
static void tc__tile_ffma_loads(int per_thread, int distinct_lanes, double *instrs, double *wavefronts) {
    int vec = per_thread % 4 == 0 ? 4 : 1;
    int n = per_thread / vec;
    *instrs += n;
    *wavefronts += (double)n * (double)tc__tile_cdiv((int64_t)distinct_lanes * vec * 4, 128);
}

/* Cycles of one wave in which the busiest SM runs r CTAs, each main-loop
   iteration of the r together costing per_iter. */
static double tc__tile_wave_cycles(const tc_sim_profile *g, const tc_tile_desc *d, const tc_tile_result *o, int r, double per_iter) {
    double store = (double)r * d->cta_m * d->cta_n * sizeof(float) / g->sm_bytes_per_cycle;
    return (double)o->k_iters * per_iter + g->dram_latency + store;
}

/* The SM resource the analytic counts say sets the time: the largest
   throughput cost, or the latency floor when the CTAs of the busiest wave
   cannot cover it. */
static tc_tile_limit tc__tile_sm_limit(const tc_tile_result *o) {
    tc_tile_limit l = TC_TILE_LIMIT_COMPUTE;
    int i, busy = o->ctas >= o->concurrent_ctas ? o->ctas_per_sm : o->last_wave_ctas_per_sm;
    for (i = TC_TILE_LIMIT_COMPUTE; i <= TC_TILE_LIMIT_L2; i++)
        if (o->iter_cycles[i] > o->iter_cycles[l]) l = (tc_tile_limit)i;
    return o->iter_cycles[TC_TILE_LIMIT_LATENCY] > busy * o->iter_cost ? TC_TILE_LIMIT_LATENCY : l;
}

/* The analytic cost of one iteration of r CTAs together: max(r W, L). */
static double tc__tile_analytic_iter(const tc_tile_result *o, int r) {
    return r * o->iter_cost > o->iter_cycles[TC_TILE_LIMIT_LATENCY] ? r * o->iter_cost : o->iter_cycles[TC_TILE_LIMIT_LATENCY];
}

/* The time of all waves from the cost of one iteration with the full and
   the last wave's CTAs per SM; sets predicted_*, and limit to DRAM when
   the compulsory traffic takes longer. */
static void tc__tile_finish(const tc_sim_profile *g, const tc_tile_desc *d, tc_tile_result *r, double iter_full, double iter_last) {
    int64_t full_waves = r->ctas / r->concurrent_ctas, rem = r->ctas - full_waves * r->concurrent_ctas;
    double sm_s, dram_s = r->dram_bytes / (g->dram_bytes_per_cycle * g->clock_ghz * 1e9);
    r->predicted_cycles = (double)full_waves * tc__tile_wave_cycles(g, d, r, r->ctas_per_sm, iter_full) +
                          (rem ? tc__tile_wave_cycles(g, d, r, r->last_wave_ctas_per_sm, iter_last) : 0.0);
    sm_s = r->predicted_cycles / (g->clock_ghz * 1e9);
    if (dram_s > sm_s) r->limit = TC_TILE_LIMIT_DRAM;
    r->predicted_s = dram_s > sm_s ? dram_s : sm_s;
    r->predicted_flops_per_s = r->flops / r->predicted_s;
}

static tc_status tc__tile_model_in(const tc_gpu *m, const tc_tile_desc *d, tc_tile_result *out, const char **why) {
    tc_tile_result r;
    tc_status s;
    const tc_sim_profile *g;
    int eb, stages, vec, i, warps, parts, group, keep, mma_latency = 0, mma_interval = 0;
    double inst_w, lds_w = 0.0, wave_rd = 0.0, meta_rd = 0.0, wave_st, gl_bytes, gl_instr, issue_w, chain, flop_per_inst;
    double compute_rate, dram_bytes_per_s, a_share;
    int64_t rem;
    if (!out) return tc__tile_fail(why, "out is NULL", TC_ERR_NULL);
    memset(&r, 0, sizeof r);
    *out = r;
    s = tc__tile_validate(m, d, why, &r);
    if (s != TC_OK) return s;
    g = tc__tile_profile(m);
    dram_bytes_per_s = g->dram_bytes_per_cycle * g->clock_ghz * 1e9;
    if (d->in != TC_FP32) tc__tile_mma_timing(g, tc__tile_mma_instr(d->in, d->inst_m, d->inst_n, d->inst_k, d->sparse), d->inst_n, &mma_latency, &mma_interval);
    parts = tc__tile_parts(d);
    eb = tc__tile_elem_bytes(d->in);
    stages = d->stages ? d->stages : 1;
    warps = r.warps_per_cta;
    tc__tile_sparsity(d, &group, &keep);
    a_share = (double)keep / group;   /* of A's values, the stored ones */

    /* the grid and its counts */
    r.ctas_m = tc__tile_cdiv(d->M, d->cta_m);
    r.ctas_n = tc__tile_cdiv(d->N, d->cta_n);
    r.ctas = r.ctas_m * r.ctas_n;
    r.k_iters = tc__tile_cdiv(d->K, d->cta_k);
    r.flops = 2.0 * d->M * (double)d->N * d->K;
    inst_w = (double)(d->warp_m / d->inst_m) * (d->warp_n / d->inst_n) * (d->cta_k / d->inst_k);
    r.instructions = (double)r.ctas * warps * (double)r.k_iters * inst_w;
    /* one CTA, one iteration (a sparse A: its stored values and metadata) */
    gl_bytes = ((double)d->cta_m * a_share + d->cta_n) * d->cta_k * eb + tc__tile_meta_bytes(d, d->cta_m, d->cta_k);
    r.l2_bytes = (double)r.ctas * r.k_iters * gl_bytes + (double)d->M * d->N * sizeof(float);
    r.dram_bytes = ((double)d->M * d->K * a_share + (double)d->K * d->N) * eb + tc__tile_meta_bytes(d, d->M, d->K) +
                   (double)d->M * d->N * sizeof(float);
    r.intensity = r.flops / r.dram_bytes;
    r.intensity_l2 = r.flops / r.l2_bytes;

    /* one warp's shared-memory (or L1) reads per iteration */
    if (d->in == TC_FP32) {
        double lds_k = 0.0, wave_k = 0.0;
        tc__tile_ffma_loads(d->warp_m / d->inst_m, d->inst_m, &lds_k, &wave_k);
        tc__tile_ffma_loads(d->warp_n / d->inst_n, d->inst_n, &lds_k, &wave_k);
        lds_w = lds_k * d->cta_k;
        wave_rd = wave_k * d->cta_k;
    } else if (parts > 1) {
        /* a wgmma's Tensor Cores read its 64 x K slice of A and N x K of B
           from shared memory, each instruction anew (no instruction issues
           for them); a warp's share of the warpgroup's reads */
        double bytes = (double)(d->warp_m / d->inst_m) * (d->warp_n / d->inst_n) * (d->cta_k / d->inst_k) *
                       ((double)d->inst_m + d->inst_n) * d->inst_k * eb;
        wave_rd = bytes / 128.0 / parts;
    } else {
        /* ldmatrix.x4: 32 lanes x 16 bytes per instruction, 4 wavefronts; a sparse
           A fragment's metadata word: one LDS of 4 bytes a lane (one wavefront) per
           instruction row block and K step */
        double a = (double)d->warp_m * d->cta_k * a_share * eb, b = (double)d->warp_n * d->cta_k * eb;
        meta_rd = d->sparse ? (double)(d->warp_m / d->inst_m) * (d->cta_k / d->inst_k) : 0.0;
        lds_w = (double)tc__tile_cdiv((int64_t)a, 512) + (double)tc__tile_cdiv((int64_t)b, 512) + meta_rd;
        wave_rd = (double)tc__tile_cdiv((int64_t)a, 128) + (double)tc__tile_cdiv((int64_t)b, 128) + meta_rd;
    }
    r.shared_bytes = (double)r.ctas * r.k_iters * warps *
                     (d->in == TC_FP32 || parts == 1 ? ((double)d->warp_m * a_share + d->warp_n) * d->cta_k * eb + meta_rd * 128.0
                                                     : wave_rd * 128.0);

    /* global loads of one CTA-iteration: cp.async (one instruction per
       vector), or LDG + STS through registers; direct loads are the LDS
       counted above, issued to global memory instead */
    vec = tc__tile_vector_bytes(d, eb);
    wave_st = 0.0;
    gl_instr = 0.0;
    if (d->staging == TC_TILE_SHARED) {
        gl_instr = (double)tc__tile_cdiv((int64_t)gl_bytes, (int64_t)32 * vec) * (stages >= 2 ? 1 : 2);
        wave_st = (double)tc__tile_cdiv((int64_t)gl_bytes, 128);
        r.shared_bytes += (double)r.ctas * r.k_iters * gl_bytes;
    }
    /* 4 loop-overhead instructions (assumption); barriers: a single buffer
       syncs after filling and before refilling, a pipeline once */
    issue_w = inst_w + lds_w + 4.0 + (d->staging == TC_TILE_SHARED ? (stages >= 2 ? 1.0 : 2.0) : 0.0);

    flop_per_inst = (double)d->inst_m * d->inst_n * d->inst_k / parts;   /* one warp's share */
    compute_rate = tc__tile_fma_per_clk(m, d->in, d->inst_m, d->inst_n, d->inst_k, d->sparse);
    r.iter_cycles[TC_TILE_LIMIT_COMPUTE] = warps * inst_w * flop_per_inst / compute_rate;
    r.iter_cycles[TC_TILE_LIMIT_SHARED] = (warps * wave_rd + wave_st) * 128.0 / tc_tile_shared_bytes_per_clk(m);
    r.iter_cycles[TC_TILE_LIMIT_ISSUE] = (warps * issue_w + gl_instr) / g->subpartitions;
    r.iter_cycles[TC_TILE_LIMIT_L2] = gl_bytes / g->sm_bytes_per_cycle;
    r.iter_cost = 0.0;
    for (i = TC_TILE_LIMIT_COMPUTE; i <= TC_TILE_LIMIT_L2; i++)
        if (r.iter_cycles[i] > r.iter_cost) r.iter_cost = r.iter_cycles[i];

    /* the latency floor of one iteration */
    chain = (double)(d->cta_k / d->inst_k) * (d->in == TC_FP32 ? g->ffma_latency : mma_latency);
    if (d->staging == TC_TILE_DIRECT)
        r.iter_cycles[TC_TILE_LIMIT_LATENCY] = tc__tile_l1_latency(g) + chain;
    else if (stages == 1)   /* one buffer: the CTA loads (in rounds, each waiting for the last), waits, then computes:
                               its own work adds on */
        r.iter_cycles[TC_TILE_LIMIT_LATENCY] = tc__tile_rounds(d, (int64_t)tc__tile_cdiv(tc__tile_cdiv((int64_t)gl_bytes, (int64_t)32 * vec), warps)) *
                                               (double)g->l2_latency + 2.0 * g->shared_latency + r.iter_cost;
    else {
        double lat_g = (double)g->l2_latency / (stages - 1), lat_s = g->shared_latency + chain;
        r.iter_cycles[TC_TILE_LIMIT_LATENCY] = lat_g > lat_s ? lat_g : lat_s;
    }

    /* waves */
    r.concurrent_ctas = (int64_t)g->sms * r.ctas_per_sm;
    r.waves = tc__tile_cdiv(r.ctas, r.concurrent_ctas);
    rem = r.ctas % r.concurrent_ctas;
    r.last_wave_ctas_per_sm = rem ? (int)tc__tile_cdiv(rem, g->sms) : r.ctas_per_sm;
    r.wave_efficiency = (double)r.ctas / ((double)r.waves * r.concurrent_ctas);

    /* roofline */
    r.peak_flops_per_s = 2.0 * compute_rate * g->sms * g->clock_ghz * 1e9;
    r.ridge_intensity = r.peak_flops_per_s / dram_bytes_per_s;
    {
        double t_c = r.flops / r.peak_flops_per_s, t_m = r.dram_bytes / dram_bytes_per_s;
        r.memory_bound = t_m > t_c;
        r.roofline_s = t_m > t_c ? t_m : t_c;
    }

    /* the prediction */
    r.limit = tc__tile_sm_limit(&r);
    tc__tile_finish(g, d, &r, tc__tile_analytic_iter(&r, r.ctas_per_sm), tc__tile_analytic_iter(&r, r.last_wave_ctas_per_sm));
    r.analytic_predicted_s = r.predicted_s;
    *out = r;
    return TC_OK;
}
TCDEF tc_status tc_tile_model(const tc_gpu *m, const tc_tile_desc *d, tc_tile_result *out, const char **why) {
    TC__IN_DEFAULT_FP(tc_status, tc__tile_model_in(m, d, out, why));
}

/* ---- the simulated main loop */

/* Register names of the main-loop program (the simulator has 64):
   accumulators fold onto 24 names - more independent ones than a pipe
   needs (MMA latency 25 / interval 8 on A100: 4 in flight) - fragments onto
   6 each, and global loads rotate over 28 names, one per load in flight;
   the barrier waits for the last load of its stage (a warp's loads arrive
   in issue order). */
enum { TC__TILE_ACC = 0, TC__TILE_NACC = 24, TC__TILE_AR = 24, TC__TILE_BR = 30, TC__TILE_NFRAG = 6,
       TC__TILE_G = 36, TC__TILE_NG = 28 };

typedef struct {
    const tc_tile_desc *d;
    tc_sim_program *p;
    int eb, warps, stages, unroll, mma_a, mma_b, b_group;
    int64_t row_a, row_b, a_bytes, b_off, stage_bytes;   /* shared layout of one stage: A, (sparse) metadata, B */
    int64_t a_step;                               /* bytes of an A row per instruction K step */
    int vec, width, n_g;                          /* global: bytes per thread, instruction width, loads per warp */
    int tail_width;                               /* the last load's width: a warp's share need not be whole loads */
    int64_t chunk, per_warp, region;              /* bytes: one load instruction, one warp's share per iteration, per warp */
    tc_mma_instr kind;
    int parts;                                    /* warps per instruction: 4 for a wgmma */
    int ha, hb, hg;                               /* lane tables (0: affine) */
} tc__tile_prog;

/* The global loads of one warp for main-loop iteration `it` (the loop's
   trip count adds iter_stride): cp.async (tokens), or per load round its
   LDGs and then the STSs that wait for them (as a compiler schedules them;
   one round unless the tiling's load_rounds says more). */
static void tc__tile_emit_loads(tc__tile_prog *P, int it, int slot) {
    const int rounds = P->stages >= 2 ? 1 : (int)tc__tile_rounds(P->d, P->n_g);
    int q, round;
    for (round = 0; round < rounds; round++) {
        const int q0 = P->n_g * round / rounds, q1 = P->n_g * (round + 1) / rounds;
        for (q = q0; q < q1; q++) {
            const int w = q == P->n_g - 1 ? P->tail_width : P->width;
            tc_sim_addr a = tc_sim_addr_affine(it * P->per_warp + q * P->chunk, P->vec >= 4 ? w : 0, P->region,
                                               (int64_t)P->unroll * P->per_warp, w);
            int reg = TC__TILE_G + (slot * P->n_g + q) % TC__TILE_NG;
            a.lane_table = P->hg;
            if (P->stages >= 2) tc_sim_ldgsts(P->p, reg, a);
            else tc_sim_ldg(P->p, reg, TC_SIM_NOREG, a);
        }
        for (q = q0; P->stages == 1 && q < q1; q++) {
            const int w = q == P->n_g - 1 ? P->tail_width : P->width;
            int64_t lane = 32 * w <= P->stage_bytes ? w : 0;
            tc_sim_sts(P->p, TC__TILE_G + q % TC__TILE_NG, tc_sim_addr_affine(0, lane, 0, 0, w));
        }
    }
}

/* One iteration's arithmetic on stage buffer `buf`: per instruction step,
   ldmatrix (or LDS) of the warp's A and B fragments, then its MMAs (FFMAs). */
static void tc__tile_emit_compute(tc__tile_prog *P, int buf) {
    const tc_tile_desc *d = P->d;
    const int64_t sb = (int64_t)buf * P->stage_bytes;
    const int mt = d->warp_m / d->inst_m, nt = d->warp_n / d->inst_n;
    int s, i, j, acc = 0;
    for (s = 0; s < d->cta_k / d->inst_k; s++) {
        if (d->in == TC_FP32) {
            /* each lane holds mt A values and nt B values of step s: as 16-byte vectors when they come in fours */
            const int va = mt % 4 == 0 ? 4 : 1, vb = nt % 4 == 0 ? 4 : 1;
            for (i = 0; i < mt / va; i++) {
                tc_sim_addr a = tc_sim_addr_affine(sb + (int64_t)s * d->cta_m * 4 + i * 4 * va, 0, 0, 0, 4 * va);
                a.lane_table = P->ha;
                tc_sim_lds(P->p, TC__TILE_AR + i % TC__TILE_NFRAG, TC_SIM_NOREG, TC_SIM_NOREG, a);
            }
            for (j = 0; j < nt / vb; j++) {
                tc_sim_addr a = tc_sim_addr_affine(sb + P->b_off + s * P->row_b + j * 4 * vb, 0, 0, 0, 4 * vb);
                a.lane_table = P->hb;
                tc_sim_lds(P->p, TC__TILE_BR + j % TC__TILE_NFRAG, TC_SIM_NOREG, TC_SIM_NOREG, a);
            }
            for (i = 0; i < mt; i++)
                for (j = 0; j < nt; j++, acc++)
                    tc_sim_ffma(P->p, TC__TILE_ACC + acc % TC__TILE_NACC, TC__TILE_AR + (i / va) % TC__TILE_NFRAG,
                                TC__TILE_BR + (j / vb) % TC__TILE_NFRAG, TC__TILE_ACC + acc % TC__TILE_NACC);
        } else if (P->parts > 1) {
            /* a wgmma per 64 x N block of the warpgroup's tile, each warp its quarter; A and B come from shared
               memory through descriptors, so no load precedes it (the Tensor Cores' shared reads are not
               simulated: tc_tile_model counts them) */
            for (i = 0; i < mt; i++)
                for (j = 0; j < nt; j++, acc++)
                    tc_sim_mma_n(P->p, P->kind, d->inst_n, TC__TILE_ACC + acc % TC__TILE_NACC, TC_SIM_NOREG, TC_SIM_NOREG,
                                 TC__TILE_ACC + acc % TC__TILE_NACC);
        } else {
            for (i = 0; i < mt; i++) {
                tc_sim_addr a = tc_sim_addr_affine(sb + (int64_t)i * d->inst_m * P->row_a + s * P->a_step, 0, 0, 0, 16);
                a.lane_table = P->ha;
                /* a sparse fragment's metadata word (4 bytes a lane, one wavefront) into the fragment's register
                   name, the simulator having no spare ones: issued first, it leaves the shared pipe before the
                   ldmatrix behind it, whose later ready time is the one the register keeps and the MMA waits for */
                if (d->sparse)
                    tc_sim_lds(P->p, TC__TILE_AR + i % TC__TILE_NFRAG, TC_SIM_NOREG, TC_SIM_NOREG,
                               tc_sim_addr_affine(sb + P->a_bytes + ((int64_t)s * mt + i) * 128 % (P->b_off - P->a_bytes), 4, 0, 0, 4));
                tc_sim_ldsm(P->p, TC__TILE_AR + i % TC__TILE_NFRAG, P->mma_a, TC_SIM_NOREG, a);
            }
            for (j = 0; j < nt; j += P->b_group) {
                int tiles = nt - j < P->b_group ? nt - j : P->b_group, t0, c;
                /* ldmatrix loads 1, 2 or 4 matrices: 3 tiles of one matrix each are an .x2 and an .x1 into
                   the same fragment register, which the MMAs then wait for as a whole */
                for (t0 = 0; t0 < tiles; t0 += c) {
                    tc_sim_addr a;
                    c = (tiles - t0) * P->mma_b == 3 ? 2 : tiles - t0;
                    a = tc_sim_addr_affine(sb + P->b_off + (int64_t)s * d->inst_k * P->row_b + (int64_t)(j + t0) * d->inst_n * P->eb,
                                           0, 0, 0, 16);
                    a.lane_table = P->hb;
                    tc_sim_ldsm(P->p, TC__TILE_BR + (j / P->b_group) % TC__TILE_NFRAG, P->mma_b * c, TC_SIM_NOREG, a);
                }
            }
            for (i = 0; i < mt; i++)
                for (j = 0; j < nt; j++, acc++) {
                    const int dc = TC__TILE_ACC + acc % TC__TILE_NACC, ra = TC__TILE_AR + i % TC__TILE_NFRAG;
                    const int rb = TC__TILE_BR + (j / P->b_group) % TC__TILE_NFRAG;
                    if (d->sparse) tc_sim_mma_sp(P->p, P->kind, dc, ra, rb, dc, ra);
                    else tc_sim_mma(P->p, P->kind, dc, ra, rb, dc);
                }
        }
    }
}

/* Per-lane byte offsets: lane l names row (l % rows) and 16-byte column
   (l / rows) for ldmatrix; for FFMA, the lane's row group (A: l / inst_n)
   or column group (B: l % inst_n) times its values' bytes. */
static void tc__tile_lanes(tc__tile_prog *P) {
    const tc_tile_desc *d = P->d;
    uint32_t a[32], b[32], g[32];
    int l;
    for (l = 0; l < 32; l++) {
        if (d->in == TC_FP32) {
            a[l] = (uint32_t)((l / d->inst_n) * (d->warp_m / d->inst_m) * 4);
            b[l] = (uint32_t)((l % d->inst_n) * (d->warp_n / d->inst_n) * 4);
        } else {
            a[l] = (uint32_t)((l % d->inst_m) * P->row_a + (l / d->inst_m) * 16);
            b[l] = (uint32_t)((l % d->inst_k) * P->row_b + (l / d->inst_k) * 16);
        }
        g[l] = (uint32_t)(l * P->vec / 4 * 4);   /* narrower than a word: lanes share words */
    }
    tc_sim_lane_table(P->p, a, &P->ha);
    tc_sim_lane_table(P->p, b, &P->hb);
    if (P->vec < 4) tc_sim_lane_table(P->p, g, &P->hg);
}

TCDEF tc_status tc_tile_build_mainloop(tc_sim_program *p, const tc_gpu *m, const tc_tile_desc *d, int iters, int ctas) {
    tc__tile_prog P;
    tc_tile_result r;
    tc_status s;
    int j, top, group, keep;
    if (!p) return TC_ERR_NULL;
    memset(&r, 0, sizeof r);
    s = tc__tile_validate(m, d, NULL, &r);
    if (s != TC_OK) return s;
    tc__tile_sparsity(d, &group, &keep);
    memset(&P, 0, sizeof P);
    P.d = d;
    P.p = p;
    P.eb = tc__tile_elem_bytes(d->in);
    P.warps = r.warps_per_cta;
    P.stages = d->stages ? d->stages : 1;
    P.unroll = P.stages >= 2 ? P.stages : 1;
    if (iters < 1 || iters > (1 << 20) || iters % P.unroll || ctas < 1 || ctas > r.ctas_per_sm) return TC_ERR_SIZE;
    P.parts = tc__tile_parts(d);
    if (d->in != TC_FP32) {
        P.kind = (tc_mma_instr)tc__tile_mma_instr(d->in, d->inst_m, d->inst_n, d->inst_k, d->sparse);
        P.mma_a = d->inst_m * (d->inst_k / group * keep) * P.eb / 128;   /* 8x8 16-bit (128-byte) matrices per fragment */
        P.mma_b = d->inst_k * d->inst_n * P.eb / 128;
        P.b_group = P.mma_b > 0 && P.mma_b <= 4 ? 4 / P.mma_b : 1;   /* B fragments per ldmatrix.x4 (mma.sync) */
    }
    P.row_a = (int64_t)(d->cta_k / group * keep + d->pad_a) * P.eb;
    P.a_step = (int64_t)(d->inst_k / group * keep) * P.eb;
    P.row_b = (int64_t)(d->cta_n + d->pad_b) * P.eb;
    if (d->in != TC_FP32 && P.parts == 1 && (P.row_a % 16 || P.row_b % 16)) return TC_ERR_SHAPE;
    P.a_bytes = d->cta_m * P.row_a;
    P.b_off = P.a_bytes + (int64_t)tc__tile_meta_bytes(d, d->cta_m, d->cta_k);
    P.stage_bytes = P.b_off + d->cta_k * P.row_b;
    P.vec = tc__tile_vector_bytes(d, P.eb);
    P.width = P.vec < 4 ? 4 : P.vec;
    P.chunk = 32 * (int64_t)P.vec;
    {   /* a warp's share of the stage (A, its metadata, B), in whole loads but the last, which is as narrow
           as 4, 8 or 16 bytes a lane allow (a sparse stage's metadata makes shares that are not whole loads) */
        const int64_t share = tc__tile_cdiv(((int64_t)d->cta_m * (d->cta_k / group * keep) + (int64_t)d->cta_n * d->cta_k) * P.eb +
                                            (int64_t)tc__tile_meta_bytes(d, d->cta_m, d->cta_k), P.warps);
        int64_t tail;
        P.n_g = (int)tc__tile_cdiv(share, P.chunk);
        tail = share - (int64_t)(P.n_g - 1) * P.chunk;
        for (P.tail_width = 4; P.tail_width < P.width && 32 * P.tail_width < tail; P.tail_width *= 2) {}
        if (P.vec < 4) P.tail_width = P.width;
    }
    P.per_warp = P.n_g * P.chunk;
    P.region = (iters + P.stages) * P.per_warp;

    tc__sim_begin(p, "gemm_mainloop", 1, ctas * P.warps);
    p->shared_bytes = P.stage_bytes * P.stages;
    p->global_bytes = p->l2_resident_bytes = P.region * ctas * P.warps;   /* other CTAs brought the tiles into L2 */
    tc__tile_lanes(&P);
    for (j = 0; d->staging == TC_TILE_SHARED && j < P.stages - 1; j++) tc__tile_emit_loads(&P, j, j);
    top = p->n;
    for (j = 0; j < P.unroll; j++) {
        if (d->staging == TC_TILE_SHARED && P.stages >= 2) {
            /* cp.async.wait_group + __syncthreads for stage j, then refill the stage iteration j - 1 used */
            tc_sim_bar(p, TC__TILE_G + (j * P.n_g + P.n_g - 1) % TC__TILE_NG);
            tc__tile_emit_loads(&P, j + P.stages - 1, (j + P.stages - 1) % P.stages);
        } else if (d->staging == TC_TILE_SHARED) {
            tc__tile_emit_loads(&P, j, 0);
            tc_sim_bar(p, TC_SIM_NOREG);
        }
        tc__tile_emit_compute(&P, j % P.stages);
        if (d->staging == TC_TILE_SHARED && P.stages == 1) tc_sim_bar(p, TC_SIM_NOREG);   /* before the buffer is refilled */
    }
    tc_sim_loop(p, top, iters / P.unroll);
    tc_sim_exit(p);
    return p->status;
}

/* Warp-level compute instructions one simulated run may issue (tens of
   millions of simulated issues take about a second). */
#define TC__TILE_SIM_BUDGET 16777216.0

static tc_status tc__tile_simulate_in(const tc_gpu *m, const tc_tile_desc *d, int ctas, double *cycles_per_iter, tc_sim_result *run) {
    tc_sim_program p;
    tc_sim_result res[2];
    tc_sim_options o;
    tc_tile_result r;
    tc_sim_profile g;
    tc_status s;
    int n[2], u, i;
    if (run) memset(run, 0, sizeof *run);
    if (!cycles_per_iter) return TC_ERR_NULL;
    *cycles_per_iter = 0.0;
    memset(&r, 0, sizeof r);
    s = tc__tile_validate(m, d, NULL, &r);
    if (s != TC_OK) return s;
    g = *tc__tile_profile(m);
    /* the simulated buffer of direct loads stands for L1: its loads take L1's hit latency */
    if (d->staging == TC_TILE_DIRECT) g.shared_latency = tc__tile_l1_latency(&g);
    if (ctas < 1 || ctas > r.ctas_per_sm) return TC_ERR_SIZE;   /* before ctas multiplies anything */
    u = d->stages >= 2 ? d->stages : 1;
    n[0] = u * (int)tc__tile_cdiv(4, u);   /* at least 4 iterations past the prologue ... */
    n[1] = 2 * n[0];                       /* ... and as many again: the difference is steady state */
    {   /* the compute instructions the longer run issues, so that no accepted tiling simulates for minutes */
        const int64_t per_step = (int64_t)(d->warp_m / d->inst_m) * (d->warp_n / d->inst_n);
        if ((double)per_step * (d->cta_k / d->inst_k) * r.warps_per_cta * ctas * n[1] > TC__TILE_SIM_BUDGET) return TC_ERR_SIZE;
    }
    memset(&p, 0, sizeof p);
    memset(res, 0, sizeof res);
    memset(&o, 0, sizeof o);
    o.sms = 1;
    o.warps_per_sm = ctas * r.warps_per_cta;
    o.warps_per_block = r.warps_per_cta;
    for (i = 0; i < 2 && s == TC_OK; i++) {
        s = tc_tile_build_mainloop(&p, m, d, n[i], ctas);
        if (s == TC_OK) s = tc_sim_run(&g, &p, &o, &res[i]);
    }
    tc_sim_program_free(&p);
    if (s != TC_OK) return s;
    *cycles_per_iter = res[1].cycles > res[0].cycles ? (double)(res[1].cycles - res[0].cycles) / (n[1] - n[0])
                                                     : (double)res[1].cycles / n[1];
    if (run) *run = res[1];
    return TC_OK;
}
TCDEF tc_status tc_tile_simulate(const tc_gpu *m, const tc_tile_desc *d, int ctas, double *cycles_per_iter, tc_sim_result *run) {
    TC__IN_DEFAULT_FP(tc_status, tc__tile_simulate_in(m, d, ctas, cycles_per_iter, run));
}

static tc_status tc__tile_predict_in(const tc_gpu *m, const tc_tile_desc *d, tc_tile_result *out, const char **why) {
    tc_tile_result r;
    tc_sim_result run;
    tc_status s = tc_tile_model(m, d, out, why);
    int i;
    if (s != TC_OK) return s;
    r = *out;
    s = tc_tile_simulate(m, d, r.ctas_per_sm, &r.sim_iter_cycles, &run);
    if (s == TC_OK) {
        for (i = 0; i < TC_SIM_STATE_COUNT; i++)
            r.sim_state_share[i] = (double)run.state_cycles[i] / ((double)run.warps * (double)run.cycles);
        tc_sim_result_free(&run);
        r.sim_last_iter_cycles = r.sim_iter_cycles;
        if (r.last_wave_ctas_per_sm != r.ctas_per_sm)
            s = tc_tile_simulate(m, d, r.last_wave_ctas_per_sm, &r.sim_last_iter_cycles, NULL);
    }
    if (s != TC_OK) {
        memset(out, 0, sizeof *out);
        return tc__tile_fail(why, s == TC_ERR_TILE_INST ? "the simulator has no MMA kind of this shape"
                                  : s == TC_ERR_SHAPE ? "an ldmatrix row of A or B is not a multiple of 16 bytes"
                                  : s == TC_ERR_SIZE ? "the simulated main loop would issue more than 2^24 compute instructions"
                                  : "the simulation of the main loop failed", s);
    }
    r.simulated = 1;
    r.limit = tc__tile_sm_limit(&r);
    tc__tile_finish(tc__tile_profile(m), d, &r, r.sim_iter_cycles, r.sim_last_iter_cycles);
    *out = r;
    return TC_OK;
}
TCDEF tc_status tc_tile_predict(const tc_gpu *m, const tc_tile_desc *d, tc_tile_result *out, const char **why) {
    TC__IN_DEFAULT_FP(tc_status, tc__tile_predict_in(m, d, out, why));
}

/* The ladder of cuda/gemm.cu, one row per kernel. regs_per_thread is what
   ptxas reports for cuda/gemm.cu compiled for sm_80 (nvcc -arch=sm_80
   -Xptxas -v, CUDA 13.0: 32, 32, 114, 222, 226, 226; sm_90 gives 32, 32,
   119, 224, 232, 230, the same occupancy on both); cuda/gemm.cu replaces it
   with the count the running binary reports (cudaFuncGetAttributes). The
   estimate (tc__tile_regs_estimate) gives the one-output FFMA kernels 45
   registers: v2's 1024-thread CTA then fits once per SM instead of twice,
   and its single buffer's load latency had no second CTA to hide it.
   load_rounds stays 0: the SASS of v2, v3 and v4 (cuobjdump -sass of the
   same build) issues every load of an iteration before its first shared
   store, one round. */
static const tc_tile_kernel tc__tile_ladder[] = {
    { 1, "naive", "FFMA, one output per thread, operands straight from global memory (coalesced along N)",
      { 0, 0, 0, TC_FP32, 8, 32, 8, 1, 32, 1, 32, 1, TC_TILE_DIRECT, 0, 0, 0, 32, 0, 0 } },
    { 2, "smem", "FFMA, 32x32 shared-memory tiles, one output per thread",
      { 0, 0, 0, TC_FP32, 32, 32, 32, 1, 32, 1, 32, 1, TC_TILE_SHARED, 1, 0, 0, 32, 0, 0 } },
    { 3, "regblock", "FFMA, 128x128x8 tiles, 8x8 outputs per thread from 16-byte shared loads",
      { 0, 0, 0, TC_FP32, 128, 128, 8, 64, 32, 8, 4, 1, TC_TILE_SHARED, 1, 0, 0, 114, 0, 0 } },
    { 4, "mma", "mma.sync m16n8k16 (fp16 or bf16 in, fp32 out), ldmatrix, 128x128x32 tiles, 64x64 per warp",
      { 0, 0, 0, TC_FP16, 128, 128, 32, 64, 64, 16, 8, 16, TC_TILE_SHARED, 1, 8, 8, 222, 0, 0 } },
    { 5, "mma_cp_async", "version 4 with a 4-stage cp.async pipeline",
      { 0, 0, 0, TC_FP16, 128, 128, 32, 64, 64, 16, 8, 16, TC_TILE_SHARED, 4, 8, 8, 226, 0, 0 } },
    { 6, "mma_tf32", "mma.sync m16n8k8 tf32 (fp32 in, fp32 out), 128x128x16 tiles, 4-stage cp.async",
      { 0, 0, 0, TC_TF32, 128, 128, 16, 64, 64, 16, 8, 8, TC_TILE_SHARED, 4, 4, 8, 226, 0, 0 } },
};

TCDEF int tc_tile_ladder_count(void) { return TC__COUNT_OF(tc__tile_ladder); }

TCDEF const tc_tile_kernel *tc_tile_ladder_get(int i) {
    return i >= 0 && i < tc_tile_ladder_count() ? &tc__tile_ladder[i] : NULL;
}

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
