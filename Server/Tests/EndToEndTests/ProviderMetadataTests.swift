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
            #expect(document.scopesSupported == ["openid", "email", "phone", "offline_access"])
            #expect(document.claimsSupported.contains("email_verified") && document.claimsSupported.contains("at_hash"))
            #expect(document.claimsSupported.contains("nonce"))
            #expect(document.requestURIParameterSupported == false)
            // The browser front door and RP-initiated logout.
            let issuer = server.baseURL.absoluteString
            #expect(document.authorizationEndpoint == "\(issuer)/oauth2/authorize")
            #expect(document.endSessionEndpoint == "\(issuer)/oauth2/logout")
            #expect(document.pushedAuthorizationRequestEndpoint == "\(issuer)/oauth2/par")
            #expect(document.responseModesSupported == ["query", "form_post"])
            #expect(document.promptValuesSupported == ["none", "login", "consent", "create"])
            #expect(document.authorizationResponseIssParameterSupported == true)

            let oauth = try await server.request("GET", "/.well-known/oauth-authorization-server")
            #expect(oauth.status == 200 && oauth.body == response.body)
            #expect(oauth.headers["cache-control"] == "public, max-age=300")
            // The issuer has no path: nothing is served below the well-known path.
            let below = try await server.request("GET", "/.well-known/oauth-authorization-server/tenant")
            #expect(below.status == 404)
        }
    }

    @Test func anIssuerWithAPathHasItsRFC8414DocumentBelowTheWellKnownPath() async throws {
        let issuer = "https://id.example.com/tenant"
        try await withTestServer(TestServer.start(clock: ManualClock(), issuer: issuer)) { server in
            let document = try await server.request("GET", "/.well-known/oauth-authorization-server/tenant")
            #expect(document.status == 200)
            #expect(Self.object(document.body)["issuer"] as? String == issuer)
            #expect(Self.object(document.body)["token_endpoint"] as? String == "\(issuer)/oauth2/token")
            let other = try await server.request("GET", "/.well-known/oauth-authorization-server/other")
            #expect(other.status == 404)
            // Behind a proxy that strips the issuer's path, the bare path answers too.
            let bare = try await server.request("GET", "/.well-known/oauth-authorization-server")
            #expect(Self.object(bare.body)["issuer"] as? String == issuer)
        }
    }
}
