import Crypto
import Foundation
import KeywayPowerAuth
import KeywayProtocol

/// Asymmetric signatures: data a device signed with its activation's private key (ECDSA P-256
/// with SHA-256, DER), checked by the backend itself against the device public key the Keyway
/// server holds (`GET /v1/powerauth/activations/{id}`, kept ``KeywayBackend/Configuration/activationCacheLifetime``
/// seconds) or by the server (`POST /v1/powerauth/device-signatures/verify`); and data the server
/// signs for devices (`POST /v1/powerauth/server-signatures`), which they check with the master
/// or the activation's server public key.
extension KeywayBackend {
    /// The most data a server signature may cover.
    public static let maximumServerSignedDataSize = 64 * 1024

    /// An activation of this backend's project as the server knows it (cached briefly).
    ///
    /// - Parameter activationId: The activation.
    /// - Returns: Its user, application, status and public keys.
    /// - Throws: ``KeywayBackendError/oauth(status:error:)`` when the server does not know it (or
    ///   it is of another project), ``KeywayBackendError/serverUnavailable(_:)``.
    public func activation(_ activationId: String) async throws -> PowerAuthActivationInfo {
        try Self.checkActivationId(activationId)
        let now = clock.now()
        let lifetime = configuration.activationCacheLifetime
        if let cached = await activations.get(activationId, now: now, lifetime: lifetime) { return cached }
        let path = "/v1/powerauth/activations/" + (activationId.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? activationId)
        let body = try await getJSON(path)
        guard let info = try? JSONDecoder().decode(PowerAuthActivationInfo.self, from: body), info.activationId == activationId
        else { throw KeywayBackendError.serverUnavailable("The activation answer could not be read.") }
        await activations.put(info, now: now, lifetime: lifetime)
        return info
    }

    /// Verifies a device signature here, with the activation's device public key: valid only
    /// when the signature matches and the activation is ACTIVE.
    ///
    /// - Parameters:
    ///   - signature: The DER ECDSA-SHA256 signature the device made.
    ///   - data: The exact bytes it signed.
    ///   - activationId: The activation that claims to have signed.
    /// - Returns: The verdict; a refused signature is an answer, not an error.
    /// - Throws: ``KeywayBackendError`` when the server cannot answer.
    public func verifyDeviceSignature(_ signature: Data, of data: Data, activationId: String) async throws
        -> DeviceSignatureVerification
    {
        let info: PowerAuthActivationInfo
        do {
            info = try await activation(activationId)
        } catch KeywayBackendError.oauth(let status, _) where status == 404 || status == 400 {
            return .refused(activationId, nil, "unknown_activation", "The activation is not known.")
        }
        guard info.status == "ACTIVE" else {
            return .refused(activationId, info.userId, "activation_inactive", "The activation is \(info.status), not ACTIVE.")
        }
        guard let keyBytes = Data(base64Encoded: info.devicePublicKey),
            let agreementKey = try? PowerAuthKeys.publicKey(keyBytes),
            let publicKey = try? P256.Signing.PublicKey(x963Representation: agreementKey.x963Representation)
        else { throw KeywayBackendError.serverUnavailable("The activation's device public key could not be read.") }
        guard let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature),
            publicKey.isValidSignature(ecdsa, for: data)
        else {
            return .refused(activationId, info.userId, "invalid_signature", "The signature does not verify with the device's key.")
        }
        return DeviceSignatureVerification(isValid: true, activationId: activationId, userId: info.userId, refusal: nil)
    }

    /// Verifies a device signature through the Keyway server (which checks the status at this
    /// moment, without a cache).
    ///
    /// - Parameters:
    ///   - signature: The DER ECDSA-SHA256 signature.
    ///   - data: The exact bytes signed.
    ///   - activationId: The activation that claims to have signed.
    /// - Returns: The server's verdict.
    /// - Throws: ``KeywayBackendError`` when the input is unusable or the server cannot answer.
    public func verifyDeviceSignatureOnServer(_ signature: Data, of data: Data, activationId: String) async throws
        -> DeviceSignatureVerification
    {
        try Self.checkActivationId(activationId)
        guard data.count <= Self.maximumSignedBodySize, !signature.isEmpty, signature.count <= 128 else {
            throw KeywayBackendError.invalidConfiguration("The data or the signature is too large or empty.")
        }
        let body = try await postJSON(
            "/v1/powerauth/device-signatures/verify",
            ["activationId": activationId, "data": data.base64EncodedString(), "signature": signature.base64EncodedString()])
        struct Answer: Decodable {
            var valid: Bool
            var activationId: String?
            var userId: String?
            var error: SignatureVerification.Refusal?
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: body) else {
            throw KeywayBackendError.serverUnavailable("The device signature answer could not be read.")
        }
        return DeviceSignatureVerification(
            isValid: answer.valid, activationId: answer.activationId ?? activationId, userId: answer.userId,
            refusal: answer.valid ? nil : (answer.error ?? .init(code: "invalid_signature", message: "The signature does not verify.")))
    }

    /// Has the server sign data for devices: with the application's master private key, or the
    /// activation's server private key (devices check it with `verifyServerSignedData`).
    ///
    /// - Parameters:
    ///   - data: What to sign, at most 64 KiB.
    ///   - key: Which server key signs.
    ///   - activationId: The activation, when `key` is ``PowerAuthServerSigningKey/activation``.
    /// - Returns: The DER ECDSA-SHA256 signature of `data`.
    /// - Throws: ``KeywayBackendError``.
    public func signData(_ data: Data, key: PowerAuthServerSigningKey, activationId: String? = nil) async throws -> Data {
        guard !data.isEmpty, data.count <= Self.maximumServerSignedDataSize else {
            throw KeywayBackendError.invalidConfiguration("The data to sign must be 1 byte to 64 KiB.")
        }
        var request = ["data": data.base64EncodedString(), "key": key.rawValue]
        switch key {
        case .master:
            guard activationId == nil else {
                throw KeywayBackendError.invalidConfiguration("The master key signs without an activation.")
            }
        case .activation:
            guard let activationId else {
                throw KeywayBackendError.invalidConfiguration("The activation's key needs an activation ID.")
            }
            try Self.checkActivationId(activationId)
            request["activationId"] = activationId
        }
        let body = try await postJSON("/v1/powerauth/server-signatures", request)
        struct Answer: Decodable {
            var signature: String
            var key: String
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: body), answer.key == key.rawValue,
            let signature = Data(base64Encoded: answer.signature), (try? P256.Signing.ECDSASignature(derRepresentation: signature)) != nil
        else { throw KeywayBackendError.serverUnavailable("The server signature answer could not be read.") }
        return signature
    }
}

/// Which server key signs data for devices.
public enum PowerAuthServerSigningKey: String, Sendable, Hashable, Codable {
    /// The application's master server key (devices hold its public key in their configuration).
    case master
    /// The activation's server key (the activation's device holds its public key).
    case activation
}

/// An activation as `GET /v1/powerauth/activations/{id}` shows it.
public struct PowerAuthActivationInfo: Sendable, Equatable, Codable {
    /// The activation.
    public var activationId: String
    /// Its user.
    public var userId: String
    /// Its Keyway application (config ID).
    public var applicationId: String
    /// `CREATED`, `PENDING_COMMIT`, `ACTIVE`, `BLOCKED` or `REMOVED`.
    public var status: String
    /// The device public key, Base64 as the device sent it (33 or 65 bytes).
    public var devicePublicKey: String
    /// The activation's server public key, Base64.
    public var serverPublicKey: String

    public init(
        activationId: String, userId: String, applicationId: String, status: String, devicePublicKey: String,
        serverPublicKey: String
    ) {
        self.activationId = activationId
        self.userId = userId
        self.applicationId = applicationId
        self.status = status
        self.devicePublicKey = devicePublicKey
        self.serverPublicKey = serverPublicKey
    }
}

/// A verdict on a device signature.
public struct DeviceSignatureVerification: Sendable, Equatable {
    /// Whether the signature matches and the activation is ACTIVE.
    public var isValid: Bool
    /// The activation.
    public var activationId: String?
    /// Its user (when the activation is known).
    public var userId: String?
    /// Why it was refused (`invalid_signature`, `activation_inactive`, `unknown_activation`, …);
    /// `nil` when valid.
    public var refusal: SignatureVerification.Refusal?

    public init(isValid: Bool, activationId: String?, userId: String?, refusal: SignatureVerification.Refusal?) {
        self.isValid = isValid
        self.activationId = activationId
        self.userId = userId
        self.refusal = refusal
    }

    static func refused(_ activationId: String, _ userId: String?, _ code: String, _ message: String) -> Self {
        Self(isValid: false, activationId: activationId, userId: userId, refusal: .init(code: code, message: message))
    }
}
