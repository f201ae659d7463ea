import Foundation
import Hummingbird
import KeywayPowerAuthWire
import Logging
import NIOCore

/// The routes an app's backend calls about device signatures (``PowerAuthBackendVerification``),
/// envelope keys, tokens, activations' public keys and server signatures
/// (``PowerAuthBackendServices``). Every one is declared ``Caller/backend(_:)`` with the
/// `powerauth` role: the route table's guard (``BackendAuthorization``) authenticates the
/// confidential application and checks the role before any of them runs, and hands the
/// application over in ``KeywayRequestContext/backend``. Refusals of malformed input are RFC 6749
/// §5.2 errors; a signature that does not verify is a `200` answer with `valid: false`.
struct PowerAuthBackendRoutes {
    let verification: PowerAuthBackendVerification
    let services: PowerAuthBackendServices
    let logger: Logger

    /// The largest body read: a Base64 signed body of 1 MiB and the rest.
    static let maxBodySize = 1_500_000

    func register(on table: RouteTable) {
        let router = table.declaring(.backend(.powerAuth))
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
        route("v1/powerauth/ecies/keys", on: router) { (request: EnvelopeKeyRequest, caller) in
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
        let logger = self.logger
        router.get("v1/powerauth/activations/:activationId") { _, context in
            await Self.answer(context: context, logger: logger) {
                let caller = try Self.caller(context)
                let activationId = try context.parameters.require("activationId")
                return try HTTPResponses.json(try await services.activation(activationId, caller: caller))
            }
        }
    }

    private func route<Body: Decodable & Sendable>(
        _ path: RouterPath, on router: DeclaredRoutes,
        _ handler: @escaping @Sendable (Body, ApplicationRecord) async throws -> Response
    ) {
        let logger = self.logger
        router.post(path) { request, context in
            await Self.answer(context: context, logger: logger) {
                let caller = try Self.caller(context)
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

    /// The calling application, which the route table's guard authenticated.
    private static func caller(_ context: KeywayRequestContext) throws -> ApplicationRecord {
        guard let backend = context.backend else {
            // Unreachable: the routes are declared `.backend(.powerAuth)`, behind their guard.
            throw OAuthFailure.invalidClient("Authenticate as a confidential application with HTTP Basic.", usedBasic: false)
        }
        return backend
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
