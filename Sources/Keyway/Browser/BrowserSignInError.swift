import Foundation

/// Why a sign-in through the browser did not come back with a code.
public enum BrowserSignInError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The user closed the browser, or the task was cancelled.
    case cancelled
    /// The browser could not be opened or failed (the reason, for logs).
    case browserFailed(String)
    /// The server answered the authorization request with an OAuth error (RFC 6749 §4.1.2.1):
    /// its code (`access_denied`, `login_required`, `invalid_scope`…), description and URI.
    case authorizationFailed(error: String, description: String?, uri: String?)
    /// The callback's `state` is missing or not the request's: it is not the answer to this
    /// request (a forged or stale callback), and nothing in it was used.
    case stateMismatch
    /// The callback's `iss` names another server (RFC 9207): a mix-up, nothing was used.
    case issuerMismatch(expected: String, received: String)
    /// The callback has no `iss` though the server advertises that it always sends it (RFC 9207).
    case issuerMissing
    /// The callback has neither a code nor an error.
    case missingCode
    /// The callback is not at the request's redirect URI, or its query is malformed (a parameter
    /// given twice).
    case malformedCallback(String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .cancelled: "The sign-in was cancelled."
        case .browserFailed(let why): "The browser could not complete the sign-in: \(why)"
        case .authorizationFailed(let error, let description, _):
            "The server refused the sign-in (\(error)): \(description ?? "no description")"
        case .stateMismatch: "The browser came back with a state that is not this sign-in's."
        case .issuerMismatch(let expected, let received):
            "The browser came back from \(received), not from \(expected)."
        case .issuerMissing: "The browser came back without the server's issuer (iss)."
        case .missingCode: "The browser came back without an authorization code."
        case .malformedCallback(let why): "The browser came back with a malformed callback: \(why)"
        }
    }

    /// The OAuth error code of ``authorizationFailed(error:description:uri:)``, else `nil`.
    public var oauthError: String? {
        if case .authorizationFailed(let error, _, _) = self { return error }
        return nil
    }
}

extension BrowserSignInError: KeywayRecoverableError {
    /// What the error amounts to: ``KeywayErrorRecovery/retry`` for a cancelled sign-in, a browser
    /// failure and the server's `temporarily_unavailable` or `server_error`;
    /// ``KeywayErrorRecovery/notRecoverable`` for a request the server calls malformed
    /// (`invalid_request`, `invalid_scope`, `unauthorized_client`, `unsupported_response_type`)
    /// and an issuer mismatch; ``KeywayErrorRecovery/startOver`` for the rest.
    public var recovery: KeywayErrorRecovery {
        switch self {
        case .cancelled, .browserFailed: .retry
        case .authorizationFailed(let error, _, _):
            switch error {
            case "temporarily_unavailable", "server_error": .retry
            case "invalid_request", "invalid_scope", "unauthorized_client", "unsupported_response_type",
                "invalid_request_uri", "invalid_request_object", "request_not_supported":
                .notRecoverable
            default: .startOver
            }
        case .issuerMismatch, .issuerMissing: .notRecoverable
        case .stateMismatch, .missingCode, .malformedCallback: .startOver
        }
    }


    /// A sentence for the user about what to do.
    public var recoverySuggestion: String? {
        switch recovery {
        case .retry: "Try again."
        case .startOver: "Sign in again."
        case .notRecoverable: nil
        }
    }
}
