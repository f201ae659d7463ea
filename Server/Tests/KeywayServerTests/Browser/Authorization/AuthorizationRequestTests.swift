import Foundation
import KeywayJOSE
import Testing

@testable import KeywayServer

@Suite("Authorization requests: redirect URIs, scopes and parameters")
struct AuthorizationRequestTests {
    static let challenge = PKCE.challenge(for: String(repeating: "v", count: 43))

    static func application(public isPublic: Bool = false, scopes: Set<String>? = nil) -> ApplicationRecord {
        var application = FlowContexts.application
        application.clientType = isPublic ? .public : .confidential
        application.allowedScopes = scopes
        return application
    }

    static func parameters(_ extra: [String: String] = [:]) -> [String: String] {
        var parameters = [
            "client_id": FlowContexts.application.configId, "response_type": "code",
            "redirect_uri": "https://app.example.com/cb", "code_challenge": challenge, "code_challenge_method": "S256",
            "state": "s1", "nonce": "n1", "scope": "openid email",
        ]
        parameters.merge(extra) { $1 }
        return parameters
    }

    @Test func registrationRules() {
        #expect(RedirectURI.problem(with: "https://app.example.com/cb", publicClient: false) == nil)
        #expect(RedirectURI.problem(with: "http://127.0.0.1/cb", publicClient: false) == nil)
        #expect(RedirectURI.problem(with: "http://[::1]:8080/cb", publicClient: false) == nil)
        #expect(RedirectURI.problem(with: "com.example.app:/callback", publicClient: true) == nil)
        #expect(RedirectURI.problem(with: "com.example.app:/callback", publicClient: false) != nil)
        #expect(RedirectURI.problem(with: "myapp:/callback", publicClient: true) != nil)
        #expect(RedirectURI.problem(with: "javascript:alert(1)", publicClient: true) != nil)
        #expect(RedirectURI.problem(with: "http://app.example.com/cb", publicClient: false) != nil)
        #expect(RedirectURI.problem(with: "https://app.example.com/cb#x", publicClient: false) != nil)
        #expect(RedirectURI.problem(with: "https://user:pw@app.example.com/cb", publicClient: false) != nil)
        #expect(RedirectURI.problem(with: "/relative", publicClient: false) != nil)
        #expect(RedirectURI.problem(with: "https://*.example.com/cb", publicClient: false) != nil)
        #expect(RedirectURI.problem(with: "https://app.example.com/c b", publicClient: false) != nil)
    }

    @Test func exactMatchingButTheLoopbackPort() {
        let registered = ["https://app.example.com/cb", "http://127.0.0.1/callback", "http://[::1]/cb?x=1"]
        #expect(RedirectURI.matches("https://app.example.com/cb", registered: registered))
        #expect(!RedirectURI.matches("https://app.example.com/cb/", registered: registered))
        #expect(!RedirectURI.matches("https://app.example.com/cb?x", registered: registered))
        #expect(!RedirectURI.matches("https://APP.example.com/cb", registered: registered))
        #expect(!RedirectURI.matches("https://app.example.com:8443/cb", registered: registered))
        #expect(RedirectURI.matches("http://127.0.0.1:53211/callback", registered: registered))
        #expect(RedirectURI.matches("http://127.0.0.1/callback", registered: registered))
        #expect(!RedirectURI.matches("http://127.0.0.1:53211/callback/x", registered: registered))
        #expect(!RedirectURI.matches("http://127.0.0.1:53211callback", registered: registered))
        #expect(!RedirectURI.matches("http://127.0.0.1.evil.com/callback", registered: registered))
        #expect(RedirectURI.matches("http://[::1]:1234/cb?x=1", registered: registered))
        #expect(!RedirectURI.matches("http://localhost:1234/callback", registered: ["http://localhost/callback"]))
    }

    @Test func scopes() throws {
        let all = Self.application()
        #expect(try Scopes.parse(nil, for: all).get() == ["openid", "email", "offline_access"])
        #expect(try Scopes.parse("openid  phone openid", for: all).get() == ["openid", "phone"])
        #expect(throws: ScopeRefusal.self) { try Scopes.parse("openid address", for: all).get() }
        #expect(throws: ScopeRefusal.self) { try Scopes.parse("openid\"x", for: all).get() }
        let limited = Self.application(scopes: ["openid", "email"])
        #expect(throws: ScopeRefusal.self) { try Scopes.parse("openid offline_access", for: limited).get() }
        #expect(try Scopes.parse(nil, for: limited).get() == ["openid", "email"])
    }

    @Test func aValidRequest() throws {
        let request = try AuthorizationRequest.parse(
            Self.parameters(["prompt": "login consent", "max_age": "300", "login_hint": "a@example.com", "response_mode": "form_post"]),
            application: Self.application(), registered: ["https://app.example.com/cb"]
        ).get()
        #expect(request.scope == ["openid", "email"])
        #expect(request.prompt == [.login, .consent])
        #expect(request.maxAge == 300)
        #expect(request.responseMode == .formPost)
        #expect(request.state == "s1" && request.nonce == "n1" && request.loginHint == "a@example.com")
    }

    /// RFC 9700 §2.1.1: PKCE for public clients; a confidential client may send a nonce instead,
    /// or neither when its application's `requirePkce` is off.
    @Test func aConfidentialClientMaySendANonceInsteadOfPKCE() throws {
        let registered = ["https://app.example.com/cb"]
        var parameters = Self.parameters()
        parameters["code_challenge"] = nil
        parameters["code_challenge_method"] = nil
        let withNonce = try AuthorizationRequest.parse(parameters, application: Self.application(), registered: registered).get()
        #expect(withNonce.codeChallenge == nil && withNonce.nonce == "n1")
        #expect(throws: AuthorizationError.self) {
            try AuthorizationRequest.parse(parameters, application: Self.application(public: true), registered: registered).get()
        }
        parameters["nonce"] = nil
        var confidential = Self.application()
        #expect(throws: AuthorizationError.self) {
            try AuthorizationRequest.parse(parameters, application: confidential, registered: registered).get()
        }
        confidential.requirePkce = false
        #expect(try AuthorizationRequest.parse(parameters, application: confidential, registered: registered).get().codeChallenge == nil)
        var publicClient = Self.application(public: true)
        publicClient.requirePkce = false
        #expect(throws: AuthorizationError.self) {
            try AuthorizationRequest.parse(parameters, application: publicClient, registered: registered).get()
        }
        // A method without a challenge is malformed, whoever sends it.
        parameters["code_challenge_method"] = "S256"
        #expect(throws: AuthorizationError.self) {
            try AuthorizationRequest.parse(parameters, application: confidential, registered: registered).get()
        }
        // With PKCE, the challenge is kept.
        let withPKCE = try AuthorizationRequest.parse(Self.parameters(), application: Self.application(public: true), registered: registered).get()
        #expect(withPKCE.codeChallenge == Self.challenge)
    }

    @Test func redirectURIErrorsAreShownAsAPage() {
        let application = Self.application()
        for uri in [nil, "", "https://evil.example.com/cb", "https://app.example.com/cb#frag"] {
            var parameters = Self.parameters()
            parameters["redirect_uri"] = uri
            guard case .failure(.page(.invalidRedirectURI, _)) = AuthorizationRequest.parse(
                parameters, application: application, registered: ["https://app.example.com/cb"])
            else {
                Issue.record("\(uri ?? "nil") was not refused with a page")
                continue
            }
        }
    }

    @Test func otherErrorsGoToTheClient() {
        let cases: [([String: String], String)] = [
            (["response_type": "token"], "unsupported_response_type"),
            (["code_challenge": ""], "invalid_request"),
            (["code_challenge_method": "plain"], "invalid_request"),
            (["scope": "openid admin"], "invalid_scope"),
            (["prompt": "none login"], "invalid_request"),
            (["prompt": "select_account"], "invalid_request"),
            (["prompt": "bogus"], "invalid_request"),
            (["max_age": "-1"], "invalid_request"),
            (["max_age": "1e3"], "invalid_request"),
            (["response_mode": "fragment"], "invalid_request"),
            (["request": "eyJ..."], "request_not_supported"),
            (["state": String(repeating: "s", count: 3000)], "invalid_request"),
        ]
        for (extra, expected) in cases {
            let result = AuthorizationRequest.parse(
                Self.parameters(extra), application: Self.application(), registered: ["https://app.example.com/cb"])
            guard case .failure(.redirect(let error, _, let uri, _, let state)) = result else {
                Issue.record("\(extra) was not redirected")
                continue
            }
            #expect(error == expected, "\(extra)")
            #expect(uri == "https://app.example.com/cb")
            if extra["state"] == nil { #expect(state == "s1") }
        }
    }

    @Test func formPostTargetsAndOrigins() {
        #expect(PageSecurity.formTarget(of: "https://app.example.com:8443/cb?x=1") == "https://app.example.com:8443")
        #expect(PageSecurity.formTarget(of: "com.example.app:/callback") == "com.example.app:")
        #expect(PageSecurity.formTarget(of: "http://[::1]:80/cb") == "http://[::1]:80")
        let csp = PageSecurity.contentSecurityPolicy(stylesheetOrigin: nil, formTargets: ["https://app.example.com"])
        #expect(csp.contains("frame-ancestors 'none'") && csp.contains("form-action 'self' https://app.example.com"))
        #expect(!csp.contains("unsafe-inline"))
    }

    @Test func answersCarryTheIssuer() {
        let response = AuthorizationResponse.send(
            AuthorizationResponse.success(code: "c d", state: "s&1", issuer: "https://id.example.com"),
            to: "https://app.example.com/cb?tenant=1", mode: .query)
        #expect(response.status == .seeOther)
        #expect(
            response.headers[.location]
                == "https://app.example.com/cb?tenant=1&code=c%20d&state=s%261&iss=https%3A%2F%2Fid.example.com")
    }

    @Test func cookiesOverHTTPS() {
        let secure = BrowserCookies(issuer: "https://id.example.com")
        #expect(secure.sessionName == "__Host-keyway-session" && secure.flowName == "__Host-keyway-flow")
        let cookie = secure.set(secure.sessionName, "v", maxAge: 60)
        #expect(cookie == "__Host-keyway-session=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure")
        let plain = BrowserCookies(issuer: "http://127.0.0.1:8080")
        #expect(plain.set(plain.flowName, "v", maxAge: 60) == "keyway-flow=v; Path=/; Max-Age=60; HttpOnly; SameSite=Lax")
        #expect(plain.clear(plain.flowName).contains("Max-Age=0"))
    }
}
