import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// PKCE is mandatory for public clients; a confidential client may send a `nonce` instead
/// (RFC 9700 §2.1.1), or neither when its application says so (`requirePkce: false`); a code
/// issued without a challenge is refused with a verifier (downgrade protection).
@Suite("Authorization requests: PKCE for public clients, PKCE or a nonce for confidential ones")
struct PKCEOrNonceTests {
    static let email = "pkce@example.com"
    static let withoutPKCE: [String: String?] = ["code_challenge": nil, "code_challenge_method": nil]

    /// Signs in through the pages with `request` and `extra`; the redirect's parameters.
    static func authorize(
        _ server: TestServer, _ client: TestRelyingParty, _ request: TestRelyingParty.Request, _ extra: [String: String?]
    ) async throws -> [String: String] {
        let agent = PageAgent(server: server)
        let (page, _) = try await agent.signIn(from: try await agent.open(client.authorizePath(request, extra)), email: email)
        return page.parameters
    }

    /// Redeems `code` for `client`, with `verifier` when given.
    static func redeem(_ server: TestServer, _ client: TestRelyingParty, code: String, verifier: String?) async throws
        -> (status: Int, json: [String: Any])
    {
        var form = [
            "grant_type": "authorization_code", "code": code, "client_id": client.clientId, "redirect_uri": client.redirectURI,
        ]
        if let secret = client.clientSecret { form["client_secret"] = secret }
        if let verifier { form["code_verifier"] = verifier }
        return try await server.token(form)
    }

    @Test func publicClientsAlwaysNeedPKCE() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let client = TestRelyingParty()
            try await server.registerRedirectURI(client.redirectURI)
            // Even with a nonce, and even when the application's requirePkce is false.
            let path = "/admin/applications/\(TestServer.configId)"
            for requirePkce in [true, false] {
                #expect(try await server.admin("PATCH", path, ["requirePkce": requirePkce]).json["requirePkce"] as? Bool == requirePkce)
                let refused = try await Self.authorize(server, client, TestRelyingParty.Request(), Self.withoutPKCE)
                #expect(refused["error"] == "invalid_request" && refused["code"] == nil, "\(refused)")
                #expect(refused["error_description"]?.contains("public clients") == true, "\(refused)")
            }
        }
    }

    @Test func confidentialClientsSendPKCEOrANonce() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let (configId, secret) = try await server.addProjectApplication(name: "Server-side RP", confidential: true)
            let client = TestRelyingParty(clientId: configId, clientSecret: secret)
            try await server.registerRedirectURI(client.redirectURI, configId: configId)
            let shown = try await server.admin("GET", "/admin/applications/\(configId)")
            #expect(shown.json["requirePkce"] as? Bool == true)

            // Neither PKCE nor a nonce: refused at the redirect URI.
            let neither = try await Self.authorize(server, client, TestRelyingParty.Request(), Self.withoutPKCE.merging(["nonce": nil]) { $1 })
            #expect(neither["error"] == "invalid_request" && neither["code"] == nil, "\(neither)")
            // A challenge method without a challenge is malformed.
            let methodAlone = try await Self.authorize(server, client, TestRelyingParty.Request(), ["code_challenge": nil])
            #expect(methodAlone["error"] == "invalid_request", "\(methodAlone)")

            // A nonce instead of PKCE: the code is redeemed without a verifier, and the ID token
            // carries the nonce.
            let request = TestRelyingParty.Request()
            let code = try #require(try await Self.authorize(server, client, request, Self.withoutPKCE)["code"])
            let redeemed = try await Self.redeem(server, client, code: code, verifier: nil)
            #expect(redeemed.status == 200, "\(redeemed.json)")
            let idToken = try #require(redeemed.json["id_token"] as? String)
            #expect(try TestRelyingParty.claims(idToken)["nonce"] as? String == request.nonce)

            // A verifier for a code issued without a challenge is a downgrade: refused, and the
            // code is used up.
            let downgraded = try #require(try await Self.authorize(server, client, TestRelyingParty.Request(), Self.withoutPKCE)["code"])
            let refused = try await Self.redeem(server, client, code: downgraded, verifier: request.verifier)
            #expect(refused.status == 400 && refused.json["error"] as? String == "invalid_grant", "\(refused.json)")
            #expect(try await Self.redeem(server, client, code: downgraded, verifier: nil).status == 400)

            // With PKCE, the verifier is needed.
            let pkce = TestRelyingParty.Request()
            let pkceCode = try #require(try await Self.authorize(server, client, pkce, [:])["code"])
            let withoutVerifier = try await Self.redeem(server, client, code: pkceCode, verifier: nil)
            #expect(withoutVerifier.status == 400 && withoutVerifier.json["error"] as? String == "invalid_request", "\(withoutVerifier.json)")
            let again = try #require(try await Self.authorize(server, client, pkce, [:])["code"])
            #expect(try await Self.redeem(server, client, code: again, verifier: pkce.verifier).status == 200)

            // requirePkce false: neither is accepted too.
            let path = "/admin/applications/\(configId)"
            #expect(try await server.admin("PATCH", path, ["requirePkce": false]).json["requirePkce"] as? Bool == false)
            let bare = try #require(
                try await Self.authorize(server, client, TestRelyingParty.Request(), Self.withoutPKCE.merging(["nonce": nil]) { $1 })["code"])
            #expect(try await Self.redeem(server, client, code: bare, verifier: nil).status == 200)
            // Not a boolean: refused, nothing changed.
            let wrong = try await server.admin("PATCH", path, ["requirePkce": "no"])
            #expect(wrong.status == 400)
            #expect(try await server.admin("GET", path).json["requirePkce"] as? Bool == false)
        }
    }
}
