import Crypto
import Foundation

/// Which server key signed an offline signature's QR data, as the reference server writes the
/// flag (`KEY_MASTER_SERVER_PRIVATE_INDICATOR = "0"`, `KEY_SERVER_PRIVATE_INDICATOR = "1"`).
public enum OfflineSigningKey: String, Sendable, Hashable {
    /// `0`: the master server key (`KEY_SERVER_MASTER_PRIVATE`), for non-personalized data.
    case master = "0"
    /// `1`: the activation's server key (`KEY_SERVER_PRIVATE`), for data of one activation.
    case activation = "1"
}

/// The QR data of an offline signature, `DATA\nNONCE\nKEY_FLAG ‖ ECDSA`: the operation data, the
/// Base64 16-byte nonce, the key flag (``OfflineSigningKey``) and, straight after it, the Base64
/// DER ECDSA-SHA256 signature by that server key of everything before it
/// (`DATA\nNONCE\nKEY_FLAG` in UTF-8).
public struct OfflineSignaturePayload: Sendable, Hashable {
    /// The operation data, the text the device shows and signs.
    public let data: String
    /// The nonce's Base64 text, as the QR data carries it.
    public let nonceText: String
    /// The 16-byte nonce.
    public let nonce: Data
    /// The key that signed the QR data.
    public let signingKey: OfflineSigningKey
    /// The DER-encoded ECDSA signature.
    public let signature: Data

    /// The bytes the server signed: `DATA\nNONCE\nKEY_FLAG` in UTF-8.
    public var signedBytes: Data { Data((data + "\n" + nonceText + "\n" + signingKey.rawValue).utf8) }

    /// The QR data text.
    public var text: String { data + "\n" + nonceText + "\n" + signingKey.rawValue + signature.base64EncodedString() }

    /// Reads QR data. The last two line breaks separate the nonce and the signed flag; the data
    /// before them may hold line breaks of its own.
    ///
    /// - Parameter text: The scanned text.
    /// - Throws: `PowerAuthError.malformedCode` for missing parts or an unknown key flag,
    ///   `.invalidBase64` or `.invalidLength` for the nonce and the signature.
    public init(_ text: String) throws(PowerAuthError) {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
        var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // A trailing line break (as some scanners add) is not part of the signature.
        if lines.count > 3, lines.last == "" { lines.removeLast() }
        guard lines.count >= 3 else { throw .malformedCode("offline data has three lines: data, nonce, key flag and signature") }
        let last = lines.removeLast()
        let nonceText = lines.removeLast()
        let data = lines.joined(separator: "\n")
        guard !data.isEmpty else { throw .malformedCode("the offline data is empty") }
        guard let flag = last.first.flatMap({ OfflineSigningKey(rawValue: String($0)) }) else {
            throw .malformedCode("the key flag is neither 0 nor 1")
        }
        let nonce = try Bytes.base64(nonceText, field: "offline nonce")
        try Bytes.require(nonce, count: 16, field: "offline nonce")
        let signatureText = String(last.dropFirst())
        guard !signatureText.isEmpty else { throw .malformedCode("the offline data carries no signature") }
        self.signature = try Bytes.base64(signatureText, field: "offline data signature")
        self.data = data
        self.nonceText = nonceText
        self.nonce = nonce
        self.signingKey = flag
    }

    /// Signs operation data as a server does.
    ///
    /// - Parameters:
    ///   - data: The operation data (not empty).
    ///   - nonce: A fresh 16-byte nonce.
    ///   - signingKey: The flag of `privateKey`.
    ///   - privateKey: The activation's server private key (``OfflineSigningKey/activation``) or
    ///     the master server private key (``OfflineSigningKey/master``).
    /// - Throws: `PowerAuthError.invalidLength` for a nonce not 16 bytes, `.invalidKey` when signing fails.
    public init(signing data: String, nonce: Data, signingKey: OfflineSigningKey, privateKey: P256.Signing.PrivateKey) throws(PowerAuthError) {
        try Bytes.require(nonce, count: 16, field: "offline nonce")
        let nonceText = nonce.base64EncodedString()
        let signed = Data((data + "\n" + nonceText + "\n" + signingKey.rawValue).utf8)
        do {
            self.signature = try privateKey.signature(for: signed).derRepresentation
        } catch {
            throw .invalidKey(field: "server private key")
        }
        self.data = data
        self.nonceText = nonceText
        self.nonce = nonce
        self.signingKey = signingKey
    }

    /// Whether the ECDSA signature verifies with `publicKey`.
    ///
    /// - Parameter publicKey: The key ``signingKey`` names.
    /// - Returns: `true` when the signature is valid.
    public func isValid(publicKey: P256.Signing.PublicKey) -> Bool {
        guard let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
        return publicKey.isValidSignature(ecdsa, for: signedBytes)
    }
}
