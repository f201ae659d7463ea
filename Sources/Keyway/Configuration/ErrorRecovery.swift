import Foundation
import KeywayProtocol

/// What an app can do about an error of the SDK: every error the SDK throws says it
/// (``KeywayRecoverableError/recovery``), besides a sentence for the user
/// (`errorDescription`) and a suggestion (`recoverySuggestion`).
public enum KeywayErrorRecovery: Sendable, Equatable {
    /// The same call may succeed again: later (the network, a busy server, a locked device) or
    /// with other input (a wrong code).
    case retry
    /// Start over: a new flow, or sign in again.
    case startOver
    /// Nothing to do at run time: a configuration or integration error to fix in the app or on
    /// the server.
    case notRecoverable
}

/// An SDK error that classifies itself (``KeywayErrorRecovery``) and describes itself for people.
public protocol KeywayRecoverableError: LocalizedError, Sendable {
    /// Whether to retry, start over, or give up.
    var recovery: KeywayErrorRecovery { get }
}

extension KeywayRecoverableError where Self: CustomStringConvertible {
    /// The error's `description`: what `localizedDescription` shows.
    public var errorDescription: String? { description }
}

extension ProblemAction {
    /// The recovery a flow action amounts to.
    var recovery: KeywayErrorRecovery {
        switch self {
        case .restartFlow: .startOver
        case .abort: .notRecoverable
        default: .retry
        }
    }

    /// A suggestion for people, per action.
    var suggestion: String? {
        switch self {
        case .retryInput: "Check what you entered and try again."
        case .wait: "Wait a moment, then try again."
        case .retryRequest: "Check the connection and try again."
        case .resendCode: "Ask for a new code."
        case .selectMethod: "Choose another way to sign in."
        case .restartFlow: "Start signing in again."
        default: nil
        }
    }
}

extension FlowError: KeywayRecoverableError {
    /// What the server's ``action`` amounts to: ``KeywayErrorRecovery/startOver`` for
    /// ``KeywayProtocol/ProblemAction/restartFlow``, ``KeywayErrorRecovery/notRecoverable`` for
    /// ``KeywayProtocol/ProblemAction/abort``, ``KeywayErrorRecovery/retry`` for every other action.
    public var recovery: KeywayErrorRecovery { action.recovery }
}

extension KeywayError: KeywayRecoverableError {
    /// What the error amounts to: ``KeywayErrorRecovery/retry`` for the network, an unreadable
    /// answer or unavailable storage; ``KeywayErrorRecovery/startOver`` for an invalid ID token and
    /// an `invalid_grant`; ``KeywayErrorRecovery/retry`` for any other OAuth error of status 429 or
    /// 500 and above, ``KeywayErrorRecovery/notRecoverable`` for the rest and for a configuration
    /// error; for a problem, what its ``KeywayProtocol/Problem/action`` amounts to.
    public var recovery: KeywayErrorRecovery {
        switch self {
        case .invalidConfiguration: .notRecoverable
        case .networkFailure, .invalidResponse, .storageUnavailable: .retry
        case .invalidIDToken: .startOver
        case .oauth(let status, let error):
            if error.error == "invalid_grant" { .startOver } else if status >= 500 || status == 429 { .retry } else { .notRecoverable }
        case .problem(let problem): problem.action.recovery
        }
    }


    /// A sentence for the user about what to do, when there is one.
    public var recoverySuggestion: String? {
        switch self {
        case .invalidConfiguration: "Check the SDK's configuration (config ID, base URL, options)."
        case .networkFailure, .invalidResponse: "Check the connection and try again."
        case .storageUnavailable: "Unlock the device, then try again."
        case .invalidIDToken: "Sign in again."
        case .oauth: recovery == .startOver ? "Sign in again." : recovery == .retry ? "Try again in a moment." : nil
        case .problem(let problem): problem.action.suggestion
        }
    }
}

extension SessionError: KeywayRecoverableError {
    /// What the error amounts to: ``KeywayErrorRecovery/startOver`` without an access token or
    /// with a refresh token the server refused; ``KeywayErrorRecovery/retry`` for the network, a
    /// server error or unavailable storage.
    public var recovery: KeywayErrorRecovery {
        switch self {
        case .noAccessTokenPresent, .invalidRefreshToken: .startOver
        case .networkConnectionFailure, .serverError, .storageUnavailable: .retry
        }
    }


    /// A sentence for the user about what to do.
    public var recoverySuggestion: String? {
        switch self {
        case .noAccessTokenPresent, .invalidRefreshToken: "Sign in again."
        case .networkConnectionFailure: "Check the connection and try again."
        case .serverError: "Try again in a moment."
        case .storageUnavailable: "Unlock the device, then try again."
        }
    }
}

extension SecureStorageError: KeywayRecoverableError {
    /// What the error amounts to: ``KeywayErrorRecovery/retry`` while the storage is unavailable
    /// (a locked device), ``KeywayErrorRecovery/startOver`` when what it holds cannot be read.
    public var recovery: KeywayErrorRecovery {
        switch self {
        case .unavailable: .retry
        case .unreadable: .startOver
        }
    }


    /// A sentence for the user about what to do.
    public var recoverySuggestion: String? {
        switch self {
        case .unavailable: "Unlock the device, then try again."
        case .unreadable: "The stored session cannot be read any more: sign in again."
        }
    }
}

extension UserProfileError: KeywayRecoverableError {
    /// Always ``KeywayErrorRecovery/notRecoverable``: the app must import the profile key or fix
    /// the field first.
    public var recovery: KeywayErrorRecovery { .notRecoverable }


    /// A sentence for the developer about what to fix.
    public var recoverySuggestion: String? {
        switch self {
        case .encryptionKeyMissing, .encryptionKeyMismatch:
            "Import the user's profile key on this device (importEncryptionKey(_:))."
        case .unknownField, .encryptedFieldNeedsString: "Check the field against the project's profile schema."
        }
    }
}
