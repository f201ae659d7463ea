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

    /// Reads a header value strictly (the syntax of ``PowerAuthAuthorizationHeader/init(parsing:)``):
    /// a token ID of 1 to 64 printable ASCII characters, a 32-byte digest, a 16-byte nonce, a
    /// timestamp of decimal digits and a known protocol version.
    ///
    /// - Parameter value: The header's value.
    /// - Throws: `PowerAuthError.malformedHeader` with a sentence saying what is wrong.
    public init(parsing value: String) throws(PowerAuthError) {
        let parameters = try PowerAuthHeaderParameters.parse(value, name: Self.name)
        let version = try PowerAuthHeaderParameters.version(parameters["version"])
        let tokenID = try PowerAuthHeaderParameters.identifier(parameters["token_id"], field: "token_id")
        let digest = try PowerAuthHeaderParameters.base64(parameters["token_digest"], field: "token_digest", count: 32, maxLength: 64)
        let nonce = try PowerAuthHeaderParameters.base64(parameters["nonce"], field: "nonce", count: 16, maxLength: 64)
        guard let text = parameters["timestamp"], !text.isEmpty, text.utf8.count <= 19,
            text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let timestamp = UInt64(text)
        else { throw .malformedHeader("timestamp is Unix time in milliseconds.") }
        self.init(tokenID: tokenID, digest: digest, nonce: nonce, timestamp: timestamp, version: version.rawValue)
    }
}
