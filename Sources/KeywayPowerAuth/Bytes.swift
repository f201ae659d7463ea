import Crypto
import Foundation

/// Byte helpers shared by the PowerAuth computations.
enum Bytes {
    /// Decodes standard Base64 (with padding), throwing on malformed text.
    static func base64(_ text: String, field: String) throws(PowerAuthError) -> Data {
        guard let data = Data(base64Encoded: text) else { throw .invalidBase64(field: field) }
        return data
    }

    /// Checks a length, throwing `invalidLength` when it differs.
    static func require<C: Collection>(_ value: C, count: Int, field: String) throws(PowerAuthError) {
        guard value.count == count else {
            throw .invalidLength(field: field, expected: "\(count)", actual: value.count)
        }
    }

    /// XORs the two 16-byte halves of 32 bytes (the protocol's `convert32Bto16B`).
    static func fold<C: Collection>(_ bytes: C) -> Data where C.Element == UInt8 {
        let array = Array(bytes)
        precondition(array.count == 32, "fold takes 32 bytes")
        return Data((0..<16).map { array[$0] ^ array[$0 + 16] })
    }

    /// The big-endian bytes of an unsigned integer, `width` bytes wide.
    static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).map { index in
            let shift = (width - 1 - index) * 8
            return shift >= 64 ? 0 : UInt8(truncatingIfNeeded: value >> UInt64(shift))
        }
    }

    /// Reads a big-endian unsigned integer from up to 8 bytes.
    static func readBigEndian<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        bytes.reduce(0) { $0 << 8 | UInt64($1) }
    }
}

extension SymmetricKey {
    /// The key's raw bytes.
    var data: Data { withUnsafeBytes { Data($0) } }
}
