import Crypto
import CryptoExtras
import Foundation
import KeywayCBOR

/// A credential public key in COSE_Key form (RFC 9052/9053): EC2 P-256 (kty 2, crv 1, `x` and
/// `y` of 32 bytes each), OKP Ed25519 (kty 1, crv 6, `x` of 32 bytes) or RSA (kty 3, `n` and
/// `e`, 2048 bits at least), each with its `alg` (label 3) matching the key type.
struct COSEPublicKey: Sendable, Equatable {
    /// The key's algorithm, from its `alg`.
    let algorithm: COSEAlgorithm
    /// The key's material in a canonical form: the raw `x ‖ y` point (ES256), the raw
    /// Ed25519 key (EdDSA) or the DER SubjectPublicKeyInfo (RS256).
    private let material: Data

    /// The COSE_Key labels (RFC 9052 §7.1, RFC 9053 §7, RFC 8230 §4).
    private enum Label {
        static let kty = 1
        static let alg = 3
        static let crv = -1
        static let x = -2
        static let y = -3
        static let n = -1
        static let e = -2
    }

    /// Parses and checks a COSE_Key.
    ///
    /// - Parameter cbor: The key's CBOR encoding, exactly one map.
    /// - Throws: ``WebAuthnFailure/malformed(_:)`` for a key that is not a well-formed key of a
    ///   supported type, ``WebAuthnFailure/unsupportedAlgorithm(_:)`` for an `alg` Keyway does
    ///   not verify.
    init(cbor: Data) throws(WebAuthnFailure) {
        let key: CBOR
        do { key = try CBOR.decode(cbor, maximumDepth: 4) } catch { throw .malformed("the COSE key: \(error.reason)") }
        guard case .map = key else { throw .malformed("the COSE key is not a map") }
        guard let kty = key[Label.kty]?.intValue else { throw .malformed("the COSE key has no integer kty") }
        guard let algNumber = key[Label.alg]?.intValue else { throw .malformed("the COSE key has no integer alg") }
        guard let algorithm = COSEAlgorithm(rawValue: algNumber) else { throw .unsupportedAlgorithm(algNumber) }
        switch (algorithm, kty) {
        case (.es256, 2):
            guard key[Label.crv]?.intValue == 1 else { throw .malformed("the ES256 key is not on P-256 (crv 1)") }
            guard let x = key[Label.x]?.bytesValue, let y = key[Label.y]?.bytesValue, x.count == 32, y.count == 32 else {
                throw .malformed("the P-256 key's x and y are not 32 bytes each")
            }
            guard let publicKey = try? P256.Signing.PublicKey(rawRepresentation: x + y) else {
                throw .malformed("the P-256 key's point is not on the curve")
            }
            material = publicKey.rawRepresentation
        case (.edDSA, 1):
            guard key[Label.crv]?.intValue == 6 else { throw .malformed("the EdDSA key is not Ed25519 (crv 6)") }
            guard let x = key[Label.x]?.bytesValue, x.count == 32,
                let publicKey = try? Curve25519.Signing.PublicKey(rawRepresentation: x)
            else { throw .malformed("the Ed25519 key's x is not 32 bytes") }
            material = publicKey.rawRepresentation
        case (.rs256, 3):
            guard let n = key[Label.n]?.bytesValue, let e = key[Label.e]?.bytesValue, !n.isEmpty, !e.isEmpty else {
                throw .malformed("the RSA key has no n or e")
            }
            guard let publicKey = try? _RSA.Signing.PublicKey(n: n, e: e) else {
                throw .malformed("the RSA key is not a valid key of 2048 bits or more")
            }
            material = publicKey.derRepresentation
        default:
            throw .malformed("the COSE key's type \(kty) does not match its algorithm \(algNumber)")
        }
        self.algorithm = algorithm
    }

    /// Whether `signature` is this key's signature of `data`: ES256 signatures DER-encoded (as
    /// WebAuthn sends them), RS256 PKCS#1 v1.5 with SHA-256, EdDSA raw. A signature that does
    /// not parse is not valid.
    ///
    /// - Parameters:
    ///   - signature: The signature.
    ///   - data: The signed bytes (not their hash).
    /// - Returns: `true` when the signature verifies.
    func isValidSignature(_ signature: Data, for data: Data) -> Bool {
        switch algorithm {
        case .es256:
            guard let key = try? P256.Signing.PublicKey(rawRepresentation: material),
                let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature)
            else { return false }
            return key.isValidSignature(parsed, for: data)
        case .edDSA:
            guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: material) else { return false }
            return key.isValidSignature(signature, for: data)
        case .rs256:
            guard let key = try? _RSA.Signing.PublicKey(derRepresentation: material) else { return false }
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .insecurePKCS1v1_5)
        }
    }
}
