import Logging
import NIOCore
import SQLKit

/// The statements one request sends to PostgreSQL, each a round trip to the database server
/// (`BEGIN` and `COMMIT` included). ``RequestLogMiddleware`` binds a tally to each request when
/// the database is PostgreSQL and adds it to `keyway_database_round_trips_total` by route; the
/// database counts into the tally bound where a read or a transaction starts. SQLite runs in the
/// server's process and has none.
final class RoundTripTally: Sendable {
    /// The tally of the request being answered, if it counts.
    @TaskLocal static var current: RoundTripTally?

    private let count = Locked(0)

    /// The statements counted so far.
    var total: Int { count.withLock { $0 } }

    /// Counts one statement.
    func add() { count.withLock { $0 += 1 } }
}

/// A connection's SQLKit database that counts each statement into a tally.
struct CountingSQLDatabase: SQLDatabase {
    let base: any SQLDatabase
    let tally: RoundTripTally

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        tally.add()
        return base.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        tally.add()
        try await base.execute(sql: query, onRow)
    }
}

extension SQLDatabase {
    /// This database, counting its statements into the current request's tally if there is one.
    func countingRoundTrips() -> any SQLDatabase {
        guard let tally = RoundTripTally.current else { return self }
        return CountingSQLDatabase(base: self, tally: tally)
    }
}
