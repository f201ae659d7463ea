import Crypto
import Foundation
import Logging
import PostgresKit
import PostgresNIO
import SQLKit

/// PostgreSQL through a pool of connections, which several server instances may share.
///
/// Every write transaction runs at `SERIALIZABLE`: the repositories read and then write (a flow
/// is loaded, checked and stored; a code is looked up and marked used; a refresh token is rotated
/// once), and on SQLite one writer at a time makes each of them atomic. At `SERIALIZABLE`
/// PostgreSQL gives the same guarantee across connections and instances, and refuses a
/// transaction that would break it with a serialization failure (SQLSTATE 40001), a deadlock
/// (40P01) or, for two inserts of one key, a unique violation (23505); the transaction is then run
/// again from the start, a few times, after a short random pause. Reads run outside a
/// transaction, each statement seeing what was committed when it began, as SQLite's readers do.
final class PostgreSQLDatabase: Database {
    private let client: PostgresClient
    private let running: Task<Void, Never>
    private let logger: Logger
    /// Told of connection leases and of transactions run again after a conflict (metrics).
    private let observer: DatabaseObserver
    let location: PostgresLocation

    /// How many times a transaction refused for a conflict is run in all.
    static let attempts = 25

    private init(
        client: PostgresClient, running: Task<Void, Never>, location: PostgresLocation,
        observer: DatabaseObserver, logger: Logger
    ) {
        self.client = client
        self.running = running
        self.location = location
        self.observer = observer
        self.logger = logger
    }

    /// Connects with at most `poolSize` connections, checking within `patience` that the server
    /// answers.
    static func open(
        _ location: PostgresLocation, poolSize: Int = 10, patience: Duration = .seconds(15),
        observer: DatabaseObserver = .none, logger: Logger
    ) async throws -> PostgreSQLDatabase {
        let tls: PostgresClient.Configuration.TLS =
            switch location.tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: tls)
        configuration.options.maximumConnections = max(1, poolSize)
        if let schema = location.schema {
            // Checked when the URL was parsed: a plain identifier.
            configuration.options.additionalStartupParameters = [("search_path", schema)]
        }
        configuration.options.connectTimeout = .seconds(10)
        let client = PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "keyway.postgres") { _ in SwiftLogNoOpLogHandler() })
        let running = Task { await client.run() }
        let database = PostgreSQLDatabase(
            client: client, running: running, location: location, observer: observer, logger: logger)
        do {
            // The pool retries a refused connection for as long as a lease waits: the check is
            // given up after `patience`.
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    _ = try await database.read { try await $0.sql.raw("SELECT 1 AS one").first() }
                    return true
                }
                group.addTask {
                    try await Task.sleep(for: patience)
                    return false
                }
                let answered = try await group.next() ?? false
                group.cancelAll()
                guard answered else { throw ConfigurationError("no answer within \(patience)") }
            }
        } catch {
            await database.shutdown()
            throw ConfigurationError("The PostgreSQL database \(location) cannot be reached: \(Self.describe(error)).")
        }
        return database
    }

    func read<T: Sendable>(_ body: @Sendable (Repositories) async throws -> T) async throws -> T {
        let requested = ContinuousClock.now
        return try await client.withConnection { connection in
            try await observer.leasing("read", since: requested) {
                try await body(Repositories(sql: connection.sql(queryLogLevel: nil)))
            }
        }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Repositories) async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await transaction(body)
            } catch where attempt == Self.attempts && Self.isConflict(error) {
                throw DatabaseContention(attempts: attempt)
            } catch where Self.isConflict(error) {
                attempt += 1
                observer.conflictRetried()
                // A random pause that doubles with the attempts (up to a quarter second), so
                // conflicting transactions spread out instead of meeting again at once.
                let ceiling = min(250_000, 500 << min(attempt, 10))
                try await Task.sleep(for: .microseconds(Int.random(in: 100...ceiling)))
            }
        }
    }

    private func transaction<T: Sendable>(_ body: @Sendable (Repositories) async throws -> T) async throws -> T {
        let requested = ContinuousClock.now
        return try await client.withConnection { connection in
            try await observer.leasing("write", since: requested) {
                let logger = self.logger
                try await connection.query("BEGIN ISOLATION LEVEL SERIALIZABLE", logger: logger)
                do {
                    let value = try await body(Repositories(sql: connection.sql(queryLogLevel: nil)))
                    try await connection.query("COMMIT", logger: logger)
                    return value
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        }
    }

    /// Runs `body` holding PostgreSQL's advisory lock for `lock` (on a connection of its own),
    /// so that of several instances one at a time runs it.
    func exclusively<T: Sendable>(_ lock: ExclusiveLock, _ body: () async throws -> T) async throws -> T {
        let key = Self.advisoryKey(lock, schema: location.schema)
        return try await client.withConnection { connection in
            try await connection.query("SELECT pg_advisory_lock(\(key))", logger: logger)
            do {
                let value = try await body()
                _ = try await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
                throw error
            }
        }
    }

    /// The advisory lock key of `lock` for one deployment: deployments in other schemas of the
    /// same database neither wait for each other nor share a lock.
    static func advisoryKey(_ lock: ExclusiveLock, schema: String?) -> Int64 {
        let digest = SHA256.hash(data: Data("keyway:\(lock.rawValue):\(schema ?? "public")".utf8))
        return digest.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    func shutdown() async {
        running.cancel()
        await running.value
    }

    /// Whether `error` is a conflict between transactions that running again resolves.
    /// (A transaction that conflicted ``attempts`` times ends with ``DatabaseContention``.)
    static func isConflict(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return ["40001", "40P01", "23505"].contains(state)
    }

    /// What a log line may say of a driver error: its SQLSTATE and the table or constraint, never
    /// the server's message or detail (they can quote values). Empty for other errors.
    static func diagnosis(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "" }
        guard let info = error.serverInfo else { return " (\(error.code))" }
        let parts = [
            info[.sqlState].map { "SQLSTATE \($0)" }, info[.tableName].map { "table \($0)" },
            info[.constraintName].map { "constraint \($0)" },
        ].compactMap { $0 }
        return " (" + parts.joined(separator: ", ") + ")"
    }

    /// A sentence for an error of the driver.
    static func describe(_ error: any Error) -> String {
        if let error = error as? ConfigurationError { return error.description }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return message }
            return "\(error.code)"
        }
        return String(describing: error)
    }
}
