/* plot.h - the pictures the lessons and tcsim write: line charts, bar charts,
   histograms and raw RGB canvases. A chart is written three times from one
   layout: PNG (stb_image_write), SVG (vector, text as <text>, for slides) and
   CSV (its data, one column per series coordinate). Text comes from
   stb_easy_font, so there are no font files to ship.

   Not part of tensorcore.h: the header stays free of I/O. Build plot.c and
   stb_impl.c once and link them (the Makefile does).

   A chart: plot_chart_new(w, h, &desc), add series (optionally restyle each
   with plot_chart_style), plot_chart_write(ch, "dir/name.png").
   Axes are scaled to the data unless desc gives limits; log axes take only
   positive values (others are skipped). The legend goes in the first inside
   corner (desc.legend_corner's first) whose box covers no drawn data pixel,
   else outside the plot: on the right if it is narrow enough, else below.
   Legends therefore never cover data. Functions return
   0 on success and -1 on bad input or I/O failure; none of them abort.

   Text is sized for a projected slide: PLOT_TEXT_SCALE (2, about 12x20
   pixels per character) for titles, labels, ticks and legends. */
#ifndef PLOT_H
#define PLOT_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLOT_TEXT_SCALE 2

/* ---- output folder: where lessons write their pictures ----
   Default TC_OUT_DIR (the Makefile passes <repo>/build/lesson-out); a
   program's `--out DIR` changes it. plot_out_args removes `--out DIR` and
   `--out=DIR` from argv (so the program's own parsing never sees them),
   creates the folder (and its parents) and returns 0; on a missing value or a
   folder it cannot create it prints why on stderr and returns -1. */
int plot_out_args(int *argc, char **argv);
const char *plot_out_dir(void);
/* "DIR/name" in one of 8 static buffers that are reused in turn, so up to 8
   results can be alive at once. NULL if it does not fit. */
const char *plot_out(const char *name);

/* ---- canvas: an RGB8 image you can draw on ---- */
typedef struct {
    int w, h;
    unsigned char *rgb;   /* w*h*3 bytes, row-major, top row first */
} plot_canvas;

int  plot_canvas_init(plot_canvas *c, int w, int h, uint32_t background_rgb);  /* 0xRRGGBB */
void plot_canvas_free(plot_canvas *c);
void plot_pixel(plot_canvas *c, int x, int y, uint32_t rgb);
void plot_rect(plot_canvas *c, int x0, int y0, int x1, int y1, uint32_t rgb);  /* filled, inclusive-exclusive */
void plot_line(plot_canvas *c, int x0, int y0, int x1, int y1, uint32_t rgb, int thickness);
/* Text at (x, y) = top-left, scale 1 = about 6x12 pixels per character. */
void plot_text(plot_canvas *c, int x, int y, const char *text, uint32_t rgb, int scale);
int  plot_text_width(const char *text, int scale);
int  plot_canvas_write_png(const plot_canvas *c, const char *path);
/* A labelled colour scale for heat and error maps: a vertical bar in
   [x, x+w) x [y, y+h), map(1) at the top, map(0) at the bottom, tick labels
   for lo..hi on its right and label above it. Returns the width used
   (bar plus labels), so callers can place what comes next. */
int  plot_colorbar(plot_canvas *c, int x, int y, int w, int h, uint32_t (*map)(double),
                   double lo, double hi, const char *label, int scale);
/* The values behind a heat map as CSV: a header row "row,c0,c1,..." (or
   the given column names), then one row per image row. */
int  plot_grid_csv(const char *path, const double *values, int rows, int cols, const char *row_name);

/* A colour from a fixed palette that stays readable on white; i wraps. */
uint32_t plot_palette(int i);
/* Blue (0) to white (0.5) to red (1), for heat maps and error maps. */
uint32_t plot_diverging(double t);
/* Black (0) to yellow (1) through purple and orange, for magnitudes. */
uint32_t plot_sequential(double t);

/* ---- charts ---- */
typedef struct {
    const char *title;
    const char *xlabel, *ylabel;
    int logx, logy;          /* base-10 log axes */
    double xmin, xmax;       /* both 0: fit the data */
    double ymin, ymax;
    int legend_corner;       /* preferred corner, tried first: 0 top right, 1 bottom right,
                                2 top left, 3 bottom left; 4: always outside the plot */
} plot_chart_desc;

/* Series styles. Lines default to solid, no markers, colour plot_palette(i). */
enum { PLOT_SOLID = 0, PLOT_DASHED = 1, PLOT_DOTTED = 2 };
enum { PLOT_MARK_NONE = 0, PLOT_MARK_SQUARE, PLOT_MARK_CIRCLE, PLOT_MARK_TRIANGLE, PLOT_MARK_DIAMOND, PLOT_MARK_CROSS };

typedef struct plot_chart plot_chart;

plot_chart *plot_chart_new(int w, int h, const plot_chart_desc *desc);
void plot_chart_free(plot_chart *ch);
/* A polyline through (x[i], y[i]); NaN or Inf points break the line. */
int plot_chart_line(plot_chart *ch, const double *x, const double *y, int n, const char *label);
/* Markers only. */
int plot_chart_points(plot_chart *ch, const double *x, const double *y, int n, const char *label);
/* One bar per category; with several plot_chart_bars calls the bars of a
   category stand side by side (grouped bars). Category labels come from the
   first call. */
int plot_chart_bars(plot_chart *ch, const char *const *categories, const double *values, int n, const char *label);
/* A horizontal or vertical reference line with a label. */
int plot_chart_hline(plot_chart *ch, double y, const char *label);
int plot_chart_vline(plot_chart *ch, double x, const char *label);
/* Restyles the series added last: colour (0xRRGGBB, or -1 to keep the
   palette's), PLOT_SOLID/DASHED/DOTTED and a PLOT_MARK_* marker (drawn at
   every point; for points series it replaces the default square). The
   legend swatch shows the same dash and marker. */
int plot_chart_style(plot_chart *ch, long color, int dash, int marker);
/* Writes path (must end in .png) and, beside it, the same chart as .svg and
   its data as .csv: one column per series coordinate ("label x", "label y";
   bar charts: "category" then one column per series), blank cells where a
   series is shorter. */
int plot_chart_write(plot_chart *ch, const char *path);

#ifdef __cplusplus
}
#endif
#endif
