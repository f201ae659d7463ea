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
///
/// Every read and transaction has two deadlines, so that a starved pool or an outage is answered
/// `503`, never left hanging:
/// - it waits at most `leaseTimeout` for a connection of the pool (the pool keeps trying to open
///   connections while the server is away): past it the request ends with
///   ``DatabaseUnavailable`` and its work is never started;
/// - once it has one, each statement runs for at most `queryTimeout`, and a transaction may idle
///   between its statements no longer (PostgreSQL's `statement_timeout` and
///   `idle_in_transaction_session_timeout` of the pool's sessions): past it PostgreSQL cancels
///   the statement or ends the session, rolling the transaction back, and the request ends with
///   ``DatabaseUnavailable``. Migrations, which may rewrite large tables, have none; the advisory
///   locks never wait in the database (``exclusively(_:_:)``).
///
/// A connection the database ends (an administrator's or a crash's shutdown, SQLSTATE 57P01 to
/// 57P03, a refused or dropped connection, SQLSTATE class 08) ends the request with
/// ``DatabaseUnavailable`` too: it is the database's outage, not the request's error.
final class PostgreSQLDatabase: Database {
    private let client: PostgresClient
    /// The connections ``exclusively(_:_:)`` holds its advisory locks on, apart from the pool,
    /// so that work done under a lock always finds the pool's connections (even a pool of one).
    private let locks: PostgresClient
    private let running: Task<Void, Never>
    private let logger: Logger
    /// Told of connection leases and of transactions run again after a conflict (metrics).
    private let observer: DatabaseObserver
    /// Stops waiting for a body whose connection closed under it (``ClosedConnectionWatch``).
    private let watch = ClosedConnectionWatch()
    /// The same for the statements of the advisory locks: a watch of their own, since each pool
    /// numbers its connections from the same start.
    private let lockWatch = ClosedConnectionWatch()
    let location: PostgresLocation
    /// How long a read or a transaction waits for a connection.
    let leaseTimeout: Duration
    /// How long a read or a transaction may run once it has its connection.
    let queryTimeout: Duration

    /// How many times a transaction refused for a conflict is run in all.
    static let attempts = 25

    private init(
        client: PostgresClient, locks: PostgresClient, running: Task<Void, Never>, location: PostgresLocation,
        leaseTimeout: Duration, queryTimeout: Duration, observer: DatabaseObserver, logger: Logger
    ) {
        self.client = client
        self.locks = locks
        self.leaseTimeout = leaseTimeout
        self.queryTimeout = queryTimeout
        self.running = running
        self.location = location
        self.observer = observer
        self.logger = logger
    }

    /// Connects with at most `poolSize` connections, checking within `patience` that the server
    /// answers; a read or a transaction then waits at most `leaseTimeout` for a connection, and
    /// each of its statements runs for at most `queryTimeout` (the pool sessions'
    /// `statement_timeout`).
    static func open(
        _ location: PostgresLocation, poolSize: Int = 10, patience: Duration = .seconds(15),
        leaseTimeout: Duration = .seconds(2), queryTimeout: Duration = .seconds(10), observer: DatabaseObserver = .none,
        logger: Logger
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
        var parameters: [(String, String)] = []
        if let schema = location.schema {
            // Checked when the URL was parsed: a plain identifier.
            parameters.append(("search_path", schema))
        }
        configuration.options.connectTimeout = .seconds(10)
        let quiet = Logger(label: "keyway.postgres") { _ in SwiftLogNoOpLogHandler() }
        // The pool's sessions: PostgreSQL cancels a statement that runs past the query timeout,
        // and ends a session left idle inside a transaction that long.
        let milliseconds = max(1, Int(queryTimeout.components.seconds * 1_000 + queryTimeout.components.attoseconds / 1_000_000_000_000_000))
        configuration.options.additionalStartupParameters =
            parameters + [("statement_timeout", "\(milliseconds)"), ("idle_in_transaction_session_timeout", "\(milliseconds)")]
        let client = PostgresClient(configuration: configuration, backgroundLogger: quiet)
        // Migrations and the maintenance sweep: at most one lock each at a time. Its statements
        // never wait for a lock (it is tried again instead), so they have the pool's deadline.
        configuration.options.maximumConnections = 2
        let locks = PostgresClient(configuration: configuration, backgroundLogger: quiet)
        let running = Task {
            await withDiscardingTaskGroup { group in
                group.addTask { await client.run() }
                group.addTask { await locks.run() }
            }
        }
        let database = PostgreSQLDatabase(
            client: client, locks: locks, running: running, location: location, leaseTimeout: leaseTimeout,
            queryTimeout: queryTimeout, observer: observer, logger: logger)
        do {
            // The pool retries a refused connection for as long as a lease waits: the check is
            // given up after `patience`.
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    _ = try await client.withConnection { try await $0.sql().raw("SELECT 1 AS one").first() }
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

    func read<T: Sendable>(_ body: @escaping @Sendable (Repositories) async throws -> T) async throws -> T {
        try await leased("read") { connection in
            try await body(Repositories(sql: connection.sql(queryLogLevel: nil).countingRoundTrips()))
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

    private func transaction<T: Sendable>(_ body: @escaping @Sendable (Repositories) async throws -> T) async throws -> T {
        try await leased("write") { connection in
            let logger = self.logger
            let tally = RoundTripTally.current
            tally?.add()
            try await connection.query("BEGIN ISOLATION LEVEL SERIALIZABLE", logger: logger)
            do {
                if QueryDeadline.suspended {
                    // A migration: no deadline for this transaction's statements.
                    try await connection.query("SET LOCAL statement_timeout = 0", logger: logger)
                    try await connection.query("SET LOCAL idle_in_transaction_session_timeout = 0", logger: logger)
                }
                let value = try await body(Repositories(sql: connection.sql(queryLogLevel: nil).countingRoundTrips()))
                tally?.add()
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                tally?.add()
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Runs `body` on a connection of the pool, waiting at most ``leaseTimeout`` for one. When
    /// the time is up first, the request for a connection is withdrawn and `body` never runs (a
    /// connection handed out at that very moment is given back unused): the caller gets
    /// ``DatabaseUnavailable``, as when the database ends the connection or cancels a statement
    /// past the query timeout.
    private func leased<T: Sendable>(
        _ kind: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let requested = ContinuousClock.now
        let gate = LeaseGate()
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await self.client.withConnection { connection in
                        // Only one of the lease and the timer wins.
                        guard gate.start() else { return nil }
                        return try await self.observer.leasing(kind, since: requested) {
                            try await self.watch.run(on: connection) { try await body(connection) }
                        }
                    }
                }
                group.addTask {
                    try? await Task.sleep(for: self.leaseTimeout)
                    return nil
                }
                while let outcome = try await group.next() {
                    if let value = outcome {
                        group.cancelAll()
                        return value
                    }
                    // The timer ended (or the lease lost to it): give up unless the body started.
                    if gate.expire() {
                        group.cancelAll()
                        throw DatabaseUnavailable(
                            description: "No database connection was free within \(leaseTimeout) (a pool of \(kind)s waiting, or the database unreachable).")
                    }
                }
                throw DatabaseUnavailable(description: "The database connection ended without an answer.")
            }
        } catch let error where Self.isOutage(error) {
            throw DatabaseUnavailable(
                description: "The database ended the connection, or cancelled a statement past the query timeout\(Self.diagnosis(error)).")
        }
    }

    /// Runs `body` holding PostgreSQL's advisory lock for `lock` (on a connection of its own,
    /// outside the pool), so that of several instances one at a time runs it.
    ///
    /// No statement of the lock ever waits: the lock is tried (`pg_try_advisory_lock`), and tried
    /// again every ``lockRetryInterval`` while another instance holds it, so a task that is
    /// cancelled stops waiting at once (PostgresNIO does not interrupt a running statement, and a
    /// blocking `pg_advisory_lock` would wait for the other instance). Each statement runs under
    /// a ``ClosedConnectionWatch``: a session that ends under the work (an outage, an
    /// administrator's `pg_terminate_backend`) takes its lock with it, and the unlock written on
    /// its closed connection — which PostgresNIO never answers — is given up after the watch's
    /// grace instead of holding the caller (the maintenance sweep, and a server's stop behind it)
    /// for good.
    func exclusively<T: Sendable>(_ lock: ExclusiveLock, _ body: () async throws -> T) async throws -> T {
        let key = Self.advisoryKey(lock, schema: location.schema)
        let logger = self.logger
        var attempt = 1
        while true {
            do {
                return try await locks.withConnection { connection in
                    while true {
                        let taken = try await lockWatch.run(on: connection) {
                            let rows = try await connection.query("SELECT pg_try_advisory_lock(\(key))", logger: logger)
                            for try await taken in rows.decode(Bool.self) { return taken }
                            return false
                        }
                        if taken { break }
                        try await Task.sleep(for: Self.lockRetryInterval)
                    }
                    let unlock: @Sendable () async -> Void = { [lockWatch] in
                        // A closed session has let go of its locks already.
                        guard !connection.isClosed else { return }
                        _ = try? await lockWatch.run(on: connection) {
                            _ = try await connection.query("SELECT pg_advisory_unlock(\(key))", logger: logger)
                        }
                    }
                    do {
                        let value = try await body()
                        await unlock()
                        return value
                    } catch {
                        await unlock()
                        throw LockedWorkFailure(error: error)
                    }
                }
            } catch let failure as LockedWorkFailure {
                throw failure.error
            } catch where attempt < 3 && (error is DatabaseUnavailable || Self.isOutage(error)) {
                // The connection closed before the lock was taken (the pool had not seen it go
                // yet): a fresh one.
                attempt += 1
            }
        }
    }

    /// What the work done under a lock threw, told apart from the lock's own failures.
    private struct LockedWorkFailure: Error {
        let error: any Error
    }

    /// How often ``exclusively(_:_:)`` tries again for a lock another instance holds.
    static let lockRetryInterval: Duration = .milliseconds(200)

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

    /// Whether `error` is the database or the connection to it going away, rather than the
    /// request's own failure: a connection refused, dropped or closed, or the server shutting
    /// down (SQLSTATE 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now), a
    /// connection failure (class 08) or too many connections (53300); or a statement cancelled
    /// past the query timeout (57014), or a session ended for idling in its transaction (25P03).
    static func isOutage(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        if let state = error.serverInfo?[.sqlState] {
            return ["57P01", "57P02", "57P03", "53300", "57014", "25P03"].contains(state) || state.hasPrefix("08")
        }
        return [.connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed]
            .contains(error.code)
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

/// Decides once between a lease that came and a wait that ran out.
private final class LeaseGate: Sendable {
    private enum State { case waiting, started, expired }
    private let state = Locked(State.waiting)

    /// The lease came: `true` when the wait has not run out, and the body may run.
    func start() -> Bool {
        state.withLock {
            guard $0 == .waiting else { return false }
            $0 = .started
            return true
        }
    }

    /// The wait ran out: `true` when no body started, and the caller gives up.
    func expire() -> Bool {
        state.withLock {
            if $0 == .started { return false }
            $0 = .expired
            return true
        }
    }
}
