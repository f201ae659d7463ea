/// The kind of token from another authentication system given to
/// ``KeywayTokens/exchange(externalToken:type:)`` (RFC 8693 §3 token type identifiers).
public enum ExternalTokenType: String, Sendable, CaseIterable {
    /// A JWT, for example an access token of the previous system.
    case jwt = "urn:ietf:params:oauth:token-type:jwt"
    /// An OpenID Connect ID token of the previous system.
    case idToken = "urn:ietf:params:oauth:token-type:id_token"
}
