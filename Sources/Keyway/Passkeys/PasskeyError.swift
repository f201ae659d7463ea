import Foundation
import KeywayProtocol

/// Why an authenticator made no passkey or no signature. The flow reports it as its error (with
/// ``code`` and `retryInput`), the prompt still valid: the user may try again, or another way.
public enum PasskeyError: Error, Sendable, Equatable, CustomStringConvertible, KeywayRecoverableError {
    /// The user dismissed the request, or it was cancelled (`passkey_cancelled`).
    case cancelled
    /// No passkey of the authenticator may answer: none for the relying party, or none among
    /// the allowed credentials (`passkey_no_credential`).
    case noCredential
    /// The authenticator already holds one of the credentials the options exclude: this
    /// account has a passkey there (`passkey_already_registered`).
    case alreadyRegistered
    /// The authenticator cannot do what the options ask (no accepted algorithm, no passkeys on
    /// this system) (`passkey_not_supported`).
    case notSupported(String)
    /// The options cannot be used: a challenge or an ID that is not base64url
    /// (`passkey_invalid_options`).
    case invalidOptions(String)
    /// The authenticator failed for another reason (`passkey_failed`).
    case failed(String)

    /// The stable code the flow's error carries.
    public var code: ProblemCode {
        switch self {
        case .cancelled: .passkeyCancelled
        case .noCredential: .passkeyNoCredential
        case .alreadyRegistered: .passkeyAlreadyRegistered
        case .notSupported: .passkeyNotSupported
        case .invalidOptions: .passkeyInvalidOptions
        case .failed: .passkeyFailed
        }
    }

    /// A sentence for the user.
    public var description: String {
        switch self {
        case .cancelled: "The passkey request was cancelled."
        case .noCredential: "There is no passkey for this account here."
        case .alreadyRegistered: "This device already has a passkey for this account."
        case .notSupported(let why): "Passkeys cannot be used here: \(why)"
        case .invalidOptions(let why): "The passkey request cannot be used: \(why)"
        case .failed(let why): "The passkey could not be used: \(why)"
        }
    }


    /// Retry (cancelled, no passkey, a failure), or nothing to do at run time (not supported,
    /// unusable options).
    public var recovery: KeywayErrorRecovery {
        switch self {
        case .cancelled, .noCredential, .alreadyRegistered, .failed: .retry
        case .notSupported, .invalidOptions: .notRecoverable
        }
    }

    /// Any error an authenticator threw, as a passkey error: a ``PasskeyError`` as it is, a
    /// cancelled task as ``cancelled``, anything else as ``failed(_:)``.
    ///
    /// - Parameter error: What the authenticator threw.
    public init(_ error: any Error) {
        switch error {
        case let error as PasskeyError: self = error
        case is CancellationError: self = .cancelled
        default: self = .failed(String(describing: error))
        }
    }

    /// The domain of `ASAuthorizationError`.
    static let authorizationErrorDomain = "com.apple.AuthenticationServices.AuthorizationError"

    /// An `ASAuthorizationError` as a passkey error, by its code: `canceled` (1001) is
    /// ``cancelled``, `notInteractive` (1005: nothing to offer without asking) ``noCredential``,
    /// `matchedExcludedCredential` (1006) ``alreadyRegistered``; the others ``failed(_:)``.
    ///
    /// - Parameters:
    ///   - code: The error's code.
    ///   - description: The error's description.
    init(authorizationErrorCode code: Int, description: String) {
        switch code {
        case 1001: self = .cancelled
        case 1005: self = .noCredential
        case 1006: self = .alreadyRegistered
        default: self = .failed(description)
        }
    }
}

extension ProblemCode {
    /// The user dismissed the passkey request (SDK-side code).
    public static let passkeyCancelled = ProblemCode(rawValue: "passkey_cancelled")
    /// The authenticator has no passkey that may answer (SDK-side code).
    public static let passkeyNoCredential = ProblemCode(rawValue: "passkey_no_credential")
    /// The authenticator cannot do what the passkey options ask (SDK-side code).
    public static let passkeyNotSupported = ProblemCode(rawValue: "passkey_not_supported")
    /// The passkey options cannot be used (SDK-side code).
    public static let passkeyInvalidOptions = ProblemCode(rawValue: "passkey_invalid_options")
    /// The authenticator failed (SDK-side code).
    public static let passkeyFailed = ProblemCode(rawValue: "passkey_failed")
}
