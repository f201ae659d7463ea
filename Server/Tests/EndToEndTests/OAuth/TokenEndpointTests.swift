import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Token endpoint: single use, PKCE, client authentication")
struct TokenEndpointTests {
    /// Runs a flow to completion and returns the code, its verifier and the SDK.
    func completeFlow(_ server: TestServer, clock: ManualClock, email: String) async throws
        -> (KeywayClient, Sensitive<String>, Sensitive<String>)
    {
        let keyway = try makeKeyway(server, clock: clock)
        await keyway.flow.start(identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let completion = try #require(keyway.flow.currentUpdate.completion)
        return (keyway, completion.authCode, try #require(completion.codeVerifier))
    }

    @Test func replayedCodeIsRefusedAndRevokesWhatItIssued() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let (keyway, code, verifier) = try await completeFlow(server, clock: clock, email: "replay@example.com")
            let first = try await keyway.tokens.exchange(authCode: code, codeVerifier: verifier)
            // A refresh rotates the family: its successor must fall with it.
            _ = try await keyway.tokens.refresh(refreshToken: try #require(first.response.refreshToken))
            #expect(try await server.rowCount("refresh_tokens WHERE revoked_at IS NULL") == 2)
            await #expect(throws: KeywayError.oauth(
                status: 400, error: OAuthErrorResponse(error: "invalid_grant", errorDescription: "The authorization code was already used."))
            ) {
                _ = try await keyway.tokens.exchange(authCode: code, codeVerifier: verifier)
            }
            #expect(server.logs.all.contains { $0.contains("authorization code replayed") })
            #expect(try await server.rowCount("refresh_tokens") == 2)
            #expect(try await server.rowCount("refresh_tokens WHERE revoked_at IS NULL") == 0)
        }
    }

    @Test func wrongVerifierIsRefusedAndBurnsTheCode() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let (_, code, verifier) = try await completeFlow(server, clock: clock, email: "pkce@example.com")
            let wrongVerifier = String(repeating: "x", count: 43)
            let wrong = try await server.token([
                "grant_type": "authorization_code", "code": code.revealed, "code_verifier": wrongVerifier,
                "client_id": TestServer.configId,
            ])
            #expect(wrong.status == 400)
            #expect(wrong.json["error"] as? String == "invalid_grant")
            let right = try await server.token([
                "grant_type": "authorization_code", "code": code.revealed, "code_verifier": verifier.revealed,
                "client_id": TestServer.configId,
            ])
            #expect(right.status == 400)
            #expect(right.json["error"] as? String == "invalid_grant")
        }
    }

    @Test func expiredCodeIsRefused() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let (keyway, code, verifier) = try await completeFlow(server, clock: clock, email: "late@example.com")
            clock.advance(by: 61)
            await #expect(throws: KeywayError.self) { _ = try await keyway.tokens.exchange(authCode: code, codeVerifier: verifier) }
        }
    }

    @Test func malformedTokenRequestsFollowRFC6749() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let missingGrant = try await server.token(["code": "x", "client_id": TestServer.configId])
            #expect(missingGrant.status == 400)
            #expect(missingGrant.json["error"] as? String == "invalid_request")
            // No client named at all: invalid_client (RFC 6749 §5.2), before anything else.
            let noClient = try await server.token(["code": "x"])
            #expect(noClient.status == 401 && noClient.json["error"] as? String == "invalid_client")
            let unsupported = try await server.token(["grant_type": "password", "client_id": TestServer.configId])
            #expect(unsupported.json["error"] as? String == "unsupported_grant_type")
            let noVerifier = try await server.token([
                "grant_type": "authorization_code", "code": "kac_x", "client_id": TestServer.configId,
            ])
            // Whether a verifier is needed is the code's own (PKCEOrNonceTests): an unknown code
            // is an invalid grant either way.
            #expect(noVerifier.json["error"] as? String == "invalid_grant")
            let unknownClient = try await server.token([
                "grant_type": "authorization_code", "code": "kac_x", "code_verifier": String(repeating: "a", count: 43),
                "client_id": "cfg_nobody",
            ])
            #expect(unknownClient.status == 401)
            #expect(unknownClient.json["error"] as? String == "invalid_client")
            let unknownCode = try await server.token([
                "grant_type": "authorization_code", "code": "kac_x", "code_verifier": String(repeating: "a", count: 43),
                "client_id": TestServer.configId,
            ])
            #expect(unknownCode.json["error"] as? String == "invalid_grant")
            let duplicate = try await server.request(
                "POST", "/oauth2/token", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("grant_type=authorization_code&grant_type=authorization_code".utf8))
            #expect(duplicate.status == 400)
            #expect(duplicate.headers["cache-control"] == "no-store")
        }
    }

    @Test func confidentialApplicationsNeedTheirSecret() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let app = try await server.app.register(
                ApplicationRegistration(name: "Backend app", clientType: .confidential, autoCreateUsers: true))
            let secret = try #require(app.clientSecret)
            let keyway = try KeywayClient(configID: app.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            await keyway.flow.start(identifier: "conf@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "conf@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let verifier = try #require(completion.codeVerifier)

            // The SDK alone (no secret) cannot redeem it.
            await #expect(throws: KeywayError.self) {
                _ = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: verifier)
            }
            // The earlier attempt failed at client authentication, before touching the code:
            // the backend's Basic credentials still redeem it.
            let basic = Data("\(app.configId):\(secret.revealed)".utf8).base64EncodedString()
            let wrongSecret = Data("\(app.configId):nope".utf8).base64EncodedString()
            let refused = try await server.token(
                ["grant_type": "authorization_code", "code": completion.authCode.revealed, "code_verifier": verifier.revealed],
                headers: ["Authorization": "Basic \(wrongSecret)"])
            #expect(refused.status == 401)
            #expect(refused.json["error"] as? String == "invalid_client")
            let redeemed = try await server.token(
                ["grant_type": "authorization_code", "code": completion.authCode.revealed, "code_verifier": verifier.revealed],
                headers: ["Authorization": "Basic \(basic)"])
            #expect(redeemed.status == 200)
            #expect(redeemed.json["id_token"] as? String != nil)
        }
    }

    @Test func confidentialClientSecretPost() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let app = try await server.app.register(
                ApplicationRegistration(name: "Post app", clientType: .confidential, autoCreateUsers: true))
            let keyway = try KeywayClient(configID: app.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            await keyway.flow.start(identifier: "post@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "post@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let redeemed = try await server.token([
                "grant_type": "authorization_code", "code": completion.authCode.revealed,
                "code_verifier": completion.codeVerifier!.revealed, "client_id": app.configId,
                "client_secret": app.clientSecret!.revealed,
            ])
            #expect(redeemed.status == 200)
        }
    }

    @Test func codeIsBoundToItsClient() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let other = try await server.app.register(ApplicationRegistration(name: "Other", clientType: .public))
            let (_, code, verifier) = try await completeFlow(server, clock: clock, email: "bound@example.com")
            let response = try await server.token([
                "grant_type": "authorization_code", "code": code.revealed, "code_verifier": verifier.revealed,
                "client_id": other.configId,
            ])
            #expect(response.json["error"] as? String == "invalid_grant")
        }
    }
}
