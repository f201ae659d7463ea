import Foundation
import KeywayProtocol

/// The upstream providers as one family of primary methods: which of the project's providers the
/// application offers (a sign-in lists them after the policy's own methods), and in account
/// management the identities the user linked, listed on the account page with their providers'
/// names.
extension FederationMethod: MethodFamily, AccountPageMethod, WayInMethod, PreparingMethod {
    /// Fetches the chosen provider's discovery document before the transaction that begins it.
    func prepare(toBegin method: FlowMethodID, _ preparation: MethodPreparation) async {
        guard let providerId = FederationMethodID.providerId(method.rawValue) else { return }
        await FederationCallbacks.prefetchDiscovery(providerId: providerId, preparation)
    }

    /// The family as one method (`federation:`): what the registry lists, whose entry of the
    /// flow's method data holds what the family read.
    static let family = FederationMethod(providerId: "")

    /// What the family read for this request.
    struct FamilyData: Sendable {
        /// The providers the application offers, in the policy's order; in account management,
        /// every provider of the project once the user has linked identities (their names).
        var providers: [IdentityProviderRecord] = []
        /// The user's linked identities, in account management.
        var linkedIdentities: [FederatedIdentityRecord] = []
    }

    func loadFamily(into context: inout FlowEngine.Context, in repositories: Repositories) async throws {
        var data = FamilyData()
        if context.progress.isManage {
            if let user = context.user {
                data.linkedIdentities = try await repositories.federatedIdentities.all(userId: user.id)
            }
            if !data.linkedIdentities.isEmpty {
                data.providers = try await repositories.identityProviders.all(projectId: context.application.projectId)
            }
        } else if !context.policy.federationProviders.isEmpty {
            let providers = try await repositories.identityProviders.all(projectId: context.application.projectId)
            data.providers = context.policy.federationProviders.compactMap { id in providers.first { $0.id == id } }
        }
        context.methodData[Self.family.id] = data
    }

    /// The offered providers; while an account signs in to link a provider, that provider is not
    /// offered again.
    func offeredMembers(_ context: FlowEngine.Context) -> [AuthenticationMethod] {
        let linking = context.progress.pendingFederation?.providerId
        return context.identityProviders.filter { $0.id != linking }.map { AuthenticationMethod(rawValue: $0.methodId) }
    }

    func member(_ id: FlowMethodID) -> (any FlowMethod)? {
        FederationMethodID.providerId(id.rawValue).map { FederationMethod(providerId: $0) }
    }

    /// Opens the account while it has an identity other than `removed` linked (not held) to a
    /// provider the application offers.
    func opensAccount(of user: UserRecord, without removed: String?, _ context: FlowEngine.Context) -> Bool {
        let offered = Set(context.policy.federationProviders)
        return context.linkedIdentities.contains { $0.id != removed && $0.heldSince == nil && offered.contains($0.providerId) }
    }

    /// The linked identities, with their providers' names, when there are any.
    func fill(_ payload: inout ManageAccountPayload, _ context: FlowEngine.Context) {
        guard !context.linkedIdentities.isEmpty else { return }
        payload.linkedIdentities = context.linkedIdentities.map { identity in
            LinkedIdentity(
                id: identity.id, providerID: identity.providerId,
                label: context.identityProviders.first { $0.id == identity.providerId }?.label ?? identity.providerId,
                email: identity.email, linkedAt: Date(epochMilliseconds: identity.createdAt),
                heldSince: identity.heldSince.map(Date.init(epochMilliseconds:)))
        }
    }
}

extension FlowEngine.Context {
    private var federation: FederationMethod.FamilyData {
        get { methodData[FederationMethod.family.id] as? FederationMethod.FamilyData ?? FederationMethod.FamilyData() }
        set { methodData[FederationMethod.family.id] = newValue }
    }

    /// The upstream providers the application offers, in the policy's order (in account
    /// management: the project's, to name the user's linked identities).
    var identityProviders: [IdentityProviderRecord] {
        get { federation.providers }
        set { federation.providers = newValue }
    }

    /// The user's linked upstream identities, in account management.
    var linkedIdentities: [FederatedIdentityRecord] {
        get { federation.linkedIdentities }
        set { federation.linkedIdentities = newValue }
    }
}

extension MethodContext {
    /// The user's linked identities, as the family's account operations change them (run with
    /// the family's ``FederationMethod/family`` as their method).
    var linkedIdentities: [FederatedIdentityRecord] {
        get { (data as? FederationMethod.FamilyData)?.linkedIdentities ?? [] }
        set {
            var family = data as? FederationMethod.FamilyData ?? FederationMethod.FamilyData()
            family.linkedIdentities = newValue
            data = family
        }
    }
}
