import Foundation
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// Behind a load balancer: the per-address limits count each forwarded client, and only a trusted
/// proxy's forwarding headers are believed.
@Suite("Trusted proxies: the client's address behind a load balancer")
struct TrustedProxyTests {
    static func limits() -> FlowLimits {
        var limits = FlowLimits()
        limits.rateLimits.flowStartsPerAddress = 2
        return limits
    }

    /// Starts a flow for a new identifier with `forwardedFor`; the answer's status.
    static func start(_ server: TestServer, forwardedFor: String?) async throws -> Int {
        var headers = [ProtocolHeader.configID: TestServer.configId, "Content-Type": "application/json"]
        if let forwardedFor { headers["X-Forwarded-For"] = forwardedFor }
        let body: [String: Any] = [
            "flowType": "signin", "identifier": "\(UUID().uuidString.prefix(8))@example.com",
            "codeChallenge": PKCE.challenge(for: String(repeating: "v", count: 43)), "codeChallengeMethod": "S256",
        ]
        return try await server.request("POST", "/v1/flows", headers: headers, body: try JSONSerialization.data(withJSONObject: body)).status
    }

    /// The statuses of flow starts forwarded for each of `clients` in turn.
    static func starts(_ server: TestServer, _ clients: [String]) async throws -> [Int] {
        var statuses: [Int] = []
        for client in clients { statuses.append(try await start(server, forwardedFor: client)) }
        return statuses
    }

    @Test func behindATrustedProxyEachClientHasItsOwnLimitAndCannotChooseIt() async throws {
        let proxies = try TrustedProxies(parsing: ["127.0.0.0/8"])
        try await withTestServer(TestServer.start(clock: ManualClock(), limits: Self.limits(), trustedProxies: proxies)) { server in
            // Two starts for 203.0.113.1, then its limit; another client behind the same proxy has
            // its own count; and the first cannot escape its own by sending the header itself:
            // the proxy appends the address it saw, and that one counts.
            let statuses = try await Self.starts(
                server, ["203.0.113.1", "203.0.113.1", "203.0.113.1", "198.51.100.7", "192.0.2.99, 203.0.113.1"])
            #expect(statuses.map { $0 < 300 } == [true, true, false, true, false], "\(statuses)")
            #expect(statuses[2] == 429 && statuses[4] == 429, "\(statuses)")
        }
    }

    @Test func withoutTrustedProxiesTheHeaderIsNotBelieved() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), limits: Self.limits())) { server in
            // Every request is the connection's own (127.0.0.1), whatever it claims.
            let statuses = try await Self.starts(server, ["203.0.113.1", "203.0.113.2", "203.0.113.3"])
            #expect(statuses.map { $0 < 300 } == [true, true, false] && statuses[2] == 429, "\(statuses)")
        }
    }
}
