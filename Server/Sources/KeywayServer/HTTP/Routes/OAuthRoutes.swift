import Foundation
import HTTPTypes
import Hummingbird
import KeywayProtocol
import Logging
import NIOCore

/// The token, revocation, introspection and registration endpoints, and the well-known documents
/// (``WellKnownRoutes``). The token and revocation endpoints answer scripts of other origins as
/// ``CORS`` says.
struct OAuthRoutes {
    let tokenEndpoint: TokenEndpoint
    let revocationEndpoint: RevocationEndpoint
    let introspectionEndpoint: IntrospectionEndpoint
    let registrationEndpoint: RegistrationEndpoint
    let keys: SigningKeyRing
    let issuer: @Sendable () -> String
    let cors: CORS

    func register(on router: RouteTable) throws {
        try WellKnownRoutes(keys: keys, issuer: issuer, cors: cors).register(on: router)
        post("oauth2/token", on: router, cors: true) { call, request in
            try await keys.refreshIfDue()
            guard let tokenURL = URL(string: "\(issuer())/oauth2/token") else { throw OAuthFailure.serverError }
            let answer = try await tokenEndpoint.handle(
                call, dpopProofs: request.headers[values: HTTPResponses.dpopHeader], tokenURL: tokenURL,
                appAttestEvidence: Self.appAttestEvidence(request))
            var headers: HTTPFields = [HTTPResponses.pragmaHeader: "no-cache"]
            if let nonce = answer.dpopNonce { headers[HTTPResponses.dpopNonceHeader] = nonce }
            return try HTTPResponses.json(answer.response, extraHeaders: headers)
        }
        post("oauth2/revoke", on: router, cors: true) { call, _ in
            try await revocationEndpoint.handle(call)
            return Response(status: .ok, headers: [.cacheControl: "no-store"])
        }
        router.declaring(.registrant).post("oauth2/register") { request, context in
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
            } catch is any TransientDatabaseFailure {
                return HTTPResponses.oauthError(.temporarilyUnavailable)
            } catch {
                tokenEndpoint.logger.error(
                    "client registration failed: \(String(describing: type(of: error)))",
                    metadata: ["traceId": "\(context.traceId)"])
                return HTTPResponses.oauthError(.serverError)
            }
        }
        post("oauth2/introspect", on: router, caller: .confidentialClient) { call, _ in
            try HTTPResponses.json(try await introspectionEndpoint.handle(call))
        }
    }

    /// A form-encoded OAuth endpoint of `caller` (a client, or a confidential one): its guard
    /// (``ClientAuthorization``) has parsed the body (RFC 6749 §3.2) and authenticated the client
    /// before `handler` runs, and every failure is answered as an RFC 6749 §5.2 error. With `cors`,
    /// a script of an origin the request's client registered may read the answer, the guard's
    /// refusals included (``ClientCORS``), and preflights are answered.
    private func post(
        _ path: RouterPath, on router: RouteTable, caller: Caller = .client, cors allowsCORS: Bool = false,
        _ handler: @escaping @Sendable (ClientCall, Request) async throws -> Response
    ) {
        let logger = tokenEndpoint.logger
        var routes = router.declaring(caller)
        if allowsCORS {
            let cors = self.cors
            router.declaring(.anyone).options(path) { request, _, allow in
                await cors.preflight(request, allow: allow, everyone: false)
            }
            routes = routes.answeredThrough(ClientCORS(cors: cors))
        }
        routes.post(path) { request, context in
            await Self.answer(context: context, logger: logger) {
                try await handler(try context.clientCall(), request)
            }
        }
    }

    /// Runs `handler`, answering every failure as an RFC 6749 §5.2 error.
    private static func answer(
        context: KeywayRequestContext, logger: Logger, _ handler: () async throws -> Response
    ) async -> Response {
        do {
            return try await handler()
        } catch let failure as OAuthFailure {
            return HTTPResponses.oauthError(failure)
        } catch is any TransientDatabaseFailure {
            logger.warning(
                "OAuth request refused: the database is away or too busy to answer in time",
                metadata: ["traceId": "\(context.traceId)", "route": "\(RequestLogMiddleware.route(context))"])
            return HTTPResponses.oauthError(.temporarilyUnavailable)
        } catch {
            logger.error(
                "OAuth endpoint failed: \(String(describing: type(of: error)))",
                metadata: ["traceId": "\(context.traceId)", "route": "\(RequestLogMiddleware.route(context))"])
            return HTTPResponses.oauthError(.serverError)
        }
    }
}

extension OAuthRoutes {
    private static let appAttestKeyHeader = HTTPField.Name(ProtocolHeader.appAttestKey)!
    private static let appAttestAssertionHeader = HTTPField.Name(ProtocolHeader.appAttestAssertion)!

    /// The App Attest key ID and assertion of a token request, when it carries both.
    static func appAttestEvidence(_ request: Request) -> AppAttestEvidence? {
        guard let keyId = request.headers[appAttestKeyHeader], let assertion = request.headers[appAttestAssertionHeader]
        else { return nil }
        return AppAttestEvidence(keyID: keyId, assertion: assertion)
    }
}
