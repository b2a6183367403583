/* Compile test: the header with its implementation, under every language
   standard and option the project promises (see tests/run_tests.sh). */
#ifdef USE_CUSTOM_ALLOC
#include <stdlib.h>
static int custom_allocs;
static void *counting_malloc(size_t n) { custom_allocs++; return malloc(n); }
#define TC_MALLOC(n) counting_malloc(n)
#define TC_FREE(p) free(p)
#define TC_ASSERT(x) ((void)(x))
#endif
#ifdef ONLY_MALLOC
#define TC_MALLOC(n) malloc(n)
#endif
#define TENSORCORE_IMPLEMENTATION
#include "tensorcore.h"
#include "tensorcore.h" /* a second include must be harmless */

#ifndef TC_STATIC
/* Defined here and used from declarations_only.c: proves the extern linkage. */
int use_header_value(void) { return (int)tc_fp16_from_f32(1.0f, TC_RN); }
#endif

int main(void) {
#ifdef USE_CUSTOM_ALLOC
    void *p = TC_MALLOC(16);   /* the header's macros are the ones defined above */
    TC_FREE(p);
    if (custom_allocs != 1) return 1;
#endif
    return tc_fp16_from_f32(1.0f, TC_RN) == 0x3C00 ? 0 : 1;
}
