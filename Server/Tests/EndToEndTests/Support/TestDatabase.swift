import Foundation
import KeywayServer
import KeywayTestSupport
import Logging
import PostgresNIO

/// The database engine the end-to-end tests run on: a fresh SQLite file per test server, or, when
/// `KEYWAY_TEST_DATABASE_URL` names a PostgreSQL server (`scripts/postgres start` prints one), a
/// fresh PostgreSQL database on it per test server.
enum TestDatabase {
    /// The PostgreSQL server the tests use, if any.
    static let postgres: PostgresLocation? = {
        guard let url = ProcessInfo.processInfo.environment["KEYWAY_TEST_DATABASE_URL"], !url.isEmpty else { return nil }
        do {
            return try PostgresLocation(parsing: url)
        } catch {
            fatalError("KEYWAY_TEST_DATABASE_URL is not a postgres:// URL: \(error)")
        }
    }()

    /// Whether the tests run on PostgreSQL.
    static var isPostgres: Bool { postgres != nil }

    /// A new, empty database for one test server: on PostgreSQL, a schema of its own in the
    /// database of `KEYWAY_TEST_DATABASE_URL` (creating a schema takes a millisecond, a
    /// database far longer).
    static func fresh() async throws -> DatabaseLocation {
        guard let postgres else { return .sqlite(path: TestServer.temporaryDatabase()) }
        return .postgres(try await createSchema(on: postgres))
    }

    /// A new, empty schema in the database of `admin`.
    static func createSchema(on admin: PostgresLocation) async throws -> PostgresLocation {
        let name = "keyway_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await run("CREATE SCHEMA \(name)", on: admin)
        var location = admin
        location.schema = name
        return location
    }

    /// Runs one statement of the tests' own making (no outside input) on `location`.
    static func run(_ statement: String, on location: PostgresLocation) async throws {
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: location.host, port: location.port, username: location.username, password: location.password,
                database: location.database, tls: .disable),
            id: 1, logger: Logger(label: "keyway.test.postgres") { _ in SwiftLogNoOpLogHandler() })
        do {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: connection.logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// A new, empty PostgreSQL database on the server of `admin` (whose database the
    /// connection is opened on).
    static func createDatabase(on admin: PostgresLocation) async throws -> PostgresLocation {
        let name = "keyway_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: admin.host, port: admin.port, username: admin.username, password: admin.password,
                database: admin.database, tls: .disable),
            id: 1, logger: Logger(label: "keyway.test.postgres") { _ in SwiftLogNoOpLogHandler() })
        do {
            // The name is made here of hex digits only: safe to write into the statement.
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: connection.logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
        var location = admin
        location.database = name
        return location
    }

    /// A new PostgreSQL role that may log in, and a schema it owns, on the server of
    /// `KEYWAY_TEST_DATABASE_URL`: a test server connecting as it can be cut off from the
    /// database (``forbidLogin(_:)``) while the cluster the other tests share stays up.
    static func createRole() async throws -> PostgresLocation {
        guard let postgres else { throw TestFailure("The tests do not run on PostgreSQL.") }
        let name = "keyway_test_role_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        // The name is made here of hex digits only: safe to write into the statements.
        try await run("CREATE ROLE \(name) LOGIN", on: postgres)
        try await run("CREATE SCHEMA \(name) AUTHORIZATION \(name)", on: postgres)
        var location = postgres
        location.username = name
        location.password = nil
        location.schema = name
        return location
    }

    /// How many sessions of `role` wait for `event` (`pg_stat_activity.wait_event`).
    static func sessions(of role: String, waitingFor event: String) async throws -> Int {
        guard let postgres else { throw TestFailure("The tests do not run on PostgreSQL.") }
        let result = try await ChildProcess.run(
            "psql",
            [
                TestServer.psqlURL(postgres), "-tAc",
                "SELECT COUNT(*) FROM pg_stat_activity WHERE usename = '\(role)' AND wait_event = '\(event)'",
            ])
        guard result.status == 0, let count = Int(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw TestFailure("pg_stat_activity could not be read: \(String(decoding: result.errors, as: UTF8.self))") }
        return count
    }

    /// The database goes away for `role`: new connections are refused and its sessions are ended
    /// (each is told `57P01`, as at a shutdown).
    static func forbidLogin(_ role: String) async throws {
        guard let postgres else { throw TestFailure("The tests do not run on PostgreSQL.") }
        try await run("ALTER ROLE \(role) NOLOGIN", on: postgres)
        try await endSessions(of: role)
    }

    /// The database comes back for `role`.
    static func allowLogin(_ role: String) async throws {
        guard let postgres else { throw TestFailure("The tests do not run on PostgreSQL.") }
        try await run("ALTER ROLE \(role) LOGIN", on: postgres)
    }

    /// Ends every session of `role`.
    static func endSessions(of role: String) async throws {
        guard let postgres else { throw TestFailure("The tests do not run on PostgreSQL.") }
        try await run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '\(role)'", on: postgres)
    }

    /// Drops the role of ``createRole()`` with its schema.
    static func dropRole(_ location: PostgresLocation) async throws {
        guard let postgres else { throw TestFailure("The tests do not run on PostgreSQL.") }
        try await endSessions(of: location.username)
        try await run("DROP SCHEMA \(location.username) CASCADE", on: postgres)
        try await run("DROP ROLE \(location.username)", on: postgres)
    }
}
