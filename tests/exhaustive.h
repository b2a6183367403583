/* exhaustive.h - the driver the exhaustive format tests share (C++): every
   stride-th fp32 input of all 2^32, in chunks of `chunk` inputs handed to
   every hardware thread (at most 16), progress in sixteenths, then one line
   per kind of check with its passes and mismatches, counted by tc_test.h.
   Each test brings its Totals (passed[kinds], failed[kinds]), a
   run_chunk(first input, stride, Totals &) and the names of its kinds
   (kind_names, which CMP reads). CMP counts one comparison into the Totals
   `t` in scope; the first 20 mismatches of a run are printed. */
#ifndef TC_EXHAUSTIVE_H
#define TC_EXHAUSTIVE_H
#include "tc_test.h"
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

static std::mutex exhaustive_print_lock;
static std::atomic<long> exhaustive_failures_printed(0);

static void exhaustive_report(const char *kind, uint32_t in, uint32_t got, uint32_t want) {
    if (exhaustive_failures_printed.fetch_add(1) >= 20) return;
    std::lock_guard<std::mutex> g(exhaustive_print_lock);
    printf("FAIL %s: input %.9g (0x%08x): got 0x%x (%u), expected 0x%x (%u)\n", kind, (double)tct_u2f(in), in, got, got,
           want, want);
}

#define CMP(kind, in, got, want)                                                \
    do {                                                                        \
        uint32_t g_ = (uint32_t)(got), w_ = (uint32_t)(want);                   \
        if (g_ == w_) t.passed[kind]++;                                         \
        else { t.failed[kind]++; exhaustive_report(kind_names[kind], in, g_, w_); } \
    } while (0)

template <typename Totals, typename RunChunk, typename Names>
static int exhaustive_run(const char *test, uint32_t stride, uint64_t chunk, int kinds, const Names &kind_names,
                          RunChunk run_chunk) {
    const uint64_t span = chunk * stride;
    const uint64_t chunks = ((1ull << 32) + span - 1) / span;
    std::atomic<uint64_t> next(0), done(0);
    unsigned nthreads = std::thread::hardware_concurrency();
    if (nthreads < 1) nthreads = 1;
    if (nthreads > 16) nthreads = 16;
    std::vector<Totals> totals(nthreads);
    std::vector<std::thread> workers;
    printf("checking %llu fp32 inputs (stride %u) on %u threads\n", (unsigned long long)(chunks * chunk), stride, nthreads);
    fflush(stdout);
    for (unsigned w = 0; w < nthreads; w++) {
        memset(&totals[w], 0, sizeof totals[w]);
        workers.emplace_back([&, w] {
            for (;;) {
                uint64_t c = next.fetch_add(1);
                if (c >= chunks) break;
                run_chunk(c * span, stride, totals[w]);
                uint64_t d = done.fetch_add(1) + 1;
                if (d % (chunks / 16 ? chunks / 16 : 1) == 0) {
                    std::lock_guard<std::mutex> g(exhaustive_print_lock);
                    printf("  %3d%%\n", (int)(100 * d / chunks));
                    fflush(stdout);
                }
            }
        });
    }
    for (auto &th : workers) th.join();
    for (int k = 0; k < kinds; k++) {
        long p = 0, f = 0;
        for (unsigned w = 0; w < nthreads; w++) { p += totals[w].passed[k]; f += totals[w].failed[k]; }
        if (p + f) printf("  %-56s %12ld ok %ld mismatches\n", kind_names[k], p, f);
        tct_add(p, f);
    }
    return tct_finish(test);
}
#endif
