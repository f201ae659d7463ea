import Crypto
import Foundation
import KeywayJOSE

/// Identifiers, tokens and codes drawn from the system CSPRNG.
enum SecureRandom {
    /// `count` random bytes.
    static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// A prefixed identifier with 128 bits of randomness: `flw_3q2…`.
    static func identifier(prefix: String) -> String {
        "\(prefix)_\(Base64URL.encode(bytes(16)))"
    }

    /// A prefixed secret token with 256 bits of randomness.
    static func token(prefix: String) -> String {
        "\(prefix)_\(Base64URL.encode(bytes(32)))"
    }

    /// A uniformly distributed numeric code of `digits` digits (leading zeros kept).
    static func numericCode(digits: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
    }
}

/// SHA-256 of a high-entropy secret, hex encoded, for storage and lookup.
func sha256Hex(_ text: String) -> String {
    Hex.encode(SHA256.hash(data: Data(text.utf8)))
}
