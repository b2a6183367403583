/* test_hw_vectors.c - section 2 against the GPUs themselves: every dot
   product measured on V100, A100, H100, Ada and B200 in tests/hw-vectors/
   (see its README for where they come from and how they were measured) is
   recomputed with tc_mma_dot and compared bit for bit.

   Run: build/tests/test_hw_vectors [FOLDER]   (default: the repository's
   tests/hw-vectors, compiled in as TC_HW_VECTORS by the Makefile)
   Prints, per (GPU, input format, output), how many samples match under the
   default model, under each published alternative (Khattak's zero rule,
   MMA-Sim's +0 sign) and with a neighbouring GPU's group or F, which must
   lose some samples (fp32 output), then the usual two summary lines. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TC_HW_VECTORS
#define TC_HW_VECTORS "tests/hw-vectors"
#endif

#define MAX_K 32        /* the widest instruction measured (FP8 m16n8k32) */
#define MAX_SAMPLES 5000

/* One measured file set. k: the instruction the GPU ran, which the shorter
   measured rows are padded to with zeros (wmma m16n16k16 / k8, mma.sync
   m16n8k32, V100's m8n8k4). */
typedef struct {
    const char *gpu, *fmt;
    tc_arch arch;
    tc_dtype in;
    int k;
    int fp16_out;      /* a d_GPU_fp16.txt exists */
    int c_zero;        /* H100 FP8 ran wgmma with c = 0 */
    int alt_group, alt_frac_bits;   /* a neighbour's parameters, which the samples must reject */
} vec_set;

static const vec_set sets[] = {
    { "V100", "fp16", TC_ARCH_V100, TC_FP16,  4, 1, 0,  0, 24 },
    { "A100", "fp16", TC_ARCH_A100, TC_FP16, 16, 1, 0, 16, 25 },
    { "A100", "bf16", TC_ARCH_A100, TC_BF16, 16, 0, 0, 16, 25 },
    { "A100", "tf32", TC_ARCH_A100, TC_TF32,  8, 0, 0,  8, 25 },
    { "H100", "fp16", TC_ARCH_H100, TC_FP16, 16, 1, 0,  8, 24 },
    { "H100", "bf16", TC_ARCH_H100, TC_BF16, 16, 0, 0,  8, 24 },
    { "H100", "tf32", TC_ARCH_H100, TC_TF32,  8, 0, 0,  4, 24 },
    { "H100", "E4M3", TC_ARCH_H100, TC_E4M3, 32, 1, 1, 16, 0 },
    { "H100", "E5M2", TC_ARCH_H100, TC_E5M2, 32, 1, 1, 16, 0 },
    { "Ada",  "fp16", TC_ARCH_ADA,  TC_FP16, 16, 1, 0, 16, 25 },
    { "Ada",  "bf16", TC_ARCH_ADA,  TC_BF16, 16, 0, 0, 16, 25 },
    { "Ada",  "tf32", TC_ARCH_ADA,  TC_TF32,  8, 0, 0,  8, 25 },
    { "Ada",  "E4M3", TC_ARCH_ADA,  TC_E4M3, 32, 1, 0, 32, 0 },
    { "Ada",  "E5M2", TC_ARCH_ADA,  TC_E5M2, 32, 1, 0, 32, 0 },
    { "B200", "fp16", TC_ARCH_B200, TC_FP16, 16, 1, 0,  8, 24 },
    { "B200", "bf16", TC_ARCH_B200, TC_BF16, 16, 0, 0,  8, 24 },
    { "B200", "tf32", TC_ARCH_B200, TC_TF32,  8, 0, 0,  4, 24 },
    { "B200", "E4M3", TC_ARCH_B200, TC_E4M3, 32, 1, 0,  0, 25 },
    { "B200", "E5M2", TC_ARCH_B200, TC_E5M2, 32, 1, 0,  0, 25 },
};
#define N_SETS ((int)(sizeof sets / sizeof sets[0]))

typedef struct {
    int n;
    float a[MAX_SAMPLES][MAX_K], b[MAX_SAMPLES][MAX_K];
    uint32_t c[MAX_SAMPLES], d[MAX_SAMPLES];
} samples;

static float u2f(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }
static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }

static FILE *open_in(const char *dir, const vec_set *s, const char *stem, const char *suffix) {
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s/%s/%s_%s_%s.txt", dir, s->gpu, s->fmt, stem, s->gpu, suffix);
    f = fopen(path, "r");
    if (!f) printf("     cannot open %s\n", path);
    return f;
}

/* One row of hex words, zero-padded to k; 0 on a malformed row. */
static int read_row(FILE *f, int k, float *row) {
    char line[1024], *p = line, *end;
    int n = 0;
    memset(row, 0, (size_t)k * sizeof *row);
    if (!fgets(line, sizeof line, f)) return 0;
    for (;;) {
        unsigned long v;
        while (*p == ' ') p++;
        if (*p == '\n' || *p == '\r' || *p == '\0') break;
        v = strtoul(p, &end, 16);
        if (end == p || n == k || v > 0xFFFFFFFFul) return 0;
        row[n++] = u2f((uint32_t)v);
        p = end;
    }
    return n > 0;
}

/* One 32-character binary word; 0 on a malformed line. */
static int read_bin(FILE *f, uint32_t *out) {
    char w[64];
    int i;
    uint32_t u = 0;
    if (fscanf(f, "%63s", w) != 1 || strlen(w) != 32) return 0;
    for (i = 0; i < 32; i++) {
        if (w[i] != '0' && w[i] != '1') return 0;
        u = u << 1 | (uint32_t)(w[i] - '0');
    }
    *out = u;
    return 1;
}

/* Loads a, b, c and d_<out>; 0 if anything is missing or malformed. */
static int load(const char *dir, const vec_set *s, const char *out, samples *v) {
    FILE *fa = open_in(dir, s, "a", s->fmt), *fb = open_in(dir, s, "b", s->fmt);
    FILE *fc = open_in(dir, s, "c", "fp32"), *fd = open_in(dir, s, "d", out);
    int ok = fa && fb && fc && fd;
    v->n = 0;
    while (ok && v->n < MAX_SAMPLES) {
        int i = v->n;
        if (!read_row(fa, s->k, v->a[i])) break;
        ok = read_row(fb, s->k, v->b[i]) && read_bin(fc, &v->c[i]) && read_bin(fd, &v->d[i]);
        if (ok) v->n++;
        else printf("     %s %s: malformed sample %d\n", s->gpu, s->fmt, i);
    }
    if (fa) fclose(fa);
    if (fb) fclose(fb);
    if (fc) fclose(fc);
    if (fd) fclose(fd);
    return ok && v->n > 0;
}

/* The model's d for sample i, as the GPU was fed: fp16 output took c
   rounded to fp16 (nearest-even) first; H100 FP8 ran with c = 0. */
static uint32_t model(const vec_set *s, tc_dtype out, const samples *v, int i, const tc_mma_options *opt) {
    float c = s->c_zero ? 0.0f : u2f(v->c[i]);
    if (out == TC_FP16) c = tc_round(TC_FP16, c, TC_RN);
    return f2u(tc_mma_dot_ex(s->arch, s->in, out, s->k, v->a[i], v->b[i], c, opt));
}

static samples vec;

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : TC_HW_VECTORS;
    int si, oi, i, total = 0;
    printf("hardware vectors from %s (samples per file: see its README)\n", dir);
    printf("%-5s %-5s %-5s  %-13s %-13s %-13s %s\n", "GPU", "in", "out", "default", "Khattak zeros", "MMA-Sim +0",
           "a neighbour's parameters (0: this GPU's)");
    for (si = 0; si < N_SETS; si++) {
        const vec_set *s = &sets[si];
        for (oi = 0; oi < 2; oi++) {
            tc_dtype out = oi ? TC_FP16 : TC_FP32;
            tc_mma_options kh, plus, alt;
            int match = 0, match_kh = 0, match_plus = 0, match_alt = 0, halves = 0;
            int fp8 = s->in == TC_E4M3 || s->in == TC_E5M2, ada_fp8 = fp8 && s->arch == TC_ARCH_ADA;
            if (oi && !s->fp16_out) continue;
            if (oi && (s->in == TC_E4M3 || s->in == TC_E5M2)) {
                printf("%-5s %-5s fp16   skipped: FP8 with fp16 output is unreliable upstream (two Hopper GPUs disagree"
                       " on identical inputs; the authors' validation skips it)\n", s->gpu, s->fmt);
                continue;
            }
            if (!CHECK(load(dir, s, oi ? "fp16" : "fp32", &vec))) continue;
            memset(&kh, 0, sizeof kh); kh.zero_rule = TC_MMA_ZEROS_KHATTAK;
            memset(&plus, 0, sizeof plus); plus.zero_sign = TC_MMA_ZERO_SIGN_PLUS;
            memset(&alt, 0, sizeof alt); alt.group = s->alt_group; alt.frac_bits = s->alt_frac_bits;
            for (i = 0; i < vec.n; i++) {
                uint32_t got = model(s, out, &vec, i, NULL);
                CHECK_BITS(i, got, vec.d[i]);
                match += got == vec.d[i];
                match_kh += model(s, out, &vec, i, &kh) == vec.d[i];
                match_plus += model(s, out, &vec, i, &plus) == vec.d[i];
                match_alt += model(s, out, &vec, i, &alt) == vec.d[i];
                /* MMA-Sim runs Ada's m16n8k32 FP8 as two chained m16n8k16 (nv_ptx.py is_split_k):
                   the measured k32 results check the k16 instruction's model, each half's D the next's C.
                   H100 and B200 keep one group of 32: two chained m16n8k16 of their model must lose samples */
                if (fp8) {
                    float h = tc_mma_dot(s->arch, s->in, out, 16, vec.a[i], vec.b[i], s->c_zero ? 0.0f : u2f(vec.c[i]));
                    uint32_t two = f2u(tc_mma_dot(s->arch, s->in, out, 16, vec.a[i] + 16, vec.b[i] + 16, h));
                    if (ada_fp8) CHECK_BITS(i, two, vec.d[i]);
                    halves += two == vec.d[i];
                }
            }
            if (fp8) printf("%-5s %-5s %-5s  as two m16n8k16: %d/%d\n", s->gpu, s->fmt, oi ? "fp16" : "fp32", halves, vec.n);
            if (fp8 && !ada_fp8) CHECK(halves < vec.n);
            /* The published alternatives agree with the hardware on every
               sample here too: these vectors do not separate them. */
            CHECK(match_kh == vec.n);
            CHECK(match_plus == vec.n);
            /* ...but they do separate the neighbouring parameters (the
               other GPUs' group or F): the comparison has teeth. With fp16
               output the final rounding to 11 bits can hide them (it does
               for V100, A100 and Ada on these samples). */
            if (out == TC_FP32) CHECK(match_alt < vec.n);
            total += vec.n;
            printf("%-5s %-5s %-5s  %5d/%-7d %5d/%-7d %5d/%-7d %5d/%-5d (group %d, F %d)\n", s->gpu, s->fmt,
                   oi ? "fp16" : "fp32", match, vec.n, match_kh, vec.n, match_plus, vec.n, match_alt, vec.n,
                   alt.group, alt.frac_bits);
        }
    }
    printf("%d measured dot products compared\n", total);
    return tct_finish("test_hw_vectors");
}
