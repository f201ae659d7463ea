import Foundation
import KeywayProtocol

/// Turns flow records into wire steps with their hypermedia.
struct StepBuilder: Sendable {
    let limits: FlowLimits

    func enterCode(flow: FlowRecord, flowToken: Sensitive<String>?, traceId: String) -> Step {
        let base = "/v1/flows/\(flow.id)"
        let remaining = max(0, limits.maxCodeAttempts - flow.failedAttempts)
        let destination = EmailAddress.mask(flow.identifier)
        return Step(
            flowId: flow.id, kind: .enterCode,
            stepInfo: StepInfo(id: "verifyEmail", label: "Verify your email"),
            actions: [
                Action(
                    name: "submitCode", href: "\(base)/code", method: "POST", label: "Continue",
                    fields: [
                        Field(
                            name: "code", type: .code, required: true, label: "Code",
                            placeholder: String(repeating: "0", count: limits.codeLength),
                            autocomplete: "one-time-code", minLength: limits.codeLength,
                            maxLength: limits.codeLength, pattern: "^[0-9]{\(limits.codeLength)}$")
                    ]),
                Action(name: "resend", href: "\(base)/resend", method: "POST", label: "Send a new code"),
                Action(name: "cancel", href: base, method: "DELETE", label: "Cancel"),
            ],
            links: [Link(rel: "self", href: base)],
            messages: [
                Message(
                    level: "info", code: "codeSent",
                    text: "We sent a \(limits.codeLength)-digit code to \(destination).")
            ],
            flowExpiresAt: Date(epochMilliseconds: flow.expiresAt),
            flowToken: flowToken,
            enterCode: EnterCodePayload(
                destination: destination, codeLength: limits.codeLength,
                expiresAt: Date(epochMilliseconds: flow.otpExpiresAt ?? flow.expiresAt),
                resendAt: Date(epochMilliseconds: flow.resendAt ?? flow.createdAt), channel: .email,
                attemptsRemaining: remaining),
            meta: Meta(traceId: traceId))
    }

    func completed(
        flow: FlowRecord, authCode: String, codeExpiresAt: Date, sessionId: String, newUser: Bool, traceId: String
    ) -> Step {
        Step(
            flowId: flow.id, kind: .completed,
            stepInfo: StepInfo(id: "completed", label: "Signed in"),
            messages: [Message(level: "info", code: "signedIn", text: "You are signed in.")],
            completed: CompletedPayload(
                authCode: Sensitive(authCode), expiresAt: codeExpiresAt, session: sessionId, newUser: newUser),
            meta: Meta(traceId: traceId))
    }
}
