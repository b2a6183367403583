/* bench_formats.c - fp32 -> bf16/fp16/tf32 (RN) array conversion speed as a
   ratio to memcpy of the same fp32 array, measured in the same run.
   Target: >= 0.8x memcpy on one core. For scale, cpfloat runs at
   about 0.12x memcpy single-threaded on an x86 build machine (its paper). */
#include "bench.h"
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <stdlib.h>
#include <string.h>

enum { N = 1 << 24 };   /* 64 MiB of fp32: larger than any cache, as in training */

static float *src, *dst_f;
static uint16_t *dst_h;

static void run_memcpy(void *a) { (void)a; memcpy(dst_f, src, (size_t)N * sizeof *src); }
static void run_bf16(void *a) { (void)a; tc_bf16_from_f32_array(src, dst_h, N, TC_RN); }
static void run_fp16(void *a) { (void)a; tc_fp16_from_f32_array(src, dst_h, N, TC_RN); }
static void run_tf32(void *a) { (void)a; tc_tf32_from_f32_array(src, dst_f, N, TC_RN); }
static void run_round_bf16(void *a) { (void)a; tc_round_array(TC_BF16, src, dst_f, N, TC_RN); }
static void run_e4m3(void *a) { (void)a; tc_e4m3_from_f32_array(src, (uint8_t *)dst_h, N, TC_RN); }

/* Section 1b: the formats of at most 8 bits through tc_encode_u8_array and
   tc_decode_u8_array. Target: RN encodes >= 0.5x memcpy of the fp32 array. */
static tc_dtype small_type;
static int small_rounding;
static void run_small_encode(void *a) { (void)a; tc_encode_u8_array(small_type, src, (uint8_t *)dst_h, N, small_rounding); }
static void run_small_decode(void *a) { (void)a; tc_decode_u8_array(small_type, (const uint8_t *)dst_h, dst_f, N); }

static void bench_small_formats(double t_memcpy) {
    static const struct { tc_dtype t; int rounding; int target; } rows[] = {
        { TC_E2M1, TC_RN, 1 }, { TC_E2M3, TC_RN, 1 }, { TC_E3M2, TC_RN, 1 }, { TC_E4M3, TC_RN | TC_SATFINITE, 1 },
        { TC_E5M2, TC_RN, 1 }, { TC_E2M1, TC_RZ, 0 }, { TC_UE8M0, TC_RU, 0 },
    };
    size_t i;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char name[64];
        double t;
        small_type = rows[i].t;
        small_rounding = rows[i].rounding;
        snprintf(name, sizeof name, "fp32 -> %s (%s) u8 array", tc_format_of(small_type)->name, tc_rounding_name(small_rounding));
        t = bench_best(run_small_encode, NULL, 7);
        printf("  %-40s %8.2f GB/s read  %5.2fx memcpy%s\n", name, (double)N * 4 / t * 1e-9, t_memcpy / t,
               rows[i].target ? (t_memcpy / t >= 0.5 ? "  (target >= 0.5x: met)" : "  (target >= 0.5x: NOT met)") : "  (scalar path)");
    }
    small_type = TC_E2M1;
    {
        double t = bench_best(run_small_decode, NULL, 7);
        printf("  %-40s %8.2f GB/s written %5.2fx memcpy\n", "e2m1 -> fp32 u8 array (table)", (double)N * 4 / t * 1e-9, t_memcpy / t);
    }
}

int main(void) {
    size_t i;
    double t_memcpy;
    struct { const char *name; void (*fn)(void *); } cases[] = {
        { "fp32 -> bf16 (RN) array", run_bf16 },
        { "fp32 -> fp16 (RN) array", run_fp16 },
        { "fp32 -> tf32 (RN) array", run_tf32 },
        { "fp32 -> bf16 -> fp32 round_array", run_round_bf16 },
        { "fp32 -> e4m3 (RN) array, scalar path", run_e4m3 },
    };
    src = (float *)malloc((size_t)N * sizeof *src);
    dst_f = (float *)malloc((size_t)N * sizeof *dst_f);
    dst_h = (uint16_t *)malloc((size_t)N * sizeof *dst_h);
    if (!src || !dst_f || !dst_h) { fprintf(stderr, "bench_formats: out of memory\n"); return 1; }
    for (i = 0; i < N; i++) src[i] = (float)((double)(i * 2654435761u % 1000003u) * 1e-3 - 500.0);
    memset(dst_f, 0, (size_t)N * sizeof *dst_f);
    memset(dst_h, 0, (size_t)N * sizeof *dst_h);

    t_memcpy = bench_best(run_memcpy, NULL, 7);
    printf("bench_formats: %d floats (%d MiB), best of 7, one core\n", N, (int)((size_t)N * 4 >> 20));
    printf("  %-40s %8.2f GB/s read  (reference)\n", "memcpy fp32 array", (double)N * 4 / t_memcpy * 1e-9);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double t = bench_best(cases[i].fn, NULL, 7);
        printf("  %-40s %8.2f GB/s read  %5.2fx memcpy%s\n", cases[i].name, (double)N * 4 / t * 1e-9, t_memcpy / t,
               i < 3 ? (t_memcpy / t >= 0.8 ? "  (target >= 0.8x: met)" : "  (target >= 0.8x: NOT met)") : "");
    }
    bench_small_formats(t_memcpy);
    free(src); free(dst_f); free(dst_h);
    return 0;
}
