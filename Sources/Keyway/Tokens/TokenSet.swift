import Foundation
import KeywayProtocol

/// Tokens with their ID token verified: what a code exchange, a refresh or a guest sign-in
/// returns, and what a session stores (``KeywaySession/tokens(account:)``). The SDK and
/// `KeywayBackend` make one after verifying it; a session's `save(_:)` takes it as it is.
public struct TokenSet: Sendable, Equatable {
    /// The token endpoint's answer as received.
    public let response: TokenResponse
    /// The verified claims of the ID token.
    public let idToken: IDTokenClaims
    /// When the access token expires (from `expires_in`).
    public let accessTokenExpiresAt: Date

    /// Creates a token set with the given values; it verifies nothing (verify before).
    ///
    /// - Parameters:
    ///   - response: The token endpoint's answer.
    ///   - idToken: The verified claims of its ID token.
    ///   - accessTokenExpiresAt: When the access token expires.
    public init(response: TokenResponse, idToken: IDTokenClaims, accessTokenExpiresAt: Date) {
        self.response = response
        self.idToken = idToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
    }
}

/// The claims of a verified ID token.
public struct IDTokenClaims: Sendable, Equatable, Codable {
    /// The issuer (`iss`).
    public var issuer: String
    /// The user ID (`sub`).
    public var subject: String
    /// The audience (`aud`): the config IDs the token was issued to.
    public var audience: [String]
    /// When the ID token expires (`exp`).
    public var expiresAt: Date
    /// When the ID token was issued (`iat`).
    public var issuedAt: Date
    /// When the user authenticated (`auth_time`), when the token says.
    public var authTime: Date?
    /// How the user authenticated (`amr`: `otp`, `pwd`, `mfa`, `hwk`…); empty when the token says
    /// nothing.
    public var authenticationMethods: [String]
    /// The user's email address (`email`), when the token carries it.
    public var email: String?
    /// Whether the email address was verified (`email_verified`), when the token says.
    public var emailVerified: Bool?
    /// The user's verified phone number (`phone_number`, E.164), when the token carries it: with
    /// the `phone` scope, or with `email` for an account known only by its number.
    public var phoneNumber: String? = nil
    /// The session ID (`sid`).
    public var sessionID: String?
    /// The `nonce` the sign-in was started with (`nonce`), when the token carries one. When the
    /// SDK sent a nonce it checked this one against it.
    public var nonce: String? = nil
    /// Whether the user is a guest (`is_anonymous`): an account without an identifier, made by
    /// ``KeywaySession/signInAsGuest()``, until a sign-up upgrades it.
    public var isAnonymous: Bool = false
}
