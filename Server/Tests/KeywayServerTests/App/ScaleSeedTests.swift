import Foundation
import KeywayTestSupport
import Logging
import SQLKit
import Testing

@testable import KeywayServer

/// `keyway-bench seed`: synthetic signed-in users written through the repositories' many-row
/// inserts, on SQLite and (when the tests run on one) PostgreSQL.
@Suite("Scale seeding")
struct ScaleSeedTests {
    static let logger = Logger(label: "keyway.test") { _ in SwiftLogNoOpLogHandler() }

    /// A migrated SQLite file with the dev application, closed again; its URL.
    func sqliteDatabase() async throws -> DatabaseLocation {
        let path = TestFiles.directory.appendingPathComponent("keyway-seed-\(UUID().uuidString)/db.sqlite").path
        let database = try await SQLiteDatabase.open(path: path, logger: Self.logger)
        try await Migrations.apply(to: database, now: Date())
        _ = try await DevProvisioning.ensureDevApplication(in: database, pinnedConfigId: "cfg_seed", now: Date())
        await database.shutdown()
        return .sqlite(path: path)
    }

    @Test func eachUserGetsASessionAndALiveRefreshTokenOfTheApplication() async throws {
        let url = try await sqliteDatabase()
        try await Self.checkSeeding(url)
    }

    @Test(.enabled(if: PostgresTestServer.location != nil))
    func seedsPostgreSQLOnSeveralConnections() async throws {
        let location = try await PostgreSQLStorageTests.freshLocation()
        let database = try await PostgreSQLDatabase.open(location, poolSize: 2, leaseTimeout: .seconds(60), logger: Self.logger)
        try await Migrations.apply(to: database, now: Date())
        _ = try await DevProvisioning.ensureDevApplication(in: database, pinnedConfigId: "cfg_seed", now: Date())
        await database.shutdown()
        try await Self.checkSeeding(.postgres(location))
    }

    /// Seeds 250 users in batches of 100 (the last one short) and reads them back.
    static func checkSeeding(_ url: DatabaseLocation) async throws {
        let counts = Locked<[Int]>([])
        let outcome = try await ScaleSeed.seed(database: url, configId: "cfg_seed", users: 250, batchSize: 100, concurrency: 2) { written in
            counts.withLock { $0.append(written) }
        }
        #expect(outcome.users == 250)
        #expect(counts.withLock { $0.sorted() } == [100, 200, 250] || counts.withLock { $0.sorted() } == [50, 150, 250])

        let database = try await url.open(logger: logger)
        let application = try #require(try await database.read { try await $0.applications.find(configId: "cfg_seed") })
        let rows = try await database.read { repositories in
            try await repositories.sql.raw(
                """
                SELECT COUNT(*) AS n, COUNT(DISTINCT s.id) AS sessions, COUNT(DISTINCT u.email) AS emails
                FROM refresh_tokens r JOIN sessions s ON s.id = r.session_id JOIN users u ON u.id = s.user_id
                WHERE r.application_id = \(bind: application.id) AND s.application_id = \(bind: application.id)
                    AND u.project_id = \(bind: application.projectId) AND r.user_id = u.id AND r.family_id = r.id
                    AND r.revoked_at IS NULL AND r.rotated_at IS NULL AND r.authorization_code_hash IS NOT NULL
                """
            ).first()
        }
        #expect(try rows?.decode(column: "n", as: Int64.self) == 250)
        #expect(try rows?.decode(column: "sessions", as: Int64.self) == 250)
        #expect(try rows?.decode(column: "emails", as: Int64.self) == 250)
        let users = try await database.read {
            try await $0.sql.raw("SELECT COUNT(*) AS n FROM users").first()?.decode(column: "n", as: Int64.self)
        }
        #expect(users == 250)
        // A seeded user reads back whole through the repository.
        let email = try #require(
            try await database.read { try await $0.sql.raw("SELECT email FROM users LIMIT 1").first()?.decode(column: "email", as: String.self) })
        let user = try #require(try await database.read { try await $0.users.find(projectId: application.projectId, email: email) })
        #expect(user.emailVerified)
        #expect(email.hasSuffix("@scale.example"))
        await database.shutdown()
    }

    @Test func anUnknownApplicationWritesNothing() async throws {
        let url = try await sqliteDatabase()
        await #expect(throws: ConfigurationError.self) {
            try await ScaleSeed.seed(database: url, configId: "cfg_missing", users: 10)
        }
        await #expect(throws: ConfigurationError.self) {
            try await ScaleSeed.seed(database: url, configId: "cfg_seed", users: 10, batchSize: 2_001)
        }
        let database = try await url.open(logger: Self.logger)
        let users = try await database.read {
            try await $0.sql.raw("SELECT COUNT(*) AS n FROM users").first()?.decode(column: "n", as: Int64.self)
        }
        #expect(users == 0)
        await database.shutdown()
    }
}
