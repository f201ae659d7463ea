import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayTestSupport
import Testing

@Suite("Sign-in links: a link and a code in one message, either completes the sign-in")
struct SignInLinkTests {
    static let email = "ann@example.com"
    static var policy: [String: Any] {
        ["primaryMethods": ["signInLink"], "flowTypes": ["signin"], "signInLink": ["pollIntervalSeconds": 1]]
    }

    static func harness() async throws -> AdaptiveHarness {
        try await AdaptiveHarness.start(policy: policy)
    }

    /// An SDK on the test server that polls by itself only when `autoPoll`.
    static func sdk(_ harness: AdaptiveHarness, autoPoll: Bool = false) throws -> KeywayClient {
        try harness.sdk { $0.autoPollApprovals = autoPoll }
    }

    /// Starts a sign-in of `email` up to the step whose message carried a link; answers the link.
    static func startSignIn(_ keyway: KeywayClient, _ harness: AdaptiveHarness, email: String = email) async throws -> URL {
        await keyway.flow.start(flowType: .signin, identifier: email)
        let payload = try #require(
            keyway.flow.currentUpdate.promptContext?.step.payload.enterCode, "got \(keyway.flow.currentUpdate)")
        #expect(payload.linkSent == true)
        #expect(payload.pollInterval == 1)
        return try await link(to: email, harness)
    }

    /// The link of the latest message to `email`, read from the dev outbox.
    static func link(to email: String, _ harness: AdaptiveHarness) async throws -> URL {
        let body = try #require(try await harness.server.outbox(to: email).last?.body)
        return try Self.link(in: body)
    }

    /// The link in a message's text.
    static func link(in body: String) throws -> URL {
        let match = try #require(body.firstMatch(of: #/https?://[^\s)]+/link/ksl_[A-Za-z0-9_-]+/#), "no link in \(body)")
        return try #require(URL(string: String(match.output)))
    }

    /// The link's path on the server (`/link/…`).
    static func path(_ link: URL) -> String { link.path }

    /// Waits, moving the shared clock along (so the polls are never too fast), until the flow
    /// leaves the link's step.
    static func settled(_ keyway: KeywayClient, clock: ManualClock) async throws -> FlowUpdate {
        try await waitUntil("the sign-in left the link's step") {
            let update = keyway.flow.currentUpdate
            guard update == .loading || update.prompt?.kind == .enterCode else { return true }
            clock.advance(by: 0.05)
            return false
        }
        return keyway.flow.currentUpdate
    }

    @Test func fetchingTheLinkTwiceSpendsNothingAndTheAppCompletesWithIt() async throws {
        try await withTestServer(Self.harness()) { harness in
            let keyway = try Self.sdk(harness)
            let link = try await Self.startSignIn(keyway, harness)
            #expect(link.absoluteString.hasPrefix(harness.server.baseURL.absoluteString + "/link/"))

            // A mail scanner fetching the link (twice): a page with one Continue button.
            for _ in 0..<2 {
                let scanner = PageAgent(server: harness.server)
                let page = try await scanner.open(Self.path(link))
                #expect(page.status == 200)
                #expect(page.forms.count == 1)
                #expect(page.form(Self.path(link)) != nil)
                #expect(page.forms.first?.values["decision"] == nil)
            }

            await keyway.flow.openLink(link)
            #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")
            let tokens = try await harness.tokens(keyway)
            #expect(tokens.idToken.authenticationMethods == ["otp"])

            // Spent: its page says so, and it cannot be approved.
            let browser = PageAgent(server: harness.server)
            let used = try await browser.open(Self.path(link))
            #expect(used.status == 410)
            #expect(used.forms.isEmpty)
        }
    }

    @Test func theCodeOfTheSameMessageCompletesAndSpendsTheLink() async throws {
        try await withTestServer(Self.harness()) { harness in
            let keyway = try Self.sdk(harness)
            let link = try await Self.startSignIn(keyway, harness)
            await keyway.flow.submitCode(try await harness.server.latestCode(to: Self.email))
            #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")
            #expect(try await PageAgent(server: harness.server).open(Self.path(link)).status == 410)
        }
    }

    @Test func aLinkOfAnotherFlowIsRefusedAndStaysUsable() async throws {
        try await withTestServer(Self.harness()) { harness in
            let ann = try Self.sdk(harness)
            let annLink = try await Self.startSignIn(ann, harness)
            let bob = try Self.sdk(harness)
            _ = try await Self.startSignIn(bob, harness, email: "bob@example.com")

            await bob.flow.openLink(annLink)
            #expect(bob.flow.currentUpdate.errorInfo?.code == .invalidLink, "got \(bob.flow.currentUpdate)")
            #expect(bob.flow.currentUpdate.errorInfo?.action == .retryInput)

            // Ann's link was left as it was.
            await ann.flow.openLink(annLink)
            #expect(ann.flow.currentUpdate.completion != nil, "got \(ann.flow.currentUpdate)")

            // A URL without a token is refused before any request.
            await bob.flow.openLink(URL(string: "https://app.example.com/")!)
            #expect(bob.flow.currentUpdate.errorInfo?.code == .invalidLink)
        }
    }

    @Test func approvedOnAnotherDeviceTheWaitingDeviceSignsIn() async throws {
        try await withTestServer(Self.harness()) { harness in
            let keyway = try Self.sdk(harness, autoPoll: true)
            let link = try await Self.startSignIn(keyway, harness)

            let phone = PageAgent(server: harness.server)
            let first = try await phone.open(Self.path(link))
            let continueForm = try #require(first.form(Self.path(link)))
            let question = try await phone.submit(continueForm)
            #expect(question.status == 200)
            #expect(question.text.contains("Is this you signing in"), "got \(question.text)")
            #expect(question.text.contains("127.0.0.x"))
            let approve = try #require(question.form(Self.path(link), ["decision": "approve"]))
            #expect(question.form(Self.path(link), ["decision": "deny"]) != nil)
            // Still nothing spent: the question can be asked again.
            #expect(try await phone.open(Self.path(link)).status == 200)

            let approved = try await phone.submit(approve)
            #expect(approved.status == 200)
            #expect(approved.text.contains("Approved"))

            let done = try await Self.settled(keyway, clock: harness.clock)
            #expect(done.completion != nil, "got \(done)")
            let tokens = try await harness.tokens(keyway)
            #expect(tokens.idToken.authenticationMethods == ["otp"])

            // Reused: the answer cannot be given again, and the app cannot use the link either.
            let again = try await phone.submit(approve)
            #expect(again.status == 410)
            #expect(try await phone.open(Self.path(link)).status == 410)
        }
    }

    @Test func deniedOnAnotherDeviceTheWaitingDeviceStops() async throws {
        try await withTestServer(Self.harness()) { harness in
            let keyway = try Self.sdk(harness, autoPoll: true)
            let link = try await Self.startSignIn(keyway, harness)
            let phone = PageAgent(server: harness.server)
            let question = try await phone.submit(try #require(try await phone.open(Self.path(link)).form(Self.path(link))))
            let denied = try await phone.submit(try #require(question.form(Self.path(link), ["decision": "deny"])))
            #expect(denied.status == 200)
            #expect(denied.text.contains("Denied"))

            let done = try await Self.settled(keyway, clock: harness.clock)
            #expect(done.errorInfo?.code == .linkDenied, "got \(done)")
            #expect(done.errorInfo?.action == .abort)
            // Nor can the code finish it now.
            await keyway.flow.submitCode(try await harness.server.latestCode(to: Self.email))
            #expect(keyway.flow.currentUpdate.completion == nil)
        }
    }

    @Test func aNewCodeReplacesTheLink() async throws {
        try await withTestServer(Self.harness()) { harness in
            let keyway = try Self.sdk(harness)
            let first = try await Self.startSignIn(keyway, harness)
            harness.clock.advance(by: 31)
            #expect(await keyway.flow.resend())
            let second = try await Self.link(to: Self.email, harness)
            #expect(second != first)
            #expect(try await PageAgent(server: harness.server).open(Self.path(first)).status == 404)
            await keyway.flow.openLink(first)
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidLink, "got \(keyway.flow.currentUpdate)")
            await keyway.flow.openLink(second)
            #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")
        }
    }

    @Test func anExpiredLinkOpensNothing() async throws {
        try await withTestServer(Self.harness()) { harness in
            let keyway = try Self.sdk(harness)
            let link = try await Self.startSignIn(keyway, harness)
            harness.clock.advance(by: 10 * 60 + 1)
            let page = try await PageAgent(server: harness.server).open(Self.path(link))
            #expect(page.status == 404)
            #expect(page.forms.isEmpty)
            await keyway.flow.openLink(link)
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .codeExpired, "got \(keyway.flow.currentUpdate)")
        }
    }

    @Test func theLinksFormsNeedTheirTokenAndTheServersOrigin() async throws {
        try await withTestServer(Self.harness()) { harness in
            let keyway = try Self.sdk(harness)
            let link = try await Self.startSignIn(keyway, harness)
            let browser = PageAgent(server: harness.server)
            let form = try #require(try await browser.open(Self.path(link)).form(Self.path(link)))
            // Another origin, a wrong token, and no cookie at all are refused.
            #expect(try await browser.post(Self.path(link), form.values.merging(["decision": "approve"]) { $1 }, origin: "https://evil.example").status == 403)
            #expect(try await browser.post(Self.path(link), ["csrf_token": "wrong", "decision": "approve"]).status == 403)
            let stranger = PageAgent(server: harness.server)
            #expect(try await stranger.post(Self.path(link), form.values.merging(["decision": "approve"]) { $1 }).status == 403)
            // None of them decided anything: the app still completes with the link.
            await keyway.flow.openLink(link)
            #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")
        }
    }
}
