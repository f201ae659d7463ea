import Foundation
import HTTPTypes
import Hummingbird
import KeywayProtocol
import NIOCore

/// The well-known documents, which anyone may read from any origin: OpenID Connect Discovery,
/// RFC 8414 authorization server metadata (the same document), and the JWKS.
struct WellKnownRoutes {
    let keys: SigningKeyRing
    let issuer: @Sendable () -> String
    let cors: CORS

    /// Discovery and JWKS answers may be cached by clients for this long.
    static let metadataCacheControl = "public, max-age=300"

    /// Where RFC 8414 §3 places the authorization server metadata: the well-known path, followed
    /// by the issuer's path when it has one.
    static let authorizationServerMetadataPath = "/.well-known/oauth-authorization-server"

    func register(on router: RouteTable) throws {
        let router = router.declaring(.anyone)
        // Discovery is fixed while the server runs (the issuer is settled once the socket is
        // bound), so it is encoded once; the key set follows the key schedule.
        let discovery = Locked<(issuer: String, body: ByteBuffer)?>(nil)
        let metadata: @Sendable () throws -> Response = {
            let issuer = issuer()
            let cached = discovery.withLock { $0?.issuer == issuer ? $0?.body : nil }
            let body = try cached ?? HTTPResponses.encode(Self.discovery(issuer: issuer))
            if cached == nil { discovery.withLock { $0 = (issuer, body) } }
            var response = HTTPResponses.json(encoded: body, cacheControl: Self.metadataCacheControl)
            CORS.allowEveryone(&response)
            return response
        }
        document(".well-known/openid-configuration", on: router) { _, _ in try metadata() }
        // RFC 8414: the same metadata. At the bare well-known path (the issuer's own, without a
        // path component, or behind a proxy that strips the issuer's path), and at the
        // well-known path followed by the issuer's path.
        document(".well-known/oauth-authorization-server", on: router) { _, _ in try metadata() }
        document(".well-known/oauth-authorization-server/**", on: router) { request, context in
            let issuerPath = URL(string: issuer())?.path ?? ""
            guard !issuerPath.isEmpty, issuerPath != "/",
                request.uri.path == Self.authorizationServerMetadataPath + issuerPath
            else {
                return HTTPResponses.problem(
                    Problem(
                        code: .notFound, status: 404, title: "Not found",
                        detail: "The authorization server metadata is at \(Self.authorizationServerMetadataPath)\(issuerPath == "/" ? "" : issuerPath).",
                        action: .abort),
                    traceId: context.traceId)
            }
            return try metadata()
        }
        // While the database is away the key ring keeps the keys it knows: the set is served
        // from memory, encoded once per set of published keys.
        document(".well-known/jwks.json", on: router) { _, _ in
            try await keys.refreshIfDue()
            var response = HTTPResponses.json(
                encoded: try keys.encodedJWKS(HTTPResponses.encode), cacheControl: Self.metadataCacheControl)
            CORS.allowEveryone(&response)
            return response
        }
    }

    /// A document anyone may read, from any origin: `GET` (and `HEAD`), and `OPTIONS` answered for
    /// every origin.
    private func document(
        _ path: RouterPath, on router: DeclaredRoutes,
        _ handler: @escaping @Sendable (Request, KeywayRequestContext) async throws -> Response
    ) {
        router.get(path, use: handler)
        let cors = self.cors
        router.options(path) { request, _, allow in await cors.preflight(request, allow: allow, everyone: true) }
    }

    /// The metadata of both well-known documents: the OAuth authorization endpoint (with pushed
    /// requests, RFC 9126, and the `iss` response parameter, RFC 9207), RP-initiated logout, and
    /// what the token, UserInfo, revocation, introspection and registration endpoints accept.
    /// Request objects (`request`, `request_uri`) and the `claims` parameter are not supported.
    static func discovery(issuer: String) -> DiscoveryDocument {
        let methods = ClientAuthMethod.allCases.map(\.rawValue)
        let assertionAlgorithms = ["HS256"] + JWKSignatures.supportedAlgorithms
        return DiscoveryDocument(
            issuer: issuer,
            authorizationEndpoint: "\(issuer)/oauth2/authorize",
            tokenEndpoint: "\(issuer)/oauth2/token",
            jwksUri: "\(issuer)/.well-known/jwks.json",
            responseTypesSupported: ["code"],
            subjectTypesSupported: ["public"],
            idTokenSigningAlgValuesSupported: SigningAlgorithm.names,
            grantTypesSupported: TokenGrants.grantTypes,
            codeChallengeMethodsSupported: ["S256"],
            tokenEndpointAuthMethodsSupported: methods,
            scopesSupported: Scopes.supported,
            claimsSupported: Scopes.claims,
            userinfoEndpoint: "\(issuer)/oauth2/userinfo",
            revocationEndpoint: "\(issuer)/oauth2/revoke",
            introspectionEndpoint: "\(issuer)/oauth2/introspect",
            dpopSigningAlgValuesSupported: ["ES256"],
            registrationEndpoint: "\(issuer)/oauth2/register",
            tokenEndpointAuthSigningAlgValuesSupported: assertionAlgorithms,
            // Public clients revoke their own tokens with their client ID alone (`none`).
            revocationEndpointAuthMethodsSupported: methods,
            revocationEndpointAuthSigningAlgValuesSupported: assertionAlgorithms,
            // Introspection is for confidential applications only.
            introspectionEndpointAuthMethodsSupported: methods.filter { $0 != ClientAuthMethod.none.rawValue },
            introspectionEndpointAuthSigningAlgValuesSupported: assertionAlgorithms,
            responseModesSupported: ["query", "form_post"],
            promptValuesSupported: ["none", "login", "consent", "create"],
            endSessionEndpoint: "\(issuer)/oauth2/logout",
            // No request objects by reference (OpenID Connect Discovery's default is true).
            requestURIParameterSupported: false,
            pushedAuthorizationRequestEndpoint: "\(issuer)/oauth2/par",
            // Applications may each require pushed requests (`requirePushedAuthorizationRequests`).
            requirePushedAuthorizationRequests: false,
            authorizationResponseIssParameterSupported: true,
            uiLocalesSupported: ["en"],
            requestParameterSupported: false,
            claimsParameterSupported: false, acrValuesSupported: AuthenticationContextClass.supported)
    }
}

