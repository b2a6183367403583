/* Lesson 03: 392 vs 221 cycles - why Tensor Cores make memory the bottleneck.

   Teaches: Tim Dettmers' back-of-the-envelope count for a 32x32 matmul
   (8 SMs x 8 warps: one global load, then 8 x (shared load + FFMA) or one
   shared load + one Tensor Core op), then the same two programs run through
   tensorcore.h's cycle simulator: first with the blog's numbers, where the
   simulator reproduces 392/221 and 504/235 cycle for cycle, then on A100 and
   H100 profiles, where real MMA latency, four schedulers per SM and
   bandwidth change the picture. Stall reasons use Nsight Compute's names.

   Run:    make tour        (or: build/lessons/03_cycles_392_vs_221)
   Prints: the blog's arithmetic; for each profile the simulated cycles and
           where the warps spent them; the pipelined and synchronised
           variants.
   Writes: 03_timeline_<profile>_<ffma|tc>.png  one row per warp, a colour per state
   Exercise: at the end of the output. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "plot.h"
#include "timeline.h"
#include "measured.h"

#include <stdio.h>
#include <string.h>

static const char *const profiles[] = { "dettmers2020", "dettmers2023", "a100", "h100" };
#define N_PROFILES ((int)(sizeof profiles / sizeof profiles[0]))

/* Runs one variant; prints cycles and the main stall reasons; optionally writes the timeline. */
static long long simulate(const tc_gpu *gpu, const tc_sim_matmul32_desc *d, const char *png) {
    tc_sim_program p;
    tc_sim_options o;
    tc_sim_result r;
    tc_status s;
    long long cycles;
    int k;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    o.record_timeline = png != NULL;
    s = tc_sim_build_matmul32(&p, d);
    if (s == TC_OK) s = tc_sim_run(&gpu->profile, &p, &o, &r);
    tc_sim_program_free(&p);
    if (s != TC_OK) { printf("  simulation failed: %s\n", tc_status_string(s)); return -1; }
    cycles = (long long)r.cycles;
    printf("  %-26s %5lld cycles  ", d->tensor_cores ? "Tensor Cores (ldmatrix+MMA)" : "FFMA (8 x LDS + FFMA)", cycles);
    for (k = 0; k < TC_SIM_STATE_COUNT; k++) {
        double share = (double)r.state_cycles[k] / ((double)r.warps * (double)r.cycles);
        if (share >= 0.01) printf(" %s %.0f%%", tc_sim_state_name((tc_sim_state)k), 100.0 * share);
    }
    printf("\n");
    if (png) {
        char title[128];
        snprintf(title, sizeof title, "32x32 matmul, %s, %s: %lld cycles", d->tensor_cores ? "Tensor Cores" : "FFMA", gpu->name, cycles);
        if (tcsim_write_timeline_png(&r, title, png, 64) == 0) printf("  wrote %s\n", png);
    }
    tc_sim_result_free(&r);
    return cycles;
}

int main(int argc, char **argv) {
    const tc_gpu *a100 = tc_gpu_find("a100"), *h100 = tc_gpu_find("h100");
    tc_sim_matmul32_desc d;
    int i;
    if (plot_out_args(&argc, argv) != 0) return 2;
    if (argc > 1) { fprintf(stderr, "usage: %s [--out DIR]\n", argv[0]); return 2; }
    if (!a100 || !h100) { fprintf(stderr, "the a100 and h100 GPU entries are missing\n"); return 1; }
    printf("Tim Dettmers' count (2020): global 200, shared 20, FFMA 4, Tensor Core 1 cycle\n");
    printf("  without Tensor Cores: 200 + 8*20 + 8*4 = %d cycles\n", 200 + 8 * 20 + 8 * 4);
    printf("  with Tensor Cores:    200 + 20 + 1     = %d cycles\n", 200 + 20 + 1);
    printf("The 2023 revision: L2 200, shared 34: 200 + 8*34 + 8*4 = %d and 200 + 34 + 1 = %d\n\n",
           200 + 8 * 34 + 8 * 4, 200 + 34 + 1);
    printf("The simulator runs these two warp programs (tcsim's .tcs text, docs/tcs.md; every warp of\n"
           "every SM runs one; `build/tcsim show matmul32_ffma` prints it too):\n");
    for (i = 0; i < 2; i++) {
        tc_sim_program p;
        memset(&d, 0, sizeof d);
        memset(&p, 0, sizeof p);
        d.tensor_cores = i;
        if (tc_sim_build_matmul32(&p, &d) != TC_OK || tcsim_print_program(&p, stdout, "  | ") != 0) {
            fprintf(stderr, "cannot build or print the matmul32 program\n");
            tc_sim_program_free(&p);
            return 1;
        }
        tc_sim_program_free(&p);
    }
    printf("\nThe simulator runs the programs instruction by instruction (64 warps on 8 SMs):\n");
    for (i = 0; i < N_PROFILES; i++) {
        const tc_gpu *gpu = tc_gpu_find(profiles[i]);
        char name[64];
        long long f, t;
        if (!gpu) { fprintf(stderr, "no GPU entry '%s'\n", profiles[i]); return 1; }
        printf("%s - %s\n", gpu->name, gpu->description);
        memset(&d, 0, sizeof d);
        snprintf(name, sizeof name, "03_timeline_%s_ffma.png", gpu->name);
        f = simulate(gpu, &d, plot_out(name));
        d.tensor_cores = 1;
        snprintf(name, sizeof name, "03_timeline_%s_tc.png", gpu->name);
        t = simulate(gpu, &d, plot_out(name));
        if (f > 0 && t > 0) printf("  speed-up %.2fx; the global load is %.0f%% of the Tensor Core version\n\n", (double)f / (double)t,
                                   100.0 * (gpu->profile.l2_latency) / (double)t);
    }
    printf("Why A100 and H100 differ from the blog: an m8n8k4 MMA takes %d (A100) and %d (H100) cycles, not 1\n"
           "(both assumptions until cuda/cycles.cu measures them); global loads take %d-%d (A100) and\n"
           "%d-%d (H100) cycles, from L2 or DRAM (measured, below); four schedulers per SM share eight\n"
           "warps; an FFMA pipe accepts a warp every %d cycles on A100 (16 lanes per sub-partition);\n"
           "shared memory serves one 128-byte wavefront per cycle per SM, so 8 warps' loads queue.\n",
           a100->profile.mma_latency[TC_MMA_M8N8K4_F16], h100->profile.mma_latency[TC_MMA_M8N8K4_F16],
           a100->profile.l2_latency, a100->profile.dram_latency, h100->profile.l2_latency, h100->profile.dram_latency,
           a100->profile.ffma_interval);
    printf("The latencies beside published pointer-chase measurements (tests/measured/dataset.csv; the\n"
           "profiles' numbers are fitted to them):\n");
    for (i = 0; i < 3; i++) {
        static const char *const kinds[3] = { "shared_load_latency", "l2_hit_latency", "dram_latency" };
        if (measured_print(stdout, "a100", kinds[i], "  ") < 0 || measured_print(stdout, "h100", kinds[i], "  ") < 0) return 1;
    }
    printf("(The A100's shared-load latency, %d, is Abdelkhalik et al.'s, not in the dataset. The two H100\n"
           "SXM DRAM figures disagree, 481 and 700 cycles: the profile takes the pointer chase of Luo et\n"
           "al.'s suite, the method behind the other GPUs' rows; the H800 PCIe card's DRAM is HBM2e, so it\n"
           "does not stand in for the H100 SXM's.)\n\n", a100->profile.shared_latency);
    printf("The blog's count is serial: each shared load waits for the previous FFMA. A compiler issues\n"
           "the loads ahead (pipelined); a correct kernel also needs __syncthreads after the copy (sync):\n");
    for (i = 0; i < N_PROFILES; i++) {
        const tc_gpu *gpu = tc_gpu_find(profiles[i]);
        if (!gpu) { fprintf(stderr, "no GPU entry '%s'\n", profiles[i]); return 1; }
        printf("%s\n", gpu->name);
        memset(&d, 0, sizeof d);
        d.pipelined = 1;
        printf("  pipelined:");
        simulate(gpu, &d, NULL);
        d.pipelined = 0;
        d.sync = 1;
        printf("  with sync:");
        simulate(gpu, &d, NULL);
    }
    printf("\nExercise: run `build/tcsim run matmul32_tc --profile h100 --warps N` for N = 4, 8, 16, 32 (warps\n"
           "per SM). The cycles grow slowly and long_scoreboard stays the main stall: why do more warps not\n"
           "change the mix of this program? Then run `build/tcsim run mma_throughput --profile h100 --warps N`\n"
           "(64 independent MMAs per warp, one SM) for N = 1 to 8: at which N do the cycles jump, by what\n"
           "factor, and which stall appears beside math_pipe_throttle? Explain it from the %d sub-partitions\n"
           "per SM. Last, copy the h100 profile into your own tc_sim_profile, halve l2_latency and predict\n"
           "matmul32_tc's new cycle count before you run it with tc_sim_run.\n", h100->profile.subpartitions);
    return 0;
}
