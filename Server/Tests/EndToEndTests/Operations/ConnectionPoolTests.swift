import Foundation
@testable import Keyway
import KeywayProtocol
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
            let backend = try await server.app.register(ApplicationRegistration(name: "Backend", clientType: .confidential, backendRoles: [.introspection]))
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

    /// With the pool's one connection held by a slow transaction (a trigger sleeps in it), other
    /// requests wait the lease timeout and are answered 503 with `Retry-After`, in their family's
    /// error format, with nothing started; the slow one still completes.
    @Test(.enabled(if: TestDatabase.isPostgres))
    func aRequestThatGetsNoConnectionInTimeIsAnswered503() async throws {
        // A role of its own: its sessions are told apart from other tests' in pg_stat_activity.
        let role = try await TestDatabase.createRole()
        let clock = ManualClock()
        try await withTestServer(
            TestServer.start(database: .postgres(role), clock: clock, databasePoolSize: 1, databaseLeaseTimeout: .seconds(1))
        ) { server in
            try await server.execute(
                """
                CREATE FUNCTION keyway_test_slow() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN PERFORM pg_sleep(12); RETURN NEW; END $$;
                CREATE TRIGGER keyway_test_slow BEFORE INSERT ON flows
                    FOR EACH ROW EXECUTE FUNCTION keyway_test_slow();
                """)
            let flows = try await server.rowCount("flows")
            let slow = Task { try await server.request("POST", "/v1/flows", headers: Self.flowHeaders, body: Self.flowStart("slow@example.com")) }
            try await waitUntil("the slow transaction holds the connection") {
                try await TestDatabase.sessions(of: role.username, waitingFor: "PgSleep") == 1
            }

            // The flow API: a problem document.
            let start = try await server.request(
                "POST", "/v1/flows", headers: Self.flowHeaders, body: Self.flowStart("other@example.com"))
            #expect(start.status == 503)
            #expect(start.headers.first { $0.key.lowercased() == "retry-after" }?.value == "1")
            let problem = try JSONSerialization.jsonObject(with: start.body) as? [String: Any]
            #expect(problem?["code"] as? String == "service_unavailable")
            #expect(problem?["action"] as? String == "wait")
            // The token endpoint: RFC 6749 JSON.
            let token = try await server.token([
                "grant_type": "refresh_token", "refresh_token": "unknown", "client_id": TestServer.configId,
            ])
            #expect(token.status == 503)
            #expect(token.json["error"] as? String == "temporarily_unavailable")

            // The slow one completes; the refused one kept nothing.
            #expect(try await slow.value.status == 201)
            #expect(try await server.rowCount("flows") == flows + 1)
            #expect(server.logs.all.contains { $0.contains("No database connection was free within") })
        }
        try await TestDatabase.dropRole(role)
    }

    static let flowHeaders = [ProtocolHeader.configID: TestServer.configId, "Content-Type": "application/json"]

    static func flowStart(_ email: String) -> Data {
        Data(
            #"{"flowType":"signin","identifier":"\#(email)","codeChallenge":"E9Melhoa2OwvFQxMP1q7-fD7C9M8mUr9uCkuqxyqLxM","codeChallengeMethod":"S256"}"#
                .utf8)
    }

    /// Runs `request`, failing the test when it has no answer within `deadline` (a request waiting
    /// for a connection that never comes would otherwise wait for good).
    static func answered<T: Sendable>(
        _ what: String, deadline: Duration = .seconds(60), _ request: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        // Not a task group: a group waits for every child, so a request that never ends would
        // hold the test (and the whole run) with it. The request is left behind instead.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let once = ResumeOnce(continuation)
            let work = Task {
                do { once.resume(with: .success(try await request())) } catch { once.resume(with: .failure(error)) }
            }
            Task {
                try? await Task.sleep(for: deadline)
                if once.resume(with: .failure(TestFailure("\(what) had no answer within \(deadline)."))) { work.cancel() }
            }
        }
    }
}

/// Resumes a continuation once, whichever of its resumers comes first.
final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    // @unchecked: `continuation` is only touched under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = continuation }

    /// Resumes with `result` unless it was resumed already; `true` when this call did.
    @discardableResult
    func resume(with result: Result<T, any Error>) -> Bool {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume(with: result)
        return pending != nil
    }
}
