import Foundation
import KeywayProtocol

/// The input of a password stage.
extension FlowEngine {
    /// The password stage the flow is at, and what the password is for.
    private func passwordStage(_ context: Context) throws -> PasswordPurpose {
        guard let active = context.progress.active(.password) else { throw FlowProblem.invalidStep }
        return (try? active.state(as: PasswordStage.self))?.purpose ?? .signIn
    }

    /// Checks a password (sign-in, re-verification) or sets one (sign-up, change, reset). The slow hash
    /// runs outside the write transaction, and only once the attempt was counted: a check is
    /// admitted (its limits checked and the attempt recorded as a failure until it succeeds) in a
    /// transaction of its own first, so a refused attempt costs no hashing, and parallel attempts
    /// on one flow cannot get past its attempt limit. Each check first takes a place in the bounded
    /// ``PasswordGate``; with none free it is refused at once with `wait`, uncounted.
    func submitPassword(_ target: Target, password: String) async throws -> Step {
        let now = clock.now().epochMilliseconds
        let (purpose, minimumLength) = try await database.read { repositories in
            let context = try await self.load(
                flowId: target.flowId, flowToken: target.flowToken, configId: target.configId, now: now,
                in: repositories)
            if let problem = self.openProblem(context.flow, now: now) { throw problem }
            return (try self.passwordStage(context), context.policy.passwordMinimumLength)
        }
        guard !password.isEmpty, password.count <= 1024 else {
            throw FlowProblem.invalidRequest([InvalidField(name: "password", reason: "Enter your password.")])
        }
        if purpose == .signIn {
            // A place first (a check refused for want of one costs nothing, not even an attempt),
            // then the attempt is counted, then hashed.
            let network = target.clientAddress.map(ClientAddress.hash)
            let (stored, verified) = try await passwordGate.withPlace(network: network) { () async throws -> (String?, Bool) in
                let stored = try await self.admitPasswordCheck(target, now: now)
                if let stored { return (stored, await self.passwords.verify(password, against: stored)) }
                await self.passwords.verifyDummy(password)
                return (nil, false)
            }
            return try await run(target) { context, repositories in
                guard try self.passwordStage(context) == .signIn else { throw FlowProblem.invalidStep }
                guard verified, context.user?.passwordHash == stored else {
                    // The attempt was counted as a failure when it was admitted.
                    try await self.recordFailure(context, in: repositories)
                    let remaining = self.limits.maxCodeAttempts - context.progress.failures(of: .password)
                    if remaining <= 0 {
                        context.flow.state = .failed
                        return .tooManyAttempts
                    }
                    return .invalidCredentials(attemptsRemaining: remaining)
                }
                context.progress.failures[FlowMethodID.password.rawValue] = max(
                    0, context.progress.failures(of: .password) - 1)
                return try await self.proved(.password, amr: "pwd", &context, in: repositories)
            }
        }
        let problems = passwords.problems(with: password, minimumLength: minimumLength)
        if !problems.isEmpty { throw FlowProblem.weakPassword(problems) }
        let hash = try await passwordGate.withPlace(network: target.clientAddress.map(ClientAddress.hash)) {
            try await self.passwords.hash(password)
        }
        return try await run(target) { context, repositories in
            guard try self.passwordStage(context) == purpose else { throw FlowProblem.invalidStep }
            if purpose == .reset {
                return try await self.finishPasswordReset(hash: hash, &context, in: repositories)
            }
            if purpose == .create {
                guard var draft = context.progress.signUpDraft else { throw FlowProblem.invalidStep }
                try draft.keep(PasswordCredential(hash: hash), for: .password)
                context.progress.signUpDraft = draft
                context.progress.prove(.password, role: .credential, amr: "pwd", at: context.now)
                return try await self.advance(&context, in: repositories)
            }
            guard var user = context.user else { throw FlowProblem.internalError }
            user.passwordHash = hash
            try await repositories.users.updateMethods(user)
            context.user = user
            context.progress.stage = .manageAccount
            context.progress.notice = "passwordChanged"
            return nil
        }
    }

    /// Admits one password check: in one transaction, checks the flow's attempts and the limits
    /// per identifier and per client address, and records the attempt as a failure (undone when
    /// the password matches). Answers the stored hash to check against (`nil`: no password, or no
    /// account). A check past the flow's attempts is refused; a rate-limited one rolls back and throws.
    private func admitPasswordCheck(_ target: Target, now: Int64) async throws -> String? {
        let outcome: Result<String?, FlowProblem> = try await database.write { repositories in
            var context = try await self.load(
                flowId: target.flowId, flowToken: target.flowToken, configId: target.configId, now: now,
                in: repositories)
            if let problem = self.openProblem(context.flow, now: now) { return .failure(problem) }
            guard try self.passwordStage(context) == .signIn else { throw FlowProblem.invalidStep }
            context.addressHash = target.clientAddress.map(ClientAddress.hash)
            // Out of attempts: refused without a hash. The flow is closed by the check that used the
            // last attempt, once it knows its result (a right password among them still counts).
            let failures = context.progress.failures(of: .password)
            guard failures < self.limits.maxCodeAttempts else { return .failure(.tooManyAttempts) }
            try await self.consumeForIdentifier(
                "pw-id", Self.accountKey(context), clientHash: context.addressHash, userId: context.user?.id,
                limit: self.limits.rateLimits.passwordChecksPerIdentifier, now: now, in: repositories)
            try await self.consumeCheck(context, in: repositories)
            context.progress.failures[FlowMethodID.password.rawValue] = failures + 1
            context.flow.progress = context.progress
            context.flow.updatedAt = now
            try await repositories.flows.update(context.flow)
            return .success(context.user?.passwordHash)
        }
        return try outcome.get()
    }
}
