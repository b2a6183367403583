/* plot.h - the pictures the lessons and tcsim write: line charts, bar charts,
   histograms and raw RGB canvases, saved as PNG with stb_image_write.
   Text comes from stb_easy_font, so there are no font files to ship.

   Not part of tensorcore.h: the header stays free of I/O. Build plot.c and
   stb_impl.c once and link them (the Makefile does).

   A chart: plot_chart_new(w, h, &desc), add series, plot_chart_write_png().
   Axes are scaled to the data unless desc gives limits; log axes take only
   positive values (others are skipped). Functions return 0 on success and -1
   on bad input or I/O failure; none of them abort. */
#ifndef PLOT_H
#define PLOT_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
    int legend_corner;       /* 0: top right, 1: bottom right, 2: top left, 3: bottom left */
} plot_chart_desc;

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
int plot_chart_write_png(plot_chart *ch, const char *path);

#ifdef __cplusplus
}
#endif
#endif
