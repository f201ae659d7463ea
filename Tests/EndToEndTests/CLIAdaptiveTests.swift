import Foundation
import KeywayProtocol
import Testing

/// The `keyway` CLI walking adaptive flows as a real process against the real server.
@Suite("keyway signup, logout and login with an authenticator")
struct CLIAdaptiveTests {
    @Test func signUpWithAnAuthenticatorSignOutThenSignInWithIt() async throws {
        let harness = try await AdaptiveHarness.start(policy: [
            "primaryMethods": ["emailOtp"], "mfaMethods": ["totp"], "mfaMode": "required",
            "flowTypes": ["signin", "signup"],
        ])
        let server = harness.server
        defer { Task { await server.stop() } }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("keyway-cli-\(UUID().uuidString)").path
        let environment = ["KEYWAY_CONFIG_ID": TestServer.configId, "KEYWAY_HOME": home]
        let url = server.baseURL.absoluteString
        let email = "terminal@example.com"

        func code(count: Int) async throws -> String {
            for _ in 0..<1000 {
                let messages = try await server.outbox(to: email)
                if messages.count >= count, let code = messages.last?.code { return code }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw TestFailure("No code reached \(email).")
        }

        // Sign up: the email code, then the authenticator set-up the policy requires.
        let signup = try CLIProcess(arguments: ["signup", "--server", url, email], environment: environment)
        signup.type(try await code(count: 1))
        try await signup.waitForError(containing: "otpauth: ")
        let line = try #require(
            signup.standardError.split(separator: "\n").first { $0.contains("otpauth: ") })
        let uri = try #require(URLComponents(string: String(line[line.range(of: "otpauth: ")!.upperBound...])))
        let secret = try #require(uri.queryItems?.first { $0.name == "secret" }?.value)
        #expect(uri.scheme == "otpauth")
        #expect(uri.host == "totp")
        signup.type(TestAuthenticator.code(secret: secret, at: harness.clock.now()))
        #expect(try await signup.waitForExit() == 0, "stderr: \(signup.standardError)")

        // Sign out.
        let logout = try CLIProcess(arguments: ["logout", "--server", url], environment: environment)
        logout.closeInput()
        #expect(try await logout.waitForExit() == 0, "stderr: \(logout.standardError)")
        #expect(logout.standardError.contains("Signed out."))

        // Sign in: the email code, then the authenticator (the next period's code; the first
        // one was used at enrolment and would be refused as a replay).
        let login = try CLIProcess(arguments: ["login", "--server", url, email], environment: environment)
        login.type(try await code(count: 2))
        try await login.waitForError(containing: "Second factor")
        login.type(TestAuthenticator.code(secret: secret, at: harness.clock.now(), offsetSteps: 1))
        #expect(try await login.waitForExit() == 0, "stderr: \(login.standardError)")
        #expect(login.standardError.contains("Signed in as \(email)."))
        #expect(try await server.rowCount("users") == 1)
    }
}
