import Crypto
import Foundation
import KeywayProtocol

/// Conversions between P-256 keys and JSON Web Keys.
public enum ECJWK {
    /// The public JWK of a P-256 key (`kty: EC`, `crv: P-256`), with its RFC 7638 thumbprint as `kid`.
    ///
    /// - Parameter key: The public key.
    /// - Returns: Its JWK, with `use: sig` and `alg: ES256`.
    public static func publicJWK(for key: P256.Signing.PublicKey) -> JSONWebKey {
        let raw = key.rawRepresentation  // X || Y, 32 bytes each
        let x = Base64URL.encode(raw.prefix(32))
        let y = Base64URL.encode(raw.suffix(32))
        return JSONWebKey(
            kty: "EC", kid: thumbprint(crv: "P-256", x: x, y: y), use: "sig", alg: "ES256", crv: "P-256",
            x: x, y: y)
    }

    /// The RFC 7638 SHA-256 thumbprint of an EC key, base64url encoded.
    ///
    /// - Parameters:
    ///   - crv: The curve (`P-256`).
    ///   - x: The x coordinate, base64url.
    ///   - y: The y coordinate, base64url.
    /// - Returns: The thumbprint, base64url.
    public static func thumbprint(crv: String, x: String, y: String) -> String {
        // Required members only, lexicographic order, no whitespace (RFC 7638 §3.2).
        let canonical = #"{"crv":"\#(crv)","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
        return Base64URL.encode(SHA256.hash(data: Data(canonical.utf8)))
    }

    /// The P-256 public key a JWK describes.
    ///
    /// - Parameter jwk: A JWK with `kty: EC`, `crv: P-256` and 32-byte `x` and `y`.
    /// - Returns: The public key.
    /// - Throws: ``JOSEError/malformed(_:)`` when the JWK is not an EC P-256 public key or its point
    ///   is not on the curve.
    public static func publicKey(from jwk: JSONWebKey) throws -> P256.Signing.PublicKey {
        guard jwk.kty == "EC", jwk.crv == "P-256", let x = jwk.x.flatMap(Base64URL.decode),
            let y = jwk.y.flatMap(Base64URL.decode), x.count == 32, y.count == 32
        else { throw JOSEError.malformed("the JWK is not an EC P-256 public key") }
        do {
            return try P256.Signing.PublicKey(rawRepresentation: x + y)
        } catch {
            throw JOSEError.malformed("the JWK's point is not on the P-256 curve")
        }
    }
}
