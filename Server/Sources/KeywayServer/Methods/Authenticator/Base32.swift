/// Base32 (RFC 4648 §6), the alphabet authenticator apps use for TOTP secrets.
enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    private static let values: [UInt8: UInt8] = {
        var map: [UInt8: UInt8] = [:]
        for (index, character) in alphabet.enumerated() {
            map[character] = UInt8(index)
            // Lower case decodes too.
            if character >= 65, character <= 90 { map[character + 32] = UInt8(index) }
        }
        return map
    }()

    /// Encodes `bytes`; with `padding`, the output is a multiple of 8 characters padded with `=`.
    static func encode(_ bytes: some Sequence<UInt8>, padding: Bool = true) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        if padding { while output.count % 8 != 0 { output.append(UInt8(ascii: "=")) } }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes Base32, with or without padding, in either case; `nil` for anything else.
    static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        var sawPadding = false
        for character in text.utf8 {
            if character == UInt8(ascii: "=") {
                sawPadding = true
                continue
            }
            guard !sawPadding, let value = values[character] else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> UInt32(bits - 8)) & 0xFF))
                bits -= 8
            }
        }
        return output
    }
}
