import Foundation
import KeywayProtocol

/// The `enterCode` step of a code method's stage.
enum CodeStep {
    static func build(
        channel: CodeChannel, destination: String, purpose: MethodPurpose, _ context: FlowEngine.Context,
        into draft: inout StepDraft, limits: FlowLimits, link: LinkOptions? = nil
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
                attemptsRemaining: max(0, limits.maxCodeAttempts - flow.failedAttempts),
                linkSent: link.map { _ in true }, pollInterval: link?.pollInterval))
        draft.post("submitCode", "code", label: "Continue", fields: [StepBuilder.codeField(length: limits.codeLength)])
        draft.post("resend", "resend", label: "Send a new code")
        guard link != nil else {
            draft.messages.append(
                Message(level: "info", code: "codeSent", text: "We sent a \(limits.codeLength)-digit code to \(masked)."))
            return
        }
        draft.post(
            "openLink", "link", label: "Continue with the link",
            fields: [Field(name: "token", type: .text, required: true, label: "Link", maxLength: 200)])
        draft.post("poll", "link/poll", label: "Check again")
        draft.messages.append(
            Message(
                level: "info", code: "linkSent",
                text: "We sent a sign-in link and a \(limits.codeLength)-digit code to \(masked). Open the link, or enter the code."))
    }

    /// What a step whose message carried a sign-in link adds.
    struct LinkOptions {
        /// Seconds between polls.
        var pollInterval: Int
    }
}
