import Crypto
import Foundation
import KeywayPowerAuth
import KeywayPowerAuthWire
import Logging

/// MAC tokens of activations (MAC-Token-Based-Authentication.md): `/pa/v3/token/create` and
/// `/pa/v3/token/remove` for the device, and the tokens an administrator lists and revokes. A
/// token's secret is sealed at rest; a token verifies only while its activation is ACTIVE, and
/// goes with the activation when it is removed.
struct PowerAuthTokenService: Sendable {
    /// How the service's signed (and encrypted) requests are read: its database, clock,
    /// signature verifier and keystore.
    let signed: PowerAuthSignedEncryption
    let logger: Logger

    /// Live tokens an activation keeps; creating one more removes the oldest.
    static let maxTokensPerActivation = 50

    /// The sealing purpose of a token's secret.
    static func secretPurpose(_ tokenId: String) -> String { "powerauth-token-secret:\(tokenId)" }

    /// `POST /pa/v3/token/create`: a signature with any factors over the encrypted body (uriId
    /// `/pa/token/create`), the body opened in activation scope (sharedInfo1
    /// `/pa/token/create`), answered with the new token's ID and secret, sealed.
    func create(authorization: String?, body: Data) async throws -> EciesEnvelope {
        let opened = try await signed.open(.tokenCreate, authorization: authorization, body: body)
        let (verified, activation, context) = (opened.verified, opened.activation, opened.context)
        let plaintext = opened.plaintext
        guard (try? JSONSerialization.jsonObject(with: plaintext)) is [String: Any] else {
            throw PowerAuthFailure.invalidRequest("The encrypted request is not a JSON object.")
        }
        let tokenId = UUID().uuidString.lowercased()
        let secret = Data(SecureRandom.bytes(16)).base64EncodedString()
        let now = signed.clock.now().epochMilliseconds
        let record = PowerAuthTokenRecord(
            id: tokenId, activationId: activation.id,
            sealedSecret: try signed.verifier.secrets.seal(text: secret, purpose: Self.secretPurpose(tokenId)),
            factors: verified.factors.typeName, createdAt: now, lastUsedAt: nil)
        try await signed.database.write { repositories in
            try await repositories.powerAuthTokens.insert(record)
            let tokens = try await repositories.powerAuthTokens.all(activationId: activation.id)
            for old in tokens.prefix(max(0, tokens.count - Self.maxTokensPerActivation)) {
                _ = try await repositories.powerAuthTokens.delete(id: old.id, activationId: activation.id)
            }
        }
        logger.notice(
            "powerauth: token created",
            metadata: ["activation": "\(activation.id)", "token": "\(tokenId)", "factors": "\(record.factors)"])
        return try context.seal(
            try PowerAuthJSON.encode(TokenCreateResponse(tokenId: tokenId, tokenSecret: secret)), now: signed.clock.now())
    }

    /// `POST /pa/v3/token/remove`: a signature with any factors (uriId `/pa/token/remove`); a token
    /// of another activation is unknown and nothing is removed.
    func remove(authorization: String?, body: Data) async throws -> TokenRemoveObject {
        let request = try PowerAuthJSON.decode(PowerAuthRequestEnvelope<TokenRemoveObject>.self, from: body).requestObject
        let tokenId = try PowerAuthField.identifier(request.tokenId, field: "tokenId")
        let verified = try await signed.verifier.verify(
            header: authorization, method: "POST", uriId: PowerAuthEndpoint.tokenRemove.uriId, body: body,
            required: PowerAuthEndpoint.tokenRemove.factors.accepts)
        let activationId = verified.activation.id
        let removed = try await signed.database.write { repositories in
            try await repositories.powerAuthTokens.delete(id: tokenId, activationId: activationId)
        }
        guard removed else { throw PowerAuthFailure.token("The activation has no token of this ID (unknown token).") }
        logger.notice("powerauth: token removed by its device", metadata: ["activation": "\(activationId)", "token": "\(tokenId)"])
        return TokenRemoveObject(tokenId: tokenId)
    }

    // MARK: - Administration

    /// The activation's tokens, oldest first.
    func list(activationId: String) async throws -> PowerAuthTokenList {
        try await signed.database.read { repositories in
            guard try await repositories.powerAuthActivations.find(id: activationId) != nil else {
                throw PowerAuthAdminError.activationNotFound(activationId: activationId)
            }
            return PowerAuthTokenList(
                tokens: try await repositories.powerAuthTokens.all(activationId: activationId).map { token in
                    PowerAuthTokenSummary(
                        tokenId: token.id, factors: token.factors, createdAt: RFC3339.string(token.createdAt),
                        lastUsedAt: token.lastUsedAt.map(RFC3339.string))
                })
        }
    }

    /// Revokes one token of the activation.
    func revoke(activationId: String, tokenId: String) async throws {
        let removed = try await signed.database.write { repositories in
            try await repositories.powerAuthTokens.delete(id: tokenId, activationId: activationId)
        }
        guard removed else { throw PowerAuthAdminError.tokenNotFound(tokenId: tokenId) }
    }
}

/// `GET /admin/activations/{activationId}/tokens`.
package struct PowerAuthTokenList: Codable, Sendable, Equatable {
    var tokens: [PowerAuthTokenSummary]
}

/// One token as the admin API lists it (never its secret).
package struct PowerAuthTokenSummary: Codable, Sendable, Equatable {
    var tokenId: String
    var factors: String
    var createdAt: String
    var lastUsedAt: String?
}
