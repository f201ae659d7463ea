import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Client addresses as limits, sessions and risk rules count them. An IPv6 host is given a whole
/// /64 and may change its address within it at will (privacy addresses), so an IPv6 address
/// counts as its /64 network; an IPv4 address (also written IPv4-mapped, `::ffff:a.b.c.d`) as itself.
enum ClientAddress {
    /// The network an address is counted as: the address for IPv4, `xxxx:xxxx:xxxx:xxxx::/64` for
    /// IPv6; anything that is not an IP address, unchanged.
    static func network(of address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        let parsed = address.withCString { text in bytes.withUnsafeMutableBytes { inet_pton(AF_INET6, text, $0.baseAddress) } }
        guard parsed == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    /// The SHA-256 of the address's network, as counters and sessions keep it.
    static func hash(_ address: String) -> String {
        sha256Hex(network(of: address))
    }
}
