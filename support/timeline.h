/* timeline.h - pictures of a tc_sim_run result, shared by tcsim and the
   lessons: a timeline PNG (one row per warp, a colour per warp state, a
   legend) drawn with support/plot.h, and a Chrome/Perfetto trace-event JSON
   (open it at ui.perfetto.dev or chrome://tracing). Both need a result run
   with record_timeline = 1. Also the program itself as .tcs text
   (docs/tcs.md), so that tcsim and the lessons show the very program they
   simulate. Functions return 0 on success, -1 on failure. */
#ifndef TCSIM_TIMELINE_H
#define TCSIM_TIMELINE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tensorcore.h"
#include "plot.h"

/* One colour per tc_sim_state, in enum order. */
static inline uint32_t tcsim_state_colour(int state) {
    static const uint32_t colours[TC_SIM_STATE_COUNT] = {
        0x2CA02C,  /* selected: green, the warp issues */
        0xB5E3B5,  /* not_selected: pale green, ready but another warp issued */
        0xD62728,  /* long_scoreboard: red, global memory */
        0xFF9F40,  /* short_scoreboard: orange, shared memory */
        0x9467BD,  /* wait: purple, FFMA/MMA latency */
        0x1F77B4,  /* math_pipe_throttle: blue */
        0x7F7F7F,  /* barrier: grey */
        0xF2F2F2,  /* exited: near white */
    };
    return state >= 0 && state < TC_SIM_STATE_COUNT ? colours[state] : 0x000000;
}

/* At most max_rows warps (0 = all, capped at 256) are drawn. */
static inline int tcsim_write_timeline_png(const tc_sim_result *r, const char *title, const char *path, int max_rows) {
    enum { LEFT = 70, RIGHT = 20, TOP = 40, PLOT_W = 1000, LEGEND = 70 };
    plot_canvas c;
    int rows, row_h, w, k, x, h, rc;
    char label[64];
    if (!r || !path || !r->segments || !r->warp_segments || r->cycles <= 0) return -1;
    rows = r->warps;
    if (max_rows <= 0 || max_rows > 256) max_rows = 256;
    if (rows > max_rows) rows = max_rows;
    row_h = rows <= 16 ? 16 : rows <= 64 ? 6 : 2;
    h = TOP + rows * row_h + 30 + LEGEND;
    if (plot_canvas_init(&c, LEFT + PLOT_W + RIGHT, h, 0xFFFFFF) != 0) return -1;
    plot_text(&c, LEFT, 10, title ? title : "warp timeline", 0x000000, 2);
    for (w = 0; w < rows; w++) {
        int64_t i, first = r->warp_segments[w], last = r->warp_segments[w + 1];
        int y = TOP + w * row_h;
        for (i = first; i < last; i++) {
            int64_t end = i + 1 < last ? r->segments[i + 1].start : r->cycles;
            int x0 = LEFT + (int)(r->segments[i].start * PLOT_W / r->cycles);
            int x1 = LEFT + (int)(end * PLOT_W / r->cycles);
            if (x1 == x0) x1 = x0 + 1;   /* a one-cycle issue stays visible */
            plot_rect(&c, x0, y, x1, y + row_h - (row_h > 4), tcsim_state_colour(r->segments[i].state));
        }
        if (row_h >= 12 || w % 8 == 0) {
            snprintf(label, sizeof label, "w%d", w);
            plot_text(&c, 8, y, label, 0x000000, 1);
        }
    }
    /* cycle axis: ticks at 0, 1/4, ..., the end */
    for (k = 0; k <= 4; k++) {
        x = LEFT + k * PLOT_W / 4;
        plot_line(&c, x, TOP + rows * row_h, x, TOP + rows * row_h + 5, 0x000000, 1);
        snprintf(label, sizeof label, "%lld", (long long)(r->cycles * k / 4));
        plot_text(&c, x - plot_text_width(label, 1) / 2, TOP + rows * row_h + 8, label, 0x000000, 1);
    }
    plot_text(&c, LEFT + PLOT_W / 2 - 20, TOP + rows * row_h + 20, "cycle", 0x000000, 1);
    for (k = 0; k < TC_SIM_STATE_COUNT; k++) {
        int lx = LEFT + (k % 4) * 250, ly = h - LEGEND + 10 + (k / 4) * 24;
        plot_rect(&c, lx, ly, lx + 14, ly + 14, tcsim_state_colour(k));
        snprintf(label, sizeof label, "%s %.0f%%", tc_sim_state_name((tc_sim_state)k),
                 100.0 * (double)r->state_cycles[k] / ((double)r->warps * (double)r->cycles));
        plot_text(&c, lx + 20, ly + 2, label, 0x000000, 1);
    }
    rc = plot_canvas_write_png(&c, path);
    plot_canvas_free(&c);
    return rc;
}

/* Trace events: process = SM, thread = warp, one complete event per segment,
   its instruction (pc) in the event's args (each instruction its own event
   when the run had per_instruction); 1 cycle is written as 1 microsecond so
   the viewer's ruler reads cycles. */
static inline int tcsim_write_trace_json(const tc_sim_result *r, const char *path) {
    FILE *f;
    int w, first = 1;
    if (!r || !path || !r->segments || !r->warp_segments) return -1;
    f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
    for (w = 0; w < r->warps; w++) {
        int64_t i, last = r->warp_segments[w + 1];
        int sm = w / r->warps_per_sm, local = w % r->warps_per_sm;
        fprintf(f, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"warp %d\"}}", first ? "" : ",\n",
                sm, local, local);
        first = 0;
        for (i = r->warp_segments[w]; i < last; i++) {
            int64_t end = i + 1 < last ? r->segments[i + 1].start : r->cycles;
            if (r->segments[i].state == TC_SIM_EXITED) continue;
            fprintf(f, ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%lld,\"dur\":%lld,\"args\":{\"pc\":%d}}",
                    tc_sim_state_name((tc_sim_state)r->segments[i].state), sm, local,
                    (long long)r->segments[i].start, (long long)(end - r->segments[i].start), (int)r->segments[i].pc);
        }
    }
    fprintf(f, "\n]}\n");
    return fclose(f) == 0 ? 0 : -1;
}
/* The program as .tcs text on out, each line after `indent`. */
static inline int tcsim_print_program(const tc_sim_program *p, FILE *out, const char *indent) {
    size_t need = 0;
    char *buf, *line;
    if (tc_sim_program_print(p, NULL, 0, &need) != TC_OK || !(buf = (char *)malloc(need + 1))) return -1;
    if (tc_sim_program_print(p, buf, need + 1, NULL) != TC_OK) { free(buf); return -1; }
    for (line = buf; *line;) {
        char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        fprintf(out, "%s%.*s\n", indent ? indent : "", (int)n, line);
        line += n + (end != NULL);
    }
    free(buf);
    return 0;
}

#endif
