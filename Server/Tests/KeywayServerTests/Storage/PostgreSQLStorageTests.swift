import Foundation
import Logging
import Testing

@testable import KeywayServer

/// The PostgreSQL engine below the repositories: migrations from instances starting together,
/// serializable transactions retried on conflicts, rollback. Runs when the tests run on
/// PostgreSQL (`KEYWAY_TEST_DATABASE_URL`, as `scripts/test` sets it).
/// The PostgreSQL server of `KEYWAY_TEST_DATABASE_URL`, if the tests run on one.
enum PostgresTestServer {
    static let location: PostgresLocation? = ProcessInfo.processInfo.environment["KEYWAY_TEST_DATABASE_URL"]
        .flatMap { try? PostgresLocation(parsing: $0) }
}

@Suite("PostgreSQL storage", .enabled(if: PostgresTestServer.location != nil))
struct PostgreSQLStorageTests {
    static let masterKey = MasterKey.generate()

    static var server: PostgresLocation? { PostgresTestServer.location }

    static let logger = Logger(label: "keyway.test") { _ in SwiftLogNoOpLogHandler() }
    /// How long these tests' transactions wait for a connection: the machine is shared by many
    /// tests, and they check behaviour, not the deadline (``aRequestThatFindsNoConnectionInTimeNeverStarts()`` does).
    static let leaseTimeout: Duration = .seconds(60)

    /// A fresh schema of its own on the test server.
    static func freshLocation() async throws -> PostgresLocation {
        let server = try #require(Self.server)
        let admin = try await PostgreSQLDatabase.open(server, poolSize: 1, leaseTimeout: Self.leaseTimeout, logger: logger)
        let schema = "keyway_unit_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await admin.write { try await $0.sql.raw("CREATE SCHEMA \(unsafeRaw: schema)").run() }
        await admin.shutdown()
        var location = server
        location.schema = schema
        return location
    }

    @Test func instancesStartingTogetherMigrateOnce() async throws {
        let location = try await Self.freshLocation()
        let databases = try await withThrowingTaskGroup(of: PostgreSQLDatabase.self) { group in
            for _ in 0..<4 { group.addTask { try await PostgreSQLDatabase.open(location, poolSize: 2, leaseTimeout: Self.leaseTimeout, logger: Self.logger) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
            for database in databases { group.addTask { try await Migrations.apply(to: database, now: Date()) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // One instance applied every version; the others found them applied.
        #expect(applied.filter { !$0.isEmpty }.count == 1)
        #expect(applied.flatMap { $0 } == Migrations.all.map(\.version))
        let rows = try await databases[0].read {
            try await $0.sql.raw("SELECT COUNT(*) AS n FROM keyway_migrations").first()?.decode(column: "n", as: Int64.self)
        }
        #expect(rows == Int64(Migrations.all.count))
        for database in databases { await database.shutdown() }
    }

    @Test func migration21CarriesPowerAuthRecoveryCodesOver() async throws {
        let database = try await PostgreSQLDatabase.open(
            try await Self.freshLocation(), poolSize: 2, leaseTimeout: Self.leaseTimeout, logger: Self.logger)
        try await PowerAuthStorageTests.checkMigration21(database)
        await database.shutdown()
    }

    @Test func concurrentReadModifyWriteTransactionsLoseNoUpdate() async throws {
        let location = try await Self.freshLocation()
        let database = try await PostgreSQLDatabase.open(location, poolSize: 8, leaseTimeout: Self.leaseTimeout, logger: Self.logger)
        try await Migrations.apply(to: database, now: Date())
        // Each transaction reads the counter and writes it back plus one: at a weaker isolation
        // level two of them would read the same value and one increment would be lost.
        try await database.write { repositories in
            try await repositories.keys.insertSecret(named: "counter", value: "0", createdAt: 1)
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask {
                    try await database.write { repositories in
                        let value = Int(try await repositories.keys.secret(named: "counter") ?? "0") ?? 0
                        try await repositories.keys.replaceSecret(named: "counter", value: String(value + 1), createdAt: 2)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await database.read { try await $0.keys.secret(named: "counter") } == "40")
        await database.shutdown()
    }

    @Test func aTransactionThatConflictsAtEveryAttemptEndsAsContentionAndKeepsNothing() async throws {
        let location = try await Self.freshLocation()
        let database = try await PostgreSQLDatabase.open(location, poolSize: 2, leaseTimeout: Self.leaseTimeout, logger: Self.logger)
        try await Migrations.apply(to: database, now: Date())
        let runs = Locked(0)
        let error = await #expect(throws: DatabaseContention.self) {
            try await database.write { repositories in
                runs.withLock { $0 += 1 }
                try await repositories.keys.insertSecret(named: "contended", value: "1", createdAt: 1)
                // The error PostgreSQL gives a transaction that would break serializability.
                try await repositories.sql.raw(
                    "DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$"
                ).run()
            }
        }
        #expect(error?.attempts == PostgreSQLDatabase.attempts)
        #expect(runs.current == PostgreSQLDatabase.attempts)
        #expect(try await database.read { try await $0.keys.secret(named: "contended") } == nil)
        await database.shutdown()
    }

    @Test func aFailedWriteRollsBackEverythingAndTheSigningKeyIsMadeOnce() async throws {
        let location = try await Self.freshLocation()
        let database = try await PostgreSQLDatabase.open(location, poolSize: 4, leaseTimeout: Self.leaseTimeout, logger: Self.logger)
        try await Migrations.apply(to: database, now: Date())
        struct Boom: Error {}
        await #expect(throws: Boom.self) {
            try await database.write { repositories in
                try await repositories.applications.insertProject(id: "prj_1", name: "P", isDev: true, createdAt: 1)
                throw Boom()
            }
        }
        #expect(try await database.read { try await $0.applications.devProjectId() } == nil)
        // Two instances starting on an empty database at once end up with one signing key.
        let other = try await PostgreSQLDatabase.open(location, poolSize: 2, leaseTimeout: Self.leaseTimeout, logger: Self.logger)
        async let one = SigningKey.loadOrCreate(in: database, now: Date(), masterKey: Self.masterKey)
        async let two = SigningKey.loadOrCreate(in: other, now: Date(), masterKey: Self.masterKey)
        let (first, second) = try await (one, two)
        #expect(first.kid == second.kid)
        #expect(try await database.read { try await $0.keys.signingKeys().count } == 1)
        await other.shutdown()
        await database.shutdown()
    }

    @Test func aPoolOfOneConnectionMigratesAndSweeps() async throws {
        // The advisory lock is held on a connection apart from the pool: the work done under it
        // finds the pool's one connection free.
        let database = try await PostgreSQLDatabase.open(
            try await Self.freshLocation(), poolSize: 1, leaseTimeout: .seconds(20), logger: Self.logger)
        #expect(try await Migrations.apply(to: database, now: Date()) == Migrations.all.map(\.version))
        try await MaintenanceService(database: database, clock: SystemClock(), logger: Self.logger).sweep()
        await database.shutdown()
    }

    @Test func aRequestThatFindsNoConnectionInTimeNeverStarts() async throws {
        let location = try await Self.freshLocation()
        let database = try await PostgreSQLDatabase.open(
            location, poolSize: 1, leaseTimeout: .milliseconds(500), logger: Self.logger)
        try await Migrations.apply(to: database, now: Date())
        // One transaction holds the pool's only connection until it is let go.
        let (holding, held) = AsyncStream.makeStream(of: Void.self)
        let (release, released) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await database.write { repositories in
                try await repositories.keys.insertSecret(named: "holder", value: "1", createdAt: 1)
                held.yield()
                for await _ in release { break }
            }
        }
        for await _ in holding { break }
        let started = ContinuousClock.now
        let ran = Locked(false)
        await #expect(throws: DatabaseUnavailable.self) {
            try await database.write { repositories in
                ran.withLock { $0 = true }
                try await repositories.keys.insertSecret(named: "waiter", value: "1", createdAt: 1)
            }
        }
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(!ran.current)
        await #expect(throws: DatabaseUnavailable.self) { try await database.read { try await $0.keys.secret(named: "holder") } }
        released.yield()
        try await holder.value
        // The connection is back: both reads answer, and the refused write kept nothing.
        #expect(try await database.read { try await $0.keys.secret(named: "holder") } == "1")
        #expect(try await database.read { try await $0.keys.secret(named: "waiter") } == nil)
        await database.shutdown()
    }

    @Test func anUnreachableServerIsAClearConfigurationError() async throws {
        let nowhere = PostgresLocation(host: "127.0.0.1", port: 1, username: "keyway", database: "keyway", tls: .disable)
        await #expect(throws: ConfigurationError.self) {
            try await PostgreSQLDatabase.open(nowhere, patience: .seconds(2), logger: Self.logger)
        }
    }

    /// A session the database ends under a transaction: its statements fail, and so does every
    /// statement written after — the ones the closed channel drops, which PostgresNIO never
    /// answers, included (the `ROLLBACK` above all). The transaction is answered
    /// `DatabaseUnavailable` within seconds, never left waiting.
    @Test(.timeLimit(.minutes(10)))
    func statementsWrittenAfterTheDatabaseEndedTheSessionAreAnswered() async throws {
        let database = try await PostgreSQLDatabase.open(
            try await Self.freshLocation(), poolSize: 2, leaseTimeout: Self.leaseTimeout, queryTimeout: .seconds(60),
            logger: Self.logger)
        let started = ContinuousClock.now
        await #expect(throws: DatabaseUnavailable.self) {
            try await database.write { repositories in
                // The session ends itself (PostgreSQL answers FATAL 57P01 and closes).
                _ = try? await repositories.sql.raw("SELECT pg_terminate_backend(pg_backend_pid())").run()
                // Statements written while the connection closes and after.
                for _ in 0..<50 { _ = try? await repositories.sql.raw("SELECT 1").run() }
            }
        }
        #expect(ContinuousClock.now - started < .seconds(30))
        // The pool replaced the connection: the next transaction runs.
        let one = try await database.read { repositories in
            try await repositories.sql.raw("SELECT 1 AS one").first()?.decode(column: "one", as: Int.self)
        }
        #expect(one == 1)
        await database.shutdown()
    }

    /// The session holding an exclusive lock ends under its work (the database restarted, an
    /// administrator's `pg_terminate_backend`): the lock went with the session, and `exclusively`
    /// returns within seconds — its unlock is never a statement left waiting on a closed
    /// connection, which PostgresNIO never answers (what kept the maintenance sweep, and with it a
    /// server's stop, waiting for good after an outage).
    @Test(.timeLimit(.minutes(10)))
    func anExclusiveLockWhoseSessionEndsUnderItsWorkReturns() async throws {
        let location = try await Self.freshLocation()
        let database = try await PostgreSQLDatabase.open(
            location, poolSize: 2, leaseTimeout: Self.leaseTimeout, queryTimeout: .seconds(60), logger: Self.logger)
        let key = PostgreSQLDatabase.advisoryKey(.maintenance, schema: location.schema)
        let started = ContinuousClock.now
        let outcome = try await Self.within(.seconds(60)) {
            try await database.exclusively(.maintenance) {
                // The session holding the lock is ended from a connection of the pool.
                try await database.write { repositories in
                    try await repositories.sql.raw(
                        """
                        SELECT pg_terminate_backend(pid) FROM pg_locks
                        WHERE locktype = 'advisory' AND granted AND objsubid = 1
                          AND classid = \(bind: Int64(key >> 32 & 0xFFFF_FFFF)) AND objid = \(bind: Int64(key & 0xFFFF_FFFF))
                        """
                    ).run()
                }
                return "swept"
            }
        }
        #expect(outcome == "swept")
        #expect(ContinuousClock.now - started < .seconds(30))
        // The lock is free again, for this instance as for another.
        #expect(try await Self.within(.seconds(60)) { try await database.exclusively(.maintenance) { true } })
        await database.shutdown()
    }

    /// A task waiting for an exclusive lock that another instance holds stops waiting when it is
    /// cancelled (a server stopping while another instance migrates or sweeps): the wait is never
    /// a statement in the database, which cancelling a task does not interrupt.
    @Test(.timeLimit(.minutes(10)))
    func waitingForAnExclusiveLockEndsWhenTheTaskIsCancelled() async throws {
        let location = try await Self.freshLocation()
        let holder = try await PostgreSQLDatabase.open(location, poolSize: 1, leaseTimeout: Self.leaseTimeout, logger: Self.logger)
        let waiter = try await PostgreSQLDatabase.open(location, poolSize: 1, leaseTimeout: Self.leaseTimeout, logger: Self.logger)
        let held = AsyncStream<Void>.makeStream()
        let release = AsyncStream<Void>.makeStream()
        let holding = Task {
            try await holder.exclusively(.maintenance) {
                held.continuation.yield()
                for await _ in release.stream { break }
            }
        }
        for await _ in held.stream { break }
        let waiting = Task { try await waiter.exclusively(.maintenance) { "ran" } }
        // It waits: the lock is held.
        try await Task.sleep(for: .seconds(1))
        let cancelled = ContinuousClock.now
        waiting.cancel()
        let result = try await Self.within(.seconds(60)) { await waiting.result }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(ContinuousClock.now - cancelled < .seconds(5))
        release.continuation.yield()
        try await holding.value
        // Once the holder let go, the waiting instance takes the lock.
        #expect(try await Self.within(.seconds(60)) { try await waiter.exclusively(.maintenance) { "ran" } } == "ran")
        await holder.shutdown()
        await waiter.shutdown()
    }

    /// The value of `body`, or a failure when it has not answered within `limit`: the evidence
    /// of a wait that never ends, instead of the test's time limit. `body` runs in a task of its
    /// own, left behind if it never answers.
    static func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let answered = Locked(false)
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let first: @Sendable (Result<T, any Error>) -> Void = { result in
                let isFirst = answered.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if isFirst { continuation.resume(with: result) }
            }
            Task {
                do { first(.success(try await body())) } catch { first(.failure(error)) }
            }
            Task {
                try? await Task.sleep(for: limit)
                first(.failure(NoAnswer(limit: limit)))
            }
        }
    }

    struct NoAnswer: Error, CustomStringConvertible {
        let limit: Duration
        var description: String { "no answer within \(limit)" }
    }
}
