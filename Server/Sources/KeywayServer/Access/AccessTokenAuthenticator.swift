import Foundation
import Hummingbird

/// A user signed in by an access token: the token's verified claims and its user.
struct SignedInUser: Sendable {
    let claims: AccessTokenClaims
    let user: UserRecord
}

/// Verifies the user's access token a request carries. A bearer token comes as
/// `Authorization: Bearer` (RFC 6750); a DPoP-bound token as `Authorization: DPoP` with a `DPoP`
/// proof of this request whose key is the token's and whose `ath` is the token's hash
/// (RFC 9449 §7). Refusals are RFC 6750 §3.1 errors (``OAuthFailure``).
///
/// The routes declared ``Caller/user`` and ``Caller/account`` are checked with it by their guard
/// (``AccessTokenAuthorization``); a flow's start uses it for the token that manages an account
/// or names a guest.
struct AccessTokenAuthenticator: Sendable {
    let database: any Database
    let issuer: @Sendable () -> String
    let accessTokens: AccessTokenVerifier
    let dpop: DPoPVerifier

    /// The token's claims and user; RFC 6750 §3.1 errors otherwise. `formToken` is the
    /// `access_token` of a form body (RFC 6750 §2.2), used only when the request has no
    /// `Authorization` header: a bearer token, never a DPoP-bound one.
    func authenticate(_ request: Request, formToken: String? = nil) async throws -> SignedInUser {
        guard let header = request.headers[.authorization] ?? formToken.map({ "Bearer \($0)" }) else {
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
        let verified: SignedInUser? = try await database.read { repositories in
            let claims = signed
            guard try await accessTokens.isLive(claims, in: repositories),
                let user = try await repositories.users.find(id: claims.subject)
            else { return nil }
            return SignedInUser(claims: claims, user: user)
        }
        guard let verified else {
            throw OAuthFailure.invalidToken("The access token is invalid, expired or revoked.", status: 401)
        }
        return verified
    }

    /// Refuses a token that was not issued to a first-party application — one the project's
    /// administrators made, whose users are never asked for consent. A third-party client's token
    /// (a client registered through `/oauth2/register`) carries only the scopes the user consented
    /// to, none of which reaches the account: `403 insufficient_scope`.
    func requireFirstParty(_ signedIn: SignedInUser) async throws {
        let firstParty = try await database.read { repositories in
            try await repositories.applications.find(configId: signedIn.claims.clientId)?.firstParty ?? false
        }
        guard firstParty else {
            throw OAuthFailure.insufficientScope(
                "This route changes the user's own account: only a token of one of the project's own applications may use it.")
        }
    }

    /// The client the request's access token was issued to, when the token verifies (its
    /// revocation aside): whose registered origins may read the answer.
    func tokenClient(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let token = String(parts[1]).trimmingCharacters(in: .whitespaces)
        return accessTokens.verify(token, issuer: issuer())?.clientId
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
}
