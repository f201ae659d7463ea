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
extension FlowEngine {
    /// Applies `identity` from `provider` to the flow at its `redirect` step.
    func applyUpstreamIdentity(
        _ identity: UpstreamIdentity, provider: IdentityProviderRecord, _ context: inout Context,
        in repositories: Repositories
    ) async throws -> FlowProblem? {
        let methodId = AuthenticationMethod(rawValue: provider.methodId)
        let projectId = context.application.projectId
        let now = context.now
        if let linkingTo = context.progress.federation?.userId {
            // Signing in to link with another provider: it must prove that very account.
            let proving = try await repositories.federatedIdentities.find(
                projectId: projectId, issuer: identity.issuer, subject: identity.subject)
            // A held identity proves nothing until the owner keeps it.
            guard proving?.userId == linkingTo, proving?.heldSince == nil else {
                context.progress.stage = .choosing(MethodChoice(options: primaryOptions(context), purpose: .primary))
                return .federationFailed(
                    "This \(provider.label) identity does not sign in to the account being linked. Sign in to that account another way.")
            }
        }
        if let linked = try await repositories.federatedIdentities.find(
            projectId: projectId, issuer: identity.issuer, subject: identity.subject),
            let owner = try await repositories.users.find(id: linked.userId)
        {
            // A known identity: its user — unless it waits for the owner to keep it.
            if linked.heldSince != nil {
                context.progress.stage = .choosing(MethodChoice(options: primaryOptions(context), purpose: .primary))
                return FederationMethod.identityHeld(provider.label)
            }
            try await repositories.federatedIdentities.used(
                id: linked.id, email: identity.email, emailVerified: identity.emailVerified, name: identity.name,
                picture: identity.picture, at: now)
            return try await signIn(owner, by: methodId, &context, in: repositories)
        }
        let local: UserRecord? =
            if let email = identity.email { try await repositories.users.find(projectId: projectId, email: email) } else { nil }
        if let local, let email = identity.email {
            if identity.emailVerified, local.emailVerified {
                // The provider vouches for the address and so did this server: link now.
                _ = try await repositories.federatedIdentities.link(
                    Self.identityRecord(identity, provider: provider, userId: local.id, projectId: projectId, now: now))
                return try await signIn(local, by: methodId, &context, in: repositories)
            }
            // Either side did not verify the address: whoever holds the identity must prove the
            // account first. The flow becomes a sign-in to that account — its identifier the
            // account's address, so codes go there and nowhere else —; the identity waits, sealed.
            context.progress.federation = try pending(identity, provider: provider, userId: local.id, context)
            context.user = local
            context.flow.userId = local.id
            context.flow.identifier = email
            context.progress.stage = .method(
                try ActiveMethod(methodId, purpose: .primary, state: FederationStage(linking: true)))
            return nil
        }
        // Sign-up is open to providers where the policy opens it without an invitation (a flow
        // through a provider carries none), or where the application creates accounts on a first
        // sign-in.
        let signUpOpen = context.policy.flowTypes.contains(.signup) && !context.policy.requireInviteCode
        guard signUpOpen || context.policy.autoCreateUsers else {
            context.progress.stage = .choosing(MethodChoice(options: primaryOptions(context), purpose: .primary))
            return .federatedSignUpNotAllowed(provider.label)
        }
        // A sign-up through the provider: the account is created, with the identity linked, when
        // the flow completes (after the form and the second factor the policy asks for).
        context.progress.mode = .signUp(FlowProgress.SignUpDraft())
        context.progress.federation = try pending(identity, provider: provider, userId: nil, context)
        context.user = nil
        context.flow.userId = nil
        // The account's address is the provider's: the flow's later steps (a code as second
        // factor) speak of it, not of what was typed at the start.
        if let email = identity.email { context.flow.identifier = email }
        return try await proved(methodId, amr: "fed", &context, in: repositories)
    }

    /// The provider proved `user`: the primary method of the sign-in.
    private func signIn(
        _ user: UserRecord, by methodId: AuthenticationMethod, _ context: inout Context, in repositories: Repositories
    ) async throws -> FlowProblem? {
        context.user = user
        context.flow.userId = user.id
        return try await proved(methodId, amr: "fed", &context, in: repositories)
    }

    /// The identity sealed to the flow.
    private func pending(
        _ identity: UpstreamIdentity, provider: IdentityProviderRecord, userId: String?, _ context: Context
    ) throws -> PendingFederation {
        PendingFederation(
            providerId: provider.id,
            sealedIdentity: try secrets.seal(
                Array(try JSONEncoder().encode(identity)), purpose: PendingFederation.purpose(flowId: context.flow.id)),
            userId: userId)
    }

    /// The provider's name for the sign-up form's name field (`name` or `displayName`, or one
    /// that autocompletes `name`), when the flow signs up through a provider.
    func prefilledName(_ context: Context) -> String? {
        guard context.progress.isSignUp, context.progress.federation != nil else { return nil }
        return (try? pendingIdentity(context))?.name
    }

    /// The identity waiting in the flow, opened.
    func pendingIdentity(_ context: Context) throws -> UpstreamIdentity? {
        guard let pending = context.progress.federation else { return nil }
        let json = try secrets.open(pending.sealedIdentity, purpose: PendingFederation.purpose(flowId: context.flow.id))
        return try JSONDecoder().decode(UpstreamIdentity.self, from: Data(json))
    }

    /// `continue` on a `linkAccount` step: the flow goes on as a sign-in to the existing account
    /// with its own methods (the provider being linked aside); the identity is linked when it
    /// completes.
    func continueLinking(_ target: Target) async throws -> Step {
        try await run(target) { context, repositories in
            guard case .method(let active) = context.progress.stage,
                FederationMethodID.providerId(active.method.rawValue) != nil,
                (try? active.state(as: FederationStage.self))?.linking == true,
                let pending = context.progress.federation, pending.userId != nil, pending.userId == context.user?.id
            else { throw FlowProblem.invalidStep }
            context.progress.stage = .choosing(MethodChoice(options: [], purpose: .primary))
            try await self.beginPrimary(&context, in: repositories)
            return nil
        }
    }

    /// At completion: links the identity waiting in the flow to `user`, the account the sign-in
    /// proved (the one the identity's address named) or the one the sign-up created. An identity
    /// linked meanwhile by another flow stays as it is.
    func linkPendingIdentity(to user: UserRecord, _ context: inout Context, in repositories: Repositories) async throws {
        guard let pending = context.progress.federation else { return }
        if let userId = pending.userId, userId != user.id { throw FlowProblem.internalError }
        var provider = context.identityProviders.first { $0.id == pending.providerId }
        if provider == nil {
            provider = try await repositories.identityProviders.find(
                projectId: context.application.projectId, id: pending.providerId)
        }
        guard let identity = try pendingIdentity(context), let provider else {
            // The provider was removed meanwhile: the sign-in stands, nothing is linked.
            context.progress.federation = nil
            return
        }
        _ = try await repositories.federatedIdentities.link(
            Self.identityRecord(
                identity, provider: provider, userId: user.id, projectId: context.application.projectId, now: context.now))
        context.progress.federation = nil
    }

    /// The account values a sign-up through a provider starts with: the provider's address
    /// (verified only when the provider said so), no phone number.
    func applyFederatedSignUp(to user: inout UserRecord, _ context: Context, in repositories: Repositories) async throws
        -> UpstreamIdentity?
    {
        guard let pending = context.progress.federation, pending.userId == nil, let identity = try pendingIdentity(context)
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
