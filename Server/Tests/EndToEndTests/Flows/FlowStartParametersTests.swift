import Foundation
@testable import Keyway
import KeywayServer
import KeywayTestSupport
import Testing

/// The OpenID Connect parameters of a flow's start — scope, nonce, redirect URI, state — from the
/// SDK to the server and back into the verified tokens.
@Suite("Flow start parameters end to end: nonce, scope, state, redirect URI")
struct FlowStartParametersTests {
    /// Signs `email` in with a code under `options`; the tokens and the flow's completion.
    private func signIn(
        _ keyway: KeywayClient, _ server: TestServer, email: String, options: FlowStartOptions = FlowStartOptions()
    ) async throws -> (TokenSet, FlowCompletion) {
        _ = try await keyway.sendSignInCode(to: email, options: options)
        let tokens = try await keyway.verifySignInCode(try await server.latestCode(to: email))
        let completion = try #require(await keyway.flow.completion)
        return (tokens, completion)
    }

    @Test func theNonceTheSDKDrewIsInTheVerifiedIDToken() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let (tokens, completion) = try await signIn(keyway, server, email: "nonce@example.com")
            let nonce = try #require(completion.nonce)
            #expect(nonce.count == 43)
            #expect(tokens.idToken.nonce == nonce)

            let (chosen, _) = try await signIn(
                keyway, server, email: "nonce@example.com", options: FlowStartOptions(nonce: .value("app-nonce-1")))
            #expect(chosen.idToken.nonce == "app-nonce-1")
        }
    }

    @Test func aScopeWithoutOfflineAccessGetsNoRefreshToken() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let (full, _) = try await signIn(keyway, server, email: "scope@example.com")
            #expect(full.response.refreshToken != nil)
            let (narrow, _) = try await signIn(
                keyway, server, email: "scope@example.com", options: FlowStartOptions(scopes: ["openid", "email"]))
            #expect(narrow.response.refreshToken == nil)
            #expect(narrow.response.scope == "openid email")
            #expect(narrow.idToken.email == "scope@example.com")
            #expect(narrow.idToken.nonce != nil)
        }
    }

    @Test func anUnknownScopeIsInvalidScope() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            do {
                _ = try await keyway.sendSignInCode(
                    to: "bad-scope@example.com", options: FlowStartOptions(scope: "openid payments"))
                Issue.record("An unknown scope was accepted.")
            } catch let error as FlowError {
                #expect(error.code == .invalidScope)
                #expect(error.action == .abort)
            }
            #expect(try await server.outbox(to: "bad-scope@example.com").isEmpty)
        }
    }

    @Test func theStateComesBackInTheCompletedStep() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let state = "st-\(UUID().uuidString) é&="
            let (tokens, completion) = try await signIn(
                keyway, server, email: "state@example.com", options: FlowStartOptions(state: state))
            #expect(completion.state == state)
            #expect(tokens.idToken.email == "state@example.com")
        }
    }

    @Test func anUnregisteredRedirectURIIsRefusedAndARegisteredOneIsRepeated() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            do {
                _ = try await keyway.sendSignInCode(
                    to: "redirect@example.com",
                    options: FlowStartOptions(redirectURI: URL(string: "com.example.app:/callback")!))
                Issue.record("An unregistered redirect URI was accepted.")
            } catch let error as FlowError {
                #expect(error.code == .invalidRedirectURI)
            }

            try await server.registerLoginRedirectURI("http://127.0.0.1/callback")
            // A loopback redirect URI matches the registered one with any port (RFC 8252 §7.3).
            let loopback = URL(string: "http://127.0.0.1:51234/callback")!
            let (tokens, completion) = try await signIn(
                keyway, server, email: "redirect@example.com", options: FlowStartOptions(redirectURI: loopback))
            #expect(completion.redirectURI == loopback)
            #expect(tokens.idToken.email == "redirect@example.com")

            // The code is redeemed with the same redirect_uri, or not at all.
            _ = try await keyway.sendSignInCode(to: "redirect@example.com", options: FlowStartOptions(redirectURI: loopback))
            await keyway.flow.submitCode(try await server.latestCode(to: "redirect@example.com"))
            let second = try #require(await keyway.flow.completion)
            #expect(second.authCode != completion.authCode)
            do {
                _ = try await keyway.tokens.exchange(
                    authCode: second.authCode, codeVerifier: try #require(second.codeVerifier),
                    redirectURI: URL(string: "http://127.0.0.1:51235/callback")!, nonce: second.nonce)
                Issue.record("A code was redeemed with another redirect_uri.")
            } catch KeywayError.oauth(_, let error) {
                #expect(error.error == "invalid_grant")
            }
        }
    }
}
