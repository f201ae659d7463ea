import Foundation
import HTTPTypes
import Hummingbird
import KeywayProtocol
import Logging
import NIOCore

/// Discovery (OpenID Connect Discovery and RFC 8414 metadata), JWKS, and the token, revocation,
/// introspection and registration endpoints. The token and revocation endpoints, the JWKS and
/// the metadata answer scripts of other origins as ``CORS`` says.
struct OAuthRoutes {
    let tokenEndpoint: TokenEndpoint
    let revocationEndpoint: RevocationEndpoint
    let introspectionEndpoint: IntrospectionEndpoint
    let registrationEndpoint: RegistrationEndpoint
    let keys: SigningKeyRing
    let issuer: @Sendable () -> String
    let cors: CORS

    /// Discovery and JWKS answers may be cached by clients for this long.
    static let metadataCacheControl = "public, max-age=300"

    /// Where RFC 8414 §3 places the authorization server metadata: the well-known path, followed
    /// by the issuer's path when it has one.
    static let authorizationServerMetadataPath = "/.well-known/oauth-authorization-server"

    func register(on router: RouteTable) throws {
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
        publicDocument(".well-known/openid-configuration", on: router) { _, _ in try metadata() }
        // RFC 8414: the same metadata. At the bare well-known path (the issuer's own, without a
        // path component, or behind a proxy that strips the issuer's path), and at the
        // well-known path followed by the issuer's path.
        publicDocument(".well-known/oauth-authorization-server", on: router) { _, _ in try metadata() }
        publicDocument(".well-known/oauth-authorization-server/**", on: router) { request, context in
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
        publicDocument(".well-known/jwks.json", on: router) { _, _ in
            try await keys.refreshIfDue()
            var response = HTTPResponses.json(
                encoded: try HTTPResponses.encode(keys.jwks()), cacheControl: Self.metadataCacheControl)
            CORS.allowEveryone(&response)
            return response
        }
        post("oauth2/token", on: router, cors: true) { form, request in
            try await keys.refreshIfDue()
            guard let tokenURL = URL(string: "\(issuer())/oauth2/token") else { throw OAuthFailure.serverError }
            let answer = try await tokenEndpoint.handle(
                form: form, authorization: request.headers[.authorization],
                dpopProofs: request.headers[values: HTTPResponses.dpopHeader], tokenURL: tokenURL,
                appAttestEvidence: Self.appAttestEvidence(request))
            var headers: HTTPFields = [HTTPResponses.pragmaHeader: "no-cache"]
            if let nonce = answer.dpopNonce { headers[HTTPResponses.dpopNonceHeader] = nonce }
            return try HTTPResponses.json(answer.response, extraHeaders: headers)
        }
        post("oauth2/revoke", on: router, cors: true) { form, request in
            try await revocationEndpoint.handle(form: form, authorization: request.headers[.authorization])
            return Response(status: .ok, headers: [.cacheControl: "no-store"])
        }
        router.post("oauth2/register") { request, context in
            do {
                guard let contentType = request.headers[.contentType],
                    contentType.lowercased().hasPrefix("application/json")
                else { throw ClientMetadata.invalid("Send the client metadata as application/json.") }
                let body = try await RequestDecoding.body(request, context: context)
                let registered = try await registrationEndpoint.handle(
                    body: body, authorization: request.headers[.authorization])
                return try HTTPResponses.json(
                    registered, status: .created, extraHeaders: [HTTPResponses.pragmaHeader: "no-cache"])
            } catch let failure as OAuthFailure {
                return HTTPResponses.oauthError(failure)
            } catch is FlowProblem {
                return HTTPResponses.oauthError(ClientMetadata.invalid("The request body is too large."))
            } catch {
                tokenEndpoint.logger.error(
                    "client registration failed: \(String(describing: type(of: error)))",
                    metadata: ["traceId": "\(context.traceId)"])
                return HTTPResponses.oauthError(.serverError)
            }
        }
        post("oauth2/introspect", on: router) { form, request in
            try HTTPResponses.json(
                try await introspectionEndpoint.handle(form: form, authorization: request.headers[.authorization]))
        }
    }

    /// A document anyone may read, from any origin: `GET` (and `HEAD`), and `OPTIONS` answered for
    /// every origin.
    private func publicDocument(
        _ path: RouterPath, on router: RouteTable,
        _ handler: @escaping @Sendable (Request, KeywayRequestContext) async throws -> Response
    ) {
        router.get(path, use: handler)
        let cors = self.cors
        router.options(path) { request, _, allow in await cors.preflight(request, allow: allow, everyone: true) }
    }

    /// A form-encoded OAuth endpoint: parses the body (RFC 6749 §3.2: form encoding, no repeated
    /// parameters) and answers every failure as an RFC 6749 §5.2 error. With `cors`, a script of
    /// an origin the request's client registered may read the answer, and preflights are answered.
    private func post(
        _ path: RouterPath, on router: RouteTable, cors allowsCORS: Bool = false,
        _ handler: @escaping @Sendable ([String: String], Request) async throws -> Response
    ) {
        let logger = tokenEndpoint.logger
        let cors = self.cors
        if allowsCORS {
            router.options(path) { request, _, allow in await cors.preflight(request, allow: allow, everyone: false) }
        }
        router.post(path) { request, context in
            var form: [String: String] = [:]
            var response = await Self.answer(request, context: context, logger: logger) { parsed in
                form = parsed
                return try await handler(parsed, request)
            }
            if allowsCORS {
                await cors.allowForClient(
                    &response, request: request,
                    clientId: ClientAuthenticator.claimedClientId(form: form, authorization: request.headers[.authorization]))
            }
            return response
        }
    }

    /// Parses the form of `request` and runs `handler` with it, answering every failure as an
    /// RFC 6749 §5.2 error.
    private static func answer(
        _ request: Request, context: KeywayRequestContext, logger: Logger,
        _ handler: ([String: String]) async throws -> Response
    ) async -> Response {
        do {
            if let contentType = request.headers[.contentType],
                !contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
            {
                throw OAuthFailure.invalidRequest("Send the body as application/x-www-form-urlencoded.")
            }
            let data = try await RequestDecoding.body(request, context: context)
            let form: [String: String]
            do {
                form = try FormURLEncoded.parse(data)
            } catch {
                switch error {
                case .duplicate(let name):
                    throw OAuthFailure.invalidRequest("The parameter \(name) appears more than once.")
                case .malformed:
                    throw OAuthFailure.invalidRequest("The body is not valid form data.")
                }
            }
            return try await handler(form)
        } catch let failure as OAuthFailure {
            return HTTPResponses.oauthError(failure)
        } catch is FlowProblem {
            return HTTPResponses.oauthError(.invalidRequest("The request body is too large."))
        } catch {
            logger.error(
                "OAuth endpoint failed: \(String(describing: type(of: error)))",
                metadata: ["traceId": "\(context.traceId)", "path": "\(request.uri.path)"])
            return HTTPResponses.oauthError(.serverError)
        }
    }

    /// The metadata of both well-known documents. It lists only what the server does today:
    /// `response_modes_supported`, `prompt_values_supported`, `end_session_endpoint` and
    /// `authorization_response_iss_parameter_supported` belong to an OAuth authorization endpoint
    /// and RP-initiated logout, and are added with them.
    static func discovery(issuer: String) -> DiscoveryDocument {
        let methods = ClientAuthMethod.allCases.map(\.rawValue)
        let assertionAlgorithms = ["HS256"] + JWKSignatures.supportedAlgorithms
        return DiscoveryDocument(
            issuer: issuer,
            authorizationEndpoint: "\(issuer)/v1/flows",
            tokenEndpoint: "\(issuer)/oauth2/token",
            jwksUri: "\(issuer)/.well-known/jwks.json",
            responseTypesSupported: ["code"],
            subjectTypesSupported: ["public"],
            idTokenSigningAlgValuesSupported: SigningAlgorithm.names,
            grantTypesSupported: TokenEndpoint.grantTypes,
            codeChallengeMethodsSupported: ["S256"],
            tokenEndpointAuthMethodsSupported: methods,
            scopesSupported: ["openid", "email", "offline_access"],
            claimsSupported: [
                "iss", "sub", "aud", "exp", "iat", "auth_time", "amr", "azp", "sid", "email", "email_verified",
                "phone_number", "phone_number_verified", "at_hash",
            ],
            userinfoEndpoint: "\(issuer)/oauth2/userinfo",
            revocationEndpoint: "\(issuer)/oauth2/revoke",
            introspectionEndpoint: "\(issuer)/oauth2/introspect",
            dpopSigningAlgValuesSupported: ["ES256"],
            registrationEndpoint: "\(issuer)/oauth2/register",
            tokenEndpointAuthSigningAlgValuesSupported: assertionAlgorithms,
            revocationEndpointAuthMethodsSupported: methods,
            revocationEndpointAuthSigningAlgValuesSupported: assertionAlgorithms,
            // Introspection is for confidential applications only.
            introspectionEndpointAuthMethodsSupported: methods.filter { $0 != ClientAuthMethod.none.rawValue },
            introspectionEndpointAuthSigningAlgValuesSupported: assertionAlgorithms,
            // No request objects by reference (OpenID Connect Discovery's default is true).
            requestURIParameterSupported: false)
    }
}

extension OAuthRoutes {
    private static let appAttestKeyHeader = HTTPField.Name(ProtocolHeader.appAttestKey)!
    private static let appAttestAssertionHeader = HTTPField.Name(ProtocolHeader.appAttestAssertion)!

    /// The App Attest key ID and assertion of a token request, when it carries both.
    static func appAttestEvidence(_ request: Request) -> AppAttestEvidence? {
        guard let keyId = request.headers[appAttestKeyHeader], let assertion = request.headers[appAttestAssertionHeader]
        else { return nil }
        return AppAttestEvidence(keyId: keyId, assertion: assertion)
    }
}
