// CRC-32C for TrendStore's hour summaries: the hardware instruction when the CPU has it,
// a slicing-by-8 table otherwise. Both compute the same function; tests compare them.

#include "CCRC32C.h"

#include <string.h>

#define POLYNOMIAL 0x82F63B78u

#include <pthread.h>

/// The eight tables of slicing-by-8, filled once, on first use, under `pthread_once`.
static uint32_t tables[8][256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void fill_tables(void) {
    for (uint32_t byte = 0; byte < 256; byte++) {
        uint32_t crc = byte;
        for (int bit = 0; bit < 8; bit++) crc = (crc >> 1) ^ (POLYNOMIAL & (0u - (crc & 1u)));
        tables[0][byte] = crc;
    }
    for (uint32_t byte = 0; byte < 256; byte++) {
        for (int slice = 1; slice < 8; slice++) {
            uint32_t previous = tables[slice - 1][byte];
            tables[slice][byte] = (previous >> 8) ^ tables[0][previous & 0xFF];
        }
    }
}

uint32_t trendstore_crc32c_portable(uint32_t crc, const void *data, size_t length) {
    pthread_once(&tables_once, fill_tables);
    const unsigned char *bytes = data;
    crc = ~crc;
    while (length >= 8) {
        uint32_t low, high;
        memcpy(&low, bytes, 4);
        memcpy(&high, bytes + 4, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        low = __builtin_bswap32(low);
        high = __builtin_bswap32(high);
#endif
        low ^= crc;
        crc = tables[7][low & 0xFF] ^ tables[6][(low >> 8) & 0xFF] ^ tables[5][(low >> 16) & 0xFF]
            ^ tables[4][low >> 24] ^ tables[3][high & 0xFF] ^ tables[2][(high >> 8) & 0xFF]
            ^ tables[1][(high >> 16) & 0xFF] ^ tables[0][high >> 24];
        bytes += 8;
        length -= 8;
    }
    while (length-- > 0) crc = (crc >> 8) ^ tables[0][(crc ^ *bytes++) & 0xFF];
    return ~crc;
}

#if defined(__x86_64__)
#include <nmmintrin.h>

__attribute__((target("sse4.2"))) static uint32_t hardware(uint32_t crc, const void *data,
                                                           size_t length) {
    const unsigned char *bytes = data;
    uint64_t state = ~crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        state = _mm_crc32_u64(state, word);
        bytes += 8;
        length -= 8;
    }
    uint32_t narrow = (uint32_t)state;
    while (length-- > 0) narrow = _mm_crc32_u8(narrow, *bytes++);
    return ~narrow;
}

uint32_t trendstore_crc32c(uint32_t crc, const void *data, size_t length) {
    // A load and a test of the CPU model the runtime filled in at start-up.
    return __builtin_cpu_supports("sse4.2") ? hardware(crc, data, length)
                                            : trendstore_crc32c_portable(crc, data, length);
}

#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>

uint32_t trendstore_crc32c(uint32_t crc, const void *data, size_t length) {
    const unsigned char *bytes = data;
    crc = ~crc;
    while (length >= 8) {
        uint64_t word;
        memcpy(&word, bytes, 8);
        crc = __crc32cd(crc, word);
        bytes += 8;
        length -= 8;
    }
    while (length-- > 0) crc = __crc32cb(crc, *bytes++);
    return ~crc;
}

#else

uint32_t trendstore_crc32c(uint32_t crc, const void *data, size_t length) {
    return trendstore_crc32c_portable(crc, data, length);
}

#endif
