import Foundation
import KeywayTestSupport
import Logging
import Testing

@testable import KeywayServer

/// The theme the admin service stores is what the hosted pages read: `projects.theme` decodes as a
/// ``HostedTheme``; and a migrated registration token keeps working under an ID of its own.
@Suite("Admin storage: project themes and registration tokens")
struct AdminProjectThemeStorageTests {
    /// The admin service over a fresh SQLite database.
    func openService() async throws -> AdminService {
        let path = TestFiles.directory.appendingPathComponent("keyway-admin-\(UUID().uuidString)/db.sqlite").path
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return try await AdminService.open(.sqlite(path: path), devMode: true, logger: logger)
    }

    @Test func theStoredThemeDecodesAsAHostedTheme() async throws {
        let service = try await openService()
        do {
            let created = try await service.createApplication(name: "Acme")
            #expect(try await service.theme(projectId: created.projectId) == HostedTheme(name: "Acme"))
            _ = try await service.updateProjectTheme(
                projectId: created.projectId,
                UpdateThemeRequest(name: "Acme Notes", logoUrl: "https://cdn.acme.example/logo.svg", primaryColor: "#ABCDEF"))
            let stored = try await service.database.read {
                try await $0.applications.theme(projectId: created.projectId)
            }
            let json = try #require(stored)
            let decoded = try JSONDecoder().decode(HostedTheme.self, from: Data(json.utf8))
            let expected = HostedTheme(name: "Acme Notes", logoURL: "https://cdn.acme.example/logo.svg", primaryColor: "#abcdef")
            #expect(decoded == expected)
            #expect(json.contains("\"logoURL\""))
            #expect(HostedTheme.decode(json: json) == expected)
            #expect(try HostedTheme.decode(json: expected.encoded()) == expected)
            #expect(HostedTheme.decode(json: "not json") == nil && HostedTheme.decode(json: nil) == nil)
            #expect(try await service.theme(projectId: created.projectId) == expected)
            await #expect(throws: AdminError.projectNotFound(projectId: "prj_nope")) {
                _ = try await service.theme(projectId: "prj_nope")
            }
        } catch {
            await service.close()
            throw error
        }
        await service.close()
    }

    @Test func themeRules() {
        #expect(HostedTheme.normalizedColor("#A1b2C3") == "#a1b2c3")
        for bad in ["a1b2c3", "#a1b2c", "#a1b2c3d", "#a1b2cg", "#１２３４５６", ""] {
            #expect(HostedTheme.normalizedColor(bad) == nil, "\(bad)")
        }
        #expect(HostedTheme.problem(withURL: "https://cdn.example.com/a.css?v=2") == nil)
        for bad in ["http://cdn.example.com/a.css", "https://", "//cdn.example.com/a.css", "data:text/css,x", "https://a b"] {
            #expect(HostedTheme.problem(withURL: bad) != nil, "\(bad)")
        }
        #expect(HostedTheme.problem(withName: "Acme") == nil)
        #expect(HostedTheme.problem(withName: "") != nil)
    }

    @Test func aTokenIssuedBeforeMigration19GetsAnIDAndStillRegisters() async throws {
        let path = TestFiles.directory.appendingPathComponent("keyway-admin-\(UUID().uuidString)/db.sqlite").path
        let database = try await SQLiteDatabase.open(path: path, logger: Logger(label: "test"))
        do {
            try await Migrations.apply(to: database, now: Date(), through: 18)
            try await database.write { repositories in
                let projectId = try await repositories.applications.ensureDevProject(createdAt: 1)
                // The columns of migration 18 (the repository writes those of the latest one).
                try await repositories.sql.raw(
                    """
                    INSERT INTO applications (id, project_id, config_id, name, client_type, flow_types, auto_create_users,
                        is_dev, created_at)
                    VALUES ('app_t', \(bind: projectId), 'cfg_t', 'T', 'public', 'signin', 1, 1, 1)
                    """
                ).run()
                try await repositories.sql.raw(
                    """
                    INSERT INTO registration_tokens (token_hash, template_application_id, created_at, expires_at)
                    VALUES ('0123456789abcdef0123456789abcdef', 'app_t', 1, NULL)
                    """
                ).run()
            }
            #expect(try await Migrations.apply(to: database, now: Date(), through: 19) == [19])
            let entries = try await database.read { try await $0.registrationTokens.entries(templateApplicationId: "app_t") }
            #expect(entries.map(\.id) == ["rit_0123456789abcdef01234567"])
            #expect(entries.first?.registeredClients == 0)
            let template = try await database.read {
                try await $0.registrationTokens.template(hash: "0123456789abcdef0123456789abcdef", now: 2)
            }
            #expect(template == "app_t")
        } catch {
            await database.shutdown()
            throw error
        }
        await database.shutdown()
    }
}
