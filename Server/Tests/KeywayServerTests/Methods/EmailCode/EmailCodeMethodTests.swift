import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Email codes: when they are open, their choice and their code step")
struct EmailCodeMethodTests {
    let method = EmailCodeMethod()

    @Test func aPrimaryOptionForEmailIdentifiersOnlyAndASecondFactorOnceVerified() {
        #expect(method.isPrimaryOption(FlowContexts.context(identifier: "ann@example.com")))
        #expect(!method.isPrimaryOption(FlowContexts.context(identifier: "+14155550123")))
        #expect(method.isEnrolled(FlowContexts.context()))
        #expect(!method.isEnrolled(FlowContexts.context(user: FlowContexts.user(emailVerified: false))))
        #expect(!method.isEnrolled(FlowContexts.context(user: nil)))
        #expect(method.canReverify(FlowContexts.context()))
        #expect(!method.canEnrol(FlowContexts.context()))
        #expect(method.canBePrimary && method.canBeSecondFactor && method.worksWithoutEnrolment)
    }

    @Test func theChoiceMasksWhereTheCodeGoes() {
        let context = FlowContexts.context(
            identifier: "+14155550123", user: FlowContexts.user(email: "bob@example.com", phone: "+14155550123"))
        // A first factor goes to the identifier (none here: a phone number); a second factor to the account.
        #expect(method.option(for: .primary, context).destination == nil)
        let option = method.option(for: .secondFactor, context)
        #expect(option.destination == "b•••@example.com")
        #expect(option.label == "Email a code to b•••@example.com")
        #expect(option.type == .emailOtp && option.id == "emailOtp")
    }

    @Test func theCodeStepNamesTheDestinationItsLimitsAndItsActions() throws {
        let active = try ActiveMethod(.emailOtp, purpose: .primary, state: CodeStage(destination: "ann@example.com"))
        let draft = FlowContexts.step(method, active, FlowContexts.context(stage: .method(active)))
        guard case .enterCode(let payload) = draft.payload else { throw StepMismatch(draft.payload) }
        #expect(payload.destination == "a•••@example.com")
        #expect(payload.channel == .email)
        #expect(payload.codeLength == FlowLimits().codeLength)
        #expect(payload.attemptsRemaining == FlowLimits().maxCodeAttempts - 1)
        #expect(draft.info?.id == "verifyEmail")
        #expect(draft.actions.map(\.name) == ["submitCode", "resend"])
        #expect(draft.actions.map(\.href) == ["/v1/flows/flw_1/code", "/v1/flows/flw_1/resend"])
        #expect(draft.messages.map(\.code) == ["codeSent"])
    }

    @Test func theManageStepListsTheAddress() {
        let listed = method.enrolledMethod(FlowContexts.context())
        // Shown whole: the account step is its owner's.
        #expect(listed == EnrolledMethod(type: .emailOtp, label: "Email codes", detail: "ann@example.com", isSecondFactor: false))
        #expect(method.enrolledMethod(FlowContexts.context(user: FlowContexts.user(email: nil))) == nil)
    }
}

/// A step drawn with another payload than the test expected.
struct StepMismatch: Error, CustomStringConvertible {
    let payload: StepPayload
    init(_ payload: StepPayload) { self.payload = payload }
    var description: String { "Unexpected step payload: \(payload)" }
}
