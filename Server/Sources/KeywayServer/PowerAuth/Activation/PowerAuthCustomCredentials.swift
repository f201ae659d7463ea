import Foundation
import Logging

/// Custom credentials of an activation: a Keyway sign-in of the same project, as an access token
/// (a DPoP-bound one with a proof of the activation request by its key) or as an authorization
/// code redeemed here exactly as the token endpoint would.
struct PowerAuthCustomCredentials: Sendable {
    let database: any Database
    let clock: any ServerClock
    let issuer: @Sendable () -> String
    let accessTokens: AccessTokenVerifier
    let dpop: DPoPVerifier
    let logger: Logger

    /// The path the DPoP proof of a bound token names.
    static let path = "/pa/v3/activation/create"

    /// The user the identity attributes prove, for an activation of `applicationId`.
    func user(identity: [String: String], dpopProofs: [String], applicationId: String) async throws -> String {
        guard let application = try await database.read({ try await $0.applications.find(id: applicationId) }) else {
            throw PowerAuthFailure.activation("The application no longer exists.")
        }
        if let token = identity["accessToken"] {
            return try await user(accessToken: token, dpopProofs: dpopProofs, projectId: application.projectId)
        }
        if let code = identity["authorizationCode"] {
            return try await user(authorizationCode: code, identity: identity, projectId: application.projectId)
        }
        throw PowerAuthFailure.invalidRequest(
            "identityAttributes carry accessToken, or authorizationCode with codeVerifier, redirectUri and clientId.")
    }

    private func user(accessToken token: String, dpopProofs: [String], projectId: String) async throws -> String {
        guard token.utf8.count <= 4096 else { throw PowerAuthFailure.invalidRequest("accessToken is too long.") }
        let issuer = issuer()
        guard let signed = try await accessTokens.verifyWithCurrentKeys(token, issuer: issuer) else {
            throw PowerAuthFailure.activation("The access token is invalid, expired or revoked.")
        }
        let verified: (AccessTokenClaims, UserRecord, ApplicationRecord)? = try await database.read { repositories in
            let claims = signed
            guard try await accessTokens.isLive(claims, in: repositories),
                let user = try await repositories.users.find(id: claims.subject),
                let client = try await repositories.applications.find(configId: claims.clientId)
            else { return nil }
            return (claims, user, client)
        }
        guard let (claims, user, client) = verified else {
            throw PowerAuthFailure.activation("The access token is invalid, expired or revoked.")
        }
        guard client.projectId == projectId else {
            throw PowerAuthFailure.activation("The access token was issued to an application of another project.")
        }
        // A device's credentials are the account's: a third party's token never makes them.
        guard client.firstParty else {
            throw PowerAuthFailure.activation("The access token was issued to a third-party application; only the project's own applications activate devices.")
        }
        guard user.blockedAt == nil else { throw PowerAuthFailure.activation("The user is blocked.") }
        if let jkt = claims.dpopJkt {
            guard !dpopProofs.isEmpty, let url = URL(string: issuer + Self.path) else {
                throw PowerAuthFailure.activation(
                    "The access token is bound to a DPoP key: send a DPoP proof of POST \(issuer + Self.path) with its key.")
            }
            do {
                let proof = try dpop.verify(dpopProofs, method: "POST", url: url, accessToken: token, requireNonce: false)
                guard proof.jkt == jkt else {
                    throw PowerAuthFailure.activation("The DPoP proof's key is not the key the access token is bound to.")
                }
                try await dpop.recordUse(proof, in: database)
            } catch let failure as DPoPFailure {
                switch failure {
                case .invalid(let why): throw PowerAuthFailure.activation("The DPoP proof is not valid: \(why)")
                case .useNonce: throw PowerAuthFailure.activation("The DPoP proof needs a nonce.")
                }
            }
        }
        return user.id
    }

    private func user(authorizationCode code: String, identity: [String: String], projectId: String) async throws -> String {
        guard let verifier = identity["codeVerifier"], let clientId = identity["clientId"] else {
            throw PowerAuthFailure.invalidRequest("An authorization code comes with codeVerifier, redirectUri and clientId.")
        }
        guard code.utf8.count <= 512, verifier.utf8.count <= 256, clientId.utf8.count <= 256 else {
            throw PowerAuthFailure.invalidRequest("The authorization code's attributes are too long.")
        }
        let now = clock.now().epochMilliseconds
        let logger = self.logger
        let outcome: Result<String, PowerAuthFailure> = try await database.write { repositories in
            guard let client = try await repositories.applications.find(configId: clientId), client.projectId == projectId
            else { return .failure(.activation("The client is not an application of this project.")) }
            guard client.firstParty else {
                return .failure(.activation("The code was issued to a third-party application; only the project's own applications activate devices."))
            }
            let redemption = try await AuthorizationCodeRedemption.redeem(
                codeHash: sha256Hex(code), verifier: verifier, redirectURI: identity["redirectUri"],
                applicationId: client.id, now: now, in: repositories, logger: logger)
            switch redemption {
            case .failure(let failure):
                return .failure(.activation(failure.body.errorDescription ?? "The authorization code is not valid."))
            case .success(let redeemed):
                guard redeemed.user.blockedAt == nil else { return .failure(.activation("The user is blocked.")) }
                return .success(redeemed.user.id)
            }
        }
        return try outcome.get()
    }
}
