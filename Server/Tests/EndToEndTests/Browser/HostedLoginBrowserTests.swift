import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// Whether the browser tests can run: Chromium and its driver installed, or required (CI installs
/// them and sets `KEYWAY_REQUIRE_BROWSER=1`, so a missing browser fails there instead of skipping).
enum BrowserAvailability {
    static let required = ProcessInfo.processInfo.environment["KEYWAY_REQUIRE_BROWSER"] == "1"

    static let installed: Bool = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        func found(_ name: String) -> Bool {
            path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
        }
        return (found("chromium") || found("chromium-browser") || found("google-chrome"))
            && (found("chromedriver") || FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"))
    }()

    static var enabled: Bool { required || installed }
}

/// Whether a child process has ended, read while the test waits on something else.
private final class Ended: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

/// End-to-end sign-ins through the hosted pages in a real headless Chromium, driven by an
/// independent relying party (Authlib for OAuth, joserfc for the ID token, Selenium for the
/// browser: `Tests/Interop/browser_rp.py`). Each test starts a real server, sets up its
/// applications, runs one scenario and checks what the relying party reports. One browser at a
/// time: the suite is serialized.
@Suite(
    "Hosted login in a real browser (Authlib relying party, Chromium)", .serialized,
    .enabled(if: BrowserAvailability.enabled, "Chromium and chromedriver are not installed"))
struct HostedLoginBrowserTests {
    static let email = "ada@example.com"

    /// Runs `scenario` of `browser_rp.py` against a fresh server (`policy` set on the dev
    /// application, a second application in its project) and answers the JSON report,
    /// failing the test when the relying party's checks failed. The relying party's pauses are
    /// answered here: `register` (its URIs), `advance-N` (the clock moves N seconds) and
    /// `expire-flow` (past the flow lifetime).
    ///
    /// The server's idle timeout is short: a connection the browser leaves open (a preconnected
    /// socket, a keep-alive) is closed by the server soon after, so the graceful stop at the end
    /// never waits on the browser.
    ///
    /// `setUp` prepares the server further once the policy is set, and may answer a helper
    /// server (an upstream provider) that is stopped when the scenario ends.
    ///
    /// `issuerHost` names the issuer's host (`localhost`, for passkeys, which are bound to a
    /// domain name, never to an address); the browser then visits the server by that name.
    func run(
        _ scenario: String, policy: [String: Any]? = nil, issuerHost: String? = nil,
        setUp: ((TestServer) async throws -> (any ScopedTestServer)?)? = nil
    ) async throws -> [String: Any] {
        let clock = ManualClock()
        return try await withTestServer(
            TestServer.start(clock: clock, adminToken: testAdminToken, idleTimeout: 30, issuerHost: issuerHost)
        ) { server in
            if let policy { try await server.setPolicy(policy) }
            let helper = try await setUp?(server) ?? nil
            do {
                let issuer = issuerHost.map { "http://\($0):\(server.port)" } ?? server.baseURL.absoluteString
                let report = try await drive(scenario, server: server, clock: clock, issuer: issuer)
                await helper?.stop()
                return report
            } catch {
                await helper?.stop()
                throw error
            }
        }
    }

    /// Runs `scenario` against `server`, answering the relying party's pauses.
    private func drive(
        _ scenario: String, server: TestServer, clock: ManualClock, issuer: String
    ) async throws -> [String: Any] {
        let second = try await server.addProjectApplication(name: "Second application")
        let directory = TestFiles.directory.appendingPathComponent("browser-rp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let arguments = [
            "--issuer", issuer, "--client-id", TestServer.configId,
            "--second-client-id", second.configId, "--email", Self.email,
            "--server-time", String(clock.now().timeIntervalSince1970), "--pause-dir", directory.path, scenario,
        ]
        let ended = Ended()
        let started = ContinuousClock.now
        let child = Task {
            defer { ended.set() }
            return try await PythonScript.run("browser_rp.py", arguments, separateErrors: true, timeout: .seconds(300))
        }
        var answered: Set<String> = []
        while !ended.isSet {
            var pending: URL?
            try await waitUntil("the relying party pauses or ends", timeout: .seconds(300)) {
                pending = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                    .first { $0.pathExtension == "ready" && !answered.contains($0.lastPathComponent) }
                return pending != nil || ended.isSet
            }
            guard let pending else { break }
            answered.insert(pending.lastPathComponent)
            let name = pending.deletingPathExtension().lastPathComponent
            let payload = try Data(contentsOf: pending)
            switch name {
            case "register":
                let uris = try JSONSerialization.jsonObject(with: payload) as? [String: String] ?? [:]
                // Registered without the port: a loopback redirect URI matches any (RFC 8252 §7.3).
                for configId in [TestServer.configId, second.configId] {
                    try await server.registerRedirectURI("http://127.0.0.1/callback", configId: configId)
                    try await server.registerRedirectURI(try #require(uris["logout"]), kind: "logout", configId: configId)
                }
                #expect(uris["login"]?.hasPrefix("http://127.0.0.1:") == true)
            case "expire-flow":
                clock.advance(by: 15 * 60 + 60)
            case "remove-passkeys":
                try await server.execute("DELETE FROM passkey_credentials")
            case let advance where advance.hasPrefix("advance-"):
                clock.advance(by: try #require(TimeInterval(advance.dropFirst("advance-".count))))
            default:
                Issue.record("Unknown pause \(name)")
            }
            try Data().write(to: directory.appendingPathComponent("\(name).go"))
        }
        let (status, output) = try await child.value
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let report = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        #expect(status == 0, "\(scenario): \(report["error"] ?? output)\n\(report["page"] ?? "")\n\(report["trace"] ?? "")")
        #expect(report["ok"] as? Bool == true)
        print("browser scenario \(scenario) took \(started.duration(to: .now)): \(line)")
        return report
    }

    @Test("Signing in by an email code")
    func emailCode() async throws {
        let report = try await run("email-code")
        #expect(report["pages"] as? [String] == ["identify", "submitCode"])
        #expect((report["nonce"] as? String)?.isEmpty == false)
        #expect(report["auth_time"] is Int)
        #expect(report["has_refresh_token"] as? Bool == true)
    }

    @Test("Signing up with a password and an authenticator, then signing in with both")
    func passwordAndAuthenticator() async throws {
        let report = try await run(
            "password-totp",
            policy: [
                "primaryMethods": ["password"], "mfaMethods": ["totp"], "mfaMode": "required",
                "flowTypes": ["signin", "signup"],
            ])
        let signIn = try #require(report["signin_pages"] as? [String])
        #expect(signIn.contains("submitPassword") && signIn.contains("submitTotp"))
        #expect(!signIn.contains("submitForm"))
    }

    @Test("Use another method: from the password page back to the choice, then an email code")
    func anotherMethod() async throws {
        let report = try await run(
            "another-method", policy: ["primaryMethods": ["emailOtp", "password"], "flowTypes": ["signin", "signup"]])
        #expect(report["pages"] as? [String] == ["selectMethod:emailOtp", "submitCode"])
        #expect(report["amr"] as? [String] == ["otp"])
    }

    @Test("Forgot password?: a code to the address and a new password sign in; the old password is refused after")
    func passwordReset() async throws {
        let report = try await run(
            "password-reset", policy: ["primaryMethods": ["emailOtp", "password"], "flowTypes": ["signin", "signup"]])
        #expect(report["amr"] as? [String] == ["otp"])
        #expect(report["amrAfter"] as? [String] == ["pwd"])
        #expect(report["sub"] as? String == report["subAfter"] as? String)
    }

    @Test("The account page at 1280 and 375 px: its sections, this browser, signing out apart; the password changed")
    func accountPortal() async throws {
        let report = try await run(
            "account",
            policy: ["primaryMethods": ["emailOtp", "password"], "flowTypes": ["signin", "signup", "accountManage"]])
        #expect(report["widths"] as? [Int] == [1280, 375])
        #expect((report["verification"] as? [String])?.last == "submitCode")
        #expect(report["changed"] as? Bool == true)
        #expect(report["signedOut"] as? Bool == true)
    }

    /// The provider is another site (`localhost`) than the server (`127.0.0.1`): the browser comes
    /// back from it with the visit's `SameSite=Lax` cookie, as from a real provider.
    @Test("Another provider's button: Chromium goes to an independent provider and back through the pages")
    func anotherProvider() async throws {
        let report = try await run("federation", policy: ["primaryMethods": ["emailOtp"]]) { server in
            try await FederationKeywayUpstreamTests.createAccount(server, email: Self.email)
            let provider = try await PythonOIDCProvider.start(
                redirectURI: "\(server.baseURL.absoluteString)/v1/federation/callback", subject: "py-browser-1",
                email: Self.email, hostName: "localhost")
            let application = try await server.admin("GET", "/admin/applications/\(TestServer.configId)")
            let projectId = try #require(application.json["projectId"] as? String)
            let added = try await server.admin(
                "POST", "/admin/projects/\(projectId)/identity-providers",
                ["id": "python", "issuer": provider.issuer, "clientId": provider.clientId,
                 "clientSecret": provider.clientSecret, "label": "Continue with Python"])
            #expect(added.status == 201, "\(added.json)")
            try await server.setPolicy(["primaryMethods": ["emailOtp"], "federation": ["providers": ["python"]]])
            return provider
        }
        #expect(report["pages"] as? [String] == ["identify", "selectMethod:federation:python"])
        #expect(report["label"] as? String == "Continue with Python")
        #expect((report["amr"] as? [String])?.contains("fed") == true)
    }

    /// The link's page allows the redirect its Continue ends in: Chromium applies `form-action`
    /// to the redirect after a post, and used to stop there with the link already spent.
    @Test("A sign-in link opened in the browser of its own hosted sign-in goes on to the relying party")
    func signInLinkInTheSameBrowser() async throws {
        let report = try await run(
            "sign-in-link", policy: ["primaryMethods": ["signInLink"], "signInLink": ["pollIntervalSeconds": 1]])
        #expect(report["amr"] as? [String] == ["otp"])
        #expect((report["url"] as? String)?.hasSuffix("/callback") == true, "\(report)")
    }

    /// Chromium's virtual authenticator (the WebDriver WebAuthn commands) on the hosted pages.
    @Test("Passkeys: made on the pages after a sign-in, then signing in from the identifier page")
    func passkeys() async throws {
        let policy: [String: Any] = [
            "primaryMethods": ["passkey", "emailOtp"], "passkeys": ["offerAfterSignIn": true, "userVerification": "required"],
        ]
        let report = try await run("passkey", policy: policy, issuerHost: "localhost")
        #expect(report["pages"] as? [String] == ["identify", "selectMethod:emailOtp", "submitCode", "registerPasskey"])
        #expect(report["credentials"] as? Int == 1)
        let amr = report["amr"] as? [String] ?? []
        #expect(amr.contains("user") && (amr.contains("hwk") || amr.contains("swk")), "amr \(amr)")
    }

    @Test("Signing up through the form (prompt=create)")
    func signUpForm() async throws {
        let report = try await run(
            "sign-up",
            policy: [
                "primaryMethods": ["emailOtp"], "flowTypes": ["signin", "signup"],
                "signup": [
                    "profileFields": [["name": "displayName", "kind": "text", "label": "Name", "required": true, "maxLength": 60]]
                ],
            ])
        let pages = try #require(report["pages"] as? [String])
        #expect(pages.first == "identify" && pages.contains("submitForm"))
        #expect(report["email"] as? String == Self.email)
    }

    @Test("response_mode=form_post: the page's own script posts the response to the relying party")
    func formPost() async throws {
        let report = try await run("form-post")
        #expect(report["method"] as? String == "POST")
        #expect(report["fields"] as? [String] == ["code", "iss", "state"])
    }

    @Test("Single sign-on: a second application of the project gets a code without a page")
    func singleSignOn() async throws {
        let report = try await run("sso")
        #expect(report["sub"] is String)
    }

    @Test("prompt=none: login_required without a session, a code with one")
    func promptNone() async throws {
        let report = try await run("prompt-none")
        #expect(report["without_session"] as? String == "login_required")
    }

    @Test("prompt=login signs in again though the browser is signed in")
    func promptLogin() async throws {
        let report = try await run("prompt-login")
        let first = try #require(report["first_auth_time"] as? Int)
        #expect(try #require(report["second_auth_time"] as? Int) >= first + 5)
    }

    @Test("max_age: a younger session is reused, an older one signs in again")
    func maxAge() async throws {
        let report = try await run("max-age")
        let first = try #require(report["first_auth_time"] as? Int)
        #expect(try #require(report["second_auth_time"] as? Int) >= first + 120)
    }

    @Test("login_hint prefills the identifier")
    func loginHint() async throws {
        let report = try await run("login-hint")
        #expect(report["prefilled"] as? String == Self.email)
    }

    @Test("Logout: with an ID token hint straight back with state; without one, a confirmation first")
    func logout() async throws {
        let report = try await run("logout")
        #expect(report["without_hint"] as? String == "confirmed")
    }

    @Test("An unregistered redirect URI: an error page, no redirect")
    func wrongRedirectURI() async throws {
        let report = try await run("wrong-redirect-uri")
        #expect(report["status"] as? Int == 400)
    }

    @Test("A replayed code: invalid_grant, and the first redemption's tokens are revoked")
    func replayedCode() async throws {
        let report = try await run("code-replay")
        #expect(report["second_redemption"] as? String == "invalid_grant")
        #expect(report["userinfo_after"] as? Int == 401)
    }

    @Test("CSRF: a form without its token or from another origin is refused (403)")
    func crossSiteRequestForgery() async throws {
        let report = try await run("csrf")
        #expect(report["without_token"] as? Int == 403)
        #expect(report["other_origin"] as? Int == 403)
        #expect(report["without_origin"] as? Int == 403)
        #expect((report["browser_cross_origin"] as? String)?.contains("This form was refused") == true)
    }

    @Test("A sign-in left past the flow lifetime shows the expired page")
    func expiredFlow() async throws {
        let report = try await run("expired-flow")
        #expect((report["text"] as? String)?.contains("This sign-in expired") == true)
        #expect(report["reload_status"] as? Int == 410)
    }
}
