/* Lesson 04: shared memory banks - which thread hits which bank, and what a
   conflict costs.

   Teaches: shared memory is 32 banks of 4 bytes; word w lives in bank w % 32.
   A warp's request takes as many passes as the most distinct words any one
   bank must deliver (the same word is broadcast). Stride 1 is free, stride 2
   is a 2-way conflict, stride 32 (reading a column of a 32x32 float tile) is
   32-way; padding rows to 33 floats or XOR-swizzling the column removes the
   conflict. Costs come from tc_sim_shared_passes and the cycle simulator.

   Run:    make tour        (or: build/lessons/04_shared_memory_banks)
   Prints: for each pattern the conflict degree and the simulated cycles of a
           shared load followed by a dependent FFMA on the a100 profile.
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

/* One panel: thread rows, bank columns; the cell shade says in which pass the word is served. */
static void draw_panel(plot_canvas *c, int x0, int y0, const pattern *p, int passes) {
    enum { CELL = 9 };
    int l, b, order[LANES];
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
    snprintf(label, sizeof label, "%s: %d pass%s", p->name, passes, passes == 1 ? "" : "es");
    plot_text(c, x0, y0 - 16, label, 0x000000, 1);
    for (l = 0; l < LANES; l++)
        for (b = 0; b < BANKS; b++) {
            uint32_t fill = 0xF4F4F4;
            if ((int)(p->addr[l] / 4 % BANKS) == b) fill = plot_sequential(0.15 + 0.7 * (double)order[l] / (passes > 1 ? passes - 1 : 1));
            plot_rect(c, x0 + b * CELL, y0 + l * CELL, x0 + (b + 1) * CELL - 1, y0 + (l + 1) * CELL - 1, fill);
        }
}

int main(void) {
    pattern p[PATTERNS];
    const tc_gpu *gpu = tc_gpu_find("a100");
    const tc_sim_profile *g;
    plot_canvas c;
    long long base;
    int i;
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
    if (plot_canvas_init(&c, 3 * 320 + 20, 2 * 340 + 40, 0xFFFFFF) != 0) return 1;
    plot_text(&c, 10, 6, "which thread (row) hits which bank (column); lighter = later pass", 0x000000, 1);
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
        draw_panel(&c, 20 + (i % 3) * 320, 50 + (i / 3) * 340, &p[i], passes);
    }
    if (plot_canvas_write_png(&c, "04_banks.png") == 0) printf("\nwrote 04_banks.png\n");
    plot_canvas_free(&c);
    printf("\nExercise: 16-byte loads (float4) are served in 4 phases of 8 threads. With\n"
           "tc_sim_shared_passes(addr, 32, 16, 32, 4), find the stride (in float4s) that makes a\n"
           "float4 load 8-way conflicted, and the padding that fixes it. Then design a swizzle for a\n"
           "64x64 half-precision tile read by column (2-byte elements: two share a word).\n");
    return 0;
}
