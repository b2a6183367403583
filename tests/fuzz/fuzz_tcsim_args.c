/* libFuzzer harness: tcsim's command line, by running the tcsim binary.
   The input is decoded into an argument vector, word by word, from the
   dictionary below (subcommands, options, GPU and program names from the
   header's own tables, numbers at their edges, file names, junk bytes, and
   a file of fuzz bytes for commands that read one). The harness forks,
   runs the ASan+UBSan build of tcsim (FUZZ_TCSIM, set by the Makefile; the
   environment variable FUZZ_TCSIM overrides it) in a scratch directory with
   a time limit, and checks:
     - it exits 0, 1 or 2 (tcsim documents 0 and 1; 2 is left to new
       commands): no signal, no sanitizer report (sanitizers exit 86/87 here
       and write their reports into a folder of their own, log_path: never
       looked for in stderr, where tcsim echoes the fuzzed arguments back);
     - it ends within FUZZ_TCSIM_TIMEOUT seconds (default 30);
     - a failure says why: exit 1 or 2 leaves a message on stderr, exit 0
       prints something on stdout;
     - a successful `run` prints its warp states, and they add up to the
       warps x cycles it prints.
   It never links sim/ (tests/ does not include another top folder).
   Replay (make test): the committed corpus, plus FUZZ_RANDOM=N[:SEED]
   random inputs from a fixed seed. FUZZ_TCSIM_VERBOSE=1 prints each
   command line and its exit. New words go into the tables below. */
#define _XOPEN_SOURCE 700   /* fork, execv, mkdtemp, setenv, nanosleep */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "fuzz.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef FUZZ_TCSIM
#define FUZZ_TCSIM "tcsim"
#endif

enum { W_LIT, W_GPU, W_PROGRAM, W_NUMBER, W_JUNK, W_FILE, W_SET, W_DATASET, W_POLICY, W_NONE, W_ANY };
typedef struct { int kind; const char *text; } word;

/* The dictionary, in two tables. Words: anything that may stand anywhere. */
static const word words[] = {
    { W_LIT, "profiles" }, { W_LIT, "programs" }, { W_LIT, "run" }, { W_LIT, "validate" },
    { W_LIT, "show" }, { W_LIT, "show-profile" }, { W_LIT, "help" }, { W_LIT, "--help" }, { W_LIT, "-h" },
    { W_LIT, "--profile" }, { W_LIT, "--warps" }, { W_LIT, "--sms" }, { W_LIT, "--policy" },
    { W_LIT, "--trace" }, { W_LIT, "--png" }, { W_LIT, "--dataset" }, { W_LIT, "--gpu" }, { W_LIT, "--quiet" },
    { W_LIT, "--set" }, { W_LIT, "--" }, { W_LIT, "-" }, { W_LIT, "" },
    { W_LIT, "out.png" }, { W_LIT, "out.json" }, { W_LIT, "." }, { W_LIT, "/" }, { W_LIT, "/nonexistent/dir/out.png" },
    { W_LIT, "/dev/null" }, { W_LIT, "prog.tcs" },
    { W_GPU, NULL }, { W_PROGRAM, NULL }, { W_POLICY, NULL }, { W_NUMBER, NULL }, { W_JUNK, NULL },
    { W_FILE, NULL }, { W_SET, NULL }, { W_DATASET, NULL },
};
/* Commands and the options each takes with the kind of its value: the
   structured half of the inputs builds "command [operand] (option value)*"
   from here, so most runs get past the parser into the simulator. */
typedef struct { const char *command; int operand; const char *const *options; const int *values; int n; } command;
static const char *const run_opts[] = { "--profile", "--warps", "--sms", "--policy", "--trace", "--png", "--set" };
static const int run_vals[] = { W_GPU, W_NUMBER, W_NUMBER, W_POLICY, W_LIT, W_LIT, W_SET };
static const char *const validate_opts[] = { "--dataset", "--gpu", "--quiet" };
static const int validate_vals[] = { W_DATASET, W_GPU, W_NONE };
static const char *const dataset_opts[] = { "--dataset", "--gpu" };   /* a dataset of fuzz bytes */
static const int dataset_vals[] = { W_FILE, W_GPU };
static const char *const show_opts[] = { "--profile", "--set" };
static const int show_vals[] = { W_GPU, W_SET };
static const command commands[] = {
    { "run", W_PROGRAM, run_opts, run_vals, 7 },
    { "run", W_FILE, run_opts, run_vals, 7 },
    { "validate", W_NONE, validate_opts, validate_vals, 3 },
    { "profiles", W_NONE, NULL, NULL, 0 },
    { "programs", W_NONE, NULL, NULL, 0 },
    { "show", W_PROGRAM, show_opts, show_vals, 2 },
    { "show", W_FILE, show_opts, show_vals, 2 },
    { "show-profile", W_GPU, show_opts, show_vals, 2 },
    { "validate", W_NONE, dataset_opts, dataset_vals, 2 },
};

static const char *const numbers[] = {
    "1", "2", "4", "8", "16", "32", "1", "2", "4", "8", "0", "64", "132", "-1", "1000000", "1000001", "2147483647", "2147483648",
    "-2147483648", "9223372036854775807", "99999999999999999999", "1e-30", "1e308", "nan", "inf", "-inf",
    "0x10", "1e3", " 5", "5 ", "+5", "0000000000000000000000001", "3.5", "",
};
/* profile fields for --set NAME=VALUE (tc_sim_profile's) */
static const char *const fields[] = {
    "clock_ghz", "sms", "subpartitions", "max_warps_per_sm", "shared_bytes_per_sm", "banks", "bank_bytes",
    "sector_bytes", "dram_latency", "l2_latency", "shared_latency", "ffma_latency", "ffma_interval",
    "shared_wavefronts_per_cycle", "sm_bytes_per_cycle", "dram_bytes_per_cycle", "launch_overhead_us", "nosuchfield",
};

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MAX_ARGS 10

static long exits[3];        /* runs that exited 0, 1, 2 */
static long runs_checked;    /* successful runs whose warp states were added up */
static char scratch[256];   /* the child's working directory, emptied after each run */
static char logs[256];      /* the sanitizers' reports (log_path), apart from what tcsim writes */

static void empty_dir(const char *dir) {
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    if (!d) return;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' && (e->d_name[1] == 0 || (e->d_name[1] == '.' && e->d_name[2] == 0))) continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink(path) != 0) rmdir(path);
    }
    closedir(d);
}

/* The sanitizer reports in logs, concatenated (empty: none). */
static char *read_logs(void) {
    DIR *d = opendir(logs);
    struct dirent *e;
    char *all = (char *)calloc(1, 1), path[512];
    size_t n = 0;
    FUZZ_CHECK(all != NULL && d != NULL, "cannot read %s", logs);
    while ((e = readdir(d)) != NULL) {
        FILE *fp;
        char buf[4096];
        size_t k;
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", logs, e->d_name);
        if (!(fp = fopen(path, "rb"))) continue;
        while ((k = fread(buf, 1, sizeof buf, fp)) > 0 && n < (1 << 20)) {
            all = (char *)realloc(all, n + k + 1);
            FUZZ_CHECK(all != NULL, "out of memory");
            memcpy(all + n, buf, k);
            n += k;
            all[n] = 0;
        }
        fclose(fp);
    }
    closedir(d);
    return all;
}

static void cleanup(void) {
    if (scratch[0]) { empty_dir(scratch); rmdir(scratch); }
    if (logs[0]) { empty_dir(logs); rmdir(logs); }
}

static const char *tcsim_path(void) {
    const char *e = getenv("FUZZ_TCSIM");
    return e && *e ? e : FUZZ_TCSIM;
}

static void ensure_scratch(void) {
    const char *tmp = getenv("TMPDIR");
    if (scratch[0]) return;
    snprintf(scratch, sizeof scratch, "%s/fuzz_tcsim_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    FUZZ_CHECK(mkdtemp(scratch) != NULL, "cannot make a scratch directory from %s", scratch);
    snprintf(logs, sizeof logs, "%s/fuzz_tcsim_logs_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    FUZZ_CHECK(mkdtemp(logs) != NULL, "cannot make a log directory from %s", logs);
    atexit(cleanup);
}

/* One argument of the given kind from the input (W_ANY: any word). */
static void decode(fz *f, int kind, char *out, size_t cap) {
    static const char *const policies[] = { "gto", "lrr", "GTO", "" };
    static const char *const outputs[] = { "out.png", "out.json", "t.json", ".", "/", "/nonexistent/dir/out.png", "/dev/null" };
    const word *w = NULL;
    int i, n;
    out[0] = 0;
    if (kind == W_ANY) { w = &words[fz_u8(f) % N_OF(words)]; kind = w->kind; }
    switch (kind) {
    case W_NONE: break;
    case W_LIT: snprintf(out, cap, "%s", w ? w->text : outputs[fz_u8(f) % N_OF(outputs)]); break;
    case W_POLICY: snprintf(out, cap, "%s", policies[fz_u8(f) % N_OF(policies)]); break;
    case W_GPU: {
        int k = fz_small(f, tc_gpu_count() + 1);   /* one past the table: an unknown name */
        snprintf(out, cap, "%s", k < tc_gpu_count() ? tc_gpu_get(k)->name : "nosuchgpu");
        break; }
    case W_PROGRAM: {
        int k = fz_small(f, tc_sim_program_count() + 1);
        snprintf(out, cap, "%s", k < tc_sim_program_count() ? tc_sim_program_name(k) : "nosuchprogram");
        break; }
    case W_NUMBER: snprintf(out, cap, "%s", numbers[fz_u8(f) % N_OF(numbers)]); break;
    case W_SET:
        snprintf(out, cap, "%s=%s", fields[fz_u8(f) % N_OF(fields)], numbers[fz_u8(f) % N_OF(numbers)]);
        break;
    case W_DATASET:
#ifdef TC_DATASET
        snprintf(out, cap, "%s", TC_DATASET);
#endif
        break;
    case W_JUNK:   /* bytes 1..255 (an argument cannot hold a NUL) */
        n = fz_small(f, 24);
        for (i = 0; i < n && (size_t)i + 1 < cap; i++) { uint8_t b = fz_u8(f); out[i] = (char)(b ? b : '?'); }
        out[i] = 0;
        break;
    case W_FILE: {   /* a file of fuzz bytes, for commands that read one */
        char path[512];
        FILE *fp;
        n = fz_small(f, 200);
        snprintf(out, cap, "in%d.tcs", fz_small(f, 4));
        snprintf(path, sizeof path, "%s/%s", scratch, out);
        fp = fopen(path, "wb");
        FUZZ_CHECK(fp != NULL, "cannot write %s", path);
        for (i = 0; i < n; i++) fputc(fz_u8(f), fp);
        fclose(fp);
        break; }
    }
}

/* Reads a whole file (bounded), NUL-terminated. */
static char *slurp(const char *path, size_t max) {
    FILE *fp = fopen(path, "rb");
    char *buf = (char *)malloc(max + 1);
    size_t n = 0;
    FUZZ_CHECK(buf != NULL, "out of memory");
    if (fp) { n = fread(buf, 1, max, fp); fclose(fp); }
    buf[n] = 0;
    return buf;
}

/* "warp states (cycles summed over W warps = X):" then one line per state
   "  name  cycles  pct%": the cycles add up to X. */
static void check_run_output(const char *out) {
    const char *p = strstr(out, "warp states (cycles summed over ");
    long long total, sum = 0, v;
    int warps, lines = 0;
    char name[64];
    FUZZ_CHECK(p != NULL && sscanf(p, "warp states (cycles summed over %d warps = %lld)", &warps, &total) == 2, "run printed no warp states:\n%s", out);
    p = strchr(p, '\n');
    while (p && sscanf(p + 1, " %63s %lld", name, &v) == 2 && strchr(name, ':') == NULL) {
        sum += v;
        lines++;
        p = strchr(p + 1, '\n');
    }
    FUZZ_CHECK(lines == TC_SIM_STATE_COUNT && sum == total, "%d states add up to %lld, not %lld:\n%s", lines, sum, total, out);
}

static void run_tcsim(char **argv) {
    char out_path[512], err_path[512];
    const char *bin = tcsim_path();
    double limit = getenv("FUZZ_TCSIM_TIMEOUT") ? atof(getenv("FUZZ_TCSIM_TIMEOUT")) : 30.0;
    struct timespec t0, t1, nap = { 0, 2000000 };
    int status = 0, code, i;
    char *out, *err, *san;
    pid_t pid, w;
    snprintf(out_path, sizeof out_path, "%s/.stdout", scratch);
    snprintf(err_path, sizeof err_path, "%s/.stderr", scratch);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid = fork();
    FUZZ_CHECK(pid >= 0, "fork failed");
    if (pid == 0) {
        int fo = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600), fe = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fo < 0 || fe < 0 || chdir(scratch) != 0) _exit(120);
        dup2(fo, 1); dup2(fe, 2);
        /* a sanitizer report gets its own exit code, apart from tcsim's 1, and its own folder */
        char opt[600];
        snprintf(opt, sizeof opt, "exitcode=86:detect_leaks=1:log_path=%s/asan", logs);
        setenv("ASAN_OPTIONS", opt, 1);
        snprintf(opt, sizeof opt, "exitcode=87:print_stacktrace=1:log_path=%s/ubsan", logs);
        setenv("UBSAN_OPTIONS", opt, 1);
        execv(bin, argv);
        _exit(121);
    }
    for (;;) {
        double dt;
        w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        FUZZ_CHECK(w == 0 || errno == EINTR, "waitpid failed");
        clock_gettime(CLOCK_MONOTONIC, &t1);
        dt = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (dt > limit) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            fprintf(stderr, "fuzz_tcsim_args: tcsim ran past %.0f s:", limit);
            for (i = 0; argv[i]; i++) fprintf(stderr, " '%s'", argv[i]);
            fprintf(stderr, "\n");
            FUZZ_CHECK(!"tcsim hung", "timeout");
        }
        nanosleep(&nap, NULL);
    }
    out = slurp(out_path, 1 << 20);
    err = slurp(err_path, 1 << 20);
    san = read_logs();
    code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code == 120 || code == 121) { fprintf(stderr, "fuzz_tcsim_args: cannot run %s (set FUZZ_TCSIM)\n", bin); abort(); }
    if (!WIFEXITED(status) || code > 2 || san[0] || (code != 0 && !err[0]) ||
        (code == 0 && !out[0])) {
        fprintf(stderr, "fuzz_tcsim_args: tcsim");
        for (i = 1; argv[i]; i++) fprintf(stderr, " '%s'", argv[i]);
        if (WIFSIGNALED(status)) fprintf(stderr, "\n  died of signal %d\n", WTERMSIG(status));
        else fprintf(stderr, "\n  exited %d\n", code);
        fprintf(stderr, "--- sanitizer report:\n%.8000s\n--- stderr:\n%.4000s\n--- stdout:\n%.2000s\n", san, err, out);
        FUZZ_CHECK(!"tcsim exited cleanly", "it crashed, reported a sanitizer error, exited outside {0, 1, 2}, or failed silently");
    }
    exits[code]++;
    if (getenv("FUZZ_TCSIM_VERBOSE")) {   /* what ran, for writing seeds and triage */
        fprintf(stderr, "fuzz_tcsim_args: exit %d:", code);
        for (i = 1; argv[i]; i++) fprintf(stderr, " '%s'", argv[i]);
        fprintf(stderr, "\n");
    }
    if (code == 0 && argv[1] && strcmp(argv[1], "run") == 0 && strstr(out, "cycles: ")) { check_run_output(out); runs_checked++; }
    free(out);
    free(err);
    free(san);
    empty_dir(scratch);
    empty_dir(logs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    char buf[MAX_ARGS][256];
    char *argv[MAX_ARGS + 2];
    int n = 0, i, mode;
    ensure_scratch();
    argv[0] = (char *)tcsim_path();
    mode = fz_u8(&f);
    if (mode < 192) {   /* structured: a command, its operand, options with values; now and then any word */
        const command *c = &commands[mode % N_OF(commands)];
        int opts = fz_small(&f, 4);
        snprintf(buf[n++], sizeof buf[0], "%s", c->command);
        if (c->operand != W_NONE) decode(&f, c->operand, buf[n++], sizeof buf[0]);
        if (c->n && fz_u8(&f) < 224) {   /* the first option is the one a command needs (run's --profile) */
            snprintf(buf[n++], sizeof buf[0], "%s", c->options[0]);
            decode(&f, c->values[0], buf[n++], sizeof buf[0]);
        }
        for (i = 0; i < opts && c->n && n + 2 <= MAX_ARGS; i++) {   /* then any options */
            int o = fz_small(&f, c->n), wild = fz_u8(&f) < 24;
            snprintf(buf[n++], sizeof buf[0], "%s", c->options[o]);
            if (c->values[o] != W_NONE || wild) decode(&f, wild ? W_ANY : c->values[o], buf[n++], sizeof buf[0]);
        }
    } else {            /* free: any words */
        int k = fz_small(&f, MAX_ARGS + 1);
        for (n = 0; n < k; n++) decode(&f, W_ANY, buf[n], sizeof buf[0]);
    }
    for (i = 0; i < n; i++) argv[i + 1] = buf[i];
    argv[n + 1] = NULL;
    run_tcsim(argv);
    return 0;
}

/* FUZZ_RANDOM=N[:SEED]: N inputs of random bytes (a fixed generator, so a
   run is repeatable), after whatever the command line names. */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    const char *r = getenv("FUZZ_RANDOM");
    long n, k;
    uint64_t s = 1;
    (void)argc; (void)argv;
    if (!r || !*r) return 0;
    n = strtol(r, NULL, 10);
    if (strchr(r, ':')) s = strtoull(strchr(r, ':') + 1, NULL, 10);
    for (k = 0; k < n; k++) {
        uint8_t buf[64];
        size_t len, j;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;   /* xorshift64 */
        len = (size_t)(s % sizeof buf);
        for (j = 0; j < len; j++) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; buf[j] = (uint8_t)(s >> 24); }
        LLVMFuzzerTestOneInput(buf, len);
    }
    fprintf(stderr, "fuzz_tcsim_args: %ld random inputs (FUZZ_RANDOM=%s) ran clean: %ld exited 0 (%ld simulations checked), %ld exited 1, %ld exited 2\n",
            n, r, exits[0], runs_checked, exits[1], exits[2]);
    return 0;
}
