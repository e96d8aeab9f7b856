// CRC-32C for TrendStore's hour summaries: the hardware instruction when the CPU has it,
// a slicing-by-8 table otherwise. Both compute the same function; tests compare them.
//
// The instruction takes three cycles to give its result and can start one each cycle, so
// the hardware paths run three streams over three consecutive stretches of a block and
// join them with "append n zero bytes" operators (the CRC is linear), as Mark Adler's
// crc32c.c does: about three times one stream's speed on blocks of 192 bytes and more.

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

#if defined(__x86_64__) || (defined(__aarch64__) && defined(__ARM_FEATURE_CRC32))
#define HAS_CRC_INSTRUCTION 1

/// The stretch lengths of the three-stream blocks: long for most of a large buffer, short
/// for what is left and for buffers of a few hundred bytes (an hour summary's segment).
#define LONG_STRETCH 256
#define SHORT_STRETCH 64

/// Operators that append `LONG_STRETCH` or `SHORT_STRETCH` zero bytes to a CRC state,
/// one table per state byte, filled once under `pthread_once`.
static uint32_t zeros_long[4][256];
static uint32_t zeros_short[4][256];
static pthread_once_t zeros_once = PTHREAD_ONCE_INIT;

/// The raw (uninverted) state after `length` zero bytes follow `state`.
static uint32_t append_zeros(uint32_t state, size_t length) {
    while (length-- > 0) state = (state >> 8) ^ tables[0][state & 0xFF];
    return state;
}

static void fill_zero_table(uint32_t zeros[4][256], size_t length) {
    // The operator is linear: its image of each state bit, combined per byte value.
    uint32_t columns[32];
    for (int bit = 0; bit < 32; bit++) columns[bit] = append_zeros(1u << bit, length);
    for (int slice = 0; slice < 4; slice++) {
        for (uint32_t byte = 0; byte < 256; byte++) {
            uint32_t image = 0;
            for (int bit = 0; bit < 8; bit++) {
                if (byte & (1u << bit)) image ^= columns[8 * slice + bit];
            }
            zeros[slice][byte] = image;
        }
    }
}

static void fill_zero_tables(void) {
    pthread_once(&tables_once, fill_tables);
    fill_zero_table(zeros_long, LONG_STRETCH);
    fill_zero_table(zeros_short, SHORT_STRETCH);
}

/// The raw state `state` followed by the zero bytes of `zeros`.
static inline uint32_t shift(uint32_t zeros[4][256], uint32_t state) {
    return zeros[0][state & 0xFF] ^ zeros[1][(state >> 8) & 0xFF] ^ zeros[2][(state >> 16) & 0xFF]
        ^ zeros[3][state >> 24];
}

static inline uint64_t load64(const unsigned char *bytes) {
    uint64_t word;
    memcpy(&word, bytes, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    return word;
}

/// The body of a hardware path: three streams over blocks of three stretches while they
/// last, then one stream by words and by bytes. `WORD` and `BYTE` are the instruction's
/// 8-byte and 1-byte forms, `state` a 64-bit raw state.
#define THREE_STREAMS(STRETCH, ZEROS, WORD)                                                  \
    while (length >= 3 * (STRETCH)) {                                                        \
        uint64_t second = 0, third = 0;                                                      \
        const unsigned char *end = bytes + (STRETCH);                                        \
        do {                                                                                 \
            state = WORD(state, load64(bytes));                                              \
            second = WORD(second, load64(bytes + (STRETCH)));                                \
            third = WORD(third, load64(bytes + 2 * (STRETCH)));                              \
            bytes += 8;                                                                      \
        } while (bytes < end);                                                               \
        state = shift(ZEROS, (uint32_t)state) ^ (uint32_t)second;                            \
        state = shift(ZEROS, (uint32_t)state) ^ (uint32_t)third;                             \
        bytes += 2 * (STRETCH);                                                              \
        length -= 3 * (STRETCH);                                                             \
    }

#define HARDWARE_BODY(WORD, BYTE)                                                            \
    pthread_once(&zeros_once, fill_zero_tables);                                             \
    const unsigned char *bytes = data;                                                       \
    uint64_t state = (uint32_t)~crc;                                                         \
    THREE_STREAMS(LONG_STRETCH, zeros_long, WORD)                                            \
    THREE_STREAMS(SHORT_STRETCH, zeros_short, WORD)                                          \
    while (length >= 8) {                                                                    \
        state = WORD(state, load64(bytes));                                                  \
        bytes += 8;                                                                          \
        length -= 8;                                                                         \
    }                                                                                        \
    uint32_t narrow = (uint32_t)state;                                                       \
    while (length-- > 0) narrow = BYTE(narrow, *bytes++);                                    \
    return ~narrow;

#endif

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
    HARDWARE_BODY(_mm_crc32_u64, _mm_crc32_u8)
}

uint32_t trendstore_crc32c(uint32_t crc, const void *data, size_t length) {
    // A load and a test of the CPU model the runtime filled in at start-up.
    return __builtin_cpu_supports("sse4.2") ? hardware(crc, data, length)
                                            : trendstore_crc32c_portable(crc, data, length);
}

#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>

/// `__crc32cd` takes a 32-bit state; widened so the shared body reads as on x86-64.
static inline uint64_t crc32c_word(uint64_t state, uint64_t word) {
    return __crc32cd((uint32_t)state, word);
}

uint32_t trendstore_crc32c(uint32_t crc, const void *data, size_t length) {
    HARDWARE_BODY(crc32c_word, __crc32cb)
}

#else

uint32_t trendstore_crc32c(uint32_t crc, const void *data, size_t length) {
    return trendstore_crc32c_portable(crc, data, length);
}

#endif
