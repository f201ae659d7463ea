import Foundation
import KeywayProtocol

/// A sign-in started without an identifier, by a method whose answer names the account
/// (``IdentifyingMethod``: a discoverable passkey of any account of the project). The hosted
/// pages start one with the challenge their identifier page already offered (`challenge`), so
/// the browser's autofill can answer it.
extension FlowEngine {
    func startWithoutIdentifier(
        by method: FlowMethodID, application: ApplicationRecord, policy: FlowPolicy, request: StartFlowRequest,
        authorization: FlowProgress.AuthorizationParameters?, clientAddress: String?, userAgent: String?, guest: Guest?,
        challenge: String? = nil, traceId: String, now: Int64
    ) async throws -> Step {
        let flowId = SecureRandom.identifier(prefix: "flw")
        let flowToken = SecureRandom.token(prefix: "kft")
        let step: Step = try await database.write { repositories in
            let clientHash = clientAddress.map(ClientAddress.hash)
            if let clientHash {
                try await self.consume(
                    "start-ip", clientHash, limit: self.limits.rateLimits.flowStartsPerAddress, now: now, in: repositories)
            }
            var progress = FlowProgress(
                mode: .signIn(FlowProgress.SignIn()), stage: .choosing(MethodChoice(options: [], purpose: .primary)))
            progress.authorization = authorization
            if let guest { progress.guest = FlowProgress.GuestProgress(userId: guest.userId, signsIn: true) }
            progress.client = Self.client(request, policy: policy, userAgent: userAgent)
            let flow = FlowRecord(
                id: flowId, applicationId: application.id, flowType: .signin, identifier: "", userId: nil,
                state: .awaitingCode, tokenHash: sha256Hex(flowToken), codeChallenge: request.codeChallenge, otpHash: nil,
                otpExpiresAt: nil, resendAt: nil, resendCount: 0, failedAttempts: 0, sessionId: nil, createdAt: now,
                expiresAt: now + self.milliseconds(self.limits.flowLifetime), updatedAt: now)
            var context = Context(
                flow: flow, progress: progress, application: application, policy: policy, user: nil, now: now,
                addressHash: clientHash, location: CoarseLocation.of(clientAddress), audience: self.issuer())
            context.clientName = userAgent.map { String($0.prefix(200)) }
            guard let module = self.methods.module(method, as: (any IdentifyingMethod).self) else {
                throw FlowProblem.methodUnavailable
            }
            try await self.withMethod(method, purpose: .primary, &context, in: repositories) {
                try module.beginWithoutIdentifier(challenge: challenge, &$0)
            }
            context.flow.progress = context.progress
            try await repositories.flows.insert(context.flow)
            return self.steps.step(for: context, flowToken: Sensitive(flowToken), traceId: traceId)
        }
        logger.info("flow started", metadata: ["flow": "\(flowId)", "type": "signin", "method": "\(method)"])
        metrics.flowStarted(flowType: FlowType.signin.rawValue)
        return step
    }
}
