import CLMDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Checks each value LMDB hands out against the pages that hold it, before anyone reads it.
///
/// LMDB does not checksum its pages: a damaged node can claim a size that runs past its page,
/// past the file and past the memory map, and reading it would fault (SIGBUS, SIGSEGV). A
/// value within a page must end inside that page; a value on overflow pages (it starts just
/// after the first one's header) must fit the pages that header counts. A value that does
/// not is `MDB_CORRUPTED`, thrown before a byte of it is read.
///
/// The check needs the map's pages to fall on the system's page boundaries, so it runs where
/// the store's page size is the system's (every store created on the machine reading it).
enum ValueBounds {
    private static let pageHeaderSize = 16
    private static let overflowFlag: UInt16 = 0x04
    private static let systemPageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// The page size of `environment`, when the check can use it, else `nil`; read once, at open.
    static func checkedPageSize(of environment: OpaquePointer) -> Int? {
        var stat = MDB_stat()
        guard mdb_env_stat(environment, &stat) == 0, Int(stat.ms_psize) == systemPageSize
        else { return nil }
        return systemPageSize
    }

    /// `value` as bytes, once it is seen to lie within its pages.
    ///
    /// - Throws: ``LMDBError`` with ``LMDBError/Code/corrupted`` naming `operation` when it does not.
    static func checked(
        _ value: MDB_val, pageSize: Int?, _ operation: @autoclosure () -> String
    ) throws -> UnsafeRawBufferPointer {
        let bytes = UnsafeRawBufferPointer(start: value.mv_data, count: value.mv_size)
        guard let pageSize, let data = value.mv_data else { return bytes }
        let address = UInt(bitPattern: data)
        let pageStart = address & ~UInt(pageSize - 1)
        var room = pageSize - Int(address - pageStart)
        if isOnOverflowPages(data, pageSize), let page = UnsafeRawPointer(bitPattern: pageStart) {
            let pages = Int(page.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
            let (total, overflow) = pages.multipliedReportingOverflow(by: pageSize)
            room = overflow ? Int.max : total - pageHeaderSize
        }
        guard value.mv_size <= room else {
            throw LMDBError(
                code: .corrupted,
                operation:
                    "\(operation()): a value of \(value.mv_size) bytes runs past the \(room) bytes of its pages (a damaged page)"
            )
        }
        return bytes
    }

    /// Whether a value starting at `data` lies on overflow pages: it starts just after the
    /// header of a page flagged as the first of an overflow run.
    static func isOnOverflowPages(_ data: UnsafeRawPointer, _ pageSize: Int) -> Bool {
        let address = UInt(bitPattern: data)
        let pageStart = address & ~UInt(pageSize - 1)
        guard Int(address - pageStart) == pageHeaderSize,
            let page = UnsafeRawPointer(bitPattern: pageStart)
        else { return false }
        return page.loadUnaligned(fromByteOffset: 10, as: UInt16.self) & overflowFlag != 0
    }
}
