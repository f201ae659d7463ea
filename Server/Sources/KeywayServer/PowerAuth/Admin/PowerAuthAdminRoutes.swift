import Foundation
import Hummingbird
import KeywayProtocol
import Logging

/// PowerAuth on the admin API (behind the admin token) and the signed-in user's own activations:
/// - `GET/PATCH /admin/applications/{configId}/powerauth`: the credentials and settings;
/// - `POST/GET /admin/users/{userId}/activations`: a new activation code, the user's activations;
/// - `POST /admin/activations/{activationId}/commit|block|unblock`, `DELETE
///   /admin/activations/{activationId}`: the lifecycle;
/// - `GET /admin/activations/{activationId}/tokens`, `DELETE
///   /admin/activations/{activationId}/tokens/{tokenId}`: the activation's MAC tokens;
/// - `POST/GET /admin/users/{userId}/recovery-codes`, `DELETE /admin/recovery-codes/{id}`:
///   recovery postcards and the user's recovery codes;
/// - `POST/GET /v1/user/activations` with an access token: the same for the token's user
///   (`configId` defaults to the token's application).
struct PowerAuthAdminRoutes {
    let administration: PowerAuthAdministration
    let tokens: PowerAuthTokenService
    let recovery: PowerAuthRecoveryService
    let logger: Logger

    func register(on router: RouteTable) {
        let admin = AdminAuthorization.group(on: router)
        admin.get("applications/:configId/powerauth") { _, context in
            let configId = try context.parameters.require("configId")
            return try await answer { try HTTPResponses.json(try await administration.settings(configId: configId)) }
        }
        admin.patch("applications/:configId/powerauth") { request, context in
            let configId = try context.parameters.require("configId")
            let update = try await RequestDecoding.json(PowerAuthSettingsUpdate.self, from: request, context: context)
            return try await answer {
                let saved = try await administration.updateSettings(configId: configId, update)
                logger.notice(
                    "admin: powerauth settings changed",
                    metadata: [
                        "configId": "\(configId)", "maxFailedAttempts": "\(saved.maxFailedAttempts)",
                        "recoveryEnabled": "\(saved.recoveryEnabled)",
                    ])
                return try HTTPResponses.json(saved)
            }
        }
        admin.post("users/:userId/activations") { request, context in
            let userId = try context.parameters.require("userId")
            let body = try await RequestDecoding.json(CreateActivationCodeRequest.self, from: request, context: context)
            return try await answer {
                let created = try await administration.createCode(userId: userId, request: body)
                logger.notice(
                    "admin: activation code created", metadata: ["user": "\(userId)", "activation": "\(created.activationId)"])
                return try HTTPResponses.json(created, status: .created)
            }
        }
        admin.get("users/:userId/activations") { _, context in
            let userId = try context.parameters.require("userId")
            return try await answer { try HTTPResponses.json(try await administration.list(userId: userId)) }
        }
        admin.post("activations/:activationId/commit") { request, context in
            let activationId = try context.parameters.require("activationId")
            let body = try await optionalJSON(CommitActivationRequest.self, request, context) ?? CommitActivationRequest()
            return try await answer {
                let summary = try await administration.commit(activationId: activationId, otp: body.otp)
                logger.notice("admin: activation committed", metadata: ["activation": "\(activationId)"])
                return try HTTPResponses.json(summary)
            }
        }
        admin.post("activations/:activationId/block") { request, context in
            let activationId = try context.parameters.require("activationId")
            let body = try await optionalJSON(BlockActivationRequest.self, request, context) ?? BlockActivationRequest()
            return try await answer {
                let summary = try await administration.block(activationId: activationId, reason: body.reason)
                logger.notice("admin: activation blocked", metadata: ["activation": "\(activationId)"])
                return try HTTPResponses.json(summary)
            }
        }
        admin.post("activations/:activationId/unblock") { _, context in
            let activationId = try context.parameters.require("activationId")
            return try await answer {
                let summary = try await administration.unblock(activationId: activationId)
                logger.notice("admin: activation unblocked", metadata: ["activation": "\(activationId)"])
                return try HTTPResponses.json(summary)
            }
        }
        admin.delete("activations/:activationId") { _, context in
            let activationId = try context.parameters.require("activationId")
            return try await answer {
                let summary = try await administration.remove(activationId: activationId)
                logger.notice("admin: activation removed", metadata: ["activation": "\(activationId)"])
                return try HTTPResponses.json(summary)
            }
        }
        admin.get("activations/:activationId/tokens") { _, context in
            let activationId = try context.parameters.require("activationId")
            return try await answer { try HTTPResponses.json(try await tokens.list(activationId: activationId)) }
        }
        admin.delete("activations/:activationId/tokens/:tokenId") { _, context in
            let activationId = try context.parameters.require("activationId")
            let tokenId = try context.parameters.require("tokenId")
            return try await answer {
                try await tokens.revoke(activationId: activationId, tokenId: tokenId)
                logger.notice("admin: token revoked", metadata: ["activation": "\(activationId)", "token": "\(tokenId)"])
                return Response(status: .noContent)
            }
        }
        admin.post("users/:userId/recovery-codes") { request, context in
            let userId = try context.parameters.require("userId")
            let body = try await RequestDecoding.json(CreateRecoveryPostcardRequest.self, from: request, context: context)
            return try await answer {
                let created = try await recovery.createPostcard(userId: userId, request: body)
                logger.notice(
                    "admin: recovery postcard created",
                    metadata: ["user": "\(userId)", "recoveryCode": "\(created.recoveryCodeId)", "puks": "\(created.puks.count)"])
                return try HTTPResponses.json(created, status: .created)
            }
        }
        admin.get("users/:userId/recovery-codes") { _, context in
            let userId = try context.parameters.require("userId")
            return try await answer { try HTTPResponses.json(try await recovery.list(userId: userId)) }
        }
        admin.delete("recovery-codes/:recoveryCodeId") { _, context in
            let recoveryCodeId = try context.parameters.require("recoveryCodeId")
            return try await answer {
                let revoked = try await recovery.revoke(recoveryCodeId: recoveryCodeId)
                logger.notice("admin: recovery code revoked", metadata: ["recoveryCode": "\(recoveryCodeId)"])
                return try HTTPResponses.json(revoked)
            }
        }

        // A device's credentials are the account's: first-party applications' tokens only.
        let user = router.declaring(.account)
        user.post("v1/user/activations") { request, context in
            let signedIn = try context.signedInUser()
            let body = try await RequestDecoding.json(CreateActivationCodeRequest.self, from: request, context: context)
            return try await answer {
                let created = try await administration.createCode(
                    userId: signedIn.user.id, request: body, defaultConfigId: signedIn.claims.clientId)
                logger.notice(
                    "powerauth: activation code created by its user",
                    metadata: ["user": "\(signedIn.user.id)", "activation": "\(created.activationId)"])
                return try HTTPResponses.json(created, status: .created)
            }
        }
        user.get("v1/user/activations") { _, context in
            let user = try context.signedInUser().user
            return try await answer { try HTTPResponses.json(try await administration.list(userId: user.id)) }
        }
    }

    /// Runs `body`, answering ``PowerAuthAdminError``s with their problem documents.
    private func answer(_ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as PowerAuthAdminError {
            throw error.problem
        }
    }

    private func optionalJSON<T: Decodable>(_ type: T.Type, _ request: Request, _ context: KeywayRequestContext)
        async throws -> T?
    {
        try await RequestDecoding.optionalJSON(type, from: request, context: context)
    }
}
