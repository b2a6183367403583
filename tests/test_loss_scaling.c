/* test_loss_scaling.c - section 3: the loss scalers' state machines step by
   step against sequences derived by hand from each framework's source, the
   fused unscale-and-check on Inf, -Inf, NaN and subnormals in fp32, fp16
   and bf16 storage, the failure cases, and bad input. */
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tc_test.h"

/* One expected step: feed found_inf, expect this status and state. */
typedef struct {
    int found_inf;
    tc_status status;
    float scale;
    int growth_tracker;
} step_case;

static void run_steps(const char *name, tc_scaler *s, const step_case *cases, int n) {
    int i;
    for (i = 0; i < n; i++) {
        tc_status st = tc_scaler_update(s, cases[i].found_inf);
        int ok = st == cases[i].status && s->scale == cases[i].scale && s->growth_tracker == cases[i].growth_tracker;
        if (!CHECK(ok))
            printf("     %s step %d (found_inf %d): got status %d scale %g tracker %d, expected %d %g %d\n", name, i,
                   cases[i].found_inf, (int)st, (double)s->scale, s->growth_tracker, (int)cases[i].status,
                   (double)cases[i].scale, cases[i].growth_tracker);
    }
}

/* n clean steps; returns how many did not return TC_OK. */
static int clean_steps(tc_scaler *s, int n) {
    int i, other = 0;
    for (i = 0; i < n; i++) other += tc_scaler_update(s, 0) != TC_OK;
    return other;
}

static void test_pytorch_default(void) {
    tc_scaler s;
    tc_scaler_desc d;
    /* a zeroed desc and a NULL desc are both GradScaler() */
    memset(&d, 0, sizeof d);
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    CHECK(s.scale == 65536.0f && s.growth_interval == 2000 && s.growth_factor == 2.0 && s.backoff_factor == 0.5);
    CHECK(s.min_scale == 0 && s.max_scale == 0 && s.hysteresis == 1 && !s.is_static);
    CHECK_STATUS(tc_scaler_init(&s, NULL), TC_OK);
    CHECK(s.scale == 65536.0f);
    /* 1999 clean steps: no growth yet; the 2000th doubles and resets */
    CHECK(clean_steps(&s, 1999) == 0);
    CHECK(s.scale == 65536.0f && s.growth_tracker == 1999);
    CHECK_STATUS(tc_scaler_update(&s, 0), TC_OK);
    CHECK(s.scale == 131072.0f && s.growth_tracker == 0);
    {
        static const step_case seq[] = {
            { 0, TC_OK, 131072.0f, 1 }, { 1, TC_OK, 65536.0f, 0 },   /* overflow: halve, reset */
            { 1, TC_OK, 32768.0f, 0 },  { 0, TC_OK, 32768.0f, 1 },
        };
        run_steps("pytorch", &s, seq, (int)(sizeof seq / sizeof seq[0]));
    }
    CHECK(s.steps == 2004 && s.skipped == 2 && s.consecutive_skips == 0);
    CHECK(clean_steps(&s, 1999) == 0);
    CHECK(s.scale == 65536.0f && s.growth_tracker == 0);   /* 1 + 1999 = 2000 clean steps since the overflow */
}

static void test_pytorch_small_interval(void) {
    /* GradScaler(init_scale=8, growth_interval=3): hand-run of the kernel */
    tc_scaler s;
    tc_scaler_desc d;
    static const step_case seq[] = {
        { 0, TC_OK, 8.0f, 1 },  { 0, TC_OK, 8.0f, 2 },  { 0, TC_OK, 16.0f, 0 },
        { 0, TC_OK, 16.0f, 1 }, { 1, TC_OK, 8.0f, 0 },  { 0, TC_OK, 8.0f, 1 },
        { 0, TC_OK, 8.0f, 2 },  { 1, TC_OK, 4.0f, 0 },  { 1, TC_OK, 2.0f, 0 },
        { 1, TC_OK, 1.0f, 0 },  { 1, TC_WARN_SCALE_BELOW_ONE, 0.5f, 0 },
        { 0, TC_OK, 0.5f, 1 },  { 0, TC_OK, 0.5f, 2 },  { 0, TC_OK, 1.0f, 0 },
    };
    memset(&d, 0, sizeof d);
    d.init_scale = 8.0f;
    d.growth_interval = 3;
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    run_steps("pytorch interval 3", &s, seq, (int)(sizeof seq / sizeof seq[0]));
    CHECK(s.steps == 14 && s.skipped == 5);
    /* a non-power-of-two factor: the product is formed in double, rounded to fp32 */
    d.init_scale = 30.0f;
    d.growth_factor = 1.1;
    d.backoff_factor = 0.3;
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    CHECK(clean_steps(&s, 3) == 0);
    CHECK_BITS(0, tct_f2u(s.scale), tct_f2u((float)(30.0 * 1.1)));
    CHECK_STATUS(tc_scaler_update(&s, 1), TC_OK);
    CHECK_BITS(0, tct_f2u(s.scale), tct_f2u((float)((double)(float)(30.0 * 1.1) * 0.3)));
}

static void test_tensorflow(void) {
    tc_scaler s;
    tc_scaler_desc d;
    int i;
    CHECK_STATUS(tc_scaler_preset(TC_SCALER_TENSORFLOW, &d), TC_OK);
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    CHECK(s.scale == 32768.0f && s.min_scale == 1.0f && s.growth_interval == 2000);
    /* 2^15 halves 15 times to 1, then is floored there */
    for (i = 1; i <= 15; i++) {
        CHECK_STATUS(tc_scaler_update(&s, 1), TC_OK);
        CHECK(s.scale == (float)(32768 >> i));
    }
    CHECK_STATUS(tc_scaler_update(&s, 1), TC_WARN_SCALE_AT_MIN);
    CHECK(s.scale == 1.0f && s.consecutive_skips == 16 && s.skipped == 16);
    CHECK(clean_steps(&s, 2000) == 0);
    CHECK(s.scale == 2.0f && s.consecutive_skips == 0);
    /* a floor that is not a power of the backoff: clamped to the floor, then stuck */
    d.init_scale = 3.0f;
    d.min_scale = 2.0f;
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    CHECK_STATUS(tc_scaler_update(&s, 1), TC_OK);
    CHECK(s.scale == 2.0f);
    CHECK_STATUS(tc_scaler_update(&s, 1), TC_WARN_SCALE_AT_MIN);
    CHECK(s.scale == 2.0f);
}

static void test_apex(void) {
    tc_scaler s;
    tc_scaler_desc d;
    int i;
    CHECK_STATUS(tc_scaler_preset(TC_SCALER_APEX, &d), TC_OK);
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    CHECK(s.scale == 65536.0f && s.max_scale == 16777216.0f);
    /* 2^16 -> 2^24 in eight windows of 2000, then it stays */
    for (i = 17; i <= 24; i++) {
        CHECK(clean_steps(&s, 2000) == 0);
        CHECK(s.scale == (float)(1u << i));
    }
    CHECK(clean_steps(&s, 4000) == 0);
    CHECK(s.scale == 16777216.0f && s.growth_tracker == 0);
    CHECK_STATUS(tc_scaler_update(&s, 1), TC_OK);
    CHECK(s.scale == 8388608.0f);
    /* apex has no floor: it goes below 1 like PyTorch */
    d.init_scale = 1.0f;
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    CHECK_STATUS(tc_scaler_update(&s, 1), TC_WARN_SCALE_BELOW_ONE);
}

static void test_megatron(void) {
    /* DynamicGradScaler(2^32, min 1, growth 2, backoff 0.5, window 1000,
       hysteresis 2): the first overflow only spends hysteresis; after that
       every overflow backs off until a growth refills it. */
    tc_scaler s;
    tc_scaler_desc d;
    int i;
    static const step_case seq[] = {
        { 1, TC_OK, 4294967296.0f, 0 }, /* hysteresis 2 -> 1, scale kept */
        { 0, TC_OK, 4294967296.0f, 1 },
        { 1, TC_OK, 2147483648.0f, 0 }, /* 1 -> 0: back off */
        { 1, TC_OK, 1073741824.0f, 0 }, /* still 0: back off again, not refilled by the clean step */
    };
    CHECK_STATUS(tc_scaler_preset(TC_SCALER_MEGATRON, &d), TC_OK);
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    CHECK(s.scale == 4294967296.0f && s.hysteresis_left == 2 && s.growth_interval == 1000);
    run_steps("megatron", &s, seq, (int)(sizeof seq / sizeof seq[0]));
    CHECK(s.hysteresis_left == 0);
    CHECK(clean_steps(&s, 999) == 0);
    CHECK(s.scale == 1073741824.0f && s.hysteresis_left == 0);
    CHECK_STATUS(tc_scaler_update(&s, 0), TC_OK);  /* growth refills */
    CHECK(s.scale == 2147483648.0f && s.hysteresis_left == 2);
    CHECK_STATUS(tc_scaler_update(&s, 1), TC_OK);
    CHECK(s.scale == 2147483648.0f && s.hysteresis_left == 1);
    /* 2^31 -> 1 takes 31 backoffs after the hysteresis is spent, then the floor */
    for (i = 0; i < 31; i++) CHECK_STATUS(tc_scaler_update(&s, 1), TC_OK);
    CHECK(s.scale == 1.0f);
    CHECK_STATUS(tc_scaler_update(&s, 1), TC_WARN_SCALE_AT_MIN);
    CHECK(s.scale == 1.0f && s.consecutive_skips == 33);
}

static void test_static(void) {
    tc_scaler s;
    tc_scaler_desc d;
    memset(&d, 0, sizeof d);
    d.is_static = 1;
    d.init_scale = 128.0f;
    d.growth_interval = 1;   /* meaningless for a static scale, so not refused */
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    CHECK(clean_steps(&s, 5000) == 0);
    CHECK_STATUS(tc_scaler_update(&s, 1), TC_OK);
    CHECK_STATUS(tc_scaler_update(&s, 1), TC_OK);
    CHECK(s.scale == 128.0f && s.skipped == 2 && s.steps == 5002 && s.consecutive_skips == 2);
    CHECK(tc_scaler_inv_scale(&s) == 0.0078125f);
}

static void test_failure_cases(void) {
    tc_scaler s;
    tc_scaler_desc d;
    int i, skipped;
    float gmax = 3.0f;
    /* growth to Inf: 2^127 * 2 is not an fp32; PyTorch keeps the old scale silently, we say so */
    memset(&d, 0, sizeof d);
    d.init_scale = tct_u2f(0x7F000000u);   /* 2^127 */
    d.growth_interval = 2;
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    CHECK_STATUS(tc_scaler_update(&s, 0), TC_OK);
    CHECK_STATUS(tc_scaler_update(&s, 0), TC_WARN_SCALE_OVERFLOW);
    CHECK_BITS(0, tct_f2u(s.scale), 0x7F000000u);
    CHECK(s.growth_tracker == 0);
    /* FLT_MAX * 1.5 rounds to Inf too, via the threshold, not a cast */
    d.init_scale = tct_u2f(0x7F7FFFFFu);
    d.growth_factor = 1.0000001;
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    CHECK_STATUS(tc_scaler_update(&s, 0), TC_OK);
    CHECK_STATUS(tc_scaler_update(&s, 0), TC_WARN_SCALE_OVERFLOW);
    CHECK_BITS(0, tct_f2u(s.scale), 0x7F7FFFFFu);

    /* growth interval 1: refused unless asked for; asked for, a model whose
       largest gradient is 3 (overflows fp16 when scale * 3 > 65504) skips
       every second step once the scale has climbed */
    memset(&d, 0, sizeof d);
    d.growth_interval = 1;
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_ERR_GROWTH_EVERY_STEP);
    d.allow_growth_every_step = 1;
    d.init_scale = 1.0f;
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    skipped = 0;
    for (i = 0; i < 100; i++) {
        int inf = s.scale * gmax > 65504.0f;
        skipped += inf;
        tc_scaler_update(&s, inf);
    }
    /* 14 clean climbs 1 -> 2^14 (2^14 * 3 < 65504); then 2^15 overflows: 86 steps alternate */
    CHECK(skipped == 43);
    CHECK(s.skipped == 43);

    /* collapse toward 0: gradients never cleared, so every step has Inf.
       2^16 halves to 1 in 16 steps (OK), to 2^-126 in 126 more (below one),
       and the next would leave the normal range. */
    CHECK_STATUS(tc_scaler_init(&s, NULL), TC_OK);
    for (i = 1; i <= 16; i++) CHECK_STATUS(tc_scaler_update(&s, 1), TC_OK);
    for (i = 1; i <= 126; i++) CHECK_STATUS(tc_scaler_update(&s, 1), TC_WARN_SCALE_BELOW_ONE);
    CHECK_BITS(0, tct_f2u(s.scale), 0x00800000u);
    CHECK(tc_is_finite_f32(tc_scaler_inv_scale(&s)));
    CHECK_STATUS(tc_scaler_update(&s, 1), TC_WARN_SCALE_COLLAPSED);
    CHECK_BITS(0, tct_f2u(s.scale), 0x00800000u);
    CHECK(s.consecutive_skips == 143);
}

static void test_bad_input(void) {
    tc_scaler s;
    tc_scaler_desc d, good;
    float g = 1.0f;
    int found = 7;
    tc_grad_array a;
    CHECK_STATUS(tc_scaler_init(NULL, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_scaler_update(NULL, 0), TC_ERR_NULL);
    CHECK(tc_scaler_inv_scale(NULL) != tc_scaler_inv_scale(NULL));   /* NaN */
    CHECK_STATUS(tc_scaler_preset(TC_SCALER_PYTORCH, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_scaler_preset(TC_SCALER_PRESET_COUNT, &d), TC_ERR_ARG);
    CHECK_STATUS(tc_scaler_preset((tc_scaler_preset_kind)-1, &d), TC_ERR_ARG);
    memset(&good, 0, sizeof good);
#define BAD_DESC(field, value)                                          \
    do {                                                                \
        d = good; d.field = value;                                      \
        CHECK_STATUS(tc_scaler_init(&s, &d), TC_ERR_ARG);               \
    } while (0)
    BAD_DESC(init_scale, -1.0f);
    BAD_DESC(init_scale, tct_u2f(0x7F800000u));
    BAD_DESC(init_scale, tct_u2f(0x7FC00000u));
    BAD_DESC(growth_factor, 1.0);
    BAD_DESC(growth_factor, 0.5);
    BAD_DESC(backoff_factor, 1.0);
    BAD_DESC(backoff_factor, -0.5);
    BAD_DESC(growth_interval, -3);
    BAD_DESC(hysteresis, -1);
    BAD_DESC(min_scale, -1.0f);
    BAD_DESC(max_scale, tct_u2f(0x7F800000u));
    BAD_DESC(min_scale, 131072.0f);   /* init below the floor */
    BAD_DESC(max_scale, 1024.0f);     /* init above the ceiling */
    /* subnormal scales (1e-40, 0x000116C2): their reciprocal is +Inf, so every unscale would fail */
    BAD_DESC(init_scale, tct_u2f(0x000116C2u));
    BAD_DESC(min_scale, tct_u2f(0x000116C2u));
    BAD_DESC(max_scale, tct_u2f(0x000116C2u));
#undef BAD_DESC
    d = good; d.min_scale = 4.0f; d.max_scale = 2.0f; d.init_scale = 3.0f;
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_ERR_ARG);
    d = good; d.init_scale = tct_u2f(0x00800000u);   /* FLT_MIN, the smallest accepted: 1/FLT_MIN = 2^126 */
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);

    a.dtype = TC_FP32; a.data = &g; a.count = 1;
    CHECK_STATUS(tc_unscale_arrays(NULL, 1, 1.0f, &found), TC_ERR_NULL);
    CHECK_STATUS(tc_unscale_arrays(&a, 1, 1.0f, NULL), TC_ERR_NULL);
    CHECK_STATUS(tc_unscale_arrays(&a, 0, 1.0f, &found), TC_ERR_SIZE);
    CHECK_STATUS(tc_unscale_arrays(&a, 1, 0.0f, &found), TC_ERR_ARG);
    CHECK_STATUS(tc_unscale_arrays(&a, 1, tct_u2f(0x7F800000u), &found), TC_ERR_ARG);
    CHECK_STATUS(tc_unscale_arrays(&a, 1, tct_u2f(0x7FC00000u), &found), TC_ERR_ARG);
    CHECK_STATUS(tc_scaler_unscale(NULL, &a, 1, &found), TC_ERR_NULL);
    a.dtype = TC_E4M3;
    CHECK_STATUS(tc_unscale_arrays(&a, 1, 0.5f, &found), TC_ERR_DTYPE);
    a.dtype = (tc_dtype)99;
    CHECK_STATUS(tc_unscale_arrays(&a, 1, 0.5f, &found), TC_ERR_DTYPE);
    a.dtype = TC_FP32; a.data = NULL;
    CHECK_STATUS(tc_unscale_arrays(&a, 1, 0.5f, &found), TC_ERR_NULL);
    CHECK(found == 7 && g == 1.0f);   /* errors write nothing */
    a.count = 0;                       /* an empty tensor may have no storage */
    CHECK_STATUS(tc_unscale_arrays(&a, 1, 0.5f, &found), TC_OK);
    CHECK(found == 0);
    /* the status table has a message for every new code */
    CHECK(strcmp(tc_status_string(TC_WARN_SCALE_AT_MIN), "unknown tc_status value") != 0);
    CHECK(strcmp(tc_status_string(TC_ERR_GROWTH_EVERY_STEP), "unknown tc_status value") != 0);
}

static void test_unscale(void) {
    /* fp32: Inf, -Inf, NaN, subnormals, and a value where multiplying by
       the reciprocal differs from dividing by the scale */
    float f32[8];
    uint16_t f16[8], b16[4];
    uint32_t want32[8];
    static const uint16_t want16[8] = { 0x7C00u, 0xFC00u, 0x7FFFu, 0x0000u, 0x0002u, 0x3C00u, 0x8001u, 0x77FFu };
    tc_grad_array arrays[3];
    tc_scaler s;
    tc_scaler_desc d;
    int found = -1, i;
    f32[0] = tct_u2f(0x7F800000u); want32[0] = 0x7F800000u;
    f32[1] = tct_u2f(0xFF800000u); want32[1] = 0xFF800000u;
    f32[2] = tct_u2f(0x7FC00001u); want32[2] = 0x7FC00001u;    /* a quiet NaN keeps its payload through x*2^-16 */
    f32[3] = tct_u2f(0x00000003u); want32[3] = 0x00000000u;    /* 3 * 2^-149 * 2^-16 rounds to 0 */
    f32[4] = tct_u2f(0x80800000u); want32[4] = 0x80000080u;    /* -FLT_MIN * 2^-16 = -2^-142, subnormal */
    f32[5] = 65536.0f;             want32[5] = 0x3F800000u;
    f32[6] = tct_u2f(0x47FFFFFFu); want32[6] = 0x3FFFFFFFu;    /* mantissa kept exactly */
    f32[7] = -0.0f;                want32[7] = 0x80000000u;
    CHECK_STATUS(tc_scaler_init(&s, NULL), TC_OK);
    CHECK(tc_scaler_inv_scale(&s) == tct_u2f(0x37800000u));
    arrays[0].dtype = TC_FP32; arrays[0].data = f32; arrays[0].count = 8;
    CHECK_STATUS(tc_scaler_unscale(&s, arrays, 1, &found), TC_OK);
    CHECK(found == 1);
    for (i = 0; i < 8; i++) CHECK_BITS(i, tct_f2u(f32[i]), want32[i]);

    /* fp16 with inv_scale 0.5: Inf, -Inf, a NaN (becomes CUDA's canonical
       0x7FFF), subnormals rounding RN with ties to even (2^-25 -> 0,
       1.5 * 2^-24 -> 2 * 2^-24), 2 -> 1, -2^-23 -> -2^-24, 65504 -> 32752 */
    {
        static const uint16_t in16[8] = { 0x7C00u, 0xFC00u, 0x7E01u, 0x0001u, 0x0003u, 0x4000u, 0x8002u, 0x7BFFu };
        memcpy(f16, in16, sizeof f16);
    }
    arrays[1].dtype = TC_FP16; arrays[1].data = f16; arrays[1].count = 8;
    found = -1;
    CHECK_STATUS(tc_unscale_arrays(arrays + 1, 1, 0.5f, &found), TC_OK);
    CHECK(found == 1);
    for (i = 0; i < 8; i++) CHECK_BITS(i, f16[i], want16[i]);

    /* inv_scale 1 leaves values alone (the kernel skips the multiply) */
    CHECK(tc_unscale_fp16(0x0001u, 1.0f) == 0x0001u);
    CHECK(tc_unscale_bf16(0x0001u, 1.0f) == 0x0001u);
    CHECK(tc_unscale_f32(tct_u2f(0x00000001u), 1.0f) == tct_u2f(0x00000001u));

    /* the reciprocal, not a division: scale 3 */
    memset(&d, 0, sizeof d);
    d.init_scale = 3.0f;
    CHECK_STATUS(tc_scaler_init(&s, &d), TC_OK);
    CHECK_BITS(0, tct_f2u(tc_scaler_inv_scale(&s)), 0x3EAAAAABu);
    CHECK_BITS(0x4141999au, tct_f2u(tc_unscale_f32(tct_u2f(0x4141999au), tc_scaler_inv_scale(&s))), 0x40811112u);

    /* several tensors of mixed storage in one call, all finite; empty ones allowed */
    for (i = 0; i < 8; i++) { f32[i] = (float)(i - 4) * 1024.0f; f16[i] = tc_fp16_from_f32((float)i * 256.0f, TC_RN); }
    for (i = 0; i < 4; i++) b16[i] = tc_bf16_from_f32((float)(i + 1) * 3.0f, TC_RN);
    arrays[0].dtype = TC_FP32; arrays[0].data = f32; arrays[0].count = 8;
    arrays[1].dtype = TC_FP16; arrays[1].data = f16; arrays[1].count = 8;
    arrays[2].dtype = TC_BF16; arrays[2].data = b16; arrays[2].count = 4;
    found = -1;
    CHECK_STATUS(tc_unscale_arrays(arrays, 3, 0.25f, &found), TC_OK);
    CHECK(found == 0);
    for (i = 0; i < 8; i++) CHECK(f32[i] == (float)(i - 4) * 256.0f);
    for (i = 0; i < 8; i++) CHECK(tc_fp16_to_f32(f16[i]) == (float)i * 64.0f);
    for (i = 0; i < 4; i++) CHECK(tc_bf16_to_f32(b16[i]) == (float)(i + 1) * 0.75f);
    /* a bf16 Inf in the last tensor is still found, and earlier tensors are still unscaled */
    b16[3] = 0xFF80u;
    CHECK_STATUS(tc_unscale_arrays(arrays, 3, 0.5f, &found), TC_OK);
    CHECK(found == 1 && f32[0] == -512.0f && b16[3] == 0xFF80u);
}

/* The fused pass equals the per-value primitives on random bit patterns
   (every class of value shows up), for each storage format. */
static void test_unscale_random(void) {
    enum { N = 4096 };
    static float f32[N], ref32[N];
    static uint16_t f16[N], ref16[N];
    tc_grad_array arrays[2];
    int i, found = -1, want_found = 0, mismatches = 0;
    float inv = (float)(1.0 / 1536.0);
    tct_seed(7);
    for (i = 0; i < N; i++) {
        uint32_t r = tct_rand32();
        f32[i] = tct_u2f(r);
        f16[i] = (uint16_t)(r >> 7);
        want_found |= !tc_is_finite_f32(f32[i]) || (f16[i] & 0x7C00u) == 0x7C00u;
        ref32[i] = f32[i] * inv;
        ref16[i] = tc_fp16_from_f32(tc_fp16_to_f32(f16[i]) * inv, TC_RN);
    }
    arrays[0].dtype = TC_FP32; arrays[0].data = f32; arrays[0].count = N;
    arrays[1].dtype = TC_FP16; arrays[1].data = f16; arrays[1].count = N;
    CHECK_STATUS(tc_unscale_arrays(arrays, 2, inv, &found), TC_OK);
    CHECK(want_found == 1 && found == 1);
    for (i = 0; i < N; i++) {
        int nan = ref32[i] != ref32[i];
        mismatches += nan ? f32[i] == f32[i] : tct_f2u(f32[i]) != tct_f2u(ref32[i]);
        mismatches += f16[i] != ref16[i];
    }
    CHECK(mismatches == 0);
}

/* The fused pass on every fp16 and bf16 pattern equals the per-value
   primitives bit for bit (it goes through the array converters, 512 values
   at a time), for factors that keep, halve, round, flush to subnormals and
   zero, and overflow; from an odd offset and length too, so that chunks end
   mid-vector. */
static void test_unscale_every_pattern(void) {
    static const float invs[6] = { 1.0f, 0.5f, 0x1.555556p-2f, 0x1p-24f, 0x1p-140f, 3.0f };
    static uint16_t g[65536];
    int t, k, i, found, mismatches = 0, found_wrong = 0;
    for (t = 0; t < 2; t++)
        for (k = 0; k < 6; k++) {
            const int off = k & 1, n = 65536 - 3 * off;
            tc_grad_array a;
            for (i = 0; i < 65536; i++) g[i] = (uint16_t)i;
            a.dtype = t ? TC_BF16 : TC_FP16; a.data = g + off; a.count = (size_t)n;
            found = -1;
            CHECK_STATUS(tc_unscale_arrays(&a, 1, invs[k], &found), TC_OK);
            found_wrong += found != 1;
            for (i = 0; i < 65536; i++) {
                const uint16_t want = i < off || i >= off + n ? (uint16_t)i
                                      : t ? tc_unscale_bf16((uint16_t)i, invs[k]) : tc_unscale_fp16((uint16_t)i, invs[k]);
                mismatches += g[i] != want;
            }
        }
    CHECK(found_wrong == 0);
    CHECK(mismatches == 0);
}

int main(void) {
    test_pytorch_default();
    test_pytorch_small_interval();
    test_tensorflow();
    test_apex();
    test_megatron();
    test_static();
    test_failure_cases();
    test_bad_input();
    test_unscale();
    test_unscale_random();
    test_unscale_every_pattern();
    return tct_finish("test_loss_scaling");
}
