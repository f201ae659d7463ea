import KeywayProtocol

/// What an invitation code is worth.
enum InviteCodeStatus: Sendable, Equatable {
    case valid
    case invalid
    case used
    case expired
}

/// What the flow engine reads from the administration side, inside its own transactions:
/// application policies, invitation codes and start tokens.
protocol FlowDirectory: Sendable {
    /// The application's policy (the defaults when none is stored).
    func policy(for application: ApplicationRecord, in repositories: Repositories) async throws -> FlowPolicy
    /// Uses a start token once: its flow type and identifier, or `nil` when it is unknown,
    /// expired, used or for another application.
    func consumeStartToken(_ token: String, applicationId: String, now: Int64, in repositories: Repositories)
        async throws -> (flowType: FlowType, identifier: String)?
    /// What a start token was issued for, without using it; `nil` as for ``consumeStartToken(_:applicationId:now:in:)``.
    func startTokenClaim(_ token: String, applicationId: String, now: Int64, in repositories: Repositories)
        async throws -> (flowType: FlowType, identifier: String)?
    /// Makes a start token used at `usedAt` usable again.
    func releaseStartToken(_ token: String, usedAt: Int64, in repositories: Repositories) async throws
    /// Checks an invitation code without using it.
    func inviteCodeStatus(_ code: String, applicationId: String, now: Int64, in repositories: Repositories)
        async throws -> InviteCodeStatus
    /// Uses an invitation code for a new user.
    func redeemInviteCode(
        _ code: String, applicationId: String, userId: String, now: Int64, in repositories: Repositories
    ) async throws -> InviteCodeStatus
}
