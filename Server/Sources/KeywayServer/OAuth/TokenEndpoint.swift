import Foundation
import KeywayJOSE
import KeywayProtocol
import Logging

/// `POST /oauth2/token`: the `authorization_code` grant (RFC 6749 §4.1.3) with PKCE (RFC 7636),
/// the `refresh_token` grant (RFC 6749 §6, in `RefreshGrant.swift`) and token exchange
/// (RFC 8693, in `TokenExchangeGrant.swift`).
struct TokenEndpoint: Sendable {
    let database: any Database
    let clock: any ServerClock
    let issuer: @Sendable () -> String
    let tokens: TokenIssuer
    let refreshTokens: RefreshTokenDerivation
    let dpop: DPoPVerifier
    /// Trusted issuers' key sets fetched from their `jwks_uri`.
    let issuerKeys: JWKSFetcher
    /// Checks the App Attest assertion over the DPoP proof of a code redemption.
    let appAttest: AppAttestService
    /// Counts the tokens issued per grant and refresh token reuse.
    let metrics: ServerMetrics
    let logger: Logger

    /// A token endpoint answer and the `DPoP-Nonce` to send with it, if the application uses nonces.
    struct Answer: Sendable {
        var response: TokenResponse
        var dpopNonce: String?
    }

    /// The scope of a sign-in's tokens when the client asked for none.
    static let signInScope = Scopes.defaultScope

    /// The grant types the endpoint answers, as discovery lists them.
    static let grantTypes = ["authorization_code", "refresh_token", TokenExchange.grantType]

    /// Answers the request of `call`'s client (authenticated by the route's guard,
    /// ``ClientAuthorization``) with its form.
    func handle(
        _ call: ClientCall, dpopProofs: [String] = [], tokenURL: URL, appAttestEvidence: AppAttestEvidence? = nil
    ) async throws -> Answer {
        let (form, application) = (call.form, call.application)
        guard let grantType = form["grant_type"] else {
            throw OAuthFailure.invalidRequest("grant_type is required.")
        }
        guard Self.grantTypes.contains(grantType) else {
            throw OAuthFailure.unsupportedGrantType(grantType)
        }
        if let allowed = application.grantTypes, !allowed.contains(grantType) {
            throw OAuthFailure.unauthorizedClient("This client is not registered for the grant type \(grantType).")
        }
        let binding = try await dpopBinding(proofs: dpopProofs, application: application, tokenURL: tokenURL)
        if grantType == "authorization_code" {
            try await checkAppAttest(appAttestEvidence, proof: binding == nil ? nil : dpopProofs.first, application: application)
        }
        let response: TokenResponse
        switch grantType {
        case "authorization_code": response = try await redeem(form: form, application: application, binding: binding)
        case "refresh_token": response = try await refresh(form: form, application: application, binding: binding)
        default: response = try await exchange(form: form, application: application, binding: binding)
        }
        metrics.tokensIssued(grant: grantType == TokenExchange.grantType ? "token_exchange" : grantType)
        return Answer(response: response, dpopNonce: application.dpop.requireNonce ? dpop.nonce() : nil)
    }

    /// The DPoP key thumbprint the new tokens are bound to, from the request's proof (RFC 9449 §5).
    func dpopBinding(proofs: [String], application: ApplicationRecord, tokenURL: URL) async throws -> String? {
        guard application.dpop.mode != .off else { return nil }
        if proofs.isEmpty {
            guard application.dpop.mode == .required else { return nil }
            throw OAuthFailure.invalidDPoPProof("This application requires DPoP: send a DPoP proof with the request.")
        }
        do {
            let proof = try dpop.verify(
                proofs, method: "POST", url: tokenURL, requireNonce: application.dpop.requireNonce)
            try await dpop.recordUse(proof, in: database)
            return proof.jkt
        } catch let failure as DPoPFailure {
            switch failure {
            case .invalid(let why): throw OAuthFailure.invalidDPoPProof(why)
            case .useNonce: throw OAuthFailure.useDPoPNonce(dpop.nonce())
            }
        }
    }

    /// With ``AppAttestSettings/dpopBinding``, a code is redeemed for DPoP-bound tokens only with
    /// an App Attest assertion over the DPoP proof (or unattested, as the fallback says).
    private func checkAppAttest(_ evidence: AppAttestEvidence?, proof: String?, application: ApplicationRecord)
        async throws
    {
        do {
            _ = try await database.write { repositories in
                let settings = try await repositories.policies.policy(applicationId: application.id)?.appAttest
                guard let settings, settings.enabled, settings.dpopBinding else { return AppAttestService.Outcome.notAsked }
                guard let proof else {
                    if settings.whenUnavailable == .refuse {
                        throw OAuthFailure.unauthorizedClient(
                            "App Attest required: redeem the code with a DPoP proof and an App Attest assertion over it.")
                    }
                    return .unattested
                }
                return try await appAttest.check(
                    evidence, clientData: Data(proof.utf8), settings: settings, asked: true,
                    applicationId: application.id, in: repositories)
            }
        } catch let problem as FlowProblem {
            throw OAuthFailure.unauthorizedClient("\(problem.problem.title): \(problem.problem.detail)")
        }
    }

    private func redeem(form: [String: String], application: ApplicationRecord, binding: String?) async throws
        -> TokenResponse
    {
        guard let code = form["code"] else { throw OAuthFailure.invalidRequest("code is required.") }
        // Whether the code needs a verifier is the code's own (``AuthorizationCodeRedemption``).
        let verifier = form["code_verifier"]
        let now = clock.now()
        let nowMillis = now.epochMilliseconds
        let codeHash = sha256Hex(code)
        let candidateRefreshToken = RefreshTokenDerivation.root()
        let policy = application.refreshTokens ?? tokens.lifetimes.refreshTokens
        let familyExpiresAt = nowMillis + Int64((policy.absoluteLifetime * 1000).rounded())
        let expiresAt = min(nowMillis + Int64((policy.idleLifetime * 1000).rounded()), familyExpiresAt)

        let outcome: Result<(TokenIssuer.Subject, String?), OAuthFailure> = try await database.write { repositories in
            let redeemed: AuthorizationCodeRedemption.Redeemed
            switch try await AuthorizationCodeRedemption.redeem(
                codeHash: codeHash, verifier: verifier, redirectURI: form["redirect_uri"],
                applicationId: application.id, now: nowMillis, in: repositories, logger: self.logger)
            {
            case .failure(let failure): return .failure(failure)
            case .success(let value): redeemed = value
            }
            let (record, user, session) = (redeemed.code, redeemed.user, redeemed.session)
            // A sign-in's code is for the sign-in scope; account management's for no more than
            // the token that opened it. Offline access (a refresh token) only for a client that
            // registered the refresh_token grant.
            var scope = record.scope ?? Scopes.defaultScope
            if !Self.issuesRefreshTokens(to: application) { scope = Self.withoutOfflineAccess(scope) }
            let refreshToken = scope.split(separator: " ").contains("offline_access") ? candidateRefreshToken : nil
            if let refreshToken {
                let id = SecureRandom.identifier(prefix: "rt")
                try await repositories.refreshTokens.insert(
                    RefreshTokenRecord(
                        id: id, tokenHash: sha256Hex(refreshToken), familyId: id, scope: scope,
                        applicationId: application.id, userId: user.id, sessionId: session.id,
                        authorizationCodeHash: codeHash, createdAt: nowMillis, expiresAt: expiresAt,
                        familyExpiresAt: familyExpiresAt, rotatedAt: nil, successorId: nil, revokedAt: nil,
                        dpopJkt: binding))
            }
            return .success(
                (
                    TokenIssuer.Subject(
                        userId: user.id, email: user.email, emailVerified: user.emailVerified,
                        phoneNumber: user.verifiedPhone, clientId: application.configId, sessionId: session.id,
                        authTime: session.authTime, amr: session.amr, scope: scope, dpopJkt: binding,
                        nonce: record.nonce, isAnonymous: user.isAnonymous),
                    refreshToken
                ))
        }
        let (subject, refreshToken) = try outcome.get()
        return try tokenResponse(
            for: subject, refreshToken: refreshToken, now: now, idTokenAlgorithm: application.idTokenAlgorithm)
    }

    /// Whether `application` gets refresh tokens: a registered client only when it registered the
    /// `refresh_token` grant; an application without a grant list (made by an administrator) always.
    static func issuesRefreshTokens(to application: ApplicationRecord) -> Bool {
        application.grantTypes?.contains("refresh_token") ?? true
    }

    /// `scope` without `offline_access`, for a client that gets no refresh token.
    static func withoutOfflineAccess(_ scope: String) -> String {
        scope.split(separator: " ").filter { $0 != "offline_access" }.joined(separator: " ")
    }

    /// Mints the access token, and the ID token (signed with `idTokenAlgorithm`) when the scope
    /// includes `openid`.
    func tokenResponse(
        for subject: TokenIssuer.Subject, refreshToken: String?, now: Date, idTokenAlgorithm: SigningAlgorithm
    ) throws -> TokenResponse {
        let issuer = issuer()
        let accessToken = try tokens.accessToken(for: subject, issuer: issuer, now: now)
        let includesOpenID = subject.scope.split(separator: " ").contains("openid")
        let idToken =
            try includesOpenID
            ? tokens.idToken(for: subject, issuer: issuer, accessToken: accessToken, now: now, algorithm: idTokenAlgorithm)
            : nil
        return TokenResponse(
            accessToken: Sensitive(accessToken), tokenType: subject.dpopJkt == nil ? "Bearer" : "DPoP", expiresIn: Int(tokens.lifetimes.accessToken),
            idToken: idToken.map { Sensitive($0) }, refreshToken: refreshToken.map { Sensitive($0) }, scope: subject.scope)
    }
}
