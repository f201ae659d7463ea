import Crypto
import Foundation
import KeywayPowerAuth
import KeywayPowerAuthWire

/// Temporary encryption keys (protocol 3.3, `POST /pa/v3/keystore/create`): made on request,
/// kept a few minutes (sealed), and the key of every ECIES request. One client network makes at
/// most ``RateLimits/powerAuthTemporaryKeysPerAddress`` per window.
struct PowerAuthKeystore: Sendable {
    let database: any Database
    let clock: any ServerClock
    let secrets: PowerAuthSecrets
    var rateLimits = RateLimits()

    /// How long a temporary key lives.
    static let lifetime: TimeInterval = 300

    /// Checks the request's JWT and answers a new key in a JWT signed by the master key
    /// (application scope) or the activation's server key (activation scope).
    func create(body: Data) async throws -> KeystoreCreateResponse {
        let request = try PowerAuthJSON.decode(PowerAuthRequestEnvelope<KeystoreCreateRequest>.self, from: body)
        guard let jwt = request.requestObject.jwt, !jwt.isEmpty else { throw PowerAuthFailure.invalidRequest("jwt is required.") }
        let claims: TemporaryKeyClaims
        do {
            claims = try TemporaryKeyJWT.unverifiedRequestClaims(jwt)
        } catch {
            throw PowerAuthFailure.invalidRequest("jwt is not a JWT with applicationKey and challenge claims.")
        }
        let applicationKey = try PowerAuthProtocol.applicationKey(claims.applicationKey)
        guard !claims.challenge.isEmpty, claims.challenge.utf8.count <= 256 else {
            throw PowerAuthFailure.invalidRequest("challenge must be 1 to 256 characters.")
        }
        let activationId = try claims.activationID.map { value throws(PowerAuthFailure) in
            try PowerAuthField.identifier(value, field: "activationId")
        }
        let secrets = self.secrets
        let (credentials, activation) = try await database.read { repositories in
            guard let credentials = try await PowerAuthCredentials.find(
                applicationKey: applicationKey, secrets: secrets, in: repositories)
            else { throw PowerAuthFailure.temporaryKey("No application has this application key.") }
            guard let activationId else { return (credentials, PowerAuthActivationRecord?.none) }
            guard let activation = try await repositories.powerAuthActivations.find(id: activationId),
                activation.applicationId == credentials.record.applicationId, activation.sealedServerPrivateKey != nil,
                activation.status != .removed
            else { throw PowerAuthFailure.temporaryKey("No activation of this application has this ID.") }
            return (credentials, activation)
        }
        let activationKeys = try activation.map { try PowerAuthActivationKeys(activation: $0, secrets: secrets) }
        do {
            let requestKey = try TemporaryKeyJWT.requestSigningKey(
                applicationSecret: credentials.applicationSecret, transportKey: activationKeys?.derived.transport)
            _ = try TemporaryKeyJWT.verifyRequest(jwt, key: requestKey)
        } catch {
            throw PowerAuthFailure.temporaryKey("The request's JWT is not signed with the key of its scope.")
        }
        let now = clock.now()
        let keyId = UUID().uuidString.lowercased()
        let privateKey = P256.KeyAgreement.PrivateKey()
        let publicKey = privateKey.publicKey.x963Representation.base64EncodedString()
        let record = PowerAuthTemporaryKeyRecord(
            id: keyId, applicationId: credentials.record.applicationId, activationId: activationId,
            publicKey: publicKey, sealedPrivateKey: try secrets.seal(privateKey, purpose: PowerAuthSecrets.Purpose.temporaryKey(keyId)),
            createdAt: now.epochMilliseconds, expiresAt: now.addingTimeInterval(Self.lifetime).epochMilliseconds)
        let network = RequestClient.address.map(ClientAddress.hash)
        let limit = rateLimits.powerAuthTemporaryKeysPerAddress
        let window = Int64(rateLimits.window * 1000)
        try await database.write { repositories in
            if let network, limit > 0 {
                let (hits, windowStart) = try await repositories.rateLimits.hit(
                    bucket: "pa-tempkey-ip:\(network)", now: record.createdAt, window: window)
                if hits > Int64(limit) {
                    let seconds = max(1, Int((windowStart + window - record.createdAt + 999) / 1000))
                    throw PowerAuthFailure(
                        code: "ERR_TEMPORARY_KEY",
                        message: "Too many temporary keys were asked for from this network: try again in \(seconds) seconds.",
                        status: .tooManyRequests, retryAfterSeconds: seconds)
                }
            }
            try await repositories.powerAuthTemporaryKeys.insert(record)
        }
        let response = TemporaryKeyClaims(
            applicationKey: applicationKey, activationID: activationId, challenge: claims.challenge, keyID: keyId,
            publicKey: publicKey, issuedAtMilliseconds: UInt64(record.createdAt),
            expiresAtMilliseconds: UInt64(record.expiresAt))
        let signer = try activationKeys?.signingKey ?? credentials.masterPrivateKey
        let signed = try TemporaryKeyJWT.response(response, privateKey: signer)
        return KeystoreCreateResponse(jwt: signed)
    }

    /// The private key `request` was sealed to: its temporary key (3.3), or — a 3.2 request has
    /// none — `serverKey`, the application's master key in application scope or the activation's
    /// server key in activation scope.
    func privateKey(
        for request: EciesRequest, applicationId: String, activationId: String?,
        sealedTo serverKey: () throws -> P256.KeyAgreement.PrivateKey, in repositories: Repositories
    ) async throws -> P256.KeyAgreement.PrivateKey {
        guard let id = request.temporaryKeyId else { return try serverKey() }
        return try await privateKey(id: id, applicationId: applicationId, activationId: activationId, in: repositories)
    }

    /// The private key of a temporary key of this scope that has not expired.
    func privateKey(id: String, applicationId: String, activationId: String?, in repositories: Repositories)
        async throws -> P256.KeyAgreement.PrivateKey
    {
        guard let record = try await repositories.powerAuthTemporaryKeys.find(id: id),
            record.applicationId == applicationId, record.activationId == activationId,
            clock.now().epochMilliseconds < record.expiresAt
        else {
            throw PowerAuthFailure.encryption(
                "The temporary key is unknown, expired or of another scope: fetch a new one from /pa/v3/keystore/create.")
        }
        return try secrets.openKey(record.sealedPrivateKey, purpose: PowerAuthSecrets.Purpose.temporaryKey(id))
    }
}

/// JSON on the `/pa/v3` API: a body that does not decode is a ``PowerAuthFailure/invalidRequest(_:)``.
enum PowerAuthJSON {
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(PowerAuthFailure) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw .invalidRequest("The body is not the JSON object this endpoint reads.")
        }
    }

    static func encode<T: Encodable>(_ value: T) throws(PowerAuthFailure) -> Data {
        do {
            return try JSONEncoder().encode(value)
        } catch {
            throw .internalError
        }
    }
}
