import KeywayProtocol

extension FlowEngine {
    /// Failures for one identifier in the window from which an attempt counts as risky.
    static let riskyFailureCount: Int64 = 3

    /// Flags a sign-in from an address the user never signed in from (when they signed in
    /// before) and one after repeated recent failures. One reason is `medium`, both `high`;
    /// `nil` when nothing stands out.
    func assessRisk(_ context: Context, user: UserRecord, in repositories: Repositories) async throws -> Risk? {
        var reasons: [String] = []
        let history = try await repositories.sessions.history(userId: user.id, addressHash: context.addressHash)
        if context.addressHash != nil, history.any, !history.fromAddress {
            reasons.append("newAddress")
        }
        let failures = try await repositories.rateLimits.current(
            bucket: "fail-id:\(Self.identifierKey(projectId: context.application.projectId, identifier: context.flow.identifier))",
            now: context.now, window: milliseconds(limits.rateLimits.window))
        if failures >= Self.riskyFailureCount {
            reasons.append("recentFailures")
        }
        guard !reasons.isEmpty else { return nil }
        let message =
            reasons.count == 2
            ? "This sign-in comes from a new place after several failed attempts. Confirm it is you."
            : reasons[0] == "newAddress"
                ? "This sign-in comes from a place you have not signed in from before. Confirm it is you."
                : "There were several failed attempts recently. Confirm it is you."
        return Risk(level: reasons.count == 2 ? "high" : "medium", message: message, reasons: reasons)
    }

    /// Counts a failed verification of the flow's identifier, for the risk assessment.
    /// A flow without an identifier (a passkey sign-in not yet answered) has none to count for.
    func recordFailure(_ context: Context, in repositories: Repositories) async throws {
        guard !context.flow.identifier.isEmpty else { return }
        _ = try await repositories.rateLimits.hit(
            bucket: "fail-id:\(Self.identifierKey(projectId: context.application.projectId, identifier: context.flow.identifier))",
            now: context.now, window: milliseconds(limits.rateLimits.window))
    }
}
