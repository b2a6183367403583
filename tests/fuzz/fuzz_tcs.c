/* libFuzzer harness: the .tcs program parser and the profile parser
   (section 5's text formats, docs/tcs.md). Byte 0 picks the parser (even:
   program, odd: profile); the rest is the text, NUL bytes and all.
   Invariants: a refused text gets TC_ERR_PROGRAM / TC_ERR_PROFILE (or
   TC_ERR_SIZE / TC_ERR_NOMEM for a program past a bound), a message that
   starts "line:col: " and, for a program, no program left behind; an
   accepted program prints, and the printed text parses to the identical
   program and prints identically; an accepted small program runs on a100
   (any status) without crashing, under a small max_cycles. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "fuzz.h"

static void check_located(const char *err) {
    int line = 0, col = 0;
    char colon = 0;
    FUZZ_CHECK(sscanf(err, "%d:%d%c", &line, &col, &colon) == 3 && line >= 1 && col >= 1 && colon == ':', "message '%s'", err);
}

static char *print_of(const tc_sim_program *p, size_t *len) {
    size_t need = 0;
    char *buf;
    FUZZ_CHECK(tc_sim_program_print(p, NULL, 0, &need) == TC_OK, "an accepted program does not print");
    buf = (char *)malloc(need + 1);
    FUZZ_CHECK(buf != NULL, "malloc");
    FUZZ_CHECK(tc_sim_program_print(p, buf, need + 1, NULL) == TC_OK, "print into a buffer of the size asked");
    *len = need;
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char err[256];
    const char *text = size ? (const char *)data + 1 : "";
    size_t len = size ? size - 1 : 0;
    tc_status s;
    if (size && (data[0] & 1)) {
        tc_sim_profile g = tc_gpu_find("h100")->profile;
        s = tc_sim_profile_parse(text, len, &g, err, sizeof err);
        FUZZ_CHECK(s == TC_OK || s == TC_ERR_PROFILE, "profile status %d", (int)s);
        if (s != TC_OK) check_located(err);
        else {
            char buf[32768];   /* every field, and each instruction's latency and interval */
            tc_sim_profile h;
            memset(&h, 0, sizeof h);
            FUZZ_CHECK(tc_sim_profile_print(&g, buf, sizeof buf, NULL) == TC_OK, "profile print");
            FUZZ_CHECK(tc_sim_profile_parse(buf, strlen(buf), &h, err, sizeof err) == TC_OK, "printed profile reparses: %s", err);
        }
        return 0;
    }
    {
        tc_sim_program p, q;
        memset(&p, 0, sizeof p);
        memset(&q, 0, sizeof q);
        s = tc_sim_program_parse(text, len, &p, err, sizeof err);
        if (s != TC_OK) {
            FUZZ_CHECK(s == TC_ERR_PROGRAM || s == TC_ERR_SIZE || s == TC_ERR_NOMEM, "program status %d", (int)s);
            FUZZ_CHECK(p.code == NULL && p.n == 0, "a refused program is left behind");
            check_located(err);
            return 0;
        }
        {
            size_t n1 = 0, n2 = 0;
            char *t1 = print_of(&p, &n1), *t2;
            FUZZ_CHECK(tc_sim_program_parse(t1, n1, &q, err, sizeof err) == TC_OK, "printed text reparses: %s", err);
            FUZZ_CHECK(q.n == p.n && q.n_tables == p.n_tables && strcmp(q.name, p.name) == 0, "reparsed program differs");
            t2 = print_of(&q, &n2);
            FUZZ_CHECK(n1 == n2 && memcmp(t1, t2, n1) == 0, "printing is not stable");
            free(t1);
            free(t2);
        }
        if (p.global_bytes <= (1 << 20) && p.n <= 4096) {
            tc_sim_options o;
            tc_sim_result r;
            memset(&o, 0, sizeof o);
            o.sms = 1;
            o.warps_per_sm = 2;
            o.warps_per_block = 1;
            o.max_cycles = 20000;
            if (tc_sim_run(&tc_gpu_find("a100")->profile, &p, &o, &r) == TC_OK) tc_sim_result_free(&r);
        }
        tc_sim_program_free(&p);
        tc_sim_program_free(&q);
    }
    return 0;
}
