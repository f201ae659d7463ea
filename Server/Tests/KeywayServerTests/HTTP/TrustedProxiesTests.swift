import HTTPTypes
import Testing

@testable import KeywayServer

@Suite("Trusted proxies: parsing, and the client a request is from")
struct TrustedProxiesTests {
    static func headers(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs { fields.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return fields
    }

    @Test func parsesAddressesAndRanges() throws {
        let proxies = try TrustedProxies(parsing: ["10.0.0.0/8", "192.0.2.7", "2001:db8::/32", " 127.0.0.1 "])
        #expect(proxies.trusts("10.200.3.4") && !proxies.trusts("11.0.0.1"))
        #expect(proxies.trusts("192.0.2.7") && !proxies.trusts("192.0.2.8"))
        #expect(proxies.trusts("2001:db8:ffff::1") && !proxies.trusts("2001:db9::1"))
        #expect(proxies.trusts("::ffff:10.1.2.3"))
        #expect(proxies.trusts("127.0.0.1") && !proxies.trusts("not an address"))
        for bad in ["10.0.0.0/33", "example.com", "10.0.0/8", "2001:db8::/129", "", "1.2.3.4/-1", "1.2.3.4/"] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try TrustedProxies(parsing: [bad]) }
        }
    }

    @Test func theClientIsTheRightMostAddressNotATrustedProxy() throws {
        let proxies = try TrustedProxies(parsing: ["10.0.0.0/8"])
        let xff = { (value: String) in Self.headers([("X-Forwarded-For", value)]) }
        // From a trusted proxy: the address it saw.
        #expect(proxies.clientAddress(peer: "10.0.0.5", headers: xff("203.0.113.1")) == "203.0.113.1")
        // A chain of trusted proxies is walked back; what the client wrote itself is not read.
        #expect(proxies.clientAddress(peer: "10.0.0.5", headers: xff("192.0.2.1, 203.0.113.1, 10.0.0.9")) == "203.0.113.1")
        // From anyone else: the peer, whatever the header says.
        #expect(proxies.clientAddress(peer: "198.51.100.2", headers: xff("203.0.113.1")) == "198.51.100.2")
        // Nothing forwarded, or an obfuscated node: the proxy's own address.
        #expect(proxies.clientAddress(peer: "10.0.0.5", headers: HTTPFields()) == "10.0.0.5")
        #expect(proxies.clientAddress(peer: "10.0.0.5", headers: xff("unknown")) == "10.0.0.5")
        // Only trusted proxies in the chain: the left-most.
        #expect(proxies.clientAddress(peer: "10.0.0.5", headers: xff("10.1.1.1, 10.0.0.9")) == "10.1.1.1")
        // Forwarded (RFC 7239) wins over X-Forwarded-For; quotes, brackets and ports are removed.
        let forwarded = Self.headers([
            ("Forwarded", #"for=192.0.2.43;proto=https, for="[2001:db8:cafe::17]:4711""#),
            ("X-Forwarded-For", "198.51.100.1"),
        ])
        #expect(proxies.clientAddress(peer: "10.0.0.5", headers: forwarded) == "2001:db8:cafe::17")
        #expect(proxies.clientAddress(peer: "10.0.0.5", headers: xff("203.0.113.1:51234")) == "203.0.113.1")
        // No proxies trusted: always the peer.
        #expect(TrustedProxies.none.clientAddress(peer: "10.0.0.5", headers: xff("203.0.113.1")) == "10.0.0.5")
    }
}
