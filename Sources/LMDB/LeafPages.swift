/// Checks the leaf page an entry lies on, so a page that hides some of its entries is damage.
///
/// A leaf page lists its nodes in a table of offsets after its header (`mp_lower` bounds the
/// table) and packs the nodes against its end (`mp_upper` is where they begin): LMDB keeps
/// them packed through every insertion and deletion, so the nodes the table lists take
/// exactly the bytes from `mp_upper` to the page's end. A damaged `mp_lower` shortens the
/// table: LMDB then reads fewer entries from the page without a word, and a query answers
/// from fewer rows. Here the table's nodes must lie inside the page and fill it to the byte,
/// and none may carry a flag other than "value on overflow pages" (the databases are named
/// tables without duplicates: a node naming a sub-database is a page of LMDB's directory of
/// databases written where a table's page belongs, as a lost or misplaced write leaves it).
///
/// A cursor checks each page it lands on once (``Cursor``), and the last page when a seek
/// finds nothing; a lookup that finds nothing checks the page where its key would lie
/// (``TransactionOperations/withValue(_:key:database:pageSize:_:)``).
///
/// What stays unseen: a seek that lands on the first entry of a page cannot tell whether the
/// key it sought lay hidden at the end of the page before; checking that page would mean
/// moving LMDB's cursor there, and LMDB aborts the process (an assertion) when that page is
/// no leaf, where reading on would not have touched it. Branch pages are not reachable from
/// here either: a branch page that hides a child is seen only by walks that count their
/// entries against LMDB's statistics.
enum LeafPages {
    private static let headerSize = 16
    private static let nodeHeaderSize = 8
    private static let leafFlag: UInt16 = 0x02
    /// Branch, overflow, meta, LEAF2 and sub-page flags: none is set on a plain leaf.
    private static let otherKinds: UInt16 = 0x01 | 0x04 | 0x08 | 0x20 | 0x40
    private static let bigDataFlag: UInt16 = 0x01

    /// Checks that the leaf page holding `key` (a key LMDB handed out) is whole.
    ///
    /// - Throws: ``LMDBError`` with ``LMDBError/Code/corrupted`` naming `operation` when it is not.
    static func checkPage(
        of key: UnsafeRawPointer, pageSize: Int, _ operation: @autoclosure () -> String
    ) throws {
        let address = UInt(bitPattern: key)
        let pageStart = address & ~UInt(pageSize - 1)
        guard let page = UnsafeRawPointer(bitPattern: pageStart) else {
            throw damage(operation(), "a key outside the map")
        }
        let flags = page.loadUnaligned(fromByteOffset: 10, as: UInt16.self)
        let lower = Int(page.loadUnaligned(fromByteOffset: 12, as: UInt16.self))
        let upper = Int(page.loadUnaligned(fromByteOffset: 14, as: UInt16.self))
        guard flags & leafFlag != 0, flags & otherKinds == 0 else {
            throw damage(operation(), "an entry on a page that is no leaf (flags \(flags))")
        }
        guard headerSize <= lower, lower <= upper, upper <= pageSize, (lower - headerSize) % 2 == 0
        else {
            throw damage(operation(), "a leaf page whose bounds \(lower)…\(upper) are impossible")
        }
        var used = 0
        for slot in 0..<(lower - headerSize) / 2 {
            let offset = Int(
                page.loadUnaligned(fromByteOffset: headerSize + 2 * slot, as: UInt16.self))
            guard offset >= upper, offset + nodeHeaderSize <= pageSize else {
                throw damage(operation(), "a node offset \(offset) outside the page's nodes")
            }
            let sizeLow = Int(page.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
            let sizeHigh = Int(page.loadUnaligned(fromByteOffset: offset + 2, as: UInt16.self))
            let nodeFlags = page.loadUnaligned(fromByteOffset: offset + 4, as: UInt16.self)
            let keySize = Int(page.loadUnaligned(fromByteOffset: offset + 6, as: UInt16.self))
            // Every database here is a named table of plain entries: a node naming a
            // sub-database or duplicates belongs to a page of LMDB's own directory, written here.
            guard nodeFlags & ~bigDataFlag == 0 else {
                throw damage(
                    operation(), "a node with flags \(nodeFlags), which no plain entry has")
            }
            let dataSize = nodeFlags & bigDataFlag != 0 ? 8 : sizeLow | sizeHigh << 16
            let size = nodeHeaderSize + keySize + dataSize
            guard size <= pageSize - offset else {
                throw damage(operation(), "a node of \(size) bytes running past its page")
            }
            used += (size + 1) & ~1
        }
        guard used == pageSize - upper else {
            throw damage(
                operation(),
                "a leaf page whose \((lower - headerSize) / 2) entries take \(used) of the \(pageSize - upper) bytes of its nodes (entries are hidden)"
            )
        }
    }

    private static func damage(_ operation: String, _ what: String) -> LMDBError {
        LMDBError(code: .corrupted, operation: "\(operation): \(what) (a damaged page)")
    }
}
