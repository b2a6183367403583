/* 07_loss_scaling.c - why fp16 training needs loss scaling, measured.

   What it teaches: a small MLP learns to tell four kinds of 8x8 images
   apart, five times over: in FP32, TF32, BF16, FP16 without loss scaling and
   FP16 with a dynamic loss scaler (tensorcore.h section 3, GradScaler rules).
   Every matrix product goes through the header's bit-accurate Tensor Core
   model (tc_gemm, A100) with operands rounded to the run's format; weights
   are kept in fp32 ("master weights") and rounded for each forward pass;
   activations and gradients are stored in the run's format. The training
   run itself (data, model, every step) is in mlp.h, shared with
   cuda/loss_scaling.cu, which repeats it on a GPU with real fp16/bf16
   arithmetic and checks that the skipped steps and the scale match.

   The data: on first run, 4 classes x 150 images (bars, crosses, rings,
   diagonals with noise) are drawn and written as PNGs into ./tc_dataset/
   and then loaded back with stb_image; `07_loss_scaling DIR` loads an
   existing folder DIR/0 .. DIR/3, each holding 000.png, 001.png, ... (8x8 grey).

   The setup that makes underflow real: the loss is multiplied by 2^-18 and
   the learning rate by 2^18. For SGD in FP32 that changes nothing (the
   update lr * grad is the same), and BF16/TF32 have fp32's exponent range,
   so they do not notice either. It stands in for the tiny gradients of deep
   networks: Micikevicius et al. 2017 ("Mixed Precision Training", figure 3)
   histogram SSD's activation gradients in FP32 training; 67% of them are
   zero there, and the point of the figure is the non-zero ones between
   2^-27 and 2^-24, a range fp16 cannot hold (it flushes them to zero) and a
   loss scale of 8 moves back into it. In fp16 the gradients here sit near
   2^-24, the smallest subnormal: about 12% round to zero and most of the
   rest keep only a few bits as subnormals. The dynamic scaler uses a growth
   interval of 10 steps instead of GradScaler's 2000: the whole run is 400
   steps, so with 2000 the scale would never grow and the lesson could not
   show growth, overflow and back-off.

   Run:    make lessons && cd build && ./lessons/07_loss_scaling
           ./lessons/07_loss_scaling --check   FP32 only; exits 1 below 90% test accuracy
   Prints: the share of gradient values that underflow in fp16, each run's
           loss and accuracy, the loss scale's trajectory with skipped steps.
   Writes: 07_grad_exponents.png, 07_loss_curves.png, 07_loss_difference.png
           (each run minus FP32), 07_loss_scale.png, in build/lesson-out/ or --out DIR

   Exercise: build with a smaller loss multiplier, 2^-15 instead of 2^-18,
   into a build folder of its own:
       make BUILD=build/ex15 build/ex15/lessons/07_loss_scaling CFLAGS=-DLOSS_MULTIPLIER_LOG2=-15
   How much of the FP16 gap closes? Then, in that build, also start the
   scaler at 2^48 instead of GradScaler's 2^16 (BUILD=build/ex48,
   CFLAGS="-DLOSS_MULTIPLIER_LOG2=-15 -DMLP_INIT_SCALE_LOG2=48"): how many
   steps are skipped before it settles, and why does that cost so little? */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "plot.h"
#include "stb_image.h"
#include "stb_image_write.h"
#include "mlp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { RUNS = MLP_RUNS, STEPS = MLP_STEPS, HIST_BINS = MLP_HIST_BINS };
#define CHECK_ACCURACY 0.90

/* ------------------------------------------------------------ dataset files */

static void make_dataset(const char *dir) {
    static unsigned char px[MLP_IMAGES * MLP_IN];
    char path[512];
    int c, i;
    mlp_draw_dataset(px);
    mkdir(dir, 0755);
    for (c = 0; c < MLP_OUT; c++) {
        snprintf(path, sizeof path, "%s/%d", dir, c);
        mkdir(path, 0755);
        for (i = 0; i < MLP_PER_CLASS; i++) {
            snprintf(path, sizeof path, "%s/%d/%03d.png", dir, c, i);
            if (!stbi_write_png(path, MLP_SIDE, MLP_SIDE, 1, px + ((size_t)c * MLP_PER_CLASS + (size_t)i) * MLP_IN, MLP_SIDE)) {
                fprintf(stderr, "cannot write %s\n", path);
                exit(1);
            }
        }
    }
}

/* Loads DIR/c/000.png .. into x (values 0..1) and labels (rows: mlp_row). */
static int load_dataset(const char *dir, float *x, int *label) {
    char path[512];
    int c, i, w, h, n;
    for (c = 0; c < MLP_OUT; c++)
        for (i = 0; i < MLP_PER_CLASS; i++) {
            unsigned char *px;
            snprintf(path, sizeof path, "%s/%d/%03d.png", dir, c, i);
            {   /* a regular file only: stbi would block on a FIFO and read a device */
                struct stat sb;
                if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
                    fprintf(stderr, "cannot load %s: not a regular file\n", path);
                    return -1;
                }
            }
            px = stbi_load(path, &w, &h, &n, 1);
            if (!px || w != MLP_SIDE || h != MLP_SIDE) {
                if (!px) fprintf(stderr, "cannot load %s: %s\n", path, stbi_failure_reason());
                else fprintf(stderr, "cannot load %s: it is %dx%d, not %dx%d\n", path, w, h, MLP_SIDE, MLP_SIDE);
                stbi_image_free(px);
                return -1;
            }
            mlp_set_image(x, label, c, i, px);
            stbi_image_free(px);
        }
    return 0;
}

/* ------------------------------------------------------------ pictures */

static int plot_histogram(const mlp_result *r) {
    static const char *labels[HIST_BINS];
    static char text[HIST_BINS][8];
    double v[HIST_BINS];
    plot_chart_desc d;
    plot_chart *ch;
    int i, rc;
    for (i = 0; i < HIST_BINS; i++) {
        snprintf(text[i], sizeof text[i], "%d", i - HIST_BINS + 10);
        labels[i] = i % 5 == 0 ? text[i] : "";
        v[i] = (double)r->hist[i];
    }
    memset(&d, 0, sizeof d);
    d.title = "FP32 gradients at step 0: exponent of |g|, loss x LOSS_MULTIPLIER";
    d.xlabel = "log2 |g|  (fp16: subnormal from -24, normal from -14)";
    d.ylabel = "values";
    ch = plot_chart_new(1200, 640, &d);
    if (!ch) return -1;
    rc = plot_chart_bars(ch, labels, v, HIST_BINS, "gradient values");
    rc |= plot_chart_vline(ch, -24 + HIST_BINS - 10, "fp16 min subnormal 2^-24");
    rc |= plot_chart_vline(ch, -14 + HIST_BINS - 10, "fp16 min normal 2^-14");
    rc |= plot_chart_style(ch, -1, PLOT_DOTTED, PLOT_MARK_NONE);
    rc |= plot_chart_write(ch, plot_out("07_grad_exponents.png"));
    plot_chart_free(ch);
    return rc;
}

/* Each run's loss, mean of the last w steps, sampled every 5 steps; with
   minus set, the FP32 run's is subtracted (the difference plot). */
static int smoothed(const mlp_result *res, int k, int minus_fp32, double *xs, double *ys) {
    const int w = 20;
    int n = 0, i, j;
    for (i = w - 1; i < STEPS; i += 5) {
        double s = 0;
        for (j = i - w + 1; j <= i; j++) s += res[k].loss[j] - (minus_fp32 ? res[0].loss[j] : 0.0);
        xs[n] = i; ys[n] = s / w; n++;
    }
    return n;
}

/* Four of the five loss curves lie on top of each other, so each run gets
   its own dash, and a second chart shows those runs' loss minus FP32's,
   where their differences are visible (unscaled FP16, far above them, would
   squash that scale: it is in the first chart only). */
static int plot_runs(const mlp_spec *specs, const mlp_result *res) {
    static const int dash[RUNS] = { PLOT_SOLID, PLOT_DASHED, PLOT_DOTTED, PLOT_SOLID, PLOT_DASHED };
    static const int mark[RUNS] = { PLOT_MARK_NONE, PLOT_MARK_NONE, PLOT_MARK_NONE, PLOT_MARK_SQUARE, PLOT_MARK_NONE };
    static double xs[STEPS], ys[STEPS];
    plot_chart_desc d;
    plot_chart *ch;
    int k, i, n, pass, rc = 0;
    for (pass = 0; pass < 2; pass++) {
        memset(&d, 0, sizeof d);
        d.title = pass ? "training loss minus the FP32 run's (mean of 20 steps; unscaled FP16: first chart)"
                       : "training loss (mean of 20 steps); where lines overlap, see 07_loss_difference.png";
        d.xlabel = "step";
        d.ylabel = pass ? "cross-entropy - FP32's" : "cross-entropy";
        ch = plot_chart_new(1200, 640, &d);
        if (!ch) return -1;
        for (k = pass; k < RUNS; k++) {   /* FP32 minus itself is the zero line, drawn as a reference */
            if (pass && specs[k].dtype == TC_FP16 && !specs[k].scaled) continue;
            n = smoothed(res, k, pass, xs, ys);
            rc |= plot_chart_line(ch, xs, ys, n, specs[k].name);
            rc |= plot_chart_style(ch, (long)plot_palette(k), dash[k], mark[k]);
        }
        if (pass) rc |= plot_chart_hline(ch, 0.0, "FP32 (zero difference)");
        if (pass) rc |= plot_chart_style(ch, (long)plot_palette(0), PLOT_DASHED, PLOT_MARK_NONE);
        rc |= plot_chart_write(ch, plot_out(pass ? "07_loss_difference.png" : "07_loss_curves.png"));
        plot_chart_free(ch);
    }

    memset(&d, 0, sizeof d);
    d.title = "FP16 dynamic loss scale (crosses: skipped steps)";
    d.xlabel = "step";
    d.ylabel = "scale";
    d.logy = 1;
    ch = plot_chart_new(1200, 640, &d);
    if (!ch) return -1;
    for (i = 0; i < STEPS; i++) { xs[i] = i; ys[i] = res[RUNS - 1].scale[i]; }
    rc |= plot_chart_line(ch, xs, ys, STEPS, "scale");
    n = 0;
    for (i = 0; i < STEPS; i++)
        if (res[RUNS - 1].skipped[i]) { xs[n] = i; ys[n] = res[RUNS - 1].scale[i]; n++; }
    if (n) {
        rc |= plot_chart_points(ch, xs, ys, n, "skipped (Inf/NaN)");
        rc |= plot_chart_style(ch, 0xD55E00, PLOT_SOLID, PLOT_MARK_CROSS);
    }
    rc |= plot_chart_write(ch, plot_out("07_loss_scale.png"));
    plot_chart_free(ch);
    return rc;
}

/* ------------------------------------------------------------ main */

int main(int argc, char **argv) {
    const mlp_spec *specs = mlp_runs;
    static mlp_result res[RUNS];
    static mlp_model model;
    static float x[MLP_IMAGES * MLP_IN];
    static int y[MLP_IMAGES];
    const char *dir;
    int check_only = 0, i, k, runs;
    struct stat sb;
    if (plot_out_args(&argc, argv) != 0) return 2;
    dir = plot_out("tc_dataset");   /* drawn in the output folder, not the current one */
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0) check_only = 1;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: %s [--check] [--out DIR] [DATASET_DIR]\n"
                   "  --out DIR: where the pictures go (default %s)\n"
                   "  DATASET_DIR (default %s): %d folders of %d %dx%d PNGs, drawn there on the first run\n"
                   "  --check: the FP32 run only; exit 1 below 90%% test accuracy\n", argv[0], plot_out_dir(), dir, MLP_OUT, MLP_PER_CLASS, MLP_SIDE, MLP_SIDE);
            return 0;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "%s: unknown option '%s' (try --help)\n", argv[0], argv[i]);
            return 2;
        } else dir = argv[i];
    }
    if (stat(dir, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        fprintf(stderr, "%s: %s exists and is not a folder\n", argv[0], dir);
        return 2;
    }
    if (stat(dir, &sb) != 0) {
        printf("drawing %d images into %s/ (first run)\n", MLP_IMAGES, dir);
        make_dataset(dir);
    }
    if (load_dataset(dir, x, y) != 0) return 1;
    printf("loaded %d training and %d test images (%dx%d) from %s/\n", MLP_TRAIN, MLP_TEST, MLP_SIDE, MLP_SIDE, dir);
    printf("MLP %d-%d-%d, batch %d, %d SGD steps, loss x 2^%d and learning rate x 2^%d\n", MLP_IN, MLP_HID, MLP_OUT, MLP_BATCH, STEPS,
           LOSS_MULTIPLIER_LOG2, -LOSS_MULTIPLIER_LOG2);
    printf("(in FP32 that rescaling changes nothing; it stands in for a deep net's tiny gradients)\n\n");

    runs = check_only ? 1 : RUNS;
    for (k = 0; k < runs; k++) {
        long skipped = 0;
        mlp_train(&specs[k], TC_ARCH_A100, x, y, &model, &res[k]);
        for (i = 0; i < STEPS; i++) skipped += res[k].skipped[i];
        printf("%-24s final loss %.4f  test accuracy %5.1f%%  gradients flushed to 0 by storage: %5.2f%%  skipped steps %ld\n",
               specs[k].name, (res[k].loss[STEPS - 1] + res[k].loss[STEPS - 2] + res[k].loss[STEPS - 3]) / 3,
               100 * res[k].accuracy, res[k].grads_nonzero ? 100.0 * res[k].grads_flushed / res[k].grads_nonzero : 0.0, skipped);
    }
    if (!check_only) {
        const mlp_result *s = &res[RUNS - 1];
        printf("\nthe FP16 loss scale: starts at %g (GradScaler's default is 2^16), doubles after %d clean steps\n"
               "(GradScaler waits 2000: longer than this %d-step run, so the lesson shortens it to show the\n"
               "scale grow), halves on overflow\n", s->scale[0], MLP_GROWTH_INTERVAL, STEPS);
        for (i = 0; i < STEPS; i++)
            if (i == 0 || s->scale[i] != s->scale[i - 1] || s->skipped[i])
                printf("  step %3d: scale %-12g%s\n", i, s->scale[i], s->skipped[i] ? "  overflow: step skipped" : "");
        if (plot_histogram(&res[0]) || plot_runs(specs, res)) {
            fprintf(stderr, "%s: could not write the pictures to %s\n", argv[0], plot_out_dir());
            return 1;
        }
        printf("\nwrote 07_grad_exponents.png, 07_loss_curves.png, 07_loss_difference.png, 07_loss_scale.png\n");
        printf("\nWhat happened: without scaling, FP16 stores the scaled-down gradients near or\n"
               "below 2^-24: the share printed above becomes exactly 0 and most of the rest\n"
               "keep only a few bits as subnormals, so FP16 learns slower.\n"
               "The dynamic scaler multiplies the loss until the gradients sit in fp16's range\n"
               "and divides them back in fp32 before the fp32 master weights are updated.\n"
               "BF16 and TF32 keep fp32's 8 exponent bits, so they need no scaling.\n");
        printf("\nExercise: rebuild with the loss multiplied by 2^-15 instead of 2^-%d, in a build folder of its own:\n"
               "  make BUILD=build/ex15 build/ex15/lessons/07_loss_scaling CFLAGS=-DLOSS_MULTIPLIER_LOG2=-15\n"
               "How much of the FP16 gap closes? Then, in that setting, start the scaler at 2^48 instead of 2^16:\n"
               "  make BUILD=build/ex48 build/ex48/lessons/07_loss_scaling CFLAGS=\"-DLOSS_MULTIPLIER_LOG2=-15 -DMLP_INIT_SCALE_LOG2=48\"\n"
               "How many steps are skipped before it settles, and why does that cost so little?\n", -LOSS_MULTIPLIER_LOG2);
    }
    if (res[0].accuracy < CHECK_ACCURACY) {
        printf("check FAILED: FP32 test accuracy %.1f%% is below %.0f%%\n", 100 * res[0].accuracy, 100 * CHECK_ACCURACY);
        return 1;
    }
    printf("check: FP32 test accuracy %.1f%% >= %.0f%%\n", 100 * res[0].accuracy, 100 * CHECK_ACCURACY);
    return 0;
}
