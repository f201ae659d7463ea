import Foundation
import KeywayProtocol

/// The SMS number's operations on the account-management step.
extension SMSCodeMethod {
    var manageOperationNames: [String] { ["setupSms", "removeSms"] }

    func manageOperations(_ context: FlowEngine.Context) -> [ManageOperation] {
        guard let user = context.user, context.policy.lists(id) else { return [] }
        // Replacing the number weakens the account as removing it does.
        var operations = [
            ManageOperation(
                name: "setupSms", label: "Set up or change the SMS phone number", needsReverification: user.phone != nil)
        ]
        // The number goes only where the email address stays to sign in with.
        if user.phone != nil, user.email != nil {
            operations.append(ManageOperation(name: "removeSms", label: "Remove the SMS phone number", needsReverification: true))
        }
        return operations
    }

    /// Its operations need no check before the fresh verification.
    func precheck(_ operation: String, input: NoOperationInput, _ context: FlowEngine.Context, engine: FlowEngine) throws {}

    func manage(
        _ operation: String, input: NoOperationInput, _ context: inout FlowEngine.Context, engine: FlowEngine,
        in repositories: Repositories
    ) async throws -> FlowProblem? {
        guard var user = context.user else { throw FlowProblem.internalError }
        switch operation {
        case "setupSms":
            try await engine.beginStage(of: self, for: .enrolment, &context, in: repositories)
        case "removeSms":
            if user.email == nil { return .lastIdentifier }
            guard engine.keepsASecondFactor(without: id, context) else { return .lastSecondFactor }
            user.phone = nil
            user.phoneVerified = false
            try await repositories.users.updateMethods(user)
            context.user = user
            context.progress.notice = "smsRemoved"
        default:
            throw FlowProblem.invalidStep
        }
        return nil
    }
}
