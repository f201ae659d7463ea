import Foundation

/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Maps an ASCII byte to its 6-bit value; 0xFF for bytes outside the alphabet.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes as base64url without padding.
    ///
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: The base64url text, without `=` padding.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        let count = (input.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: count) { output in
            var out = 0
            var index = 0
            while index + 3 <= input.count {
                let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                output[out] = alphabet[Int(chunk >> 18 & 63)]
                output[out + 1] = alphabet[Int(chunk >> 12 & 63)]
                output[out + 2] = alphabet[Int(chunk >> 6 & 63)]
                output[out + 3] = alphabet[Int(chunk & 63)]
                out += 4
                index += 3
            }
            let rest = input.count - index
            if rest > 0 {
                let chunk = UInt32(input[index]) << 16 | (rest == 2 ? UInt32(input[index + 1]) << 8 : 0)
                output[out] = alphabet[Int(chunk >> 18 & 63)]
                output[out + 1] = alphabet[Int(chunk >> 12 & 63)]
                out += 2
                if rest == 2 {
                    output[out] = alphabet[Int(chunk >> 6 & 63)]
                    out += 1
                }
            }
            return out
        }
    }

    /// Decodes base64url with or without padding; `nil` for any other character, for padding
    /// anywhere but the end, and for a length no encoding produces.
    ///
    /// - Parameter text: The base64url text.
    /// - Returns: The decoded bytes, or `nil` when `text` is not base64url.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var utf8 = Array(text.utf8)
        while utf8.last == UInt8(ascii: "=") { utf8.removeLast() }
        if utf8.count % 4 == 1 { return nil }
        var output = Data(capacity: utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in utf8 {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero, as in a canonical encoding.
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }
}

/// Lowercase hexadecimal.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Encodes bytes as lowercase hex.
    ///
    /// - Parameter bytes: The bytes to encode.
    /// - Returns: Two lowercase hex digits per byte.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        return String(unsafeUninitializedCapacity: input.count * 2) { output in
            for (index, byte) in input.enumerated() {
                output[index * 2] = digits[Int(byte >> 4)]
                output[index * 2 + 1] = digits[Int(byte & 0x0F)]
            }
            return input.count * 2
        }
    }
}
