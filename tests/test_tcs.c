/* test_tcs.c - section 5's text formats: .tcs warp programs and profiles.
   Every built-in program (and the tiling and elementwise builders' output)
   printed and parsed back is the identical program; the committed programs
   in sim/programs/ parse, and the Dettmers ones are exactly the built-ins;
   malformed text gets "line:col: message" and no program; profiles round-
   trip for every GPU and name their bad key; and a bounded, deterministic
   mutation loop over all of that text checks the parser never crashes, never
   accepts what it cannot print back, and always says where it stopped.
   Also the per-instruction report (tc_sim_options.per_instruction): it
   changes no total and adds up to them, and charges each stall to the
   instruction that waits.
   Run from the repository root (it reads sim/programs/ by path). */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <stdlib.h>

/* Field by field, so padding bytes do not matter. */
static int same_program(const tc_sim_program *a, const tc_sim_program *b) {
    int i, j;
    if (strcmp(a->name, b->name) != 0 || a->n != b->n || a->n_tables != b->n_tables || a->global_bytes != b->global_bytes ||
        a->l2_resident_bytes != b->l2_resident_bytes || a->shared_bytes != b->shared_bytes || a->default_sms != b->default_sms ||
        a->default_warps_per_sm != b->default_warps_per_sm || a->default_warps_per_block != b->default_warps_per_block ||
        a->writes_reach_dram != b->writes_reach_dram || a->status != b->status)
        return 0;
    for (i = 0; i < a->n; i++) {
        const tc_sim_instr *x = &a->code[i], *y = &b->code[i];
        if (x->op != y->op || x->dst != y->dst || x->mma != y->mma || x->count != y->count || x->target != y->target ||
            memcmp(x->src, y->src, sizeof x->src) != 0 || x->addr.base != y->addr.base || x->addr.lane_stride != y->addr.lane_stride ||
            x->addr.warp_stride != y->addr.warp_stride || x->addr.iter_stride != y->addr.iter_stride ||
            x->addr.width != y->addr.width || x->addr.lane_table != y->addr.lane_table)
            return 0;
    }
    for (i = 0; i < a->n_tables; i++)
        for (j = 0; j < 32; j++) if (a->lane_tables[i][j] != b->lane_tables[i][j]) return 0;
    return 1;
}

/* The program as text (malloc'd), or NULL with a failed check. */
static char *print_of(const tc_sim_program *p) {
    size_t need = 0, again = 0;
    char *buf;
    CHECK_STATUS(tc_sim_program_print(p, NULL, 0, &need), TC_OK);
    buf = (char *)malloc(need + 1);
    CHECK(buf != NULL);
    if (!buf) return NULL;
    CHECK_STATUS(tc_sim_program_print(p, buf, need + 1, &again), TC_OK);
    CHECK(again == need && strlen(buf) == need);
    return buf;
}

/* print -> parse gives p back, and printing that gives the same text. */
static void check_roundtrip(const tc_sim_program *p) {
    tc_sim_program q;
    char err[200], *text = print_of(p), *text2;
    memset(&q, 0, sizeof q);
    if (!text) return;
    CHECK_STATUS(tc_sim_program_parse(text, strlen(text), &q, err, sizeof err), TC_OK);
    if (err[0]) printf("  parse error on %s: %s\n", p->name, err);
    CHECK(same_program(p, &q));
    text2 = print_of(&q);
    CHECK(text2 && strcmp(text, text2) == 0);
    free(text);
    free(text2);
    tc_sim_program_free(&q);
}

static void test_builtins_roundtrip(void) {
    tc_sim_program p;
    tc_sim_elementwise_desc e;
    tc_tile_desc d;
    int i;
    memset(&p, 0, sizeof p);
    for (i = 0; i < tc_sim_program_count(); i++) {
        CHECK_STATUS(tc_sim_build_named(&p, tc_sim_program_name(i)), TC_OK);
        check_roundtrip(&p);
    }
    /* every sparse and dense MMA kind, with and without metadata */
    for (i = 0; i < TC_MMA_INSTR_COUNT; i++) {
        tc_mma_instr_info info;
        tc_sim_program_free(&p);
        tc_mma_instr_get((tc_mma_instr)i, &info);
        tc_sim_mma(&p, (tc_mma_instr)i, 8, 1, 2, 8);
        if (info.sparse_group) tc_sim_mma_sp(&p, (tc_mma_instr)i, 9, 1, 2, 9, 63);
        tc_sim_bar(&p, 8);
        tc_sim_exit(&p);
        CHECK_STATUS(p.status, TC_OK);
        check_roundtrip(&p);
    }
    memset(&e, 0, sizeof e);
    e.elements = 1 << 20; e.inputs = 3; e.outputs = 2; e.ops = 5;
    CHECK_STATUS(tc_sim_build_elementwise(&p, &e, 4, 16), TC_OK);
    check_roundtrip(&p);
    memset(&d, 0, sizeof d);
    d.M = d.N = d.K = 4096; d.in = TC_FP16; d.cta_m = 128; d.cta_n = 128; d.cta_k = 32; d.warp_m = 64; d.warp_n = 64;
    d.inst_m = 16; d.inst_n = 8; d.inst_k = 16; d.stages = 2;
    CHECK_STATUS(tc_tile_build_mainloop(&p, tc_gpu_find("a100"), &d, 4, 1), TC_OK);
    check_roundtrip(&p);
    tc_sim_program_free(&p);
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *t;
    long n;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    t = (char *)malloc((size_t)n + 1);
    if (t && fread(t, 1, (size_t)n, f) != (size_t)n) { free(t); t = NULL; }
    fclose(f);
    if (t) { t[n] = '\0'; *len = (size_t)n; }
    return t;
}

static const char *const files[] = {
    "sim/programs/matmul32_ffma.tcs", "sim/programs/matmul32_tc.tcs", "sim/programs/reduction.tcs",
    "sim/programs/transpose.tcs", "sim/programs/transpose_padded.tcs", "sim/programs/gemm_double_buffer.tcs",
    "sim/programs/shfl_reduction.tcs", "sim/programs/histogram.tcs", "sim/programs/histogram_contended.tcs",
    "sim/programs/transpose_store.tcs",
};

static void test_committed_programs(void) {
    int i;
    for (i = 0; i < (int)(sizeof files / sizeof files[0]); i++) {
        tc_sim_program p, q;
        char err[200];
        size_t len = 0;
        char *text = slurp(files[i], &len);
        memset(&p, 0, sizeof p);
        memset(&q, 0, sizeof q);
        CHECK(text != NULL);
        if (!text) { printf("  cannot read %s (run from the repository root)\n", files[i]); continue; }
        CHECK_STATUS(tc_sim_program_parse(text, len, &p, err, sizeof err), TC_OK);
        if (err[0]) printf("  %s:%s\n", files[i], err);
        if (i < 2) {   /* the Dettmers programs are the built-ins, exactly */
            CHECK_STATUS(tc_sim_build_named(&q, i == 0 ? "matmul32_ffma" : "matmul32_tc"), TC_OK);
            CHECK(same_program(&p, &q));
        }
        check_roundtrip(&p);
        tc_sim_program_free(&p);
        tc_sim_program_free(&q);
        free(text);
    }
}

/* Runs the committed programs on named profiles: what tests/test_tcsim.sh
   also checks through tcsim, here with the bank-conflict reason spelled out. */
static int64_t cycles_of_file(const char *path, const char *gpu, int64_t *wavefronts) {
    tc_sim_program p;
    tc_sim_result r;
    size_t len = 0;
    char *text = slurp(path, &len);
    int64_t c = -1;
    memset(&p, 0, sizeof p);
    if (text && tc_sim_program_parse(text, len, &p, NULL, 0) == TC_OK && tc_sim_run(&tc_gpu_find(gpu)->profile, &p, NULL, &r) == TC_OK) {
        c = r.cycles;
        if (wavefronts) *wavefronts = r.shared_wavefronts;
        tc_sim_result_free(&r);
    }
    tc_sim_program_free(&p);
    free(text);
    return c;
}

static void test_committed_cycles(void) {
    int64_t wf_plain = 0, wf_padded = 0;
    CHECK(cycles_of_file("sim/programs/matmul32_ffma.tcs", "dettmers2020", NULL) == 392);
    CHECK(cycles_of_file("sim/programs/matmul32_tc.tcs", "dettmers2020", NULL) == 221);
    CHECK(cycles_of_file("sim/programs/matmul32_ffma.tcs", "dettmers2023", NULL) == 504);
    CHECK(cycles_of_file("sim/programs/matmul32_tc.tcs", "dettmers2023", NULL) == 235);
    /* 8 warps x (4 stores + 4 column loads): a row store costs one wavefront (lane i writes
       word i), a column load 32 without padding and 1 with it */
    CHECK(cycles_of_file("sim/programs/transpose.tcs", "a100", &wf_plain) > cycles_of_file("sim/programs/transpose_padded.tcs", "a100", &wf_padded));
    CHECK(wf_plain == 8 * 4 * (1 + 32));
    CHECK(wf_padded == 8 * 4 * (1 + 1));
}

/* The issue-15 opcodes: the committed examples (cycles from running the
   model, kept as regression guards) and small programs whose cycles follow
   from the profile's numbers by hand. */
static int64_t cycles_of_text(const char *text, const tc_sim_profile *g, int warps, int64_t *state_cycles) {
    tc_sim_program p;
    tc_sim_result r;
    tc_sim_options o;
    int64_t c = -1;
    char err[200];
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    o.sms = 1;
    o.warps_per_sm = warps;
    if (tc_sim_program_parse(text, strlen(text), &p, err, sizeof err) != TC_OK) printf("  %s\n", err);
    else if (tc_sim_run(g, &p, &o, &r) == TC_OK) {
        c = r.cycles;
        if (state_cycles) memcpy(state_cycles, r.state_cycles, sizeof r.state_cycles);
        tc_sim_result_free(&r);
    }
    tc_sim_program_free(&p);
    return c;
}

static void test_new_opcodes(void) {
    const tc_sim_profile *a = &tc_gpu_find("a100")->profile;
    tc_sim_profile g = *a;
    int64_t wf = 0, wf2 = 0, st[TC_SIM_STATE_COUNT];
    char text[2048];
    int i;
    /* the examples: shuffles beat the shared tree; contention costs 32 passes per atomic */
    CHECK(cycles_of_file("sim/programs/shfl_reduction.tcs", "a100", &wf) == 477);
    CHECK(wf == 8 + 1);                                     /* 8 one-word partial-sum stores, 1 load */
    CHECK(cycles_of_file("sim/programs/reduction.tcs", "a100", NULL) > 477);
    CHECK(cycles_of_file("sim/programs/histogram.tcs", "a100", &wf) == 1120);
    CHECK(cycles_of_file("sim/programs/histogram_contended.tcs", "a100", &wf2) == 1500);
    CHECK(wf == 8 * 4 + 1 && wf2 == 8 * 4 * 32 + 1);
    CHECK(cycles_of_file("sim/programs/transpose_store.tcs", "a100", &wf) == 1288);
    CHECK(wf == 8 * 4 * (32 + 1));                          /* column stores: 32 wavefronts each */
    CHECK(cycles_of_file("sim/programs/transpose_padded.tcs", "a100", NULL) < 1288);
    /* SHFL: its latency, waited for as short_scoreboard */
    CHECK(cycles_of_text("shfl r1, r0\nffma r2, r1, r1, r2\nexit\n", a, 1, st) == a->shfl_latency + a->ffma_latency);
    CHECK(st[TC_SIM_SHORT_SCOREBOARD] == a->shfl_latency - 1);
    /* one SHFL per shfl_interval per SM: 4 warps on 4 schedulers issue in cycle 0 and queue */
    g.shfl_interval = 5;
    CHECK(cycles_of_text("shfl r1, r0\nexit\n", &g, 4, NULL) == 3 * 5 + g.shfl_latency);
    g = *a;
    /* the integer pipe is not FFMA's: 8 (FFMA, IMAD) pairs issue one per cycle,
       16 FFMAs one per ffma_interval */
    text[0] = '\0';
    for (i = 0; i < 8; i++) snprintf(text + strlen(text), sizeof text - strlen(text), "ffma r%d, r1, r1, r1\nimad r%d, r1, -, -\n", 10 + i, 20 + i);
    strcat(text, "exit\n");
    CHECK(cycles_of_text(text, a, 1, st) == 15 + a->int_latency);
    CHECK(st[TC_SIM_MATH_PIPE_THROTTLE] == 0);
    text[0] = '\0';
    for (i = 0; i < 16; i++) snprintf(text + strlen(text), sizeof text - strlen(text), "ffma r%d, r1, r1, r1\n", 10 + i);
    strcat(text, "exit\n");
    CHECK(cycles_of_text(text, a, 1, st) == 15 * a->ffma_interval + a->ffma_latency);
    CHECK(st[TC_SIM_MATH_PIPE_THROTTLE] == 15 * (a->ffma_interval - 1));
    /* shared atomics: distinct banks, 16 lanes per bank (stride 64 bytes), one word */
    CHECK(cycles_of_text(".shared_bytes 4096\natoms r1, r2, [4*lane]\nexit\n", a, 1, NULL) == a->atoms_latency);
    CHECK(cycles_of_text(".shared_bytes 4096\natoms r1, r2, [64*lane]\nexit\n", a, 1, NULL) == a->atoms_latency + 15);
    CHECK(cycles_of_text(".shared_bytes 4096\natoms r1, r2, [0]\nexit\n", a, 1, NULL) == a->atoms_latency + 31);
    /* global atomics at L2: 32 addresses, or one (31 further lanes) */
    g.atom_same_address_cycles = 3;
    CHECK(cycles_of_text(".global_bytes 4096\n.l2_resident_bytes 4096\natomg r1, r2, [4*lane]\nexit\n", &g, 1, st) == g.atomg_latency);
    CHECK(st[TC_SIM_LONG_SCOREBOARD] == g.atomg_latency - 1);
    CHECK(cycles_of_text(".global_bytes 4096\n.l2_resident_bytes 4096\natomg r1, r2, [0]\nexit\n", &g, 1, NULL) == g.atomg_latency + 31 * 3);
    /* a miss goes to DRAM first, as a load does */
    CHECK(cycles_of_text(".global_bytes 4096\natomg r1, r2, [4*lane]\nexit\n", &g, 1, NULL) == g.dram_latency - g.l2_latency + g.atomg_latency);
    /* a reduction (no dst) is fire and forget: the warp retires at once */
    CHECK(cycles_of_text(".global_bytes 4096\n.l2_resident_bytes 4096\natomg -, r2, [0]\nexit\n", &g, 1, NULL) == 1);
    /* the address stays inside the program's memory */
    CHECK(cycles_of_text(".shared_bytes 64\natoms r1, r2, [4*lane]\nexit\n", a, 1, NULL) == -1);
    CHECK(cycles_of_text(".global_bytes 64\natomg r1, r2, [4*lane]\nexit\n", a, 1, NULL) == -1);
}

/* wgmma spells its N in .tcs; every kind and N prints and parses back.
   4 dependent m64n128k16 per warp on h100 take 4 x 82 cycles (test_sim's
   hand derivation), whether 1 warp or the 4 of a warpgroup issue them. */
static void test_wgmma_text(void) {
    const tc_sim_profile *h = &tc_gpu_find("h100")->profile;
    tc_sim_program p;
    int k, n;
    CHECK(cycles_of_text("mma.wgmma.m64n128k16.f16 r0, r1, r2, r0\nmma.wgmma.m64n128k16.f16 r0, r1, r2, r0\n"
                         "mma.wgmma.m64n128k16.f16 r0, r1, r2, r0\nmma.wgmma.m64n128k16.f16 r0, r1, r2, r0\nexit\n", h, 4, NULL) == 328);
    CHECK(cycles_of_text("mma.wgmma.m64n8k32.e5m2.e4m3 r0, r1, r2, r0\nexit\n", h, 1, NULL) == 22);
    CHECK(cycles_of_text("mma.wgmma.m64n256k8.tf32 r0, r1, r2, r0\nexit\n", &tc_gpu_find("a100")->profile, 1, NULL) == -1);
    /* b200's tcgen05.m128nNk16.f16 at N = 128: latency 530 - 512 + 256 = 274 (test_sim's derivation); h100 has none */
    CHECK(cycles_of_text("mma.tcgen05.m128n128k16.f16 r0, r1, r2, r0\nmma.tcgen05.m128n128k16.f16 r0, r1, r2, r0\nexit\n",
                         &tc_gpu_find("b200")->profile, 1, NULL) == 2 * 274);
    CHECK(cycles_of_text("mma.tcgen05.m64n64k8.tf32 r0, r1, r2, r0\nexit\n", h, 1, NULL) == -1);
    /* rtx5090's block-scaled m16n8k64 mxf4: latency 33 (test_sim's derivation), so 2 dependent take 66; rtx4090 has none */
    CHECK(cycles_of_text("mma.m16n8k64.mxf4.e2m1 r0, r1, r2, r0\nmma.m16n8k64.mxf4.e2m1 r0, r1, r2, r0\nexit\n",
                         &tc_gpu_find("rtx5090")->profile, 1, NULL) == 66);
    CHECK(cycles_of_text("mma.m16n8k32.e2m1 r0, r1, r2, r0\nexit\n", &tc_gpu_find("rtx4090")->profile, 1, NULL) == -1);
    memset(&p, 0, sizeof p);
    for (k = 0; k < TC_MMA_INSTR_COUNT; k++) {
        tc_mma_instr_info in;
        CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)k, &in), TC_OK);
        for (n = in.n_step; n > 0 && n <= in.n; n += in.n_step) CHECK_STATUS(tc_sim_mma_n(&p, (tc_mma_instr)k, n, 1, 2, 3, 1), TC_OK);
    }
    tc_sim_exit(&p);
    /* wgmma and wgmma.sp; tcgen05 (f16, bf16, tf32, 25 kind::f8f6f4 pairings) M = 64 (step 8) and M = 128 (step 16),
       and the block-scaled M = 128 (25 kind::mxf8f6f4 pairings, mxf4, mxf4nvf4) */
    CHECK(p.n == 14 * 32 + 28 * 32 + 28 * 16 + 27 * 16 + 1);
    check_roundtrip(&p);
    tc_sim_program_free(&p);
}

typedef struct { const char *text, *error; } bad_case;

static void test_errors(void) {
    static const bad_case cases[] = {
        { "", "1:1: the program must end with exit" },
        { "ffma r1, r2, r3, r1\n", "2:1: the program must end with exit" },
        { "  frob r1\nexit\n", "1:3: unknown instruction 'frob'" },
        { "ffma r1, r2, r3\nexit\n", "1:16: expected ',' before the next operand of ffma" },
        { "ffma r64, r2, r3, r1\nexit\n", "1:6: 'r64' is not a register" },
        { "ffma r01, r2, r3, r1\nexit\n", "'r01' is not a register" },
        { "ffma -, r2, r3, r1 junk\nexit\n", "1:20: unexpected text after ffma's operands" },
        { "ldg r1, [4*lane + 4*lane]\nexit\n", "the lane term appears twice" },
        { "ldg r1, [4*lane + 8*bank]\nexit\n", "unknown name 'bank'" },
        { "ldg r1, [4*lane\nexit\n", "expected + - or ] in the memory operand" },
        { "ldg r1, [4611686018427387905]\nexit\n", "out of range" },
        { "ldg.w3 r1, [0]\nexit\n", "unknown modifier '.w3'" },
        { "ldsm r1, [16*lane]\nexit\n", "ldsm needs .x1, .x2 or .x4" },
        { "mma.m9n9k9.f16 r1, r2, r3, r1\nexit\n", "mma needs a known kind" },
        { "mma.wgmma.m64nNk16.f16 r1, r2, r3, r1\nexit\n", "mma needs a known kind" },
        { "mma.wgmma.m64n260k16.f16 r1, r2, r3, r1\nexit\n", "mma needs a known kind" },
        { "mma.wgmma.m64n12k16.f16 r1, r2, r3, r1\nexit\n", "mma needs a known kind" },
        { "mma.wgmma.m64n0k16.f16 r1, r2, r3, r1\nexit\n", "mma needs a known kind" },
        { "mma.wgmma.m64n16k16.f32 r1, r2, r3, r1\nexit\n", "mma needs a known kind" },
        { "lds r1, [0], meta r4\nexit\n", "1:14: lds takes no operand 'meta'" },
        { "lds r1, [0], after r2, after r3\nexit\n", "'after' given twice" },
        { "shfl r1, r2, r3\nexit\n", "1:12: unexpected text after shfl's operands" },
        { "imad r1, r2\nexit\n", "1:12: expected ',' before the next operand of imad" },
        { "atoms r1, r2\nexit\n", "expected ',' before the next operand of atoms" },
        { "atomg.x4 r1, r2, [0]\nexit\n", "unknown modifier '.x4'" },
        { "atoms r1, r2, [0], after r3\nexit\n", "atoms takes no operand 'after'" },
        { "loop top, 4\nexit\n", "1:6: unknown label 'top'" },
        { "top:\nloop top, 0\nexit\n", "2:11: a loop runs 1..16777216 times" },
        { "top: top:\nexit\n", "1:6: label 'top' defined twice" },
        { ".frob 1\nexit\n", "1:2: unknown directive '.frob'" },
        { ".sms 99999999999\nexit\n", "sms is out of range" },
        { ".sms 8 9\nexit\n", "unexpected text after .sms" },
        { ".table t 1 2 3\nexit\n", "a table has 32 entries, one per lane (got 3)" },
        { ".reg r5 r1\nexit\n", "'r5' cannot name a register" },
        { ".reg acc r1\n.reg acc r2\nexit\n", "register name 'acc' given twice" },
        { ".table t 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\nldg r1, [-t[lane]]\nexit\n", "2:11: a lane table 't' cannot be scaled or negated" },
        { "ldg r1, [nope[lane]]\nexit\n", "unknown name 'nope'" },
        { ".program bad/name\nexit\n", "unexpected text after .program" },
        { "exit\n\x01\n", "2:1: expected an instruction" },
        { "exit\0ffma r1, r2, r3, r4\n", "1:5: unexpected text after exit's operands" },
    };
    int i;
    tc_sim_program p;
    char err[200], tiny[8];
    memset(&p, 0, sizeof p);
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
        size_t len = strlen(cases[i].text);
        if (i == (int)(sizeof cases / sizeof cases[0]) - 1) len = 27;   /* the embedded NUL */
        CHECK_STATUS(tc_sim_program_parse(cases[i].text, len, &p, err, sizeof err), TC_ERR_PROGRAM);
        CHECK(strstr(err, cases[i].error) != NULL);
        if (!strstr(err, cases[i].error)) printf("  case %d: got \"%s\", want \"%s\"\n", i, err, cases[i].error);
        CHECK(p.n == 0 && p.code == NULL);   /* a failed parse leaves no program */
    }
    /* the message is cut to the buffer, always terminated */
    CHECK_STATUS(tc_sim_program_parse("frob\n", 5, &p, tiny, sizeof tiny), TC_ERR_PROGRAM);
    CHECK(strlen(tiny) == sizeof tiny - 1);
    CHECK_STATUS(tc_sim_program_parse("frob\n", 5, &p, NULL, 0), TC_ERR_PROGRAM);
    CHECK_STATUS(tc_sim_program_parse(NULL, 0, &p, err, sizeof err), TC_ERR_NULL);
    CHECK_STATUS(tc_sim_program_parse("exit\n", 5, NULL, err, sizeof err), TC_ERR_NULL);
    CHECK_STATUS(tc_sim_program_parse("exit\n", (size_t)1 << 27, &p, err, sizeof err), TC_ERR_SIZE);
    /* a program that parses may still not run: the simulator's checks stay the judge */
    CHECK_STATUS(tc_sim_program_parse("ldg r1, [4*lane]\nexit\n", 22, &p, err, sizeof err), TC_OK);
    {
        tc_sim_result r;
        CHECK_STATUS(tc_sim_run(&tc_gpu_find("a100")->profile, &p, NULL, &r), TC_ERR_PROGRAM);   /* global_bytes 0 */
    }
    /* names, tables, labels followed by an instruction, comments and blank lines */
    {
        const char *t = "# a comment\n\n.program x\n.reg acc r7\n.table d 0 132 264 396 528 660 792 924 1056 1188 1320 1452 1584 1716 1848 1980"
                        " 2112 2244 2376 2508 2640 2772 2904 3036 3168 3300 3432 3564 3696 3828 3960 4092\n"
                        ".shared_bytes 4224\ntop: lds r1, [-8 + d[lane] + 4*iter], after acc  # c\n  loop top, 2\nexit";
        CHECK_STATUS(tc_sim_program_parse(t, strlen(t), &p, err, sizeof err), TC_OK);
        CHECK(p.n == 3 && p.n_tables == 1 && p.lane_tables[0][31] == 4092 && p.code[0].addr.lane_table == 1 &&
              p.code[0].addr.base == -8 && p.code[0].addr.iter_stride == 4 && p.code[0].src[1] == 7 && p.code[1].target == 0 &&
              p.code[1].count == 2 && strcmp(p.name, "x") == 0);
        check_roundtrip(&p);
    }
    tc_sim_program_free(&p);
}

/* What the printer refuses, so that it never writes text that parses to another program. */
static void test_unprintable(void) {
    tc_sim_program p;
    char buf[1024];
    size_t need = 0;
    memset(&p, 0, sizeof p);
    CHECK_STATUS(tc_sim_program_print(NULL, buf, sizeof buf, &need), TC_ERR_NULL);
    CHECK_STATUS(tc_sim_program_print(&p, NULL, 5, &need), TC_ERR_NULL);
    tc_sim_ffma(&p, 1, 2, 3, 1);
    tc_sim_exit(&p);
    CHECK_STATUS(tc_sim_program_print(&p, buf, 10, &need), TC_ERR_BUFFER);
    CHECK(strlen(buf) == 9 && need > 10);
    p.code[0].count = 3;   /* a field FFMA does not use */
    CHECK_STATUS(tc_sim_program_print(&p, buf, sizeof buf, NULL), TC_ERR_PROGRAM);
    p.code[0].count = 0;
    p.code[0].src[3] = 4;
    CHECK_STATUS(tc_sim_program_print(&p, buf, sizeof buf, NULL), TC_ERR_PROGRAM);
    p.code[0].src[3] = TC_SIM_NOREG;
    p.code[0].addr.base = 4;
    CHECK_STATUS(tc_sim_program_print(&p, buf, sizeof buf, NULL), TC_ERR_PROGRAM);
    p.code[0].addr.base = 0;
    p.code[0].op = TC_SIM_OP_COUNT;
    CHECK_STATUS(tc_sim_program_print(&p, buf, sizeof buf, NULL), TC_ERR_PROGRAM);
    p.code[0].op = TC_SIM_LOOP;
    p.code[0].src[0] = p.code[0].src[1] = p.code[0].src[2] = p.code[0].dst = TC_SIM_NOREG;
    p.code[0].target = 1;   /* forward: a LOOP jumps back */
    p.code[0].count = 2;
    CHECK_STATUS(tc_sim_program_print(&p, buf, sizeof buf, NULL), TC_ERR_PROGRAM);
    p.code[0].target = 0;
    CHECK_STATUS(tc_sim_program_print(&p, buf, sizeof buf, NULL), TC_OK);
    strcpy(p.name, "has space");
    CHECK_STATUS(tc_sim_program_print(&p, buf, sizeof buf, NULL), TC_ERR_PROGRAM);
    tc_sim_program_free(&p);
    tc_sim_ldg(&p, 1, TC_SIM_NOREG, tc_sim_addr_affine(INT64_MIN, 0, 0, 0, 4));
    tc_sim_exit(&p);
    CHECK_STATUS(tc_sim_program_print(&p, buf, sizeof buf, NULL), TC_ERR_PROGRAM);
    tc_sim_program_free(&p);
}

static int same_profile(const tc_sim_profile *a, const tc_sim_profile *b) {
    return a->clock_ghz == b->clock_ghz && a->sms == b->sms && a->subpartitions == b->subpartitions &&
           a->max_warps_per_sm == b->max_warps_per_sm && a->shared_bytes_per_sm == b->shared_bytes_per_sm && a->banks == b->banks &&
           a->bank_bytes == b->bank_bytes && a->sector_bytes == b->sector_bytes && a->dram_latency == b->dram_latency &&
           a->l2_latency == b->l2_latency && a->shared_latency == b->shared_latency && a->ffma_latency == b->ffma_latency &&
           a->ffma_interval == b->ffma_interval && memcmp(a->mma_latency, b->mma_latency, sizeof a->mma_latency) == 0 &&
           memcmp(a->mma_interval, b->mma_interval, sizeof a->mma_interval) == 0 &&
           a->shared_wavefronts_per_cycle == b->shared_wavefronts_per_cycle && a->sm_bytes_per_cycle == b->sm_bytes_per_cycle &&
           a->dram_bytes_per_cycle == b->dram_bytes_per_cycle && a->launch_overhead_us == b->launch_overhead_us;
}

/* Every number of every built-in profile names its source; base = NAME
   starts a file from a GPU's profile. */
static void test_profile_sources(void) {
    static const struct { const char *text, *error; } bad_base[] = {
        { "sms = 4\nbase = h100\n", "2:1: base must come before every other key" },
        { "base = h100\nbase = a100\n", "2:1: base must come before" },
        { "base = x\n", "1:8: base: unknown GPU 'x'" },
        { "base h100\n", "1:6: base: expected '='" },
        { "base = \n", "1:8: expected a GPU name" },
        { "base = a100 v100\n", "1:13: base: unexpected text" },
    };
    int i;
    char buf[32768], err[200];
    tc_sim_profile g;
    tc_gpu copy;
    for (i = 0; i < tc_gpu_count(); i++) {
        const tc_gpu *gpu = tc_gpu_get(i);
        char *line;
        CHECK(tc_sim_profile_print(&gpu->profile, buf, sizeof buf, NULL) == TC_OK);
        for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
            char key[64];
            const char *src;
            CHECK(sscanf(line, "%63s =", key) == 1);
            src = tc_gpu_source(gpu, key);
            CHECK(src != NULL && strlen(src) > 8);
            if (!src) printf("  %s: no source for %s\n", gpu->name, key);
        }
    }
    copy = *tc_gpu_find("a100");   /* only the table's own entries have sources */
    CHECK(tc_gpu_source(&copy, "dram_latency") == NULL);
    CHECK(tc_gpu_source(NULL, "dram_latency") == NULL);
    CHECK(tc_gpu_source(tc_gpu_find("a100"), NULL) == NULL);
    CHECK(tc_gpu_source(tc_gpu_find("a100"), "frob") == NULL);
    CHECK(tc_gpu_source(tc_gpu_find("a100"), "mma_latency.m9n9k9.f16") == NULL);
    CHECK(tc_gpu_source(tc_gpu_find("a100"), "") == NULL);
    CHECK(strncmp(tc_gpu_source(tc_gpu_find("h100"), "dram_latency"), "MEASURED", 8) == 0);
    CHECK(strncmp(tc_gpu_source(tc_gpu_find("rtx3090"), "dram_latency"), "ASSUMED", 7) == 0);
    /* base: the GPU's profile, then the changes; anywhere else an error with its place */
    memset(&g, 0, sizeof g);
    CHECK_STATUS(tc_sim_profile_parse("# x\n base = h100 # the start\nsms = 4\n", 37, &g, err, sizeof err), TC_OK);
    {
        tc_sim_profile want = tc_gpu_find("h100")->profile;
        want.sms = 4;
        CHECK(memcmp(&g, &want, sizeof g) == 0);
    }
    for (i = 0; i < (int)(sizeof bad_base / sizeof bad_base[0]); i++) {
        CHECK_STATUS(tc_sim_profile_parse(bad_base[i].text, strlen(bad_base[i].text), &g, err, sizeof err), TC_ERR_PROFILE);
        CHECK(strstr(err, bad_base[i].error) != NULL);
        if (!strstr(err, bad_base[i].error)) printf("  base case %d: got \"%s\", want \"%s\"\n", i, err, bad_base[i].error);
    }
}

static void test_profiles(void) {
    static const bad_case cases[] = {
        { "sms = 0\n", "1:7: sms: must be an integer in 1..4096" },
        { "sms = 8.5\n", "sms: must be an integer" },
        { "dram_latency = 1048577\n", "dram_latency: must be an integer in 1..1048576" },
        { "clock_ghz = nan\n", "1:13: clock_ghz: 'nan' is not a finite number" },
        { "clock_ghz = inf\n", "is not a finite number" },
        { "clock_ghz = 0.001\n", "clock_ghz: must be in [0.01, 100]" },
        { "\n  frob = 3\n", "2:3: unknown key 'frob'" },
        { "sms 8\n", "sms: expected '=' after the key" },
        { "sms = 8 9\n", "sms: unexpected text after the value" },
        { "sms =\n", "is not a finite number" },
        { "mma_latency.m9n9k9.f16 = 4\n", "unknown key 'mma_latency.m9n9k9.f16'" },
        { "mma_interval.m16n8k16.f16 = -1\n", "must be an integer in 0..1048576" },
    };
    tc_sim_profile g, h;
    char buf[32768], err[200];
    int i;
    size_t need = 0;
    for (i = 0; i < tc_gpu_count(); i++) {
        const tc_sim_profile *src = &tc_gpu_get(i)->profile;
        CHECK_STATUS(tc_sim_profile_print(src, buf, sizeof buf, &need), TC_OK);
        memset(&g, 0, sizeof g);
        CHECK_STATUS(tc_sim_profile_parse(buf, strlen(buf), &g, err, sizeof err), TC_OK);
        CHECK(same_profile(src, &g));
        CHECK_STATUS(tc_sim_profile_validate(&g, NULL), TC_OK);
    }
    CHECK_STATUS(tc_sim_profile_print(&g, buf, 16, &need), TC_ERR_BUFFER);
    CHECK(strlen(buf) == 15);
    /* --set: one field over a GPU's profile, the rest untouched */
    g = tc_gpu_find("h100")->profile;
    h = g;
    CHECK_STATUS(tc_sim_profile_parse("dram_latency=700", 16, &g, err, sizeof err), TC_OK);
    CHECK(g.dram_latency == 700);
    g.dram_latency = h.dram_latency;
    CHECK(same_profile(&g, &h));
    CHECK_STATUS(tc_sim_profile_parse("mma_latency.m16n8k16.f16 = 40 # c", 33, &g, err, sizeof err), TC_OK);
    CHECK(g.mma_latency[TC_MMA_M16N8K16_F16] == 40);
    for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
        g = h;
        CHECK_STATUS(tc_sim_profile_parse(cases[i].text, strlen(cases[i].text), &g, err, sizeof err), TC_ERR_PROFILE);
        CHECK(strstr(err, cases[i].error) != NULL);
        if (!strstr(err, cases[i].error)) printf("  profile case %d: got \"%s\", want \"%s\"\n", i, err, cases[i].error);
    }
    CHECK_STATUS(tc_sim_profile_parse(NULL, 0, &g, err, sizeof err), TC_ERR_NULL);
    CHECK_STATUS(tc_sim_profile_print(NULL, buf, sizeof buf, &need), TC_ERR_NULL);
}

/* ---- per-instruction accounting (tc_sim_options.per_instruction) */

static void test_per_instruction(void) {
    static const char *const names[] = { "matmul32_ffma", "matmul32_tc", "stream", "mma_throughput" };
    const tc_sim_profile *g = &tc_gpu_find("a100")->profile;
    int i, k, pc;
    for (i = 0; i < (int)(sizeof names / sizeof names[0]); i++) {
        tc_sim_program p;
        tc_sim_options o;
        tc_sim_result plain, per;
        int64_t issued = 0, sums[TC_SIM_STATE_COUNT], bad_pc = 0;
        memset(&p, 0, sizeof p);
        memset(&o, 0, sizeof o);
        memset(sums, 0, sizeof sums);
        CHECK_STATUS(tc_sim_build_named(&p, names[i]), TC_OK);
        CHECK_STATUS(tc_sim_run(g, &p, &o, &plain), TC_OK);
        o.per_instruction = 1;
        o.record_timeline = 1;
        CHECK_STATUS(tc_sim_run(g, &p, &o, &per), TC_OK);
        /* the accounting changes nothing it accounts for */
        CHECK(per.cycles == plain.cycles && per.instructions == plain.instructions &&
              memcmp(per.state_cycles, plain.state_cycles, sizeof per.state_cycles) == 0);
        CHECK(per.instr_n == p.n && plain.instr_n == 0 && plain.instr_issued == NULL);
        for (pc = 0; pc < per.instr_n; pc++) {
            issued += per.instr_issued[pc];
            for (k = 0; k < TC_SIM_STATE_COUNT; k++) sums[k] += per.instr_state_cycles[pc * TC_SIM_STATE_COUNT + k];
            /* a warp is selected at an instruction exactly once per issue */
            CHECK(per.instr_state_cycles[pc * TC_SIM_STATE_COUNT + TC_SIM_SELECTED] == per.instr_issued[pc]);
        }
        CHECK(issued == per.instructions);
        CHECK(memcmp(sums, per.state_cycles, sizeof sums) == 0);
        for (k = 0; k < per.warp_segments[per.warps]; k++) bad_pc += per.segments[k].pc < 0 || per.segments[k].pc >= p.n;
        CHECK(bad_pc == 0);
        if (i == 0) {
            /* matmul32_ffma: 0 ldgsts, then (lds after the token, addressed by the
               accumulator; ffma) x 8. The cp.async wait is the first lds's
               long_scoreboard; each ffma waits on its lds (short_scoreboard);
               lds 2..8 wait on the previous ffma (wait). */
            const int64_t *c = per.instr_state_cycles;
            CHECK(c[1 * TC_SIM_STATE_COUNT + TC_SIM_LONG_SCOREBOARD] == per.state_cycles[TC_SIM_LONG_SCOREBOARD]);
            CHECK(c[1 * TC_SIM_STATE_COUNT + TC_SIM_LONG_SCOREBOARD] > 0);
            for (pc = 2; pc <= 16; pc += 2) CHECK(c[pc * TC_SIM_STATE_COUNT + TC_SIM_SHORT_SCOREBOARD] > 0);
            for (pc = 3; pc <= 15; pc += 2) CHECK(c[pc * TC_SIM_STATE_COUNT + TC_SIM_WAIT] > 0);
        }
        tc_sim_result_free(&plain);
        tc_sim_result_free(&per);
        CHECK(per.instr_issued == NULL && per.instr_state_cycles == NULL && per.instr_n == 0);
        tc_sim_program_free(&p);
    }
}

/* ---- bra.warp_ge: warps of one block running different code */

static void test_branches(void) {
    const tc_sim_profile *g = &tc_gpu_find("a100")->profile;
    tc_sim_program p;
    tc_sim_options o;
    tc_sim_result r;
    char err[200];
    int64_t wf = 0;
    int i;
    memset(&p, 0, sizeof p);
    memset(&o, 0, sizeof o);
    /* warps 0, 1 of each 4-warp block run 8 FFMAs; warps 2, 3 jump over them */
    tc_sim_bra_warp(&p, 2, 9);
    for (i = 0; i < 8; i++) tc_sim_ffma(&p, 1, 2, 3, 1);
    tc_sim_bar(&p, TC_SIM_NOREG);
    tc_sim_exit(&p);
    CHECK_STATUS(p.status, TC_OK);
    check_roundtrip(&p);
    o.sms = 1; o.warps_per_sm = 8; o.warps_per_block = 4;
    CHECK_STATUS(tc_sim_run(g, &p, &o, &r), TC_OK);
    CHECK(r.instructions == 8 * 2 /* bra, bar */ + 4 * 8);
    CHECK(r.flops == 4 * 8 * 64.0);
    tc_sim_result_free(&r);
    /* what the simulator refuses: backward, onto itself, past the end, over a LOOP */
    p.code[0].target = 0;
    CHECK_STATUS(tc_sim_run(g, &p, &o, &r), TC_ERR_PROGRAM);
    p.code[0].target = p.n;
    CHECK_STATUS(tc_sim_run(g, &p, &o, &r), TC_ERR_PROGRAM);
    p.code[0].target = 9;
    p.code[0].count = -1;
    CHECK_STATUS(tc_sim_run(g, &p, &o, &r), TC_ERR_PROGRAM);
    tc_sim_program_free(&p);
    {
        const char *out_of_loop = "top:\n  bra.warp_ge 1, out\n  ffma r1, r1, r1, r1\n  loop top, 3\nout:\n  exit\n";
        const char *in_loop = "top:\n  bra.warp_ge 1, next\n  ffma r1, r1, r1, r1\nnext:\n  loop top, 3\n  exit\n";
        CHECK_STATUS(tc_sim_program_parse(out_of_loop, strlen(out_of_loop), &p, err, sizeof err), TC_OK);
        CHECK_STATUS(tc_sim_run(g, &p, &o, &r), TC_ERR_PROGRAM);
        CHECK_STATUS(tc_sim_program_parse(in_loop, strlen(in_loop), &p, err, sizeof err), TC_OK);
        CHECK_STATUS(tc_sim_run(g, &p, &o, &r), TC_OK);
        /* warp 0 of each block: 3 x (bra, ffma, loop); the other 3: 3 x (bra, loop) */
        CHECK(r.instructions == 2 * (3 * 3 + 3 * 3 * 2));
        tc_sim_result_free(&r);
        check_roundtrip(&p);
    }
    {   /* warp 1 reaches the barrier first; warp 0's arrival releases it, on an earlier
           sub-partition in the same cycle (this once hung: the run stopped with TC_ERR_PROGRAM).
           Warp 0: bra at 0, ffma at 1 (ready at 1 + ffma_latency), bar at 2; exit when r1 is ready. */
        const char *t = "bra.warp_ge 1, x\nffma r1, r2, r3, r1\nx: bar\nexit\n";
        CHECK_STATUS(tc_sim_program_parse(t, strlen(t), &p, err, sizeof err), TC_OK);
        memset(&o, 0, sizeof o);
        o.warps_per_sm = 2;
        CHECK_STATUS(tc_sim_run(g, &p, &o, &r), TC_OK);
        CHECK(r.cycles == 1 + g->ffma_latency);
        tc_sim_result_free(&r);
    }
    /* parse errors of forward labels */
    CHECK_STATUS(tc_sim_program_parse("bra.warp_ge 1, nowhere\nexit\n", 28, &p, err, sizeof err), TC_ERR_PROGRAM);
    CHECK(strstr(err, "1:16: unknown label 'nowhere'") != NULL);
    CHECK_STATUS(tc_sim_program_parse("bra.warp_ge 1, end\nexit\nend:\n", 29, &p, err, sizeof err), TC_ERR_PROGRAM);
    CHECK(strstr(err, "1:16: label 'end' has no instruction after it") != NULL);
    CHECK_STATUS(tc_sim_program_parse("bra.warp_ge -1, x\nx: exit\n", 24, &p, err, sizeof err), TC_ERR_PROGRAM);
    CHECK(strstr(err, "1:13: a warp index is 0..65536") != NULL);
    CHECK_STATUS(tc_sim_program_parse("bra.warp_gt 1, x\nx: exit\n", 23, &p, err, sizeof err), TC_ERR_PROGRAM);
    CHECK(strstr(err, "1:1: 'bra.warp_gt' has an unknown modifier") != NULL || strstr(err, "unknown instruction 'bra'") != NULL);
    /* the reduction: 8 warps x (ldg, sts, bar) + per level s: 8 x (bra, bar) and 4 instructions per active warp */
    CHECK(cycles_of_file("sim/programs/reduction.tcs", "a100", &wf) > 0);
    {
        size_t len = 0;
        char *text = slurp("sim/programs/reduction.tcs", &len);
        int64_t want = 8 * 3, s;
        for (s = 128; s >= 1; s /= 2) want += 8 * 2 + 4 * (s >= 32 ? s / 32 : 1);
        CHECK(text && tc_sim_program_parse(text, len, &p, NULL, 0) == TC_OK);
        memset(&o, 0, sizeof o);
        CHECK(tc_sim_run(g, &p, &o, &r) == TC_OK && r.instructions == want && r.shared_wavefronts == wf);
        CHECK(want == 200 && wf == 8 + 3 * (4 + 2 + 1 + 5));   /* each active warp's level: 2 loads and a store */
        tc_sim_result_free(&r);
        free(text);
    }
    tc_sim_program_free(&p);
}

/* ---- bounded mutation fuzzing of both parsers (deterministic) */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void) {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* An error message must start "line:col: " with both numbers at least 1. */
static int located(const char *err) {
    int line = 0, col = 0;
    char colon = 0;
    return sscanf(err, "%d:%d%c", &line, &col, &colon) == 3 && line >= 1 && col >= 1 && colon == ':';
}

static size_t mutate(char *t, size_t n, size_t cap) {
    static const char pieces[][12] = { "[", "]", ",", "\n", "#", ".", ":", "-", "*", "+", "r63", "r64", "lane", "iter",
                                       "9999999999", "0", "loop ", "exit", ".x4", ".w16", "after ", "L0", "\t", "\0",
                                       "shfl ", "imad ", "atoms ", "atomg ", "addr ", ".w8" };
    int k, m = 1 + (int)(rnd() % 4);
    for (k = 0; k < m && n > 0; k++) {
        size_t at = rnd() % n, len;
        switch (rnd() % 5) {
        case 0: t[at] = (char)(rnd() & 0xFF); break;
        case 1:   /* delete a span */
            len = 1 + rnd() % 16;
            if (at + len > n) len = n - at;
            memmove(t + at, t + at + len, n - at - len);
            n -= len;
            break;
        case 2: {   /* insert a token */
            const char *s = pieces[rnd() % (sizeof pieces / sizeof pieces[0])];
            len = *s ? strlen(s) : 1;
            if (n + len >= cap) break;
            memmove(t + at + len, t + at, n - at);
            memcpy(t + at, s, len);
            n += len;
            break;
        }
        case 3: {   /* duplicate a span elsewhere */
            size_t from = rnd() % n;
            len = 1 + rnd() % 64;
            if (from + len > n) len = n - from;
            if (n + len >= cap) break;
            memmove(t + at + len, t + at, n - at);
            memmove(t + at, t + (from < at ? from : from + len), len);
            n += len;
            break;
        }
        default: if (t[at] >= '0' && t[at] <= '8') t[at]++; else if (t[at] == '9') t[at] = '0'; break;
        }
    }
    return n;
}

static void test_fuzz(void) {
    const int rounds = 1500;
    int i, f, accepted = 0, rejected = 0, bad_message = 0, bad_roundtrip = 0;
    tc_sim_program p, q;
    memset(&p, 0, sizeof p);
    memset(&q, 0, sizeof q);
    for (f = 0; f < (int)(sizeof files / sizeof files[0]) + 1; f++) {
        size_t len = 0, cap;
        char *seed, *t, err[256];
        char prof[32768];
        if (f < (int)(sizeof files / sizeof files[0])) seed = slurp(files[f], &len);
        else {
            tc_sim_profile_print(&tc_gpu_find("h100")->profile, prof, sizeof prof, &len);
            seed = (char *)malloc(len + 1);
            if (seed) memcpy(seed, prof, len + 1);
        }
        if (!seed) continue;
        cap = 2 * len + 64;
        t = (char *)malloc(cap);
        if (!t) { free(seed); continue; }
        for (i = 0; i < rounds; i++) {
            size_t n;
            tc_status s;
            memcpy(t, seed, len);
            n = mutate(t, len, cap);
            if (f < (int)(sizeof files / sizeof files[0])) {
                s = tc_sim_program_parse(t, n, &p, err, sizeof err);
                if (s == TC_OK) {
                    char *back;
                    size_t need = 0;
                    accepted++;
                    /* what parsed must print (the format covers it) and parse back the same */
                    if (tc_sim_program_print(&p, NULL, 0, &need) != TC_OK || !(back = (char *)malloc(need + 1))) { bad_roundtrip++; continue; }
                    tc_sim_program_print(&p, back, need + 1, NULL);
                    if (tc_sim_program_parse(back, need, &q, NULL, 0) != TC_OK || !same_program(&p, &q)) bad_roundtrip++;
                    free(back);
                } else {
                    rejected++;
                    if (!located(err) || p.code != NULL) bad_message++;
                }
            } else {
                tc_sim_profile g = tc_gpu_find("h100")->profile;
                s = tc_sim_profile_parse(t, n, &g, err, sizeof err);
                if (s == TC_OK) accepted++;
                else { rejected++; if (!located(err)) bad_message++; }
            }
        }
        free(t);
        free(seed);
    }
    tc_sim_program_free(&p);
    tc_sim_program_free(&q);
    printf("  fuzz: %d mutated texts accepted, %d rejected\n", accepted, rejected);
    CHECK(bad_message == 0);
    CHECK(bad_roundtrip == 0);
    CHECK(accepted > 0 && rejected > 0);   /* the mutations reach both outcomes */
}

int main(void) {
    test_builtins_roundtrip();
    test_committed_programs();
    test_committed_cycles();
    test_new_opcodes();
    test_wgmma_text();
    test_errors();
    test_unprintable();
    test_profiles();
    test_profile_sources();
    test_per_instruction();
    test_branches();
    test_fuzz();
    return tct_finish("test_tcs");
}
