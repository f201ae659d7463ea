import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// `PATCH /admin/applications/{configId}`: redirect URIs, post-logout redirect URIs, allowed
/// scopes, DPoP and PAR, over real HTTP.
@Suite("Admin API: an application's redirect URIs, scopes, DPoP and PAR")
struct AdminApplicationSettingsTests {
    /// An application's `dpop` member as (mode, requireNonce).
    static func dpop(_ json: [String: Any]) -> (String?, Bool?) {
        let dpop = json["dpop"] as? [String: Any]
        return (dpop?["mode"] as? String, dpop?["requireNonce"] as? Bool)
    }

    /// Creates an application of `clientType` and answers its config ID.
    static func create(_ server: TestServer, clientType: String) async throws -> String {
        let created = try await server.admin("POST", "/admin/applications", ["name": "Settings \(clientType)", "clientType": clientType])
        return try #require(created.json["configId"] as? String)
    }

    @Test func setsEverySettingAndKeepsItAcrossReads() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let configId = try await Self.create(server, clientType: "public")
            let path = "/admin/applications/\(configId)"

            let initial = try await server.admin("GET", path)
            #expect(initial.status == 200)
            #expect(initial.json["redirectUris"] as? [String] == [])
            #expect(initial.json["postLogoutRedirectUris"] as? [String] == [])
            #expect(initial.json["allowedScopes"] is NSNull, "every scope: an explicit null")
            #expect(Self.dpop(initial.json) == ("optional", false))
            #expect(initial.json["requirePushedAuthorizationRequests"] as? Bool == false)
            #expect(initial.json["firstParty"] as? Bool == true)

            let saved = try await server.admin(
                "PATCH", path,
                [
                    "redirectUris": [
                        "https://app.example.com/callback", "com.example.app:/oauth/callback", "http://127.0.0.1/cb",
                        "https://app.example.com/callback",
                    ],
                    "postLogoutRedirectUris": ["https://app.example.com/signed-out"],
                    "allowedScopes": ["email", "openid"],
                    "dpop": ["mode": "required", "requireNonce": true],
                    "requirePushedAuthorizationRequests": true,
                ])
            #expect(saved.status == 200, "\(saved.json)")
            let expectedRedirects = ["com.example.app:/oauth/callback", "http://127.0.0.1/cb", "https://app.example.com/callback"]
            #expect(saved.json["redirectUris"] as? [String] == expectedRedirects)
            #expect(saved.json["postLogoutRedirectUris"] as? [String] == ["https://app.example.com/signed-out"])
            #expect(saved.json["allowedScopes"] as? [String] == ["openid", "email"])
            #expect(Self.dpop(saved.json) == ("required", true))
            #expect(saved.json["requirePushedAuthorizationRequests"] as? Bool == true)

            // Read back, alone and in the list; members left out of a later change stay.
            let read = try await server.admin("GET", path)
            #expect(NSDictionary(dictionary: read.json) == NSDictionary(dictionary: saved.json))
            let listed = try #require(
                (try await server.admin("GET", "/admin/applications").json["applications"] as? [[String: Any]])?
                    .first { $0["configId"] as? String == configId })
            #expect(listed["redirectUris"] as? [String] == expectedRedirects)
            let nonceOnly = try await server.admin("PATCH", path, ["dpop": ["requireNonce": false]])
            #expect(Self.dpop(nonceOnly.json) == ("required", false))
            #expect(nonceOnly.json["redirectUris"] as? [String] == expectedRedirects)
            #expect(nonceOnly.json["allowedScopes"] as? [String] == ["openid", "email"])

            // null allows every scope again; empty lists remove every URI.
            let reset = try await server.admin(
                "PATCH", path,
                ["allowedScopes": NSNull(), "redirectUris": [String](), "postLogoutRedirectUris": [String](),
                 "requirePushedAuthorizationRequests": false, "dpop": ["mode": "off"]])
            #expect(reset.status == 200, "\(reset.json)")
            #expect(reset.json["allowedScopes"] is NSNull)
            #expect(reset.json["redirectUris"] as? [String] == [])
            #expect(reset.json["postLogoutRedirectUris"] as? [String] == [])
            #expect(reset.json["requirePushedAuthorizationRequests"] as? Bool == false)
            #expect(Self.dpop(reset.json) == ("off", false))
            // Only the dev application's two loopback redirect URIs.
            #expect(try await server.rowCount("application_redirect_uris") == 2)
        }
    }

    @Test func refusesEachInvalidSettingAndSavesNothing() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let configId = try await Self.create(server, clientType: "confidential")
            let path = "/admin/applications/\(configId)"
            let valid = try await server.admin(
                "PATCH", path,
                ["redirectUris": ["https://shop.example.com/cb"], "allowedScopes": ["openid"],
                 "dpop": ["mode": "required"]])
            #expect(valid.status == 200, "\(valid.json)")
            let before = try await server.admin("GET", path).json

            let refusals: [(body: [String: Any], field: String, says: String)] = [
                (["redirectUris": ["com.example.app:/cb"]], "redirectUris", "native (public) clients"),
                (["redirectUris": ["http://shop.example.com/cb"]], "redirectUris", "use https"),
                (["redirectUris": ["https://shop.example.com/cb#part"]], "redirectUris", "fragment"),
                (["redirectUris": ["https://*.example.com/cb"]], "redirectUris", "wildcards"),
                (["redirectUris": ["/relative/cb"]], "redirectUris", "absolute"),
                (["redirectUris": ["https://user:pw@shop.example.com/cb"]], "redirectUris", "user information"),
                (["redirectUris": (0...20).map { "https://shop.example.com/cb\($0)" }], "redirectUris", "at most 20"),
                (["postLogoutRedirectUris": ["javascript:alert(1)"]], "postLogoutRedirectUris", "native (public) clients"),
                (["allowedScopes": ["openid", "address"]], "allowedScopes", "Unknown scope address"),
                (["allowedScopes": [String]()], "allowedScopes", "at least one scope"),
                (["dpop": ["mode": "sometimes"]], "dpop.mode", "off, optional or required"),
                (["dpop": ["mode": "off", "requireNonce": true]], "dpop.requireNonce", "with the mode off"),
                (["requirePushedAuthorizationRequests": "yes"], "requirePushedAuthorizationRequests", ""),
                (["dpop": ["mode": 3]], "dpop.mode", ""),
                // A valid member beside an invalid one is not saved either.
                (["redirectUris": ["https://other.example.com/cb"], "idTokenSignedResponseAlg": "HS256"],
                 "idTokenSignedResponseAlg", "ES256"),
                (["allowedScopes": ["email"], "postLogoutRedirectUris": ["http://example.com/out"]],
                 "postLogoutRedirectUris", "use https"),
            ]
            for refusal in refusals {
                let answer = try await server.admin("PATCH", path, refusal.body)
                #expect(answer.status == 400, "\(refusal.body): \(answer.json)")
                #expect(answer.json["code"] as? String == "invalid_request")
                let fields = answer.json["invalidFields"] as? [[String: Any]] ?? []
                #expect(fields.first?["name"] as? String == refusal.field, "\(refusal.body): \(answer.json)")
                let reason = fields.first?["reason"] as? String ?? ""
                #expect(refusal.says.isEmpty || reason.contains(refusal.says), "\(refusal.body): \(reason)")
                #expect(!reason.isEmpty)
            }
            let after = try await server.admin("GET", path).json
            #expect(NSDictionary(dictionary: after) == NSDictionary(dictionary: before))

            let unknown = try await server.admin("PATCH", "/admin/applications/cfg_nope", ["requirePushedAuthorizationRequests": true])
            #expect(unknown.status == 404 && unknown.json["code"] as? String == "application_not_found")
        }
    }

    @Test func embeddingCodeRegistersAnApplicationWithItsSettings() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let registered = try await server.app.register(
                ApplicationRegistration(
                    name: "Embedded", clientType: .public, dpop: DPoPPolicy(mode: .required, requireNonce: true),
                    redirectURIs: ["com.example.embedded:/cb", "https://embedded.example.com/cb"],
                    postLogoutRedirectURIs: ["https://embedded.example.com/out"], allowedScopes: ["openid", "phone"],
                    requirePAR: true, idTokenSignedResponseAlg: "RS256", corsOrigins: ["https://embedded.example.com"]))
            let shown = try await server.admin("GET", "/admin/applications/\(registered.configId)")
            #expect(shown.status == 200)
            #expect(shown.json["redirectUris"] as? [String] == ["com.example.embedded:/cb", "https://embedded.example.com/cb"])
            #expect(shown.json["postLogoutRedirectUris"] as? [String] == ["https://embedded.example.com/out"])
            #expect(shown.json["allowedScopes"] as? [String] == ["openid", "phone"])
            #expect(shown.json["requirePushedAuthorizationRequests"] as? Bool == true)
            #expect(shown.json["idTokenSignedResponseAlg"] as? String == "RS256")
            #expect(shown.json["corsOrigins"] as? [String] == ["https://embedded.example.com"])
            #expect(shown.json["firstParty"] as? Bool == true)
            #expect(Self.dpop(shown.json) == ("required", true))

            let before = try await server.rowCount("applications")
            let refusals: [(ApplicationRegistration, String)] = [
                (ApplicationRegistration(name: "Bad", clientType: .confidential, redirectURIs: ["com.example.bad:/cb"]), "redirectURIs"),
                (ApplicationRegistration(name: "Bad", clientType: .public, postLogoutRedirectURIs: ["http://bad.example/out"]), "postLogoutRedirectURIs"),
                (ApplicationRegistration(name: "Bad", clientType: .public, allowedScopes: ["address"]), "allowedScopes"),
                (ApplicationRegistration(name: "Bad", clientType: .public, allowedScopes: []), "allowedScopes"),
                (ApplicationRegistration(name: "Bad", clientType: .public, idTokenSignedResponseAlg: "HS256"), "idTokenSignedResponseAlg"),
                (ApplicationRegistration(name: "Bad", clientType: .public, corsOrigins: ["https://bad.example/"]), "corsOrigins"),
            ]
            for (registration, field) in refusals {
                do {
                    _ = try await server.app.register(registration)
                    Issue.record("\(field): registered")
                } catch let error as ConfigurationError {
                    #expect(error.description.hasPrefix("\(field):"), "\(error.description)")
                }
            }
            #expect(try await server.rowCount("applications") == before)
        }
    }
}
