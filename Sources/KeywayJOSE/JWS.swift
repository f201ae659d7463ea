import Crypto
import CryptoExtras
import Foundation
import KeywayProtocol

/// Errors of JOSE parsing and verification.
public enum JOSEError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input is not what it should be: a JWS not of three base64url parts, a header that is not a
    /// JSON object, a JWK that is not an EC P-256 public key. The value says what is wrong.
    case malformed(String)
    /// The JWS is signed with an algorithm other than the one expected; the value is its `alg`.
    case unsupportedAlgorithm(String)
    /// No key of the set matches the JWS's `kid` (the value; `nil` when it has none).
    case unknownKey(String?)
    /// The signature does not verify with the key.
    case invalidSignature

    /// A sentence saying what is wrong.
    public var description: String {
        switch self {
        case .malformed(let why): "Malformed JWS: \(why)."
        case .unsupportedAlgorithm(let alg): "Unsupported JWS algorithm \(alg)."
        case .unknownKey(let kid): "No key matches kid \(kid ?? "(none)")."
        case .invalidSignature: "The signature does not verify."
        }
    }
}

/// A decoded JWS in compact serialization (RFC 7515 §7.1), not yet verified.
public struct CompactJWS: Sendable {
    /// The protected header, parsed.
    public let header: [String: JSONValue]
    /// The raw payload bytes.
    public let payload: Data
    /// The signature bytes.
    public let signature: Data
    /// `BASE64URL(header) '.' BASE64URL(payload)`, the signing input.
    public let signingInput: Data

    /// Parses a compact JWS.
    ///
    /// - Parameter compact: The compact serialization, `header.payload.signature`.
    /// - Throws: ``JOSEError/malformed(_:)`` when there are not three parts, a part is not base64url
    ///   or the header is not a JSON object; the `DecodingError` of `JSONDecoder` when the header is
    ///   not JSON at all.
    public init(_ compact: String) throws {
        let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw JOSEError.malformed("expected three dot-separated parts") }
        guard let headerData = Base64URL.decode(parts[0]),
            let payload = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2])
        else { throw JOSEError.malformed("a part is not base64url") }
        guard case .object(let header) = try JSONDecoder().decode(JSONValue.self, from: headerData) else {
            throw JOSEError.malformed("the header is not a JSON object")
        }
        self.header = header
        self.payload = payload
        self.signature = signature
        self.signingInput = Data("\(parts[0]).\(parts[1])".utf8)
    }

    /// The `alg` header parameter.
    public var algorithm: String? { header["alg"]?.stringValue }
    /// The `kid` header parameter.
    public var keyID: String? { header["kid"]?.stringValue }
    /// The `typ` header parameter.
    public var type: String? { header["typ"]?.stringValue }

    /// Verifies an `ES256` signature (raw R||S, RFC 7518 §3.4) with the given key.
    ///
    /// - Parameter key: The public key the JWS should be signed with.
    /// - Throws: ``JOSEError/unsupportedAlgorithm(_:)`` when `alg` is not `ES256`;
    ///   ``JOSEError/invalidSignature`` when the signature is not 64 bytes or does not verify.
    public func verifyES256(with key: P256.Signing.PublicKey) throws {
        guard algorithm == "ES256" else { throw JOSEError.unsupportedAlgorithm(algorithm ?? "(none)") }
        guard signature.count == 64,
            let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature),
            key.isValidSignature(ecdsa, for: signingInput)
        else { throw JOSEError.invalidSignature }
    }

    /// Verifies an `RS256` signature (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3) with the
    /// given key.
    ///
    /// - Parameter key: The public key the JWS should be signed with (2048 bits or more).
    /// - Throws: ``JOSEError/unsupportedAlgorithm(_:)`` when `alg` is not `RS256`;
    ///   ``JOSEError/invalidSignature`` when the signature is not as long as the modulus or does
    ///   not verify.
    public func verifyRS256(with key: _RSA.Signing.PublicKey) throws {
        guard algorithm == "RS256" else { throw JOSEError.unsupportedAlgorithm(algorithm ?? "(none)") }
        guard signature.count == key.keySizeInBits / 8,
            key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: signingInput),
                padding: .insecurePKCS1v1_5)
        else { throw JOSEError.invalidSignature }
    }

    /// Verifies the signature with the JWK the JWS names: `ES256` with an EC P-256 key, `RS256`
    /// with an RSA key. The key's type (and its `alg`, when it has one) must fit the JWS's `alg`.
    ///
    /// - Parameter key: The public key the JWS should be signed with.
    /// - Throws: ``JOSEError/unsupportedAlgorithm(_:)`` when `alg` is neither `ES256` nor `RS256`
    ///   or does not fit the key; ``JOSEError/malformed(_:)`` when the key is not a usable public
    ///   key; ``JOSEError/invalidSignature`` when the signature does not verify.
    public func verify(with key: JSONWebKey) throws {
        let algorithm = self.algorithm ?? "(none)"
        if let declared = key.alg, declared != algorithm { throw JOSEError.unsupportedAlgorithm(algorithm) }
        switch (algorithm, key.kty) {
        case ("ES256", "EC"): try verifyES256(with: try ECJWK.publicKey(from: key))
        case ("RS256", "RSA"): try verifyRS256(with: try RSAJWK.publicKey(from: key))
        default: throw JOSEError.unsupportedAlgorithm(algorithm)
        }
    }
}

/// Signs compact JWS with `ES256` or `RS256`.
public enum JWSSigner {
    /// Produces `header.payload.signature` with the given header members (`alg` is set to ES256).
    ///
    /// - Parameters:
    ///   - payload: The payload bytes.
    ///   - header: The protected header's members; `alg` is overwritten.
    ///   - key: The signing key.
    /// - Returns: The compact JWS.
    /// - Throws: The error of `key`'s ``ES256SigningKey/signature(for:)`` when it cannot sign.
    public static func signES256(
        payload: Data, header: [String: JSONValue], key: any ES256SigningKey
    ) throws -> String {
        try compact(payload: payload, header: header, algorithm: "ES256") { try key.signature(for: $0).rawRepresentation }
    }

    /// Produces `header.payload.signature` signed with RSASSA-PKCS1-v1_5 and SHA-256 (`alg` is
    /// set to RS256, RFC 7518 §3.3).
    ///
    /// - Parameters:
    ///   - payload: The payload bytes.
    ///   - header: The protected header's members; `alg` is overwritten.
    ///   - key: The RSA signing key.
    /// - Returns: The compact JWS.
    /// - Throws: The error of `CryptoExtras` when the key cannot sign.
    public static func signRS256(
        payload: Data, header: [String: JSONValue], key: _RSA.Signing.PrivateKey
    ) throws -> String {
        try compact(payload: payload, header: header, algorithm: "RS256") {
            try key.signature(for: SHA256.hash(data: $0), padding: .insecurePKCS1v1_5).rawRepresentation
        }
    }

    /// `header.payload.signature` with `alg` set, the signature made by `sign` over the signing input.
    private static func compact(
        payload: Data, header: [String: JSONValue], algorithm: String, sign: (Data) throws -> Data
    ) throws -> String {
        var header = header
        header["alg"] = .string(algorithm)
        let headerPart = Base64URL.encode(Array(JSONValue.object(header).serialized().utf8))
        let payloadPart = Base64URL.encode(payload)
        let signature = try sign(Data("\(headerPart).\(payloadPart)".utf8))
        return "\(headerPart).\(payloadPart).\(Base64URL.encode(signature))"
    }
}
