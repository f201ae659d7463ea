import Foundation
import KeywayProtocol

/// The `enterCode` step of a code method's stage.
enum CodeStep {
    static func build(
        channel: CodeChannel, destination: String, purpose: MethodPurpose, _ context: FlowEngine.Context,
        into draft: inout StepDraft, limits: FlowLimits
    ) {
        let flow = context.flow
        let masked = channel == .sms ? PhoneNumber.mask(destination) : EmailAddress.mask(destination)
        draft.info =
            switch purpose {
            case .primary:
                channel == .sms
                    ? StepInfo(id: "verifyPhone", label: "Verify your phone")
                    : StepInfo(id: "verifyEmail", label: "Verify your email")
            case .enrolment: StepInfo(id: "verifyPhone", label: "Verify your phone")
            default: StepBuilder.info(for: purpose)
            }
        draft.payload = .enterCode(
            EnterCodePayload(
                destination: masked, codeLength: limits.codeLength,
                expiresAt: Date(epochMilliseconds: flow.otpExpiresAt ?? flow.expiresAt),
                resendAt: Date(epochMilliseconds: flow.resendAt ?? flow.createdAt), channel: channel,
                attemptsRemaining: max(0, limits.maxCodeAttempts - flow.failedAttempts)))
        draft.post("submitCode", "code", label: "Continue", fields: [StepBuilder.codeField(length: limits.codeLength)])
        draft.post("resend", "resend", label: "Send a new code")
        draft.messages.append(
            Message(level: "info", code: "codeSent", text: "We sent a \(limits.codeLength)-digit code to \(masked)."))
    }
}
