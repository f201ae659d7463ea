import Foundation
import Hummingbird
import KeywayProtocol

extension AdminRoutes {
    /// A project's upstream identity providers: created, listed, read, changed, deleted.
    func identityProviders(_ admin: RouterGroup<KeywayRequestContext>) {
        admin.post("projects/:projectId/identity-providers") { request, context in
            let projectId = try context.parameters.require("projectId")
            let body = try await RequestDecoding.json(CreateIdentityProviderRequest.self, from: request, context: context)
            return try await answer(context) {
                let created = try await service.createIdentityProvider(projectId: projectId, body)
                logger.notice(
                    "admin: identity provider added", metadata: ["projectId": "\(projectId)", "provider": "\(created.id)"])
                return try HTTPResponses.json(created, status: .created)
            }
        }
        admin.get("projects/:projectId/identity-providers") { _, context in
            let projectId = try context.parameters.require("projectId")
            return try await answer(context) {
                try HTTPResponses.json(try await service.identityProviders(projectId: projectId))
            }
        }
        admin.get("projects/:projectId/identity-providers/:providerId") { _, context in
            let projectId = try context.parameters.require("projectId")
            let providerId = try context.parameters.require("providerId")
            return try await answer(context) {
                try HTTPResponses.json(try await service.identityProvider(projectId: projectId, id: providerId))
            }
        }
        admin.patch("projects/:projectId/identity-providers/:providerId") { request, context in
            let projectId = try context.parameters.require("projectId")
            let providerId = try context.parameters.require("providerId")
            let body = try await RequestDecoding.json(UpdateIdentityProviderRequest.self, from: request, context: context)
            return try await answer(context) {
                let saved = try await service.updateIdentityProvider(projectId: projectId, id: providerId, body)
                logger.notice(
                    "admin: identity provider changed", metadata: ["projectId": "\(projectId)", "provider": "\(providerId)"])
                return try HTTPResponses.json(saved)
            }
        }
        admin.delete("projects/:projectId/identity-providers/:providerId") { _, context in
            let projectId = try context.parameters.require("projectId")
            let providerId = try context.parameters.require("providerId")
            return try await answer(context) {
                try await service.deleteIdentityProvider(projectId: projectId, id: providerId)
                logger.notice(
                    "admin: identity provider removed", metadata: ["projectId": "\(projectId)", "provider": "\(providerId)"])
                return Response(status: .noContent)
            }
        }
    }
}
