import Foundation
import KeywayTestSupport
import Logging
import Testing

@testable import KeywayServer

@Suite("Backend roles in storage")
struct BackendRoleStorageTests {
    @Test func storedListsParseAndUnknownNamesAreIgnored() {
        #expect(BackendRole.parse("") == [])
        #expect(BackendRole.parse("introspection powerauth") == [.introspection, .powerAuth])
        #expect(BackendRole.parse("powerauth later-role") == [.powerAuth])
        #expect(BackendRole.stored([.powerAuth, .introspection]) == "introspection powerauth")
    }

    /// Confidential applications the administrators made could use the backend routes before
    /// roles existed: migration 26 gives them both, so an upgrade cuts no backend off; a
    /// registered client and a public application get none.
    @Test func migration26GrantsBothRolesToTheAdministratorsConfidentialApplicationsOnly() async throws {
        let path = TestFiles.directory.appendingPathComponent("keyway-roles-\(UUID().uuidString)/db.sqlite").path
        let database = try await SQLiteDatabase.open(path: path, logger: Logger(label: "test"))
        try await Migrations.apply(to: database, now: Date(), through: 25)
        try await database.write { repositories in
            try await repositories.sql.raw("INSERT INTO projects (id, name, is_dev, created_at) VALUES ('prj_1', 'Bank', 0, 1)").run()
            for (id, type, firstParty) in [("app_backend", "confidential", 1), ("app_registered", "confidential", 0), ("app_mobile", "public", 1)] {
                try await repositories.sql.raw(
                    """
                    INSERT INTO applications (id, project_id, config_id, name, client_type, flow_types, created_at, first_party)
                    VALUES (\(bind: id), 'prj_1', \(bind: "cfg_" + id), \(bind: id), \(bind: type), 'signin', 1, \(bind: Int64(firstParty)))
                    """
                ).run()
            }
        }
        #expect(try await Migrations.apply(to: database, now: Date(), through: 26) == [26])
        // The later migrations, so today's code reads the rows.
        try await Migrations.apply(to: database, now: Date())
        let roles = try await database.read { repositories in
            try await repositories.applications.all().reduce(into: [String: Set<BackendRole>]()) { $0[$1.id] = $1.backendRoles }
        }
        #expect(roles == ["app_backend": [.powerAuth, .introspection], "app_registered": [], "app_mobile": []])
        await database.shutdown()
    }
}
