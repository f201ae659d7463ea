import Foundation
import KeywayProtocol

/// The problems of the passkey steps.
extension FlowProblem {
    /// A passkey's answer failed a check (its precise code and sentence from ``WebAuthnFailure``);
    /// the step has a new challenge to try again with.
    static func passkeyRefused(_ failure: WebAuthnFailure, attemptsRemaining: Int) -> FlowProblem {
        FlowProblem(
            ProblemCode(rawValue: failure.code), status: 400, title: "Passkey refused", detail: failure.sentence,
            action: .retryInput, attemptsRemaining: attemptsRemaining)
    }

    /// The passkey is none of the account's (or was removed).
    static func passkeyUnknownCredential(attemptsRemaining: Int) -> FlowProblem {
        FlowProblem(
            .passkeyUnknownCredential, status: 400, title: "Unknown passkey",
            detail: "This passkey does not belong to this account, or it was removed. Use another passkey or another method.",
            action: .retryInput, attemptsRemaining: attemptsRemaining)
    }

    /// A hosted page's form came without the passkey's answer (its script did not run).
    static let passkeyNotAnswered = FlowProblem(
        ProblemCode(rawValue: "passkey_malformed"), status: 400, title: "No passkey",
        detail: "The passkey's answer did not arrive: this browser may not support passkeys. Choose another way to sign in.",
        action: .retryInput)

    static let passkeyAlreadyRegistered = FlowProblem(
        .passkeyAlreadyRegistered, status: 409, title: "Passkey already registered",
        detail: "This passkey is registered already. Use it to sign in, or create another one.", action: .retryInput)
}
