/* Shared by the libFuzzer harnesses in tests/fuzz/ (one per file, each its
   own translation unit with the implementation). A harness reads its input
   as a stream of little-endian fields; a short input reads zeros past its
   end, so every input is valid and the first byte picks the entry point.
   FUZZ_CHECK aborts with a message, which libFuzzer (or the replay driver
   tests/fuzz/replay.c) reports as a crash. */
#ifndef TC_FUZZ_H
#define TC_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

/* FUZZ_SKIP_KNOWN=1 steers inputs around bugs already reported (listed in
   tests/fuzz/reproducers/), so a long run finds new ones instead. */
#ifndef FUZZ_SKIP_KNOWN
#define FUZZ_SKIP_KNOWN 0
#endif

typedef struct { const uint8_t *p; size_t n, at; } fz;

static inline uint8_t fz_u8(fz *f) { return f->at < f->n ? f->p[f->at++] : 0; }
static inline uint16_t fz_u16(fz *f) { uint16_t a = fz_u8(f); return (uint16_t)(a | (uint16_t)fz_u8(f) << 8); }
static inline uint32_t fz_u32(fz *f) { uint32_t a = fz_u16(f); return a | (uint32_t)fz_u16(f) << 16; }
static inline uint64_t fz_u64(fz *f) { uint64_t a = fz_u32(f); return a | (uint64_t)fz_u32(f) << 32; }
static inline int32_t fz_i32(fz *f) { uint32_t u = fz_u32(f); int32_t v; memcpy(&v, &u, 4); return v; }
static inline int64_t fz_i64(fz *f) { uint64_t u = fz_u64(f); int64_t v; memcpy(&v, &u, 8); return v; }
static inline float fz_f32(fz *f) { uint32_t u = fz_u32(f); float v; memcpy(&v, &u, 4); return v; }
static inline double fz_f64(fz *f) { uint64_t u = fz_u64(f); double v; memcpy(&v, &u, 8); return v; }
static inline uint32_t fz_fbits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
/* A small count 0..max-1 from one byte. */
static inline int fz_small(fz *f, int max) { return (int)(fz_u8(f) % (unsigned)max); }
/* An int that is usually small but can be anything: a tag byte picks
   0..63, a negative, or a raw 32-bit value (huge offsets, INT_MAX). */
static inline int fz_int(fz *f) {
    uint8_t t = fz_u8(f);
    if (t < 0xF0) return t & 63;
    if (t < 0xF8) return -(int)(t & 7) - 1;
    return fz_i32(f);
}

#define FUZZ_CHECK(cond, ...) do { if (!(cond)) { \
    fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s: ", __FILE__, __LINE__, #cond); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); abort(); } } while (0)

/* A dtype, mostly valid: 0xFF gives -1, 0xF8.. values past the last one
   (the harness includes tensorcore.h first). */
static inline int fz_dtype(fz *f) {
    uint8_t b = fz_u8(f);
    if (b == 0xFF) return -1;
    if (b >= 0xF8) return TC_DTYPE_COUNT + (b - 0xF8);
    return b % TC_DTYPE_COUNT;
}
static inline int dtype_ok(int t) { return t >= 0 && t < TC_DTYPE_COUNT; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
