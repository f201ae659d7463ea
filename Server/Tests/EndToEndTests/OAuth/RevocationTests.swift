import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Revocation, introspection, userinfo and signing out everywhere")
struct RevocationTests {
    func signIn(_ server: TestServer, clock: ManualClock, email: String) async throws -> (KeywayClient, TokenSet) {
        let keyway = try makeKeyway(server, clock: clock)
        await keyway.flow.start(identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let completion = try #require(keyway.flow.currentUpdate.completion)
        return (keyway, try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier)))
    }

    func bearer(_ server: TestServer, _ token: String, method: String = "GET", path: String = "/oauth2/userinfo")
        async throws -> (status: Int, headers: [String: String], body: Data)
    {
        try await server.request(method, path, headers: ["Authorization": "Bearer \(token)"])
    }

    func oauthError(_ body: Data) -> String? {
        ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["error"] as? String
    }

    @Test func userInfoAnswersForAValidAccessToken() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let (keyway, tokens) = try await signIn(server, clock: clock, email: "info@example.com")
            let info = try await keyway.tokenClient.userInfo(accessToken: tokens.response.accessToken)
            #expect(info == UserInfo(subject: tokens.idToken.subject, email: "info@example.com", emailVerified: true, isAnonymous: false))
            let post = try await bearer(server, tokens.response.accessToken.revealed, method: "POST")
            #expect(post.status == 200)

            // Expired: access tokens live 15 minutes.
            clock.advance(by: 15 * 60 + 1)
            let expired = try await bearer(server, tokens.response.accessToken.revealed)
            #expect(expired.status == 401)
            #expect(expired.headers["www-authenticate"]?.contains(#"error="invalid_token""#) == true)
        }
    }

    @Test func userInfoRefusesMissingAndForeignCredentials() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let (_, tokens) = try await signIn(server, clock: clock, email: "refuse@example.com")
            let missing = try await server.request("GET", "/oauth2/userinfo")
            #expect(missing.status == 401)
            #expect(missing.headers["www-authenticate"] == #"Bearer realm="keyway""#)
            // Another scheme brings no access token: answered as missing credentials (RFC 6750 §3.1).
            for other in ["Basic eDp5", "SomeScheme"] {
                let answer = try await server.request("GET", "/oauth2/userinfo", headers: ["Authorization": other])
                #expect(answer.status == 401, "\(other)")
                #expect(answer.headers["www-authenticate"] == #"Bearer realm="keyway""#, "\(other)")
            }
            // The Bearer scheme without a token is malformed.
            #expect(try await server.request("GET", "/oauth2/userinfo", headers: ["Authorization": "Bearer"]).status == 400)
            #expect(try await bearer(server, "not-a-token").status == 401)
            // An ID token is a JWT signed by the same key, but not an access token.
            let idToken = try #require(tokens.response.idToken)
            #expect(try await bearer(server, idToken.revealed).status == 401)
            // A tampered access token.
            var parts = tokens.response.accessToken.revealed.split(separator: ".").map(String.init)
            parts[1] = parts[1].replacingOccurrences(of: "A", with: "B")
            #expect(try await bearer(server, parts.joined(separator: ".")).status == 401)
        }
    }

    @Test func revokingARefreshTokenEndsTheSignIn() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let (keyway, tokens) = try await signIn(server, clock: clock, email: "revoke@example.com")
            let refreshToken = try #require(tokens.response.refreshToken)
            try await keyway.tokens.revoke(token: refreshToken)
            await #expect(throws: KeywayError.self) { _ = try await keyway.tokens.refresh(refreshToken: refreshToken) }
            #expect(try await bearer(server, tokens.response.accessToken.revealed).status == 401)
            // Revoking again, or revoking a token nobody knows, still succeeds (RFC 7009 §2.2).
            try await keyway.tokens.revoke(token: refreshToken)
            try await keyway.tokens.revoke(token: Sensitive("krt_unknown"))
        }
    }

    @Test func revokingAnAccessTokenLeavesTheSignIn() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let (keyway, tokens) = try await signIn(server, clock: clock, email: "access@example.com")
            try await keyway.tokens.revoke(token: tokens.response.accessToken)
            #expect(try await bearer(server, tokens.response.accessToken.revealed).status == 401)
            let refreshed = try await keyway.tokens.refresh(refreshToken: try #require(tokens.response.refreshToken))
            #expect(try await keyway.tokenClient.userInfo(accessToken: refreshed.response.accessToken).subject == tokens.idToken.subject)
        }
    }

    @Test func revocationValidatesTheRequest() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let other = try await server.app.register(ApplicationRegistration(name: "Other", clientType: .public))
            let (_, tokens) = try await signIn(server, clock: clock, email: "foreign@example.com")
            let missing = try await server.form("/oauth2/revoke", ["client_id": TestServer.configId])
            #expect(missing.status == 400)
            #expect(missing.json["error"] as? String == "invalid_request")
            let unknownClient = try await server.form("/oauth2/revoke", ["token": "x", "client_id": "cfg_nobody"])
            #expect(unknownClient.status == 401)
            for token in [tokens.response.refreshToken!.revealed, tokens.response.accessToken.revealed] {
                let foreign = try await server.form("/oauth2/revoke", ["token": token, "client_id": other.configId])
                #expect(foreign.json["error"] as? String == "unauthorized_client")
            }
            // The refused attempts changed nothing.
            #expect(try await bearer(server, tokens.response.accessToken.revealed).status == 200)
        }
    }

    @Test func confidentialBackendsIntrospectTheirProjectsTokens() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let backend = try await server.app.register(ApplicationRegistration(name: "Backend", clientType: .confidential, backendRoles: [.introspection]))
            let secret = try #require(backend.clientSecret).revealed
            let basic = "Basic " + Data("\(backend.configId):\(secret)".utf8).base64EncodedString()
            let (keyway, tokens) = try await signIn(server, clock: clock, email: "introspect@example.com")
            let refreshToken = try #require(tokens.response.refreshToken)

            let access = try await server.form(
                "/oauth2/introspect", ["token": tokens.response.accessToken.revealed], headers: ["Authorization": basic])
            #expect(access.status == 200)
            #expect(access.json["active"] as? Bool == true)
            #expect(access.json["sub"] as? String == tokens.idToken.subject)
            #expect(access.json["client_id"] as? String == TestServer.configId)
            #expect(access.json["token_type"] as? String == "Bearer")
            #expect(access.json["scope"] as? String == "openid email offline_access")
            #expect(access.json["sid"] as? String == tokens.idToken.sessionID)

            let refresh = try await server.form(
                "/oauth2/introspect", ["token": refreshToken.revealed], headers: ["Authorization": basic])
            #expect(refresh.json["active"] as? Bool == true)
            #expect(refresh.json["token_type"] == nil)
            #expect(refresh.json["exp"] != nil)

            // A spent refresh token is no longer active; garbage is simply inactive.
            let next = try #require(try await keyway.tokens.refresh(refreshToken: refreshToken).response.refreshToken)
            let spent = try await server.form(
                "/oauth2/introspect", ["token": refreshToken.revealed], headers: ["Authorization": basic])
            #expect(spent.json["active"] as? Bool == false)
            #expect(spent.json.count == 1)
            let garbage = try await server.form("/oauth2/introspect", ["token": "nonsense"], headers: ["Authorization": basic])
            #expect(garbage.json["active"] as? Bool == false)

            // After revocation both are inactive.
            try await keyway.tokens.revoke(token: next)
            for token in [tokens.response.accessToken.revealed, next.revealed] {
                let after = try await server.form("/oauth2/introspect", ["token": token], headers: ["Authorization": basic])
                #expect(after.json["active"] as? Bool == false)
            }

            // Public clients and wrong secrets may not introspect.
            let publicClient = try await server.form(
                "/oauth2/introspect", ["token": tokens.response.accessToken.revealed, "client_id": TestServer.configId])
            #expect(publicClient.status == 401)
            #expect(publicClient.json["error"] as? String == "invalid_client")
            let wrongSecret = try await server.form(
                "/oauth2/introspect", ["token": "x"],
                headers: ["Authorization": "Basic " + Data("\(backend.configId):nope".utf8).base64EncodedString()])
            #expect(wrongSecret.status == 401)
            // No client authentication at all: invalid_client (RFC 7662 §2.3), not a request error.
            for form in [["token": tokens.response.accessToken.revealed], [:]] {
                let anonymous = try await server.form("/oauth2/introspect", form)
                #expect(anonymous.status == 401)
                #expect(anonymous.json["error"] as? String == "invalid_client")
            }
        }
    }

    @Test func signOutEverywhereEndsEverySession() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let (phone, onPhone) = try await signIn(server, clock: clock, email: "everywhere@example.com")
            let (_, onLaptop) = try await signIn(server, clock: clock, email: "everywhere@example.com")
            let (_, someoneElse) = try await signIn(server, clock: clock, email: "bystander@example.com")
            #expect(onPhone.idToken.subject == onLaptop.idToken.subject)

            try await phone.tokenClient.signOutEverywhere(accessToken: onPhone.response.accessToken)
            for tokens in [onPhone, onLaptop] {
                await #expect(throws: KeywayError.self) {
                    _ = try await phone.tokens.refresh(refreshToken: tokens.response.refreshToken!)
                }
                #expect(try await bearer(server, tokens.response.accessToken.revealed).status == 401)
            }
            // Another user is untouched.
            #expect(try await bearer(server, someoneElse.response.accessToken.revealed).status == 200)
            // The spent access token cannot do it again.
            await #expect(throws: KeywayError.self) {
                try await phone.tokenClient.signOutEverywhere(accessToken: onPhone.response.accessToken)
            }
            #expect(server.logs.all.contains { $0.contains("signed out everywhere") })
        }
    }

    @Test func discoveryAdvertisesTheEndpoints() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let document = try JSONDecoder().decode(
                DiscoveryDocument.self, from: try await server.request("GET", "/.well-known/openid-configuration").body)
            #expect(document.userinfoEndpoint == "\(server.baseURL.absoluteString)/oauth2/userinfo")
            #expect(document.revocationEndpoint == "\(server.baseURL.absoluteString)/oauth2/revoke")
            #expect(document.introspectionEndpoint == "\(server.baseURL.absoluteString)/oauth2/introspect")
        }
    }
}
