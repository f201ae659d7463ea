import KeywayProtocol

/// Errors of ``KeywayBackend``.
public enum KeywayBackendError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration cannot be used.
    case invalidConfiguration(String)
    /// The Keyway server could not be reached, or answered something unreadable.
    case serverUnavailable(String)
    /// The token endpoint refused the request (RFC 6749 §5.2).
    case oauth(status: Int, error: OAuthErrorResponse)
    /// A token failed verification; nothing from it may be trusted.
    case invalidToken(String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let why): "Invalid configuration: \(why)"
        case .serverUnavailable(let why): "The Keyway server is unavailable: \(why)"
        case .oauth(let status, let error):
            "The Keyway server refused the request (\(status) \(error.error)): \(error.errorDescription ?? "no description")"
        case .invalidToken(let why): "The token is not valid: \(why)"
        }
    }
}
