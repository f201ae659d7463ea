import Crypto
import Foundation

/// SHA-256 of a string's UTF-8 bytes.
enum SHA256Digest {
    static func of(_ text: String) -> [UInt8] {
        Array(SHA256.hash(data: Data(text.utf8)))
    }
}
