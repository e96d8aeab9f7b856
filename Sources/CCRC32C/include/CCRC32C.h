#ifndef TRENDSTORE_CCRC32C_H
#define TRENDSTORE_CCRC32C_H

#include <stddef.h>
#include <stdint.h>

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78) of `length` bytes at `data`,
/// continuing from `crc` (0 to start): the CPU's CRC instruction where there is one
/// (SSE 4.2 on x86-64, the CRC extension on ARMv8), a table otherwise. The same bits
/// on every path.
uint32_t trendstore_crc32c(uint32_t crc, const void *data, size_t length);

/// The portable table-driven path alone, for tests that compare the two.
uint32_t trendstore_crc32c_portable(uint32_t crc, const void *data, size_t length);

#endif
