import KeywayProtocol

/// The flow directory over the server's own tables: stored policies, invitation codes, start
/// tokens.
struct DatabaseFlowDirectory: FlowDirectory {
    func policy(for application: ApplicationRecord, in repositories: Repositories) async throws -> FlowPolicy {
        guard let stored = try await repositories.policies.storedPolicy(applicationId: application.id) else {
            return FlowPolicy.defaults(for: application)
        }
        return FlowPolicy(stored, application: application)
    }

    func consumeStartToken(_ token: String, applicationId: String, now: Int64, in repositories: Repositories)
        async throws -> (flowType: FlowType, identifier: String)?
    {
        guard let claim = try await repositories.startTokens.consume(token: token, applicationId: applicationId, now: now)
        else { return nil }
        return (claim.flowType, claim.identifier)
    }

    func startTokenClaim(_ token: String, applicationId: String, now: Int64, in repositories: Repositories)
        async throws -> (flowType: FlowType, identifier: String)?
    {
        guard let claim = try await repositories.startTokens.claim(token: token, applicationId: applicationId, now: now)
        else { return nil }
        return (claim.flowType, claim.identifier)
    }

    func releaseStartToken(_ token: String, usedAt: Int64, in repositories: Repositories) async throws {
        try await repositories.startTokens.release(token: token, usedAt: usedAt)
    }

    func inviteCodeStatus(_ code: String, applicationId: String, now: Int64, in repositories: Repositories)
        async throws -> InviteCodeStatus
    {
        Self.status(try await repositories.inviteCodes.status(applicationId: applicationId, code: code, now: now))
    }

    func redeemInviteCode(
        _ code: String, applicationId: String, userId: String, now: Int64, in repositories: Repositories
    ) async throws -> InviteCodeStatus {
        Self.status(
            try await repositories.inviteCodes.redeem(applicationId: applicationId, code: code, userId: userId, now: now))
    }

    private static func status(_ redemption: InviteCodeRedemption) -> InviteCodeStatus {
        switch redemption {
        case .redeemed: .valid
        case .invalid: .invalid
        case .used: .used
        case .expired: .expired
        }
    }
}
