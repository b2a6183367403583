/* test_mmasim.c - section 2 against MMA-Sim's executable model
   (github.com/microsoft/MMA-Sim, arXiv 2511.10909): every output of every
   case in tests/mmasim/ (written by tests/mmasim/gen_vectors.py, which ran
   MMA-Sim; see tests/mmasim/README.md) is recomputed with tc_mma_dot_ex
   (tc_mma_dot_scaled for kind::f8f6f4 and the block-scaled kinds) under
   MMA-Sim's conventions (its zero rule, the default, and
   TC_MMA_ZERO_SIGN_PLUS) and compared bit for bit. The files hold only each
   case's seed and MMA-Sim's D: the inputs are rebuilt here by the same
   splitmix64 generator. NaN: an fp32 D is compared bit for bit (both give
   the canonical 0x7FFFFFFF); an fp16 D is the model's float encoded to fp16
   (a NaN becomes 0x7FFF, MMA-Sim's too), then compared bit for bit.

   Run: build/tests/test_mmasim [FOLDER]   (default: the repository's
   tests/mmasim, compiled in as TC_MMASIM_VECTORS by the Makefile)
   Prints per combination the cases, outputs and mismatches, and how many
   outputs two other models get wrong (the default sign of zero; F - 1),
   which shows that the cases can tell models apart. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TC_MMASIM_VECTORS
#define TC_MMASIM_VECTORS "tests/mmasim"
#endif

#define MAX_N 8
#define MAX_M 128
#define MAX_K 64

/* splitmix64, as gen_vectors.py's Rng. */
static uint64_t rng_next(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* gen_vectors.py's code(): one code of a type with the given bit widths. */
static uint32_t gen_code(uint64_t *s, const tc_format *f, int mode, int exp_shift) {
    uint64_t r = rng_next(s);
    uint32_t sign, man, emax, e, c, mag;
    if (mode == 0) return (uint32_t)(r & ((1ull << f->total_bits) - 1));
    sign = (uint32_t)(r >> 63);
    man = (uint32_t)(r & ((1ull << f->mantissa_bits) - 1));
    emax = (1u << f->exponent_bits) - 1;
    if (mode == 1) {
        long v = (long)(1u << (f->exponent_bits - 1)) - 1 + (long)((r >> 32) % 7) - 3 + exp_shift;
        if (v < 1) v = 1;
        if (v > (long)emax - 1) v = (long)emax - 1;
        e = (uint32_t)v;
    } else if (mode == 3) {
        e = (uint32_t)((r >> 32) % (f->has_inf ? emax : emax + 1));
    } else {
        e = (uint32_t)((r >> 32) % 4);
    }
    c = sign << (f->total_bits - 1) | e << f->mantissa_bits | man;
    mag = (1u << (f->total_bits - 1)) - 1;
    if (!f->has_inf && f->has_nan && (c & mag) == mag) c -= 1;
    return c;
}

/* gen_vectors.py's scale_code(). */
static uint8_t gen_scale(uint64_t *s, tc_dtype t, int mode) {
    uint64_t r = rng_next(s), hi = r >> 32;
    static const int e8[5] = { 0, 1, 1, 2, 3 };
    if (t == TC_UE8M0) {
        switch (e8[mode]) {
        case 0: return (uint8_t)(r & 0xFF);
        case 1: return (uint8_t)(127 + hi % 7 - 3);
        case 2: return (uint8_t)(hi % 255);
        default: return (uint8_t)(hi % 4);
        }
    }
    switch (e8[mode]) {
    case 0: return (uint8_t)(r & 0x7F);
    case 1: return (uint8_t)((4 + hi % 7) << 3 | (r & 7));
    case 2: return (uint8_t)(hi % 127);
    default: return (uint8_t)(hi % 32);
    }
}

/* The value of a generated code: raw fp32 bits for fp32 (a tf32 MMA's operand), else the type's decoding. */
static float value_of(tc_dtype t, uint32_t code) {
    return t == TC_FP32 ? tct_u2f(code) : tc_decode(t, code);
}

/* One combination: MMA-Sim's name for it and tensorcore.h's. scaled: run
   through tc_mma_dot_scaled as type st (kind::f8f6f4 and the block-scaled
   kinds), else through tc_mma_dot_ex. */
typedef struct {
    char mmasim[160];
    tc_arch arch;
    tc_dtype a, b, out;
    int m, n, k;
    int scaled;
    tc_mma_scaled_type st;
} combo;

/* One case: codes of A (m x k) and B (k x n), row-major; C's values; scales of A (m x k/block) and B (k/block x n). */
typedef struct {
    uint32_t a[MAX_M * MAX_K], b[MAX_K * MAX_N];
    float A[MAX_M * MAX_K], B[MAX_K * MAX_N], C[MAX_M * MAX_N];
    uint8_t sa[MAX_M * MAX_K], sb[MAX_K * MAX_N];
} case_data;

/* gen_vectors.py's case_inputs() (and, for scaled kinds, run_case()'s scales). */
static void case_inputs(const combo *cb, uint64_t seed, case_data *d) {
    tc_dtype ga = cb->a == TC_TF32 ? TC_FP32 : cb->a, gb = cb->b == TC_TF32 ? TC_FP32 : cb->b;
    const tc_format *fa = tc_format_of(ga), *fb = tc_format_of(gb), *fc = tc_format_of(cb->out);
    uint32_t *ca = d->a, *cbits = d->b, cc[MAX_M * MAX_N];
    int mode = (int)(seed % 5), gm = mode == 2 ? 1 : mode, m = cb->m, n = cb->n, k = cb->k, i, j, p;
    uint64_t s = seed;
    for (i = 0; i < m * k; i++) ca[i] = gen_code(&s, fa, gm, 0);
    for (i = 0; i < k * n; i++) cbits[i] = gen_code(&s, fb, gm, 0);
    for (i = 0; i < m * n; i++) cc[i] = gen_code(&s, fc, gm, mode == 2 ? -8 : 0);
    if (mode == 2) {
        uint32_t sa = 1u << (fa->total_bits - 1);
        for (i = 0; i < m; i++)
            for (p = 0; p + 1 < k; p += 2) ca[i * k + p + 1] = ca[i * k + p] ^ sa ^ (uint32_t)(rng_next(&s) & 1);
        for (p = 0; p + 1 < k; p += 2)
            for (j = 0; j < n; j++) cbits[(p + 1) * n + j] = cbits[p * n + j];
    }
    for (i = 0; i < m * k; i++) d->A[i] = value_of(ga, ca[i]);
    for (i = 0; i < k * n; i++) d->B[i] = value_of(gb, cbits[i]);
    /* MMA-Sim cannot run an Inf c in the FP4 kinds: the generator gave it the largest finite instead. */
    for (i = 0; i < m * n; i++)
        d->C[i] = value_of(cb->out, cb->scaled && cb->st.kind >= TC_KIND_MXF4 && (cc[i] & 0x7FFFFFFFu) == 0x7F800000u
                                        ? cc[i] - 1 : cc[i]);
    if (cb->scaled && cb->st.kind != TC_KIND_F8F6F4) {
        uint64_t t = seed ^ 0x5CA1Eull;
        for (i = 0; i < m * (k / cb->st.block); i++) d->sa[i] = gen_scale(&t, cb->st.scale_type, mode);
        for (i = 0; i < k / cb->st.block * n; i++) d->sb[i] = gen_scale(&t, cb->st.scale_type, mode);
    }
}

static int find_kind(const char *name, tc_mma_kind *out) {
    int q;
    for (q = 0; q < TC_KIND_COUNT; q++)
        if (!strcmp(tc_mma_kind_name((tc_mma_kind)q), name)) { *out = (tc_mma_kind)q; return 1; }
    return 0;
}

static int find_arch(const char *name, tc_arch *out) {
    int a;
    for (a = 0; a < TC_ARCH_COUNT; a++)
        if (!strcmp(tc_arch_name((tc_arch)a), name)) { *out = (tc_arch)a; return 1; }
    return 0;
}

static int find_dtype(const char *name, tc_dtype *out) {
    int t;
    for (t = 0; t < TC_DTYPE_COUNT; t++)
        if (tc_format_of((tc_dtype)t) && !strcmp(tc_format_of((tc_dtype)t)->name, name)) { *out = (tc_dtype)t; return 1; }
    return 0;
}

/* The two header lines; 0 if malformed. */
static int read_header(FILE *f, combo *cb) {
    char line[256], an[32], a[32], b[32], o[32], kind[32], sc[32];
    tc_mma_params p;
    size_t len;
    if (!fgets(cb->mmasim, sizeof cb->mmasim, f) || strncmp(cb->mmasim, "# MMA-Sim ", 10)) return 0;
    len = strlen(cb->mmasim);
    if (len && cb->mmasim[len - 1] == '\n') cb->mmasim[len - 1] = '\0';
    if (!fgets(line, sizeof line, f)) return 0;
    if (sscanf(line, "tc %31s %31s %31s %31s %d %d %d %31s %31s %d", an, a, b, o, &cb->m, &cb->n, &cb->k, kind, sc,
               &cb->st.block) != 10)
        return 0;
    if (!(find_arch(an, &cb->arch) && find_dtype(a, &cb->a) && find_dtype(b, &cb->b) && find_dtype(o, &cb->out) &&
          cb->m > 0 && cb->m <= MAX_M && cb->n > 0 && cb->n <= MAX_N && cb->k > 0 && cb->k <= MAX_K &&
          (cb->out == TC_FP32 || cb->out == TC_FP16)))
        return 0;
    cb->scaled = strcmp(kind, "-") != 0;
    if (!cb->scaled) return tc_mma_params_of_mixed(cb->arch, cb->a, cb->b, cb->out, &p) == TC_OK;
    cb->st.arch = cb->arch;
    cb->st.a_type = cb->a;
    cb->st.b_type = cb->b;
    cb->st.out = cb->out;
    if (!find_kind(kind, &cb->st.kind) || (strcmp(sc, "-") && !find_dtype(sc, &cb->st.scale_type))) return 0;
    return (cb->st.block == 0 || cb->k % cb->st.block == 0) && tc_mma_scaled_params_of(&cb->st, &p) == TC_OK;
}

/* The model's D element (i, j) under opt, as bits of the output type, in *out; a refused case is a mismatch. */
static int model(const combo *cb, const case_data *cd, int i, int j, const tc_mma_options *opt, uint32_t *out) {
    float a[MAX_K], b[MAX_K], d = 0.0f;
    uint8_t ac[MAX_K], bc[MAX_K], sa[MAX_K], sb[MAX_K];
    int l, k = cb->k, nb = cb->st.block ? k / cb->st.block : 0;
    for (l = 0; l < k; l++) {
        a[l] = cd->A[i * k + l];
        b[l] = cd->B[l * cb->n + j];
        ac[l] = (uint8_t)cd->a[i * k + l];
        bc[l] = (uint8_t)cd->b[l * cb->n + j];
    }
    for (l = 0; l < nb; l++) {
        sa[l] = cd->sa[i * nb + l];
        sb[l] = cd->sb[l * cb->n + j];
    }
    if (!cb->scaled)
        d = tc_mma_dot_ex(cb->arch, cb->a, cb->out, k, a, b, cd->C[i * cb->n + j], opt);
    else if (tc_mma_dot_scaled(&cb->st, k, ac, bc, nb ? sa : NULL, nb ? sb : NULL, cd->C[i * cb->n + j], opt, &d) != TC_OK)
        return 0;
    *out = cb->out == TC_FP16 ? tc_fp16_from_f32(d, TC_RN) : tct_f2u(d);
    return 1;
}

/* Checks one file; returns its case count, -1 if unreadable. */
static int check_file(const char *dir, const char *stem, long *outputs, long *mismatched, long *sign_differs) {
    static case_data cd;
    char path[1024], line[16384];
    combo cb;
    FILE *f;
    int cases = 0;
    long bad = 0, n_out = 0, bad_sum = 0, bad_alt = 0;
    tc_mma_options opt, opt_sum, opt_alt;
    tc_mma_params prm;
    snprintf(path, sizeof path, "%s/%s.txt", dir, stem);
    f = fopen(path, "r");
    if (!f) { printf("cannot open %s\n", path); return -1; }
    memset(&cb, 0, sizeof cb);
    if (!read_header(f, &cb) || (cb.scaled ? tc_mma_scaled_params_of(&cb.st, &prm)
                                           : tc_mma_params_of_mixed(cb.arch, cb.a, cb.b, cb.out, &prm)) != TC_OK) {
        printf("%s: malformed header\n", path);
        fclose(f);
        return -1;
    }
    /* MMA-Sim's conventions: its zero rule (the default) and +0 for every zero result. */
    memset(&opt, 0, sizeof opt);
    opt.zero_sign = TC_MMA_ZERO_SIGN_PLUS;
    opt.b_type = cb.b == cb.a || cb.scaled ? TC_FP32 : cb.b;   /* the scaled kinds take B's type from cb.st */
    /* Two models the vectors must tell apart from it: the default sign of zero, and one fractional bit fewer. */
    opt_sum = opt;
    opt_sum.zero_sign = TC_MMA_ZERO_SIGN_SUM;
    opt_alt = opt;
    opt_alt.frac_bits = prm.frac_bits - 1;
    while (fgets(line, sizeof line, f)) {
        char *p = line, *end;
        uint64_t seed = strtoull(p, &end, 16);
        int i, j, ok = end != p;
        if (!ok) { printf("%s: malformed case %d\n", path, cases); fclose(f); return -1; }
        case_inputs(&cb, seed, &cd);
        for (i = 0; i < cb.m && ok; i++)
            for (j = 0; j < cb.n && ok; j++) {
                unsigned long want;
                uint32_t got, alt;
                p = end;
                want = strtoul(p, &end, 16);
                if (end == p) { ok = 0; break; }
                if (!CHECK(model(&cb, &cd, i, j, &opt, &got))) got = ~(uint32_t)want;
                bad_sum += !model(&cb, &cd, i, j, &opt_sum, &alt) || alt != (uint32_t)want;
                bad_alt += !model(&cb, &cd, i, j, &opt_alt, &alt) || alt != (uint32_t)want;
                n_out++;
                if (!CHECK(got == (uint32_t)want)) {
                    bad++;
                    if (bad <= 3) printf("     %s case %016llx D[%d][%d]: tensorcore.h %08x, MMA-Sim %08lx\n", stem,
                                         (unsigned long long)seed, i, j, (unsigned)got, want);
                }
            }
        if (!ok) { printf("%s: case %d has too few outputs\n", path, cases); fclose(f); return -1; }
        cases++;
    }
    fclose(f);
    printf("%-36s %-44s %3d %6ld %5ld %5ld %5ld\n", stem, cb.mmasim + 10, cases, n_out, bad, bad_sum, bad_alt);
    /* F - 1 must lose outputs: the comparison has teeth (with fp32 output; rounding to fp16 can hide it). */
    if (cb.out == TC_FP32) CHECK(bad_alt > 0);
    *sign_differs += bad_sum;
    *outputs += n_out;
    *mismatched += bad;
    return cases;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : TC_MMASIM_VECTORS;
    char path[1024], stem[128];
    FILE *idx;
    int files = 0, cases = 0;
    long outputs = 0, mismatched = 0, sign_differs = 0;
    snprintf(path, sizeof path, "%s/index.txt", dir);
    idx = fopen(path, "r");
    printf("%-36s %-44s %3s %6s %5s %5s %5s\n", "file", "MMA-Sim instruction", "cases", "outputs", "mismatched",
           "(-0 kept)", "(F-1)");
    if (!CHECK(idx != NULL)) { printf("cannot open %s\n", path); return tct_finish("test_mmasim"); }
    while (fscanf(idx, "%127s", stem) == 1) {
        int n = check_file(dir, stem, &outputs, &mismatched, &sign_differs);
        CHECK(n > 0);
        if (n > 0) { files++; cases += n; }
    }
    fclose(idx);
    /* The folder holds every combination the generator lists (52 when written). */
    CHECK(files >= 52);
    /* Some case turns on the sign of a zero result, and MMA-Sim's +0 decides it. */
    CHECK(sign_differs > 0);
    printf("%d combinations, %d cases, %ld outputs compared with MMA-Sim, %ld mismatched; %ld differ under the "
           "default zero sign (-0 kept)\n", files, cases, outputs, mismatched, sign_differs);
    return tct_finish("test_mmasim");
}
