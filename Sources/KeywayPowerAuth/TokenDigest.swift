import Crypto
import Foundation

/// MAC token-based authentication: the `token_digest` of the `X-PowerAuth-Token` header.
public enum PowerAuthTokenDigest {
    /// Computes the digest: HMAC-SHA256 keyed with the token secret over
    /// `NONCE ‖ "&" ‖ TIMESTAMP` (3.0, 3.1) or `NONCE ‖ "&" ‖ TIMESTAMP ‖ "&" ‖ VERSION` (3.2+),
    /// the nonce as raw bytes and the timestamp as its decimal text.
    ///
    /// - Parameters:
    ///   - tokenSecret: The token's 16-byte secret.
    ///   - nonce: A fresh 16-byte nonce.
    ///   - timestamp: Unix time in milliseconds.
    ///   - version: The protocol version.
    /// - Returns: The 32-byte digest (sent in Base64).
    /// - Throws: `PowerAuthError.invalidLength` for a secret or nonce not 16 bytes.
    public static func compute(
        tokenSecret: SymmetricKey, nonce: Data, timestamp: UInt64, version: PowerAuthVersion
    ) throws(PowerAuthError) -> Data {
        try Bytes.require(tokenSecret.data, count: 16, field: "token secret")
        try Bytes.require(nonce, count: 16, field: "token nonce")
        var data = nonce
        data.append(contentsOf: Array("&\(timestamp)".utf8))
        if version.usesTimestamp { data.append(contentsOf: Array("&\(version.rawValue)".utf8)) }
        return Data(HMAC<SHA256>.authenticationCode(for: data, using: tokenSecret))
    }

    /// Checks a digest in constant time.
    ///
    /// - Parameters:
    ///   - digest: The digest received (decoded from Base64).
    ///   - tokenSecret: The token's secret.
    ///   - nonce: The nonce received.
    ///   - timestamp: The timestamp received; the caller judges its freshness.
    ///   - version: The protocol version received.
    /// - Returns: `true` when the digest matches.
    /// - Throws: `PowerAuthError.invalidLength` for a secret or nonce not 16 bytes.
    public static func isValid(
        _ digest: Data, tokenSecret: SymmetricKey, nonce: Data, timestamp: UInt64, version: PowerAuthVersion
    ) throws(PowerAuthError) -> Bool {
        let expected = try compute(tokenSecret: tokenSecret, nonce: nonce, timestamp: timestamp, version: version)
        return ConstantTimeBytes.equals(Array(expected), Array(digest))
    }
}
