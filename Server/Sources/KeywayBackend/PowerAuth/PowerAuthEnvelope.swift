import Foundation
import KeywayPowerAuth
import KeywayPowerAuthWire

/// The scope of an end-to-end encrypted request (PowerAuth 3.3 generic encryptor).
public enum PowerAuthEncryptionScope: String, Sendable, Hashable, Codable {
    /// Sealed with the application's secret: any installation of the app can send it.
    case application
    /// Sealed with an activation's transport key as well: only that device can send it.
    case activation

    /// The generic `SHARED_INFO_1` of the scope.
    public var sharedInfo1: EciesSharedInfo1 {
        switch self {
        case .application: .applicationScopeGeneric
        case .activation: .activationScopeGeneric
        }
    }
}

extension EciesEnvelope {
    /// Reads and checks a request body an app sealed: the PowerAuth 3.3 JSON envelope
    /// `{temporaryKeyId, ephemeralPublicKey, encryptedData, mac, nonce, timestamp}` (the shared
    /// ``EciesEnvelope``), every field present, the Base64 fields of the sizes the protocol gives.
    ///
    /// - Returns: The temporary key it was sealed to and the envelope's binary fields.
    /// - Throws: ``PowerAuthEncryptionError`` with code `invalid_request`.
    static func sealedRequest(json: Data) throws(PowerAuthEncryptionError) -> (temporaryKeyId: String, envelope: EciesEnvelope, payload: EciesPayload) {
        guard !json.isEmpty else { throw .init(.invalidRequest, "The request has no body; an encrypted body is required.") }
        let notAnEnvelope = PowerAuthEncryptionError(
            .invalidRequest,
            "The body is not a PowerAuth 3.3 envelope {temporaryKeyId, ephemeralPublicKey, encryptedData, mac, nonce, timestamp}.")
        guard let envelope = try? JSONDecoder().decode(EciesEnvelope.self, from: json),
            let temporaryKeyId = envelope.temporaryKeyId, let ephemeralPublicKey = envelope.ephemeralPublicKey,
            let encryptedData = envelope.encryptedData, let mac = envelope.mac, let nonce = envelope.nonce,
            let timestamp = envelope.timestamp
        else { throw notAnEnvelope }
        guard !temporaryKeyId.isEmpty, temporaryKeyId.utf8.count <= 128,
            temporaryKeyId.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { throw .init(.invalidRequest, "temporaryKeyId is empty or malformed.") }
        guard let ephemeral = Data(base64Encoded: ephemeralPublicKey), ephemeral.count == 33 || ephemeral.count == 65 else {
            throw .init(.invalidRequest, "ephemeralPublicKey must be a Base64 P-256 point of 33 or 65 bytes.")
        }
        guard let encrypted = Data(base64Encoded: encryptedData), !encrypted.isEmpty, encrypted.count % 16 == 0 else {
            throw .init(.invalidRequest, "encryptedData must be Base64 AES-CBC ciphertext (whole 16-byte blocks).")
        }
        guard let macBytes = Data(base64Encoded: mac), macBytes.count == 32 else {
            throw .init(.invalidRequest, "mac must be 32 bytes in Base64.")
        }
        guard let nonceBytes = Data(base64Encoded: nonce), nonceBytes.count == 16 else {
            throw .init(.invalidRequest, "nonce must be 16 bytes in Base64.")
        }
        guard timestamp > 0, timestamp < 1 << 53 else { throw .init(.invalidRequest, "timestamp must be Unix milliseconds.") }
        let payload = EciesPayload(
            encryptedData: encrypted, mac: macBytes, ephemeralPublicKey: ephemeral, nonce: nonceBytes, timestamp: timestamp)
        return (temporaryKeyId, envelope, payload)
    }
}

/// Why an encrypted request was refused: a stable code and a sentence.
public struct PowerAuthEncryptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stable codes.
    public enum Code: String, Sendable, Hashable {
        /// The envelope or its header is malformed, or names something it may not.
        case invalidRequest = "invalid_request"
        /// The temporary key is unknown, expired, or of another application or activation.
        case unknownKey = "unknown_key"
        /// The envelope's timestamp is more than 5 minutes from the server's clock.
        case staleEnvelope = "stale_envelope"
        /// The envelope was presented before: each envelope opens once.
        case replayedEnvelope = "replayed_envelope"
        /// The activation is not ACTIVE.
        case inactiveActivation = "inactive_activation"
        /// The MAC does not match or the ciphertext does not decrypt: not sealed for this
        /// application (or activation), or altered.
        case authenticationFailed = "authentication_failed"
    }

    /// The stable code.
    public var code: Code
    /// A human sentence.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
