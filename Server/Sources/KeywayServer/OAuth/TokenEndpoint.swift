import Foundation
import KeywayJOSE
import KeywayProtocol
import Logging

/// `POST /oauth2/token`: authenticates nothing itself (the route's guard did), checks the grant
/// type against the client's registration and the DPoP proof, and hands the request to its grant
/// (`Grants/`: the `authorization_code` grant with PKCE, `refresh_token`, token exchange).
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

    /// Answers the request of `call`'s client (authenticated by the route's guard,
    /// ``ClientAuthorization``) with its form.
    func handle(
        _ call: ClientCall, dpopProofs: [String] = [], tokenURL: URL, appAttestEvidence: AppAttestEvidence? = nil
    ) async throws -> Answer {
        let (form, application) = (call.form, call.application)
        guard let grantType = form["grant_type"] else {
            throw OAuthFailure.invalidRequest("grant_type is required.")
        }
        guard let grant = TokenGrants.named(grantType) else {
            throw OAuthFailure.unsupportedGrantType(grantType)
        }
        if let allowed = application.grantTypes, !allowed.contains(grantType) {
            throw OAuthFailure.unauthorizedClient("This client is not registered for the grant type \(grantType).")
        }
        let binding = try await dpopBinding(proofs: dpopProofs, application: application, tokenURL: tokenURL)
        let request = TokenRequest(
            form: form, application: application, binding: binding, dpopProof: binding == nil ? nil : dpopProofs.first,
            appAttestEvidence: appAttestEvidence)
        let response = try await grant.issue(request, on: self)
        metrics.tokensIssued(grant: grant.metricName)
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
