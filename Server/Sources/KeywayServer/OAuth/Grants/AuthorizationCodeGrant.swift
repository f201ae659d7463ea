import Foundation
import KeywayProtocol

/// The `authorization_code` grant (RFC 6749 §4.1.3) with PKCE (RFC 7636): a code from a sign-in or
/// account-management flow, or from the hosted pages, redeemed once (``AuthorizationCodeRedemption``)
/// for an access token, an ID token with `openid`, and a refresh token with `offline_access` for a
/// client registered for that grant. With App Attest's DPoP binding, the redemption's DPoP proof
/// also needs an App Attest assertion over it.
struct AuthorizationCodeGrant: TokenGrant {
    let grantType = "authorization_code"
    let metricName = "authorization_code"

    func issue(_ request: TokenRequest, on endpoint: TokenEndpoint) async throws -> TokenResponse {
        try await endpoint.checkAppAttest(request.appAttestEvidence, proof: request.dpopProof, application: request.application)
        return try await endpoint.redeem(form: request.form, application: request.application, binding: request.binding)
    }
}

extension TokenEndpoint {
    /// With ``AppAttestSettings/dpopBinding``, a code is redeemed for DPoP-bound tokens only with
    /// an App Attest assertion over the DPoP proof (or unattested, as the fallback says).
    fileprivate func checkAppAttest(_ evidence: AppAttestEvidence?, proof: String?, application: ApplicationRecord)
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

    fileprivate func redeem(form: [String: String], application: ApplicationRecord, binding: String?) async throws
        -> TokenResponse
    {
        guard let code = form["code"] else { throw OAuthFailure.invalidRequest("code is required.") }
        // Whether the code needs a verifier is the code's own (``AuthorizationCodeRedemption``).
        let verifier = form["code_verifier"]
        let now = clock.now()
        let nowMillis = now.epochMilliseconds
        let codeHash = sha256Hex(code)
        let family = RefreshTokenFamily(policy: application.refreshTokens ?? tokens.lifetimes.refreshTokens, now: nowMillis)

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
            let scope = RefreshTokenFamily.scope(record.scope ?? Scopes.defaultScope, grantedTo: application)
            let refreshToken = try await family.start(
                scope: scope, applicationId: application.id, userId: user.id, sessionId: session.id,
                authorizationCodeHash: codeHash, binding: binding, in: repositories)
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
}
