import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Health: liveness without the database, readiness with it and its migrations")
struct HealthTests {
    @Test func liveAndReadyAnswerAndReadinessFollowsTheDatabase() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            for path in ["/health/live", "/health/ready", "/health"] {
                let response = try await server.request("GET", path)
                #expect(response.status == 200, "\(path)")
                #expect(String(decoding: response.body, as: UTF8.self).contains(#""status":"ok""#))
            }
            // A database behind the server's migrations (an older schema restored): not ready,
            // still live.
            try await server.execute(
                "DELETE FROM keyway_migrations WHERE version = (SELECT MAX(version) FROM keyway_migrations)")
            let ready = try await server.request("GET", "/health/ready")
            #expect(ready.status == 503)
            #expect(String(decoding: ready.body, as: UTF8.self).contains("migrations"))
            #expect(try await server.request("GET", "/health").status == 503)
            #expect(try await server.request("GET", "/health/live").status == 200)
        }
    }
}
