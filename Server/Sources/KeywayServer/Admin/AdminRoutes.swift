import Foundation
import Hummingbird
import KeywayProtocol
import Logging

/// The admin API under `/admin`, behind ``AdminAuthorization``: applications, their settings and
/// policies, invite codes, start tokens and registration tokens, projects' themes, and blocking
/// users. See docs/admin.md.
struct AdminRoutes {
    let service: AdminService
    let logger: Logger
    /// Reads the signing keys again after a rotation, so this instance publishes the next key at once.
    var keysChanged: @Sendable () async throws -> Void = {}

    func register(on router: RouteTable) {
        let admin = AdminAuthorization.group(on: router)

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
        admin.get("signing-keys") { _, context in
            try await answer(context) { try HTTPResponses.json(try await service.signingKeys()) }
        }
        admin.post("signing-keys/rotate") { request, context in
            let body = try await optionalJSON(RotateSigningKeyRequest.self, request, context) ?? RotateSigningKeyRequest()
            return try await answer(context) {
                let rotation = try await service.rotateSigningKey(
                    algorithm: body.algorithm, prePublicationSeconds: body.prePublicationSeconds)
                try await keysChanged()
                logger.notice(
                    "admin: signing key rotation",
                    metadata: [
                        "algorithm": "\(rotation.algorithm)", "next": "\(rotation.nextKid)",
                        "activatesAt": "\(rotation.activatesAt)", "created": "\(rotation.created)",
                    ])
                return try HTTPResponses.json(rotation, status: rotation.created ? .created : .ok)
            }
        }
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
        admin.get("users") { request, context in
            guard let email = request.uri.queryParameters.get("email"), !email.isEmpty else {
                throw FlowProblem.invalidRequest(
                    [InvalidField(name: "email", reason: "Give the email address to look up: /admin/users?email=ADDRESS.")])
            }
            return try await answer(context) { try HTTPResponses.json(AdminUserList(users: try await service.users(email: email))) }
        }
        // Messages the delivery outbox gave up on, newest first; `?configId=` narrows to the
        // application's project.
        admin.get("dead-letters") { request, context in
            try await answer(context) {
                let configId = request.uri.queryParameters.get("configId")
                let letters = try await service.database.read { repositories -> [DeliveryStatus]? in
                    guard let configId else {
                        return try await repositories.deliveryOutbox.deadLetters()
                    }
                    guard let application = try await repositories.applications.find(configId: configId) else {
                        return nil
                    }
                    return try await repositories.deliveryOutbox.deadLetters(projectId: application.projectId)
                }
                guard let letters else { throw AdminError.applicationNotFound(configId: configId ?? "") }
                return try HTTPResponses.json(AdminDeadLetterList(deadLetters: letters.map(AdminDeadLetter.init)))
            }
        }
        // The outbox's messages by state (`?status=pending,sending` by default: what waits to be
        // delivered), most recently changed first; `?configId=` narrows to the application's
        // project, `?limit=` (1…500, default 100).
        admin.get("messages") { request, context in
            try await answer(context) {
                let query = request.uri.queryParameters
                let names = (query.get("status") ?? "pending,sending").split(separator: ",").map(String.init)
                let states = names.compactMap(DeliveryStatus.State.init(rawValue:))
                guard !states.isEmpty, states.count == names.count else {
                    throw FlowProblem.invalidRequest([
                        InvalidField(name: "status", reason: "Give states among pending, sending, delivered and dead, comma-separated.")
                    ])
                }
                let given = query.get("limit")
                let limit = given.flatMap { Int($0) } ?? 100
                guard (1...500).contains(limit), given == nil || Int(given!) != nil else {
                    throw FlowProblem.invalidRequest([InvalidField(name: "limit", reason: "limit is a whole number from 1 to 500.")])
                }
                let configId = query.get("configId")
                let messages = try await service.database.read { repositories -> [DeliveryStatus]? in
                    guard let configId else {
                        return try await repositories.deliveryOutbox.messages(in: states, limit: limit)
                    }
                    guard let application = try await repositories.applications.find(configId: configId) else {
                        return nil
                    }
                    return try await repositories.deliveryOutbox.messages(
                        in: states, projectId: application.projectId, limit: limit)
                }
                guard let messages else { throw AdminError.applicationNotFound(configId: configId ?? "") }
                return try HTTPResponses.json(AdminMessageList(messages: messages.map(AdminMessage.init)))
            }
        }
        admin.get("users/:userId") { _, context in
            let userId = try context.parameters.require("userId")
            return try await answer(context) { try HTTPResponses.json(try await service.user(id: userId)) }
        }
        admin.post("users/:userId/block") { _, context in
            try await setBlocked(true, context)
        }
        admin.post("users/:userId/unblock") { _, context in
            try await setBlocked(false, context)
        }
        admin.get("users/:userId/devices") { _, context in
            let userId = try context.parameters.require("userId")
            return try await answer(context) {
                try HTTPResponses.json(TrustedDeviceList(devices: try await service.trustedDevices(userId: userId)))
            }
        }
        admin.delete("users/:userId/devices/:deviceId") { _, context in
            let userId = try context.parameters.require("userId")
            let deviceId = try context.parameters.require("deviceId")
            return try await answer(context) {
                try await service.revokeDevice(userId: userId, deviceId: deviceId)
                logger.notice("admin: trusted device revoked", metadata: ["user": "\(userId)", "device": "\(deviceId)"])
                return Response(status: .noContent)
            }
        }
        admin.delete("users/:userId/devices") { _, context in
            let userId = try context.parameters.require("userId")
            return try await answer(context) {
                let count = try await service.revokeDevices(userId: userId)
                logger.notice("admin: trusted devices revoked", metadata: ["user": "\(userId)", "count": "\(count)"])
                return Response(status: .noContent)
            }
        }
    }

    private func setBlocked(_ blocked: Bool, _ context: KeywayRequestContext) async throws -> Response {
        let userId = try context.parameters.require("userId")
        return try await answer(context) {
            let user = try await service.setBlocked(userId: userId, blocked: blocked)
            logger.notice(blocked ? "admin: user blocked" : "admin: user unblocked", metadata: ["user": "\(userId)"])
            return try HTTPResponses.json(user)
        }
    }

    /// Runs `body`, answering ``AdminError``s with their problem documents.
    private func answer(_ context: KeywayRequestContext, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as AdminError {
            switch error {
            case .applicationNotFound(let configId):
                throw AdminProblem.applicationNotFound(configId)
            case .userNotFound(let userId):
                throw AdminProblem.userNotFound(userId)
            case .invalidInput(let field, let message):
                throw FlowProblem.invalidRequest([InvalidField(name: field, reason: message)], detail: message)
            case .deviceNotFound:
                throw FlowProblem(
                    .notFound, status: 404, title: "Device not found", detail: error.description, action: .abort)
            case .projectNotFound(let projectId):
                throw AdminProblem.projectNotFound(projectId)
            case .registrationTokenNotFound:
                throw FlowProblem(
                    .notFound, status: 404, title: "Registration token not found", detail: error.description,
                    action: .abort)
            case .identityProviderNotFound:
                throw FlowProblem(
                    .notFound, status: 404, title: "Identity provider not found", detail: error.description, action: .abort)
            case .identityProviderExists:
                throw FlowProblem(
                    .alreadyExists, status: 409, title: "Identity provider exists", detail: error.description, action: .abort)
            case .invalidPolicy(let policyError):
                var problem = AdminProblem.invalidPolicy(policyError).problem
                problem.traceId = context.traceId
                return try HTTPResponses.json(
                    PolicyRejection(problem: problem, problems: policyError.problems), status: .unprocessableContent,
                    contentType: Problem.mediaType)
            }
        }
    }

    /// The JSON body, or `nil` when the request has none.
    private func optionalJSON<T: Decodable>(_ type: T.Type, _ request: Request, _ context: KeywayRequestContext)
        async throws -> T?
    {
        let data = try await RequestDecoding.body(request, context: context)
        guard !data.isEmpty else { return nil }
        do {
            return try WireCoding.makeDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw FlowProblem.invalidRequest([RequestDecoding.invalidField(for: error)])
        }
    }
}
