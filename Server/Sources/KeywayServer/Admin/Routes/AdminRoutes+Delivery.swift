import Foundation
import Hummingbird
import KeywayProtocol

extension AdminRoutes {
    /// Delivery: the dead letters and the messages sent.
    func delivery(_ admin: RouterGroup<KeywayRequestContext>) {
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
    }
}
