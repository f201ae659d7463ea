import Foundation
import KeywayJOSE
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("SMS codes: phone identifiers, setting up a number, the code step")
struct SMSCodeMethodTests {
    let method = SMSCodeMethod()

    @Test func openForPhoneIdentifiersAndVerifiedNumbersAndSetUpWhereThereIsNone() {
        #expect(method.isPrimaryOption(FlowContexts.context(identifier: "+14155550123")))
        #expect(!method.isPrimaryOption(FlowContexts.context(identifier: "ann@example.com")))
        let withPhone = FlowContexts.context(user: FlowContexts.user(phone: "+14155550123"))
        #expect(method.isEnrolled(withPhone) && method.canReverify(withPhone) && !method.canEnrol(withPhone))
        let without = FlowContexts.context()
        #expect(!method.isEnrolled(without) && method.canEnrol(without))
        // A phone identifier is verified by signing in with it, never set up again.
        #expect(!method.canEnrol(FlowContexts.context(identifier: "+14155550123", user: nil)))
    }

    @Test func setUpAsksForTheNumberThenSendsTheCode() throws {
        #expect(method.option(for: .enrolment, FlowContexts.context()).label == "Text me codes (SMS)")
        let asking = try ActiveMethod(.smsOtp, purpose: .enrolment, state: CodeStage())
        let numberStep = FlowContexts.step(method, asking, FlowContexts.context(stage: .method(asking)))
        #expect(numberStep.payload == .setupSms(SetupSmsPayload(existingPhone: nil)))
        #expect(numberStep.actions.map(\.name) == ["submitPhone"])
        #expect(numberStep.actions.first?.fields.map(\.name) == ["phone"])

        let verifying = try ActiveMethod(.smsOtp, purpose: .enrolment, state: CodeStage(destination: "+14155550123"))
        let codeStep = FlowContexts.step(method, verifying, FlowContexts.context(stage: .method(verifying)))
        guard case .enterCode(let payload) = codeStep.payload else { throw StepMismatch(codeStep.payload) }
        #expect(payload.channel == .sms && payload.destination == "+1••••••••23")
        #expect(codeStep.info?.id == "verifyPhone")
    }

    @Test func theManageStepListsOnlyAVerifiedNumber() {
        #expect(method.enrolledMethod(FlowContexts.context()) == nil)
        let listed = method.enrolledMethod(FlowContexts.context(user: FlowContexts.user(phone: "+14155550123")))
        // Shown whole: the account step is its owner's.
        #expect(listed?.detail == "+14155550123" && listed?.label == "SMS codes")
    }

    @Test func aSignUpsNumberIsWrittenUnlessTheIdentifierIsAPhone() throws {
        let credential = try JSONValue.encoding(PhoneCredential(phone: "+14155550123"))
        var byEmail = FlowContexts.user()
        try method.applyCredential(credential, to: &byEmail)
        #expect(byEmail.verifiedPhone == "+14155550123")
        var byPhone = FlowContexts.user(email: nil, phone: "+447700900123")
        try method.applyCredential(credential, to: &byPhone)
        #expect(byPhone.verifiedPhone == "+447700900123")
    }
}
