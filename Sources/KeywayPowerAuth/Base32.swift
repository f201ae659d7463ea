/// Base32 with the RFC 4648 alphabet (§6): activation codes write it unpadded, and authenticator
/// apps read TOTP secrets in it (the server's authenticator method writes them with this type).
public enum Base32 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// The 5-bit value of an upper-case alphabet character, or `nil` (activation codes are typed
    /// in upper case; ``decode(_:)`` reads lower case too).
    static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): byte - UInt8(ascii: "2") + 26
        default: nil
        }
    }

    /// Encodes bytes.
    ///
    /// - Parameters:
    ///   - bytes: The bytes.
    ///   - padding: Whether to pad the text with `=` to a multiple of 8 characters.
    /// - Returns: The upper-case text.
    public static func encode(_ bytes: some Sequence<UInt8>, padding: Bool = true) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int(buffer >> UInt32(bits - 5) & 31)])
                bits -= 5
            }
        }
        if bits > 0 {
            output.append(alphabet[Int(buffer << UInt32(5 - bits) & 31)])
        }
        if padding {
            while output.count % 8 != 0 { output.append(UInt8(ascii: "=")) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes Base32 with or without padding, in upper or lower case.
    ///
    /// - Parameter text: The text.
    /// - Returns: The bytes, or `nil` for a character outside the alphabet or text after padding.
    public static func decode(_ text: String) -> [UInt8]? {
        decode(text.utf8)
    }

    static func decode(_ text: some Sequence<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        var padded = false
        for byte in text {
            if byte == UInt8(ascii: "=") {
                padded = true
                continue
            }
            let upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
            guard !padded, let value = value(of: upper) else { return nil }
            buffer = buffer << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits - 8)))
                bits -= 8
            }
        }
        return output
    }
}
