import Foundation
import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Metrics: a Prometheus exposition behind the admin token")
struct MetricsTests {
    /// The value of the sample `name{labels}` in an exposition, if present.
    static func sample(_ text: String, _ series: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    @Test func signInsCodesProblemsReuseAndRequestsAreCounted() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            let keyway = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(transport: URLSessionTransport.patient, clock: clock))
            await keyway.flow.start(identifier: "metrics@example.com")
            await keyway.flow.submitCode("000000")
            await keyway.flow.submitCode(try await server.latestCode(to: "metrics@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.exchange(
                authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            let spent = try #require(tokens.response.refreshToken)
            _ = try await keyway.refresh(refreshToken: spent)
            clock.advance(by: 120)
            await #expect(throws: KeywayError.self) { try await keyway.refresh(refreshToken: spent) }

            let anonymous = try await server.request("GET", "/metrics")
            #expect(anonymous.status == 401)
            let response = try await server.request("GET", "/metrics", headers: ["Authorization": "Bearer \(testAdminToken)"])
            #expect(response.status == 200)
            #expect(response.headers["content-type"]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(Self.sample(text, #"keyway_flows_started_total{flow_type="signin"}"#) == 1, "\(text)")
            #expect(Self.sample(text, #"keyway_flows_completed_total{flow_type="signin",method="otp"}"#) == 1)
            #expect(Self.sample(text, #"keyway_problems_total{code="invalid_code"}"#) == 1)
            #expect(Self.sample(text, #"keyway_messages_total{channel="email",outcome="delivered"}"#) == 1)
            #expect(Self.sample(text, "keyway_refresh_reuse_detected_total") == 1)
            #expect(Self.sample(text, #"keyway_http_requests_total{route="/v1/flows/{flowId}/code",method="POST",status="400"}"#) == 1)
            #expect(Self.sample(text, #"keyway_http_requests_total{route="/oauth2/token",method="POST",status="200"}"#) == 2)
            #expect(Self.sample(text, #"keyway_http_requests_total{route="/metrics",method="GET",status="401"}"#) == 1)
            #expect(text.contains(#"keyway_http_request_duration_seconds_bucket{route="/v1/flows",method="POST",le="#))
            #expect(text.contains(#"keyway_database_transaction_duration_seconds_count{kind="write",outcome="ok"}"#))
            #expect((Self.sample(text, #"keyway_database_connection_wait_seconds_count{kind="write"}"#) ?? 0) > 0)
            #expect(Self.sample(text, #"keyway_database_connections_in_use{kind="write"}"#) != nil)
            #expect(Self.sample(text, "keyway_database_pool_size") != nil)
            // No identifier, code or token ever becomes a label.
            #expect(!text.contains("metrics@example.com") && !text.contains(spent.revealed))
        }
    }

    /// `405` as `"efa"`: a number spelled in letters, so it looks like no ID.
    static func spelled(_ number: Int) -> String {
        let letters = Array("abcdefghij")
        return String(String(number).map { letters[Int(String($0))!] })
    }

    /// Paths no route answers, and IDs in the paths of routes that do, never become labels or log
    /// text: a client sending endless random paths cannot grow the metrics (each label's series
    /// lives as long as the server) nor write what a path carries (a sign-in link's token) into
    /// the log.
    @Test(.timeLimit(.minutes(10)))
    func randomPathsShareTheirRoutesLabelAndStayOutOfTheLog() async throws {
        let logs = LogCapture()
        try await withTestServer(TestServer.start(clock: ManualClock(), logs: logs, adminToken: testAdminToken)) { server in
            // Letters only, as the finding sent: a segment of letters looks like no ID.
            let marker = "zq" + Self.spelled(Int.random(in: 10_000_000..<100_000_000))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for index in 0..<125 {
                            let junk = marker + String(repeating: "x", count: 1_000 + index) + Self.spelled(worker) + "y" + Self.spelled(index)
                            let paths = ["/admin/users/\(junk)", "/\(junk)/\(junk)", "/v1/flows/\(junk)", "/link/\(junk)"]
                            _ = try await server.request("GET", paths[(worker + index) % paths.count])
                        }
                    }
                }
                try await group.waitForAll()
            }
            let response = try await server.request("GET", "/metrics", headers: ["Authorization": "Bearer \(testAdminToken)"])
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(response.body.count < 200_000, "the exposition grew to \(response.body.count) bytes")
            #expect(!text.contains(marker))
            #expect(Self.sample(text, #"keyway_http_requests_total{route="unmatched",method="GET",status="404"}"#) ?? 0 >= 250)
            #expect(Self.sample(text, #"keyway_http_requests_total{route="/admin/users/{userId}",method="GET",status="401"}"#) == 250)
            let lines = logs.all
            #expect(lines.contains { $0.contains("GET /admin/users/{userId} 401") })
            #expect(lines.contains { $0.contains("GET /link/{token} ") })
            #expect(!lines.contains { $0.contains(marker) }, "a path segment reached the log")
        }
    }
}
