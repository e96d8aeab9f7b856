#ifndef TRENDSTORE_CZLIBSYSTEM_SHIM_H
#define TRENDSTORE_CZLIBSYSTEM_SHIM_H
#include <zlib.h>

/// `inflateInit` and `deflateInit` are macros; Swift calls these instead.
static inline int trendstore_inflateInit(z_streamp stream) {
    return inflateInit(stream);
}
static inline int trendstore_deflateInit(z_streamp stream, int level) {
    return deflateInit(stream, level);
}
#endif
