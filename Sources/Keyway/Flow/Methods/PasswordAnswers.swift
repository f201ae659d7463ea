import Foundation
import KeywayProtocol

/// Passwords: the answer to a ``Prompt/enterPassword(purpose:minimumLength:)`` prompt, and
/// "Forgot password?".
extension FlowAction {
    static let submitPassword = FlowAction(name: "submitPassword", unavailableMessage: "This step does not ask for a password.")
    static let forgotPassword = FlowAction(
        name: "forgotPassword", unavailableMessage: "This step cannot reset a password: only a password sign-in step can.")
}

extension KeywayFlow {
    /// Sends the password for a ``Prompt/enterPassword(purpose:minimumLength:)`` prompt, exactly
    /// as typed. The password is never logged, nor part of any event.
    ///
    /// - Parameter password: The password, exactly as typed.
    public func submitPassword(_ password: String) async {
        await driver.perform(.submitPassword, parameters: ["password": password])
    }

    /// "Forgot password?": from a password sign-in prompt that offers it
    /// (``PromptContext/offersPasswordReset``), asks the server for a code to the identifier the
    /// flow signs in with. The next prompt is ``Prompt/enterCode(destination:codeLength:expiresAt:resendAt:channel:)``
    /// for that code (``KeywayFlow/submitCode(_:)``, ``KeywayFlow/resend()``), then the second
    /// factor when the application asks for one, then ``Prompt/enterPassword(purpose:minimumLength:)``
    /// with ``PasswordPurpose/reset`` for the new password; once it is set the sign-in completes
    /// and every other session of the account is signed out. An identifier without an account
    /// gets the same prompts; no code it is sent can match. Elsewhere a local
    /// `action_unavailable` error.
    public func resetPassword() async {
        await driver.perform(.forgotPassword, parameters: [:])
    }
}

extension PromptContext {
    /// Whether this password prompt can start a password reset (``KeywayFlow/resetPassword()``):
    /// show a "Forgot password?" button.
    public var offersPasswordReset: Bool { step.action(named: FlowAction.forgotPassword.name) != nil }
}
