import Foundation
import Hummingbird
import KeywayProtocol

extension AdminRoutes {
    /// An application's invite codes, start tokens and registration tokens for dynamic registration.
    func applicationTokens(_ admin: RouterGroup<KeywayRequestContext>) {
        admin.post("applications/:configId/invite-codes") { request, context in
            let configId = try context.parameters.require("configId")
            let body = try await optionalJSON(InviteCodeRequest.self, request, context) ?? InviteCodeRequest()
            return try await answer(context) {
                let issued = try await service.createInviteCode(configId: configId, expiresInSeconds: body.expiresInSeconds)
                return try HTTPResponses.json(issued, status: .created)
            }
        }
        admin.post("applications/:configId/start-tokens") { request, context in
            let configId = try context.parameters.require("configId")
            let body = try await RequestDecoding.json(StartTokenRequest.self, from: request, context: context)
            return try await answer(context) {
                let issued = try await service.createStartToken(
                    configId: configId, flowType: body.flowType, identifier: body.identifier,
                    expiresInSeconds: body.expiresInSeconds)
                return try HTTPResponses.json(issued, status: .created)
            }
        }
        admin.get("applications/:configId/registration-tokens") { _, context in
            let configId = try context.parameters.require("configId")
            return try await answer(context) {
                try HTTPResponses.json(
                    AdminRegistrationTokenList(registrationTokens: try await service.registrationTokens(configId: configId)))
            }
        }
        admin.post("applications/:configId/registration-tokens") { request, context in
            let configId = try context.parameters.require("configId")
            let body = try await optionalJSON(RegistrationTokenRequest.self, request, context) ?? RegistrationTokenRequest()
            return try await answer(context) {
                let issued = try await service.issueRegistrationToken(
                    configId: configId, expiresInSeconds: body.expiresInSeconds)
                logger.notice(
                    "admin: registration token issued", metadata: ["configId": "\(configId)", "token": "\(issued.id)"])
                return try HTTPResponses.json(issued, status: .created)
            }
        }
        admin.delete("applications/:configId/registration-tokens/:tokenId") { _, context in
            let configId = try context.parameters.require("configId")
            let tokenId = try context.parameters.require("tokenId")
            return try await answer(context) {
                try await service.revokeRegistrationToken(configId: configId, tokenId: tokenId)
                logger.notice(
                    "admin: registration token revoked", metadata: ["configId": "\(configId)", "token": "\(tokenId)"])
                return Response(status: .noContent)
            }
        }
    }
}
