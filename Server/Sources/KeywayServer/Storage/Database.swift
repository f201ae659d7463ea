import Logging
import SQLKit

/// The database behind the repositories. Implementations decide how reads run and how writes
/// are serialized; the SQL itself is SQLKit and portable across engines.
protocol Database: Sendable {
    /// Runs `body` for reading. It may see data committed by other writers between statements.
    func read<T: Sendable>(_ body: @escaping @Sendable (Repositories) async throws -> T) async throws -> T

    /// Runs `body` in one transaction: it commits when `body` returns and rolls back when it throws.
    func write<T: Sendable>(_ body: @escaping @Sendable (Repositories) async throws -> T) async throws -> T

    /// Closes every connection.
    func shutdown() async

    /// Runs `body` while no other holder of `lock` (in any server instance on this database)
    /// runs its own: migrations at start-up, the maintenance sweep.
    func exclusively<T: Sendable>(_ lock: ExclusiveLock, _ body: () async throws -> T) async throws -> T
}

/// The work that one server instance at a time does on a shared database.
enum ExclusiveLock: Int64, Sendable {
    /// Applying migrations.
    case migrations = 0x6B65_7977_6179_0001
    /// The maintenance sweep.
    case maintenance = 0x6B65_7977_6179_0002
}

extension DatabaseLocation {
    /// Opens the database: SQLite with `readerCount` readers, PostgreSQL with a pool of at most
    /// `poolSize` connections, each waited for at most `leaseTimeout` and used for at most
    /// `queryTimeout` by one read or transaction.
    func open(
        poolSize: Int = 10, leaseTimeout: Duration = .seconds(2), queryTimeout: Duration = .seconds(10),
        readerCount: Int = 4, observer: DatabaseObserver = .none, logger: Logger
    ) async throws -> any Database {
        switch self {
        case .sqlite(let path):
            try await SQLiteDatabase.open(path: path, readerCount: readerCount, observer: observer, logger: logger)
        case .postgres(let location):
            try await PostgreSQLDatabase.open(
                location, poolSize: poolSize, leaseTimeout: leaseTimeout, queryTimeout: queryTimeout, observer: observer,
                logger: logger)
        }
    }
}

/// The repositories bound to one connection (or one transaction): the shared ones here, each
/// feature's in its own folder (`extension Repositories` beside its repository).
struct Repositories: Sendable {
    let sql: any SQLDatabase

    var applications: ApplicationRepository { ApplicationRepository(sql: sql) }
    var users: UserRepository { UserRepository(sql: sql) }
    var sessions: SessionRepository { SessionRepository(sql: sql) }
    var dpopProofs: SeenOnceRepository { .dpopProofs(sql) }
    var clientAssertions: SeenOnceRepository { .clientAssertions(sql) }
    var rateLimits: RateLimitRepository { RateLimitRepository(sql: sql) }
    var deviceRequestSignatures: SeenOnceRepository { .deviceRequestSignatures(sql) }
    var powerAuthReplays: SeenOnceRepository { .powerAuthReplays(sql) }
}

/// A write transaction the database refused for conflicts with concurrent ones every time it ran
/// (PostgreSQL serialization failures): nothing of it was kept. Clients see `503
/// service_unavailable` with `Retry-After`, never an internal error.
struct DatabaseContention: Error, CustomStringConvertible {
    let attempts: Int
    var description: String { "The transaction conflicted with concurrent ones \(attempts) times." }
}

/// A database failure that passes: nothing of the request was kept, and the client may send it
/// again shortly. Clients see `503` with `Retry-After` (`service_unavailable` on the flow and admin
/// APIs, `temporarily_unavailable` under `/oauth2/`), never an internal error.
protocol TransientDatabaseFailure: Error, CustomStringConvertible {}

extension DatabaseContention: TransientDatabaseFailure {}

/// The database could not serve the request: no connection could be had in time (the pool's
/// every connection was busy for the whole wait, or the database could not be reached), its
/// statements ran past their deadline, or the database ended the connection under them. Nothing
/// of a transaction is kept unless its `COMMIT` had reached the database before the connection
/// ended (then the client cannot know, as after any lost answer).
struct DatabaseUnavailable: TransientDatabaseFailure {
    let description: String
}

/// Whether a database's statements run with their deadline (PostgreSQL's query timeout).
enum QueryDeadline {
    /// Set while migrations run: a migration may rewrite a large table for longer than any
    /// request may take.
    @TaskLocal static var suspended = false
}

/// A storage failure: the message is for operators; clients see `internal_error`.
struct StorageError: Error, CustomStringConvertible {
    let description: String
}
