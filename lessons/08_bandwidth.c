/* Lesson 08: is a Tensor Core GPU bandwidth bound? Dettmers' 1555/900.

   Teaches: Tim Dettmers' estimate (2020 GPU guide, seed 003) that an A100 is
   1555/900 = 1.73x a V100 because Tensor Core GPUs wait on memory - plus
   2-5% for the larger shared memory and 1-3% for the third-generation
   Tensor Cores, 1.78x to 1.87x. The blog uses datasheet bandwidths; the
   simulator's profiles hold what streaming kernels achieve (about 90% of
   the datasheet, fitted to measurements in tests/measured/dataset.csv,
   printed beside the simulation). Then the simulator predicts two kernels
   on V100, A100, H100, RTX 3090, RTX 4090, B200 and RTX 5090: an elementwise
   residual add+ReLU (bandwidth bound) and a large fp16 GEMM (compute
   bound). The bandwidth ratio predicts the first and not the second; a
   layer that does both lands in between.

   Sizes: the elementwise kernel covers 64M fp32 elements; the simulator
   runs a slice (8 SMs with their share of the DRAM bandwidth, 8 trips) and
   extends it at the steady-state rate (tc_sim_predict_elementwise). The
   GEMM's rate comes from one simulated SM issuing MMAs, times the SM count
   (tc_sim_predict_gemm): an upper bound that tiling (section 6) approaches.

   Run:    make tour        (or: build/lessons/08_bandwidth)
   Prints: bandwidth ratios, per-GPU predictions and speedups over V100.
   Writes: 09_speedup_vs_v100.png  grouped bars, one group per GPU
   Exercise: at the end of the output. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "plot.h"
#include "measured.h"

#include <stdio.h>
#include <string.h>

static const char *const gpus[] = { "v100", "a100", "h100", "rtx3090", "rtx4090", "b200", "rtx5090" };
#define N_GPUS ((int)(sizeof gpus / sizeof gpus[0]))

static double dram_gbs(const tc_sim_profile *g) { return g->dram_bytes_per_cycle * g->clock_ghz; }

static int fail(const char *what, tc_status s) {
    fprintf(stderr, "08_bandwidth: %s: %s\n", what, tc_status_string(s));
    return 1;
}

int main(int argc, char **argv) {
    /* residual add + ReLU, out = max(x + r, 0): reads 2 streams, writes 1, 2 ops per element */
    tc_sim_elementwise_desc add_relu;
    /* a layer: an FFN-sized GEMM, then three unfused elementwise passes over its 4096 x 4096 output */
    const int64_t lm = 4096, ln = 4096, lk = 1024;
    tc_sim_prediction ew[N_GPUS], gemm[N_GPUS], layer[N_GPUS];
    double bw_ratio[N_GPUS], ew_speed[N_GPUS], gemm_speed[N_GPUS], layer_speed[N_GPUS], tc_ratio[N_GPUS];
    const tc_gpu *gpu[N_GPUS];
    const tc_sim_profile *v100;
    tc_status s;
    int i, j;

    if (plot_out_args(&argc, argv) != 0) return 2;
    if (argc > 1) { fprintf(stderr, "usage: %s [--out DIR]\n", argv[0]); return 2; }
    for (i = 0; i < N_GPUS; i++) {
        gpu[i] = tc_gpu_find(gpus[i]);
        if (!gpu[i]) return fail(gpus[i], TC_ERR_ARG);   /* no such GPU entry */
    }
    v100 = &gpu[0]->profile;

    memset(&add_relu, 0, sizeof add_relu);
    add_relu.elements = (int64_t)1 << 26;
    add_relu.inputs = 2;
    add_relu.outputs = 1;
    add_relu.ops = 2;

    printf("Dettmers' reasoning uses datasheet bandwidths, 1555/900 = 1.73x. The profiles hold what streaming\n"
           "kernels achieve (about 90%% of the datasheet; fitted to the measurements below):\n");
    for (i = 0; i < N_GPUS; i++) {
        const tc_sim_profile *g = &gpu[i]->profile;
        bw_ratio[i] = dram_gbs(g) / dram_gbs(v100);
        printf("  %-8s %5.0f GB/s   %.2fx V100%s\n", gpu[i]->name, dram_gbs(g), bw_ratio[i],
               measured_count(gpu[i]->name, "dram_read_bandwidth") == 0
                   ? "   ASSUMED: no measured row for this GPU (90% of its datasheet, as the others reach)" : "");
    }
    printf("  A100/V100 = %.0f/%.0f = %.2fx; with +2-5%% (shared memory) and +1-3%% (Tensor Cores):\n"
           "  %.2f x 1.02 x 1.01 = %.2fx to %.2f x 1.05 x 1.03 = %.2fx (the blog: 1.78x to 1.87x).\n"
           "  The blog's own debiased benchmarks: 1.70x for NLP, 1.45x for CV.\n",
           dram_gbs(&gpu[1]->profile), dram_gbs(v100), bw_ratio[1], bw_ratio[1], bw_ratio[1] * 1.02 * 1.01,
           bw_ratio[1], bw_ratio[1] * 1.05 * 1.03);

    printf("  Measured streaming bandwidth (STREAM-style read, scale, triad; the 80 GB A100 and the H200 have\n"
           "  other memories than the profiles, so they are not simulated):\n");
    for (i = 0; i < N_GPUS; i++) {
        static const char *const kinds[] = { "dram_read_bandwidth", "dram_copy_bandwidth", "dram_triad_bandwidth" };
        for (j = 0; j < 3; j++)
            if (measured_print(stdout, gpus[i], kinds[j], "    ") < 0) return fail("reading the measured dataset", TC_ERR_ARG);
    }
    printf("\n");

    printf("Simulated: residual add+ReLU over %lld fp32 elements (%.0f MB moved) and an 8192^3 fp16 GEMM\n",
           (long long)add_relu.elements, 12.0 * (double)add_relu.elements / 1e6);
    printf("  %-8s %12s %10s %12s %10s %12s\n", "GPU", "add+ReLU us", "GB/s", "GEMM ms", "TFLOP/s", "layer us");
    for (i = 0; i < N_GPUS; i++) {
        const tc_sim_profile *g = &gpu[i]->profile;
        tc_sim_elementwise_desc pass = add_relu;
        tc_sim_prediction k;
        s = tc_sim_predict_elementwise(g, &add_relu, &ew[i]);
        if (s != TC_OK) return fail("elementwise", s);
        s = tc_sim_predict_gemm(g, 8192, 8192, 8192, &gemm[i]);
        if (s != TC_OK) return fail("gemm", s);
        s = tc_sim_predict_gemm(g, lm, ln, lk, &layer[i]);
        if (s != TC_OK) return fail("layer gemm", s);
        pass.elements = lm * ln;
        pass.inputs = 1;
        pass.ops = 1;
        for (j = 0; j < 3; j++) {
            s = tc_sim_predict_elementwise(g, &pass, &k);
            if (s != TC_OK) return fail("layer pass", s);
            tc_sim_prediction_add(&layer[i], &k);
        }
        tc_ratio[i] = gemm[i].flops / gemm[i].kernel_seconds;
        printf("  %-8s %12.1f %10.0f %12.3f %10.1f %12.1f\n", gpu[i]->name, ew[i].kernel_seconds * 1e6,
               ew[i].dram_bytes / ew[i].kernel_seconds / 1e9, gemm[i].kernel_seconds * 1e3, tc_ratio[i] / 1e12,
               layer[i].kernel_seconds * 1e6);
    }
    printf("\nSpeedup over V100 (kernel time only):\n");
    printf("  %-8s %10s %12s %10s %10s %10s\n", "GPU", "bandwidth", "add+ReLU", "GEMM", "TC peak", "layer");
    for (i = 0; i < N_GPUS; i++) {
        ew_speed[i] = ew[0].kernel_seconds / ew[i].kernel_seconds;
        gemm_speed[i] = gemm[0].kernel_seconds / gemm[i].kernel_seconds;
        layer_speed[i] = layer[0].kernel_seconds / layer[i].kernel_seconds;
        printf("  %-8s %9.2fx %11.2fx %9.2fx %9.2fx %9.2fx\n", gpus[i], bw_ratio[i], ew_speed[i], gemm_speed[i],
               tc_ratio[i] / tc_ratio[0], layer_speed[i]);
    }
    printf("\nThe elementwise kernel moves 12 bytes per 2 FLOPs: every GPU streams it at its DRAM bandwidth,\n"
           "so the bandwidth ratio is the speedup. The GEMM does %.0f FLOPs per byte of compulsory traffic\n"
           "(2 n^3 FLOPs over 8 n^2 bytes): it runs at the Tensor Core rate, so its speedup is the Tensor\n"
           "Core ratio - %.2fx on A100 where the bandwidth says %.2fx, and %.2fx on the RTX 3090 (GeForce\n"
           "runs fp16 with fp32 accumulate at half rate) where the bandwidth says %.2fx. A layer with a GEMM\n"
           "and unfused elementwise passes lands in between, nearer the bandwidth ratio the more of its\n"
           "time goes to memory-bound kernels: Dettmers' argument holds for that share, not for the GEMMs.\n"
           "(H100 here is mma.sync at ~65%% of its dense peak, measured; wgmma would reach ~99%%. B200's\n"
           "mma.sync is ASSUMED at H100's rates per SM, well below its tcgen05.mma's datasheet rate: on B200\n"
           "this GEMM gains %.2fx over V100 where the bandwidth gains %.2fx. The RTX 5090's rate is ASSUMED\n"
           "as Ada's per SM, fp32 accumulate at half rate as cuBLAS shows on an RTX 5060 Ti: its GEMM gains\n"
           "%.2fx over V100 where its GDDR7 bandwidth gains %.2fx.)\n",
           gemm[0].flops / gemm[0].dram_bytes, gemm_speed[1], bw_ratio[1], gemm_speed[3], bw_ratio[3],
           gemm_speed[5], bw_ratio[5], gemm_speed[6], bw_ratio[6]);

    {
        plot_chart_desc cd;
        plot_chart *ch;
        memset(&cd, 0, sizeof cd);
        cd.title = "Speedup over V100: bandwidth ratio vs simulated kernels";
        cd.xlabel = "GPU profile";
        cd.ylabel = "speedup over V100 (x)";
        ch = plot_chart_new(1200, 700, &cd);
        if (!ch) return fail("chart", TC_ERR_NOMEM);
        plot_chart_bars(ch, gpus, bw_ratio, N_GPUS, "DRAM bandwidth ratio");
        plot_chart_bars(ch, gpus, ew_speed, N_GPUS, "add+ReLU (bandwidth bound)");
        plot_chart_bars(ch, gpus, gemm_speed, N_GPUS, "8192^3 GEMM (compute bound, mma.sync)");
        plot_chart_bars(ch, gpus, layer_speed, N_GPUS, "GEMM + 3 elementwise passes");
        plot_chart_hline(ch, 1.0, "V100");
        if (plot_chart_write(ch, plot_out("09_speedup_vs_v100.png")) != 0) {
            plot_chart_free(ch);
            return fail("writing 09_speedup_vs_v100.png", TC_ERR_ARG);
        }
        plot_chart_free(ch);
        printf("\nwrote 09_speedup_vs_v100.png\n");
    }

    printf("\nExercise: the A100 80 GB streams about 1750 GB/s (its rows above; datasheet 2039). Copy the a100\n"
           "profile, set dram_bytes_per_cycle to 1750 / clock_ghz, and predict the add+ReLU and GEMM speedups\n"
           "over V100 before you run them. Then\n"
           "find the square GEMM size n (m = n = k) below which tc_sim_predict_gemm on a100 turns\n"
           "bandwidth bound, and check it against the 'FLOPs per byte' arithmetic above.\n");
    return 0;
}
