import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// Nothing a client sees before proving control of an address or number tells whether it has an
/// account: sign-up answers a known identifier as it answers a new one, and the SMS set-up step
/// answers a number someone else uses as it answers a free one.
@Suite("Answers that do not reveal accounts")
struct EnumerationTests {
    static var policy: [String: Any] {
        ["primaryMethods": ["emailOtp", "password"], "flowTypes": ["signin", "signup"]]
    }

    /// The parts of a first step an observer could compare.
    static func shape(_ step: Step) -> String {
        let actions = step.actions.map { "\($0.name):\($0.fields.map(\.name))" }.joined(separator: ",")
        return "\(step.kind.rawValue)|\(step.stepInfo?.id ?? "")|\(step.payload.enterCode?.codeLength ?? 0)|\(actions)"
    }

    @Test func signUpAnswersAKnownIdentifierAsItAnswersANewOne() async throws {
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy)) { harness in
            let existing = try harness.sdk()
            try await harness.signUp(existing, email: "known@example.com", password: "a-strong-passphrase-9")
            let owner = try #require(existing.flow.currentUpdate.completion)
            _ = owner

            let known = try harness.sdk()
            await known.flow.start(flowType: .signup, identifier: "known@example.com")
            let unknown = try harness.sdk()
            await unknown.flow.start(flowType: .signup, identifier: "new@example.com")
            let knownStep = try #require(known.flow.currentUpdate.promptContext?.step)
            let unknownStep = try #require(unknown.flow.currentUpdate.promptContext?.step)
            #expect(knownStep.kind == .enterCode)
            #expect(Self.shape(knownStep) == Self.shape(unknownStep))

            // After the code the known identifier is simply signed in: no second account.
            await known.flow.submitCode(try await harness.server.latestCode(to: "known@example.com"))
            let tokens = try await harness.tokens(known)
            #expect(tokens.idToken.email == "known@example.com")
            #expect(try await harness.server.rowCount("users WHERE email = 'known@example.com'") == 1)
        }
    }

    @Test func aCodeThatIsNotAWayInLeadsToThePolicysMethod() async throws {
        // Password-only sign-in: the sign-up code proves the address, then the password is asked.
        try await withTestServer(
            AdaptiveHarness.start(policy: ["primaryMethods": ["password"], "flowTypes": ["signin", "signup"]])
        ) { harness in
            try await harness.signUp(try harness.sdk(), email: "pw@example.com", password: "a-strong-passphrase-9")
            let keyway = try harness.sdk()
            await keyway.flow.start(flowType: .signup, identifier: "pw@example.com")
            #expect(keyway.flow.currentUpdate.enterCode != nil)
            await keyway.flow.submitCode(try await harness.server.latestCode(to: "pw@example.com"))
            #expect(keyway.flow.currentUpdate.prompt == .enterPassword(purpose: .signIn, minimumLength: nil))
            await keyway.flow.submitPassword("a-strong-passphrase-9")
            #expect(keyway.flow.currentUpdate.completion != nil)
        }
    }

    @Test func smsSetUpAnswersANumberInUseAsAFreeOneAndSendsItNoCode() async throws {
        let gateway = SMSGateway()
        try await withTestServer(gateway.start()) { gateway in
            let policy: [String: Any] = [
                "primaryMethods": ["emailOtp"], "mfaMethods": ["smsOtp"], "mfaMode": "required", "flowTypes": ["signin"],
                "delivery": ["sms": ["url": gateway.url, "signingSecret": gateway.secret, "timeoutSeconds": 5]],
            ]
            try await withTestServer(AdaptiveHarness.start(policy: policy)) { harness in
                // The first user sets up +14155550100.
                let first = try harness.sdk()
                await first.flow.start(flowType: .signin, identifier: "first@example.com")
                await first.flow.submitCode(try await harness.server.latestCode(to: "first@example.com"))
                await first.flow.submitPhone("+14155550100")
                let firstCode = try gateway.lastCode(to: "+14155550100")
                await first.flow.submitCode(firstCode)
                #expect(first.flow.currentUpdate.completion != nil)
                let sentBefore = gateway.requests.count

                // A second user asks for the same number, then for a free one: the same step.
                let second = try harness.sdk()
                await second.flow.start(flowType: .signin, identifier: "second@example.com")
                await second.flow.submitCode(try await harness.server.latestCode(to: "second@example.com"))
                await second.flow.submitPhone("+14155550100")
                let taken = try #require(second.flow.currentUpdate.promptContext?.step)
                #expect(taken.kind == .enterCode)
                // The number's owner gets a notice, not a code.
                let notice = try #require(gateway.requests.dropFirst(sentBefore).first)
                #expect(notice.to == "+14155550100")
                #expect(notice.body.range(of: "[0-9]{6}", options: .regularExpression) == nil)
                // No code can match, not even one that reached the number.
                await second.flow.submitCode(firstCode)
                #expect(second.flow.currentUpdate.errorInfo?.code == .invalidCode)
                #expect(try await harness.server.rowCount("users WHERE phone = '+14155550100'") == 1)

                // A new code asked for the same number is a notice again, never a code.
                harness.clock.advance(by: FlowLimits().resendCooldown + 1)
                let sentBeforeResend = gateway.requests.count
                #expect(await second.flow.resend())
                let again = try #require(gateway.requests.dropFirst(sentBeforeResend).first)
                #expect(again.to == "+14155550100")
                #expect(again.body.range(of: "[0-9]{6}", options: .regularExpression) == nil)
            }
        }
    }
}
