/// Loopback host names and addresses, where only this machine can reach a server.
package enum LoopbackHost {
    /// Whether `host` names only this machine: `localhost`, an address of 127.0.0.0/8, or `::1`
    /// (bracketed or written out).
    package static func contains(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if ["localhost", "::1", "[::1]", "0:0:0:0:0:0:0:1"].contains(lowered) { return true }
        let octets = lowered.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }
    }
}
