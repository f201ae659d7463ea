import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import KeywayUI
import Testing

@Suite("Sign-in links in the screen model and the CLI")
struct SignInLinkClientTests {
    /// Approves the sign-in of `link` in another browser.
    static func approve(_ link: URL, _ harness: AdaptiveHarness) async throws {
        let phone = PageAgent(server: harness.server)
        let question = try await phone.submit(try #require(try await phone.open(link.path).form(link.path)))
        let approved = try await phone.submit(try #require(question.form(link.path, ["decision": "approve"])))
        #expect(approved.status == 200)
    }

    @MainActor
    @Test func theScreenModelCompletesWhenTheLinkIsApprovedElsewhere() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: SignInLinkTests.policy)) { harness in
            let keyway = try harness.sdk()
            let session = keyway.session
            let model = KeywayScreenModel(keyway: keyway)
            await model.start(identifier: SignInLinkTests.email)
            #expect(model.screen.kind == .step(.enterCode))
            #expect(model.screen.isWaiting)
            #expect(model.screen.messages.contains { $0.code == "linkSent" })
            #expect(model.screen.inputs.map(\.name) == ["code"])

            // A mistyped code: refused, and the screen still waits for the link.
            let right = try await harness.server.latestCode(to: SignInLinkTests.email)
            model.values["code"] = right == "000000" ? "111111" : "000000"
            await model.perform(try #require(model.screen.primaryAction))
            #expect(model.screen.banner?.code == .invalidCode)
            #expect(model.screen.isWaiting)

            // As a screen does: follow the flow while the code screen shows.
            let waiting = Task { await model.waitForFlow() }
            try await Self.approve(try await SignInLinkTests.link(to: SignInLinkTests.email, harness), harness)
            try await waitUntil("the screen model redeemed the sign-in") {
                harness.clock.advance(by: 0.05)
                return model.tokens != nil
            }
            await waiting.value
            #expect(model.screen.kind == .completed)
            #expect(try await session.tokens()?.idToken.subject == model.tokens?.idToken.subject)
            #expect(model.tokens?.idToken.authenticationMethods == ["otp"])
        }
    }

    @MainActor
    @Test func theScreenModelOpensALinkOnTheSameDevice() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: SignInLinkTests.policy)) { harness in
            let model = KeywayScreenModel(keyway: try harness.sdk { $0.autoPollApprovals = false })
            await model.start(identifier: SignInLinkTests.email)
            let link = try await SignInLinkTests.link(to: SignInLinkTests.email, harness)
            await model.openLink(link)
            #expect(model.screen.kind == .completed, "got \(model.screen)")
            #expect(model.tokens != nil)
        }
    }

    static func login(_ harness: AdaptiveHarness, email: String) throws -> CLIProcess {
        try CLIProcess(
            arguments: ["login", "--server", harness.server.baseURL.absoluteString, "--json", email],
            environment: ["KEYWAY_CONFIG_ID": TestServer.configId])
    }

    /// Waits until the CLI exits, moving the server's clock along so its polls are never too fast.
    static func exit(_ cli: CLIProcess, clock: ManualClock) async throws -> Int32 {
        try await waitUntil("the CLI exited", timeout: .seconds(120)) {
            clock.advance(by: 0.05)
            return cli.exitStatus != nil
        }
        return try await cli.waitForExit()
    }

    @Test func theCLISignsInWhenTheLinkIsApprovedOnAnotherDevice() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: SignInLinkTests.policy)) { harness in
            let cli = try Self.login(harness, email: "cli-link@example.com")
            try await cli.waitForError(containing: "Code or link", timeout: .seconds(90))
            #expect(cli.standardError.contains("We sent a sign-in link and a 6-digit code"))
            try await Self.approve(try await SignInLinkTests.link(to: "cli-link@example.com", harness), harness)
            let status = try await Self.exit(cli, clock: harness.clock)
            #expect(status == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardOutput.contains("id_token"))
        }
    }

    @Test func theCLITakesThePastedLinkOrTheCode() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: SignInLinkTests.policy)) { harness in
            // The link, pasted: after a mistyped code, which the server refuses.
            let cli = try Self.login(harness, email: "paste@example.com")
            try await cli.waitForError(containing: "Code or link", timeout: .seconds(90))
            let code = try await harness.server.latestCode(to: "paste@example.com")
            cli.type(code == "000000" ? "111111" : "000000")
            try await cli.waitForError(containing: "[invalid_code]", timeout: .seconds(90))
            cli.type(try await SignInLinkTests.link(to: "paste@example.com", harness).absoluteString)
            let status = try await Self.exit(cli, clock: harness.clock)
            #expect(status == 0, "stderr: \(cli.standardError)")
            #expect(cli.standardOutput.contains("id_token"))

            // The code, typed.
            let typed = try Self.login(harness, email: "typed@example.com")
            try await typed.waitForError(containing: "Code or link", timeout: .seconds(90))
            typed.type(try await harness.server.latestCode(to: "typed@example.com"))
            #expect(try await Self.exit(typed, clock: harness.clock) == 0, "stderr: \(typed.standardError)")
        }
    }
}
