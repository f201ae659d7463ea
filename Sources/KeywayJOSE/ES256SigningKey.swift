import Crypto
import Foundation

/// A P-256 key that signs with ES256 and never has to reveal its private half: a software key,
/// or a hardware-backed one (Secure Enclave) behind the same two members.
public protocol ES256SigningKey: Sendable {
    /// The key's public half.
    var publicKey: P256.Signing.PublicKey { get }
    /// Signs data with ES256 (ECDSA over P-256 with SHA-256).
    ///
    /// - Parameter data: The bytes to sign; the key hashes them.
    /// - Returns: The signature.
    /// - Throws: The key's own error when it cannot sign (a Secure Enclave key whose use was refused).
    func signature(for data: Data) throws -> P256.Signing.ECDSASignature
}

extension P256.Signing.PrivateKey: ES256SigningKey {}
