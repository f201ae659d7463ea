import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("W3C Trace Context: a request's traceparent gives it its trace ID")
struct TraceContextTests {
    @Test func theTraceIdOfATraceparentIsAnsweredAndLogged() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let traced = try await server.request(
                "GET", "/health/live", headers: ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"])
            #expect(traced.headers["x-keyway-trace-id"] == "4bf92f3577b34da6a3ce929d0e0e4736")
            try await waitUntil("the request was logged") {
                server.logs.all.contains { $0.contains("GET /health/live 200") && $0.contains("4bf92f3577b34da6a3ce929d0e0e4736") }
            }
            // A malformed traceparent is ignored: the server makes its own trace ID.
            let malformed = try await server.request("GET", "/health/live", headers: ["traceparent": "00-zz-yy-01"])
            #expect(malformed.headers["x-keyway-trace-id"]?.count == 32)
            #expect(malformed.headers["x-keyway-trace-id"] != "4bf92f3577b34da6a3ce929d0e0e4736")
        }
    }
}
