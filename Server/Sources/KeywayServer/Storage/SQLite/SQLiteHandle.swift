import Foundation
import SQLiteNIO
// The SQLite library that SQLiteNIO builds (with its symbols prefixed `sqlite_nio_`), called
// directly: one copy of SQLite in the process, used without a thread hop per statement.
import VaporCSQLite

/// A failure reported by SQLite.
struct SQLiteFailure: Error, CustomStringConvertible {
    let code: Int32
    let message: String
    var description: String { "SQLite error \(code): \(message)" }
}

/// One SQLite connection used synchronously, with its prepared statements cached.
///
/// Statements run on the calling thread. A handle is never used by two tasks at once: the
/// writer is guarded by the write lock and readers are checked out of a pool, so SQLite's
/// multi-thread mode (no per-call mutex) is safe. `@unchecked Sendable` rests on that rule.
final class SQLiteHandle: @unchecked Sendable {
    private var db: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// Prepared statements kept at most; beyond that the cache is emptied (ad hoc SQL only).
    private let statementCacheLimit = 256

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// A result row: column names and values in select order.
    struct Row: Sendable {
        let columns: [String]
        let values: [SQLiteData]

        func value(_ column: String) -> SQLiteData? {
            columns.firstIndex(of: column).map { values[$0] }
        }
    }

    /// Opens (creating if needed) the database file.
    init(path: String) throws {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite_nio_sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK else {
            let message = db.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite_nio_sqlite3_close_v2(db)
            db = nil
            throw SQLiteFailure(code: status, message: "\(message) (\(path))")
        }
        sqlite_nio_sqlite3_extended_result_codes(db, 1)
        sqlite_nio_sqlite3_busy_timeout(db, 5000)
    }

    deinit { close() }

    /// Finalizes every statement and closes the connection. Safe to call twice.
    func close() {
        for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
        statements.removeAll()
        if let db { sqlite_nio_sqlite3_close_v2(db) }
        db = nil
    }

    /// Runs one statement with its bound values and returns its rows.
    @discardableResult
    func execute(_ sql: String, _ binds: [SQLiteData] = []) throws -> [Row] {
        guard let db else { throw SQLiteFailure(code: SQLITE_MISUSE, message: "The connection is closed.") }
        let statement = try prepared(sql, db: db)
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
        }
        for (index, value) in binds.enumerated() {
            try check(bind(value, at: Int32(index + 1), in: statement), db: db)
        }
        // The columns are read after the first step: a cached statement that a schema change made
        // stale (a migration added a column to the table of a `SELECT *`) is prepared again by
        // that step, and only then names the columns its rows have.
        var count: Int32 = 0
        var columns: [String] = []
        var rows: [Row] = []
        while true {
            let status = sqlite_nio_sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { try check(status, db: db); break }
            if rows.isEmpty {
                count = sqlite_nio_sqlite3_column_count(statement)
                columns = (0..<count).map { String(cString: sqlite_nio_sqlite3_column_name(statement, $0)) }
            }
            var values: [SQLiteData] = []
            values.reserveCapacity(Int(count))
            for index in 0..<count { values.append(Self.column(index, of: statement)) }
            rows.append(Row(columns: columns, values: values))
        }
        return rows
    }

    private func prepared(_ sql: String, db: OpaquePointer) throws -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let status = sql.withCString { text in
            let status = sqlite_nio_sqlite3_prepare_v3(
                db, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, &tail)
            // Only one statement per call: anything but whitespace after it is refused.
            if status == SQLITE_OK, let tail, String(cString: tail).contains(where: { !$0.isWhitespace }) {
                return SQLITE_MISUSE
            }
            return status
        }
        guard status == SQLITE_OK, let statement else {
            let message = status == SQLITE_MISUSE ? "One statement per call." : String(cString: sqlite_nio_sqlite3_errmsg(db))
            sqlite_nio_sqlite3_finalize(statement)
            throw SQLiteFailure(code: status, message: message)
        }
        if statements.count >= statementCacheLimit {
            for cached in statements.values { sqlite_nio_sqlite3_finalize(cached) }
            statements.removeAll()
        }
        statements[sql] = statement
        return statement
    }

    private func bind(_ value: SQLiteData, at index: Int32, in statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let integer):
            return sqlite_nio_sqlite3_bind_int64(statement, index, Int64(integer))
        case .float(let double):
            return sqlite_nio_sqlite3_bind_double(statement, index, double)
        case .text(let text):
            return sqlite_nio_sqlite3_bind_text64(
                statement, index, text, UInt64(text.utf8.count), Self.transient, UInt8(SQLITE_UTF8))
        case .blob(let buffer):
            return buffer.withUnsafeReadableBytes {
                sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), Self.transient)
            }
        case .null:
            return sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private static func column(_ index: Int32, of statement: OpaquePointer) -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, index)))
        case SQLITE_FLOAT:
            return .float(sqlite_nio_sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            guard let text = sqlite_nio_sqlite3_column_text(statement, index) else { return .text("") }
            let length = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
            return .text(
                String(decoding: UnsafeBufferPointer(start: text, count: length), as: UTF8.self))
        case SQLITE_BLOB:
            let length = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
            guard length > 0, let bytes = sqlite_nio_sqlite3_column_blob(statement, index) else {
                return .blob(ByteBuffer())
            }
            return .blob(ByteBuffer(bytes: UnsafeRawBufferPointer(start: bytes, count: length)))
        default:
            return .null
        }
    }

    private func check(_ status: Int32, db: OpaquePointer) throws {
        guard status == SQLITE_OK || status == SQLITE_ROW || status == SQLITE_DONE else {
            throw SQLiteFailure(code: status, message: String(cString: sqlite_nio_sqlite3_errmsg(db)))
        }
    }
}
