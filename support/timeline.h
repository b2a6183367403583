/* timeline.h - pictures of a tc_sim_run result, shared by tcsim and the
   lessons: a timeline PNG (one row per warp, a colour per warp state, a
   legend) drawn with support/plot.h with the segments as CSV beside it, and
   a Chrome/Perfetto trace-event JSON
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

/* The segments behind a timeline picture as CSV (warp, state, first cycle,
   end cycle), written beside a PNG path: "t.png" gives "t.csv". */
static inline int tcsim_write_timeline_csv(const tc_sim_result *r, const char *png_path, int rows) {
    char path[1200];
    size_t n = strlen(png_path);
    FILE *f;
    int w;
    if (n < 5 || n >= sizeof path || strcmp(png_path + n - 4, ".png") != 0) return 0;   /* no .png: no CSV beside it */
    memcpy(path, png_path, n - 4);
    memcpy(path + n - 4, ".csv", 5);
    if (!(f = fopen(path, "w"))) return -1;
    fprintf(f, "warp,state,start_cycle,end_cycle\n");
    for (w = 0; w < rows; w++) {
        int64_t i, last = r->warp_segments[w + 1];
        for (i = r->warp_segments[w]; i < last; i++)
            fprintf(f, "%d,%s,%lld,%lld\n", w, tc_sim_state_name((tc_sim_state)r->segments[i].state), (long long)r->segments[i].start,
                    (long long)(i + 1 < last ? r->segments[i + 1].start : r->cycles));
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* At most max_rows warps (0 = all, capped at 256) are drawn; the drawn
   warps' segments also go to a CSV beside the PNG. */
static inline int tcsim_write_timeline_png(const tc_sim_result *r, const char *title, const char *path, int max_rows) {
    enum { S = PLOT_TEXT_SCALE, LEFT = 80, RIGHT = 30, TOP = 52, PLOT_W = 1000, AXIS = 36 * S, LEGEND = 4 * 14 * S };
    plot_canvas c;
    int rows, row_h, w, k, x, h, rc;
    char label[64];
    if (!r || !path || !r->segments || !r->warp_segments || r->cycles <= 0) return -1;
    rows = r->warps;
    if (max_rows <= 0 || max_rows > 256) max_rows = 256;
    if (rows > max_rows) rows = max_rows;
    row_h = rows <= 16 ? 24 : rows <= 64 ? 8 : 2;
    h = TOP + rows * row_h + AXIS + LEGEND;
    if (plot_canvas_init(&c, LEFT + PLOT_W + RIGHT, h, 0xFFFFFF) != 0) return -1;
    plot_text(&c, LEFT, 12, title ? title : "warp timeline", 0x000000, S);
    plot_text(&c, LEFT + 1, 12, title ? title : "warp timeline", 0x000000, S);
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
        if (row_h >= 12 * S || w % 8 == 0) {   /* label rows as densely as the text height allows */
            snprintf(label, sizeof label, "w%d", w);
            plot_text(&c, LEFT - 8 - plot_text_width(label, S), y, label, 0x000000, S);
        }
    }
    /* cycle axis: ticks at 0, 1/4, ..., the end */
    for (k = 0; k <= 4; k++) {
        x = LEFT + k * PLOT_W / 4;
        plot_line(&c, x, TOP + rows * row_h, x, TOP + rows * row_h + 6, 0x000000, 1);
        snprintf(label, sizeof label, "%lld", (long long)(r->cycles * k / 4));
        plot_text(&c, x - plot_text_width(label, S) / 2, TOP + rows * row_h + 10, label, 0x000000, S);
    }
    plot_text(&c, LEFT + (PLOT_W - plot_text_width("cycle", S)) / 2, TOP + rows * row_h + 12 + 12 * S, "cycle", 0x000000, S);
    for (k = 0; k < TC_SIM_STATE_COUNT; k++) {
        int lx = 10 + (k % 3) * 360, ly = h - LEGEND + 6 + (k / 3) * 14 * S;
        plot_rect(&c, lx, ly, lx + 20, ly + 20, tcsim_state_colour(k));
        plot_line(&c, lx, ly, lx + 19, ly, 0x999999, 1);   /* a frame, so the near-white "exited" swatch shows */
        plot_line(&c, lx, ly + 19, lx + 19, ly + 19, 0x999999, 1);
        plot_line(&c, lx, ly, lx, ly + 19, 0x999999, 1);
        plot_line(&c, lx + 19, ly, lx + 19, ly + 19, 0x999999, 1);
        snprintf(label, sizeof label, "%s %.0f%%", tc_sim_state_name((tc_sim_state)k),
                 100.0 * (double)r->state_cycles[k] / ((double)r->warps * (double)r->cycles));
        plot_text(&c, lx + 28, ly + 2, label, 0x000000, S);
    }
    rc = plot_canvas_write_png(&c, path);
    plot_canvas_free(&c);
    if (rc == 0) rc = tcsim_write_timeline_csv(r, path, rows);
    return rc;
}

/* Instruction pc's .tcs text, lines[pc] for pc < n (the printer's indented
   lines, in order), in one allocation: free(lines) frees it. NULL if the
   program cannot be printed or does not have n instructions. */
static inline char **tcsim_program_lines(const tc_sim_program *p, int n) {
    size_t need = 0;
    char **lines, *text, *line;
    int k = 0;
    if (!p || n < 1 || tc_sim_program_print(p, NULL, 0, &need) != TC_OK) return NULL;
    lines = (char **)malloc((size_t)n * sizeof *lines + need + 1);
    if (!lines) return NULL;
    text = (char *)(lines + n);
    if (tc_sim_program_print(p, text, need + 1, NULL) != TC_OK) { free(lines); return NULL; }
    for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
        if (strncmp(line, "    ", 4) == 0 && k < n) lines[k++] = line + 4;
    if (k != n) { free(lines); return NULL; }
    return lines;
}

/* Trace events: process = SM, thread = warp, one complete event per segment,
   its instruction in the event's args: pc, and with the program (p may be
   NULL) its .tcs text as "instr" (each instruction its own event when the
   run had per_instruction); 1 cycle is written as 1 microsecond so the
   viewer's ruler reads cycles. The .tcs text has no quotes or backslashes. */
static inline int tcsim_write_trace_json(const tc_sim_result *r, const tc_sim_program *p, const char *path) {
    FILE *f;
    int w, first = 1;
    char **lines;
    if (!r || !path || !r->segments || !r->warp_segments) return -1;
    f = fopen(path, "w");
    if (!f) return -1;
    lines = p ? tcsim_program_lines(p, p->n) : NULL;
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
            fprintf(f, ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%lld,\"dur\":%lld,\"args\":{\"pc\":%d",
                    tc_sim_state_name((tc_sim_state)r->segments[i].state), sm, local,
                    (long long)r->segments[i].start, (long long)(end - r->segments[i].start), (int)r->segments[i].pc);
            if (lines && r->segments[i].pc >= 0 && r->segments[i].pc < p->n) fprintf(f, ",\"instr\":\"%s\"", lines[r->segments[i].pc]);
            fprintf(f, "}}");
        }
    }
    free(lines);
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
