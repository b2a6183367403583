/* bench.h - shared timing helpers for tests/bench_*.c. Benchmarks print
   ratios against a reference measured in the same run (memcpy, a plain
   loop), never a pass/fail on time. */
#ifndef TC_BENCH_H
#define TC_BENCH_H
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>
#include <string.h>

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
/* The same in this thread's CPU time: on a machine shared with other jobs
   a preempted run does not count its time off the CPU (caches shared with
   other jobs still disturb it). For one-core ratios, not for threads. */
static inline double bench_cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
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

/* Prints label and the first line of a /proc file that starts with `key`
   (what follows the key's colon), or "(not readable)": the CPU model, the
   load average beside a multi-core figure. */
static inline void bench_print_proc_line(const char *label, const char *path, const char *key) {
    char line[256];
    FILE *f = fopen(path, "r");
    const char *v = NULL;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, strlen(key)) == 0) {
            v = strchr(line, ':') ? strchr(line, ':') + 2 : line;
            break;
        }
    if (f) fclose(f);
    if (v) printf("%s%s", label, v);
    else printf("%s(not readable)\n", label);
}

#endif
