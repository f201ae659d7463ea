import Foundation
import KeywayJOSE
import KeywayProtocol

/// Approvals and device revocations by an activated PowerAuth device: its signature, verified
/// by ``PowerAuthSignatureVerifier`` before these run, stands for the device key of a trusted
/// device. The activation must belong to the approval's user and to an application of the
/// approval's project.
extension ApprovalService {
    /// The sign-ins waiting for the activation's user.
    func pending(forActivation activation: PowerAuthActivationRecord) async throws -> ApprovalRequestList {
        try await requests(for: activation.userId)
    }

    /// Approves or denies a pending request with an activated device of the same user; QR data's
    /// secret, when sent, must be the request's. Each request is decided once.
    func decide(
        approvalId: String, decision: ApprovalDecision, qrSecret: String?, activation: PowerAuthActivationRecord
    ) async throws -> ApprovalDecision {
        guard decision == .approve || decision == .deny else {
            throw FlowProblem.invalidRequest([InvalidField(name: "decision", reason: "Send approve or deny.")])
        }
        let now = clock.now().epochMilliseconds
        return try await database.write { repositories in
            guard let approval = try await repositories.approvals.find(id: approvalId),
                let application = try await repositories.applications.find(id: approval.applicationId),
                let deviceApplication = try await repositories.applications.find(id: activation.applicationId),
                approval.userId == activation.userId, deviceApplication.projectId == application.projectId
            else { throw FlowProblem.approvalNotFound }
            if let qrSecret, !ConstantTime.equals(sha256Hex(qrSecret), approval.qrSecretHash) {
                throw FlowProblem.approvalNotFound
            }
            guard approval.state == .pending else { throw FlowProblem.approvalAlreadyDecided }
            guard now < approval.expiresAt else { throw FlowProblem.approvalExpired }
            let state: ApprovalRecord.State = decision == .approve ? .approved : .denied
            guard
                try await repositories.approvals.decide(id: approval.id, state: state, deviceId: activation.id, now: now)
            else { throw FlowProblem.approvalAlreadyDecided }
            logger.notice(
                "approval decided by an activation",
                metadata: ["approval": "\(approval.id)", "activation": "\(activation.id)", "decision": "\(decision.rawValue)"])
            return decision
        }
    }

    /// Stops trusting one device of the activation's user in the activation's application;
    /// `false` when the user has no such trusted device there.
    func revoke(deviceId: String, activation: PowerAuthActivationRecord) async throws -> Bool {
        guard let configId = try await database.read({ try await $0.applications.find(id: activation.applicationId) })?.configId
        else { return false }
        return try await revoke(deviceId: deviceId, userId: activation.userId, configId: configId)
    }
}
