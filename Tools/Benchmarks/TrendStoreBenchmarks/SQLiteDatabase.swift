import CSQLite
import Foundation

/// The little of SQLite's C API the comparison needs: open, execute, prepared statements.
final class SQLiteDatabase {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private var handle: OpaquePointer?
    let path: String

    init(path: String) throws {
        self.path = path
        guard sqlite3_open(path, &handle) == SQLITE_OK else {
            defer { sqlite3_close(handle) }
            throw Failure(
                description: "cannot open \(path): \(String(cString: sqlite3_errmsg(handle)))")
        }
    }

    deinit { sqlite3_close(handle) }

    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw Failure(
                description: "\(sql.prefix(60)): \(message.map { String(cString: $0) } ?? "?")")
        }
    }

    func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement
        else {
            throw Failure(
                description: "\(sql.prefix(60)): \(String(cString: sqlite3_errmsg(handle)))")
        }
        return Statement(statement)
    }

    /// A prepared statement; `step()` returns whether a row is available.
    final class Statement {
        private let statement: OpaquePointer

        init(_ statement: OpaquePointer) { self.statement = statement }
        deinit { sqlite3_finalize(statement) }

        func reset() {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }

        func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(statement, index, value) }
        func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(statement, index, value) }
        func bind(_ index: Int32, _ value: String) {
            sqlite3_bind_text(statement, index, value, -1, trendstore_sqlite_transient())
        }

        func step() throws -> Bool {
            let code = sqlite3_step(statement)
            if code == SQLITE_ROW { return true }
            if code == SQLITE_DONE { return false }
            throw Failure(description: "step failed (\(code))")
        }

        func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        func text(_ column: Int32) -> String {
            String(cString: sqlite3_column_text(statement, column))
        }
        func isNull(_ column: Int32) -> Bool {
            sqlite3_column_type(statement, column) == SQLITE_NULL
        }
    }
}
