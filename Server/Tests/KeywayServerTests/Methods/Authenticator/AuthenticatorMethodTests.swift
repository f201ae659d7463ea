import Foundation
import KeywayJOSE
import KeywayPowerAuth
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Authenticator apps: set up once, then a factor; the steps of both")
struct AuthenticatorMethodTests {
    let method = AuthenticatorMethod()

    @Test func setUpUntilTheAccountOrTheSignUpHasOne() throws {
        #expect(method.canEnrol(FlowContexts.context()))
        #expect(!method.canEnrol(FlowContexts.context(user: FlowContexts.user(totp: true))))
        var draft = FlowProgress.SignUpDraft()
        try draft.keep(AuthenticatorCredential(sealedSecret: "v1.sealed", counter: 1), for: .totp)
        #expect(!method.canEnrol(FlowContexts.context(user: nil, mode: .signUp(draft))))
        #expect(method.canEnrol(FlowContexts.context(user: nil, mode: .signUp(FlowProgress.SignUpDraft()))))
        #expect(method.isEnrolled(FlowContexts.context(user: FlowContexts.user(totp: true))))
        #expect(!method.worksWithoutEnrolment && method.canBePrimary && method.canBeSecondFactor)
    }

    @Test func theSetupStepShowsTheSealedSecretOpened() throws {
        let secret: [UInt8] = Array(repeating: 7, count: 20)
        let sealed = try FlowContexts.secrets.seal(secret, purpose: "totp")
        let active = try ActiveMethod(.totp, purpose: .enrolment, state: AuthenticatorStage(sealedSecret: sealed))
        let draft = FlowContexts.step(method, active, FlowContexts.context(stage: .method(active)))
        guard case .setupTotp(let payload) = draft.payload else { throw StepMismatch(draft.payload) }
        #expect(payload.secret.revealed == Base32.encode(secret, padding: false))
        #expect(payload.otpauthUrl.revealed.hasPrefix("otpauth://totp/Shop:ann@example.com?secret=\(Base32.encode(secret, padding: false))&issuer=Shop"))
        #expect(payload.digits == 6 && payload.period == 30 && payload.algorithm == "SHA1")
        #expect(draft.actions.map(\.name) == ["submitTotp"])
        #expect(method.option(for: .enrolment, FlowContexts.context()).label == "Set up an authenticator app")
    }

    @Test func aSecretThatCannotBeOpenedShowsTheStepWithoutIt() throws {
        let active = try ActiveMethod(.totp, purpose: .enrolment, state: AuthenticatorStage(sealedSecret: "v1.broken"))
        let draft = FlowContexts.step(method, active, FlowContexts.context(stage: .method(active)))
        #expect(draft.payload == .none(.setupTotp))
    }

    @Test func theCodeStepCountsItsOwnFailures() throws {
        let active = try ActiveMethod(.totp, purpose: .secondFactor, state: AuthenticatorStage())
        var context = FlowContexts.context(stage: .method(active))
        context.progress.failures = ["totp": 2, "password": 4]
        let draft = FlowContexts.step(method, active, context)
        #expect(
            draft.payload
                == .enterTotp(
                    EnterTotpPayload(
                        digits: 6, period: 30, purpose: .secondFactor, attemptsRemaining: FlowLimits().maxCodeAttempts - 2)))
        #expect(draft.info?.id == "secondFactor")
    }

    @Test func aSignUpsAuthenticatorIsWrittenToTheAccountItCreates() throws {
        var user = FlowContexts.user()
        try method.applyCredential(
            try JSONValue.encoding(AuthenticatorCredential(sealedSecret: "v1.s", counter: 3)), to: &user)
        #expect(user.totpSecret == "v1.s" && user.totpLastCounter == 3)
        #expect(throws: DecodingError.self) { try method.applyCredential(.object([:]), to: &user) }
    }
}
