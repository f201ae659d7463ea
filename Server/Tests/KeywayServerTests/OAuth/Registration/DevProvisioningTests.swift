import Foundation
import KeywayTestSupport
import Logging
import Testing

@testable import KeywayServer

/// The dev application's config ID: `cfg_dev` on a new database, so the README's commands work as
/// pasted; a pinned one wins; an existing dev application keeps its own.
@Suite("Dev provisioning")
struct DevProvisioningTests {
    func migratedDatabase() async throws -> SQLiteDatabase {
        let path = TestFiles.directory.appendingPathComponent("keyway-dev-\(UUID().uuidString)/db.sqlite").path
        let database = try await SQLiteDatabase.open(path: path, logger: Logger(label: "test"))
        try await Migrations.apply(to: database, now: Date())
        return database
    }

    @Test func aNewDatabaseGetsTheFixedConfigIDAndKeepsIt() async throws {
        let database = try await migratedDatabase()
        let first = try await DevProvisioning.ensureDevApplication(in: database, pinnedConfigId: nil, now: Date())
        #expect(first == "cfg_dev")
        #expect(try await DevProvisioning.ensureDevApplication(in: database, pinnedConfigId: nil, now: Date()) == "cfg_dev")
        await database.shutdown()
    }

    @Test func aPinnedConfigIDWins() async throws {
        let database = try await migratedDatabase()
        #expect(try await DevProvisioning.ensureDevApplication(in: database, pinnedConfigId: "cfg_pinned", now: Date()) == "cfg_pinned")
        // Without a pin afterwards: the dev application there is.
        #expect(try await DevProvisioning.ensureDevApplication(in: database, pinnedConfigId: nil, now: Date()) == "cfg_pinned")
        await database.shutdown()
    }
}
