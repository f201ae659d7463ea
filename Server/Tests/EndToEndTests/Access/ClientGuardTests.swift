import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// The route table's guard of the client endpoints (token, revocation, introspection, PAR) reads
/// the form and authenticates the client before any of them runs.
@Suite("The client endpoints' guard: one form, one client authentication, before the route")
struct ClientGuardTests {
    static let endpoints = ["/oauth2/token", "/oauth2/revoke", "/oauth2/introspect", "/oauth2/par"]

    static func post(_ server: TestServer, _ path: String, body: String, contentType: String, origin: String? = nil)
        async throws -> (status: Int, json: [String: Any], headers: [String: String])
    {
        var headers = ["Content-Type": contentType]
        if let origin { headers["Origin"] = origin }
        let response = try await server.request("POST", path, headers: headers, body: Data(body.utf8))
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:], response.headers)
    }

    @Test func whatIsNotAClientsFormIsRefusedAtEveryEndpoint() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let form = "application/x-www-form-urlencoded"
            let client = "client_id=\(TestServer.configId)"
            for path in Self.endpoints {
                // No client named at all: invalid_client (RFC 6749 §5.2), whatever else is missing.
                let anonymous = try await Self.post(server, path, body: "token=x&grant_type=refresh_token", contentType: form)
                #expect(anonymous.status == 401 && anonymous.json["error"] as? String == "invalid_client", "\(path): \(anonymous.json)")
                // Not form data: a JSON body, a repeated parameter, a broken escape.
                let json = try await Self.post(server, path, body: #"{"client_id":"\#(TestServer.configId)"}"#, contentType: "application/json")
                #expect(json.status == 400 && json.json["error"] as? String == "invalid_request", "\(path): \(json.json)")
                let twice = try await Self.post(server, path, body: "\(client)&\(client)", contentType: form)
                #expect(twice.status == 400 && (twice.json["error_description"] as? String)?.contains("client_id") == true, "\(path): \(twice.json)")
                let broken = try await Self.post(server, path, body: "\(client)&token=%zz", contentType: form)
                #expect(broken.status == 400 && broken.json["error"] as? String == "invalid_request", "\(path): \(broken.json)")
                // Larger than any request the server reads, with and without a browser's Origin.
                let huge = "\(client)&token=" + String(repeating: "a", count: 70 * 1024)
                for origin in [nil, "https://spa.example"] {
                    let large = try await Self.post(server, path, body: huge, contentType: form, origin: origin)
                    #expect(large.status == 400 && (large.json["error_description"] as? String)?.contains("too large") == true, "\(path): \(large.json)")
                }
            }
            // The introspection endpoint is a confidential client's: a public application, named
            // alone, is refused before the token is looked at.
            let publicClient = try await Self.post(server, "/oauth2/introspect", body: "\(client)&token=x", contentType: form)
            #expect(publicClient.status == 401 && publicClient.json["error"] as? String == "invalid_client", "\(publicClient.json)")
            // A public client named alone passes the guard of the others: the route answers.
            let revoked = try await Self.post(server, "/oauth2/revoke", body: "\(client)&token=krt_unknown", contentType: form)
            #expect(revoked.status == 200)
            let grant = try await Self.post(server, "/oauth2/token", body: "\(client)&grant_type=password", contentType: form)
            #expect(grant.status == 400 && grant.json["error"] as? String == "unsupported_grant_type", "\(grant.json)")
        }
    }

    @Test func aGuardsRefusalIsReadableByTheClientsOrigins() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let spa = "https://spa.example"
            let path = "/admin/applications/\(TestServer.configId)"
            #expect(try await server.admin("PATCH", path, ["corsOrigins": [spa]]).status == 200)
            // A public client presenting a secret is refused by the guard, before the route.
            let body = "client_id=\(TestServer.configId)&client_secret=nope&grant_type=refresh_token&refresh_token=x"
            let refused = try await Self.post(server, "/oauth2/token", body: body, contentType: "application/x-www-form-urlencoded", origin: spa)
            #expect(refused.status == 401 && refused.json["error"] as? String == "invalid_client", "\(refused.json)")
            #expect(refused.headers["access-control-allow-origin"] == spa)
            #expect(refused.headers["vary"] == "Origin")
            let elsewhere = try await Self.post(
                server, "/oauth2/token", body: body, contentType: "application/x-www-form-urlencoded", origin: "https://evil.example")
            #expect(elsewhere.status == 401 && elsewhere.headers["access-control-allow-origin"] == nil)
        }
    }
}
