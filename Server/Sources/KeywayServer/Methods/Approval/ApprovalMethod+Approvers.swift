import Foundation
import KeywayProtocol

/// Who could approve: counted when a sign-in's second factor is due, before one is offered.
extension ApprovalMethod: DueSecondFactorLoader {
    /// Counts the devices that could approve a sign-in of the context's user: trusted devices
    /// other than the one the client named, and active PowerAuth activations in the project.
    func loadWhenDue(into context: inout FlowEngine.Context, in repositories: Repositories) async throws {
        context.approverCount = try await Self.approverCount(context, in: repositories)
    }

    private static func approverCount(_ context: FlowEngine.Context, in repositories: Repositories) async throws -> Int {
        guard context.policy.devices.enabled, context.policy.mfaMethods.contains(.deviceApproval),
            let user = context.user
        else { return 0 }
        let devices = try await repositories.trustedDevices.trusted(userId: user.id, applicationId: nil, now: context.now)
        var count = devices.filter { $0.id != context.progress.client.deviceHint?.deviceID }.count
        for activation in try await repositories.powerAuthActivations.all(userId: user.id) where activation.status == .active {
            if try await repositories.applications.find(id: activation.applicationId)?.projectId
                == context.application.projectId
            {
                count += 1
            }
        }
        return count
    }
}

extension FlowEngine.Context {
    /// How many devices could approve this sign-in (counted by ``ApprovalMethod`` when a second
    /// factor is due).
    var approverCount: Int {
        get { methodData[.deviceApproval] as? Int ?? 0 }
        set { methodData[.deviceApproval] = newValue }
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
