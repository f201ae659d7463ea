import Crypto
import Foundation
import KeywayJOSE
import KeywayPowerAuth
import KeywayPowerAuthWire
import Logging

/// What an app's own backend does with PowerAuth besides verifying signatures, authenticated as
/// a confidential application of the activation's (or application's) project: gets the key of
/// one ECIES envelope to open a request and seal its answer itself, verifies `X-PowerAuth-Token`
/// headers, reads an activation's public keys, verifies a device's ECDSA signature and has data
/// signed with a server key. Anything of another project is answered as unknown. Keys and
/// secrets are never logged.
struct PowerAuthBackendServices: Sendable {
    let database: any Database
    let clock: any ServerClock
    let secrets: PowerAuthSecrets
    let logger: Logger

    /// How far a timestamp may be from the server's clock (milliseconds).
    static let timeWindow: Int64 = 5 * 60 * 1000
    /// How long a replay record is kept (milliseconds).
    static let replayRetention: Int64 = 10 * 60 * 1000
    /// The most data a server signature covers.
    static let maxSignedData = 64 * 1024

    // MARK: - ECIES keys

    /// A refusal of the ECIES key endpoint: `400 {"error", "error_description"}`.
    static func envelopeRefusal(_ code: String, _ description: String) -> OAuthFailure {
        OAuthFailure(status: 400, body: .init(error: code, errorDescription: description))
    }

    func envelopeKey(_ request: EnvelopeKeyRequest, caller: ApplicationRecord) async throws -> EnvelopeKeyAnswer {
        let sharedInfo1: EciesSharedInfo1
        switch request.scope {
        case "application": sharedInfo1 = .applicationScopeGeneric
        case "activation": sharedInfo1 = .activationScopeGeneric
        default: throw OAuthFailure.invalidRequest("scope is application or activation.")
        }
        let activationId: String?
        do {
            if sharedInfo1 == .activationScopeGeneric {
                activationId = try PowerAuthField.identifier(request.activationId, field: "activationId")
            } else {
                guard request.activationId == nil else {
                    throw PowerAuthFailure.invalidRequest("activationId is sent in activation scope only.")
                }
                activationId = nil
            }
            _ = try PowerAuthProtocol.applicationKey(request.applicationKey)
            _ = try PowerAuthField.identifier(request.temporaryKeyId, field: "temporaryKeyId")
            _ = try PowerAuthField.base64(request.nonce, field: "nonce", count: [16], maxLength: 64)
        } catch let failure as PowerAuthFailure {
            throw OAuthFailure.invalidRequest(failure.message)
        }
        guard let ephemeral = Data(base64Encoded: request.ephemeralPublicKey), [33, 65].contains(ephemeral.count),
            (try? PowerAuthKeys.publicKey(ephemeral)) != nil
        else { throw OAuthFailure.invalidRequest("ephemeralPublicKey is not the Base64 of a P-256 point.") }
        let now = clock.now().epochMilliseconds
        let timestamp = Int64(clamping: request.timestamp)
        guard timestamp > 0 else { throw OAuthFailure.invalidRequest("timestamp is Unix time in milliseconds.") }
        guard abs(now - timestamp) <= Self.timeWindow else {
            throw Self.envelopeRefusal(
                "stale_envelope", "The envelope's timestamp is more than 5 minutes from the server's clock.")
        }
        let secrets = self.secrets
        let (credentials, application, activation, keyRecord) = try await database.read { repositories in
            guard let credentials = try await PowerAuthCredentials.find(
                applicationKey: request.applicationKey, secrets: secrets, in: repositories),
                let application = try await repositories.applications.find(id: credentials.record.applicationId),
                application.projectId == caller.projectId
            else {
                throw Self.envelopeRefusal("unknown_key", "No application of your project has this application key.")
            }
            var activation: PowerAuthActivationRecord?
            if let activationId {
                guard let found = try await repositories.powerAuthActivations.find(id: activationId),
                    found.applicationId == application.id
                else { throw Self.envelopeRefusal("unknown_key", "The application has no activation of this ID.") }
                guard found.status == .active else {
                    throw Self.envelopeRefusal("inactive_activation", "The activation is \(found.status.rawValue), not ACTIVE.")
                }
                activation = found
            }
            let key = try await repositories.powerAuthTemporaryKeys.find(id: request.temporaryKeyId)
            return (credentials, application, activation, key)
        }
        guard let keyRecord, keyRecord.applicationId == application.id, keyRecord.activationId == activationId,
            now < keyRecord.expiresAt
        else {
            throw Self.envelopeRefusal(
                "unknown_key", "The temporary key is unknown, expired, or of another application or scope.")
        }
        let privateKey = try secrets.openKey(
            keyRecord.sealedPrivateKey, purpose: PowerAuthSecrets.Purpose.temporaryKey(keyRecord.id))
        let key: EciesEnvelopeKey
        do {
            key = try EciesEnvelopeKey.forResponse(
                privateKey: privateKey, ephemeralPublicKey: ephemeral, sharedInfo1: sharedInfo1.bytes,
                version: PowerAuthProtocol.version)
        } catch {
            throw OAuthFailure.invalidRequest("ephemeralPublicKey is not a P-256 point.")
        }
        let sharedInfo2Base: Data
        if let activation {
            let keys = try PowerAuthActivationKeys(activation: activation, secrets: secrets)
            sharedInfo2Base = EciesContext.activationScopeSharedInfo2Base(
                applicationSecret: credentials.applicationSecret, transportKey: keys.derived.transport)
        } else {
            sharedInfo2Base = EciesContext.applicationScopeSharedInfo2Base(applicationSecret: credentials.applicationSecret)
        }
        // Each envelope's key is handed out once.
        let replay = secrets.hash(
            "\(request.temporaryKeyId)|\(request.ephemeralPublicKey)|\(request.nonce)", purpose: "ecies-envelope")
        let fresh = try await database.write { repositories in
            try await repositories.powerAuthReplays.insert(hash: replay, expiresAt: now + Self.replayRetention)
        }
        guard fresh else {
            throw Self.envelopeRefusal("replayed_envelope", "The key of this envelope was handed out before.")
        }
        let bytes = [key.encryptionKey, key.macKey, key.ivKey].reduce(into: Data()) { data, part in
            part.withUnsafeBytes { data.append(contentsOf: $0) }
        }
        logger.info(
            "powerauth: envelope key handed out",
            metadata: ["client": "\(caller.configId)", "scope": "\(request.scope)", "activation": "\(activationId ?? "")"])
        return EnvelopeKeyAnswer(
            envelopeKey: bytes.base64EncodedString(), sharedInfo2Base: sharedInfo2Base.base64EncodedString(),
            associatedData: EciesContext.associatedData(
                version: PowerAuthProtocol.version, applicationKey: request.applicationKey, activationID: activationId,
                temporaryKeyID: request.temporaryKeyId
            ).base64EncodedString(),
            version: PowerAuthProtocol.version.rawValue, activationId: activation?.id, userId: activation?.userId,
            applicationId: application.configId)
    }

    // MARK: - Tokens

    /// `POST /v1/powerauth/tokens/verify`.
    struct TokenRequest: Decodable, Sendable {
        var authorization: String
        var requiredFactors: String?
    }

    /// The answer: valid, or why not.
    struct TokenAnswer: Encodable, Sendable {
        var valid: Bool
        var activationId: String?
        var userId: String?
        var tokenId: String?
        var factors: String?
        var error: PowerAuthBackendVerification.Answer.Refusal?
    }

    func verifyToken(_ request: TokenRequest, caller: ApplicationRecord) async throws -> TokenAnswer {
        let required = try Self.factors(request.requiredFactors)
        func refused(_ code: String, _ message: String, _ token: PowerAuthTokenRecord? = nil, userId: String? = nil) -> TokenAnswer {
            TokenAnswer(
                valid: false, activationId: token?.activationId, userId: userId, tokenId: token?.id,
                factors: token?.factors, error: .init(code: code, message: message))
        }
        guard let header = try? PowerAuthRequestHeader.token(request.authorization),
            let version = PowerAuthVersion(rawValue: header.version)
        else {
            return refused("TOKEN_INVALID", "The authorization is not an X-PowerAuth-Token header of version 3.2 or 3.3.")
        }
        let secrets = self.secrets
        let found: (PowerAuthTokenRecord, PowerAuthActivationRecord)? = try await database.read { repositories in
            guard let token = try await repositories.powerAuthTokens.find(id: header.tokenID),
                let activation = try await repositories.powerAuthActivations.find(id: token.activationId),
                let application = try await repositories.applications.find(id: activation.applicationId),
                application.projectId == caller.projectId
            else { return nil }
            return (token, activation)
        }
        guard let (token, activation) = found else { return refused("TOKEN_INVALID", "The token is unknown.") }
        let secretText = try secrets.openText(token.sealedSecret, purpose: PowerAuthTokenService.secretPurpose(token.id))
        guard let secret = Data(base64Encoded: secretText),
            (try? PowerAuthTokenDigest.isValid(
                header.digest, tokenSecret: SymmetricKey(data: secret), nonce: header.nonce, timestamp: header.timestamp,
                version: version)) == true
        else { return refused("TOKEN_INVALID", "The token's digest does not match.", token, userId: activation.userId) }
        let now = clock.now().epochMilliseconds
        guard abs(now - Int64(clamping: header.timestamp)) <= Self.timeWindow else {
            return refused(
                "TOKEN_EXPIRED", "The token's timestamp is more than 5 minutes from the server's clock.", token,
                userId: activation.userId)
        }
        guard activation.status == .active else {
            return refused(
                "ACTIVATION_INACTIVE", "The token's activation is \(activation.status.rawValue), not ACTIVE.", token,
                userId: activation.userId)
        }
        guard let factors = PowerAuthSignatureFactors(typeName: token.factors), factors.isSuperset(of: required) else {
            return refused(
                "INSUFFICIENT_FACTORS", "The token proves \(token.factors), the operation needs \(required.typeName).", token,
                userId: activation.userId)
        }
        let replay = secrets.hash("\(token.id)|\(header.nonce.base64EncodedString())", purpose: "token-nonce")
        let fresh = try await database.write { repositories in
            let fresh = try await repositories.powerAuthReplays.insert(hash: replay, expiresAt: now + Self.replayRetention)
            if fresh { try await repositories.powerAuthTokens.touch(id: token.id, now: now) }
            return fresh
        }
        guard fresh else {
            return refused("TOKEN_REPLAYED", "This nonce was used with the token before.", token, userId: activation.userId)
        }
        return TokenAnswer(
            valid: true, activationId: activation.id, userId: activation.userId, tokenId: token.id, factors: token.factors)
    }

    // MARK: - Activations and signatures

    /// `GET /v1/powerauth/activations/{activationId}`.
    struct ActivationKeys: Encodable, Sendable {
        var activationId: String
        var userId: String
        /// The Keyway application's configId.
        var applicationId: String
        var status: String
        /// `KEY_DEVICE_PUBLIC` as the device sent it (Base64).
        var devicePublicKey: String?
        /// `KEY_SERVER_PUBLIC` (Base64).
        var serverPublicKey: String?
    }

    func activation(_ id: String, caller: ApplicationRecord) async throws -> ActivationKeys {
        guard let (activation, application) = try await find(id, of: caller) else {
            throw OAuthFailure(
                status: 404, body: .init(error: "unknown_activation", errorDescription: "The activation is unknown."))
        }
        return ActivationKeys(
            activationId: activation.id, userId: activation.userId, applicationId: application.configId,
            status: activation.status.rawValue, devicePublicKey: activation.devicePublicKey,
            serverPublicKey: activation.serverPublicKey)
    }

    /// `POST /v1/powerauth/device-signatures/verify`.
    struct DeviceSignatureRequest: Decodable, Sendable {
        var activationId: String
        var data: String
        var signature: String
    }

    /// Whether a device signed data with its private key.
    struct DeviceSignatureAnswer: Encodable, Sendable {
        var valid: Bool
        var activationId: String?
        var userId: String?
        var error: PowerAuthBackendVerification.Answer.Refusal?
    }

    func verifyDeviceSignature(_ request: DeviceSignatureRequest, caller: ApplicationRecord) async throws
        -> DeviceSignatureAnswer
    {
        guard request.data.utf8.count <= (Self.maxSignedData / 3 + 1) * 4, let data = Data(base64Encoded: request.data) else {
            throw OAuthFailure.invalidRequest("data must be the Base64 of at most 64 KiB.")
        }
        guard request.signature.utf8.count <= 256, let signatureBytes = Data(base64Encoded: request.signature) else {
            throw OAuthFailure.invalidRequest("signature must be the Base64 of a DER ECDSA signature.")
        }
        guard let (activation, _) = try await find(request.activationId, of: caller) else {
            return DeviceSignatureAnswer(valid: false, error: .init(code: "unknown_activation", message: "The activation is unknown."))
        }
        guard activation.status == .active, let deviceKeyText = activation.devicePublicKey,
            let deviceKeyBytes = Data(base64Encoded: deviceKeyText)
        else {
            return DeviceSignatureAnswer(
                valid: false, activationId: activation.id, userId: activation.userId,
                error: .init(code: "activation_inactive", message: "The activation is \(activation.status.rawValue), not ACTIVE."))
        }
        let publicKey = try P256.Signing.PublicKey(
            x963Representation: try PowerAuthKeys.publicKey(deviceKeyBytes).x963Representation)
        guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signatureBytes),
            publicKey.isValidSignature(signature, for: data)
        else {
            return DeviceSignatureAnswer(
                valid: false, activationId: activation.id, userId: activation.userId,
                error: .init(code: "invalid_signature", message: "The signature is not the device's over this data."))
        }
        return DeviceSignatureAnswer(valid: true, activationId: activation.id, userId: activation.userId)
    }

    /// `POST /v1/powerauth/server-signatures`.
    struct ServerSignatureRequest: Decodable, Sendable {
        var data: String
        var key: String
        var activationId: String?
        /// Names the application whose master key signs, when no activation does (optional when
        /// the caller's project has one PowerAuth application).
        var applicationKey: String?
    }

    /// A server's signature.
    struct ServerSignature: Encodable, Sendable {
        /// DER ECDSA-SHA256, Base64.
        var signature: String
        var key: String
    }

    func serverSignature(_ request: ServerSignatureRequest, caller: ApplicationRecord) async throws -> ServerSignature {
        guard request.data.utf8.count <= (Self.maxSignedData / 3 + 1) * 4, let data = Data(base64Encoded: request.data),
            data.count <= Self.maxSignedData
        else { throw OAuthFailure.invalidRequest("data must be the Base64 of at most 64 KiB.") }
        let secrets = self.secrets
        let signer: P256.Signing.PrivateKey
        switch request.key {
        case "activation":
            guard let id = request.activationId else {
                throw OAuthFailure.invalidRequest("activationId is required with key activation.")
            }
            guard let (activation, _) = try await find(id, of: caller) else {
                throw OAuthFailure.invalidRequest("The activation is unknown.")
            }
            guard activation.status == .active else {
                throw OAuthFailure.invalidRequest("The activation is \(activation.status.rawValue), not ACTIVE.")
            }
            signer = try PowerAuthActivationKeys(activation: activation, secrets: secrets).signingKey
        case "master":
            let applicationId: String
            if let id = request.activationId {
                guard let (activation, _) = try await find(id, of: caller) else {
                    throw OAuthFailure.invalidRequest("The activation is unknown.")
                }
                applicationId = activation.applicationId
            } else {
                applicationId = try await masterApplication(applicationKey: request.applicationKey, caller: caller)
            }
            let credentials = try await database.read { repositories in
                guard let record = try await repositories.powerAuthApplications.find(applicationId: applicationId) else {
                    throw OAuthFailure.invalidRequest("The application has no PowerAuth credentials.")
                }
                return try PowerAuthCredentials.open(record, secrets: secrets)
            }
            signer = credentials.masterPrivateKey
        default:
            throw OAuthFailure.invalidRequest("key is master or activation.")
        }
        let signature = try signer.signature(for: data)
        return ServerSignature(signature: signature.derRepresentation.base64EncodedString(), key: request.key)
    }

    /// The application whose master key signs: the one `applicationKey` names, or the only
    /// application of the caller's project with PowerAuth credentials.
    private func masterApplication(applicationKey: String?, caller: ApplicationRecord) async throws -> String {
        try await database.read { repositories in
            if let applicationKey {
                guard let record = try await repositories.powerAuthApplications.find(applicationKey: applicationKey),
                    let application = try await repositories.applications.find(id: record.applicationId),
                    application.projectId == caller.projectId
                else { throw OAuthFailure.invalidRequest("No application of your project has this application key.") }
                return application.id
            }
            var candidates: [String] = []
            for application in try await repositories.applications.all(projectId: caller.projectId)
            where try await repositories.powerAuthApplications.find(applicationId: application.id) != nil {
                candidates.append(application.id)
            }
            guard candidates.count == 1, let only = candidates.first else {
                throw OAuthFailure.invalidRequest(
                    "Name the application with applicationKey or activationId: your project has \(candidates.count) PowerAuth applications.")
            }
            return only
        }
    }

    // MARK: - Shared

    /// The activation and its application, when it belongs to the caller's project.
    private func find(_ id: String, of caller: ApplicationRecord) async throws
        -> (PowerAuthActivationRecord, ApplicationRecord)?
    {
        guard !id.isEmpty, id.utf8.count <= 64 else { return nil }
        return try await database.read { repositories in
            guard let activation = try await repositories.powerAuthActivations.find(id: id),
                let application = try await repositories.applications.find(id: activation.applicationId),
                application.projectId == caller.projectId
            else { return nil }
            return (activation, application)
        }
    }

    private static func factors(_ text: String?) throws -> PowerAuthSignatureFactors {
        guard let text else { return .possession }
        guard let factors = PowerAuthSignatureFactors(typeName: text), factors.contains(.possession) else {
            throw OAuthFailure.invalidRequest(
                "requiredFactors must be possession, possession_knowledge, possession_biometry or possession_knowledge_biometry.")
        }
        return factors
    }
}
