/* Lesson 05: GEMM tiling - how a matrix product is cut into CTA tiles, warp
   tiles and mma.sync instructions, and what each choice costs.

   Teaches: why bigger CTA tiles raise arithmetic intensity (each byte
   brought to an SM feeds cta_m * cta_n / (cta_m + cta_n) multiply-adds) until
   shared memory and registers cap how many CTAs fit; waves and the tail
   (4096^3 against 4097^3: one more row and column makes another partial
   wave, and rows of 4097 fp16 values are only 2-byte aligned, so no 16-byte
   loads - why dimensions should be multiples of 8); the roofline; and the
   predicted time of each kernel of cuda/gemm.cu's ladder on the a100 and
   h100 profiles, from section 6's counts (tc_tile_model) and from the main
   loop run instruction by instruction in section 5's simulator
   (tc_tile_predict).

   Run:    make tour        (or: build/lessons/05_gemm_tiling [cta_m cta_n cta_k warp_m warp_n stages])
           With the six numbers it checks your tile for the exercise's shape.
   Prints: tile choices for 4096^3 fp16, the tail of 4096/4097/4104, the
           ladder's predicted times on both GPUs, published A100 and H100
           GEMMs beside the model (H100's run wgmma), the exercise.
   Writes: 05_roofline.png  log-log roofline (FLOP/s against FLOPs per byte
                            moved from L2 to the SMs) with the a100 and h100
                            roofs, A100's slope at its measured operand copy
                            rate, h100's wgmma peak, every ladder kernel
                            placed on them, and the published A100 and H100
                            kernels of the measured dataset
           05_waves.png     predicted TFLOP/s against size: the wave sawtooth
   Exercise (also printed at the end): for M = 3072, N = 3072, K = 8192 fp16
   on h100, the ladder's 128x128x32 tile leaves a poor last wave. Choose a
   tile (CTA, warp tile, stages) that predicts faster; check it with the
   command above, and explain from the waves and CTAs per SM why it wins. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "plot.h"
#include "measured.h"

#include <stdio.h>
#include <stdlib.h>

#define N_LADDER 6

/* The two GPUs of the tables and charts. */
static const char *const gpus[2] = { "a100", "h100" };

/* A fp16 mma.sync tiling (m16n8k16), padded rows, estimated registers. */
static tc_tile_desc fp16_tile(int M, int N, int K, int cm, int cn, int ck, int wm, int wn, int stages) {
    tc_tile_desc d;
    memset(&d, 0, sizeof d);
    d.M = M; d.N = N; d.K = K;
    d.in = TC_FP16;
    d.cta_m = cm; d.cta_n = cn; d.cta_k = ck;
    d.warp_m = wm; d.warp_n = wn;
    d.inst_m = 16; d.inst_n = 8; d.inst_k = 16;
    d.stages = stages;
    d.pad_a = d.pad_b = 8;
    return d;
}

/* One line about a tiling on a machine; returns the status. */
static tc_status report(const tc_gpu *m, const tc_tile_desc *d, tc_tile_result *r) {
    const char *why = NULL;
    tc_status s = tc_tile_predict(m, d, r, &why);
    if (s != TC_OK) {
        printf("  %3dx%3dx%2d warp %3dx%3d %d st: refused - %s\n", d->cta_m, d->cta_n, d->cta_k, d->warp_m, d->warp_n,
               d->stages, why);
        return s;
    }
    printf("  %3dx%3dx%2d warp %3dx%3d %d st: %6.1f flop/B from L2, %6.1f KiB smem, %2d CTAs/SM, %5lld CTAs, "
           "%lld waves (last %d/SM, %3.0f%% full), %7.1f TFLOP/s, %s\n",
           d->cta_m, d->cta_n, d->cta_k, d->warp_m, d->warp_n, d->stages, r->intensity_l2, r->shared_per_cta / 1024.0,
           r->ctas_per_sm, (long long)r->ctas, (long long)r->waves, r->last_wave_ctas_per_sm, 100.0 * r->wave_efficiency,
           r->predicted_flops_per_s / 1e12, tc_tile_limit_name(r->limit));
    return TC_OK;
}

static void tile_choices(const tc_gpu *a) {
    static const int tiles[][6] = {   /* cta_m, cta_n, cta_k, warp_m, warp_n, stages */
        { 32, 32, 32, 16, 16, 3 }, { 64, 64, 32, 32, 32, 3 }, { 128, 64, 32, 64, 32, 3 },
        { 128, 128, 32, 64, 64, 3 }, { 128, 256, 32, 64, 64, 3 }, { 256, 128, 64, 64, 64, 4 },
    };
    tc_tile_result r;
    int i;
    printf("1. Tile choices, 4096^3 fp16 on a100 (intensity from L2 = cta_m cta_n / (cta_m + cta_n) for fp16):\n");
    for (i = 0; i < (int)(sizeof tiles / sizeof tiles[0]); i++) {
        tc_tile_desc d = fp16_tile(4096, 4096, 4096, tiles[i][0], tiles[i][1], tiles[i][2], tiles[i][3], tiles[i][4], tiles[i][5]);
        report(a, &d, &r);
    }
    printf("   Small tiles move more bytes per multiply-add: shared memory (%.0f B/clk/SM) and L2 -> SM (%.1f B/clk/SM,\n"
           "   ASSUMED: an even share of the whole GPU's measured L2 bandwidth, %.2f TB/s, over its %d SMs, dataset\n"
           "   rows rrze-l2bw-*-a100-80gb; no per-SM figure is measured, and one SM alone may draw more)\n"
           "   cannot feed %.0f flop/clk/SM of MMA below %.0f flop/B from L2. Large tiles run out of registers and\n"
           "   shared memory per SM (1 CTA per SM: no other CTA to hide a barrier); the last asks for more shared\n"
           "   memory than an A100 CTA may have.\n\n", tc_tile_shared_bytes_per_clk(a), a->profile.sm_bytes_per_cycle,
           a->profile.sm_bytes_per_cycle * a->profile.sms * a->profile.clock_ghz / 1e3, a->profile.sms,
           2.0 * tc_tile_fma_per_clk(a, TC_FP16, 16, 8, 16),
           2.0 * tc_tile_fma_per_clk(a, TC_FP16, 16, 8, 16) / a->profile.sm_bytes_per_cycle);
}

static void tail(const tc_gpu *m) {
    static const int sizes[] = { 4096, 4097, 4104 };
    tc_tile_result r[3];
    int i;
    printf("2. Waves and the tail, ladder v5 (128x128x32, 4-stage cp.async) on %s, %d SMs:\n", m->name,
           m->profile.sms);
    for (i = 0; i < 3; i++) {
        tc_tile_desc d = tc_tile_ladder_get(4)->tile;
        d.M = d.N = d.K = sizes[i];
        if (tc_tile_predict(m, &d, &r[i], NULL) != TC_OK) return;
        printf("  %d^3: %4lld CTAs, %d per SM -> %lld waves, the last with %d per SM (%3.0f%% of slots used); "
               "issue %5.0f cycles/iteration; %.3f ms (%.2fx of 4096^3)\n",
               sizes[i], (long long)r[i].ctas, r[i].ctas_per_sm, (long long)r[i].waves, r[i].last_wave_ctas_per_sm,
               100.0 * r[i].wave_efficiency, r[i].iter_cycles[TC_TILE_LIMIT_ISSUE], r[i].predicted_s * 1e3,
               r[i].predicted_s / r[0].predicted_s);
    }
    printf("   4097 adds %.2f%% of the work. Rows of 4097 fp16 values are 8194 bytes apart, only 2-byte aligned,\n"
           "   so every load is 2 bytes instead of 16: 8x the load instructions. Pad to a multiple of 8 (4104)\n"
           "   and only the extra wave remains - the advice of NVIDIA's performance guide.\n\n",
           100.0 * (((double)sizes[1] / sizes[0]) * ((double)sizes[1] / sizes[0]) * ((double)sizes[1] / sizes[0]) - 1));
}

static int waves_plot(void) {
    enum { N = 64 };
    double x[N], y[2][N];
    plot_chart_desc cd = { "Ladder v5 (fp16, 128x128x32), predicted: the wave sawtooth", "M = N = K", "TFLOP/s", 0, 0, 0, 0, 0, 0, 0 };
    plot_chart *ch;
    int i, j, rc;
    for (i = 0; i < N; i++) {
        x[i] = 1024 + 128 * i;
        for (j = 0; j < 2; j++) {
            tc_tile_desc d = tc_tile_ladder_get(4)->tile;
            tc_tile_result r;
            d.M = d.N = d.K = (int)x[i];
            y[j][i] = tc_tile_predict(tc_gpu_find(gpus[j]), &d, &r, NULL) == TC_OK ? r.predicted_flops_per_s / 1e12 : 0.0;
        }
    }
    ch = plot_chart_new(1200, 650, &cd);
    if (!ch) return 1;
    for (j = 0; j < 2; j++) plot_chart_line(ch, x, y[j], N, tc_gpu_find(gpus[j])->name);
    rc = plot_chart_write(ch, plot_out("05_waves.png"));
    plot_chart_free(ch);
    return rc;
}

/* The roofs and the ladder's predictions; returns non-zero on a failure. */
/* 5. H100's published GEMMs run wgmma, not mma.sync: a warpgroup's 64 x N
   tile per instruction, A and B read by the Tensor Cores from shared memory.
   Section 6 tiles it too; the first row that gives its tiling explains the
   prediction. */
static int h100_wgmma(void) {
    const tc_gpu *h = tc_gpu_find("h100");
    measured_set set;
    char err[512];
    int i, found = 0;
    tc_tile_desc d;
    tc_tile_result r;
    printf("5. Published H100 GEMMs (bf16, validation rows). They run wgmma, whose dense rate is %.0f TFLOP/s\n"
           "   here against mma.sync's %.0f (the ladder above): section 6 tiles it with one warpgroup's 64 x N\n"
           "   block per wgmma and no ldmatrix:\n",
           2.0 * tc_tile_fma_per_clk(h, TC_BF16, 64, 256, 16) * h->profile.sms * h->profile.clock_ghz * 1e-3,
           2.0 * tc_tile_fma_per_clk(h, TC_BF16, 16, 8, 16) * h->profile.sms * h->profile.clock_ghz * 1e-3);
    if (measured_print(stdout, "h100", "gemm_tflops", "   ") < 0) return 1;
    if (measured_load(TC_DATASET, &set, err, sizeof err) != TC_OK) return 1;
    for (i = 0; i < set.n && !found; i++)
        found = strcmp(set.rows[i].quantity, "gemm_tflops") == 0 && measured_gpu(&set.rows[i]) == h &&
                measured_tile(&set.rows[i], &d) == TC_OK && d.inst_m == 64 && tc_tile_model(h, &d, &r, NULL) == TC_OK;
    measured_free(&set);
    if (!found) return 1;
    printf("   Its tiling (%dx%dx%d CTA tiles, warpgroups of %dx%d, %d stages) needs %.0f cycles of wgmma per\n"
           "   iteration but %.0f to bring its %.0f KiB of A and B from L2 at the profile's per-SM share, so\n"
           "   the model calls it L2-bound and predicts it slow. The real kernel runs in clusters of two CTAs\n"
           "   along M that share their B tile by TMA multicast, reading it from L2 once for both: %.0f cycles\n"
           "   per CTA, under the wgmma's. Section 6 has no clusters; with them it would call the kernel\n"
           "   compute-bound at the profile's %.2f GHz (the clock of the datasheet's peak) and predict it faster\n"
           "   than measured: how far the clock drops under this load is not published. Two unmodelled effects\n"
           "   pull opposite ways here. cuBLAS's own H100 tilings are not published: its rows are simulated\n"
           "   as the fastest of CUTLASS's sm90 wgmma tilings (support/measured.h), L2-bound the same way.\n\n",
           d.cta_m, d.cta_n, d.cta_k, d.warp_m, d.warp_n, d.stages, r.iter_cycles[TC_TILE_LIMIT_COMPUTE],
           r.iter_cycles[TC_TILE_LIMIT_L2], ((double)d.cta_m + d.cta_n) * d.cta_k * 2 / 1024.0,
           ((double)d.cta_m + d.cta_n / 2.0) * d.cta_k * 2 / h->profile.sm_bytes_per_cycle, h->profile.clock_ghz);
    return 0;
}

static int ladder_and_roofline(void) {
    double px[N_LADDER][2], py[N_LADDER][2];
    plot_chart_desc cd = { "Roofline, 4096^3: the gemm.cu ladder predicted, published A100 and H100 kernels measured",
                           "FLOPs per byte moved from L2 to the SMs", "FLOP/s", 1, 1, 0.5, 5000, 1e11, 2e15, 1 };
    plot_chart *ch;
    int i, j, rc;
    printf("3. The ladder of cuda/gemm.cu at 4096^3, predicted (analytic counts | simulated main loop):\n");
    printf("  %-4s %-3s %-13s %-4s %10s %10s %9s %-8s %s\n", "gpu", "v", "kernel", "in", "analytic", "simulated",
           "TFLOP/s", "limit", "where the warps' cycles went (simulated)");
    for (j = 0; j < 2; j++) {
        const tc_gpu *m = tc_gpu_find(gpus[j]);
        for (i = 0; i < N_LADDER; i++) {
            const tc_tile_kernel *k = tc_tile_ladder_get(i);
            tc_tile_desc d = k->tile;
            tc_tile_result r;
            int s, best = 0, next = -1;
            d.M = d.N = d.K = 4096;
            if (tc_tile_predict(m, &d, &r, NULL) != TC_OK) return 1;
            for (s = 1; s < TC_SIM_STATE_COUNT; s++) if (r.sim_state_share[s] > r.sim_state_share[best]) best = s;
            for (s = 0; s < TC_SIM_STATE_COUNT; s++)
                if (s != best && (next < 0 || r.sim_state_share[s] > r.sim_state_share[next])) next = s;
            printf("  %-4s %-3d %-13s %-4s %8.3fms %8.3fms %9.1f %-8s %s %.0f%%, %s %.0f%%\n", m->name, k->version, k->name,
                   d.in == TC_FP32 ? "fp32" : d.in == TC_TF32 ? "tf32" : "fp16", r.analytic_predicted_s * 1e3,
                   r.predicted_s * 1e3, r.predicted_flops_per_s / 1e12, tc_tile_limit_name(r.limit),
                   tc_sim_state_name((tc_sim_state)best), 100.0 * r.sim_state_share[best],
                   tc_sim_state_name((tc_sim_state)next), 100.0 * r.sim_state_share[next]);
            px[i][j] = r.intensity_l2;
            py[i][j] = r.predicted_flops_per_s;
        }
    }
    printf("   math_pipe_throttle is good news here: the MMA pipe is busy and the warp has more for it.\n\n");
    printf("4. Published A100 GEMMs (tests/measured/dataset.csv, validation rows: no profile number is fitted\n"
           "   to them; 4096^3 fp16 in unless the row says otherwise), beside the model: cuBLAS as the fastest\n"
           "   of CUTLASS's sm80 tilings through this tiling model, CUTLASS's and hand-written kernels with\n"
           "   their published CTA tile and stages (64x64 warp tiles and 8-element padding assumed where the\n"
           "   source does not say):\n");
    if (measured_print(stdout, "a100", "gemm_tflops", "   ") < 0) return 1;
    printf("   The copy row (xd-hsgemm-k05-copy-a100, calibration) is the kernel author's own test with the\n"
           "   math removed: A100 moved that kernel's A and B tiles from L2 to shared memory at %.0f%%\n"
           "   of the rate streaming kernels get from L2, so every simulated main loop above moves its tiles at\n"
           "   that rate (support/measured.h), and its stages and CTAs decide how much of the copy the math\n"
           "   hides. cuBLAS and the register-double-buffered mma kernels then come closest; the CUTLASS\n"
           "   Tensor Core rows, whose large tiles the GPU fed faster than that, are predicted slow: 256x128\n"
           "   at 3456x4096x8192, and the best dense and 2:4 sparse kernels at 16384^3 (the sparse one marked;\n"
           "   section 6 tiles its mma.sp too). The single-buffered kernels' compiled code fetches each tile\n"
           "   in two dependent rounds (their SASS: the second round's loads wait for the first's stores),\n"
           "   so their rows say rounds=2 and each round costs one more L2 round trip. The model stays\n"
           "   optimistic for wmma kernels and kernels whose MMAs wait after each barrier for their first\n"
           "   fragments (the other marked rows): it issues instructions ideally, has no register-bank or\n"
           "   instruction-cache stalls, and its shared-memory rows never conflict with the assumed\n"
           "   padding. It keeps the %.2f GHz boost clock, which\n"
           "   GPUInspector.jl's Tensor Core peak on an A100 SXM4 held (row gpui-wmma-f16-tput-a100-sxm4-40gb);\n"
           "   the PCIe board's lower power limit may not hold it, but no clock under load is published for\n"
           "   it. The k03 kernels load one 2-byte element per thread, which the tiling descriptor cannot\n"
           "   express, so they are not predicted. Treat the simulated column as what the tiling permits,\n"
           "   and the measured one as what real code reached.\n\n",
           100.0 * measured_copy_rate(tc_gpu_find("a100")) /
               (tc_gpu_find("a100")->profile.sm_bytes_per_cycle * tc_gpu_find("a100")->profile.sms * tc_gpu_find("a100")->profile.clock_ghz * 1e9),
           tc_gpu_find("a100")->profile.clock_ghz);
    {   /* the size sweep against the README table it disagrees with, and its smallest size */
        double sweep, table, small, model;
        if (measured_value("xd-sweep-cublas-4096-a100", &sweep) != TC_OK || measured_value("xd-hgemm-cublas-a100", &table) != TC_OK ||
            measured_value("xd-sweep-cublas-1024-a100", &small) != TC_OK ||
            measured_library_gemm(tc_gpu_find("a100"), 1024, 1024, 1024, 0, &model) != TC_OK) return 1;
        printf("   The xd-sweep rows are the same author's size sweep (the median of 50 timed calls per size).\n"
               "   At 4096^3 it reads cuBLAS at %.1f TFLOP/s where the author's table reads %.1f: one GPU model,\n"
               "   one kernel, %.0f%% apart in conditions the source does not state, about the model's own error.\n"
               "   At 1024^3 a call takes %.1f us measured and %.1f us in the tiling model: the %.1f us between is a\n"
               "   per-call cost, %.0f%% of the time at this size. The author's program times each call alone,\n"
               "   so its launch (%.1f us, the launch rows' figure) falls between the two timing events: the\n"
               "   dataset's simulated column adds it (timed=call); the rest is not modelled.\n\n",
               sweep, table, 100.0 * (sweep / table - 1.0), 2e6 * 1024.0 * 1024 * 1024 / (small * 1e12),
               2e6 * 1024.0 * 1024 * 1024 / model, 2e6 * 1024.0 * 1024 * 1024 * (1.0 / (small * 1e12) - 1.0 / model),
               100.0 * (1.0 - small * 1e12 / model), tc_gpu_find("a100")->profile.launch_overhead_us);
    }
    if (h100_wgmma()) return 1;

    /* Colour = kernel, marker = GPU (circle a100, triangle h100); the roofs
       are black (a100 solid, h100 dashed), the FFMA peaks grey. */
    ch = plot_chart_new(1400, 1000, &cd);
    if (!ch) return 1;
    for (j = 0; j < 2; j++) {
        /* min(fp16 mma.sync peak, intensity x L2 -> SM bandwidth): straight lines on log-log axes */
        const tc_gpu *m = tc_gpu_find(gpus[j]);
        const tc_sim_profile *g = &m->profile;
        double hz = g->clock_ghz * 1e9, bw = g->sm_bytes_per_cycle * g->sms * hz;
        double peak = 2.0 * tc_tile_fma_per_clk(m, TC_FP16, 16, 8, 16) * g->sms * hz;
        double rx[3] = { 0.5, peak / bw, 5000 }, ry[3];
        char label[96];
        ry[0] = rx[0] * bw; ry[1] = peak; ry[2] = peak;
        snprintf(label, sizeof label, "%s roof: mma.sync %.0f TFLOP/s, L2->SM %.1f TB/s (%s)", m->name, peak / 1e12,
                 bw / 1e12, measured_count(m->name, "l2_bandwidth") > 0 ? "measured" : "assumed");
        plot_chart_line(ch, rx, ry, 3, label);
        plot_chart_style(ch, 0x000000, j ? PLOT_DASHED : PLOT_SOLID, PLOT_MARK_NONE);
        if (measured_copy_rate(m) > 0.0) {   /* the slope at the rate GEMM operand tiles reached shared memory, up to the peak */
            const double copy = measured_copy_rate(m);
            double cx[2] = { 0.5, peak / copy }, cy[2];
            cy[0] = cx[0] * copy; cy[1] = peak;
            snprintf(label, sizeof label, "%s slope at the operand copy rate %.1f TB/s (measured)", m->name, copy / 1e12);
            plot_chart_line(ch, cx, cy, 2, label);
            plot_chart_style(ch, 0xAA0000, PLOT_SOLID, PLOT_MARK_NONE);
        }
        snprintf(label, sizeof label, "%s FFMA peak", m->name);
        plot_chart_hline(ch, 2.0 * tc_tile_fma_per_clk(m, TC_FP32, 0, 0, 0) * g->sms * hz, label);
        plot_chart_style(ch, 0x888888, j ? PLOT_DASHED : PLOT_DOTTED, PLOT_MARK_NONE);
    }
    for (j = 0; j < 2; j++) {   /* legend keys for the two marker shapes */
        char label[64];
        snprintf(label, sizeof label, "%s (any kernel colour)", gpus[j]);
        plot_chart_points(ch, NULL, NULL, 0, label);
        plot_chart_style(ch, 0x555555, PLOT_SOLID, j ? PLOT_MARK_TRIANGLE : PLOT_MARK_CIRCLE);
    }
    for (i = 0; i < N_LADDER; i++) {
        char label[64];
        snprintf(label, sizeof label, "v%d %s", tc_tile_ladder_get(i)->version, tc_tile_ladder_get(i)->name);
        for (j = 0; j < 2; j++) {
            plot_chart_points(ch, &px[i][j], &py[i][j], 1, j ? "" : label);
            plot_chart_style(ch, (long)plot_palette(i), PLOT_SOLID, j ? PLOT_MARK_TRIANGLE : PLOT_MARK_CIRCLE);
        }
    }
    {   /* h100's wgmma roof stands above its mma.sync one: the published H100 kernels below use wgmma */
        const tc_sim_profile *g = &tc_gpu_find("h100")->profile;
        double hz = g->clock_ghz * 1e9, bw = g->sm_bytes_per_cycle * g->sms * hz;
        double peak = 2.0 * tc_tile_fma_per_clk(tc_gpu_find("h100"), TC_BF16, 64, 256, 16) * g->sms * hz;
        double rx[3] = { 0.5, peak / bw, 5000 }, ry[3];
        char label[64];
        ry[0] = rx[0] * bw; ry[1] = peak; ry[2] = peak;
        snprintf(label, sizeof label, "h100 roof with wgmma: %.0f TFLOP/s", peak / 1e12);
        plot_chart_line(ch, rx, ry, 3, label);
        plot_chart_style(ch, 0x1F3A93, PLOT_DASHED, PLOT_MARK_NONE);
    }
    for (j = 0; j < 2; j++) {   /* published kernels at 4096^3 whose tiling is known: measured rate at the tiling's intensity */
        measured_set set;
        char err[512], label[64];
        double mx[32], my[32];
        int nm = 0;
        if (measured_load(TC_DATASET, &set, err, sizeof err) != TC_OK) { plot_chart_free(ch); return 1; }
        for (i = 0; i < set.n && nm < 32; i++) {
            tc_tile_desc td;
            tc_tile_result tr;
            const tc_gpu *gpu = measured_gpu(&set.rows[i]);
            char math[8];
            if (strcmp(set.rows[i].quantity, "gemm_tflops") != 0 || !gpu || strcmp(gpu->name, gpus[j]) != 0 ||
                measured_param(&set.rows[i], "math", math, sizeof math) ||   /* a copy loop, not a GEMM */
                measured_tile(&set.rows[i], &td) != TC_OK || td.M != 4096 || td.N != 4096 || td.K != 4096 ||
                tc_tile_model(gpu, &td, &tr, NULL) != TC_OK) continue;
            mx[nm] = tr.intensity_l2;
            my[nm++] = set.rows[i].value * 1e12;
        }
        measured_free(&set);
        snprintf(label, sizeof label, "%s measured: published kernels (tests/measured)", gpus[j]);
        plot_chart_points(ch, mx, my, nm, label);
        plot_chart_style(ch, j ? 0x1F3A93 : 0x000000, PLOT_SOLID, PLOT_MARK_CROSS);
    }
    rc = plot_chart_write(ch, plot_out("05_roofline.png"));
    plot_chart_free(ch);
    return rc;
}

int main(int argc, char **argv) {
    const tc_gpu *a = tc_gpu_find("a100"), *h = tc_gpu_find("h100");
    tc_tile_result r;
    tc_tile_desc d;
    if (!a || !h) return 1;
    if (plot_out_args(&argc, argv) != 0) return 2;
    if (argc == 7) {
        int v[6], i;
        for (i = 0; i < 6; i++) {   /* whole numbers 1..4096, nothing else ("abc", "12x", "-3" are refused) */
            char *end;
            long x = strtol(argv[i + 1], &end, 10);
            if (end == argv[i + 1] || *end || x < 1 || x > 4096) {
                fprintf(stderr, "%s: '%s' is not a whole number from 1 to 4096\n"
                        "usage: %s [--out DIR] [cta_m cta_n cta_k warp_m warp_n stages]\n", argv[0], argv[i + 1], argv[0]);
                return 2;
            }
            v[i] = (int)x;
        }
        d = fp16_tile(3072, 3072, 8192, v[0], v[1], v[2], v[3], v[4], v[5]);
        printf("Your tile for 3072 x 3072 x 8192 fp16 on h100:\n");
        report(h, &d, &r);
        d = tc_tile_ladder_get(4)->tile;
        d.M = 3072; d.N = 3072; d.K = 8192;
        printf("Ladder v5's tile:\n");
        return report(h, &d, &r) == TC_OK ? 0 : 1;
    }
    if (argc != 1) {
        fprintf(stderr, "usage: %s [--out DIR] [cta_m cta_n cta_k warp_m warp_n stages]\n", argv[0]);
        return 2;
    }
    tile_choices(a);
    tail(a);
    tail(h);
    if (ladder_and_roofline() || waves_plot()) {
        fprintf(stderr, "could not write a picture\n");
        return 1;
    }
    printf("Wrote 05_roofline.png and 05_waves.png.\n\n");
    d = tc_tile_ladder_get(4)->tile;
    d.M = 3072; d.N = 3072; d.K = 8192;
    printf("Exercise: M = N = 3072, K = 8192, fp16, h100. Ladder v5's tile gives:\n");
    report(h, &d, &r);
    printf("  Choose a tile that predicts faster and check it:\n"
           "    build/lessons/05_gemm_tiling cta_m cta_n cta_k warp_m warp_n stages\n"
           "  Explain the winner from its waves, CTAs per SM and what limits it. (Hint: 3072 / 128 = 24 rows of\n"
           "  CTAs; how many columns fill 2 x 132 slots evenly? Mind the registers of a wide warp tile.)\n");
    return 0;
}
