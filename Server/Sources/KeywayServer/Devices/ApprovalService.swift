import Foundation
import KeywayJOSE
import KeywayProtocol
import Logging
import ServiceLifecycle

/// What trusted devices do outside flows: list the sign-ins waiting for their approval (a request
/// signed by the device key, optionally waiting for one to arrive), and approve or deny one with
/// a signature over that exact request. Also the device lists and revocations of account
/// settings and the admin API.
struct ApprovalService: Sendable {
    let database: any Database
    let clock: any ServerClock
    let issuer: @Sendable () -> String
    let logger: Logger

    /// How far the time of a signed list request may be from the server's clock.
    static let clockSkew: Int64 = 5 * 60

    /// The longest a list request waits for a request to arrive.
    static let longestWait: Duration = .seconds(30)

    // MARK: Listing

    /// A device's time header as Unix seconds: 1 to 12 ASCII digits and nothing else (no sign, no
    /// spaces), so every value is a plausible time and the skew arithmetic on it cannot overflow.
    static func unixSeconds(_ text: String) -> Int64? {
        guard (1...12).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(text)
    }

    /// The pending requests of the device's user, for the device that signed `time` (Unix seconds).
    /// With `wait`, holds the answer until a request is pending or `wait` ran out.
    func pending(
        deviceId: String, configId: String?, time: String?, signature: String?, wait: Duration
    ) async throws -> ApprovalRequestList {
        guard let configId, !configId.isEmpty else { throw FlowProblem.missingConfigId }
        guard let time, let seconds = Self.unixSeconds(time), let signature else {
            throw FlowProblem.invalidDeviceSignature
        }
        let now = clock.now().epochMilliseconds
        guard abs(now / 1000 - seconds) <= Self.clockSkew else { throw FlowProblem.invalidDeviceSignature }
        let device = try await database.read { repositories -> TrustedDeviceRecord? in
            guard let device = try await repositories.trustedDevices.find(id: deviceId),
                let application = try await repositories.applications.find(id: device.applicationId),
                application.configId == configId, device.isTrusted(at: now)
            else { return nil }
            return device
        }
        let input = DeviceSigningInput.listApprovals(
            deviceID: deviceId, configID: configId, audience: issuer(), time: seconds)
        guard let device, DeviceSignatures.verify(signature, of: input, storedKey: device.publicKey) else {
            throw FlowProblem.invalidDeviceSignature
        }
        // Each signed request is answered once: a captured one cannot be replayed to read the list.
        let fresh = try await database.write { repositories in
            try await repositories.deviceRequestSignatures.insert(
                hash: sha256Hex(signature), expiresAt: (seconds + Self.clockSkew) * 1000)
        }
        guard fresh else { throw FlowProblem.invalidDeviceSignature }
        let deadline = ContinuousClock.now + min(wait, Self.longestWait)
        while true {
            let list = try await requests(for: device.userId)
            // A server shutting down answers at once instead of holding its shutdown up.
            if !list.approvals.isEmpty || ContinuousClock.now >= deadline || Task.isShuttingDownGracefully {
                return list
            }
            // Polls the database, so a request written by any server instance is seen.
            try await Task.sleep(for: .milliseconds(250))
        }
    }

    func requests(for userId: String) async throws -> ApprovalRequestList {
        let now = clock.now().epochMilliseconds
        return try await database.read { repositories in
            var approvals: [ApprovalRequest] = []
            var applications: [String: ApplicationRecord] = [:]
            for approval in try await repositories.approvals.pending(userId: userId, now: now) {
                if applications[approval.applicationId] == nil {
                    applications[approval.applicationId] = try await repositories.applications.find(id: approval.applicationId)
                }
                guard let application = applications[approval.applicationId] else { continue }
                approvals.append(
                    ApprovalRequest(
                        id: approval.id, flowID: approval.flowId, applicationName: application.name,
                        configID: application.configId, location: approval.location, userAgent: approval.userAgent,
                        matchingNumber: approval.matchingNumber, createdAt: Date(epochMilliseconds: approval.createdAt),
                        expiresAt: Date(epochMilliseconds: approval.expiresAt)))
            }
            return ApprovalRequestList(approvals: approvals)
        }
    }

    // MARK: Deciding

    /// Approves or denies a pending request with a trusted device of the same user. The signature
    /// binds the request, its flow, its application, this server, the device and the decision;
    /// QR data's secret, when sent, must be the request's. Each request is decided once.
    func decide(approvalId: String, request: ApprovalDecisionRequest) async throws -> ApprovalDecision {
        guard request.decision == .approve || request.decision == .deny else {
            throw FlowProblem.invalidRequest([InvalidField(name: "decision", reason: "Send approve or deny.")])
        }
        let now = clock.now().epochMilliseconds
        let audience = issuer()
        return try await database.write { repositories in
            guard let approval = try await repositories.approvals.find(id: approvalId),
                let application = try await repositories.applications.find(id: approval.applicationId)
            else { throw FlowProblem.approvalNotFound }
            guard let device = try await repositories.trustedDevices.find(id: request.deviceID),
                device.userId == approval.userId, device.isTrusted(at: now)
            else { throw FlowProblem.invalidDeviceSignature }
            let input = DeviceSigningInput.approval(
                approvalID: approval.id, flowID: approval.flowId, configID: application.configId, audience: audience,
                deviceID: device.id, decision: request.decision)
            guard DeviceSignatures.verify(request.signature, of: input, storedKey: device.publicKey) else {
                throw FlowProblem.invalidDeviceSignature
            }
            if let secret = request.qrSecret?.revealed,
                !ConstantTime.equals(sha256Hex(secret), approval.qrSecretHash)
            {
                throw FlowProblem.approvalNotFound
            }
            guard approval.state == .pending else { throw FlowProblem.approvalAlreadyDecided }
            guard now < approval.expiresAt else { throw FlowProblem.approvalExpired }
            let state: ApprovalRecord.State = request.decision == .approve ? .approved : .denied
            guard try await repositories.approvals.decide(id: approval.id, state: state, deviceId: device.id, now: now)
            else { throw FlowProblem.approvalAlreadyDecided }
            // Deciding is not a sign-in of this device: its trust window stays as it is.
            try await repositories.trustedDevices.touch(id: device.id, now: now, trustedUntil: device.trustedUntil)
            logger.notice(
                "approval decided",
                metadata: ["approval": "\(approval.id)", "device": "\(device.id)", "decision": "\(request.decision.rawValue)"])
            return request.decision
        }
    }

    // MARK: Device lists

    /// The user's trusted devices in the application of `configId` (an access token's `client_id`).
    func devices(userId: String, configId: String) async throws -> [TrustedDevice] {
        let now = clock.now().epochMilliseconds
        return try await database.read { repositories in
            let applicationId = try await Self.applicationId(configId, in: repositories)
            return try await repositories.trustedDevices.trusted(userId: userId, applicationId: applicationId, now: now)
                .map(TrustedDevice.init)
        }
    }

    /// Stops trusting one device of the user in the application of `configId`; `false` when the
    /// user has no such trusted device there.
    func revoke(deviceId: String, userId: String, configId: String) async throws -> Bool {
        let now = clock.now().epochMilliseconds
        let revoked = try await database.write { repositories -> Bool in
            let applicationId = try await Self.applicationId(configId, in: repositories)
            guard let device = try await repositories.trustedDevices.find(id: deviceId),
                device.applicationId == applicationId
            else { return false }
            return try await repositories.trustedDevices.revoke(id: deviceId, userId: userId, now: now)
        }
        if revoked { logger.notice("trusted device revoked", metadata: ["user": "\(userId)", "device": "\(deviceId)"]) }
        return revoked
    }

    /// Stops trusting every device of the user in the application of `configId`.
    func revokeAll(userId: String, configId: String) async throws -> Int {
        let now = clock.now().epochMilliseconds
        let count = try await database.write { repositories in
            let applicationId = try await Self.applicationId(configId, in: repositories)
            return try await repositories.trustedDevices.revokeAll(userId: userId, applicationId: applicationId, now: now)
        }
        logger.notice("trusted devices revoked", metadata: ["user": "\(userId)", "count": "\(count)"])
        return count
    }

    private static func applicationId(_ configId: String, in repositories: Repositories) async throws -> String {
        guard let application = try await repositories.applications.find(configId: configId) else {
            throw FlowProblem.unknownConfigId
        }
        return application.id
    }
}
