import Foundation
@testable import Keyway
import KeywayServer
import KeywayTestSupport
import Testing

/// An app's backend is an application the administrator named one: the `powerauth` and
/// `introspection` backend roles, granted and revoked through the admin API and
/// `keyway-server project update`, never by dynamic registration.
@Suite("Backend roles: what an app's backend may do is granted, never registered")
struct BackendRoleTests {
    /// Every `/v1/powerauth/…` route, with a body that would pass its decoding.
    static var powerAuthRoutes: [(method: String, path: String, body: [String: Any]?)] {
        [
        ("POST", "/v1/powerauth/signatures/verify", ["method": "POST", "uriId": "/x", "body": "", "authorization": "x"]),
        ("POST", "/v1/powerauth/offline-payloads", ["activationId": "x", "data": "x"]),
        ("POST", "/v1/powerauth/offline-signatures/verify", ["activationId": "x", "data": "x", "nonce": "x", "signature": "x"]),
        ("POST", "/v1/powerauth/ecies/keys", ["applicationKey": "x", "scope": "application", "temporaryKeyId": "x", "ephemeralPublicKey": "x", "nonce": "x", "timestamp": 1]),
        ("POST", "/v1/powerauth/tokens/verify", ["authorization": "x"]),
        ("POST", "/v1/powerauth/device-signatures/verify", ["activationId": "x", "data": "", "signature": ""]),
        ("POST", "/v1/powerauth/server-signatures", ["data": "", "key": "master"]),
            ("GET", "/v1/powerauth/activations/x", nil),
        ]
    }

    static func basic(_ id: String, _ secret: String) -> String {
        "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()
    }

    static func call(
        _ server: TestServer, _ route: (method: String, path: String, body: [String: Any]?), authorization: String
    ) async throws -> (status: Int, error: String?) {
        var headers = ["Authorization": authorization]
        var data: Data?
        if let body = route.body {
            headers["Content-Type"] = "application/json"
            data = try JSONSerialization.data(withJSONObject: body)
        }
        let response = try await server.request(route.method, route.path, headers: headers, body: data)
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
        return (response.status, json?["error"] as? String)
    }

    static func admin(_ server: TestServer, _ method: String, _ path: String, _ body: [String: Any]? = nil) async throws
        -> (status: Int, json: [String: Any])
    {
        var headers = ["Authorization": "Bearer \(testAdminToken)"]
        var data: Data?
        if let body {
            headers["Content-Type"] = "application/json"
            data = try JSONSerialization.data(withJSONObject: body)
        }
        let response = try await server.request(method, path, headers: headers, body: data)
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    /// An access token of the dev (first-party, public) application.
    static func firstPartyAccessToken(_ server: TestServer, clock: ManualClock, email: String) async throws -> String {
        let keyway = try KeywayClient(
            configID: TestServer.configId, baseURL: server.baseURL,
            options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
        await keyway.flow.start(identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let completion = try #require(keyway.flow.currentUpdate.completion)
        let tokens = try await keyway.tokens.exchange(
            authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
        return tokens.response.accessToken.revealed
    }

    static func introspect(_ server: TestServer, _ token: String, as authorization: String) async throws -> (status: Int, active: Bool?) {
        let answer = try await server.form("/oauth2/introspect", ["token": token], headers: ["Authorization": authorization])
        return (answer.status, answer.json["active"] as? Bool)
    }

    @Test(.timeLimit(.minutes(10)))
    func aClientRegisteredThroughDynamicRegistrationIsNoAppsBackend() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            let registrationToken = try await server.app.issueRegistrationToken(templateConfigId: TestServer.configId)
            let registered = try await server.request(
                "POST", "/oauth2/register",
                headers: ["Content-Type": "application/json", "Authorization": "Bearer \(registrationToken.revealed)"],
                body: try JSONSerialization.data(withJSONObject: [
                    "redirect_uris": ["https://third-party.example/callback"], "client_name": "Third party",
                    // What it asks for itself counts for nothing.
                    "backendRoles": ["powerauth", "introspection"], "backend_roles": ["powerauth"],
                ]))
            #expect(registered.status == 201)
            let client = try #require((try JSONSerialization.jsonObject(with: registered.body)) as? [String: Any])
            let clientId = try #require(client["client_id"] as? String)
            let authorization = Self.basic(clientId, try #require(client["client_secret"] as? String))

            // It authenticates (the same credentials are good at the revocation endpoint)…
            let revoked = try await server.form("/oauth2/revoke", ["token": "krt_unknown"], headers: ["Authorization": authorization])
            #expect(revoked.status == 200)
            // …but every PowerAuth backend route refuses it.
            for route in Self.powerAuthRoutes {
                let answer = try await Self.call(server, route, authorization: authorization)
                #expect(answer.status == 403, "\(route.method) \(route.path)")
                #expect(answer.error == "unauthorized_client", "\(route.method) \(route.path)")
            }
            // The first-party application's tokens are none of its business.
            let token = try await Self.firstPartyAccessToken(server, clock: clock, email: "victim@example.com")
            let introspected = try await Self.introspect(server, token, as: authorization)
            #expect(introspected.status == 200 && introspected.active == false)

            // Nor can an administrator make it one: its secret is held outside the project.
            let grant = try await Self.admin(server, "PATCH", "/admin/applications/\(clientId)", ["backendRoles": ["powerauth"]])
            #expect(grant.status == 400)
            #expect((grant.json["invalidFields"] as? [[String: Any]])?.first?["name"] as? String == "backendRoles")
            #expect(try await Self.admin(server, "GET", "/admin/applications/\(clientId)").json["backendRoles"] as? [String] == [])
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func theAdministratorGrantsAndRevokesEachRole() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            let created = try await Self.admin(server, "POST", "/admin/applications", ["name": "Bank backend", "clientType": "confidential"])
            let configId = try #require(created.json["configId"] as? String)
            let authorization = Self.basic(configId, try #require(created.json["clientSecret"] as? String))
            try await server.execute(
                """
                UPDATE applications SET project_id = (SELECT project_id FROM applications WHERE config_id = '\(TestServer.configId)')
                WHERE config_id = '\(configId)'
                """)
            let activation = Self.powerAuthRoutes.last!
            let token = try await Self.firstPartyAccessToken(server, clock: clock, email: "customer@example.com")

            // A confidential application the administrators made holds no role until granted one.
            #expect(try await Self.admin(server, "GET", "/admin/applications/\(configId)").json["backendRoles"] as? [String] == [])
            #expect(try await Self.call(server, activation, authorization: authorization).status == 403)
            #expect(try await Self.introspect(server, token, as: authorization).active == false)

            // powerauth: the routes answer (an unknown activation is the route's own 404).
            let granted = try await Self.admin(server, "PATCH", "/admin/applications/\(configId)", ["backendRoles": ["powerauth"]])
            #expect(granted.status == 200 && granted.json["backendRoles"] as? [String] == ["powerauth"])
            let answered = try await Self.call(server, activation, authorization: authorization)
            #expect(answered.status == 404 && answered.error == "unknown_activation")
            #expect(try await Self.introspect(server, token, as: authorization).active == false)

            // introspection: the project's other applications' tokens too; the list shows both.
            let both = try await Self.admin(
                server, "PATCH", "/admin/applications/\(configId)", ["backendRoles": ["introspection", "powerauth"]])
            #expect(both.json["backendRoles"] as? [String] == ["introspection", "powerauth"])
            #expect(try await Self.introspect(server, token, as: authorization).active == true)
            let listed = try await Self.admin(server, "GET", "/admin/applications")
            let entry = (listed.json["applications"] as? [[String: Any]])?.first { $0["configId"] as? String == configId }
            #expect(entry?["backendRoles"] as? [String] == ["introspection", "powerauth"])

            // Revoked, the routes refuse it again.
            let revoked = try await Self.admin(server, "PATCH", "/admin/applications/\(configId)", ["backendRoles": []])
            #expect(revoked.status == 200 && revoked.json["backendRoles"] as? [String] == [])
            #expect(try await Self.call(server, activation, authorization: authorization).status == 403)
            #expect(try await Self.introspect(server, token, as: authorization).active == false)

            // A public application cannot be a backend; an unknown role is named; nothing changes.
            let publicGrant = try await Self.admin(
                server, "PATCH", "/admin/applications/\(TestServer.configId)", ["backendRoles": ["powerauth"]])
            #expect(publicGrant.status == 400)
            let unknown = try await Self.admin(
                server, "PATCH", "/admin/applications/\(configId)", ["backendRoles": ["powerauth", "root"], "requirePushedAuthorizationRequests": true])
            #expect(unknown.status == 400)
            let after = try await Self.admin(server, "GET", "/admin/applications/\(configId)").json
            #expect(after["backendRoles"] as? [String] == [] && after["requirePushedAuthorizationRequests"] as? Bool == false)
        }
    }
}
