import Foundation

/// How long refresh tokens live and how a rotated one may be presented again.
///
/// Every refresh rotates the token: the answer carries a new refresh token and the presented one
/// is spent. All tokens descending from one authorization code form a *family*.
public struct RefreshTokenPolicy: Sendable, Equatable {
    /// The family's lifetime from the sign-in: no refresh extends it.
    public var absoluteLifetime: TimeInterval
    /// How long a refresh token stays usable when it is not used: each refresh starts it again,
    /// capped by the absolute lifetime.
    public var idleLifetime: TimeInterval
    /// How long after a rotation the spent token may be presented again and get the same
    /// successor (an app and its extension refreshing at once). Outside this window a spent token
    /// is treated as stolen and its whole family is revoked.
    public var reuseGracePeriod: TimeInterval

    /// The longest grace period accepted.
    public static let maximumGracePeriod: TimeInterval = 60

    public init(
        absoluteLifetime: TimeInterval = 30 * 24 * 60 * 60, idleLifetime: TimeInterval = 14 * 24 * 60 * 60,
        reuseGracePeriod: TimeInterval = 10
    ) {
        self.absoluteLifetime = absoluteLifetime
        self.idleLifetime = idleLifetime
        self.reuseGracePeriod = reuseGracePeriod
    }

    /// Throws a ``ConfigurationError`` naming the first invalid value.
    public func validate() throws {
        guard absoluteLifetime >= 60, absoluteLifetime <= 400 * 24 * 60 * 60 else {
            throw ConfigurationError("The refresh token absolute lifetime must be between 1 minute and 400 days.")
        }
        guard idleLifetime >= 60, idleLifetime <= absoluteLifetime else {
            throw ConfigurationError(
                "The refresh token idle lifetime must be at least 1 minute and at most the absolute lifetime.")
        }
        guard reuseGracePeriod >= 0, reuseGracePeriod <= Self.maximumGracePeriod else {
            throw ConfigurationError("The refresh token reuse grace period must be between 0 and 60 seconds.")
        }
    }
}
