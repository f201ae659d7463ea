import Foundation
import Hummingbird
import KeywayProtocol

extension AdminRoutes {
    /// Applications: listed, created, read, their settings changed, their policies read and replaced.
    func applications(_ admin: RouterGroup<KeywayRequestContext>) {
        admin.get("applications") { _, context in
            try await answer(context) {
                try HTTPResponses.json(AdminApplicationList(applications: try await service.listApplications()))
            }
        }
        admin.post("applications") { request, context in
            let body = try await RequestDecoding.json(CreateApplicationRequest.self, from: request, context: context)
            return try await answer(context) {
                let created = try await service.createApplication(
                    name: body.name, clientType: body.clientType ?? "public", projectId: body.projectId)
                logger.notice("admin: application created", metadata: ["configId": "\(created.configId)"])
                return try HTTPResponses.json(created, status: .created)
            }
        }
        admin.get("applications/:configId") { _, context in
            let configId = try context.parameters.require("configId")
            return try await answer(context) { try HTTPResponses.json(try await service.application(configId: configId)) }
        }
        admin.patch("applications/:configId") { request, context in
            let configId = try context.parameters.require("configId")
            let update = try await RequestDecoding.json(UpdateApplicationRequest.self, from: request, context: context)
            return try await answer(context) {
                let saved = try await service.updateApplication(configId: configId, update)
                logger.notice(
                    "admin: application settings changed",
                    metadata: [
                        "configId": "\(configId)", "idTokenSignedResponseAlg": "\(saved.idTokenSignedResponseAlg)",
                        "corsOrigins": "\(saved.corsOrigins.count)", "redirectUris": "\(saved.redirectUris.count)",
                        "postLogoutRedirectUris": "\(saved.postLogoutRedirectUris.count)",
                        "allowedScopes": "\(saved.allowedScopes?.joined(separator: " ") ?? "all")",
                        "dpop": "\(saved.dpop.mode)\(saved.dpop.requireNonce ? "+nonce" : "")",
                        "requirePAR": "\(saved.requirePushedAuthorizationRequests)",
                        "requirePkce": "\(saved.requirePkce)",
                        "backendRoles": "\(saved.backendRoles.joined(separator: " "))",
                    ])
                return try HTTPResponses.json(saved)
            }
        }
        admin.get("applications/:configId/policy") { _, context in
            let configId = try context.parameters.require("configId")
            return try await answer(context) { try HTTPResponses.json(try await service.policy(configId: configId)) }
        }
        admin.put("applications/:configId/policy") { request, context in
            let configId = try context.parameters.require("configId")
            let policy = try await RequestDecoding.json(ApplicationPolicy.self, from: request, context: context)
            return try await answer(context) {
                let saved = try await service.setPolicy(policy, configId: configId)
                logger.notice("admin: policy replaced", metadata: ["configId": "\(configId)"])
                return try HTTPResponses.json(saved)
            }
        }
    }
}
