import Crypto
import Foundation

/// The indexes of the keys derived from the master secret with ``PowerAuthKDF/derive(key:index:)``.
public enum PowerAuthKeyIndex {
    /// `KEY_SIGNATURE_POSSESSION`.
    public static let signaturePossession: UInt64 = 1
    /// `KEY_SIGNATURE_KNOWLEDGE`.
    public static let signatureKnowledge: UInt64 = 2
    /// `KEY_SIGNATURE_BIOMETRY`.
    public static let signatureBiometry: UInt64 = 3
    /// `KEY_TRANSPORT`.
    public static let transport: UInt64 = 1000
    /// `KEY_ENCRYPTION_VAULT`.
    public static let vaultEncryption: UInt64 = 2000
    /// `KEY_TRANSPORT_IV`, derived from the transport key.
    public static let transportIV: UInt64 = 3000
    /// `KEY_TRANSPORT_CTR`, derived from the transport key.
    public static let transportCounter: UInt64 = 4000
}

/// The keys an activation derives from its master secret.
public struct PowerAuthDerivedKeys: Sendable {
    /// `KEY_SIGNATURE_POSSESSION` (index 1).
    public let signaturePossession: SymmetricKey
    /// `KEY_SIGNATURE_KNOWLEDGE` (index 2).
    public let signatureKnowledge: SymmetricKey
    /// `KEY_SIGNATURE_BIOMETRY` (index 3).
    public let signatureBiometry: SymmetricKey
    /// `KEY_TRANSPORT` (index 1000).
    public let transport: SymmetricKey
    /// `KEY_ENCRYPTION_VAULT` (index 2000).
    public let vaultEncryption: SymmetricKey

    /// Derives every key from the master secret.
    ///
    /// - Parameter masterSecret: `KEY_MASTER_SECRET` (16 bytes).
    /// - Throws: `PowerAuthError.invalidLength` when the secret is not 16 bytes.
    public init(masterSecret: SymmetricKey) throws(PowerAuthError) {
        signaturePossession = try PowerAuthKDF.derive(key: masterSecret, index: PowerAuthKeyIndex.signaturePossession)
        signatureKnowledge = try PowerAuthKDF.derive(key: masterSecret, index: PowerAuthKeyIndex.signatureKnowledge)
        signatureBiometry = try PowerAuthKDF.derive(key: masterSecret, index: PowerAuthKeyIndex.signatureBiometry)
        transport = try PowerAuthKDF.derive(key: masterSecret, index: PowerAuthKeyIndex.transport)
        vaultEncryption = try PowerAuthKDF.derive(key: masterSecret, index: PowerAuthKeyIndex.vaultEncryption)
    }

    /// The signature keys of the given factors, in the protocol's order (possession, knowledge,
    /// biometry).
    ///
    /// - Parameter factors: The factors of a signature.
    /// - Returns: One key per factor.
    public func signatureKeys(for factors: PowerAuthSignatureFactors) -> [SymmetricKey] {
        var keys: [SymmetricKey] = []
        if factors.contains(.possession) { keys.append(signaturePossession) }
        if factors.contains(.knowledge) { keys.append(signatureKnowledge) }
        if factors.contains(.biometry) { keys.append(signatureBiometry) }
        return keys
    }
}

/// P-256 key handling and the master secret.
public enum PowerAuthKeys {
    /// `KEY_MASTER_SECRET`: the ECDH P-256 shared secret (the X coordinate, 32 bytes) with its two
    /// halves XORed into 16 bytes. Device and server get the same value.
    ///
    /// - Parameters:
    ///   - privateKey: One side's private key.
    ///   - publicKey: The other side's public key.
    /// - Returns: The 16-byte master secret.
    /// - Throws: `PowerAuthError.invalidKey` when the agreement fails.
    public static func masterSecret(
        privateKey: P256.KeyAgreement.PrivateKey, publicKey: P256.KeyAgreement.PublicKey
    ) throws(PowerAuthError) -> SymmetricKey {
        let shared: SharedSecret
        do {
            shared = try privateKey.sharedSecretFromKeyAgreement(with: publicKey)
        } catch {
            throw .invalidKey(field: "public key")
        }
        let bytes = shared.withUnsafeBytes { Array($0) }
        return SymmetricKey(data: Bytes.fold(bytes))
    }

    /// Reads a P-256 public key as the protocol sends it: uncompressed (65 bytes, `04 X Y`) or
    /// compressed (33 bytes, `02/03 X`).
    ///
    /// - Parameter bytes: The encoded point.
    /// - Returns: The key.
    /// - Throws: `PowerAuthError.invalidKey` when the bytes are not a point on the curve.
    public static func publicKey<D: ContiguousBytes>(_ bytes: D) throws(PowerAuthError) -> P256.KeyAgreement.PublicKey {
        let array = bytes.withUnsafeBytes { Array($0) }
        do {
            switch array.count {
            case 65: return try P256.KeyAgreement.PublicKey(x963Representation: array)
            case 33: return try P256.KeyAgreement.PublicKey(compressedRepresentation: array)
            default: throw PowerAuthError.invalidKey(field: "public key")
            }
        } catch {
            throw .invalidKey(field: "public key")
        }
    }

    /// Reads a P-256 private key from its big-endian scalar, as Java's `BigInteger.toByteArray()`
    /// writes it: leading zero bytes may be missing, or one extra zero byte may lead.
    ///
    /// - Parameter bytes: The scalar, 1 to 33 bytes.
    /// - Returns: The key.
    /// - Throws: `PowerAuthError.invalidKey` when it is not a valid scalar.
    public static func privateKey<D: ContiguousBytes>(_ bytes: D) throws(PowerAuthError) -> P256.KeyAgreement.PrivateKey {
        var array = bytes.withUnsafeBytes { Array($0) }
        while array.count > 32, array.first == 0 { array.removeFirst() }
        guard !array.isEmpty, array.count <= 32 else { throw .invalidKey(field: "private key") }
        array = [UInt8](repeating: 0, count: 32 - array.count) + array
        do {
            return try P256.KeyAgreement.PrivateKey(rawRepresentation: array)
        } catch {
            throw .invalidKey(field: "private key")
        }
    }

    /// The X coordinate of a public key as the minimal big-endian integer (leading zero bytes
    /// removed), as the v3 fingerprint uses it.
    ///
    /// - Parameter publicKey: The key.
    /// - Returns: 1 to 32 bytes.
    public static func minimalX(of publicKey: P256.KeyAgreement.PublicKey) -> Data {
        let x = publicKey.x963Representation.dropFirst().prefix(32)
        let trimmed = x.drop { $0 == 0 }
        return Data(trimmed.isEmpty ? [0] : Array(trimmed))
    }
}
