import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("keyway-server project and admin subcommands")
struct AdminCommandTests {
    /// Runs the built `keyway-server` with `arguments` against `database`.
    func run(_ arguments: [String], database: String) async throws -> (status: Int32, output: String, errors: String) {
        let executable = try CLIProcess.executable(named: "keyway-server").path
        let result = try await ChildProcess.run(executable, arguments + ["--database", database])
        return (result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.errors, as: UTF8.self))
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func updatesAnApplicationsIDTokenAlgorithmAndCORSOrigins() async throws {
        let database = TestServer.temporaryDatabase()
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: database).deletingLastPathComponent(), withIntermediateDirectories: true)
        let created = try await run(["project", "create", "--name", "SPA"], database: database)
        let configId = try #require(try json(created.output)["configId"] as? String)
        let shown = try await run(["project", "show", configId], database: database)
        #expect(shown.status == 0)
        // RS256, OpenID Connect's default, until set otherwise.
        #expect(try json(shown.output)["idTokenSignedResponseAlg"] as? String == "RS256")

        let updated = try await run(
            [
                "project", "update", configId, "--id-token-alg", "ES256", "--cors-origin", "https://spa.example",
                "--cors-origin", "http://localhost:5173",
            ], database: database)
        #expect(updated.status == 0, "\(updated.errors)")
        let application = try json(updated.output)
        #expect(application["idTokenSignedResponseAlg"] as? String == "ES256")
        #expect(application["corsOrigins"] as? [String] == ["http://localhost:5173", "https://spa.example"])

        let refused = try await run(["project", "update", configId, "--cors-origin", "https://spa.example/"], database: database)
        #expect(refused.status == 1 && refused.errors.contains("corsOrigins"), "\(refused.errors)")
        let cleared = try await run(["project", "update", configId, "--no-cors-origins"], database: database)
        #expect(try json(cleared.output)["corsOrigins"] as? [String] == [])
        // Only the origins changed: the algorithm set above stays.
        #expect(try json(cleared.output)["idTokenSignedResponseAlg"] as? String == "ES256")
        let nothing = try await run(["project", "update", configId], database: database)
        #expect(nothing.status != 0)
    }

    @Test func administersADatabaseFile() async throws {
        let database = TestServer.temporaryDatabase()
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: database).deletingLastPathComponent(), withIntermediateDirectories: true)

        let created = try await run(["project", "create", "--name", "Shop", "--confidential"], database: database)
        #expect(created.status == 0, "\(created.errors)")
        let application = try json(created.output)
        let configId = try #require(application["configId"] as? String)
        #expect((application["clientSecret"] as? String)?.hasPrefix("kcs_") == true)

        let listed = try await run(["project", "list"], database: "sqlite:\(database)")
        #expect(listed.status == 0)
        let applications = try #require(try json(listed.output)["applications"] as? [[String: Any]])
        #expect(applications.map { $0["configId"] as? String } == [configId])

        let shown = try await run(["project", "policy", "show", configId], database: database)
        #expect(shown.status == 0)
        #expect(try json(shown.output)["primaryMethods"] as? [String] == ["emailOtp"])

        let folder = URL(fileURLWithPath: database).deletingLastPathComponent()
        let good = folder.appendingPathComponent("policy.json")
        try Data(#"{"primaryMethods": ["password", "emailOtp"], "flowTypes": ["signin", "signup"], "signup": {"requireInviteCode": true}}"#.utf8)
            .write(to: good)
        let set = try await run(["project", "policy", "set", configId, "--file", good.path], database: database)
        #expect(set.status == 0, "\(set.errors)")
        #expect(try json(set.output)["flowTypes"] as? [String] == ["signin", "signup"])
        #expect(set.errors.contains("Policy saved for \(configId)."))

        let lockOut = folder.appendingPathComponent("lockout.json")
        try Data(#"{"primaryMethods": ["password"], "flowTypes": ["signin"]}"#.utf8).write(to: lockOut)
        let refused = try await run(["project", "policy", "set", configId, "--file", lockOut.path], database: database)
        #expect(refused.status == 1)
        #expect(refused.errors.contains("policy_locks_out_users"))
        #expect(refused.errors.contains("lock every user out"))
        let sms = folder.appendingPathComponent("sms.json")
        try Data(#"{"primaryMethods": ["smsOtp"]}"#.utf8).write(to: sms)
        let production = try await run(["project", "policy", "set", configId, "--file", sms.path, "--production"], database: database)
        #expect(production.status == 1)
        #expect(production.errors.contains("sms_delivery_missing"))
        let unchanged = try await run(["project", "policy", "show", configId], database: database)
        #expect(try json(unchanged.output)["primaryMethods"] as? [String] == ["password", "emailOtp"])

        let invite = try await run(["project", "invite", configId, "--expires-in", "3600"], database: database)
        #expect(invite.status == 0)
        #expect((try json(invite.output)["code"] as? String)?.hasPrefix("inv_") == true)
        #expect(try json(invite.output)["expiresAt"] as? String != nil)

        let start = try await run(
            ["project", "start-token", configId, "--flow-type", "signin", "--identifier", "a@b.example"], database: database)
        #expect(start.status == 0, "\(start.errors)")
        #expect((try json(start.output)["startToken"] as? String)?.hasPrefix("kst_") == true)

        let unknown = try await run(["project", "invite", "cfg_nope"], database: database)
        #expect(unknown.status == 1)
        #expect(unknown.errors.contains("No application has the config ID cfg_nope."))

        let rotated = try await run(["admin", "rotate-token"], database: database)
        #expect(rotated.status == 0)
        let token = try #require(
            rotated.output.split(separator: " ").first { $0.hasPrefix("kad_") }.map(String.init))
        #expect(rotated.output.contains("shown once"))

        // The server started on the same file accepts the rotated token.
        try await withTestServer(TestServer.start(database: .sqlite(path: database), clock: ManualClock())) { server in
            #expect(server.app.createdAdminToken == nil)
            let answer = try await server.request("GET", "/admin/applications", headers: ["Authorization": "Bearer \(token)"])
            #expect(answer.status == 200)
        }
    }
}
