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
    func precheck(_ operation: String, input: NoOperationInput, _ method: MethodContext) throws {}

    func manage(_ operation: String, input: NoOperationInput, _ method: inout MethodContext) async throws -> FlowProblem? {
        guard var user = method.user else { throw FlowProblem.internalError }
        switch operation {
        case "setupTotp":
            try await begin(.enrolment, &method)
        case "removeTotp":
            guard method.keepsASecondFactor(without: id) else { return .lastSecondFactor }
            user.totpSecret = nil
            user.totpLastCounter = nil
            try await method.repositories.users.updateMethods(user)
            method.user = user
            method.leaveNotice("totpRemoved")
        default:
            throw FlowProblem.invalidStep
        }
        return nil
    }
}
