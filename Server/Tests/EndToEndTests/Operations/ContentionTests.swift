import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayTestSupport
import Testing

/// A request whose transaction PostgreSQL refuses for conflicts at every attempt is answered
/// `503` with `Retry-After`, in its family's error format, and keeps nothing. The conflicts are
/// made real: a trigger raises the serialization failure (SQLSTATE 40001) on every insert.
@Suite("Contention on PostgreSQL: 503 with Retry-After, nothing kept", .enabled(if: TestDatabase.isPostgres))
struct ContentionTests {
    @Test func aTransactionRefusedAtEveryAttemptIsAnswered503AndKeepsNothing() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            await keyway.flow.start(identifier: "busy@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "busy@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(
                authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            let refreshToken = try #require(tokens.response.refreshToken)
            let flows = try await server.rowCount("flows")
            let refreshTokens = try await server.rowCount("refresh_tokens")

            try await server.execute(
                """
                CREATE FUNCTION keyway_test_conflict() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = '40001'; END $$;
                CREATE TRIGGER keyway_test_conflict BEFORE INSERT ON flows
                    FOR EACH ROW EXECUTE FUNCTION keyway_test_conflict();
                CREATE TRIGGER keyway_test_conflict BEFORE INSERT ON refresh_tokens
                    FOR EACH ROW EXECUTE FUNCTION keyway_test_conflict();
                """)

            // The flow API: a problem document.
            let start = try await server.request(
                "POST", "/v1/flows",
                headers: [ProtocolHeader.configID: TestServer.configId, "Content-Type": "application/json"],
                body: Data(
                    #"{"flowType":"signin","identifier":"other@example.com","codeChallenge":"E9Melhoa2OwvFQxMP1q7-fD7C9M8mUr9uCkuqxyqLxM","codeChallengeMethod":"S256"}"#
                        .utf8))
            #expect(start.status == 503)
            #expect(start.headers.first { $0.key.lowercased() == "retry-after" }?.value == "1")
            let problem = try JSONSerialization.jsonObject(with: start.body) as? [String: Any]
            #expect(problem?["code"] as? String == "service_unavailable")
            #expect(problem?["action"] as? String == "wait")

            // The token endpoint: RFC 6749 JSON.
            let refresh = try await server.token([
                "grant_type": "refresh_token", "refresh_token": refreshToken.revealed, "client_id": TestServer.configId,
            ])
            #expect(refresh.status == 503)
            #expect(refresh.json["error"] as? String == "temporarily_unavailable")

            // Nothing of either was kept, and the refresh token still works once the conflicts end.
            #expect(try await server.rowCount("flows") == flows)
            #expect(try await server.rowCount("refresh_tokens") == refreshTokens)
            try await server.execute(
                "DROP TRIGGER keyway_test_conflict ON flows; DROP TRIGGER keyway_test_conflict ON refresh_tokens")
            _ = try await keyway.tokens.refresh(refreshToken: refreshToken)
        }
    }
}
