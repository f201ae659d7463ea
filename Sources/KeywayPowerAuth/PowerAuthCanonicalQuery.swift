import Foundation

/// The signed body of a request without one (a `GET`, a `DELETE`): its query, canonical as every
/// shipping PowerAuth implementation makes it — the Java `PowerAuthRequestCanonizationUtils
/// .canonizeGetParameters` of the server and the RESTful integration, and the mobile SDKs: each
/// `key=value` pair URL-decoded (`+` is a space), pairs without `=` skipped, sorted by key then by
/// value in Java's string order (UTF-16 code units), each key and value encoded again with Java's
/// `URLEncoder` rules (letters, digits and `.-*_` kept, a space `+`, every other byte of the UTF-8
/// form `%XX`), joined by `&`. No pair gives an empty body.
extension PowerAuthSignature {
    /// The canonical body of decoded query parameters, in any order.
    ///
    /// - Parameter parameters: The decoded keys and values.
    /// - Returns: The canonical bytes (empty without parameters).
    public static func canonicalQuery(_ parameters: [(key: String, value: String)]) -> Data {
        let sorted = parameters.sorted { lhs, rhs in
            lhs.key == rhs.key
                ? lhs.value.utf16.lexicographicallyPrecedes(rhs.value.utf16)
                : lhs.key.utf16.lexicographicallyPrecedes(rhs.key.utf16)
        }
        return Data(sorted.map { "\(formEncoded($0.key))=\(formEncoded($0.value))" }.joined(separator: "&").utf8)
    }

    /// The canonical body of a raw query string, as it came in the request line (still
    /// percent-encoded, without the `?`).
    ///
    /// - Parameter rawQuery: The query, or `nil` when the URI has none.
    /// - Returns: The canonical bytes, or `nil` when a percent escape is malformed (which the
    ///   reference refuses too).
    public static func canonicalQuery(rawQuery: String?) -> Data? {
        guard let rawQuery, !rawQuery.isEmpty else { return Data() }
        var pairs: [(key: String, value: String)] = []
        for part in rawQuery.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = part.firstIndex(of: "=") else { continue }
            guard let key = formDecoded(part[..<equals]), let value = formDecoded(part[part.index(after: equals)...]) else {
                return nil
            }
            pairs.append((key, value))
        }
        return canonicalQuery(pairs)
    }

    /// Java's `URLEncoder.encode(text, UTF_8)`.
    static func formEncoded(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"),
                UInt8(ascii: "_"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                encoded.append("+")
            default:
                encoded.append("%")
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return encoded
    }

    /// Java's `URLDecoder.decode(text, UTF_8)`: `+` is a space, `%XX` a byte; `nil` for a `%` not
    /// followed by two hex digits. Bytes that are not UTF-8 become U+FFFD, as in Java.
    static func formDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789ABCDEF")

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
