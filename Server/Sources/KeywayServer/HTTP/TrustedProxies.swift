#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import Foundation
import HTTPTypes

/// The proxies in front of the server whose forwarding headers are believed (`--trusted-proxies`):
/// addresses and CIDR ranges. Behind a load balancer every connection comes from the balancer, so
/// without them every per-address limit and the new-address signal would count one client. A
/// request from a trusted proxy has its client read from `Forwarded` (RFC 7239, its `for=`
/// values) or, without one, `X-Forwarded-For`: the right-most address that is not itself a trusted
/// proxy — the one the last trusted proxy saw —, so a client cannot choose its address by sending
/// the header itself. A request from anywhere else is its peer's, whatever it says.
public struct TrustedProxies: Sendable, Equatable {
    /// One address or range.
    struct Range: Sendable, Equatable {
        /// 4 or 16 bytes.
        var network: [UInt8]
        var prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == network.count else { return false }
            var remaining = prefixLength
            for index in network.indices where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                guard address[index] & mask == network[index] & mask else { return false }
                remaining -= bits
            }
            return true
        }
    }

    let ranges: [Range]

    /// No proxy is trusted: every request is its peer's.
    public static let none = TrustedProxies(ranges: [])

    private init(ranges: [Range]) {
        self.ranges = ranges
    }

    /// Parses addresses and CIDR ranges (`10.0.0.0/8`, `192.0.2.7`, `2001:db8::/32`).
    ///
    /// - Throws: ``ConfigurationError`` naming the first entry that is neither.
    public init(parsing entries: [String]) throws(ConfigurationError) {
        var ranges: [Range] = []
        for entry in entries {
            let text = entry.trimmingCharacters(in: .whitespaces)
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let address = Self.bytes(String(parts[0])) else {
                throw ConfigurationError("--trusted-proxies: \(entry.debugDescription) is not an IP address or CIDR range.")
            }
            var prefix = address.count * 8
            if parts.count == 2 {
                guard let length = Int(parts[1]), (0...address.count * 8).contains(length),
                    parts[1].allSatisfy(\.isASCII)
                else {
                    throw ConfigurationError(
                        "--trusted-proxies: \(entry.debugDescription) has a prefix length that is not 0 to \(address.count * 8).")
                }
                prefix = length
            }
            ranges.append(Range(network: address, prefixLength: prefix))
        }
        self.ranges = ranges
    }

    /// Whether `address` is a trusted proxy's.
    func trusts(_ address: String) -> Bool {
        guard let bytes = Self.bytes(address) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    /// The client's address of a request from `peer` with `headers` (see the type's summary).
    func clientAddress(peer: String?, headers: HTTPFields) -> String? {
        guard let peer, !ranges.isEmpty, trusts(peer) else { return peer }
        let chain = Self.forwardedFor(headers) ?? Self.xForwardedFor(headers)
        // Right to left: each value was appended by the proxy that received the request from it.
        for value in chain.reversed() {
            guard Self.bytes(value) != nil else {
                // An obfuscated or unknown node ("unknown", "_hidden"): the last trusted proxy's
                // own peer cannot be named, so the request counts as that proxy's.
                return peer
            }
            if !trusts(value) { return Self.canonical(value) }
        }
        return chain.first.flatMap { Self.bytes($0) != nil ? Self.canonical($0) : nil } ?? peer
    }

    /// The `for=` values of `Forwarded` (RFC 7239 §4), in order; `nil` without the header.
    static func forwardedFor(_ headers: HTTPFields) -> [String]? {
        let fields = headers[values: .forwardedHeader]
        guard !fields.isEmpty else { return nil }
        var values: [String] = []
        for element in fields.flatMap({ $0.split(separator: ",") }) {
            for pair in element.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "for" else { continue }
                values.append(node(String(parts[1])))
            }
        }
        return values
    }

    /// The addresses of `X-Forwarded-For`, in order.
    static func xForwardedFor(_ headers: HTTPFields) -> [String] {
        headers[values: .xForwardedForHeader].flatMap { $0.split(separator: ",") }.map { node(String($0)) }
    }

    /// A node as written in either header, without quotes, brackets and port: `"[2001:db8::1]:4711"`
    /// is `2001:db8::1`, `192.0.2.60:80` is `192.0.2.60`.
    static func node(_ text: String) -> String {
        var value = text.trimmingCharacters(in: .whitespaces)
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
        if value.hasPrefix("["), let end = value.firstIndex(of: "]") {
            return String(value[value.index(after: value.startIndex)..<end])
        }
        // IPv4 with a port; a bare IPv6 address has more than one colon.
        if value.filter({ $0 == ":" }).count == 1, let colon = value.firstIndex(of: ":") {
            return String(value[..<colon])
        }
        return value
    }

    /// The address's bytes: 4 for IPv4 (an IPv4-mapped IPv6 address included), 16 for IPv6.
    static func bytes(_ text: String) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count <= 64 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return Array(bytes[12...]) }
        return bytes
    }

    /// The address written as this server writes peers' addresses: IPv4 dotted, IPv6 compressed.
    static func canonical(_ text: String) -> String {
        guard let bytes = bytes(text) else { return text }
        var buffer = [CChar](repeating: 0, count: 64)
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return text }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension HTTPField.Name {
    /// `Forwarded` (RFC 7239).
    static let forwardedHeader = HTTPField.Name("Forwarded")!
    /// `X-Forwarded-For`.
    static let xForwardedForHeader = HTTPField.Name("X-Forwarded-For")!
}
