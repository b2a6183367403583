/* test_tiling.c - section 6, the GEMM tiling model: counts, occupancy and
   waves against values derived by hand in the comments; the roofline switching
   sides where the arithmetic says; every invalid tiling rejected with its
   status; the ladder valid on every machine; the machines' rates taken from
   section 5's profiles; the simulated main loop's program counted by hand,
   its bank conflicts, and its time against the floors it must respect. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <limits.h>
#include <math.h>

/* DRAM bandwidths from the profiles: bytes per clock x clock (1555 GB/s and
   3.35 TB/s, rounded to whole bytes per clock) */
/* The profiles' achievable DRAM bandwidth, bytes per second (section 5) */
#define A100_DRAM (1000.0 * 1.41e9)
#define H100_DRAM (1644.0 * 1.83e9)

static int near(double got, double want, double rel) { return fabs(got - want) <= rel * fabs(want); }

#define CHECK_NEAR(got, want, rel)                                                          \
    do {                                                                                    \
        double g_ = (got), w_ = (want);                                                     \
        if (!tct_check(near(g_, w_, rel), __FILE__, __LINE__, #got " ~ " #want))           \
            printf("     got %.17g, expected %.17g\n", g_, w_);                             \
    } while (0)

/* The usual fp16 tile: 128x128x32 CTA, 64x64 warps, m16n8k16. */
static tc_tile_desc fp16_tile(int M, int N, int K) {
    tc_tile_desc d;
    memset(&d, 0, sizeof d);
    d.M = M; d.N = N; d.K = K;
    d.in = TC_FP16;
    d.cta_m = 128; d.cta_n = 128; d.cta_k = 32;
    d.warp_m = 64; d.warp_n = 64;
    d.inst_m = 16; d.inst_n = 8; d.inst_k = 16;
    d.stages = 3;
    d.regs_per_thread = 168;
    return d;
}

/* The machines take every rate from section 5's profiles: the peaks below
   are the profiles' pipe intervals turned into FLOP/s. */
static void test_machines(void) {
    const tc_gpu *a = tc_gpu_find("a100"), *h = tc_gpu_find("h100");
    const tc_gpu *v = tc_gpu_find("v100"), *rtx = tc_gpu_find("rtx3090");
    const tc_gpu *ada = tc_gpu_find("rtx4090"), *b200 = tc_gpu_find("b200"), *b50 = tc_gpu_find("rtx5090");
    const tc_sim_profile *ga, *gh;
    tc_gpu bad;
    tc_sim_profile slow;
    tc_tile_desc d;
    int i, tiling = 0;
    CHECK(a != NULL && h != NULL);
    /* v100 and rtx3090 are tiling machines now (occupancy of cc 7.0 / 8.6) */
    CHECK(v != NULL && rtx != NULL);
    CHECK(tc_gpu_find(NULL) == NULL);
    CHECK(tc_gpu_find("nope") == NULL);
    CHECK(tc_gpu_get(-1) == NULL);
    CHECK(tc_gpu_get(tc_gpu_count()) == NULL);
    CHECK(tc_gpu_get(2) == a && tc_gpu_get(3) == h);   /* after dettmers2020, dettmers2023 */
    /* no GPU: no rates */
    CHECK(tc_tile_fma_per_clk(NULL, TC_FP16, 16, 8, 16) == 0.0);
    CHECK(tc_tile_shared_bytes_per_clk(NULL) == 0.0);
    /* every GPU is found by its name; the tiling machines are exactly those
       with occupancy limits: a100, h100, v100, rtx3090, rtx4090, b200, rtx5090. The blog machines
       are refused: their profiles model no bandwidth, which tc_tile_check
       tests before occupancy (TC_ERR_PROFILE); given a full profile, their
       all-zero occupancy is refused with TC_ERR_ARG */
    d = fp16_tile(256, 256, 256);
    for (i = 0; i < tc_gpu_count(); i++) {
        const tc_gpu *gpu = tc_gpu_get(i);
        tc_tile_desc f = tc_tile_ladder_get(2)->tile;   /* FFMA: every GPU has FFMA */
        int has_occ;
        CHECK(gpu != NULL);
        if (!gpu) continue;
        CHECK(tc_gpu_find(gpu->name) == gpu);
        has_occ = gpu->occupancy.max_ctas_per_sm > 0;
        CHECK(has_occ == (gpu == a || gpu == h || gpu == v || gpu == rtx || gpu == ada || gpu == b200 || gpu == b50));
        CHECK(has_occ == (gpu->sm != 0));
        f.M = f.N = f.K = 256;
        CHECK_STATUS(tc_tile_check(gpu, &f, NULL), has_occ ? TC_OK : TC_ERR_PROFILE);
        if (!has_occ && a) {
            bad = *gpu;
            bad.profile = a->profile;
            CHECK_STATUS(tc_tile_check(&bad, &f, NULL), TC_ERR_ARG);
            CHECK_STATUS(tc_tile_check(&bad, &d, NULL), TC_ERR_ARG);
        }
        tiling += has_occ;
    }
    CHECK(tiling == 7);
    CHECK_STATUS(tc_tile_check(tc_gpu_find("dettmers2020"), &d, NULL), TC_ERR_PROFILE);
    CHECK_STATUS(tc_tile_check(tc_gpu_find("dettmers2023"), &d, NULL), TC_ERR_PROFILE);
    if (!a || !h || !v || !rtx) return;
    /* v100: no m16n8k16 (only m8n8k4), so the fp16 tile is refused; rtx3090
       (cc 8.6: 16 CTAs, 99 KiB per CTA, 48 warps per SM) takes it */
    CHECK_STATUS(tc_tile_check(v, &d, NULL), TC_ERR_TILE_INST);
    CHECK_STATUS(tc_tile_check(rtx, &d, NULL), TC_OK);
    CHECK(v->occupancy.max_ctas_per_sm == 32 && v->occupancy.shared_bytes_per_cta == 96 * 1024 &&
          v->occupancy.shared_reserved_per_cta == 0);
    CHECK(rtx->occupancy.max_ctas_per_sm == 16 && rtx->occupancy.shared_bytes_per_cta == 99 * 1024);
    ga = &a->profile;
    gh = &h->profile;
    CHECK(ga == &tc_gpu_find("a100")->profile && gh == &tc_gpu_find("h100")->profile);
    CHECK(ga->sms == 108 && gh->sms == 132);
    /* a100: m16n8k16 every 8 cycles on each of 4 sub-partitions = 4 x 2048 / 8
       = 1024 FMA/clk/SM; x 2 x 108 x 1.41 GHz = 311.9 TFLOPS, the whitepaper's 312 */
    CHECK(tc_tile_fma_per_clk(a, TC_FP16, 16, 8, 16) == 1024.0);
    CHECK(tc_tile_fma_per_clk(a, TC_FP16, 16, 8, 8) == 1024.0);
    CHECK(tc_tile_fma_per_clk(a, TC_BF16, 16, 8, 8) == 1024.0);
    CHECK_NEAR(2.0 * tc_tile_fma_per_clk(a, TC_FP16, 16, 8, 16) * 108 * 1.41e9, 312e12, 0.001);
    CHECK_NEAR(2.0 * tc_tile_fma_per_clk(a, TC_TF32, 16, 8, 8) * 108 * 1.41e9, 156e12, 0.001);
    CHECK(tc_tile_fma_per_clk(a, TC_TF32, 16, 8, 4) == 512.0);
    CHECK(tc_tile_fma_per_clk(a, TC_E4M3, 16, 8, 32) == 0.0);   /* no FP8 on sm_80 */
    CHECK(tc_tile_fma_per_clk(a, TC_FP16, 16, 8, 4) == 0.0);    /* not an fp16 shape */
    CHECK(tc_tile_fma_per_clk(a, TC_FP32, 0, 0, 0) == 64.0);    /* 4 x 32 lanes every 2 cycles */
    CHECK(tc_tile_fma_per_clk(h, TC_FP32, 0, 0, 0) == 128.0);
    CHECK(tc_tile_shared_bytes_per_clk(a) == 128.0);
    /* v100: m8n8k4 (256 counted FMA) every 2 cycles x 4 = 512; rtx3090:
       m16n8k16 every 32 cycles x 4 = 256, a quarter of A100's */
    CHECK(tc_tile_fma_per_clk(v, TC_FP16, 8, 8, 4) == 512.0);
    CHECK(tc_tile_fma_per_clk(v, TC_FP16, 16, 8, 16) == 0.0);
    CHECK(tc_tile_fma_per_clk(rtx, TC_FP16, 16, 8, 16) == 256.0);
    /* rtx5090: fp16 (fp32 accumulate) as rtx3090's, FP8 m16n8k32 every 16 cycles x 4 = 1024 */
    CHECK(b50 && tc_tile_fma_per_clk(b50, TC_FP16, 16, 8, 16) == 256.0 && tc_tile_fma_per_clk(b50, TC_E4M3, 16, 8, 32) == 1024.0);
    /* h100: every 6 cycles, 4 x 2048 / 6 = 1365.3 FMA/clk/SM: 659.7 TFLOPS, 66.7% of
       the dense 989 (mma.sync's measured ceiling is about 65%; the interval is
       rounded to whole cycles). The old table said 1340 by hand. */
    CHECK_NEAR(tc_tile_fma_per_clk(h, TC_BF16, 16, 8, 16), 4.0 * 2048 / 6, 1e-12);
    CHECK_NEAR(2.0 * tc_tile_fma_per_clk(h, TC_BF16, 16, 8, 16) * 132 * 1.83e9, 0.667 * 989e12, 0.01);
    CHECK(strcmp(tc_tile_limit_name(TC_TILE_LIMIT_DRAM), "DRAM") == 0);
    CHECK(strcmp(tc_tile_limit_name(TC_TILE_LIMIT_COUNT), "unknown") == 0);

    /* a machine without a profile, with a broken one, or with one that does
       not model bandwidth, is refused; a private profile is used as given.
       The name is no lookup key any more: a renamed copy is the same machine. */
    bad = *a;
    bad.name = "nonesuch";
    CHECK_STATUS(tc_tile_check(&bad, &d, NULL), TC_OK);
    memset(&bad.profile, 0, sizeof bad.profile);                   /* no profile */
    CHECK_STATUS(tc_tile_check(&bad, &d, NULL), TC_ERR_PROFILE);
    bad.profile = tc_gpu_find("dettmers2020")->profile;   /* latencies only: bandwidth 0 */
    CHECK_STATUS(tc_tile_check(&bad, &d, NULL), TC_ERR_PROFILE);
    slow = *ga;
    slow.sms = 0;
    bad.profile = slow;
    CHECK_STATUS(tc_tile_check(&bad, &d, NULL), TC_ERR_PROFILE);
    slow = *ga;
    slow.mma_interval[TC_MMA_M16N8K16_F16] = 16;     /* half the fp16 rate */
    bad.profile = slow;
    CHECK(tc_tile_fma_per_clk(&bad, TC_FP16, 16, 8, 16) == 512.0);
    CHECK_STATUS(tc_tile_check(&bad, &d, NULL), TC_OK);
    bad.occupancy.max_ctas_per_sm = 0;
    CHECK_STATUS(tc_tile_check(&bad, &d, NULL), TC_ERR_ARG);
    /* occupancy fields beyond their documented ranges: regs * 32 wrapped to 0
       (a division by zero), shared + reserved overflowed and was accepted */
    bad.occupancy = tc_gpu_find("a100")->occupancy;
    bad.occupancy.reg_alloc_unit = 1 << 27;
    CHECK_STATUS(tc_tile_check(&bad, &d, NULL), TC_ERR_ARG);
    bad.occupancy = tc_gpu_find("a100")->occupancy;
    bad.occupancy.max_regs_per_thread = INT_MAX;
    d.regs_per_thread = 1 << 27;
    CHECK_STATUS(tc_tile_check(&bad, &d, NULL), TC_ERR_ARG);
    d.regs_per_thread = 0;
    bad.occupancy = tc_gpu_find("a100")->occupancy;
    bad.occupancy.shared_reserved_per_cta = INT64_MAX;
    {
        const char *why = NULL;
        CHECK_STATUS(tc_tile_check(&bad, &d, &why), TC_ERR_ARG);
        CHECK(why && strstr(why, "occupancy"));
    }
    bad.occupancy = tc_gpu_find("a100")->occupancy;
    bad.occupancy.regs_per_sm = INT_MAX;
    CHECK_STATUS(tc_tile_check(&bad, &d, NULL), TC_ERR_ARG);
}

/* 4096^3 fp16 on A100, 3 stages, 168 registers. */
static void test_counts_4096(void) {
    const tc_gpu *a = tc_gpu_find("a100");
    tc_tile_desc d = fp16_tile(4096, 4096, 4096);
    tc_tile_result r;
    const char *why = NULL;
    CHECK_STATUS(tc_tile_model(a, &d, &r, &why), TC_OK);
    CHECK(why && strcmp(why, "ok") == 0);
    CHECK(r.ctas_m == 32 && r.ctas_n == 32 && r.ctas == 1024);
    CHECK(r.warps_per_cta == 4 && r.threads_per_cta == 128);
    CHECK(r.k_iters == 128);
    /* 4096^3 / (16*8*16) = 2^36 / 2^11 */
    CHECK(r.instructions == 33554432.0);
    CHECK(r.flops == 137438953472.0);
    /* 3 stages x (128x32 + 32x128) halves x 2 bytes */
    CHECK(r.shared_per_cta == 49152);
    /* every CTA reads (128 + 128) x 4096 halves: 1024 x 2 MiB = 2^31, plus D 4096^2 x 4 = 2^26 */
    CHECK(r.l2_bytes == 2214592512.0);
    /* A and B 2^25 halves each = 2^26 bytes, D 2^26: 2^27 */
    CHECK(r.dram_bytes == 134217728.0);
    CHECK(r.intensity == 1024.0);
    /* shared: each warp reads (64 + 64) x 32 halves per iteration, every CTA
       stores 256 x 32 halves: 1024 x 128 x (4 x 8192 + 16384) */
    CHECK(r.shared_bytes == 6442450944.0);
    /* registers: 65536 / (168 x 32) = 12 warps = 3 CTAs; shared: 167936 /
       (49152 + 1024) = 3; warps: 64 / 4 = 16 */
    CHECK(r.ctas_by_regs == 3 && r.ctas_by_shared == 3 && r.ctas_by_warps == 16);
    CHECK(r.ctas_per_sm == 3 && r.warps_per_sm == 12);
    /* 324 at once: 1024 = 3 x 324 + 52, so 4 waves, the last 1 CTA per SM */
    CHECK(r.concurrent_ctas == 324 && r.waves == 4 && r.last_wave_ctas_per_sm == 1);
    CHECK_NEAR(r.wave_efficiency, 1024.0 / 1296.0, 1e-12);
    /* ridge: 311.87e12 / 1410e9 = 221.2 flop/byte; 1024 is far above it */
    CHECK_NEAR(r.ridge_intensity, 2.0 * 1024 * 108 * 1.41e9 / A100_DRAM, 1e-12);
    CHECK(!r.memory_bound);
    CHECK_NEAR(r.roofline_s, r.flops / r.peak_flops_per_s, 1e-12);
    /* per iteration, cycles: compute 4 warps x 64 MMAs x 2048 / 1024 = 512;
       shared (4 x 64 + 128) wavefronts = 384; L2 16384 / 35.7 = 458.9 */
    CHECK(r.iter_cycles[TC_TILE_LIMIT_COMPUTE] == 512.0);
    CHECK(r.iter_cycles[TC_TILE_LIMIT_SHARED] == 384.0);
    CHECK(r.iter_cycles[TC_TILE_LIMIT_L2] == 16384.0 / 35.7);
    CHECK(r.limit == TC_TILE_LIMIT_COMPUTE && r.iter_cost == 512.0);
    /* the prediction is never faster than the roofline, and 4 waves of 3
       CTAs with a tail are slower than 1024 / 324 full waves */
    CHECK(r.predicted_s >= r.roofline_s);
    CHECK(r.predicted_flops_per_s <= r.peak_flops_per_s);

    /* the same tile on H100: shared 233472 / 50176 = 4, registers 3: 396 at
       once, 1024 = 2 x 396 + 232 -> 3 waves, the last ceil(232/132) = 2 */
    CHECK_STATUS(tc_tile_model(tc_gpu_find("h100"), &d, &r, NULL), TC_OK);
    CHECK(r.ctas_by_shared == 4 && r.ctas_per_sm == 3);
    CHECK(r.waves == 3 && r.last_wave_ctas_per_sm == 2);
}

/* The FFMA shared-memory kernel: 32x32x32 tiles, a warp is one row of 32. */
static void test_counts_ffma(void) {
    const tc_gpu *a = tc_gpu_find("a100");
    const tc_tile_kernel *k = tc_tile_ladder_get(1);
    tc_tile_desc d;
    tc_tile_result r;
    CHECK(k && k->version == 2);
    if (!k) return;
    d = k->tile;
    d.M = d.N = d.K = 4096;
    CHECK_STATUS(tc_tile_model(a, &d, &r, NULL), TC_OK);
    CHECK(r.ctas == 16384 && r.warps_per_cta == 32 && r.k_iters == 128);
    CHECK(r.instructions == 2147483648.0);                   /* 2^36 / 32 lanes */
    CHECK(r.l2_bytes == 17179869184.0 + 67108864.0);         /* 16384 x 128 x 64 x 32 x 4 + D */
    CHECK(r.dram_bytes == 3.0 * 67108864.0);                 /* fp32 A, B, D */
    /* per k a warp reads one broadcast A word and 32 B words: 2 wavefronts;
       32 k x 32 warps x 2 + stores 8192 / 128 = 2112 cycles, against
       32 x 32 FFMA instructions x 32 / 64 lanes = 512 for compute */
    CHECK(r.iter_cycles[TC_TILE_LIMIT_SHARED] == 2112.0);
    CHECK(r.iter_cycles[TC_TILE_LIMIT_COMPUTE] == 512.0);
    CHECK(r.iter_cost == 2112.0);
    /* 1024 threads of the 32 registers ptxas reports: two CTAs per SM
       (2 x 32 x 1024 = the whole file), which cover each other's single-
       buffer wait: L = L2 209 + 2 x shared 23 + 2112 < 2 x 2112 */
    CHECK(r.regs_per_thread == 32 && r.ctas_per_sm == 2);
    CHECK(r.iter_cycles[TC_TILE_LIMIT_LATENCY] == 2367.0);
    CHECK(r.limit == TC_TILE_LIMIT_SHARED);
    /* the estimate (1 accumulator + 2 x 2 fragments + 40 = 45) fits one CTA,
       which waits for its own load */
    d.regs_per_thread = 0;
    CHECK_STATUS(tc_tile_model(a, &d, &r, NULL), TC_OK);
    CHECK(r.regs_per_thread == 45 && r.ctas_per_sm == 1);
    CHECK(r.limit == TC_TILE_LIMIT_LATENCY);
}

/* M, N, K that the tiles do not divide: the edge tiles count whole. */
static void test_counts_ragged(void) {
    const tc_gpu *h = tc_gpu_find("h100");
    tc_tile_desc d = tc_tile_ladder_get(5)->tile;   /* tf32: 128x128x16, m16n8k8 */
    tc_tile_result r;
    d.M = 1000; d.N = 3000; d.K = 500;
    CHECK_STATUS(tc_tile_model(h, &d, &r, NULL), TC_OK);
    CHECK(r.ctas_m == 8 && r.ctas_n == 24 && r.ctas == 192);
    CHECK(r.k_iters == 32);                                   /* 500 / 16 = 31.25 */
    CHECK(r.instructions == 192.0 * 4 * 32 * (4 * 8 * 2));   /* per warp per iteration: 4 x 8 x 2 */
    CHECK(r.dram_bytes == (1000.0 * 500 + 500.0 * 3000) * 4 + 1000.0 * 3000 * 4);
    CHECK(r.flops == 2.0 * 1000 * 3000 * 500);
    CHECK(r.waves == 1 && r.wave_efficiency < 1.0);
}

/* fp16, M = N = 4096: intensity = 2 x 4096^2 K / (2 x 2 x 4096 K + 4 x 4096^2)
   = 2048 K / (K + 4096). On A100 the ridge is 311.87e12 / 1410e9 = 221.2:
   K = 488 gives 218.0 (memory-bound), K = 496 gives 221.2 (compute-bound,
   just). On H100 it is 2 x (4 x 2048 / 6) x 132 x 1.83e9 / (1644 x 1.83e9)
   = 219.3: K = 488 gives 218.0, K = 496 gives 221.2. */
static void test_roofline(void) {
    const tc_gpu *a = tc_gpu_find("a100"), *h = tc_gpu_find("h100");
    tc_tile_desc d = fp16_tile(4096, 4096, 488);
    tc_tile_result r;
    CHECK_STATUS(tc_tile_model(a, &d, &r, NULL), TC_OK);
    CHECK_NEAR(r.intensity, 2048.0 * 488 / (488 + 4096), 1e-12);
    CHECK_NEAR(r.ridge_intensity, 2.0 * 1024 * 108 * 1.41e9 / A100_DRAM, 1e-12);
    CHECK(r.memory_bound == 1);
    CHECK_NEAR(r.roofline_s, r.dram_bytes / A100_DRAM, 1e-12);
    d.K = 496;
    CHECK_STATUS(tc_tile_model(a, &d, &r, NULL), TC_OK);
    CHECK(r.memory_bound == 0);
    CHECK_NEAR(r.roofline_s, r.flops / r.peak_flops_per_s, 1e-12);
    d.K = 488;
    CHECK_STATUS(tc_tile_model(h, &d, &r, NULL), TC_OK);
    CHECK_NEAR(r.ridge_intensity, 2.0 * (4.0 * 2048 / 6) * 132 * 1.83e9 / H100_DRAM, 1e-12);
    CHECK(r.memory_bound == 1);
    d.K = 496;
    CHECK_STATUS(tc_tile_model(h, &d, &r, NULL), TC_OK);
    CHECK(r.memory_bound == 0);
    /* a thin GEMM is DRAM-bound in the prediction too */
    d.K = 16;
    CHECK_STATUS(tc_tile_model(a, &d, &r, NULL), TC_OK);
    CHECK(r.memory_bound == 1 && r.limit == TC_TILE_LIMIT_DRAM);
    CHECK_NEAR(r.predicted_s, r.dram_bytes / A100_DRAM, 1e-12);
}

/* 4096 vs 4097 with ladder version 5 (226 registers as compiled: 2 CTAs per
   SM on A100, 216 at once). 4096: 1024 CTAs, 5 waves (4 x 216 + 160, the
   last 2 per SM). 4097: 33 x 33 = 1089 CTAs, 6 waves (5 x 216 + 9, the last
   1 per SM), and 4097 fp16 = 8194 bytes per row is only 2-byte aligned, so
   no 16-byte loads: 8x the load instructions. */
static void test_tail(void) {
    const tc_gpu *a = tc_gpu_find("a100");
    tc_tile_desc d = tc_tile_ladder_get(4)->tile;
    tc_tile_result r4096, r4097, r4104;
    d.M = d.N = d.K = 4096;
    CHECK_STATUS(tc_tile_model(a, &d, &r4096, NULL), TC_OK);
    d.M = d.N = d.K = 4097;
    CHECK_STATUS(tc_tile_model(a, &d, &r4097, NULL), TC_OK);
    d.M = d.N = d.K = 4104;   /* the next multiple of 8 */
    CHECK_STATUS(tc_tile_model(a, &d, &r4104, NULL), TC_OK);
    CHECK(r4096.regs_per_thread == 226 && r4096.ctas_per_sm == 2);
    CHECK(r4096.ctas == 1024 && r4096.waves == 5 && r4096.last_wave_ctas_per_sm == 2);
    CHECK(r4097.ctas == 1089 && r4097.waves == 6 && r4097.last_wave_ctas_per_sm == 1);
    CHECK(r4097.k_iters == 129);
    CHECK(r4097.iter_cycles[TC_TILE_LIMIT_ISSUE] > r4096.iter_cycles[TC_TILE_LIMIT_ISSUE]);
    CHECK(r4104.iter_cycles[TC_TILE_LIMIT_ISSUE] == r4096.iter_cycles[TC_TILE_LIMIT_ISSUE]);
    /* one more row and column costs far more than (4097/4096)^3 = 1.0007 */
    CHECK(r4097.predicted_s > 1.1 * r4096.predicted_s);
}

static void test_invalid(void) {
    const tc_gpu *a = tc_gpu_find("a100"), *h = tc_gpu_find("h100");
    tc_tile_desc d;
    tc_tile_result r;
    const char *why = NULL;

    d = fp16_tile(256, 256, 256);
    CHECK_STATUS(tc_tile_check(NULL, &d, &why), TC_ERR_NULL);
    CHECK_STATUS(tc_tile_check(a, NULL, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_tile_model(a, &d, NULL, NULL), TC_ERR_NULL);

    d.M = 0; CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_SIZE);
    d = fp16_tile(256, 256, -1); CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_SIZE);
    d = fp16_tile(256, 256, 256); d.warp_n = 0; CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_SIZE);
    d = fp16_tile(256, 256, 256); d.stages = -1; CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_SIZE);
    d = fp16_tile(256, 256, 256); d.in = TC_DTYPE_COUNT; CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_DTYPE);
    d = fp16_tile(256, 256, 256); d.staging = (tc_tile_staging)7; CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_ARG);
    d = fp16_tile(256, 256, 256); d.staging = TC_TILE_DIRECT; CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_ARG);

    /* warp tile 48 does not divide 128 */
    d = fp16_tile(256, 256, 256); d.warp_m = 48;
    CHECK_STATUS(tc_tile_check(a, &d, &why), TC_ERR_TILE_DIVIDE);
    CHECK(why && strstr(why, "warp tile") != NULL);
    /* CTA 120, warp 60: the n8 instruction does not divide 60 */
    d = fp16_tile(256, 256, 256); d.cta_n = 120; d.warp_n = 60;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_TILE_DIVIDE);
    /* K step 24 with k16 */
    d = fp16_tile(256, 256, 256); d.cta_k = 24;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_TILE_KSTEP);
    /* m16n8k4 is a tf32 shape, not fp16 */
    d = fp16_tile(256, 256, 256); d.inst_k = 4;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_TILE_INST);
    d.in = TC_TF32;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_OK);
    /* FP8 mma.sync: not on A100 */
    d = fp16_tile(256, 256, 256); d.in = TC_E4M3; d.inst_k = 32;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_TILE_INST);
    /* an FFMA warp is 32 lanes */
    d = tc_tile_ladder_get(2)->tile; d.M = d.N = d.K = 256; d.inst_m = 4; d.inst_n = 4;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_TILE_INST);
    /* 256x256 CTA of 16x16 warp tiles: 256 warps */
    d = fp16_tile(256, 256, 256); d.cta_m = 256; d.cta_n = 256; d.warp_m = 16; d.warp_n = 16;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_TILE_THREADS);
    /* 128x256x64, 4 stages: 4 x (128 x 64 + 64 x 256) x 2 = 196608 bytes:
       over A100's 166912 per CTA, within H100's 232448 */
    d = fp16_tile(256, 256, 256); d.cta_n = 256; d.cta_k = 64; d.stages = 4;
    CHECK_STATUS(tc_tile_check(a, &d, &why), TC_ERR_TILE_SHARED);
    CHECK_STATUS(tc_tile_check(h, &d, NULL), TC_OK);
    CHECK_STATUS(tc_tile_model(a, &d, &r, NULL), TC_ERR_TILE_SHARED);
    CHECK(r.ctas == 0 && r.predicted_s == 0.0);
    /* registers: 300 per thread, or 255 (256 allocated) x 1024 threads */
    d = fp16_tile(256, 256, 256); d.regs_per_thread = 300;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_TILE_REGS);
    d = tc_tile_ladder_get(1)->tile; d.M = d.N = d.K = 256; d.regs_per_thread = 255;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_TILE_REGS);
    d.regs_per_thread = 64;   /* 64 x 1024 = the whole file: one CTA fits */
    CHECK_STATUS(tc_tile_model(a, &d, &r, NULL), TC_OK);
    CHECK(r.ctas_by_regs == 1);
    CHECK(strstr(tc_status_string(TC_ERR_TILE_SHARED), "shared memory") != NULL);
}

static void test_ladder(void) {
    int i, j;
    double prev = 0.0;
    tc_tile_limit prev_limit = TC_TILE_LIMIT_COUNT;
    CHECK(tc_tile_ladder_count() == 6);
    CHECK(tc_tile_ladder_get(-1) == NULL && tc_tile_ladder_get(tc_tile_ladder_count()) == NULL);
    /* every tiling machine (a GPU with occupancy limits); v100 has no
       mma.sync but m8n8k4, so it refuses the fp16 and tf32 rungs */
    for (j = 0; j < tc_gpu_count(); j++) {
        const tc_gpu *gpu = tc_gpu_get(j);
        int v100 = strcmp(gpu->name, "v100") == 0;
        if (gpu->occupancy.max_ctas_per_sm == 0) continue;
        prev = 0.0;
        for (i = 0; i < tc_tile_ladder_count(); i++) {
            const tc_tile_kernel *k = tc_tile_ladder_get(i);
            tc_tile_desc d = k->tile;
            tc_tile_result r;
            CHECK(k->version == i + 1);
            d.M = d.N = d.K = 4096;
            if (v100 && d.in != TC_FP32) {
                CHECK_STATUS(tc_tile_model(gpu, &d, &r, NULL), TC_ERR_TILE_INST);
                continue;
            }
            CHECK_STATUS(tc_tile_model(gpu, &d, &r, NULL), TC_OK);
            CHECK(r.predicted_s >= r.roofline_s && r.predicted_s > 0.0);
            /* from the register-blocked kernel up, each fp16/fp32 rung
               predicts at least as fast as the one below (the model does
               not promise that shared tiles beat naive: both are limited by
               the same 128 bytes per clock of L1/shared bandwidth), or
               within 0.5% of it when the Tensor pipe sets both (rtx4090's
               rungs 4 and 5 both reach 99% of its peak; rung 5's twice as
               many waves add a little fill and drain) */
            if (i >= 2 && i < 5)
                CHECK(r.predicted_flops_per_s >= prev ||
                      (r.limit == TC_TILE_LIMIT_COMPUTE && prev_limit == TC_TILE_LIMIT_COMPUTE && r.predicted_flops_per_s >= 0.995 * prev));
            prev = r.predicted_flops_per_s;
            prev_limit = r.limit;
        }
    }
}

/* The simulated main loop. Ladder version 5 (fp16, 128x128x32, 4 warps of
   64x64, m16n8k16, 4 stages) on A100, 1 CTA, 4 iterations (one trip of the
   4-stage unrolled body). Per warp: prologue 3 stages x 8 cp.async (16384
   bytes per stage / 512 per instruction / 4 warps); per iteration 1 BAR +
   8 cp.async + 2 k-steps x (4 ldmatrix.x4 of A + 4 of B, two n8 tiles each,
   + 32 MMAs) = 89; 1 LOOP: 24 + 4 x 89 + 1 = 381 per warp. */
static void test_sim_program(void) {
    const tc_gpu *a = tc_gpu_find("a100");
    tc_tile_desc d = tc_tile_ladder_get(4)->tile;
    tc_sim_program p;
    tc_sim_options o;
    tc_sim_result run;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    d.M = d.N = d.K = 4096;
    CHECK_STATUS(tc_tile_build_mainloop(&p, a, &d, 4, 1), TC_OK);
    CHECK(p.default_sms == 1 && p.default_warps_per_sm == 4);
    CHECK(p.shared_bytes == 4 * (128 * 40 + 32 * 136) * 2);
    o.warps_per_block = 4;
    CHECK_STATUS(tc_sim_run(&a->profile, &p, &o, &run), TC_OK);
    CHECK(run.instructions == 4 * 381);
    CHECK(run.flops == 4.0 * 4 * 64 * 2 * 16 * 8 * 16);
    /* cp.async reads every byte of the 4 tiles once: 4 x 16384 (+ the 3
       stages the loop prefetches past its end) */
    CHECK(run.l2_bytes == 7.0 * 16384);
    /* padded rows (40 and 136 halves): every ldmatrix is conflict-free, 4
       wavefronts; 4 warps x 4 iterations x 2 k-steps x 8 */
    CHECK(run.shared_wavefronts == 4 * 4 * 2 * 8 * 4);
    tc_sim_result_free(&run);
    /* without padding, A's rows of 64 bytes put rows r, r + 2, r + 4, r + 6
       on the same banks: 4 wavefronts per 8x8 matrix, 16 per ldmatrix.x4;
       B's rows of 256 bytes put all 8 rows of a matrix on the same banks:
       8 per matrix, 32 per ldmatrix.x4 */
    d.pad_a = d.pad_b = 0;
    CHECK_STATUS(tc_tile_build_mainloop(&p, a, &d, 4, 1), TC_OK);
    CHECK_STATUS(tc_sim_run(&a->profile, &p, &o, &run), TC_OK);
    CHECK(run.shared_wavefronts == 4 * 4 * 2 * (4 * 16 + 4 * 32));
    tc_sim_result_free(&run);

    /* bad inputs */
    d = tc_tile_ladder_get(4)->tile;
    d.M = d.N = d.K = 4096;
    CHECK_STATUS(tc_tile_build_mainloop(NULL, a, &d, 4, 1), TC_ERR_NULL);
    CHECK_STATUS(tc_tile_build_mainloop(&p, a, &d, 6, 1), TC_ERR_SIZE);    /* not a multiple of 4 stages */
    CHECK_STATUS(tc_tile_build_mainloop(&p, a, &d, 0, 1), TC_ERR_SIZE);
    CHECK_STATUS(tc_tile_build_mainloop(&p, a, &d, 4, 0), TC_ERR_SIZE);
    CHECK_STATUS(tc_tile_build_mainloop(&p, a, &d, 4, 3), TC_ERR_SIZE);    /* 2 fit on an SM */
    d.pad_a = 1;                                                           /* rows of 66 bytes */
    CHECK_STATUS(tc_tile_build_mainloop(&p, a, &d, 4, 1), TC_ERR_SHAPE);
    d = tc_tile_ladder_get(5)->tile;
    d.M = d.N = d.K = 4096;
    d.inst_k = 4;   /* tf32 m16n8k4: its own instruction now, so it is simulated (it was TC_ERR_TILE_INST) */
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_OK);
    CHECK_STATUS(tc_tile_build_mainloop(&p, a, &d, 4, 1), TC_OK);
    CHECK_STATUS(tc_sim_run(&a->profile, &p, &o, &run), TC_OK);
    CHECK(run.flops == 4.0 * 2 * d.cta_m * d.cta_n * d.cta_k);   /* 4 iterations of one CTA */
    tc_sim_result_free(&run);
    /* the prediction works: the MMA pipe's time per iteration is m16n8k8's on
       a100 (both issue 128 tf32 FMA/clk per sub-partition) and 4/3 of it on
       h100 (m16n8k4 at its measured 74% rate: interval 4 for 512 FMA against
       6 for 1024); the simulated time is positive and respects the pipe and
       the roofline */
    {
        static const char *const names[2] = { "a100", "h100" };
        static const double k4_over_k8[2] = { 1.0, 4.0 / 3.0 };
        int j;
        for (j = 0; j < 2; j++) {
            const tc_gpu *gpu = tc_gpu_find(names[j]);
            tc_tile_desc d8 = d;
            tc_tile_result r, m, m8;
            d8.inst_k = 8;
            CHECK_STATUS(tc_tile_model(gpu, &d, &m, NULL), TC_OK);
            CHECK_STATUS(tc_tile_model(gpu, &d8, &m8, NULL), TC_OK);
            CHECK_NEAR(m.iter_cycles[TC_TILE_LIMIT_COMPUTE], k4_over_k8[j] * m8.iter_cycles[TC_TILE_LIMIT_COMPUTE], 1e-12);
            CHECK_STATUS(tc_tile_predict(gpu, &d, &r, NULL), TC_OK);
            CHECK(r.simulated == 1 && r.analytic_predicted_s == m.predicted_s);
            CHECK(r.sim_iter_cycles > 0.0 && r.predicted_s > 0.0);
            CHECK(r.sim_iter_cycles >= r.ctas_per_sm * r.iter_cycles[TC_TILE_LIMIT_COMPUTE]);
            CHECK(r.predicted_s >= r.roofline_s);
        }
    }
    d.warp_m = 48;
    CHECK_STATUS(tc_tile_build_mainloop(&p, a, &d, 4, 1), TC_ERR_TILE_DIVIDE);
    tc_sim_program_free(&p);
}

/* What the simulated iteration time must respect. */
static void test_sim_time(void) {
    const tc_gpu *a = tc_gpu_find("a100"), *h = tc_gpu_find("h100");
    tc_tile_desc d = fp16_tile(4096, 4096, 4096);
    tc_tile_result r, m;
    double c[5], c1, c2;
    const char *why = NULL;
    int st, i, j;

    /* more stages are never slower (1 CTA, so latency shows) and a single
       buffer, which waits for every load, is the slowest. Padded rows: the
       conflicts of unpadded ones would hide everything else (next check). */
    d.pad_a = d.pad_b = 8;
    for (st = 1; st <= 4; st++) {
        d.stages = st;
        CHECK_STATUS(tc_tile_simulate(a, &d, 1, &c[st], NULL), TC_OK);
        if (st > 1) CHECK(c[st] <= c[st - 1]);
    }
    CHECK(c[1] > 1.3 * c[4]);
    /* 1 CTA alone pays at least its own MMAs: 512 cycles (test_counts_4096).
       It does not reach them: one warp per scheduler waits for its
       ldmatrix at every k-step (a second CTA fills those gaps, below) */
    CHECK(c[4] >= 512.0 && c[4] < 1.5 * 512.0);
    /* unpadded: 3 x more shared wavefronts than cycles of MMA (test_sim_program) */
    d.pad_a = d.pad_b = 0;
    CHECK_STATUS(tc_tile_simulate(a, &d, 1, &c1, NULL), TC_OK);
    CHECK(c1 > 2.5 * c[4]);
    d.pad_a = d.pad_b = 8;
    /* two CTAs never take less than one, nor more than two run apart */
    d.stages = 3;
    CHECK_STATUS(tc_tile_simulate(a, &d, 1, &c1, NULL), TC_OK);
    CHECK_STATUS(tc_tile_simulate(a, &d, 2, &c2, NULL), TC_OK);
    CHECK(c2 >= c1 && c2 <= 2.0 * c1);
    CHECK(c2 >= 2 * 512.0 && c2 < 1.1 * 2 * 512.0);   /* two CTAs keep the MMA pipes busy */
    CHECK_STATUS(tc_tile_simulate(a, &d, 3, &c2, NULL), TC_ERR_SIZE);   /* padded, 2 fit */
    CHECK_STATUS(tc_tile_simulate(a, &d, 1, NULL, NULL), TC_ERR_NULL);

    /* every ladder kernel on every machine: the simulation never beats the
       compute pipe (it issues exactly the model's instructions) and the
       prediction never beats the roofline; the compute-bound cp.async
       kernels come within 10% of the pipe */
    for (j = 0; j < tc_gpu_count(); j++)
        for (i = 0; i < tc_tile_ladder_count(); i++) {
            const tc_gpu *mc = tc_gpu_get(j);
            double share = 0.0;
            int k;
            d = tc_tile_ladder_get(i)->tile;
            d.M = d.N = d.K = 4096;
            if (mc->occupancy.max_ctas_per_sm == 0) {   /* the blog machines: no bandwidth, no occupancy */
                CHECK_STATUS(tc_tile_predict(mc, &d, &r, &why), TC_ERR_PROFILE);
                continue;
            }
            if (strcmp(mc->name, "v100") == 0 && d.in != TC_FP32) {   /* m8n8k4 only */
                CHECK_STATUS(tc_tile_predict(mc, &d, &r, &why), TC_ERR_TILE_INST);
                continue;
            }
            CHECK_STATUS(tc_tile_predict(mc, &d, &r, &why), TC_OK);
            CHECK_STATUS(tc_tile_model(mc, &d, &m, NULL), TC_OK);
            CHECK(r.simulated == 1 && m.simulated == 0 && m.sim_iter_cycles == 0.0);
            CHECK(r.analytic_predicted_s == m.predicted_s);
            CHECK(r.sim_iter_cycles >= r.ctas_per_sm * r.iter_cycles[TC_TILE_LIMIT_COMPUTE]);
            CHECK(r.sim_last_iter_cycles <= r.sim_iter_cycles);
            CHECK(r.predicted_s >= r.roofline_s);
            for (k = 0; k < TC_SIM_STATE_COUNT; k++) share += r.sim_state_share[k];
            CHECK_NEAR(share, 1.0, 1e-9);
            /* a100 and h100 (measured rates): the simulated Tensor Core rungs run within 10% of the
               binding throughput resource, the MMA pipe or the SM's share of L2 bandwidth; rtx3090's tf32
               rung is at 1.11 */
            if (i >= 4 && (mc == a || mc == h)) {
                double bound = r.ctas_per_sm * (r.iter_cycles[TC_TILE_LIMIT_COMPUTE] > r.iter_cycles[TC_TILE_LIMIT_L2]
                                                    ? r.iter_cycles[TC_TILE_LIMIT_COMPUTE] : r.iter_cycles[TC_TILE_LIMIT_L2]);
                CHECK(r.sim_iter_cycles < 1.1 * bound);
                CHECK(r.limit == TC_TILE_LIMIT_COMPUTE || r.limit == TC_TILE_LIMIT_L2);
            }
        }

    /* the cp.async pipeline predicts faster than the single buffer */
    d = tc_tile_ladder_get(3)->tile;
    d.M = d.N = d.K = 4096;
    CHECK_STATUS(tc_tile_predict(h, &d, &m, NULL), TC_OK);
    d.stages = 4;
    CHECK_STATUS(tc_tile_predict(h, &d, &r, NULL), TC_OK);
    CHECK(r.predicted_s < m.predicted_s);

    /* refusals: the model's, and the simulator's own */
    d.warp_m = 48;
    CHECK_STATUS(tc_tile_predict(a, &d, &r, &why), TC_ERR_TILE_DIVIDE);
    d = tc_tile_ladder_get(4)->tile;
    d.M = d.N = d.K = 4096;
    d.pad_b = 1;
    CHECK_STATUS(tc_tile_predict(a, &d, &r, &why), TC_ERR_SHAPE);
    CHECK(r.predicted_s == 0.0 && why && strstr(why, "16 bytes") != NULL);
    CHECK_STATUS(tc_tile_predict(a, &d, NULL, NULL), TC_ERR_NULL);
}

/* Accepted by tc_tile_check means tc_tile_predict can simulate it: a warp
   tile needing ldmatrix of 3 B matrices (m16n8k8, 32 x 24) is simulated as
   an .x2 and an .x1; what the simulation cannot run (DIRECT tiles beyond
   the simulated shared memory, FFMA warp tiles whose accumulators alone
   exceed the registers, which simulated for minutes) is refused up front. */
static void test_check_matches_predict(void) {
    const tc_gpu *a = tc_gpu_find("a100");
    tc_tile_desc d = fp16_tile(1024, 1024, 1024);
    tc_tile_result r;
    const char *why = NULL;
    d.cta_m = 64; d.cta_n = 48; d.warp_m = 32; d.warp_n = 24; d.inst_k = 8; d.regs_per_thread = 0;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_OK);
    CHECK_STATUS(tc_tile_predict(a, &d, &r, &why), TC_OK);
    CHECK(r.simulated == 1 && r.sim_iter_cycles > 0.0);
    d = fp16_tile(1024, 1024, 1024);
    d.staging = TC_TILE_DIRECT; d.stages = 0; d.cta_k = 256; d.regs_per_thread = 0;
    d.in = TC_TF32; d.inst_k = 8;   /* 2 x 128 x 256 x 4 bytes = 256 KiB > 164 KiB */
    CHECK_STATUS(tc_tile_check(a, &d, &why), TC_ERR_TILE_SHARED);
    CHECK(why && strstr(why, "direct"));
    memset(&d, 0, sizeof d);
    d.M = d.N = d.K = 1024; d.in = TC_FP32;
    d.cta_m = d.cta_n = 1024; d.cta_k = 8; d.warp_m = d.warp_n = 1024; d.inst_m = 4; d.inst_n = 8; d.inst_k = 1;
    d.staging = TC_TILE_DIRECT; d.regs_per_thread = 255;
    CHECK_STATUS(tc_tile_check(a, &d, &why), TC_ERR_TILE_REGS);
    CHECK(why && strstr(why, "accumulators"));
}

/* wgmma tiles (H100): one warpgroup's 64 x N tile per wgmma, operands from
   shared memory. Counts derived by hand from the h100 profile's wgmma
   interval (a warp's quarter at N = 256) and section 5's scaling by N. */
static void test_wgmma(void) {
    const tc_gpu *a = tc_gpu_find("a100"), *h = tc_gpu_find("h100");
    const tc_sim_profile *g = &h->profile;
    tc_tile_desc d;
    tc_tile_result r;
    tc_sim_program p;
    double fma, per_iter;
    int full = g->mma_interval[TC_WGMMA_BF16], i, wgmma_ops = 0;
    const char *why = NULL;

    memset(&d, 0, sizeof d);
    d.M = d.N = d.K = 4096;
    d.in = TC_BF16;
    d.cta_m = 128; d.cta_n = 256; d.cta_k = 64;
    d.warp_m = 64; d.warp_n = 256;               /* 2 warpgroups, one m64n256k16 per 64 rows */
    d.inst_m = 64; d.inst_n = 256; d.inst_k = 16;
    d.stages = 3;

    /* the rate: 4 sub-partitions x a 16 x 256 x 16 quarter per interval, and
       at N = 128 the interval scaled (rounded up) with the same work halved */
    fma = tc_tile_fma_per_clk(h, TC_BF16, 64, 256, 16);
    CHECK_NEAR(fma, 4.0 * 16 * 256 * 16 / full, 1e-12);
    CHECK_NEAR(tc_tile_fma_per_clk(h, TC_BF16, 64, 128, 16), 4.0 * 16 * 128 * 16 / ((full * 128 + 255) / 256), 1e-12);
    CHECK(tc_tile_fma_per_clk(h, TC_BF16, 64, 100, 16) == 0.0);   /* N a multiple of 8 */
    CHECK(tc_tile_fma_per_clk(a, TC_BF16, 64, 256, 16) == 0.0);   /* sm_90a only */
    CHECK_NEAR(fma, 2048.0, 0.02);                                /* H100's dense 989 TFLOP/s at 1.83 GHz */

    CHECK_STATUS(tc_tile_model(h, &d, &r, &why), TC_OK);
    CHECK(r.warps_per_cta == 8 && r.threads_per_cta == 256);
    CHECK(r.regs_per_thread == 64 * 256 / 128 + 40);              /* accumulators only: A and B stay in shared */
    CHECK(r.shared_per_cta == 3 * (128 + 256) * 64 * 2 && r.ctas_per_sm == 1);
    /* per CTA-iteration: 8 warps x 4 k-steps, each a quarter of 16 x 256 x 16 */
    CHECK_NEAR(r.iter_cycles[TC_TILE_LIMIT_COMPUTE], 8.0 * 4 * 16 * 256 * 16 / fma, 1e-12);
    /* the Tensor Cores read A (64 x 16) and B (256 x 16) per wgmma: one per
       warpgroup per k-step, 2 warpgroups, 4 k-steps; plus the tiles' stores */
    CHECK_NEAR(r.iter_cycles[TC_TILE_LIMIT_SHARED],
               (2.0 * 4 * (64 + 256) * 16 * 2 + (128 + 256) * 64 * 2) / tc_tile_shared_bytes_per_clk(h), 1e-12);
    CHECK_NEAR(r.iter_cycles[TC_TILE_LIMIT_L2], (128.0 + 256) * 64 * 2 / g->sm_bytes_per_cycle, 1e-12);
    CHECK_NEAR(r.peak_flops_per_s, 2.0 * fma * g->sms * g->clock_ghz * 1e9, 1e-12);

    /* the main loop: a wgmma quarter per warp per k-step, no ldmatrix */
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_tile_build_mainloop(&p, h, &d, 3, 1), TC_OK);
    for (i = 0; i < p.n; i++) {
        CHECK(p.code[i].op != TC_SIM_LDSM && p.code[i].op != TC_SIM_LDS);
        if (p.code[i].op == TC_SIM_MMA) { wgmma_ops++; CHECK(p.code[i].mma == TC_WGMMA_BF16 && p.code[i].count == 256); }
    }
    CHECK(wgmma_ops == 3 * 4);   /* 3 unrolled iterations x 4 k-steps */
    tc_sim_program_free(&p);

    /* simulated: 48 KB per iteration at the L2 -> SM share take longer than
       the 1024 cycles of MMA; 3 stages hide the rest */
    CHECK(r.iter_cycles[TC_TILE_LIMIT_L2] > r.iter_cycles[TC_TILE_LIMIT_COMPUTE]);
    CHECK_STATUS(tc_tile_simulate(h, &d, 1, &per_iter, NULL), TC_OK);
    CHECK(per_iter >= r.iter_cycles[TC_TILE_LIMIT_L2] && per_iter < 1.1 * r.iter_cycles[TC_TILE_LIMIT_L2]);
    CHECK_STATUS(tc_tile_predict(h, &d, &r, NULL), TC_OK);
    CHECK(r.simulated && r.predicted_flops_per_s <= r.peak_flops_per_s);

    /* refusals: not on A100, not from global memory, a warpgroup tile that
       the wgmma's N does not divide, accumulators over 255 per thread */
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_TILE_INST);
    d.staging = TC_TILE_DIRECT; d.stages = 0;
    CHECK_STATUS(tc_tile_check(h, &d, &why), TC_ERR_ARG);
    CHECK(why && strstr(why, "wgmma") != NULL);
    d.staging = TC_TILE_SHARED; d.stages = 3;
    d.warp_n = 128;
    CHECK_STATUS(tc_tile_check(h, &d, NULL), TC_ERR_TILE_DIVIDE);
    d.warp_n = 256; d.warp_m = 256; d.cta_m = 256;   /* 4 blocks of 64 x 256: 512 accumulators per thread */
    CHECK_STATUS(tc_tile_check(h, &d, NULL), TC_ERR_TILE_REGS);
}

/* 2:4 sparse A through mma.sp m16n8k32: half the instructions, A's bytes
   halved plus 4 bits of metadata per group of 4, the same FLOPs. */
static void test_sparse(void) {
    const tc_gpu *a = tc_gpu_find("a100"), *h = tc_gpu_find("h100");
    tc_tile_desc d = fp16_tile(4096, 4096, 4096), dense = d;
    tc_tile_result r, rd;
    tc_sim_program p;
    const char *why = NULL;
    int i, sp_ops = 0, meta_lds = 0;
    d.sparse = 1; d.inst_k = 32;
    CHECK_STATUS(tc_tile_model(a, &d, &r, &why), TC_OK);
    CHECK_STATUS(tc_tile_model(a, &dense, &rd, NULL), TC_OK);
    CHECK(r.flops == rd.flops && r.instructions == rd.instructions / 2);
    /* 3 stages x (128 x 16 kept halves + 128 x 8 groups x 4 bits + 32 x 128 halves) */
    CHECK(r.shared_per_cta == 3 * ((128 * 16 + 32 * 128) * 2 + 128 * 8 / 2));
    /* DRAM: A 2^23 kept halves + 2^22 groups x 4 bits, B 2^24 halves, D 2^24 floats */
    CHECK(r.dram_bytes == 16777216.0 + 2097152.0 + 33554432.0 + 67108864.0);
    /* L2: per CTA-iteration 128 x 16 x 2 + 512 + 32 x 128 x 2 = 12800 bytes, 1024 CTAs x 128 iterations, plus D */
    CHECK(r.l2_bytes == 1024.0 * 128 * 12800 + 67108864.0);
    /* compute: half the instructions at the same interval, twice the work each: the same pipe time per FLOP as
       A100's sparse rate (twice dense), so half the cycles */
    CHECK_NEAR(r.iter_cycles[TC_TILE_LIMIT_COMPUTE], rd.iter_cycles[TC_TILE_LIMIT_COMPUTE] / 2, 1e-12);
    CHECK_NEAR(r.peak_flops_per_s, 2 * rd.peak_flops_per_s, 1e-12);
    /* shared reads per warp-iteration: A 64 x 16 halves (4 wavefronts ... 16), B 64 x 32 halves (32),
       4 metadata words (1 each) */
    CHECK(r.shared_bytes == 1024.0 * 128 * (4 * (64 * 16 * 2 + 64 * 32 * 2 + 4 * 128.0) + 12800));

    /* the program: every MMA an mma.sp that waits for its fragment and metadata register, one metadata LDS
       per A fragment, before its ldmatrix */
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_tile_build_mainloop(&p, a, &d, 3, 1), TC_OK);
    for (i = 0; i < p.n; i++) {
        if (p.code[i].op == TC_SIM_MMA) { sp_ops++; CHECK(p.code[i].mma == TC_MMA_SP_M16N8K32_F16 && p.code[i].src[3] == p.code[i].src[0]); }
        if (p.code[i].op == TC_SIM_LDS) {   /* the fragment's ldmatrix follows into the same register, so its ready time is kept */
            meta_lds++;
            CHECK(i + 1 < p.n && p.code[i + 1].op == TC_SIM_LDSM && p.code[i + 1].dst == p.code[i].dst);
        }
    }
    CHECK(sp_ops == 3 * 4 * 8 && meta_lds == 3 * 4);   /* 3 iterations x 4 x 8 instructions; 4 A fragments each */
    tc_sim_program_free(&p);
    CHECK_STATUS(tc_tile_predict(a, &d, &r, NULL), TC_OK);
    CHECK_STATUS(tc_tile_predict(a, &dense, &rd, NULL), TC_OK);
    CHECK(r.simulated && r.predicted_flops_per_s > rd.predicted_flops_per_s && r.predicted_flops_per_s < 2 * rd.predicted_flops_per_s);
    CHECK(r.predicted_flops_per_s <= r.peak_flops_per_s);

    /* refusals */
    d.sparse = 2;
    CHECK_STATUS(tc_tile_check(a, &d, &why), TC_ERR_ARG);
    d.sparse = -1;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_ARG);
    d.sparse = INT_MAX;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_ARG);
    d.sparse = 1; d.inst_k = 8;   /* inst_k is the dense K: there is no f16 mma.sp m16n8k8 */
    CHECK_STATUS(tc_tile_check(a, &d, &why), TC_ERR_TILE_INST);
    CHECK(why && strstr(why, "mma.sp") != NULL);
    d.inst_k = 32;
    CHECK_STATUS(tc_tile_check(tc_gpu_find("v100"), &d, NULL), TC_ERR_TILE_INST);   /* no mma.sp before sm_80 */
    d.staging = TC_TILE_DIRECT; d.stages = 0; d.pad_a = d.pad_b = 0;
    CHECK_STATUS(tc_tile_check(a, &d, &why), TC_ERR_ARG);
    d = fp16_tile(4096, 4096, 4096);
    d.in = TC_FP32; d.inst_m = 8; d.inst_n = 4; d.inst_k = 1; d.sparse = 1; d.pad_a = d.pad_b = 0;
    CHECK_STATUS(tc_tile_check(a, &d, &why), TC_ERR_TILE_INST);
    CHECK(why && strstr(why, "FFMA") != NULL);
    /* a wgmma.sp warpgroup tile: the table has it, the tiling model does not */
    d = fp16_tile(4096, 4096, 4096);
    d.cta_n = 256; d.warp_m = 64; d.warp_n = 256; d.inst_m = 64; d.inst_n = 256; d.inst_k = 32; d.pad_a = d.pad_b = 0; d.sparse = 1;
    d.regs_per_thread = 0;
    CHECK_STATUS(tc_tile_check(h, &d, &why), TC_ERR_ARG);
    CHECK(why && strstr(why, "wgmma.sp") != NULL);
    CHECK_STATUS(tc_tile_model(h, &d, &r, NULL), TC_ERR_ARG);
}

/* A single-buffered iteration's loads in dependent rounds (load_rounds):
   each round's shared stores wait for its loads before the next round's
   loads issue, so every round adds one L2 round trip. */
static void test_load_rounds(void) {
    const tc_gpu *a = tc_gpu_find("a100");
    tc_tile_desc d = fp16_tile(4096, 4096, 4096);
    tc_tile_result r1, r2, r8;
    tc_sim_program p, q;
    const char *why = NULL;
    int i, seq[32], n = 0;
    /* one buffer, conflict-free rows, 2 CTAs per SM (255 registers): too few to hide the rounds */
    d.stages = 1; d.pad_a = d.pad_b = 8; d.regs_per_thread = 255;
    CHECK_STATUS(tc_tile_model(a, &d, &r1, NULL), TC_OK);
    CHECK(r1.ctas_per_sm == 2);
    d.load_rounds = 2;
    CHECK_STATUS(tc_tile_model(a, &d, &r2, &why), TC_OK);
    /* the analytic floor: one more L2 round trip; every count unchanged */
    CHECK_NEAR(r2.iter_cycles[TC_TILE_LIMIT_LATENCY] - r1.iter_cycles[TC_TILE_LIMIT_LATENCY], a->profile.l2_latency, 1e-9);
    CHECK(r2.l2_bytes == r1.l2_bytes && r2.shared_bytes == r1.shared_bytes && r2.instructions == r1.instructions);

    /* the program: a warp's 8 loads of 512 bytes (16384 bytes a stage over 4 warps) as 4 LDG, their 4 STS,
       4 LDG, their 4 STS, then the barrier */
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_tile_build_mainloop(&p, a, &d, 1, 1), TC_OK);
    for (i = 0; i < p.n && n < 32; i++)
        if (p.code[i].op == TC_SIM_LDG || p.code[i].op == TC_SIM_STS || p.code[i].op == TC_SIM_BAR) seq[n++] = p.code[i].op;
    CHECK(n >= 17);
    for (i = 0; i < 16 && i < n; i++) CHECK(seq[i] == (i / 4 % 2 ? TC_SIM_STS : TC_SIM_LDG));
    if (n > 16) CHECK(seq[16] == TC_SIM_BAR);
    /* more rounds than loads: one round per load, the same program as 8 */
    d.load_rounds = 64;
    memset(&q, 0, sizeof q);
    CHECK_STATUS(tc_tile_build_mainloop(&q, a, &d, 1, 1), TC_OK);
    tc_sim_program_free(&p);
    d.load_rounds = 8;
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_tile_build_mainloop(&p, a, &d, 1, 1), TC_OK);
    CHECK(p.n == q.n);
    for (i = 0; i < p.n && i < q.n; i++) CHECK(p.code[i].op == q.code[i].op && p.code[i].dst == q.code[i].dst);
    tc_sim_program_free(&p);
    tc_sim_program_free(&q);

    /* simulated: each round is waited for */
    d.load_rounds = 0;
    CHECK_STATUS(tc_tile_predict(a, &d, &r1, NULL), TC_OK);
    d.load_rounds = 2;
    CHECK_STATUS(tc_tile_predict(a, &d, &r2, NULL), TC_OK);
    d.load_rounds = 8;
    CHECK_STATUS(tc_tile_predict(a, &d, &r8, NULL), TC_OK);
    CHECK(r1.simulated && r2.simulated && r8.simulated);
    CHECK(r2.sim_iter_cycles > r1.sim_iter_cycles && r8.sim_iter_cycles > r2.sim_iter_cycles);

    /* refusals: out of range, and rounds on loads that do not pass through registers */
    d.load_rounds = -1;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_SIZE);
    d.load_rounds = 65;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_SIZE);
    d.load_rounds = INT_MAX;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_SIZE);
    d.load_rounds = 2; d.stages = 3;
    CHECK_STATUS(tc_tile_check(a, &d, &why), TC_ERR_ARG);
    CHECK(why && strstr(why, "load_rounds") != NULL);
    CHECK_STATUS(tc_tile_model(a, &d, &r1, NULL), TC_ERR_ARG);
    d.load_rounds = 1;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_OK);
    d = tc_tile_ladder_get(0)->tile;   /* v1: direct loads */
    d.M = d.N = d.K = 1024;
    d.load_rounds = 2;
    CHECK_STATUS(tc_tile_check(a, &d, NULL), TC_ERR_ARG);
}

int main(void) {
    test_check_matches_predict();
    test_machines();
    test_counts_4096();
    test_counts_ffma();
    test_counts_ragged();
    test_roofline();
    test_tail();
    test_invalid();
    test_ladder();
    test_sim_program();
    test_sim_time();
    test_wgmma();
    test_sparse();
    test_load_rounds();
    return tct_finish("test_tiling");
}
