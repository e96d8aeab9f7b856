import CLMDB

/// A position in a database, moved in key order.
///
/// You get one inside ``ReadableTransaction/withCursor(_:_:)``. Each move returns the
/// entry it lands on as raw bytes that stay valid until the transaction ends or
/// writes to the database: decode or copy them before then.
public struct Cursor: ~Copyable {
    /// A key and its value, as bytes inside the memory map.
    public typealias Entry = (key: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer)

    let pointer: OpaquePointer
    let database: Database
    /// The page size values and leaf pages are checked against (``ValueBounds``,
    /// ``LeafPages``), or `nil` for no check.
    let pageSize: Int?
    /// The leaf page last seen whole, so each page is checked once while the cursor walks it.
    private var checkedPage: UInt = 0

    init(pointer: OpaquePointer, database: Database, pageSize: Int?) {
        self.pointer = pointer
        self.database = database
        self.pageSize = pageSize
    }

    /// Moves to the first entry whose key is greater than or equal to `key`; when there is
    /// none, returns `nil` and leaves the cursor on the last entry.
    ///
    /// In a read transaction the page it lands on is checked whole (``LeafPages``), and
    /// when it lands on none, the last page.
    ///
    /// The corresponding LMDB function is `mdb_cursor_get` with `MDB_SET_RANGE`.
    public mutating func seek(atOrAfter key: UnsafeRawBufferPointer) throws -> Entry? {
        var keyVal = MDB_val(
            mv_size: key.count, mv_data: UnsafeMutableRawPointer(mutating: key.baseAddress))
        guard let entry = try move(MDB_SET_RANGE, &keyVal, "seek") else {
            // The sought key may lie hidden at the end of the last page.
            _ = try last()
            return nil
        }
        return entry
    }

    /// Moves to the first entry whose key is greater than or equal to `key`.
    public mutating func seek(atOrAfter key: [UInt8]) throws -> Entry? {
        try key.withUnsafeBytes { try seek(atOrAfter: $0) }
    }

    /// Moves to the first entry of the database.
    public mutating func first() throws -> Entry? {
        var keyVal = MDB_val()
        return try move(MDB_FIRST, &keyVal, "first")
    }

    /// Moves to the last entry of the database.
    public mutating func last() throws -> Entry? {
        var keyVal = MDB_val()
        return try move(MDB_LAST, &keyVal, "last")
    }

    /// Moves to the next entry in key order.
    public mutating func next() throws -> Entry? {
        var keyVal = MDB_val()
        return try move(MDB_NEXT, &keyVal, "next")
    }

    /// Moves to the previous entry in key order.
    public mutating func previous() throws -> Entry? {
        var keyVal = MDB_val()
        return try move(MDB_PREV, &keyVal, "previous")
    }

    /// Calls `body` for each entry from the first key at or after `start`, in key order,
    /// until `body` returns `false` or the database ends.
    public mutating func forEach(
        from start: [UInt8] = [],
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        var entry = try start.isEmpty ? first() : seek(atOrAfter: start)
        while let current = entry, try body(current.key, current.value) {
            entry = try next()
        }
    }

    private mutating func move(_ op: MDB_cursor_op, _ keyVal: inout MDB_val, _ name: String) throws
        -> Entry?
    {
        var dataVal = MDB_val()
        let rc = mdb_cursor_get(pointer, &keyVal, &dataVal, op)
        if rc == MDB_NOTFOUND { return nil }
        try check(rc, "cursor \(name) in database \(database)")
        if let pageSize, let key = keyVal.mv_data {
            let page = UInt(bitPattern: key) & ~UInt(pageSize - 1)
            if page != checkedPage {
                try LeafPages.checkPage(
                    of: key, pageSize: pageSize, "cursor \(name) in database \(database)")
                checkedPage = page
            }
        }
        return (
            UnsafeRawBufferPointer(start: keyVal.mv_data, count: keyVal.mv_size),
            try ValueBounds.checked(
                dataVal, pageSize: pageSize, "cursor \(name) in database \(database)")
        )
    }
}
