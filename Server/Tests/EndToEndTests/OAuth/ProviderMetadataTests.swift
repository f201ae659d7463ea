import Foundation
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("OpenID Provider and RFC 8414 metadata")
struct ProviderMetadataTests {
    static func object(_ body: Data) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    @Test func anIndependentValidatorAcceptsBothDocuments() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let (status, text) = try await PythonScript.run(
                "validate_metadata.py", ["--issuer", server.baseURL.absoluteString])
            #expect(status == 0, "validate_metadata.py: \(text)")
            #expect(text.contains("valid openid-configuration") && text.contains("valid oauth-authorization-server"))
            #expect(text.contains("jwks holds EC RSA"))

            let response = try await server.request("GET", "/.well-known/openid-configuration")
            let document = try JSONDecoder().decode(DiscoveryDocument.self, from: response.body)
            #expect(Set(document.idTokenSigningAlgValuesSupported) == ["RS256", "ES256"])
            #expect(Set(document.revocationEndpointAuthMethodsSupported ?? []) == [
                "none", "client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt",
            ])
            #expect(Set(document.introspectionEndpointAuthMethodsSupported ?? []) == [
                "client_secret_basic", "client_secret_post", "client_secret_jwt", "private_key_jwt",
            ])
            #expect(document.revocationEndpointAuthSigningAlgValuesSupported == ["HS256", "ES256", "RS256"])
            #expect(document.scopesSupported == ["openid", "profile", "email", "phone", "offline_access"])
            #expect(document.claimsSupported.contains("email_verified") && document.claimsSupported.contains("at_hash"))
            #expect(document.claimsSupported.contains("nonce") && document.claimsSupported.contains("phone_number"))
            #expect(document.requestURIParameterSupported == false)

            let oauth = try await server.request("GET", "/.well-known/oauth-authorization-server")
            #expect(oauth.status == 200 && oauth.body == response.body)
            #expect(oauth.headers["cache-control"] == "public, max-age=300")
            // The issuer has no path: nothing is served below the well-known path.
            let below = try await server.request("GET", "/.well-known/oauth-authorization-server/tenant")
            #expect(below.status == 404)
        }
    }

    @Test func theAuthorizationEndpointPARAndLogoutAreAdvertised() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let issuer = server.baseURL.absoluteString
            let response = try await server.request("GET", "/.well-known/openid-configuration")
            let document = try JSONDecoder().decode(DiscoveryDocument.self, from: response.body)
            #expect(document.authorizationEndpoint == "\(issuer)/oauth2/authorize")
            #expect(document.pushedAuthorizationRequestEndpoint == "\(issuer)/oauth2/par")
            #expect(document.requirePushedAuthorizationRequests == false)
            #expect(document.endSessionEndpoint == "\(issuer)/oauth2/logout")
            #expect(document.responseTypesSupported == ["code"])
            #expect(document.responseModesSupported == ["query", "form_post"])
            #expect(document.promptValuesSupported == ["none", "login", "consent", "create"])
            #expect(document.authorizationResponseIssParameterSupported == true)
            #expect(document.codeChallengeMethodsSupported == ["S256"])
            #expect(document.uiLocalesSupported == ["en"])
            #expect(document.requestParameterSupported == false)
            #expect(document.requestURIParameterSupported == false)
            #expect(document.claimsParameterSupported == false)
            #expect(document.acrValuesSupported == ["0", "urn:keyway:loa:1fa", "urn:keyway:loa:2fa"])
            #expect(document.claimsSupported.contains("acr"))
            // Booleans are sent as such, not left to the specifications' defaults.
            let raw = Self.object(response.body)
            for member in [
                "require_pushed_authorization_requests", "authorization_response_iss_parameter_supported",
                "request_parameter_supported", "request_uri_parameter_supported", "claims_parameter_supported",
            ] {
                #expect(raw[member] is Bool, "\(member)")
            }
        }
    }

    @Test func anIssuerWithAPathHasItsRFC8414DocumentBelowTheWellKnownPath() async throws {
        let issuer = "https://id.example.com/tenant"
        try await withTestServer(TestServer.start(clock: ManualClock(), issuer: issuer)) { server in
            let document = try await server.request("GET", "/.well-known/oauth-authorization-server/tenant")
            #expect(document.status == 200)
            #expect(Self.object(document.body)["issuer"] as? String == issuer)
            #expect(Self.object(document.body)["token_endpoint"] as? String == "\(issuer)/oauth2/token")
            #expect(Self.object(document.body)["pushed_authorization_request_endpoint"] as? String == "\(issuer)/oauth2/par")
            #expect(Self.object(document.body)["end_session_endpoint"] as? String == "\(issuer)/oauth2/logout")
            let other = try await server.request("GET", "/.well-known/oauth-authorization-server/other")
            #expect(other.status == 404)
            // Behind a proxy that strips the issuer's path, the bare path answers too.
            let bare = try await server.request("GET", "/.well-known/oauth-authorization-server")
            #expect(Self.object(bare.body)["issuer"] as? String == issuer)
        }
    }
}
