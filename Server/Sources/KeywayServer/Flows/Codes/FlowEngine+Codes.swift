import Foundation
import KeywayProtocol

/// The one-time code step shared by the code methods: sending a code, checking it, sending a new
/// one. Its routes (`code`, `resend`) serve whichever code method's stage the flow is at.
extension FlowEngine {
    /// Issues a new code to `destination` and moves to the code stage of `method` for `purpose`.
    /// The code goes out only where it can lead somewhere; otherwise a notice without a code goes
    /// out instead, the step looks the same and no code can match, so the answers do not reveal
    /// whether the identifier has an account (or the phone number another owner).
    func sendCode(
        _ method: any CodeMethod, purpose: MethodPurpose, to destination: String, deliverable: Bool = true,
        _ context: inout Context, in repositories: Repositories
    ) async throws {
        try await consumeForIdentifier(
            "send-id", Self.identifierKey(projectId: context.application.projectId, identifier: context.flow.identifier),
            clientHash: context.addressHash, userId: context.user?.id, limit: limits.rateLimits.codeSendsPerIdentifier,
            now: context.now, in: repositories)
        if let address = context.addressHash {
            try await consume(
                "send-ip", address, limit: limits.rateLimits.codeSendsPerAddress, now: context.now, in: repositories)
        }
        let code = OneTimeCodeHasher.generate(digits: limits.codeLength)
        // A dev application's first sign-in creates the account, so its code goes out too (not a
        // password reset's: there is no password to reset).
        let deliver =
            deliverable
            && (!context.progress.isSignIn || context.user != nil
                || (context.policy.autoCreateUsers && purpose == .primary && (method as? any PrimaryMethod)?.worksWithoutEnrolment == true))
        context.flow.otpHash = deliver ? hasher.hash(code: code, flowId: context.flow.id) : nil
        context.flow.otpExpiresAt = context.now + milliseconds(limits.codeLifetime)
        context.flow.resendAt = context.now + milliseconds(limits.resendCooldown)
        context.progress.stage = .method(try ActiveMethod(method.id, purpose: purpose, state: CodeStage(destination: destination, withheld: deliverable ? nil : true)))
        let channel = method.channel(for: destination)
        let templates = channel == .email ? context.policy.emailTemplates : nil
        if deliver {
            let minutes = Int(limits.codeLifetime / 60)
            let text =
                try await withMethod(method.id, purpose: purpose, &context, in: repositories) {
                    try await method.codeMessage(code: code, to: destination, &$0)
                }
                ?? MessageTemplates.signInCode(
                    code, minutes: minutes, template: templates?.code, application: context.application.name,
                    purpose: context.progress.isSignUp ? .signUp : context.progress.isSignIn ? .signIn : .verification)
            context.outgoing.append(
                OutgoingMessage(
                    channel: channel, to: destination, code: Sensitive(code), subject: text.subject, body: text.body))
        } else {
            // No account (or a phone number that is someone else's): a notice without a code takes
            // the same path, so neither the answer nor its timing tells the cases apart.
            let text =
                deliverable
                ? MessageTemplates.noAccount(template: templates?.noAccount, application: context.application.name)
                : MessageTemplates.phoneInUse()
            context.outgoing.append(
                OutgoingMessage(channel: channel, to: destination, code: nil, subject: text.subject, body: text.body))
        }
    }

    /// The code method whose code stage the flow is at, with the stage and its destination.
    func codeStage(_ context: Context) throws -> (method: any CodeMethod, active: ActiveMethod, stage: CodeStage) {
        guard case .method(let active) = context.progress.stage,
            let method = self.methods.module(active.method, as: (any CodeMethod).self),
            let stage = try? active.state(as: CodeStage.self), stage.destination != nil
        else { throw FlowProblem.invalidStep }
        return (method, active, stage)
    }

    /// Checks an email or SMS code.
    func submitCode(_ target: Target, code rawCode: String) async throws -> Step {
        let code = rawCode.trimmingCharacters(in: .whitespaces)
        guard code.utf8.count == limits.codeLength, code.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "code", reason: "Enter the \(limits.codeLength)-digit code.")
            ])
        }
        return try await run(target) { context, repositories in
            let (method, active, stage) = try self.codeStage(context)
            if let expires = context.flow.otpExpiresAt, context.now >= expires { return .codeExpired }
            try await self.consumeForIdentifier(
                "check-id", Self.accountKey(context), clientHash: context.addressHash, userId: context.user?.id,
                limit: self.limits.rateLimits.codeChecksPerIdentifier, now: context.now, in: repositories)
            try await self.consumeCheck(context, in: repositories)
            let matches =
                context.flow.otpHash.map {
                    self.hasher.verify(code: code, flowId: context.flow.id, storedHash: $0)
                } ?? false
            guard matches else {
                context.flow.failedAttempts += 1
                try await self.recordFailure(context, in: repositories)
                let remaining = self.limits.maxCodeAttempts - context.flow.failedAttempts
                if remaining <= 0 {
                    context.flow.state = .failed
                    context.flow.otpHash = nil
                    return .tooManyAttempts
                }
                return .invalidCode(attemptsRemaining: remaining)
            }
            context.flow.otpHash = nil
            return try await self.withMethod(method.id, purpose: active.purpose, &context, in: repositories) {
                try await method.codeAccepted(destination: stage.destination ?? "", &$0)
            }
        }
    }

    /// Sends a new code once the cooldown has passed.
    func resend(_ target: Target) async throws -> Step {
        try await run(target) { context, repositories in
            let (method, active, stage) = try self.codeStage(context)
            if let resendAt = context.flow.resendAt, context.now < resendAt {
                throw FlowProblem.resendCooldown(
                    until: Date(epochMilliseconds: resendAt), now: Date(epochMilliseconds: context.now))
            }
            guard context.flow.resendCount < self.limits.maxResends else { throw FlowProblem.resendLimitReached }
            let resends = context.flow.resendCount
            // A phone number someone else has gets notices again, never a code.
            try await self.sendCode(
                method, purpose: active.purpose, to: stage.destination ?? "", deliverable: stage.withheld != true,
                &context, in: repositories)
            context.flow.resendCount = resends + 1
            return nil
        }
    }

    /// The routes of the code step.
    static func codeRoutes(_ routes: FlowInputRoutes) {
        let engine = routes.engine
        routes.post("code") { request, context, target in
            let body = try await RequestDecoding.json(SubmitCodeRequest.self, from: request, context: context)
            return try await engine.submitCode(target, code: body.code.revealed)
        }
        routes.post("resend") { _, _, target in
            try await engine.resend(target)
        }
    }
}
