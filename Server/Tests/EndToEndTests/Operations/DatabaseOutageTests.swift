import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// PostgreSQL going away under a running server. The test server connects as a role of its own,
/// so the cluster the other tests share stays up: the "outage" forbids the role to log in and ends
/// its sessions (PostgreSQL's `57P01`, as at a shutdown), which refuses every new connection as a
/// stopped database would; the "return" allows it again.
///
/// Every request is answered — `503` with `Retry-After` in its family's format, never `500`,
/// within the lease timeout — while the JWKS and discovery are served from memory and readiness
/// says `503`; once the database is back, readiness is `200` again, requests succeed, no
/// connection is left counted as in use, and the server stops cleanly.
@Suite("PostgreSQL away: answered 503 in time, keys from memory, nothing stuck", .serialized)
struct DatabaseOutageTests {
    static let adminToken = "test-admin-token-database-outage-0123456789"

    @Test(.enabled(if: TestDatabase.isPostgres), .timeLimit(.minutes(10)))
    func anOutageIsAnswered503AndTheServerRecovers() async throws {
        let role = try await TestDatabase.createRole()
        let clock = ManualClock()
        try await withTestServer(
            TestServer.start(
                database: .postgres(role), clock: clock, adminToken: Self.adminToken, databasePoolSize: 3,
                databaseLeaseTimeout: .seconds(1))
        ) { server in
            #expect(try await Self.startFlow(server, "before@example.com").status == 201)
            let keys = try await server.request("GET", "/.well-known/jwks.json")
            #expect(keys.status == 200)
            // A flow start held in its transaction (a trigger sleeps for it) when the database goes.
            try await server.execute(
                """
                CREATE FUNCTION keyway_test_hold() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.identifier = 'held@example.com' THEN PERFORM pg_sleep(30); END IF; RETURN NEW; END $$;
                CREATE TRIGGER keyway_test_hold BEFORE INSERT ON flows FOR EACH ROW EXECUTE FUNCTION keyway_test_hold();
                """)
            let flows = try await server.rowCount("flows")
            let held = Task { try await Self.startFlow(server, "held@example.com") }
            try await waitUntil("the held flow start sleeps in its transaction") {
                try await TestDatabase.sessions(of: role.username, waitingFor: "PgSleep") == 1
            }

            try await TestDatabase.forbidLogin(role.username)
            // The held request's connection was ended by the database: 503, not 500.
            let heldAnswer = try await ConnectionPoolTests.answered("the held flow start") { try await held.value }
            #expect(heldAnswer.status == 503)
            #expect(Self.code(heldAnswer.body) == "service_unavailable")

            // The keys are due to be read again; the database cannot be.
            clock.advance(by: 31)
            let started = ContinuousClock.now
            let answers = try await withThrowingTaskGroup(of: (String, Int, Duration).self) { group in
                for index in 0..<6 {
                    group.addTask {
                        let sent = ContinuousClock.now
                        let answer = try await Self.startFlow(server, "during-\(index)@example.com")
                        return ("flow start \(index)", answer.status, ContinuousClock.now - sent)
                    }
                }
                group.addTask {
                    let sent = ContinuousClock.now
                    let answer = try await server.token(["grant_type": "refresh_token", "refresh_token": "unknown", "client_id": TestServer.configId])
                    #expect(answer.json["error"] as? String == "temporarily_unavailable")
                    return ("token", answer.status, ContinuousClock.now - sent)
                }
                group.addTask {
                    let sent = ContinuousClock.now
                    let answer = try await server.request("GET", "/health/ready")
                    return ("ready", answer.status, ContinuousClock.now - sent)
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for (what, status, took) in answers {
                #expect(status == 503, "\(what)")
                // The lease timeout is a second; the rest is the shared machine's slack.
                #expect(took < .seconds(10), "\(what) took \(took)")
            }
            // From memory: the same keys, and discovery.
            let keysDuring = try await server.request("GET", "/.well-known/jwks.json")
            #expect(keysDuring.status == 200)
            #expect(keysDuring.body == keys.body)
            #expect(try await server.request("GET", "/.well-known/openid-configuration").status == 200)
            #expect(ContinuousClock.now - started < .seconds(30))

            try await TestDatabase.allowLogin(role.username)
            try await waitUntil("ready again") {
                try await server.request("GET", "/health/ready").status == 200
            }
            #expect(try await Self.startFlow(server, "after@example.com").status == 201)
            // Nothing of the held start, or of those refused, was kept.
            #expect(try await server.rowCount("flows") == flows + 1)
            // No connection is left counted as in use. The code the last flow start sent is being
            // delivered meanwhile (the delivery worker reads and writes), so the gauges are read
            // until that round is over; a connection held for good keeps them above 0 and fails.
            try await waitUntil("no database connection is counted as in use") {
                let metrics = try await server.request("GET", "/metrics", headers: ["Authorization": "Bearer \(Self.adminToken)"])
                let text = String(decoding: metrics.body, as: UTF8.self)
                return ["read", "write"].allSatisfy {
                    MetricsTests.sample(text, #"keyway_database_connections_in_use{kind="\#($0)"}"#) ?? 0 == 0
                }
            }
        }
        // `withTestServer` has stopped the server: no request or connection held it up.
        try await TestDatabase.dropRole(role)
    }

    /// A statement that does not finish within the query timeout is cancelled by PostgreSQL: the
    /// request is answered 503, nothing of it is kept, and the connection serves the next request.
    @Test(.enabled(if: TestDatabase.isPostgres), .timeLimit(.minutes(10)))
    func aStatementPastTheQueryTimeoutIsCancelledAndAnswered503() async throws {
        let role = try await TestDatabase.createRole()
        let clock = ManualClock()
        try await withTestServer(
            TestServer.start(
                database: .postgres(role), clock: clock, databasePoolSize: 1, databaseLeaseTimeout: .seconds(30),
                databaseQueryTimeout: .seconds(1))
        ) { server in
            try await server.execute(
                """
                CREATE FUNCTION keyway_test_hold() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN IF NEW.identifier = 'held@example.com' THEN PERFORM pg_sleep(60); END IF; RETURN NEW; END $$;
                CREATE TRIGGER keyway_test_hold BEFORE INSERT ON flows FOR EACH ROW EXECUTE FUNCTION keyway_test_hold();
                """)
            let flows = try await server.rowCount("flows")
            let sent = ContinuousClock.now
            let held = try await ConnectionPoolTests.answered("the held flow start") {
                try await Self.startFlow(server, "held@example.com")
            }
            #expect(held.status == 503)
            #expect(Self.code(held.body) == "service_unavailable")
            #expect(ContinuousClock.now - sent < .seconds(30))
            #expect(server.logs.all.contains { $0.contains("cancelled a statement past the query timeout (SQLSTATE 57014") })
            // The pool's one connection serves the next request.
            #expect(try await Self.startFlow(server, "next@example.com").status == 201)
            // The held transaction was rolled back.
            #expect(try await server.rowCount("flows") == flows + 1)
        }
        try await TestDatabase.dropRole(role)
    }

    static func startFlow(_ server: TestServer, _ email: String) async throws -> (status: Int, headers: [String: String], body: Data) {
        try await server.request("POST", "/v1/flows", headers: ConnectionPoolTests.flowHeaders, body: ConnectionPoolTests.flowStart(email))
    }

    static func code(_ body: Data) -> String? {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["code"] as? String
    }
}
