/* The one translation unit that holds stb's implementations (Debian's
   libstb-dev headers). Built without -Werror: stb is not ours to warn about. */
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include "stb_image.h"
#include "stb_image_write.h"
