import Foundation
import KeywayJOSE

/// The claims of an access token this server issued, once verified.
struct AccessTokenClaims: Sendable, Equatable {
    var tokenId: String
    var subject: String
    var clientId: String
    var sessionId: String
    var scope: String
    var issuedAt: Int64
    var expiresAt: Int64
    var issuer: String
    /// The DPoP key thumbprint the token is bound to (`cnf.jkt`), if any.
    var dpopJkt: String? = nil

    var scopes: Set<String> { Set(scope.split(separator: " ").map(String.init)) }
}

/// Verifies an access token issued by this server: an RFC 9068 JWT (`typ: at+jwt`) signed with
/// the server's key, for this issuer, not expired. Revocation and the session are checked by the
/// caller, against the database.
struct AccessTokenVerifier: Sendable {
    /// The published keys a token may be signed with.
    let keys: SigningKeyRing
    let clock: any ServerClock

    /// The claims, or `nil` for anything that is not a valid, unexpired Keyway access token.
    func verify(_ token: String, issuer: String) -> AccessTokenClaims? {
        guard token.utf8.count <= 4096, let jws = try? CompactJWS(token), jws.type == "at+jwt",
            let kid = jws.keyID, let key = keys.verificationKey(kid: kid), (try? jws.verifyES256(with: key)) != nil,
            case .object(let claims) = try? JSONDecoder().decode(JSONValue.self, from: jws.payload),
            claims["iss"]?.stringValue == issuer, claims["aud"]?.stringValue == issuer,
            let tokenId = claims["jti"]?.stringValue, let subject = claims["sub"]?.stringValue,
            let clientId = claims["client_id"]?.stringValue, let sessionId = claims["sid"]?.stringValue,
            let scope = claims["scope"]?.stringValue, let iat = claims["iat"]?.numericDate,
            let exp = claims["exp"]?.numericDate
        else { return nil }
        guard clock.now().timeIntervalSince1970 < Double(exp) else { return nil }
        var jkt: String?
        if case .object(let confirmation)? = claims["cnf"] {
            guard let value = confirmation["jkt"]?.stringValue else { return nil }
            jkt = value
        }
        return AccessTokenClaims(
            tokenId: tokenId, subject: subject, clientId: clientId, sessionId: sessionId, scope: scope,
            issuedAt: iat, expiresAt: exp, issuer: issuer, dpopJkt: jkt)
    }

    /// The claims of `token` (see ``verify(_:issuer:)``), after reading the signing keys again when
    /// their refresh is due. Call it before taking a database connection: the refresh takes one of
    /// its own, and a request that held one while waiting for another could, with enough of them at
    /// once, hold every connection of the pool while each waited for one more.
    ///
    /// A token naming a key this instance does not know has the keys read again first (at most once
    /// a second, ``SigningKeyRing/reloadForUnknownKey(_:)``): another instance may already sign with
    /// a key rotated in without pre-publication.
    func verifyWithCurrentKeys(_ token: String, issuer: String) async throws -> AccessTokenClaims? {
        try await keys.refreshIfDue()
        if let claims = verify(token, issuer: issuer) { return claims }
        guard token.utf8.count <= 4096, let kid = (try? CompactJWS(token))?.keyID,
            try await keys.reloadForUnknownKey(kid)
        else { return nil }
        return verify(token, issuer: issuer)
    }

    /// Whether the verified `claims` are still live, checked in `repositories`: the token was not
    /// revoked and its sign-in session was not ended.
    func isLive(_ claims: AccessTokenClaims, in repositories: Repositories) async throws -> Bool {
        guard try await !repositories.revokedAccessTokens.contains(jti: claims.tokenId),
            let session = try await repositories.sessions.find(id: claims.sessionId), session.revokedAt == nil,
            session.userId == claims.subject
        else { return false }
        return true
    }
}
