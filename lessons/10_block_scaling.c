/* Lesson 10: FP8 and FP4 - why block scaling works.

   Teaches: FP8 (e4m3: 448 at most, 2^-9 at least) and FP4 (e2m1: the
   values 0, 0.5, 1, 1.5, 2, 3, 4, 6) hold a real tensor only after it is
   multiplied by a scale. One scale for the whole tensor is set by its
   largest value, so a single outlier pushes every ordinary value down into
   the format's subnormals or to zero. One scale per small block along K
   (what block-scaled MMAs consume) keeps the damage inside the outlier's
   block. Part 1 shows the outlier; part 2 measures every block format of
   tensorcore.h section 1b (MXFP8 e4m3/e5m2, MXFP6 e2m3/e3m2, MXFP4: 32
   elements and a power-of-two E8M0 scale, OCP MX v1.0; NVFP4: 16 elements,
   an E4M3 scale and an fp32 tensor scale, NVIDIA's rule) on normal(0,1)
   and heavy-tailed (Student t, 3 degrees of freedom) data, with the
   per-block statistics of tc_block_quantize and the cost in bits per
   element. Part 3 rounds a long running sum to bf16 with round-to-nearest
   and with stochastic rounding as PTX cvt.rs does it (tc_encode_sr).
   Part 4 runs one e4m3 GEMM through the MMA models of Ada, H100 and B200:
   the same inputs give different result bits, and the models' parameters
   say why.

   Measured or assumed: the formats and the MX/NVFP4 scale rules are
   specifications (checked bit for bit against CUDA 13's headers by the
   tests); the Ada, H100 and B200 MMA parameters printed in part 4 come from
   dot products measured on those GPUs (docs/REFERENCE.md section 2), except
   B200's adder width F: at least 30 bits measured, 31 ASSUMED; the
   cvt.rs alignment of random bits for bf16 is the PTX specification. The
   data here are drawn by this program (fixed seed): nothing is measured.

   Run:    make tour        (or: build/lessons/10_block_scaling)
           build/lessons/10_block_scaling --ada-group G   the exercise's experiment
   Prints: part 1's error with and without an outlier; part 2's table of
           error, flushed and saturated elements and bits per element for
           each format; part 3's sums; part 4's model parameters and how
           many GEMM outputs differ between each pair of GPUs.
   Writes: 10_block_error.png  relative RMS error of each format on three tensors
           10_rounding_sum.png the running bf16 sum: exact, nearest, stochastic
   Exercise: at the end of the output. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QROWS 64
#define QK 1024
#define N_VALUES (QROWS * QK)
#define OUTLIER 4096.0f
#define OUTLIER_AT (N_VALUES / 2 + 7)
/* A block scale is stored in a byte, as tc_block_quantize writes it and the
   hardware reads it: ue8m0 fills it, ue4m3 is e4m3's byte with sign 0. */
#define SCALE_BITS 8

/* splitmix64: one stream, fixed seed, so every run prints the same numbers */
static uint64_t rng = 0x10B10C5CA1Eull;
static uint64_t next64(void) {
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double uniform01(void) { return ((double)(next64() >> 11) + 0.5) / 9007199254740992.0; }
static double normal(void) { return sqrt(-2 * log(uniform01())) * cos(6.283185307179586 * uniform01()); }
static double student_t3(void) {   /* z / sqrt(chi^2_3 / 3): tails falling as |x|^-4 */
    double z = normal(), a = normal(), b = normal(), c = normal();
    return z / sqrt((a * a + b * b + c * c) / 3);
}

/* ---- part 1 and 2: the schemes compared, per-tensor first */

/* The error is measured on the ordinary values: the outlier (if any) is
   skipped, or its own error would swamp the sum. */
static double rel_rms_error(const float *x, const float *q, int n, int skip) {
    double err = 0, ref = 0;
    int i;
    for (i = 0; i < n; i++)
        if (i != skip) {
            err += ((double)q[i] - x[i]) * ((double)q[i] - x[i]);
            ref += (double)x[i] * x[i];
        }
    return sqrt(err / ref);
}

static float amax_of(const float *x, int n) {
    float m = 0;
    int i;
    for (i = 0; i < n; i++) m = fmaxf(m, fabsf(x[i]));
    return m;
}

/* The FP8 recipe before block scaling (Transformer Engine's per-tensor
   scaling): s = max_finite / amax, q = round(x * s) / s. */
static double per_tensor_error(tc_dtype t, const float *x, int n, int skip, int *flushed) {
    static float q[N_VALUES];
    float s = tc_format_of(t)->max_finite / amax_of(x, n);
    int i;
    *flushed = 0;
    for (i = 0; i < n; i++) {
        q[i] = (float)((double)tc_round(t, x[i] * s, TC_RN | TC_SATFINITE) / s);
        if (q[i] == 0 && x[i] != 0) ++*flushed;
    }
    return rel_rms_error(x, q, n, skip);
}

typedef struct {
    double rel_rms;       /* sqrt(sum err^2 / sum x^2) over the ordinary values */
    double worst_block;   /* largest block rms error over that block's amax */
    long flushed, saturated;
    double bits;          /* bits per element: element + scale byte / block (+ the fp32 tensor scale) */
} block_result;

static int block_error(tc_block_kind k, const float *x, int skip, block_result *r) {
    static uint8_t codes[N_VALUES], scales[N_VALUES];
    static tc_block_stats st[N_VALUES];
    static float q[N_VALUES];
    const tc_block_info *bi = tc_block_info_of(k);
    float ts = 1.0f;
    int b, nb = N_VALUES / bi->block;
    if (bi->tensor_scale && tc_nvfp4_tensor_scale(QROWS, QK, x, QK, &ts) != TC_OK) return -1;
    if (tc_block_quantize(k, QROWS, QK, x, QK, ts, codes, scales, st) != TC_OK ||
        tc_block_dequantize(k, QROWS, QK, codes, scales, ts, q, QK) != TC_OK) return -1;
    memset(r, 0, sizeof *r);
    for (b = 0; b < nb; b++) {
        if (st[b].amax > 0) r->worst_block = fmax(r->worst_block, st[b].rms_err / st[b].amax);
        r->flushed += st[b].flushed;
        r->saturated += st[b].saturated;
    }
    r->rel_rms = rel_rms_error(x, q, N_VALUES, skip);
    r->bits = tc_format_of(bi->elem)->total_bits + (double)SCALE_BITS / bi->block +
              (bi->tensor_scale ? 32.0 / N_VALUES : 0.0);
    return 0;
}

enum { DATA_NORMAL, DATA_OUTLIER, DATA_HEAVY, N_DATA };
static const char *const data_names[N_DATA] = { "normal(0,1)", "normal + one outlier", "Student t (3 dof)" };
#define N_SCHEMES (2 + TC_BLOCK_KIND_COUNT)
static const tc_dtype tensor_types[2] = { TC_E4M3, TC_E2M1 };

static int part1_and_2(float x[N_DATA][N_VALUES]) {
    static char label_text[N_SCHEMES][32];
    const char *labels[N_SCHEMES];
    double rel[N_DATA][N_SCHEMES];
    plot_chart_desc d;
    plot_chart *ch;
    int s, dset, flushed, rc = 0;

    printf("Part 1: one scale for the whole tensor (%d values of normal(0,1); then one of them set to %g)\n", N_VALUES,
           (double)OUTLIER);
    for (s = 0; s < 2; s++) {
        int f0, f1;
        double e0 = per_tensor_error(tensor_types[s], x[DATA_NORMAL], N_VALUES, -1, &f0);
        double e1 = per_tensor_error(tensor_types[s], x[DATA_OUTLIER], N_VALUES, OUTLIER_AT, &f1);
        printf("  %-5s scaled so amax becomes %-4g: relative RMS error %.4f, %5d values flushed to 0;"
               " with the outlier %.4f, %5d flushed\n",
               tc_format_of(tensor_types[s])->name, (double)tc_format_of(tensor_types[s])->max_finite, e0, f0, e1, f1);
    }
    printf("  (errors over the %d ordinary values). The outlier sets the scale: every ordinary value lands %.0f times\n"
           "  lower in the format, where e4m3 still has subnormals (down to %g) and e2m1 (smallest non-zero %g) has\n"
           "  nothing left.\n\n", N_VALUES - 1, (double)OUTLIER / amax_of(x[DATA_NORMAL], N_VALUES),
           (double)tc_format_of(TC_E4M3)->min_subnormal, (double)tc_format_of(TC_E2M1)->min_subnormal);

    printf("Part 2: one scale per block along K (relative RMS error of the ordinary values; worst block: its RMS\n"
           "  error / its amax; flushed and saturated from tc_block_stats)\n");
    printf("  %-20s %-12s %6s  %9s %9s %8s %9s\n", "data", "format", "bits", "rel. RMS", "worst blk", "flushed", "saturated");
    for (s = 0; s < N_SCHEMES; s++) {
        if (s < 2) snprintf(label_text[s], sizeof label_text[s], "%s", tc_format_of(tensor_types[s])->name);
        else snprintf(label_text[s], sizeof label_text[s], "%s", tc_block_info_of((tc_block_kind)(s - 2))->name);
        labels[s] = label_text[s];
    }
    for (dset = 0; dset < N_DATA; dset++)
        for (s = 0; s < N_SCHEMES; s++) {
            if (s < 2) {
                rel[dset][s] = per_tensor_error(tensor_types[s], x[dset], N_VALUES, dset == DATA_OUTLIER ? OUTLIER_AT : -1, &flushed);
                printf("  %-20s %-12s %6.3f  %9.5f %9s %8d %9s\n", data_names[dset], labels[s],
                       (double)tc_format_of(tensor_types[s])->total_bits + 32.0 / N_VALUES, rel[dset][s], "-", flushed, "-");
            } else {
                block_result r;
                if (block_error((tc_block_kind)(s - 2), x[dset], dset == DATA_OUTLIER ? OUTLIER_AT : -1, &r) != 0) return -1;
                rel[dset][s] = r.rel_rms;
                printf("  %-20s %-12s %6.3f  %9.5f %9.5f %8ld %9ld\n", data_names[dset], labels[s], r.bits, r.rel_rms,
                       r.worst_block, r.flushed, r.saturated);
            }
        }
    {   /* the facts behind the saturated column, from the format and block tables */
        const tc_format *e4 = tc_format_of(TC_E4M3), *sc = tc_format_of(TC_UE4M3);
        const tc_block_info *mx = tc_block_info_of(TC_MXFP8_E4M3), *nv = tc_block_info_of(TC_NVFP4);
        int emax = ilogb(e4->max_finite);
        printf("  MX scales are powers of two (%s): 2^(floor(log2 amax) - emax) puts a block's amax anywhere in\n"
               "  [2^emax, 2^(emax+1)), so e4m3 (max %g = %g x 2^%d) saturates the blocks whose amax lands above\n"
               "  %g x scale (the 'saturated' column). NVFP4's %s scale maps amax to %g within 1/%d, costs %d bits per %d\n"
               "  elements instead of %d per %d, and needs the fp32 tensor scale to keep that scale in its range.\n\n",
               tc_format_of(mx->scale)->name, (double)e4->max_finite, ldexp(e4->max_finite, -emax), emax, (double)e4->max_finite,
               sc->name, (double)tc_format_of(nv->elem)->max_finite, 1 << (sc->mantissa_bits + 1), SCALE_BITS, nv->block,
               SCALE_BITS, mx->block);
    }

    memset(&d, 0, sizeof d);
    d.title = "FP8/FP6/FP4: relative RMS error of each scaling scheme (log scale)";
    d.xlabel = "e4m3, e2m1: one fp32 scale per tensor; mx*: one E8M0 per 32; nvfp4: one E4M3 per 16";
    d.ylabel = "relative RMS error";
    d.logy = 1;
    d.legend_corner = 4;
    ch = plot_chart_new(1400, 700, &d);
    if (!ch) return -1;
    for (dset = 0; dset < N_DATA; dset++) rc |= plot_chart_bars(ch, labels, rel[dset], N_SCHEMES, data_names[dset]);
    rc |= plot_chart_write(ch, plot_out("10_block_error.png"));
    plot_chart_free(ch);
    return rc;
}

/* ---- part 3: a long sum kept in bf16 */

#define SUM_STEPS 20000
#define SUM_POINTS 200
#define SR_RUNS 16

static int part3(void) {
    static float inc[SUM_STEPS];
    static double xs[SUM_POINTS], exact_y[SUM_POINTS], rn_y[SUM_POINTS], sr_y[SUM_POINTS];
    double exact = 0, sr_mean = 0, sr_sq = 0;
    float rn = 0;
    int i, run, p = 0, nbits = tc_sr_bits(TC_BF16), rc = 0;
    plot_chart_desc d;
    plot_chart *ch;
    for (i = 0; i < SUM_STEPS; i++) {
        inc[i] = (float)(uniform01() / 64);   /* mean 2^-7: small against the sum's ulp once it passes 1 */
        exact += inc[i];
        rn = tc_round(TC_BF16, rn + inc[i], TC_RN);
        if ((i + 1) % (SUM_STEPS / SUM_POINTS) == 0) { xs[p] = i + 1; exact_y[p] = exact; rn_y[p] = rn; p++; }
    }
    for (run = 0; run < SR_RUNS; run++) {   /* the same increments, new random bits each run */
        float sr = 0;
        for (i = 0; i < SUM_STEPS; i++) {
            sr = tc_decode(TC_BF16, tc_encode_sr(TC_BF16, sr + inc[i], (uint32_t)next64(), nbits, 0));
            if (run == 0 && (i + 1) % (SUM_STEPS / SUM_POINTS) == 0) sr_y[(i + 1) / (SUM_STEPS / SUM_POINTS) - 1] = sr;
        }
        sr_mean += sr / (double)SR_RUNS;
        sr_sq += (double)sr * sr / SR_RUNS;
    }
    printf("Part 3: %d increments uniform in [0, 1/64) summed into a bf16 accumulator (fp32 add, then rounded)\n", SUM_STEPS);
    printf("  exact %.3f   round to nearest %.3f   stochastic (cvt.rs, %d random bits): first run %.3f,\n"
           "  mean of %d runs %.3f, standard deviation %.3f\n", exact, (double)rn, nbits, sr_y[SUM_POINTS - 1], SR_RUNS,
           sr_mean, sqrt(fmax(0, sr_sq - sr_mean * sr_mean)));
    printf("  nearest stops growing once an increment is below half the sum's ulp (bf16 keeps %d bits); stochastic\n"
           "  rounding rounds up with probability equal to the discarded fraction, so the expected sum stays exact\n"
           "  and each run scatters around it by about the ulp of the sum.\n\n", tc_format_of(TC_BF16)->mantissa_bits + 1);
    memset(&d, 0, sizeof d);
    d.title = "a running sum stored in bf16: nearest stalls, stochastic follows the exact sum";
    d.xlabel = "step";
    d.ylabel = "sum";
    d.legend_corner = 2;
    ch = plot_chart_new(1200, 640, &d);
    if (!ch) return -1;
    rc |= plot_chart_line(ch, xs, exact_y, p, "exact (fp64)");
    rc |= plot_chart_style(ch, -1, PLOT_DASHED, PLOT_MARK_NONE);
    rc |= plot_chart_line(ch, xs, rn_y, p, "bf16, round to nearest");
    rc |= plot_chart_line(ch, xs, sr_y, p, "bf16, stochastic (cvt.rs), first run");
    rc |= plot_chart_style(ch, -1, PLOT_DOTTED, PLOT_MARK_NONE);
    rc |= plot_chart_write(ch, plot_out("10_rounding_sum.png"));
    plot_chart_free(ch);
    return rc;
}

/* ---- part 4: one e4m3 GEMM through three GPUs' models */

#define GM 32
#define GN 32
#define GK 512
#define N_ARCH 3
static const tc_arch gemm_archs[N_ARCH] = { TC_ARCH_ADA, TC_ARCH_H100, TC_ARCH_B200 };

static int run_gemm(tc_arch arch, int group, const float *A, const float *B, float *D) {
    tc_gemm_desc g;
    memset(&g, 0, sizeof g);
    g.arch = arch; g.in = TC_E4M3; g.out = TC_FP32;
    g.M = GM; g.N = GN; g.K = GK;
    g.A = A; g.B = B; g.D = D;
    g.options.group = group;
    return tc_gemm_ex(&g) == TC_OK ? 0 : -1;
}

static int differing(const float *x, const float *y, int n) {
    int i, c = 0;
    for (i = 0; i < n; i++) c += memcmp(&x[i], &y[i], sizeof x[i]) != 0;
    return c;
}

static int part4(int ada_group) {
    static float A[GM * GK], B[GK * GN], D[N_ARCH][GM * GN], exact[GM * GN], Dg[GM * GN];
    tc_mma_params p[N_ARCH];
    int a, b, i, j;
    for (i = 0; i < GM * GK; i++) A[i] = tc_round(TC_E4M3, (float)normal(), TC_RN | TC_SATFINITE);
    for (i = 0; i < GK * GN; i++) B[i] = tc_round(TC_E4M3, (float)normal(), TC_RN | TC_SATFINITE);
    for (i = 0; i < GM; i++)
        for (j = 0; j < GN; j++)
            if (tc_dot_exact(GK, &A[i * GK], 1, &B[j], GN, 0.0f, &exact[i * GN + j]) != TC_OK) return -1;
    printf("Part 4: D = A B with e4m3 A (%dx%d) and B (%dx%d) of normal(0,1) values, fp32 result, on each model\n", GM, GK,
           GK, GN);
    printf("  %-5s %6s %13s %12s %9s %15s %9s\n", "GPU", "group", "adder bits F", "result bits", "rounding", "mean |D-exact|",
           "= exact");
    for (a = 0; a < N_ARCH; a++) {
        double e = 0;
        int same = 0;
        if (tc_mma_params_of(gemm_archs[a], TC_E4M3, TC_FP32, &p[a]) != TC_OK || run_gemm(gemm_archs[a], 0, A, B, D[a])) return -1;
        for (i = 0; i < GM * GN; i++) { e += fabs((double)D[a][i] - exact[i]); same += D[a][i] == exact[i]; }
        printf("  %-5s %6d %13d %12d %9s %15.3g %9d\n", tc_arch_name(gemm_archs[a]), p[a].group, p[a].frac_bits, p[a].out_mbits,
               p[a].out_rounding == TC_RN ? "nearest" : "toward 0", e / (GM * GN), same);
    }
    printf("  outputs (of %d) whose bits differ:\n", GM * GN);
    for (a = 0; a < N_ARCH; a++)
        for (b = a + 1; b < N_ARCH; b++)
            printf("    %-5s vs %-5s %5d\n", tc_arch_name(gemm_archs[a]), tc_arch_name(gemm_archs[b]), differing(D[a], D[b], GM * GN));
    printf("  (exact: the dot product rounded once to fp32, tc_dot_exact.) Ada splits each k%d instruction into\n"
           "  %d block FMAs of %d products and truncates between them; H100 adds %d at once; both keep %d\n"
           "  fraction bits and truncate. B200's adder (%d bits, ASSUMED: >= 30 measured) is wide enough for these\n"
           "  products and it rounds the fp32 result to nearest, so it differs from both in nearly every output\n"
           "  and is the closest to exact.\n",
           p[0].instr_k, p[0].instr_k / p[0].group, p[0].group, p[1].group, p[0].frac_bits, p[2].frac_bits);
    if (ada_group) {
        if (run_gemm(TC_ARCH_ADA, ada_group, A, B, Dg)) return -1;
        printf("\n  --ada-group %d: the Ada model with %d products per block FMA differs from\n"
               "    H100 in %d outputs, from B200 in %d, from Ada's own group in %d\n",
               ada_group, ada_group, differing(Dg, D[1], GM * GN), differing(Dg, D[2], GM * GN), differing(Dg, D[0], GM * GN));
    }
    return 0;
}

int main(int argc, char **argv) {
    static float x[N_DATA][N_VALUES];
    int i, ada_group = 0;
    if (plot_out_args(&argc, argv) != 0) return 2;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ada-group") == 0 && i + 1 < argc) {
            char *end;
            long g = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || g < 1 || g > TC_MMA_MAX_GROUP) {
                fprintf(stderr, "%s: --ada-group takes a whole number from 1 to %d, not '%s'\n", argv[0], TC_MMA_MAX_GROUP, argv[i]);
                return 2;
            }
            ada_group = (int)g;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: %s [--out DIR] [--ada-group G]\n"
                   "  --out DIR: where the pictures go (default %s)\n"
                   "  --ada-group G: also run part 4's GEMM on the Ada model with G (1..%d) products per block FMA\n",
                   argv[0], plot_out_dir(), TC_MMA_MAX_GROUP);
            return 0;
        } else {
            fprintf(stderr, "%s: unknown argument '%s' (try --help)\n", argv[0], argv[i]);
            return 2;
        }
    }
    for (i = 0; i < N_VALUES; i++) {
        x[DATA_NORMAL][i] = x[DATA_OUTLIER][i] = (float)normal();
        x[DATA_HEAVY][i] = (float)student_t3();
    }
    x[DATA_OUTLIER][OUTLIER_AT] = OUTLIER;
    if (part1_and_2(x) || part3()) {
        fprintf(stderr, "%s: could not write the pictures to %s\n", argv[0], plot_out_dir());
        return 1;
    }
    if (part4(ada_group)) {
        fprintf(stderr, "%s: the GEMM models refused their input\n", argv[0]);
        return 1;
    }
    printf("\nwrote 10_block_error.png, 10_rounding_sum.png\n");
    printf("\nExercise: which products-per-block-FMA makes the Ada model give H100's bits on every output of\n"
           "part 4's GEMM (try `--ada-group G`)? Is there a G that gives B200's bits, and why not?\n");
    return 0;
}
