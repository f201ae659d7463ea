import Foundation
import KeywayProtocol

/// The password's operation on the account-management step.
extension PasswordMethod {
    var manageOperationNames: [String] { ["changePassword"] }

    func manageOperations(_ context: FlowEngine.Context) -> [ManageOperation] {
        guard context.policy.primaryMethods.contains(id) else { return [] }
        return [ManageOperation(name: "changePassword", label: "Change the password", needsReverification: true)]
    }

    /// Its operations need no check before the fresh verification.
    func precheck(_ operation: String, input: NoOperationInput, _ method: MethodContext) throws {}

    func manage(_ operation: String, input: NoOperationInput, _ method: inout MethodContext) async throws -> FlowProblem? {
        guard operation == "changePassword" else { throw FlowProblem.invalidStep }
        // A new password, chosen after the fresh verification the operation asks for.
        try method.keep(PasswordStage(purpose: .change), for: .reverification)
        return nil
    }
}
