import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// The hosted pages' browser security, each rule checked on a real server over real HTTP: the
/// headers of every page, the cookies' attributes, posts answered with a 303, and the browser
/// session ended by signing out everywhere, by blocking the user and by signing out on the
/// account page; consent withdrawn on the account page.
@Suite("Hosted pages: headers, cookies, and the browser session's end")
struct HostedLoginSecurityTests {
    static let email = "guard@example.com"

    func withProvider(_ body: (TestServer, PageAgent, TestRelyingParty) async throws -> Void) async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let client = TestRelyingParty()
            try await server.registerRedirectURI(client.redirectURI)
            try await body(server, PageAgent(server: server), client)
        }
    }

    /// A sign-in through the pages; the redirect's parameters and the token response.
    func signIn(_ server: TestServer, _ agent: PageAgent, _ client: TestRelyingParty, _ extra: [String: String?] = [:])
        async throws -> (parameters: [String: String], tokens: [String: Any])
    {
        let request = TestRelyingParty.Request()
        let (page, _) = try await agent.signIn(from: try await agent.open(client.authorizePath(request, extra)), email: Self.email)
        let code = try #require(page.parameters["code"], "\(page.text)")
        let redeemed = try await client.redeem(server, code: code, request: request)
        #expect(redeemed.status == 200, "\(redeemed.json)")
        return (page.parameters, redeemed.json)
    }

    /// `prompt=none` with the agent's cookies: the error, or nil for a code.
    func silentError(_ agent: PageAgent, _ client: TestRelyingParty) async throws -> String? {
        let page = try await agent.open(client.authorizePath(TestRelyingParty.Request(), ["prompt": "none"]))
        let parameters = page.parameters
        #expect(parameters["code"] != nil || parameters["error"] != nil, "\(page.text)")
        return parameters["error"]
    }

    @Test("Every page: CSP without inline script, no framing, nosniff, same-origin referrer, no-store")
    func securityHeaders() async throws {
        try await withProvider { server, _, client in
            let first = try await server.request("GET", client.authorizePath(TestRelyingParty.Request()))
            #expect(first.status == 303)
            let cookie = try #require(first.headers["set-cookie"])
            let value = try #require(cookie.split(separator: ";").first).trimmingCharacters(in: .whitespaces)
            let page = try await server.request("GET", "/login", headers: ["Cookie": value])
            #expect(page.status == 200)
            let csp = try #require(page.headers["content-security-policy"])
            let directives = Dictionary(
                uniqueKeysWithValues: csp.split(separator: ";").map {
                    let parts = $0.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
                    return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
                })
            #expect(directives["default-src"] == "'none'")
            #expect(directives["script-src"] == "'self'")
            #expect(directives["frame-ancestors"] == "'none'")
            #expect(directives["base-uri"] == "'none'")
            #expect(directives["form-action"]?.hasPrefix("'self'") == true)
            #expect(directives["form-action"]?.contains("http://127.0.0.1:4711") == true)
            #expect(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"))
            #expect(page.headers["x-content-type-options"] == "nosniff")
            #expect(page.headers["x-frame-options"] == "DENY")
            #expect(page.headers["referrer-policy"] == "same-origin")
            #expect(page.headers["cache-control"] == "no-store")
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(!html.contains("<script") && !html.contains("style="))
        }
    }

    @Test("Cookies: HttpOnly, SameSite=Lax, Path=/, no Domain; no Secure on a plain-HTTP loopback dev server")
    func cookieAttributes() async throws {
        try await withProvider { server, agent, client in
            let first = try await server.request("GET", client.authorizePath(TestRelyingParty.Request()))
            let cookie = try #require(first.headers["set-cookie"])
            let attributes = Set(cookie.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(cookie.hasPrefix("keyway-flow=kbf_"))
            #expect(attributes.isSuperset(of: ["HttpOnly", "SameSite=Lax", "Path=/"]))
            #expect(!attributes.contains { $0.lowercased().hasPrefix("domain") })
            // A dev server on plain HTTP at a loopback address: no Secure, so no __Host- prefix.
            #expect(!attributes.contains("Secure"))
            _ = try await signIn(server, agent, client)
            #expect(agent.cookies["keyway-session"]?.hasPrefix("kbs_") == true)
        }
        // Over HTTPS: AuthorizationRequestTests.cookiesOverHTTPS.
    }

    @Test("A post is answered with a 303 (no resubmission on reload)")
    func postsAnswerSeeOther() async throws {
        try await withProvider { server, agent, client in
            let page = try await agent.open(client.authorizePath(TestRelyingParty.Request()))
            let form = try #require(page.form("/login/identify"))
            var values = form.values
            values["identifier"] = Self.email
            let cookies = agent.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            let answer = try await server.request(
                "POST", "/login/identify",
                headers: [
                    "Cookie": cookies, "Origin": server.baseURL.absoluteString,
                    "Content-Type": "application/x-www-form-urlencoded",
                ],
                body: PageAgent.encode(values))
            #expect(answer.status == 303)
            #expect(answer.headers["location"] == "/login")
        }
    }

    @Test("Signing out everywhere ends the browser session: prompt=none answers login_required")
    func signOutEverywhereEndsTheBrowserSession() async throws {
        try await withProvider { server, agent, client in
            let (_, tokens) = try await signIn(server, agent, client)
            #expect(try await silentError(agent, client) == nil)
            let access = try #require(tokens["access_token"] as? String)
            let answer = try await server.request("DELETE", "/v1/me/sessions", headers: ["Authorization": "Bearer \(access)"])
            #expect(answer.status == 204)
            #expect(try await silentError(agent, client) == "login_required")
        }
    }

    @Test("Blocking the user ends the browser session")
    func blockingEndsTheBrowserSession() async throws {
        try await withProvider { server, agent, client in
            let (_, tokens) = try await signIn(server, agent, client)
            let idToken = try #require(tokens["id_token"] as? String)
            let payload = try #require(idToken.split(separator: ".").dropFirst().first)
            let payloadData = try #require(Data(base64URL: String(payload)))
            let claims = try #require(try JSONSerialization.jsonObject(with: payloadData) as? [String: Any])
            let userId = try #require(claims["sub"] as? String)
            #expect(try await server.admin("POST", "/admin/users/\(userId)/block").status == 200)
            #expect(try await silentError(agent, client) == "login_required")
        }
    }

    @Test("Signing out on the account page ends the session and every token opened through it")
    func accountSignOut() async throws {
        try await withProvider { server, agent, client in
            let (_, tokens) = try await signIn(server, agent, client)
            let account = try await agent.open("/account")
            #expect(account.status == 200)
            // The dev application does not open account management flows: the page has the
            // applications allowed and signing out.
            #expect(account.text.contains("Your account"), "\(account.text)")
            let signOut = try #require(account.form("/account/logout"))
            let done = try await agent.submit(signOut)
            #expect(done.status == 200 && done.text.contains("signed out"), "\(done.text)")
            #expect(agent.cookies["keyway-session"] == nil)
            #expect(try await silentError(agent, client) == "login_required")
            let refreshed = try await server.token([
                "grant_type": "refresh_token", "client_id": TestServer.configId,
                "refresh_token": try #require(tokens["refresh_token"] as? String),
            ])
            #expect(refreshed.status == 400 && refreshed.json["error"] as? String == "invalid_grant")
        }
    }

    @Test("Consent withdrawn on the account page is asked for again")
    func consentWithdrawn() async throws {
        try await withProvider { server, agent, first in
            _ = try await signIn(server, agent, first)
            let token = try await server.app.issueRegistrationToken(templateConfigId: TestServer.configId)
            let registered = try await server.request(
                "POST", "/oauth2/register",
                headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token.revealed)"],
                body: try JSONSerialization.data(withJSONObject: [
                    "client_name": "Photo Printer", "token_endpoint_auth_method": "none",
                    "redirect_uris": [first.redirectURI], "logo_uri": "https://printer.example.com/logo.png",
                    "policy_uri": "https://printer.example.com/privacy", "tos_uri": "https://printer.example.com/terms",
                ]))
            let clientId = try #require(
                (try JSONSerialization.jsonObject(with: registered.body) as? [String: Any])?["client_id"] as? String)
            let third = TestRelyingParty(clientId: clientId)
            #expect(try await silentError(agent, third) == "consent_required")
            let asked = try await agent.open(third.authorizePath(TestRelyingParty.Request()))
            let allow = try #require(asked.form("/login/consent", ["decision": "allow"]), "\(asked.text)")
            // The client's logo and its own pages, as registered.
            #expect(asked.html.contains(#"src="https://printer.example.com/logo.png" alt="Photo Printer logo""#), "\(asked.html)")
            #expect(asked.html.contains(#"href="https://printer.example.com/privacy">Photo Printer&#39;s privacy policy<"#))
            #expect(asked.html.contains(#"href="https://printer.example.com/terms">Photo Printer&#39;s terms of service<"#))
            #expect(try await agent.submit(allow).parameters["code"] != nil)
            #expect(try await silentError(agent, third) == nil)

            let account = try await agent.open("/account")
            #expect(account.text.contains("Photo Printer"), "\(account.text)")
            let revoke = try #require(account.form("/account/consents/revoke", ["client_id": clientId]))
            let after = try await agent.submit(revoke)
            #expect(!after.text.contains("Photo Printer"), "\(after.text)")
            #expect(try await silentError(agent, third) == "consent_required")
        }
    }
}

extension Data {
    /// Decodes base64url without padding.
    init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
