import Foundation
import Logging
import Testing

@testable import KeywayServer

@Suite("SQLite storage")
struct StorageTests {
    func openDatabase() async throws -> SQLiteDatabase {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("keyway-storage-\(UUID().uuidString)/db.sqlite").path
        return try await SQLiteDatabase.open(path: path, logger: Logger(label: "test"))
    }

    @Test func migrationsApplyOnceAndCreateTheFile() async throws {
        let database = try await openDatabase()
        #expect(FileManager.default.fileExists(atPath: database.path))
        let firstRun = try await Migrations.apply(to: database, now: Date())
        #expect(firstRun == [1])
        let secondRun = try await Migrations.apply(to: database, now: Date())
        #expect(secondRun == [])
        let mode = try await database.read { try await $0.sql.raw("PRAGMA journal_mode").first()?.decode(column: "journal_mode", as: String.self) }
        #expect(mode == "wal")
        await database.shutdown()
    }

    @Test func failedWriteRollsBackEverything() async throws {
        let database = try await openDatabase()
        try await Migrations.apply(to: database, now: Date())
        struct Boom: Error {}
        await #expect(throws: Boom.self) {
            try await database.write { repositories in
                try await repositories.applications.insertProject(id: "prj_1", name: "P", isDev: true, createdAt: 1)
                throw Boom()
            }
        }
        #expect(try await database.read { try await $0.applications.devProjectId() } == nil)
        await database.shutdown()
    }

    @Test func concurrentWritesNeverSeeALockedDatabase() async throws {
        let database = try await openDatabase()
        try await Migrations.apply(to: database, now: Date())
        let projectId = try await database.write { try await $0.applications.ensureDevProject(createdAt: 1) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await database.write { repositories in
                        try await repositories.users.insert(
                            UserRecord(id: "usr_\(index)", projectId: projectId, email: "u\(index)@example.com",
                                emailVerified: false, createdAt: 1))
                    }
                    _ = try await database.read { try await $0.users.find(id: "usr_\(index)") }
                }
            }
            try await group.waitForAll()
        }
        let count = try await database.read {
            try await $0.sql.raw("SELECT COUNT(*) AS n FROM users").first()?.decode(column: "n", as: Int64.self)
        }
        #expect(count == 200)
        await database.shutdown()
    }

    @Test func signingKeyIsCreatedOnceAndReloaded() async throws {
        let database = try await openDatabase()
        try await Migrations.apply(to: database, now: Date())
        let first = try await SigningKey.loadOrCreate(in: database, now: Date())
        let second = try await SigningKey.loadOrCreate(in: database, now: Date())
        #expect(first.kid == second.kid)
        #expect(first.privateKey.rawRepresentation == second.privateKey.rawRepresentation)
        await database.shutdown()
    }
}
