import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("CORS for single-page applications: the origins each application registered, nothing by default")
struct CORSTests {
    static let spa = "https://spa.example"
    static let evil = "https://evil.example"

    /// Posts a form with an `Origin`.
    static func post(_ server: TestServer, _ path: String, _ form: [String: String], origin: String?) async throws
        -> (status: Int, headers: [String: String])
    {
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        if let origin { headers["Origin"] = origin }
        let body = form.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        let response = try await server.request("POST", path, headers: headers, body: Data(body.utf8))
        return (response.status, response.headers)
    }

    /// A preflight request of `method` from `origin`.
    static func preflight(_ server: TestServer, _ path: String, origin: String?, method: String = "POST") async throws
        -> (status: Int, headers: [String: String])
    {
        var headers = ["Access-Control-Request-Method": method, "Access-Control-Request-Headers": "authorization, dpop"]
        if let origin { headers["Origin"] = origin }
        let response = try await server.request("OPTIONS", path, headers: headers)
        return (response.status, response.headers)
    }

    @Test func theTokenUserInfoAndRevocationEndpointsAnswerTheApplicationsOrigins() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, adminToken: testAdminToken)) { server in
            let path = "/admin/applications/\(TestServer.configId)"
            let redeem = [
                "grant_type": "authorization_code", "client_id": TestServer.configId, "code": "kac_unknown",
                "code_verifier": String(repeating: "v", count: 43),
            ]
            // Nothing is allowed before an origin is registered.
            let before = try await Self.post(server, "/oauth2/token", redeem, origin: Self.spa)
            #expect(before.status == 400 && before.headers["access-control-allow-origin"] == nil)
            #expect(before.headers["vary"] == "Origin")
            #expect(try await Self.preflight(server, "/oauth2/token", origin: Self.spa).headers["access-control-allow-origin"] == nil)

            let set = try await server.admin("PATCH", path, ["corsOrigins": [Self.spa, "http://localhost:5173", Self.spa]])
            #expect(set.status == 200 && set.json["corsOrigins"] as? [String] == ["http://localhost:5173", Self.spa], "\(set.json)")

            // The token endpoint: the registered origin may read the answer (an error here), another may not.
            let allowed = try await Self.post(server, "/oauth2/token", redeem, origin: Self.spa)
            #expect(allowed.status == 400)
            #expect(allowed.headers["access-control-allow-origin"] == Self.spa)
            #expect(allowed.headers["access-control-expose-headers"]?.contains("DPoP-Nonce") == true)
            #expect(allowed.headers["vary"] == "Origin")
            #expect(allowed.headers["access-control-allow-credentials"] == nil)
            let refused = try await Self.post(server, "/oauth2/token", redeem, origin: Self.evil)
            #expect(refused.headers["access-control-allow-origin"] == nil)
            let noOrigin = try await Self.post(server, "/oauth2/token", redeem, origin: nil)
            #expect(noOrigin.headers["access-control-allow-origin"] == nil)

            // Preflight: answered for a registered origin, with the methods and headers allowed.
            let preflight = try await Self.preflight(server, "/oauth2/token", origin: Self.spa)
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == Self.spa)
            #expect(preflight.headers["access-control-allow-methods"] == "POST, OPTIONS")
            let allowedHeaders = preflight.headers["access-control-allow-headers"] ?? ""
            #expect(["Authorization", "DPoP", "Content-Type"].allSatisfy(allowedHeaders.contains))
            #expect(preflight.headers["access-control-max-age"] == "600")
            #expect(preflight.headers["allow"] == "POST, OPTIONS")
            let strange = try await Self.preflight(server, "/oauth2/token", origin: Self.evil)
            #expect(strange.status == 204 && strange.headers["access-control-allow-origin"] == nil)
            #expect(strange.headers["access-control-allow-methods"] == nil)
            let put = try await server.request("PUT", "/oauth2/token")
            #expect(put.status == 405 && put.headers["allow"] == "POST, OPTIONS")

            // UserInfo: the access token's client decides.
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "spa@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "spa@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            let authorization = "\(tokens.response.tokenType) \(tokens.response.accessToken.revealed)"
            let userInfo = try await server.request(
                "GET", "/oauth2/userinfo", headers: ["Authorization": authorization, "Origin": Self.spa])
            #expect(userInfo.headers["access-control-allow-origin"] == Self.spa)
            if tokens.response.tokenType == "Bearer" { #expect(userInfo.status == 200) }
            let userInfoElsewhere = try await server.request(
                "GET", "/oauth2/userinfo", headers: ["Authorization": authorization, "Origin": Self.evil])
            #expect(userInfoElsewhere.headers["access-control-allow-origin"] == nil)
            let badToken = try await server.request(
                "GET", "/oauth2/userinfo", headers: ["Authorization": "Bearer nonsense", "Origin": Self.spa])
            #expect(badToken.status == 401 && badToken.headers["access-control-allow-origin"] == nil)
            let userInfoPreflight = try await Self.preflight(server, "/oauth2/userinfo", origin: Self.spa, method: "GET")
            #expect(userInfoPreflight.headers["access-control-allow-methods"] == "GET, HEAD, POST, OPTIONS")

            // Revocation: the request's client_id decides; another application's origins do not count.
            let revoke = ["token": "krt_unknown", "client_id": TestServer.configId]
            let revoked = try await Self.post(server, "/oauth2/revoke", revoke, origin: Self.spa)
            #expect(revoked.status == 200 && revoked.headers["access-control-allow-origin"] == Self.spa)
            let other = try await server.admin("POST", "/admin/applications", ["name": "Other SPA"])
            let otherId = try #require(other.json["configId"] as? String)
            let otherRevoke = try await Self.post(
                server, "/oauth2/revoke", ["token": "krt_unknown", "client_id": otherId], origin: Self.spa)
            #expect(otherRevoke.status == 200 && otherRevoke.headers["access-control-allow-origin"] == nil)

            // The introspection and registration endpoints have no CORS at all.
            let introspect = try await Self.post(server, "/oauth2/introspect", ["token": "x"], origin: Self.spa)
            #expect(introspect.headers["access-control-allow-origin"] == nil)
            #expect(try await Self.preflight(server, "/oauth2/introspect", origin: Self.spa).status == 405)

            // Removing the origins withdraws the permission.
            #expect(try await server.admin("PATCH", path, ["corsOrigins": [String]()]).json["corsOrigins"] as? [String] == [])
            let after = try await Self.post(server, "/oauth2/token", redeem, origin: Self.spa)
            #expect(after.headers["access-control-allow-origin"] == nil)
            #expect(try await Self.preflight(server, "/oauth2/token", origin: Self.spa).headers["access-control-allow-origin"] == nil)
        }
    }

    @Test func theKeySetAndTheMetadataAnswerEveryOrigin() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            for path in ["/.well-known/jwks.json", "/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"] {
                let response = try await server.request("GET", path, headers: ["Origin": Self.evil])
                #expect(response.status == 200 && response.headers["access-control-allow-origin"] == "*", "\(path)")
                let preflight = try await Self.preflight(server, path, origin: Self.evil, method: "GET")
                #expect(preflight.status == 204 && preflight.headers["access-control-allow-origin"] == "*", "\(path)")
                #expect(preflight.headers["allow"] == "GET, HEAD, OPTIONS", "\(path)")
            }
        }
    }

    @Test func onlyExactHTTPSOriginsAreRegistered() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let path = "/admin/applications/\(TestServer.configId)"
            #expect(try await server.admin("PATCH", path, ["corsOrigins": ["https://spa.example:8443", "http://127.0.0.1:8080"]]).status == 200)
            for bad in [
                "https://spa.example/", "https://spa.example/app", "http://spa.example", "HTTPS://SPA.EXAMPLE",
                "https://spa.example:443", "*", "null", "https://*.example", "spa.example", "https://user@spa.example",
                "https://spa.example?x=1", "ftp://spa.example",
            ] {
                let answer = try await server.admin("PATCH", path, ["corsOrigins": [bad]])
                #expect(answer.status == 400 && "\(answer.json)".contains("corsOrigins"), "\(bad): \(answer.json)")
            }
            let tooMany = (0...20).map { "https://spa\($0).example" }
            #expect(try await server.admin("PATCH", path, ["corsOrigins": tooMany]).status == 400)
            let kept = try await server.admin("GET", path)
            #expect(kept.json["corsOrigins"] as? [String] == ["http://127.0.0.1:8080", "https://spa.example:8443"])
        }
    }
}
