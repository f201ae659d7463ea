import Foundation
import KeywayProtocol

/// An upstream identity waiting in a flow, sealed to it: linked only when the flow completes —
/// to the existing account once the user signed in to it ("sign in to link"), or to the account a
/// sign-up through the provider creates. A flow that fails, expires or is cancelled links nothing.
struct PendingFederation: Sendable, Equatable, Codable {
    /// The provider the identity comes from.
    var providerId: String
    /// The ``UpstreamIdentity`` as JSON, sealed under ``purpose(flowId:)``.
    var sealedIdentity: String
    /// The existing account the identity is linked to once the sign-in to it completes; `nil`
    /// for a sign-up through the provider.
    var userId: String?

    /// The purpose the identity is sealed under: bound to the flow.
    static func purpose(flowId: String) -> String { "federation-pending:\(flowId)" }
}

extension FlowProgress {
    /// The upstream identity waiting in the flow for its completion: the federation family's
    /// state in the flow.
    var pendingFederation: PendingFederation? {
        get { self[kept: FederationMethod.family.id, initially: nil] }
        set { self[kept: FederationMethod.family.id, initially: nil] = newValue }
    }
}

extension MethodContext {
    /// The upstream identity waiting in the flow for its completion.
    var pendingFederation: PendingFederation? {
        get { self[kept: FederationMethod.family.id, initially: nil] }
        set { self[kept: FederationMethod.family.id, initially: nil] = newValue }
    }
}

extension FlowProblem {
    /// No account uses the provider's identity or its address, and the application does not
    /// create accounts.
    static func federatedSignUpNotAllowed(_ label: String) -> FlowProblem {
        FlowProblem(
            .signupNotAllowed, status: 403, title: "Sign-up not allowed",
            detail:
                "No account uses this \(label) identity, and this application does not create accounts. Sign in another way, or ask the application's support for an account.",
            action: .selectMethod)
    }
}

/// What a provider's verified identity does to a flow: sign its user in, link it by a verified
/// address, ask to sign in to the existing account first (`linkAccount`), or sign up.
extension FederationMethod {
    /// Applies `identity` from `provider` to the flow at the provider's `redirect` step.
    func apply(_ identity: UpstreamIdentity, provider: IdentityProviderRecord, _ method: inout MethodContext) async throws
        -> FlowProblem?
    {
        let projectId = method.application.projectId
        let now = method.now
        let identities = method.repositories.federatedIdentities
        if let linkingTo = method.pendingFederation?.userId {
            // Signing in to link with another provider: it must prove that very account.
            let proving = try await identities.find(projectId: projectId, issuer: identity.issuer, subject: identity.subject)
            // A held identity proves nothing until the owner keeps it.
            guard proving?.userId == linkingTo, proving?.heldSince == nil else {
                method.backToPrimaryChoice()
                return .federationFailed(
                    "This \(provider.label) identity does not sign in to the account being linked. Sign in to that account another way.")
            }
        }
        if let linked = try await identities.find(projectId: projectId, issuer: identity.issuer, subject: identity.subject),
            let owner = try await method.repositories.users.find(id: linked.userId)
        {
            // A known identity: its user — unless it waits for the owner to keep it.
            if linked.heldSince != nil {
                method.backToPrimaryChoice()
                return Self.identityHeld(provider.label)
            }
            try await identities.used(
                id: linked.id, email: identity.email, emailVerified: identity.emailVerified, name: identity.name,
                picture: identity.picture, at: now)
            method.setUser(owner)
            return try await method.prove(amr: "fed")
        }
        let local: UserRecord? =
            if let email = identity.email {
                try await method.repositories.users.find(projectId: projectId, email: email)
            } else { nil }
        if let local, let email = identity.email {
            if identity.emailVerified, local.emailVerified {
                // The provider vouches for the address and so did this server: link now.
                _ = try await identities.link(
                    Self.identityRecord(identity, provider: provider, userId: local.id, projectId: projectId, now: now))
                method.setUser(local)
                return try await method.prove(amr: "fed")
            }
            // Either side did not verify the address: whoever holds the identity must prove the
            // account first. The flow becomes a sign-in to that account — its identifier the
            // account's address, so codes go there and nowhere else —; the identity waits, sealed.
            method.pendingFederation = try pending(identity, provider: provider, userId: local.id, method)
            method.setUser(local)
            method.setIdentifier(email)
            try method.keep(FederationStage(linking: true), for: .primary)
            return nil
        }
        // Sign-up is open to providers where the policy opens it without an invitation (a flow
        // through a provider carries none), or where the application creates accounts on a first
        // sign-in.
        let signUpOpen = method.policy.flowTypes.contains(.signup) && !method.policy.requireInviteCode
        guard signUpOpen || method.policy.autoCreateUsers else {
            method.backToPrimaryChoice()
            return .federatedSignUpNotAllowed(provider.label)
        }
        // A sign-up through the provider: the account is created, with the identity linked, when
        // the flow completes (after the form and the second factor the policy asks for).
        method.becomeSignUp()
        method.pendingFederation = try pending(identity, provider: provider, userId: nil, method)
        method.setUser(nil)
        // The account's address is the provider's: the flow's later steps (a code as second
        // factor) speak of it, not of what was typed at the start.
        if let email = identity.email { method.setIdentifier(email) }
        return try await method.prove(amr: "fed")
    }

    /// The identity sealed to the flow.
    private func pending(
        _ identity: UpstreamIdentity, provider: IdentityProviderRecord, userId: String?, _ method: MethodContext
    ) throws -> PendingFederation {
        PendingFederation(
            providerId: provider.id,
            sealedIdentity: try method.seal(
                Array(try JSONEncoder().encode(identity)), purpose: PendingFederation.purpose(flowId: method.flowId)),
            userId: userId)
    }

    /// The provider's name for the sign-up form's name field (`name` or `displayName`, or one
    /// that autocompletes `name`), when the flow signs up through a provider.
    static func prefilledName(_ context: FlowEngine.Context, secrets: SecretBox) -> String? {
        guard context.progress.isSignUp, context.progress.pendingFederation != nil else { return nil }
        return (try? pendingIdentity(context, secrets: secrets))?.name
    }

    /// The identity waiting in the flow, opened.
    static func pendingIdentity(_ context: FlowEngine.Context, secrets: SecretBox) throws -> UpstreamIdentity? {
        guard let pending = context.progress.pendingFederation else { return nil }
        let json = try secrets.open(pending.sealedIdentity, purpose: PendingFederation.purpose(flowId: context.flow.id))
        return try JSONDecoder().decode(UpstreamIdentity.self, from: Data(json))
    }

    /// `continue` on a `linkAccount` step: the flow goes on as a sign-in to the existing account
    /// with its own methods (the provider being linked aside); the identity is linked when it
    /// completes.
    static func continueLinking(_ method: inout MethodContext) async throws -> FlowProblem? {
        guard (try? method.state(as: FederationStage.self))?.linking == true,
            let pending = method.pendingFederation, pending.userId != nil, pending.userId == method.user?.id
        else { throw FlowProblem.invalidStep }
        try await method.restartPrimary()
        return nil
    }

    /// At completion: links the identity waiting in the flow to `user`, the account the sign-in
    /// proved (the one the identity's address named) or the one the sign-up created. An identity
    /// linked meanwhile by another flow stays as it is.
    static func linkPendingIdentity(
        to user: UserRecord, _ context: inout FlowEngine.Context, secrets: SecretBox, in repositories: Repositories
    ) async throws {
        guard let pending = context.progress.pendingFederation else { return }
        if let userId = pending.userId, userId != user.id { throw FlowProblem.internalError }
        var provider = context.identityProviders.first { $0.id == pending.providerId }
        if provider == nil {
            provider = try await repositories.identityProviders.find(
                projectId: context.application.projectId, id: pending.providerId)
        }
        guard let identity = try pendingIdentity(context, secrets: secrets), let provider else {
            // The provider was removed meanwhile: the sign-in stands, nothing is linked.
            context.progress.pendingFederation = nil
            return
        }
        _ = try await repositories.federatedIdentities.link(
            identityRecord(
                identity, provider: provider, userId: user.id, projectId: context.application.projectId, now: context.now))
        context.progress.pendingFederation = nil
    }

    /// The account values a sign-up through a provider starts with: the provider's address
    /// (verified only when the provider said so), no phone number.
    static func applyFederatedSignUp(
        to user: inout UserRecord, _ context: FlowEngine.Context, secrets: SecretBox, in repositories: Repositories
    ) async throws -> UpstreamIdentity? {
        guard let pending = context.progress.pendingFederation, pending.userId == nil,
            let identity = try pendingIdentity(context, secrets: secrets)
        else { return nil }
        if let email = identity.email,
            try await repositories.users.find(projectId: context.application.projectId, email: email) != nil
        {
            // Another flow created an account with this address since the provider answered.
            throw FlowProblem.federationFailed(
                "An account with this address was created meanwhile. Start again to sign in to it and link the provider.")
        }
        user.email = identity.email
        user.emailVerified = identity.email != nil && identity.emailVerified
        user.phone = nil
        user.phoneVerified = false
        return identity
    }

    static func identityRecord(
        _ identity: UpstreamIdentity, provider: IdentityProviderRecord, userId: String, projectId: String, now: Int64
    ) -> FederatedIdentityRecord {
        FederatedIdentityRecord(
            id: SecureRandom.identifier(prefix: "fid"), userId: userId, projectId: projectId, providerId: provider.id,
            issuer: identity.issuer, subject: identity.subject, email: identity.email,
            emailVerified: identity.emailVerified, name: identity.name, picture: identity.picture, createdAt: now,
            lastUsedAt: now)
    }
}

extension FederationMethod: ExternalIdentityMethod {
    func isSigningUp(_ context: FlowEngine.Context) -> Bool {
        context.progress.isSignUp && context.progress.pendingFederation != nil
    }

    func signUpName(_ context: FlowEngine.Context, secrets: SecretBox) -> String? {
        Self.prefilledName(context, secrets: secrets)
    }

    func applySignUp(
        to user: inout UserRecord, _ context: FlowEngine.Context, secrets: SecretBox, in repositories: Repositories
    ) async throws -> String? {
        guard let identity = try await Self.applyFederatedSignUp(to: &user, context, secrets: secrets, in: repositories)
        else { return nil }
        return identity.name ?? ""
    }

    func linkPendingIdentity(
        to user: UserRecord, _ context: inout FlowEngine.Context, secrets: SecretBox, in repositories: Repositories
    ) async throws {
        try await Self.linkPendingIdentity(to: user, &context, secrets: secrets, in: repositories)
    }
}
