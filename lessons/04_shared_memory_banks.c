/* Lesson 04: shared memory banks - which thread hits which bank, and what a
   conflict costs.

   Teaches: shared memory is 32 banks of 4 bytes; word w lives in bank w % 32.
   A warp's request takes as many passes as the most distinct words any one
   bank must deliver (the same word is broadcast). Stride 1 is free, stride 2
   is a 2-way conflict, stride 32 (reading a column of a 32x32 float tile) is
   32-way; padding rows to 33 floats or XOR-swizzling the column removes the
   conflict. Wider loads (float4: 16 bytes) are served in phases of 8 lanes,
   each a request of its own. Costs come from tc_sim_shared_passes and the
   cycle simulator.

   Run:    make tour        (or: build/lessons/04_shared_memory_banks)
   Prints: for each pattern the conflict degree and the simulated cycles of a
           shared load followed by a dependent FFMA on the a100 profile; a
           float4 load's passes, phase by phase.
   Writes: 04_banks.png  one panel per pattern: 32 threads (rows) x 32 banks
           (columns); a cell is coloured when the thread's word is in that
           bank, lighter for later passes.
   Exercise: at the end of the output. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "plot.h"
#include "timeline.h"

#include <stdio.h>
#include <string.h>

enum { LANES = 32, BANKS = 32, PATTERNS = 6 };

typedef struct { const char *name; uint32_t addr[LANES]; } pattern;

static void make_patterns(pattern *p) {
    int l;
    p[0].name = "stride 1";
    p[1].name = "stride 2";
    p[2].name = "stride 32 (column)";
    p[3].name = "stride 33 (padded)";
    p[4].name = "column, XOR swizzle";
    p[5].name = "same word (broadcast)";
    for (l = 0; l < LANES; l++) {
        p[0].addr[l] = (uint32_t)(l * 4);
        p[1].addr[l] = (uint32_t)(l * 2 * 4);
        p[2].addr[l] = (uint32_t)(l * 32 * 4);          /* tile[l][0] of float tile[32][32] */
        p[3].addr[l] = (uint32_t)(l * 33 * 4);          /* tile[l][0] of float tile[32][33] */
        p[4].addr[l] = (uint32_t)((l * 32 + (0 ^ l)) * 4); /* tile[l][0 ^ l]: column 0 stored swizzled */
        p[5].addr[l] = 40;
    }
}

/* Simulated cycles of: one shared load with this pattern, then a dependent FFMA. */
static long long simulate(const tc_sim_profile *g, const uint32_t *addr) {
    tc_sim_program prog;
    tc_sim_result r;
    long long c = -1;
    memset(&prog, 0, sizeof prog);
    if (tc_sim_build_shared_pattern(&prog, addr, 4) == TC_OK && tc_sim_run(g, &prog, NULL, &r) == TC_OK) {
        c = (long long)r.cycles;
        tc_sim_result_free(&r);
    }
    tc_sim_program_free(&prog);
    return c;
}

enum { CELL = 10, PANEL_W = 32 * CELL + 120, PANEL_H = 32 * CELL + 150 };

/* One panel: thread rows, bank columns; the cell shade says in which pass
   the word is served. With swizzle set the empty cells show the stored tile:
   cell (row l, bank b) holds tile[l][b ^ l], shaded by that logical column,
   so the XOR pattern (and logical column 0 on the diagonal) is visible. */
static void draw_panel(plot_canvas *c, int x0, int y0, const pattern *p, int passes, int swizzle, int order[LANES]) {
    int l, b;
    char label[64];
    /* pass of each lane: its word's rank among the distinct words of its bank */
    for (l = 0; l < LANES; l++) {
        uint32_t w = p->addr[l] / 4;
        int m, rank = 0;
        for (m = 0; m < l; m++) {
            uint32_t v = p->addr[m] / 4;
            int seen = 0, q;
            if (v % BANKS != w % BANKS || v == w) continue;
            for (q = 0; q < m; q++) if (p->addr[q] / 4 == v) seen = 1;   /* count each distinct word once */
            if (!seen) rank++;
        }
        order[l] = rank;
    }
    snprintf(label, sizeof label, "%s:", p->name);
    plot_text(c, x0, y0 - 2 * 12 * PLOT_TEXT_SCALE - 4, label, 0x000000, PLOT_TEXT_SCALE);
    snprintf(label, sizeof label, "%d pass%s", passes, passes == 1 ? "" : "es");
    plot_text(c, x0, y0 - 12 * PLOT_TEXT_SCALE - 2, label, 0x000000, PLOT_TEXT_SCALE);
    for (l = 0; l < LANES; l++)
        for (b = 0; b < BANKS; b++) {
            uint32_t fill = swizzle ? plot_diverging(0.46 - 0.36 * (double)(b ^ l) / (BANKS - 1)) : 0xF4F4F4;
            if ((int)(p->addr[l] / 4 % BANKS) == b) fill = plot_sequential(0.15 + 0.7 * (double)order[l] / (passes > 1 ? passes - 1 : 1));
            plot_rect(c, x0 + b * CELL, y0 + l * CELL, x0 + (b + 1) * CELL - 1, y0 + (l + 1) * CELL - 1, fill);
        }
    plot_text(c, x0, y0 + 32 * CELL + 4, "bank 0", 0x333333, PLOT_TEXT_SCALE);
    plot_text(c, x0 + 32 * CELL - plot_text_width("31", PLOT_TEXT_SCALE), y0 + 32 * CELL + 4, "31", 0x333333, PLOT_TEXT_SCALE);
    plot_text(c, x0 - 6 - plot_text_width("lane 0", PLOT_TEXT_SCALE), y0, "lane 0", 0x333333, PLOT_TEXT_SCALE);
    plot_text(c, x0 - 6 - plot_text_width("31", PLOT_TEXT_SCALE), y0 + 31 * CELL - 6, "31", 0x333333, PLOT_TEXT_SCALE);
    if (swizzle) {
        static const char *const note[3] = { "blue: cell holds", "tile[lane][bank ^ lane];", "column 0: the diagonal" };
        for (b = 0; b < 3; b++) plot_text(c, x0, y0 + 32 * CELL + 4 + (b + 1) * 12 * PLOT_TEXT_SCALE, note[b], 0x333333, PLOT_TEXT_SCALE);
    }
}

/* A width-byte load is served in phases of banks * bank_bytes / width lanes;
   tc_sim_shared_passes sums the phases, so each is asked about on its own
   (a float4 load without conflict is 4 passes: one per phase). */
static tc_status phase_passes(const tc_sim_profile *g, const uint32_t *addr, int width, int *per_phase, int *phases) {
    int lanes = g->banks * g->bank_bytes / width, p, l;
    if (lanes < 1 || lanes > LANES) return TC_ERR_ARG;
    *phases = LANES / lanes;
    for (p = 0; p < *phases; p++) {
        uint32_t phase[LANES] = { 0 };
        tc_status s;
        for (l = 0; l < lanes; l++) phase[l] = addr[p * lanes + l];
        s = tc_sim_shared_passes(phase, lanes, width, g->banks, g->bank_bytes, &per_phase[p]);
        if (s != TC_OK) return s;
    }
    return TC_OK;
}

/* The panels' data: for each pattern and lane, the byte address, bank and pass. */
static int write_csv(const char *path, const pattern *p, int order[PATTERNS][LANES]) {
    FILE *f = path ? fopen(path, "w") : NULL;
    int i, l;
    if (!f) return -1;
    fprintf(f, "pattern,lane,byte_address,bank,pass\n");
    for (i = 0; i < PATTERNS; i++)
        for (l = 0; l < LANES; l++)
            fprintf(f, "\"%s\",%d,%u,%u,%d\n", p[i].name, l, p[i].addr[l], p[i].addr[l] / 4 % BANKS, order[i][l] + 1);
    return fclose(f) == 0 ? 0 : -1;
}

int main(int argc, char **argv) {
    pattern p[PATTERNS];
    int order[PATTERNS][LANES];
    const tc_gpu *gpu = tc_gpu_find("a100");
    const tc_sim_profile *g;
    plot_canvas c;
    long long base;
    int i;
    if (plot_out_args(&argc, argv) != 0) return 2;
    if (argc > 1) { fprintf(stderr, "usage: %s [--out DIR]\n", argv[0]); return 2; }
    if (!gpu) { fprintf(stderr, "no GPU entry 'a100'\n"); return 1; }
    g = &gpu->profile;
    make_patterns(p);
    base = simulate(g, p[0].addr);
    printf("Shared memory: %d banks x %d bytes; bank of byte address a = (a / 4) %% 32.\n", g->banks, g->bank_bytes);
    printf("Each row: the conflict degree (passes) and the simulated cycles of LDS + dependent FFMA on %s\n", gpu->name);
    printf("(shared latency %d + FFMA %d = %lld cycles without conflict; each extra pass adds a cycle).\n\n", g->shared_latency,
           g->ffma_latency, base);
    {   /* the program each row runs, as tcsim's .tcs text (docs/tcs.md): the table is the pattern */
        tc_sim_program prog;
        memset(&prog, 0, sizeof prog);
        printf("Each row runs this warp program, with its pattern as the lane table (here %s):\n", p[2].name);
        if (tc_sim_build_shared_pattern(&prog, p[2].addr, 4) != TC_OK || tcsim_print_program(&prog, stdout, "  | ") != 0) {
            fprintf(stderr, "cannot build or print the shared-pattern program\n");
            tc_sim_program_free(&prog);
            return 1;
        }
        tc_sim_program_free(&prog);
        printf("\n");
    }
    printf("%-24s %7s %7s   banks of lanes 0..7\n", "pattern", "passes", "cycles");
    if (plot_canvas_init(&c, 3 * PANEL_W + 60, 2 * PANEL_H + 120, 0xFFFFFF) != 0) return 1;
    plot_text(&c, 10, 8, "which thread (row) hits which bank (column)", 0x000000, PLOT_TEXT_SCALE);
    plot_text(&c, 10, 8 + 12 * PLOT_TEXT_SCALE, "pass:", 0x000000, PLOT_TEXT_SCALE);
    for (i = 0; i < 2; i++) {   /* the two ends of the pass shading */
        int x = 20 + plot_text_width("pass:", PLOT_TEXT_SCALE) + i * 160;
        plot_rect(&c, x, 8 + 12 * PLOT_TEXT_SCALE, x + 20, 8 + 12 * PLOT_TEXT_SCALE + 18, plot_sequential(i ? 0.85 : 0.15));
        plot_text(&c, x + 26, 8 + 12 * PLOT_TEXT_SCALE, i ? "last" : "first", 0x000000, PLOT_TEXT_SCALE);
    }
    for (i = 0; i < PATTERNS; i++) {
        int passes = 0, l;
        tc_status s = tc_sim_shared_passes(p[i].addr, LANES, 4, g->banks, g->bank_bytes, &passes);
        if (s != TC_OK) {
            fprintf(stderr, "tc_sim_shared_passes(%s): %s\n", p[i].name, tc_status_string(s));
            plot_canvas_free(&c);
            return 1;
        }
        printf("%-24s %7d %7lld  ", p[i].name, passes, simulate(g, p[i].addr));
        for (l = 0; l < 8; l++) printf(" %2u", p[i].addr[l] / 4 % BANKS);
        printf("\n");
        draw_panel(&c, 100 + (i % 3) * PANEL_W, 140 + (i / 3) * PANEL_H, &p[i], passes, i == 4, order[i]);
    }
    if (plot_canvas_write_png(&c, plot_out("04_banks.png")) == 0 && write_csv(plot_out("04_banks.csv"), p, order) == 0)
        printf("\nwrote 04_banks.png\n");
    plot_canvas_free(&c);
    {   /* float4 loads: lane l reads float4 number l */
        uint32_t v4[LANES];
        int per_phase[LANES], phases, total = 0, l;
        tc_status s;
        for (l = 0; l < LANES; l++) v4[l] = (uint32_t)(l * 16);
        s = phase_passes(g, v4, 16, per_phase, &phases);
        if (s == TC_OK) s = tc_sim_shared_passes(v4, LANES, 16, g->banks, g->bank_bytes, &total);
        if (s != TC_OK) { fprintf(stderr, "float4 passes: %s\n", tc_status_string(s)); return 1; }
        printf("\nfloat4 (16-byte) loads, lane l reads float4 l: %d phases of %d lanes; passes per phase", phases, LANES / phases);
        for (l = 0; l < phases; l++) printf(" %d", per_phase[l]);
        printf(",\ntotal %d (what tc_sim_shared_passes(addr, 32, 16, %d, %d) returns: the sum over phases, so\n"
               "%d is the ideal for a float4 load, not a %d-way conflict).\n", total, g->banks, g->bank_bytes, phases, phases);
    }
    printf("\nExercise: give lane l the float4 at stride S float4s (byte address 16 * S * l) and print the\n"
           "passes of each phase as above (phase_passes). Find the smallest S that makes every phase 8-way\n"
           "conflicted (total 32), and the smallest row padding that brings each phase back to 1 pass. A\n"
           "float4 must stay 16-byte aligned: tc_sim_shared_passes refuses (TC_ERR_ARG, passes untouched)\n"
           "an address that is not a multiple of 16, so pad by whole float4s and check the status. Then\n"
           "design a swizzle for a 64x64 half-precision tile read by column (two 2-byte elements share a\n"
           "word: pass the word's address) that makes every column a single pass.\n");
    return 0;
}
