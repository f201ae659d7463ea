import Foundation
import KeywayProtocol

/// `POST /oauth2/introspect`: token introspection (RFC 7662), for confidential applications only
/// (the route is declared ``Caller/confidentialClient``: its guard refuses any other caller).
/// An application may introspect its own tokens; one holding the `introspection` backend role
/// (``BackendRole/introspection``, granted by the project's administrator — an app's backend
/// checking the tokens its mobile app holds) also those of every application of its project. For
/// any other token — another client's without the role, another project's, and any token that is
/// unknown, expired, revoked, spent or whose sign-in ended — the answer is `{"active": false}`
/// (RFC 7662 §2.2), so a caller learns nothing of tokens it may not see. `token_type` is an access token's type in the sense of RFC 6749 §5.1
/// (`Bearer`, or `DPoP` for a key-bound token); a refresh token, which has no such type, has none.
/// `is_anonymous` says whether the token's user is a guest now (the database's answer, not the
/// token's: `false` once the guest signed up).
struct IntrospectionEndpoint: Sendable {
    let database: any Database
    let clock: any ServerClock
    let issuer: @Sendable () -> String
    let accessTokens: AccessTokenVerifier

    /// Introspects the token of `call`'s form for its confidential client.
    func handle(_ call: ClientCall) async throws -> IntrospectionResponse {
        let caller = call.application
        guard let token = call.form["token"], !token.isEmpty else {
            throw OAuthFailure.invalidRequest("token is required.")
        }
        let issuer = issuer()
        let now = clock.now().epochMilliseconds
        let verified = try await accessTokens.verifyWithCurrentKeys(token, issuer: issuer)
        return try await database.read { repositories in
            if let claims = verified, try await accessTokens.isLive(claims, in: repositories) {
                guard let owner = try await repositories.applications.find(configId: claims.clientId),
                    Self.may(caller, see: owner),
                    let user = try await repositories.users.find(id: claims.subject)
                else { return .inactive }
                return IntrospectionResponse(
                    active: true, scope: claims.scope, clientID: claims.clientId, subject: claims.subject,
                    tokenType: claims.dpopJkt == nil ? "Bearer" : "DPoP", expiresAt: Int(claims.expiresAt), issuedAt: Int(claims.issuedAt),
                    issuer: issuer, sessionID: claims.sessionId, tokenID: claims.tokenId,
                    confirmation: claims.dpopJkt.map { .init(jkt: $0) }, isAnonymous: user.isAnonymous)
            }
            guard let record = try await repositories.refreshTokens.find(hash: sha256Hex(token)),
                record.revokedAt == nil, record.rotatedAt == nil, now < record.expiresAt,
                let session = try await repositories.sessions.find(id: record.sessionId), session.revokedAt == nil,
                let owner = try await repositories.applications.find(id: record.applicationId),
                Self.may(caller, see: owner),
                let user = try await repositories.users.find(id: record.userId)
            else { return .inactive }
            return IntrospectionResponse(
                active: true, scope: record.scope, clientID: owner.configId, subject: record.userId,
                tokenType: nil, expiresAt: Int(record.expiresAt / 1000),
                issuedAt: Int(record.createdAt / 1000), issuer: issuer, sessionID: record.sessionId,
                confirmation: record.dpopJkt.map { .init(jkt: $0) }, isAnonymous: user.isAnonymous)
        }
    }

    /// Whether `caller` may learn about the tokens of `owner`: its own, or with the
    /// `introspection` role those of its project's applications.
    static func may(_ caller: ApplicationRecord, see owner: ApplicationRecord) -> Bool {
        owner.id == caller.id || (owner.projectId == caller.projectId && caller.backendRoles.contains(.introspection))
    }
}
