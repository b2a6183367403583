/* test_measured.c - the measured dataset (tests/measured/dataset.csv) and
   the simulator held against it (support/measured.h, tcsim validate):
   every row is well-formed and has a checkable source; every row is either
   predicted or says why not; malformed files are refused with file:line;
   and the calibration set's mean error stays under the bound below, a
   deterministic regression guard (the simulator is exact arithmetic, so
   the same model always gives the same error). */
#define TENSORCORE_IMPLEMENTATION
#include <limits.h>
#include "tensorcore.h"
#include "measured.h"
#include "tc_test.h"

/* Issue targets: calibration at most 10%, validation at most 15%, both
   met (6.2%, 14.7%); the validation bound is the target itself. Rows over
   30% remain (the tiling model is optimistic for hand-written GEMMs whose
   MMAs wait after each barrier for their first fragments and for
   single-buffered ones, see
   lesson 05, and for the two library runs whose sparse kernels lost to
   dense). */
#define CALIBRATION_BOUND 0.10
#define VALIDATION_GUARD 0.15

/* A scratch file outside the source tree. */
static const char *tmp_path(void) {
    static char path[512];
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/test_measured_tmp.csv", dir && *dir ? dir : "/tmp");
    return path;
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

#define HEADER "id,gpu,proxy_for,clock,category,quantity,conditions,params,value,unit,set,source,notes\r\n"
#define GOOD_ROW "x1,A100-40GB,,1410,latency,dram_latency,\"pointer chase, 1 GiB\",,574.6,cycles,calibration,github:o/r@0123abc:f.txt,\"a \"\"quoted\"\" note\"\r\n"

/* A file with one bad line must fail, name that line, and keep nothing. */
static void expect_refused(const char *text, int line, const char *what) {
    const char *path = tmp_path();
    measured_set s;
    char err[512], want[600];
    write_file(path, text);
    CHECK_STATUS(measured_load(path, &s, err, sizeof err), TC_ERR_ARG);
    snprintf(want, sizeof want, "%s:%d:", path, line);
    if (!CHECK(strstr(err, want) != NULL && strstr(err, what) != NULL)) printf("     got \"%s\"\n", err);
    CHECK(s.rows == NULL && s.n == 0);
    remove(path);
}

static void test_parser(void) {
    const char *path = tmp_path();
    measured_set s;
    char err[512];
    write_file(path, HEADER GOOD_ROW);
    CHECK_STATUS(measured_load(path, &s, err, sizeof err), TC_OK);
    CHECK(s.n == 1);
    if (s.n == 1) {
        CHECK(strcmp(s.rows[0].conditions, "pointer chase, 1 GiB") == 0);   /* quotes undone, comma kept */
        CHECK(s.rows[0].value == 574.6 && s.rows[0].clock_mhz == 1410 && s.rows[0].line == 2);
    }
    measured_free(&s);
    remove(path);
    CHECK_STATUS(measured_load(NULL, &s, err, sizeof err), TC_ERR_NULL);
    CHECK_STATUS(measured_load("no/such/file.csv", &s, err, sizeof err), TC_ERR_ARG);
    expect_refused("id,gpu\r\n", 1, "header row");
    expect_refused(HEADER GOOD_ROW "x2,A100-40GB,,1410,latency,dram_latency,c,,abc,cycles,calibration,github:o/r@1:f,n\r\n", 3, "not a number");
    expect_refused(HEADER GOOD_ROW "x2,A100-40GB,,1410,latency,dram_latency,c,,1,cycles,calibration,,n\r\n", 3, "source");
    expect_refused(HEADER GOOD_ROW "x2,A100-40GB,,1410,latency,dram_latency,c,,1,cycles,calibration,github:o/r@:f,n\r\n", 3, "source");
    expect_refused(HEADER GOOD_ROW "x2,A100-40GB,,1410,latency,dram_latency,c,,1,cycles,calibration,github:o/r@1,n\r\n", 3, "source");
    expect_refused(HEADER GOOD_ROW "x2,A100-40GB,,1410,latency,dram_latency,c,,1,cycles,calibration,https://example.com/o/r/issues/1,n\r\n", 3, "source");
    expect_refused(HEADER GOOD_ROW GOOD_ROW, 3, "duplicate id");
    expect_refused(HEADER "x2,A100-40GB,,1410,latency,dram_latency,c,,1,cycles\r\n", 2, "number of fields");
    expect_refused(HEADER "x2,A100-40GB,,1410,latency,dram_latency,\"open,,1,cycles,calibration,github:o/r@1:f,n\r\n", 2, "malformed");
    expect_refused(HEADER "x2,A100-40GB,,1410,latency,dram_latency,c,,1,GB/s,calibration,github:o/r@1:f,n\r\n", 2, "unit");
    expect_refused(HEADER "x2,A100-40GB,,1410,latency,warp_speed,c,,1,cycles,calibration,github:o/r@1:f,n\r\n", 2, "unknown quantity");
    expect_refused(HEADER "x2,A100-40GB,,1410,latency,dram_latency,c,,1,cycles,training,github:o/r@1:f,n\r\n", 2, "set");
    expect_refused(HEADER "x2,A100-40GB,,1410,latency,dram_latency,c,,-5,cycles,calibration,github:o/r@1:f,n\r\n", 2, "positive");
    expect_refused(HEADER "x2,A100-40GB,,1410,latency,dram_latency,c,,inf,cycles,calibration,github:o/r@1:f,n\r\n", 2, "not a number");
    expect_refused(HEADER "x2,A100-40GB,,1410,latency,dram_latency,c,colour=red,1,cycles,calibration,github:o/r@1:f,n\r\n", 2, "params key");
    expect_refused(HEADER "x2,A100-40GB,v100,1410,latency,dram_latency,c,,1,cycles,calibration,github:o/r@1:f,n\r\n", 2, "proxy_for");
    expect_refused(HEADER "x2,L40,rtx3090,2490,latency,l2_hit_latency,c,,1,cycles,calibration,github:o/r@1:f,n\r\n", 2, "proxy_for");
    expect_refused(HEADER "x2,A100-40GB,,fast,latency,dram_latency,c,,1,cycles,calibration,github:o/r@1:f,n\r\n", 2, "clock");
    expect_refused(HEADER "x2,A100-40GB,,1410,gossip,dram_latency,c,,1,cycles,calibration,github:o/r@1:f,n\r\n", 2, "category");
}

/* The committed dataset: well-formed, every row sourced, every row predicted
   or explained, and the errors within their bounds. */
static void test_dataset(void) {
    measured_set s;
    char err[512];
    double sum[2] = { 0, 0 };
    int n[2] = { 0, 0 }, i, predicted = 0, unexplained = 0, calibration = 0;
    if (!CHECK(measured_load(TC_DATASET, &s, err, sizeof err) == TC_OK)) { printf("     %s\n", err); return; }
    CHECK(s.n >= 80);
    for (i = 0; i < s.n; i++) {
        const measured_row *r = &s.rows[i];
        const char *why = NULL;
        double pred = 0;
        int set = strcmp(r->set, "validation") == 0;
        tc_status st = measured_predict(r, &pred, &why);
        calibration += !set;
        CHECK(measured_source_ok(r->source));
        if (st == TC_OK) {
            predicted++;
            CHECK(pred > 0 && isfinite(pred));
            sum[set] += measured_error(r, pred);
            n[set]++;
        } else if (!why) {
            unexplained++;
            printf("     row %s (line %d): %s\n", r->id, r->line, tc_status_string(st));
        }
    }
    CHECK(unexplained == 0);          /* a row the model cannot predict says why */
    CHECK(predicted * 2 > s.n);
    CHECK(n[0] * 2 > calibration);    /* most of the calibration set is predicted */
    if (n[0]) {
        printf("     calibration: %d rows predicted, mean |error| %.1f%% (bound %.0f%%)\n", n[0], 100 * sum[0] / n[0], 100 * CALIBRATION_BOUND);
        CHECK(sum[0] / n[0] <= CALIBRATION_BOUND);
    }
    if (n[1]) {
        printf("     validation:  %d rows predicted, mean |error| %.1f%% (guard %.0f%%)\n", n[1], 100 * sum[1] / n[1], 100 * VALIDATION_GUARD);
        CHECK(sum[1] / n[1] <= VALIDATION_GUARD);
    }
    measured_free(&s);
}

/* Rows the model cannot predict say why; a GPU with no entry maps to none. */
static void test_predict_edges(void) {
    measured_row r;
    const char *why = NULL;
    double pred = -1;
    memset(&r, 0, sizeof r);
    strcpy(r.gpu, "A100-40GB");
    strcpy(r.quantity, "l1_hit_latency");
    r.value = 30;
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_OK);
    CHECK(pred == tc_gpu_find("a100")->profile.l1_latency);   /* one dependent L1 hit per step, nothing else */
    strcpy(r.quantity, "launch_graph");   /* a tiny kernel: the graph's launch rate alone */
    strcpy(r.params, "bytes=65536");
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_OK);
    CHECK(fabs(pred - tc_gpu_find("a100")->profile.graph_launch_us) < 1e-9);
    strcpy(r.quantity, "sparse_speedup");
    r.params[0] = '\0';
    pred = -1;
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);
    CHECK(why && strstr(why, "network") && pred == -1);
    strcpy(r.gpu, "H100-PCIe");
    strcpy(r.quantity, "dram_latency");
    CHECK(measured_gpu(&r) == NULL);
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);
    strcpy(r.proxy_for, "h100");   /* standing in for an H100 */
    CHECK(measured_gpu(&r) == tc_gpu_find("h100"));
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_OK);
    CHECK(pred == tc_gpu_find("h100")->profile.dram_latency);   /* one dependent load per step, nothing else */
    strcpy(r.gpu, "L40");          /* the RTX 4090's die: its L1/L2 rows stand in through proxy_for */
    strcpy(r.proxy_for, "rtx4090");
    CHECK(measured_gpu(&r) == tc_gpu_find("rtx4090"));
    r.proxy_for[0] = '\0';
    CHECK(measured_gpu(&r) == NULL);
    strcpy(r.gpu, "RTX4090");
    CHECK(measured_gpu(&r) == tc_gpu_find("rtx4090"));
    strcpy(r.gpu, "B200");
    CHECK(measured_gpu(&r) == tc_gpu_find("b200"));
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_OK);
    CHECK(pred == tc_gpu_find("b200")->profile.dram_latency);
    strcpy(r.gpu, "GB200");        /* the B200's dies and memory: its DRAM rows set b200's figure */
    CHECK(measured_gpu(&r) == tc_gpu_find("b200"));
    strcpy(r.gpu, "RTX5090");
    CHECK(measured_gpu(&r) == tc_gpu_find("rtx5090"));
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_OK);
    CHECK(pred == tc_gpu_find("rtx5090")->profile.dram_latency);
    {   /* fills: tiny kernels in a fused row's timed sequence, one launch floor each */
        static const char *const bad[] = { "0", "-1", "2147483647", "1001", "x", "2.5", "" };
        double base = 0, two = 0;
        size_t i;
        strcpy(r.quantity, "fusion_time");
        strcpy(r.params, "elements=1048576;elem_bytes=4;kernels=1;reads=1;writes=1");
        CHECK_STATUS(measured_predict(&r, &base, &why), TC_OK);
        strcat(r.params, ";fills=2");
        CHECK_STATUS(measured_predict(&r, &two, &why), TC_OK);
        CHECK(fabs(two - base - 2 * tc_gpu_find("b200")->profile.launch_overhead_us) < 1e-9);
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            sprintf(r.params, "elements=1048576;elem_bytes=4;kernels=1;reads=1;writes=1;fills=%s", bad[i]);
            pred = -1;
            why = NULL;
            CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);
            CHECK(why && strstr(why, "fills") && pred == -1);
        }
        r.params[0] = '\0';
        strcpy(r.quantity, "dram_latency");
    }
    {   /* sparse=1: a library GEMM with a 2:4 A, faster than the dense one; any other value, or another kernel, refused */
        static const char *const bad[] = { "0", "2", "-1", "2147483647", "x", "" };
        double dense = 0, sparse = 0;
        size_t i;
        strcpy(r.gpu, "A100");
        strcpy(r.quantity, "gemm_tflops");
        strcpy(r.params, "m=4096;n=4096;k=4096;kernel=library");
        CHECK_STATUS(measured_predict(&r, &dense, &why), TC_OK);
        strcat(r.params, ";sparse=1");
        CHECK_STATUS(measured_predict(&r, &sparse, &why), TC_OK);
        CHECK(sparse > dense && sparse < 2 * dense);
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            sprintf(r.params, "m=4096;n=4096;k=4096;kernel=library;sparse=%s", bad[i]);
            pred = -1;
            why = NULL;
            CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);
            CHECK(why && strstr(why, "sparse") && pred == -1);
        }
        strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=3;sparse=1");
        CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);
        r.params[0] = '\0';
    }
    strcpy(r.gpu, "A100-PCIe");
    strcpy(r.quantity, "dram_read_bandwidth");
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);   /* 40 or 80 GB: the row does not say */
    CHECK(why && strstr(why, "memory"));
    {   /* another memory: the profile's achieved fraction of its own peak, at the device's peak */
        double p40 = 0, p80 = 0;
        strcpy(r.gpu, "A100-40GB");
        CHECK_STATUS(measured_predict(&r, &p40, &why), TC_OK);
        strcpy(r.gpu, "A100-80GB");
        CHECK_STATUS(measured_predict(&r, &p80, &why), TC_OK);
        CHECK(fabs(p80 / p40 - 2039.0 / 1555.0) < 1e-3);
    }
    strcpy(r.gpu, "A100-40GB");
    strcpy(r.quantity, "mma_latency");
    strcpy(r.params, "instr=m16n8k99.f16");
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);
    strcpy(r.params, "instr=m16n8k16.f16");
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_OK);
    CHECK(pred == tc_gpu_find("a100")->profile.mma_latency[TC_MMA_M16N8K16_F16]);
    strcpy(r.quantity, "mma_throughput");
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);   /* no warps */
    {   /* a value longer than its key's buffer is refused, never read as absent (which would predict
           the full GEMM for a copy loop, section 6's register estimate, or a Tensor Core kernel for FFMA) */
        static const char *const longer[] = { "math=00000000000000000000000000000000000000000000000000000000000000000",
                                               "regs=00000000000000000000000000000000000000000000000000000000000000128",
                                               "in=fp32xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx;warp=32x64;lanes=4x8" };
        size_t i;
        strcpy(r.quantity, "gemm_tflops");
        strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=2");
        CHECK_STATUS(measured_predict(&r, &pred, &why), TC_OK);
        for (i = 0; i < sizeof longer / sizeof longer[0]; i++) {
            sprintf(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=2;%s", longer[i]);
            CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);
        }
    }
}

/* The library GEMM is the fastest of its tilings, each through the tiling
   model: never above the Tensor Core peak, never below any one tiling. */
static void test_library_gemm(void) {
    const tc_gpu *a100 = tc_gpu_find("a100");
    tc_tile_desc d;
    tc_tile_result tr;
    tc_gpu copy;
    double lib = 0, peak = 2.0 * tc_tile_fma_per_clk(a100, TC_FP16, 16, 8, 16) * a100->profile.sms * a100->profile.clock_ghz * 1e9;
    int i, fit = 0;
    CHECK_STATUS(measured_library_gemm(a100, 4096, 4096, 4096, 0, &lib), TC_OK);
    CHECK(lib > 0.5 * peak && lib < peak);
    for (i = 0; i < MEASURED_LIBRARY_TILES; i++)
        if (measured_library_desc(a100, i, 4096, 4096, 4096, 0, &d) && tc_tile_predict(measured_tile_gpu(a100, &copy), &d, &tr, NULL) == TC_OK) {
            CHECK(tr.predicted_flops_per_s <= lib);
            CHECK(d.inst_m == 16 && d.inst_n == 8);   /* A100 runs the sm80 set: mma.sync only */
            fit++;
        }
    CHECK(fit > 1);
    CHECK(!measured_library_desc(a100, -1, 64, 64, 64, 0, &d) && !measured_library_desc(a100, MEASURED_LIBRARY_TILES, 64, 64, 64, 0, &d));
    CHECK(!measured_library_desc(NULL, 0, 64, 64, 64, 0, &d) && !measured_library_desc(a100, 0, 64, 64, 64, 0, NULL));
    {   /* H100 runs the sm90 set (wgmma, stages resolved to the most that fit): below the wgmma peak, at least each tiling */
        const tc_gpu *h100 = tc_gpu_find("h100");
        const double wg_peak = 2.0 * tc_tile_fma_per_clk(h100, TC_FP16, 64, 256, 16) * h100->profile.sms * h100->profile.clock_ghz * 1e9;
        int wg = 0;
        CHECK_STATUS(measured_library_gemm(h100, 4096, 4096, 4096, 0, &lib), TC_OK);
        CHECK(lib > 0.5 * wg_peak && lib < wg_peak);
        for (i = 0; i < MEASURED_LIBRARY_TILES; i++)
            if (measured_library_desc(h100, i, 4096, 4096, 4096, 0, &d)) {
                CHECK(d.inst_m == 64 && d.stages >= 2 && d.stages <= 16);
                if (tc_tile_predict(h100, &d, &tr, NULL) == TC_OK) {
                    tc_tile_desc more = d;
                    more.stages++;
                    CHECK(tr.predicted_flops_per_s <= lib);
                    CHECK(tc_tile_check(h100, &more, NULL) != TC_OK);   /* no further stage fits */
                    wg++;
                }
            }
        CHECK(wg > 1);
    }
    /* a tiny GEMM: one partial wave, far from peak, still predicted */
    CHECK_STATUS(measured_library_gemm(a100, 1, 1, 1, 0, &lib), TC_OK);
    CHECK(lib > 0 && lib < 0.01 * peak);
    CHECK_STATUS(measured_library_gemm(a100, 0, 64, 64, 0, &lib), TC_ERR_SIZE);
    CHECK(lib == 0);
    CHECK_STATUS(measured_library_gemm(a100, 64, -1, 64, 0, &lib), TC_ERR_SIZE);
    CHECK_STATUS(measured_library_gemm(a100, 64, 64, LONG_MAX, 0, &lib), TC_ERR_SIZE);
    CHECK_STATUS(measured_library_gemm(a100, 64, 64, (1L << 30) + 1, 0, &lib), TC_ERR_SIZE);
    CHECK_STATUS(measured_library_gemm(a100, 1L << 30, 64, 64, 0, &lib), TC_OK);   /* a tall GEMM: many waves, still fast to predict */
    CHECK(lib > 0 && lib < peak);
    CHECK_STATUS(measured_library_gemm(NULL, 64, 64, 64, 0, &lib), TC_ERR_NULL);
    CHECK_STATUS(measured_library_gemm(a100, 64, 64, 64, 0, NULL), TC_ERR_NULL);
    CHECK_STATUS(measured_library_gemm(tc_gpu_find("v100"), 4096, 4096, 4096, 0, &lib), TC_ERR_ARCH);   /* no m16n8k16 */
    {   /* 2:4 sparse: the sm80 set with mma.sp m16n8k32 on every GPU that has it (H100 too), faster than dense on
           A100 at 4096^3 but under twice as fast; none on V100; the same refusals */
        const tc_gpu *h100 = tc_gpu_find("h100");
        double dense = 0, sparse = 0;
        int sp = 0;
        CHECK_STATUS(measured_library_gemm(a100, 4096, 4096, 4096, 0, &dense), TC_OK);
        CHECK_STATUS(measured_library_gemm(a100, 4096, 4096, 4096, 1, &sparse), TC_OK);
        CHECK(sparse > dense && sparse < 2 * dense);
        for (i = 0; i < MEASURED_LIBRARY_TILES; i++)
            if (measured_library_desc(h100, i, 4096, 4096, 4096, 1, &d)) {
                CHECK(d.sparse == 1 && d.inst_m == 16 && d.inst_k == 32 && d.regs_per_thread == h100->occupancy.max_regs_per_thread);
                sp++;
            }
        CHECK(sp > 1);
        CHECK_STATUS(measured_library_gemm(h100, 768, 4096, 4096, 1, &sparse), TC_OK);
        CHECK_STATUS(measured_library_gemm(tc_gpu_find("v100"), 4096, 4096, 4096, 1, &lib), TC_ERR_ARCH);   /* no mma.sp */
        CHECK_STATUS(measured_library_gemm(a100, 0, 64, 64, 1, &lib), TC_ERR_SIZE);
        CHECK_STATUS(measured_library_gemm(a100, 64, 64, INT_MAX, 1, &lib), TC_ERR_SIZE);
    }
}

/* The operand copy rate: A100's comes from its math=0 calibration row and
   is below the streaming L2 rate (the point of the row); a GPU without such
   a row has none; the slower copy only ever slows a prediction. regs= and math=
   outside their ranges are refused with a reason. */
static void test_copy_rate(void) {
    const tc_gpu *a100 = tc_gpu_find("a100");
    const tc_sim_profile *g = &a100->profile;
    double rate = measured_copy_rate(a100), pred = -1;
    const char *why = NULL;
    tc_tile_desc d;
    tc_tile_result tr, slow;
    tc_gpu copy;
    const tc_gpu *tile_gpu;
    measured_row r;
    CHECK(rate > 0.3 * g->sm_bytes_per_cycle * g->sms * g->clock_ghz * 1e9 && rate < g->sm_bytes_per_cycle * g->sms * g->clock_ghz * 1e9);
    CHECK(measured_copy_rate(tc_gpu_find("h100")) == 0.0);
    CHECK(measured_copy_rate(NULL) == 0.0);
    memset(&r, 0, sizeof r);
    strcpy(r.gpu, "A100");
    strcpy(r.quantity, "gemm_tflops");
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=2;regs=216");
    CHECK_STATUS(measured_tile(&r, &d), TC_OK);
    CHECK(d.regs_per_thread == 216);
    CHECK_STATUS(tc_tile_predict(a100, &d, &tr, NULL), TC_OK);
    /* the operand GPU: A100 with its L2 -> SM rate at the copy rate; H100 (no copy row) itself */
    tile_gpu = measured_tile_gpu(a100, &copy);
    CHECK(tile_gpu == &copy && strcmp(copy.name, a100->name) == 0);
    CHECK(fabs(copy.profile.sm_bytes_per_cycle * g->sms * g->clock_ghz * 1e9 - rate) < 1e-9 * rate);
    CHECK(measured_tile_gpu(tc_gpu_find("h100"), &copy) == tc_gpu_find("h100"));
    CHECK_STATUS(tc_tile_predict(tile_gpu, &d, &slow, NULL), TC_OK);
    CHECK(slow.predicted_flops_per_s < tr.predicted_flops_per_s);   /* the slower copy only ever slows it */
    /* this is the copy row's own tiling: simulated at the copy rate (math
       included; the L2 sets the pace) it comes out under the rate itself by
       less than 10%, the load latency and D store each wave adds */
    CHECK(slow.predicted_flops_per_s < slow.flops / (slow.l2_bytes / rate) &&
          slow.predicted_flops_per_s > 0.9 * slow.flops / (slow.l2_bytes / rate));
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_OK);
    CHECK(fabs(pred * 1e12 - slow.predicted_flops_per_s) < 1e-6 * pred * 1e12);
    /* an mma.sync kernel naming its instruction and warp tile: padded rows kept; a wgmma's are unpadded */
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x64x64;stages=2;instr=m16n8k16.bf16;warp=64x32");
    CHECK_STATUS(measured_tile(&r, &d), TC_OK);
    CHECK(d.in == TC_BF16 && d.inst_m == 16 && d.inst_n == 8 && d.inst_k == 16 && d.warp_m == 64 && d.warp_n == 32 &&
          d.pad_a == 8 && d.pad_b == 8);
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x256x64;stages=3;instr=wgmma.m64nNk16.bf16;warp=64x256");
    CHECK_STATUS(measured_tile(&r, &d), TC_OK);
    CHECK(d.inst_m == 64 && d.inst_n == 256 && d.pad_a == 0 && d.pad_b == 0);
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x64x64;stages=2;instr=m16n8k16.bf16");   /* no warp tile */
    CHECK_STATUS(measured_tile(&r, &d), TC_ERR_ARG);
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x64x64;stages=2;instr=sp.m16n8k32.f16;warp=64x32");
    CHECK_STATUS(measured_tile(&r, &d), TC_ERR_ARG);   /* a sparse kind tiles no dense GEMM */
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x64x64;stages=2;instr=m16n8k99.f16;warp=64x32");
    CHECK_STATUS(measured_tile(&r, &d), TC_ERR_ARG);
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=2;regs=0");
    CHECK_STATUS(measured_tile(&r, &d), TC_ERR_ARG);
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=2;regs=256");
    CHECK_STATUS(measured_tile(&r, &d), TC_ERR_ARG);
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=2;regs=-1");
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);
    CHECK(why && strstr(why, "regs"));
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=2;regs=2147483648");
    CHECK_STATUS(measured_tile(&r, &d), TC_ERR_ARG);
    {   /* rounds=N: a single-buffered kernel's dependent LDG -> STS rounds (its SASS), each one more L2 round trip */
        static const char *const bad[] = { "0", "65", "-1", "2147483648", "x", "" };
        double one = 0, two = 0;
        size_t i;
        strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=1;regs=255");
        CHECK_STATUS(measured_predict(&r, &one, &why), TC_OK);
        strcat(r.params, ";rounds=2");
        CHECK_STATUS(measured_tile(&r, &d), TC_OK);
        CHECK(d.load_rounds == 2 && d.stages == 1);
        CHECK_STATUS(measured_predict(&r, &two, &why), TC_OK);
        CHECK(two < one);
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            sprintf(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=1;regs=255;rounds=%s", bad[i]);
            why = NULL;
            CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);
            CHECK(why && strstr(why, "rounds"));
        }
        /* a pipelined kernel's cp.async has no round through registers: the tiling check refuses it */
        strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=3;rounds=2");
        CHECK_STATUS(measured_tile(&r, &d), TC_OK);
        CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);
    }
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=2");   /* the copy row's tiling, below */
    CHECK_STATUS(measured_tile(&r, &d), TC_OK);
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=2;math=1");
    why = NULL;
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);
    CHECK(why && strstr(why, "math"));
    strcpy(r.params, "m=4096;n=4096;k=4096;kernel=tile;cta=128x128x32;stages=2;math=0");
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_OK);   /* the copy loop alone: its bytes at the rate */
    CHECK_STATUS(tc_tile_model(a100, &d, &tr, NULL), TC_OK);
    CHECK(fabs(pred * 1e12 - tr.flops / (tr.l2_bytes / rate)) < 1e-6 * pred * 1e12);
    strcpy(r.gpu, "H100-SXM5-80GB");   /* no copy row for the h100: math=0 cannot be predicted */
    why = NULL;
    CHECK_STATUS(measured_predict(&r, &pred, &why), TC_ERR_ARG);
    CHECK(why && strstr(why, "copy row"));
}

/* An elementwise stream is first touch: no size beats the profile's DRAM
   bandwidth (the h100 at 2^19 elements once simulated 4.3 TB/s). */
static void test_elementwise_dram_bound(void) {
    static const char *const gpus[] = { "a100", "h100", "v100", "rtx3090" };
    size_t i;
    int64_t e;
    for (i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
        const tc_sim_profile *g = &tc_gpu_find(gpus[i])->profile;
        for (e = 1; e <= ((int64_t)1 << 26); e *= 8) {
            tc_sim_elementwise_desc d;
            tc_sim_prediction p;
            memset(&d, 0, sizeof d);
            d.elements = e;
            d.inputs = 1;
            d.outputs = 1;
            CHECK_STATUS(tc_sim_predict_elementwise(g, &d, &p), TC_OK);
            CHECK(p.dram_bytes / p.kernel_seconds <= g->dram_bytes_per_cycle * g->clock_ghz * 1e9 * (1 + 1e-9));
        }
    }
}

/* timed=call adds exactly the profile's launch cost to the predicted time
   of a GEMM row; any other value is refused with a reason. */
static void test_timed_call(void) {
    measured_set set;
    char err[512];
    const measured_row *row = NULL;
    measured_row r;
    double per_call = 0, alone = 0, flops = 2.0 * 1024 * 1024 * 1024;
    const char *why = NULL;
    int i;
    if (!CHECK(measured_load(TC_DATASET, &set, err, sizeof err) == TC_OK)) return;
    for (i = 0; i < set.n && !row; i++)
        if (strcmp(set.rows[i].id, "xd-sweep-cublas-1024-a100") == 0) row = &set.rows[i];
    if (CHECK(row && strstr(row->params, ";timed=call"))) {
        r = *row;
        CHECK_STATUS(measured_predict(&r, &per_call, &why), TC_OK);
        *strstr(r.params, ";timed=call") = '\0';
        CHECK_STATUS(measured_predict(&r, &alone, &why), TC_OK);
        CHECK(fabs(flops / (per_call * 1e12) - flops / (alone * 1e12) - tc_gpu_find("a100")->profile.launch_overhead_us * 1e-6) < 1e-12);
        strcat(r.params, ";timed=batch");
        CHECK_STATUS(measured_predict(&r, &alone, &why), TC_ERR_ARG);
        CHECK(why && strstr(why, "timed=call"));
    }
    measured_free(&set);
}

/* host_us makes a call cost the longer of its kernel and the host's issue,
   never their sum: it binds the 1024^3 RTX 5090 row, whose kernel the model
   puts below the floor, and leaves the 8192^3 row alone; a value that is
   not a time in (0, 1e6] us is refused with a reason. */
static void test_host_floor(void) {
    static const char *const bad[] = { "0", "-1", "nan", "inf", "1e7", "2147483647", "20us", "" };
    measured_set set;
    char err[512];
    measured_row r;
    double floored = 0, kernel = 0;
    const char *why = NULL;
    int i, j, found = 0;
    if (!CHECK(measured_load(TC_DATASET, &set, err, sizeof err) == TC_OK)) return;
    for (i = 0; i < set.n; i++) {
        const int small = strcmp(set.rows[i].id, "gn-bf16gemm-v0-1024-rtx5090") == 0;
        char *at;
        if (!small && strcmp(set.rows[i].id, "gn-bf16gemm-v0-8192-rtx5090") != 0) continue;
        found++;
        r = set.rows[i];
        if (!CHECK((at = strstr(r.params, ";host_us=20.48")) != NULL)) continue;
        CHECK_STATUS(measured_predict(&r, &floored, &why), TC_OK);
        *at = '\0';
        CHECK_STATUS(measured_predict(&r, &kernel, &why), TC_OK);
        if (small) {
            CHECK(kernel > floored);
            CHECK(fabs(floored - 2.0 * 1024 * 1024 * 1024 / 20.48e-6 / 1e12) < 1e-9);
        } else {
            CHECK(floored == kernel);
        }
        for (j = 0; j < (int)(sizeof bad / sizeof bad[0]); j++) {
            *at = '\0';
            strcat(r.params, ";host_us=");
            strcat(r.params, bad[j]);
            why = NULL;
            CHECK_STATUS(measured_predict(&r, &kernel, &why), TC_ERR_ARG);
            CHECK(why && strstr(why, "host_us"));
        }
    }
    CHECK(found == 2);
    measured_free(&set);
}

/* Sources: a file at a commit, or a GitHub issue or pull-request thread;
   nothing else, and no half-formed address. */
static void test_sources(void) {
    static const char *const good[] = { "github:o/r@0123abc:f.txt", "https://github.com/o/r/issues/57",
                                        "https://github.com/o/r/pull/90119", "https://github.com/o/r/pull/1#issuecomment-2" };
    static const char *const bad[] = { NULL, "", "github:", "github:o/r", "github:o/r@:f", "github:o/r@abc",
                                       "https://github.com/o/r/issues/", "https://github.com/o/r/issues/x",
                                       "https://github.com/o/r/issues/1x", "https://github.com/o/issues/1",
                                       "https://github.com//issues/1", "https://github.com/o/r/discussions/1",
                                       "https://example.com/o/r/issues/1", "http://github.com/o/r/issues/1" };
    size_t i;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) CHECK(measured_source_ok(good[i]));
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) CHECK(!measured_source_ok(bad[i]));
}

int main(void) {
    test_parser();
    test_sources();
    test_timed_call();
    test_host_floor();
    test_library_gemm();
    test_copy_rate();
    test_elementwise_dram_bound();
    test_dataset();
    test_predict_edges();
    return tct_finish("test_measured");
}
