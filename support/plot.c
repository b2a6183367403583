/* plot.c - implementation of plot.h: a small raster plotter for the lessons.
   Simplifies: no anti-aliasing, axis-aligned text only, one y axis. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L   /* mkdir, stat: the output folder */
#endif
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

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

int plot_colorbar(plot_canvas *c, int x, int y, int w, int h, uint32_t (*map)(double),
                  double lo, double hi, const char *label, int scale) {
    int j, k, tw = 0;
    char buf[32];
    if (!c || !c->rgb || !map || w < 1 || h < 2) return 0;
    if (scale < 1) scale = 1;
    for (j = 0; j < h; j++) plot_rect(c, x, y + j, x + w, y + j + 1, map(1.0 - (double)j / (h - 1)));
    plot_line(c, x - 1, y - 1, x + w, y - 1, 0x333333, 1);
    plot_line(c, x - 1, y + h, x + w, y + h, 0x333333, 1);
    plot_line(c, x - 1, y - 1, x - 1, y + h, 0x333333, 1);
    plot_line(c, x + w, y - 1, x + w, y + h, 0x333333, 1);
    for (k = 0; k <= 4; k++) {   /* lo, quarters, hi: the reader needs the ends and the middle */
        int ty = y + h - 1 - (h - 1) * k / 4;
        double v = lo + (hi - lo) * k / 4;
        if (v != 0 && (fabs(v) < 1e-3 || fabs(v) >= 1e5)) snprintf(buf, sizeof buf, "%.1e", v);
        else snprintf(buf, sizeof buf, "%.3g", v);
        plot_line(c, x + w, ty, x + w + 4, ty, 0x333333, 1);
        plot_text(c, x + w + 7, ty - 4 * scale, buf, 0x000000, scale);
        if (plot_text_width(buf, scale) > tw) tw = plot_text_width(buf, scale);
    }
    if (label) plot_text(c, x, y - 14 * scale, label, 0x000000, scale);
    tw += w + 7;
    return label && plot_text_width(label, scale) > tw ? plot_text_width(label, scale) : tw;
}

/* Quotes a CSV cell when it holds a comma, quote or newline. */
static void plot__csv_cell(FILE *f, const char *s) {
    if (!strpbrk(s, ",\"\n")) { fputs(s, f); return; }
    fputc('"', f);
    for (; *s; s++) { if (*s == '"') fputc('"', f); fputc(*s, f); }
    fputc('"', f);
}

int plot_grid_csv(const char *path, const double *values, int rows, int cols, const char *row_name) {
    FILE *f;
    int r, k;
    if (!path || !values || rows <= 0 || cols <= 0) return -1;
    if (!(f = fopen(path, "w"))) return -1;
    plot__csv_cell(f, row_name ? row_name : "row");
    for (k = 0; k < cols; k++) fprintf(f, ",c%d", k);
    fputc('\n', f);
    for (r = 0; r < rows; r++) {
        fprintf(f, "%d", r);
        for (k = 0; k < cols; k++) fprintf(f, ",%.9g", values[(size_t)r * (size_t)cols + (size_t)k]);
        fputc('\n', f);
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* ------------------------------------------------------------------ output folder */

#ifndef TC_OUT_DIR
#define TC_OUT_DIR "build/lesson-out"
#endif
static char plot__dir[1024] = TC_OUT_DIR;

/* mkdir -p: every prefix ending at a '/' and then the whole path. */
static int plot__mkdirs(const char *path) {
    char buf[1024];
    size_t i, n = strlen(path);
    struct stat st;
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, path, n + 1);
    for (i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != 0) continue;
        buf[i] = 0;
        if (stat(buf, &st) != 0) {
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) return -1;
        } else if (!S_ISDIR(st.st_mode)) {
            errno = ENOTDIR;
            return -1;
        }
        buf[i] = path[i];
    }
    return 0;
}

int plot_out_args(int *argc, char **argv) {
    int i, j = 1;
    if (!argc || !argv || *argc < 1) return -1;
    for (i = 1; i < *argc; i++) {
        const char *v = NULL;
        if (strcmp(argv[i], "--out") == 0) {
            if (i + 1 >= *argc || !argv[i + 1][0]) { fprintf(stderr, "%s: --out needs a folder\n", argv[0]); return -1; }
            v = argv[++i];
        } else if (strncmp(argv[i], "--out=", 6) == 0) {
            v = argv[i] + 6;
            if (!*v) { fprintf(stderr, "%s: --out needs a folder\n", argv[0]); return -1; }
        } else {
            argv[j++] = argv[i];
            continue;
        }
        if (strlen(v) >= sizeof plot__dir - 64) { fprintf(stderr, "%s: --out folder name too long\n", argv[0]); return -1; }
        snprintf(plot__dir, sizeof plot__dir, "%s", v);
    }
    *argc = j;
    argv[j] = NULL;
    if (plot__mkdirs(plot__dir) != 0) {
        fprintf(stderr, "%s: cannot create output folder %s: %s\n", argv[0], plot__dir, strerror(errno));
        return -1;
    }
    return 0;
}

const char *plot_out_dir(void) { return plot__dir; }

const char *plot_out(const char *name) {
    static char bufs[8][1200];
    static int next;
    char *b = bufs[next];
    int n;
    if (!name) return NULL;
    next = (next + 1) % 8;
    n = snprintf(b, sizeof bufs[0], "%s/%s", plot__dir, name);
    return n > 0 && (size_t)n < sizeof bufs[0] ? b : NULL;
}

/* ------------------------------------------------------------------ drawing device */

/* Every chart primitive goes to the canvas and/or the SVG stream, so the PNG
   and the SVG come from one layout and hold the same marks. */
typedef struct { plot_canvas *c; FILE *svg; } plot__dev;

#define PLOT__HEX(col) (unsigned)((col) & 0xFFFFFF)

static void plot__d_rect(plot__dev *d, int x0, int y0, int x1, int y1, uint32_t col) {
    if (d->c) plot_rect(d->c, x0, y0, x1, y1, col);
    if (d->svg && x1 > x0 && y1 > y0)
        fprintf(d->svg, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#%06X\"/>\n", x0, y0, x1 - x0, y1 - y0, PLOT__HEX(col));
}

static const int plot__dash_on[] = { 1, 12, 3 }, plot__dash_period[] = { 1, 22, 8 };

/* A polyline; dash (PLOT_SOLID/DASHED/DOTTED) keeps its phase across the
   segments so the pattern runs along the whole line. */
static void plot__d_poly(plot__dev *d, const int *xs, const int *ys, int n, uint32_t col, int thick, int dash) {
    int k;
    if (n < 2) return;
    if (dash < 0 || dash > 2) dash = 0;
    if (d->c) {
        int phase = 0, lo = -(thick - 1) / 2, hi = lo + thick;
        for (k = 0; k + 1 < n; k++) {
            int x0 = xs[k], y0 = ys[k], x1 = xs[k + 1], y1 = ys[k + 1];
            int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1, dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1, err = dx + dy, steps = 0;
            for (;;) {
                if (phase % plot__dash_period[dash] < plot__dash_on[dash]) plot_rect(d->c, x0 + lo, y0 + lo, x0 + hi, y0 + hi, col);
                if ((x0 == x1 && y0 == y1) || ++steps > 40000) break;
                phase++;
                {
                    int e2 = 2 * err;
                    if (e2 >= dy) { err += dy; x0 += sx; }
                    if (e2 <= dx) { err += dx; y0 += sy; }
                }
            }
        }
    }
    if (d->svg) {
        fprintf(d->svg, "<polyline fill=\"none\" stroke=\"#%06X\" stroke-width=\"%d\"", PLOT__HEX(col), thick);
        if (dash) fprintf(d->svg, " stroke-dasharray=\"%d %d\"", plot__dash_on[dash], plot__dash_period[dash] - plot__dash_on[dash]);
        fprintf(d->svg, " points=\"");
        for (k = 0; k < n; k++) fprintf(d->svg, "%s%.1f,%.1f", k ? " " : "", xs[k] + 0.5, ys[k] + 0.5);
        fprintf(d->svg, "\"/>\n");
    }
}

static void plot__d_line(plot__dev *d, int x0, int y0, int x1, int y1, uint32_t col, int thick, int dash) {
    int xs[2], ys[2];
    xs[0] = x0; xs[1] = x1; ys[0] = y0; ys[1] = y1;
    plot__d_poly(d, xs, ys, 2, col, thick, dash);
}

static void plot__svg_escaped(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '&') fputs("&amp;", f);
        else if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '"') fputs("&quot;", f);
        else if ((unsigned char)*s >= 32 && (unsigned char)*s < 127) fputc(*s, f);
    }
}

/* Text at top-left (x, y); in the SVG it is stretched to the raster text's
   width so both layouts agree whatever font the viewer has. */
static void plot__d_text(plot__dev *d, int x, int y, const char *t, uint32_t col, int scale, int bold) {
    int w = plot_text_width(t, scale);
    if (!t || !t[0]) return;
    if (d->c) {
        plot_text(d->c, x, y, t, col, scale);
        if (bold) plot_text(d->c, x + 1, y, t, col, scale);
    }
    if (d->svg && w > 0) {
        fprintf(d->svg, "<text x=\"%d\" y=\"%d\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"%d\"%s fill=\"#%06X\" "
                        "textLength=\"%d\" lengthAdjust=\"spacingAndGlyphs\">",
                x, y + 7 * scale + (scale + 1) / 2, 10 * scale, bold ? " font-weight=\"bold\"" : "", PLOT__HEX(col), w);
        plot__svg_escaped(d->svg, t);
        fprintf(d->svg, "</text>\n");
    }
}

static void plot__d_marker(plot__dev *d, int x, int y, int shape, uint32_t col, int r) {
    int i, j;
    if (shape == PLOT_MARK_CROSS) {
        plot__d_line(d, x - r, y - r, x + r, y + r, col, 2, PLOT_SOLID);
        plot__d_line(d, x - r, y + r, x + r, y - r, col, 2, PLOT_SOLID);
        return;
    }
    if (d->c) {
        for (j = -r - 1; j <= r + 1; j++)
            for (i = -r - 1; i <= r + 1; i++) {
                int in = shape == PLOT_MARK_CIRCLE ? i * i + j * j <= r * r + r
                       : shape == PLOT_MARK_DIAMOND ? abs(i) + abs(j) <= r + 1
                       : shape == PLOT_MARK_TRIANGLE ? j >= -r && j <= r && 2 * abs(i) <= (j + r) * 6 / 5
                       : abs(i) <= r - 1 && abs(j) <= r - 1;
                if (in) plot_pixel(d->c, x + i, y + j, col);
            }
    }
    if (d->svg) {
        double cx = x + 0.5, cy = y + 0.5;
        if (shape == PLOT_MARK_CIRCLE) fprintf(d->svg, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"#%06X\"/>\n", cx, cy, r, PLOT__HEX(col));
        else if (shape == PLOT_MARK_DIAMOND)
            fprintf(d->svg, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"#%06X\"/>\n", cx, cy - r - 1, cx + r + 1, cy, cx, cy + r + 1, cx - r - 1, cy, PLOT__HEX(col));
        else if (shape == PLOT_MARK_TRIANGLE)
            fprintf(d->svg, "<polygon points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"#%06X\"/>\n", cx, cy - r, cx + r * 1.2, cy + r, cx - r * 1.2, cy + r, PLOT__HEX(col));
        else fprintf(d->svg, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\" fill=\"#%06X\"/>\n", cx - r + 0.5, cy - r + 0.5, 2 * r - 1, 2 * r - 1, PLOT__HEX(col));
    }
}

/* ------------------------------------------------------------------ charts */

enum { PLOT__LINE, PLOT__POINTS, PLOT__BARS, PLOT__HLINE, PLOT__VLINE };

typedef struct {
    int kind, n;
    double *x, *y;
    char label[96];
    uint32_t color;
    int dash, marker;
} plot__series;

struct plot_chart {
    int w, h;
    plot_chart_desc desc;
    char title[160], xlabel[128], ylabel[128];
    plot__series *series;
    int nseries, cap;
    char (*categories)[48];
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
    ch->desc.title = ch->desc.xlabel = ch->desc.ylabel = NULL;   /* the copies above are the ones used */
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
    s->color = plot_palette(ch->nseries);
    s->dash = (kind == PLOT__HLINE || kind == PLOT__VLINE) ? PLOT_DASHED : PLOT_SOLID;
    s->marker = kind == PLOT__POINTS ? PLOT_MARK_SQUARE : PLOT_MARK_NONE;
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

int plot_chart_style(plot_chart *ch, long color, int dash, int marker) {
    plot__series *s;
    if (!ch || ch->nseries == 0 || color < -1 || color > 0xFFFFFF || dash < PLOT_SOLID || dash > PLOT_DOTTED ||
        marker < PLOT_MARK_NONE || marker > PLOT_MARK_CROSS)
        return -1;
    s = &ch->series[ch->nseries - 1];
    if (color >= 0) s->color = (uint32_t)color;
    s->dash = dash;
    s->marker = (s->kind == PLOT__POINTS && marker == PLOT_MARK_NONE) ? PLOT_MARK_SQUARE : marker;
    return 0;
}

int plot_chart_bars(plot_chart *ch, const char *const *categories, const double *values, int n, const char *label) {
    if (!ch || !values || n <= 0) return -1;
    if (!ch->categories) {
        int i;
        ch->categories = (char (*)[48])calloc((size_t)n, sizeof *ch->categories);
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

#define PLOT__MAX_TICKS 64
typedef struct { int n; double v[PLOT__MAX_TICKS]; char text[PLOT__MAX_TICKS][24]; int widest; } plot__ticks;

/* Tick values and labels for one axis; target is how many to aim for. */
static void plot__tick_list(const plot__axis *a, int target, plot__ticks *t) {
    double v, step = a->log ? ceil((a->hi - a->lo) / target) : plot__nice_step(a->hi - a->lo, target);
    if (a->log && step < 1) step = 1;
    t->n = 0; t->widest = 0;
    for (v = a->log ? a->lo : ceil(a->lo / step) * step; v <= a->hi + step * 1e-9 && t->n < PLOT__MAX_TICKS; v += step) {
        double value = a->log ? pow(10, v) : (fabs(v) < step * 1e-9 ? 0 : v);
        int w;
        if (a->log) snprintf(t->text[t->n], sizeof t->text[0], "1e%d", (int)v);
        else plot__fmt(t->text[t->n], sizeof t->text[0], value);
        t->v[t->n] = value;
        w = plot_text_width(t->text[t->n], PLOT_TEXT_SCALE);
        if (w > t->widest) t->widest = w;
        t->n++;
    }
}

enum { PLOT__ROW = 12 * PLOT_TEXT_SCALE, PLOT__SWATCH = 40, PLOT__MARK_R = 5 };
enum { PLOT__LEG_INSIDE, PLOT__LEG_RIGHT, PLOT__LEG_BELOW };

typedef struct {
    int L, R, T, B, pw, ph;
    plot__axis ax, ay;
    plot__ticks tx, ty;
    char title[2][160];
    int title_lines;
    int cat_scale, cat_lines;
    int legend_mode, lx, ly, lw, lh, legend_entries, legend_cols;
} plot__layout;

static int plot__legend_entry_w(const plot__series *s) { return PLOT__SWATCH + 8 + plot_text_width(s->label, PLOT_TEXT_SCALE); }

/* Splits text at the space nearest its middle; 0 if it has none. */
static int plot__split(const char *text, char *first, char *second, size_t cap) {
    int n = (int)strlen(text), best = -1, i;
    for (i = 0; i < n; i++)
        if (text[i] == ' ' && (best < 0 || abs(i - n / 2) < abs(best - n / 2))) best = i;
    if (best < 0) return 0;
    snprintf(first, cap, "%.*s", best, text);
    snprintf(second, cap, "%s", text + best + 1);
    return 1;
}

/* Margins from the text they hold, then the plot area. */
static void plot__place(plot_chart *ch, plot__layout *ly, int legend_h_below, int legend_w_right) {
    int S = PLOT_TEXT_SCALE, xt;
    ly->T = 10 + ly->title_lines * (PLOT__ROW + 4) + 6 + (ch->ylabel[0] ? PLOT__ROW + 12 : 0);
    ly->L = ly->ty.widest + 16;
    if (ly->L < 40) ly->L = 40;
    ly->R = legend_w_right ? legend_w_right + 24 : 28;
    ly->B = 8 + ly->cat_lines * 12 * ly->cat_scale + 8 + (ch->xlabel[0] ? PLOT__ROW + 8 : 0) + legend_h_below;
    ly->pw = ch->w - ly->L - ly->R;
    ly->ph = ch->h - ly->T - ly->B;
    /* x ticks: fewer until their labels no longer touch */
    for (xt = 10; xt >= 2; xt--) {
        plot__tick_list(&ly->ax, xt, &ly->tx);
        if (ly->tx.n < 2 || ly->tx.n * (ly->tx.widest + 12 * S) < ly->pw) break;
    }
}

static void plot__layout_init(plot_chart *ch, plot__layout *ly) {
    int S = PLOT_TEXT_SCALE, i;
    memset(ly, 0, sizeof *ly);
    plot__range(ch, 0, &ly->ax);
    plot__range(ch, 1, &ly->ay);
    plot__tick_list(&ly->ay, 6, &ly->ty);
    ly->title_lines = 1;
    snprintf(ly->title[0], sizeof ly->title[0], "%s", ch->title);
    if (plot_text_width(ch->title, S) > ch->w - 20 && plot__split(ch->title, ly->title[0], ly->title[1], sizeof ly->title[0]))
        ly->title_lines = 2;
    if (!ch->title[0]) ly->title_lines = 0;
    ly->cat_scale = S; ly->cat_lines = 1;
    if (ch->ncat) {
        /* room per label: the category width times the gap to the next labelled category */
        int gap = ch->ncat, last = -1, slot, widest = 0, widest_half = 0;
        for (i = 0; i < ch->ncat; i++) {
            if (!ch->categories[i][0]) continue;
            if (last >= 0 && i - last < gap) gap = i - last;
            last = i;
        }
        slot = (ch->w - 160) * gap / ch->ncat - 8;
        for (i = 0; i < ch->ncat; i++) {
            char a[48], b[48];
            int w = plot_text_width(ch->categories[i], S);
            if (w > widest) widest = w;
            if (plot__split(ch->categories[i], a, b, sizeof a))
                w = plot_text_width(a, S) > plot_text_width(b, S) ? plot_text_width(a, S) : plot_text_width(b, S);
            if (w > widest_half) widest_half = w;
        }
        if (widest > slot) {
            if (widest_half <= slot) ly->cat_lines = 2;
            else ly->cat_scale = 1;
        }
    }
    for (i = 0; i < ch->nseries; i++) {
        int w = plot__legend_entry_w(&ch->series[i]);
        if (!ch->series[i].label[0]) continue;
        ly->legend_entries++;
        if (w > ly->lw) ly->lw = w;
    }
    ly->lw += 20;
    ly->lh = ly->legend_entries * PLOT__ROW + 14;
    plot__place(ch, ly, 0, 0);
}

static int plot__px(const plot__layout *ly, double v) { return ly->L + (int)floor(plot__t(&ly->ax, v) * ly->pw + 0.5); }
static int plot__py(const plot__layout *ly, double v) { return ly->T + ly->ph - (int)floor(plot__t(&ly->ay, v) * ly->ph + 0.5); }

static void plot__draw_data(plot_chart *ch, const plot__layout *ly, plot__dev *d) {
    int i, j, nbars = 0, bar_index = 0, *xs, *ys, m;
    int cap = 2;
    for (i = 0; i < ch->nseries; i++) {
        if (ch->series[i].kind == PLOT__BARS) nbars++;
        if (ch->series[i].n > cap) cap = ch->series[i].n;
    }
    xs = (int *)malloc((size_t)cap * sizeof *xs);
    ys = (int *)malloc((size_t)cap * sizeof *ys);
    if (!xs || !ys) { free(xs); free(ys); return; }
    for (i = 0; i < ch->nseries; i++) {
        plot__series *s = &ch->series[i];
        if (s->kind == PLOT__LINE) {
            m = 0;
            for (j = 0; j <= s->n; j++) {
                if (j == s->n || !plot__usable(s->x[j], ly->ax.log) || !plot__usable(s->y[j], ly->ay.log)) {
                    plot__d_poly(d, xs, ys, m, s->color, 3, s->dash);
                    m = 0;
                    continue;
                }
                xs[m] = plot__px(ly, s->x[j]); ys[m] = plot__py(ly, s->y[j]); m++;
            }
        }
        if (s->kind == PLOT__POINTS || (s->kind == PLOT__LINE && s->marker)) {
            for (j = 0; j < s->n; j++)
                if (plot__usable(s->x[j], ly->ax.log) && plot__usable(s->y[j], ly->ay.log))
                    plot__d_marker(d, plot__px(ly, s->x[j]), plot__py(ly, s->y[j]), s->marker, s->color, PLOT__MARK_R);
        } else if (s->kind == PLOT__BARS) {
            double group = 0.8, width = group / nbars;
            double base = ly->ay.log ? pow(10, ly->ay.lo) : (ly->ay.lo > 0 ? ly->ay.lo : 0);
            for (j = 0; j < s->n; j++) {
                double left = j - group / 2 + bar_index * width;
                if (!plot__usable(s->y[j], ly->ay.log)) continue;
                plot__d_rect(d, plot__px(ly, left), plot__py(ly, s->y[j]), plot__px(ly, left + width) - 1, plot__py(ly, base), s->color);
            }
            bar_index++;
        } else if (s->kind == PLOT__HLINE && plot__usable(s->y[0], ly->ay.log)) {
            int y = plot__py(ly, s->y[0]);
            plot__d_line(d, ly->L, y, ly->L + ly->pw, y, s->color, 2, s->dash);
        } else if (s->kind == PLOT__VLINE && plot__usable(s->x[0], ly->ax.log)) {
            int x = plot__px(ly, s->x[0]);
            plot__d_line(d, x, ly->T, x, ly->T + ly->ph, s->color, 2, s->dash);
        }
    }
    free(xs);
    free(ys);
}

/* Non-white pixels of the data-only picture inside a rectangle. */
static long plot__covered(const plot_canvas *c, int x0, int y0, int x1, int y1) {
    long n = 0;
    int x, y;
    for (y = y0 < 0 ? 0 : y0; y < y1 && y < c->h; y++)
        for (x = x0 < 0 ? 0 : x0; x < x1 && x < c->w; x++) {
            const unsigned char *p = c->rgb + 3 * ((size_t)y * (size_t)c->w + (size_t)x);
            n += (p[0] & p[1] & p[2]) != 255;
        }
    return n;
}

/* Inside the plot in the first corner (the preferred one first) whose box
   covers no data; otherwise outside: to the right when that leaves the plot
   most of the width, else below the x label. */
static int plot__place_legend(plot_chart *ch, plot__layout *ly) {
    static const int order[4] = { 0, 2, 1, 3 };
    plot_canvas mask;
    plot__dev d;
    int k, pref = ch->desc.legend_corner;
    if (!ly->legend_entries) return 0;
    if (pref >= 0 && pref <= 3) {
        if (plot_canvas_init(&mask, ch->w, ch->h, 0xFFFFFF)) return -1;
        d.c = &mask; d.svg = NULL;
        plot__draw_data(ch, ly, &d);
        for (k = -1; k < 4; k++) {
            int corner = k < 0 ? pref : order[k];
            int x = (corner & 2) ? ly->L + 10 : ly->L + ly->pw - ly->lw - 10;
            int y = (corner & 1) ? ly->T + ly->ph - ly->lh - 10 : ly->T + 10;
            if (x < ly->L || y < ly->T) continue;
            if (plot__covered(&mask, x - 6, y - 6, x + ly->lw + 6, y + ly->lh + 6) == 0) {
                plot_canvas_free(&mask);
                ly->legend_mode = PLOT__LEG_INSIDE; ly->lx = x; ly->ly = y;
                return 0;
            }
        }
        plot_canvas_free(&mask);
    }
    if (ly->lw + 24 <= (ch->w - ly->L) * 3 / 10 + 24) {
        plot__place(ch, ly, 0, ly->lw);
        ly->legend_mode = PLOT__LEG_RIGHT;
        ly->lx = ly->L + ly->pw + 16; ly->ly = ly->T;
    } else {
        int cols = (ch->w - 20) / ly->lw, rows;
        if (cols < 1) cols = 1;
        if (cols > ly->legend_entries) cols = ly->legend_entries;
        rows = (ly->legend_entries + cols - 1) / cols;
        ly->legend_cols = cols;
        ly->lh = rows * PLOT__ROW + 14;
        plot__place(ch, ly, ly->lh + 6, 0);
        ly->legend_mode = PLOT__LEG_BELOW;
        ly->lx = 10; ly->ly = ch->h - ly->lh - 6;
    }
    return 0;
}

static void plot__draw_swatch(plot__dev *d, const plot__series *s, int x, int y) {
    int cy = y + PLOT__ROW / 2 - 2;
    if (s->kind == PLOT__BARS) plot__d_rect(d, x, cy - 7, x + PLOT__SWATCH - 6, cy + 7, s->color);
    else if (s->kind != PLOT__POINTS) plot__d_line(d, x, cy, x + PLOT__SWATCH - 6, cy, s->color, s->kind == PLOT__LINE ? 3 : 2, s->dash);
    if (s->marker) plot__d_marker(d, x + (PLOT__SWATCH - 6) / 2, cy, s->marker, s->color, PLOT__MARK_R);
}

static void plot__draw(plot_chart *ch, const plot__layout *ly, plot__dev *d) {
    const uint32_t axis_color = 0x333333, grid = 0xE0E0E0;
    int S = PLOT_TEXT_SCALE, i, row = 0, L = ly->L, T = ly->T, pw = ly->pw, ph = ly->ph;
    plot__d_rect(d, 0, 0, ch->w, ch->h, 0xFFFFFF);
    for (i = 0; i < ly->ty.n; i++) { int y = plot__py(ly, ly->ty.v[i]); plot__d_line(d, L, y, L + pw, y, grid, 1, PLOT_SOLID); }
    if (!ch->ncat)
        for (i = 0; i < ly->tx.n; i++) { int x = plot__px(ly, ly->tx.v[i]); plot__d_line(d, x, T, x, T + ph, grid, 1, PLOT_SOLID); }
    plot__draw_data(ch, ly, d);

    /* margins over the data so clipped marks stay inside, then the frame and text */
    plot__d_rect(d, 0, 0, ch->w, T, 0xFFFFFF);
    plot__d_rect(d, 0, T + ph + 1, ch->w, ch->h, 0xFFFFFF);
    plot__d_rect(d, 0, T, L, T + ph + 1, 0xFFFFFF);
    plot__d_rect(d, L + pw + 1, T, ch->w, T + ph + 1, 0xFFFFFF);
    plot__d_line(d, L, T, L, T + ph, axis_color, 1, PLOT_SOLID);
    plot__d_line(d, L, T + ph, L + pw, T + ph, axis_color, 1, PLOT_SOLID);
    for (i = 0; i < ly->ty.n; i++) {
        int y = plot__py(ly, ly->ty.v[i]);
        plot__d_text(d, L - 8 - plot_text_width(ly->ty.text[i], S), y - 4 * S, ly->ty.text[i], axis_color, S, 0);
    }
    if (ch->ncat) {
        for (i = 0; i < ch->ncat; i++) {
            char a[48], b[48];
            int x = plot__px(ly, (double)i), cs = ly->cat_scale;
            if (ly->cat_lines == 2 && plot__split(ch->categories[i], a, b, sizeof a)) {
                plot__d_text(d, x - plot_text_width(a, cs) / 2, T + ph + 8, a, axis_color, cs, 0);
                plot__d_text(d, x - plot_text_width(b, cs) / 2, T + ph + 8 + 12 * cs, b, axis_color, cs, 0);
            } else plot__d_text(d, x - plot_text_width(ch->categories[i], cs) / 2, T + ph + 8, ch->categories[i], axis_color, cs, 0);
        }
    } else {
        for (i = 0; i < ly->tx.n; i++) {
            int x = plot__px(ly, ly->tx.v[i]);
            plot__d_text(d, x - plot_text_width(ly->tx.text[i], S) / 2, T + ph + 8, ly->tx.text[i], axis_color, S, 0);
        }
    }
    for (i = 0; i < ly->title_lines; i++)
        plot__d_text(d, (ch->w - plot_text_width(ly->title[i], S)) / 2, 10 + i * (PLOT__ROW + 4), ly->title[i], 0x000000, S, 1);
    plot__d_text(d, L + (pw - plot_text_width(ch->xlabel, S)) / 2, T + ph + 16 + ly->cat_lines * 12 * ly->cat_scale, ch->xlabel, axis_color, S, 0);
    plot__d_text(d, 8, T - PLOT__ROW - 10, ch->ylabel, axis_color, S, 0);

    if (ly->legend_entries) {
        int colw = ly->lw, boxw = ly->legend_mode == PLOT__LEG_BELOW ? ly->legend_cols * colw : ly->lw;
        plot__d_rect(d, ly->lx, ly->ly, ly->lx + boxw, ly->ly + ly->lh, 0xCCCCCC);
        plot__d_rect(d, ly->lx + 1, ly->ly + 1, ly->lx + boxw - 1, ly->ly + ly->lh - 1, 0xFFFFFF);
        for (i = 0; i < ch->nseries; i++) {
            const plot__series *s = &ch->series[i];
            int col = ly->legend_mode == PLOT__LEG_BELOW ? row % ly->legend_cols : 0;
            int r = ly->legend_mode == PLOT__LEG_BELOW ? row / ly->legend_cols : row;
            int x = ly->lx + 10 + col * colw, y = ly->ly + 8 + r * PLOT__ROW;
            if (!s->label[0]) continue;
            plot__draw_swatch(d, s, x, y);
            plot__d_text(d, x + PLOT__SWATCH + 4, y + 2, s->label, 0x000000, S, 0);
            row++;
        }
    }
}

static int plot__write_csv(plot_chart *ch, const char *path) {
    FILE *f;
    int i, j, rows = 0, first = 1;
    char head[128];
    if (!(f = fopen(path, "w"))) return -1;
    if (ch->ncat) { fputs("category", f); first = 0; }
    for (i = 0; i < ch->nseries; i++) {
        const plot__series *s = &ch->series[i];
        const char *name = s->label[0] ? s->label : "series";
        if (s->n > rows) rows = s->n;
        if (s->kind == PLOT__BARS || s->kind == PLOT__HLINE || s->kind == PLOT__VLINE) {
            snprintf(head, sizeof head, "%s %s", name, s->kind == PLOT__VLINE ? "x" : "y");
            if (!first) fputc(',', f);
            plot__csv_cell(f, s->kind == PLOT__BARS ? name : head);
        } else {
            snprintf(head, sizeof head, "%s x", name);
            if (!first) fputc(',', f);
            plot__csv_cell(f, head);
            snprintf(head, sizeof head, "%s y", name);
            fputc(',', f);
            plot__csv_cell(f, head);
        }
        first = 0;
    }
    fputc('\n', f);
    for (j = 0; j < rows; j++) {
        first = 1;
        if (ch->ncat) { plot__csv_cell(f, ch->categories[j < ch->ncat ? j : 0]); first = 0; }
        for (i = 0; i < ch->nseries; i++) {
            const plot__series *s = &ch->series[i];
            int pair = !(s->kind == PLOT__BARS || s->kind == PLOT__HLINE || s->kind == PLOT__VLINE);
            if (!first) fputc(',', f);
            first = 0;
            if (j < s->n && pair) fprintf(f, "%.17g", s->x[j]);
            if (pair) fputc(',', f);
            if (j < s->n) fprintf(f, "%.17g", s->y[j]);
        }
        fputc('\n', f);
    }
    return fclose(f) == 0 ? 0 : -1;
}

int plot_chart_write(plot_chart *ch, const char *path) {
    plot__layout ly;
    plot_canvas c;
    plot__dev d;
    char other[1200];
    size_t n;
    int rc;
    if (!ch || !path) return -1;
    n = strlen(path);
    if (n < 5 || n >= sizeof other || strcmp(path + n - 4, ".png") != 0) return -1;
    plot__layout_init(ch, &ly);
    if (ly.pw < 20 || ly.ph < 20) return -1;
    if (plot__place_legend(ch, &ly) != 0 || ly.pw < 20 || ly.ph < 20) return -1;
    if (plot_canvas_init(&c, ch->w, ch->h, 0xFFFFFF)) return -1;
    d.c = &c; d.svg = NULL;
    plot__draw(ch, &ly, &d);
    rc = plot_canvas_write_png(&c, path);
    plot_canvas_free(&c);

    memcpy(other, path, n - 4);
    memcpy(other + n - 4, ".svg", 5);
    d.c = NULL;
    if (!(d.svg = fopen(other, "w"))) return -1;
    fprintf(d.svg, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
            ch->w, ch->h, ch->w, ch->h);
    plot__draw(ch, &ly, &d);
    fprintf(d.svg, "</svg>\n");
    if (fclose(d.svg) != 0) rc = -1;

    memcpy(other + n - 4, ".csv", 5);
    if (plot__write_csv(ch, other) != 0) rc = -1;
    return rc;
}
