import Foundation
import KeywayProtocol

/// Approval by another trusted device: a second factor for users with a trusted device other than
/// the one signing in. The flow waits at `awaitApproval` (the SDK polls) until the request is
/// approved, denied or expires.
struct ApprovalMethod: SecondFactorMethod, StageResourceMethod, ConfigurableMethod {
    let id: FlowMethodID = .deviceApproval

    /// Approvals read the trusted devices' settings (``DeviceTrustSettings``).
    let settings: [any MethodSettings.Type] = [DeviceTrustSettings.self]

    /// As a second factor, approval needs trusted devices, and cannot be the only one required: a
    /// user without a trusted device could never sign in.
    func validate(_ policy: ApplicationPolicy, devMode: Bool) -> [PolicyProblem] {
        guard policy.mfaMethods.contains(id) else { return [] }
        var problems: [PolicyProblem] = []
        if !policy.devices.enabled {
            problems.append(
                PolicyProblem(
                    code: "devices_not_enabled", field: "mfaMethods",
                    message: "deviceApproval needs trusted devices: set devices.enabled to true."))
        }
        // A listed method that is no second factor is refused by the policy's own rules.
        if policy.mfaMode == .required, !policy.mfaMethods.contains(where: { $0 != id }) {
            problems.append(
                PolicyProblem(
                    code: "policy_locks_out_users", field: "mfaMethods",
                    message:
                        "deviceApproval cannot be the only required second factor: a user without a trusted device could never sign in. Add another second factor to mfaMethods (emailOtp, smsOtp or totp, for instance)."))
        }
        return problems
    }

    /// Counted before a second factor is offered (``loadWhenDue(into:in:)``).
    func isEnrolled(_ context: FlowEngine.Context) -> Bool { context.approverCount > 0 }

    /// Approving needs a trusted device, which is enrolled elsewhere.
    func canEnrol(_ context: FlowEngine.Context) -> Bool { false }

    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption {
        MethodOption(id: id.rawValue, type: id, label: "Approve on another trusted device")
    }

    func begin(_ purpose: MethodPurpose, _ method: inout MethodContext) async throws {
        guard purpose == .secondFactor else { throw FlowProblem.methodUnavailable }
        try await requestApproval(&method)
    }

    /// Opens an approval request for the flow and moves to `awaitApproval`; tells the project's
    /// backend (`approval.requested`) when it receives events.
    private func requestApproval(_ method: inout MethodContext) async throws {
        guard let user = method.user else { throw FlowProblem.methodUnavailable }
        let context = method.context
        let settings = context.policy.devices
        let secret = SecureRandom.token(prefix: "kqr")
        let approval = ApprovalRecord(
            id: SecureRandom.identifier(prefix: "apr"), flowId: context.flow.id, applicationId: context.application.id,
            userId: user.id, matchingNumber: String(Int.random(in: 10...99)), qrSecretHash: sha256Hex(secret),
            state: .pending, location: context.location, userAgent: context.progress.client.userAgent, createdAt: context.now,
            expiresAt: context.now + Int64(settings.approvalLifetimeSeconds) * 1000)
        try await method.repositories.approvals.insert(approval)
        try method.keep(
            ApprovalStage(
                approvalId: approval.id,
                sealedSecret: try method.seal(Array(secret.utf8), purpose: "approval:\(context.flow.id)"),
                matchingNumber: approval.matchingNumber, expiresAt: approval.expiresAt))
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
            method.queueEvent(
                DeliveryRequest(
                    projectId: context.application.projectId, flowId: context.flow.id, channel: .event,
                    recipient: user.id, subject: event.type,
                    body: Sensitive(String(decoding: try encoder.encode(event), as: UTF8.self)), code: nil,
                    idempotencyKey: SecureRandom.identifier(prefix: "idk")))
        }
    }

    func step(for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources) {
        let stage = (try? active.state(as: ApprovalStage.self)) ?? ApprovalStage()
        let flow = context.flow
        draft.info = StepInfo(id: "awaitApproval", label: "Approve on your other device")
        draft.payload = .none(.awaitApproval)
        if let sealed = stage.sealedSecret, let approvalId = stage.approvalId,
            let secret = try? resources.secrets.open(sealed, purpose: "approval:\(flow.id)")
        {
            let qr = ApprovalQRData(
                server: context.audience, configID: context.application.configId, approvalID: approvalId,
                flowID: flow.id, secret: String(decoding: secret, as: UTF8.self))
            draft.payload = .awaitApproval(
                AwaitApprovalPayload(
                    matchingNumber: stage.matchingNumber ?? "", qrData: Sensitive(qr.text),
                    expiresAt: Date(epochMilliseconds: stage.expiresAt ?? flow.expiresAt),
                    pollInterval: context.policy.devices.approvalPollIntervalSeconds))
        }
        draft.messages.append(
            Message(
                level: "info", code: "approvalRequested",
                text: "Approve this sign-in on one of your trusted devices, or scan the code with it. Check that it shows \(stage.matchingNumber ?? "")."))
        draft.post("poll", "approval", label: "Check again")
    }

    func cancelled(_ active: ActiveMethod, flowId: String, now: Int64, in repositories: Repositories) async throws {
        try await repositories.approvals.withdraw(flowId: flowId, now: now)
    }

    func routes(_ routes: FlowInputRoutes) {
        routes.input("approval", of: id) { method in try await poll(&method) }
    }

    /// Polls the approval the flow waits for: the same step while it is pending, the next step
    /// once approved, and an error action when it was denied or expired. Polling faster than the
    /// step's `pollInterval` is refused with `slow_down`.
    func poll(_ method: inout MethodContext) async throws -> FlowProblem? {
        var stage = try method.state(as: ApprovalStage.self)
        let interval = Int64(method.policy.devices.approvalPollIntervalSeconds) * 1000
        // A little slack for clocks and transport jitter.
        if let last = stage.lastPolledAt, method.now - last < interval - 250 {
            throw FlowProblem.slowDown(seconds: method.policy.devices.approvalPollIntervalSeconds)
        }
        stage.lastPolledAt = method.now
        try method.keep(stage)
        guard let approvalId = stage.approvalId,
            let approval = try await method.repositories.approvals.find(id: approvalId), approval.flowId == method.flowId
        else { throw FlowProblem.internalError }
        switch approval.state {
        case .pending:
            guard method.now >= approval.expiresAt else { return nil }
            return method.fail(.approvalExpired)
        case .denied, .withdrawn:
            return method.fail(.approvalDenied)
        case .approved:
            var approver: TrustedDeviceRecord?
            if let deviceId = approval.decidedByDeviceId {
                approver = try await method.repositories.trustedDevices.find(id: deviceId)
            }
            return try await method.prove(amr: approver?.amr ?? "swk")
        }
    }
}

/// The state of an approval stage. Every member is optional.
struct ApprovalStage: Codable, Sendable, Equatable {
    /// The approval request the flow waits for.
    var approvalId: String?
    /// Its QR secret, sealed to the flow.
    var sealedSecret: String?
    var matchingNumber: String?
    /// When the request expires, in milliseconds since 1970.
    var expiresAt: Int64?
    /// When the client last polled.
    var lastPolledAt: Int64?
}
