import Foundation
import Hummingbird
import KeywayProtocol
import Logging

/// Endpoints a signed-in user reaches with an access token: the OpenID Connect UserInfo endpoint,
/// the profile (`/v1/me`) and "sign out everywhere". A bearer token comes as `Authorization: Bearer` (RFC 6750); a
/// DPoP-bound token as `Authorization: DPoP` with a `DPoP` proof of this request whose key is the
/// token's and whose `ath` is the token's hash (RFC 9449 §7).
struct UserRoutes {
    let database: any Database
    let clock: any ServerClock
    let issuer: @Sendable () -> String
    let accessTokens: AccessTokenVerifier
    let dpop: DPoPVerifier
    let logger: Logger
    /// Which origins may read UserInfo answers: those the access token's client registered.
    let cors: CORS

    func register(on router: RouteTable) {
        let userInfo: @Sendable (Request, KeywayRequestContext) async throws -> Response = { request, _ in
            var response: Response
            do {
                let (claims, user) = try await authenticate(request)
                let includesEmail = claims.scopes.contains("email")
                response = try HTTPResponses.json(
                    UserInfo(
                        subject: user.id, email: includesEmail ? user.email : nil,
                        emailVerified: includesEmail ? user.emailVerified : nil, isAnonymous: user.isAnonymous))
            } catch let failure as OAuthFailure {
                response = HTTPResponses.oauthError(failure)
            }
            await cors.allowForClient(&response, request: request, clientId: tokenClient(request))
            return response
        }
        let router = router.declaring(.user)
        // OpenID Connect Core §5.3: the token needs `openid`; its other scopes choose the claims.
        router.get("oauth2/userinfo", use: userInfo)
        router.post("oauth2/userinfo", use: userInfo)
        router.options("oauth2/userinfo") { request, _, allow in
            await cors.preflight(request, allow: allow, everyone: false)
        }

        // The user's profile, per the project's schema. A third-party application's token gets
        // what its consented scopes give, as at UserInfo: the email address with `email`, and
        // never the project's profile fields (no scope names them).
        router.get("v1/me") { request, _ in
            do {
                let (claims, user) = try await authenticate(request)
                let (schema, profile, firstParty) = try await database.read { repositories in
                    (
                        try await repositories.profiles.schema(projectId: user.projectId),
                        try await repositories.profiles.profile(userId: user.id),
                        try await repositories.applications.find(configId: claims.clientId)?.firstParty ?? false
                    )
                }
                let email = firstParty || claims.scopes.contains("email")
                return try HTTPResponses.json(
                    UserProfileDocument(
                        subject: user.id, email: email ? user.email : nil, emailVerified: email && user.emailVerified,
                        profile: firstParty ? profile.filter { name, _ in schema.contains { $0.name == name } } : [:],
                        schema: firstParty ? schema : []))
            } catch let failure as OAuthFailure {
                return HTTPResponses.oauthError(failure)
            }
        }
        router.declaring(.account).patch("v1/me") { request, context in
            let user: UserRecord
            do {
                user = try await authenticateAccount(request).1
            } catch let failure as OAuthFailure {
                return HTTPResponses.oauthError(failure)
            }
            let update = try await RequestDecoding.json(UserProfileUpdate.self, from: request, context: context)
            let now = clock.now().epochMilliseconds
            let outcome: Result<UserProfileDocument, FlowProblem> = try await database.write { repositories in
                let schema = try await repositories.profiles.schema(projectId: user.projectId)
                let current = try await repositories.profiles.profile(userId: user.id)
                switch ProfileValidation.apply(update.profile, to: current, schema: schema) {
                case .failure(let problem):
                    return .failure(problem)
                case .success(let next):
                    try await repositories.profiles.setProfile(next, userId: user.id, at: now)
                    return .success(
                        UserProfileDocument(
                            subject: user.id, email: user.email, emailVerified: user.emailVerified, profile: next,
                            schema: schema))
                }
            }
            return try HTTPResponses.json(try outcome.get())
        }

        // Sign out everywhere: every session and refresh token of the user, in every app, and
        // every browser signed in at the hosted pages.
        router.declaring(.account).delete("v1/me/sessions") { request, _ in
            do {
                let (_, user) = try await authenticateAccount(request)
                let now = clock.now().epochMilliseconds
                try await database.write { repositories in
                    try await repositories.refreshTokens.revokeAll(userId: user.id, at: now)
                    try await repositories.sessions.revokeAll(userId: user.id, at: now)
                    _ = try await repositories.browserSessions.revokeAll(userId: user.id, at: now)
                }
                logger.notice("signed out everywhere", metadata: ["user": "\(user.id)"])
                return Response(status: .noContent, headers: [.cacheControl: "no-store"])
            } catch let failure as OAuthFailure {
                return HTTPResponses.oauthError(failure)
            }
        }
    }

    /// A bound token needs the DPoP scheme and a valid proof with its key; an unbound one the
    /// Bearer scheme.
    private func checkBinding(
        _ claims: AccessTokenClaims, token: String, scheme: String, request: Request, issuer: String
    ) async throws {
        guard let jkt = claims.dpopJkt else {
            guard scheme == "bearer" else {
                throw OAuthFailure.invalidToken("This access token is a bearer token: use Authorization: Bearer.", status: 401)
            }
            return
        }
        guard scheme == "dpop" else {
            throw OAuthFailure.invalidDPoPToken("This access token is bound to a DPoP key: use Authorization: DPoP with a DPoP proof.")
        }
        guard let url = URL(string: issuer + request.uri.path) else { throw OAuthFailure.serverError }
        do {
            let proof = try dpop.verify(
                request.headers[values: HTTPResponses.dpopHeader], method: request.method.rawValue, url: url,
                accessToken: token, requireNonce: false)
            guard proof.jkt == jkt else {
                throw DPoPFailure.invalid("The DPoP proof's key is not the key the access token is bound to.")
            }
            try await dpop.recordUse(proof, in: database)
        } catch let failure as DPoPFailure {
            switch failure {
            case .invalid(let why): throw OAuthFailure.invalidDPoPToken(why, error: "invalid_dpop_proof")
            case .useNonce: throw OAuthFailure.invalidDPoPToken("A DPoP nonce is required.", error: "use_dpop_nonce")
            }
        }
    }

    /// The client the request's access token was issued to, when the token verifies (its
    /// revocation aside): whose registered origins may read the answer.
    private func tokenClient(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
        return accessTokens.verify(token, issuer: issuer())?.clientId
    }

    /// The bearer token's verified claims and its user; RFC 6750 §3.1 errors otherwise.
    /// The token's claims and user, for a route of the user's own account (``Caller/account``):
    /// the token must have been issued to a first-party application — one the project's
    /// administrators made, whose users are never asked for consent. A third-party client's token
    /// (a client registered through `/oauth2/register`) carries only the scopes the user consented
    /// to, none of which reaches the account: `403 insufficient_scope`.
    func authenticateAccount(_ request: Request) async throws -> (AccessTokenClaims, UserRecord) {
        let (claims, user) = try await authenticate(request)
        let firstParty = try await database.read { repositories in
            try await repositories.applications.find(configId: claims.clientId)?.firstParty ?? false
        }
        guard firstParty else {
            throw OAuthFailure.insufficientScope(
                "This route changes the user's own account: only a token of one of the project's own applications may use it.")
        }
        return (claims, user)
    }

    func authenticate(_ request: Request) async throws -> (AccessTokenClaims, UserRecord) {
        guard let header = request.headers[.authorization] else {
            throw OAuthFailure.missingBearer
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        let scheme = parts.first?.lowercased()
        // Another scheme (Basic, a bare word) brings no access token: as missing credentials
        // (RFC 6750 §3.1). Bearer or DPoP without a token is malformed.
        guard scheme == "bearer" || scheme == "dpop" else { throw OAuthFailure.missingBearer }
        guard parts.count == 2 else {
            throw OAuthFailure.invalidToken("Send the access token as Authorization: Bearer TOKEN.", status: 400)
        }
        let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
        let issuer = issuer()
        // A token that does not verify costs no database connection.
        guard let signed = try await accessTokens.verifyWithCurrentKeys(token, issuer: issuer) else {
            throw OAuthFailure.invalidToken("The access token is invalid, expired or revoked.", status: 401)
        }
        try await checkBinding(signed, token: token, scheme: scheme ?? "", request: request, issuer: issuer)
        let verified: (AccessTokenClaims, UserRecord)? = try await database.read { repositories in
            let claims = signed
            guard try await accessTokens.isLive(claims, in: repositories),
                let user = try await repositories.users.find(id: claims.subject)
            else { return nil }
            return (claims, user)
        }
        guard let verified else {
            throw OAuthFailure.invalidToken("The access token is invalid, expired or revoked.", status: 401)
        }
        return verified
    }
}
