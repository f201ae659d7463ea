import Foundation
import KeywayProtocol
import Logging

/// Identities linked before the account's address was proved. A provider that does not verify
/// addresses lets anyone sign up with someone else's address and keep a way into that account
/// (pre-account takeover). So when the address is proved for the first time (an email code or a
/// sign-in link sent to it), every identity linked until then is held: it no longer signs in, the
/// address's owner is told by email, and account management offers `keepIdentity` (after a fresh
/// verification) beside `unlinkIdentity`.
extension FederationMethod: AddressVerificationObserver {
    /// The operation that keeps a held identity.
    static let keepIdentityOperation = ManageOperation(
        name: "keepIdentity", label: "Keep a sign-in provider linked before you proved your address",
        needsReverification: true)

    /// A held identity's sign-in is refused until the owner keeps it.
    static func identityHeld(_ label: String) -> FlowProblem {
        FlowProblem(
            .identityHeld, status: 403, title: "Sign-in through this provider is paused",
            detail:
                "This \(label) identity was linked to the account before its owner proved the account's address. It signs in again once the owner keeps it in account management; sign in another way.",
            action: .selectMethod)
    }

    /// The account's address was just proved for the first time: holds every identity linked
    /// before, and tells the address's owner.
    func addressVerified(
        _ user: UserRecord, _ context: inout FlowEngine.Context, logger: Logger, in repositories: Repositories
    ) async throws {
        let held = try await repositories.federatedIdentities.hold(userId: user.id, at: context.now)
        guard !held.isEmpty else { return }
        context.linkedIdentities = try await repositories.federatedIdentities.all(userId: user.id)
        let providers = try await repositories.identityProviders.all(projectId: context.application.projectId)
        let labels = held.map { identity in providers.first { $0.id == identity.providerId }?.label ?? identity.providerId }
        logger.notice(
            "federation: identities held until the address's owner keeps them",
            metadata: ["user": "\(user.id)", "count": "\(held.count)"])
        guard let email = user.email else { return }
        let text = MessageTemplates.identitiesHeld(providers: labels, application: context.application.name)
        context.outgoing.append(OutgoingMessage(channel: .email, to: email, code: nil, subject: text.subject, body: text.body))
    }

    /// The operation with the account's held identities as its choices, when it has any.
    static func keepOperation(_ context: FlowEngine.Context) -> ManageOperation? {
        let held = context.linkedIdentities.filter { $0.heldSince != nil }
        guard !held.isEmpty else { return nil }
        var operation = keepIdentityOperation
        operation.fields = [identityField(held, context)]
        return operation
    }

    /// The account and the held identity `identityId` names. Checked before the fresh
    /// verification too.
    static func checkKeep(_ identityId: String?, _ context: FlowEngine.Context) throws -> (UserRecord, String) {
        guard let user = context.user, let identityId,
            context.linkedIdentities.contains(where: { $0.id == identityId && $0.heldSince != nil })
        else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "identityId", reason: "Choose one of the account's held identities.")
            ])
        }
        return (user, identityId)
    }
}
