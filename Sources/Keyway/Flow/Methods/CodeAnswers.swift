import Foundation
import KeywayProtocol

/// One-time codes sent by email or SMS: the answer to an ``Prompt/enterCode(destination:codeLength:expiresAt:resendAt:channel:)``
/// prompt, and a new code.
extension FlowAction {
    static let submitCode = FlowAction(name: "submitCode", unavailableMessage: "This step does not ask for a one-time code.")
    static let resend = FlowAction(name: "resend", unavailableMessage: "This step cannot send a new code.")
}

extension KeywayFlow {
    /// Submits a one-time code for an `enterCode` prompt.
    ///
    /// Spaces and tabs around the code are trimmed. A wrong code gives an error with `retryInput`
    /// and the prompt stays valid.
    ///
    /// - Parameter code: The code the user typed.
    public func submitCode(_ code: String) async {
        await driver.perform(.submitCode, parameters: ["code": code.trimmingCharacters(in: .whitespaces)])
    }

    /// Requests a new code. Returns `false` without contacting the server while the cooldown
    /// runs (see the prompt's `resendAt`), and `false` when the server refuses; `true` once a new
    /// code was sent, after the prompt was re-emitted with its new `resendAt`.
    ///
    /// Without a flow, or at a step that offers no `resend`, it returns `false` too, without a
    /// local error.
    ///
    /// - Returns: Whether a new code was sent.
    @discardableResult
    public func resend() async -> Bool {
        await driver.resend()
    }
}
