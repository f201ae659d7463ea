import Foundation
import KeywayPowerAuth

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

/// A request body as an app sealed it: the PowerAuth 3.3 JSON envelope
/// `{temporaryKeyId, ephemeralPublicKey, encryptedData, mac, nonce, timestamp}`.
public struct PowerAuthEncryptedRequest: Sendable, Hashable, Codable {
    /// The ID of the temporary key the app sealed with (`/pa/v3/keystore/create`).
    public var temporaryKeyId: String
    /// The ephemeral public key (Base64, 33 or 65 bytes).
    public var ephemeralPublicKey: String
    /// The ciphertext (Base64).
    public var encryptedData: String
    /// The MAC (Base64, 32 bytes).
    public var mac: String
    /// The nonce (Base64, 16 bytes).
    public var nonce: String
    /// Unix time in milliseconds when the app sealed it.
    public var timestamp: UInt64

    public init(
        temporaryKeyId: String, ephemeralPublicKey: String, encryptedData: String, mac: String, nonce: String,
        timestamp: UInt64
    ) {
        self.temporaryKeyId = temporaryKeyId
        self.ephemeralPublicKey = ephemeralPublicKey
        self.encryptedData = encryptedData
        self.mac = mac
        self.nonce = nonce
        self.timestamp = timestamp
    }

    /// Reads and checks a request body: a JSON object with the six fields, Base64 fields of the
    /// sizes the protocol gives.
    ///
    /// - Throws: ``PowerAuthEncryptionError`` with code `invalid_request`.
    public init(json: Data) throws(PowerAuthEncryptionError) {
        guard !json.isEmpty else { throw .init(.invalidRequest, "The request has no body; an encrypted body is required.") }
        let decoded: PowerAuthEncryptedRequest
        do {
            decoded = try JSONDecoder().decode(PowerAuthEncryptedRequest.self, from: json)
        } catch {
            throw .init(
                .invalidRequest,
                "The body is not a PowerAuth 3.3 envelope {temporaryKeyId, ephemeralPublicKey, encryptedData, mac, nonce, timestamp}.")
        }
        try decoded.validate()
        self = decoded
    }

    /// The envelope's binary fields, checked.
    func payload() throws(PowerAuthEncryptionError) -> EciesPayload {
        try validate()
        return EciesPayload(
            encryptedData: Data(base64Encoded: encryptedData)!, mac: Data(base64Encoded: mac)!,
            ephemeralPublicKey: Data(base64Encoded: ephemeralPublicKey)!, nonce: Data(base64Encoded: nonce)!,
            timestamp: timestamp)
    }

    private func validate() throws(PowerAuthEncryptionError) {
        guard !temporaryKeyId.isEmpty, temporaryKeyId.utf8.count <= 128,
            temporaryKeyId.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { throw .init(.invalidRequest, "temporaryKeyId is empty or malformed.") }
        guard let ephemeral = Data(base64Encoded: ephemeralPublicKey), ephemeral.count == 33 || ephemeral.count == 65 else {
            throw .init(.invalidRequest, "ephemeralPublicKey must be a Base64 P-256 point of 33 or 65 bytes.")
        }
        guard let encrypted = Data(base64Encoded: encryptedData), !encrypted.isEmpty, encrypted.count % 16 == 0 else {
            throw .init(.invalidRequest, "encryptedData must be Base64 AES-CBC ciphertext (whole 16-byte blocks).")
        }
        guard Data(base64Encoded: mac)?.count == 32 else { throw .init(.invalidRequest, "mac must be 32 bytes in Base64.") }
        guard Data(base64Encoded: nonce)?.count == 16 else { throw .init(.invalidRequest, "nonce must be 16 bytes in Base64.") }
        guard timestamp > 0, timestamp < 1 << 53 else { throw .init(.invalidRequest, "timestamp must be Unix milliseconds.") }
    }
}

/// A response body sealed for the app: `{encryptedData, mac, nonce, timestamp}`.
public struct PowerAuthEncryptedResponse: Sendable, Hashable, Codable {
    /// The ciphertext (Base64).
    public var encryptedData: String
    /// The MAC (Base64).
    public var mac: String
    /// A fresh nonce (Base64, 16 bytes).
    public var nonce: String
    /// Unix time in milliseconds when it was sealed.
    public var timestamp: UInt64

    public init(encryptedData: String, mac: String, nonce: String, timestamp: UInt64) {
        self.encryptedData = encryptedData
        self.mac = mac
        self.nonce = nonce
        self.timestamp = timestamp
    }

    /// The response as JSON.
    public func json() -> Data {
        (try? JSONEncoder().encode(self)) ?? Data()
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
