import Crypto
import Foundation

/// The claims of a temporary encryption key (protocol 3.3, `POST /pa/v3/keystore/create`): the
/// request's (`applicationKey`, `activationId` in activation scope, `challenge`) and, in the
/// server's answer, the key's ID (`sub`), its public key and its lifetime.
public struct TemporaryKeyClaims: Sendable, Hashable {
    /// `applicationKey`: the application key, Base64 text.
    public var applicationKey: String
    /// `activationId`: present in activation scope.
    public var activationID: String?
    /// `challenge`: the client's random reference, echoed by the server.
    public var challenge: String
    /// `sub`: the temporary key's ID (answers only).
    public var keyID: String?
    /// `publicKey`: the temporary public key, standard Base64 of the X9.62 point (answers only).
    public var publicKey: String?
    /// `iat_ms` (or `iat` × 1000): when the key was issued, Unix milliseconds (answers only).
    public var issuedAtMilliseconds: UInt64?
    /// `exp_ms` (or `exp` × 1000): when the key expires, Unix milliseconds (answers only).
    public var expiresAtMilliseconds: UInt64?

    /// Builds claims.
    ///
    /// - Parameters:
    ///   - applicationKey: The application key.
    ///   - activationID: The activation ID in activation scope, `nil` in application scope.
    ///   - challenge: The request's challenge.
    ///   - keyID: The temporary key's ID (answers).
    ///   - publicKey: The temporary public key in Base64 (answers).
    ///   - issuedAtMilliseconds: The issue time (answers).
    ///   - expiresAtMilliseconds: The expiry (answers).
    public init(
        applicationKey: String, activationID: String? = nil, challenge: String, keyID: String? = nil,
        publicKey: String? = nil, issuedAtMilliseconds: UInt64? = nil, expiresAtMilliseconds: UInt64? = nil
    ) {
        self.applicationKey = applicationKey
        self.activationID = activationID
        self.challenge = challenge
        self.keyID = keyID
        self.publicKey = publicKey
        self.issuedAtMilliseconds = issuedAtMilliseconds
        self.expiresAtMilliseconds = expiresAtMilliseconds
    }
}

/// The JWTs of the temporary keys API: the client's request signed with HS256, the server's
/// answer signed with ES256 (the master server key in application scope, the activation's server
/// key in activation scope).
public enum TemporaryKeyJWT {
    /// The HS256 key of a request: the application secret's raw bytes in application scope,
    /// `KDF_INTERNAL(KEY_TRANSPORT, APP_SECRET)` (the secret's raw bytes) in activation scope.
    ///
    /// - Parameters:
    ///   - applicationSecret: `APPLICATION_SECRET` as its Base64 text.
    ///   - transportKey: `KEY_TRANSPORT` in activation scope, `nil` in application scope.
    /// - Returns: The HMAC key.
    /// - Throws: `PowerAuthError.invalidBase64` when the secret is not Base64.
    public static func requestSigningKey(applicationSecret: String, transportKey: SymmetricKey?) throws(PowerAuthError) -> SymmetricKey {
        let secret = try Bytes.base64(applicationSecret, field: "application secret")
        guard let transportKey else { return SymmetricKey(data: secret) }
        return PowerAuthKDF.deriveInternal(key: transportKey, data: secret)
    }

    /// Writes a request JWT (`{"alg":"HS256","typ":"JWT"}`) with the request's claims.
    ///
    /// - Parameters:
    ///   - claims: `applicationKey`, `challenge` and, in activation scope, `activationId`.
    ///   - key: ``requestSigningKey(applicationSecret:transportKey:)``.
    /// - Returns: The compact JWT.
    public static func request(_ claims: TemporaryKeyClaims, key: SymmetricKey) -> String {
        var payload: [String: Any] = ["applicationKey": claims.applicationKey, "challenge": claims.challenge]
        if let activationID = claims.activationID { payload["activationId"] = activationID }
        let signingInput = encode(["alg": "HS256", "typ": "JWT"]) + "." + encode(payload)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: key)
        return signingInput + "." + base64URL(Data(mac))
    }

    /// Checks a request JWT's HS256 signature and reads its claims (the server's side).
    ///
    /// - Parameters:
    ///   - jwt: The compact JWT.
    ///   - key: The key the scope implies.
    /// - Returns: The request's claims.
    /// - Throws: `PowerAuthError.malformedSignature` for a malformed JWT or another algorithm,
    ///   `.authenticationFailed` when the MAC does not match.
    public static func verifyRequest(_ jwt: String, key: SymmetricKey) throws(PowerAuthError) -> TemporaryKeyClaims {
        let parts = try split(jwt, algorithm: "HS256")
        let expected = HMAC<SHA256>.authenticationCode(for: Data(parts.signingInput.utf8), using: key)
        guard ConstantTimeBytes.equals(Array(expected), Array(parts.signature)) else { throw .authenticationFailed }
        return try claims(parts.payload)
    }

    /// Writes an answer JWT (`{"alg":"ES256","typ":"JWT"}`, the signature as JOSE's `R ‖ S`).
    ///
    /// - Parameters:
    ///   - claims: Every claim of the answer (`sub`, `publicKey` and the times among them).
    ///   - privateKey: The master server private key (application scope) or the activation's
    ///     server private key (activation scope).
    /// - Returns: The compact JWT.
    /// - Throws: `PowerAuthError.invalidKey` when signing fails.
    public static func response(_ claims: TemporaryKeyClaims, privateKey: P256.Signing.PrivateKey) throws(PowerAuthError) -> String {
        var payload: [String: Any] = ["applicationKey": claims.applicationKey, "challenge": claims.challenge]
        if let activationID = claims.activationID { payload["activationId"] = activationID }
        if let keyID = claims.keyID { payload["sub"] = keyID }
        if let publicKey = claims.publicKey { payload["publicKey"] = publicKey }
        if let issued = claims.issuedAtMilliseconds {
            payload["iat_ms"] = issued
            payload["iat"] = issued / 1000
        }
        if let expires = claims.expiresAtMilliseconds {
            payload["exp_ms"] = expires
            payload["exp"] = expires / 1000
        }
        let signingInput = encode(["alg": "ES256", "typ": "JWT"]) + "." + encode(payload)
        do {
            let signature = try privateKey.signature(for: Data(signingInput.utf8))
            return signingInput + "." + base64URL(signature.rawRepresentation)
        } catch {
            throw .invalidKey(field: "server private key")
        }
    }

    /// The longest JWT read.
    public static let maximumLength = 8192

    /// Reads a request JWT's claims without checking its signature: the server learns from them
    /// which application (and activation) the request names, hence which key to check it with
    /// (``verifyRequest(_:key:)``). Nothing read here may be trusted before that check.
    ///
    /// - Parameter jwt: The compact JWT.
    /// - Returns: The claims as written.
    /// - Throws: `PowerAuthError.malformedSignature` for a malformed or oversized JWT,
    ///   `.missingValue` without `applicationKey` and `challenge`.
    public static func unverifiedRequestClaims(_ jwt: String) throws(PowerAuthError) -> TemporaryKeyClaims {
        try claims(try split(jwt, algorithm: "HS256").payload)
    }

    /// Checks an answer JWT's ES256 signature with the key the scope implies and reads its claims
    /// (the client's side). The caller then compares the echoed claims with its request
    /// (``TemporaryKeyClaims/applicationKey``, ``TemporaryKeyClaims/activationID``,
    /// ``TemporaryKeyClaims/challenge``).
    ///
    /// - Parameters:
    ///   - jwt: The compact JWT.
    ///   - publicKey: The master server public key, or the activation's server public key.
    /// - Returns: The answer's claims.
    /// - Throws: `PowerAuthError.malformedSignature` for a malformed JWT or another algorithm,
    ///   `.authenticationFailed` when the signature does not verify.
    public static func verifyResponse(_ jwt: String, publicKey: P256.Signing.PublicKey) throws(PowerAuthError) -> TemporaryKeyClaims {
        let parts = try split(jwt, algorithm: "ES256")
        let signature: P256.Signing.ECDSASignature
        do {
            signature = parts.signature.count == 64
                ? try P256.Signing.ECDSASignature(rawRepresentation: parts.signature)
                : try P256.Signing.ECDSASignature(derRepresentation: parts.signature)
        } catch {
            throw .malformedSignature("the JWT's ES256 signature is neither R ‖ S nor DER")
        }
        guard publicKey.isValidSignature(signature, for: Data(parts.signingInput.utf8)) else { throw .authenticationFailed }
        return try claims(parts.payload)
    }

    // MARK: Compact serialization

    private struct Parts {
        let signingInput: String
        let payload: [String: Any]
        let signature: Data
    }

    private static func split(_ jwt: String, algorithm: String) throws(PowerAuthError) -> Parts {
        guard jwt.utf8.count <= maximumLength else { throw .malformedSignature("the JWT is longer than \(maximumLength) bytes") }
        let segments = jwt.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segments.count == 3 else { throw .malformedSignature("a JWT has three segments") }
        guard let headerData = decodeBase64URL(segments[0]),
              let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
              let payloadData = decodeBase64URL(segments[1]),
              let payload = try? JSONSerialization.jsonObject(with: payloadData) as? [String: Any],
              let signature = decodeBase64URL(segments[2])
        else { throw .malformedSignature("the JWT's segments are not Base64url JSON") }
        guard header["alg"] as? String == algorithm else { throw .malformedSignature("the JWT is not signed with \(algorithm)") }
        return Parts(signingInput: segments[0] + "." + segments[1], payload: payload, signature: signature)
    }

    private static func claims(_ payload: [String: Any]) throws(PowerAuthError) -> TemporaryKeyClaims {
        guard let applicationKey = payload["applicationKey"] as? String, let challenge = payload["challenge"] as? String else {
            throw .missingValue(field: "applicationKey and challenge claims")
        }
        return TemporaryKeyClaims(
            applicationKey: applicationKey, activationID: payload["activationId"] as? String, challenge: challenge,
            keyID: payload["sub"] as? String, publicKey: payload["publicKey"] as? String,
            issuedAtMilliseconds: milliseconds(payload["iat_ms"], seconds: payload["iat"]),
            expiresAtMilliseconds: milliseconds(payload["exp_ms"], seconds: payload["exp"]))
    }

    /// A time claim in milliseconds: `*_ms` when present (a number or a numeric string), else the
    /// seconds claim × 1000.
    private static func milliseconds(_ value: Any?, seconds: Any?) -> UInt64? {
        func number(_ any: Any?) -> UInt64? {
            switch any {
            case let number as NSNumber: UInt64(exactly: number.doubleValue.rounded(.down))
            case let text as String: UInt64(text)
            default: nil
            }
        }
        if let ms = number(value) { return ms }
        return number(seconds).map { $0 * 1000 }
    }

    private static func encode(_ object: [String: Any]) -> String {
        // Sorted keys: the same claims always give the same JWT.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return base64URL(data)
    }

    /// Base64url without padding (RFC 7515 §2).
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes Base64url with or without padding; `nil` for anything else.
    static func decodeBase64URL(_ text: String) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64.append("=") }
        return Data(base64Encoded: base64)
    }
}
