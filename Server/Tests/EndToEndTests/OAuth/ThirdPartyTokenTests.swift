import Foundation
import KeywayTestSupport
import Testing

@testable import KeywayServer

/// A third-party client — registered through `/oauth2/register`, its user asked for consent —
/// gets exactly its consented scopes, and never the routes of the user's own account: devices,
/// sessions, profile changes and activation codes take only the project's own applications'
/// tokens (`403 insufficient_scope`).
extension OpenIDProviderConformanceTests {
    @Test("A third-party client's token: its consented scopes, never the account's routes")
    func aThirdPartyTokenGetsItsScopesAndNotTheAccount() async throws {
        try await withProvider { server, _, agent, firstParty in
            let token = try await server.app.issueRegistrationToken(templateConfigId: TestServer.configId)
            let registered = try await server.request(
                "POST", "/oauth2/register",
                headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token.revealed)"],
                body: try JSONSerialization.data(withJSONObject: [
                    "client_name": "Third-party app", "token_endpoint_auth_method": "none",
                    "redirect_uris": [TestRelyingParty(clientId: "").redirectURI],
                ]))
            #expect(registered.status == 201)
            var client = TestRelyingParty(
                clientId: try #require(
                    (try JSONSerialization.jsonObject(with: registered.body) as? [String: Any])?["client_id"] as? String))
            client.scope = "openid"
            let request = TestRelyingParty.Request()
            let (consentPage, _) = try await agent.signIn(from: try await agent.open(client.authorizePath(request)), email: Self.email)
            let allow = try #require(consentPage.form("/login/consent", ["decision": "allow"]), "\(consentPage.text)")
            let code = try #require(try await agent.submit(allow).parameters["code"])
            let redeemed = try await client.redeem(server, code: code, request: request)
            let thirdParty = try #require(redeemed.json["access_token"] as? String, "\(redeemed.json)")
            let bearer = ["Authorization": "Bearer \(thirdParty)"]

            // `openid` alone: who the user is, not the address, nor the project's profile fields.
            let me = try await server.request("GET", "/v1/me", headers: bearer)
            #expect(me.status == 200)
            let profile = try #require(try JSONSerialization.jsonObject(with: me.body) as? [String: Any])
            #expect(profile["sub"] as? String != nil || profile["subject"] as? String != nil, "\(profile)")
            #expect(profile["email"] == nil || profile["email"] is NSNull, "\(profile)")

            // Every route declared for the account (read from the route table, so a new one is
            // covered as it is declared) refuses it, each with insufficient_scope.
            let accountRoutes = try server.app.routeTable().callers.filter { _, caller in
                caller == .account || caller == .either(.account, .powerAuthSignature)
            }
            #expect(accountRoutes.count >= 7, "\(accountRoutes.keys.sorted())")
            for key in accountRoutes.keys.sorted() {
                let (method, path) = RouteKeys.request(for: key)
                let answer = try await server.request(
                    method, path, headers: bearer.merging(["Content-Type": "application/json"]) { $1 },
                    body: method == "GET" || method == "DELETE" ? nil : Data("{}".utf8))
                #expect(answer.status == 403, "\(key): \(answer.status)")
                let error = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["error"] as? String
                #expect(error == "insufficient_scope", "\(key)")
                #expect(answer.headers["www-authenticate"]?.contains("insufficient_scope") == true, "\(key)")
            }

            // The project's own application, same user: the account is its to manage.
            let own = try await authorize(server, PageAgent(server: server), firstParty)
            let ownBearer = ["Authorization": "Bearer \(try #require(own.tokens["access_token"] as? String))"]
            #expect(try await server.request("GET", "/v1/me/devices", headers: ownBearer).status == 200)
            let ownProfile = try await server.request("GET", "/v1/me", headers: ownBearer)
            #expect((try JSONSerialization.jsonObject(with: ownProfile.body) as? [String: Any])?["email"] as? String == Self.email)
            #expect(try await server.request("DELETE", "/v1/me/sessions", headers: ownBearer).status == 204)
        }
    }
}
