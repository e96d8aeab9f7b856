#ifndef TRENDSTORE_CZLIBSYSTEM_SHIM_H
#define TRENDSTORE_CZLIBSYSTEM_SHIM_H
#include <zlib.h>

/// `inflateInit2` and `deflateInit` are macros; Swift calls these instead.
/// An inflater of raw deflate data (no zlib header or Adler-32 trailer), 32 KiB window.
static inline int trendstore_inflateInitRaw(z_streamp stream) {
    return inflateInit2(stream, -15);
}
static inline int trendstore_deflateInit(z_streamp stream, int level) {
    return deflateInit(stream, level);
}
#endif
