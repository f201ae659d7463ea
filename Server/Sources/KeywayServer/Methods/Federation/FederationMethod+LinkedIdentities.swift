import Foundation
import KeywayProtocol

/// Account management's linked identities: the `unlinkIdentity` operation, after a fresh
/// verification (it takes a way in away), refused when the identity is the account's last way in;
/// and `keepIdentity` for a held one (``FederationMethod+HeldIdentities``). The family runs them
/// as its account operations.
extension FederationMethod {
    /// Unlinks one of the account's upstream identities (field `identityId`).
    static let unlinkIdentityOperation = ManageOperation(
        name: "unlinkIdentity", label: "Unlink a sign-in provider", needsReverification: true)

    /// The operation with the account's identities as its choices, when it has any.
    static func unlinkOperation(_ context: FlowEngine.Context) -> ManageOperation? {
        guard !context.linkedIdentities.isEmpty else { return nil }
        var operation = unlinkIdentityOperation
        operation.fields = [identityField(context.linkedIdentities, context)]
        return operation
    }

    /// The `identityId` choice among `identities`: each by its provider's label and address.
    static func identityField(_ identities: [FederatedIdentityRecord], _ context: FlowEngine.Context) -> Field {
        Field(
            name: "identityId", type: .select, required: true, label: "Provider",
            options: identities.map { identity in
                FieldOption(
                    value: identity.id,
                    label: [
                        context.identityProviders.first { $0.id == identity.providerId }?.label ?? identity.providerId,
                        identity.email,
                    ].compactMap { $0 }.joined(separator: " — "))
            })
    }

    /// The account and the identity `identityId` names, when unlinking it may go: one of the
    /// account's identities, and not its last way in. Checked before the fresh verification
    /// too, so nobody verifies for a change that is refused.
    static func checkUnlink(_ identityId: String?, _ method: MethodContext) throws -> (UserRecord, String) {
        let context = method.context
        guard let user = context.user, let identityId, context.linkedIdentities.contains(where: { $0.id == identityId })
        else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "identityId", reason: "Choose one of the account's linked identities.")
            ])
        }
        guard method.hasAnotherWayIn(without: identityId, of: Self.family.id) else {
            throw FlowProblem.invalidRequest([
                InvalidField(
                    name: "identityId",
                    reason: "This is the account's last way to sign in: set up another one before unlinking it.")
            ])
        }
        return (user, identityId)
    }
}

extension FederationMethod: AccountOperationsMethod {
    /// What both operations read: the identity they act on.
    struct IdentityInput: Codable, Sendable, Equatable {
        var identityId: String?
    }

    var manageOperationNames: [String] { [Self.keepIdentityOperation.name, Self.unlinkIdentityOperation.name] }

    /// `keepIdentity` while the account has held identities, then `unlinkIdentity` while it has any.
    func manageOperations(_ context: FlowEngine.Context) -> [ManageOperation] {
        [Self.keepOperation(context), Self.unlinkOperation(context)].compactMap { $0 }
    }

    func precheck(_ operation: String, input: IdentityInput, _ method: MethodContext) throws {
        if operation == Self.unlinkIdentityOperation.name { _ = try Self.checkUnlink(input.identityId, method) }
        if operation == Self.keepIdentityOperation.name { _ = try Self.checkKeep(input.identityId, method.context) }
    }

    /// Unlinks the identity, unless the account could then no longer sign in; or keeps a held
    /// one, which signs in again.
    func manage(_ operation: String, input: IdentityInput, _ method: inout MethodContext) async throws -> FlowProblem? {
        let identities = method.repositories.federatedIdentities
        if operation == Self.unlinkIdentityOperation.name {
            let (user, identityId) = try Self.checkUnlink(input.identityId, method)
            _ = try await identities.unlink(id: identityId, userId: user.id)
            method.linkedIdentities.removeAll { $0.id == identityId }
        } else if operation == Self.keepIdentityOperation.name {
            let (user, identityId) = try Self.checkKeep(input.identityId, method.context)
            _ = try await identities.keep(id: identityId, userId: user.id)
            method.linkedIdentities = try await identities.all(userId: user.id)
        } else {
            throw FlowProblem.invalidStep
        }
        return nil
    }

    var notices: [String: String] { [:] }
}
