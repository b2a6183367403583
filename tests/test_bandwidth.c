/* test_bandwidth.c - section 5's kernel-sequence predictions: bytes and
   launches of fused and unfused elementwise chains and optimizer updates
   against hand-derived counts, the simulated bandwidth against the profiles,
   the direction predictions move when bandwidth, Tensor Core rate or launch
   overhead change, the v100 and rtx3090 profiles, and rejected inputs. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <math.h>

static const tc_sim_profile *prof(const char *name) {
    const tc_gpu *gpu = tc_gpu_find(name);
    CHECK(gpu != NULL);
    return gpu ? &gpu->profile : NULL;
}

static tc_sim_elementwise_desc ew(int64_t n, int inputs, int outputs, int ops) {
    tc_sim_elementwise_desc d;
    d.elements = n;
    d.inputs = inputs;
    d.outputs = outputs;
    d.ops = ops;
    return d;
}

static tc_sim_prediction predict(const tc_sim_profile *g, tc_sim_elementwise_desc d) {
    tc_sim_prediction p;
    CHECK_STATUS(tc_sim_predict_elementwise(g, &d, &p), TC_OK);
    return p;
}

static int near(double got, double want, double rel) { return fabs(got - want) <= rel * fabs(want); }

/* One simulated run: every sector counted once, instruction count by hand. */
static void test_builder_counts(void) {
    enum { SMS = 2, WPS = 4, TRIPS = 3, R = 2, W = 1, OPS = 3 };
    const int64_t n = (int64_t)SMS * WPS * 128 * TRIPS;
    tc_sim_elementwise_desc d = ew(n, R, W, OPS);
    tc_sim_program p;
    tc_sim_result r;
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_build_elementwise(&p, &d, SMS, WPS), TC_OK);
    CHECK(p.global_bytes == n * 4 * (R + W) && p.writes_reach_dram == 1);
    CHECK_STATUS(tc_sim_run(prof("a100"), &p, NULL, &r), TC_OK);
    CHECK(r.dram_bytes == (double)(n * 4 * R));
    CHECK(r.dram_write_bytes == (double)(n * 4 * W));
    CHECK(r.flops == 2.0 * (double)n * OPS);
    /* per trip: R loads, 4 x OPS FFMAs (a float4 per thread), W stores, one LOOP */
    CHECK_BITS(0, r.instructions, (int64_t)SMS * WPS * TRIPS * (R + 4 * OPS + W + 1));
    tc_sim_result_free(&r);
    /* stores kept in L2: no write bytes, and the run cannot be slower */
    {
        int64_t with_writes;
        CHECK_STATUS(tc_sim_run(prof("a100"), &p, NULL, &r), TC_OK);
        with_writes = r.cycles;
        tc_sim_result_free(&r);
        p.writes_reach_dram = 0;
        CHECK_STATUS(tc_sim_run(prof("a100"), &p, NULL, &r), TC_OK);
        CHECK(r.dram_write_bytes == 0.0 && r.cycles <= with_writes);
        tc_sim_result_free(&r);
    }
    /* a copy (no ops) stores the loaded register; elements round up to whole trips */
    d = ew(1, 1, 1, 0);
    CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 1, 1), TC_OK);
    CHECK(p.global_bytes == 2 * 512);
    CHECK_STATUS(tc_sim_run(prof("h100"), &p, NULL, &r), TC_OK);
    CHECK(r.dram_bytes == 512.0 && r.dram_write_bytes == 512.0 && r.instructions == 2);
    tc_sim_result_free(&r);
    tc_sim_program_free(&p);
}

/* The BatchNorm-Add-ReLU chain of lesson 09 over N fp32 elements:
   scale (R1 W1), bias (R1 W1), ReLU (R1 W1), add+ReLU (R2 W1) = 36N bytes, 4 launches;
   BN+ReLU fused then add+ReLU = 20N, 2 launches; all fused (R2 W1) = 12N, 1 launch. */
static void test_chain_counts(void) {
    const int64_t n = (int64_t)1 << 22;
    const tc_sim_profile *g = prof("a100");
    tc_sim_prediction unfused, half, fused, k;
    memset(&unfused, 0, sizeof unfused);
    memset(&half, 0, sizeof half);
    k = predict(g, ew(n, 1, 1, 1));
    tc_sim_prediction_add(&unfused, &k);
    tc_sim_prediction_add(&unfused, &k);
    tc_sim_prediction_add(&unfused, &k);
    k = predict(g, ew(n, 2, 1, 2));
    tc_sim_prediction_add(&unfused, &k);
    tc_sim_prediction_add(&half, &k);
    k = predict(g, ew(n, 1, 1, 3));
    tc_sim_prediction_add(&half, &k);
    fused = predict(g, ew(n, 2, 1, 5));
    CHECK(unfused.dram_bytes == 36.0 * (double)n && unfused.launches == 4);
    CHECK(half.dram_bytes == 20.0 * (double)n && half.launches == 2);
    CHECK(fused.dram_bytes == 12.0 * (double)n && fused.launches == 1);
    CHECK(unfused.flops == fused.flops && half.flops == fused.flops);
    CHECK(unfused.launch_seconds == 4 * g->launch_overhead_us * 1e-6);
    /* launched back to back, each kernel costs the longer of its run and its launch */
    CHECK(unfused.seconds >= unfused.kernel_seconds && unfused.seconds >= unfused.launch_seconds);
    CHECK(unfused.seconds <= unfused.kernel_seconds + unfused.launch_seconds);
    /* bandwidth bound: time follows bytes */
    CHECK(fused.seconds < half.seconds && half.seconds < unfused.seconds);
    CHECK(near(unfused.kernel_seconds / fused.kernel_seconds, 3.0, 0.05));
}

/* SGD with momentum over T tensors: per tensor R3 (param, grad, momentum) W2; the same bytes
   either way, T launches against one. */
static void test_multi_tensor(void) {
    static const int64_t sizes[] = { 64, 256, 4096, 9408, 36864, 147456, 589824, 2359296 };
    const int t = (int)(sizeof sizes / sizeof sizes[0]);
    const tc_sim_profile *g = prof("v100");
    tc_sim_prediction each, multi, k;
    int64_t total = 0;
    int i;
    memset(&each, 0, sizeof each);
    for (i = 0; i < t; i++) {
        k = predict(g, ew(sizes[i], 3, 2, 2));
        CHECK(k.dram_bytes == 20.0 * (double)sizes[i] && k.launches == 1);
        tc_sim_prediction_add(&each, &k);
        total += sizes[i];
    }
    multi = predict(g, ew(total, 3, 2, 2));
    CHECK(each.launches == t && multi.launches == 1);
    CHECK(each.dram_bytes == multi.dram_bytes && multi.dram_bytes == 20.0 * (double)total);
    CHECK(near(each.launch_seconds - multi.launch_seconds, (t - 1) * g->launch_overhead_us * 1e-6, 1e-9));
    CHECK(multi.seconds < each.seconds);
    /* small tensors cannot fill the GPU: their kernels run far below the bandwidth */
    k = predict(g, ew(64, 3, 2, 2));
    CHECK(k.dram_bytes / k.kernel_seconds < 0.05 * g->dram_bytes_per_cycle * g->clock_ghz * 1e9);
}

/* A large elementwise kernel runs at the profile's DRAM bandwidth; Dettmers' ratio falls out. */
static void test_bandwidth_bound(void) {
    static const char *const names[] = { "v100", "a100", "h100", "rtx3090" };
    const int64_t n = (int64_t)1 << 26;
    double t[4];
    size_t i;
    for (i = 0; i < 4; i++) {
        const tc_sim_profile *g = prof(names[i]);
        tc_sim_prediction p = predict(g, ew(n, 2, 1, 5));
        double peak = g->dram_bytes_per_cycle * g->clock_ghz * 1e9;
        CHECK(p.dram_bytes / p.kernel_seconds > 0.95 * peak && p.dram_bytes / p.kernel_seconds < 1.01 * peak);
        t[i] = p.kernel_seconds;
    }
    CHECK(near(t[0] / t[1], 1555.0 / 900.0, 0.03));
    CHECK(near(t[0] / t[3], 936.0 / 900.0, 0.03));
}

/* Beyond 8 trips the prediction extrapolates; it must agree with a direct simulation. */
static void test_extrapolation(void) {
    tc_sim_profile g = *prof("a100");
    tc_sim_elementwise_desc d;
    tc_sim_program p;
    tc_sim_result r;
    tc_sim_prediction pr;
    double direct;
    g.sms = 4;
    d = ew((int64_t)4 * 32 * 128 * 20, 2, 1, 2);   /* 20 trips of 4 SMs x 32 warps */
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 4, 32), TC_OK);
    CHECK_STATUS(tc_sim_run(&g, &p, NULL, &r), TC_OK);
    direct = (double)r.cycles / (g.clock_ghz * 1e9);
    tc_sim_result_free(&r);
    tc_sim_program_free(&p);
    CHECK_STATUS(tc_sim_predict_elementwise(&g, &d, &pr), TC_OK);
    CHECK(near(pr.kernel_seconds, direct, 0.02));
}

static void test_directions(void) {
    const int64_t n = (int64_t)1 << 24;
    tc_sim_profile g = *prof("a100"), h;
    tc_sim_prediction a, b;
    /* twice the DRAM bandwidth: the elementwise kernel nearly halves, the large GEMM does not move */
    a = predict(&g, ew(n, 2, 1, 5));
    h = g;
    h.dram_bytes_per_cycle *= 2.0;
    b = predict(&h, ew(n, 2, 1, 5));
    CHECK(b.kernel_seconds < a.kernel_seconds && near(a.kernel_seconds / b.kernel_seconds, 2.0, 0.1));
    CHECK_STATUS(tc_sim_predict_gemm(&g, 8192, 8192, 8192, &a), TC_OK);
    CHECK_STATUS(tc_sim_predict_gemm(&h, 8192, 8192, 8192, &b), TC_OK);
    CHECK(a.kernel_seconds == b.kernel_seconds);
    CHECK(near(a.flops / a.kernel_seconds, 312e12, 0.01));   /* A100 whitepaper dense fp16 */
    /* twice the Tensor Core rate: the GEMM halves, the elementwise kernel does not move */
    h = g;
    h.mma_interval[TC_MMA_M16N8K16_F16] /= 2;
    CHECK_STATUS(tc_sim_predict_gemm(&h, 8192, 8192, 8192, &b), TC_OK);
    CHECK(near(a.kernel_seconds / b.kernel_seconds, 2.0, 0.02));
    a = predict(&g, ew(n, 2, 1, 5));
    b = predict(&h, ew(n, 2, 1, 5));
    CHECK(a.kernel_seconds == b.kernel_seconds);
    /* a skinny GEMM is bandwidth bound: its time is the traffic at the DRAM rate */
    CHECK_STATUS(tc_sim_predict_gemm(&g, 16384, 16384, 8, &a), TC_OK);
    CHECK(near(a.kernel_seconds, a.dram_bytes / (g.dram_bytes_per_cycle * g.clock_ghz * 1e9), 1e-9));
    /* a tiny kernel is launch-bound: its time grows by exactly the change of the launch cost, the kernel does not move */
    h = g;
    h.launch_overhead_us = g.launch_overhead_us + 2.0;
    a = predict(&g, ew(4096, 3, 2, 2));
    b = predict(&h, ew(4096, 3, 2, 2));
    CHECK(a.kernel_seconds == b.kernel_seconds && near(b.seconds - a.seconds, 2e-6, 1e-9));
    /* a long kernel hides the next launch: it costs its own time (launches overlap running kernels) */
    a = predict(&g, ew((int64_t)1 << 26, 3, 2, 2));
    CHECK(a.kernel_seconds > a.launch_seconds && a.seconds == a.kernel_seconds);
    h.launch_overhead_us = 0.0;
    b = predict(&h, ew(4096, 3, 2, 2));
    CHECK(b.launch_seconds == 0.0 && b.seconds == b.kernel_seconds);
}

static void test_profiles(void) {
    const tc_sim_profile *v = prof("v100"), *a = prof("a100"), *r = prof("rtx3090"), *h = prof("h100");
    tc_sim_prediction pv, pa, pr, ph;
    const char *why = NULL;
    CHECK_STATUS(tc_sim_profile_validate(v, &why), TC_OK);
    CHECK_STATUS(tc_sim_profile_validate(r, &why), TC_OK);
    /* the GPUs behind the profiles: compute capability and numerics */
    CHECK(tc_gpu_find("v100")->sm == 70 && tc_gpu_find("v100")->arch == TC_ARCH_V100);
    CHECK(tc_gpu_find("rtx3090")->sm == 86 && tc_gpu_find("rtx3090")->arch == TC_ARCH_A100);
    CHECK(&tc_gpu_find("v100")->profile == v && &tc_gpu_find("rtx3090")->profile == r);
    CHECK(v->sms == 80 && r->sms == 82 && r->max_warps_per_sm == 48);
    /* achievable DRAM bandwidth: about 90% of the datasheet's 900 and 936 GB/s */
    CHECK(near(v->dram_bytes_per_cycle * v->clock_ghz, 827.7, 0.5));
    CHECK(near(r->dram_bytes_per_cycle * r->clock_ghz, 842.4, 0.5));
    CHECK(v->launch_overhead_us > 0.0 && a->launch_overhead_us > 0.0);
    CHECK(prof("dettmers2020")->launch_overhead_us == 0.0);
    /* dense fp16 Tensor Core rates: V100 125, A100 312, RTX 3090 71 (fp32 accumulate) TFLOPS; H100 mma.sync ~65% of 989 */
    CHECK_STATUS(tc_sim_predict_gemm(v, 8192, 8192, 8192, &pv), TC_OK);
    CHECK_STATUS(tc_sim_predict_gemm(a, 8192, 8192, 8192, &pa), TC_OK);
    CHECK_STATUS(tc_sim_predict_gemm(r, 8192, 8192, 8192, &pr), TC_OK);
    CHECK_STATUS(tc_sim_predict_gemm(h, 8192, 8192, 8192, &ph), TC_OK);
    CHECK(near(pv.flops / pv.kernel_seconds, 125e12, 0.02));
    CHECK(near(pr.flops / pr.kernel_seconds, 71e12, 0.02));
    CHECK(near(ph.flops / ph.kernel_seconds, 0.65 * 989e12, 0.05));
    /* per SM per clock the 3090's fp16 (fp32 accumulate) rate is a quarter of the A100's */
    CHECK(near((pa.flops / pa.kernel_seconds / (a->sms * a->clock_ghz)) / (pr.flops / pr.kernel_seconds / (r->sms * r->clock_ghz)),
               4.0, 0.02));
    CHECK(pv.launches == 1 && pv.dram_bytes == 2.0 * 2 * 8192.0 * 8192.0 + 4.0 * 8192.0 * 8192.0);
}

static void test_bad_inputs(void) {
    tc_sim_profile g = *prof("a100");
    tc_sim_elementwise_desc d = ew(1024, 1, 1, 1);
    tc_sim_program p;
    tc_sim_prediction pr;
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_build_elementwise(NULL, &d, 1, 1), TC_ERR_NULL);
    CHECK_STATUS(tc_sim_build_elementwise(&p, NULL, 1, 1), TC_ERR_NULL);
    d.inputs = 0;  CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 1, 1), TC_ERR_ARG);
    d.inputs = 9;  CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 1, 1), TC_ERR_ARG);
    d.inputs = 1; d.outputs = -1; CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 1, 1), TC_ERR_ARG);
    d.outputs = 9; CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 1, 1), TC_ERR_ARG);
    d.outputs = 1; d.ops = 65; CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 1, 1), TC_ERR_ARG);
    d.ops = -1; CHECK_STATUS(tc_sim_predict_elementwise(&g, &d, &pr), TC_ERR_ARG);
    d.ops = 1; d.elements = 0; CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 1, 1), TC_ERR_SIZE);
    CHECK_STATUS(tc_sim_predict_elementwise(&g, &d, &pr), TC_ERR_SIZE);
    CHECK(pr.seconds == 0.0 && pr.launches == 0);
    d.elements = (int64_t)1 << 40; CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 1, 1), TC_ERR_SIZE);
    d.elements = INT64_MAX; CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 1, 1), TC_ERR_SIZE);   /* rounding up overflowed */
    d.elements = INT64_MAX - 100; CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 4096, 1024), TC_ERR_SIZE);
    d.elements = 1024;
    CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 0, 1), TC_ERR_SIZE);
    CHECK_STATUS(tc_sim_build_elementwise(&p, &d, 1, 0), TC_ERR_SIZE);
    CHECK_STATUS(tc_sim_predict_elementwise(NULL, &d, &pr), TC_ERR_NULL);
    CHECK_STATUS(tc_sim_predict_elementwise(&g, NULL, &pr), TC_ERR_NULL);
    CHECK_STATUS(tc_sim_predict_elementwise(&g, &d, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_sim_predict_gemm(NULL, 1, 1, 1, &pr), TC_ERR_NULL);
    CHECK_STATUS(tc_sim_predict_gemm(&g, 1, 1, 1, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_sim_predict_gemm(&g, 0, 1, 1, &pr), TC_ERR_SIZE);
    CHECK_STATUS(tc_sim_predict_gemm(&g, 1, -5, 1, &pr), TC_ERR_SIZE);
    CHECK_STATUS(tc_sim_predict_gemm(&g, 1, 1, (int64_t)1 << 25, &pr), TC_ERR_SIZE);
    g.launch_overhead_us = -1.0;
    CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_ERR_PROFILE);
    CHECK_STATUS(tc_sim_predict_elementwise(&g, &d, &pr), TC_ERR_PROFILE);
    CHECK_STATUS(tc_sim_predict_gemm(&g, 64, 64, 64, &pr), TC_ERR_PROFILE);
    g = *prof("a100");
    g.mma_latency[TC_MMA_M8N8K4_F16] = g.mma_latency[TC_MMA_M16N8K8_F16] = g.mma_latency[TC_MMA_M16N8K16_F16] = 0;
    CHECK_STATUS(tc_sim_predict_gemm(&g, 64, 64, 64, &pr), TC_ERR_ARCH);
    tc_sim_prediction_add(NULL, &pr);
    tc_sim_prediction_add(&pr, NULL);
    tc_sim_program_free(&p);
}

int main(void) {
    test_builder_counts();
    test_chain_counts();
    test_multi_tensor();
    test_bandwidth_bound();
    test_extrapolation();
    test_directions();
    test_profiles();
    test_bad_inputs();
    return tct_finish("test_bandwidth");
}
