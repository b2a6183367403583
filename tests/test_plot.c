/* test_plot.c - support/plot.c: the legend never covers data (it goes in a
   corner whose box holds no data pixel, else outside the plot area), the
   title, y label and tick labels keep to their own rows, every chart is
   written as PNG, SVG and CSV with the same content, the output folder
   helper, and bad input refused without a crash.

   plot.c is included, not linked, so the test can call the layout code the
   writer uses and check the box it chose against the data it drew. */
#include "../support/plot.c"
#include "stb_image.h"
#include "tc_test.h"

#include <limits.h>
#include <unistd.h>

#define CHECK_EQ(a, b) CHECK((long)(a) == (long)(b))

static char dir[256];

static const char *path_in(const char *name) {
    static char buf[4][512];
    static int next;
    next = (next + 1) % 4;
    snprintf(buf[next], sizeof buf[0], "%s/%s", dir, name);
    return buf[next];
}

static long file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static char *slurp(const char *path) {
    FILE *f = fopen(path, "rb");
    long n = file_size(path);
    char *s;
    if (!f || n < 0) { if (f) fclose(f); return NULL; }
    s = (char *)malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
    if (s) s[n] = 0;
    fclose(f);
    return s;
}

/* The legend box plot_chart_write would use, and the data-only picture. */
static void legend_of(plot_chart *ch, plot__layout *ly, plot_canvas *mask) {
    plot__dev d;
    plot__layout_init(ch, ly);
    CHECK(plot__place_legend(ch, ly) == 0);
    CHECK(plot_canvas_init(mask, ch->w, ch->h, 0xFFFFFF) == 0);
    d.c = mask; d.svg = NULL;
    plot__draw_data(ch, ly, &d);
}

static int box_w(const plot__layout *ly) { return ly->legend_mode == PLOT__LEG_BELOW ? ly->legend_cols * ly->lw : ly->lw; }

/* A line through one region of the plot: each case leaves different corners empty. */
static void test_legend_placement(void) {
    static const struct { double x0, y0, x1, y1; int want_mode; } cases[] = {
        { 0.0, 0.0, 1.0, 1.0, PLOT__LEG_INSIDE },   /* diagonal: top left and bottom right are empty */
        { 0.0, 1.0, 1.0, 0.0, PLOT__LEG_INSIDE },   /* the other diagonal */
        { 0.0, 0.9, 1.0, 0.9, PLOT__LEG_INSIDE },   /* a line along the top: bottom corners */
    };
    int i, k;
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
        plot_chart_desc d = { "legend placement", "x", "y", 0, 0, 0, 1, 0, 1, 0 };
        plot_chart *ch = plot_chart_new(800, 500, &d);
        double x[50], y[50];
        plot__layout ly;
        plot_canvas mask;
        for (k = 0; k < 50; k++) {
            x[k] = cases[i].x0 + (cases[i].x1 - cases[i].x0) * k / 49.0;
            y[k] = cases[i].y0 + (cases[i].y1 - cases[i].y0) * k / 49.0;
        }
        CHECK(ch != NULL);
        CHECK(plot_chart_line(ch, x, y, 50, "a line with a fairly long label") == 0);
        legend_of(ch, &ly, &mask);
        CHECK_EQ(ly.legend_mode, cases[i].want_mode);
        CHECK_EQ(plot__covered(&mask, ly.lx, ly.ly, ly.lx + ly.lw, ly.ly + ly.lh), 0);
        CHECK(ly.lx >= ly.L && ly.lx + ly.lw <= ly.L + ly.pw && ly.ly >= ly.T && ly.ly + ly.lh <= ly.T + ly.ph);
        plot_canvas_free(&mask);
        plot_chart_free(ch);
    }
    /* data in all four corners: the legend goes outside the plot area */
    {
        plot_chart_desc d = { "corners full", "x", "y", 0, 0, -0.1, 1.1, -0.1, 1.1, 0 };
        double x[8] = { 0, 0, 1, 1, 0.1, 0.1, 0.9, 0.9 }, y[8] = { 0, 1, 0, 1, 0.1, 0.9, 0.1, 0.9 };
        plot__layout ly;
        plot_canvas mask;
        int mode;
        for (mode = 0; mode < 2; mode++) {   /* a short label fits on the right, a long one goes below */
            plot_chart *ch = plot_chart_new(900, 500, &d);
            CHECK(ch != NULL);
            CHECK(plot_chart_points(ch, x, y, 8, mode ? "a label far too long to sit beside the plot on the right" : "short") == 0);
            CHECK(plot_chart_style(ch, -1, PLOT_SOLID, PLOT_MARK_SQUARE) == 0);
            CHECK(plot_chart_hline(ch, 0.5, mode ? "a reference line through the middle" : "ref") == 0);
            CHECK(plot_chart_vline(ch, 0.5, mode ? "and a vertical one" : "vertical") == 0);
            legend_of(ch, &ly, &mask);
            CHECK_EQ(ly.legend_mode, mode ? PLOT__LEG_BELOW : PLOT__LEG_RIGHT);
            if (mode) CHECK(ly.ly >= ly.T + ly.ph + 8 && ly.ly + ly.lh <= ch->h);
            else CHECK(ly.lx > ly.L + ly.pw && ly.lx + box_w(&ly) <= ch->w);
            CHECK_EQ(plot__covered(&mask, ly.lx, ly.ly, ly.lx + box_w(&ly), ly.ly + ly.lh), 0);
            plot_canvas_free(&mask);
            plot_chart_free(ch);
        }
    }
    /* legend_corner 4: always outside, even on an empty plot */
    {
        plot_chart_desc d = { "outside", "x", "y", 0, 0, 0, 0, 0, 0, 4 };
        double x[2] = { 0, 1 }, y[2] = { 0, 1 };
        plot_chart *ch = plot_chart_new(900, 500, &d);
        plot__layout ly;
        plot_canvas mask;
        CHECK(plot_chart_line(ch, x, y, 2, "line") == 0);
        legend_of(ch, &ly, &mask);
        CHECK(ly.legend_mode != PLOT__LEG_INSIDE);
        plot_canvas_free(&mask);
        plot_chart_free(ch);
    }
}

/* Title rows, then the y label's row, then the plot: nothing shares a row. */
static void test_layout_rows(void) {
    plot_chart_desc d = { "a title long enough that it has to wrap onto a second line at this width, surely", "x label", "y label",
                          0, 1, 0, 0, 0, 0, 0 };
    double x[3] = { 1, 2, 3 }, y[3] = { 1e-3, 1, 1e3 };
    plot_chart *ch = plot_chart_new(600, 400, &d);
    plot__layout ly;
    int i;
    CHECK(plot_chart_line(ch, x, y, 3, "") == 0);
    plot__layout_init(ch, &ly);
    CHECK_EQ(ly.title_lines, 2);
    for (i = 0; i < 2; i++) CHECK(plot_text_width(ly.title[i], PLOT_TEXT_SCALE) <= ch->w);
    /* y label row below the title rows; top tick label (centred on T) below the y label */
    CHECK(ly.T - PLOT__ROW - 10 >= 10 + ly.title_lines * (PLOT__ROW + 4));
    CHECK(ly.T - 4 * PLOT_TEXT_SCALE >= ly.T - 10);
    CHECK(ly.L >= ly.ty.widest + 8);
    /* x ticks thinned until their labels fit side by side */
    CHECK(ly.tx.n * ly.tx.widest < ly.pw);
    CHECK_EQ(ly.legend_entries, 0);
    plot_chart_free(ch);
}

static void test_write_all_three(void) {
    plot_chart_desc d = { "three files", "x", "y \"quoted\", <tagged> & more", 0, 0, 0, 0, 0, 0, 0 };
    double x[3] = { 0, 1, 2 }, y[3] = { 1, NAN, 3 }, bx[2] = { 5, 6 };
    const char *cats[2] = { "a", "b,c" };
    plot_chart *ch = plot_chart_new(640, 400, &d);
    char *svg, *csv;
    int w, h, n;
    unsigned char *img;
    CHECK(plot_chart_line(ch, x, y, 3, "dashed, with markers") == 0);
    CHECK(plot_chart_style(ch, 0x123456, PLOT_DASHED, PLOT_MARK_DIAMOND) == 0);
    CHECK(plot_chart_points(ch, bx, bx, 2, "pts") == 0);
    CHECK(plot_chart_hline(ch, 2, "ref") == 0);
    CHECK(plot_chart_write(ch, path_in("chart.png")) == 0);
    img = stbi_load(path_in("chart.png"), &w, &h, &n, 3);
    CHECK(img != NULL);
    if (img) { CHECK_EQ(w, 640); CHECK_EQ(h, 400); stbi_image_free(img); }
    svg = slurp(path_in("chart.svg"));
    CHECK(svg != NULL);
    if (svg) {
        CHECK(strncmp(svg, "<?xml", 5) == 0);
        CHECK(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"640\" height=\"400\"") != NULL);
        CHECK(strstr(svg, ">three files</text>") != NULL);
        CHECK(strstr(svg, "y &quot;quoted&quot;, &lt;tagged&gt; &amp; more") != NULL);   /* escaped, never raw */
        CHECK(strstr(svg, "stroke-dasharray") != NULL);                                   /* the dashed series and its swatch */
        CHECK(strstr(svg, "stroke=\"#123456\"") != NULL);
        CHECK(strstr(svg, "</svg>\n") != NULL);
        free(svg);
    }
    csv = slurp(path_in("chart.csv"));
    CHECK(csv != NULL);
    if (csv) {
        CHECK(strncmp(csv, "\"dashed, with markers x\",\"dashed, with markers y\",pts x,pts y,ref y\n0,1,5,5,2\n", 73) == 0);
        CHECK(strstr(csv, "\n2,3,,,\n") != NULL);   /* shorter series leave blank cells */
        free(csv);
    }
    plot_chart_free(ch);

    /* bar charts: a category column */
    ch = plot_chart_new(640, 400, &d);
    CHECK(plot_chart_bars(ch, cats, bx, 2, "first") == 0);
    CHECK(plot_chart_bars(ch, cats, x, 2, "second") == 0);
    CHECK(plot_chart_bars(ch, cats, x, 3, "wrong length") == -1);
    CHECK(plot_chart_write(ch, path_in("bars.png")) == 0);
    csv = slurp(path_in("bars.csv"));
    CHECK(csv != NULL && strcmp(csv, "category,first,second\na,5,0\n\"b,c\",6,1\n") == 0);
    free(csv);
    plot_chart_free(ch);
}

static void test_bad_input(void) {
    plot_chart_desc d = { "t", "x", "y", 0, 0, 0, 0, 0, 0, 0 };
    plot_chart *ch = plot_chart_new(640, 400, &d);
    double v = 1;
    plot_canvas c;
    CHECK(plot_chart_new(0, 400, &d) == NULL);
    CHECK(plot_chart_new(640, -1, &d) == NULL);
    CHECK(plot_chart_new(INT_MAX, 400, &d) == NULL);
    CHECK(plot_chart_style(ch, -1, PLOT_SOLID, PLOT_MARK_NONE) == -1);   /* no series yet */
    CHECK(plot_chart_line(ch, &v, &v, 1, "one point") == 0);
    CHECK(plot_chart_style(NULL, -1, PLOT_SOLID, PLOT_MARK_NONE) == -1);
    CHECK(plot_chart_style(ch, 0x1000000, PLOT_SOLID, PLOT_MARK_NONE) == -1);
    CHECK(plot_chart_style(ch, -2, PLOT_SOLID, PLOT_MARK_NONE) == -1);
    CHECK(plot_chart_style(ch, -1, -1, PLOT_MARK_NONE) == -1);
    CHECK(plot_chart_style(ch, -1, PLOT_DOTTED + 1, PLOT_MARK_NONE) == -1);
    CHECK(plot_chart_style(ch, -1, PLOT_SOLID, PLOT_MARK_CROSS + 1) == -1);
    CHECK(plot_chart_line(ch, NULL, &v, 1, "no x") == -1);
    CHECK(plot_chart_line(ch, &v, &v, -1, "negative n") == -1);
    CHECK(plot_chart_write(ch, NULL) == -1);
    CHECK(plot_chart_write(NULL, path_in("x.png")) == -1);
    CHECK(plot_chart_write(ch, path_in("no_extension")) == -1);
    CHECK(plot_chart_write(ch, ".png") == -1);
    CHECK(plot_chart_write(ch, "/nonexistent-folder/x.png") == -1);
    {   /* Inf, NaN and non-positive values on log axes are skipped, not drawn out of bounds */
        double xs[4] = { INFINITY, -1, 0, 1 }, ys[4] = { NAN, 1e300, -5, 1e-300 };
        plot_chart_desc dl = { "log", "x", "y", 1, 1, 0, 0, 0, 0, 0 };
        plot_chart *lg = plot_chart_new(640, 400, &dl);
        CHECK(plot_chart_line(lg, xs, ys, 4, "edges") == 0);
        CHECK(plot_chart_write(lg, path_in("log.png")) == 0);
        plot_chart_free(lg);
    }
    plot_chart_free(ch);
    CHECK(plot_canvas_init(&c, 100, 80, 0xFFFFFF) == 0);
    CHECK(plot_colorbar(NULL, 0, 0, 10, 50, plot_diverging, -1, 1, "x", 1) == 0);
    CHECK(plot_colorbar(&c, 0, 0, 10, 50, NULL, -1, 1, "x", 1) == 0);
    CHECK(plot_colorbar(&c, 90, 70, 10, 50, plot_diverging, -1, 1, "clipped at the edge", 2) > 10);
    plot_canvas_free(&c);
    CHECK(plot_grid_csv(NULL, &v, 1, 1, "r") == -1);
    CHECK(plot_grid_csv(path_in("g.csv"), &v, 0, 1, "r") == -1);
    CHECK(plot_grid_csv(path_in("g.csv"), &v, 1, 1, NULL) == 0);
}

static void test_colorbar_and_grid(void) {
    plot_canvas c;
    const double g[6] = { 0, 0.5, 1, -1, 2.25, 3 };
    char *csv;
    CHECK(plot_canvas_init(&c, 200, 200, 0xFFFFFF) == 0);
    CHECK(plot_colorbar(&c, 20, 30, 16, 101, plot_diverging, -1, 1, "err", 1) > 16);
    /* top of the bar is map(1), bottom map(0) */
    CHECK_EQ((c.rgb[3 * (30 * 200 + 25)] << 16) | (c.rgb[3 * (30 * 200 + 25) + 1] << 8) | c.rgb[3 * (30 * 200 + 25) + 2], plot_diverging(1));
    CHECK_EQ((c.rgb[3 * (130 * 200 + 25)] << 16) | (c.rgb[3 * (130 * 200 + 25) + 1] << 8) | c.rgb[3 * (130 * 200 + 25) + 2], plot_diverging(0));
    plot_canvas_free(&c);
    CHECK(plot_grid_csv(path_in("grid.csv"), g, 2, 3, "row") == 0);
    csv = slurp(path_in("grid.csv"));
    CHECK(csv != NULL && strcmp(csv, "row,c0,c1,c2\n0,0,0.5,1\n1,-1,2.25,3\n") == 0);
    free(csv);
}

static void test_out_args(void) {
    char a0[] = "prog", a1[] = "keep", a2[] = "--out", a3[300], a4[] = "last", a5[300];
    char *argv[7];
    int argc;
    snprintf(a3, sizeof a3, "%s/out/nested", dir);
    argv[0] = a0; argv[1] = a1; argv[2] = a2; argv[3] = a3; argv[4] = a4; argv[5] = NULL;
    argc = 5;
    CHECK(plot_out_args(&argc, argv) == 0);
    CHECK_EQ(argc, 3);
    CHECK(strcmp(argv[1], "keep") == 0 && strcmp(argv[2], "last") == 0 && argv[3] == NULL);
    CHECK(strcmp(plot_out_dir(), a3) == 0);
    CHECK(file_size(a3) >= 0);   /* created, parents too */
    CHECK(strcmp(plot_out("f.png"), path_in("out/nested/f.png")) == 0);
    CHECK(plot_out(NULL) == NULL);

    snprintf(a5, sizeof a5, "--out=%s/eq", dir);
    argv[1] = a5; argv[2] = NULL; argc = 2;
    CHECK(plot_out_args(&argc, argv) == 0 && argc == 1);
    CHECK(strcmp(plot_out("x"), path_in("eq/x")) == 0);

    argv[1] = a2; argv[2] = NULL; argc = 2;   /* --out with nothing after it */
    CHECK(plot_out_args(&argc, argv) == -1);
    {
        char e[] = "--out=";
        argv[1] = e; argc = 2;
        CHECK(plot_out_args(&argc, argv) == -1);
    }
    {   /* a file where the folder should be */
        FILE *f = fopen(path_in("afile"), "w");
        char p[300];
        if (f) fclose(f);
        snprintf(p, sizeof p, "%s/afile/sub", dir);
        argv[1] = a2; argv[2] = p; argv[3] = NULL; argc = 3;
        CHECK(plot_out_args(&argc, argv) == -1);
    }
    argc = 0;
    CHECK(plot_out_args(&argc, argv) == -1);
    CHECK(plot_out_args(NULL, argv) == -1);
}

int main(void) {
    snprintf(dir, sizeof dir, "%s/tc_test_plot_%ld", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
    if (plot__mkdirs(dir) != 0) { fprintf(stderr, "cannot create %s\n", dir); return 1; }
    test_legend_placement();
    test_layout_rows();
    test_write_all_three();
    test_bad_input();
    test_colorbar_and_grid();
    test_out_args();
    return tct_finish("test_plot");
}
