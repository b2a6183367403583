/* bench_formats.c - the array conversions' speed as a ratio to a copy loop
   that reads and writes the same bytes, measured in the same run, at four
   array sizes chosen against this machine's caches.

   The reference: a plain loop (no library memcpy, whose non-temporal stores
   above ~100 MiB would make it a different kind of copy) that reads the
   conversion's input bytes and writes its output bytes, 8 bytes at a time,
   folding or repeating words where the two sizes differ, in blocks of 32
   words of the smaller side, so that the compiler's vectors line up with
   memory and need no shuffles; it runs in four forms (words or 64-byte
   vectors, with or without a first run of elements up to the output's
   64-byte boundary) and the fastest is the reference. It aims at the
   least work the traffic allows, so that the ratio says how close a
   conversion comes to memory speed (glibc's memcpy by `rep movsb`, which
   no computing loop can use, runs faster still at L1). Folding neighbouring words instead, as this loop did
   until 2026-11-26, costs gcc one shuffle per vector: on the Intel Xeon
   VM that copy of 4 bytes to 1 ran at 80 GB/s at the L1 size, 84 at L2
   and 25 at DRAM, the blocked words at 210, 126 and 29 (docs/REFERENCE.md
   1.6, (u)). Target: >= 0.8x on one core at every size. Where the data
   sits in L1 or L2 the copy runs at tens of bytes per cycle and no rounding
   keeps up: those rows show the compute cost.

   Times are the best of 15 in the thread's CPU time (so that a run the
   scheduler preempted on a shared machine does not count), the copy's and
   the conversion's taken in turns so that both see the same machine: on
   the 2-core Zen 4 VM of the first figures, a copy at the L1 size ran at 110
   GB/s, then 75 GB/s for about 20 ms, then 110 again, within one run of
   one binary (docs/REFERENCE.md 1.6). The arrays start 16 bytes past a
   2 MiB boundary (where glibc's malloc puts a large block: 16 past a page)
   and ask the kernel for 2 MiB pages, so that which physical pages they
   get, and with them the L1 and L2 conflicts, does not change from run to
   run: on 4 KiB pages the same copy at the L2 size ran at 85 GB/s in some
   runs and 102-107 in others, on 2 MiB pages at 104-107 in each. The
   fourth line says whether the kernel gave them. Except for the
   last block: the DRAM-sized case with tc_convert_threads(all cores)
   against one thread, in wall time, as a speed-up and as a ratio to linear
   (speed-up / cores; target >= 0.8), with the load average beside it:
   other programs on the cores, or a memory system that one core already
   nearly fills, hold it down. So that the two can be told apart, the same
   copy loop split over all cores runs in turn with them: its speed-up is
   the memory's own, and the conversion's all-core time as a ratio to that
   copy's says how close the conversion comes to memory speed on all cores.

   cpfloat (github.com/north-numerical-computing/cpfloat, LGPL, not part of
   this repository): `make bench CPFLOAT_DIR=/path/to/cpfloat` builds this
   file with its header (single-threaded: no -fopenmp) and adds its
   fp32 -> fp16/bf16/tf32 round-to-nearest (cpfloatf, the same fp32 -> fp32
   job as tc_round_array) beside ours, against the same reference. */
#define _DEFAULT_SOURCE   /* madvise, MADV_HUGEPAGE */
#include "bench.h"
#define TC_THREADS
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#ifdef TC_BENCH_CPFLOAT
#include "cpfloat_binary32.h"
#endif

enum { MAX_N = 1 << 24 };   /* 64 MiB of fp32 in: twice the largest LLC seen here */

typedef struct {
    const char *name;
    int kind;           /* 0 narrow, 1 widen, 2 round, 3 narrow to a byte format (section 1b), 4 widen from one */
    tc_dtype t;
    int rounding;
    int in_bytes, out_bytes;
} bench_case;

static const bench_case cases[] = {
    { "fp32 -> fp16 rn",           0, TC_FP16, TC_RN,               4, 2 },
    { "fp32 -> fp16 rz",           0, TC_FP16, TC_RZ,               4, 2 },
    { "fp32 -> fp16 rna",          0, TC_FP16, TC_RNA,              4, 2 },
    { "fp32 -> bf16 rn",           0, TC_BF16, TC_RN,               4, 2 },
    { "fp32 -> bf16 ru",           0, TC_BF16, TC_RU,               4, 2 },
    { "fp32 -> bf16 rn.satfinite", 0, TC_BF16, TC_RN | TC_SATFINITE, 4, 2 },
    { "fp32 -> tf32 rn",           0, TC_TF32, TC_RN,               4, 4 },
    { "fp32 -> tf32 rna",          0, TC_TF32, TC_RNA,              4, 4 },
    { "fp32 -> e4m3 rn.satfinite", 0, TC_E4M3, TC_RN | TC_SATFINITE, 4, 1 },
    { "fp32 -> e4m3 rz",           0, TC_E4M3, TC_RZ,               4, 1 },
    { "fp32 -> e5m2 rn",           0, TC_E5M2, TC_RN,               4, 1 },
    { "fp32 -> e5m2 rd.satfinite", 0, TC_E5M2, TC_RD | TC_SATFINITE, 4, 1 },
    { "fp16 -> fp32",              1, TC_FP16, TC_RN,               2, 4 },
    { "bf16 -> fp32",              1, TC_BF16, TC_RN,               2, 4 },
    { "e4m3 -> fp32",              1, TC_E4M3, TC_RN,               1, 4 },
    { "e5m2 -> fp32",              1, TC_E5M2, TC_RN,               1, 4 },
    { "round_array fp16 rn",       2, TC_FP16, TC_RN,               4, 4 },
    { "round_array fp16 ru",       2, TC_FP16, TC_RU,               4, 4 },
    { "round_array bf16 rn",       2, TC_BF16, TC_RN,               4, 4 },
    { "round_array tf32 rn",       2, TC_TF32, TC_RN,               4, 4 },
    { "round_array e4m3 rn.satfinite", 2, TC_E4M3, TC_RN | TC_SATFINITE, 4, 4 },
    { "round_array e5m2 rn",       2, TC_E5M2, TC_RN,               4, 4 },
    { "round_array e4m3 ru",       2, TC_E4M3, TC_RU,               4, 4 },
    /* section 1b through tc_encode_u8_array / tc_decode_u8_array (issue target >= 0.5x) */
    { "fp32 -> e2m1 rn (u8 array)",  3, TC_E2M1, TC_RN,               4, 1 },
    { "fp32 -> e2m3 rn (u8 array)",  3, TC_E2M3, TC_RN,               4, 1 },
    { "fp32 -> e3m2 rn (u8 array)",  3, TC_E3M2, TC_RN,               4, 1 },
    { "fp32 -> e2m1 rz (u8 array)",  3, TC_E2M1, TC_RZ,               4, 1 },
    { "fp32 -> ue8m0 ru (u8 array)", 3, TC_UE8M0, TC_RU,              4, 1 },
    { "fp32 -> e2m3 rd.satfinite (u8)", 3, TC_E2M3, TC_RD | TC_SATFINITE, 4, 1 },
    { "fp32 -> e3m2 ru (u8 array)",  3, TC_E3M2, TC_RU,               4, 1 },
    { "fp32 -> e2m1 rna (u8 array)", 3, TC_E2M1, TC_RNA,              4, 1 },
    { "round_array e2m1 rn",         2, TC_E2M1, TC_RN,               4, 4 },
    { "round_array ue8m0 ru",        2, TC_UE8M0, TC_RU,              4, 4 },
    { "round_array ue4m3 rn",        2, TC_UE4M3, TC_RN,              4, 4 },
    { "round_array s8 rn",           2, TC_S8,    TC_RN,              4, 4 },
    { "e2m1 -> fp32 (u8 array)",     4, TC_E2M1, TC_RN,               1, 4 },
    { "e3m2 -> fp32 (u8 array)",     4, TC_E3M2, TC_RN,               1, 4 },
};

static float *src, *dst;

/* An array of MAX_N fp32 that starts 16 bytes past a 2 MiB boundary, its
   pages 2 MiB where the kernel gives them (see the top). */
enum { HUGE_PAGE = 1 << 21, ARRAY_OFFSET = 16 };
static float *alloc_array(void **base, int *advised) {
    size_t bytes = (size_t)MAX_N * sizeof(float) + HUGE_PAGE;
    *advised = 0;
    if (posix_memalign(base, HUGE_PAGE, bytes) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    *advised = madvise(*base, bytes, MADV_HUGEPAGE) == 0;
#endif
    return (float *)(void *)((char *)*base + ARRAY_OFFSET);
}
static volatile uint64_t copy_key;   /* 0, but the compiler cannot know: keeps the copy a loop */

typedef struct { const bench_case *c; size_t n, off; int calls; } job;   /* off: first element (a thread's share) */

/* The copy in four forms, timed in turns, the fastest the reference:
   8-byte words, as the compiler vectorises them (gcc 12 in 256-bit lanes
   on an AVX-512 machine), or 64-byte vectors (GNU C's vector_size), the
   width the conversions use there; each from the array's first element,
   or first the elements before the output's 64-byte boundary one at a
   time, as the conversions' loops that align their stores do (tc__head).
   On the Intel Xeon VM, on this bench's arrays (16 bytes past a
   boundary), the vectors ran 1.05-1.5x faster than the words at L1, the
   aligned forms 1.5-2.4x faster again for 4 bytes to 4, 2 to 4 and 1 to
   4, while for 4 bytes to 1 the first elements one at a time cost more
   than the split stores (docs/REFERENCE.md 1.6, (u)). r and `wide` are
   constants at each call below, so that the loops vectorise; a block is
   COPY_BLOCK words of the smaller side, any rest word by word. Words are
   read and written through memcpy: after the first elements the input
   need not be aligned to 8 bytes. */
enum { COPY_BLOCK = 32 };
typedef uint64_t copy_vec __attribute__((vector_size(64)));
static inline uint64_t word_at(const unsigned char *p) { uint64_t v; memcpy(&v, p, sizeof v); return v; }
static inline void copy_fold(const unsigned char *restrict s, unsigned char *restrict d, size_t out_words, size_t r, uint64_t key, int wide) {
    const copy_vec kv = { key, key, key, key, key, key, key, key };
    size_t w, j, k;
    for (w = 0; w + COPY_BLOCK <= out_words; w += COPY_BLOCK) {
        if (wide) for (j = 0; j < COPY_BLOCK; j += 8) {
            copy_vec x = kv, v;
            for (k = 0; k < r; k++) { memcpy(&v, s + 8 * (w * r + k * COPY_BLOCK + j), sizeof v); x ^= v; }
            memcpy(d + 8 * (w + j), &x, sizeof x);
        } else for (j = 0; j < COPY_BLOCK; j++) {
            uint64_t x = key;
            for (k = 0; k < r; k++) x ^= word_at(s + 8 * (w * r + k * COPY_BLOCK + j));
            memcpy(d + 8 * (w + j), &x, sizeof x);
        }
    }
    for (; w < out_words; w++) {
        uint64_t x = key;
        for (k = 0; k < r; k++) x ^= word_at(s + 8 * (w * r + k));
        memcpy(d + 8 * w, &x, sizeof x);
    }
}
static inline void copy_spread(const unsigned char *restrict s, unsigned char *restrict d, size_t in_words, size_t r, uint64_t key, int wide) {
    const copy_vec kv = { key, key, key, key, key, key, key, key };
    size_t w, j, k;
    for (w = 0; w + COPY_BLOCK <= in_words; w += COPY_BLOCK) {
        if (wide) for (j = 0; j < COPY_BLOCK; j += 8) {
            copy_vec v;
            memcpy(&v, s + 8 * (w + j), sizeof v);
            v ^= kv;
            for (k = 0; k < r; k++) memcpy(d + 8 * (w * r + k * COPY_BLOCK + j), &v, sizeof v);
        } else for (k = 0; k < r; k++)
            for (j = 0; j < COPY_BLOCK; j++) {
                const uint64_t x = word_at(s + 8 * (w + j)) ^ key;
                memcpy(d + 8 * (w * r + k * COPY_BLOCK + j), &x, sizeof x);
            }
    }
    for (; w < in_words; w++)
        for (k = 0; k < r; k++) {
            const uint64_t x = word_at(s + 8 * w) ^ key;
            memcpy(d + 8 * (w * r + k), &x, sizeof x);
        }
}
/* n elements one at a time (the head and the tail), in_b and out_b
   constants at each call: an element's bytes folded into out_b (4 to 2:
   the two halves; 4 to 1: the four bytes) or repeated to fill 4. */
static inline void copy_elements(const unsigned char *s, unsigned char *d, size_t n, size_t in_b, size_t out_b, uint32_t key) {
    size_t i;
    for (i = 0; i < n; i++) {
        uint32_t x = 0;
        memcpy(&x, s + i * in_b, in_b);
        if (in_b == 4 && out_b < 4) x ^= x >> 16;
        if (in_b == 4 && out_b == 1) x ^= x >> 8;
        if (in_b == 2) x *= 0x10001u;
        if (in_b == 1) x *= 0x1010101u;
        x ^= key;
        memcpy(d + i * out_b, &x, out_b);
    }
}
/* n elements (whole words on both sides) by copy_fold or copy_spread. */
static inline void copy_words(const unsigned char *s, unsigned char *d, size_t n, size_t in_b, size_t out_b, uint64_t key, int wide) {
    if (in_b >= out_b) copy_fold(s, d, n * out_b / 8, in_b / out_b, key, wide);
    else copy_spread(s, d, n * in_b / 8, out_b / in_b, key, wide);
}
/* One call of the copy of n elements, in_b and out_b constants; with
   `align`, the elements before the output's 64-byte boundary first, one
   at a time. */
static inline void copy_pair(const unsigned char *s, unsigned char *d, size_t n, size_t in_b, size_t out_b, uint64_t key, int wide, int align) {
    size_t head = align ? (64 - (uintptr_t)d % 64) % 64 / out_b : 0, body;
    if (head > n) head = n;
    body = (n - head) & ~(size_t)7;
    copy_elements(s, d, head, in_b, out_b, (uint32_t)key);
    s += head * in_b;
    d += head * out_b;
    copy_words(s, d, body, in_b, out_b, key, wide);
    copy_elements(s + body * in_b, d + body * out_b, n - head - body, in_b, out_b, (uint32_t)key);
}

/* The copy's form: bit 0 wide, bit 1 align. */
static void copy_job(const job *j, int form) {
    const size_t in_b = (size_t)j->c->in_bytes, out_b = (size_t)j->c->out_bytes;
    const unsigned char *s = (const unsigned char *)(const void *)src + j->off * in_b;
    unsigned char *d = (unsigned char *)(void *)dst + j->off * out_b;
    const uint64_t key = copy_key;
    const int wide = form & 1, align = form >> 1;
    int call;
    for (call = 0; call < j->calls; call++) {
        switch (in_b * 8 + out_b) {
        case 4 * 8 + 4: copy_pair(s, d, j->n, 4, 4, key, wide, align); break;
        case 4 * 8 + 2: copy_pair(s, d, j->n, 4, 2, key, wide, align); break;
        case 4 * 8 + 1: copy_pair(s, d, j->n, 4, 1, key, wide, align); break;
        case 2 * 8 + 4: copy_pair(s, d, j->n, 2, 4, key, wide, align); break;
        default:        copy_pair(s, d, j->n, 1, 4, key, wide, align); break;
        }
    }
}
static void run_copy(void *a) { copy_job((const job *)a, 0); }
static void run_copy_wide(void *a) { copy_job((const job *)a, 1); }
static void run_copy_aligned(void *a) { copy_job((const job *)a, 2); }
static void run_copy_wide_aligned(void *a) { copy_job((const job *)a, 3); }
enum { COPY_FORMS = 4 };
static void (*const copy_form[COPY_FORMS])(void *) = { run_copy, run_copy_wide, run_copy_aligned, run_copy_wide_aligned };

static void run_convert(void *a) {
    const job *j = (const job *)a;
    const bench_case *c = j->c;
    int call;
    for (call = 0; call < j->calls; call++) {
        if (c->kind == 2) { tc_round_array(c->t, src, dst, j->n, c->rounding); continue; }
        if (c->kind == 3) { tc_encode_u8_array(c->t, src, (uint8_t *)(void *)dst, j->n, c->rounding); continue; }
        if (c->kind == 4) { tc_decode_u8_array(c->t, (const uint8_t *)(void *)src, dst, j->n); continue; }
        if (c->kind == 1) switch (c->t) {
        case TC_FP16: tc_fp16_to_f32_array((const uint16_t *)(const void *)src, dst, j->n); break;
        case TC_BF16: tc_bf16_to_f32_array((const uint16_t *)(const void *)src, dst, j->n); break;
        case TC_E4M3: tc_e4m3_to_f32_array((const uint8_t *)(const void *)src, dst, j->n); break;
        default:      tc_e5m2_to_f32_array((const uint8_t *)(const void *)src, dst, j->n); break;
        } else switch (c->t) {
        case TC_FP16: tc_fp16_from_f32_array(src, (uint16_t *)(void *)dst, j->n, c->rounding); break;
        case TC_BF16: tc_bf16_from_f32_array(src, (uint16_t *)(void *)dst, j->n, c->rounding); break;
        case TC_TF32: tc_tf32_from_f32_array(src, dst, j->n, c->rounding); break;
        case TC_E4M3: tc_e4m3_from_f32_array(src, (uint8_t *)(void *)dst, j->n, c->rounding); break;
        default:      tc_e5m2_from_f32_array(src, (uint8_t *)(void *)dst, j->n, c->rounding); break;
        }
    }
}

#ifdef TC_BENCH_CPFLOAT
static optstruct *cpf_opts;
static void run_cpfloat(void *a) {
    const job *j = (const job *)a;
    int call;
    for (call = 0; call < j->calls; call++) cpfloatf(dst, src, j->n, cpf_opts);
}
#endif

/* Enough calls that one timing covers about 2^20 elements: short timings,
   many of them, so that the best one is likely undisturbed. */
static job make_job(const bench_case *c, size_t n) {
    job j;
    j.c = c; j.n = n; j.off = 0;
    j.calls = n >= ((size_t)1 << 20) ? 1 : (int)(((size_t)1 << 20) / n);
    return j;
}

/* Best of 15 each, in this thread's CPU time per call (bench.h), the
   `count` functions run in turns. */
static void time_in_turns(void (*const fn[])(void *), int count, job *j, double *best) {
    int rep, k;
    for (k = 0; k < count; k++) best[k] = 1e30;
    for (rep = 0; rep < 15; rep++)
        for (k = 0; k < count; k++) {
            double t = bench_best_cpu(fn[k], j, 1) / (double)j->calls;
            if (t < best[k]) best[k] = t;
        }
}
/* One run in wall time per call, for the threads block's alternation. */
static double wall_of(void (*fn)(void *), job *j) { return bench_best(fn, j, 1) / (double)j->calls; }

/* The copy loop on `parts` threads, each over its own contiguous share of
   the array as tc_convert_threads splits it: what this machine's memory
   gives all cores at once, the most a memory-bound conversion can gain
   from them. */
enum { MAX_PARTS = 64 };
typedef struct { job part[MAX_PARTS]; int parts; } copy_split;

static void *copy_part(void *a) { run_copy(a); return NULL; }

static void run_copy_split(void *a) {
    copy_split *s = (copy_split *)a;
    pthread_t id[MAX_PARTS];
    int started[MAX_PARTS] = { 0 }, t;
    for (t = 1; t < s->parts; t++) started[t] = pthread_create(&id[t], NULL, copy_part, &s->part[t]) == 0;
    run_copy(&s->part[0]);
    for (t = 1; t < s->parts; t++) {
        if (started[t]) pthread_join(id[t], NULL);
        else run_copy(&s->part[t]);
    }
}

/* j's array cut into `parts` shares of whole 64-element blocks, the last
   taking the rest. */
static copy_split split_job(const job *j, int parts) {
    copy_split s;
    size_t share = (j->n / (size_t)parts) & ~(size_t)63;
    int t;
    s.parts = parts;
    for (t = 0; t < parts; t++) {
        s.part[t] = *j;
        s.part[t].off = j->off + (size_t)t * share;
        s.part[t].n = t == parts - 1 ? j->n - (size_t)t * share : share;
    }
    return s;
}

static void print_caches(void) {
    int i;
    printf("caches of cpu0 (/sys/devices/system/cpu/cpu0/cache):");
    for (i = 0; i < 8; i++) {
        char path[96], level[16] = "", type[32] = "", size[32] = "";
        FILE *f;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        if (!(f = fopen(path, "r"))) break;
        if (!fgets(level, sizeof level, f)) level[0] = 0;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        if ((f = fopen(path, "r"))) { if (!fgets(type, sizeof type, f)) type[0] = 0; fclose(f); }
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if ((f = fopen(path, "r"))) { if (!fgets(size, sizeof size, f)) size[0] = 0; fclose(f); }
        level[strcspn(level, "\n")] = type[strcspn(type, "\n")] = size[strcspn(size, "\n")] = 0;
        printf("  L%s %s %s", level, type, size);
    }
    printf("%s\n", i ? "" : "  (not readable)");
}

int main(void) {
    /* fp32 elements per array: input + output of a 4 -> 4 byte conversion
       fill about half of L1 (32 KiB), of L2 (512 KiB..1 MiB), of a 32 MiB
       LLC, and four times that LLC. */
    static const struct { const char *where; size_t n; } sizes[] = {
        { "L1", 1 << 11 }, { "L2", 1 << 15 }, { "LLC", 1 << 21 }, { "DRAM", MAX_N },
    };
    size_t i, s;
    long cores = sysconf(_SC_NPROCESSORS_ONLN), parts = cores < 1 ? 1 : cores < MAX_PARTS ? cores : MAX_PARTS;
    void *src_base = NULL, *dst_base = NULL;
    int src_advised, dst_advised;
    src = alloc_array(&src_base, &src_advised);
    dst = alloc_array(&dst_base, &dst_advised);
    if (!src || !dst) { fprintf(stderr, "bench_formats: out of memory\n"); free(src_base); free(dst_base); return 1; }
    /* Values over the whole fp32 range (every exponent, both signs, some
       NaN and Inf) so that no branch predictor or fast path is flattered. */
    for (i = 0; i < MAX_N; i++) {
        uint32_t u = (uint32_t)(i * 2654435761u);
        memcpy(&src[i], &u, sizeof u);
    }
    memset(dst, 0, (size_t)MAX_N * sizeof *dst);

    printf("bench_formats: array conversions against a copy loop of the same bytes, one core, best of 15 in thread CPU time\n");
    bench_print_proc_line("cpu (/proc/cpuinfo): ", "/proc/cpuinfo", "model name");
    print_caches();
    printf("arrays: %d bytes past a 2 MiB boundary, 2 MiB pages %s;", ARRAY_OFFSET,
           src_advised && dst_advised ? "asked for (madvise)" : "not available (4 KiB pages: L1/L2 figures move from run to run)");
    bench_print_proc_line(" 2 MiB pages held (/proc/self/smaps_rollup AnonHugePages): ", "/proc/self/smaps_rollup", "AnonHugePages");
    printf("  ratio = copy time / conversion time (target >= 0.8x); GB/s counts bytes read + written\n");
    for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        printf("\n  %s-sized: %zu elements (%zu KiB of fp32)\n", sizes[s].where, sizes[s].n, sizes[s].n * 4 >> 10);
        for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            job j = make_job(&cases[i], sizes[s].n);
            double bytes = (double)sizes[s].n * (cases[i].in_bytes + cases[i].out_bytes);
            void (*fn[COPY_FORMS + 1])(void *);
            double tf[COPY_FORMS + 1], t_copy, t;
            int f;
            for (f = 0; f < COPY_FORMS; f++) fn[f] = copy_form[f];
            fn[COPY_FORMS] = run_convert;
            time_in_turns(fn, COPY_FORMS + 1, &j, tf);
            for (t_copy = tf[0], f = 1; f < COPY_FORMS; f++) if (tf[f] < t_copy) t_copy = tf[f];
            t = tf[COPY_FORMS];
            printf("  %-32s %7.2f GB/s  copy %7.2f GB/s  %5.2fx%s\n", cases[i].name, bytes / t * 1e-9,
                   bytes / t_copy * 1e-9, t_copy / t, t_copy / t >= 0.8 ? "" : "  (below 0.8x)");
        }
#ifdef TC_BENCH_CPFLOAT
        {
            static const struct { const char *name; size_t precision; int emin, emax; tc_dtype t; } cpf[] = {
                { "fp16", 11, -14, 15, TC_FP16 }, { "bf16", 8, -126, 127, TC_BF16 }, { "tf32", 11, -126, 127, TC_TF32 },
            };
            size_t k;
            for (k = 0; k < sizeof cpf / sizeof cpf[0]; k++) {
                bench_case c = { "", 2, cpf[k].t, TC_RN, 4, 4 };
                job j = make_job(&c, sizes[s].n);
                void (*fn[COPY_FORMS + 2])(void *);
                double t[COPY_FORMS + 2], t_copy;
                int f;
                cpf_opts = init_optstruct();
                strcpy(cpf_opts->format, "custom");
                cpf_opts->precision = cpf[k].precision;
                cpf_opts->emin = cpf[k].emin;
                cpf_opts->emax = cpf[k].emax;
                cpf_opts->subnormal = CPFLOAT_SUBN_USE;
                cpf_opts->explim = CPFLOAT_EXPRANGE_TARG;
                cpf_opts->round = CPFLOAT_RND_NE;
                cpf_opts->saturation = CPFLOAT_SAT_NO;
                cpf_opts->infinity = CPFLOAT_INF_USE;
                cpf_opts->flip = CPFLOAT_SOFTERR_NO;
                cpf_opts->p = 0;
                if (cpfloat_validate_optstructf(cpf_opts) < 0) { fprintf(stderr, "cpfloat rejected its options\n"); return 1; }
                for (f = 0; f < COPY_FORMS; f++) fn[f] = copy_form[f];
                fn[COPY_FORMS] = run_convert;
                fn[COPY_FORMS + 1] = run_cpfloat;
                time_in_turns(fn, COPY_FORMS + 2, &j, t);
                free_optstruct(cpf_opts);
                for (t_copy = t[0], f = 1; f < COPY_FORMS; f++) if (t[f] < t_copy) t_copy = t[f];
                printf("  cpfloat %s rn (fp32 -> fp32)     %5.2fx copy   tc_round_array %5.2fx copy   (ours / cpfloat %.1fx)\n",
                       cpf[k].name, t_copy / t[COPY_FORMS + 1], t_copy / t[COPY_FORMS], t[COPY_FORMS + 1] / t[COPY_FORMS]);
            }
        }
#endif
    }

    printf("\n  DRAM-sized, tc_convert_threads(%ld) against one thread (wall time, best of 15; target: ratio to linear >= 0.8);\n"
           "  beside it the copy loop of the same bytes split over %ld threads: the memory's own all-core gain, which\n"
           "  no memory-bound conversion can pass, and the conversion's all-core time as a ratio to that copy's\n", parts, parts);
    bench_print_proc_line("  load average before (/proc/loadavg): ", "/proc/loadavg", "");
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        job j = make_job(&cases[i], MAX_N);
        copy_split split = split_job(&j, (int)parts);
        double t1 = 1e30, tn = 1e30, c1 = 1e30, cn = 1e30;
        int rep;
        if (tc_convert_threads((int)parts) != TC_OK) { printf("  (threads unavailable)\n"); break; }
        for (rep = 0; rep < 15; rep++) {   /* alternating, so that all four see the same neighbours */
            double t;
            tc_convert_threads(1);
            if ((t = wall_of(run_convert, &j)) < t1) t1 = t;
            tc_convert_threads((int)parts);
            if ((t = wall_of(run_convert, &j)) < tn) tn = t;
            if ((t = wall_of(run_copy, &j)) < c1) c1 = t;   /* the first form (words, from the first element) */
            if ((t = bench_best(run_copy_split, &split, 1)) < cn) cn = t;
        }
        tc_convert_threads(1);
        printf("  %-32s %5.2fx faster on %ld cores, %4.2f of linear%s; copy %4.2fx faster, conversion %4.2fx of it\n",
               cases[i].name, t1 / tn, parts, t1 / tn / (double)parts, t1 / tn / (double)parts >= 0.8 ? "" : " (below 0.8)",
               c1 / cn, cn / tn);
    }
    free(src_base); free(dst_base);
    return 0;
}
