/* test_sim.c - section 5, the cycle-approximate simulator: Dettmers' exact
   cycle counts, analytic micro-cases (dependent chains, bank conflicts,
   bandwidth, latency hiding), stall accounting, and every rejected input;
   the GPU table (tc_gpu) and the status kinds. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <limits.h>
#include <math.h>
#include <time.h>

static const tc_sim_profile *prof(const char *name) {
    const tc_gpu *gpu = tc_gpu_find(name);
    CHECK(gpu != NULL);
    return gpu ? &gpu->profile : NULL;
}

/* tc_sim_shared_passes / tc_sim_global_sectors for inputs that must be
   accepted: the count, or -1 (and a failed check) on an error status. */
static int passes_of(const uint32_t *a, int lanes, int width, int banks, int bank_bytes) {
    int n = -1;
    tc_status s = tc_sim_shared_passes(a, lanes, width, banks, bank_bytes, &n);
    CHECK_STATUS(s, TC_OK);
    return s == TC_OK ? n : -1;
}
static int sectors_of(const uint64_t *a, int lanes, int width, int sector_bytes) {
    int n = -1;
    tc_status s = tc_sim_global_sectors(a, lanes, width, sector_bytes, &n);
    CHECK_STATUS(s, TC_OK);
    return s == TC_OK ? n : -1;
}

/* Runs p on g with the given SMs/warps (0 = program default); -1 on failure. */
static int64_t cycles_of(const tc_sim_profile *g, tc_sim_program *p, int sms, int warps, tc_sim_result *keep) {
    tc_sim_options o;
    tc_sim_result r;
    tc_status s;
    int64_t c;
    memset(&o, 0, sizeof o);
    o.sms = sms;
    o.warps_per_sm = warps;
    o.record_timeline = 1;
    s = tc_sim_run(g, p, &o, &r);
    CHECK_STATUS(s, TC_OK);
    if (s != TC_OK) return -1;
    c = r.cycles;
    if (keep) *keep = r; else tc_sim_result_free(&r);
    return c;
}

/* Every warp's states add up to the run's cycles, per warp (timeline) and in total. */
static void check_accounting(const tc_sim_result *r) {
    int64_t sum = 0, w, bad = 0;
    int k;
    for (k = 0; k < TC_SIM_STATE_COUNT; k++) sum += r->state_cycles[k];
    CHECK(sum == (int64_t)r->warps * r->cycles);
    CHECK(r->state_cycles[TC_SIM_SELECTED] == r->instructions);
    if (!r->segments || r->timeline_truncated) return;
    for (w = 0; w < r->warps; w++) {
        int64_t i, first = r->warp_segments[w], last = r->warp_segments[w + 1];
        if (last <= first || r->segments[first].start != 0) bad++;
        for (i = first + 1; i < last; i++)
            if (r->segments[i].start <= r->segments[i - 1].start || r->segments[i].state == r->segments[i - 1].state) bad++;
    }
    CHECK(bad == 0);
}

static void test_dettmers(void) {
    static const struct { const char *profile; int tc; int64_t want; } cases[] = {
        { "dettmers2020", 0, 392 }, { "dettmers2020", 1, 221 },   /* 200 + 8*20 + 8*4; 200 + 20 + 1 */
        { "dettmers2023", 0, 504 }, { "dettmers2023", 1, 235 },   /* 200 + 8*34 + 8*4; 200 + 34 + 1 */
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tc_sim_program p;
        tc_sim_matmul32_desc d;
        tc_sim_result r;
        memset(&p, 0, sizeof p);
        memset(&d, 0, sizeof d);
        d.tensor_cores = cases[i].tc;
        CHECK_STATUS(tc_sim_build_matmul32(&p, &d), TC_OK);
        if (cycles_of(prof(cases[i].profile), &p, 0, 0, &r) >= 0) {
            CHECK_BITS(i, r.cycles, cases[i].want);
            CHECK(r.warps == 64);
            CHECK(r.flops == 2.0 * 16384);   /* 64 warps x 256 multiply-adds, either way */
            check_accounting(&r);
            tc_sim_result_free(&r);
        }
        /* a barrier after the copy costs one issue slot */
        d.sync = 1;
        CHECK_STATUS(tc_sim_build_matmul32(&p, &d), TC_OK);
        CHECK_BITS(i, cycles_of(prof(cases[i].profile), &p, 0, 0, NULL), cases[i].want + 1);
        tc_sim_program_free(&p);
    }
}

static void test_ffma_chain(void) {
    int n, j;
    for (j = 0; j < tc_gpu_count(); j++) {
        const tc_sim_profile *g = &tc_gpu_get(j)->profile;
        for (n = 1; n <= 64; n *= 4) {
            tc_sim_program p;
            tc_sim_result r;
            memset(&p, 0, sizeof p);
            CHECK_STATUS(tc_sim_build_ffma_chain(&p, n), TC_OK);
            if (cycles_of(g, &p, 1, 1, &r) >= 0) {
                CHECK_BITS(n, r.cycles, (int64_t)n * g->ffma_latency);
                CHECK(r.state_cycles[TC_SIM_SELECTED] == n);
                CHECK(r.state_cycles[TC_SIM_WAIT] == (int64_t)n * (g->ffma_latency - 1));
                check_accounting(&r);
                tc_sim_result_free(&r);
            }
            tc_sim_program_free(&p);
        }
    }
}

static void test_mma(void) {
    const tc_sim_profile *g = prof("h100");
    tc_sim_program p;
    const int k = TC_MMA_M16N8K16_F16, n = 32;
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_build_mma_chain(&p, (tc_mma_instr)k, n, 1), TC_OK);
    CHECK_BITS(k, cycles_of(g, &p, 1, 1, NULL), (int64_t)n * g->mma_latency[k]);
    /* independent MMAs: one per initiation interval, then one latency */
    CHECK_STATUS(tc_sim_build_mma_chain(&p, (tc_mma_instr)k, n, 0), TC_OK);
    CHECK_BITS(k, cycles_of(g, &p, 1, 1, NULL), (int64_t)(n - 1) * g->mma_interval[k] + g->mma_latency[k]);
    /* an MMA the GPU lacks */
    CHECK_STATUS(tc_sim_build_mma_chain(&p, TC_MMA_M16N8K32_E4M3, 1, 1), TC_OK);
    {
        tc_sim_result r;
        CHECK_STATUS(tc_sim_run(prof("a100"), &p, NULL, &r), TC_ERR_ARCH);
    }
    tc_sim_program_free(&p);
}

/* A fresh program of `count` dependent MMAs of width n (each reads the
   last one's result), then EXIT. */
static void dependent_mma_n(tc_sim_program *p, tc_mma_instr kind, int n, int count) {
    int i;
    memset(p, 0, sizeof *p);
    for (i = 0; i < count; i++) tc_sim_mma_n(p, kind, n, 0, 1, 2, 0);
    tc_sim_exit(p);
    CHECK_STATUS(p->status, TC_OK);
}

/* wgmma: each of a warpgroup's 4 warps issues its 16 x N x K quarter on its
   own sub-partition. Hand-derived for h100 (profile at N = 256: latency
   146, interval 128): N = 128 takes interval 128 * 128 / 256 = 64 and
   latency 146 - 128 + 64 = 82, so 4 dependent wgmma end at 4 * 82 = 328;
   N = 8: interval 4, latency 22. */
static void test_wgmma_issue(void) {
    const tc_sim_profile *g = prof("h100");
    tc_sim_program p;
    tc_sim_result r;
    int i;
    dependent_mma_n(&p, TC_WGMMA_F16, 128, 4);
    if (cycles_of(g, &p, 1, 4, &r) >= 0) {
        CHECK_BITS(128, r.cycles, 328);
        CHECK(r.flops == 4.0 * 4 * 2 * 16 * 128 * 16);   /* 4 warps x 4 quarters: 4 whole m64n128k16 */
        /* the peak is FP8 wgmma's, the full dense rate: 1024 FMA per clock per sub-partition (fp16 512) */
        CHECK(fabs(r.peak_tensor_flops_per_s / ((double)r.sms * g->subpartitions * 2.0 * 1024 * g->clock_ghz * 1e9) - 1.0) < 1e-12);
        tc_sim_result_free(&r);
    }
    tc_sim_program_free(&p);
    memset(&p, 0, sizeof p);
    for (i = 0; i < 8; i++) tc_sim_mma_n(&p, TC_WGMMA_E4M3_E5M2, 8, 8 + i, 1, 2, 8 + i);   /* independent */
    tc_sim_exit(&p);
    CHECK_BITS(8, cycles_of(g, &p, 1, 1, NULL), 7 * 4 + 22);
    tc_sim_program_free(&p);
    memset(&p, 0, sizeof p);
    tc_sim_mma(&p, TC_WGMMA_TF32, 0, 1, 2, 0);   /* tc_sim_mma: the largest N */
    tc_sim_exit(&p);
    CHECK(p.code[0].count == 256);
    CHECK_BITS(256, cycles_of(g, &p, 1, 1, NULL), 146);
    CHECK_STATUS(tc_sim_run(prof("a100"), &p, NULL, &r), TC_ERR_ARCH);   /* no wgmma before sm_90 */
    p.code[0].count = 12;   /* not a multiple of 8 */
    CHECK_STATUS(tc_sim_run(g, &p, NULL, &r), TC_ERR_PROGRAM);
    p.code[0].count = 0;
    CHECK_STATUS(tc_sim_run(g, &p, NULL, &r), TC_ERR_PROGRAM);
    p.code[0].mma = TC_MMA_M16N8K16_F16; p.code[0].count = 8;   /* a fixed-N kind carries no N */
    CHECK_STATUS(tc_sim_run(g, &p, NULL, &r), TC_ERR_PROGRAM);
    tc_sim_program_free(&p);
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_mma_n(&p, TC_MMA_M16N8K16_F16, 8, 0, 1, 2, 0), TC_ERR_ARG);
    tc_sim_program_free(&p);
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_mma_n(&p, TC_WGMMA_BF16, 260, 0, 1, 2, 0), TC_ERR_SHAPE);
    CHECK(p.n == 0 && p.status == TC_ERR_SHAPE);
    tc_sim_program_free(&p);
    {   /* wgmma.sp (profile: the dense wgmma's 146 / 128 at N = 256, twice the logical K): 4 dependent at
           N = 128 end at 4 * 82 = 328 as the dense ones, with twice their multiply-adds; its metadata is a
           fourth source (tc_sim_mma_sp issues the largest N); a100 and b200 lack it */
        memset(&p, 0, sizeof p);
        for (i = 0; i < 4; i++) tc_sim_mma_n(&p, TC_WGMMA_SP_F16, 128, 0, 1, 2, 0);
        tc_sim_exit(&p);
        if (cycles_of(g, &p, 1, 4, &r) >= 0) {
            CHECK_BITS(128, r.cycles, 328);
            CHECK(r.flops == 4.0 * 4 * 2 * 16 * 128 * 32);
            tc_sim_result_free(&r);
        }
        tc_sim_program_free(&p);
        memset(&p, 0, sizeof p);
        CHECK_STATUS(tc_sim_mma_sp(&p, TC_WGMMA_SP_E4M3_E5M2, 0, 1, 2, 0, 3), TC_OK);
        tc_sim_exit(&p);
        CHECK(p.code[0].count == 256 && p.code[0].src[3] == 3);
        CHECK_BITS(256, cycles_of(g, &p, 1, 1, NULL), 146);
        CHECK_STATUS(tc_sim_run(prof("a100"), &p, NULL, &r), TC_ERR_ARCH);
        CHECK_STATUS(tc_sim_run(prof("b200"), &p, NULL, &r), TC_ERR_ARCH);
        tc_sim_program_free(&p);
    }
    {   /* tcgen05.mma: h100 lacks it; given a timing, one warp issues the whole M x N x K: N = 128 of
           a kind timed 100 / 64 at N = 256 takes interval 32, latency 68 */
        tc_sim_profile t = *g;
        memset(&p, 0, sizeof p);
        tc_sim_mma_n(&p, TC_TCGEN05_M128_F16, 128, 0, 1, 2, 0);
        tc_sim_exit(&p);
        CHECK_STATUS(tc_sim_run(g, &p, NULL, &r), TC_ERR_ARCH);
        t.mma_latency[TC_TCGEN05_M128_F16] = 100;
        t.mma_interval[TC_TCGEN05_M128_F16] = 64;
        if (cycles_of(&t, &p, 1, 1, &r) >= 0) {
            CHECK_BITS(128, r.cycles, 68);
            CHECK(r.flops == 2.0 * 128 * 128 * 16);
            tc_sim_result_free(&r);
        }
        tc_sim_program_free(&p);
    }
    {   /* the 32x32 matmul is a warp program: no wgmma there */
        tc_sim_matmul32_desc d;
        memset(&d, 0, sizeof d);
        memset(&p, 0, sizeof p);
        d.tensor_cores = 1; d.mma = TC_WGMMA_F16;
        CHECK_STATUS(tc_sim_build_matmul32(&p, &d), TC_ERR_ARG);
        tc_sim_program_free(&p);
    }
}

/* The new profiles' MMA kinds, hand-derived. b200's tcgen05.mma.m128nNk16.f16 at N = 256: 128 x 256 x 16
   = 524288 FMA at the datasheet's 1024 fp16 FMA/clk per sub-partition = interval 512, latency 512 + 18 =
   530; at N = 128 interval 256, latency 530 - 512 + 256 = 274, so 4 dependent end at 4 x 274 = 1096 and
   8 independent (one warp) at 7 x 256 + 274 = 2066. rtx4090's FP8 m16n8k32.e4m3: 4096 FMA at 128 FP8
   FMA/clk per sub-partition (330.3 TFLOPS, fp32 accumulate) = interval 32, latency 32 + 17 = 49: 4
   dependent take 196, 8 independent 7 x 32 + 49 = 273; the peak is the best dense kind's, INT4's 2048
   MAC/clk/SM (the whitepaper's 1321.2 TOPS). */
static void test_new_profile_mma(void) {
    const tc_sim_profile *b = prof("b200"), *a = prof("rtx4090");
    tc_sim_program p;
    tc_sim_result r;
    int i, j;
    dependent_mma_n(&p, TC_TCGEN05_M128_F16, 128, 4);
    if (cycles_of(b, &p, 1, 1, &r) >= 0) {
        CHECK_BITS(1096, r.cycles, 1096);
        CHECK(r.flops == 4.0 * 2 * 128 * 128 * 16);
        /* the peak is the best dense kind's, tcgen05 kind::mxf4's: 148 SMs x 4 sub-partitions x 2 x 4096
           FMA x 1.86 GHz = 9 PFLOPS, the datasheet's dense FP4 (kind::f8f6f4's 2048 FMA give FP8's 4.5,
           kind::f16's 1024 its 2.25) */
        CHECK(fabs(r.peak_tensor_flops_per_s / r.sms * b->sms / 9e15 - 1.0) < 0.01);
        tc_sim_result_free(&r);
    }
    CHECK_STATUS(tc_sim_run(prof("h100"), &p, NULL, &r), TC_ERR_ARCH);   /* no tcgen05 before sm_100 */
    tc_sim_program_free(&p);
    /* kind::f8f6f4 and the block-scaled kind::mxf8f6f4, every pairing: M x 256 x 32 at 2048 FMA/clk per
       sub-partition, twice kind::f16's rate; kind::mxf4 and mxf4nvf4: 128 x 256 x 64 at FP4's 4096; latency 18
       beyond; absent from every profile but b200 (sm_120's mma.sync kind::f8f6f4 and block-scaled rows from
       every profile but rtx5090) */
    for (i = 0, j = 0; i < TC_MMA_INSTR_COUNT; i++) {
        tc_mma_instr_info in;
        int g, fma = 2048, n_b200 = 0;
        CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)i, &in), TC_OK);
        if (!strstr(in.ptx, "f8f6f4") && !strstr(in.ptx, "kind::mxf4")) continue;
        for (g = 0; g < tc_gpu_count(); g++) n_b200 += tc_gpu_get(g)->profile.mma_latency[i] != 0;
        if (in.threads == 32) { CHECK(n_b200 == 1 && prof("rtx5090")->mma_latency[i] > 0); continue; }
        j++;
        if (strstr(in.ptx, "kind::mxf4")) fma = 4096;
        CHECK(b->mma_interval[i] * fma == in.m * 256 * in.k && b->mma_latency[i] == b->mma_interval[i] + 18);
        CHECK(b->mma_interval[i] == b->mma_interval[in.m == 64 ? TC_TCGEN05_M64_F16 : TC_TCGEN05_M128_F16]);   /* twice (four times) the K */
        CHECK(n_b200 == 1);
    }
    CHECK(j == 50 + 27);
    memset(&p, 0, sizeof p);
    for (i = 0; i < 8; i++) tc_sim_mma_n(&p, TC_TCGEN05_M128_TF32, 128, 8 + i, 1, 2, 8 + i);
    tc_sim_exit(&p);
    CHECK_BITS(2066, cycles_of(b, &p, 1, 1, NULL), 2066);
    tc_sim_program_free(&p);
    memset(&p, 0, sizeof p);
    tc_sim_mma(&p, TC_WGMMA_F16, 0, 1, 2, 0);
    tc_sim_exit(&p);
    CHECK_STATUS(tc_sim_run(b, &p, NULL, &r), TC_ERR_ARCH);   /* no wgmma on sm_100 */
    tc_sim_program_free(&p);
    memset(&p, 0, sizeof p);
    for (i = 0; i < 4; i++) tc_sim_mma(&p, TC_MMA_M16N8K32_E4M3, 0, 1, 2, 0);
    tc_sim_exit(&p);
    if (cycles_of(a, &p, 1, 1, &r) >= 0) {
        CHECK_BITS(196, r.cycles, 196);
        CHECK(fabs(r.peak_tensor_flops_per_s / r.sms * a->sms / 1321.2e12 - 1.0) < 0.01);
        tc_sim_result_free(&r);
    }
    tc_sim_program_free(&p);
    memset(&p, 0, sizeof p);
    for (i = 0; i < 8; i++) tc_sim_mma(&p, TC_MMA_M16N8K32_E4M3, 8 + i, 1, 2, 8 + i);
    tc_sim_exit(&p);
    CHECK_BITS(273, cycles_of(a, &p, 1, 1, NULL), 273);
    tc_sim_program_free(&p);
}

static void test_banks(void) {
    static const int ways[] = { 1, 2, 4, 8, 16, 32 };
    const tc_sim_profile *g = prof("a100");
    tc_sim_program p;
    uint32_t a[32];
    size_t i;
    int l;
    int64_t base;
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_build_shared_stride(&p, 1), TC_OK);
    base = cycles_of(g, &p, 1, 1, NULL);
    CHECK_BITS(1, base, g->shared_latency + g->ffma_latency);
    for (i = 0; i < sizeof ways / sizeof ways[0]; i++) {
        int k = ways[i];
        tc_sim_result r;
        /* k-way: lane l reads word (l % (32/k)) + (l / (32/k)) * 32, so k distinct words share each used bank */
        for (l = 0; l < 32; l++) a[l] = (uint32_t)(((l % (32 / k)) + (l / (32 / k)) * 32) * 4);
        CHECK_BITS(k, passes_of(a, 32, 4, 32, 4), k);
        CHECK_STATUS(tc_sim_build_shared_pattern(&p, a, 4), TC_OK);
        if (cycles_of(g, &p, 1, 1, &r) >= 0) {
            CHECK_BITS(k, r.cycles, base + k - 1);
            CHECK(r.shared_wavefronts == k);
            CHECK(r.state_cycles[TC_SIM_SHORT_SCOREBOARD] == g->shared_latency + k - 2);
            tc_sim_result_free(&r);
        }
    }
    /* strides: 2 -> 2-way, 32 -> 32-way, 33 (padding) -> none; all lanes on one word: broadcast */
    for (l = 0; l < 32; l++) a[l] = (uint32_t)(l * 2 * 4);
    CHECK(passes_of(a, 32, 4, 32, 4) == 2);
    for (l = 0; l < 32; l++) a[l] = (uint32_t)(l * 32 * 4);
    CHECK(passes_of(a, 32, 4, 32, 4) == 32);
    for (l = 0; l < 32; l++) a[l] = (uint32_t)(l * 33 * 4);
    CHECK(passes_of(a, 32, 4, 32, 4) == 1);
    for (l = 0; l < 32; l++) a[l] = 64;
    CHECK(passes_of(a, 32, 4, 32, 4) == 1);
    /* XOR swizzle of a 32x32 float tile read by column: row l, column (c ^ l) */
    for (l = 0; l < 32; l++) a[l] = (uint32_t)((l * 32 + (5 ^ l)) * 4);
    CHECK(passes_of(a, 32, 4, 32, 4) == 1);
    /* 16-byte loads go in 4 phases of 8 lanes: contiguous = 4 passes */
    for (l = 0; l < 32; l++) a[l] = (uint32_t)(l * 16);
    CHECK(passes_of(a, 32, 16, 32, 4) == 4);
    /* bad inputs: an error status (they returned 0 passes before), and *passes untouched */
    {
        int n = 12345;
        CHECK_STATUS(tc_sim_shared_passes(NULL, 32, 4, 32, 4, &n), TC_ERR_NULL);
        CHECK_STATUS(tc_sim_shared_passes(a, 32, 4, 32, 4, NULL), TC_ERR_NULL);
        CHECK_STATUS(tc_sim_shared_passes(a, 33, 4, 32, 4, &n), TC_ERR_ARG);
        CHECK_STATUS(tc_sim_shared_passes(a, 0, 4, 32, 4, &n), TC_ERR_ARG);
        CHECK_STATUS(tc_sim_shared_passes(a, -1, 4, 32, 4, &n), TC_ERR_ARG);
        CHECK_STATUS(tc_sim_shared_passes(a, 32, 3, 32, 4, &n), TC_ERR_ARG);
        CHECK_STATUS(tc_sim_shared_passes(a, 32, 4, 24, 4, &n), TC_ERR_ARG);
        CHECK_STATUS(tc_sim_shared_passes(a, 32, 4, 32, 2, &n), TC_ERR_ARG);
        CHECK(n == 12345);
        a[3] = 2;
        CHECK_STATUS(tc_sim_shared_passes(a, 32, 4, 32, 4, &n), TC_ERR_ARG);   /* misaligned */
        CHECK(n == 12345);
        CHECK(passes_of(a, 3, 4, 32, 4) == 1);   /* lanes 0..2 only: lane 3's address is not read */
    }
    tc_sim_program_free(&p);
}

static void test_global(void) {
    uint64_t a[32];
    int l;
    tc_sim_program p;
    const tc_sim_profile *g = prof("dettmers2023");
    for (l = 0; l < 32; l++) a[l] = (uint64_t)l * 4;
    CHECK(sectors_of(a, 32, 4, 32) == 4);      /* 128 coalesced bytes */
    for (l = 0; l < 32; l++) a[l] = (uint64_t)l * 128;
    CHECK(sectors_of(a, 32, 4, 32) == 32);     /* strided: a sector per lane */
    for (l = 0; l < 32; l++) a[l] = 256;
    CHECK(sectors_of(a, 32, 4, 32) == 1);
    /* bad inputs: an error status (a sector size of 24 returned 0 before), *sectors untouched */
    {
        int n = 12345;
        CHECK_STATUS(tc_sim_global_sectors(a, 32, 4, 24, &n), TC_ERR_ARG);
        CHECK_STATUS(tc_sim_global_sectors(a, 32, 4, 8, &n), TC_ERR_ARG);
        CHECK_STATUS(tc_sim_global_sectors(NULL, 32, 4, 32, &n), TC_ERR_NULL);
        CHECK_STATUS(tc_sim_global_sectors(a, 32, 4, 32, NULL), TC_ERR_NULL);
        CHECK_STATUS(tc_sim_global_sectors(a, 0, 4, 32, &n), TC_ERR_ARG);
        CHECK_STATUS(tc_sim_global_sectors(a, -1, 4, 32, &n), TC_ERR_ARG);
        CHECK_STATUS(tc_sim_global_sectors(a, 33, 4, 32, &n), TC_ERR_ARG);
        CHECK_STATUS(tc_sim_global_sectors(a, 32, 3, 32, &n), TC_ERR_ARG);
        a[5] = 258;                                                   /* not a multiple of 4 */
        CHECK_STATUS(tc_sim_global_sectors(a, 32, 4, 32, &n), TC_ERR_ARG);
        a[5] = (uint64_t)1 << 63;                                     /* beyond 2^62 */
        CHECK_STATUS(tc_sim_global_sectors(a, 32, 4, 32, &n), TC_ERR_ARG);
        CHECK(n == 12345);
        a[5] = 256;
    }
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_build_global_load(&p, 0), TC_OK);
    CHECK_BITS(0, cycles_of(g, &p, 1, 1, NULL), g->dram_latency + g->ffma_latency);
    CHECK_STATUS(tc_sim_build_global_load(&p, 1), TC_OK);
    CHECK_BITS(1, cycles_of(g, &p, 1, 1, NULL), g->l2_latency + g->ffma_latency);
    tc_sim_program_free(&p);
}

/* Two warps: on different sub-partitions they overlap completely; on one
   scheduler the second issues a cycle later and hides behind the first. */
static void test_latency_hiding(void) {
    tc_sim_profile one = *prof("a100");
    tc_sim_program p;
    int64_t c1, c2;
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_build_global_load(&p, 0), TC_OK);
    c1 = cycles_of(&one, &p, 1, 1, NULL);
    c2 = cycles_of(&one, &p, 1, 2, NULL);
    /* the second 128-byte request waits for the L2 -> SM port: whole cycles of 128 / sm_bytes_per_cycle
       (a100: 128 / 35.7 = 3.6, so 3 before its bytes fit the token bucket) */
    CHECK(c2 == c1 + (int64_t)(128.0 / one.sm_bytes_per_cycle));
    one.sm_bytes_per_cycle = 0.0;       /* without the port limit: */
    c2 = cycles_of(&one, &p, 1, 2, NULL);
    CHECK(c2 == c1);                    /* complete overlap */
    one.subpartitions = 1;
    c2 = cycles_of(&one, &p, 1, 2, NULL);
    CHECK(c2 == c1 + 2);                /* one scheduler: a cycle later, and a cycle behind the FFMA pipe (interval 2) */
    one.ffma_interval = 1;
    c2 = cycles_of(&one, &p, 1, 2, NULL);
    CHECK(c2 == c1 + 1);                /* not 2 * c1: the latency is hidden */
    CHECK_STATUS(tc_sim_build_ffma_chain(&p, 8), TC_OK);
    /* 4 warps of dependent FFMAs on one scheduler fill the 4-cycle latency: 32 issues in 32 cycles + drain */
    CHECK_BITS(4, cycles_of(&one, &p, 1, 4, NULL), 8 * 4 + 3);
    tc_sim_program_free(&p);
}

/* A streaming read reaches the bandwidth that binds within 5%. */
static void test_bandwidth(void) {
    tc_sim_profile g = *prof("a100");
    tc_sim_program p;
    tc_sim_options o;
    tc_sim_result r;
    double want;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    CHECK_STATUS(tc_sim_build_stream(&p, 16), TC_OK);
    o.sms = 8;
    CHECK_STATUS(tc_sim_run(&g, &p, &o, &r), TC_OK);
    want = 8 * g.sm_bytes_per_cycle;       /* 8 SMs x 64 B/cycle < DRAM: the SM ports bind */
    CHECK(r.dram_bytes / (double)r.cycles > 0.95 * want && r.dram_bytes / (double)r.cycles <= want * 1.0001);
    check_accounting(&r);
    CHECK(r.state_cycles[TC_SIM_LONG_SCOREBOARD] > r.state_cycles[TC_SIM_SELECTED]);
    tc_sim_result_free(&r);
    g.dram_bytes_per_cycle = 200.0;        /* now DRAM binds */
    CHECK_STATUS(tc_sim_run(&g, &p, &o, &r), TC_OK);
    CHECK(r.dram_bytes / (double)r.cycles > 0.95 * 200.0 && r.dram_bytes / (double)r.cycles <= 200.0 * 1.0001);
    CHECK(r.dram_bytes_per_s > 0.95 * r.peak_dram_bytes_per_s);
    tc_sim_result_free(&r);
    tc_sim_program_free(&p);
}

static void test_policies(void) {
    /* both policies give the same totals on a symmetric program, LRR
       interleaves: its warps finish together, GTO's one after another */
    tc_sim_profile g = *prof("a100");
    tc_sim_program p;
    tc_sim_options o;
    tc_sim_result a, b;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    g.subpartitions = 1;
    CHECK_STATUS(tc_sim_build_mma_chain(&p, TC_MMA_M16N8K16_F16, 16, 0), TC_OK);
    o.warps_per_sm = 4;
    o.record_timeline = 1;
    CHECK_STATUS(tc_sim_run(&g, &p, &o, &a), TC_OK);
    o.policy = TC_SIM_LRR;
    CHECK_STATUS(tc_sim_run(&g, &p, &o, &b), TC_OK);
    CHECK(a.instructions == b.instructions && a.cycles == b.cycles);
    CHECK(a.state_cycles[TC_SIM_EXITED] > b.state_cycles[TC_SIM_EXITED]);
    CHECK(a.state_cycles[TC_SIM_MATH_PIPE_THROTTLE] + a.state_cycles[TC_SIM_NOT_SELECTED] > 0);
    check_accounting(&a);
    check_accounting(&b);
    tc_sim_result_free(&a);
    tc_sim_result_free(&b);
    tc_sim_program_free(&p);
}

/* 1 if the program issues an MMA kind the profile does not time (v100: no
   m16n8k16; rtx5090: no m8n8k4, which Dettmers' matmul32_tc issues). */
static int lacks_mma(const tc_sim_profile *g, const tc_sim_program *p) {
    int i;
    for (i = 0; i < p->n; i++)
        if (p->code[i].op == TC_SIM_MMA && g->mma_latency[p->code[i].mma] == 0) return 1;
    return 0;
}

static void test_named(void) {
    int i, j;
    CHECK(tc_sim_program_count() >= 10);
    CHECK(tc_sim_program_name(-1) == NULL && tc_sim_program_name(tc_sim_program_count()) == NULL);
    for (j = 0; j < tc_gpu_count(); j++) {
        const tc_sim_profile *g = &tc_gpu_get(j)->profile;
        CHECK_STATUS(tc_sim_profile_validate(g, NULL), TC_OK);
        for (i = 0; i < tc_sim_program_count(); i++) {
            tc_sim_program p;
            tc_sim_result r;
            memset(&p, 0, sizeof p);
            CHECK(tc_sim_program_description(i) != NULL);
            CHECK_STATUS(tc_sim_build_named(&p, tc_sim_program_name(i)), TC_OK);
            if (lacks_mma(g, &p)) {
                CHECK_STATUS(tc_sim_run(g, &p, NULL, &r), TC_ERR_ARCH);
            } else if (cycles_of(g, &p, 0, 0, &r) >= 0) {
                check_accounting(&r);
                CHECK(r.cycles > 0);
                tc_sim_result_free(&r);
            }
            tc_sim_program_free(&p);
        }
    }
    CHECK(tc_gpu_get(-1) == NULL && tc_gpu_find("v101") == NULL && tc_gpu_find(NULL) == NULL);
}

static void test_bad_inputs(void) {
    tc_sim_profile g;
    tc_sim_program p;
    tc_sim_result r;
    tc_sim_options o;
    const char *why = NULL;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    CHECK_STATUS(tc_sim_build_ffma_chain(&p, 4), TC_OK);
    /* profiles */
    g = *prof("h100"); g.sms = 0;
    CHECK_STATUS(tc_sim_profile_validate(&g, &why), TC_ERR_PROFILE);
    CHECK(why && strstr(why, "sms"));
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROFILE);
    g = *prof("h100"); g.banks = 24;
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROFILE);
    g = *prof("h100"); g.bank_bytes = 2;
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROFILE);
    g = *prof("h100"); g.subpartitions = 0;
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROFILE);
    g = *prof("h100"); g.ffma_latency = 0;
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROFILE);
    g = *prof("h100"); g.clock_ghz = 0.0;
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROFILE);
    g = *prof("h100"); g.sector_bytes = 48;
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROFILE);
    g = *prof("h100"); g.dram_bytes_per_cycle = -1.0;
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROFILE);
    g = *prof("h100"); g.mma_interval[0] = 0;
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROFILE);
    /* absurd values: refused, not run into cycle counts beyond int64 */
    g = *prof("h100"); g.sm_bytes_per_cycle = 1e-18;
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROFILE);
    g = *prof("h100"); g.dram_bytes_per_cycle = 1e-18;
    CHECK_STATUS(tc_sim_profile_validate(&g, &why), TC_ERR_PROFILE);
    CHECK(why && strstr(why, "bandwidth"));
    g = *prof("h100"); g.dram_bytes_per_cycle = INFINITY;
    CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_ERR_PROFILE);
    g = *prof("h100"); g.sm_bytes_per_cycle = NAN;
    CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_ERR_PROFILE);
    g = *prof("h100"); g.clock_ghz = NAN;
    CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_ERR_PROFILE);
    g = *prof("h100"); g.clock_ghz = 1e-9;
    CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_ERR_PROFILE);
    g = *prof("h100"); g.dram_latency = (1 << 20) + 1;
    CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_ERR_PROFILE);
    g = *prof("h100"); g.ffma_interval = INT_MAX;
    CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_ERR_PROFILE);
    g = *prof("h100"); g.mma_latency[1] = INT_MAX;
    CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_ERR_PROFILE);
    g = *prof("h100"); g.shared_bytes_per_sm = INT64_MAX;
    CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_ERR_PROFILE);
    g = *prof("h100"); g.shared_wavefronts_per_cycle = INT_MAX;
    CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_ERR_PROFILE);
    g = *prof("h100"); g.dram_bytes_per_cycle = 1.0 / 64; g.sm_bytes_per_cycle = 0.0;   /* the slowest allowed, and unlimited */
    CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_OK);
    CHECK_STATUS(tc_sim_profile_validate(NULL, NULL), TC_ERR_NULL);
    /* options */
    g = *prof("h100");
    o.warps_per_sm = g.max_warps_per_sm + 1;
    CHECK_STATUS(tc_sim_run(&g, &p, &o, &r), TC_ERR_SIZE);
    o.warps_per_sm = 0; o.sms = g.sms + 1;
    CHECK_STATUS(tc_sim_run(&g, &p, &o, &r), TC_ERR_SIZE);
    o.sms = -1;
    CHECK_STATUS(tc_sim_run(&g, &p, &o, &r), TC_ERR_SIZE);
    o.sms = 0; o.policy = (tc_sim_policy)7;
    CHECK_STATUS(tc_sim_run(&g, &p, &o, &r), TC_ERR_ARG);
    o.policy = TC_SIM_GTO; o.max_cycles = 5;
    CHECK_STATUS(tc_sim_run(&g, &p, &o, &r), TC_ERR_LIMIT);
    CHECK(r.cycles == 0 && r.segments == NULL);
    CHECK_STATUS(tc_sim_run(NULL, &p, NULL, &r), TC_ERR_NULL);
    CHECK_STATUS(tc_sim_run(&g, NULL, NULL, &r), TC_ERR_NULL);
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, NULL), TC_ERR_NULL);
    /* programs */
    CHECK_STATUS(tc_sim_ffma(&p, 64, 0, 0, 0), TC_ERR_PROGRAM);   /* register out of range; sticky */
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROGRAM);
    tc_sim_program_free(&p);
    tc_sim_ffma(&p, 0, 1, 2, 0);                                  /* no EXIT */
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROGRAM);
    tc_sim_program_free(&p);
    CHECK_STATUS(tc_sim_loop(&p, 5, 2), TC_ERR_PROGRAM);          /* loop target after the loop: refused at once, sticky */
    tc_sim_exit(&p);
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROGRAM);
    tc_sim_program_free(&p);
    p.shared_bytes = 128;
    tc_sim_lds(&p, 1, TC_SIM_NOREG, TC_SIM_NOREG, tc_sim_addr_affine(2, 4, 0, 0, 4));   /* misaligned */
    tc_sim_exit(&p);
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROGRAM);
    tc_sim_program_free(&p);
    p.shared_bytes = 64;                                           /* 32 lanes x 4 bytes do not fit */
    tc_sim_lds(&p, 1, TC_SIM_NOREG, TC_SIM_NOREG, tc_sim_addr_affine(0, 4, 0, 0, 4));
    tc_sim_exit(&p);
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROGRAM);
    tc_sim_program_free(&p);
    p.global_bytes = 4096;                                         /* the second warp reads past the end */
    tc_sim_ldg(&p, 1, TC_SIM_NOREG, tc_sim_addr_affine(0, 4, 4096, 0, 4));
    tc_sim_exit(&p);
    o.max_cycles = 0; o.warps_per_sm = 2;
    CHECK_STATUS(tc_sim_run(&g, &p, &o, &r), TC_ERR_PROGRAM);
    tc_sim_program_free(&p);
    p.shared_bytes = g.shared_bytes_per_sm + 1;
    tc_sim_exit(&p);
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_ERR_PROGRAM);
    tc_sim_program_free(&p);
    /* builders */
    CHECK_STATUS(tc_sim_build_ffma_chain(&p, 0), TC_ERR_SIZE);
    CHECK_STATUS(tc_sim_build_mma_chain(&p, TC_MMA_INSTR_COUNT, 1, 1), TC_ERR_ARG);
    CHECK_STATUS(tc_sim_build_mma_chain(&p, (tc_mma_instr)-1, 1, 1), TC_ERR_ARG);
    CHECK_STATUS(tc_sim_build_stream(&p, 0), TC_ERR_SIZE);
    CHECK_STATUS(tc_sim_build_shared_stride(&p, -1), TC_ERR_ARG);
    CHECK_STATUS(tc_sim_build_named(&p, "nope"), TC_ERR_ARG);
    CHECK_STATUS(tc_sim_build_named(&p, "matmul32_nope"), TC_ERR_ARG);
    CHECK_STATUS(tc_sim_build_named(NULL, "ffma_chain"), TC_ERR_NULL);
    {
        tc_mma_instr_info info;
        CHECK_STATUS(tc_mma_instr_get(TC_MMA_INSTR_COUNT, &info), TC_ERR_ARG);
    }
    tc_sim_program_free(&p);
    /* an MMA of an unknown kind: TC_ERR_ARG, recorded in the program */
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_mma(&p, (tc_mma_instr)-1, 8, 1, 2, 8), TC_ERR_ARG);
    CHECK_STATUS(p.status, TC_ERR_ARG);
    tc_sim_program_free(&p);
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_mma(&p, TC_MMA_INSTR_COUNT, 8, 1, 2, 8), TC_ERR_ARG);
    CHECK_STATUS(p.status, TC_ERR_ARG);
    tc_sim_program_free(&p);
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_mma_sp(&p, TC_MMA_INSTR_COUNT, 8, 1, 2, 8, 5), TC_ERR_ARG);
    tc_sim_program_free(&p);
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_mma(&p, TC_MMA_M16N8K16_F16, 8, 1, 2, 8), TC_OK);
    CHECK(strcmp(tc_sim_state_name(TC_SIM_STATE_COUNT), "unknown") == 0);
    CHECK(strcmp(tc_sim_state_name(TC_SIM_LONG_SCOREBOARD), "long_scoreboard") == 0);
    tc_sim_program_free(&p);
}

/* The profiles' MMA rates against the published peaks (docs/REFERENCE.md section
   3): A100 312 TFLOPS dense fp16 (1024 FMA/clk/SM, whitepaper); H100 mma.sync
   about 65% of 989 TFLOPS. An m16n8k16 is 2048 multiply-adds, 4096 flops. */
static void test_mma_peaks(void) {
    const tc_sim_profile *a = prof("a100"), *h = prof("h100");
    tc_mma_instr_info info;
    double flops, a100, h100;
    if (!a || !h) return;
    CHECK_STATUS(tc_mma_instr_get(TC_MMA_M16N8K16_F16, &info), TC_OK);
    flops = 2.0 * info.m * info.n * info.k;
    a100 = flops / a->mma_interval[TC_MMA_M16N8K16_F16] * a->subpartitions * a->sms * a->clock_ghz * 1e9;
    h100 = flops / h->mma_interval[TC_MMA_M16N8K16_F16] * h->subpartitions * h->sms * h->clock_ghz * 1e9;
    CHECK(fabs(a100 / 312e12 - 1) < 0.01);
    CHECK(h100 / 989e12 > 0.60 && h100 / 989e12 < 0.70);
    /* tf32 runs at half the fp16 rate on both: m16n8k8.tf32 (half the work of m16n8k16.f16) takes as long */
    CHECK(a->mma_interval[TC_MMA_M16N8K8_TF32] == a->mma_interval[TC_MMA_M16N8K16_F16]);
    CHECK(h->mma_interval[TC_MMA_M16N8K8_TF32] == h->mma_interval[TC_MMA_M16N8K16_F16]);
    /* H100's half-K shapes at the measured 74% of their full-K twin's rate (dataset rows
       jm-mma-tput-m16n8k8-f32-f16-h100-sxm and jm-mma-tput-m16n8k4-tf32-h100-sxm): interval 4, not 3 */
    CHECK(h->mma_interval[TC_MMA_M16N8K8_F16] == 4 && h->mma_interval[TC_MMA_M16N8K4_TF32] == 4);
    CHECK(a->mma_interval[TC_MMA_M16N8K8_F16] * 2 == a->mma_interval[TC_MMA_M16N8K16_F16]);
}

/* An FFMA writing r5, then a sparse MMA whose metadata register is `meta`. */
static int64_t meta_dependency_cycles(const tc_sim_profile *g, int meta) {
    tc_sim_program p;
    int64_t c;
    memset(&p, 0, sizeof p);
    tc_sim_ffma(&p, 5, 1, 1, 5);
    tc_sim_mma_sp(&p, TC_MMA_SP_M16N8K32_F16, 8, 1, 2, 8, meta);
    tc_sim_exit(&p);
    c = cycles_of(g, &p, 1, 1, NULL);
    tc_sim_program_free(&p);
    return c;
}

/* 2:4 sparse MMAs: twice the FLOPs per cycle of their dense counterpart at
   the same issue cost, on every real profile that has them; the metadata
   register is a real dependency. */
static void test_sparse_mma(void) {
    static const struct { tc_mma_instr sp, dense; } pairs[] = {
        { TC_MMA_SP_M16N8K32_F16, TC_MMA_M16N8K16_F16 },
        { TC_MMA_SP_M16N8K16_F16, TC_MMA_M16N8K8_F16 },
        { TC_MMA_SP_M16N8K16_TF32, TC_MMA_M16N8K8_TF32 },
    };
    static const char *const names[] = { "a100", "h100" };
    int ni, pi;
    tc_mma_instr_info info;
    tc_sim_program p;
    for (ni = 0; ni < 2; ni++)
        for (pi = 0; pi < (int)(sizeof pairs / sizeof pairs[0]); pi++) {
            const tc_sim_profile *g = prof(names[ni]);
            tc_sim_result rs, rd;
            double fs, fd;
            memset(&p, 0, sizeof p);
            CHECK_STATUS(tc_sim_build_mma_chain(&p, pairs[pi].sp, 256, 0), TC_OK);
            if (cycles_of(g, &p, 1, 4, &rs) < 0) { tc_sim_program_free(&p); continue; }
            CHECK_STATUS(tc_sim_build_mma_chain(&p, pairs[pi].dense, 256, 0), TC_OK);
            if (cycles_of(g, &p, 1, 4, &rd) >= 0) {
                fs = rs.flops / (double)rs.cycles;
                fd = rd.flops / (double)rd.cycles;
                CHECK(fs > 1.999 * fd && fs < 2.001 * fd);
                CHECK(rs.peak_tensor_flops_per_s == rd.peak_tensor_flops_per_s);   /* the peak stays the dense one */
                tc_sim_result_free(&rd);
            }
            tc_sim_result_free(&rs);
            tc_sim_program_free(&p);
        }
    CHECK_STATUS(tc_mma_instr_get(TC_MMA_SP_M16N8K32_F16, &info), TC_OK);
    CHECK(info.m == 16 && info.n == 8 && info.k == 32);
    CHECK_STATUS(tc_mma_instr_get(TC_MMA_SP_M16N8K16_TF32, &info), TC_OK);
    CHECK(strcmp(info.name, "sp.m16n8k16.tf32") == 0);
    /* metadata written by an FFMA: the sparse MMA waits for it */
    {
        const tc_sim_profile *g = prof("a100");
        int64_t with = meta_dependency_cycles(g, 5), without = meta_dependency_cycles(g, 6);
        memset(&p, 0, sizeof p);
        CHECK_BITS(with, with, (int64_t)g->ffma_latency + g->mma_latency[TC_MMA_SP_M16N8K32_F16]);
        CHECK_BITS(without, without, 1 + (int64_t)g->mma_latency[TC_MMA_SP_M16N8K32_F16]);
        CHECK_STATUS(tc_sim_mma_sp(&p, TC_MMA_M16N8K16_F16, 8, 1, 2, 8, 5), TC_ERR_ARG);   /* a dense kind */
        CHECK_STATUS(p.status, TC_ERR_ARG);
        tc_sim_program_free(&p);
        memset(&p, 0, sizeof p);
        CHECK_STATUS(tc_sim_mma_sp(&p, TC_MMA_SP_M16N8K32_F16, 8, 1, 2, 8, 200), TC_ERR_PROGRAM);
        tc_sim_program_free(&p);
        CHECK_STATUS(tc_sim_mma_sp(NULL, TC_MMA_SP_M16N8K32_F16, 8, 1, 2, 8, 5), TC_ERR_NULL);
    }
}

/* A barrier holds the warps of its block only: 8 warps, each doing one
   global load, a barrier and an FFMA. Warps 4..7 load from DRAM (far), 0..3
   from L2. One block of 8: everyone waits for DRAM. Blocks of 4: the first
   block leaves after the L2 latency. */
static void test_blocks(void) {
    const tc_sim_profile *g = prof("a100");
    tc_sim_program p;
    tc_sim_options o;
    tc_sim_result one, two;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    p.global_bytes = 8 * 4096;
    p.l2_resident_bytes = 4 * 4096;                /* warps 0..3's rows */
    p.default_sms = 1;
    p.default_warps_per_sm = 8;
    tc_sim_ldg(&p, 1, TC_SIM_NOREG, tc_sim_addr_affine(0, 4, 4096, 0, 4));
    tc_sim_bar(&p, 1);
    tc_sim_ffma(&p, 2, 1, 1, 2);
    tc_sim_exit(&p);
    CHECK_STATUS(tc_sim_run(g, &p, &o, &one), TC_OK);
    o.warps_per_block = 4;
    CHECK_STATUS(tc_sim_run(g, &p, &o, &two), TC_OK);
    /* about the same end (the DRAM block; its FFMAs no longer share the pipe
       with the other block's), but the L2 block stops waiting early */
    CHECK(two.cycles <= one.cycles && two.cycles > one.cycles - 8);
    CHECK(two.state_cycles[TC_SIM_LONG_SCOREBOARD] + two.state_cycles[TC_SIM_BARRIER] <
          one.state_cycles[TC_SIM_LONG_SCOREBOARD] + one.state_cycles[TC_SIM_BARRIER]);
    CHECK(two.state_cycles[TC_SIM_EXITED] > one.state_cycles[TC_SIM_EXITED]);
    o.warps_per_block = 8;
    CHECK_STATUS(tc_sim_run(g, &p, &o, &two), TC_OK);
    CHECK(two.cycles == one.cycles && two.state_cycles[TC_SIM_BARRIER] == one.state_cycles[TC_SIM_BARRIER]);
    o.warps_per_block = 3;                         /* does not divide 8 */
    CHECK_STATUS(tc_sim_run(g, &p, &o, &two), TC_ERR_SIZE);
    o.warps_per_block = -1;
    CHECK_STATUS(tc_sim_run(g, &p, &o, &two), TC_ERR_SIZE);
    tc_sim_program_free(&p);
}

/* rtx5090 (sm_120) times exactly the instruction rows whose archs include
   TC_ARCH_RTX_BLACKWELL (mma.sync f16/bf16/tf32/FP8/INT8, dense and sparse,
   kind::f8f6f4 and the block-scaled kinds) and nothing else (no m8n8k4,
   4-bit integer, wgmma or tcgen05): its arrays are positional, so a row
   shifted by one would show here by name. Hand-derived: FP8 m16n8k32.e4m3
   4096 FMA at 256 FP8 FMA/clk per sub-partition = interval 16, latency 16 +
   17 = 33, so 4 dependent take 132 and 8 independent 7 x 16 + 33 = 145;
   m16n8k16.f16 (fp32 accumulate) 2048 / 64 = 32, latency 49. The peak is the
   best dense kind's, mxf4's 512 FMA/clk per sub-partition: 170 SMs x 4 x 2 x
   512 x 2.407 GHz = 1676 TFLOPS, half the RTX 5090's 3352 sparse FP4 AI
   TOPS; m16n8k16.f16's 64 give 209.5. */
static void test_rtx5090(void) {
    const tc_gpu *gpu = tc_gpu_find("rtx5090");
    const tc_sim_profile *g = prof("rtx5090");
    tc_sim_program p;
    tc_sim_result r;
    int i, timed = 0, rows = 0;
    CHECK(gpu != NULL && g != NULL);
    if (!gpu || !g) return;
    CHECK(gpu->sm == 120 && gpu->arch == TC_ARCH_RTX_BLACKWELL);
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++) {
        tc_mma_instr_info in;
        int has;
        CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)i, &in), TC_OK);
        has = (in.archs & TC_ARCH_BIT(TC_ARCH_RTX_BLACKWELL)) != 0;
        rows += has;
        timed += g->mma_latency[i] > 0;
        if (!tct_check((g->mma_latency[i] > 0) == has && (g->mma_interval[i] > 0) == has, __FILE__, __LINE__,
                       "rtx5090 times exactly the sm_120 rows"))
            printf("     %s: latency %d interval %d, archs has sm_120: %d\n", in.name, g->mma_latency[i],
                   g->mma_interval[i], has);
        if (has && in.threads == 32 && strstr(in.ptx, "kind::"))   /* f8f6f4 and block-scaled: FP8's (FP4's) rate */
            CHECK(g->mma_interval[i] * (in.in == TC_E2M1 && in.k == 64 ? 512 : 256) == in.m * in.n * in.k &&
                  g->mma_latency[i] == 33);
    }
    CHECK(rows == timed && rows == 16 + 8 + 12 + 21 + 25 + 3);
    CHECK(g->mma_interval[TC_MMA_M16N8K16_F16] == 32 && g->mma_latency[TC_MMA_M16N8K16_F16] == 49);
    for (i = 0; i < 4; i++) {
        memset(&p, 0, sizeof p);
        tc_sim_build_mma_chain(&p, i < 2 ? TC_MMA_M16N8K32_E4M3 : TC_MMA_M16N8K64_MXF4, i % 2 ? 8 : 4, !(i % 2));
        CHECK_STATUS(p.status, TC_OK);
        CHECK_BITS(i, cycles_of(g, &p, 1, 1, NULL), i % 2 ? 145 : 132);
        tc_sim_program_free(&p);
    }
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_build_mma_chain(&p, TC_MMA_M16N8K16_F16, 1, 1), TC_OK);
    if (cycles_of(g, &p, 1, 1, &r) >= 0) {
        CHECK(fabs(r.peak_tensor_flops_per_s / r.sms * g->sms / 1676e12 - 1.0) < 0.01);
        tc_sim_result_free(&r);
    }
    CHECK(fabs(g->sms * g->subpartitions * 2.0 * 2048 / g->mma_interval[TC_MMA_M16N8K16_F16] * g->clock_ghz * 1e9 /
               209.5e12 - 1.0) < 0.01);
    tc_sim_program_free(&p);
    CHECK_STATUS(tc_sim_build_mma_chain(&p, TC_WGMMA_F16, 1, 1), TC_OK);
    CHECK_STATUS(tc_sim_run(g, &p, NULL, &r), TC_ERR_ARCH);   /* no wgmma on sm_120 */
    tc_sim_program_free(&p);
}

/* The GPU table, the one identity: every entry's profile validates, names
   are unique and found again, the order is the documented one, and timing
   is complete: an instruction timed in a profile (mma_latency > 0) has an
   issue interval too, and every real GPU (sm != 0) times every instruction
   whose numerics its architecture models (no exception holds today). */
static void test_gpus(void) {
    static const char *const order[] = { "dettmers2020", "dettmers2023", "a100", "h100", "v100", "rtx3090", "rtx4090", "b200", "rtx5090" };
    int i, j, k, n = tc_gpu_count();
    CHECK(n == (int)(sizeof order / sizeof order[0]));
    CHECK(tc_gpu_get(-1) == NULL && tc_gpu_get(n) == NULL);
    CHECK(tc_gpu_find("nope") == NULL && tc_gpu_find(NULL) == NULL && tc_gpu_find("") == NULL);
    {   /* the nearest real GPU at or below a compute capability */
        static const struct { int sm; const char *name; } near[] = {
            { 70, "v100" }, { 75, "v100" }, { 80, "a100" }, { 86, "rtx3090" }, { 87, "rtx3090" }, { 89, "rtx4090" },
            { 90, "h100" }, { 100, "b200" }, { 119, "b200" }, { 120, "rtx5090" }, { INT_MAX, "rtx5090" },
        };
        for (i = 0; i < (int)(sizeof near / sizeof near[0]); i++)
            CHECK(tc_gpu_nearest(near[i].sm) == tc_gpu_find(near[i].name));
        CHECK(tc_gpu_nearest(69) == NULL && tc_gpu_nearest(0) == NULL && tc_gpu_nearest(-1) == NULL && tc_gpu_nearest(INT_MIN) == NULL);
    }
    for (i = 0; i < n; i++) {
        const tc_gpu *gpu = tc_gpu_get(i);
        const char *why = NULL;
        CHECK(gpu != NULL);
        if (!gpu) continue;
        if (i < (int)(sizeof order / sizeof order[0])) CHECK(strcmp(gpu->name, order[i]) == 0);
        CHECK(gpu->description != NULL && gpu->description[0] != '\0');
        if (!tct_check(tc_sim_profile_validate(&gpu->profile, &why) == TC_OK, __FILE__, __LINE__, "profile validates"))
            printf("     %s: %s\n", gpu->name, why ? why : "?");
        CHECK(tc_gpu_find(gpu->name) == gpu);
        for (j = 0; j < i; j++) CHECK(strcmp(tc_gpu_get(j)->name, gpu->name) != 0);
        CHECK((int)gpu->arch >= 0 && gpu->arch < TC_ARCH_COUNT);
        CHECK(gpu->sm >= 0);
        for (k = 0; k < TC_MMA_INSTR_COUNT; k++) {
            tc_mma_instr_info info;
            int lat = gpu->profile.mma_latency[k], iv = gpu->profile.mma_interval[k];
            CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)k, &info), TC_OK);
            CHECK(lat >= 0 && iv >= 0);
            if (lat > 0 && !tct_check(iv > 0, __FILE__, __LINE__, "timed instruction has an interval"))
                printf("     %s %s\n", gpu->name, info.name);
            if (gpu->sm != 0 && (info.archs & TC_ARCH_BIT(gpu->arch)) &&
                !tct_check(lat > 0 && iv > 0, __FILE__, __LINE__, "modelled instruction is timed"))
                printf("     %s %s\n", gpu->name, info.name);
        }
    }
    /* a profile that times an instruction without an interval is refused */
    {
        tc_sim_profile g = *prof("a100");
        g.mma_interval[TC_MMA_M16N8K16_F16] = 0;
        CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_ERR_PROFILE);
    }
}

/* tc_status_is_error / tc_status_is_warning over every status: TC_OK is
   neither, the TC_WARN_* statuses warnings only, every TC_ERR_* an error
   only; a value outside the enum counts as an error. */
static void test_status_kinds(void) {
    static const tc_status errors[] = {
        TC_ERR_NULL, TC_ERR_SIZE, TC_ERR_ROUNDING, TC_ERR_DTYPE, TC_ERR_BUFFER, TC_ERR_NOT_REPRESENTABLE,
        TC_ERR_SHAPE, TC_ERR_ARCH, TC_ERR_NOMEM, TC_ERR_ARG, TC_ERR_GROWTH_EVERY_STEP, TC_ERR_PROFILE,
        TC_ERR_PROGRAM, TC_ERR_LIMIT, TC_ERR_NOT_SPARSE, TC_ERR_SPARSE_META, TC_ERR_TILE_DIVIDE,
        TC_ERR_TILE_KSTEP, TC_ERR_TILE_INST, TC_ERR_TILE_THREADS, TC_ERR_TILE_SHARED, TC_ERR_TILE_REGS,
    };
    static const tc_status warnings[] = {
        TC_WARN_SCALE_OVERFLOW, TC_WARN_SCALE_COLLAPSED, TC_WARN_SCALE_BELOW_ONE, TC_WARN_SCALE_AT_MIN,
    };
    int seen[TC_STATUS_COUNT];
    int i, ne = (int)(sizeof errors / sizeof errors[0]), nw = (int)(sizeof warnings / sizeof warnings[0]);
    memset(seen, 0, sizeof seen);
    CHECK(!tc_status_is_error(TC_OK) && !tc_status_is_warning(TC_OK));
    seen[TC_OK]++;
    for (i = 0; i < ne; i++) {
        CHECK_BITS(errors[i], tc_status_is_error(errors[i]), 1);
        CHECK_BITS(errors[i], tc_status_is_warning(errors[i]), 0);
        seen[errors[i]]++;
    }
    for (i = 0; i < nw; i++) {
        CHECK_BITS(warnings[i], tc_status_is_warning(warnings[i]), 1);
        CHECK_BITS(warnings[i], tc_status_is_error(warnings[i]), 0);
        seen[warnings[i]]++;
    }
    /* the lists above are every status, each once (a new status must join one) */
    CHECK(1 + ne + nw == TC_STATUS_COUNT);
    for (i = 0; i < TC_STATUS_COUNT; i++) CHECK_BITS(i, seen[i], 1);
    /* every value of the enum is exactly one of ok, warning, error */
    for (i = 0; i < TC_STATUS_COUNT; i++)
        CHECK_BITS(i, (i == TC_OK) + tc_status_is_error((tc_status)i) + tc_status_is_warning((tc_status)i), 1);
    /* out of range */
    CHECK(tc_status_is_error(TC_STATUS_COUNT) && !tc_status_is_warning(TC_STATUS_COUNT));
    CHECK(tc_status_is_error((tc_status)-1) && !tc_status_is_warning((tc_status)-1));
    CHECK(tc_status_is_error((tc_status)1000) && !tc_status_is_warning((tc_status)1000));
}

/* A barrier released in one sub-partition must not make the SM's other
   schedulers skip the cycle. a100 (4 schedulers, FFMA latency 4, interval 2),
   one SM of 8 warps in blocks of 1, BAR; FFMA; EXIT: each scheduler has
   warps A and B. t=0 A issues BAR (released at once, A wakes at 1); t=1 GTO
   keeps A: FFMA (result at 5, pipe free at 3); t=2 B issues BAR; t=3 B's
   FFMA (result at 7); A exits at 5, B at 7: 7 cycles. And for several
   barrier programs the states add up to warps x cycles. */
static void test_barrier_release(void) {
    const tc_sim_profile *g = prof("a100");
    tc_sim_program p;
    tc_sim_options o;
    tc_sim_result r;
    int variant, wpb;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    tc_sim_bar(&p, TC_SIM_NOREG);
    tc_sim_ffma(&p, 1, 2, 3, 4);
    tc_sim_exit(&p);
    o.sms = 1; o.warps_per_sm = 8; o.warps_per_block = 1;
    CHECK_STATUS(tc_sim_run(g, &p, &o, &r), TC_OK);
    CHECK_BITS(64, r.cycles, 7);
    check_accounting(&r);
    tc_sim_result_free(&r);
    tc_sim_program_free(&p);
    for (variant = 0; variant < 3; variant++)
        for (wpb = 1; wpb <= 8; wpb *= 2) {
            memset(&p, 0, sizeof p);
            p.global_bytes = 16 * 4096;   /* 2 SMs x 8 warps, one row each */
            p.l2_resident_bytes = 4 * 4096;
            if (variant == 1) tc_sim_ldg(&p, 1, TC_SIM_NOREG, tc_sim_addr_affine(0, 4, 4096, 0, 4));
            tc_sim_bar(&p, variant == 1 ? 1 : TC_SIM_NOREG);
            tc_sim_ffma(&p, 2, 1, 1, 2);
            if (variant == 2) tc_sim_loop(&p, 0, 3);   /* BAR; FFMA three times */
            tc_sim_bar(&p, TC_SIM_NOREG);
            tc_sim_ffma(&p, 3, 2, 2, 3);
            tc_sim_exit(&p);
            memset(&o, 0, sizeof o);
            o.sms = 2; o.warps_per_sm = 8; o.warps_per_block = wpb; o.record_timeline = 1;
            CHECK_STATUS(tc_sim_run(g, &p, &o, &r), TC_OK);
            check_accounting(&r);
            tc_sim_result_free(&r);
            tc_sim_program_free(&p);
        }
}

/* Preparing a program is not quadratic in its length: 2^20 dependent FFMAs
   are accepted and run in far less than a second (they took ~30 minutes). */
static void test_long_program(void) {
    tc_sim_program p;
    tc_sim_result r;
    clock_t start;
    double secs;
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_build_ffma_chain(&p, 1 << 20), TC_OK);
    start = clock();
    CHECK_STATUS(tc_sim_run(prof("a100"), &p, NULL, &r), TC_OK);
    secs = (double)(clock() - start) / CLOCKS_PER_SEC;
    CHECK(secs < 1.0);   /* ~0.15 s at -O2; the limit leaves room for slow builds and busy machines */
    CHECK(r.cycles == (int64_t)4 << 20);   /* latency-bound: 4 cycles per FFMA */
    tc_sim_result_free(&r);
    tc_sim_program_free(&p);
}

/* Raw instructions (tc_sim_emit) with an opcode or MMA kind out of range:
   tc_sim_run refuses them with TC_ERR_PROGRAM. */
static void test_raw_instructions(void) {
    tc_sim_program p;
    tc_sim_instr ins;
    tc_sim_result r;
    int bad;
    for (bad = 0; bad < 3; bad++) {
        memset(&p, 0, sizeof p);
        memset(&ins, 0, sizeof ins);
        ins.dst = 1; ins.src[0] = ins.src[1] = ins.src[2] = ins.src[3] = TC_SIM_NOREG;
        ins.op = bad == 0 ? TC_SIM_OP_COUNT : bad == 1 ? 0xFF : TC_SIM_MMA;
        ins.mma = bad == 2 ? TC_MMA_INSTR_COUNT : 0;
        CHECK_STATUS(tc_sim_emit(&p, &ins), TC_OK);
        tc_sim_exit(&p);
        CHECK_STATUS(tc_sim_run(prof("a100"), &p, NULL, &r), TC_ERR_PROGRAM);
        tc_sim_program_free(&p);
    }
}

int main(void) {
    test_gpus();
    test_status_kinds();
    test_dettmers();
    test_mma_peaks();
    test_ffma_chain();
    test_mma();
    test_wgmma_issue();
    test_new_profile_mma();
    test_rtx5090();
    test_sparse_mma();
    test_banks();
    test_global();
    test_latency_hiding();
    test_bandwidth();
    test_policies();
    test_named();
    test_bad_inputs();
    test_blocks();
    test_barrier_release();
    test_long_program();
    test_raw_instructions();
    return tct_finish("test_sim");
}
