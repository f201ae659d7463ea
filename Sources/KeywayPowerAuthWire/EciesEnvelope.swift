import Foundation
import KeywayPowerAuth

/// An ECIES envelope as JSON (PowerAuth 3.3): a request carries `temporaryKeyId`,
/// `ephemeralPublicKey`, `encryptedData`, `mac`, `nonce` and `timestamp`, an answer the last four;
/// binary values in standard Base64. Every field is optional so that a reader can say which one
/// is missing; ``payload`` reads the binary values.
public struct EciesEnvelope: Codable, Sendable, Hashable {
    /// The temporary key it was sealed to (3.3 requests).
    public var temporaryKeyId: String?
    /// The sender's ephemeral public key (requests).
    public var ephemeralPublicKey: String?
    /// The ciphertext.
    public var encryptedData: String?
    /// The MAC.
    public var mac: String?
    /// The nonce (3.1 and later).
    public var nonce: String?
    /// Unix time in milliseconds when it was sealed (3.2 and later).
    public var timestamp: UInt64?

    public init(
        temporaryKeyId: String? = nil, ephemeralPublicKey: String? = nil, encryptedData: String? = nil, mac: String? = nil,
        nonce: String? = nil, timestamp: UInt64? = nil
    ) {
        self.temporaryKeyId = temporaryKeyId
        self.ephemeralPublicKey = ephemeralPublicKey
        self.encryptedData = encryptedData
        self.mac = mac
        self.nonce = nonce
        self.timestamp = timestamp
    }

    /// The envelope of `payload`, sealed to the temporary key `temporaryKeyID` when given.
    public init(_ payload: EciesPayload, temporaryKeyID: String? = nil) {
        self.init(
            temporaryKeyId: temporaryKeyID, ephemeralPublicKey: payload.ephemeralPublicKey?.base64EncodedString(),
            encryptedData: payload.encryptedData.base64EncodedString(), mac: payload.mac.base64EncodedString(),
            nonce: payload.nonce?.base64EncodedString(), timestamp: payload.timestamp)
    }

    /// The envelope as a JSON body (its members in a stable order, absent ones left out).
    public func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(self)) ?? Data()
    }

    /// The payload, or `nil` when the ciphertext or MAC is missing or a value is not Base64.
    public var payload: EciesPayload? {
        guard let encryptedData, let mac, let encrypted = Data(base64Encoded: encryptedData),
            let macBytes = Data(base64Encoded: mac)
        else { return nil }
        let ephemeral = ephemeralPublicKey.flatMap { Data(base64Encoded: $0) }
        if ephemeralPublicKey != nil, ephemeral == nil { return nil }
        let nonceBytes = nonce.flatMap { Data(base64Encoded: $0) }
        if nonce != nil, nonceBytes == nil { return nil }
        return EciesPayload(
            encryptedData: encrypted, mac: macBytes, ephemeralPublicKey: ephemeral, nonce: nonceBytes, timestamp: timestamp)
    }
}
