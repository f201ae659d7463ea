import Foundation
import Hummingbird
import Logging
import NIOCore

/// The routes an app's backend calls about device signatures (``PowerAuthBackendVerification``),
/// envelope keys, tokens, activations' public keys and server signatures
/// (``PowerAuthBackendServices``),
/// for an application the administrators granted the `powerauth` backend role
/// (``BackendRole/powerAuth``), authenticated like the token endpoint's confidential clients (HTTP
/// Basic with the client secret; a client assertion is not accepted here: the body is JSON). Any
/// other client of the project — a client registered through `/oauth2/register` above all — is
/// answered `403` `unauthorized_client`. Refusals of the caller
/// or of malformed input are RFC 6749 §5.2 errors; a signature that does not verify is a `200`
/// answer with `valid: false`.
struct PowerAuthBackendRoutes {
    let verification: PowerAuthBackendVerification
    let services: PowerAuthBackendServices
    let clients: ClientAuthenticator
    let logger: Logger

    /// The largest body read: a Base64 signed body of 1 MiB and the rest.
    static let maxBodySize = 1_500_000

    func register(on router: RouteTable) {
        let services = self.services
        route("v1/powerauth/signatures/verify", on: router) { (request: PowerAuthBackendVerification.OnlineRequest, caller) in
            try HTTPResponses.json(try await verification.verify(request, caller: caller))
        }
        route("v1/powerauth/offline-payloads", on: router) { (request: PowerAuthBackendVerification.PayloadRequest, caller) in
            try HTTPResponses.json(try await verification.payload(request, caller: caller))
        }
        route("v1/powerauth/offline-signatures/verify", on: router) {
            (request: PowerAuthBackendVerification.OfflineRequest, caller) in
            try HTTPResponses.json(try await verification.verifyOffline(request, caller: caller))
        }
        route("v1/powerauth/ecies/keys", on: router) { (request: PowerAuthBackendServices.EnvelopeKeyRequest, caller) in
            try HTTPResponses.json(try await services.envelopeKey(request, caller: caller))
        }
        route("v1/powerauth/tokens/verify", on: router) { (request: PowerAuthBackendServices.TokenRequest, caller) in
            try HTTPResponses.json(try await services.verifyToken(request, caller: caller))
        }
        route("v1/powerauth/device-signatures/verify", on: router) {
            (request: PowerAuthBackendServices.DeviceSignatureRequest, caller) in
            try HTTPResponses.json(try await services.verifyDeviceSignature(request, caller: caller))
        }
        route("v1/powerauth/server-signatures", on: router) { (request: PowerAuthBackendServices.ServerSignatureRequest, caller) in
            try HTTPResponses.json(try await services.serverSignature(request, caller: caller))
        }
        let clients = self.clients
        let logger = self.logger
        router.get("v1/powerauth/activations/:activationId") { request, context in
            await Self.answer(context: context, logger: logger) {
                let caller = try await Self.caller(request, clients: clients)
                let activationId = try context.parameters.require("activationId")
                return try HTTPResponses.json(try await services.activation(activationId, caller: caller))
            }
        }
    }

    private func route<Body: Decodable & Sendable>(
        _ path: RouterPath, on router: RouteTable,
        _ handler: @escaping @Sendable (Body, ApplicationRecord) async throws -> Response
    ) {
        let clients = self.clients
        let logger = self.logger
        router.post(path) { request, context in
            await Self.answer(context: context, logger: logger) {
                let caller = try await Self.caller(request, clients: clients)
                if let contentType = request.headers[.contentType], !contentType.lowercased().contains("json") {
                    throw OAuthFailure.invalidRequest("Send the body as application/json.")
                }
                let data: Data
                do {
                    data = Data(buffer: try await request.body.collect(upTo: Self.maxBodySize))
                } catch {
                    throw OAuthFailure.invalidRequest("The body is larger than \(Self.maxBodySize) bytes.")
                }
                let body: Body
                do {
                    body = try JSONDecoder().decode(Body.self, from: data)
                } catch {
                    throw OAuthFailure.invalidRequest("The body is not the JSON object this endpoint reads.")
                }
                return try await handler(body, caller)
            }
        }
    }

    /// The calling application, a confidential one holding the `powerauth` backend role.
    private static func caller(_ request: Request, clients: ClientAuthenticator) async throws -> ApplicationRecord {
        let authorization = request.headers[.authorization]
        guard authorization != nil else {
            throw OAuthFailure.invalidClient("Authenticate as a confidential application with HTTP Basic.", usedBasic: false)
        }
        let caller = try await clients.authenticate(form: [:], authorization: authorization)
        guard caller.clientType == .confidential else {
            throw OAuthFailure.invalidClient(
                "Only confidential applications (an app's backend) may use these endpoints.", usedBasic: true)
        }
        guard caller.backendRoles.contains(.powerAuth) else {
            var refusal = OAuthFailure.unauthorizedClient(
                "This application does not hold the powerauth backend role; the project's administrator grants it (PATCH /admin/applications/{configId}).")
            refusal.status = 403
            throw refusal
        }
        return caller
    }

    /// Runs `body`, answering refusals as RFC 6749 §5.2 errors.
    private static func answer(
        context: KeywayRequestContext, logger: Logger, _ body: () async throws -> Response
    ) async -> Response {
        do {
            return try await body()
        } catch let failure as OAuthFailure {
            return HTTPResponses.oauthError(failure)
        } catch is any TransientDatabaseFailure {
            return HTTPResponses.oauthError(.temporarilyUnavailable)
        } catch {
            logger.error(
                "powerauth backend request failed: \(String(describing: type(of: error)))",
                metadata: ["traceId": "\(context.traceId)"])
            return HTTPResponses.oauthError(.serverError)
        }
    }
}
