import Crypto
import Foundation

/// A P-256 key that signs with ES256 and never has to reveal its private half: a software key,
/// or a hardware-backed one (Secure Enclave) behind the same two members.
public protocol ES256SigningKey: Sendable {
    var publicKey: P256.Signing.PublicKey { get }
    func signature(for data: Data) throws -> P256.Signing.ECDSASignature
}

extension P256.Signing.PrivateKey: ES256SigningKey {}
