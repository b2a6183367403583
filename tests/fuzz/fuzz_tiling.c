/* libFuzzer harness: the GEMM tiling model (section 6).
   Input: gpu byte (tc_gpu_get(b % count)), ladder byte (the tiling of
   tc_tile_ladder_get(b % count)), M, N, K (fz_int each; a tag byte >= 0xF8
   reads a raw int32), then a count byte (% 12) of overrides, each a field
   byte (% 30, see set_field) and its value; a flags byte (bit 0: also run
   tc_tile_predict when the tiling is small).
   Invariants: tc_tile_check and tc_tile_model agree on the status; a
   refused tc_tile_model leaves its result zeroed (documented); an accepted
   one has at least one CTA per SM and one wave, a wave efficiency in (0, 1],
   flops = 2 M N K, a known limit and a finite positive predicted time;
   tc_tile_predict agrees with tc_tile_model on the status and its state
   shares sum to 1. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "fuzz.h"

static void set_field(fz *f, tc_gpu *m, tc_tile_desc *d) {
    switch (fz_u8(f) % 30) {
    case 0: m->occupancy.max_ctas_per_sm = fz_int(f); break;
    case 1: m->occupancy.max_threads_per_cta = fz_int(f); break;
    case 2: m->occupancy.shared_bytes_per_cta = fz_i64(f); break;
    case 3: m->occupancy.shared_reserved_per_cta = fz_i64(f); break;
    case 4: m->occupancy.regs_per_sm = fz_int(f); break;
    case 5: m->occupancy.max_regs_per_thread = fz_int(f); break;
    case 6: m->occupancy.reg_alloc_unit = fz_int(f); break;
    case 7: m->profile.sms = fz_int(f); break;
    case 8: m->profile.max_warps_per_sm = fz_int(f); break;
    case 9: m->profile.shared_bytes_per_sm = fz_i64(f); break;
    case 10: m->profile.sm_bytes_per_cycle = fz_f64(f); break;
    case 11: m->profile.dram_bytes_per_cycle = fz_f64(f); break;
    case 12: m->profile.clock_ghz = fz_f64(f); break;
    case 13: d->in = (tc_dtype)fz_int(f); break;
    case 14: d->cta_m = fz_int(f); break;
    case 15: d->cta_n = fz_int(f); break;
    case 16: d->cta_k = fz_int(f); break;
    case 17: d->warp_m = fz_int(f); break;
    case 18: d->warp_n = fz_int(f); break;
    case 19: d->inst_m = fz_int(f); break;
    case 20: d->inst_n = fz_int(f); break;
    case 21: d->inst_k = fz_int(f); break;
    case 22: d->staging = (tc_tile_staging)fz_int(f); break;
    case 23: d->stages = fz_int(f); break;
    case 24: d->pad_a = fz_int(f); break;
    case 25: d->pad_b = fz_int(f); break;
    case 26: d->regs_per_thread = fz_int(f); break;
    case 27: m->profile.shared_wavefronts_per_cycle = fz_int(f); break;
    case 28: d->sparse = fz_int(f); break;
    case 29: d->load_rounds = fz_int(f); break;
    }
}

static int all_zero(const void *p, size_t n) {
    const unsigned char *c = (const unsigned char *)p;
    size_t i;
    for (i = 0; i < n; i++) if (c[i]) return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz f = { data, size, 0 };
    tc_gpu m = *tc_gpu_get(fz_u8(&f) % tc_gpu_count());
    tc_tile_desc d = tc_tile_ladder_get(fz_u8(&f) % tc_tile_ladder_count())->tile;
    tc_tile_result r;
    tc_status sc, sm;
    const char *why = NULL;
    int n, i, k;
    uint8_t flags;
    d.M = fz_int(&f); d.N = fz_int(&f); d.K = fz_int(&f);
    n = fz_small(&f, 12);
    for (i = 0; i < n; i++) set_field(&f, &m, &d);
    flags = fz_u8(&f);
#if FUZZ_SKIP_KNOWN   /* known bugs: a huge reg_alloc_unit divides by zero; tiny positive bandwidths overflow */
    if (m.occupancy.reg_alloc_unit > 4096) m.occupancy.reg_alloc_unit = 8;
    if (m.profile.sm_bytes_per_cycle > 0 && m.profile.sm_bytes_per_cycle < 1e-3) m.profile.sm_bytes_per_cycle = 0;
    if (m.profile.dram_bytes_per_cycle > 0 && m.profile.dram_bytes_per_cycle < 1e-3) m.profile.dram_bytes_per_cycle = 0;
#endif
    sc = tc_tile_check(&m, &d, &why);
    FUZZ_CHECK(why != NULL, "tc_tile_check left why NULL");
    memset(&r, 0xA5, sizeof r);
    sm = tc_tile_model(&m, &d, &r, NULL);
    FUZZ_CHECK(sc == sm, "tc_tile_check says %s, tc_tile_model %s", tc_status_string(sc), tc_status_string(sm));
    if (sm != TC_OK) {
        FUZZ_CHECK(all_zero(&r, sizeof r), "tc_tile_model refused (%s) but left a non-zero result", tc_status_string(sm));
        return 0;
    }
    FUZZ_CHECK(r.ctas >= 1 && r.ctas_per_sm >= 1 && r.waves >= 1, "ctas %lld, per SM %d, waves %lld", (long long)r.ctas, r.ctas_per_sm, (long long)r.waves);
    FUZZ_CHECK(r.wave_efficiency > 0 && r.wave_efficiency <= 1, "wave efficiency %g", r.wave_efficiency);
    FUZZ_CHECK(r.flops == 2.0 * d.M * d.N * (double)d.K, "flops %g", r.flops);
    FUZZ_CHECK((int)r.limit >= 0 && r.limit < TC_TILE_LIMIT_COUNT, "limit %d", (int)r.limit);
    FUZZ_CHECK(isfinite(r.predicted_s) && r.predicted_s > 0, "predicted_s %g", r.predicted_s);
    if ((flags & 1) && d.cta_m * d.cta_n <= 64 * 64 && d.cta_k <= 64 && m.profile.subpartitions <= 4 && r.ctas_per_sm <= 4) {
        tc_tile_result p;
        double share = 0;
        tc_status sp = tc_tile_predict(&m, &d, &p, NULL);
        FUZZ_CHECK(sp == TC_OK || sp == TC_ERR_SHAPE || sp == TC_ERR_LIMIT, "tc_tile_predict: %s after tc_tile_model OK", tc_status_string(sp));
        if (sp == TC_OK) {
            for (k = 0; k < TC_SIM_STATE_COUNT; k++) share += p.sim_state_share[k];
            FUZZ_CHECK(fabs(share - 1) < 1e-6, "state shares sum to %g", share);
            FUZZ_CHECK(isfinite(p.predicted_s) && p.predicted_s > 0, "predicted_s %g", p.predicted_s);
        }
    }
    return 0;
}
