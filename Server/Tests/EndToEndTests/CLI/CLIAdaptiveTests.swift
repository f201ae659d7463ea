import Foundation
import KeywayProtocol
import KeywayTestSupport
import Testing

/// The `keyway` CLI walking adaptive flows as a real process against the real server.
@Suite("keyway signup, account, logout and login through adaptive steps")
struct CLIAdaptiveTests {
    @Test func signUpWithAnAuthenticatorSignOutThenSignInWithIt() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["emailOtp"], "mfaMethods": ["totp"], "mfaMode": "required",
            "flowTypes": ["signin", "signup"],
        ])) { harness in
            let server = harness.server
            let home = TestFiles.directory.appendingPathComponent("keyway-cli-\(UUID().uuidString)").path
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
            try await signup.waitForError(containing: "otpauth://")
            let line = try #require(
                signup.standardError.split(separator: "\n").first { $0.hasPrefix("otpauth://") })
            let uri = try #require(URLComponents(string: String(line)))
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

    @Test func signUpThroughTheFormAndPasswordThenAddAPhoneInAccountManagement() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: [
            "primaryMethods": ["emailOtp", "password"], "mfaMethods": ["smsOtp"], "mfaMode": "optional",
            "flowTypes": ["signin", "signup", "accountManage"],
            "signup": [
                "termsOfServiceURL": "https://example.com/terms",
                "profileFields": [
                    ["name": "displayName", "kind": "text", "label": "Name", "required": true],
                    ["name": "plan", "kind": "select", "label": "Plan", "required": true, "options": ["free", "team"]],
                ],
            ],
        ])) { harness in
            let server = harness.server
            let home = TestFiles.directory.appendingPathComponent("keyway-cli-\(UUID().uuidString)").path
            let environment = ["KEYWAY_CONFIG_ID": TestServer.configId, "KEYWAY_HOME": home]
            let url = server.baseURL.absoluteString
            let email = "form@example.com"

            func code(to recipient: String, count: Int) async throws -> String {
                for _ in 0..<1000 {
                    let messages = try await server.outbox(to: recipient)
                    if messages.count >= count, let code = messages.last?.code { return code }
                    try await Task.sleep(for: .milliseconds(20))
                }
                throw TestFailure("No code reached \(recipient).")
            }

            // Sign up: the code, the form (a text field, a select, the terms), the password, and the
            // optional second factor skipped.
            let signup = try CLIProcess(arguments: ["signup", "--server", url, email], environment: environment)
            signup.type(try await code(to: email, count: 1))
            try await signup.waitForError(containing: "Name")
            signup.type("Ada")
            try await signup.waitForError(containing: "Choose 1-2")
            signup.type("3")
            signup.type("2")
            try await signup.waitForError(containing: "(y/n)")
            signup.type("y")
            try await signup.waitForError(containing: "assword")
            signup.type("cli-form-passphrase-1")
            try await signup.waitForError(containing: "'s' to skip")
            signup.type("s")
            #expect(try await signup.waitForExit() == 0, "stderr: \(signup.standardError)")
            #expect(signup.standardError.contains("✕ Choose one of: free, team."))
            #expect(try await server.rowCount("user_profiles WHERE data LIKE '%team%'") == 1)

            // Account management: add an SMS phone number (adding needs no re-verification), then done.
            let account = try CLIProcess(arguments: ["account", "--server", url], environment: environment)
            // The whole menu, up to its prompt.
            try await account.waitForError(containing: "Choose 1")
            #expect(account.standardError.contains("Set up or change the SMS phone number"))
            let lines = account.standardError.split(separator: "\n")
            let setupLine = try #require(lines.first { $0.contains("Set up or change the SMS phone number") })
            let number = String(setupLine.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
            account.type(number)
            try await account.waitForError(containing: "Phone number for codes by SMS")
            account.type("not a phone")
            try await account.waitForError(containing: "international form")
            account.type("+14155550166")
            account.type(try await code(to: "+14155550166", count: 1))
            // The menu printed again after the message, not the one before it.
            let menu = try await account.waitForError(containing: "Choose 1", after: "Your phone number is verified.")
            let done = try #require(menu.split(separator: "\n").last { $0.contains(". Done") })
            let sentBefore = try await server.outbox(to: email).count
            account.type(String(done.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }))
            // Finishing mints new tokens, so the user confirms who they are first.
            let confirm = try await account.waitForError(containing: "Choose 1", after: "Confirm it is you:")
            let emailChoice = try #require(confirm.split(separator: "\n").last { $0.contains("Email a code") })
            account.type(String(emailChoice.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber }))
            account.type(try await code(to: email, count: sentBefore + 1))
            #expect(try await account.waitForExit() == 0, "stderr: \(account.standardError)")
            #expect(try await server.rowCount("users WHERE phone = '+14155550166' AND phone_verified = 1") == 1)
        }
    }
}
