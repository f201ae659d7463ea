import Foundation
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// SQLite in WAL mode: one writer connection whose transactions are serialized by an async lock
/// (so concurrent requests never meet "database is locked"), and a small set of reader
/// connections that WAL lets run beside the writer.
final class SQLiteDatabase: Database {
    private let writer: SQLiteConnection
    private let readers: [SQLiteConnection]
    private let writeLock = AsyncLock()
    private let nextReader = Locked(0)
    let path: String

    private init(path: String, writer: SQLiteConnection, readers: [SQLiteConnection]) {
        self.path = path
        self.writer = writer
        self.readers = readers
    }

    /// Opens (creating if needed) the database file and its parent folder.
    static func open(path: String, readerCount: Int = 2, logger: Logger) async throws -> SQLiteDatabase {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var quiet = logger
        quiet.logLevel = .warning
        let writer = try await SQLiteConnection.open(storage: .file(path: path), logger: quiet)
        try await configure(writer, pragmas: ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"])
        var readers: [SQLiteConnection] = []
        for _ in 0..<readerCount {
            let reader = try await SQLiteConnection.open(storage: .file(path: path), logger: quiet)
            try await configure(reader, pragmas: [])
            readers.append(reader)
        }
        return SQLiteDatabase(path: path, writer: writer, readers: readers)
    }

    private static func configure(_ connection: SQLiteConnection, pragmas: [String]) async throws {
        let sql = connection.sql()
        for pragma in pragmas + ["PRAGMA busy_timeout = 5000", "PRAGMA foreign_keys = ON"] {
            try await sql.raw(SQLQueryString(pragma)).run()
        }
    }

    func read<T: Sendable>(_ body: @Sendable (Repositories) async throws -> T) async throws -> T {
        let index = nextReader.withLock { value -> Int in
            value = (value + 1) % readers.count
            return value
        }
        return try await body(Repositories(sql: readers[index].sql()))
    }

    func write<T: Sendable>(_ body: @Sendable (Repositories) async throws -> T) async throws -> T {
        try await writeLock.withLock {
            let sql = self.writer.sql()
            try await sql.raw("BEGIN IMMEDIATE").run()
            do {
                let result = try await body(Repositories(sql: sql))
                try await sql.raw("COMMIT").run()
                return result
            } catch {
                try? await sql.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    func shutdown() async {
        for connection in readers + [writer] {
            try? await connection.close()
        }
    }
}
