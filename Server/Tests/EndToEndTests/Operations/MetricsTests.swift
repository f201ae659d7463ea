import Foundation
@testable import Keyway
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
                configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            await keyway.flow.start(identifier: "metrics@example.com")
            await keyway.flow.submitCode("000000")
            await keyway.flow.submitCode(try await server.latestCode(to: "metrics@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(
                authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            let spent = try #require(tokens.response.refreshToken)
            _ = try await keyway.tokens.refresh(refreshToken: spent)
            clock.advance(by: 120)
            await #expect(throws: KeywayError.self) { try await keyway.tokens.refresh(refreshToken: spent) }

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
            // Tokens per grant, the outbox's queue, the build, the process; a HELP line each.
            #expect(Self.sample(text, #"keyway_tokens_issued_total{grant="authorization_code"}"#) == 1)
            #expect(Self.sample(text, #"keyway_tokens_issued_total{grant="refresh_token"}"#) == 1)
            #expect(Self.sample(text, "keyway_outbox_waiting_messages") == 0)
            #expect(Self.sample(text, "keyway_outbox_oldest_waiting_seconds") == 0)
            #expect(Self.sample(text, #"keyway_build_info{version="\#(KeywayServerApp.version)"}"#) == 1)
            #expect((Self.sample(text, "process_cpu_seconds_total") ?? 0) > 0)
            #expect((Self.sample(text, "process_resident_memory_bytes") ?? 0) > 1_000_000)
            #expect((Self.sample(text, "process_open_fds") ?? 0) > 0)
            #expect((Self.sample(text, "process_start_time_seconds") ?? 0) > 1_700_000_000)
            for name in ["keyway_http_requests_total", "keyway_tokens_issued_total", "keyway_outbox_waiting_messages", "process_cpu_seconds_total"] {
                #expect(text.contains("# HELP \(name) "), "\(name)")
            }
        }
    }

    /// A message the outbox has not delivered yet is counted as waiting, with its age, and listed
    /// by `GET /admin/messages` (a message retried later: its next attempt is a day away).
    @Test func theOutboxQueueIsReadAtEachScrapeAndListed() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            let now = Int64((clock.now().timeIntervalSince1970 * 1000).rounded(.down))
            try await server.execute(
                """
                INSERT INTO delivery_outbox (id, project_id, channel, recipient, subject, body, idempotency_key, status,
                    attempts, next_attempt_at, last_error, created_at, updated_at)
                VALUES ('dlv_waiting', 'prj_metrics', 'email', 'queued@example.com', 'Your code', 'Your code is 123456',
                    'idk_waiting', 'pending', 2, \(now + 86_400_000), 'the webhook answered HTTP 503', \(now - 5_000), \(now - 1_000))
                """)
            let response = try await server.request("GET", "/metrics", headers: ["Authorization": "Bearer \(testAdminToken)"])
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(Self.sample(text, "keyway_outbox_waiting_messages") == 1, "\(text)")
            #expect(Self.sample(text, "keyway_outbox_oldest_waiting_seconds") == 5)

            let listed = try await server.admin("GET", "/admin/messages")
            let messages = try #require(listed.json["messages"] as? [[String: Any]], "\(listed.json)")
            let message = try #require(messages.first { $0["id"] as? String == "dlv_waiting" })
            #expect(message["state"] as? String == "pending" && message["attempts"] as? Int == 2)
            #expect(message["recipient"] as? String == "q•••@example.com", "\(message)")
            #expect(message["nextAttemptAt"] is String && message["lastError"] as? String == "the webhook answered HTTP 503")
            #expect(message["subject"] == nil && message["body"] == nil)
            // Other states on request; a state that is none is refused by name.
            let dead = try await server.admin("GET", "/admin/messages?status=dead")
            #expect((dead.json["messages"] as? [[String: Any]])?.contains { $0["id"] as? String == "dlv_waiting" } == false)
            let bad = try await server.admin("GET", "/admin/messages?status=lost")
            #expect(bad.status == 400, "\(bad.json)")
            #expect(try await server.admin("GET", "/admin/messages?limit=0").status == 400)
            #expect(try await server.admin("GET", "/admin/messages?configId=cfg_unknown").status == 404)
        }
    }

    /// The per-identifier limits are counted too, by the part that refused.
    @Test func aPerIdentifierLimitIsCounted() async throws {
        var limits = FlowLimits()
        limits.rateLimits.flowStartsPerIdentifier = 1
        try await withTestServer(TestServer.start(clock: ManualClock(), limits: limits, adminToken: testAdminToken)) { server in
            for expected in [201, 429] {
                let started = try await server.request(
                    "POST", "/v1/flows", headers: ConnectionPoolTests.flowHeaders,
                    body: ConnectionPoolTests.flowStart("limited@example.com"))
                #expect(started.status == expected)
            }
            let response = try await server.request("GET", "/metrics", headers: ["Authorization": "Bearer \(testAdminToken)"])
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(Self.sample(text, #"keyway_rate_limited_total{limit="start-id-per-client"}"#) == 1, "\(text)")
        }
    }

    /// The metrics token reads `/metrics` and nothing else; the public listener serves the
    /// metrics only where the operator asked for it.
    @Test func theMetricsTokenReadsTheMetricsOnly() async throws {
        let token = "metrics-token-0123456789abcdef0123456789"
        try await withTestServer(
            TestServer.start(
                clock: ManualClock(), adminToken: testAdminToken,
                metrics: MetricsExposure(token: token, onPublicListener: true))
        ) { server in
            #expect(try await server.request("GET", "/metrics", headers: ["Authorization": "Bearer \(token)"]).status == 200)
            #expect(try await server.request("GET", "/metrics", headers: ["Authorization": "Bearer \(testAdminToken)"]).status == 200)
            let wrong = try await server.request("GET", "/metrics", headers: ["Authorization": "Bearer \(token)x"])
            #expect(wrong.status == 401 && wrong.headers["www-authenticate"] == #"Bearer realm="keyway-metrics""#)
            #expect(try await server.request("GET", "/admin/applications", headers: ["Authorization": "Bearer \(token)"]).status == 401)
        }
        try await withTestServer(
            TestServer.start(clock: ManualClock(), adminToken: testAdminToken, metrics: MetricsExposure(token: token))
        ) { server in
            for credential in [token, testAdminToken] {
                let refused = try await server.request("GET", "/metrics", headers: ["Authorization": "Bearer \(credential)"])
                #expect(refused.status == 404)
            }
        }
    }

    /// `keyway-server --metrics-listen`: the metrics on a listener of their own (and not on the
    /// public one), to the metrics token from the environment; a short token stops the start.
    @Test func theMetricsListenerServesTheMetricsAlone() async throws {
        let token = "metrics-token-0123456789abcdef0123456789"
        let database = TestServer.temporaryDatabase()
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: database).deletingLastPathComponent(), withIntermediateDirectories: true)
        let process = try CLIProcess(
            arguments: ["serve", "--port", "0", "--database", "sqlite:\(database)", "--metrics-listen", "127.0.0.1:0"],
            environment: ["KEYWAY_METRICS_TOKEN": token, "KEYWAY_ADMIN_TOKEN": testAdminToken],
            executable: "keyway-server")
        try await withTestServer(process) { process in
            try await process.waitForError(containing: "metrics listening on")
            try await process.waitForError(containing: "keyway-server listening on")
            let errors = process.standardError
            let metricsPort = try #require(errors.firstMatch(of: /metrics listening on http:\/\/127\.0\.0\.1:([0-9]+)\/metrics/).flatMap { Int($0.output.1) })
            let publicPort = try #require(errors.firstMatch(of: /keyway-server listening on [^ ]+:([0-9]+),/).flatMap { Int($0.output.1) })
            func get(_ port: Int, _ path: String, _ credential: String?) async throws -> Int {
                try await RawHTTPClient.send(
                    method: "GET", host: "127.0.0.1", port: port, path: path,
                    headers: credential.map { ["Authorization": "Bearer \($0)"] } ?? [:], body: nil
                ).status
            }
            #expect(try await get(metricsPort, "/metrics", token) == 200)
            #expect(try await get(metricsPort, "/metrics", nil) == 401)
            #expect(try await get(metricsPort, "/admin/applications", testAdminToken) == 404)
            #expect(try await get(metricsPort, "/health/ready", nil) == 404)
            #expect(try await get(publicPort, "/metrics", token) == 404)
            #expect(try await get(publicPort, "/metrics", testAdminToken) == 404)
        }
        let short = try CLIProcess(
            arguments: ["serve", "--port", "0", "--database", "sqlite:\(database)", "--metrics-listen", "127.0.0.1:0"],
            environment: ["KEYWAY_METRICS_TOKEN": "short"], executable: "keyway-server")
        #expect(try await short.waitForExit() != 0)
        #expect(short.standardError.contains("at least 32 characters"), "\(short.standardError)")
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
