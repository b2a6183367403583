/* Compile test: a second translation unit that sees only the declarations. */
#include "tensorcore.h"
int use_header_value(void);
int other_unit(void);
int other_unit(void) { return use_header_value() == (int)tc_bf16_from_f32(1.0f, TC_RN) ? 1 : 0; }
