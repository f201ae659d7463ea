import Foundation
import Keyway
import KeywayServer
import KeywayTestSupport
import Testing

/// Requests never hold a database connection while they wait for another: with a pool of one
/// connection, every route that verifies an access token answers when the signing keys are due to
/// be read again (the key ring reads them on a connection of its own). Before, each such request
/// read the keys while holding its connection, and a pool whose every connection was held that
/// way waited for itself for good.
@Suite("A pool of one connection: no request waits for a second one")
struct ConnectionPoolTests {
    @Test func tokenVerificationWhileTheKeysAreDueTakesOneConnection() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, databasePoolSize: 1, databaseLeaseTimeout: .seconds(10))) { server in
            let backend = try await server.app.register(ApplicationRegistration(name: "Backend", clientType: .confidential))
            let basic = "Basic " + Data("\(backend.configId):\(try #require(backend.clientSecret).revealed)".utf8).base64EncodedString()
            let (_, tokens) = try await RevocationTests().signIn(server, clock: clock, email: "pool@example.com")
            let token = tokens.response.accessToken.revealed

            // Each round moves the clock past the key ring's refresh interval (the token lives 15 minutes).
            for round in 1...3 {
                clock.advance(by: 31)
                let me = try await Self.answered("GET /v1/me, round \(round)") {
                    try await server.request("GET", "/v1/me", headers: ["Authorization": "Bearer \(token)"]).status
                }
                #expect(me == 200)
                clock.advance(by: 31)
                let introspected = try await Self.answered("POST /oauth2/introspect, round \(round)") {
                    let answer = try await server.form("/oauth2/introspect", ["token": token], headers: ["Authorization": basic])
                    return (answer.status, answer.json["active"] as? Bool)
                }
                #expect(introspected.0 == 200)
                #expect(introspected.1 == true)
            }
        }
    }

    /// Runs `request`, failing the test when it has no answer within a minute (a request waiting
    /// for a connection that never comes would otherwise wait for good).
    static func answered<T: Sendable>(_ what: String, _ request: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await request() }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let answer = first else {
                throw TestFailure("\(what) had no answer within a minute.")
            }
            return answer
        }
    }
}
