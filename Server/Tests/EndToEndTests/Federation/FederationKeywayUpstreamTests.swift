import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import KeywayTestSupport
import Testing

/// One `keyway-server` signing its users in with another one, over real HTTP: the upstream server
/// is a standard OpenID Provider (discovery, `/oauth2/authorize` and its hosted pages, the token
/// endpoint, its key set), the downstream one a standard relying party of it (the `federation`
/// method). The downstream flow runs through the SDK; the test plays the browser on the
/// upstream's hosted pages, signing in with an email code read from the upstream's dev outbox.
@Suite("Federation: a Keyway server as the upstream provider of another")
struct FederationKeywayUpstreamTests {
    static let email = "ada@example.com"
    static let appRedirect = "com.example.app:/callback"

    /// Signs `email` in once through the test application with an email code, which creates the
    /// account with its address verified.
    static func createAccount(_ server: TestServer, email: String) async throws {
        let (flow, _) = try await FederationFlowTests.RawFlow.start(server, identifier: email)
        let done = try await flow.post("code", ["code": try await server.latestCode(to: email)])
        #expect(done.json["kind"] as? String == "completed", "\(done.json)")
    }

    @Test("The downstream signs in through the upstream's hosted pages; its tokens and the linked identity")
    func signsInThroughAnotherKeywayServer() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { upstream in
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { downstream in
            let issuer = upstream.baseURL.absoluteString

            // Upstream: the account, and a confidential application for the downstream server
            // whose redirect URI is the downstream's browser callback.
            try await Self.createAccount(upstream, email: Self.email)
            let (clientId, secret) = try await upstream.addProjectApplication(name: "Downstream", confidential: true)
            let clientSecret = try #require(secret)
            try await upstream.registerRedirectURI("\(downstream.baseURL.absoluteString)/v1/federation/callback", configId: clientId)
            let policy = try await upstream.request(
                "PUT", "/admin/applications/\(clientId)/policy",
                headers: ["Authorization": "Bearer \(testAdminToken)", "Content-Type": "application/json"],
                body: try JSONSerialization.data(withJSONObject: ["primaryMethods": ["emailOtp"]]))
            #expect(policy.status == 200, "\(String(decoding: policy.body, as: UTF8.self))")
            let found = try await upstream.admin("GET", "/admin/users?email=\(Self.email)")
            let upstreamUser = try #require(
                (found.json["users"] as? [[String: Any]])?.first?["id"] as? String, "\(found.json)")

            // Downstream: the same address, verified; the upstream as a generic provider.
            try await Self.createAccount(downstream, email: Self.email)
            let application = try await downstream.admin("GET", "/admin/applications/\(TestServer.configId)")
            let projectId = try #require(application.json["projectId"] as? String)
            let added = try await downstream.admin(
                "POST", "/admin/projects/\(projectId)/identity-providers",
                ["id": "upstream", "preset": "generic", "issuer": issuer, "clientId": clientId, "clientSecret": clientSecret,
                 "scopes": ["openid", "email"], "label": "Continue with Upstream"])
            #expect(added.status == 201, "\(added.json)")
            try await downstream.setPolicy(["primaryMethods": ["emailOtp"], "federation": ["providers": ["upstream"]]])
            try await downstream.registerLoginRedirectURI(Self.appRedirect)

            // The downstream's flow, through the SDK: the provider's redirect.
            let keyway = try KeywayClient(
                configID: TestServer.configId, baseURL: downstream.baseURL,
                options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient))
            await keyway.flow.start(
                identifier: Self.email, options: FlowStartOptions(redirectURI: URL(string: Self.appRedirect)!))
            await keyway.flow.selectMethod(id: "federation:upstream")
            guard case (let url, let returnScheme, let shown)? = keyway.flow.currentUpdate.prompt?.redirect else {
                throw TestFailure("\(keyway.flow.currentUpdate)")
            }
            #expect(returnScheme == "com.example.app" && shown.id == "upstream")
            #expect(url.absoluteString.hasPrefix("\(issuer)/oauth2/authorize?"), "\(url)")

            // The browser on the upstream's hosted pages: the identifier, the email code.
            let agent = PageAgent(server: upstream)
            let (page, steps) = try await agent.signIn(from: try await agent.open(url.absoluteString), email: Self.email)
            #expect(steps == ["identify", "submitCode"])
            let back = try #require(page.redirect, "\(page.status) \(page.text)")
            #expect(back.port == downstream.port && back.path == "/v1/federation/callback")
            #expect(page.parameters["iss"] == issuer)

            // The upstream's answer at the downstream's callback, which sends the browser to the app.
            let callback = try await downstream.request("GET", "\(back.path)?\(back.percentEncodedQuery ?? "")")
            #expect(callback.status == 303, "\(String(decoding: callback.body, as: UTF8.self))")
            let returned = try #require(callback.headers["location"].flatMap(URL.init(string:)))
            #expect(returned.scheme == "com.example.app")

            // The app hands the return to the flow: signed in, the identity linked by the
            // upstream's verified address.
            await keyway.flow.oauthCallback(url: returned)
            guard case .completed = keyway.flow.currentUpdate else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            let tokens = try await keyway.tokens.exchange(try #require(await keyway.flow.completion))
            #expect(tokens.idToken.email == Self.email)
            #expect(tokens.idToken.authenticationMethods.contains("fed"), "\(tokens.idToken.authenticationMethods)")
            #expect(
                try await downstream.rowCount(
                    "federated_identities WHERE provider_id = 'upstream' AND issuer = '\(issuer)' AND subject = '\(upstreamUser)'"
                        + " AND email = '\(Self.email)'") == 1)
            #expect(try await downstream.rowCount("users") == 1)
        }
        }
    }
}
