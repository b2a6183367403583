/* The one translation unit that holds stb's implementations (Debian's
   libstb-dev headers). Built without -Werror: stb is not ours to warn about. */
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include "stb_image.h"
#include "stb_image_write.h"
#include "stb_easy_font.h"

/* Text for plot.c as axis-aligned quads: 8 floats per quad, the (x, y) of
   its four corners in stb_easy_font's order (top-left first, bottom-right
   third). Returns the number of quads written. */
int plot__easy_font_quads(const char *text, float *xy, int max_quads);
int plot__easy_font_quads(const char *text, float *xy, int max_quads) {
    static char vbuf[4096 * 4 * 16];
    unsigned char white[4] = { 255, 255, 255, 255 };
    int n, q, v, cap = (int)(sizeof vbuf / 64);
    if (max_quads < cap) cap = max_quads;
    n = stb_easy_font_print(0, 0, (char *)text, white, vbuf, cap * 64);
    for (q = 0; q < n; q++)
        for (v = 0; v < 4; v++) {
            float *src = (float *)(vbuf + (q * 4 + v) * 16);
            xy[8 * q + 2 * v] = src[0];
            xy[8 * q + 2 * v + 1] = src[1];
        }
    return n;
}
