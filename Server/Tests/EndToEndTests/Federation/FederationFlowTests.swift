import Foundation
import KeywayJOSE
import KeywayProtocol
import KeywayTestSupport
import Testing

/// Signing in with an upstream OpenID Connect provider (a stand-in on loopback), over real HTTP:
/// the `federation:<id>` choice, the `redirect` step, the callback, linking by verified email, a
/// known identity, refusals, and a provider that is down.
@Suite("Federation: signing in with an upstream provider")
struct FederationFlowTests {
    static let json = ["Content-Type": "application/json", "X-Keyway-Config-Id": TestServer.configId]

    /// A raw flow client: the flow's ID and token.
    struct RawFlow {
        /// The PKCE verifier of every flow these tests start.
        static let verifier = "verifier-0123456789-0123456789-0123456789-abc"

        let server: TestServer
        let id: String
        let token: String

        static func start(_ server: TestServer, identifier: String, redirectURI: String? = nil) async throws
            -> (RawFlow, [String: Any])
        {
            var body: [String: Any] = [
                "flowType": "signin", "identifier": identifier, "codeChallenge": PKCE.challenge(for: RawFlow.verifier),
                "codeChallengeMethod": "S256",
            ]
            body["redirectUri"] = redirectURI
            let response = try await server.request(
                "POST", "/v1/flows", headers: FederationFlowTests.json, body: try JSONSerialization.data(withJSONObject: body))
            let step = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
            guard response.status == 201 || response.status == 200, let id = step["flowId"] as? String,
                let token = step["flowToken"] as? String
            else { throw TestFailure("The flow did not start: \(response.status) \(step)") }
            return (RawFlow(server: server, id: id, token: token), step)
        }

        func post(_ path: String, _ body: [String: Any]) async throws -> (status: Int, json: [String: Any]) {
            var headers = FederationFlowTests.json
            headers["X-Keyway-Flow-Token"] = token
            let response = try await server.request(
                "POST", "/v1/flows/\(id)/\(path)", headers: headers, body: try JSONSerialization.data(withJSONObject: body))
            return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
        }

        func get() async throws -> [String: Any] {
            var headers = FederationFlowTests.json
            headers["X-Keyway-Flow-Token"] = token
            let response = try await server.request("GET", "/v1/flows/\(id)", headers: headers)
            return (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        }
    }

    /// A server whose test application offers email codes and the stand-in provider (`acme`),
    /// with an account for ada@example.com whose address is verified.
    func prepare(_ server: TestServer, provider: StandInOIDCProvider) async throws {
        provider.follow(server.clock)
        // The account: a first sign-in by email code creates it, verified.
        let (first, _) = try await RawFlow.start(server, identifier: "ada@example.com")
        let code = try await server.latestCode(to: "ada@example.com")
        let signedIn = try await first.post("code", ["code": code])
        #expect(signedIn.json["kind"] as? String == "completed", "\(signedIn.json)")

        let application = try await server.admin("GET", "/admin/applications/\(TestServer.configId)")
        let projectId = try #require(application.json["projectId"] as? String)
        let added = try await server.admin(
            "POST", "/admin/projects/\(projectId)/identity-providers",
            ["id": "acme", "issuer": provider.issuer, "clientId": provider.clientId, "clientSecret": provider.clientSecret,
             "label": "Continue with Acme", "iconURL": "https://cdn.example.com/acme.svg"])
        #expect(added.status == 201, "\(added.json)")
        let down = try await server.admin(
            "POST", "/admin/projects/\(projectId)/identity-providers",
            ["id": "down", "issuer": "http://127.0.0.1:9", "clientId": "c", "clientSecret": "s", "label": "Continue with Down"])
        #expect(down.status == 201, "\(down.json)")
        try await server.setPolicy(["primaryMethods": ["emailOtp"], "federation": ["providers": ["acme", "down"]]])
    }

    /// Starts a flow, chooses the provider and answers its `redirect` step's URL.
    func redirect(_ server: TestServer, identifier: String = "ada@example.com") async throws -> (RawFlow, String) {
        let (flow, step) = try await RawFlow.start(server, identifier: identifier)
        #expect(step["kind"] as? String == "selectMethod", "\(step)")
        let chosen = try await flow.post("method", ["methodId": "federation:acme"])
        #expect(chosen.status == 200, "\(chosen.json)")
        #expect(chosen.json["kind"] as? String == "redirect", "\(chosen.json)")
        let payload = try #require(chosen.json["redirect"] as? [String: Any])
        return (flow, try #require(payload["url"] as? String))
    }

    @Test func linksByVerifiedEmailThenSignsTheIdentityInAndRefusesForgeriesAndReplays() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)

            // The choice lists both providers with their labels and icons.
            let (flow, step) = try await RawFlow.start(server, identifier: "ada@example.com")
            let methods = try #require((step["selectMethod"] as? [String: Any])?["methods"] as? [[String: Any]])
            #expect(methods.map { $0["id"] as? String } == ["emailOtp", "federation:acme", "federation:down"])
            let acme = try #require(methods.first { $0["id"] as? String == "federation:acme" })
            #expect(acme["type"] as? String == "federation" && acme["label"] as? String == "Continue with Acme")
            #expect((acme["provider"] as? [String: Any])?["iconURL"] as? String == "https://cdn.example.com/acme.svg")

            // A provider that is down: method_unavailable, and the choice is still there.
            let unavailable = try await flow.post("method", ["methodId": "federation:down"])
            #expect(unavailable.status == 503 && unavailable.json["code"] as? String == "method_unavailable", "\(unavailable.json)")
            let still = try await flow.get()
            #expect(still["kind"] as? String == "selectMethod", "\(still)")

            // The redirect: the provider's endpoint with state, nonce, PKCE S256 and Keyway's callback.
            let chosen = try await flow.post("method", ["methodId": "federation:acme"])
            #expect(chosen.json["kind"] as? String == "redirect", "\(chosen.json)")
            let payload = try #require(chosen.json["redirect"] as? [String: Any])
            // Without a redirect URI the browser comes back over https.
            #expect(payload["returnScheme"] as? String == "https")
            #expect((payload["provider"] as? [String: Any])?["id"] as? String == "acme")
            let url = try #require(payload["url"] as? String)
            #expect(url.hasPrefix("\(provider.issuer)/authorize?"))
            let items = URLComponents(string: url)?.queryItems ?? []
            #expect(items.first { $0.name == "redirect_uri" }?.value?.hasSuffix("/v1/federation/callback") == true)
            #expect(items.first { $0.name == "code_challenge_method" }?.value == "S256")
            #expect((items.first { $0.name == "state" }?.value?.count ?? 0) >= 43)

            // A forged state is refused and changes nothing.
            let forged = try await flow.post("federation/callback", ["code": "whatever", "state": "fst_forged"])
            #expect(forged.status == 400 && forged.json["code"] as? String == "invalid_state", "\(forged.json)")

            // The provider vouches for the address, which the account verified: linked, signed in.
            let (code, state) = try provider.issueCode(
                for: ["sub": .string("acme-user-1"), "email": .string("Ada@example.com"), "email_verified": .bool(true)],
                authorizationURL: url)
            let done = try await flow.post("federation/callback", ["url": "com.example.app:/callback?code=\(code)&state=\(state)"])
            #expect(done.status == 200 && done.json["kind"] as? String == "completed", "\(done.json)")
            #expect(try await server.rowCount("federated_identities") == 1)

            // The same callback again: no second link, no second token request, no server error.
            let replay = try await flow.post("federation/callback", ["code": code, "state": state])
            #expect(replay.status < 500, "\(replay.json)")
            #expect(try await server.rowCount("federated_identities") == 1)
            #expect(provider.tokenRequestCount == 1)

            // A state of another flow is refused in this one.
            let (other, otherURL) = try await redirect(server)
            let (third, _) = try await redirect(server)
            let (otherCode, otherState) = try provider.issueCode(
                for: ["sub": .string("acme-user-1")], authorizationURL: otherURL)
            let crossed = try await third.post("federation/callback", ["code": otherCode, "state": otherState])
            #expect(crossed.status == 400 && crossed.json["code"] as? String == "invalid_state", "\(crossed.json)")

            // The linked identity signs in again, even without an address in its token.
            let again = try await other.post("federation/callback", ["code": otherCode, "state": otherState])
            #expect(again.json["kind"] as? String == "completed", "\(again.json)")
            #expect(try await server.rowCount("federated_identities") == 1)
        }
        }
    }

    /// The stand-in publishes its one key without `kid`: the token still verifies, and the
    /// unverified address asks to sign in to the account first, linking nothing yet.
    @Test func neverLinksOnAnUnverifiedAddress() async throws {
        try await withTestServer(StandInOIDCProvider(kid: nil).start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)
            let (flow, url) = try await redirect(server)
            let (code, state) = try provider.issueCode(
                for: ["sub": .string("acme-user-2"), "email": .string("ada@example.com"), "email_verified": .bool(false)],
                authorizationURL: url)
            let step = try await flow.post("federation/callback", ["code": code, "state": state])
            #expect(step.status == 200 && step.json["kind"] as? String == "linkAccount", "\(step.json)")
            #expect(try await server.rowCount("federated_identities") == 0)
        }
        }
    }

    @Test func refusesAnIDTokenWithTheWrongNonceOrAudience() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)
            let (flow, url) = try await redirect(server)
            let (code, state) = try provider.issueCode(
                for: ["sub": .string("acme-user-1"), "email": .string("ada@example.com"), "email_verified": .bool(true),
                      "aud": .string("someone-else")],
                authorizationURL: url)
            let refused = try await flow.post("federation/callback", ["code": code, "state": state])
            #expect(refused.status == 502 && refused.json["code"] as? String == "federation_failed", "\(refused.json)")
            #expect((refused.json["detail"] as? String)?.contains("another client") == true, "\(refused.json)")
            #expect(try await server.rowCount("federated_identities") == 0)
        }
        }
    }

    @Test func accountManagementListsAndUnlinksIdentitiesButNeverTheLastWayIn() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)
            try await server.setPolicy([
                "primaryMethods": ["emailOtp"], "flowTypes": ["signin", "accountManage"],
                "federation": ["providers": ["acme"]],
            ])
            let (flow, url) = try await redirect(server)
            let (code, state) = try provider.issueCode(
                for: ["sub": .string("acme-user-1"), "email": .string("ada@example.com"), "email_verified": .bool(true)],
                authorizationURL: url)
            let done = try await flow.post("federation/callback", ["code": code, "state": state])
            let authCode = try #require((done.json["completed"] as? [String: Any])?["authCode"] as? String, "\(done.json)")
            let tokens = try await server.token([
                "grant_type": "authorization_code", "code": authCode, "client_id": TestServer.configId,
                "code_verifier": RawFlow.verifier,
            ])
            let accessToken = try #require(tokens.json["access_token"] as? String, "\(tokens.json)")

            let start = try await server.request(
                "POST", "/v1/flows",
                headers: FederationFlowTests.json.merging(["Authorization": "Bearer \(accessToken)"]) { $1 },
                body: try JSONSerialization.data(withJSONObject: [
                    "flowType": "accountManage", "identifier": "ada@example.com",
                    "codeChallenge": PKCE.challenge(for: RawFlow.verifier), "codeChallengeMethod": "S256",
                ]))
            let step = (try? JSONSerialization.jsonObject(with: start.body)) as? [String: Any] ?? [:]
            #expect(step["kind"] as? String == "manageAccount", "\(step)")
            let manage = RawFlow(
                server: server, id: try #require(step["flowId"] as? String), token: try #require(step["flowToken"] as? String))
            let linked = try #require((step["manageAccount"] as? [String: Any])?["linkedIdentities"] as? [[String: Any]])
            #expect(linked.count == 1)
            #expect(linked.first?["providerId"] as? String == "acme")
            #expect(linked.first?["label"] as? String == "Continue with Acme")
            #expect(linked.first?["email"] as? String == "ada@example.com")
            let identityId = try #require(linked.first?["id"] as? String)
            #expect((step["actions"] as? [[String: Any]])?.contains { $0["name"] as? String == "unlinkIdentity" } == true)

            // Under a policy where the identity is the only way in, it stays.
            try await server.setPolicy([
                "primaryMethods": ["password"], "flowTypes": ["signin", "signup", "accountManage"],
                "federation": ["providers": ["acme"]],
            ])
            let refused = try await manage.post("manage/unlinkIdentity", ["identityId": identityId])
            #expect(refused.status == 400, "\(refused.json)")
            #expect("\(refused.json)".contains("last way to sign in"), "\(refused.json)")
            #expect(try await server.rowCount("federated_identities") == 1)

            // With email codes the account has another way in: unlinked.
            try await server.setPolicy([
                "primaryMethods": ["emailOtp"], "flowTypes": ["signin", "accountManage"],
                "federation": ["providers": ["acme"]],
            ])
            let unknown = try await manage.post("manage/unlinkIdentity", ["identityId": "fid_nope"])
            #expect(unknown.status == 400, "\(unknown.json)")
            // Unlinking takes a way in away: a fresh verification first, and only then the change.
            let asked = try await manage.post("manage/unlinkIdentity", ["identityId": identityId])
            #expect(asked.status == 200 && asked.json["kind"] as? String == "enterCode", "\(asked.json)")
            #expect(try await server.rowCount("federated_identities") == 1)
            let unlinked = try await manage.post("code", ["code": try await server.latestCode(to: "ada@example.com")])
            #expect(unlinked.status == 200 && unlinked.json["kind"] as? String == "manageAccount", "\(unlinked.json)")
            #expect((unlinked.json["manageAccount"] as? [String: Any])?["linkedIdentities"] == nil)
            #expect(try await server.rowCount("federated_identities") == 0)
        }
        }
    }

    @Test func theBrowserCallbackVerifiesOnceAndSendsTheBrowserToTheApp() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)
            try await server.registerLoginRedirectURI("com.example.app:/callback")
            let (flow, step) = try await RawFlow.start(server, identifier: "ada@example.com", redirectURI: "com.example.app:/callback")
            #expect(step["kind"] as? String == "selectMethod", "\(step)")
            let chosen = try await flow.post("method", ["methodId": "federation:acme"])
            let payload = try #require(chosen.json["redirect"] as? [String: Any], "\(chosen.json)")
            #expect(payload["returnScheme"] as? String == "com.example.app")
            let url = try #require(payload["url"] as? String)
            let (code, state) = try provider.issueCode(
                for: ["sub": .string("acme-user-1"), "email": .string("ada@example.com"), "email_verified": .bool(true)],
                authorizationURL: url)

            // The provider sends the browser back as a form (form_post), twice: the same way both times.
            let form = Data("code=\(code)&state=\(state)".utf8)
            let formType = ["Content-Type": "application/x-www-form-urlencoded"]
            let first = try await server.request("POST", "/v1/federation/callback", headers: formType, body: form)
            let second = try await server.request("POST", "/v1/federation/callback", headers: formType, body: form)
            #expect(first.status == 303 && second.status == 303, "\(first.status) \(second.status)")
            let location = try #require(first.headers["location"])
            #expect(location == second.headers["location"])
            #expect(location.hasPrefix("com.example.app:/callback?state="))
            #expect(provider.tokenRequestCount == 1)
            #expect(try await server.rowCount("federated_identities") == 0)

            // A forged state: refused.
            let forged = try await server.request("GET", "/v1/federation/callback?code=x&state=fst_forged")
            #expect(forged.status == 400)

            // The app sends the URL it received: signed in, linked by the verified address.
            let done = try await flow.post("federation/callback", ["url": location])
            #expect(done.json["kind"] as? String == "completed", "\(done.json)")
            #expect(try await server.rowCount("federated_identities") == 1)
            let again = try await flow.post("federation/callback", ["url": location])
            #expect(again.status < 500, "\(again.json)")
            #expect(try await server.rowCount("federated_identities") == 1)

            // The provider's redirect delivered once more after completion: the same way, nothing new.
            let late = try await server.request("POST", "/v1/federation/callback", headers: formType, body: form)
            #expect(late.status == 303 && late.headers["location"] == location, "\(late.status)")
            #expect(provider.tokenRequestCount == 1)
            #expect(try await server.rowCount("federated_identities") == 1)
            #expect(try await server.rowCount("sessions") == 2)
        }
        }
    }

    @Test func appleAnswersWithAFormAndGivesTheNameOnlyOnce() async throws {
        try await withTestServer(StandInOIDCProvider().start()) { provider in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            try await prepare(server, provider: provider)
            let application = try await server.admin("GET", "/admin/applications/\(TestServer.configId)")
            let projectId = try #require(application.json["projectId"] as? String)
            let added = try await server.admin(
                "POST", "/admin/projects/\(projectId)/identity-providers",
                ["id": "apple", "preset": "apple", "issuer": provider.issuer, "clientId": provider.clientId,
                 "clientSecret": provider.clientSecret, "label": "Continue with Apple"])
            #expect(added.status == 201, "\(added.json)")
            try await server.setPolicy(["primaryMethods": ["emailOtp"], "federation": ["providers": ["apple"]]])
            try await server.registerLoginRedirectURI("com.example.app:/callback")

            for (round, user) in [(1, #"{"name":{"firstName":"Ada","lastName":"Lovelace"},"email":"x1@privaterelay.appleid.com"}"#), (2, nil)] {
                let (flow, _) = try await RawFlow.start(server, identifier: "ada@example.com", redirectURI: "com.example.app:/callback")
                let chosen = try await flow.post("method", ["methodId": "federation:apple"])
                let url = try #require((chosen.json["redirect"] as? [String: Any])?["url"] as? String, "\(chosen.json)")
                #expect(URLComponents(string: url)?.queryItems?.first { $0.name == "response_mode" }?.value == "form_post")
                let (code, state) = try provider.issueCode(
                    for: ["sub": .string("apple-000123"), "email": .string("ada@example.com"), "email_verified": .string("true")],
                    authorizationURL: url)
                var body = "code=\(code)&state=\(state)"
                if let user { body += "&user=" + user.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
                let back = try await server.request(
                    "POST", "/v1/federation/callback", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                    body: Data(body.utf8))
                let location = try #require(back.headers["location"], "round \(round): \(back.status)")
                let done = try await flow.post("federation/callback", ["url": location])
                #expect(done.json["kind"] as? String == "completed", "round \(round): \(done.json)")
            }
            // The name of the first sign-in is kept.
            #expect(try await server.rowCount("federated_identities WHERE name = 'Ada Lovelace'") == 1)
        }
        }
    }
}
