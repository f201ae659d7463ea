import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayTestSupport
import Testing

/// Signing in through an independent OpenID Connect provider written in Python
/// (`Tests/Interop/oidc_provider.py`: RS256 ID tokens, `client_secret_post`, PKCE S256), over
/// real HTTP through the SDK; then the provider goes down, and a server that has not cached its
/// discovery document answers `method_unavailable` while the other methods stay offered.
@Suite("Federation: an independent Python provider")
struct FederationPythonProviderTests {
    static let email = "ada@example.com"
    static let appRedirect = "com.example.app:/callback"

    @Test("The SDK signs in through the Python provider; once it is down, method_unavailable")
    func signsInThroughAnIndependentProviderThenItGoesDown() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
        try await withTestServer(
            PythonOIDCProvider.start(
                redirectURI: "\(server.baseURL.absoluteString)/v1/federation/callback", subject: "py-user-7",
                email: Self.email)
        ) { provider in
            try await FederationKeywayUpstreamTests.createAccount(server, email: Self.email)
            let application = try await server.admin("GET", "/admin/applications/\(TestServer.configId)")
            let projectId = try #require(application.json["projectId"] as? String)
            let added = try await server.admin(
                "POST", "/admin/projects/\(projectId)/identity-providers",
                ["id": "python", "preset": "generic", "issuer": provider.issuer, "clientId": provider.clientId,
                 "clientSecret": provider.clientSecret, "label": "Continue with Python"])
            #expect(added.status == 201, "\(added.json)")
            try await server.setPolicy(["primaryMethods": ["emailOtp"], "federation": ["providers": ["python"]]])
            try await server.registerLoginRedirectURI(Self.appRedirect)

            // The SDK's flow: the provider's redirect.
            let keyway = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL,
                options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient))
            await keyway.flow.start(identifier: Self.email, options: FlowStartOptions(redirectURI: URL(string: Self.appRedirect)!))
            await keyway.flow.selectMethod(id: "federation:python")
            guard case (let url, _, let shown)? = keyway.flow.currentUpdate.prompt?.redirect else {
                throw TestFailure("\(keyway.flow.currentUpdate)")
            }
            #expect(shown.label == "Continue with Python")
            #expect(url.absoluteString.hasPrefix("\(provider.issuer)/authorize?"))

            // The browser: the provider signs its user in at once and redirects to Keyway's callback.
            let authorize = try await RawHTTPClient.send(
                method: "GET", host: "127.0.0.1", port: provider.port, path: "/authorize?\(url.query ?? "")",
                headers: ["Host": "127.0.0.1:\(provider.port)"], body: nil)
            #expect(authorize.status == 302, "\(String(decoding: authorize.body, as: UTF8.self))")
            let back = try #require(authorize.headers["location"].flatMap { URLComponents(string: $0) })
            #expect(back.port == server.port && back.path == "/v1/federation/callback")
            // The provider keeps real time: the server's clock catches up before it checks the ID token.
            server.clock.catchUp()
            let callback = try await server.request("GET", "\(back.path)?\(back.percentEncodedQuery ?? "")")
            #expect(callback.status == 303, "\(String(decoding: callback.body, as: UTF8.self))")
            let returned = try #require(callback.headers["location"].flatMap(URL.init(string:)))
            #expect(returned.scheme == "com.example.app")

            // Signed in: the RS256 ID token verified, the identity linked by the verified address.
            await keyway.flow.oauthCallback(url: returned)
            guard case .completed = keyway.flow.currentUpdate else { throw TestFailure("\(keyway.flow.currentUpdate)") }
            let tokens = try await keyway.tokens.exchange(try #require(await keyway.flow.completion))
            #expect(tokens.idToken.email == Self.email)
            #expect(tokens.idToken.authenticationMethods.contains("fed"))
            #expect(
                try await server.rowCount(
                    "federated_identities WHERE provider_id = 'python' AND issuer = '\(provider.issuer)' AND subject = 'py-user-7'")
                    == 1)

            // The provider goes down. A server instance without its discovery document cached
            // answers method_unavailable; the email code is still offered.
            await provider.stop()
            // Held, so that no server of a test running beside this one answers in its place.
            let down = try HeldPort(provider.port)
            defer { down.release() }
            try await withTestServer(TestServer.start(database: server.database, clock: clock, adminToken: testAdminToken)) {
                second in
                let (flow, step) = try await FederationFlowTests.RawFlow.start(second, identifier: Self.email)
                let methods = (step["selectMethod"] as? [String: Any])?["methods"] as? [[String: Any]] ?? []
                #expect(methods.compactMap { $0["id"] as? String } == ["emailOtp", "federation:python"], "\(step)")
                let unavailable = try await flow.post("method", ["methodId": "federation:python"])
                #expect(unavailable.status == 503, "\(unavailable.json)")
                #expect(unavailable.json["code"] as? String == "method_unavailable")
                #expect(unavailable.json["retryable"] as? Bool == true, "\(unavailable.json)")
                let still = try await flow.get()
                #expect(still["kind"] as? String == "selectMethod", "\(still)")
                let email = try await flow.post("method", ["methodId": "emailOtp"])
                #expect(email.status == 200 && email.json["kind"] as? String == "enterCode", "\(email.json)")
            }
        }
        }
    }
}
