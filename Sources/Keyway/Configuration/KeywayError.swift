import Foundation
import KeywayProtocol

/// Errors thrown by the SDK's throwing calls (configuration and token exchange). Flow calls do
/// not throw: they report failures as ``FlowUpdate/error(code:action:message:retryable:details:meta:)``.
public enum KeywayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The SDK was configured with an unusable value.
    case invalidConfiguration(String)
    /// The server could not be reached.
    case networkFailure(String)
    /// The server answered something the SDK cannot read.
    case invalidResponse(String)
    /// An OAuth endpoint answered with an error (RFC 6749 §5.2).
    case oauth(status: Int, error: OAuthErrorResponse)
    /// The ID token failed verification; nothing from it may be trusted.
    case invalidIDToken(String)
    /// An API endpoint answered with an RFC 7807 problem (for example invalid profile fields,
    /// listed in `invalidFields`).
    case problem(Problem)
    /// The app's ``SecureStorage`` cannot be used right now (for example a locked device);
    /// nothing was changed.
    case storageUnavailable(String)

    /// A sentence saying what went wrong, with the detail the case carries.
    public var description: String {
        switch self {
        case .invalidConfiguration(let why): "Invalid configuration: \(why)"
        case .networkFailure(let why): "Network failure: \(why)"
        case .invalidResponse(let why): "Invalid response: \(why)"
        case .oauth(let status, let error):
            "The server refused the request (\(status) \(error.error)): \(error.errorDescription ?? "no description")"
        case .invalidIDToken(let why): "The ID token is not valid: \(why)"
        case .problem(let problem): "\(problem.title): \(problem.detail)"
        case .storageUnavailable(let why): "Secure storage is unavailable: \(why)"
        }
    }
}
