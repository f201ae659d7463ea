import Foundation
import KeywayProtocol

/// Account management's linked identities: the `unlinkIdentity` operation, after a fresh
/// verification (it takes a way in away), refused when the identity is the account's last way in.
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

    /// Unlinks `identityId`, unless the account could then no longer sign in.
    static func unlinkIdentity(
        _ identityId: String?, _ context: inout FlowEngine.Context, in repositories: Repositories
    ) async throws
        -> FlowProblem?
    {
        let (user, identityId) = try Self.checkUnlink(identityId, context)
        _ = try await repositories.federatedIdentities.unlink(id: identityId, userId: user.id)
        context.linkedIdentities.removeAll { $0.id == identityId }
        context.progress.stage = .manageAccount
        return nil
    }

    /// The account and the identity `identityId` names, when unlinking it may go: one of the
    /// account's identities, and not its last way in. Checked before the fresh verification
    /// too, so nobody verifies for a change that is refused.
    static func checkUnlink(_ identityId: String?, _ context: FlowEngine.Context) throws -> (UserRecord, String) {
        guard let user = context.user, let identityId, context.linkedIdentities.contains(where: { $0.id == identityId })
        else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "identityId", reason: "Choose one of the account's linked identities.")
            ])
        }
        guard FlowEngine.hasAnotherWayIn(user, withoutIdentity: identityId, context) else {
            throw FlowProblem.invalidRequest([
                InvalidField(
                    name: "identityId",
                    reason: "This is the account's last way to sign in: set up another one before unlinking it.")
            ])
        }
        return (user, identityId)
    }
}
