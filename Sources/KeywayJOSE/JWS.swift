import Crypto
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
}

/// Signs compact JWS with `ES256`.
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
        var header = header
        header["alg"] = .string("ES256")
        let headerPart = Base64URL.encode(Array(JSONValue.object(header).serialized().utf8))
        let payloadPart = Base64URL.encode(payload)
        let signingInput = Data("\(headerPart).\(payloadPart)".utf8)
        let signature = try key.signature(for: signingInput)
        return "\(headerPart).\(payloadPart).\(Base64URL.encode(signature.rawRepresentation))"
    }
}
