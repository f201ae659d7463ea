import Crypto
import Foundation

/// The `X-PowerAuth-Token` header of MAC token-based authentication:
/// `PowerAuth token_id="…", token_digest="…", nonce="…", timestamp="…", version="3.3"`.
public struct PowerAuthTokenHeader: Sendable, Hashable, CustomStringConvertible {
    /// The header's name.
    public static let name = "X-PowerAuth-Token"

    /// `token_id`: the token's ID (a UUID).
    public var tokenID: String
    /// `token_digest`: the digest (see ``PowerAuthTokenDigest``).
    public var digest: Data
    /// `nonce`: the 16-byte nonce the digest covers.
    public var nonce: Data
    /// `timestamp`: Unix time in milliseconds.
    public var timestamp: UInt64
    /// `version`: the protocol version.
    public var version: String

    /// Builds a header from its values.
    ///
    /// - Parameters:
    ///   - tokenID: The token's ID.
    ///   - digest: The digest.
    ///   - nonce: The nonce.
    ///   - timestamp: The timestamp in milliseconds.
    ///   - version: The protocol version.
    public init(tokenID: String, digest: Data, nonce: Data, timestamp: UInt64, version: String = PowerAuthVersion.v33.rawValue) {
        self.tokenID = tokenID
        self.digest = digest
        self.nonce = nonce
        self.timestamp = timestamp
        self.version = version
    }

    /// Computes a fresh header for a token: a random nonce and the digest of
    /// ``PowerAuthTokenDigest/compute(tokenSecret:nonce:timestamp:version:)``.
    ///
    /// - Parameters:
    ///   - tokenID: The token's ID.
    ///   - tokenSecret: The token's 16-byte secret.
    ///   - timestamp: Unix time in milliseconds.
    ///   - version: The protocol version (3.3 by default).
    ///   - nonce: The nonce; 16 random bytes by default.
    /// - Throws: `PowerAuthError.invalidLength` for a secret or nonce not 16 bytes.
    public init(
        tokenID: String, tokenSecret: SymmetricKey, timestamp: UInt64, version: PowerAuthVersion = .v33,
        nonce: Data = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
    ) throws(PowerAuthError) {
        let digest = try PowerAuthTokenDigest.compute(tokenSecret: tokenSecret, nonce: nonce, timestamp: timestamp, version: version)
        self.init(tokenID: tokenID, digest: digest, nonce: nonce, timestamp: timestamp, version: version.rawValue)
    }

    /// The header's value.
    public var value: String {
        "PowerAuth token_id=\"\(tokenID)\", token_digest=\"\(digest.base64EncodedString())\", "
            + "nonce=\"\(nonce.base64EncodedString())\", timestamp=\"\(timestamp)\", version=\"\(version)\""
    }

    /// The header's value.
    public var description: String { value }

    /// Reads a header value: the `PowerAuth` scheme, then `name="value"` pairs separated by
    /// commas and/or white space, in any order.
    ///
    /// - Parameter value: The header's value.
    /// - Throws: `PowerAuthError.malformedSignature` for another scheme or a missing or malformed
    ///   parameter, `.invalidBase64` for the digest or the nonce.
    public init(parsing value: String) throws(PowerAuthError) {
        let parameters = try PowerAuthHeaderParameters.parse(value)
        guard let tokenID = parameters["token_id"], !tokenID.isEmpty, let digestText = parameters["token_digest"],
              let nonceText = parameters["nonce"], let timestampText = parameters["timestamp"], let version = parameters["version"]
        else { throw .malformedSignature("token_id, token_digest, nonce, timestamp and version are required") }
        guard let digest = Data(base64Encoded: digestText) else { throw .invalidBase64(field: "token_digest") }
        guard let nonce = Data(base64Encoded: nonceText) else { throw .invalidBase64(field: "nonce") }
        guard let timestamp = UInt64(timestampText) else { throw .malformedSignature("timestamp is not a number of milliseconds") }
        self.init(tokenID: tokenID, digest: digest, nonce: nonce, timestamp: timestamp, version: version)
    }
}
