import Foundation
import KeywayJOSE
import KeywayProtocol
import KeywayTestSupport
import Testing

/// Signing in with another provider on the hosted pages, over real HTTP with a cookie-keeping
/// browser: `/oauth2/authorize`, the identifier, the provider's button, the provider (the
/// stand-in on loopback), Keyway's browser callback, back on the pages for the second factor,
/// and the client's code redeemed at the token endpoint; a provider's refusal and a forged
/// return.
@Suite("Federation on the hosted pages")
struct FederationHostedLoginTests {
    static let ada: [String: JSONValue] = [
        "sub": .string("acme-user-1"), "email": .string("ada@example.com"), "email_verified": .bool(true),
    ]

    /// A server prepared as ``FederationFlowTests/prepare(_:provider:)`` (email codes and the
    /// providers `acme` and `down`), with an authenticator required as second factor, and a client
    /// of the browser front door.
    func withServers(_ body: (StandInOIDCProvider, TestServer, ManualClock, TestRelyingParty) async throws -> Void)
        async throws
    {
        let clock = ManualClock()
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            try await FederationFlowTests().prepare(server, provider: provider)
            try await server.setPolicy([
                "primaryMethods": ["emailOtp"], "federation": ["providers": ["acme", "down"]],
                "mfaMode": "required", "mfaMethods": ["totp"],
            ])
            let client = TestRelyingParty()
            try await server.registerRedirectURI(client.redirectURI)
            try await body(provider, server, clock, client)
        }
        }
    }

    @Test("A provider's button, the provider, back on the pages for the authenticator, then the client's code")
    func signsInThroughAProviderOnTheHostedPages() async throws {
        try await withServers { provider, server, clock, client in
            let agent = PageAgent(server: server)
            let request = TestRelyingParty.Request()
            var page = try await agent.open(client.authorizePath(request))
            page = try await agent.submit(try #require(page.form("/login/identify")), ["identifier": "ada@example.com"])

            // The choice: a button per provider, with its label and icon.
            let acme = try #require(
                page.form("/login/action", ["action": "selectMethod", "methodId": "federation:acme"]), "\(page.text)")
            #expect(acme.button == "Continue with Acme")
            #expect(page.html.contains("https://cdn.example.com/acme.svg"))

            // A provider that is down: the reason, and the choice is still there.
            page = try await agent.submit(
                try #require(page.form("/login/action", ["action": "selectMethod", "methodId": "federation:down"])))
            #expect(page.text.contains("This method cannot be used right now"), "\(page.text)")
            #expect(page.form("/login/action", ["action": "selectMethod", "methodId": "federation:acme"]) != nil)

            // The provider's button: a page that sends the browser on to the provider.
            page = try await agent.submit(
                try #require(page.form("/login/action", ["action": "selectMethod", "methodId": "federation:acme"])))
            let url = try #require(Self.providerURL(page), "\(page.html)")
            #expect(url.hasPrefix("\(provider.issuer)/authorize?"))
            let items = URLComponents(string: url)?.queryItems ?? []
            #expect(items.first { $0.name == "redirect_uri" }?.value == "\(server.baseURL.absoluteString)/v1/federation/callback")
            let (code, state) = try provider.issueCode(for: Self.ada, authorizationURL: url)

            // A return that is not this visit's sign-in is refused, and the visit goes on.
            let forged = try await agent.open("/login/federation?state=fst_forged")
            #expect(forged.status == 400 && forged.text.contains("does not belong to this sign-in"), "\(forged.text)")
            // A state too long to be one is refused as such, even from a browser without a sign-in.
            let oversized = try await server.request(
                "GET", "/login/federation?state=\(String(repeating: "0", count: 257))", headers: [:])
            #expect(oversized.status == 400)
            #expect(try await server.rowCount("federated_identities") == 0)

            // The provider sends the browser to Keyway's callback, which sends it back to the pages.
            let callback = try await server.request("GET", "/v1/federation/callback?code=\(code)&state=\(state)")
            #expect(callback.status == 303)
            let location = try #require(callback.headers["location"])
            #expect(location.hasPrefix("\(server.baseURL.absoluteString)/login/federation?state="), "\(location)")
            page = try await agent.open(location)

            // The pages continue the flow: the authenticator the policy requires.
            #expect(page.path == "/login", "\(page.status) \(page.text)")
            let key = try #require(Self.authenticatorKey(page), "\(page.text)")
            let totp = try #require(page.form("/login/action", ["action": "submitTotp"]), "\(page.text)")
            #expect(try await server.rowCount("federated_identities") == 1)
            page = try await agent.submit(totp, ["code": TestAuthenticator.code(secret: key, at: clock.now())])

            // The client gets its code, and redeems it.
            let answer = try #require(page.redirect, "\(page.status) \(page.text)")
            #expect("\(answer.scheme ?? "")://\(answer.host ?? ""):\(answer.port ?? 0)\(answer.path)" == client.redirectURI)
            #expect(page.parameters["state"] == request.state)
            #expect(page.parameters["iss"] == server.baseURL.absoluteString)
            let redeemed = try await client.redeem(server, code: try #require(page.parameters["code"]), request: request)
            #expect(redeemed.status == 200, "\(redeemed.json)")
            let claims = try TestRelyingParty.claims(try #require(redeemed.json["id_token"] as? String))
            #expect(claims["email"] as? String == "ada@example.com")
            #expect(claims["nonce"] as? String == request.nonce)
            let amr = claims["amr"] as? [String] ?? []
            #expect(amr.contains("fed") && amr.contains("otp"), "\(amr)")

            // The same provider's answer delivered again: nothing changes, no second token request.
            let again = try await server.request("GET", "/v1/federation/callback?code=\(code)&state=\(state)")
            #expect(again.status == 303)
            #expect(provider.tokenRequestCount == 1)
            #expect(try await server.rowCount("federated_identities") == 1)
        }
    }

    @Test("A provider's refusal brings the browser back to the first page with the reason")
    func theProvidersRefusalGoesBackToTheFirstPage() async throws {
        try await withServers { provider, server, _, client in
            let agent = PageAgent(server: server)
            var page = try await agent.open(client.authorizePath(TestRelyingParty.Request()))
            page = try await agent.submit(try #require(page.form("/login/identify")), ["identifier": "ada@example.com"])
            page = try await agent.submit(
                try #require(page.form("/login/action", ["action": "selectMethod", "methodId": "federation:acme"])))
            let url = try #require(Self.providerURL(page))
            let state = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "state" }?.value)

            page = try await agent.open("/v1/federation/callback?error=access_denied&state=\(state)")
            #expect(page.status == 200 && page.path == "/login", "\(page.status) \(page.text)")
            #expect(page.text.contains("access_denied"), "\(page.text)")
            #expect(page.form("/login/identify") != nil)
            #expect(provider.tokenRequestCount == 0)
            #expect(try await server.rowCount("federated_identities") == 0)

            // A browser without a visit in progress: the page says the visit is over.
            let stranger = try await PageAgent(server: server).open("/login/federation?state=\(state)")
            #expect(stranger.status == 410, "\(stranger.text)")
        }
    }

    /// An answer whose ID token does not verify (issued to another client): the browser is not
    /// left on a bare `502` at Keyway's callback, but goes back to the pages, which show the
    /// reason on the first page; the state is spent.
    @Test("An answer that does not verify brings the browser back to the pages with the reason, not a 502")
    func anAnswerThatDoesNotVerifyIsShownOnThePages() async throws {
        try await withServers { provider, server, _, client in
            let agent = PageAgent(server: server)
            var page = try await agent.open(client.authorizePath(TestRelyingParty.Request()))
            page = try await agent.submit(try #require(page.form("/login/identify")), ["identifier": "ada@example.com"])
            page = try await agent.submit(
                try #require(page.form("/login/action", ["action": "selectMethod", "methodId": "federation:acme"])))
            let url = try #require(Self.providerURL(page))
            var claims = Self.ada
            claims["aud"] = .string("someone-else")
            let (code, state) = try provider.issueCode(for: claims, authorizationURL: url)

            let callback = try await server.request("GET", "/v1/federation/callback?code=\(code)&state=\(state)")
            #expect(callback.status == 303, "\(String(decoding: callback.body, as: UTF8.self))")
            let location = try #require(callback.headers["location"])
            #expect(location.hasPrefix("\(server.baseURL.absoluteString)/login/federation?state="), "\(location)")
            page = try await agent.open(location)
            #expect(page.status == 200 && page.path == "/login", "\(page.status) \(page.text)")
            #expect(page.text.contains("another client"), "\(page.text)")
            #expect(page.form("/login/identify") != nil)
            #expect(try await server.rowCount("federated_identities") == 0)

            // Delivered again: still no identity, and the provider is not asked twice.
            let again = try await server.request("GET", "/v1/federation/callback?code=\(code)&state=\(state)")
            #expect(again.status == 303)
            #expect(provider.tokenRequestCount == 1)
            #expect(try await server.rowCount("federated_identities") == 0)
        }
    }

    /// Where a page sends the browser on at once (its `<meta http-equiv="refresh">`).
    static func providerURL(_ page: PageAgent.Page) -> String? {
        HTMLForm.matches(#"<meta http-equiv="refresh" content="0; url=([^"]+)">"#, in: page.html).first
            .map { HTMLForm.unescape($0[1]) }
    }

    /// The authenticator's key an authenticator set-up page shows, in groups.
    static func authenticatorKey(_ page: PageAgent.Page) -> String? {
        let groups = HTMLForm.matches(#"<span class="kw-key-group">([^<]*)</span>"#, in: page.html).map { $0[1] }
        return groups.isEmpty ? nil : groups.joined()
    }
}
