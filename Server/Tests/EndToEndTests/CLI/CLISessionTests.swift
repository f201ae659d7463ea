import Foundation
import KeywayProtocol
import KeywayTestSupport
import Testing

/// `keyway token`, `whoami` and `logout` on the session `keyway login` stored.
@Suite("keyway session commands")
struct CLISessionTests {
    @Test func loginThenTokenWhoAmIAndLogout() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let home = TestFiles.directory.appendingPathComponent("keyway-cli-\(UUID().uuidString)").path
            let environment = ["KEYWAY_CONFIG_ID": TestServer.configId, "KEYWAY_HOME": home]
            let url = server.baseURL.absoluteString
            func run(_ arguments: [String]) async throws -> CLIProcess {
                let cli = try CLIProcess(arguments: arguments + ["--server", url], environment: environment)
                cli.closeInput()
                _ = try await cli.waitForExit()
                return cli
            }

            let signedOut = try await run(["token"])
            #expect(signedOut.exitStatus != 0)
            #expect(signedOut.standardError.contains("keyway login"))

            let login = try CLIProcess(arguments: ["login", "--server", url, "session@example.com"], environment: environment)
            var code: String?
            for _ in 0..<500 where code == nil {
                code = try await server.outbox(to: "session@example.com").last?.code
                if code == nil { try await Task.sleep(for: .milliseconds(20)) }
            }
            login.type(try #require(code))
            #expect(try await login.waitForExit() == 0, "stderr: \(login.standardError)")
            // The stored session is encrypted at rest.
            let stored = try Data(contentsOf: URL(fileURLWithPath: home).appendingPathComponent("cli.kwstore"))
            #expect(!String(decoding: stored, as: UTF8.self).contains("krt_"))

            let token = try await run(["token"])
            #expect(token.exitStatus == 0, "stderr: \(token.standardError)")
            let accessToken = token.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(accessToken.split(separator: ".").count == 3)
            let userInfo = try await server.request("GET", "/oauth2/userinfo", headers: ["Authorization": "Bearer \(accessToken)"])
            #expect(userInfo.status == 200)

            let whoami = try await run(["whoami"])
            #expect(whoami.standardOutput.hasPrefix("session@example.com (usr_"))

            // The server of the sign-in is remembered: no --server needed afterwards…
            let remembered = try CLIProcess(arguments: ["whoami"], environment: environment)
            remembered.closeInput()
            #expect(try await remembered.waitForExit() == 0, "stderr: \(remembered.standardError)")
            #expect(remembered.standardOutput.hasPrefix("session@example.com (usr_"))
            // …and KEYWAY_SERVER names another one for a command (unreachable here).
            var elsewhere = environment
            elsewhere["KEYWAY_SERVER"] = "http://127.0.0.1:9"
            let other = try CLIProcess(arguments: ["whoami"], environment: elsewhere)
            other.closeInput()
            #expect(try await other.waitForExit() != 0)
            #expect(other.standardError.contains("http://127.0.0.1:9"), "stderr: \(other.standardError)")

            let logout = try await run(["logout"])
            #expect(logout.exitStatus == 0)
            #expect(logout.standardError.contains("Signed out."))
            let revoked = try await server.request("GET", "/oauth2/userinfo", headers: ["Authorization": "Bearer \(accessToken)"])
            #expect(revoked.status == 401)
            let after = try await run(["token"])
            #expect(after.exitStatus != 0)
        }
    }
}
