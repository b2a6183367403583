/* test_exercises.c - every lesson's exercise has the answer docs/solutions.md
   gives, worked out here the way a student would, through the same public
   functions. A change to a model that breaks an exercise (makes it
   unsolvable, or changes its answer) fails here, and solutions.md must follow.

   Lesson 07's exercise rebuilds the lesson with other macros; this file is
   that build: it trains with the loss multiplied by 2^-15 and the scaler
   started at 2^48 (both mlp.h macros, as the exercise's second build).
   The exercises answered through a lesson's own command-line option
   (02 --promote, 05's tile, 09 --adam, 10 --ada-group, tcsim for 03) are
   checked by tests/test_exercises.sh, which runs them. */
#define LOSS_MULTIPLIER_LOG2 (-15)
#define MLP_INIT_SCALE_LOG2 48
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "measured.h"
#include "mlp.h"
#include "tc_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- lesson 01: round toward zero errs up to an ulp, round to nearest half
   an ulp; relative to the value, the worst cases sit at 1 + u/2 (RN) and just
   below 1 + u (RZ), so the ratio is 2 (1 + u/2) / (1 + u): 2 in the limit. */
static void lesson01(void) {
    static const tc_dtype t[] = { TC_TF32, TC_BF16, TC_FP16, TC_E4M3, TC_E5M2 };
    int i, k, smallest = -1;
    for (i = 0; i < (int)(sizeof t / sizeof t[0]); i++) {
        double u = ldexp(1.0, -tc_format_of(t[i])->mantissa_bits);
        float mid = (float)(1 + u / 2), below = nextafterf((float)(1 + u), 0.0f);
        double rn = fabs((double)tc_round(t[i], mid, TC_RN) - mid) / mid;
        double rz = fabs((double)tc_round(t[i], below, TC_RZ) - below) / below;
        CHECK(fabs(rn - (u / 2) / (1 + u / 2)) < 1e-9);
        CHECK(fabs(rz / rn - 2 * (1 + u / 2) / (1 + u)) < 1e-3);   /* nextafterf sits 2^-23 below 1 + u */
        CHECK(rz / rn > 1.79 && rz / rn < 2.0);
    }
    /* the smallest power-of-two loss scale that keeps 1e-9 non-zero in fp16: 2^5 */
    for (k = 0; k < 40 && smallest < 0; k++)
        if (tc_round(TC_FP16, 1e-9f * ldexpf(1.0f, k), TC_RN) != 0) smallest = k;
    CHECK(smallest == 5);
    CHECK(tc_round(TC_FP16, 1e-9f * 16.0f, TC_RN) == 0);
}

/* ---- lesson 02: promotion to fp32 every 128 products keeps e4m3's mean
   error at K = 65536 below 1e-3; every 256 does not. fp16 without promotion
   is far closer than e4m3 (F = 24 on A100, as many bits as an fp32 result). */
static double promoted_error(tc_arch arch, tc_dtype in, int interval, unsigned seed) {
    enum { K = 65536, TRIALS = 4 };
    static float a[K], b[K];
    double sum = 0;
    int t, i, k0;
    srand(seed);
    for (t = 0; t < TRIALS; t++) {
        float exact = 0, d = 0, part = 0;
        for (i = 0; i < K; i++) {
            a[i] = tc_round(in, (float)rand() / (float)RAND_MAX, TC_RN);
            b[i] = tc_round(in, (float)rand() / (float)RAND_MAX, TC_RN);
        }
        CHECK_STATUS(tc_dot_exact(K, a, 1, b, 1, 0.0f, &exact), TC_OK);
        for (k0 = 0; k0 < K; k0 += interval) {
            CHECK_STATUS(tc_gemm(arch, in, TC_FP32, 1, 1, interval, a + k0, interval, b + k0, 1, NULL, 0, &part, 1), TC_OK);
            d += part;
        }
        sum += fabs((double)d - exact) / exact;
    }
    return sum / TRIALS;
}

static void lesson02(void) {
    CHECK(promoted_error(TC_ARCH_H100, TC_E4M3, 128, 3) < 1e-3);
    CHECK(promoted_error(TC_ARCH_H100, TC_E4M3, 256, 3) > 1e-3);
    CHECK(promoted_error(TC_ARCH_A100, TC_FP16, 65536, 3) * 100 < promoted_error(TC_ARCH_H100, TC_E4M3, 65536, 3));
}

/* ---- lesson 03 */
static tc_sim_result run_named(const tc_sim_profile *g, const char *name, int warps, int tensor_cores_matmul) {
    tc_sim_program p;
    tc_sim_options o;
    tc_sim_result r;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    memset(&r, 0, sizeof r);
    o.warps_per_sm = warps;
    if (tensor_cores_matmul) {
        tc_sim_matmul32_desc d;
        memset(&d, 0, sizeof d);
        d.tensor_cores = 1;
        CHECK_STATUS(tc_sim_build_matmul32(&p, &d), TC_OK);
    } else {
        CHECK_STATUS(tc_sim_build_named(&p, name), TC_OK);
    }
    CHECK_STATUS(tc_sim_run(g, &p, &o, &r), TC_OK);
    tc_sim_program_free(&p);
    return r;
}

static int main_state(const tc_sim_result *r) {
    int k, best = 0;
    for (k = 1; k < TC_SIM_STATE_COUNT; k++) if (r->state_cycles[k] > r->state_cycles[best]) best = k;
    return best;
}

static void lesson03(void) {
    const tc_gpu *h = tc_gpu_find("h100");
    tc_sim_profile half;
    tc_sim_result r, r4, r5, base;
    int w;
    CHECK(h != NULL);
    if (!h) return;
    /* matmul32_tc: long_scoreboard stays the main stall at any warp count */
    for (w = 4; w <= 32; w *= 2) {
        r = run_named(&h->profile, NULL, w, 1);
        CHECK(main_state(&r) == TC_SIM_LONG_SCOREBOARD);
        tc_sim_result_free(&r);
    }
    /* mma_throughput: up to one warp per sub-partition the time is one warp's;
       the fifth warp shares a Tensor Core, the time doubles, not_selected appears */
    r = run_named(&h->profile, "mma_throughput", 1, 0);
    r4 = run_named(&h->profile, "mma_throughput", h->profile.subpartitions, 0);
    r5 = run_named(&h->profile, "mma_throughput", h->profile.subpartitions + 1, 0);
    CHECK(r4.cycles == r.cycles);
    CHECK(r5.cycles > 1.9 * (double)r4.cycles && r5.cycles < 2.1 * (double)r4.cycles);
    CHECK(r4.state_cycles[TC_SIM_NOT_SELECTED] == 0 && r5.state_cycles[TC_SIM_NOT_SELECTED] > 0);
    CHECK(main_state(&r5) == TC_SIM_MATH_PIPE_THROTTLE);
    tc_sim_result_free(&r); tc_sim_result_free(&r4); tc_sim_result_free(&r5);
    /* halving l2_latency: the one global load is on every warp's critical
       path, so the run shortens by half the L2 latency */
    base = run_named(&h->profile, NULL, 0, 1);
    half = h->profile;
    half.l2_latency /= 2;
    r = run_named(&half, NULL, 0, 1);
    CHECK(fabs((double)(base.cycles - r.cycles) - (h->profile.l2_latency - half.l2_latency)) <= 2);
    tc_sim_result_free(&r); tc_sim_result_free(&base);
}

/* ---- lesson 04: float4 loads by phase */
static int float4_total(uint32_t stride_bytes, tc_status *s) {
    uint32_t a[32];
    int l, passes = -1;
    for (l = 0; l < 32; l++) a[l] = stride_bytes * (uint32_t)l;
    *s = tc_sim_shared_passes(a, 32, 16, 32, 4, &passes);
    return passes;
}

static void lesson04(void) {
    tc_status s;
    uint32_t a[32];
    int stride, first8 = -1, passes = 0, c, l, worst = 0;
    for (stride = 1; stride <= 16 && first8 < 0; stride++)
        if (float4_total((uint32_t)stride * 16, &s) == 32 && s == TC_OK) first8 = stride;
    CHECK(first8 == 8);                               /* 8 float4s = 128 bytes: every lane of a phase in banks 0-3 */
    CHECK(float4_total(9 * 16, &s) == 4 && s == TC_OK);   /* one float4 of padding: one pass per phase */
    CHECK(float4_total(8 * 16 + 4, &s) == -1 && s == TC_ERR_ARG);   /* one float of padding breaks alignment */
    /* a 64 x 64 half tile, 32 words a row; element (r, c) stored at word
       r * 32 + ((c / 2) ^ (r % 32)): column c read by 32 lanes (rows) */
    for (c = 0; c < 64; c++) {
        for (l = 0; l < 32; l++) a[l] = (uint32_t)(l * 32 + ((c / 2) ^ (l % 32))) * 4;
        CHECK_STATUS(tc_sim_shared_passes(a, 32, 4, 32, 4, &passes), TC_OK);
        if (passes > worst) worst = passes;
    }
    CHECK(worst == 1);
}

/* ---- lesson 05: 128 x 96 CTAs (64 x 48 warp tiles, 3 stages) beat ladder v5 */
static void lesson05(void) {
    const tc_gpu *h = tc_gpu_find("h100");
    tc_tile_desc mine, v5;
    tc_tile_result rm, rv;
    CHECK(h != NULL && tc_tile_ladder_get(4) != NULL);
    if (!h || !tc_tile_ladder_get(4)) return;
    v5 = tc_tile_ladder_get(4)->tile;
    v5.M = v5.N = 3072; v5.K = 8192;
    mine = v5;
    mine.cta_m = 128; mine.cta_n = 96; mine.cta_k = 32;
    mine.warp_m = 64; mine.warp_n = 48; mine.stages = 3;
    mine.regs_per_thread = 0;   /* never compiled: the estimate, as the lesson's own tile */
    CHECK_STATUS(tc_tile_predict(h, &v5, &rv, NULL), TC_OK);
    CHECK_STATUS(tc_tile_predict(h, &mine, &rm, NULL), TC_OK);
    CHECK(rm.predicted_s < rv.predicted_s);
    CHECK(rm.wave_efficiency > rv.wave_efficiency);
    CHECK(rm.ctas_per_sm == 2 && rm.ctas == 768);
}

/* ---- lesson 06 */
static void lesson06(void) {
    enum { M = 64, K = 256 };
    static float w[M * K], p24[M * K], p12[M * K];
    static const char *const gpus[] = { "a100", "h100" };
    double e24 = 0, e12 = 0;
    int i, j, n;
    unsigned s = 99u;
    for (i = 0; i < M * K; i++) { s = s * 1664525u + 1013904223u; w[i] = (float)((s >> 8) / 16777216.0 - 0.5); }
    for (i = 0; i < M * K; i++) w[i] = tc_round(TC_TF32, w[i], TC_RN);
    CHECK_STATUS(tc_sparse_prune(TC_FP16, M, K, w, K, p24, K, NULL), TC_OK);
    CHECK_STATUS(tc_sparse_prune(TC_TF32, M, K, w, K, p12, K, NULL), TC_OK);
    for (i = 0; i < M * K; i++) { e24 += (w[i] - p24[i]) * (w[i] - p24[i]); e12 += (w[i] - p12[i]) * (w[i] - p12[i]); }
    CHECK(e24 < e12);   /* any 2 of 4 includes every choice of 1 of each 2 */
    /* the weight-bound shape: dense pipe busy from 256 tokens, sparse from 512 */
    for (j = 0; j < 2; j++) {
        int dense_from = 0, sparse_from = 0;
        for (n = 16; n <= 512; n *= 2) {
            measured_gemm_shape sh = { 3072, n, 10240, 256, n, 1, 0 };
            measured_slice d, sp;
            CHECK_STATUS(measured_gemm_slice(tc_gpu_find(gpus[j]), &sh, 0, &d), TC_OK);
            CHECK_STATUS(measured_gemm_slice(tc_gpu_find(gpus[j]), &sh, 1, &sp), TC_OK);
            if (!dense_from && d.busy >= 0.95) dense_from = n;
            if (!sparse_from && sp.busy >= 1.95) sparse_from = n;
        }
        CHECK(dense_from == 256);
        CHECK(sparse_from == 512);
    }
}

/* ---- lesson 07, built with LOSS_MULTIPLIER_LOG2 -15 and MLP_INIT_SCALE_LOG2 30 */
static void lesson07(void) {
    static unsigned char px[MLP_IMAGES * MLP_IN];
    static float x[MLP_IMAGES * MLP_IN];
    static int y[MLP_IMAGES];
    static mlp_model model;
    static mlp_result plain, scaled;
    int c, i, first_clean = -1;
    long skipped = 0;
    mlp_draw_dataset(px);
    for (c = 0; c < MLP_OUT; c++)
        for (i = 0; i < MLP_PER_CLASS; i++) mlp_set_image(x, y, c, i, px + ((size_t)c * MLP_PER_CLASS + (size_t)i) * MLP_IN);
    mlp_train(&mlp_runs[3], TC_ARCH_A100, x, y, &model, &plain);    /* FP16, no scaling */
    mlp_train(&mlp_runs[4], TC_ARCH_A100, x, y, &model, &scaled);   /* FP16 + dynamic scaling from 2^30 */
    /* 2^3 more room: fewer gradients flush, and FP16 without scaling learns the task */
    CHECK(plain.accuracy >= 0.90);
    CHECK(plain.grads_nonzero > 0 && (double)plain.grads_flushed / (double)plain.grads_nonzero < 0.05);
    /* too high a start: the first steps overflow and are skipped, each halving the scale,
       then training runs clean; a few skipped steps of 400 cost little */
    CHECK(scaled.scale[0] == ldexp(1.0, 48));
    for (i = 0; i < MLP_STEPS; i++) skipped += scaled.skipped[i];
    for (i = 0; i < MLP_STEPS && first_clean < 0; i++) if (!scaled.skipped[i]) first_clean = i;
    CHECK(first_clean >= 10 && first_clean <= 20);   /* 15 today: 2^48 halved down to 2^33 */
    CHECK(first_clean > 0 && scaled.scale[first_clean] == ldexp(scaled.scale[0], -first_clean));
    CHECK(skipped < MLP_STEPS / 5);
    CHECK(scaled.accuracy >= 0.90);
}

/* ---- lesson 08: the a100 profile with the 80 GB card's measured 1750 GB/s */
static void lesson09(void) {
    const tc_gpu *a = tc_gpu_find("a100"), *v = tc_gpu_find("v100");
    tc_sim_profile a80;
    tc_sim_elementwise_desc e;
    tc_sim_prediction ea, ev, ga, gv, gs, gb;
    CHECK(a && v);
    if (!a || !v) return;
    a80 = a->profile;
    a80.dram_bytes_per_cycle = 1750 / a80.clock_ghz;
    memset(&e, 0, sizeof e);
    e.elements = (int64_t)1 << 26; e.inputs = 2; e.outputs = 1; e.ops = 2;
    CHECK_STATUS(tc_sim_predict_elementwise(&a80, &e, &ea), TC_OK);
    CHECK_STATUS(tc_sim_predict_elementwise(&v->profile, &e, &ev), TC_OK);
    CHECK_STATUS(tc_sim_predict_gemm(&a80, 8192, 8192, 8192, &ga), TC_OK);
    CHECK_STATUS(tc_sim_predict_gemm(&a->profile, 8192, 8192, 8192, &gs), TC_OK);
    CHECK_STATUS(tc_sim_predict_gemm(&v->profile, 8192, 8192, 8192, &gv), TC_OK);
    /* add+ReLU follows the bandwidth ratio; the GEMM does not move */
    CHECK(fabs(ev.kernel_seconds / ea.kernel_seconds - 1750 / (v->profile.dram_bytes_per_cycle * v->profile.clock_ghz)) < 0.1);
    CHECK(fabs(ga.kernel_seconds / gs.kernel_seconds - 1) < 0.01);
    /* below n* the square GEMM's time is its DRAM traffic's (2 n^3 FLOPs over
       8 n^2 bytes: n / 4 FLOPs per byte), above it its math's: n* / 4 is the
       machine's FLOPs per byte, the 8192^3 rate over the DRAM bandwidth */
    {
        double bw = a->profile.dram_bytes_per_cycle * a->profile.clock_ghz * 1e9, rate, balance_n;
        int64_t lo = 16, hi = 8192;
        CHECK_STATUS(tc_sim_predict_gemm(&a->profile, 8192, 8192, 8192, &gb), TC_OK);
        rate = gb.flops / gb.kernel_seconds;
        balance_n = 4 * rate / bw;
        while (hi - lo > 1) {   /* the largest memory-bound n */
            int64_t n = (lo + hi) / 2;
            CHECK_STATUS(tc_sim_predict_gemm(&a->profile, n, n, n, &gb), TC_OK);
            if (gb.dram_bytes / bw >= 0.999 * gb.kernel_seconds) lo = n; else hi = n;
        }
        CHECK(fabs((double)hi - balance_n) <= 0.02 * balance_n);
        CHECK(hi > 256 && hi < 2048);   /* about 900 today */
        printf("lesson 08: square GEMMs below n = %lld are bandwidth bound on a100 (n / 4 = %.0f FLOPs per byte)\n",
               (long long)hi, balance_n / 4);
    }
}

/* ---- lesson 10: the Ada FP8 model with 32 products per block FMA gives
   H100's bits (the two differ only in the group); no group gives B200's,
   whose result is rounded to nearest with 23 bits where Ada keeps 13 and
   truncates. A GEMM of its own (normal-ish e4m3 values, fixed seed). */
static void lesson10(void) {
    enum { M = 16, N = 16, KK = 256 };
    static float A[M * KK], B[KK * N], h100[M * N], b200[M * N], ada[M * N];
    tc_gemm_desc g;
    tc_mma_params pa = { 0 }, pb = { 0 };
    int i, group, differ_h, fewest_b = M * N;
    srand(10);
    for (i = 0; i < M * KK; i++) A[i] = tc_round(TC_E4M3, (float)(rand() % 2001 - 1000) / 300.0f, TC_RN);
    for (i = 0; i < KK * N; i++) B[i] = tc_round(TC_E4M3, (float)(rand() % 2001 - 1000) / 300.0f, TC_RN);
    memset(&g, 0, sizeof g);
    g.in = TC_E4M3; g.out = TC_FP32; g.M = M; g.N = N; g.K = KK; g.A = A; g.B = B;
    g.arch = TC_ARCH_H100; g.D = h100;
    CHECK_STATUS(tc_gemm_ex(&g), TC_OK);
    g.arch = TC_ARCH_B200; g.D = b200;
    CHECK_STATUS(tc_gemm_ex(&g), TC_OK);
    g.arch = TC_ARCH_ADA; g.D = ada;
    for (group = 1; group <= TC_MMA_MAX_GROUP; group++) {
        g.options.group = group;
        CHECK_STATUS(tc_gemm_ex(&g), TC_OK);
        for (i = 0, differ_h = 0; i < M * N; i++) differ_h += memcmp(&ada[i], &h100[i], sizeof ada[i]) != 0;
        CHECK((differ_h == 0) == (group == 32));   /* 32 and nothing else gives H100's bits */
        for (i = 0, differ_h = 0; i < M * N; i++) differ_h += memcmp(&ada[i], &b200[i], sizeof ada[i]) != 0;
        if (differ_h < fewest_b) fewest_b = differ_h;
    }
    CHECK(fewest_b > M * N / 2);   /* no group comes close to B200 */
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_ADA, TC_E4M3, TC_FP32, &pa), TC_OK);
    CHECK_STATUS(tc_mma_params_of(TC_ARCH_B200, TC_E4M3, TC_FP32, &pb), TC_OK);
    CHECK(pa.group == 16 && pa.out_mbits == 13 && pa.out_rounding == TC_RZ);
    CHECK(pb.out_mbits == 23 && pb.out_rounding == TC_RN);
    printf("lesson 10: Ada with group 32 = H100 bit for bit; the closest Ada group differs from B200 in %d of %d\n",
           fewest_b, M * N);
}

int main(void) {
    lesson01();
    lesson02();
    lesson03();
    lesson04();
    lesson05();
    lesson06();
    lesson07();
    lesson09();
    lesson10();
    return tct_finish("test_exercises");
}
