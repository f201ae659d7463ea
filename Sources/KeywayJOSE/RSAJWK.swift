import Crypto
import CryptoExtras
import Foundation
import KeywayProtocol

/// Conversions between RSA keys and JSON Web Keys (RFC 7518 §6.3.1), for `RS256`.
public enum RSAJWK {
    /// The shortest RSA modulus accepted, in bits.
    public static let minimumKeySize = 2048

    /// The public JWK of an RSA key (`kty: RSA`), with its RFC 7638 thumbprint as `kid`.
    ///
    /// - Parameter key: The public key.
    /// - Returns: Its JWK, with `use: sig` and `alg: RS256`.
    /// - Throws: The error of `CryptoExtras` when the key's numbers cannot be read.
    public static func publicJWK(for key: _RSA.Signing.PublicKey) throws -> JSONWebKey {
        let primitives = try key.getKeyPrimitives()
        let n = Base64URL.encode(unpadded(primitives.modulus))
        let e = Base64URL.encode(unpadded(primitives.publicExponent))
        return JSONWebKey(kty: "RSA", kid: thumbprint(n: n, e: e), use: "sig", alg: "RS256", n: n, e: e)
    }

    /// The RFC 7638 SHA-256 thumbprint of an RSA key, base64url encoded.
    ///
    /// - Parameters:
    ///   - n: The modulus, base64url.
    ///   - e: The exponent, base64url.
    /// - Returns: The thumbprint, base64url.
    public static func thumbprint(n: String, e: String) -> String {
        // Required members only, lexicographic order, no whitespace (RFC 7638 §3.2).
        let canonical = #"{"e":"\#(e)","kty":"RSA","n":"\#(n)"}"#
        return Base64URL.encode(SHA256.hash(data: Data(canonical.utf8)))
    }

    /// The RSA public key a JWK describes, from its `n` and `e`.
    ///
    /// - Parameter jwk: A JWK with `kty: RSA` and a modulus of at least ``minimumKeySize`` bits.
    /// - Returns: The public key.
    /// - Throws: ``JOSEError/malformed(_:)`` when the JWK is not an RSA public key or its modulus is
    ///   shorter than ``minimumKeySize`` bits.
    public static func publicKey(from jwk: JSONWebKey) throws -> _RSA.Signing.PublicKey {
        guard jwk.kty == "RSA", let n = jwk.n.flatMap(Base64URL.decode), let e = jwk.e.flatMap(Base64URL.decode),
            !n.isEmpty, !e.isEmpty
        else { throw JOSEError.malformed("the JWK is not an RSA public key") }
        do {
            return try _RSA.Signing.PublicKey(n: n, e: e)
        } catch {
            throw JOSEError.malformed("the RSA key is invalid or shorter than \(minimumKeySize) bits")
        }
    }

    /// Big-endian bytes without leading zero octets (RFC 7518 §6.3.1.1).
    private static func unpadded(_ bytes: Data) -> Data {
        let trimmed = bytes.drop { $0 == 0 }
        return trimmed.isEmpty ? Data([0]) : Data(trimmed)
    }
}
