import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// The schema as an operator manages it: `keyway-server migrate` and `migrate status`, a server
/// started with `--no-migrate`, and a database a newer Keyway migrated, which is refused.
@Suite("keyway-server migrate, --no-migrate and a newer schema")
struct SchemaCommandTests {
    func keywayServer(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        let executable = try CLIProcess.executable(named: "keyway-server").path
        let result = try await ChildProcess.run(executable, arguments)
        return (result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.errors, as: UTF8.self))
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Adds the row a newer Keyway's migration would have left, with an independent SQLite client.
    func markNewerMigration(_ path: String, version: Int) async throws {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("INSERT INTO keyway_migrations (version, name, applied_at) VALUES (?, 'from the future', 0)", (int(sys.argv[2]),))
            db.commit()
            """
        let result = try await ChildProcess.run("/usr/bin/env", ["python3", "-c", script, path, String(version)])
        #expect(result.status == 0, "\(String(decoding: result.errors, as: UTF8.self))")
    }

    @Test func migrateAppliesWhatIsPendingAndStatusSaysSo() async throws {
        let (folder, database) = ServeCommandTests.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A new database: every migration pending, exit status 1.
        let before = try await keywayServer(["migrate", "status", "--database", database])
        #expect(before.status == 1)
        let pending = try #require(try json(before.output)["pending"] as? [Int])
        let latest = try #require(try json(before.output)["latestKnown"] as? Int)
        #expect(pending == Array(1...latest))
        let migrated = try await keywayServer(["migrate", "--database", database])
        #expect(migrated.status == 0, "\(migrated.errors)")
        #expect(try json(migrated.output)["applied"] as? [Int] == pending)
        let after = try await keywayServer(["migrate", "status", "--database", database])
        #expect(after.status == 0)
        let afterStatus = try json(after.output)
        #expect(afterStatus["pending"] as? [Int] == [] && afterStatus["applied"] as? [Int] == pending)
        // Nothing to do a second time.
        #expect(try json(try await keywayServer(["migrate", "--database", database]).output)["applied"] as? [Int] == [])

        // A server started with --no-migrate runs on it.
        let (server, _) = try await ServeCommandTests.serve(["--database", database, "--no-migrate"])
        await server.stop()
    }

    @Test func aServerStartedWithoutMigratingRefusesADatabaseThatNeedsIt() async throws {
        let (_, database) = ServeCommandTests.temporaryFolder()
        let refused = try CLIProcess(
            arguments: ["serve", "--port", "0", "--database", database, "--no-migrate"], executable: "keyway-server")
        #expect(try await refused.waitForExit() != 0)
        #expect(refused.standardError.contains("run keyway-server migrate first"), "\(refused.standardError)")
        #expect(!refused.standardError.contains("listening on"))
    }

    @Test func aDatabaseANewerKeywayMigratedIsRefusedUnlessAllowed() async throws {
        let (folder, database) = ServeCommandTests.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(try await keywayServer(["migrate", "--database", database]).status == 0)
        try await markNewerMigration("\(folder)/keyway.sqlite", version: 9_999)

        let status = try await keywayServer(["migrate", "status", "--database", database])
        let unknown = try json(status.output)["unknown"] as? [Int]
        #expect(status.status == 1 && unknown == [9_999])
        let migrate = try await keywayServer(["migrate", "--database", database])
        #expect(migrate.status == 1)
        #expect(migrate.errors.contains("newer Keyway") && migrate.errors.contains("9999"), "\(migrate.errors)")
        // The administration commands refuse it too: they would write with an older idea of it.
        #expect(try await keywayServer(["project", "list", "--database", database]).status != 0)
        // serve refuses to start, naming both versions, with or without migrating…
        for extra in [[], ["--no-migrate"]] {
            let refused = try CLIProcess(
                arguments: ["serve", "--port", "0", "--database", database] + extra, executable: "keyway-server")
            #expect(try await refused.waitForExit() != 0)
            #expect(refused.standardError.contains("9999") && refused.standardError.contains("--allow-newer-schema"), "\(refused.standardError)")
        }
        // …unless the operator says the newer schema works with this version.
        let (server, port) = try await ServeCommandTests.serve(["--database", database, "--allow-newer-schema"])
        let health = try await RawHTTPClient.send(method: "GET", host: "127.0.0.1", port: port, path: "/health/ready", headers: [:], body: nil)
        #expect(health.status == 200)
        await server.stop()
    }
}
