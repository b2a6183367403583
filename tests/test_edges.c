/* test_edges.c - every field of every input struct at its edges.
   For each struct a table names every field (offsetof, sizeof) with the
   status each class of edge value must give: negative (-1, INT_MIN,
   INT64_MIN, -Inf), zero, tiny (1e-30), subnormal (1e-40 float, 1e-310
   double), big (INT_MAX, INT64_MAX, FLT_MAX / DBL_MAX), +Inf, NaN, and,
   where the header documents an upper bound, the bound itself and one past
   it. A probe runs the struct's functions on a valid base with one field
   changed and checks, besides the status, an invariant where the call
   succeeds (the simulator's state cycles add up to warps x cycles, the
   tiling model's time is finite and positive, a GEMM's D is the base's
   wherever a leading dimension cannot matter) and that outputs stay
   untouched where a call fails. A layout check proves each table walks
   its struct from the first byte to the last with only alignment padding
   between fields, so a field added to a struct fails here until the table
   has it. Runs in make test's unit stage and under ASan+UBSan. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>

typedef enum { K_INT, K_I64, K_DBL, K_FLT, K_PTR, K_OWNED } kind;   /* enums are K_INT (checked by size) */
enum { C_NEG, C_ZERO, C_TINY, C_SUBN, C_BIG, C_INF, C_NAN, C_COUNT };   /* edge classes */
static const char *const class_name[C_COUNT] = { "negative", "zero", "tiny", "subnormal", "big", "+Inf", "NaN" };
#define NA (-1)     /* no value of this class for the field's type */
#define SKIP (-2)   /* not applied: the caller's buffers would have to be that large (a contract, not a check) */
#define IF_HAS (-3)        /* mma_interval: TC_ERR_PROFILE if the GPU has the kind (mma_latency > 0), else ignored: TC_OK */
#define IF_INTERVAL (-4)   /* mma_latency: TC_OK if the kind has an interval (>= 1) to go with it, else TC_ERR_PROFILE */

typedef struct {
    const char *name;
    size_t off, size;   /* size of one element */
    int count;          /* elements (arrays) */
    kind k;
    int exp[C_COUNT];   /* expected status per class; NA or SKIP */
    double hi;          /* documented upper bound (0: none): hi gives hi_st, the next value exp[C_BIG] */
    int hi_st;
} field;

#define MSIZE(T, m) sizeof(((T *)0)->m)
#define FLD(T, m, k, neg, zero, tiny, subn, big, inf, nan, hi, hi_st) \
    { #m, offsetof(T, m), MSIZE(T, m), 1, k, { neg, zero, tiny, subn, big, inf, nan }, hi, hi_st }
#define ARR(T, m, k, neg, zero, big, hi, hi_st) \
    { #m, offsetof(T, m), MSIZE(T, m[0]), (int)(MSIZE(T, m) / MSIZE(T, m[0])), k, { neg, zero, NA, NA, big, NA, NA }, hi, hi_st }
/* integer fields: negative, zero, big (INT_MAX; INT64_MAX for int64) */
#define INT(T, m, neg, zero, big, hi, hi_st) FLD(T, m, K_INT, neg, zero, NA, NA, big, NA, NA, hi, hi_st)
#define I64(T, m, neg, zero, big, hi, hi_st) FLD(T, m, K_I64, neg, zero, NA, NA, big, NA, NA, hi, hi_st)
#define PTR(T, m, null) FLD(T, m, K_PTR, NA, null, NA, NA, NA, NA, NA, 0, 0)
/* set by the emitters, not by callers: covered by the layout, no edges */
#define OWNED(T, m) { #m, offsetof(T, m), MSIZE(T, m), 1, K_OWNED, { NA, NA, NA, NA, NA, NA, NA }, 0, 0 }

/* ---- layout: the table walks the struct, in order, with only padding between fields */
static size_t align_of_size(size_t s) { return s >= 8 ? 8 : s; }
static void check_layout(const char *type, const field *f, int n, size_t size, size_t base_off) {
    size_t end = base_off, maxal = 1;
    int i, ok = 1;
    for (i = 0; i < n; i++) {
        size_t al = f[i].k == K_OWNED && f[i].size > 8 ? 1 : align_of_size(f[i].size);
        size_t want = (end + al - 1) / al * al;
        if (f[i].off != want) { ok = 0; printf("     %s: field %s at %zu, expected %zu (a field missing from the table?)\n", type, f[i].name, f[i].off, want); }
        if (f[i].k == K_INT && f[i].size != sizeof(int)) { ok = 0; printf("     %s: %s is not int-sized\n", type, f[i].name); }
        end = f[i].off + f[i].size * (size_t)f[i].count;
        if (al > maxal) maxal = al;
    }
    if ((end - base_off + maxal - 1) / maxal * maxal != size) { ok = 0; printf("     %s: table ends at %zu, struct is %zu bytes\n", type, end - base_off, size); }
    if (!CHECK(ok)) printf("     layout of %s\n", type);
}

/* ---- the driver: one field, one value, through a probe */
typedef tc_status (*probe_fn)(void *obj);

static void put(void *obj, const field *f, int elem, int cls, int which, double hi) {
    unsigned char *p = (unsigned char *)obj + f->off + (size_t)elem * f->size;
    double d = 0.0;
    switch (cls) {
    case C_NEG:  d = which ? -HUGE_VAL : -1.0; break;
    case C_ZERO: d = 0.0; break;
    case C_TINY: d = 1e-30; break;
    case C_SUBN: d = f->k == K_FLT ? 1e-40 : 1e-310; break;
    case C_BIG:  d = f->k == K_FLT ? FLT_MAX : DBL_MAX; break;
    case C_INF:  d = HUGE_VAL; break;
    case C_NAN:  d = NAN; break;
    default: break;
    }
    if (cls < 0) d = hi;   /* the documented bound (-1) or one past it (-2) */
    switch (f->k) {
    case K_INT: {
        int v = cls == C_NEG ? (which ? INT_MIN : -1) : cls == C_BIG ? INT_MAX : cls == -1 ? (int)hi : cls == -2 ? (int)hi + 1 : 0;
        memcpy(p, &v, sizeof v); break; }
    case K_I64: {
        int64_t v = cls == C_NEG ? (which ? INT64_MIN : -1) : cls == C_BIG ? INT64_MAX
                  : cls == -1 ? (int64_t)hi : cls == -2 ? (int64_t)hi + 1 : 0;
        memcpy(p, &v, sizeof v); break; }
    case K_DBL: {
        if (cls == -2) d = nextafter(hi, HUGE_VAL);
        memcpy(p, &d, sizeof d); break; }
    case K_FLT: {
        float v = (float)d;
        if (cls == -2) v = nextafterf((float)hi, HUGE_VALF);
        memcpy(p, &v, sizeof v); break; }
    case K_PTR: { void *v = NULL; memcpy(p, &v, sizeof v); break; }
    case K_OWNED: break;
    }
}

static int values_in_class(kind k, int cls) {
    if (k == K_OWNED) return 0;
    if (k == K_PTR) return cls == C_ZERO;
    if (k == K_INT || k == K_I64) return cls == C_NEG ? 2 : cls == C_ZERO || cls == C_BIG;
    return cls == C_NEG ? 2 : 1;
}

/* IF_HAS / IF_INTERVAL: the other array of the pair, element e, in the same object */
static int resolve(const field *f, const unsigned char *obj, int e, int want) {
    int other;
    size_t lat = offsetof(tc_sim_profile, mma_latency), itv = offsetof(tc_sim_profile, mma_interval);
    if (want == IF_HAS) { memcpy(&other, obj + f->off - itv + lat + (size_t)e * sizeof other, sizeof other); return other > 0 ? TC_ERR_PROFILE : TC_OK; }
    if (want == IF_INTERVAL) { memcpy(&other, obj + f->off - lat + itv + (size_t)e * sizeof other, sizeof other); return other >= 1 ? TC_OK : TC_ERR_PROFILE; }
    return want;
}

static long edge_cases;
static char cur_case[200];   /* the case being probed, for the probes' messages */
static void walk(const char *type, const field *f, int n, const void *base, size_t size, probe_fn probe) {
    unsigned char obj[4096];   /* the largest input struct: tc_sim_profile, two ints per instruction */
    int i, e, cls, which;
    TC_ASSERT(size <= sizeof obj);
    for (i = 0; i < n; i++)
        for (e = 0; e < f[i].count; e++) {
            for (cls = f[i].hi != 0 ? -2 : 0; cls < C_COUNT; cls++) {
                int want = cls == -1 ? f[i].hi_st : cls == -2 ? f[i].exp[C_BIG] : f[i].exp[cls];
                int nv = cls < 0 ? 1 : values_in_class(f[i].k, cls);
                if (want == NA || want == SKIP) continue;
                for (which = 0; which < nv; which++) {
                    tc_status got;
                    memcpy(obj, base, size);
                    put(obj, &f[i], e, cls, which, f[i].hi);
                    want = resolve(&f[i], obj, e, want);
                    snprintf(cur_case, sizeof cur_case, "%s.%s[%d] = %s%s", type, f[i].name, e,
                             cls == -1 ? "its bound" : cls == -2 ? "one past its bound" : class_name[cls], which ? " (the other one)" : "");
                    got = probe(obj);
                    edge_cases++;
                    if (!CHECK(got == (tc_status)want))
                        printf("     %s: got %s, expected %s\n", cur_case, tc_status_string(got), tc_status_string((tc_status)want));
                }
            }
        }
}

/* ---- shared checks on results */
static int sim_consistent(const tc_sim_result *r) {
    int64_t sum = 0;
    int s;
    for (s = 0; s < TC_SIM_STATE_COUNT; s++) sum += r->state_cycles[s];
    return r->cycles > 0 && r->warps == r->sms * r->warps_per_sm && sum == (int64_t)r->warps * r->cycles &&
           r->instructions > 0 && isfinite(r->seconds) && r->seconds > 0;
}
/* tc_sim_run zeroes its result on error (nothing to free) */
static int result_zero(const tc_sim_result *r) {
    return r->cycles == 0 && r->segments == NULL && r->warp_segments == NULL && r->instructions == 0;
}

static const tc_gpu *a100(void) { return tc_gpu_find("a100"); }

/* A small program touching every unit: global load, shared store and
   load, FFMA, MMA, barrier, loop, store. */
static void build_probe_program(tc_sim_program *p, const tc_sim_profile *g) {
    int k, top;
    memset(p, 0, sizeof *p);
    p->global_bytes = 1 << 16;
    p->shared_bytes = 16384;   /* 64 warps x 128 bytes: the most warps a100 may run */
    p->default_sms = 1;
    p->default_warps_per_sm = 4;
    tc_sim_ldg(p, 1, TC_SIM_NOREG, tc_sim_addr_affine(0, 4, 128, 0, 4));
    tc_sim_sts(p, 1, tc_sim_addr_affine(0, 4, 128, 0, 4));
    tc_sim_bar(p, TC_SIM_NOREG);
    top = p->n;
    tc_sim_lds(p, 2, TC_SIM_NOREG, TC_SIM_NOREG, tc_sim_addr_affine(0, 4, 0, 0, 4));
    tc_sim_ffma(p, 3, 2, 2, 3);
    for (k = 0; k < TC_MMA_INSTR_COUNT; k++)
        if (g->mma_latency[k] > 0) {
            tc_mma_instr_info info;
            CHECK_STATUS(tc_mma_instr_get((tc_mma_instr)k, &info), TC_OK);
            if (info.sparse_group) tc_sim_mma_sp(p, (tc_mma_instr)k, 4, 5, 6, 4, 7);
            else tc_sim_mma(p, (tc_mma_instr)k, 4, 5, 6, 4);
        }
    tc_sim_shfl(p, 8, 3);
    tc_sim_imad(p, 9, 8, TC_SIM_NOREG, 9);
    tc_sim_atoms(p, 10, 9, TC_SIM_NOREG, tc_sim_addr_affine(0, 0, 128, 0, 4));
    tc_sim_atomg(p, 11, 10, 9, tc_sim_addr_affine(16384, 0, 0, 0, 4));
    tc_sim_loop(p, top, 2);
    tc_sim_stg(p, 3, tc_sim_addr_affine(8192, 4, 128, 0, 4));
    tc_sim_exit(p);
}

/* ---- tc_sim_profile: tc_sim_profile_validate, then a run touching every
   field, and the two predictions */
#define PROF TC_ERR_PROFILE
#define P(m, neg, zero, big, hi) INT(tc_sim_profile, m, neg, zero, big, hi, TC_OK)
#define PD(m, neg, zero, tiny, subn, big, hi) FLD(tc_sim_profile, m, K_DBL, neg, zero, tiny, subn, big, PROF, PROF, hi, TC_OK)
static const field profile_fields[] = {
    PD(clock_ghz, PROF, PROF, PROF, PROF, PROF, 100.0),
    P(sms, PROF, PROF, PROF, 4096),
    P(subpartitions, PROF, PROF, PROF, 64),
    P(max_warps_per_sm, PROF, PROF, PROF, 1024),
    I64(tc_sim_profile, shared_bytes_per_sm, PROF, TC_OK, PROF, 1 << 30, TC_OK),
    P(banks, PROF, PROF, PROF, 128),
    P(bank_bytes, PROF, PROF, PROF, 8),
    P(sector_bytes, PROF, PROF, PROF, 4096),
    P(dram_latency, PROF, PROF, PROF, 1 << 20),
    P(l2_latency, PROF, PROF, PROF, 1 << 20),
    P(shared_latency, PROF, PROF, PROF, 1 << 20),
    P(ffma_latency, PROF, PROF, PROF, 1 << 20),
    P(ffma_interval, PROF, PROF, PROF, 1 << 20),
    ARR(tc_sim_profile, mma_latency, K_INT, PROF, TC_OK, PROF, 1 << 20, IF_INTERVAL),   /* zero: the GPU lacks the kind */
    ARR(tc_sim_profile, mma_interval, K_INT, IF_HAS, IF_HAS, IF_HAS, 1 << 20, TC_OK),
    P(shared_wavefronts_per_cycle, PROF, TC_OK, PROF, 1024),
    PD(sm_bytes_per_cycle, PROF, TC_OK, PROF, PROF, PROF, 1 << 30),
    PD(dram_bytes_per_cycle, PROF, TC_OK, PROF, PROF, PROF, 1 << 30),
    PD(launch_overhead_us, PROF, TC_OK, TC_OK, TC_OK, PROF, 0),
    P(shfl_latency, PROF, PROF, PROF, 1 << 20),
    P(shfl_interval, PROF, PROF, PROF, 1 << 20),
    P(int_latency, PROF, PROF, PROF, 1 << 20),
    P(int_interval, PROF, PROF, PROF, 1 << 20),
    P(atoms_latency, PROF, PROF, PROF, 1 << 20),
    P(atomg_latency, PROF, PROF, PROF, 1 << 20),
    P(atom_same_address_cycles, PROF, TC_OK, PROF, 1024),
    P(l1_latency, PROF, TC_OK, PROF, 1 << 20),   /* zero: an L1 hit costs a shared load */
    PD(graph_launch_us, PROF, TC_OK, TC_OK, TC_OK, PROF, 0),
};

static tc_status probe_profile(void *obj) {
    const tc_sim_profile *g = (const tc_sim_profile *)obj;
    tc_sim_program p;
    tc_sim_options o;
    tc_sim_result r;
    tc_sim_prediction pr;
    tc_sim_elementwise_desc ew = { 1 << 20, 2, 1, 2 };
    const char *why = NULL;
    tc_status s = tc_sim_profile_validate(g, &why);
    tc_status sr, se, sg;
    CHECK(why != NULL && (s == TC_OK) == (strcmp(why, "ok") == 0));
    build_probe_program(&p, g);
    memset(&o, 0, sizeof o);
    o.warps_per_block = 2;
    memset(&r, 0xA5, sizeof r);
    sr = tc_sim_run(g, &p, &o, &r);
    /* every function that takes a profile agrees with the validation (the
       probe program needs its 16 KiB of shared memory) */
    if (!CHECK(sr == (s == TC_OK && g->shared_bytes_per_sm < p.shared_bytes ? TC_ERR_PROGRAM : s)) ||
        (sr == TC_OK && !CHECK(sim_consistent(&r))) || (sr != TC_OK && !CHECK(result_zero(&r))))
        printf("     %s: tc_sim_run: %s (validate: %s)\n", cur_case, tc_status_string(sr), tc_status_string(s));
    tc_sim_result_free(&r);
    tc_sim_program_free(&p);
    se = tc_sim_predict_elementwise(g, &ew, &pr);
    if (!CHECK(se == s) || (s == TC_OK && !CHECK(isfinite(pr.seconds) && pr.seconds > 0 && pr.dram_bytes > 0)))
        printf("     %s: tc_sim_predict_elementwise: %s (validate: %s)\n", cur_case, tc_status_string(se), tc_status_string(s));
    sg = tc_sim_predict_gemm(g, 4096, 4096, 4096, &pr);
    if (!CHECK(sg == s || (s == TC_OK && sg == TC_ERR_ARCH)) || (sg == TC_OK && !CHECK(isfinite(pr.seconds) && pr.seconds > 0)))
        printf("     %s: tc_sim_predict_gemm: %s (validate: %s)\n", cur_case, tc_status_string(sg), tc_status_string(s));
    return s;
}

/* ---- tc_gpu with its tc_occupancy: the tiling model */
static tc_tile_desc tile_base(void) {
    tc_tile_desc d = tc_tile_ladder_get(tc_tile_ladder_count() - 1)->tile;
    d.M = d.N = 4096; d.K = 1024;
    return d;
}
static const tc_gpu *probe_gpu_machine;
static tc_tile_desc probe_gpu_desc;
static int probe_predict;   /* also run tc_tile_predict where the check passes */

static tc_status probe_tiling(const tc_gpu *m, const tc_tile_desc *d) {
    tc_tile_result r;
    const char *why = NULL;
    tc_status s = tc_tile_check(m, d, &why), sm;
    CHECK(why != NULL);
    memset(&r, 0xA5, sizeof r);
    sm = tc_tile_model(m, d, &r, NULL);
    if (!CHECK(sm == s)) printf("     tc_tile_model %s, tc_tile_check %s\n", tc_status_string(sm), tc_status_string(s));
    if (sm == TC_OK) {
        if (!CHECK(r.ctas_per_sm >= 1 && r.ctas == r.ctas_m * r.ctas_n && isfinite(r.predicted_s) && r.predicted_s > 0 &&
                   r.predicted_flops_per_s > 0 && r.waves >= 1 && r.limit >= 0 && r.limit < TC_TILE_LIMIT_COUNT))
            printf("     tc_tile_model result: %d CTAs/SM, %g s (%s)\n", r.ctas_per_sm, r.predicted_s, why);
    } else {
        CHECK(r.ctas == 0 && r.predicted_s == 0 && r.ctas_per_sm == 0);   /* zeroed on error, as documented */
    }
    if (probe_predict && s == TC_OK) {
        tc_status sp = tc_tile_predict(m, d, &r, &why);
        /* what the check accepts, the simulation runs */
        if (!CHECK(sp == TC_OK) || !CHECK(r.simulated == 1 && isfinite(r.predicted_s) && r.predicted_s > 0 && r.sim_iter_cycles > 0))
            printf("     tc_tile_predict: %s (%s)\n", tc_status_string(sp), why);
    }
    return s;
}

static tc_status probe_gpu(void *obj) { return probe_tiling((const tc_gpu *)obj, &probe_gpu_desc); }

#define OCC(m, neg, zero, big, hi, hi_st) INT(tc_gpu, occupancy.m, neg, zero, big, hi, hi_st)
static const field gpu_fields[] = {
    PTR(tc_gpu, name, TC_OK),
    PTR(tc_gpu, description, TC_OK),
    INT(tc_gpu, sm, TC_OK, TC_OK, TC_OK, 0, 0),   /* informational: no computation reads it */
    INT(tc_gpu, arch, TC_OK, TC_OK, TC_OK, 0, 0), /* numerics only: the tiling model takes rates from the profile */
    /* profile: probe_profile's table, at its offset (walk_gpu_profile) */
    { "profile", offsetof(tc_gpu, profile), sizeof(tc_sim_profile), 1, K_OWNED, { NA, NA, NA, NA, NA, NA, NA }, 0, 0 },
    OCC(max_ctas_per_sm, TC_ERR_ARG, TC_ERR_ARG, TC_ERR_ARG, 1024, TC_OK),
    OCC(max_threads_per_cta, TC_ERR_ARG, TC_ERR_ARG, TC_ERR_ARG, 65536, TC_OK),
    I64(tc_gpu, occupancy.shared_bytes_per_cta, TC_ERR_ARG, TC_ERR_TILE_SHARED, TC_ERR_ARG, 1 << 30, TC_OK),
    I64(tc_gpu, occupancy.shared_reserved_per_cta, TC_ERR_ARG, TC_OK, TC_ERR_ARG, 1 << 30, TC_ERR_TILE_SHARED),
    OCC(regs_per_sm, TC_ERR_ARG, TC_ERR_ARG, TC_ERR_ARG, 1 << 24, TC_OK),
    OCC(max_regs_per_thread, TC_ERR_ARG, TC_ERR_ARG, TC_ERR_ARG, 65536, TC_OK),
    OCC(reg_alloc_unit, TC_ERR_ARG, TC_ERR_ARG, TC_ERR_ARG, 65536, TC_ERR_TILE_REGS),
};

/* The profile inside a tc_gpu: its edges through the tiling model. Every
   out-of-range value is TC_ERR_PROFILE there too; a zero bandwidth (which
   the simulator takes as unlimited) is refused, since the model divides by it. */
static tc_status probe_gpu_profile(void *obj) { return probe_tiling((const tc_gpu *)obj, &probe_gpu_desc); }

/* ---- tc_tile_desc */
#define T(m, neg, zero, big, hi, hi_st) INT(tc_tile_desc, m, neg, zero, big, hi, hi_st)
static field tile_fields[] = {   /* the hi marked a100 are set from its entry in main */
    T(M, TC_ERR_SIZE, TC_ERR_SIZE, TC_OK, 0, 0),
    T(N, TC_ERR_SIZE, TC_ERR_SIZE, TC_OK, 0, 0),
    T(K, TC_ERR_SIZE, TC_ERR_SIZE, TC_OK, 0, 0),
    T(in, TC_ERR_DTYPE, TC_ERR_TILE_INST, TC_ERR_DTYPE, 0, 0),   /* zero is TC_FP32: an mma shape is no FFMA arrangement */
    T(cta_m, TC_ERR_SIZE, TC_ERR_SIZE, TC_ERR_SIZE, 4096, TC_ERR_TILE_THREADS),
    T(cta_n, TC_ERR_SIZE, TC_ERR_SIZE, TC_ERR_SIZE, 4096, TC_ERR_TILE_THREADS),
    T(cta_k, TC_ERR_SIZE, TC_ERR_SIZE, TC_ERR_SIZE, 4096, TC_ERR_TILE_SHARED),
    T(warp_m, TC_ERR_SIZE, TC_ERR_SIZE, TC_ERR_TILE_DIVIDE, 0, 0),
    T(warp_n, TC_ERR_SIZE, TC_ERR_SIZE, TC_ERR_TILE_DIVIDE, 0, 0),
    T(inst_m, TC_ERR_SIZE, TC_ERR_SIZE, TC_ERR_TILE_INST, 0, 0),
    T(inst_n, TC_ERR_SIZE, TC_ERR_SIZE, TC_ERR_TILE_INST, 0, 0),
    T(inst_k, TC_ERR_SIZE, TC_ERR_SIZE, TC_ERR_TILE_INST, 0, 0),
    T(staging, TC_ERR_ARG, TC_OK, TC_ERR_ARG, 0, 0),
    T(stages, TC_ERR_SIZE, TC_OK, TC_ERR_SIZE, 16, TC_ERR_TILE_SHARED),
    T(pad_a, TC_ERR_SIZE, TC_OK, TC_ERR_SIZE, 256, TC_ERR_TILE_SHARED),
    T(pad_b, TC_ERR_SIZE, TC_OK, TC_ERR_SIZE, 256, TC_OK),   /* B's rows are cta_k, A's cta_m: pad_b adds less */
    T(regs_per_thread, TC_ERR_SIZE, TC_OK, TC_ERR_TILE_REGS, 1 /* a100 */, TC_OK),
    T(sparse, TC_ERR_ARG, TC_OK, TC_ERR_ARG, 1, TC_OK),   /* 1: the tf32 tile's m16n8k8 has a 1:2 mma.sp */
    T(load_rounds, TC_ERR_SIZE, TC_OK, TC_ERR_SIZE, 64, TC_ERR_ARG),   /* the base tile is pipelined: rounds need one buffer */
};
static tc_status probe_tile(void *obj) { return probe_tiling(a100(), (const tc_tile_desc *)obj); }

/* ---- tc_sim_options and tc_sim_program: a run of the probe program */
static tc_sim_program probe_prog;
static tc_status run_checked(const tc_sim_profile *g, const tc_sim_program *p, const tc_sim_options *o) {
    tc_sim_result r;
    tc_status s;
    memset(&r, 0xA5, sizeof r);
    s = tc_sim_run(g, p, o, &r);
    if (s == TC_OK) {
        if (!CHECK(sim_consistent(&r))) printf("     run: %lld cycles, %d warps\n", (long long)r.cycles, r.warps);
        if (r.segments) {   /* a timeline: per warp, segments in time order with valid states */
            int w, ok = 1;
            int64_t i;
            for (w = 0; w < r.warps; w++) {
                ok &= r.warp_segments[w] <= r.warp_segments[w + 1];
                for (i = r.warp_segments[w]; i < r.warp_segments[w + 1]; i++)
                    ok &= r.segments[i].state >= 0 && r.segments[i].state < TC_SIM_STATE_COUNT &&
                          (i == r.warp_segments[w] || r.segments[i].start >= r.segments[i - 1].start);
            }
            CHECK(ok);
        }
    } else {
        CHECK(result_zero(&r));
    }
    tc_sim_result_free(&r);
    return s;
}
static tc_status probe_options(void *obj) { return run_checked(&a100()->profile, &probe_prog, (const tc_sim_options *)obj); }

#define O(m, neg, zero, big, hi, hi_st) INT(tc_sim_options, m, neg, zero, big, hi, hi_st)
static field options_fields[] = {
    O(sms, TC_ERR_SIZE, TC_OK, TC_ERR_SIZE, 1 /* a100 */, TC_OK),
    O(warps_per_sm, TC_ERR_SIZE, TC_OK, TC_ERR_SIZE, 1 /* a100 */, TC_OK),
    O(policy, TC_ERR_ARG, TC_OK, TC_ERR_ARG, TC_SIM_LRR, TC_OK),
    O(record_timeline, TC_OK, TC_OK, TC_OK, 0, 0),
    I64(tc_sim_options, max_cycles, TC_ERR_SIZE, TC_OK, TC_OK, 0, 0),
    O(warps_per_block, TC_ERR_SIZE, TC_OK, TC_ERR_SIZE, 4, TC_OK),
    O(per_instruction, TC_OK, TC_OK, TC_OK, 0, 0),
};

static tc_status probe_program(void *obj) {
    tc_sim_options o;
    memset(&o, 0, sizeof o);
    return run_checked(&a100()->profile, (const tc_sim_program *)obj, &o);
}
#define PG(m, neg, zero, big, hi, hi_st) INT(tc_sim_program, m, neg, zero, big, hi, hi_st)
static field program_fields[] = {
    OWNED(tc_sim_program, name),
    OWNED(tc_sim_program, code), OWNED(tc_sim_program, n), OWNED(tc_sim_program, cap),
    OWNED(tc_sim_program, lane_tables), OWNED(tc_sim_program, n_tables), OWNED(tc_sim_program, cap_tables),
    /* the probe program reads [0, 1024) and writes [8192, 8704) of global memory */
    I64(tc_sim_program, global_bytes, TC_ERR_PROGRAM, TC_ERR_PROGRAM, TC_ERR_PROGRAM, (double)((int64_t)1 << 34), TC_OK),
    I64(tc_sim_program, l2_resident_bytes, TC_ERR_PROGRAM, TC_OK, TC_ERR_PROGRAM, 1 << 16, TC_OK),
    I64(tc_sim_program, shared_bytes, TC_ERR_PROGRAM, TC_ERR_PROGRAM, TC_ERR_PROGRAM, 1 /* a100 */, TC_OK),
    PG(default_sms, TC_ERR_SIZE, TC_OK, TC_ERR_SIZE, 1 /* a100 */, TC_OK),
    PG(default_warps_per_sm, TC_ERR_SIZE, TC_OK, TC_ERR_SIZE, 1 /* a100 */, TC_OK),
    PG(status, TC_ERR_PROGRAM, TC_OK, TC_ERR_PROGRAM, 0, 0),   /* an emitter's error is passed on (below); a non-error is no program */
    PG(writes_reach_dram, TC_OK, TC_OK, TC_OK, 0, 0),
    PG(default_warps_per_block, TC_ERR_SIZE, TC_OK, TC_ERR_SIZE, 4, TC_OK),
};

/* ---- tc_gemm_desc (and its tc_mma_options): a 1 x 1 x 1 GEMM, so a leading
   dimension of any size reads and writes only element 0 */
static float g_a[4] = { 1.5f, 0, 0, 0 }, g_b[4] = { -2.0f, 0, 0, 0 }, g_c[4] = { 0.25f, 0, 0, 0 }, g_d[4];
static float g_base_d;
static tc_status probe_gemm(void *obj) {
    tc_gemm_desc d = *(const tc_gemm_desc *)obj;
    tc_status s;
    int untouched = 1;
    if (d.D == g_d) g_d[0] = 12345.0f;
    s = tc_gemm_ex(&d);
    if (d.D == g_d && (s != TC_OK || d.M == 0 || d.N == 0)) untouched = g_d[0] == 12345.0f;
    if (!CHECK(untouched)) printf("     tc_gemm_ex wrote D on %s\n", tc_status_string(s));
    /* 1 x 1 x 1 with every product exact: any accepted layout or option gives the base's D */
    if (s == TC_OK && d.M == 1 && d.N == 1 && d.K == 1 && d.C == g_c && !CHECK(g_d[0] == g_base_d))
        printf("     D = %g, expected %g\n", g_d[0], g_base_d);
    /* the same problem through tc_gemm with the descriptor's defaults resolved */
    if (d.options.zero_rule == 0 && d.options.group == 0 && d.options.frac_bits == 0 && d.options.zero_sign == 0 && d.options.b_type == 0 &&
        d.threads == 0 && d.force_scalar == 0) {
        float keep = g_d[0];
        tc_status s2 = tc_gemm(d.arch, d.in, d.out, d.M, d.N, d.K, d.A, d.lda ? d.lda : d.K, d.B, d.ldb ? d.ldb : d.N,
                               d.C, d.ldc ? d.ldc : d.N, d.D, d.ldd ? d.ldd : d.N);
        CHECK(s2 == s && (s != TC_OK || !d.D || d.D[0] == keep));
    }
    return s;
}
#define G(m, neg, zero, big, hi, hi_st) INT(tc_gemm_desc, m, neg, zero, big, hi, hi_st)
#define GEMM_FIELDS(T, pre, arch_zero, ld_big_b) \
    INT(T, pre arch, TC_ERR_ARCH, arch_zero, TC_ERR_ARCH, 0, 0), \
    INT(T, pre in, TC_ERR_DTYPE, TC_ERR_DTYPE, TC_ERR_DTYPE, 0, 0), \
    INT(T, pre out, TC_ERR_DTYPE, TC_OK, TC_ERR_DTYPE, 0, 0), \
    INT(T, pre M, TC_ERR_SIZE, TC_OK, SKIP, 0, 0), \
    INT(T, pre N, TC_ERR_SIZE, TC_OK, SKIP, 0, 0), \
    INT(T, pre K, TC_ERR_SIZE, TC_OK, SKIP, 0, 0), \
    PTR(T, pre A, TC_ERR_NULL), INT(T, pre lda, TC_ERR_SHAPE, TC_OK, TC_OK, 0, 0), \
    PTR(T, pre B, TC_ERR_NULL), INT(T, pre ldb, TC_ERR_SHAPE, TC_OK, ld_big_b, 0, 0), \
    PTR(T, pre C, TC_OK),       INT(T, pre ldc, TC_ERR_SHAPE, TC_OK, TC_OK, 0, 0), \
    PTR(T, pre D, TC_ERR_NULL), INT(T, pre ldd, TC_ERR_SHAPE, TC_OK, TC_OK, 0, 0), \
    INT(T, pre options.zero_rule, TC_ERR_ARG, TC_OK, TC_ERR_ARG, TC_MMA_ZEROS_KHATTAK, TC_OK), \
    INT(T, pre options.group, TC_ERR_ARG, TC_OK, TC_ERR_ARG, TC_MMA_MAX_GROUP, TC_OK), \
    INT(T, pre options.frac_bits, TC_ERR_ARG, TC_OK, TC_ERR_ARG, 40, TC_OK), \
    INT(T, pre options.zero_sign, TC_ERR_ARG, TC_OK, TC_ERR_ARG, TC_MMA_ZERO_SIGN_PLUS, TC_OK), \
    INT(T, pre options.b_type, TC_ERR_DTYPE, TC_OK, TC_ERR_DTYPE, TC_E4M3, TC_ERR_DTYPE), /* fp16 x e4m3: no such mma */ \
    INT(T, pre threads, TC_ERR_ARG, TC_OK, TC_ERR_ARG, TC_GEMM_MAX_THREADS, TC_OK), \
    INT(T, pre force_scalar, TC_ERR_ARG, TC_OK, TC_ERR_ARG, 1, TC_OK)
static const field gemm_fields[] = { GEMM_FIELDS(tc_gemm_desc, , TC_OK, TC_OK) };

/* ---- tc_sparse_gemm_desc: 1 x 1 with K = 4 (one 2:4 group), A compressed to 2 values */
static float s_vals[2] = { 1.5f, -0.5f }, s_b[4] = { 2.0f, 1.0f, 4.0f, 0.5f };
static uint32_t s_meta[1];
static float s_base_d;
static tc_status probe_sparse(void *obj) {
    tc_sparse_gemm_desc d = *(const tc_sparse_gemm_desc *)obj;
    tc_status s;
    int untouched = 1;
    if (d.gemm.D == g_d) g_d[0] = 12345.0f;
    s = tc_sparse_gemm_ex(&d);
    if (d.gemm.D == g_d && (s != TC_OK || d.gemm.M == 0 || d.gemm.N == 0)) untouched = g_d[0] == 12345.0f;
    if (!CHECK(untouched)) printf("     tc_sparse_gemm_ex wrote D on %s\n", tc_status_string(s));
    if (s == TC_OK && d.gemm.M == 1 && d.gemm.N == 1 && d.gemm.K == 4 && d.gemm.C == g_c && !CHECK(g_d[0] == s_base_d))
        printf("     D = %g, expected %g\n", g_d[0], s_base_d);
    return s;
}
static const field sparse_fields[] = {
    /* K = 4 rows of B, so ldb of INT_MAX would need a buffer that large */
    GEMM_FIELDS(tc_sparse_gemm_desc, gemm., TC_ERR_ARCH, SKIP)   /* zero: V100, no sparse Tensor Cores */,
    PTR(tc_sparse_gemm_desc, meta, TC_ERR_NULL),
    INT(tc_sparse_gemm_desc, ldm, TC_ERR_SHAPE, TC_OK, TC_OK, 0, 0),
};

/* ---- tc_scaler_desc: tc_scaler_init, then one update; the state is untouched on error */
static tc_status probe_scaler(void *obj) {
    tc_scaler s, keep;
    tc_status st;
    memset(&s, 0x5A, sizeof s);
    keep = s;
    st = tc_scaler_init(&s, (const tc_scaler_desc *)obj);
    if (st == TC_OK) {
        float inv = tc_scaler_inv_scale(&s);
        tc_status u;
        CHECK(isfinite(s.scale) && s.scale >= FLT_MIN && isfinite(inv) && inv > 0);
        u = tc_scaler_update(&s, 1);
        CHECK(!tc_status_is_error(u) && isfinite(s.scale) && s.scale > 0);
        u = tc_scaler_update(&s, 0);
        CHECK(!tc_status_is_error(u) && isfinite(s.scale) && s.scale > 0);
    } else {
        CHECK(memcmp(&s, &keep, sizeof s) == 0);
    }
    return st;
}
#define SF(m, neg, zero, tiny, subn, big, inf, nan) FLD(tc_scaler_desc, m, K_FLT, neg, zero, tiny, subn, big, inf, nan, 0, 0)
#define SD(m, neg, zero, tiny, subn, big, inf, nan) FLD(tc_scaler_desc, m, K_DBL, neg, zero, tiny, subn, big, inf, nan, 0, 0)
#define A_ TC_ERR_ARG
static const field scaler_fields[] = {
    INT(tc_scaler_desc, is_static, TC_OK, TC_OK, TC_OK, 0, 0),
    SF(init_scale, A_, TC_OK, TC_OK, A_, TC_OK, A_, A_),          /* FLT_MIN is the floor: 1e-30 passes, 1e-40 not */
    SD(growth_factor, A_, TC_OK, A_, A_, A_, A_, A_),             /* (1, the fp32 overflow threshold) */
    SD(backoff_factor, A_, TC_OK, TC_OK, TC_OK, A_, A_, A_),      /* (0, 1) */
    INT(tc_scaler_desc, growth_interval, A_, TC_OK, TC_OK, 0, 0),
    SF(min_scale, A_, TC_OK, TC_OK, A_, A_, A_, A_),              /* FLT_MAX: above the initial scale */
    SF(max_scale, A_, TC_OK, A_, A_, TC_OK, A_, A_),              /* 1e-30: below the initial scale */
    INT(tc_scaler_desc, hysteresis, A_, TC_OK, TC_OK, 0, 0),
    INT(tc_scaler_desc, allow_growth_every_step, TC_OK, TC_OK, TC_OK, 0, 0),
};

/* ---- tc_sim_elementwise_desc: build, run (its invariant), predict */
static tc_status probe_elementwise(void *obj) {
    const tc_sim_elementwise_desc *d = (const tc_sim_elementwise_desc *)obj;
    tc_sim_program p;
    tc_sim_prediction pr;
    tc_status s, sp;
    memset(&p, 0, sizeof p);
    s = tc_sim_build_elementwise(&p, d, 2, 4);
    if (s == TC_OK) CHECK_STATUS(run_checked(&a100()->profile, &p, NULL), TC_OK);
    else CHECK(p.n == 0 && p.code == NULL);   /* nothing built on error */
    tc_sim_program_free(&p);
    sp = tc_sim_predict_elementwise(&a100()->profile, d, &pr);
    if (!CHECK(sp == s || (s == TC_ERR_SIZE && sp == TC_OK)) || (sp == TC_OK && !CHECK(isfinite(pr.seconds) && pr.seconds > 0)))
        printf("     tc_sim_predict_elementwise %s, build %s\n", tc_status_string(sp), tc_status_string(s));
    return s;
}
static const field elementwise_fields[] = {
    I64(tc_sim_elementwise_desc, elements, TC_ERR_SIZE, TC_ERR_SIZE, TC_ERR_SIZE, 0, 0),
    INT(tc_sim_elementwise_desc, inputs, A_, A_, A_, 8, TC_OK),
    INT(tc_sim_elementwise_desc, outputs, A_, TC_OK, A_, 8, TC_OK),
    INT(tc_sim_elementwise_desc, ops, A_, TC_OK, A_, 64, TC_OK),
};

/* ---- tc_sim_matmul32_desc */
static tc_status probe_matmul32(void *obj) {
    tc_sim_program p;
    tc_status s;
    memset(&p, 0, sizeof p);
    s = tc_sim_build_matmul32(&p, (const tc_sim_matmul32_desc *)obj);
    if (s == TC_OK) CHECK_STATUS(run_checked(&tc_gpu_find("dettmers2020")->profile, &p, NULL), TC_OK);
    tc_sim_program_free(&p);
    return s;
}
static const field matmul32_fields[] = {
    INT(tc_sim_matmul32_desc, tensor_cores, TC_OK, TC_OK, TC_OK, 0, 0),
    INT(tc_sim_matmul32_desc, pipelined, TC_OK, TC_OK, TC_OK, 0, 0),
    INT(tc_sim_matmul32_desc, sync, TC_OK, TC_OK, TC_OK, 0, 0),
    INT(tc_sim_matmul32_desc, mma, A_, TC_OK, A_, 0, 0),
};

/* ---- tc_mma_options alone: tc_mma_dot_ex (NaN for what it cannot do) */
static tc_status probe_mma_options(void *obj) {
    static const tc_gemm_desc z;
    tc_gemm_desc d = z;
    d.arch = TC_ARCH_A100; d.in = TC_FP16; d.out = TC_FP32; d.M = d.N = d.K = 1;
    d.A = g_a; d.B = g_b; d.C = g_c; d.D = g_d;
    memcpy(&d.options, obj, sizeof d.options);
    return tc_gemm_ex(&d);
}
static const field mma_options_fields[] = {
    INT(tc_mma_options, zero_rule, A_, TC_OK, A_, TC_MMA_ZEROS_KHATTAK, TC_OK),
    INT(tc_mma_options, group, A_, TC_OK, A_, TC_MMA_MAX_GROUP, TC_OK),
    INT(tc_mma_options, frac_bits, A_, TC_OK, A_, 40, TC_OK),
    INT(tc_mma_options, zero_sign, A_, TC_OK, A_, TC_MMA_ZERO_SIGN_PLUS, TC_OK),
    INT(tc_mma_options, b_type, TC_ERR_DTYPE, TC_OK, TC_ERR_DTYPE, TC_FP16, TC_OK),
};

/* ---- tc_gemm_scaled_desc (and its tc_mma_scaled_type): 1 x 1 x 32, one
   product 1.5 * -2 at scales 2^0, c = 0.25: every accepted field gives that D */
static uint8_t q_a[32], q_b[32], q_s[1] = { 127 };
static tc_status probe_scaled(void *obj) {
    tc_gemm_scaled_desc d = *(const tc_gemm_scaled_desc *)obj;
    tc_status s;
    if (d.D == g_d) g_d[0] = 12345.0f;
    s = tc_gemm_scaled(&d);
    if (d.D == g_d && s != TC_OK && !CHECK(g_d[0] == 12345.0f)) printf("     tc_gemm_scaled wrote D on %s\n", tc_status_string(s));
    if (s == TC_OK && d.M == 1 && d.N == 1 && d.C == g_c && !CHECK(g_d[0] == 1.5f * -2.0f + 0.25f))
        printf("     D = %g\n", g_d[0]);
    return s;
}
#define SC(m, neg, zero, big) INT(tc_gemm_scaled_desc, m, neg, zero, big, 0, 0)
static const field scaled_fields[] = {
    SC(type.arch, TC_ERR_ARCH, TC_ERR_ARCH, TC_ERR_ARCH),
    SC(type.kind, TC_ERR_ARG, TC_OK, TC_ERR_ARG),                  /* zero: f8f6f4, which ignores the scales */
    SC(type.a_type, TC_ERR_DTYPE, TC_ERR_DTYPE, TC_ERR_DTYPE),
    SC(type.b_type, TC_ERR_DTYPE, TC_ERR_DTYPE, TC_ERR_DTYPE),
    SC(type.out, TC_ERR_DTYPE, TC_OK, TC_ERR_DTYPE),
    SC(type.scale_type, TC_ERR_DTYPE, TC_ERR_DTYPE, TC_ERR_DTYPE),
    SC(type.block, TC_ERR_SHAPE, TC_ERR_SHAPE, TC_ERR_SHAPE),
    SC(M, TC_ERR_SIZE, TC_OK, SKIP), SC(N, TC_ERR_SIZE, TC_OK, SKIP),
    SC(K, TC_ERR_SHAPE, TC_ERR_SHAPE, TC_ERR_SHAPE),
    PTR(tc_gemm_scaled_desc, A, TC_ERR_NULL), SC(lda, TC_ERR_SHAPE, TC_OK, TC_OK),
    PTR(tc_gemm_scaled_desc, B, TC_ERR_NULL), SC(ldb, TC_ERR_SHAPE, TC_OK, TC_OK),
    PTR(tc_gemm_scaled_desc, scale_A, TC_ERR_NULL), SC(ldsa, TC_ERR_SHAPE, TC_OK, TC_OK),
    PTR(tc_gemm_scaled_desc, scale_B, TC_ERR_NULL), SC(ldsb, TC_ERR_SHAPE, TC_OK, TC_OK),
    PTR(tc_gemm_scaled_desc, C, TC_OK), SC(ldc, TC_ERR_SHAPE, TC_OK, TC_OK),
    PTR(tc_gemm_scaled_desc, D, TC_ERR_NULL), SC(ldd, TC_ERR_SHAPE, TC_OK, TC_OK),
    SC(options.zero_rule, A_, TC_OK, A_),                          /* Khattak's model has no tcgen05 kind: TC_ERR_ARG */
    SC(options.group, A_, TC_OK, A_),
    INT(tc_gemm_scaled_desc, options.frac_bits, A_, TC_OK, A_, 40, TC_OK),
    INT(tc_gemm_scaled_desc, options.zero_sign, A_, TC_OK, A_, TC_MMA_ZERO_SIGN_PLUS, TC_OK),
    SC(options.b_type, A_, TC_OK, A_),                             /* B's type is type.b_type: any other is TC_ERR_ARG */
};

/* ---- tc_igemm_desc (and its tc_imma_type): 1 x 1 x 16, A and B nonzero only at k = 0, so a
   leading dimension of any size but ldb reads only element 0 of its row */
static int8_t i_a[16] = { -7 }, i_b[16] = { 100 };
static int32_t i_c[1] = { INT32_MAX - 5 }, i_d[1];
static tc_status probe_igemm(void *obj) {
    tc_igemm_desc d = *(const tc_igemm_desc *)obj;
    tc_status s;
    if (d.D == i_d) i_d[0] = 12345;
    s = tc_igemm(&d);
    if (d.D == i_d && (s != TC_OK || d.M == 0 || d.N == 0) && !CHECK(i_d[0] == 12345))
        printf("     tc_igemm wrote D on %s\n", tc_status_string(s));
    /* -700 from INT32_MAX - 5: never near a bound, so wrap and satfinite agree */
    if (s == TC_OK && d.M == 1 && d.N == 1 && d.K == 16 && d.C == i_c && !CHECK(i_d[0] == INT32_MAX - 705))
        printf("     D = %d\n", (int)i_d[0]);
    return s;
}
#define IMMA_TYPE_FIELDS(T, pre) \
    INT(T, pre arch, TC_ERR_ARCH, TC_ERR_ARCH, TC_ERR_ARCH, 0, 0),   /* 0 is V100: no integer mma */ \
    INT(T, pre a_type, TC_ERR_DTYPE, TC_ERR_DTYPE, TC_ERR_DTYPE, 0, 0), \
    INT(T, pre b_type, TC_ERR_DTYPE, TC_ERR_DTYPE, TC_ERR_DTYPE, 0, 0), \
    INT(T, pre satfinite, TC_ERR_ARG, TC_OK, TC_ERR_ARG, 1, TC_OK)
static const field igemm_fields[] = {
    IMMA_TYPE_FIELDS(tc_igemm_desc, type.),
    INT(tc_igemm_desc, M, TC_ERR_SIZE, TC_OK, SKIP, 0, 0),
    INT(tc_igemm_desc, N, TC_ERR_SIZE, TC_OK, SKIP, 0, 0),
    INT(tc_igemm_desc, K, TC_ERR_SIZE, TC_OK, TC_ERR_SHAPE, 0, 0),   /* INT_MAX is no multiple of 16 */
    PTR(tc_igemm_desc, A, TC_ERR_NULL), INT(tc_igemm_desc, lda, TC_ERR_SHAPE, TC_OK, TC_OK, 0, 0),
    PTR(tc_igemm_desc, B, TC_ERR_NULL), INT(tc_igemm_desc, ldb, TC_ERR_SHAPE, TC_OK, SKIP, 0, 0),   /* 16 rows of B */
    PTR(tc_igemm_desc, C, TC_OK),       INT(tc_igemm_desc, ldc, TC_ERR_SHAPE, TC_OK, TC_OK, 0, 0),
    PTR(tc_igemm_desc, D, TC_ERR_NULL), INT(tc_igemm_desc, ldd, TC_ERR_SHAPE, TC_OK, TC_OK, 0, 0),
};
static tc_status probe_imma_type(void *obj) {
    int32_t out = 777;
    tc_status s = tc_imma_dot((const tc_imma_type *)obj, 16, i_a, i_b, i_c[0], &out);
    CHECK(s == TC_OK ? out == INT32_MAX - 705 : out == 777);
    return s;
}
static const field imma_type_fields[] = { IMMA_TYPE_FIELDS(tc_imma_type, ) };

/* Every public function that takes a tc_dtype, called with each integer
   type: handled (the formats) or refused with its status; never a float
   answer with TC_OK. */
static void walk_integer_dtypes(void) {
    static const tc_dtype ints[] = { TC_S8, TC_U8, TC_S4, TC_U4, TC_S32 };
    float in[4] = { 1.5f, -300.0f, NAN, 1e-40f }, out[4], dense[16], vals[8];
    uint8_t codes[4];
    uint32_t meta[2];
    unsigned char mask[16];
    char buf[64];
    int i, j, g = 0, k = 0, words = 0;
    for (i = 0; i < 16; i++) dense[i] = 0.0f;
    for (i = 0; i < (int)(sizeof ints / sizeof ints[0]); i++) {
        tc_dtype t = ints[i];
        tc_mma_params p;
        tc_fields fl;
        CHECK(tc_format_of(t) != NULL && tc_format_of(t)->exponent_bits == 0);
        CHECK_STATUS(tc_format_bits(t, 5u, buf, sizeof buf), TC_OK);
        CHECK_STATUS(tc_round_array(t, in, out, 4, TC_RN), TC_OK);
        for (j = 0; j < 4; j++) CHECK(out[j] == tc_round(t, in[j], TC_RN) && out[j] == floorf(out[j]));
        CHECK(out[2] == 0.0f && out[3] == 0.0f);   /* NaN and a subnormal: 0 */
        CHECK_STATUS(tc_encode_u8_array(t, in, codes, 4, TC_RN), TC_ERR_DTYPE);
        CHECK_STATUS(tc_decode_u8_array(t, codes, out, 4), TC_ERR_DTYPE);
        CHECK(tc_encode_sr(t, 1.5f, 0, 8, 0) == 0 && tc_sr_bits(t) == 0);
        fl = tc_split(t, 0xFFFFFFFFu);
        CHECK(fl.cls == TC_CLASS_NORMAL && fl.exponent == 0);   /* all ones: -1 or the maximum */
        CHECK(tc_classify(t, 0) == TC_CLASS_ZERO && tc_ulp(t, 3.0f) == 1.0f && tc_next_up(t, 3.0f) == 4.0f && tc_next_down(t, 3.0f) == 2.0f);
        CHECK_STATUS(tc_mma_params_of(TC_ARCH_A100, t, TC_FP32, &p), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_params_of(TC_ARCH_A100, TC_FP16, t, &p), TC_ERR_DTYPE);
        CHECK_STATUS(tc_mma_params_of_mixed(TC_ARCH_A100, t, t, TC_FP32, &p), TC_ERR_DTYPE);
        CHECK(isnan(tc_mma_dot(TC_ARCH_A100, t, TC_FP32, 16, dense, dense, 0.0f)));
        CHECK(isnan(tc_mma_dot_ex(TC_ARCH_A100, TC_FP16, t, 16, dense, dense, 0.0f, NULL)));
        g_d[0] = 12345.0f;
        CHECK_STATUS(tc_gemm(TC_ARCH_A100, t, TC_FP32, 1, 1, 16, dense, 16, dense, 1, NULL, 1, g_d, 1), TC_ERR_DTYPE);
        CHECK_STATUS(tc_gemm(TC_ARCH_A100, TC_FP16, t, 1, 1, 16, dense, 16, dense, 1, NULL, 1, g_d, 1), TC_ERR_DTYPE);
        CHECK(g_d[0] == 12345.0f);
        CHECK_STATUS(tc_sparse_pattern(t, &g, &k), TC_ERR_DTYPE);
        CHECK_STATUS(tc_sparse_prune(t, 1, 16, dense, 16, out, 16, mask), TC_ERR_DTYPE);
        CHECK_STATUS(tc_sparse_check(t, 1, 16, dense, 16, NULL), TC_ERR_DTYPE);
        CHECK_STATUS(tc_sparse_meta_words(t, 16, &words), TC_ERR_DTYPE);
        CHECK_STATUS(tc_sparse_compress(t, 1, 16, dense, 16, vals, 8, meta, 2, 0, NULL), TC_ERR_DTYPE);
        CHECK_STATUS(tc_sparse_decompress(t, 1, 16, vals, 8, meta, 2, dense, 16, NULL), TC_ERR_DTYPE);
        CHECK_STATUS(tc_sparse_gemm(TC_ARCH_A100, t, TC_FP32, 1, 1, 16, vals, 8, meta, 2, dense, 1, NULL, 1, g_d, 1), TC_ERR_DTYPE);
        CHECK(g_d[0] == 12345.0f);
        /* the tiling model's rate: the integer instruction where the table has one, else 0 */
        CHECK(tc_tile_fma_per_clk(a100(), t, 16, 8, 32) == (t == TC_S32 ? 0.0 : t == TC_S4 || t == TC_U4 ? 4.0 * 16 * 8 * 32 / 4 : 4.0 * 16 * 8 * 32 / 8));
        edge_cases += 30;
    }
}

/* ---- tc_sim_addr through an LDG: the run's invariant or TC_ERR_PROGRAM */
static tc_status probe_addr(void *obj) {
    tc_sim_program p;
    tc_status s;
    memset(&p, 0, sizeof p);
    p.global_bytes = 1 << 20;
    tc_sim_ldg(&p, 1, TC_SIM_NOREG, *(const tc_sim_addr *)obj);
    tc_sim_ffma(&p, 2, 1, 1, 2);
    tc_sim_exit(&p);
    s = run_checked(&a100()->profile, &p, NULL);
    tc_sim_program_free(&p);
    return s;
}
#define PR TC_ERR_PROGRAM
static const field addr_fields[] = {
    I64(tc_sim_addr, base, PR, TC_OK, PR, 0, 0),
    I64(tc_sim_addr, lane_stride, PR, TC_OK, PR, 0, 0),    /* -1: not a multiple of the width */
    I64(tc_sim_addr, warp_stride, PR, TC_OK, PR, 0, 0),
    I64(tc_sim_addr, iter_stride, PR, TC_OK, PR, 0, 0),   /* checked even with no loop around the load */
    INT(tc_sim_addr, width, PR, TC_OK, PR, 16, TC_OK),
    INT(tc_sim_addr, lane_table, PR, TC_OK, PR, 0, 0),
};

static void set_hi(field *f, int n, const char *name, double hi) {
    int i;
    for (i = 0; i < n; i++) if (strcmp(f[i].name, name) == 0) { f[i].hi = hi; return; }
    CHECK(0 && "set_hi: no such field");
}
#define SET_HI(fields, name, hi) set_hi(fields, (int)(sizeof fields / sizeof fields[0]), name, (double)(hi))

/* The profile inside a tc_gpu through the tiling model: profile_fields'
   table at the profile's offset, with the model's own demands where they
   differ from the simulator's: bandwidths and the shared-memory rate must
   be modelled (not 0), the SM must have shared memory for the tile, and a
   zero latency for an MMA kind is "the GPU lacks it" (which the tile's kind
   then is or is not: not walked). */
static void walk_gpu_profile(void) {
    field f[sizeof profile_fields / sizeof profile_fields[0]];
    int i, n = (int)(sizeof f / sizeof f[0]);
    memcpy(f, profile_fields, sizeof f);
    for (i = 0; i < n; i++) {
        f[i].off += offsetof(tc_gpu, profile);
        if (strcmp(f[i].name, "sm_bytes_per_cycle") == 0 || strcmp(f[i].name, "dram_bytes_per_cycle") == 0 ||
            strcmp(f[i].name, "shared_wavefronts_per_cycle") == 0) f[i].exp[C_ZERO] = TC_ERR_PROFILE;
        if (strcmp(f[i].name, "shared_bytes_per_sm") == 0) f[i].exp[C_ZERO] = TC_ERR_TILE_SHARED;
        if (strcmp(f[i].name, "mma_latency") == 0) f[i].exp[C_ZERO] = NA;
    }
    check_layout("tc_gpu.profile", f, n, sizeof(tc_sim_profile), offsetof(tc_gpu, profile));
    walk("tc_gpu.profile", f, n, probe_gpu_machine, sizeof(tc_gpu), probe_gpu_profile);
}


/* ---- the integer size, index and count arguments of the public functions
   (base sizes of 1 where a stride of INT_MAX must then touch one element only).
   Each row: a function, its int arguments with a valid base value, and the
   status each gives at negative (-1, INT_MIN), zero and INT_MAX. Functions
   that answer with a pointer or a NaN instead of a status are wrapped:
   NULL or NaN reads TC_ERR_ARG. An emitter that fails must emit nothing. */
#define NARG 6
typedef struct {
    const char *fn;
    int nargs;
    const char *arg[NARG];
    int base[NARG];
    int exp[NARG][3];   /* negative, zero, INT_MAX */
    tc_status (*call)(const int *a);
} fn_case;

static float f_buf[64 * 64];
static uint32_t u_buf[64 * 64], u_regs[32 * 4], u_meta[32];
static tc_status not_null(const void *p) { return p ? TC_OK : TC_ERR_ARG; }
/* name functions answer "unknown" (or "invalid") for what has no name */
static tc_status named(const char *s) { return !s ? TC_ERR_NULL : strcmp(s, "unknown") == 0 || strcmp(s, "invalid") == 0 ? TC_ERR_ARG : TC_OK; }
static uint32_t lane_words[32];   /* lane i at byte 4 i */

static tc_status c_format_bits(const int *a) { char buf[128]; return tc_format_bits((tc_dtype)a[0], 0x3C00u, buf, (size_t)a[1]); }
static tc_status c_round_array(const int *a) { return tc_round_array((tc_dtype)a[0], f_buf, f_buf + 64, 4, a[1]); }
static tc_status c_format_of(const int *a) { return not_null(tc_format_of((tc_dtype)a[0])); }
static tc_status c_mma_params(const int *a) { tc_mma_params p; return tc_mma_params_of((tc_arch)a[0], (tc_dtype)a[1], (tc_dtype)a[2], &p); }
static tc_status c_mma_params_mixed(const int *a) {
    tc_mma_params p;
    return tc_mma_params_of_mixed((tc_arch)a[0], (tc_dtype)a[1], (tc_dtype)a[2], (tc_dtype)a[3], &p);
}
static tc_status c_mma_dot(const int *a) {
    float x[32] = { 1.0f }, y[32] = { 2.0f };
    float r = tc_mma_dot((tc_arch)a[0], (tc_dtype)a[1], (tc_dtype)a[2], a[3], x, y, 0.5f);
    return isnan(r) ? TC_ERR_ARG : r == 2.5f ? TC_OK : TC_ERR_NOT_REPRESENTABLE;   /* 1 x 2 + 0.5, exact */
}
/* k is 0 or 1 where the call succeeds: one product at most, whatever the strides */
static tc_status c_dot(const int *a, int exact) {
    float out = -7.0f;
    tc_status s = exact ? tc_dot_exact(a[0], f_buf, a[1], f_buf, a[2], 1.0f, &out) : tc_dot_fma(a[0], f_buf, a[1], f_buf, a[2], 1.0f, &out);
    CHECK(s == TC_OK ? out == (a[0] ? fmaf(f_buf[0], f_buf[0], 1.0f) : 1.0f) : out == -7.0f);
    return s;
}
static tc_status c_dot_fma(const int *a) { return c_dot(a, 0); }
static tc_status c_imma_dot(const int *a) {
    tc_imma_type t = { TC_ARCH_A100, TC_S8, TC_S8, 0 };
    int32_t out = 777;
    tc_status s = tc_imma_dot(&t, a[0], i_a, i_b, 5, &out);
    CHECK(s == TC_OK ? out == (a[0] ? 5 - 700 : 5) : out == 777);
    return s;
}
static tc_status c_dot_exact(const int *a) { return c_dot(a, 1); }
static tc_status c_frag_coord(const int *a) { int r, c; return tc_mma_frag_coord((tc_mma_instr)a[0], (tc_frag)a[1], a[2], a[3], &r, &c); }
static tc_status c_kind_name(const int *a) { return not_null(tc_mma_kind_name((tc_mma_kind)a[0])); }
static tc_status c_dot_scaled(const int *a) {
    static const uint8_t codes[64], scales[2] = { 127, 127 };
    tc_mma_scaled_type t;
    float out = -7.0f;
    tc_status s;
    memset(&t, 0, sizeof t);
    t.arch = TC_ARCH_B200; t.kind = TC_KIND_MXF8F6F4; t.a_type = t.b_type = TC_E4M3; t.out = TC_FP32;
    t.scale_type = TC_UE8M0; t.block = 32;
    s = tc_mma_dot_scaled(&t, a[0], codes, codes, scales, scales, 0.5f, NULL, &out);
    CHECK(s == TC_OK ? out == 0.5f : out == -7.0f);
    return s;
}
static tc_status c_instr_get(const int *a) { tc_mma_instr_info i; return tc_mma_instr_get((tc_mma_instr)a[0], &i); }
static tc_status c_instr_scaled_type(const int *a) { tc_mma_scaled_type t; return tc_mma_instr_scaled_type((tc_mma_instr)a[0], &t); }
static tc_status c_instr_n_ok(const int *a) { return tc_mma_instr_n_ok((tc_mma_instr)a[0], a[1]) ? TC_OK : TC_ERR_SHAPE; }
static tc_status c_mma_run(const int *a) {
    static float A[128 * 32], B[32 * 256], D[128 * 256];   /* zeros: representable in every type */
    return tc_mma_run((tc_arch)a[0], (tc_mma_instr)a[1], a[2], (tc_dtype)a[3], A, B, NULL, D);
}
static tc_status c_scaler_preset(const int *a) { tc_scaler_desc d; return tc_scaler_preset((tc_scaler_preset_kind)a[0], &d); }
static tc_status c_scaler_update(const int *a) { tc_scaler s; tc_scaler_init(&s, NULL); return tc_status_is_error(tc_scaler_update(&s, a[0])) ? TC_ERR_ARG : TC_OK; }
static tc_status c_sparse_pattern(const int *a) { int g, k; return tc_sparse_pattern((tc_dtype)a[0], &g, &k); }
static tc_status c_meta_words(const int *a) { int w = -7; tc_status s = tc_sparse_meta_words((tc_dtype)a[0], a[1], &w); CHECK(s != TC_OK || (w >= 0 && (int64_t)w * 32 >= (int64_t)a[1] / 2)); return s; }
static tc_status c_sparse_prune(const int *a) { return tc_sparse_prune((tc_dtype)a[0], a[1], a[2], f_buf, a[3], f_buf + 2048, a[4], NULL); }
static tc_status c_sparse_check(const int *a) { tc_sparse_violation v; return tc_sparse_check((tc_dtype)a[0], a[1], a[2], f_buf + 2048, a[3], &v); }
static tc_status c_sparse_compress(const int *a) {
    return tc_sparse_compress((tc_dtype)a[0], a[1], a[2], f_buf + 2048, a[3], f_buf, a[4], u_buf, a[5], TC_SPARSE_PRUNE, NULL);
}
static tc_status c_sparse_decompress(const int *a) {
    return tc_sparse_decompress((tc_dtype)a[0], a[1], a[2], f_buf, a[3], u_buf, a[4], f_buf + 2048, a[5], NULL);
}
static tc_status c_meta_encode(const int *a) { unsigned c; return tc_sparse_meta_encode(a[0], a[1], &c); }
static tc_status c_meta_coord(const int *a) { int u, r, g; return tc_sparse_meta_coord((tc_mma_instr)a[0], a[1], a[2], a[3], &u, &r, &g); }
static tc_status c_pack_a(const int *a) {
    /* values: the compressed 64 x 64 (64 x 32 values, all zero: representable) */
    return tc_sparse_pack_a(TC_MMA_SP_M16N8K32_F16, a[0], a[1], a[2], f_buf + 2048, a[3], u_buf, a[4], a[5], 0, u_regs, u_meta);
}
static tc_status c_pack_a_at(const int *a) {
    return tc_sparse_pack_a(TC_MMA_SP_M16N8K32_F16, 0, 64, 64, f_buf + 2048, 32, u_buf, 2, a[0], a[1], u_regs, u_meta);
}
static tc_status c_pack_b(const int *a) { return tc_sparse_pack_b((tc_mma_instr)a[0], a[1], a[2], f_buf + 2048, a[3], a[4], a[5], u_regs); }
static tc_status c_unpack_a(const int *a) {
    float tile[16 * 32];
    uint32_t meta[32];
    int i;
    for (i = 0; i < 32; i++) meta[i] = 0xEEEEEEEEu;   /* every group (2, 3): legal */
    return tc_sparse_unpack_a((tc_mma_instr)a[0], a[1], u_regs, meta, tile, NULL);
}

/* emitters: a fresh program; a refused instruction leaves it empty */
static tc_status emitted(tc_sim_program *p, tc_status s) {
    CHECK(s == TC_OK ? p->n == 1 : p->n == 0 && p->status == s);
    tc_sim_program_free(p);
    return s;
}
#define EMIT(name, call) static tc_status name(const int *a) { tc_sim_program p; memset(&p, 0, sizeof p); p.shared_bytes = 4096; (void)a; return emitted(&p, call); }
EMIT(c_ldg, tc_sim_ldg(&p, a[0], a[1], tc_sim_addr_affine(0, 4, 0, 0, 4)))
EMIT(c_stg, tc_sim_stg(&p, a[0], tc_sim_addr_affine(0, 4, 0, 0, 4)))
EMIT(c_ldgsts, tc_sim_ldgsts(&p, a[0], tc_sim_addr_affine(0, 4, 0, 0, 4)))
EMIT(c_lds, tc_sim_lds(&p, a[0], a[1], a[2], tc_sim_addr_affine(0, 4, 0, 0, 4)))
EMIT(c_sts, tc_sim_sts(&p, a[0], tc_sim_addr_affine(0, 4, 0, 0, 4)))
EMIT(c_ldsm, tc_sim_ldsm(&p, a[0], a[1], a[2], tc_sim_addr_affine(0, 16, 0, 0, 16)))
EMIT(c_ffma, tc_sim_ffma(&p, a[0], a[1], a[2], a[3]))
EMIT(c_mma, tc_sim_mma(&p, (tc_mma_instr)a[0], a[1], a[2], a[3], a[4]))
EMIT(c_mma_sp, tc_sim_mma_sp(&p, (tc_mma_instr)a[0], a[1], a[2], a[3], a[4], a[5]))
EMIT(c_sim_wgmma, tc_sim_mma_n(&p, (tc_mma_instr)a[0], a[1], a[2], a[3], a[4], a[5]))
EMIT(c_bar, tc_sim_bar(&p, a[0]))
EMIT(c_shfl, tc_sim_shfl(&p, a[0], a[1]))
EMIT(c_imad, tc_sim_imad(&p, a[0], a[1], a[2], a[3]))
EMIT(c_atoms, tc_sim_atoms(&p, a[0], a[1], a[2], tc_sim_addr_affine(0, 4, 0, 0, 4)))
EMIT(c_atomg, tc_sim_atomg(&p, a[0], a[1], a[2], tc_sim_addr_affine(0, 4, 0, 0, 4)))
static tc_status c_loop(const int *a) {
    tc_sim_program p;
    tc_status s;
    memset(&p, 0, sizeof p);
    tc_sim_ffma(&p, 1, 1, 1, 1);
    s = tc_sim_loop(&p, a[0], a[1]);
    CHECK(s == TC_OK ? p.n == 2 : p.n == 1 && p.status == s);
    tc_sim_program_free(&p);
    return s;
}
/* builders: built programs run with the state invariant */
static tc_status built(tc_sim_program *p, tc_status s) {
    if (s == TC_OK) CHECK_STATUS(run_checked(&a100()->profile, p, NULL), TC_OK);
    tc_sim_program_free(p);
    return s;
}
#define BUILD(name, call) static tc_status name(const int *a) { tc_sim_program p; memset(&p, 0, sizeof p); return built(&p, call); }
BUILD(c_ffma_chain, tc_sim_build_ffma_chain(&p, a[0]))
BUILD(c_mma_chain, tc_sim_build_mma_chain(&p, (tc_mma_instr)a[0], a[1], a[2]))
BUILD(c_shared_pattern, tc_sim_build_shared_pattern(&p, lane_words, a[0]))
BUILD(c_shared_stride, tc_sim_build_shared_stride(&p, a[0]))
BUILD(c_global_load, tc_sim_build_global_load(&p, a[0]))
BUILD(c_stream, tc_sim_build_stream(&p, a[0]))
static tc_status c_elementwise_args(const int *a) {
    tc_sim_elementwise_desc d = { 4096, 1, 1, 1 };
    tc_sim_program p;
    memset(&p, 0, sizeof p);
    return built(&p, tc_sim_build_elementwise(&p, &d, a[0], a[1]));
}
static tc_status c_program_name(const int *a) { return not_null(tc_sim_program_name(a[0])); }
static tc_status c_program_description(const int *a) { return not_null(tc_sim_program_description(a[0])); }
static tc_status c_gpu_get(const int *a) { return not_null(tc_gpu_get(a[0])); }
static tc_status c_gpu_nearest(const int *a) { return not_null(tc_gpu_nearest(a[0])); }
static tc_status c_ladder_get(const int *a) { return not_null(tc_tile_ladder_get(a[0])); }
static tc_status c_shared_passes(const int *a) { int n; return tc_sim_shared_passes(lane_words, a[0], a[1], a[2], a[3], &n); }
static tc_status c_global_sectors(const int *a) { uint64_t ad[32] = { 0 }; int n; return tc_sim_global_sectors(ad, a[0], a[1], a[2], &n); }
static tc_status c_state_name(const int *a) { return named(tc_sim_state_name((tc_sim_state)a[0])); }
static tc_status c_limit_name(const int *a) { return named(tc_tile_limit_name((tc_tile_limit)a[0])); }
static tc_status c_status_string(const int *a) { return not_null(tc_status_string((tc_status)a[0])); }
static tc_status c_rounding_name(const int *a) { return named(tc_rounding_name(a[0])); }
static tc_status c_fma_per_clk(const int *a) {
    double r = tc_tile_fma_per_clk(a100(), (tc_dtype)a[0], a[1], a[2], a[3]);
    return isfinite(r) && r > 0 ? TC_OK : r == 0 ? TC_ERR_ARG : TC_ERR_SIZE;   /* 0: not on this GPU */
}
static tc_status c_mainloop(const int *a) {
    tc_tile_desc d = tile_base();
    tc_sim_program p;
    memset(&p, 0, sizeof p);
    return built(&p, tc_tile_build_mainloop(&p, a100(), &d, a[0], a[1]));
}
static tc_status c_tile_simulate(const int *a) {
    tc_tile_desc d = tile_base();
    double c = 0;
    tc_status s = tc_tile_simulate(a100(), &d, a[0], &c, NULL);
    CHECK(s != TC_OK || (isfinite(c) && c > 0));
    return s;
}

#define E3(n, z, b) { n, z, b }
#define OK3 E3(TC_OK, TC_OK, TC_OK)
#define ARG3 E3(TC_ERR_ARG, TC_ERR_ARG, TC_ERR_ARG)
#define PR3 E3(TC_ERR_PROGRAM, TC_OK, TC_ERR_PROGRAM)   /* a register: 0 is one, -1 and INT_MAX are not */
#define SZ TC_ERR_SIZE
#define AR TC_ERR_ARG
#define DT TC_ERR_DTYPE
static const fn_case fn_cases[] = {
    { "tc_format_bits", 2, { "t", "cap" }, { TC_FP16, 64 }, { E3(DT, TC_OK, DT), E3(TC_OK, TC_ERR_BUFFER, TC_OK) }, c_format_bits },
    { "tc_round_array", 2, { "t", "rounding" }, { TC_BF16, TC_RN }, { E3(DT, TC_OK, DT), E3(TC_ERR_ROUNDING, TC_OK, TC_ERR_ROUNDING) }, c_round_array },
    { "tc_format_of", 1, { "t" }, { TC_E4M3 }, { E3(AR, TC_OK, AR) }, c_format_of },
    { "tc_mma_params_of", 3, { "arch", "in", "out" }, { TC_ARCH_A100, TC_FP16, TC_FP32 },
      { E3(TC_ERR_ARCH, TC_OK, TC_ERR_ARCH), E3(DT, DT, DT), E3(DT, TC_OK, DT) }, c_mma_params },
    { "tc_mma_params_of_mixed", 4, { "arch", "a", "b", "out" }, { TC_ARCH_ADA, TC_E4M3, TC_E5M2, TC_FP32 },
      { E3(TC_ERR_ARCH, TC_ERR_ARCH, TC_ERR_ARCH), E3(DT, DT, DT), E3(DT, DT, DT), E3(DT, TC_OK, DT) }, c_mma_params_mixed },
    { "tc_mma_dot", 4, { "arch", "in", "out", "k" }, { TC_ARCH_A100, TC_FP16, TC_FP32, 16 },
      { E3(AR, TC_ERR_ARG, AR), ARG3, E3(AR, TC_OK, AR), ARG3 }, c_mma_dot },
    { "tc_dot_fma", 3, { "k", "inc_a", "inc_b" }, { 1, 1, 1 }, { E3(SZ, TC_OK, SKIP), E3(AR, AR, TC_OK), E3(AR, AR, TC_OK) }, c_dot_fma },
    { "tc_dot_exact", 3, { "k", "inc_a", "inc_b" }, { 1, 1, 1 }, { E3(SZ, TC_OK, SKIP), E3(AR, AR, TC_OK), E3(AR, AR, TC_OK) }, c_dot_exact },
    { "tc_mma_frag_coord", 4, { "s", "f", "lane", "i" }, { TC_MMA_M16N8K16_F16, TC_FRAG_A, 5, 1 }, { E3(AR, AR, AR), E3(AR, TC_OK, AR), E3(AR, TC_OK, AR), E3(AR, TC_OK, AR) }, c_frag_coord },
    { "tc_mma_kind_name", 1, { "kind" }, { TC_KIND_MXF4 }, { E3(AR, TC_OK, AR) }, c_kind_name },
    /* k: a multiple of 32 up to the 64 codes given */
    { "tc_mma_dot_scaled", 1, { "k" }, { 64 }, { E3(TC_ERR_SHAPE, TC_ERR_SHAPE, TC_ERR_SHAPE) }, c_dot_scaled },
    { "tc_mma_instr_get", 1, { "i" }, { TC_MMA_SP_M16N8K16_TF32 }, { E3(AR, TC_OK, AR) }, c_instr_get },
    /* row 0 is m8n8k4.f16: no Blackwell kind */
    { "tc_mma_instr_scaled_type", 1, { "i" }, { TC_MMA_M16N8K64_MXF4 }, { ARG3 }, c_instr_scaled_type },
    /* kind 0 is m8n8k4, whose one N is 8 */
    { "tc_mma_instr_n_ok", 2, { "i", "n" }, { TC_WGMMA_F16, 8 }, { E3(TC_ERR_SHAPE, TC_OK, TC_ERR_SHAPE), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, TC_ERR_SHAPE) }, c_instr_n_ok },
    { "tc_mma_run", 4, { "arch", "kind", "n", "out" }, { TC_ARCH_H100, TC_WGMMA_E4M3_E5M2, 64, TC_FP16 },
      { E3(TC_ERR_ARCH, TC_ERR_ARCH, TC_ERR_ARCH), E3(AR, TC_ERR_ARCH, AR), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, TC_ERR_SHAPE), E3(DT, TC_OK, DT) },
      c_mma_run },   /* arch 0 is V100 (no wgmma); kind 0 is m8n8k4, V100's and Turing's only; out 0 is fp32 */
    { "tc_scaler_preset", 1, { "kind" }, { TC_SCALER_MEGATRON }, { E3(AR, TC_OK, AR) }, c_scaler_preset },
    { "tc_scaler_update", 1, { "found_inf" }, { 0 }, { OK3 }, c_scaler_update },
    { "tc_sparse_pattern", 1, { "t" }, { TC_FP16 }, { E3(DT, DT, DT) }, c_sparse_pattern },
    { "tc_sparse_meta_words", 2, { "t", "K" }, { TC_BF16, 64 }, { E3(DT, DT, DT), E3(SZ, TC_OK, TC_ERR_SHAPE) }, c_meta_words },
    { "tc_sparse_prune", 5, { "t", "M", "K", "ldw", "ldo" }, { TC_FP16, 16, 32, 32, 32 },
      { E3(DT, DT, DT), E3(SZ, TC_OK, SKIP), E3(SZ, TC_OK, TC_ERR_SHAPE), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, SKIP), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, SKIP) }, c_sparse_prune },
    { "tc_sparse_check", 4, { "t", "M", "K", "lda" }, { TC_FP16, 16, 32, 32 },
      { E3(DT, DT, DT), E3(SZ, TC_OK, SKIP), E3(SZ, TC_OK, TC_ERR_SHAPE), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, SKIP) }, c_sparse_check },
    { "tc_sparse_compress", 6, { "t", "M", "K", "lda", "ldv", "ldm" }, { TC_FP16, 16, 32, 32, 16, 1 },
      { E3(DT, DT, DT), E3(SZ, TC_OK, SKIP), E3(SZ, TC_OK, TC_ERR_SHAPE), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, SKIP), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, SKIP), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, SKIP) }, c_sparse_compress },
    { "tc_sparse_decompress", 6, { "t", "M", "K", "ldv", "ldm", "ldo" }, { TC_FP16, 16, 32, 16, 1, 32 },
      { E3(DT, DT, DT), E3(SZ, TC_OK, SKIP), E3(SZ, TC_OK, TC_ERR_SHAPE), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, SKIP), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, SKIP), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, SKIP) }, c_sparse_decompress },
    { "tc_sparse_meta_encode", 2, { "i0", "i1" }, { 1, 3 }, { E3(AR, TC_OK, AR), E3(AR, AR, AR) }, c_meta_encode },
    { "tc_sparse_meta_coord", 4, { "s", "selector", "lane", "j" }, { TC_MMA_SP_M16N8K32_F16, 0, 1, 2 }, { ARG3, E3(AR, TC_OK, AR), E3(AR, TC_OK, AR), E3(AR, TC_OK, AR) }, c_meta_coord },
    { "tc_sparse_pack_a", 5, { "selector", "M", "K", "ldv", "ldm" }, { 0, 64, 64, 32, 2 },
      { E3(AR, TC_OK, AR), E3(SZ, TC_ERR_SHAPE, SKIP), E3(SZ, TC_ERR_SHAPE, SKIP), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, SKIP), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, SKIP) }, c_pack_a },
    { "tc_sparse_pack_a (tile)", 2, { "row0", "col0" }, { 16, 32 }, { E3(TC_ERR_SHAPE, TC_OK, TC_ERR_SHAPE), E3(TC_ERR_SHAPE, TC_OK, TC_ERR_SHAPE) }, c_pack_a_at },
    { "tc_sparse_pack_b", 6, { "s", "K", "N", "ldb", "k0", "n0" }, { TC_MMA_SP_M16N8K32_F16, 64, 32, 32, 32, 8 },
      { ARG3, E3(SZ, TC_ERR_SHAPE, SKIP), E3(SZ, TC_ERR_SHAPE, SKIP), E3(TC_ERR_SHAPE, TC_ERR_SHAPE, SKIP), E3(TC_ERR_SHAPE, TC_OK, TC_ERR_SHAPE), E3(TC_ERR_SHAPE, TC_OK, TC_ERR_SHAPE) }, c_pack_b },
    { "tc_sparse_unpack_a", 2, { "s", "selector" }, { TC_MMA_SP_M16N8K32_F16, 0 }, { ARG3, E3(AR, TC_OK, AR) }, c_unpack_a },
    { "tc_sim_ldg", 2, { "dst", "addr_reg" }, { 1, TC_SIM_NOREG }, { PR3, PR3 }, c_ldg },
    { "tc_sim_stg", 1, { "src" }, { 1 }, { PR3 }, c_stg },
    { "tc_sim_ldgsts", 1, { "token" }, { 1 }, { PR3 }, c_ldgsts },
    { "tc_sim_lds", 3, { "dst", "addr_reg", "token" }, { 1, 2, TC_SIM_NOREG }, { PR3, PR3, PR3 }, c_lds },
    { "tc_sim_sts", 1, { "src" }, { 1 }, { PR3 }, c_sts },
    { "tc_sim_ldsm", 3, { "dst", "matrices", "token" }, { 4, 4, TC_SIM_NOREG }, { PR3, E3(TC_ERR_PROGRAM, TC_ERR_PROGRAM, TC_ERR_PROGRAM), PR3 }, c_ldsm },
    { "tc_sim_ffma", 4, { "dst", "a", "b", "c" }, { 1, 2, 3, 1 }, { PR3, PR3, PR3, PR3 }, c_ffma },
    { "tc_sim_mma", 5, { "kind", "dst", "a", "b", "c" }, { TC_MMA_M16N8K16_F16, 1, 2, 3, 1 },
      { E3(AR, TC_OK, AR), PR3, PR3, PR3, PR3 }, c_mma },   /* kind 0 is m8n8k4 */
    { "tc_sim_mma_sp", 6, { "kind", "dst", "a", "b", "c", "meta" }, { TC_MMA_SP_M16N8K32_BF16, 1, 2, 3, 1, 5 },
      { ARG3, PR3, PR3, PR3, PR3, PR3 }, c_mma_sp },   /* kind 0 is dense */
    { "tc_sim_mma_n", 6, { "kind", "n", "dst", "a", "b", "c" }, { TC_TCGEN05_M128_TF32, 128, 1, 2, 3, 1 },
      { ARG3, E3(TC_ERR_SHAPE, TC_ERR_SHAPE, TC_ERR_SHAPE), PR3, PR3, PR3, PR3 }, c_sim_wgmma },   /* kind 0 is mma.sync */
    { "tc_sim_bar", 1, { "wait_reg" }, { TC_SIM_NOREG }, { PR3 }, c_bar },
    { "tc_sim_shfl", 2, { "dst", "src" }, { 1, 2 }, { PR3, PR3 }, c_shfl },
    { "tc_sim_imad", 4, { "dst", "a", "b", "c" }, { 1, 2, TC_SIM_NOREG, 1 }, { PR3, PR3, PR3, PR3 }, c_imad },
    { "tc_sim_atoms", 3, { "dst", "src", "addr_reg" }, { TC_SIM_NOREG, 2, 3 }, { PR3, PR3, PR3 }, c_atoms },
    { "tc_sim_atomg", 3, { "dst", "src", "addr_reg" }, { 1, 2, TC_SIM_NOREG }, { PR3, PR3, PR3 }, c_atomg },
    { "tc_sim_loop", 2, { "target", "trips" }, { 0, 3 }, { PR3, E3(TC_ERR_PROGRAM, TC_ERR_PROGRAM, TC_ERR_PROGRAM) }, c_loop },
    { "tc_sim_build_ffma_chain", 1, { "n" }, { 8 }, { E3(SZ, SZ, SZ) }, c_ffma_chain },
    { "tc_sim_build_mma_chain", 3, { "kind", "n", "dependent" }, { TC_MMA_M16N8K16_F16, 8, 1 }, { E3(AR, TC_OK, AR), E3(SZ, SZ, SZ), OK3 }, c_mma_chain },
    { "tc_sim_build_shared_pattern", 1, { "width" }, { 4 }, { ARG3 }, c_shared_pattern },
    { "tc_sim_build_shared_stride", 1, { "stride_words" }, { 33 }, { E3(AR, TC_OK, AR) }, c_shared_stride },
    { "tc_sim_build_global_load", 1, { "l2_hit" }, { 1 }, { OK3 }, c_global_load },
    { "tc_sim_build_stream", 1, { "trips" }, { 4 }, { E3(SZ, SZ, SZ) }, c_stream },
    { "tc_sim_build_elementwise", 2, { "sms", "warps_per_sm" }, { 2, 4 }, { E3(SZ, SZ, SZ), E3(SZ, SZ, SZ) }, c_elementwise_args },
    { "tc_sim_program_name", 1, { "i" }, { 0 }, { E3(AR, TC_OK, AR) }, c_program_name },
    { "tc_sim_program_description", 1, { "i" }, { 1 }, { E3(AR, TC_OK, AR) }, c_program_description },
    { "tc_gpu_get", 1, { "i" }, { 1 }, { E3(AR, TC_OK, AR) }, c_gpu_get },
    { "tc_gpu_nearest", 1, { "sm" }, { 80 }, { E3(AR, AR, TC_OK) }, c_gpu_nearest },   /* INT_MAX: the newest */
    { "tc_tile_ladder_get", 1, { "i" }, { 1 }, { E3(AR, TC_OK, AR) }, c_ladder_get },
    { "tc_sim_shared_passes", 4, { "lanes", "width", "banks", "bank_bytes" }, { 32, 4, 32, 4 }, { ARG3, ARG3, ARG3, ARG3 }, c_shared_passes },
    { "tc_sim_global_sectors", 3, { "lanes", "width", "sector_bytes" }, { 32, 4, 32 }, { ARG3, ARG3, ARG3 }, c_global_sectors },
    { "tc_sim_state_name", 1, { "s" }, { TC_SIM_BARRIER }, { E3(AR, TC_OK, AR) }, c_state_name },
    { "tc_tile_limit_name", 1, { "l" }, { TC_TILE_LIMIT_DRAM }, { E3(AR, TC_OK, AR) }, c_limit_name },
    { "tc_status_string", 1, { "s" }, { TC_ERR_TILE_REGS }, { OK3 }, c_status_string },
    { "tc_rounding_name", 1, { "rounding" }, { TC_RU }, { E3(AR, TC_OK, AR) }, c_rounding_name },
    { "tc_tile_fma_per_clk", 4, { "in", "inst_m", "inst_n", "inst_k" }, { TC_FP16, 16, 8, 16 }, { E3(AR, TC_OK, AR), ARG3, ARG3, ARG3 }, c_fma_per_clk },   /* TC_FP32: FFMA */
    { "tc_tile_build_mainloop", 2, { "iters", "ctas" }, { 12, 1 }, { E3(SZ, SZ, SZ), E3(SZ, SZ, SZ) }, c_mainloop },
    { "tc_tile_simulate", 1, { "ctas" }, { 1 }, { E3(SZ, SZ, SZ) }, c_tile_simulate },
    { "tc_imma_dot", 1, { "k" }, { 16 }, { E3(TC_ERR_SHAPE, TC_OK, TC_ERR_SHAPE) }, c_imma_dot },   /* INT_MAX: no multiple of 16 */
};

static void walk_functions(void) {
    int i, j, c, which;
    for (i = 0; i < 32; i++) lane_words[i] = 4u * (uint32_t)i;
    for (i = 0; i < 64 * 64; i++) u_buf[i] = 0xEEEEEEEEu;   /* legal metadata until tc_sparse_compress writes its own */
    for (i = 0; i < (int)(sizeof fn_cases / sizeof fn_cases[0]); i++) {
        const fn_case *fc = &fn_cases[i];
        tc_status base = fc->call(fc->base);
        if (!CHECK(base == TC_OK)) printf("     %s at its base arguments: %s\n", fc->fn, tc_status_string(base));
        for (j = 0; j < fc->nargs; j++)
            for (c = 0; c < 3; c++)
                for (which = 0; which < (c == 0 ? 2 : 1); which++) {
                    int a[NARG], want = fc->exp[j][c];
                    tc_status got;
                    if (want == SKIP) continue;
                    memcpy(a, fc->base, sizeof a);
                    a[j] = c == 0 ? (which ? INT_MIN : -1) : c == 1 ? 0 : INT_MAX;
                    snprintf(cur_case, sizeof cur_case, "%s(%s = %d)", fc->fn, fc->arg[j], a[j]);
                    got = fc->call(a);
                    edge_cases++;
                    if (!CHECK(got == (tc_status)want))
                        printf("     %s: got %s, expected %s\n", cur_case, tc_status_string(got), tc_status_string((tc_status)want));
                }
    }
}

#define WALK(T, fields, base, probe)                                                           \
    do {                                                                                       \
        check_layout(#T, fields, (int)(sizeof fields / sizeof fields[0]), sizeof(T), 0);       \
        walk(#T, fields, (int)(sizeof fields / sizeof fields[0]), &(base), sizeof(T), probe);  \
    } while (0)

int main(void) {
    int i;
    tc_tile_desc td = tile_base();
    tc_sim_options so;
    tc_gemm_desc gd;
    tc_sparse_gemm_desc sd;
    tc_scaler_desc scd;
    tc_sim_elementwise_desc ew = { 100000, 2, 1, 3 };
    tc_sim_matmul32_desc md;
    tc_mma_options mo;
    tc_gemm_scaled_desc qd;
    tc_igemm_desc igd;
    tc_sim_addr ad = tc_sim_addr_affine(0, 16, 512, 0, 4);   /* 16-byte lanes: every width is aligned */
    unsigned meta_code;

    /* every GPU's profile */
    for (i = 0; i < tc_gpu_count(); i++)
        WALK(tc_sim_profile, profile_fields, tc_gpu_get(i)->profile, probe_profile);

    /* a100's machine with the ladder's last kernel; then its profile through the tiling model */
    probe_gpu_machine = a100();
    probe_gpu_desc = td;
    WALK(tc_gpu, gpu_fields, *a100(), probe_gpu);
    walk_gpu_profile();

    SET_HI(tile_fields, "regs_per_thread", a100()->occupancy.max_regs_per_thread);
    probe_predict = 1;
    WALK(tc_tile_desc, tile_fields, td, probe_tile);
    probe_predict = 0;

    build_probe_program(&probe_prog, &a100()->profile);
    SET_HI(options_fields, "sms", a100()->profile.sms);
    SET_HI(options_fields, "warps_per_sm", a100()->profile.max_warps_per_sm);
    SET_HI(program_fields, "shared_bytes", a100()->profile.shared_bytes_per_sm);
    SET_HI(program_fields, "default_sms", a100()->profile.sms);
    SET_HI(program_fields, "default_warps_per_sm", a100()->profile.max_warps_per_sm);
    memset(&so, 0, sizeof so);
    so.sms = 2; so.warps_per_sm = 4; so.warps_per_block = 2;
    WALK(tc_sim_options, options_fields, so, probe_options);
    so.max_cycles = 1;
    CHECK_STATUS(probe_options(&so), TC_ERR_LIMIT);
    WALK(tc_sim_program, program_fields, probe_prog, probe_program);
    probe_prog.status = TC_ERR_NOMEM;   /* an emitter's failure comes back from the run */
    CHECK_STATUS(probe_program(&probe_prog), TC_ERR_NOMEM);
    tc_sim_program_free(&probe_prog);

    memset(&gd, 0, sizeof gd);
    gd.arch = TC_ARCH_A100; gd.in = TC_FP16; gd.out = TC_FP32; gd.M = gd.N = gd.K = 1;
    gd.A = g_a; gd.B = g_b; gd.C = g_c; gd.D = g_d;
    CHECK_STATUS(tc_gemm_ex(&gd), TC_OK);
    g_base_d = g_d[0];
    CHECK(g_base_d == 1.5f * -2.0f + 0.25f);
    WALK(tc_gemm_desc, gemm_fields, gd, probe_gemm);

    memset(&sd, 0, sizeof sd);
    sd.gemm = gd;
    sd.gemm.K = 4; sd.gemm.A = s_vals; sd.gemm.B = s_b;
    CHECK_STATUS(tc_sparse_meta_encode(0, 2, &meta_code), TC_OK);
    s_meta[0] = meta_code;
    sd.meta = s_meta;
    CHECK_STATUS(tc_sparse_gemm_ex(&sd), TC_OK);
    s_base_d = g_d[0];
    CHECK(s_base_d == 1.5f * 2.0f + -0.5f * 4.0f + 0.25f);
    WALK(tc_sparse_gemm_desc, sparse_fields, sd, probe_sparse);

    memset(&scd, 0, sizeof scd);
    WALK(tc_scaler_desc, scaler_fields, scd, probe_scaler);

    WALK(tc_sim_elementwise_desc, elementwise_fields, ew, probe_elementwise);

    memset(&md, 0, sizeof md);
    WALK(tc_sim_matmul32_desc, matmul32_fields, md, probe_matmul32);

    memset(&mo, 0, sizeof mo);
    WALK(tc_mma_options, mma_options_fields, mo, probe_mma_options);

    memset(&qd, 0, sizeof qd);
    qd.type.arch = TC_ARCH_B200; qd.type.kind = TC_KIND_MXF8F6F4; qd.type.a_type = qd.type.b_type = TC_E4M3;
    qd.type.out = TC_FP32; qd.type.scale_type = TC_UE8M0; qd.type.block = 32;
    q_a[0] = tc_e4m3_from_f32(1.5f, TC_RN); q_b[0] = tc_e4m3_from_f32(-2.0f, TC_RN);
    qd.M = qd.N = 1; qd.K = 32; qd.A = q_a; qd.B = q_b; qd.scale_A = qd.scale_B = q_s; qd.C = g_c; qd.D = g_d;
    CHECK_STATUS(probe_scaled(&qd), TC_OK);
    WALK(tc_gemm_scaled_desc, scaled_fields, qd, probe_scaled);

    WALK(tc_sim_addr, addr_fields, ad, probe_addr);

    memset(&igd, 0, sizeof igd);
    igd.type.arch = TC_ARCH_A100; igd.type.a_type = igd.type.b_type = TC_S8;
    igd.M = igd.N = 1; igd.K = 16; igd.A = i_a; igd.B = i_b; igd.C = i_c; igd.D = i_d;
    CHECK_STATUS(probe_igemm(&igd), TC_OK);
    WALK(tc_igemm_desc, igemm_fields, igd, probe_igemm);
    WALK(tc_imma_type, imma_type_fields, igd.type, probe_imma_type);
    walk_integer_dtypes();

    walk_functions();

    printf("test_edges: %ld edge cases\n", edge_cases);
    return tct_finish("test_edges");
}
