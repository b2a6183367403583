/* bench.h - shared timing helpers for tests/bench_*.c. Benchmarks print
   ratios against a reference measured in the same run (memcpy, a plain
   loop), never a pass/fail on time. */
#ifndef TC_BENCH_H
#define TC_BENCH_H
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>

static inline double bench_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Best of `reps` runs of fn(arg), in seconds: the least disturbed run. */
static inline double bench_best(void (*fn)(void *), void *arg, int reps) {
    double best = 1e30;
    int r;
    for (r = 0; r < reps; r++) {
        double t0 = bench_now(), dt;
        fn(arg);
        dt = bench_now() - t0;
        if (dt < best) best = dt;
    }
    return best;
}

/* The same in CPU seconds of the whole process: for single-threaded runs on
   a shared machine, where wall time also counts the time other programs
   held the core. */
static inline double bench_cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static inline double bench_best_cpu(void (*fn)(void *), void *arg, int reps) {
    double best = 1e30;
    int r;
    for (r = 0; r < reps; r++) {
        double t0 = bench_cpu_now(), dt;
        fn(arg);
        dt = bench_cpu_now() - t0;
        if (dt < best) best = dt;
    }
    return best;
}
#endif
