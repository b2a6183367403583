/* tcsim - the command-line front end of tensorcore.h's cycle simulator.

     tcsim profiles                      the GPU profiles and their numbers
     tcsim programs                      the warp programs it can run
     tcsim run <program> --profile <name> [--warps N] [--sms N] [--policy gto|lrr]
               [--trace out.json] [--png out.png]
     tcsim validate [--dataset FILE] [--gpu NAME] [--quiet]
                                         every published measurement beside the
                                         simulator's prediction, and the error

     tcsim show <program>                a built-in program as .tcs text (docs/tcs.md)
     tcsim show-profile <name>           a profile as key = value lines

   `run` takes a built-in program's name or a .tcs file (any argument with
   a '/' or ending in .tcs), and --profile a built-in name or a file of
   key = value lines (tcsim show-profile writes one); --set key=value
   (repeatable) changes one profile field; --per-instruction adds a table
   of each instruction's issues and the warp-cycles spent at it by state
   (the model of Nsight Compute's source view), and puts the pc on every
   event of the --trace.
   `run` prints "cycles: N", then the stall breakdown (Nsight Compute names,
   summed over warps; they add up to warps x cycles) and the achieved rates.
   --png out.png also writes out.csv (the drawn warps' state segments); both
   go exactly where the paths say.
   Unknown names and invalid parameters print a message and exit 1; a bad
   file, "file:line:col: message". show and show-profile given a wrong
   number of arguments exit 2.
   Example:  build/tcsim run matmul32_ffma --profile dettmers2020   ->  cycles: 392 */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "timeline.h"
#include "measured.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void) {
    fprintf(stderr,
            "usage: tcsim profiles\n"
            "       tcsim programs\n"
            "       tcsim run <program|file.tcs> --profile <name|file> [--set key=value]...\n"
            "                 [--warps N] [--sms N] [--policy gto|lrr] [--per-instruction]\n"
            "                 [--trace out.json] [--png out.png (+ out.csv)]\n"
            "       tcsim show <program>\n"
            "       tcsim show-profile <name>\n"
            "       tcsim validate [--dataset FILE] [--gpu NAME] [--quiet]\n");
    return 1;
}

static void list_profiles(void) {
    int i, k;
    for (i = 0; i < tc_gpu_count(); i++) {
        const tc_gpu *gpu = tc_gpu_get(i);
        const tc_sim_profile *g = &gpu->profile;
        printf("%-13s %s\n", gpu->name, gpu->description);
        printf("              %d SMs x %d sub-partitions, %d warps/SM, %.2f GHz; latencies: DRAM %d, L2 %d, L1 %d, shared %d, FFMA %d\n",
               g->sms, g->subpartitions, g->max_warps_per_sm, g->clock_ghz, g->dram_latency, g->l2_latency,
               g->l1_latency ? g->l1_latency : g->shared_latency, g->shared_latency, g->ffma_latency);
        printf("              latency/interval: SHFL %d/%d per SM, integer %d/%d; atomics: shared %d, global %d (+%d per lane on one address)\n",
               g->shfl_latency, g->shfl_interval, g->int_latency, g->int_interval, g->atoms_latency, g->atomg_latency,
               g->atom_same_address_cycles);
        printf("              MMA latency/interval:");
        for (k = 0; k < TC_MMA_INSTR_COUNT; k++) {
            tc_mma_instr_info info;
            if (!g->mma_latency[k] || tc_mma_instr_get((tc_mma_instr)k, &info) != TC_OK) continue;
            printf(" %s %d/%d", info.name, g->mma_latency[k], g->mma_interval[k]);
            if (info.n_step) printf(" (N=%d)", info.n);   /* a variable-N kind's values are at its largest N */
        }
        printf("\n");
        if (g->dram_bytes_per_cycle > 0.0) printf("              DRAM %.0f GB/s", g->dram_bytes_per_cycle * g->clock_ghz);
        else printf("              DRAM bandwidth not modelled");
        if (g->launch_overhead_us > 0.0) printf(", launch overhead %.1f us\n", g->launch_overhead_us);
        else printf(", launch overhead not modelled\n");
    }
}

/* A positive integer, or -1. */
static int parse_count(const char *s) {
    char *end;
    long v;
    if (!s || !*s) return -1;
    v = strtol(s, &end, 10);
    if (*end || v < 1 || v > 1000000) return -1;
    return (int)v;
}

/* Mean absolute percentage error of the predicted rows, by group. */
typedef struct { const char *name; double sum; int n, total; } error_group;

static void add_error(error_group *groups, int *ngroups, const char *name, int predicted, double err) {
    int i;
    for (i = 0; i < *ngroups && strcmp(groups[i].name, name) != 0; i++) {}
    if (i == *ngroups) { groups[i].name = name; groups[i].sum = 0; groups[i].n = 0; groups[i].total = 0; (*ngroups)++; }
    groups[i].total++;
    if (predicted) { groups[i].sum += err; groups[i].n++; }
}

static void print_groups(const char *title, const error_group *groups, int n) {
    int i;
    printf("%s\n", title);
    for (i = 0; i < n; i++) {
        if (groups[i].n) printf("  %-26s %3d of %3d rows predicted, mean |error| %5.1f%%\n", groups[i].name, groups[i].n,
                                groups[i].total, 100.0 * groups[i].sum / groups[i].n);
        else printf("  %-26s %3d of %3d rows predicted\n", groups[i].name, groups[i].n, groups[i].total);
    }
}

/* Every row of the dataset: measured, predicted, error; then the mean
   absolute percentage error by set, category and GPU. Exit 1 on a
   malformed dataset or bad arguments. */
static int validate(int argc, char **argv) {
    const char *path = TC_DATASET, *only = NULL;
    measured_set set;
    error_group by_set[4], by_category[16], by_gpu[16];
    int nset = 0, ncat = 0, ngpu = 0, i, quiet = 0, predicted_rows = 0, shown = 0;
    char err[512];
    for (i = 0; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--dataset") == 0 && v) { path = v; i++; }
        else if (strcmp(argv[i], "--gpu") == 0 && v) { only = v; i++; }
        else if (strcmp(argv[i], "--quiet") == 0) quiet = 1;
        else { fprintf(stderr, "tcsim validate: unknown argument '%s'\n", argv[i]); return usage(); }
    }
    if (only && !tc_gpu_find(only)) { fprintf(stderr, "tcsim validate: unknown GPU '%s' (tcsim profiles lists them)\n", only); return 1; }
    if (measured_load(path, &set, err, sizeof err) != TC_OK) { fprintf(stderr, "tcsim validate: %s\n", err); return 1; }
    if (!quiet)
        printf("%-40s %-6s %-22s %10s %10s %-11s %7s\n", "row", "model", "quantity", "measured", "predicted", "unit", "error");
    for (i = 0; i < set.n; i++) {
        const measured_row *r = &set.rows[i];
        const tc_gpu *gpu = measured_gpu(r);
        const char *why = NULL;
        double pred = 0, e = 0;
        tc_status st;
        if (only && (!gpu || strcmp(gpu->name, only) != 0)) continue;
        shown++;
        st = measured_predict(r, &pred, &why);
        if (st == TC_OK) { e = measured_error(r, pred); predicted_rows++; }
        if (!quiet) {
            if (st == TC_OK)
                printf("%-40s %-6s %-22s %10.4g %10.4g %-11s %6.1f%%\n", r->id, gpu->name, r->quantity, r->value, pred, r->unit, 100.0 * e);
            else
                printf("%-40s %-6s %-22s %10.4g %10s %-11s   (not predicted: %s)\n", r->id, gpu ? gpu->name : "-", r->quantity,
                       r->value, "-", r->unit, why ? why : tc_status_string(st));
        }
        add_error(by_set, &nset, r->set, st == TC_OK, e);
        add_error(by_category, &ncat, r->category, st == TC_OK, e);
        add_error(by_gpu, &ngpu, gpu ? gpu->name : "(none)", st == TC_OK, e);
    }
    printf("\n%d rows, %d predicted (%s)\n", shown, predicted_rows, path);
    print_groups("by set:", by_set, nset);
    print_groups("by category:", by_category, ncat);
    print_groups("by GPU model (H200/H800 rows stand in for H100, L40 rows for RTX 4090):", by_gpu, ngpu);
    measured_free(&set);
    return 0;
}

/* The whole of a file, NUL-terminated, in *text (free it); NULL on error, with a message printed. */
static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t cap = 0, n = 0;
    if (!f) { fprintf(stderr, "tcsim: cannot open %s\n", path); return NULL; }
    for (;;) {
        size_t got;
        if (n + 4096 + 1 > cap) {
            char *t;
            cap = cap ? 2 * cap : 65536;
            if (cap > ((size_t)1 << 27) || !(t = (char *)realloc(text, cap))) {
                fprintf(stderr, "tcsim: %s is too large\n", path);
                free(text); fclose(f); return NULL;
            }
            text = t;
        }
        got = fread(text + n, 1, 4096, f);
        n += got;
        if (got < 4096) break;
    }
    if (ferror(f)) { fprintf(stderr, "tcsim: cannot read %s\n", path); free(text); fclose(f); return NULL; }
    fclose(f);
    text[n] = '\0';
    *len = n;
    return text;
}

static int is_file_name(const char *s) {
    size_t n = strlen(s);
    return strchr(s, '/') != NULL || (n > 4 && strcmp(s + n - 4, ".tcs") == 0);
}

/* A built-in program by name, or a .tcs file; 0 on success, else prints why. */
static int load_program(const char *name, tc_sim_program *p) {
    char err[256];
    size_t len;
    char *text;
    tc_status s;
    if (!is_file_name(name)) {
        s = tc_sim_build_named(p, name);
        if (s == TC_ERR_ARG) { fprintf(stderr, "tcsim: unknown program '%s' (see tcsim programs)\n", name); return 1; }
        if (s != TC_OK) { fprintf(stderr, "tcsim: building %s: %s\n", name, tc_status_string(s)); return 1; }
        return 0;
    }
    if (!(text = read_file(name, &len))) return 1;
    s = tc_sim_program_parse(text, len, p, err, sizeof err);
    free(text);
    if (s != TC_OK) { fprintf(stderr, "%s:%s\n", name, err[0] ? err : tc_status_string(s)); return 1; }
    return 0;
}

/* A built-in profile by name, or a file of key = value lines (starting from zeros). */
static int load_profile(const char *name, tc_sim_profile *g, const char **label) {
    const tc_gpu *gpu = tc_gpu_find(name);
    char err[256];
    size_t len;
    char *text;
    tc_status s;
    if (gpu) { *g = gpu->profile; *label = gpu->name; return 0; }
    if (!is_file_name(name) && !strchr(name, '.')) { fprintf(stderr, "tcsim: unknown profile '%s' (see tcsim profiles)\n", name); return 1; }
    if (!(text = read_file(name, &len))) return 1;
    memset(g, 0, sizeof *g);
    s = tc_sim_profile_parse(text, len, g, err, sizeof err);
    free(text);
    if (s != TC_OK) { fprintf(stderr, "%s:%s\n", name, err); return 1; }
    *label = name;
    return 0;
}

static int show(int argc, char **argv) {
    tc_sim_program p;
    int bad;
    if (argc != 1) { fprintf(stderr, "tcsim: show takes one program name (see tcsim programs)\n"); return 2; }
    memset(&p, 0, sizeof p);
    if (load_program(argv[0], &p)) return 2;
    bad = tcsim_print_program(&p, stdout, NULL);
    tc_sim_program_free(&p);
    if (bad) { fprintf(stderr, "tcsim: show %s: the program cannot be printed\n", argv[0]); return 1; }
    return 0;
}

static const char *tcsim_or(const char *source) { return source ? source : "(no source recorded)"; }

static int show_profile(int argc, char **argv) {
    const tc_gpu *gpu;
    char *buf, key[64], *line;
    const char *last = NULL, *src;
    int mma_done = 0;
    size_t need = 0;
    if (argc != 1) { fprintf(stderr, "tcsim: show-profile takes one profile name (see tcsim profiles)\n"); return 2; }
    gpu = tc_gpu_find(argv[0]);
    if (!gpu) { fprintf(stderr, "tcsim: unknown profile '%s' (see tcsim profiles)\n", argv[0]); return 2; }
    (void)tc_sim_profile_print(&gpu->profile, NULL, 0, &need);   /* sizes the text: one line per field and instruction */
    buf = (char *)malloc(need + 1);
    if (!buf || tc_sim_profile_print(&gpu->profile, buf, need + 1, NULL) != TC_OK) {
        fprintf(stderr, "tcsim: show-profile %s: out of memory\n", argv[0]);
        free(buf);
        return 1;
    }
    printf("# profile %s: %s\n", gpu->name, gpu->description);
    printf("# Above each number, where it comes from (more: the tc__gpus entry for %s in\n"
           "# tensorcore.h and docs/REFERENCE.md section 3; tcsim validate sets the model\n"
           "# beside the measured dataset). A file may start with `base = %s` and list\n"
           "# only the fields it changes.\n", gpu->name, gpu->name);
    for (line = buf; *line;) {
        char *end = strchr(line, '\n'), *eq = strstr(line, " = ");
        size_t n = end ? (size_t)(end - line) : strlen(line);
        if (eq && (size_t)(eq - line) < sizeof key) {
            memcpy(key, line, (size_t)(eq - line));
            key[eq - line] = '\0';
            if (strncmp(key, "mma_", 4) == 0) {   /* one source per array, above the first kind */
                if (!mma_done) printf("# mma_latency: %s\n# mma_interval: %s\n", tcsim_or(tc_gpu_source(gpu, "mma_latency")),
                                      tcsim_or(tc_gpu_source(gpu, "mma_interval")));
                mma_done = 1;
            } else {
                src = tcsim_or(tc_gpu_source(gpu, key));
                if (!last || strcmp(src, last) != 0) printf("# %s\n", src);   /* once for fields of one source */
                last = src;
            }
        }
        printf("%.*s\n", (int)n, line);
        line += n + (end != NULL);
    }
    free(buf);
    return 0;
}

/* Each instruction's issues and warp-cycles by state, beside its .tcs text. */
static void print_per_instruction(const tc_sim_program *p, const tc_sim_result *r) {
    char **lines = tcsim_program_lines(p, r->instr_n);
    int i, k;
    printf("per instruction (warp-cycles at each instruction by state; a stall is charged to the instruction that waits):\n");
    printf("%5s %8s", "pc", "issued");
    for (k = 0; k < TC_SIM_STATE_COUNT; k++) if (k != TC_SIM_EXITED) printf(" %*s", k == TC_SIM_SELECTED ? 9 : (int)strlen(tc_sim_state_name((tc_sim_state)k)), tc_sim_state_name((tc_sim_state)k));
    printf("  instruction\n");
    for (i = 0; i < r->instr_n; i++) {
        printf("%5d %8lld", i, (long long)r->instr_issued[i]);
        for (k = 0; k < TC_SIM_STATE_COUNT; k++)
            if (k != TC_SIM_EXITED)
                printf(" %*lld", k == TC_SIM_SELECTED ? 9 : (int)strlen(tc_sim_state_name((tc_sim_state)k)),
                       (long long)r->instr_state_cycles[(size_t)i * TC_SIM_STATE_COUNT + k]);
        printf("  %s\n", lines ? lines[i] : "-");
    }
    free(lines);
}

static int run(int argc, char **argv) {
    const char *program = NULL, *profile = NULL, *trace = NULL, *png = NULL, *label = NULL;
    const char *sets[64];
    int nsets = 0, per_instruction = 0, bad = 0;
    tc_sim_profile prof;
    const tc_sim_profile *g = &prof;
    tc_sim_program p;
    tc_sim_options o;
    tc_sim_result r;
    tc_status s;
    const char *why;
    int i, k;
    memset(&o, 0, sizeof o);
    memset(&p, 0, sizeof p);
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] != '-') {
            if (program) { fprintf(stderr, "tcsim: more than one program given ('%s', '%s')\n", program, a); return 1; }
            program = a;
            continue;
        }
        if (strcmp(a, "--per-instruction") == 0) { per_instruction = 1; continue; }
        if (!v) { fprintf(stderr, "tcsim: %s needs a value\n", a); return 1; }
        i++;
        if (strcmp(a, "--profile") == 0) profile = v;
        else if (strcmp(a, "--trace") == 0) trace = v;
        else if (strcmp(a, "--png") == 0) png = v;
        else if (strcmp(a, "--set") == 0) {
            if (nsets == (int)(sizeof sets / sizeof sets[0])) { fprintf(stderr, "tcsim: more than %d --set\n", nsets); return 1; }
            sets[nsets++] = v;
        }
        else if (strcmp(a, "--warps") == 0 || strcmp(a, "--sms") == 0) {
            int n = parse_count(v);
            if (n < 0) { fprintf(stderr, "tcsim: %s wants a positive integer, not '%s'\n", a, v); return 1; }
            if (a[2] == 'w') o.warps_per_sm = n; else o.sms = n;
        } else if (strcmp(a, "--policy") == 0) {
            if (strcmp(v, "gto") == 0) o.policy = TC_SIM_GTO;
            else if (strcmp(v, "lrr") == 0) o.policy = TC_SIM_LRR;
            else { fprintf(stderr, "tcsim: unknown policy '%s' (gto or lrr)\n", v); return 1; }
        } else {
            fprintf(stderr, "tcsim: unknown option '%s'\n", a);
            return usage();
        }
    }
    if (!program) { fprintf(stderr, "tcsim: run needs a program (see tcsim programs)\n"); return 1; }
    if (!profile) { fprintf(stderr, "tcsim: run needs --profile <name> (see tcsim profiles)\n"); return 1; }
    if (load_profile(profile, &prof, &label)) return 1;
    for (i = 0; i < nsets; i++) {
        char err[256];
        if (tc_sim_profile_parse(sets[i], strlen(sets[i]), &prof, err, sizeof err) != TC_OK) {
            fprintf(stderr, "tcsim: --set %s: %s\n", sets[i], strchr(err, ' ') ? strchr(err, ' ') + 1 : err);
            return 1;
        }
    }
    if (tc_sim_profile_validate(g, &why) != TC_OK) { fprintf(stderr, "tcsim: profile %s: %s\n", profile, why); return 1; }
    if (o.sms > g->sms) { fprintf(stderr, "tcsim: --sms %d: %s has %d SMs\n", o.sms, label, g->sms); return 1; }
    if (o.warps_per_sm > g->max_warps_per_sm) {
        fprintf(stderr, "tcsim: --warps %d: an SM of %s holds at most %d warps\n", o.warps_per_sm, label, g->max_warps_per_sm);
        return 1;
    }
    if (load_program(program, &p)) return 1;
    o.record_timeline = trace || png;
    o.per_instruction = per_instruction;
    s = tc_sim_run(g, &p, &o, &r);
    if (s != TC_OK) {
        tc_sim_program_free(&p);
        fprintf(stderr, "tcsim: %s on %s: %s\n", program, label, tc_status_string(s));
        return 1;
    }
    printf("cycles: %lld\n", (long long)r.cycles);
    printf("program %s on %s: %d SMs x %d warps, %lld warp instructions, %.3f us at %.2f GHz\n", program, label, r.sms,
           r.warps_per_sm, (long long)r.instructions, r.seconds * 1e6, g->clock_ghz);
    printf("warp states (cycles summed over %d warps = %lld):\n", r.warps, (long long)r.warps * r.cycles);
    for (k = 0; k < TC_SIM_STATE_COUNT; k++)
        printf("  %-20s %10lld  %5.1f%%\n", tc_sim_state_name((tc_sim_state)k), (long long)r.state_cycles[k],
               100.0 * (double)r.state_cycles[k] / ((double)r.warps * (double)r.cycles));
    printf("achieved: %.3g FLOP/s (peak fp32 %.3g, tensor %.3g for %d SMs), DRAM %.3g B/s", r.flops_per_s,
           r.peak_fp32_flops_per_s, r.peak_tensor_flops_per_s, r.sms, r.dram_bytes_per_s);
    if (r.peak_dram_bytes_per_s > 0) printf(" (peak %.3g)", r.peak_dram_bytes_per_s);
    printf(", L2->SM %.3g B/s, %lld shared wavefronts\n", r.l2_bytes_per_s, (long long)r.shared_wavefronts);
    if (r.timeline_truncated) printf("note: the timeline was truncated (too many segments); the totals are exact\n");
    if (per_instruction) print_per_instruction(&p, &r);
    if (png) {
        char title[160];
        snprintf(title, sizeof title, "%s on %s: %lld cycles", program, label, (long long)r.cycles);
        if (tcsim_write_timeline_png(&r, title, png, 0) != 0) { fprintf(stderr, "tcsim: cannot write %s\n", png); bad = 1; }
        else printf("wrote %s\n", png);
    }
    if (trace && !bad) {
        if (tcsim_write_trace_json(&r, &p, trace) != 0) { fprintf(stderr, "tcsim: cannot write %s\n", trace); bad = 1; }
        else printf("wrote %s\n", trace);
    }
    tc_sim_program_free(&p);
    tc_sim_result_free(&r);
    return bad;
}

int main(int argc, char **argv) {
    int i;
    if (argc < 2) return usage();
    if (strcmp(argv[1], "profiles") == 0 && argc == 2) { list_profiles(); return 0; }
    if (strcmp(argv[1], "programs") == 0 && argc == 2) {
        for (i = 0; i < tc_sim_program_count(); i++) printf("%-24s %s\n", tc_sim_program_name(i), tc_sim_program_description(i));
        return 0;
    }
    if (strcmp(argv[1], "run") == 0) return run(argc - 2, argv + 2);
    if (strcmp(argv[1], "validate") == 0) return validate(argc - 2, argv + 2);
    if (strcmp(argv[1], "show") == 0) return show(argc - 2, argv + 2);
    if (strcmp(argv[1], "show-profile") == 0) return show_profile(argc - 2, argv + 2);
    if (strcmp(argv[1], "profiles") == 0 || strcmp(argv[1], "programs") == 0)
        fprintf(stderr, "tcsim: '%s' takes no arguments (got '%s')\n", argv[1], argv[2]);
    else
        fprintf(stderr, "tcsim: unknown command '%s'\n", argv[1]);
    return usage();
}
