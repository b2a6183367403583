/* Replays inputs through a libFuzzer harness without libFuzzer: linked with
   one tests/fuzz/fuzz_*.c (built without -fsanitize=fuzzer, with ASan and
   UBSan), it feeds every file named on the command line, or found in a
   directory named there, to LLVMFuzzerTestOneInput once. A failed
   invariant or a sanitizer report aborts with the file's name printed
   first. Last line: "NAME: N inputs replayed". */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static long replayed;

static int replay_file(const char *path) {
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long n;
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); return 1; }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = (uint8_t *)malloc(n > 0 ? (size_t)n : 1);   /* exactly n bytes: ASan sees any over-read */
    if (!buf || (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n)) { fclose(f); fprintf(stderr, "replay: cannot read %s\n", path); return 1; }
    fclose(f);
    fprintf(stderr, "replay: %s\n", path);
    LLVMFuzzerTestOneInput(buf, (size_t)n);
    free(buf);
    replayed++;
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int replay_path(const char *path) {
    struct stat st;
    DIR *d;
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, i;
    int bad = 0;
    if (stat(path, &st) != 0) { fprintf(stderr, "replay: no such file %s\n", path); return 1; }
    if (!S_ISDIR(st.st_mode)) return replay_file(path);
    if (!(d = opendir(path))) { fprintf(stderr, "replay: cannot open %s\n", path); return 1; }
    while ((e = readdir(d)) != NULL) {
        char *full;
        if (e->d_name[0] == '.') continue;
        full = (char *)malloc(strlen(path) + strlen(e->d_name) + 2);
        sprintf(full, "%s/%s", path, e->d_name);
        names = (char **)realloc(names, (n + 1) * sizeof *names);
        names[n++] = full;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp);
    for (i = 0; i < n; i++) { bad |= replay_path(names[i]); free(names[i]); }
    free(names);
    return bad;
}

int main(int argc, char **argv) {
    int i, bad = 0;
    const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    for (i = 1; i < argc; i++) bad |= replay_path(argv[i]);
    fprintf(stderr, "%s: %ld inputs replayed\n", name, replayed);   /* stderr: a harness may silence stdout */
    return bad;
}
