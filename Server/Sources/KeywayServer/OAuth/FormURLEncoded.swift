import Foundation

/// `application/x-www-form-urlencoded` bodies (the token endpoint's format).
enum FormURLEncoded {
    enum ParseError: Error, Equatable {
        case duplicate(String)
        case malformed
    }

    /// Parses `a=1&b=2`. A parameter present twice is an error (RFC 6749 §3.2); empty values
    /// count as absent (RFC 6749 §3.1). Names and values must decode to UTF-8.
    static func parse(_ data: Data) throws(ParseError) -> [String: String] {
        var result: [String: String] = [:]
        let bytes = [UInt8](data)
        for pair in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            guard let name = decode(pair[pair.startIndex..<(equals ?? pair.endIndex)]) else { throw .malformed }
            let value = equals.map { decode(pair[pair.index(after: $0)...]) } ?? ""
            guard let value else { throw .malformed }
            if value.isEmpty { continue }
            if result[name] != nil { throw .duplicate(name) }
            result[name] = value
        }
        return result
    }

    /// Decodes one component: `+` is a space, `%XX` an octet; `nil` for a `%` without two
    /// hexadecimal digits or octets that are not UTF-8.
    static func decode(_ component: Substring) -> String? {
        decode(ArraySlice(component.utf8))
    }

    /// Decodes one component of raw bytes.
    static func decode(_ component: ArraySlice<UInt8>) -> String? {
        var octets: [UInt8] = []
        octets.reserveCapacity(component.count)
        var index = component.startIndex
        while index < component.endIndex {
            let byte = component[index]
            switch byte {
            case UInt8(ascii: "+"):
                octets.append(0x20)
            case UInt8(ascii: "%"):
                guard index + 2 < component.endIndex, let high = hexValue(component[index + 1]), let low = hexValue(component[index + 2])
                else { return nil }
                octets.append(high << 4 | low)
                index += 2
            default:
                octets.append(byte)
            }
            index += 1
        }
        return String(validating: octets, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
