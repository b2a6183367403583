/* measured.h - the published GPU measurements of tests/measured/dataset.csv
   and the simulator's prediction for each row, shared by tcsim (tcsim
   validate), the lessons (measured beside simulated) and the tests.

   A row names a GPU as its source does ("A100-80GB", "H200" standing in for
   an H100); measured_gpu() maps it to the header's GPU entry. The
   prediction runs section 5's simulator (or section 6's tiling model for
   GEMM kernels) under the row's conditions: dependent-load chains for
   latencies, independent instruction streams for rates, streaming kernels
   for bandwidths (an L1 hit as a shared-path load with the profile's L1
   latency). A row the model cannot predict (a CUDA graph replay; a whole
   network) gets a reason instead, and
   counts as unpredicted. Header-only: include it in one file per program.
   Functions return tc_status; load errors say "file:line: message". */
#ifndef TC_MEASURED_H
#define TC_MEASURED_H
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tensorcore.h"

/* Where `make` builds from: the dataset's path is fixed at compile time so
   that lessons run from any folder find it; tcsim validate --dataset FILE
   reads another. */
#ifndef TC_DATASET
#define TC_DATASET "tests/measured/dataset.csv"
#endif

typedef struct {
    int line;                           /* in the file, 1-based */
    char id[64], gpu[32], proxy_for[16], category[16], quantity[32], unit[16], set[16];
    char conditions[512], params[256], source[256];
    double value, clock_mhz;            /* clock 0: the source does not state it */
} measured_row;

typedef struct {
    measured_row *rows;
    int n;
} measured_set;

/* The columns, in file order; the header row must name exactly these. */
static const char *const measured_columns[] = {
    "id", "gpu", "proxy_for", "clock", "category", "quantity", "conditions", "params",
    "value", "unit", "set", "source", "notes"
};
enum { MEASURED_NCOLS = (int)(sizeof measured_columns / sizeof measured_columns[0]) };

/* The quantities the file may hold and the unit each must use (l2_bandwidth
   has two: whole-GPU GB/s or bytes per clock). */
static const struct { const char *quantity, *unit; } measured_units[] = {
    { "l1_hit_latency", "cycles" }, { "shared_load_latency", "cycles" }, { "l2_hit_latency", "cycles" },
    { "dram_latency", "cycles" }, { "ffma_latency", "cycles" }, { "ffma_throughput", "FLOP/clk/SM" },
    { "mma_latency", "cycles" }, { "mma_throughput", "TFLOP/s" }, { "shared_bandwidth", "B/clk/SM" },
    { "l1_bandwidth", "B/clk/SM" },
    { "l2_bandwidth", "GB/s" }, { "l2_bandwidth", "B/clk" }, { "dram_read_bandwidth", "GB/s" },
    { "dram_copy_bandwidth", "GB/s" }, { "dram_triad_bandwidth", "GB/s" }, { "launch_back_to_back", "us" },
    { "launch_graph", "us" }, { "gemm_tflops", "TFLOP/s" }, { "sparse_speedup", "x" }, { "fusion_time", "us" },
};

static inline void measured_free(measured_set *s) {
    if (!s) return;
    free(s->rows);
    s->rows = NULL;
    s->n = 0;
}

/* One RFC 4180 record: fields into cells (each cap bytes), quotes undone.
   *line advances over the newlines it reads. Returns the number of fields,
   0 at end of file, -1 on a malformed or oversized record. */
static inline int measured__record(FILE *f, char cells[][512], int max_cells, int *line) {
    int n = 0, len = 0, quoted = 0, c, any = 0;
    cells[0][0] = '\0';
    for (;;) {
        c = fgetc(f);
        if (c == EOF) {
            if (quoted) return -1;
            if (!any) return 0;
            break;
        }
        any = 1;
        if (quoted) {
            if (c == '"') {
                int d = fgetc(f);
                if (d == '"') { if (len >= 511) return -1; cells[n][len++] = '"'; continue; }
                quoted = 0;
                if (d == EOF) break;
                c = d;
            } else {
                if (c == '\n') (*line)++;
                if (len >= 511) return -1;
                cells[n][len++] = (char)c;
                continue;
            }
        }
        if (c == '"' && len == 0) { quoted = 1; continue; }
        if (c == ',') {
            cells[n][len] = '\0';
            if (++n >= max_cells) return -1;
            len = 0;
            cells[n][0] = '\0';
            continue;
        }
        if (c == '\r') continue;
        if (c == '\n') { (*line)++; break; }
        if (len >= 511) return -1;
        cells[n][len++] = (char)c;
    }
    cells[n][len] = '\0';
    return n + 1;
}

static inline tc_status measured__fail(char *err, size_t cap, const char *path, int line, const char *msg, const char *what) {
    if (err && cap) snprintf(err, cap, "%.200s:%d: %.120s%s%.120s", path, line, msg, what ? ": " : "", what ? what : "");
    return TC_ERR_ARG;
}

static inline int measured__copy(char *dst, size_t cap, const char *src) {
    if (strlen(src) >= cap) return -1;
    memcpy(dst, src, strlen(src) + 1);
    return 0;
}

/* A number and nothing else; 0 if the text is not one. */
static inline int measured__number(const char *s, double *out) {
    char *end;
    if (!*s) return 0;
    *out = strtod(s, &end);
    return *end == '\0' && isfinite(*out);
}

/* params: the value of `key` in "k1=v1;k2=v2" into out; 0 if absent. A
   value too long for out comes back as "" (present), which every caller's
   parse refuses: an over-long value must never read as an absent one and
   let a default stand in for it. */
static inline int measured_param(const measured_row *r, const char *key, char *out, size_t cap) {
    const char *p = r->params;
    size_t klen = strlen(key);
    if (cap == 0) return 0;
    while (*p) {
        const char *end = strchr(p, ';');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > klen && strncmp(p, key, klen) == 0 && p[klen] == '=') {
            size_t v = n - klen - 1;
            if (v >= cap) v = 0;
            memcpy(out, p + klen + 1, v);
            out[v] = '\0';
            return 1;
        }
        p += n + (end ? 1 : 0);
    }
    return 0;
}

static inline int measured_param_int(const measured_row *r, const char *key, long *out) {
    char buf[32], *end;
    if (!measured_param(r, key, buf, sizeof buf)) return 0;
    *out = strtol(buf, &end, 10);
    return *end == '\0' && *out > 0 && *out <= (1L << 30);
}

/* A source someone who clones the repository can check: a file at a commit,
   github:owner/repo@commit:path, or a GitHub issue or pull-request thread,
   https://github.com/owner/repo/issues/N or .../pull/N (optionally with a
   #anchor), for numbers posted only in a thread (its notes name the comment's
   author and date). */
static inline int measured_source_ok(const char *s) {
    static const char *const kinds[] = { "/issues/", "/pull/" };
    const char *owner, *kind = NULL;
    size_t i;
    if (!s) return 0;
    if (strncmp(s, "github:", 7) == 0) return strchr(s, '@') && strchr(s, '@')[1] && strchr(s, '@')[1] != ':' && strchr(strchr(s, '@'), ':');
    if (strncmp(s, "https://github.com/", 19) != 0) return 0;
    owner = s + 19;
    for (i = 0; i < sizeof kinds / sizeof kinds[0] && !kind; i++) kind = strstr(owner, kinds[i]);
    if (!kind || kind == owner || !strchr(owner, '/') || strchr(owner, '/') == kind) return 0;   /* owner/repo before it */
    kind = strchr(kind + 1, '/') + 1;
    if (!isdigit((unsigned char)*kind)) return 0;
    while (isdigit((unsigned char)*kind)) kind++;
    return *kind == '\0' || *kind == '#';
}

/* Checks one row beyond its cells' syntax; NULL if fine, else what is wrong. */
static inline const char *measured__check(const measured_row *r) {
    static const char *const keys[] = { "instr", "warps", "bytes", "m", "n", "k", "out", "kernel", "cta", "stages",
                                        "elements", "elem_bytes", "kernels", "reads", "writes", "fills", "in", "warp", "lanes", "regs", "math", "timed", "host_us", "sparse",
                                        "rounds" };
    const char *p = r->params;
    int i, unit_ok = 0, known = 0;
    static const char *const categories[] = { "latency", "throughput", "bandwidth", "launch", "gemm", "sparse", "fusion" };
    int category_ok = 0;
    for (i = 0; i < (int)(sizeof categories / sizeof categories[0]); i++) category_ok |= strcmp(categories[i], r->category) == 0;
    if (!category_ok) return "unknown category";
    if (!r->id[0]) return "empty id";
    if (!r->gpu[0]) return "empty gpu";
    if (!measured_source_ok(r->source))
        return "source must be github:owner/repo@commit:path or https://github.com/owner/repo/(issues|pull)/N";
    if (strcmp(r->set, "calibration") != 0 && strcmp(r->set, "validation") != 0) return "set must be calibration or validation";
    if (r->proxy_for[0] && strcmp(r->proxy_for, "h100") != 0 && strcmp(r->proxy_for, "rtx4090") != 0)
        return "proxy_for must be empty, h100 or rtx4090";
    for (i = 0; i < (int)(sizeof measured_units / sizeof measured_units[0]); i++)
        if (strcmp(measured_units[i].quantity, r->quantity) == 0) {
            known = 1;
            if (strcmp(measured_units[i].unit, r->unit) == 0) unit_ok = 1;
        }
    if (!known) return "unknown quantity";
    if (!unit_ok) return "unit does not fit the quantity";
    if (!(r->value > 0)) return "value must be a positive number";
    while (*p) {   /* every params key is one the predictor reads */
        const char *eq = strchr(p, '='), *end = strchr(p, ';');
        size_t n = eq ? (size_t)(eq - p) : 0;
        int ok = 0;
        if (!eq || (end && eq > end)) return "params must be key=value pairs separated by ';'";
        for (i = 0; i < (int)(sizeof keys / sizeof keys[0]); i++)
            if (strlen(keys[i]) == n && strncmp(keys[i], p, n) == 0) ok = 1;
        if (!ok) return "unknown params key";
        p = end ? end + 1 : p + strlen(p);
    }
    return NULL;
}

/* Reads the whole file. TC_ERR_ARG with "path:line: message" in err for a
   malformed file or row (nothing is kept), TC_ERR_NOMEM, TC_ERR_NULL. */
static inline tc_status measured_load(const char *path, measured_set *out, char *err, size_t cap) {
    static char cells[MEASURED_NCOLS + 1][512];
    FILE *f;
    int line = 1, start, n, i, j, alloc = 0;
    tc_status st = TC_OK;
    if (!path || !out) return TC_ERR_NULL;
    out->rows = NULL;
    out->n = 0;
    f = fopen(path, "rb");
    if (!f) {
        if (err && cap) snprintf(err, cap, "%.400s: cannot open", path);
        return TC_ERR_ARG;
    }
    n = measured__record(f, cells, MEASURED_NCOLS + 1, &line);
    if (n != MEASURED_NCOLS) st = measured__fail(err, cap, path, 1, "the header row must have these columns", "id,gpu,proxy_for,clock,category,quantity,conditions,params,value,unit,set,source,notes");
    for (i = 0; st == TC_OK && i < MEASURED_NCOLS; i++)
        if (strcmp(cells[i], measured_columns[i]) != 0) st = measured__fail(err, cap, path, 1, "unexpected column", cells[i]);
    while (st == TC_OK) {
        measured_row r;
        const char *bad;
        start = line;
        n = measured__record(f, cells, MEASURED_NCOLS + 1, &line);
        if (n == 0) break;
        if (n < 0) break;   /* reported below */
        if (n != MEASURED_NCOLS) { st = measured__fail(err, cap, path, start, "wrong number of fields (or a field over 511 bytes)", NULL); break; }
        memset(&r, 0, sizeof r);
        r.line = start;
        if (measured__copy(r.id, sizeof r.id, cells[0]) || measured__copy(r.gpu, sizeof r.gpu, cells[1]) ||
            measured__copy(r.proxy_for, sizeof r.proxy_for, cells[2]) || measured__copy(r.category, sizeof r.category, cells[4]) ||
            measured__copy(r.quantity, sizeof r.quantity, cells[5]) || measured__copy(r.conditions, sizeof r.conditions, cells[6]) ||
            measured__copy(r.params, sizeof r.params, cells[7]) || measured__copy(r.unit, sizeof r.unit, cells[9]) ||
            measured__copy(r.set, sizeof r.set, cells[10]) || measured__copy(r.source, sizeof r.source, cells[11])) {
            st = measured__fail(err, cap, path, start, "a field is too long", NULL);
            break;
        }
        if (cells[3][0] && !measured__number(cells[3], &r.clock_mhz)) { st = measured__fail(err, cap, path, start, "clock is not a number", cells[3]); break; }
        if (!measured__number(cells[8], &r.value)) { st = measured__fail(err, cap, path, start, "value is not a number", cells[8]); break; }
        if ((bad = measured__check(&r)) != NULL) { st = measured__fail(err, cap, path, start, bad, r.id); break; }
        for (j = 0; j < out->n; j++)
            if (strcmp(out->rows[j].id, r.id) == 0) break;
        if (j < out->n) { st = measured__fail(err, cap, path, start, "duplicate id", r.id); break; }
        if (out->n == alloc) {
            measured_row *grown = (measured_row *)realloc(out->rows, (size_t)(alloc ? 2 * alloc : 64) * sizeof *grown);
            if (!grown) { st = TC_ERR_NOMEM; break; }
            out->rows = grown;
            alloc = alloc ? 2 * alloc : 64;
        }
        out->rows[out->n++] = r;
    }
    if (n < 0 && st == TC_OK) st = measured__fail(err, cap, path, start, "malformed record (unbalanced quotes or a field over 511 bytes)", NULL);
    fclose(f);
    if (st != TC_OK) measured_free(out);
    return st;
}

/* Which GPU entry models which device. The a100 entry is the SXM4 part
   (108 SMs; its DRAM figure is the 40 GB part's), so the other A100s
   differ from it only in memory bandwidth; the h100 entry is the SXM5 part,
   and the PCIe card (114 SMs, HBM2e) has no entry. A row whose device is
   not here is modelled only through its proxy_for. dram_gbs: the device's
   datasheet DRAM peak (SPEC: A100 40 GB 1555, 80 GB SXM4 2039, H100 SXM5
   3352, V100 900, RTX 3090 936, RTX 4090 1008, RTX 5090 1792, B200 and GB200
   8000 GB/s), 0 where the row does not say which memory the card has; own
   marks the device whose memory the entry's profile was calibrated on. A
   GB200's GPU has the B200's dies and HBM3e under another power budget: modelled by
   b200, whose DRAM figure its rows set. The L40 (the RTX 4090's
   AD102 die with GDDR6) has no entry: its rows reach rtx4090 only through
   proxy_for, for what the die decides (cycles of L1 and L2 latency). */
static const struct { const char *device, *model; double dram_gbs; int own; } measured_devices[] = {
    { "A100", "a100", 0, 0 }, { "A100-40GB", "a100", 1555, 1 }, { "A100-80GB", "a100", 2039, 0 }, { "A100-PCIe", "a100", 0, 0 },
    { "A100-SXM4-80GB", "a100", 2039, 0 }, { "H100", "h100", 0, 0 }, { "H100-SXM5-80GB", "h100", 3352, 1 }, { "V100", "v100", 900, 1 },
    { "V100-32GB", "v100", 900, 1 }, { "V100-SXM2-16GB", "v100", 900, 1 }, { "RTX3090", "rtx3090", 936, 1 },
    { "RTX4090", "rtx4090", 1008, 1 }, { "B200", "b200", 8000, 0 }, { "GB200", "b200", 8000, 1 },
    { "RTX5090", "rtx5090", 1792, 1 },
};

/* The header's model of the row's GPU; NULL if none. *dram_scale (may be
   NULL): the device's DRAM peak over the peak of the memory the profile
   was calibrated on (1: the same memory), so that the profile's achieved
   fraction of peak carries over to another memory; 0 if unknown. */
static inline const tc_gpu *measured_gpu_of(const measured_row *r, double *dram_scale) {
    size_t i, j;
    if (dram_scale) *dram_scale = 0.0;
    if (r->proxy_for[0]) return tc_gpu_find(r->proxy_for);
    for (i = 0; i < sizeof measured_devices / sizeof measured_devices[0]; i++)
        if (strcmp(measured_devices[i].device, r->gpu) == 0) {
            for (j = 0; dram_scale && j < sizeof measured_devices / sizeof measured_devices[0]; j++)
                if (measured_devices[j].own && strcmp(measured_devices[j].model, measured_devices[i].model) == 0)
                    *dram_scale = measured_devices[i].dram_gbs / measured_devices[j].dram_gbs;
            return tc_gpu_find(measured_devices[i].model);
        }
    return NULL;
}

static inline const tc_gpu *measured_gpu(const measured_row *r) { return measured_gpu_of(r, NULL); }

/* ---- predictions: each runs the simulator twice, n and 2n operations, and
   takes the difference, so start-up and the final drain cancel. */

static inline tc_status measured__run(const tc_sim_profile *g, tc_sim_program *p, int sms, int warps, tc_sim_result *r) {
    tc_sim_options o;
    tc_status st;
    memset(&o, 0, sizeof o);
    o.sms = sms;
    o.warps_per_sm = warps;
    st = p->status != TC_OK ? p->status : tc_sim_run(g, p, &o, r);
    tc_sim_program_free(p);
    return st;
}

/* A chain of n dependent loads, each address depending on the previous
   value (a pointer chase): where 0 DRAM (every load a new sector), 1 L2
   (all resident), 2 shared memory. */
static inline tc_status measured__chain(tc_sim_program *p, int where, int n) {
    memset(p, 0, sizeof *p);
    p->global_bytes = (int64_t)(n + 1) * 4096;
    p->shared_bytes = 128;
    if (where == 1) p->l2_resident_bytes = p->global_bytes;
    if (where == 2) tc_sim_lds(p, 1, 1, TC_SIM_NOREG, tc_sim_addr_affine(0, 0, 0, 0, 4));
    else tc_sim_ldg(p, 1, 1, tc_sim_addr_affine(0, 0, 0, 4096, 4));
    tc_sim_loop(p, 0, n);
    tc_sim_exit(p);
    return p->status;
}

/* Cycles per operation, or per byte/flop: (what(2n) - what(n)) / (cycles(2n) - cycles(n)) style. */
typedef tc_status (*measured__builder)(tc_sim_program *p, int n, const void *arg);

static inline tc_status measured__steady(const tc_sim_profile *g, measured__builder build, const void *arg, int n, int sms, int warps,
                                  tc_sim_result *small, tc_sim_result *large) {
    tc_sim_program p;
    tc_status st;
    memset(&p, 0, sizeof p);
    if ((st = build(&p, n, arg)) != TC_OK) { tc_sim_program_free(&p); return st; }
    if ((st = measured__run(g, &p, sms, warps, small)) != TC_OK) return st;
    memset(&p, 0, sizeof p);
    if ((st = build(&p, 2 * n, arg)) != TC_OK) { tc_sim_program_free(&p); tc_sim_result_free(small); return st; }
    if ((st = measured__run(g, &p, sms, warps, large)) != TC_OK) { tc_sim_result_free(small); return st; }
    return TC_OK;
}

static inline tc_status measured__b_chain(tc_sim_program *p, int n, const void *arg) { return measured__chain(p, *(const int *)arg, n); }
static inline tc_status measured__b_ffma(tc_sim_program *p, int n, const void *arg) { (void)arg; return tc_sim_build_ffma_chain(p, n); }
static inline tc_status measured__b_mma(tc_sim_program *p, int n, const void *arg) {
    const int *a = (const int *)arg;   /* instruction, dependent */
    return tc_sim_build_mma_chain(p, (tc_mma_instr)a[0], n, a[1]);
}
/* MEASURED__UNROLL independent FFMAs (or conflict-free 4-byte shared
   loads) per trip, as an unrolled microbenchmark loop issues them. */
#define MEASURED__UNROLL 32
static inline tc_status measured__b_stream(tc_sim_program *p, int n, const void *arg) {
    int i, lds = *(const int *)arg;
    memset(p, 0, sizeof *p);
    p->shared_bytes = 128;
    for (i = 0; i < MEASURED__UNROLL; i++) {
        if (lds) tc_sim_lds(p, 2 + i, TC_SIM_NOREG, TC_SIM_NOREG, tc_sim_addr_affine(0, 4, 0, 0, 4));
        else tc_sim_ffma(p, 2 + i, 0, 1, 2 + i);
    }
    tc_sim_loop(p, 0, n);
    tc_sim_exit(p);
    return p->status;
}
static inline tc_status measured__b_l2stream(tc_sim_program *p, int n, const void *arg) {
    (void)arg;
    memset(p, 0, sizeof *p);
    if (tc_sim_build_stream(p, n) != TC_OK) return p->status;
    p->l2_resident_bytes = p->global_bytes;
    return TC_OK;
}

/* The steady-state difference of a result field per operation. */
#define MEASURED__DIFF(a, b, field) ((double)((b).field - (a).field))

static inline double measured__clock_ghz(const measured_row *r, const tc_sim_profile *g) {
    return r->clock_mhz > 0 ? r->clock_mhz / 1000.0 : g->clock_ghz;
}

/* ---- a GEMM slice on one SM, dense or 2:4 sparse (lesson 06; the sparse
   speedup rows take section 6's sparse tiling, measured_library_gemm) ----
   One SM runs one thread block of MEASURED__WARPS warps that computes a bm x bn tile
   of D = W * X, MEASURED__K_STEP of K per step: every warp loads its share of the
   step's W tile (dense fp16, or 2:4 values + metadata) and X tile from
   global memory, 16 bytes per lane, and issues its MMAs: m16n8k16 (dense)
   or mma.sp m16n8k32 (sparse: half the instructions, each with the dense
   m16n8k16's issue cost, so twice the math per cycle). Two steps per loop
   trip with two register sets: the loads of one step fly while the MMAs
   of the other issue (software pipelining). Operands a real kernel re-reads
   (tiles shared by many blocks) are L2-resident; operands read once come
   from DRAM, and the slice gets its SM's share of DRAM bandwidth. Requests
   are whole 128-byte warp loads, so small metadata shares round up. */
enum { MEASURED__WARPS = 16, MEASURED__K_STEP = 64, MEASURED__STEPS_PER_TRIP = 2, MEASURED__TRIPS = 12 };
/* D (M x N) = W (M x K) * X (K x N), fp16; a bm x bn tile per SM; which
   operands come from DRAM (read once) rather than L2 (re-read). */
typedef struct { double M, N, K; int bm, bn, w_from_dram, x_from_dram; } measured_gemm_shape;

/* Bytes per warp per step, rounded up to whole 128-byte requests. */
static inline int64_t measured__share(double tile_bytes) {
    int64_t b = (int64_t)ceil(tile_bytes / MEASURED__WARPS);
    return (b + 127) / 128 * 128;
}

/* Emits the loads of one operand share for register set `set`: requests
   of 512 (16 B/lane), 256 or 128 bytes; returns how many registers. */
static inline int measured__emit_loads(tc_sim_program *p, int reg, int64_t base, int64_t bytes, int set) {
    int64_t off = 0;
    int n = 0;
    while (off < bytes) {
        int w = bytes - off >= 512 ? 16 : bytes - off >= 256 ? 8 : 4;
        /* step s of trip i, warp w: base + (i * MEASURED__STEPS_PER_TRIP + set) * MEASURED__WARPS * bytes + w * bytes + off */
        tc_sim_ldg(p, reg + n, TC_SIM_NOREG,
                   tc_sim_addr_affine(base + set * MEASURED__WARPS * bytes + off, w, bytes, (int64_t)MEASURED__STEPS_PER_TRIP * MEASURED__WARPS * bytes, w));
        off += 32 * w;
        n++;
    }
    return n;
}

static inline tc_status measured__build_slice(tc_sim_program *p, const measured_gemm_shape *s, int sparse) {
    int64_t a = measured__share(s->bm * MEASURED__K_STEP * 2.0 / (sparse ? 2 : 1));            /* W values */
    int64_t m = sparse ? measured__share(s->bm * (MEASURED__K_STEP / 4) * 0.5) : 0;            /* 4 bits per group of 4 */
    int64_t x = measured__share(MEASURED__K_STEP * s->bn * 2.0);
    int64_t per_step = MEASURED__WARPS * (a + m + x), steps = (int64_t)MEASURED__TRIPS * MEASURED__STEPS_PER_TRIP;
    int64_t w_base, x_base;
    int tiles = s->bm * s->bn / (16 * 8) / MEASURED__WARPS, mmas = tiles * MEASURED__K_STEP / (sparse ? 32 : 16);
    int set, i, top;
    memset(p, 0, sizeof *p);
    p->default_sms = 1; p->default_warps_per_sm = MEASURED__WARPS;
    p->global_bytes = per_step * steps;
    /* resident operands first: [0, l2_resident_bytes) starts in L2 */
    x_base = s->x_from_dram ? MEASURED__WARPS * (a + m) * steps : 0;
    w_base = s->x_from_dram ? 0 : MEASURED__WARPS * x * steps;
    p->l2_resident_bytes = s->w_from_dram ? w_base : s->x_from_dram ? x_base : p->global_bytes;
    top = p->n;
    for (set = 0; set < MEASURED__STEPS_PER_TRIP; set++) {
        /* registers: set 0 loads into 1.., set 1 into 21..; accumulators 48..63 */
        int r = 1 + 20 * set, na, nm, nx, other = 1 + 20 * (1 - set);
        na = measured__emit_loads(p, r, w_base, a, set);
        nm = sparse ? measured__emit_loads(p, r + na, w_base + MEASURED__WARPS * a * steps, m, set) : 0;
        nx = measured__emit_loads(p, r + na + nm, x_base, x, set);
        /* the MMAs of the other set's step, whose loads were issued half a trip ago */
        for (i = 0; i < mmas; i++) {
            int acc = 48 + i % tiles % 16, ra = other + i % na, rx = other + na + nm + i % nx;
            if (sparse) tc_sim_mma_sp(p, TC_MMA_SP_M16N8K32_F16, acc, ra, rx, acc, other + na);
            else tc_sim_mma(p, TC_MMA_M16N8K16_F16, acc, ra, rx, acc);
        }
    }
    tc_sim_loop(p, top, MEASURED__TRIPS);
    tc_sim_exit(p);
    return p->status;
}

/* ms: the whole GEMM; busy: FLOP rate against back-to-back dense
   m16n8k16; cycles: the slice's. */
typedef struct { double ms, busy; int64_t cycles; double dram_mb; } measured_slice;

/* Simulates the slice on one SM of the GPU and scales to the whole GEMM. */
static inline tc_status measured_gemm_slice(const tc_gpu *gpu, const measured_gemm_shape *s, int sparse, measured_slice *out) {
    tc_sim_profile g;
    tc_sim_program p;
    tc_sim_result r;
    tc_status st;
    double slice_flops = 2.0 * s->bm * s->bn * MEASURED__K_STEP * MEASURED__STEPS_PER_TRIP * MEASURED__TRIPS, dense_peak;
    if (!gpu || !s || !out) return TC_ERR_NULL;
    g = gpu->profile;
    if (g.sms < 1 || g.mma_interval[TC_MMA_M16N8K16_F16] < 1 || g.mma_interval[TC_MMA_SP_M16N8K32_F16] < 1) return TC_ERR_ARCH;
    g.dram_bytes_per_cycle /= g.sms;   /* one SM's share of the GPU's DRAM bandwidth */
    if ((st = measured__build_slice(&p, s, sparse)) != TC_OK || (st = tc_sim_run(&g, &p, NULL, &r)) != TC_OK) {
        tc_sim_program_free(&p);
        return st;
    }
    /* the whole GEMM: every SM runs slices at this rate */
    out->cycles = r.cycles;
    out->ms = 1e3 * r.cycles / slice_flops * (2.0 * s->M * s->N * s->K) / g.sms / (g.clock_ghz * 1e9);
    /* FLOPs per cycle of one SM whose pipes issue dense m16n8k16 back to back */
    dense_peak = g.subpartitions * 2.0 * 16 * 8 * 16 / g.mma_interval[TC_MMA_M16N8K16_F16];
    out->busy = r.flops / (double)r.cycles / dense_peak;
    out->dram_mb = r.dram_bytes / 1e6;
    tc_sim_result_free(&r);
    tc_sim_program_free(&p);
    return TC_OK;
}

/* The tiling of a GEMM row whose params give kernel=tile: its sizes, CTA
   tile and stages, and where the source does not say, 64x64 warp tiles of
   m16n8k16 with rows padded by 8 elements (conflict-free ldmatrix):
   assumptions. An FFMA kernel says in=fp32 and gives its warp tile
   (warp=MxN) and its 32 lanes' arrangement (lanes=MxN). A wgmma kernel
   names its instruction (instr=wgmma.m64nNk16.bf16, a row of the table)
   and one warpgroup's tile (warp=MxN, N the wgmma's width: one wgmma per
   64 rows), rows unpadded (its shared layouts are swizzled). An mma.sync
   kernel may name its instruction too (instr=m16n8k16.bf16) with its warp
   tile (warp=MxN); its rows stay padded, the stand-in for a swizzled
   conflict-free layout. regs=N is the
   kernel's registers per thread as ptxas reports them (occupancy then
   follows the kernel, not section 6's estimate). rounds=N (a
   single-buffered kernel) is the number of dependent LDG -> STS rounds per
   main-loop iteration in the kernel's SASS (tc_tile_desc.load_rounds).
   TC_ERR_ARG if the row has no such tiling, regs is not 1..255 or rounds
   not 1..64 (tc_tile_check refuses rounds > 1 on a pipelined tiling). */
static inline tc_status measured_tile(const measured_row *r, tc_tile_desc *d) {
    char kernel[16], cta[32], in[8], warp[32], lanes[32], instr[64];
    long m, n, k, stages = 1, regs = 0, rounds = 0;
    if (!measured_param(r, "kernel", kernel, sizeof kernel) || strcmp(kernel, "tile") != 0 ||
        !measured_param(r, "cta", cta, sizeof cta) || !measured_param_int(r, "m", &m) ||
        !measured_param_int(r, "n", &n) || !measured_param_int(r, "k", &k)) return TC_ERR_ARG;
    memset(d, 0, sizeof *d);
    if (sscanf(cta, "%dx%dx%d", &d->cta_m, &d->cta_n, &d->cta_k) != 3) return TC_ERR_ARG;
    measured_param_int(r, "stages", &stages);
    d->M = (int)m; d->N = (int)n; d->K = (int)k;
    d->in = TC_FP16;
    d->warp_m = 64; d->warp_n = 64;
    d->inst_m = 16; d->inst_n = 8; d->inst_k = 16;
    d->stages = (int)stages;
    d->pad_a = 8; d->pad_b = 8;
    if (measured_param(r, "regs", warp, sizeof warp) && (!measured_param_int(r, "regs", &regs) || regs < 1 || regs > 255))
        return TC_ERR_ARG;
    d->regs_per_thread = (int)regs;
    if (measured_param(r, "rounds", warp, sizeof warp) && (!measured_param_int(r, "rounds", &rounds) || rounds < 1 || rounds > 64))
        return TC_ERR_ARG;
    d->load_rounds = (int)rounds;
    /* FFMA kernels (in=fp32) name their warp tile and lane arrangement */
    if (measured_param(r, "in", in, sizeof in)) {
        if (strcmp(in, "fp32") != 0 || !measured_param(r, "warp", warp, sizeof warp) ||
            !measured_param(r, "lanes", lanes, sizeof lanes) ||
            sscanf(warp, "%dx%d", &d->warp_m, &d->warp_n) != 2 || sscanf(lanes, "%dx%d", &d->inst_m, &d->inst_n) != 2)
            return TC_ERR_ARG;
        d->in = TC_FP32;
        d->inst_k = 1;
        d->pad_a = d->pad_b = 0;
    }
    if (measured_param(r, "instr", instr, sizeof instr)) {
        tc_mma_instr kind;
        tc_mma_instr_info info;
        if (tc_mma_instr_find(instr, &kind) != TC_OK || tc_mma_instr_get(kind, &info) != TC_OK || info.sparse_group ||
            !measured_param(r, "warp", warp, sizeof warp) || sscanf(warp, "%dx%d", &d->warp_m, &d->warp_n) != 2)
            return TC_ERR_ARG;
        d->in = info.in;
        d->inst_m = info.m; d->inst_n = info.n; d->inst_k = info.k;
        if (info.threads == 128) {   /* wgmma: one instruction as wide as the warpgroup's tile, swizzled rows */
            d->inst_n = d->warp_n;
            d->pad_a = d->pad_b = 0;
        }
    }
    return TC_OK;
}

/* ---- how fast GEMM operand tiles cross from L2 to shared memory ----
   A row whose params say math=0 times a tile kernel's main loop with the
   shared->register loads and the MMAs removed: only the A and B tiles'
   global -> shared copies (and the D store) remain. On A100 the one such
   measurement (xd-hsgemm-k05-copy-a100, the kernel author's ablation of a
   128x128x32 2-stage cp.async kernel) moves section 6's l2_bytes at about
   half the whole-GPU L2 rate that streaming kernels reach (the l2_bandwidth
   rows, the profile's sm_bytes_per_cycle). That rate, in bytes per second,
   is the L2 -> SM rate of every tile and library GEMM prediction of the
   GPU (measured_tile_gpu). MEASURED: the rate (one kernel, one A100
   of unstated form factor). ASSUMED: that it is the GPU's rate for GEMM
   operand tiles of any tiling, warps and stages (a bandwidth, not that
   kernel's latency), on every A100 part. 0 if the dataset has no math=0
   row for the GPU (or cannot be read): no bound. */
static inline double measured_copy_rate(const tc_gpu *gpu) {
    measured_set set;
    char err[512], math[8], timed[8];
    double rate = 0.0;
    int i;
    if (!gpu || measured_load(TC_DATASET, &set, err, sizeof err) != TC_OK) return 0.0;
    for (i = 0; i < set.n && rate == 0.0; i++) {
        tc_tile_desc d;
        tc_tile_result tr;
        if (!measured_param(&set.rows[i], "math", math, sizeof math) || strcmp(math, "0") != 0 ||
            strcmp(set.rows[i].set, "calibration") != 0 || measured_gpu(&set.rows[i]) != gpu ||
            measured_tile(&set.rows[i], &d) != TC_OK || tc_tile_model(gpu, &d, &tr, NULL) != TC_OK)
            continue;
        /* a copy loop timed per call (timed=call) paid its launch in the measured time too */
        rate = tr.l2_bytes / (tr.flops / (set.rows[i].value * 1e12) -
                              (measured_param(&set.rows[i], "timed", timed, sizeof timed) && strcmp(timed, "call") == 0
                                   ? gpu->profile.launch_overhead_us * 1e-6 : 0.0));
    }
    measured_free(&set);
    return rate;
}

/* The GPU as a GEMM's operand tiles see it: its profile's L2 -> SM rate
   lowered to the operand copy rate (per SM per cycle), so that section 6's
   simulated main loop moves every tile at that rate, where its stages, its
   CTAs per SM and the load latency decide how much of it the math hides
   (a single-buffered kernel waits for each tile; a 3-stage one overlaps
   them). The copy is filled in and returned, or gpu itself when the
   dataset has no copy rate for it (or the rate is not below the
   streaming one). ASSUMED: that the operand rate acts as a bandwidth
   inside the main loop. The copy row's own tiling simulated at this rate
   comes out 5% under the rate itself (test_measured checks under 10%): the
   load latency and D store each wave adds are already in the measured
   rate (the row itself is predicted by the rate alone). */
static inline const tc_gpu *measured_tile_gpu(const tc_gpu *gpu, tc_gpu *copy) {
    const double rate = measured_copy_rate(gpu);
    double per_sm_cycle;
    if (!(rate > 0.0)) return gpu;
    per_sm_cycle = rate / (gpu->profile.sms * gpu->profile.clock_ghz * 1e9);
    if (!(per_sm_cycle < gpu->profile.sm_bytes_per_cycle)) return gpu;
    *copy = *gpu;
    copy->profile.sm_bytes_per_cycle = per_sm_cycle;
    return copy;
}

/* A library GEMM (cuBLAS, CUTLASS's profiler) picks, per problem, the
   fastest of a few tilings. This table holds two of CUTLASS's tile sets
   (SPEC of the library, not measurements), each row for one family of
   GPUs (sm):
   - sm 80, for every GPU without wgmma: the sm80 fp16 Tensor Core set of
     mma.sync m16n8k16 (threadblock M x N x K, warp M x N, stages; the
     library's default_gemm_configuration and the tile sizes its profiler
     enumerates). Rows padded by 8 elements stand in for CUTLASS's
     swizzled, conflict-free layouts (assumption).
   - sm 90, for the GPUs with wgmma (H100, H200): the CTA tiles CUTLASS's
     generator emits for 16-bit dense wgmma at its default instantiation
     level 131 (python/cutlass_library/sm90_utils.py and sm90_shapes.py at
     7107b05535f8977f5ecb9d01ee203205b1fd9bc4: wgmma level 1 = m64n128k16
     and m64n256k16, MMA multipliers (2,1,4), (1,1,4), (4,1,4), (2,2,4),
     CTA dimensions at most 256). A 128-row or larger CTA splits its rows
     over two consumer warpgroups (CUTLASS's cooperative schedule, which
     needs M % 128 = 0), a 64-row one has one. stages 0: as many as fit
     the CTA's shared memory (CUTLASS's StageCountAutoCarveout, without the
     epilogue's share: assumption); rows unpadded (swizzled). Section 6
     models neither the producer warpgroup, TMA, clusters nor a persistent
     schedule (its banner). A tiling that does not fit the GPU is skipped
     (256 x 256 needs more accumulator registers than a thread has).
   A 2:4 sparse GEMM (A the sparse operand) runs the sm 80 rows on every
   GPU with mma.sp m16n8k32 (section 6's sparse tiling: A's kept values and
   metadata cross L2 and shared memory, half the instructions at the sparse
   kind's interval). ASSUMED: CUTLASS's sm80 sparse set is this set (its
   own tile list is not read here); on H100 the sm80 kernels are what
   CUTLASS's profiler ran for sparse GEMMs in 2024 (its maintainer in the
   cutlass1335 row's thread: no Hopper-optimised sparse kernels then), and
   section 6 does not model wgmma.sp. */
static const struct { int sm, cta_m, cta_n, cta_k, warp_m, warp_n, inst_n, stages; } measured_library_tiles[] = {
    { 80, 128, 256, 32, 64, 64, 8, 3 }, { 80, 256, 128, 32, 64, 64, 8, 3 }, { 80, 128, 128, 32, 64, 64, 8, 4 },
    { 80, 128, 128, 64, 64, 64, 8, 3 }, { 80, 256, 64, 32, 64, 64, 8, 4 }, { 80, 64, 256, 32, 64, 64, 8, 4 },
    { 80, 128, 64, 32, 64, 32, 8, 6 }, { 80, 64, 128, 32, 32, 64, 8, 6 }, { 80, 64, 64, 64, 32, 32, 8, 5 },
    { 90, 64, 128, 64, 64, 128, 128, 0 }, { 90, 128, 128, 64, 64, 128, 128, 0 }, { 90, 256, 128, 64, 128, 128, 128, 0 },
    { 90, 128, 256, 64, 64, 256, 256, 0 }, { 90, 64, 256, 64, 64, 256, 256, 0 }, { 90, 256, 256, 64, 128, 256, 256, 0 },
};

enum { MEASURED_LIBRARY_TILES = (int)(sizeof measured_library_tiles / sizeof measured_library_tiles[0]) };

/* Which of the table's tile sets a GPU's library runs: 90 with wgmma, else 80. */
static inline int measured_library_family(const tc_gpu *gpu) {
    return gpu->profile.mma_latency[TC_WGMMA_F16] > 0 ? 90 : 80;
}

/* Tiling i of measured_library_tiles for an m x n x k fp16 GEMM on gpu (its
   instruction: m16n8k16, or for the sm 90 rows wgmma.m64nNk16.f16; sparse:
   an sm 80 row with mma.sp m16n8k32; stages 0 resolved to the most that
   fit); 0 if i is out of range or the row is not of the family gpu runs
   (d then unspecified). */
static inline int measured_library_desc(const tc_gpu *gpu, int i, long m, long n, long k, int sparse, tc_tile_desc *d) {
    if (!gpu || i < 0 || i >= MEASURED_LIBRARY_TILES || !d ||
        measured_library_tiles[i].sm != (sparse ? 80 : measured_library_family(gpu))) return 0;
    memset(d, 0, sizeof *d);
    d->M = (int)m; d->N = (int)n; d->K = (int)k;
    d->in = TC_FP16;
    d->cta_m = measured_library_tiles[i].cta_m; d->cta_n = measured_library_tiles[i].cta_n; d->cta_k = measured_library_tiles[i].cta_k;
    d->warp_m = measured_library_tiles[i].warp_m; d->warp_n = measured_library_tiles[i].warp_n;
    d->inst_m = measured_library_tiles[i].sm == 90 ? 64 : 16; d->inst_n = measured_library_tiles[i].inst_n; d->inst_k = sparse ? 32 : 16;
    d->sparse = sparse != 0;
    /* ASSUMED: the library's sparse kernels at these tiles fit the register file (CUTLASS generates 64 x 64
       warp tiles for them); section 6's estimate, which double-buffers the m16n8k32 step's larger
       fragments, would exceed it, so they get the most a thread may have */
    if (sparse) d->regs_per_thread = gpu->occupancy.max_regs_per_thread;
    d->pad_a = d->pad_b = measured_library_tiles[i].sm == 90 ? 0 : 8;
    d->stages = measured_library_tiles[i].stages;
    if (d->stages == 0)   /* the most that pass tc_tile_check's shared-memory limit (16 at most), else 2 and let it fail */
        for (d->stages = 16; d->stages > 2; d->stages--)
            if (tc_tile_check(gpu, d, NULL) == TC_OK) break;
    return 1;
}

/* The library GEMM's FLOP rate (fp16 in; sparse: A 2:4, counted as the
   dense shape's 2 m n k): section 6's tiling model (tc_tile_predict:
   occupancy, waves and the partial last wave, the simulated main loop, the
   prologue and the D store) over every tiling of the family gpu runs in
   measured_library_tiles that fits the GPU, the fastest. TC_ERR_SIZE unless
   1 <= m, n, k <= 2^30; TC_ERR_ARCH if no tiling fits. */
static inline tc_status measured_library_gemm(const tc_gpu *gpu, long m, long n, long k, int sparse, double *flops_per_s) {
    tc_tile_desc d;
    tc_tile_result tr;
    tc_gpu copy;
    const tc_gpu *tile_gpu;
    int i;
    double best = 0.0;
    if (!gpu || !flops_per_s) return TC_ERR_NULL;
    *flops_per_s = 0.0;
    if (m < 1 || n < 1 || k < 1 || m > (1L << 30) || n > (1L << 30) || k > (1L << 30)) return TC_ERR_SIZE;
    tile_gpu = measured_tile_gpu(gpu, &copy);
    for (i = 0; i < MEASURED_LIBRARY_TILES; i++)
        if (measured_library_desc(gpu, i, m, n, k, sparse, &d) && tc_tile_predict(tile_gpu, &d, &tr, NULL) == TC_OK &&
            tr.predicted_flops_per_s > best)
            best = tr.predicted_flops_per_s;
    *flops_per_s = best;
    return best > 0.0 ? TC_OK : TC_ERR_ARCH;
}

/* The simulator's value for the row, in the row's unit; or a reason (why)
   it cannot predict it (TC_ERR_ARG with *why set) or a simulator status. */
static inline tc_status measured_predict(const measured_row *r, double *predicted, const char **why) {
    double dram_scale;
    const tc_gpu *gpu = measured_gpu_of(r, &dram_scale);
    const tc_sim_profile *g;
    tc_sim_profile scaled;
    const char *q = r->quantity;
    tc_sim_result a, b;
    tc_status st;
    long m = 0, n = 0, k = 0;
    if (why) *why = NULL;
    if (!gpu) { if (why) *why = "no GPU entry for this device"; return TC_ERR_ARG; }
    scaled = gpu->profile;
    if (dram_scale > 0) scaled.dram_bytes_per_cycle *= dram_scale;
    g = &scaled;
    if (strncmp(q, "l1_", 3) == 0) {
        /* an L1 hit is a load on the shared-memory path (the same SRAM and
           wavefronts) with L1's own hit latency */
        if (!(g->l1_latency > 0)) { if (why) *why = "the profile gives no L1 hit latency"; return TC_ERR_ARG; }
        scaled.shared_latency = g->l1_latency;
        q = q[3] == 'h' ? "shared_load_latency" : "shared_bandwidth";
    }
    if (strcmp(q, "launch_graph") == 0) {   /* the back-to-back stream, replayed at the graph's launch rate */
        if (!(g->graph_launch_us > 0)) { if (why) *why = "the profile does not model CUDA graph launches"; return TC_ERR_ARG; }
        scaled.launch_overhead_us = g->graph_launch_us;
        q = "launch_back_to_back";
    }
    if (((strncmp(q, "dram_", 5) == 0 && strcmp(q, "dram_latency") != 0) || strcmp(q, "fusion_time") == 0) && !(dram_scale > 0)) {
        if (why) *why = "the source does not say which memory the card has";
        return TC_ERR_ARG;
    }
    if (strcmp(q, "dram_latency") == 0 || strcmp(q, "l2_hit_latency") == 0 || strcmp(q, "shared_load_latency") == 0) {
        int where = q[0] == 'd' ? 0 : q[0] == 'l' ? 1 : 2;
        if ((st = measured__steady(g, measured__b_chain, &where, 32, 1, 1, &a, &b)) != TC_OK) return st;
        *predicted = MEASURED__DIFF(a, b, cycles) / 32.0;
    } else if (strcmp(q, "ffma_latency") == 0) {
        if ((st = measured__steady(g, measured__b_ffma, NULL, 64, 1, 1, &a, &b)) != TC_OK) return st;
        *predicted = MEASURED__DIFF(a, b, cycles) / 64.0;
    } else if (strcmp(q, "ffma_throughput") == 0 || strcmp(q, "shared_bandwidth") == 0) {
        int lds = q[0] == 's';
        if ((st = measured__steady(g, measured__b_stream, &lds, 16, 1, g->max_warps_per_sm, &a, &b)) != TC_OK) return st;
        *predicted = (lds ? MEASURED__DIFF(a, b, instructions) * 128.0 * MEASURED__UNROLL / (MEASURED__UNROLL + 1)
                          : MEASURED__DIFF(a, b, flops)) / MEASURED__DIFF(a, b, cycles);
    } else if (strcmp(q, "mma_latency") == 0 || strcmp(q, "mma_throughput") == 0) {
        char name[32];
        tc_mma_instr kind;
        long warps = 1;
        int arg[2];
        if (!measured_param(r, "instr", name, sizeof name) || tc_mma_instr_find(name, &kind) != TC_OK) {
            if (why) *why = "params name no instruction of the table";
            return TC_ERR_ARG;
        }
        if (g->mma_latency[kind] < 1) { if (why) *why = "the profile lacks this instruction"; return TC_ERR_ARG; }
        arg[0] = (int)kind;
        arg[1] = q[4] == 'l';
        if (!arg[1] && !measured_param_int(r, "warps", &warps)) { if (why) *why = "params lack warps"; return TC_ERR_ARG; }
        if (warps > g->max_warps_per_sm) warps = g->max_warps_per_sm;
        if ((st = measured__steady(g, measured__b_mma, arg, 64, 1, (int)warps, &a, &b)) != TC_OK) return st;
        *predicted = arg[1] ? MEASURED__DIFF(a, b, cycles) / 64.0
                            : MEASURED__DIFF(a, b, flops) / MEASURED__DIFF(a, b, cycles) * g->sms * measured__clock_ghz(r, g) / 1e3;
    } else if (strcmp(q, "l2_bandwidth") == 0) {
        if ((st = measured__steady(g, measured__b_l2stream, NULL, 16, 1, g->max_warps_per_sm, &a, &b)) != TC_OK) return st;
        *predicted = MEASURED__DIFF(a, b, l2_bytes) / MEASURED__DIFF(a, b, cycles) * g->sms;
        if (strcmp(r->unit, "GB/s") == 0) *predicted *= measured__clock_ghz(r, g);
    } else if (strncmp(q, "dram_", 5) == 0 || strcmp(q, "launch_back_to_back") == 0) {
        tc_sim_elementwise_desc d;
        tc_sim_prediction pr;
        memset(&d, 0, sizeof d);
        d.elements = (int64_t)1 << 27;
        d.inputs = strcmp(q, "dram_triad_bandwidth") == 0 ? 2 : 1;
        d.outputs = strcmp(q, "dram_read_bandwidth") == 0 ? 0 : 1;
        if (q[0] == 'l') {
            if (!measured_param_int(r, "bytes", &n)) { if (why) *why = "params lack bytes"; return TC_ERR_ARG; }
            d.elements = n / 2 / (int64_t)sizeof(float);   /* half read, half written */
        }
        if ((st = tc_sim_predict_elementwise(g, &d, &pr)) != TC_OK) return st;
        *predicted = q[0] == 'l' ? pr.seconds * 1e6 : pr.dram_bytes / pr.kernel_seconds / 1e9;
        return TC_OK;
    } else if (strcmp(q, "fusion_time") == 0) {
        /* `kernels` elementwise kernels back to back, each reading `reads` and
           writing `writes` streams of `elements` values of `elem_bytes`; and
           `fills` kernels of negligible size in the timed sequence (a
           torch.zeros of per-row statistics), each at the launch floor: a
           kernel launched back to back costs at least launch_overhead_us */
        long elements, bytes, kernels, reads, writes, fills = 0;
        char fills_text[sizeof r->params];
        tc_sim_elementwise_desc d;
        tc_sim_prediction pr;
        if (!measured_param_int(r, "elements", &elements) || !measured_param_int(r, "elem_bytes", &bytes) ||
            !measured_param_int(r, "kernels", &kernels) || !measured_param_int(r, "reads", &reads) ||
            !measured_param_int(r, "writes", &writes) || reads > 8 || writes > 8 || kernels > 1000) {
            if (why) *why = "the kernel sequence is not published as elementwise streams";
            return TC_ERR_ARG;
        }
        memset(&d, 0, sizeof d);
        d.elements = (int64_t)elements * bytes / (int64_t)sizeof(float);   /* the simulator streams fp32 */
        d.inputs = (int)reads;
        d.outputs = (int)writes;
        if ((st = tc_sim_predict_elementwise(g, &d, &pr)) != TC_OK) return st;
        if (measured_param(r, "fills", fills_text, sizeof fills_text) && (!measured_param_int(r, "fills", &fills) || fills > 1000)) {
            if (why) *why = "fills is not a count of 1..1000";
            return TC_ERR_ARG;
        }
        *predicted = (double)kernels * pr.seconds * 1e6 + (double)fills * g->launch_overhead_us;
        return TC_OK;
    } else if (strcmp(q, "gemm_tflops") == 0 || strcmp(q, "sparse_speedup") == 0) {
        char kernel[16] = "", cta[32], timed[sizeof r->params], host[sizeof r->params], sp_text[sizeof r->params];
        double s, flops;
        int is_sparse;
        if (!measured_param_int(r, "m", &m) || !measured_param_int(r, "n", &n) || !measured_param_int(r, "k", &k)) {
            if (why) *why = q[0] == 's' ? "not one GEMM (a whole network): not modelled" : "params lack m, n, k";
            return TC_ERR_ARG;
        }
        if (q[0] == 's') {   /* the library's fastest sparse tiling against its fastest dense one, same shape */
            double dense, sparse;
            if ((st = measured_library_gemm(gpu, m, n, k, 0, &dense)) != TC_OK) return st;
            if ((st = measured_library_gemm(gpu, m, n, k, 1, &sparse)) != TC_OK) return st;
            *predicted = sparse / dense;
            return TC_OK;
        }
        is_sparse = measured_param(r, "sparse", sp_text, sizeof sp_text);
        measured_param(r, "kernel", kernel, sizeof kernel);
        if (is_sparse && (strcmp(sp_text, "1") != 0 || strcmp(kernel, "library") != 0)) {
            if (why) *why = "sparse=1 (A 2:4, counted as the dense shape's FLOPs) is the only variant, with kernel=library";
            return TC_ERR_ARG;
        }
        if (strcmp(kernel, "library") == 0) {
            if ((st = measured_library_gemm(gpu, m, n, k, is_sparse, &s)) != TC_OK) return st;
        } else if (strcmp(kernel, "tile") == 0 && measured_param(r, "cta", cta, sizeof cta)) {
            tc_tile_desc d;
            tc_tile_result tr;
            tc_gpu copy;
            char math[8];
            if (measured_tile(r, &d) != TC_OK) { if (why) *why = "cta is not MxNxK, regs not 1..255, or rounds not 1..64"; return TC_ERR_ARG; }
            if (measured_param(r, "math", math, sizeof math)) {   /* the copy loop alone: its operand bytes at the copy rate */
                double rate = measured_copy_rate(gpu);
                if (strcmp(math, "0") != 0 || !(rate > 0.0)) { if (why) *why = "math=0 is the only variant, on a GPU with a calibration copy row"; return TC_ERR_ARG; }
                if ((st = tc_tile_model(gpu, &d, &tr, why)) != TC_OK) return st;
                s = tr.flops / (tr.l2_bytes / rate);
            } else {
                if ((st = tc_tile_predict(measured_tile_gpu(gpu, &copy), &d, &tr, why)) != TC_OK) return st;
                s = tr.predicted_flops_per_s;
            }
        } else {
            if (why) *why = "the row gives no tiling section 6 can express (see its notes)";
            return TC_ERR_ARG;
        }
        flops = 2.0 * (double)m * (double)n * (double)k;
        if (measured_param(r, "timed", timed, sizeof timed)) {
            /* each call timed alone after the previous one finished: the launch reaches an idle GPU after the
               start event, so the call costs the launch path too (the profile's back-to-back launch cost,
               calibration rows rrze-launch-*; ASSUMED to be that latency) */
            if (strcmp(timed, "call") != 0) { if (why) *why = "timed=call is the only variant"; return TC_ERR_ARG; }
            s = flops / (flops / s + g->launch_overhead_us * 1e-6);
        }
        if (measured_param(r, "host_us", host, sizeof host)) {
            /* calls issued back to back by a host loop that spends host_us on each (measured with other kernels
               of the same run): the GPU overlaps one call's kernel with the next call's issue, so a call
               costs the longer of the two, not their sum */
            double host_us;
            if (!measured__number(host, &host_us) || !(host_us > 0.0 && host_us <= 1e6)) {
                if (why) *why = "host_us is not a time in (0, 1e6] us";
                return TC_ERR_ARG;
            }
            s = flops / fmax(flops / s, host_us * 1e-6);
        }
        *predicted = s / 1e12;
        return TC_OK;
    } else {
        if (why) *why = "no predictor for this quantity";
        return TC_ERR_ARG;
    }
    tc_sim_result_free(&a);
    tc_sim_result_free(&b);
    return TC_OK;
}

/* |predicted - measured| / measured. */
static inline double measured_error(const measured_row *r, double predicted) { return fabs(predicted - r->value) / r->value; }

/* The measured value of the row `id`; TC_ERR_ARG if the dataset cannot be
   read or has no such row. */
static inline tc_status measured_value(const char *id, double *value) {
    measured_set set;
    char err[512];
    tc_status st = TC_ERR_ARG;
    int i;
    if (!id || !value) return TC_ERR_NULL;
    if (measured_load(TC_DATASET, &set, err, sizeof err) != TC_OK) return TC_ERR_ARG;
    for (i = 0; i < set.n; i++)
        if (strcmp(set.rows[i].id, id) == 0) { *value = set.rows[i].value; st = TC_OK; }
    measured_free(&set);
    return st;
}

/* For lessons: every row of `quantity` whose model is `model` (NULL: any),
   as "measured beside simulated" lines with the source, a row the model
   cannot predict with its reason, and a mark on errors over 25%. Returns
   the number of rows printed, or -1 if the dataset cannot be read. */
static inline int measured_print(FILE *out, const char *model, const char *quantity, const char *indent) {
    measured_set set;
    char err[512];
    int i, shown = 0;
    if (measured_load(TC_DATASET, &set, err, sizeof err) != TC_OK) {
        fprintf(out, "%s(measured dataset not readable: %s)\n", indent, err);
        return -1;
    }
    for (i = 0; i < set.n; i++) {
        const measured_row *r = &set.rows[i];
        const tc_gpu *gpu = measured_gpu(r);
        const char *why = NULL;
        double pred;
        if (strcmp(r->quantity, quantity) != 0 || (model && (!gpu || strcmp(gpu->name, model) != 0))) continue;
        fprintf(out, "%s%-15s measured %9.4g %-8s", indent, r->gpu, r->value, r->unit);
        if (measured_predict(r, &pred, &why) == TC_OK)
            fprintf(out, " simulated %9.4g (%+.1f%%)%s\n", pred, 100.0 * (pred - r->value) / r->value,
                    measured_error(r, pred) > 0.25 ? "  <- differs by more than 25%" : "");
        else
            fprintf(out, " not simulated: %s\n", why ? why : "simulator error");
        fprintf(out, "%s    %s (row %s)\n", indent, r->source, r->id);
        shown++;
    }
    measured_free(&set);
    return shown;
}

/* The dataset's rows of `quantity` for the GPU model `model` ("a100"); -1 if
   the dataset cannot be read. Where it is 0 the profile's figure is not
   measured on that GPU, and a lesson says so beside the number. */
static inline int measured_count(const char *model, const char *quantity) {
    measured_set set;
    char err[512];
    int i, n = 0;
    if (!model || !quantity || measured_load(TC_DATASET, &set, err, sizeof err) != TC_OK) return -1;
    for (i = 0; i < set.n; i++) {
        const tc_gpu *gpu = measured_gpu(&set.rows[i]);
        if (gpu && strcmp(gpu->name, model) == 0 && strcmp(set.rows[i].quantity, quantity) == 0) n++;
    }
    measured_free(&set);
    return n;
}

#endif
