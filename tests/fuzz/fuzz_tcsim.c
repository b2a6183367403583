/* libFuzzer harness: tcsim's argument handling, in process. sim/tcsim.c is
   included here with its main renamed to tcsim_main (a #define around the
   #include, so sim/ is not edited), and each input is split at
   '\0' or '\n' into up to 12 arguments after "tcsim". To keep inputs fast
   and harmless: the value after --trace or --png becomes a file in the
   temporary directory, the value after --dataset is the real dataset or a
   missing file, and counts above 8 after --sms or --warps become 8.
   Invariants: tcsim returns 0 or 1 and the sanitizers see nothing. */
#define _POSIX_C_SOURCE 200809L   /* getpid */
#include <stdint.h>
#include <stddef.h>
#include <unistd.h>
#define main tcsim_main
#include "../../sim/tcsim.c"
#undef main
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc; (void)argv;
    if (!freopen("/dev/null", "w", stdout)) return 0;   /* tcsim prints a lot */
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    enum { MAXARG = 12, MAXLEN = 64 };
    static char words[MAXARG][MAXLEN];
    static char trace_path[256];
    char *argv[MAXARG + 2];
    int argc = 1, rc, i;
    size_t at = 0;
    if (!trace_path[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(trace_path, sizeof trace_path, "%s/tcsim-fuzz-%d.out", tmp && *tmp ? tmp : "/tmp", (int)getpid());
    }
    argv[0] = (char *)"tcsim";
    while (at < size && argc <= MAXARG) {
        size_t len = 0;
        char *w = words[argc - 1];
        while (at < size && data[at] != 0 && data[at] != '\n') {
            if (len < MAXLEN - 1) w[len++] = (char)data[at];
            at++;
        }
        at++;
        w[len] = 0;
        argv[argc++] = w;
    }
    argv[argc] = NULL;
    for (i = 2; i < argc; i++) {
        const char *prev = argv[i - 1];
        if (!strcmp(prev, "--trace") || !strcmp(prev, "--png")) argv[i] = trace_path;
        else if (!strcmp(prev, "--dataset")) argv[i] = (char *)(argv[i][0] == 'x' ? "/nonexistent/dataset.csv" : TC_DATASET);
        else if ((!strcmp(prev, "--sms") || !strcmp(prev, "--warps")) && atol(argv[i]) > 8) argv[i] = (char *)"8";
    }
    rc = tcsim_main(argc, argv);
    FUZZ_CHECK(rc == 0 || rc == 1, "tcsim returned %d", rc);
    remove(trace_path);
    return 0;
}
