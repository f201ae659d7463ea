import Foundation
import Logging
import NIOPosix
import SQLKit

/// SQLite in WAL mode: one writer connection whose transactions run one batch at a time (so
/// concurrent requests never meet "database is locked"; writes that arrive together commit
/// together, see ``GroupCommit``), and a pool of reader connections that WAL lets run beside the
/// writer.
///
/// Statements run synchronously on the running task's thread (see ``SQLiteHandle``): a statement
/// on a local file takes microseconds, far less than handing it to another thread and back.
final class SQLiteDatabase: Database {
    /// One process serves a SQLite file: its work needs no lock between instances.
    func exclusively<T: Sendable>(_ lock: ExclusiveLock, _ body: () async throws -> T) async throws -> T {
        try await body()
    }

    /// The one writer connection, its transactions batched.
    let groupCommit: GroupCommit
    private let readers: ReaderPool
    private let logger: Logger
    private let observer: DatabaseObserver
    private let checkpointStop = Locked(false)
    let path: String

    private init(path: String, writer: SQLiteHandle, readers: ReaderPool, observer: DatabaseObserver, logger: Logger) {
        self.path = path
        self.observer = observer
        groupCommit = GroupCommit(writer: writer, logger: logger)
        self.readers = readers
        self.logger = logger
    }

    /// Opens (creating if needed) the database file and its parent folder. The file holds the
    /// server's keys: see ``DatabaseFiles/secure(path:)`` for its permissions.
    static func open(
        path: String, readerCount: Int = 4, observer: DatabaseObserver = .none, logger: Logger
    ) async throws -> SQLiteDatabase {
        // Opening creates files and switches a new database to WAL, which syncs to disk: that runs
        // on a thread of NIO's blocking pool, never holding one of Swift's few cooperative threads
        // while a busy disk takes its time.
        let writer = try await NIOThreadPool.singleton.runIfActive {
            try DatabaseFiles.secure(path: path)
            let writer = try SQLiteHandle(path: path)
            try writer.execute("PRAGMA journal_mode = WAL")
            // Deleted content is overwritten with zeros, not left in free pages.
            try writer.execute("PRAGMA secure_delete = ON")
            try writer.execute("PRAGMA synchronous = NORMAL")
            try writer.execute("PRAGMA foreign_keys = ON")
            // Checkpoints (which fsync) run off the writer, on a thread of their own: see `checkpoint()`.
            try writer.execute("PRAGMA wal_autocheckpoint = 0")
            return writer
        }
        let database = SQLiteDatabase(
            path: path, writer: writer, readers: ReaderPool(path: path, limit: max(1, readerCount)), observer: observer,
            logger: logger)
        database.startCheckpointing()
        return database
    }

    /// Copies the write-ahead log back into the database file every 250 ms, in `PASSIVE` mode
    /// (it never blocks the writer or readers), on a thread outside the concurrency pool: its
    /// fsync can take milliseconds, and a transaction waiting on it would stall every request.
    /// Every fifth second, once no write has come for two seconds, the checkpoint is a `TRUNCATE`
    /// one without waiting (busy timeout 0): when no reader holds an old snapshot it empties the
    /// log file, so the old page images a WAL keeps (codes and tokens since deleted) do not outlive
    /// a quiet moment; when it cannot, it does no more than a passive checkpoint. It waits for a
    /// quiet moment because a truncating checkpoint holds writers back while it syncs the file.
    private func startCheckpointing() {
        let path = self.path
        let logger = self.logger
        let stop = checkpointStop
        let lastWrite = groupCommit.lastWrite
        let thread = Thread {
            guard let handle = try? SQLiteHandle(path: path) else {
                logger.warning("WAL checkpoint connection could not be opened; relying on SQLite's own checkpoints")
                return
            }
            defer { handle.close() }
            _ = try? handle.execute("PRAGMA busy_timeout = 0")
            var round = 0
            while !stop.current {
                round += 1
                // A write may end between the two readings: the difference is taken only when it
                // is positive, never wrapped.
                let last = lastWrite.current
                let now = DispatchTime.now().uptimeNanoseconds
                let quiet = now > last && now - last > 2_000_000_000
                let started = ContinuousClock.now
                let mode = round % 20 == 0 && quiet ? "TRUNCATE" : "PASSIVE"
                do {
                    try handle.execute("PRAGMA wal_checkpoint(\(mode))")
                    SlowStage.report("WAL checkpoint", since: started, logger: logger, ["mode": "\(mode)"])
                } catch {
                    logger.warning("WAL checkpoint failed: \(error)")
                }
                Thread.sleep(forTimeInterval: 0.25)
            }
        }
        thread.name = "keyway-sqlite-checkpoint"
        thread.start()
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (Repositories) async throws -> T) async throws -> T {
        let requested = ContinuousClock.now
        let handle = try readers.checkOut()
        defer { readers.checkIn(handle) }
        return try await observer.leasing("read", since: requested) {
            try await body(Repositories(sql: SQLiteHandleDatabase(handle: handle, logger: logger)))
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Repositories) async throws -> T) async throws -> T {
        let requested = ContinuousClock.now
        let observer = self.observer
        return try await groupCommit.write { repositories in
            try await observer.leasing("write", since: requested) { try await body(repositories) }
        }
    }

    func shutdown() async {
        checkpointStop.withLock { $0 = true }
        await groupCommit.close()
        readers.close()
    }
}

/// Reader connections, each used by one task at a time; opened on demand up to `limit` kept idle.
final class ReaderPool: Sendable {
    private let path: String
    private let limit: Int
    private let idle = Locked<(handles: [SQLiteHandle], closed: Bool)>(([], false))

    init(path: String, limit: Int) {
        self.path = path
        self.limit = limit
    }

    func checkOut() throws -> SQLiteHandle {
        let reused = try idle.withLock { state -> SQLiteHandle? in
            guard !state.closed else {
                throw SQLiteFailure(code: 21, message: "The database is closed.")
            }
            return state.handles.popLast()
        }
        if let reused { return reused }
        let handle = try SQLiteHandle(path: path)
        try handle.execute("PRAGMA foreign_keys = ON")
        return handle
    }

    func checkIn(_ handle: SQLiteHandle) {
        let keep = idle.withLock { state -> Bool in
            guard !state.closed, state.handles.count < limit else { return false }
            state.handles.append(handle)
            return true
        }
        if !keep { handle.close() }
    }

    func close() {
        let handles = idle.withLock { state -> [SQLiteHandle] in
            state.closed = true
            defer { state.handles.removeAll() }
            return state.handles
        }
        for handle in handles { handle.close() }
    }
}
