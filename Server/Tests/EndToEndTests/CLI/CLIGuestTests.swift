import Foundation
import KeywayProtocol
import KeywayTestSupport
import Testing

/// `keyway guest`, and `keyway signup` upgrading the guest session it keeps.
@Suite("keyway guest and the guest's sign-up in the terminal")
struct CLIGuestTests {
    /// Runs `keyway` commands against `server` with one state folder, as one user's machine.
    struct Machine {
        let server: TestServer
        let environment: [String: String]

        init(_ server: TestServer) {
            self.server = server
            let home = TestFiles.directory.appendingPathComponent("keyway-cli-\(UUID().uuidString)").path
            environment = ["KEYWAY_CONFIG_ID": TestServer.configId, "KEYWAY_HOME": home]
        }

        /// Starts `keyway ARGUMENTS --server URL`.
        func start(_ arguments: [String]) throws -> CLIProcess {
            try CLIProcess(arguments: arguments + ["--server", server.baseURL.absoluteString], environment: environment)
        }

        /// Runs a command that asks nothing, to its end.
        func run(_ arguments: [String]) async throws -> CLIProcess {
            let cli = try start(arguments)
            cli.closeInput()
            _ = try await cli.waitForExit()
            return cli
        }

        /// The code of the `count`th message to `email`, once it was sent.
        func code(to email: String, count: Int) async throws -> String {
            try await waitUntil("message \(count) reached \(email)") {
                (try? await server.outbox(to: email).count) ?? 0 >= count
            }
            return try await server.outbox(to: email)[count - 1].code
        }
    }

    @Test func aGuestSignsUpAndKeepsItsUserID() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: GuestTests.policy())) { harness in
            let machine = Machine(harness.server)
            let guest = try await machine.run(["guest"])
            #expect(guest.exitStatus == 0, "stderr: \(guest.standardError)")
            #expect(guest.standardError.contains("Signed in as a guest."))
            let whoami = try await machine.run(["whoami"])
            #expect(whoami.standardOutput.hasPrefix("guest (usr_"))
            let guestId = String(
                whoami.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst("guest (".count).dropLast())
            #expect(try await harness.server.rowCount("users WHERE is_anonymous = 1 AND id = '\(guestId)'") == 1)

            let signup = try machine.start(["signup", "new@example.com"])
            signup.type(try await machine.code(to: "new@example.com", count: 1))
            #expect(try await signup.waitForExit() == 0, "stderr: \(signup.standardError)")
            #expect(signup.standardError.contains("Signing up the guest \(guestId)."))
            #expect(signup.standardError.contains("Signed in as new@example.com."))
            #expect(signup.standardError.contains("Subject:        \(guestId)"))
            #expect(try await machine.run(["whoami"]).standardOutput.hasPrefix("new@example.com (\(guestId))"))
            #expect(try await harness.server.rowCount("users") == 1)
            #expect(try await harness.server.rowCount("users WHERE is_anonymous = 0 AND email = 'new@example.com'") == 1)

            // The session is no longer a guest's: a sign-up now is an ordinary one.
            let another = try machine.start(["signup", "--json", "second@example.com"])
            another.type(try await machine.code(to: "second@example.com", count: 1))
            #expect(try await another.waitForExit() == 0, "stderr: \(another.standardError)")
            #expect(!another.standardError.contains("Signing up the guest"))
            #expect(try await harness.server.rowCount("users") == 2)
        }
    }

    @Test func anExistingAccountIsChosenInTheTerminal() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: GuestTests.policy())) { harness in
            let server = harness.server
            let existing = try await GuestTests.signUp(try harness.sdk(), server, email: "ann@example.com")
            let machine = Machine(server)
            #expect(try await machine.run(["guest", "--json"]).standardOutput.contains("access_token"))
            let guestId = try await machine.run(["whoami"]).standardOutput

            // Staying a guest: the command ends well, the guest session stays.
            let stay = try machine.start(["signup", "ann@example.com"])
            stay.type(try await machine.code(to: "ann@example.com", count: 2))
            try await stay.waitForError(containing: "Stay a guest")
            #expect(stay.standardError.contains("already has an account"))
            #expect(stay.standardError.contains("1. Sign in to that account"))
            #expect(stay.standardError.contains("2. Stay a guest"))
            stay.type("2")
            #expect(try await stay.waitForExit() == 0, "stderr: \(stay.standardError)")
            #expect(stay.standardError.contains("You go on as a guest."))
            #expect(try await machine.run(["whoami"]).standardOutput == guestId)
            #expect(try await server.rowCount("users WHERE is_anonymous = 1") == 1)

            // Signing in instead: the existing account is the session's now.
            let signIn = try machine.start(["signup", "ann@example.com"])
            signIn.type(try await machine.code(to: "ann@example.com", count: 3))
            try await signIn.waitForError(containing: "Stay a guest")
            signIn.type("1")
            #expect(try await signIn.waitForExit() == 0, "stderr: \(signIn.standardError)")
            #expect(signIn.standardError.contains("Signed in as ann@example.com."))
            #expect(signIn.standardError.contains("You signed in to your existing account instead"))
            #expect(
                try await machine.run(["whoami"]).standardOutput.hasPrefix("ann@example.com (\(existing.idToken.subject))"))
            #expect(try await server.rowCount("users WHERE is_anonymous = 1") == 1)
        }
    }

    @Test func guestsTheApplicationDoesNotAllowAreRefused() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: GuestTests.policy(guests: ["enabled": false]))) { harness in
            let machine = Machine(harness.server)
            let refused = try await machine.run(["guest"])
            #expect(refused.exitStatus != 0)
            #expect(refused.standardError.contains("[guests_disabled]"))
            #expect(try await machine.run(["token"]).exitStatus != 0)
        }
    }
}
