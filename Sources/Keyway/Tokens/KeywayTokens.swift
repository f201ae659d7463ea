import Foundation
import KeywayProtocol

/// The stateless token calls of an application (``KeywayClient/tokens``): redeeming a code,
/// exchanging another system's token, verifying a backend's token response, refreshing and
/// revoking. Nothing here is saved: an app that keeps a signed-in user uses
/// ``KeywayClient/session``, which makes these calls itself.
public struct KeywayTokens: Sendable {
    let client: TokenClient
    let flowDriver: FlowDriver

    /// Redeems an authorization code at the token endpoint and verifies the ID token (signature
    /// against the server's JWKS, `iss`, `aud`, `exp`, `iat`, `at_hash`, and `nonce` when the
    /// flow sent one).
    ///
    /// For public applications only: the recommended path is to send `authCode` and
    /// `codeVerifier` to your backend and redeem them there. When `authCode` is the code of the
    /// latest flow this client completed (``KeywayFlow/completion``), the flow's redirect URI is
    /// sent with it and its nonce checked, as ``exchange(_:)`` does.
    ///
    /// - Parameters:
    ///   - authCode: The code of the completed flow (``FlowUpdate/completed(session:authCode:expiresAt:codeVerifier:meta:)``).
    ///   - codeVerifier: The PKCE verifier of the flow.
    /// - Returns: The verified tokens.
    /// - Throws: ``KeywayError``: `oauth` with the server's error (`invalid_grant` for a used or
    ///   expired code), `invalidIDToken` (a `nonce` other than the flow's among the reasons),
    ///   `networkFailure`, `invalidResponse` for an answer the SDK cannot read,
    ///   `invalidConfiguration` for an empty code or a malformed verifier.
    public func exchange(authCode: Sensitive<String>, codeVerifier: Sensitive<String>) async throws -> TokenSet {
        let completion = await flowDriver.completion(for: authCode)
        return try await client.exchange(
            authCode: authCode, codeVerifier: codeVerifier, redirectURI: completion?.redirectURI?.absoluteString,
            nonce: completion?.nonce)
    }

    /// Redeems a completed flow's code (``KeywayFlow/completion``): with its PKCE verifier and its
    /// redirect URI, checking that the ID token carries its nonce.
    ///
    /// - Parameter completion: The completed flow.
    /// - Returns: The verified tokens.
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` when the completion has no verifier (the
    ///   challenge was made elsewhere: redeem it there), and what
    ///   ``exchange(authCode:codeVerifier:redirectURI:nonce:)`` throws.
    public func exchange(_ completion: FlowCompletion) async throws -> TokenSet {
        try await Self.exchange(completion, at: client)
    }

    /// Redeems `completion` at `client` (the flow's own saver calls it without holding the flow).
    static func exchange(_ completion: FlowCompletion, at client: TokenClient) async throws -> TokenSet {
        guard let codeVerifier = completion.codeVerifier else {
            throw KeywayError.invalidConfiguration("The flow's PKCE challenge was made elsewhere; redeem its code there.")
        }
        return try await client.exchange(
            authCode: completion.authCode, codeVerifier: codeVerifier,
            redirectURI: completion.redirectURI?.absoluteString, nonce: completion.nonce)
    }

    /// Redeems an authorization code obtained with a redirect URI and a nonce, whatever obtained
    /// it: `redirect_uri` is repeated at the token endpoint (RFC 6749 §4.1.3) and the ID token
    /// must carry `nonce`.
    ///
    /// - Parameters:
    ///   - authCode: The authorization code.
    ///   - codeVerifier: Its PKCE verifier.
    ///   - redirectURI: The redirect URI the code was obtained with, or `nil` when none was sent.
    ///   - nonce: The nonce the sign-in was started with, or `nil` when none was sent (the claim
    ///     is then not checked).
    /// - Returns: The verified tokens.
    /// - Throws: ``KeywayError``, as ``exchange(authCode:codeVerifier:)``.
    public func exchange(
        authCode: Sensitive<String>, codeVerifier: Sensitive<String>, redirectURI: URL?, nonce: String?
    ) async throws -> TokenSet {
        try await client.exchange(
            authCode: authCode, codeVerifier: codeVerifier, redirectURI: redirectURI?.absoluteString, nonce: nonce)
    }

    /// Exchanges a JWT from another authentication system for Keyway tokens (RFC 8693 token
    /// exchange), the path for moving signed-in users over without asking them to sign in again.
    ///
    /// The server accepts tokens from issuers it has been told to trust, verifies them against
    /// that issuer's keys, audience and expiry, and answers tokens for the linked user (linking
    /// or creating the user on the first exchange, as the server is configured). The new ID token
    /// is verified as ``exchange(authCode:codeVerifier:)`` does; a refused token throws
    /// ``KeywayError/oauth(status:error:)`` with `invalid_grant`.
    ///
    /// - Parameters:
    ///   - externalToken: The other system's JWT.
    ///   - type: What it is: an access token (`.jwt`) or an ID token (`.idToken`).
    /// - Returns: The verified Keyway tokens.
    /// - Throws: ``KeywayError``.
    public func exchange(externalToken: Sensitive<String>, type: ExternalTokenType = .jwt) async throws -> TokenSet {
        try await client.exchange(externalToken: externalToken, type: type)
    }

    /// Verifies a token response the app's backend obtained and handed over (the backend path:
    /// the backend redeemed the code with its secret), as ``exchange(authCode:codeVerifier:)``
    /// verifies its own: the ID token's signature against the server's key set, `iss`, `aud`
    /// (this SDK's config ID), `exp`, `iat`, `at_hash`. Save the result in a ``KeywaySession``.
    ///
    /// - Parameter tokens: The token response the backend handed over.
    /// - Returns: The verified tokens.
    /// - Throws: ``KeywayError/invalidIDToken(_:)``, or ``KeywayError/networkFailure(_:)`` when
    ///   the key set cannot be fetched.
    public func verify(_ tokens: TokenResponse) async throws -> TokenSet {
        try await client.verify(tokens)
    }

    /// Trades a refresh token for fresh tokens (public applications), verifying the new ID token
    /// as ``exchange(authCode:codeVerifier:)`` does.
    ///
    /// Refresh tokens rotate: the answer's `refreshToken` replaces the one presented, which is
    /// spent. Store the new one before discarding the old; presenting a spent token again after
    /// the server's short grace period revokes every token of the sign-in.
    ///
    /// - Parameter refreshToken: The current refresh token.
    /// - Returns: The new, verified tokens.
    /// - Throws: ``KeywayError/oauth(status:error:)`` (`invalid_grant`: the token is dead, sign
    ///   in again), `invalidIDToken`, `networkFailure`.
    public func refresh(refreshToken: Sensitive<String>) async throws -> TokenSet {
        try await client.refresh(refreshToken: refreshToken)
    }

    /// Revokes a refresh token or an access token of this application (RFC 7009). Revoking a
    /// refresh token ends its sign-in: every token of it, access tokens included, stops being
    /// accepted. Revoking a token the server does not know succeeds too.
    ///
    /// - Parameter token: A refresh token or an access token.
    /// - Throws: ``KeywayError``: `networkFailure`, or `oauth` when the server refuses the client.
    public func revoke(token: Sensitive<String>) async throws {
        try await client.revoke(token: token)
    }
}
