import Foundation
import KeywayProtocol

/// Token exchange (RFC 8693): a JWT from a trusted external issuer is exchanged for Keyway
/// tokens of the user its subject is linked to. The first exchange of a subject links it to the
/// user with the same verified email, or creates that user, as the issuer's configuration allows.
///
/// Every refusal of the subject token (unknown issuer, bad signature, wrong audience, expired, no
/// linkable identity) answers `invalid_grant` and writes nothing.
enum TokenExchange {
    static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"
    static let jwtType = "urn:ietf:params:oauth:token-type:jwt"
    static let idTokenType = "urn:ietf:params:oauth:token-type:id_token"
    static let accessTokenType = "urn:ietf:params:oauth:token-type:access_token"
    /// The `amr` value of sessions created by an exchange: federated authentication.
    static let amr = "fed"
}

/// The token exchange grant (RFC 8693).
struct TokenExchangeGrant: TokenGrant {
    let grantType = TokenExchange.grantType
    let metricName = "token_exchange"

    func issue(_ request: TokenRequest, on endpoint: TokenEndpoint) async throws -> TokenResponse {
        try await endpoint.exchange(form: request.form, application: request.application, binding: request.binding)
    }
}

extension TokenEndpoint {
    fileprivate func exchange(form: [String: String], application: ApplicationRecord, binding: String?) async throws
        -> TokenResponse
    {
        guard let subjectToken = form["subject_token"], !subjectToken.isEmpty else {
            throw OAuthFailure.invalidRequest("subject_token is required.")
        }
        guard let subjectTokenType = form["subject_token_type"] else {
            throw OAuthFailure.invalidRequest("subject_token_type is required.")
        }
        guard [TokenExchange.jwtType, TokenExchange.idTokenType].contains(subjectTokenType) else {
            throw OAuthFailure.invalidRequest(
                "subject_token_type \(subjectTokenType) is not supported; use \(TokenExchange.jwtType) or \(TokenExchange.idTokenType).")
        }
        guard form["actor_token"] == nil, form["actor_token_type"] == nil else {
            throw OAuthFailure.invalidRequest("Delegation with an actor_token is not supported.")
        }
        if let requested = form["requested_token_type"], requested != TokenExchange.accessTokenType {
            throw OAuthFailure.invalidRequest(
                "requested_token_type \(requested) is not supported; this server issues \(TokenExchange.accessTokenType).")
        }
        let issuer = issuer()
        for parameter in ["audience", "resource"] {
            if let target = form[parameter], target != issuer {
                throw OAuthFailure.invalidTarget("This server only issues tokens for \(issuer); \(parameter) names another target.")
            }
        }
        let requestedScope = try Self.exchangeScope(form["scope"])

        let now = clock.now()
        let nowMillis = now.epochMilliseconds
        let identity: ExternalTokenVerifier.Identity
        let trusted: TrustedIssuerRepository.Issuer
        do {
            let parsed = try ExternalTokenVerifier.parse(subjectToken)
            guard let claimed = parsed.claimedIssuer,
                let found = try await database.read({
                    try await $0.trustedIssuers.issuer(projectId: application.projectId, issuer: claimed)
                })
            else { throw ExternalTokenVerifier.Refusal("The subject token's issuer is not trusted.") }
            trusted = found
            let keys: [JSONWebKey]
            if let fixed = found.keys {
                keys = fixed.keys
            } else if let url = found.jwksURL {
                do {
                    keys = try await issuerKeys.keys(at: url, kid: parsed.jws.keyID)
                } catch let failure as JWKSFetcher.Failure {
                    throw ExternalTokenVerifier.Refusal("The subject token cannot be verified: \(failure.message).")
                }
            } else {
                keys = []
            }
            identity = try ExternalTokenVerifier.verify(parsed, against: found, keys: keys, now: nowMillis)
        } catch let refusal as ExternalTokenVerifier.Refusal {
            logger.notice("token exchange refused", metadata: ["client": "\(application.configId)", "reason": "\(refusal.message)"])
            throw OAuthFailure.invalidGrant(refusal.message)
        }

        // A refresh token only with offline access, and only for a client that may hold one.
        let scope = RefreshTokenFamily.scope(requestedScope, grantedTo: application)
        let family = RefreshTokenFamily(policy: application.refreshTokens ?? tokens.lifetimes.refreshTokens, now: nowMillis)
        let logger = self.logger
        let outcome: Result<(TokenIssuer.Subject, String?), OAuthFailure> = try await database.write { repositories in
            let projectId = application.projectId
            var user: UserRecord?
            if let linked = try await repositories.trustedIssuers.linkedUser(
                projectId: projectId, issuer: identity.issuer, subject: identity.subject)
            {
                user = try await repositories.users.find(id: linked)
            } else if let email = identity.email, identity.emailVerified {
                if trusted.linkByVerifiedEmail {
                    user = try await repositories.users.find(projectId: projectId, email: email)
                }
                if user == nil, trusted.createUsers {
                    let created = UserRecord(
                        id: SecureRandom.identifier(prefix: "usr"), projectId: projectId, email: email,
                        emailVerified: true, createdAt: nowMillis)
                    try await repositories.users.insert(created)
                    user = created
                }
                if let user {
                    try await repositories.trustedIssuers.link(
                        projectId: projectId, issuer: identity.issuer, subject: identity.subject, userId: user.id,
                        at: nowMillis)
                    logger.info(
                        "external identity linked",
                        metadata: ["issuer": "\(identity.issuer)", "user": "\(user.id)"])
                }
            }
            guard let user else {
                return .failure(
                    .invalidGrant(
                        "No user is linked to this external identity, and the token carries no verified email this server may link or create one by."))
            }
            let sessionId = SecureRandom.identifier(prefix: "ses")
            try await repositories.sessions.insert(
                SessionRecord(
                    id: sessionId, userId: user.id, applicationId: application.id, amr: [TokenExchange.amr],
                    authTime: nowMillis, createdAt: nowMillis, revokedAt: nil))
            let refreshToken = try await family.start(
                scope: scope, applicationId: application.id, userId: user.id, sessionId: sessionId,
                authorizationCodeHash: nil, binding: binding, in: repositories)
            return .success(
                (
                    TokenIssuer.Subject(
                        userId: user.id, email: user.email, emailVerified: user.emailVerified,
                        phoneNumber: user.verifiedPhone, clientId: application.configId, sessionId: sessionId,
                        authTime: nowMillis, amr: [TokenExchange.amr], scope: scope, dpopJkt: binding,
                        isAnonymous: user.isAnonymous),
                    refreshToken
                ))
        }
        let (subject, refreshToken) = try outcome.get()
        var response = try tokenResponse(
            for: subject, refreshToken: refreshToken, now: now, idTokenAlgorithm: application.idTokenAlgorithm)
        response.issuedTokenType = TokenExchange.accessTokenType
        return response
    }

    /// The requested scope, a subset of a sign-in's; a sign-in's scope when none is requested.
    private static func exchangeScope(_ requested: String?) throws -> String {
        guard let requested else { return signInScope }
        let scopes = try scopeSet(requested)
        guard scopes.isSubset(of: Set(signInScope.split(separator: " ").map(String.init))) else {
            throw OAuthFailure.invalidScope("The requested scope is not one this server grants.")
        }
        return scopes.sorted().joined(separator: " ")
    }
}
