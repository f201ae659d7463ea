import Crypto
import Foundation

/// The compact JWTs of the temporary key exchange (protocol 3.3, `POST /pa/v3/keystore/create`): the
/// request signed with HS256, the response with ES256 (the signature as `R ‖ S`, RFC 7518 §3.4).
public enum PowerAuthJWT {
    /// The largest JWT read (characters).
    public static let maxLength = 8192

    /// Signs `payload` with HS256.
    ///
    /// - Parameters:
    ///   - payload: The claims' JSON.
    ///   - key: The HMAC key (``TemporaryKeyScope/requestSigningKey(applicationSecret:transportKey:)``).
    /// - Returns: The compact JWT.
    public static func signHS256(payload: Data, key: SymmetricKey) -> String {
        let input = signingInput(algorithm: "HS256", payload: payload)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: key)
        return input + "." + base64URL(Data(mac))
    }

    /// Checks an HS256 JWT and returns its payload. The MAC is compared in constant time.
    ///
    /// - Parameters:
    ///   - jwt: The compact JWT.
    ///   - key: The HMAC key.
    /// - Returns: The payload's bytes.
    /// - Throws: `PowerAuthError.malformedSignature` for a malformed JWT or another algorithm,
    ///   `.authenticationFailed` when the MAC does not match.
    public static func verifyHS256(_ jwt: String, key: SymmetricKey) throws(PowerAuthError) -> Data {
        let parts = try split(jwt, algorithm: "HS256")
        let expected = HMAC<SHA256>.authenticationCode(for: Data(parts.signingInput.utf8), using: key)
        guard ConstantTimeBytes.equals(Array(expected), Array(parts.signature)) else { throw .authenticationFailed }
        return parts.payload
    }

    /// Signs `payload` with ES256.
    ///
    /// - Parameters:
    ///   - payload: The claims' JSON.
    ///   - privateKey: `KEY_SERVER_MASTER_PRIVATE` or `KEY_SERVER_PRIVATE`.
    /// - Returns: The compact JWT.
    /// - Throws: `PowerAuthError.invalidKey` when signing fails.
    public static func signES256(payload: Data, privateKey: P256.Signing.PrivateKey) throws(PowerAuthError) -> String {
        let input = signingInput(algorithm: "ES256", payload: payload)
        do {
            let signature = try privateKey.signature(for: Data(input.utf8))
            return input + "." + base64URL(signature.rawRepresentation)
        } catch {
            throw .invalidKey(field: "signing key")
        }
    }

    /// Checks an ES256 JWT and returns its payload.
    ///
    /// - Parameters:
    ///   - jwt: The compact JWT.
    ///   - publicKey: `KEY_SERVER_MASTER_PUBLIC` or `KEY_SERVER_PUBLIC`.
    /// - Returns: The payload's bytes.
    /// - Throws: `PowerAuthError.malformedSignature` for a malformed JWT or another algorithm,
    ///   `.authenticationFailed` when the signature does not verify.
    public static func verifyES256(_ jwt: String, publicKey: P256.Signing.PublicKey) throws(PowerAuthError) -> Data {
        let parts = try split(jwt, algorithm: "ES256")
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: parts.signature),
            publicKey.isValidSignature(signature, for: Data(parts.signingInput.utf8))
        else { throw .authenticationFailed }
        return parts.payload
    }

    /// The payload of a JWT whose signature is not checked yet (to find the key that checks it).
    ///
    /// - Parameter jwt: The compact JWT.
    /// - Returns: The payload's bytes.
    /// - Throws: `PowerAuthError.malformedSignature` for a malformed JWT.
    public static func unverifiedPayload(_ jwt: String) throws(PowerAuthError) -> Data {
        try split(jwt, algorithm: nil).payload
    }

    private struct Parts {
        let signingInput: String
        let payload: Data
        let signature: Data
    }

    private static func split(_ jwt: String, algorithm: String?) throws(PowerAuthError) -> Parts {
        guard jwt.utf8.count <= maxLength else { throw .malformedSignature("the JWT is too long") }
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = fromBase64URL(parts[0]), let payload = fromBase64URL(parts[1]),
            let signature = fromBase64URL(parts[2])
        else { throw .malformedSignature("a JWT is three base64url parts") }
        guard let object = try? JSONSerialization.jsonObject(with: header) as? [String: Any],
            let alg = object["alg"] as? String
        else { throw .malformedSignature("the JWT header is not a JSON object with alg") }
        if let algorithm, alg != algorithm { throw .malformedSignature("the JWT is not signed with \(algorithm)") }
        return Parts(signingInput: parts[0] + "." + parts[1], payload: payload, signature: signature)
    }

    private static func signingInput(algorithm: String, payload: Data) -> String {
        base64URL(Data("{\"alg\":\"\(algorithm)\",\"typ\":\"JWT\"}".utf8)) + "." + base64URL(payload)
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func fromBase64URL<S: StringProtocol>(_ text: S) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// The claims of a temporary key request.
public struct TemporaryKeyRequestClaims: Codable, Sendable, Equatable {
    /// `APP_KEY`, Base64.
    public var applicationKey: String
    /// The activation ID: activation scope when present, application scope otherwise.
    public var activationId: String?
    /// The client's random challenge.
    public var challenge: String

    /// Builds request claims.
    public init(applicationKey: String, activationId: String? = nil, challenge: String) {
        self.applicationKey = applicationKey
        self.activationId = activationId
        self.challenge = challenge
    }
}

/// The claims of a temporary key response.
public struct TemporaryKeyResponseClaims: Codable, Sendable, Equatable {
    /// The temporary key's ID (`TEMP_KEY_ID`).
    public var sub: String
    /// The request's application key.
    public var applicationKey: String
    /// The request's activation ID (activation scope).
    public var activationId: String?
    /// The request's challenge.
    public var challenge: String
    /// The temporary public key, Base64 of the X9.62 point.
    public var publicKey: String
    /// Issued at, seconds since 1970.
    public var iat: Int64
    /// Expires at, seconds since 1970.
    public var exp: Int64
    /// Issued at, milliseconds since 1970.
    public var iatMs: Int64
    /// Expires at, milliseconds since 1970.
    public var expMs: Int64

    enum CodingKeys: String, CodingKey {
        case sub, applicationKey, activationId, challenge, publicKey, iat, exp
        case iatMs = "iat_ms"
        case expMs = "exp_ms"
    }

    /// Builds response claims.
    public init(
        sub: String, applicationKey: String, activationId: String?, challenge: String, publicKey: String,
        iatMs: Int64, expMs: Int64
    ) {
        self.sub = sub
        self.applicationKey = applicationKey
        self.activationId = activationId
        self.challenge = challenge
        self.publicKey = publicKey
        self.iat = iatMs / 1000
        self.exp = expMs / 1000
        self.iatMs = iatMs
        self.expMs = expMs
    }
}

/// The key that signs a temporary key request.
public enum TemporaryKeyScope {
    /// Application scope: `APP_SECRET` decoded to its raw bytes; activation scope:
    /// `KDF_INTERNAL(KEY_TRANSPORT, APP_SECRET)` over the same raw bytes.
    ///
    /// - Parameters:
    ///   - applicationSecret: `APP_SECRET`'s raw bytes (Base64-decoded).
    ///   - transportKey: `KEY_TRANSPORT` in activation scope, `nil` in application scope.
    /// - Returns: The HS256 key.
    public static func requestSigningKey(applicationSecret: Data, transportKey: SymmetricKey?) -> SymmetricKey {
        guard let transportKey else { return SymmetricKey(data: applicationSecret) }
        return PowerAuthKDF.deriveInternal(key: transportKey, data: applicationSecret)
    }
}
