/* bench_sim.c - simulator speed: simulated warp instructions per second on
   one core, for a compute-bound run (FFMA chains, 8 warps per scheduler
   keep the FFMA pipe busy), a latency-bound one (Dettmers' matmul) and a
   memory-bound one (streaming read, all H100 SMs). Target:
   >= 10 million warp instructions per second. Reference in the same run:
   a plain loop doing one dependent integer step per "instruction". The
   matmul run (1088 instructions, ~0.1 ms) is timed over 200 runs in a row,
   so that a timing covers more than the clock's and the caches' noise. */
#include "bench.h"
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"

typedef struct { const tc_sim_profile *g; tc_sim_program p; tc_sim_options o; int runs; int64_t instructions; } job;

static void run_job(void *arg) {
    job *j = (job *)arg;
    int i;
    j->instructions = 0;
    for (i = 0; i < j->runs; i++) {
        tc_sim_result r;
        if (tc_sim_run(j->g, &j->p, &j->o, &r) == TC_OK) j->instructions += r.instructions;
        tc_sim_result_free(&r);
    }
}

static volatile uint64_t sink;
static void plain_loop(void *arg) {
    uint64_t x = 1, i, n = *(uint64_t *)arg;
    for (i = 0; i < n; i++) x = x * 6364136223846793005ull + 1442695040888963407ull;
    sink = x;
}

int main(void) {
    job jobs[3];
    const char *names[3] = { "FFMA throughput (a100, 8 SMs x 32 warps)", "matmul32_ffma (dettmers2020, 64 warps)",
                             "stream (h100, 132 SMs x 64 warps)" };
    uint64_t n = 100000000ull;
    double t_ref = bench_best_cpu(plain_loop, &n, 3);
    int i;
    memset(jobs, 0, sizeof jobs);
    for (i = 0; i < 3; i++) jobs[i].runs = 1;
    jobs[0].g = &tc_gpu_find("a100")->profile;
    tc_sim_build_ffma_chain(&jobs[0].p, 4096);   /* 8 warps per scheduler hide the chain's latency: pipe-bound */
    jobs[0].o.sms = 8; jobs[0].o.warps_per_sm = 32;
    jobs[1].g = &tc_gpu_find("dettmers2020")->profile;
    tc_sim_build_named(&jobs[1].p, "matmul32_ffma");
    jobs[1].runs = 200;
    jobs[2].g = &tc_gpu_find("h100")->profile;
    tc_sim_build_named(&jobs[2].p, "stream");
    jobs[2].o.sms = 132; jobs[2].o.warps_per_sm = 64;
    printf("bench_sim: one core, CPU time; reference: %.0f M dependent integer steps/s\n", (double)n / t_ref * 1e-6);
    for (i = 0; i < 3; i++) {
        double t = bench_best_cpu(run_job, &jobs[i], 3), rate = (double)jobs[i].instructions / t;
        printf("  %-44s %9lld warp instr in %7.3f s (%d run%s): %6.1f M/s = %4.0f reference steps each%s\n", names[i],
               (long long)jobs[i].instructions, t, jobs[i].runs, jobs[i].runs > 1 ? "s" : "", rate * 1e-6, (double)n / t_ref / rate,
               rate >= 1e7 ? "  (target >= 10 M/s: met)" : "  (target >= 10 M/s: NOT met)");
        tc_sim_program_free(&jobs[i].p);
    }
    return 0;
}
