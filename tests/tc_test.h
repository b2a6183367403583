/* tc_test.h - the tests' tiny harness: checks that count, print what failed
   (input, output and expected, in decimal and hex) and end with the line
   "NAME: N passed, N failed" that CI reads. Included by every test source. */
#ifndef TC_TEST_H
#define TC_TEST_H
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static long tct_passed, tct_failed;
static int tct_quiet_after = 20;   /* stop printing details after this many failures */

static inline int tct_check(int ok, const char *file, int line, const char *what) {
    if (ok) { tct_passed++; return 1; }
    tct_failed++;
    if (tct_failed <= tct_quiet_after) printf("FAIL %s:%d: %s\n", file, line, what);
    return 0;
}

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

/* Count a batch of comparisons done elsewhere (e.g. by worker threads). */
static inline void tct_add(long passed, long failed) { tct_passed += passed; tct_failed += failed; }

static inline int tct_finish(const char *name) {
    printf("%s: %ld passed, %ld failed\n", name, tct_passed, tct_failed);
    return tct_failed ? 1 : 0;
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
