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
    func precheck(_ operation: String, input: NoOperationInput, _ method: MethodContext) throws {}

    func manage(_ operation: String, input: NoOperationInput, _ method: inout MethodContext) async throws -> FlowProblem? {
        guard var user = method.user else { throw FlowProblem.internalError }
        switch operation {
        case "setupSms":
            try await begin(.enrolment, &method)
        case "removeSms":
            if user.email == nil { return .lastIdentifier }
            guard method.keepsASecondFactor(without: id) else { return .lastSecondFactor }
            user.phone = nil
            user.phoneVerified = false
            try await method.repositories.users.updateMethods(user)
            method.user = user
            method.leaveNotice("smsRemoved")
        default:
            throw FlowProblem.invalidStep
        }
        return nil
    }
}
