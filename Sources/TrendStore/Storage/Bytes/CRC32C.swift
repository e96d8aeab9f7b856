import CCRC32C

/// CRC-32C (Castagnoli): the checksum of hour summaries and rollup rows (format 1),
/// computed with the CPU's CRC
/// instruction where there is one (gigabytes per second, against zlib's CRC-32 at about
/// one), a table where there is not; the same bits either way.
enum CRC32C {
    /// The checksum of `bytes`, continuing from `previous` (0 to start).
    @inline(__always)
    static func checksum(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0)
        -> UInt32
    {
        guard let base = bytes.baseAddress else { return previous }
        return trendstore_crc32c(previous, base, bytes.count)
    }

    /// The table-driven path alone, for tests that hold the fast path to it.
    static func portableChecksum(_ bytes: UnsafeRawBufferPointer, continuing previous: UInt32 = 0)
        -> UInt32
    {
        guard let base = bytes.baseAddress else { return previous }
        return trendstore_crc32c_portable(previous, base, bytes.count)
    }
}
