import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// Certification-style tests of the OpenID Provider: each mirrors a module of the OpenID
/// Foundation's Basic OP conformance profile (and the extensions the server supports: PKCE,
/// RFC 9207 `iss`, form_post, PAR, consent), named after it. A real server is driven over real
/// HTTP by a client without JavaScript (``PageAgent``): it follows the server's redirects, reads
/// the forms' hidden inputs and posts them with the server's `Origin`, as a browser would.
@Suite("OpenID Provider conformance (Basic OP modules)")
struct OpenIDProviderConformanceTests {
    static let email = "op-tester@example.com"

    /// A started server with the test client's redirect URI registered, its clock, a fresh agent
    /// and the relying party.
    func withProvider(
        _ body: (TestServer, ManualClock, PageAgent, TestRelyingParty) async throws -> Void
    ) async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            let client = TestRelyingParty()
            try await server.registerRedirectURI(client.redirectURI)
            try await body(server, clock, PageAgent(server: server), client)
        }
    }

    /// Runs a whole authorization through the pages with a new agent or `agent`: the redirect's
    /// parameters, the request and the token response.
    func authorize(
        _ server: TestServer, _ agent: PageAgent, _ client: TestRelyingParty, _ extra: [String: String?] = [:]
    ) async throws -> (parameters: [String: String], request: TestRelyingParty.Request, tokens: [String: Any]) {
        let request = TestRelyingParty.Request()
        let (page, _) = try await agent.signIn(from: try await agent.open(client.authorizePath(request, extra)), email: Self.email)
        let parameters = page.parameters
        let code = try #require(parameters["code"], "no code: \(parameters) \(page.text)")
        let redeemed = try await client.redeem(server, code: code, request: request)
        #expect(redeemed.status == 200, "\(redeemed.json)")
        return (parameters, request, redeemed.json)
    }

    // MARK: Discovery

    @Test("OP-Discovery-Config")
    func discoveryConfiguration() async throws {
        try await withProvider { server, _, _, _ in
            let response = try await server.request("GET", "/.well-known/openid-configuration")
            #expect(response.status == 200)
            #expect(response.headers["content-type"]?.hasPrefix("application/json") == true)
            let document = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let issuer = server.baseURL.absoluteString
            #expect(document["issuer"] as? String == issuer)
            for (member, path) in [
                ("authorization_endpoint", "/oauth2/authorize"), ("token_endpoint", "/oauth2/token"),
                ("userinfo_endpoint", "/oauth2/userinfo"), ("jwks_uri", "/.well-known/jwks.json"),
                ("end_session_endpoint", "/oauth2/logout"), ("pushed_authorization_request_endpoint", "/oauth2/par"),
                ("registration_endpoint", "/oauth2/register"),
            ] {
                #expect(document[member] as? String == issuer + path, "\(member)")
            }
            #expect(document["response_types_supported"] as? [String] == ["code"])
            #expect((document["response_modes_supported"] as? [String]).map(Set.init) == ["query", "form_post"])
            #expect((document["subject_types_supported"] as? [String])?.contains("public") == true)
            #expect((document["id_token_signing_alg_values_supported"] as? [String])?.contains("RS256") == true)
            #expect((document["scopes_supported"] as? [String])?.contains("openid") == true)
            #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
            #expect(document["authorization_response_iss_parameter_supported"] as? Bool == true)
            let prompts = Set(document["prompt_values_supported"] as? [String] ?? [])
            #expect(prompts.isSuperset(of: ["none", "login", "consent", "create"]) && !prompts.contains("select_account"))
            for claim in ["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce"] {
                #expect((document["claims_supported"] as? [String])?.contains(claim) == true, "\(claim)")
            }
        }
    }

    @Test("OP-Discovery-jwks_uri")
    func discoveryKeys() async throws {
        try await withProvider { server, _, _, _ in
            let keys = try await server.request("GET", "/.well-known/jwks.json")
            #expect(keys.status == 200)
            let set = try #require(try JSONSerialization.jsonObject(with: keys.body) as? [String: Any])
            let list = try #require(set["keys"] as? [[String: Any]])
            #expect(!list.isEmpty)
            #expect(list.allSatisfy { $0["kid"] is String && $0["kty"] is String && $0["d"] == nil })
        }
    }

    // MARK: The code flow

    @Test("OP-Response-code")
    func responseCode() async throws {
        try await withProvider { server, _, agent, client in
            let (parameters, request, tokens) = try await authorize(server, agent, client)
            #expect(parameters["state"] == request.state)
            #expect(tokens["token_type"] as? String == "Bearer" || tokens["token_type"] as? String == "DPoP")
            let claims = try TestRelyingParty.claims(try #require(tokens["id_token"] as? String))
            #expect(claims["iss"] as? String == server.baseURL.absoluteString)
            #expect(claims["aud"] as? String == client.clientId || (claims["aud"] as? [String])?.contains(client.clientId) == true)
            #expect(claims["sub"] is String && claims["exp"] is Int && claims["iat"] is Int && claims["auth_time"] is Int)
        }
    }

    @Test("OP-Response-iss (RFC 9207)")
    func responseIssuer() async throws {
        try await withProvider { server, _, agent, client in
            let issuer = server.baseURL.absoluteString
            let (success, _, _) = try await authorize(server, agent, client)
            #expect(success["iss"] == issuer)
            // Errors carry it too.
            let fresh = PageAgent(server: server)
            let refused = try await fresh.open(client.authorizePath(.init(), ["prompt": "none"]))
            #expect(refused.parameters["error"] == "login_required" && refused.parameters["iss"] == issuer)
            let denied = try await fresh.open(client.authorizePath(.init(), ["response_type": "token"]))
            #expect(denied.parameters["error"] == "unsupported_response_type" && denied.parameters["iss"] == issuer)
        }
    }

    @Test("OP-nonce-code")
    func nonceEchoed() async throws {
        try await withProvider { server, _, agent, client in
            let (_, request, tokens) = try await authorize(server, agent, client)
            let claims = try TestRelyingParty.claims(try #require(tokens["id_token"] as? String))
            #expect(claims["nonce"] as? String == request.nonce)
        }
    }

    @Test("OP-nonce-NoReq-code")
    func noNonceIsAccepted() async throws {
        try await withProvider { server, _, agent, client in
            let (_, _, tokens) = try await authorize(server, agent, client, ["nonce": nil])
            let claims = try TestRelyingParty.claims(try #require(tokens["id_token"] as? String))
            #expect(claims["nonce"] == nil)
        }
    }

    @Test("OP-Response-state (echoed exactly)")
    func stateEchoedExactly() async throws {
        try await withProvider { server, _, agent, client in
            var request = TestRelyingParty.Request()
            request.state = "x y+z/é~%"
            let (page, _) = try await agent.signIn(from: try await agent.open(client.authorizePath(request)), email: Self.email)
            #expect(page.parameters["state"] == request.state)
            #expect(page.parameters["code"] != nil)
        }
    }

    @Test("OP-Req-NotUnderstood")
    func unknownParametersAreIgnored() async throws {
        try await withProvider { server, _, agent, client in
            let (parameters, _, _) = try await authorize(server, agent, client, ["extra_parameter": "foobar"])
            #expect(parameters["code"] != nil)
        }
    }

    @Test("OP-OAuth-2nd-Revokes")
    func codeReuse() async throws {
        try await withProvider { server, _, agent, client in
            let request = TestRelyingParty.Request()
            let (page, _) = try await agent.signIn(from: try await agent.open(client.authorizePath(request)), email: Self.email)
            let code = try #require(page.parameters["code"])
            let first = try await client.redeem(server, code: code, request: request)
            #expect(first.status == 200)
            let access = try #require(first.json["access_token"] as? String)
            let refresh = try #require(first.json["refresh_token"] as? String)
            #expect(try await userInfo(server, access).status == 200)

            let second = try await client.redeem(server, code: code, request: request)
            #expect(second.status == 400)
            #expect(second.json["error"] as? String == "invalid_grant")
            // The tokens of the first redemption are revoked (RFC 6749 §4.1.2).
            #expect(try await userInfo(server, access).status == 401)
            let refreshed = try await server.token(
                ["grant_type": "refresh_token", "refresh_token": refresh, "client_id": client.clientId])
            #expect(refreshed.json["error"] as? String == "invalid_grant")
        }
    }

    @Test("OP-Token-redirect_uri (the authorization's redirect_uri repeated at the token endpoint)")
    func redirectURIRepeatedAtTheTokenEndpoint() async throws {
        try await withProvider { server, _, agent, client in
            for wrong: String? in [nil, "http://127.0.0.1:4711/other"] {
                let request = TestRelyingParty.Request()
                let (page, _) = try await agent.signIn(from: try await agent.open(client.authorizePath(request)), email: Self.email)
                let code = try #require(page.parameters["code"])
                let refused = try await client.redeem(server, code: code, request: request, redirectURI: .some(wrong))
                let error = refused.json["error"] as? String
                #expect(
                    refused.status == 400 && (error == "invalid_grant" || wrong == nil && error == "invalid_request"),
                    "\(wrong ?? "none"): \(refused.json)")
            }
        }
    }

    // MARK: PKCE (RFC 7636)

    @Test("OP-PKCE-Required (RFC 7636: S256 for every client)")
    func pkceRequired() async throws {
        try await withProvider { server, _, agent, client in
            for extra: [String: String?] in [["code_challenge": nil], ["code_challenge_method": "plain"], ["code_challenge_method": nil]] {
                let page = try await agent.open(client.authorizePath(.init(), extra))
                #expect(page.parameters["error"] == "invalid_request", "\(extra): \(page.parameters)")
            }
            // A wrong verifier at the token endpoint.
            let request = TestRelyingParty.Request()
            let (page, _) = try await agent.signIn(from: try await agent.open(client.authorizePath(request)), email: Self.email)
            var wrong = request
            wrong.verifier = TestRelyingParty.Request().verifier
            let refused = try await client.redeem(server, code: try #require(page.parameters["code"]), request: wrong)
            #expect(refused.status == 400 && refused.json["error"] as? String == "invalid_grant")
        }
    }

    // MARK: Redirect URIs

    @Test("OP-redirect_uri-NotReg")
    func unregisteredRedirectURI() async throws {
        try await withProvider { server, _, _, client in
            for uri in ["https://attacker.example/callback", "http://127.0.0.1:4711/elsewhere", "http://localhost:4711/callback"] {
                var other = client
                other.redirectURI = uri
                let response = try await server.request("GET", other.authorizePath(.init()))
                #expect(response.status == 400, "\(uri)")
                #expect(response.headers["location"] == nil, "\(uri)")
                #expect(response.headers["content-type"]?.hasPrefix("text/html") == true)
                // The page says what is wrong and what to do, quoting the address refused.
                let text = HTMLForm.unescape(String(decoding: response.body, as: UTF8.self))
                #expect(text.contains("cannot send you back to") && text.contains(uri), "\(uri)")
                #expect(text.contains("tell its developers to register this redirect URI"), "\(uri)")
            }
        }
    }

    @Test("OP-redirect_uri-Missing")
    func missingRedirectURI() async throws {
        try await withProvider { server, _, _, client in
            let response = try await server.request("GET", client.authorizePath(.init(), ["redirect_uri": nil]))
            #expect(response.status == 400 && response.headers["location"] == nil)
            let text = HTMLForm.unescape(String(decoding: response.body, as: UTF8.self))
            #expect(text.contains("does not say where to send you afterwards (it has no redirect_uri)"))
        }
    }

    @Test("OP-redirect_uri-Query-Added")
    func redirectURIWithAnAddedQuery() async throws {
        try await withProvider { server, _, _, client in
            var other = client
            other.redirectURI = client.redirectURI + "?foo=bar"
            let response = try await server.request("GET", other.authorizePath(.init()))
            #expect(response.status == 400 && response.headers["location"] == nil)
        }
    }

    @Test("OP-redirect_uri-RegLoopback (RFC 8252: any port of a loopback IP literal)")
    func loopbackRedirectURIMatchesAnyPort() async throws {
        try await withProvider { server, _, agent, client in
            try await server.registerRedirectURI("http://127.0.0.1/native")
            var native = client
            native.redirectURI = "http://127.0.0.1:61234/native"
            let (parameters, _, _) = try await authorize(server, agent, native)
            #expect(parameters["code"] != nil)
        }
    }

    // MARK: Prompts and authentication age

    @Test("OP-prompt-none-NotLoggedIn")
    func promptNoneWithoutSession() async throws {
        try await withProvider { server, _, agent, client in
            let request = TestRelyingParty.Request()
            let page = try await agent.open(client.authorizePath(request, ["prompt": "none"]))
            #expect(page.parameters["error"] == "login_required")
            #expect(page.parameters["state"] == request.state)
            #expect(page.redirect?.path == "/callback")
        }
    }

    @Test("OP-prompt-none-LoggedIn")
    func promptNoneWithSession() async throws {
        try await withProvider { server, _, agent, client in
            let (_, _, first) = try await authorize(server, agent, client)
            let request = TestRelyingParty.Request()
            let page = try await agent.open(client.authorizePath(request, ["prompt": "none"]))
            let code = try #require(page.parameters["code"], "\(page.parameters)")
            let tokens = try await client.redeem(server, code: code, request: request)
            #expect(
                try TestRelyingParty.claims(try #require(tokens.json["id_token"] as? String))["sub"] as? String
                    == (try TestRelyingParty.claims(try #require(first["id_token"] as? String))["sub"] as? String))
        }
    }

    @Test("OP-prompt-login")
    func promptLogin() async throws {
        try await withProvider { server, clock, agent, client in
            let (_, _, first) = try await authorize(server, agent, client)
            clock.advance(by: 10)
            let page = try await agent.open(client.authorizePath(.init(), ["prompt": "login"]))
            #expect(page.redirect == nil && page.form("/login/identify") != nil)
            let (_, _, second) = try await authorize(server, agent, client, ["prompt": "login"])
            let before = try TestRelyingParty.claims(try #require(first["id_token"] as? String))["auth_time"] as? Int ?? 0
            let after = try TestRelyingParty.claims(try #require(second["id_token"] as? String))["auth_time"] as? Int ?? 0
            #expect(after >= before + 10)
        }
    }

    @Test("OP-Req-max_age=1")
    func maxAgeOne() async throws {
        try await withProvider { server, clock, agent, client in
            let (_, _, first) = try await authorize(server, agent, client)
            clock.advance(by: 2)
            let page = try await agent.open(client.authorizePath(.init(), ["max_age": "1"]))
            #expect(page.redirect == nil && page.form("/login/identify") != nil, "a session older than max_age was reused")
            let (_, _, second) = try await authorize(server, agent, client, ["max_age": "1"])
            let before = try TestRelyingParty.claims(try #require(first["id_token"] as? String))["auth_time"] as? Int ?? 0
            let claims = try TestRelyingParty.claims(try #require(second["id_token"] as? String))
            #expect((claims["auth_time"] as? Int ?? 0) >= before + 2)
        }
    }

    @Test("OP-Req-max_age=10000")
    func maxAgeLong() async throws {
        try await withProvider { server, clock, agent, client in
            let (_, _, first) = try await authorize(server, agent, client)
            clock.advance(by: 60)
            let request = TestRelyingParty.Request()
            let page = try await agent.open(client.authorizePath(request, ["max_age": "10000"]))
            let code = try #require(page.parameters["code"], "the session was not reused: \(page.text)")
            let tokens = try await client.redeem(server, code: code, request: request)
            let claims = try TestRelyingParty.claims(try #require(tokens.json["id_token"] as? String))
            let before = try TestRelyingParty.claims(try #require(first["id_token"] as? String))["auth_time"] as? Int
            #expect(claims["auth_time"] as? Int == before)
        }
    }

    @Test("OP-Req-id_token_hint")
    func idTokenHint() async throws {
        try await withProvider { server, _, agent, client in
            let (_, _, first) = try await authorize(server, agent, client)
            let hint = try #require(first["id_token"] as? String)
            let request = TestRelyingParty.Request()
            let page = try await agent.open(client.authorizePath(request, ["prompt": "none", "id_token_hint": hint]))
            let code = try #require(page.parameters["code"], "\(page.parameters)")
            let tokens = try await client.redeem(server, code: code, request: request)
            #expect(
                try TestRelyingParty.claims(try #require(tokens.json["id_token"] as? String))["sub"] as? String
                    == (try TestRelyingParty.claims(hint)["sub"] as? String))
            // A hint the server did not sign is refused.
            let forged = hint.dropLast(4) + "AAAA"
            let refused = try await agent.open(client.authorizePath(.init(), ["prompt": "none", "id_token_hint": String(forged)]))
            #expect(refused.parameters["error"] == "invalid_request")
        }
    }

    @Test("OP-Req-login_hint")
    func loginHint() async throws {
        try await withProvider { server, _, agent, client in
            let page = try await agent.open(client.authorizePath(.init(), ["login_hint": Self.email]))
            let form = try #require(page.form("/login/identify"))
            #expect(form.values["identifier"] == Self.email)
        }
    }

    // MARK: UserInfo and refresh

    func userInfo(_ server: TestServer, _ token: String, method: String = "GET") async throws -> (status: Int, json: [String: Any]) {
        let response = try await server.request(method, "/oauth2/userinfo", headers: ["Authorization": "Bearer \(token)"])
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    @Test("OP-UserInfo-Endpoint (GET)")
    func userInfoGet() async throws {
        try await withProvider { server, _, agent, client in
            let (_, _, tokens) = try await authorize(server, agent, client)
            let info = try await userInfo(server, try #require(tokens["access_token"] as? String))
            #expect(info.status == 200)
            let claims = try TestRelyingParty.claims(try #require(tokens["id_token"] as? String))
            #expect(info.json["sub"] as? String == claims["sub"] as? String)
            #expect(info.json["email"] as? String == Self.email)
        }
    }

    @Test("OP-UserInfo-Header (POST)")
    func userInfoPost() async throws {
        try await withProvider { server, _, agent, client in
            let (_, _, tokens) = try await authorize(server, agent, client)
            let info = try await userInfo(server, try #require(tokens["access_token"] as? String), method: "POST")
            #expect(info.status == 200 && info.json["sub"] is String)
            #expect(try await userInfo(server, "not-a-token").status == 401)
        }
    }

    @Test("OP-acr_values (voluntary: the ID token names the level the sign-in reached)")
    func acrValues() async throws {
        try await withProvider { server, _, agent, client in
            let (_, _, tokens) = try await authorize(server, agent, client, ["acr_values": "urn:keyway:loa:2fa urn:keyway:loa:1fa"])
            let claims = try TestRelyingParty.claims(try #require(tokens["id_token"] as? String))
            // An email code is one factor.
            #expect(claims["acr"] as? String == "urn:keyway:loa:1fa", "\(claims)")
        }
    }

    @Test("OP-UserInfo-Body (POST, RFC 6750 §2.2)")
    func userInfoTokenInAFormBody() async throws {
        try await withProvider { server, _, agent, client in
            let (_, _, tokens) = try await authorize(server, agent, client)
            let token = try #require(tokens["access_token"] as? String)
            let form = ["Content-Type": "application/x-www-form-urlencoded"]
            let answer = try await server.request("POST", "/oauth2/userinfo", headers: form, body: Data("access_token=\(token)".utf8))
            #expect(answer.status == 200)
            let json = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:]
            #expect(json["sub"] as? String == (try TestRelyingParty.claims(try #require(tokens["id_token"] as? String))["sub"] as? String))
            let wrong = try await server.request("POST", "/oauth2/userinfo", headers: form, body: Data("access_token=nope".utf8))
            #expect(wrong.status == 401)
            // Not in a query, nor in a form on GET; the header wins when both are sent.
            #expect(try await server.request("GET", "/oauth2/userinfo?access_token=\(token)").status == 401)
            let both = try await server.request(
                "POST", "/oauth2/userinfo", headers: form.merging(["Authorization": "Bearer nope"]) { $1 },
                body: Data("access_token=\(token)".utf8))
            #expect(both.status == 401)
            // A form body is read up to 16 KiB for its token: a larger one is refused, not read.
            let padded = "access_token=\(token)&padding=" + String(repeating: "a", count: 17 * 1024)
            let large = try await server.request("POST", "/oauth2/userinfo", headers: form, body: Data(padded.utf8))
            let refusal = (try? JSONSerialization.jsonObject(with: large.body)) as? [String: Any] ?? [:]
            #expect(large.status == 413 && refusal["error"] as? String == "invalid_request", "\(large.status) \(refusal)")
        }
    }

    @Test("OP-Refresh-Token")
    func refreshTokenGrant() async throws {
        try await withProvider { server, _, agent, client in
            let (_, _, tokens) = try await authorize(server, agent, client)
            let refresh = try #require(tokens["refresh_token"] as? String)
            let refreshed = try await server.token(["grant_type": "refresh_token", "refresh_token": refresh, "client_id": client.clientId])
            #expect(refreshed.status == 200, "\(refreshed.json)")
            let access = try #require(refreshed.json["access_token"] as? String)
            #expect(try await userInfo(server, access).status == 200)
            if let idToken = refreshed.json["id_token"] as? String {
                let before = try TestRelyingParty.claims(try #require(tokens["id_token"] as? String))
                #expect(try TestRelyingParty.claims(idToken)["sub"] as? String == before["sub"] as? String)
            }
        }
    }

    // MARK: Response modes, PAR, consent, cancel

    @Test("OP-response_mode-form_post")
    func formPost() async throws {
        try await withProvider { server, _, agent, client in
            let request = TestRelyingParty.Request()
            let (page, _) = try await agent.signIn(
                from: try await agent.open(client.authorizePath(request, ["response_mode": "form_post"])), email: Self.email)
            #expect(page.status == 200 && page.redirect == nil)
            let form = try #require(page.forms.first { $0.action == client.redirectURI }, "\(page.html)")
            #expect(form.method == "post")
            #expect(form.values["state"] == request.state)
            #expect(form.values["iss"] == server.baseURL.absoluteString)
            let code = try #require(form.values["code"])
            #expect(page.headers["content-security-policy"]?.contains("form-action 'self' http://127.0.0.1:4711") == true)
            #expect(try await client.redeem(server, code: code, request: request).status == 200)
        }
    }

    @Test("OP-PAR (RFC 9126: pushed with client authentication, used once)")
    func pushedAuthorizationRequest() async throws {
        try await withProvider { server, _, agent, _ in
            let application = try await server.addProjectApplication(name: "Confidential web app", confidential: true)
            let secret = try #require(application.secret)
            let client = TestRelyingParty(clientId: application.configId, clientSecret: secret)
            try await server.registerRedirectURI(client.redirectURI, configId: application.configId)
            let request = TestRelyingParty.Request()
            var pushedForm = client.parameters(request)
            // Without client authentication: refused.
            #expect(try await server.form("/oauth2/par", pushedForm).status == 401)
            pushedForm["client_secret"] = secret
            let pushed = try await server.form("/oauth2/par", pushedForm)
            #expect(pushed.status == 201, "\(pushed.json)")
            let requestURI = try #require(pushed.json["request_uri"] as? String)
            #expect(requestURI.hasPrefix("urn:ietf:params:oauth:request_uri:"))
            #expect((pushed.json["expires_in"] as? Int ?? 0) > 0)

            var components = URLComponents()
            components.path = "/oauth2/authorize"
            components.queryItems = [.init(name: "client_id", value: client.clientId), .init(name: "request_uri", value: requestURI)]
            let path = try #require(components.url?.absoluteString)
            let (page, _) = try await agent.signIn(from: try await agent.open(path), email: Self.email)
            #expect(page.parameters["state"] == request.state)
            let code = try #require(page.parameters["code"], "\(page.text)")
            #expect(try await client.redeem(server, code: code, request: request).status == 200)
            // Used up.
            let again = try await server.request("GET", path)
            #expect(again.status == 400 && again.headers["location"] == nil)
        }
    }

    @Test("OP-Consent (a dynamically registered client: allow, remembered, deny)")
    func consentForADynamicClient() async throws {
        try await withProvider { server, _, agent, _ in
            let token = try await server.app.issueRegistrationToken(templateConfigId: TestServer.configId)
            let registered = try await server.request(
                "POST", "/oauth2/register",
                headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token.revealed)"],
                body: try JSONSerialization.data(withJSONObject: [
                    "client_name": "Third-party app", "token_endpoint_auth_method": "none",
                    "redirect_uris": [TestRelyingParty(clientId: "").redirectURI],
                ]))
            #expect(registered.status == 201)
            let clientId = try #require(
                (try JSONSerialization.jsonObject(with: registered.body) as? [String: Any])?["client_id"] as? String)
            let client = TestRelyingParty(clientId: clientId)

            // Signing in, then the consent page; allowed: a code.
            let request = TestRelyingParty.Request()
            let (consentPage, _) = try await agent.signIn(from: try await agent.open(client.authorizePath(request)), email: Self.email)
            #expect(consentPage.redirect == nil)
            let allow = try #require(consentPage.form("/login/consent", ["decision": "allow"]), "\(consentPage.text)")
            #expect(consentPage.form("/login/consent", ["decision": "deny"]) != nil)
            let allowed = try await agent.submit(allow)
            let code = try #require(allowed.parameters["code"], "\(allowed.parameters)")
            #expect(allowed.parameters["state"] == request.state)
            #expect(try await client.redeem(server, code: code, request: request).status == 200)

            // Remembered: no page the next time.
            let again = try await agent.open(client.authorizePath(.init()))
            #expect(again.parameters["code"] != nil, "consent was not remembered: \(again.text)")

            // prompt=consent asks again; denied: access_denied.
            let asked = TestRelyingParty.Request()
            let page = try await agent.open(client.authorizePath(asked, ["prompt": "consent"]))
            let deny = try #require(page.form("/login/consent", ["decision": "deny"]), "\(page.text)")
            let denied = try await agent.submit(deny)
            #expect(denied.parameters["error"] == "access_denied")
            #expect(denied.parameters["state"] == asked.state)
            #expect(denied.parameters["iss"] == server.baseURL.absoluteString)

            // Another third-party client, never allowed: prompt=none answers consent_required.
            let other = try await server.request(
                "POST", "/oauth2/register",
                headers: ["Content-Type": "application/json", "Authorization": "Bearer \(token.revealed)"],
                body: try JSONSerialization.data(withJSONObject: [
                    "client_name": "Another app", "token_endpoint_auth_method": "none",
                    "redirect_uris": [TestRelyingParty(clientId: "").redirectURI],
                ]))
            let otherId = try #require(
                (try JSONSerialization.jsonObject(with: other.body) as? [String: Any])?["client_id"] as? String)
            let otherClient = TestRelyingParty(clientId: otherId)
            let silent = try await agent.open(otherClient.authorizePath(.init(), ["prompt": "none"]))
            #expect(silent.parameters["error"] == "consent_required")
        }
    }

    @Test("OP-Cancel (the user cancels: access_denied)")
    func cancel() async throws {
        try await withProvider { server, _, agent, client in
            let request = TestRelyingParty.Request()
            let page = try await agent.open(client.authorizePath(request))
            let cancel = try #require(page.form("/login/cancel"))
            let cancelled = try await agent.submit(cancel)
            #expect(cancelled.parameters["error"] == "access_denied")
            #expect(cancelled.parameters["state"] == request.state)
            #expect(cancelled.parameters["iss"] == server.baseURL.absoluteString)
        }
    }

    @Test("OP-Forms-CSRF (a form without its token or from another origin: 403)")
    func forms() async throws {
        try await withProvider { server, _, agent, client in
            let page = try await agent.open(client.authorizePath(.init()))
            let identify = try #require(page.form("/login/identify"))
            let withoutToken = try await agent.submit(identify, ["csrf_token": nil, "identifier": Self.email])
            #expect(withoutToken.status == 403)
            let foreign = try await agent.post("/login/identify", identify.values.merging(["identifier": Self.email]) { $1 }, origin: "http://127.0.0.1:1")
            #expect(foreign.status == 403)
            let noOrigin = try await agent.post("/login/identify", identify.values.merging(["identifier": Self.email]) { $1 }, origin: .some(nil))
            #expect(noOrigin.status == 403)
            let genuine = try await agent.submit(identify, ["identifier": Self.email])
            #expect(genuine.status == 200 && genuine.form("/login/action", ["action": "submitCode"]) != nil)
        }
    }

    @Test("OP-RP-Initiated-Logout (id_token_hint, registered post_logout_redirect_uri, state)")
    func rpInitiatedLogout() async throws {
        try await withProvider { server, _, agent, client in
            let target = "https://rp.example/logged-out"
            try await server.registerRedirectURI(target, kind: "logout")
            let (_, _, tokens) = try await authorize(server, agent, client)
            let hint = try #require(tokens["id_token"] as? String)
            // An unregistered post-logout URI: an error page.
            let wrong = try await agent.open("/oauth2/logout?id_token_hint=\(hint)&post_logout_redirect_uri=https%3A%2F%2Frp.example%2Fother")
            #expect(wrong.status == 400 && wrong.redirect == nil)
            #expect(wrong.text.contains("https://rp.example/other") && wrong.text.contains("You have not been signed out"))
            let anonymous = try await agent.open("/oauth2/logout?post_logout_redirect_uri=https%3A%2F%2Frp.example%2Flogged-out")
            #expect(anonymous.status == 400 && anonymous.text.contains("does not say which application it comes from"))
            let out = try await agent.open("/oauth2/logout?id_token_hint=\(hint)&post_logout_redirect_uri=https%3A%2F%2Frp.example%2Flogged-out&state=s1")
            #expect(out.redirect?.string == target + "?state=s1")
            let after = try await agent.open(client.authorizePath(.init(), ["prompt": "none"]))
            #expect(after.parameters["error"] == "login_required")
        }
    }
}
