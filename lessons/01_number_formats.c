/* Lesson 01: number formats - what FP32, TF32, BF16, FP16, E4M3 and E5M2 keep
   and what they throw away.

   Teaches: the bit layout of each format; range (fp16 stops at 65504 while
   bf16 and tf32 reach fp32's 3.4e38) against precision (fp16 and tf32 keep 10
   mantissa bits, bf16 7, FP8 3 or 2); what happens to a small gradient such
   as 1e-8 in each; and how rounding error looks in a picture.

   Run:    make tour        (or: build/lessons/01_number_formats [image.png])
   Prints: a table of the formats, a few numbers in bits, the 1e-8 test.
   Writes: 01_rounding_error.png  relative rounding error vs magnitude
           01_image_formats.png   an image rounded through each format, with
                                  its error map (your image if you name one;
                                  otherwise one generated here)            */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "plot.h"
#include "stb_image.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const tc_dtype formats[] = { TC_FP32, TC_TF32, TC_BF16, TC_FP16, TC_E4M3, TC_E5M2 };
#define N_FORMATS ((int)(sizeof formats / sizeof formats[0]))

static void print_table(void) {
    int i;
    printf("%-5s %5s %4s %4s %13s %13s %13s %8s\n", "fmt", "bits", "exp", "man", "max", "min normal", "min subnormal", "digits");
    for (i = 0; i < N_FORMATS; i++) {
        const tc_format *f = tc_format_of(formats[i]);
        printf("%-5s %5d %4d %4d %13.5g %13.5g %13.5g %8.1f\n", f->name, f->total_bits, f->exponent_bits,
               f->mantissa_bits, (double)f->max_finite, (double)f->min_normal, (double)f->min_subnormal,
               (f->mantissa_bits + 1) * log10(2.0));
    }
}

static void show_in_bits(float x) {
    int i;
    printf("\n%g in each format (round to nearest even; e4m3, which has no Inf, with satfinite):\n", (double)x);
    for (i = 0; i < N_FORMATS; i++) {
        const tc_format *f = tc_format_of(formats[i]);
        int rounding = f->has_inf ? TC_RN : (TC_RN | TC_SATFINITE);
        uint32_t bits = tc_encode(formats[i], x, rounding);
        float back = tc_decode(formats[i], bits);
        char buf[48];
        tc_format_bits(formats[i], bits, buf, sizeof buf);
        printf("  %-5s %-36s = %-14.9g rel. error %.2e\n", f->name, buf, (double)back,
               x != 0 ? fabs((double)back - x) / fabs((double)x) : 0.0);
    }
}

/* Largest relative error over a binade [2^e, 2^(e+1)). Round to nearest errs
   most at the midpoint between two neighbours (half an ulp; round toward zero
   just below the upper neighbour, almost a whole ulp), so every neighbour
   pair in the binade is sampled there; a dense grid covers the binades below
   the smallest subnormal, which hold no neighbours. */
static double worst_relative_error(tc_dtype t, int e) {
    const int rounding = TC_RN;
    const float top = ldexpf(1.0f, e + 1);
    double worst = 0;
    float lo, x;
    int k;
    for (k = 0; k < 4096; k++) {
        x = ldexpf(1.0f + (float)k / 4096.0f + 1.0f / 8192.0f, e);
        if (x > tc_format_of(t)->max_finite) break;   /* overflow, not rounding */
        worst = fmax(worst, fabs((double)tc_round(t, x, rounding) - x) / x);
    }
    for (lo = tc_round(t, ldexpf(1.0f, e), TC_RU); lo != 0 && lo < top && lo < tc_format_of(t)->max_finite;) {
        float hi = tc_round(t, nextafterf(lo, top), TC_RU), mid = lo + (hi - lo) / 2;
        const float probe[2] = { mid, nextafterf(hi, 0.0f) };   /* the worst case of each mode */
        for (k = 0; k < 2; k++) worst = fmax(worst, fabs((double)tc_round(t, probe[k], rounding) - probe[k]) / probe[k]);
        lo = hi;
    }
    return worst;
}

static int plot_rounding_error(void) {
    enum { LO = -40, HI = 20, N = HI - LO + 1 };
    double xs[N], ys[N];
    int i, e, rc = 0;
    plot_chart_desc d = { "Relative rounding error (round to nearest)", "log2 |x|", "worst relative error in the binade", 0, 1, LO, HI, 1e-9, 2, 0 };
    plot_chart *ch = plot_chart_new(1200, 700, &d);
    if (!ch) return -1;
    for (i = 1; i < N_FORMATS; i++) {
        /* tf32 and fp16 keep the same 10 mantissa bits, so where both are
           normal their curves coincide: fp16 is dashed over a solid tf32 and
           both labels say so. */
        char label[64];
        snprintf(label, sizeof label, "%s%s", tc_format_of(formats[i])->name,
                 formats[i] == TC_TF32 ? " (solid; = fp16 where both normal)" : formats[i] == TC_FP16 ? " (dashed + dots, over tf32)" : "");
        for (e = LO; e <= HI; e++) {
            double err = worst_relative_error(formats[i], e);
            const tc_format *f = tc_format_of(formats[i]);
            xs[e - LO] = e;
            /* above the format's max the value saturates: not a rounding error, leave a gap */
            ys[e - LO] = ldexp(1.0, e) > f->max_finite ? NAN : (err > 0 ? err : NAN);
        }
        rc |= plot_chart_line(ch, xs, ys, N, label);
        if (formats[i] == TC_FP16) rc |= plot_chart_style(ch, -1, PLOT_DASHED, PLOT_MARK_CIRCLE);
    }
    rc |= plot_chart_hline(ch, ldexp(1.0, -24), "fp32: 2^-24");
    rc |= plot_chart_write(ch, plot_out("01_rounding_error.png"));
    plot_chart_free(ch);
    return rc;
}

/* A test image with smooth gradients and fine detail, so both banding and
   small errors show. */
static unsigned char *generate_image(int *w, int *h) {
    int x, y, W = 256, H = 192;
    unsigned char *img = (unsigned char *)malloc((size_t)W * H * 3);
    if (!img) return NULL;
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++) {
            double r = sqrt((x - 128.0) * (x - 128.0) + (y - 96.0) * (y - 96.0));
            double v = 0.5 + 0.5 * cos(r * r / 900.0);
            img[3 * (y * W + x) + 0] = (unsigned char)(255 * x / (W - 1));
            img[3 * (y * W + x) + 1] = (unsigned char)(255 * v);
            img[3 * (y * W + x) + 2] = (unsigned char)(255 * y / (H - 1));
        }
    *w = W; *h = H;
    return img;
}

/* Each format's row: the image rounded through it (pixel/255 as a float),
   then the error map, scaled so the format's own largest error is full red. */
static int image_through_formats(const char *path) {
    int w, h, n, i, x, y, c, rc;
    unsigned char *img = path ? stbi_load(path, &w, &h, &n, 3) : generate_image(&w, &h);
    plot_canvas cv;
    const int pad = 12, label = 12 * PLOT_TEXT_SCALE + 8, cols = 2, bar = 230;
    if (!img) {
        fprintf(stderr, "could not read image %s: %s\n", path, stbi_failure_reason());
        return -1;
    }
    if (w > 512 || h > 512) {   /* keep the picture and the run small: sample down */
        int step = (w > h ? w : h) / 512 + 1, nw = w / step, nh = h / step;
        for (y = 0; y < nh; y++)
            for (x = 0; x < nw; x++)
                for (c = 0; c < 3; c++) img[3 * (y * nw + x) + c] = img[3 * (y * step * w + x * step) + c];
        w = nw; h = nh;
    }
    if (w < 2 || h < 2) {   /* the error statistics and the picture need at least 2 x 2 pixels */
        fprintf(stderr, "image %s is %dx%d (after sampling down to 512 a side): it needs at least 2x2 pixels\n",
                path, w, h);
        free(img);
        return -1;
    }
    if (plot_canvas_init(&cv, pad + cols * (w + pad) + bar, pad + (N_FORMATS - 1) * (h + label + pad), 0xFFFFFF)) { free(img); return -1; }
    printf("\nimage %dx%d through each format (pixel/255 as a float):\n", w, h);
    for (i = 1; i < N_FORMATS; i++) {
        int oy = pad + (i - 1) * (h + label + pad);
        double worst = 0, sum = 0;
        char text[128];
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++)
                for (c = 0; c < 3; c++) {
                    float v = img[3 * (y * w + x) + c] / 255.0f;
                    double err = fabs((double)tc_round(formats[i], v, TC_RN | TC_SATFINITE) - v);
                    if (err > worst) worst = err;
                    sum += err;
                }
        for (y = 0; y < h; y++)
            for (x = 0; x < w; x++) {
                double err_lum = 0;
                uint32_t rgb = 0;
                for (c = 0; c < 3; c++) {
                    float v = img[3 * (y * w + x) + c] / 255.0f;
                    float r = tc_round(formats[i], v, TC_RN | TC_SATFINITE);
                    int q = (int)(r * 255.0f + 0.5f);
                    rgb = (rgb << 8) | (uint32_t)(q < 0 ? 0 : q > 255 ? 255 : q);
                    err_lum += ((double)r - v) / 3;
                }
                plot_pixel(&cv, pad + x, oy + label + y, rgb);
                plot_pixel(&cv, pad + w + pad + x, oy + label + y, plot_diverging(worst > 0 ? 0.5 + 0.5 * err_lum / worst : 0.5));
            }
        snprintf(text, sizeof text, "%s rounded", tc_format_of(formats[i])->name);
        plot_text(&cv, pad, oy + 2, text, 0x000000, PLOT_TEXT_SCALE);
        plot_text(&cv, 2 * pad + w, oy + 2, "its error", 0x000000, PLOT_TEXT_SCALE);
        plot_colorbar(&cv, 2 * pad + 2 * w + 10, oy + label, 16, h, plot_diverging, -worst, worst, "rounded - x", PLOT_TEXT_SCALE);
        printf("  %-5s mean |error| %.2e  max %.2e  (one 8-bit step is %.2e)\n", tc_format_of(formats[i])->name,
               sum / ((double)w * h * 3), worst, 1.0 / 255);
    }
    rc = plot_canvas_write_png(&cv, plot_out("01_image_formats.png"));
    plot_canvas_free(&cv);
    if (path) stbi_image_free(img); else free(img);
    return rc;
}

int main(int argc, char **argv) {
    int i;
    if (plot_out_args(&argc, argv) != 0) return 2;
    if (argc > 2) { fprintf(stderr, "usage: %s [--out DIR] [image.png|jpg|...]\n", argv[0]); return 2; }
    printf("Lesson 01: number formats\n\n");
    print_table();
    printf("\nRange: fp16 stops at %g; bf16 and tf32 reach %.3g, like fp32.\n",
           (double)tc_format_of(TC_FP16)->max_finite, (double)tc_format_of(TC_BF16)->max_finite);
    printf("Precision: fp16 and tf32 keep %d mantissa bits, bf16 %d: bf16 trades precision for range.\n",
           tc_format_of(TC_FP16)->mantissa_bits, tc_format_of(TC_BF16)->mantissa_bits);
    show_in_bits(1.0f);
    show_in_bits(0.1f);
    show_in_bits(70000.0f);
    show_in_bits(1e-8f);
    printf("\nA gradient of 1e-8 is below fp16's smallest subnormal (%g): it becomes %g.\n",
           (double)tc_format_of(TC_FP16)->min_subnormal, (double)tc_round(TC_FP16, 1e-8f, TC_RN));
    printf("Scaled by 2^16 (a loss scale) it is %g in fp16, and dividing by 2^16 in fp32 gives back %.4g.\n",
           (double)tc_round(TC_FP16, 1e-8f * 65536.0f, TC_RN), (double)(tc_round(TC_FP16, 1e-8f * 65536.0f, TC_RN) / 65536.0f));
    printf("\nRounding modes on 1 + 2^-11 (exactly half an fp16 ulp above 1):\n");
    for (i = TC_RN; i <= TC_RU; i++)
        printf("  %-3s -> %.10g\n", tc_rounding_name(i), (double)tc_round(TC_FP16, 1.0f + ldexpf(1, -11), i));

    if (plot_rounding_error()) { fprintf(stderr, "could not write 01_rounding_error.png\n"); return 1; }
    printf("\nwrote 01_rounding_error.png: each format's error is flat (2^-(mantissa bits+1)) in its\n"
           "normal range and climbs to 100%% in its subnormal range, where bits run out. The worst case\n"
           "sits at the midpoint just above a power of two: 1 + 2^-11 in fp16 is off by %.3e, 2^-11 = %.3e.\n"
           "tf32 keeps fp16's 10 mantissa bits, so its curve lies under fp16's wherever both are normal.\n",
           fabs((double)tc_round(TC_FP16, 1.0f + ldexpf(1, -11), TC_RN) - (1.0 + ldexp(1, -11))) / (1.0 + ldexp(1, -11)),
           ldexp(1.0, -11));
    if (image_through_formats(argc > 1 ? argv[1] : NULL)) return 1;
    printf("wrote 01_image_formats.png\n");

    printf("\nExercise: change `rounding` in worst_relative_error() from TC_RN to TC_RZ and rerun: by what\n"
           "factor does the flat (normal-range) part of each curve rise, and why that factor? (Where in\n"
           "an ulp does each mode make its largest error?) Then find the smallest loss scale (a power of\n"
           "two) that keeps a gradient of 1e-9 non-zero in fp16, and check it with tc_round().\n");
    return 0;
}
