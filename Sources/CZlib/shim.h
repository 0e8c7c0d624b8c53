// zlib from the system (Debian: zlib1g-dev). deflateInit2/inflateInit2 are macros that
// Swift cannot import, so the Swift wrapper calls deflateInit2_/inflateInit2_ directly.
#include <zlib.h>
