import Foundation
import KeywayProtocol

/// The result of a code exchange, with the ID token verified.
public struct TokenSet: Sendable, Equatable {
    /// The token endpoint's answer as received.
    public var response: TokenResponse
    /// The verified claims of the ID token.
    public var idToken: IDTokenClaims
    /// When the access token expires (from `expires_in`).
    public var accessTokenExpiresAt: Date

    public init(response: TokenResponse, idToken: IDTokenClaims, accessTokenExpiresAt: Date) {
        self.response = response
        self.idToken = idToken
        self.accessTokenExpiresAt = accessTokenExpiresAt
    }
}

/// The claims of a verified ID token.
public struct IDTokenClaims: Sendable, Equatable {
    public var issuer: String
    public var subject: String
    public var audience: [String]
    public var expiresAt: Date
    public var issuedAt: Date
    public var authTime: Date?
    public var authenticationMethods: [String]
    public var email: String?
    public var emailVerified: Bool?
    /// The session ID (`sid`).
    public var sessionID: String?

    /// The session ID, under its name before 1.0.
    @available(*, deprecated, renamed: "sessionID")
    public var sessionId: String? { sessionID }
}
