import Foundation
import KeywayTestSupport
import Testing

/// The `keyway` CLI binary, run as a real process against the real server.
@Suite("keyway login in the terminal")
struct CLITests {
    private func login(_ server: TestServer, email: String, json: Bool = true) throws -> CLIProcess {
        var arguments = ["login", "--server", server.baseURL.absoluteString]
        if json { arguments.append("--json") }
        arguments.append(email)
        return try CLIProcess(arguments: arguments, environment: ["KEYWAY_CONFIG_ID": TestServer.configId])
    }

    /// Waits until the dev outbox holds `count` messages to `email` and returns the latest code.
    private func code(_ server: TestServer, to email: String, count: Int = 1) async throws -> String {
        for _ in 0..<1000 {
            let messages = try await server.outbox(to: email)
            if messages.count >= count, let code = messages.last?.code { return code }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("No code reached \(email).")
    }

    private func wrongCode(besides code: String) -> String {
        code == "000000" ? "111111" : "000000"
    }

    @Test func aRequestTimeoutOutsideItsRangeIsRefusedBeforeAnyRequest() async throws {
        let option = try CLIProcess(arguments: ["whoami", "--server", "http://127.0.0.1:9", "--request-timeout", "0"])
        #expect(try await option.waitForExit() != 0)
        #expect(option.standardError.contains("--request-timeout is 1 to 600 seconds."), "stderr: \(option.standardError)")
        let environment = try CLIProcess(
            arguments: ["whoami", "--server", "http://127.0.0.1:9"], environment: ["KEYWAY_REQUEST_TIMEOUT": "soon"])
        #expect(try await environment.waitForExit() != 0)
        #expect(
            environment.standardError.contains("KEYWAY_REQUEST_TIMEOUT is a number of seconds, 1 to 600."),
            "stderr: \(environment.standardError)")
    }

    @Test func jsonSignInPrintsOnlyTheVerifiedTokenResponse() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let cli = try login(server, email: "cli@example.com")
            let code = try await code(server, to: "cli@example.com")
            cli.type(code)
            let status = try await cli.waitForExit()
            #expect(status == 0, "stderr: \(cli.standardError)")
            let json = try JSONSerialization.jsonObject(with: Data(cli.standardOutput.utf8)) as? [String: Any]
            #expect(json?["token_type"] as? String == "Bearer")
            #expect((json?["id_token"] as? String)?.split(separator: ".").count == 3)
            #expect((json?["access_token"] as? String)?.isEmpty == false)
            #expect(json?["refresh_token"] is String)
            #expect(cli.standardError.contains("Verify your email"))
            #expect(cli.standardError.contains("c•••@example.com") || cli.standardError.contains("cli@example.com"))
        }
    }

    @Test func plainSignInShowsTheSubjectAndExpiry() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let cli = try login(server, email: "plain@example.com", json: false)
            cli.type(try await code(server, to: "plain@example.com"))
            let status = try await cli.waitForExit()
            #expect(status == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardOutput.isEmpty)
            #expect(cli.standardError.contains("Signed in as plain@example.com."))
            #expect(cli.standardError.contains("Subject:"))
            #expect(cli.standardError.contains("Access token expires at"))
        }
    }

    @Test func wrongCodeThenRightCode() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let cli = try login(server, email: "typo@example.com")
            let code = try await code(server, to: "typo@example.com")
            cli.type(wrongCode(besides: code))
            try await cli.waitForError(containing: "[invalid_code]")
            cli.type(code)
            let status = try await cli.waitForExit()
            #expect(status == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains("You have 4 attempts left."))
            #expect(cli.standardOutput.contains("id_token"))
        }
    }

    @Test func resendTooEarlyTellsHowLongToWait() async throws {
        // The CLI runs on the real clock, so the server's clock starts 28 seconds in the past:
        // the cooldown then ends two real seconds after the first code, for both of them.
        let clock = ManualClock(Date().addingTimeInterval(-28))
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let cli = try login(server, email: "early@example.com")
            _ = try await code(server, to: "early@example.com")
            cli.type("resend")
            try await cli.waitForError(containing: "You can ask for a new code in")
            clock.advance(by: 31)
            try await Task.sleep(for: .milliseconds(2500))
            cli.type("resend")
            try await cli.waitForError(containing: "A new code is on its way.")
            let second = try await code(server, to: "early@example.com", count: 2)
            cli.type(second)
            let status = try await cli.waitForExit()
            #expect(status == 0, "stderr: \(cli.standardError)")
        }
    }

    @Test func resendTheServerFindsTooEarlyTellsToWaitOnTheSameScreen() async throws {
        // The server's clock is a minute behind: the CLI finds a new code due, the server does not.
        let clock = ManualClock(Date().addingTimeInterval(-60))
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let cli = try login(server, email: "cooldown@example.com")
            _ = try await code(server, to: "cooldown@example.com")
            cli.type("resend")
            try await cli.waitForError(containing: "You can ask for a new code in 1 second.")
            #expect(!cli.standardError.contains("Warning:"), "said as the wait, not as a note: \(cli.standardError)")
            #expect(cli.standardError.components(separatedBy: "Verify your email").count == 2, "the screen is not printed again")
            clock.advance(by: 31)
            cli.type("resend")
            try await cli.waitForError(containing: "A new code is on its way.")
            cli.type(try await code(server, to: "cooldown@example.com", count: 2))
            #expect(try await cli.waitForExit() == 0, "stderr: \(cli.standardError)")
        }
    }

    @Test func cancelAtThePromptExitsWithFailure() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let cli = try login(server, email: "quit@example.com")
            _ = try await code(server, to: "quit@example.com")
            cli.type("cancel")
            let status = try await cli.waitForExit()
            #expect(status != 0)
            #expect(cli.standardError.contains("Cancelled."))
            #expect(cli.standardOutput.isEmpty)
        }
    }

    @Test func expiredFlowSaysToStartOver() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let cli = try login(server, email: "late@example.com")
            let code = try await code(server, to: "late@example.com")
            clock.advance(by: 16 * 60)
            cli.type(code)
            let status = try await cli.waitForExit()
            #expect(status != 0)
            #expect(cli.standardError.contains("Run the command again to start over."), "stderr: \(cli.standardError)")
            #expect(cli.standardOutput.isEmpty)
        }
    }

    @Test func wrongConfigIdFailsClearly() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let cli = try CLIProcess(arguments: [
                "login", "--server", server.baseURL.absoluteString, "--config-id", "cfg_nope", "who@example.com",
            ])
            cli.closeInput()
            let status = try await cli.waitForExit()
            #expect(status != 0)
            #expect(cli.standardError.contains("[unknown_config_id]"), "stderr: \(cli.standardError)")
            #expect(cli.standardError.contains("Check the server URL and config ID."))
        }
    }

    @Test func serverDownFailsClearly() async throws {
        // A privileged port nothing listens on (the discard service's): the address of a server
        // that has stopped can be taken by a test running beside this one.
        let url = "http://127.0.0.1:9"
        let cli = try CLIProcess(
            arguments: ["login", "--server", url, "down@example.com"],
            environment: ["KEYWAY_CONFIG_ID": TestServer.configId])
        cli.closeInput()
        let status = try await cli.waitForExit()
        #expect(status != 0)
        #expect(cli.standardError.contains("could not reach the Keyway server"), "stderr: \(cli.standardError)")
        #expect(cli.standardOutput.isEmpty)
    }

    @Test func missingConfigIdIsAUsageError() async throws {
        let cli = try CLIProcess(arguments: ["login", "someone@example.com"])
        cli.closeInput()
        let status = try await cli.waitForExit()
        #expect(status != 0)
        #expect(cli.standardError.contains("--config-id"))
    }
}
