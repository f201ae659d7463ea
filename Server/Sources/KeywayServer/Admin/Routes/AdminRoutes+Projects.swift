import Foundation
import Hummingbird
import KeywayProtocol

extension AdminRoutes {
    /// A project's hosted-page theme and profile schema.
    func projects(_ admin: RouterGroup<KeywayRequestContext>) {
        admin.get("projects/:projectId/theme") { _, context in
            let projectId = try context.parameters.require("projectId")
            return try await answer(context) { try HTTPResponses.json(try await service.projectTheme(projectId: projectId)) }
        }
        admin.patch("projects/:projectId/theme") { request, context in
            let projectId = try context.parameters.require("projectId")
            let update = try await RequestDecoding.json(UpdateThemeRequest.self, from: request, context: context)
            return try await answer(context) {
                let saved = try await service.updateProjectTheme(projectId: projectId, update)
                logger.notice("admin: project theme changed", metadata: ["projectId": "\(projectId)"])
                return try HTTPResponses.json(saved)
            }
        }
        admin.get("projects/:projectId/profile-schema") { _, context in
            let projectId = try context.parameters.require("projectId")
            return try await answer(context) { try HTTPResponses.json(try await service.profileSchema(projectId: projectId)) }
        }
        admin.put("projects/:projectId/profile-schema") { request, context in
            let projectId = try context.parameters.require("projectId")
            let body = try await RequestDecoding.json(ProfileSchemaRequest.self, from: request, context: context)
            return try await answer(context) {
                let saved = try await service.setProfileSchema(projectId: projectId, fields: body.fields)
                logger.notice(
                    "admin: profile schema set", metadata: ["projectId": "\(projectId)", "fields": "\(body.fields.count)"])
                return try HTTPResponses.json(saved)
            }
        }
    }
}
