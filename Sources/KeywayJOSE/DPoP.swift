import Crypto
import Foundation

/// DPoP proofs (RFC 9449): a JWT signed by the client's key that binds one HTTP request.
public enum DPoP {
    /// The `typ` of a proof.
    public static let type = "dpop+jwt"

    /// The `ath` claim: base64url of the SHA-256 of the access token (RFC 9449 §4.2).
    ///
    /// - Parameter accessToken: The access token the proof goes with.
    /// - Returns: The `ath` value.
    public static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(accessToken.utf8)))
    }

    /// The `jkt` of a key: its RFC 7638 thumbprint.
    ///
    /// - Parameter key: The proof key's public half.
    /// - Returns: The thumbprint, base64url.
    public static func thumbprint(of key: P256.Signing.PublicKey) -> String {
        let raw = key.rawRepresentation
        return ECJWK.thumbprint(
            crv: "P-256", x: Base64URL.encode(raw.prefix(32)), y: Base64URL.encode(raw.suffix(32)))
    }

    /// A proof for `method` `url`: header `typ: dpop+jwt`, `alg: ES256` and the public key as
    /// `jwk`; claims `jti`, `htm`, `htu` (the URL without query and fragment), `iat`, and `nonce`
    /// and `ath` when given.
    ///
    /// - Parameters:
    ///   - key: The client's DPoP key.
    ///   - method: The request's HTTP method; sent upper-cased as `htm`.
    ///   - url: The request's URL; sent as `htu` (see ``targetURI(_:)``).
    ///   - issuedAt: The time of the proof; `iat` is its whole seconds.
    ///   - nonce: The server's DPoP nonce, when it asked for one.
    ///   - accessToken: The access token the request carries, bound by `ath`; `nil` for a token request.
    ///   - jti: The proof's unique ID; a new UUID unless given.
    /// - Returns: The proof, a compact JWS for the `DPoP` header.
    /// - Throws: The error of `key`'s ``ES256SigningKey/signature(for:)`` when it cannot sign.
    public static func proof(
        key: any ES256SigningKey, method: String, url: URL, issuedAt: Date, nonce: String? = nil,
        accessToken: String? = nil, jti: String = UUID().uuidString
    ) throws -> String {
        let raw = key.publicKey.rawRepresentation
        let jwk: JSONValue = .object([
            "kty": .string("EC"), "crv": .string("P-256"),
            "x": .string(Base64URL.encode(raw.prefix(32))), "y": .string(Base64URL.encode(raw.suffix(32))),
        ])
        var claims: [String: JSONValue] = [
            "jti": .string(jti), "htm": .string(method.uppercased()), "htu": .string(targetURI(url)),
            "iat": .number(issuedAt.timeIntervalSince1970.rounded(.down)),
        ]
        if let nonce { claims["nonce"] = .string(nonce) }
        if let accessToken { claims["ath"] = .string(accessTokenHash(accessToken)) }
        return try JWSSigner.signES256(
            payload: Data(JSONValue.object(claims).serialized().utf8), header: ["typ": .string(type), "jwk": jwk],
            key: key)
    }

    /// `htu` as RFC 9449 §4.3 compares it: scheme and host lower-cased, default port dropped,
    /// no query or fragment.
    ///
    /// - Parameter url: The request's URL.
    /// - Returns: The normalised URI; `url`'s absolute string when it cannot be taken apart.
    public static func targetURI(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.query = nil
        components.fragment = nil
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        if (components.scheme == "http" && components.port == 80) || (components.scheme == "https" && components.port == 443) {
            components.port = nil
        }
        if components.path.isEmpty { components.path = "/" }
        return components.string ?? url.absoluteString
    }
}
