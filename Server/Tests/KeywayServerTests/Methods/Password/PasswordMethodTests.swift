import Foundation
import KeywayJOSE
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Passwords: a primary method and a credential to choose; their steps")
struct PasswordMethodTests {
    let method = PasswordMethod()

    @Test func aPrimaryMethodNeverASecondFactor() {
        #expect(method.canBePrimary && !method.canBeSecondFactor && !method.worksWithoutEnrolment)
        #expect(method.isPrimaryOption(FlowContexts.context()))
        // Never counted as a second factor: it has no such capability.
        #expect(!(method as any FlowMethod is any SecondFactorMethod))
        #expect(method.canReverify(FlowContexts.context(user: FlowContexts.user(password: true))))
        #expect(!method.canReverify(FlowContexts.context()))
    }

    @Test func choosingAPasswordShowsTheMinimumLengthSigningInDoesNot() throws {
        var context = FlowContexts.context()
        try PasswordMethod.beginChoosing(.create, &context)
        guard case .method(let create) = context.progress.stage else { throw StepMismatch(.none(.form)) }
        #expect(create.purpose == .primary)
        let choosing = FlowContexts.step(method, create, context)
        #expect(
            choosing.payload
                == .enterPassword(EnterPasswordPayload(purpose: .create, minimumLength: context.policy.passwordMinimumLength)))
        #expect(choosing.actions.first?.fields.first?.autocomplete == "new-password")
        #expect(choosing.info?.id == "createPassword")

        try PasswordMethod.beginChoosing(.change, &context)
        guard case .method(let change) = context.progress.stage else { throw StepMismatch(.none(.form)) }
        #expect(change.purpose == .reverification)

        let signIn = try ActiveMethod(.password, purpose: .primary, state: PasswordStage(purpose: .signIn))
        let entering = FlowContexts.step(method, signIn, FlowContexts.context(stage: .method(signIn)))
        #expect(entering.payload == .enterPassword(EnterPasswordPayload(purpose: .signIn, minimumLength: nil)))
        #expect(entering.actions.first?.fields.first?.autocomplete == "current-password")
    }

    @Test func aSignUpChoosesThePasswordThePolicySignsInWithOnce() throws {
        let policy = FlowPolicy(primaryMethods: [.emailOtp, .password], flowTypes: [.signin, .signup])
        var draft = FlowProgress.SignUpDraft()
        #expect(method.isRequiredAtSignUp(FlowContexts.context(user: nil, policy: policy, mode: .signUp(draft))))
        #expect(!method.isRequiredAtSignUp(FlowContexts.context(user: nil, mode: .signUp(draft))), "not in the policy")
        #expect(!method.isRequiredAtSignUp(FlowContexts.context(policy: policy)), "not a sign-up")
        try draft.keep(PasswordCredential(hash: "scrypt$x"), for: .password)
        #expect(!method.isRequiredAtSignUp(FlowContexts.context(user: nil, policy: policy, mode: .signUp(draft))))

        var user = FlowContexts.user()
        try method.applyCredential(try JSONValue.encoding(PasswordCredential(hash: "scrypt$x")), to: &user)
        #expect(user.passwordHash == "scrypt$x")
    }
}
