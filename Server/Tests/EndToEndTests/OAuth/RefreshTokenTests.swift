import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Refresh tokens: rotation, reuse detection, grace period, lifetimes")
struct RefreshTokenTests {
    /// Signs `email` in through the SDK and redeems the code: the first token set of a family.
    func signIn(
        _ server: TestServer, clock: ManualClock, email: String, configId: String = TestServer.configId
    ) async throws -> (KeywayClient, TokenSet) {
        let keyway = try KeywayClient(configID: configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
        await keyway.flow.start(identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let completion = try #require(keyway.flow.currentUpdate.completion)
        let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
        return (keyway, tokens)
    }

    func refreshForm(_ token: String, configId: String = TestServer.configId, scope: String? = nil) -> [String: String] {
        var form = ["grant_type": "refresh_token", "refresh_token": token, "client_id": configId]
        form["scope"] = scope
        return form
    }

    @Test func refreshRotatesAndKeepsTheSignIn() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let (keyway, first) = try await signIn(server, clock: clock, email: "rotate@example.com")
            let firstRefresh = try #require(first.response.refreshToken)

            clock.advance(by: 120)
            let second = try await keyway.tokens.refresh(refreshToken: firstRefresh)
            let secondRefresh = try #require(second.response.refreshToken)
            #expect(secondRefresh != firstRefresh)
            #expect(second.response.accessToken != first.response.accessToken)
            #expect(second.idToken.subject == first.idToken.subject)
            #expect(second.idToken.authTime == first.idToken.authTime)
            #expect(second.idToken.sessionID == first.idToken.sessionID)
            #expect(second.idToken.issuedAt > first.idToken.issuedAt)
            #expect(second.response.scope == "openid email offline_access")

            // The successor refreshes in turn.
            let third = try await keyway.tokens.refresh(refreshToken: secondRefresh)
            #expect(third.response.refreshToken != secondRefresh)
            #expect(try await server.request("GET", "/.well-known/openid-configuration").body.contains(Data("refresh_token".utf8)))
        }
    }

    @Test func reuseAfterTheGracePeriodRevokesTheFamily() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let (keyway, first) = try await signIn(server, clock: clock, email: "theft@example.com")
            let spent = try #require(first.response.refreshToken)
            let refreshed = try await keyway.tokens.refresh(refreshToken: spent)
            let live = try #require(refreshed.response.refreshToken)
            let userInfo = { (token: Sensitive<String>) in
                try await server.request(
                    "GET", "/oauth2/userinfo", headers: ["Authorization": "Bearer \(token.revealed)"]).status
            }
            #expect(try await userInfo(refreshed.response.accessToken) == 200)

            clock.advance(by: 11)
            let reuse = try await server.token(refreshForm(spent.revealed))
            #expect(reuse.status == 400)
            #expect(reuse.json["error"] as? String == "invalid_grant")
            #expect((reuse.json["error_description"] as? String)?.contains("already used") == true)
            // The legitimate holder's live token went with the family.
            let afterTheft = try await server.token(refreshForm(live.revealed))
            #expect(afterTheft.json["error"] as? String == "invalid_grant")
            #expect(afterTheft.json["error_description"] as? String == "The refresh token has been revoked.")
            // So did every access token of the sign-in: its session was revoked.
            #expect(try await userInfo(first.response.accessToken) == 401)
            #expect(try await userInfo(refreshed.response.accessToken) == 401)
            #expect(
                try await server.request(
                    "GET", "/v1/me", headers: ["Authorization": "Bearer \(refreshed.response.accessToken.revealed)"]
                ).status == 401)
            #expect(server.logs.all.contains { $0.contains("token family and session revoked") })
            #expect(!server.logs.all.contains { $0.contains(spent.revealed) || $0.contains(live.revealed) })
        }
    }

    @Test func reuseInsideTheGracePeriodGetsTheSameSuccessor() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let (keyway, first) = try await signIn(server, clock: clock, email: "grace@example.com")
            let spent = try #require(first.response.refreshToken)
            let successor = try #require(try await keyway.tokens.refresh(refreshToken: spent).response.refreshToken)

            // An extension presenting the same token a few seconds later gets the same successor
            // with fresh access and ID tokens, and the family lives on.
            clock.advance(by: 5)
            let again = try await keyway.tokens.refresh(refreshToken: spent)
            #expect(again.response.refreshToken == successor)
            let next = try #require(try await keyway.tokens.refresh(refreshToken: successor).response.refreshToken)

            // Once the successor itself is spent, the first token is no longer "the previous one":
            // presenting it is reuse, even inside the window.
            let reuse = try await server.token(refreshForm(spent.revealed))
            #expect(reuse.json["error"] as? String == "invalid_grant")
            let revoked = try await server.token(refreshForm(next.revealed))
            #expect(revoked.json["error"] as? String == "invalid_grant")
        }
    }

    @Test func idleAndAbsoluteLifetimesPerApplication() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let app = try await server.app.register(
                ApplicationRegistration(
                    name: "Short lived", clientType: .public, autoCreateUsers: true,
                    refreshTokens: RefreshTokenPolicy(absoluteLifetime: 600, idleLifetime: 240, reuseGracePeriod: 2)))
            let (keyway, first) = try await signIn(server, clock: clock, email: "idle@example.com", configId: app.configId)

            // Idle: unused for longer than 240 seconds.
            clock.advance(by: 241)
            let idle = try await server.token(refreshForm(first.response.refreshToken!.revealed, configId: app.configId))
            #expect(idle.json["error"] as? String == "invalid_grant")
            #expect(idle.json["error_description"] as? String == "The refresh token has expired.")

            // Absolute: refreshing every 200 seconds keeps it alive only until 600 seconds after sign-in.
            let (_, fresh) = try await signIn(server, clock: clock, email: "absolute@example.com", configId: app.configId)
            var token = try #require(fresh.response.refreshToken)
            for _ in 0..<2 {
                clock.advance(by: 200)
                token = try #require(try await keyway.tokens.refresh(refreshToken: token).response.refreshToken)
            }
            clock.advance(by: 201)
            let absolute = try await server.token(refreshForm(token.revealed, configId: app.configId))
            #expect(absolute.json["error_description"] as? String == "The refresh token has expired.")
        }
    }

    @Test func invalidPoliciesAreRefused() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            for policy in [
                RefreshTokenPolicy(absoluteLifetime: 600, idleLifetime: 601),
                RefreshTokenPolicy(absoluteLifetime: 30, idleLifetime: 30),
                RefreshTokenPolicy(reuseGracePeriod: 61),
                RefreshTokenPolicy(reuseGracePeriod: -1),
            ] {
                await #expect(throws: ConfigurationError.self) {
                    _ = try await server.app.register(
                        ApplicationRegistration(name: "Bad", clientType: .public, refreshTokens: policy))
                }
            }
        }
    }

    @Test func aTokenIsBoundToItsClient() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let other = try await server.app.register(ApplicationRegistration(name: "Other", clientType: .public))
            let (keyway, first) = try await signIn(server, clock: clock, email: "client@example.com")
            let token = try #require(first.response.refreshToken)
            let foreign = try await server.token(refreshForm(token.revealed, configId: other.configId))
            #expect(foreign.json["error"] as? String == "invalid_grant")
            // The refused attempt did not spend it.
            _ = try await keyway.tokens.refresh(refreshToken: token)
        }
    }

    @Test func aReplayedCodeRevokesRotatedTokens() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "replay-refresh@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "replay-refresh@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let verifier = try #require(completion.codeVerifier)
            let first = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: verifier)
            let rotated = try #require(try await keyway.tokens.refresh(refreshToken: first.response.refreshToken!).response.refreshToken)
            await #expect(throws: KeywayError.self) {
                _ = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: verifier)
            }
            let after = try await server.token(refreshForm(rotated.revealed))
            #expect(after.json["error"] as? String == "invalid_grant")
        }
    }

    @Test func scopeCanOnlyNarrow() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let (_, first) = try await signIn(server, clock: clock, email: "scope@example.com")
            let narrowed = try await server.token(refreshForm(first.response.refreshToken!.revealed, scope: "email"))
            #expect(narrowed.status == 200)
            #expect(narrowed.json["scope"] as? String == "email")
            #expect(narrowed.json["id_token"] == nil)
            // The family keeps the scope granted at sign-in.
            let next = try #require(narrowed.json["refresh_token"] as? String)
            let full = try await server.token(refreshForm(next))
            #expect(full.json["scope"] as? String == "openid email offline_access")
            #expect(full.json["id_token"] is String)

            let wider = try await server.token(refreshForm(try #require(full.json["refresh_token"] as? String), scope: "openid admin"))
            #expect(wider.json["error"] as? String == "invalid_scope")
            let malformed = try await server.token(refreshForm("krt_x", scope: "openid  email"))
            #expect(malformed.json["error"] as? String == "invalid_scope")
        }
    }

    @Test func malformedRefreshRequests() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let missing = try await server.token(["grant_type": "refresh_token", "client_id": TestServer.configId])
            #expect(missing.status == 400)
            #expect(missing.json["error"] as? String == "invalid_request")
            let unknown = try await server.token(refreshForm("krt_unknown"))
            #expect(unknown.json["error"] as? String == "invalid_grant")
            let keyway = try makeKeyway(server, clock: clock)
            await #expect(throws: KeywayError.self) { _ = try await keyway.tokens.refresh(refreshToken: Sensitive("")) }
            await #expect(throws: KeywayError.self) { _ = try await keyway.tokens.refresh(refreshToken: Sensitive("a b")) }
        }
    }

    @Test func theGracePeriodHoldsAcrossARestart() async throws {
        let clock = ManualClock()
        let first = try await TestServer.start(clock: clock)
        let (keyway, spent, successor) = try await withTestServer(first) { first in
            let (keyway, tokens) = try await signIn(first, clock: clock, email: "restart-refresh@example.com")
            let spent = try #require(tokens.response.refreshToken)
            let successor = try await keyway.tokens.refresh(refreshToken: spent).response.refreshToken
            return (keyway, spent, successor)
        }

        try await withTestServer(TestServer.start(database: first.database, port: first.port, clock: clock)) { second throws in
            clock.advance(by: 3)
            // The derivation key was persisted: the same successor comes back after the restart.
            #expect(try await keyway.tokens.refresh(refreshToken: spent).response.refreshToken == successor)
        }
    }

    @Test func aRotationWhoseAnswerWasLostIsRetrievedAfterTheGraceWindowAcrossARestart() async throws {
        let clock = ManualClock()
        let first = try await TestServer.start(clock: clock)
        let (keyway, spent, successor) = try await withTestServer(first) { first in
            let (keyway, tokens) = try await signIn(first, clock: clock, email: "lost-answer@example.com")
            let spent = try #require(tokens.response.refreshToken)
            let successor = try #require(try await keyway.tokens.refresh(refreshToken: spent).response.refreshToken)
            // The server stops between the rotation's commit and its answer: the answer never went out.
            try await first.execute("UPDATE refresh_tokens SET answered_at = NULL")
            return (keyway, spent, successor)
        }

        try await withTestServer(TestServer.start(database: first.database, port: first.port, clock: clock)) { second in
            // Long after the 10-second grace period the client retries the token it still holds,
            // and gets the successor it never saw: nobody is signed out by the server's fault.
            clock.advance(by: 120)
            #expect(try await keyway.tokens.refresh(refreshToken: spent).response.refreshToken == successor)
            // That answer went out: from now on the usual grace period holds, and a later replay
            // of the spent token is reuse, which ends the sign-in.
            clock.advance(by: 11)
            let replay = try await second.token(refreshForm(spent.revealed))
            #expect(replay.json["error"] as? String == "invalid_grant")
            #expect((replay.json["error_description"] as? String)?.contains("already used") == true)
            let afterwards = try await second.token(refreshForm(successor.revealed))
            #expect(afterwards.json["error"] as? String == "invalid_grant")
        }
    }
}
