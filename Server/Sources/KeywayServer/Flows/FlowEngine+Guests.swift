import Foundation
import KeywayProtocol

/// A guest's flows: the `accountExists` step's two answers, and the `guest.merged` hand-over when
/// a guest signs in to an existing account instead of upgrading.
extension FlowEngine {
    /// `signInInstead` on an `accountExists` step: the code that proved the identifier counts as
    /// it would for a sign-in to that account, and the flow goes on as one (its second factor, its
    /// device); completing it hands the guest over (`guest.merged`).
    func signInInstead(_ target: Target) async throws -> Step {
        try await run(target) { context, repositories in
            guard context.progress.stage == .accountExists, var guest = context.progress.guest,
                let pending = guest.pendingProof
            else { throw FlowProblem.invalidStep }
            guest.signsIn = true
            guest.pendingProof = nil
            context.progress.guest = guest
            context.progress.stage = .choosing(MethodChoice(options: [], purpose: .primary))
            return try await self.proved(pending.method, amr: pending.amr, &context, in: repositories)
        }
    }

    /// `stayGuest` on an `accountExists` step: the flow ends (cancelled) and nothing changes for
    /// the guest, whose session stays as it was.
    func stayGuest(_ target: Target) async throws {
        let now = clock.now().epochMilliseconds
        try await database.write { repositories in
            let context = try await self.load(
                flowId: target.flowId, flowToken: target.flowToken, configId: target.configId, now: now, in: repositories)
            if let problem = self.openProblem(context.flow, now: now) { throw problem }
            guard context.progress.stage == .accountExists else { throw FlowProblem.invalidStep }
            var flow = context.flow
            flow.state = .cancelled
            flow.otpHash = nil
            flow.updatedAt = now
            try await repositories.flows.update(flow)
        }
    }

    /// The hand-over of a guest that signed in to `user` rather than upgrading: the value the
    /// completed step carries, and the `guest.merged` event for the project's backend (when it
    /// receives events), so it can move the guest's data over.
    func guestMerged(into user: UserRecord, _ context: inout Context) throws -> GuestMerge? {
        guard let guest = context.progress.guest, context.progress.isSignIn, guest.userId != user.id else { return nil }
        let merge = GuestMerge(guestUserID: guest.userId, userID: user.id)
        if context.policy.sendsEvents {
            let event = GuestMergedEvent(
                type: "guest.merged", guestUserId: guest.userId, userId: user.id,
                configId: context.application.configId, mergedAt: Date(epochMilliseconds: context.now))
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = .sortedKeys
            context.events.append(
                DeliveryRequest(
                    projectId: context.application.projectId, flowId: context.flow.id, channel: .event,
                    recipient: user.id, subject: event.type,
                    body: Sensitive(String(decoding: try encoder.encode(event), as: UTF8.self)), code: nil,
                    idempotencyKey: SecureRandom.identifier(prefix: "idk")))
        }
        return merge
    }
}

/// The body of the `guest.merged` event sent to the project's events webhook: a guest signed in
/// to an existing account instead of upgrading; the app's backend moves the guest's data over.
struct GuestMergedEvent: Codable, Sendable {
    var type: String
    var guestUserId: String
    var userId: String
    var configId: String
    var mergedAt: Date
}
