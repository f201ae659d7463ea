import Foundation
import KeywayJOSE
import KeywayProtocol

/// Account management: a signed-in user sees their methods and adds, replaces or removes a
/// second factor or changes the password. Every change that weakens the account (removing or
/// replacing a method, a new password) first asks the user to prove who they are again.
extension FlowEngine {
    /// The operations of a `manageAccount` step.
    enum Operation: String, Sendable, CaseIterable {
        case setupTotp
        case removeTotp
        case setupSms
        case removeSms
        case changePassword
        case revokeDevice
        case revokeAllDevices
        case finish
    }

    /// How long a fresh verification covers further changes in the same flow.
    static let reverificationLifetime: Int64 = 5 * 60 * 1000

    /// Starts an `accountManage` flow for the user an access token named. The code it ends with is
    /// for the token's session and at most the token's scope, and only after a fresh verification.
    func startManaging(
        application: ApplicationRecord, policy: FlowPolicy, account: Account,
        request: StartFlowRequest, clientAddress: String?, now: Int64, traceId: String
    ) async throws -> Step {
        let userId = account.userId
        let sessionId = account.sessionId
        let flowId = SecureRandom.identifier(prefix: "flw")
        let flowToken = SecureRandom.token(prefix: "kft")
        return try await database.write { repositories in
            guard let user = try await repositories.users.find(id: userId), user.projectId == application.projectId
            else { throw FlowProblem.invalidAccessToken }
            if user.isBlocked { throw FlowProblem.userBlocked }
            let flow = FlowRecord(
                id: flowId, applicationId: application.id, flowType: .accountManage,
                identifier: user.email ?? user.phone ?? user.id, userId: user.id, state: .awaitingCode,
                tokenHash: sha256Hex(flowToken), codeChallenge: request.codeChallenge, otpHash: nil, otpExpiresAt: nil,
                resendAt: nil, resendCount: 0, failedAttempts: 0, sessionId: sessionId, createdAt: now,
                expiresAt: now + self.milliseconds(self.limits.flowLifetime), updatedAt: now,
                progress: FlowProgress(
                    mode: .manage(FlowProgress.Management(grantedScope: account.scope)), stage: .manageAccount))
            try await repositories.flows.insert(flow)
            var context = Context(
                flow: flow, progress: flow.progress!, application: application, policy: policy, user: user, now: now,
                addressHash: clientAddress.map(ClientAddress.hash), audience: self.issuer())
            if policy.devices.enabled {
                context.trustedDevices = try await repositories.trustedDevices.trusted(
                    userId: user.id, applicationId: application.id, now: now)
            }
            return self.steps.step(for: context, flowToken: Sensitive(flowToken), traceId: traceId)
        }
    }

    /// The operations open to the user now.
    static func operations(_ context: Context) -> [Operation] {
        guard let user = context.user else { return [.finish] }
        let policy = context.policy
        var operations: [Operation] = []
        if policy.mfaMethods.contains(.totp) || policy.primaryMethods.contains(.totp) {
            operations.append(.setupTotp)
            if user.hasTotp { operations.append(.removeTotp) }
        }
        if policy.mfaMethods.contains(.smsOtp) || policy.primaryMethods.contains(.smsOtp) {
            operations.append(.setupSms)
            if user.phone != nil, user.email != nil { operations.append(.removeSms) }
        }
        if policy.primaryMethods.contains(.password) { operations.append(.changePassword) }
        if policy.devices.enabled, !context.trustedDevices.isEmpty {
            operations.append(.revokeDevice)
            operations.append(.revokeAllDevices)
        }
        operations.append(.finish)
        return operations
    }

    /// Runs an operation of the `manageAccount` step, after a fresh verification when it
    /// weakens the account.
    func manage(_ target: Target, operation name: String, deviceId: String? = nil) async throws -> Step {
        guard let operation = Operation(rawValue: name) else {
            throw FlowProblem.invalidRequest([InvalidField(name: "operation", reason: "No such operation.")])
        }
        return try await mutate(
            flowId: target.flowId, flowToken: target.flowToken, configId: target.configId,
            clientAddress: target.clientAddress, traceId: target.traceId
        ) { context, repositories in
            guard context.progress.isManage, context.progress.stage == .manageAccount else {
                throw FlowProblem.invalidStep
            }
            guard Self.operations(context).contains(operation) else { throw FlowProblem.invalidStep }
            context.progress.notice = nil
            if operation == .finish, self.recentlyVerified(context) {
                return try await self.complete(&context, in: repositories)
            }
            if operation == .revokeDevice || operation == .revokeAllDevices {
                // Revoking makes the account safer: no fresh verification needed.
                return try await self.revokeDevices(operation, deviceId: deviceId, &context, in: repositories)
            }
            if self.weakens(operation, context), !self.recentlyVerified(context) {
                let options = self.reverificationOptions(context)
                guard !options.isEmpty else { throw FlowProblem.methodUnavailable }
                context.progress.management?.pendingOperation = operation.rawValue
                try await self.offer(options, purpose: .reverification, skippable: false, &context, in: repositories)
                return nil
            }
            context.progress.management?.pendingOperation = operation.rawValue
            return try await self.runPendingOperation(&context, in: repositories)
        }
    }

    /// Whether an operation needs a fresh verification: removing or replacing a method, a new
    /// password, or finishing (which issues an authorization code, so new tokens: an access token
    /// alone must not be enough to mint them).
    private func weakens(_ operation: Operation, _ context: Context) -> Bool {
        switch operation {
        case .removeTotp, .removeSms, .changePassword, .finish: true
        case .setupTotp: context.user?.hasTotp ?? false
        case .setupSms: context.user?.phone != nil
        case .revokeDevice, .revokeAllDevices: false
        }
    }

    private func recentlyVerified(_ context: Context) -> Bool {
        guard let at = context.progress.reverifiedAt else { return false }
        return context.now - at < Self.reverificationLifetime
    }

    /// Carries out the operation that waited for a verification.
    func runPendingOperation(_ context: inout Context, in repositories: Repositories) async throws -> FlowProblem? {
        guard let name = context.progress.management?.pendingOperation, let operation = Operation(rawValue: name),
            var user = context.user
        else {
            context.progress.stage = .manageAccount
            return nil
        }
        context.progress.management?.pendingOperation = nil
        switch operation {
        case .setupTotp:
            try await begin(.totp, purpose: .enrolment, &context, in: repositories)
        case .setupSms:
            try await begin(.smsOtp, purpose: .enrolment, &context, in: repositories)
        case .changePassword:
            try PasswordMethod.beginChoosing(.change, &context)
        case .removeTotp, .removeSms:
            let removing: AuthenticationMethod = operation == .removeTotp ? .totp : .smsOtp
            if operation == .removeSms, user.email == nil { return .lastIdentifier }
            if context.policy.mfaMode == .required {
                let remaining = enrolledSecondFactors(context).filter { $0 != removing }
                if remaining.isEmpty { return .lastSecondFactor }
            }
            if operation == .removeTotp {
                user.totpSecret = nil
                user.totpLastCounter = nil
            } else {
                user.phone = nil
                user.phoneVerified = false
            }
            try await repositories.users.updateMethods(user)
            context.user = user
            context.progress.stage = .manageAccount
            context.progress.notice = operation == .removeTotp ? "totpRemoved" : "smsRemoved"
        case .revokeDevice, .revokeAllDevices:
            return try await revokeDevices(operation, deviceId: nil, &context, in: repositories)
        case .finish:
            return try await complete(&context, in: repositories)
        }
        return nil
    }

    /// Stops trusting one of the user's devices in this application, or all of them.
    private func revokeDevices(
        _ operation: Operation, deviceId: String?, _ context: inout Context, in repositories: Repositories
    ) async throws -> FlowProblem? {
        guard let user = context.user else { throw FlowProblem.internalError }
        if operation == .revokeDevice {
            guard let deviceId, context.trustedDevices.contains(where: { $0.id == deviceId }),
                try await repositories.trustedDevices.revoke(id: deviceId, userId: user.id, now: context.now)
            else {
                throw FlowProblem.invalidRequest([
                    InvalidField(name: "deviceId", reason: "Choose one of the trusted devices listed.")
                ])
            }
            context.progress.notice = "deviceRevoked"
        } else {
            _ = try await repositories.trustedDevices.revokeAll(
                userId: user.id, applicationId: context.application.id, now: context.now)
            context.progress.notice = "devicesRevoked"
        }
        logger.notice("trusted device revoked", metadata: ["user": "\(user.id)", "device": "\(deviceId ?? "all")"])
        context.trustedDevices = try await repositories.trustedDevices.trusted(
            userId: user.id, applicationId: context.application.id, now: context.now)
        context.progress.stage = .manageAccount
        return nil
    }
}
