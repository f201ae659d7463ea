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
        applications(admin)
        signingKeys(admin)
        applicationTokens(admin)
        identityProviders(admin)
        projects(admin)
        users(admin)
        delivery(admin)
    }

    func setBlocked(_ blocked: Bool, _ context: KeywayRequestContext) async throws -> Response {
        let userId = try context.parameters.require("userId")
        return try await answer(context) {
            let user = try await service.setBlocked(userId: userId, blocked: blocked)
            logger.notice(blocked ? "admin: user blocked" : "admin: user unblocked", metadata: ["user": "\(userId)"])
            return try HTTPResponses.json(user)
        }
    }

    /// Runs `body`, answering ``AdminError``s with their problem documents.
    func answer(_ context: KeywayRequestContext, _ body: () async throws -> Response) async throws -> Response {
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
                problem.traceID = context.traceId
                return try HTTPResponses.json(
                    PolicyRejection(problem: problem, problems: policyError.problems), status: .unprocessableContent,
                    contentType: Problem.mediaType)
            }
        }
    }

    /// The JSON body, or `nil` when the request has none.
    func optionalJSON<T: Decodable>(_ type: T.Type, _ request: Request, _ context: KeywayRequestContext)
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
