import Foundation
import HTTPTypes
import Hummingbird
import KeywayProtocol
import Logging
import NIOCore

/// Discovery, JWKS, and the token, revocation and introspection endpoints.
struct OAuthRoutes {
    let tokenEndpoint: TokenEndpoint
    let revocationEndpoint: RevocationEndpoint
    let introspectionEndpoint: IntrospectionEndpoint
    let registrationEndpoint: RegistrationEndpoint
    let keys: SigningKeyRing
    let issuer: @Sendable () -> String

    /// Discovery and JWKS answers may be cached by clients for this long.
    static let metadataCacheControl = "public, max-age=300"

    func register(on router: RouteTable) throws {
        // Discovery is fixed while the server runs (the issuer is settled once the socket is
        // bound), so it is encoded once; the key set follows the key schedule.
        let discovery = Locked<(issuer: String, body: ByteBuffer)?>(nil)
        router.get(".well-known/openid-configuration") { _, _ in
            let issuer = issuer()
            let cached = discovery.withLock { $0?.issuer == issuer ? $0?.body : nil }
            let body = try cached ?? HTTPResponses.encode(Self.discovery(issuer: issuer))
            if cached == nil { discovery.withLock { $0 = (issuer, body) } }
            return HTTPResponses.json(encoded: body, cacheControl: Self.metadataCacheControl)
        }
        router.get(".well-known/jwks.json") { _, _ in
            try await keys.refreshIfDue()
            return HTTPResponses.json(encoded: try HTTPResponses.encode(keys.jwks()), cacheControl: Self.metadataCacheControl)
        }
        post("oauth2/token", on: router) { form, request in
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
        post("oauth2/revoke", on: router) { form, request in
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
            } catch is DatabaseContention {
                return HTTPResponses.oauthError(.temporarilyUnavailable)
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

    /// A form-encoded OAuth endpoint: parses the body (RFC 6749 §3.2: form encoding, no repeated
    /// parameters) and answers every failure as an RFC 6749 §5.2 error.
    private func post(
        _ path: RouterPath, on router: RouteTable,
        _ handler: @escaping @Sendable ([String: String], Request) async throws -> Response
    ) {
        let logger = tokenEndpoint.logger
        router.post(path) { request, context in
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
                } catch let error as FormURLEncoded.ParseError {
                    switch error {
                    case .duplicate(let name):
                        throw OAuthFailure.invalidRequest("The parameter \(name) appears more than once.")
                    case .malformed:
                        throw OAuthFailure.invalidRequest("The body is not valid form data.")
                    }
                }
                return try await handler(form, request)
            } catch let failure as OAuthFailure {
                return HTTPResponses.oauthError(failure)
            } catch is FlowProblem {
                return HTTPResponses.oauthError(.invalidRequest("The request body is too large."))
            } catch is DatabaseContention {
                logger.warning(
                    "OAuth request refused: its transaction conflicted with concurrent ones at every attempt",
                    metadata: ["traceId": "\(context.traceId)", "path": "\(request.uri.path)"])
                return HTTPResponses.oauthError(.temporarilyUnavailable)
            } catch {
                logger.error(
                    "OAuth endpoint failed: \(String(describing: type(of: error)))",
                    metadata: ["traceId": "\(context.traceId)", "path": "\(request.uri.path)"])
                return HTTPResponses.oauthError(.serverError)
            }
        }
    }

    static func discovery(issuer: String) -> DiscoveryDocument {
        DiscoveryDocument(
            issuer: issuer,
            authorizationEndpoint: "\(issuer)/v1/flows",
            tokenEndpoint: "\(issuer)/oauth2/token",
            jwksUri: "\(issuer)/.well-known/jwks.json",
            responseTypesSupported: ["code"],
            subjectTypesSupported: ["public"],
            idTokenSigningAlgValuesSupported: ["ES256"],
            grantTypesSupported: TokenEndpoint.grantTypes,
            codeChallengeMethodsSupported: ["S256"],
            tokenEndpointAuthMethodsSupported: ClientAuthMethod.allCases.map(\.rawValue),
            scopesSupported: ["openid", "email", "offline_access"],
            claimsSupported: [
                "iss", "sub", "aud", "exp", "iat", "auth_time", "amr", "azp", "sid", "email", "email_verified",
                "at_hash",
            ],
            userinfoEndpoint: "\(issuer)/oauth2/userinfo",
            revocationEndpoint: "\(issuer)/oauth2/revoke",
            introspectionEndpoint: "\(issuer)/oauth2/introspect",
            dpopSigningAlgValuesSupported: ["ES256"],
            registrationEndpoint: "\(issuer)/oauth2/register",
            tokenEndpointAuthSigningAlgValuesSupported: ["HS256"] + JWKSignatures.supportedAlgorithms)
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
