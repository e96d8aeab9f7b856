#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Environment {
    /// The transaction ids the data file's two meta pages record, read from the file itself.
    ///
    /// LMDB commits alternate between the two meta pages, so after any commit they hold the
    /// ids N and N − 1 (a file no transaction has committed to holds 0 and 0, a compacted
    /// copy 0 and 1). LMDB opens the file at the page with the greater id and does not
    /// checksum either: a damaged newest meta page makes it open an earlier commit without a
    /// word, which only ids that are no longer adjacent show (``metaPagesAgree()``).
    ///
    /// - Throws: ``LMDBError`` with ``LMDBError/Code/corrupted`` when the file is too short
    ///   to hold two meta pages or its first one names an impossible page size.
    public func metaPageTransactionIDs() throws -> [UInt64] {
        let file = path + "/data.mdb"
        let descriptor = FileCalls.openForReading(file)
        guard descriptor >= 0 else {
            throw LMDBError(code: LMDBError.Code(rawValue: errno), operation: "open \(file)")
        }
        defer { FileCalls.closeFile(descriptor) }
        // A meta page: the 16-byte page header, then magic, version, address, map size, the
        // free and main database records (48 bytes each), the last page and the txn id.
        let pageSizeOffset = 16 + 24
        let transactionOffset = 16 + 128
        var pageSize: UInt32 = 0
        guard pread(descriptor, &pageSize, 4, off_t(pageSizeOffset)) == 4,
            (512...65_536).contains(UInt32(littleEndian: pageSize)),
            UInt32(littleEndian: pageSize).nonzeroBitCount == 1
        else {
            throw LMDBError(
                code: .corrupted, operation: "read the meta pages of \(file): no page size")
        }
        return try (0..<2).map { page in
            var id: UInt64 = 0
            let offset =
                off_t(page) * off_t(UInt32(littleEndian: pageSize)) + off_t(transactionOffset)
            guard pread(descriptor, &id, 8, offset) == 8 else {
                throw LMDBError(
                    code: .corrupted, operation: "read meta page \(page) of \(file): too short")
            }
            return UInt64(littleEndian: id)
        }
    }

    /// Whether the two meta pages hold adjacent transaction ids, as every commit leaves them
    /// (or both 0, before the first commit); `false` when one of them is damaged.
    public func metaPagesAgree() throws -> Bool {
        Self.transactionIDsAgree(try metaPageTransactionIDs())
    }

    /// Whether meta pages holding `ids` (from ``metaPageTransactionIDs()``) agree.
    public static func transactionIDsAgree(_ ids: [UInt64]) -> Bool {
        guard let newest = ids.max(), let oldest = ids.min() else { return false }
        return newest == 0 || newest - oldest == 1
    }
}
