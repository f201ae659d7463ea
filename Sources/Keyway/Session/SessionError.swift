/// Why ``KeywaySession/accessToken(account:throwIfMissing:)`` or another session call failed.
public enum SessionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No one is signed in.
    case noAccessTokenPresent
    /// The server refused the refresh token (revoked, expired, reused): the session was cleared
    /// and the user is signed out.
    case invalidRefreshToken(String)
    /// The server could not be reached, after retries. The session is kept.
    case networkConnectionFailure(String)
    /// The server answered with an error other than a refused refresh token. The session is kept.
    case serverError(String)
    /// Secure storage could not be used (for example a locked device). The session is kept.
    case storageUnavailable(String)

    /// A sentence saying what went wrong, with the detail the case carries.
    public var description: String {
        switch self {
        case .noAccessTokenPresent: "No one is signed in."
        case .invalidRefreshToken(let why): "The session ended: \(why)"
        case .networkConnectionFailure(let why): "The server could not be reached: \(why)"
        case .serverError(let why): "The server failed to refresh the session: \(why)"
        case .storageUnavailable(let why): "Secure storage is unavailable: \(why)"
        }
    }
}
