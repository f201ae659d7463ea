import Crypto
import Foundation

/// The master server key's signature of an activation code (protocol 3): ECDSA P-256 with SHA-256
/// over the code's UTF-8 text, DER-encoded.
public enum ActivationSignature {
    /// Verifies the signature of an activation code.
    ///
    /// - Parameters:
    ///   - signature: The DER-encoded signature (for example from an ``ActivationQRCode``).
    ///   - code: The activation code.
    ///   - masterPublicKey: `KEY_SERVER_MASTER_PUBLIC`.
    /// - Returns: `true` when the signature is valid; `false` for a wrong or malformed one.
    public static func isValid(signature: Data, code: ActivationCode, masterPublicKey: P256.Signing.PublicKey) -> Bool {
        guard let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
        return masterPublicKey.isValidSignature(ecdsa, for: Data(code.value.utf8))
    }

    /// Signs an activation code with the master server private key.
    ///
    /// - Parameters:
    ///   - code: The activation code.
    ///   - masterPrivateKey: `KEY_SERVER_MASTER_PRIVATE`.
    /// - Returns: The DER-encoded signature.
    /// - Throws: `PowerAuthError.invalidKey` when signing fails.
    public static func sign(code: ActivationCode, masterPrivateKey: P256.Signing.PrivateKey) throws(PowerAuthError) -> Data {
        do {
            return try masterPrivateKey.signature(for: Data(code.value.utf8)).derRepresentation
        } catch {
            throw .invalidKey(field: "master private key")
        }
    }

    /// Reads a P-256 signing public key as the protocol sends it (65 or 33 bytes).
    ///
    /// - Parameter bytes: The encoded point.
    /// - Returns: The key.
    /// - Throws: `PowerAuthError.invalidKey` when the bytes are not a point on the curve.
    public static func publicKey<D: ContiguousBytes>(_ bytes: D) throws(PowerAuthError) -> P256.Signing.PublicKey {
        let agreement = try PowerAuthKeys.publicKey(bytes)
        do {
            return try P256.Signing.PublicKey(x963Representation: agreement.x963Representation)
        } catch {
            throw .invalidKey(field: "public key")
        }
    }
}
