import Foundation
import KeywayProtocol

/// Approval requests: the flow waits while another of the user's trusted devices approves the
/// sign-in (pushed to it, or by scanning the step's QR code), matching the number both show.
extension FlowEngine {
    /// How many devices could approve a sign-in of the context's user: trusted devices other than
    /// the one the client named, and active PowerAuth activations in the project.
    func approverCount(_ context: Context, in repositories: Repositories) async throws -> Int {
        guard context.policy.devices.enabled, context.policy.mfaMethods.contains(.deviceApproval),
            let user = context.user
        else { return 0 }
        let devices = try await repositories.trustedDevices.trusted(userId: user.id, applicationId: nil, now: context.now)
        var count = devices.filter { $0.id != context.progress.device.hint?.deviceId }.count
        for activation in try await repositories.powerAuthActivations.all(userId: user.id) where activation.status == .active {
            if try await repositories.applications.find(id: activation.applicationId)?.projectId
                == context.application.projectId
            {
                count += 1
            }
        }
        return count
    }

    /// Opens an approval request for the flow and moves to `awaitApproval`; tells the project's
    /// backend (`approval.requested`) when it receives events.
    func requestApproval(_ context: inout Context, in repositories: Repositories) async throws {
        guard let user = context.user else { throw FlowProblem.methodUnavailable }
        let settings = context.policy.devices
        let secret = SecureRandom.token(prefix: "kqr")
        let approval = ApprovalRecord(
            id: SecureRandom.identifier(prefix: "apr"), flowId: context.flow.id, applicationId: context.application.id,
            userId: user.id, matchingNumber: String(Int.random(in: 10...99)), qrSecretHash: sha256Hex(secret),
            state: .pending, location: context.location, userAgent: context.progress.device.userAgent, createdAt: context.now,
            expiresAt: context.now + Int64(settings.approvalLifetimeSeconds) * 1000)
        try await repositories.approvals.insert(approval)
        context.progress.stage = .method(
            try ActiveMethod(
                .deviceApproval, purpose: .secondFactor,
                state: ApprovalStage(
                    approvalId: approval.id,
                    sealedSecret: try secrets.seal(Array(secret.utf8), purpose: "approval:\(context.flow.id)"),
                    matchingNumber: approval.matchingNumber, expiresAt: approval.expiresAt)))
        if context.policy.sendsEvents {
            let event = ApprovalRequestedEvent(
                type: "approval.requested", approvalId: approval.id, userId: user.id,
                applicationName: context.application.name, configId: context.application.configId,
                matchingNumber: approval.matchingNumber, location: approval.location, userAgent: approval.userAgent,
                createdAt: Date(epochMilliseconds: approval.createdAt),
                expiresAt: Date(epochMilliseconds: approval.expiresAt))
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
    }
}

/// The body of the `approval.requested` event sent to the project's events webhook.
struct ApprovalRequestedEvent: Codable, Sendable {
    var type: String
    var approvalId: String
    var userId: String
    var applicationName: String
    var configId: String
    var matchingNumber: String
    var location: String?
    var userAgent: String?
    var createdAt: Date
    var expiresAt: Date
}

extension CodeChannel {
    /// Events for the project's backend; delivered only to a configured events webhook.
    static let event = CodeChannel(rawValue: "event")
}
