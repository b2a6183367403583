/* plot.c - implementation of plot.h: a small raster plotter for the lessons.
   Simplifies: no anti-aliasing, axis-aligned text only, one y axis. */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stb_image_write.h"

/* stb_easy_font is all static functions; stb_impl.c wraps it (built without
   -Werror) so this file stays warning-clean. */
int plot__easy_font_quads(const char *text, float *xy, int max_quads);

/* ------------------------------------------------------------------ canvas */

int plot_canvas_init(plot_canvas *c, int w, int h, uint32_t bg) {
    int i;
    if (!c || w <= 0 || h <= 0 || w > 16384 || h > 16384) return -1;
    c->rgb = (unsigned char *)malloc((size_t)w * (size_t)h * 3);
    if (!c->rgb) { c->w = c->h = 0; return -1; }
    c->w = w; c->h = h;
    for (i = 0; i < w * h; i++) {
        c->rgb[3 * i + 0] = (unsigned char)(bg >> 16);
        c->rgb[3 * i + 1] = (unsigned char)(bg >> 8);
        c->rgb[3 * i + 2] = (unsigned char)bg;
    }
    return 0;
}

void plot_canvas_free(plot_canvas *c) {
    if (!c) return;
    free(c->rgb);
    c->rgb = NULL;
    c->w = c->h = 0;
}

void plot_pixel(plot_canvas *c, int x, int y, uint32_t rgb) {
    unsigned char *p;
    if (!c || !c->rgb || x < 0 || y < 0 || x >= c->w || y >= c->h) return;
    p = c->rgb + 3 * ((size_t)y * (size_t)c->w + (size_t)x);
    p[0] = (unsigned char)(rgb >> 16); p[1] = (unsigned char)(rgb >> 8); p[2] = (unsigned char)rgb;
}

void plot_rect(plot_canvas *c, int x0, int y0, int x1, int y1, uint32_t rgb) {
    int x, y;
    if (!c || !c->rgb) return;
    if (x0 > x1) { int t = x0; x0 = x1; x1 = t; }
    if (y0 > y1) { int t = y0; y0 = y1; y1 = t; }
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > c->w) x1 = c->w;
    if (y1 > c->h) y1 = c->h;
    for (y = y0; y < y1; y++)
        for (x = x0; x < x1; x++) plot_pixel(c, x, y, rgb);
}

void plot_line(plot_canvas *c, int x0, int y0, int x1, int y1, uint32_t rgb, int thickness) {
    int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
    int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
    int err = dx + dy, steps = 0, lo, hi;
    if (!c || !c->rgb) return;
    if (thickness < 1) thickness = 1;
    lo = -(thickness - 1) / 2;
    hi = lo + thickness;
    for (;;) {
        plot_rect(c, x0 + lo, y0 + lo, x0 + hi, y0 + hi, rgb);
        if ((x0 == x1 && y0 == y1) || ++steps > 40000) break;
        {
            int e2 = 2 * err;
            if (e2 >= dy) { err += dy; x0 += sx; }
            if (e2 <= dx) { err += dx; y0 += sy; }
        }
    }
}

void plot_text(plot_canvas *c, int x, int y, const char *text, uint32_t rgb, int scale) {
    static float quads[4096 * 8];
    int n, q;
    if (!c || !text) return;
    if (scale < 1) scale = 1;
    n = plot__easy_font_quads(text, quads, 4096);
    for (q = 0; q < n; q++) {
        const float *v = quads + 8 * q;  /* 4 vertices (x, y); axis-aligned */
        int qx0 = (int)v[0], qy0 = (int)v[1], qx1 = (int)v[4], qy1 = (int)v[5];
        plot_rect(c, x + qx0 * scale, y + qy0 * scale, x + qx1 * scale, y + qy1 * scale, rgb);
    }
}

int plot_text_width(const char *text, int scale) {
    static float quads[4096 * 8];
    int n, q, w = 0;
    if (!text) return 0;
    n = plot__easy_font_quads(text, quads, 4096);
    for (q = 0; q < n; q++) if ((int)quads[8 * q + 4] > w) w = (int)quads[8 * q + 4];
    return w * (scale < 1 ? 1 : scale);
}

int plot_canvas_write_png(const plot_canvas *c, const char *path) {
    if (!c || !c->rgb || !path) return -1;
    return stbi_write_png(path, c->w, c->h, 3, c->rgb, c->w * 3) ? 0 : -1;
}

uint32_t plot_palette(int i) {
    /* Okabe-Ito, readable by colour-blind readers, then grey and Paul Tol's muted colours. */
    static const uint32_t colors[] = { 0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x000000, 0xF0E442,
                                       0x888888, 0x882255, 0x44AA99, 0x999933, 0x332288, 0xAA4499 };
    int n = (int)(sizeof colors / sizeof colors[0]);
    return colors[((i % n) + n) % n];
}

static uint32_t plot__mix(uint32_t a, uint32_t b, double t) {
    int ch, out = 0;
    for (ch = 16; ch >= 0; ch -= 8) {
        double va = (double)((a >> ch) & 255), vb = (double)((b >> ch) & 255);
        out |= (int)(va + (vb - va) * t + 0.5) << ch;
    }
    return (uint32_t)out;
}

uint32_t plot_diverging(double t) {
    if (!(t >= 0)) t = 0;
    if (t > 1) t = 1;
    return t < 0.5 ? plot__mix(0x2166AC, 0xF7F7F7, t * 2) : plot__mix(0xF7F7F7, 0xB2182B, (t - 0.5) * 2);
}

uint32_t plot_sequential(double t) {
    static const uint32_t stops[] = { 0x000004, 0x3B0F70, 0x8C2981, 0xDE4968, 0xFE9F6D, 0xFCFDBF };
    int n = (int)(sizeof stops / sizeof stops[0]) - 1, i;
    if (!(t >= 0)) t = 0;
    if (t > 1) t = 1;
    i = (int)(t * n);
    if (i >= n) i = n - 1;
    return plot__mix(stops[i], stops[i + 1], t * n - i);
}

/* ------------------------------------------------------------------ charts */

enum { PLOT__LINE, PLOT__POINTS, PLOT__BARS, PLOT__HLINE, PLOT__VLINE };

typedef struct {
    int kind, n;
    double *x, *y;
    char label[64];
} plot__series;

struct plot_chart {
    int w, h;
    plot_chart_desc desc;
    char title[128], xlabel[96], ylabel[96];
    plot__series *series;
    int nseries, cap;
    char (*categories)[32];
    int ncat;
};

plot_chart *plot_chart_new(int w, int h, const plot_chart_desc *desc) {
    plot_chart *ch;
    if (w < 200 || h < 150 || w > 8192 || h > 8192) return NULL;
    ch = (plot_chart *)calloc(1, sizeof *ch);
    if (!ch) return NULL;
    ch->w = w; ch->h = h;
    if (desc) ch->desc = *desc;
    snprintf(ch->title, sizeof ch->title, "%s", ch->desc.title ? ch->desc.title : "");
    snprintf(ch->xlabel, sizeof ch->xlabel, "%s", ch->desc.xlabel ? ch->desc.xlabel : "");
    snprintf(ch->ylabel, sizeof ch->ylabel, "%s", ch->desc.ylabel ? ch->desc.ylabel : "");
    return ch;
}

void plot_chart_free(plot_chart *ch) {
    int i;
    if (!ch) return;
    for (i = 0; i < ch->nseries; i++) { free(ch->series[i].x); free(ch->series[i].y); }
    free(ch->series);
    free(ch->categories);
    free(ch);
}

static int plot__add(plot_chart *ch, int kind, const double *x, const double *y, int n, const char *label) {
    plot__series *s;
    if (!ch || n < 0 || (n > 0 && !y)) return -1;
    if (ch->nseries == ch->cap) {
        int cap = ch->cap ? ch->cap * 2 : 8;
        plot__series *grown = (plot__series *)realloc(ch->series, (size_t)cap * sizeof *grown);
        if (!grown) return -1;
        ch->series = grown; ch->cap = cap;
    }
    s = &ch->series[ch->nseries];
    memset(s, 0, sizeof *s);
    s->kind = kind; s->n = n;
    s->x = (double *)malloc((size_t)(n ? n : 1) * sizeof(double));
    s->y = (double *)malloc((size_t)(n ? n : 1) * sizeof(double));
    if (!s->x || !s->y) { free(s->x); free(s->y); return -1; }
    if (n) {
        int i;
        for (i = 0; i < n; i++) s->x[i] = x ? x[i] : (double)i;
        memcpy(s->y, y, (size_t)n * sizeof(double));
    }
    snprintf(s->label, sizeof s->label, "%s", label ? label : "");
    ch->nseries++;
    return 0;
}

int plot_chart_line(plot_chart *ch, const double *x, const double *y, int n, const char *label) {
    return (x || n == 0) ? plot__add(ch, PLOT__LINE, x, y, n, label) : -1;
}
int plot_chart_points(plot_chart *ch, const double *x, const double *y, int n, const char *label) {
    return (x || n == 0) ? plot__add(ch, PLOT__POINTS, x, y, n, label) : -1;
}
int plot_chart_hline(plot_chart *ch, double y, const char *label) { return plot__add(ch, PLOT__HLINE, &y, &y, 1, label); }
int plot_chart_vline(plot_chart *ch, double x, const char *label) { return plot__add(ch, PLOT__VLINE, &x, &x, 1, label); }

int plot_chart_bars(plot_chart *ch, const char *const *categories, const double *values, int n, const char *label) {
    if (!ch || !values || n <= 0) return -1;
    if (!ch->categories) {
        int i;
        ch->categories = (char (*)[32])calloc((size_t)n, sizeof *ch->categories);
        if (!ch->categories) return -1;
        ch->ncat = n;
        for (i = 0; i < n; i++) snprintf(ch->categories[i], sizeof ch->categories[i], "%s", categories && categories[i] ? categories[i] : "");
    }
    if (n != ch->ncat) return -1;
    return plot__add(ch, PLOT__BARS, NULL, values, n, label);
}

/* Maps a data value to [0, 1] along an axis (log or linear). */
typedef struct { double lo, hi; int log; } plot__axis;

static double plot__t(const plot__axis *a, double v) {
    if (a->log) return (log10(v) - a->lo) / (a->hi - a->lo);
    return (v - a->lo) / (a->hi - a->lo);
}

static int plot__usable(double v, int logaxis) { return isfinite(v) && (!logaxis || v > 0); }

static void plot__range(plot_chart *ch, int yaxis, plot__axis *a) {
    double lo = INFINITY, hi = -INFINITY, given_lo = yaxis ? ch->desc.ymin : ch->desc.xmin, given_hi = yaxis ? ch->desc.ymax : ch->desc.xmax;
    int i, j, lg = yaxis ? ch->desc.logy : ch->desc.logx;
    for (i = 0; i < ch->nseries; i++) {
        plot__series *s = &ch->series[i];
        if ((s->kind == PLOT__HLINE && !yaxis) || (s->kind == PLOT__VLINE && yaxis)) continue;
        if (s->kind == PLOT__BARS && !yaxis) continue;
        for (j = 0; j < s->n; j++) {
            double v = yaxis ? s->y[j] : s->x[j];
            if (!plot__usable(v, lg)) continue;
            if (v < lo) lo = v;
            if (v > hi) hi = v;
        }
        if (s->kind == PLOT__BARS && yaxis && !lg && lo > 0) lo = 0;
    }
    if (!yaxis && ch->ncat) { lo = -0.5; hi = ch->ncat - 0.5; }
    if (given_lo != 0 || given_hi != 0) { lo = given_lo; hi = given_hi; }
    if (!(lo <= hi)) { lo = lg ? 1 : 0; hi = lg ? 10 : 1; }
    a->log = lg;
    if (lg) {
        a->lo = floor(log10(lo)); a->hi = ceil(log10(hi));
        if (a->hi <= a->lo) a->hi = a->lo + 1;
    } else {
        int fixed = given_lo != 0 || given_hi != 0;
        double pad = (hi - lo) * 0.05;
        if (pad == 0) pad = fabs(hi) * 0.1 + 1;
        if (fixed || (!yaxis && ch->ncat)) { a->lo = lo; a->hi = hi; }
        else if (yaxis && ch->ncat && lo >= 0) { a->lo = 0; a->hi = hi + pad; }
        else { a->lo = lo - pad; a->hi = hi + pad; }
    }
}

static double plot__nice_step(double span, int target) {
    double raw = span / target, mag = pow(10, floor(log10(raw))), f = raw / mag;
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

static void plot__fmt(char *buf, size_t cap, double v) {
    if (v != 0 && (fabs(v) < 1e-3 || fabs(v) >= 1e5)) snprintf(buf, cap, "%.0e", v);
    else snprintf(buf, cap, "%g", v);
}

/* Grid lines (labels = 0) or tick labels (labels = 1) for both axes; the
   labels are drawn last so nothing covers them. */
static void plot__ticks(plot_chart *ch, plot_canvas *c, const plot__axis *ax, const plot__axis *ay,
                        int L, int T, int pw, int ph, int labels) {
    const uint32_t axis_color = 0x333333, grid = 0xE6E6E6;
    int j;
    for (j = 0; j < 2; j++) {
        const plot__axis *a = j ? ay : ax;
        double v, step = a->log ? ceil((a->hi - a->lo) / 10) : plot__nice_step(a->hi - a->lo, j ? 6 : 8);
        if (j == 0 && ch->ncat) continue;
        if (a->log && step < 1) step = 1;
        for (v = a->log ? a->lo : ceil(a->lo / step) * step; v <= a->hi + step * 1e-9; v += step) {
            char buf[32];
            double value = a->log ? pow(10, v) : (fabs(v) < step * 1e-9 ? 0 : v);
            int pos = j ? T + ph - (int)floor(plot__t(a, value) * ph + 0.5) : L + (int)floor(plot__t(a, value) * pw + 0.5);
            if (a->log) snprintf(buf, sizeof buf, "1e%d", (int)v);
            else plot__fmt(buf, sizeof buf, value);
            if (!labels) {
                if (j) plot_line(c, L, pos, L + pw, pos, grid, 1);
                else plot_line(c, pos, T, pos, T + ph, grid, 1);
            } else if (j) {
                plot_text(c, L - 6 - plot_text_width(buf, 1), pos - 4, buf, axis_color, 1);
            } else {
                plot_text(c, pos - plot_text_width(buf, 1) / 2, T + ph + 6, buf, axis_color, 1);
            }
        }
    }
}

int plot_chart_write_png(plot_chart *ch, const char *path) {
    plot_canvas c;
    plot__axis ax, ay;
    int L = 78, R = 20, T = 34, B = 52, pw, ph, i, j, rc, nbars = 0, bar_index = 0, legend_rows = 0;
    const uint32_t axis_color = 0x333333;
    if (!ch || !path) return -1;
    if (plot_canvas_init(&c, ch->w, ch->h, 0xFFFFFF)) return -1;
    pw = ch->w - L - R; ph = ch->h - T - B;
    plot__range(ch, 0, &ax);
    plot__range(ch, 1, &ay);
#define PX(v) (L + (int)floor(plot__t(&ax, (v)) * pw + 0.5))
#define PY(v) (T + ph - (int)floor(plot__t(&ay, (v)) * ph + 0.5))

    plot__ticks(ch, &c, &ax, &ay, L, T, pw, ph, 0);

    /* series */
    for (i = 0; i < ch->nseries; i++) if (ch->series[i].kind == PLOT__BARS) nbars++;
    for (i = 0; i < ch->nseries; i++) {
        plot__series *s = &ch->series[i];
        uint32_t col = plot_palette(i);
        if (s->label[0]) legend_rows++;
        if (s->kind == PLOT__LINE) {
            int have = 0, px = 0, py = 0;
            for (j = 0; j < s->n; j++) {
                if (!plot__usable(s->x[j], ax.log) || !plot__usable(s->y[j], ay.log)) { have = 0; continue; }
                if (have) plot_line(&c, px, py, PX(s->x[j]), PY(s->y[j]), col, 2);
                px = PX(s->x[j]); py = PY(s->y[j]); have = 1;
            }
        } else if (s->kind == PLOT__POINTS) {
            for (j = 0; j < s->n; j++) {
                if (!plot__usable(s->x[j], ax.log) || !plot__usable(s->y[j], ay.log)) continue;
                plot_rect(&c, PX(s->x[j]) - 2, PY(s->y[j]) - 2, PX(s->x[j]) + 3, PY(s->y[j]) + 3, col);
            }
        } else if (s->kind == PLOT__BARS) {
            double group = 0.8, width = group / nbars;
            double base = ay.log ? pow(10, ay.lo) : (ay.lo > 0 ? ay.lo : 0);
            for (j = 0; j < s->n; j++) {
                double left = j - group / 2 + bar_index * width;
                if (!plot__usable(s->y[j], ay.log)) continue;
                plot_rect(&c, PX(left), PY(s->y[j]), PX(left + width) - 1, PY(base), col);
            }
            bar_index++;
        } else if (s->kind == PLOT__HLINE && plot__usable(s->y[0], ay.log)) {
            int y = PY(s->y[0]);
            for (j = L; j < L + pw; j += 8) plot_line(&c, j, y, j + 4 < L + pw ? j + 4 : L + pw, y, col, 1);
        } else if (s->kind == PLOT__VLINE && plot__usable(s->x[0], ax.log)) {
            int x = PX(s->x[0]);
            for (j = T; j < T + ph; j += 8) plot_line(&c, x, j, x, j + 4 < T + ph ? j + 4 : T + ph, col, 1);
        }
    }
    if (ch->ncat) {
        for (j = 0; j < ch->ncat; j++) {
            int x = PX((double)j);
            plot_text(&c, x - plot_text_width(ch->categories[j], 1) / 2, T + ph + 6, ch->categories[j], axis_color, 1);
        }
    }

    /* frame over the data so clipped marks stay inside, then labels */
    plot_rect(&c, 0, 0, ch->w, T, 0xFFFFFF);
    plot_rect(&c, 0, T + ph + 1, L, ch->h, 0xFFFFFF);
    plot_line(&c, L, T, L, T + ph, axis_color, 1);
    plot_line(&c, L, T + ph, L + pw, T + ph, axis_color, 1);
    plot__ticks(ch, &c, &ax, &ay, L, T, pw, ph, 1);
    plot_text(&c, (ch->w - plot_text_width(ch->title, 2)) / 2, 8, ch->title, 0x000000, 2);
    plot_text(&c, L + (pw - plot_text_width(ch->xlabel, 1)) / 2, ch->h - 18, ch->xlabel, axis_color, 1);
    plot_text(&c, 6, T - 14, ch->ylabel, axis_color, 1);

    if (legend_rows) {
        int lw = 0, lx, ly = T + 8, row = 0;
        for (i = 0; i < ch->nseries; i++) {
            int tw = plot_text_width(ch->series[i].label, 1);
            if (tw > lw) lw = tw;
        }
        lx = (ch->desc.legend_corner & 2) ? L + 10 : L + pw - lw - 34;
        if (ch->desc.legend_corner & 1) ly = T + ph - legend_rows * 14 - 8;
        plot_rect(&c, lx - 6, ly - 4, lx + lw + 30, ly + legend_rows * 14 + 2, 0xFFFFFF);
        for (i = 0; i < ch->nseries; i++) {
            if (!ch->series[i].label[0]) continue;
            plot_rect(&c, lx, ly + row * 14 + 2, lx + 16, ly + row * 14 + 8, plot_palette(i));
            plot_text(&c, lx + 22, ly + row * 14, ch->series[i].label, 0x000000, 1);
            row++;
        }
    }
#undef PX
#undef PY
    rc = plot_canvas_write_png(&c, path);
    plot_canvas_free(&c);
    return rc;
}
