import Foundation

/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it.
public enum Base64URL {
    /// Encodes bytes as base64url without padding.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var text = Data(bytes).base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.last == "=" { text.removeLast() }
        return text
    }

    /// Decodes base64url with or without padding; `nil` for any other character.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var base64 = String(text)
        guard !base64.contains("+"), !base64.contains("/"), !base64.contains("=") || base64.hasSuffix("=") else {
            return nil
        }
        base64 = base64.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.hasSuffix("=") { base64.removeLast() }
        if base64.count % 4 == 1 { return nil }
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
