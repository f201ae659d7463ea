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
}
