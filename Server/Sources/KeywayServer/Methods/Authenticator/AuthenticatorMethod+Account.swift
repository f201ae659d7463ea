import Foundation
import KeywayProtocol

/// The authenticator's operations on the account-management step.
extension AuthenticatorMethod {
    var manageOperationNames: [String] { ["setupTotp", "removeTotp"] }

    func manageOperations(_ context: FlowEngine.Context) -> [ManageOperation] {
        guard let user = context.user, context.policy.lists(id) else { return [] }
        // Replacing an authenticator weakens the account as removing it does.
        var operations = [ManageOperation(name: "setupTotp", label: "Set up an authenticator app", needsReverification: user.hasTotp)]
        if user.hasTotp {
            operations.append(ManageOperation(name: "removeTotp", label: "Remove the authenticator app", needsReverification: true))
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
        case "setupTotp":
            try await engine.beginStage(of: self, for: .enrolment, &context, in: repositories)
        case "removeTotp":
            guard engine.keepsASecondFactor(without: id, context) else { return .lastSecondFactor }
            user.totpSecret = nil
            user.totpLastCounter = nil
            try await repositories.users.updateMethods(user)
            context.user = user
            context.progress.notice = "totpRemoved"
        default:
            throw FlowProblem.invalidStep
        }
        return nil
    }
}
