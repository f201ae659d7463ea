import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayTestSupport
import Testing

@Suite("Sign-in links by SMS and the messages that carry them")
struct SignInLinkChannelTests {
    static let phone = "+14155550123"

    static var policy: [String: Any] {
        [
            "primaryMethods": ["signInLink"], "flowTypes": ["signin"],
            "signInLink": ["channels": ["email", "sms"], "pollIntervalSeconds": 1],
        ]
    }

    /// Starts a sign-in of `identifier` by link and returns the message that carried it.
    static func start(_ keyway: KeywayClient, _ harness: AdaptiveHarness, identifier: String) async throws
        -> (link: URL, message: OutboxMessage)
    {
        await keyway.flow.start(flowType: .signin, identifier: identifier)
        let payload = try #require(keyway.flow.currentUpdate.promptContext?.step.payload.enterCode, "got \(keyway.flow.currentUpdate)")
        #expect(payload.linkSent == true)
        let message = try #require(try await harness.server.outbox(to: identifier).last)
        return (try SignInLinkTests.link(in: message.body), message)
    }

    @Test func anSMSCarriesTheLinkAndTheCodeAndTheAppSignsInWithTheLink() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let keyway = try harness.sdk { $0.autoPollApprovals = false }
            let (link, message) = try await Self.start(keyway, harness, identifier: Self.phone)
            let payload = try #require(keyway.flow.currentUpdate.promptContext?.step.payload.enterCode)
            #expect(payload.channel == .sms)
            #expect(payload.destination == "+1••••••••23")
            #expect(keyway.flow.currentUpdate.promptContext?.stepInfo?.label == "Check your messages")
            // Short: the code, then the link.
            #expect(message.channel == .sms)
            #expect(message.body == "Dev application: sign-in code \(message.code). Or open \(link.absoluteString)")
            #expect(message.body.count < 160)

            await keyway.flow.openLink(link)
            let completed = try #require(keyway.flow.currentUpdate.completion, "got \(keyway.flow.currentUpdate)")
            let tokens = try await keyway.tokens.exchange(authCode: completed.authCode, codeVerifier: try #require(completed.codeVerifier))
            #expect(tokens.idToken.authenticationMethods == ["sms"])
        }
    }

    @Test func theApplicationsSMSDeliveryCarriesTheLink() async throws {
        try await withTestServer(SMSGateway().start()) { gateway in
            var policy = Self.policy
            policy["delivery"] = ["sms": ["url": gateway.url, "signingSecret": gateway.secret, "timeoutSeconds": 5]]
            try await withTestServer(AdaptiveHarness.start(policy: policy)) { harness in
                let keyway = try harness.sdk { $0.autoPollApprovals = false }
                await keyway.flow.start(flowType: .signin, identifier: Self.phone)
                #expect(keyway.flow.currentUpdate.promptContext?.step.payload.enterCode?.linkSent == true)
                let sent = try #require(gateway.requests.last { $0.to == Self.phone && $0.answered == 200 })
                #expect(sent.signatureValid)
                let link = try SignInLinkTests.link(in: sent.body)
                #expect(sent.body.contains("sign-in code \(try gateway.lastCode(to: Self.phone))"))
                await keyway.flow.openLink(link)
                #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")
            }
        }
    }

    @Test func anSMSLinkApprovedOnAnotherDeviceSignsInTheWaitingOne() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let keyway = try harness.sdk { $0.autoPollApprovals = true }
            let (link, _) = try await Self.start(keyway, harness, identifier: Self.phone)
            let phone = PageAgent(server: harness.server)
            let question = try await phone.submit(try #require(try await phone.open(link.path).form(link.path)))
            #expect(question.text.contains("Is this you signing in"), "got \(question.text)")
            let approved = try await phone.submit(try #require(question.form(link.path, ["decision": "approve"])))
            #expect(approved.status == 200)

            let done = try await SignInLinkTests.settled(keyway, clock: harness.clock)
            let completed = try #require(done.completion, "got \(done)")
            let tokens = try await keyway.tokens.exchange(authCode: completed.authCode, codeVerifier: try #require(completed.codeVerifier))
            #expect(tokens.idToken.authenticationMethods == ["sms"])
            #expect(try await phone.open(link.path).status == 410)
        }
    }

    @Test func theSMSCodeAlsoSignsInAndAPolicyWithoutSMSOffersNoLinkToAPhone() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let keyway = try harness.sdk { $0.autoPollApprovals = false }
            let (link, message) = try await Self.start(keyway, harness, identifier: Self.phone)
            await keyway.flow.submitCode(message.code)
            #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")
            #expect(try await PageAgent(server: harness.server).open(link.path).status == 410)

            // Email only: a phone number has no sign-in link to choose.
            try await harness.server.setPolicy([
                "primaryMethods": ["signInLink", "smsOtp"], "flowTypes": ["signin"], "signInLink": ["channels": ["email"]],
            ])
            let other = try harness.sdk { $0.autoPollApprovals = false }
            await other.flow.start(flowType: .signin, identifier: "+14155550124")
            #expect(other.flow.currentUpdate.enterCode?.channel == .sms)
            #expect(other.flow.currentUpdate.promptContext?.step.payload.enterCode?.linkSent == nil)
        }
    }

    @Test func theEmailCarriesTheLinkAndTheCodeAndTheProjectsTemplateGetsTheLink() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            // The server's own text.
            let keyway = try harness.sdk { $0.autoPollApprovals = false }
            let (link, message) = try await Self.start(keyway, harness, identifier: "ann@example.com")
            #expect(message.channel == .email)
            #expect(message.body.contains("\n\(link.absoluteString)\n"))
            #expect(message.body.contains("Or enter this code: \(message.code)"))
            #expect(message.body.contains("Open this link to sign in to Dev application"))

            // The project's template for sign-in links: every placeholder filled in.
            var policy = Self.policy
            policy["delivery"] = [
                "emailTemplates": [
                    "code": ["subject": "Code", "body": "Code only: {{code}}"],
                    "signInLink": [
                        "subject": "Sign in to {{application}}",
                        "body": "Hello!\nTap {{ link }} or type {{code}} within {{minutes}} minutes ({{application}}).",
                    ],
                ]
            ]
            try await harness.server.setPolicy(policy)
            let templated = try harness.sdk { $0.autoPollApprovals = false }
            let (templatedLink, custom) = try await Self.start(templated, harness, identifier: "bob@example.com")
            #expect(templatedLink != link)
            #expect(
                custom.body
                    == "Hello!\nTap \(templatedLink.absoluteString) or type \(custom.code) within 10 minutes (Dev application).")
            await templated.flow.openLink(templatedLink)
            #expect(templated.flow.currentUpdate.completion != nil, "got \(templated.flow.currentUpdate)")

            // A sign-in link template must carry the link.
            var refused = Self.policy
            refused["delivery"] = ["emailTemplates": ["signInLink": ["subject": "Sign in", "body": "Your code: {{code}}"]]]
            do {
                try await harness.server.setPolicy(refused)
                Issue.record("a sign-in link template without {{link}} was accepted")
            } catch {
                #expect("\(error)".contains("template_missing_link"), "\(error)")
            }
        }
    }
}
