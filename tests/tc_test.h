/* tc_test.h - the tests' tiny harness: checks that count, print what failed
   (input, output and expected, in decimal and hex) and end with two lines,
       NAME: V values compared, F mismatched
       NAME: N passed, N failed
   the second of which CI and tests/run_tests.sh read. Included by every test
   source.

   What counts. A *check* is one CHECK / CHECK_BITS / CHECK_STATUS site in the
   source (file, line and expression text; a site in a loop is still one
   check) or one tct_add call site (a batch counted elsewhere). A check passes
   if every value it compared matched, and fails if any did not. The values
   themselves are counted too and printed as detail: a loop over 2^16 inputs
   is one check of 65536 values. A check that never ran is not counted, and
   neither is a batch that compared nothing.

   Not thread-safe: CHECK from one thread. Worker threads count into their own
   totals and hand them to tct_add (see test_formats_exhaustive.cpp). */
#ifndef TC_TEST_H
#define TC_TEST_H
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static long tct_passed, tct_failed;   /* values compared: matched, mismatched */
static int tct_quiet_after = 20;      /* stop printing details after this many failures */

/* The sites seen so far: an open-addressed table, plus the order they were first seen. */
typedef struct {
    const char *file, *what;   /* NULL file: empty slot */
    int line;
    long passed, failed;       /* values compared at this site */
} tct_site;
enum { TCT_MAX_SITES = 4096 };
static tct_site tct_sites[TCT_MAX_SITES];
static int tct_site_order[TCT_MAX_SITES];
static int tct_nsites, tct_overflow;
static tct_site *tct_site_cache[256];   /* by the literals' addresses: loops skip the hashing */
static tct_site tct_spill;   /* counts for sites that did not fit (then the run fails) */

static inline uint32_t tct_hash(const char *s, uint32_t h) {
    while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

/* The site (file, line, what), by content; created the first time it is seen.
   A site seen before is usually found by its literals' addresses, in a cache. */
static inline tct_site *tct_site_at(const char *file, int line, const char *what) {
    tct_site **c = &tct_site_cache[(((uintptr_t)what >> 2) ^ (uintptr_t)line) & 255u];
    tct_site *s = *c;
    uint32_t i;
    if (s && s->line == line && s->what == what && s->file == file) return s;
    i = tct_hash(what, tct_hash(file, 2166136261u ^ (uint32_t)line)) % TCT_MAX_SITES;
    for (;;) {
        s = &tct_sites[i];
        if (!s->file) break;
        if (s->line == line && !strcmp(s->what, what) && !strcmp(s->file, file)) return *c = s;
        i = (i + 1) % TCT_MAX_SITES;
    }
    if (tct_nsites >= TCT_MAX_SITES * 3 / 4) { tct_overflow = 1; return &tct_spill; }
    s->file = file; s->line = line; s->what = what;
    tct_site_order[tct_nsites++] = (int)(s - tct_sites);
    return *c = s;
}

static inline int tct_check(int ok, const char *file, int line, const char *what) {
    tct_site *s = tct_site_at(file, line, what);
    if (ok) { s->passed++; tct_passed++; return 1; }
    s->failed++; tct_failed++;
    if (tct_failed <= tct_quiet_after) printf("FAIL %s:%d: %s\n", file, line, what);
    return 0;
}

/* An expression: CHECK(ok) is 1 if it passed, so "if (!CHECK(x)) print more" works. */
#define CHECK(cond) tct_check((cond) ? 1 : 0, __FILE__, __LINE__, #cond)

/* Compare bit patterns; on failure print the input too. */
#define CHECK_BITS(input_bits, got, want)                                                   \
    do {                                                                                    \
        unsigned long long g_ = (unsigned long long)(got), w_ = (unsigned long long)(want);  \
        if (!tct_check(g_ == w_, __FILE__, __LINE__, #got " == " #want) &&                  \
            tct_failed <= tct_quiet_after)                                                  \
            printf("     input 0x%08llx, got 0x%llx (%llu), expected 0x%llx (%llu)\n",      \
                   (unsigned long long)(input_bits), g_, g_, w_, w_);                       \
    } while (0)

#define CHECK_STATUS(expr, want)                                                            \
    do {                                                                                    \
        int s_ = (int)(expr);                                                               \
        if (!tct_check(s_ == (int)(want), __FILE__, __LINE__, #expr " == " #want) &&        \
            tct_failed <= tct_quiet_after)                                                  \
            printf("     got status %d, expected %d\n", s_, (int)(want));                   \
    } while (0)

/* Count a batch of comparisons done elsewhere (e.g. by worker threads): one
   check, named by the call's file and line, of passed + failed values. */
static inline void tct_add_at(long passed, long failed, const char *file, int line, const char *what) {
    tct_site *s;
    if (passed + failed == 0) return;   /* compared nothing: no check */
    s = tct_site_at(file, line, what);
    s->passed += passed; s->failed += failed;
    tct_passed += passed; tct_failed += failed;
    if (failed && tct_failed - failed < tct_quiet_after) printf("FAIL %s:%d: %s: %ld of %ld values mismatched\n", file, line, what, failed, passed + failed);
}
#define tct_add(passed, failed) tct_add_at((passed), (failed), __FILE__, __LINE__, "tct_add(" #passed ", " #failed ")")

/* Prints the values compared, each failed check with its count, and last
   "NAME: N passed, N failed" in checks. Returns main's exit status. */
static inline int tct_finish(const char *name) {
    long checks_passed = 0, checks_failed = 0;
    int i;
    for (i = 0; i < tct_nsites; i++) {
        const tct_site *s = &tct_sites[tct_site_order[i]];
        if (!s->failed) { checks_passed++; continue; }
        checks_failed++;
        printf("failed check %s:%d: %s (%ld of %ld values mismatched)\n", s->file, s->line, s->what, s->failed,
               s->passed + s->failed);
    }
    if (tct_overflow) {
        checks_failed++;
        printf("failed: more than %d check sites; raise TCT_MAX_SITES in tests/tc_test.h\n", TCT_MAX_SITES * 3 / 4);
    }
    printf("%s: %ld values compared, %ld mismatched\n", name, tct_passed + tct_failed, tct_failed);
    printf("%s: %ld passed, %ld failed\n", name, checks_passed, checks_failed);
    return checks_failed || tct_failed ? 1 : 0;
}

static inline uint32_t tct_f2u(float f) { uint32_t u; memcpy(&u, &f, sizeof u); return u; }
static inline float tct_u2f(uint32_t u) { float f; memcpy(&f, &u, sizeof f); return f; }

/* Deterministic generator for random tests (fixed seeds, never time). */
static uint64_t tct_rng_state = 0x9E3779B97F4A7C15ull;
static inline void tct_seed(uint64_t s) { tct_rng_state = s ? s : 1; }
static inline uint32_t tct_rand32(void) {
    uint64_t x = tct_rng_state;
    x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
    tct_rng_state = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}
#endif
