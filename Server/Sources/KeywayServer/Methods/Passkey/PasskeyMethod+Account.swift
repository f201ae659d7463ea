import Foundation
import KeywayProtocol

/// Passkeys on the account-management step: making one (after a fresh verification, since it is
/// a new way in), renaming one, and removing one (after a fresh verification; never the
/// account's last way in, nor its last required second factor).
extension PasskeyMethod {
    var manageOperationNames: [String] { ["addPasskey", "renamePasskey", "removePasskey"] }

    func manageOperations(_ context: FlowEngine.Context) -> [ManageOperation] {
        guard context.user != nil, context.policy.lists(id), Self.relyingParty(context) != nil else { return [] }
        var operations: [ManageOperation] = []
        if canEnrol(context) {
            operations.append(ManageOperation(name: "addPasskey", label: "Create a passkey", needsReverification: true))
        }
        if !context.passkeys.isEmpty {
            let choice = Field(
                name: "passkeyId", type: .select, required: true, label: "Passkey",
                options: context.passkeys.map { FieldOption(value: $0.id, label: $0.name) })
            operations.append(
                ManageOperation(
                    name: "renamePasskey", label: "Rename a passkey", needsReverification: false,
                    fields: [choice, Field(name: "name", type: .text, required: true, label: "Name", maxLength: 64)]))
            operations.append(
                ManageOperation(name: "removePasskey", label: "Remove a passkey", needsReverification: true, fields: [choice]))
        }
        return operations
    }

    /// Checks an operation's input before any fresh verification is asked for it, so nobody
    /// verifies for a change that is refused.
    func precheck(_ operation: String, input: PasskeyOperationInput, _ method: MethodContext) throws {
        switch operation {
        case "renamePasskey":
            _ = try passkey(input.passkeyId, method.context)
            guard try Self.checkedName(input.name) != nil else {
                throw FlowProblem.invalidRequest([InvalidField(name: "name", reason: "Give the passkey a name.")])
            }
        case "removePasskey":
            let passkey = try passkey(input.passkeyId, method.context)
            try checkRemoval(passkey, method)
        default:
            break
        }
    }

    func manage(_ operation: String, input: PasskeyOperationInput, _ method: inout MethodContext) async throws
        -> FlowProblem?
    {
        guard let user = method.user else { throw FlowProblem.internalError }
        try precheck(operation, input: input, method)
        switch operation {
        case "addPasskey":
            try method.keep(Self.stage(.enrolment, skippable: false, method.context))
        case "renamePasskey":
            let passkey = try passkey(input.passkeyId, method.context)
            let name = try Self.checkedName(input.name) ?? passkey.name
            _ = try await method.repositories.passkeys.rename(id: passkey.id, userId: user.id, to: name)
            if let index = method.passkeys.firstIndex(where: { $0.id == passkey.id }) { method.passkeys[index].name = name }
            method.leaveNotice("passkeyRenamed")
        case "removePasskey":
            let passkey = try passkey(input.passkeyId, method.context)
            _ = try await method.repositories.passkeys.delete(id: passkey.id, userId: user.id)
            method.passkeys.removeAll { $0.id == passkey.id }
            method.leaveNotice("passkeyRemoved")
        default:
            throw FlowProblem.invalidStep
        }
        return nil
    }

    /// The account's passkey `passkeyId`.
    private func passkey(_ passkeyId: String?, _ context: FlowEngine.Context) throws -> PasskeyCredentialRecord {
        guard let passkeyId, let passkey = context.passkeys.first(where: { $0.id == passkeyId }) else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "passkeyId", reason: "Choose one of the account's passkeys.")
            ])
        }
        return passkey
    }

    /// Refuses removing the account's last way in, or the last second factor a required policy needs.
    private func checkRemoval(_ passkey: PasskeyCredentialRecord, _ method: MethodContext) throws {
        let context = method.context
        guard context.user != nil else { throw FlowProblem.internalError }
        guard method.hasAnotherWayIn(without: passkey.id, of: id) else {
            throw FlowProblem.invalidRequest([
                InvalidField(
                    name: "passkeyId",
                    reason: "This is the account's last way to sign in: set up another one before removing it.")
            ])
        }
        if context.passkeys.count == 1, context.policy.mfaMode == .required,
            !method.keepsASecondFactor(without: id)
        {
            throw FlowProblem.lastSecondFactor
        }
    }
}

/// What `renamePasskey` and `removePasskey` read: the passkey, and its new name.
struct PasskeyOperationInput: Codable, Sendable, Equatable {
    var passkeyId: String?
    var name: String?
}
