import Foundation
import KeywayJOSE
import KeywayProtocol

/// The answers a user gives to a step: a method choice, a code, a password, an authenticator
/// code, a phone number, a form.
extension FlowEngine {
    /// Where a request comes from and which flow it names.
    struct Target: Sendable {
        let flowId: String
        let flowToken: String?
        let configId: String?
        var clientAddress: String? = nil
        let traceId: String
        /// The client's `User-Agent`, when sent.
        var userAgent: String? = nil
    }

    func run(
        _ target: Target, _ body: @Sendable @escaping (inout Context, Repositories) async throws -> FlowProblem?
    ) async throws -> Step {
        try await mutate(
            flowId: target.flowId, flowToken: target.flowToken, configId: target.configId,
            clientAddress: target.clientAddress, traceId: target.traceId, body)
    }

    func expect(_ stage: FlowProgress.Stage, _ context: Context) throws {
        guard context.progress.stage == stage else { throw FlowProblem.invalidStep }
    }

    // MARK: Choosing

    /// Chooses one of the methods a `selectMethod` step offers.
    func selectMethod(_ target: Target, methodId: String) async throws -> Step {
        try await run(target) { context, repositories in
            try self.expect(.selectMethod, context)
            let method = AuthenticationMethod(rawValue: methodId)
            guard context.progress.options.contains(method) else {
                throw FlowProblem.invalidRequest([
                    InvalidField(name: "methodId", reason: "Choose one of the methods offered.")
                ])
            }
            try await self.begin(method, purpose: context.progress.purpose, &context, in: repositories)
            return nil
        }
    }

    /// Skips an optional second factor.
    func skip(_ target: Target) async throws -> Step {
        try await run(target) { context, repositories in
            if context.progress.stage == .deviceEnroll || context.progress.stage == .deviceChallenge {
                return try await self.skipDeviceStep(&context, in: repositories)
            }
            try self.expect(.selectMethod, context)
            guard context.progress.skippable else { throw FlowProblem.invalidStep }
            context.progress.secondFactorSkipped = true
            return try await self.advance(&context, in: repositories)
        }
    }

    // MARK: Codes

    /// Checks an email or SMS code.
    func submitCode(_ target: Target, code rawCode: String) async throws -> Step {
        let code = rawCode.trimmingCharacters(in: .whitespaces)
        guard code.utf8.count == limits.codeLength, code.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "code", reason: "Enter the \(limits.codeLength)-digit code.")
            ])
        }
        return try await run(target) { context, repositories in
            try self.expect(.enterCode, context)
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
            let method: AuthenticationMethod = context.progress.codeChannel == .sms ? .smsOtp : .emailOtp
            return try await self.succeeded(method, &context, in: repositories)
        }
    }

    /// Sends a new code once the cooldown has passed.
    func resend(_ target: Target) async throws -> Step {
        try await run(target) { context, repositories in
            try self.expect(.enterCode, context)
            if let resendAt = context.flow.resendAt, context.now < resendAt {
                throw FlowProblem.resendCooldown(
                    until: Date(epochMilliseconds: resendAt), now: Date(epochMilliseconds: context.now))
            }
            guard context.flow.resendCount < self.limits.maxResends else { throw FlowProblem.resendLimitReached }
            guard let channel = context.progress.codeChannel, let destination = context.progress.codeDestination else {
                throw FlowProblem.invalidStep
            }
            let resends = context.flow.resendCount
            try await self.sendCode(channel: channel, to: destination, &context, in: repositories)
            context.flow.resendCount = resends + 1
            return nil
        }
    }

    // MARK: Passwords

    /// Checks a password (sign-in, re-verification) or sets one (sign-up, change). The slow hash
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
            try self.expect(.enterPassword, context)
            return (context.progress.passwordPurpose ?? .signIn, context.policy.passwordMinimumLength)
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
                try self.expect(.enterPassword, context)
                guard verified, context.user?.passwordHash == stored else {
                    // The attempt was counted as a failure when it was admitted.
                    try await self.recordFailure(context, in: repositories)
                    let remaining = self.limits.maxCodeAttempts - context.progress.passwordFailures
                    if remaining <= 0 {
                        context.flow.state = .failed
                        return .tooManyAttempts
                    }
                    return .invalidCredentials(attemptsRemaining: remaining)
                }
                context.progress.passwordFailures = max(0, context.progress.passwordFailures - 1)
                return try await self.succeeded(.password, &context, in: repositories)
            }
        }
        let problems = passwords.problems(with: password, minimumLength: minimumLength)
        if !problems.isEmpty { throw FlowProblem.weakPassword(problems) }
        let hash = try await passwordGate.withPlace(network: target.clientAddress.map(ClientAddress.hash)) {
            try await self.passwords.hash(password)
        }
        return try await run(target) { context, repositories in
            try self.expect(.enterPassword, context)
            guard context.progress.passwordPurpose == purpose else { throw FlowProblem.invalidStep }
            if purpose == .create {
                context.progress.pendingPasswordHash = hash
                context.progress.amr.append("pwd")
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
            try self.expect(.enterPassword, context)
            context.addressHash = target.clientAddress.map(ClientAddress.hash)
            // Out of attempts: refused without a hash. The flow is closed by the check that used the
            // last attempt, once it knows its result (a right password among them still counts).
            guard context.progress.passwordFailures < self.limits.maxCodeAttempts else {
                return .failure(.tooManyAttempts)
            }
            try await self.consumeForIdentifier(
                "pw-id", Self.accountKey(context), clientHash: context.addressHash, userId: context.user?.id,
                limit: self.limits.rateLimits.passwordChecksPerIdentifier, now: now, in: repositories)
            try await self.consumeCheck(context, in: repositories)
            context.progress.passwordFailures += 1
            context.flow.progress = context.progress
            context.flow.updatedAt = now
            try await repositories.flows.update(context.flow)
            return .success(context.user?.passwordHash)
        }
        return try outcome.get()
    }

    // MARK: Authenticator codes

    /// Checks an authenticator code: the first one of a new authenticator, or a sign-in code
    /// (±1 period; a code already used is refused).
    func submitTotp(_ target: Target, code rawCode: String) async throws -> Step {
        let code = rawCode.filter { !$0.isWhitespace }
        guard code.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw FlowProblem.invalidRequest([InvalidField(name: "code", reason: "Enter the 6-digit code.")])
        }
        return try await run(target) { context, repositories in
            let time = Date(epochMilliseconds: context.now)
            switch context.progress.stage {
            case .setupTotp:
                guard let sealed = context.progress.pendingTotpSecret else { throw FlowProblem.invalidStep }
                let generator = OneTimePassword(secret: try self.secrets.open(sealed, purpose: "totp"))
                guard let step = generator.verify(code, at: time) else {
                    return try await self.totpFailure(&context, in: repositories)
                }
                context.progress.pendingTotpCounter = Int64(step)
                return try await self.succeeded(.totp, &context, in: repositories)
            case .enterTotp:
                try await self.consumeForIdentifier(
                    "check-id", Self.accountKey(context), clientHash: context.addressHash, userId: context.user?.id,
                    limit: self.limits.rateLimits.codeChecksPerIdentifier, now: context.now, in: repositories)
                try await self.consumeCheck(context, in: repositories)
                // Without an authenticator the check runs against a throwaway secret: same work, no match.
                let secret = try context.user?.totpSecret.map { try self.secrets.open($0, purpose: "totp") }
                let generator = OneTimePassword(secret: secret ?? OneTimePassword.newSecret())
                let lastUsed = context.user?.totpLastCounter.map { UInt64(max(0, $0)) }
                guard secret != nil, let user = context.user,
                    let step = generator.verify(code, at: time, usedUpTo: lastUsed)
                else {
                    if secret != nil, generator.verify(code, at: time) != nil {
                        return .codeReplayed
                    }
                    return try await self.totpFailure(&context, in: repositories)
                }
                guard try await repositories.users.advanceTotpCounter(id: user.id, to: Int64(step)) else {
                    return .codeReplayed
                }
                context.user?.totpLastCounter = Int64(step)
                return try await self.succeeded(.totp, &context, in: repositories)
            default:
                throw FlowProblem.invalidStep
            }
        }
    }

    private func totpFailure(_ context: inout Context, in repositories: Repositories) async throws -> FlowProblem {
        context.progress.totpFailures += 1
        try await recordFailure(context, in: repositories)
        let remaining = limits.maxCodeAttempts - context.progress.totpFailures
        if remaining <= 0 {
            context.flow.state = .failed
            return .tooManyAttempts
        }
        return .invalidCode(attemptsRemaining: remaining)
    }

    // MARK: Phone numbers

    /// Takes the phone number of a `setupSms` step and sends it a code.
    func submitPhone(_ target: Target, phone raw: String) async throws -> Step {
        guard let phone = PhoneNumber.normalize(raw) else {
            throw FlowProblem.invalidRequest([
                InvalidField(
                    name: "phone", reason: "Enter the number in international form: + then the country code and number.")
            ])
        }
        return try await run(target) { context, repositories in
            try self.expect(.setupSms, context)
            // A number another account uses gets the same answer as a free one — a code step —
            // but only a notice goes to it and no code can match; the code sends it costs are
            // limited per identifier and address like any code, so numbers cannot be probed.
            let owner = try await repositories.users.find(projectId: context.application.projectId, phone: phone)
            let free = owner == nil || owner?.id == context.user?.id
            context.progress.pendingPhone = phone
            try await self.sendCode(channel: .sms, to: phone, deliverable: free, &context, in: repositories)
            return nil
        }
    }

    // MARK: Forms

    /// Takes the answers of a `form` step, checked field by field.
    func submitForm(_ target: Target, values: [String: String]) async throws -> Step {
        try await run(target) { context, repositories in
            try self.expect(.form, context)
            let (answers, problems) = SignupForm.check(values, policy: context.policy)
            if !problems.isEmpty { throw FlowProblem.invalidRequest(problems) }
            context.progress.profile = answers
            return try await self.advance(&context, in: repositories)
        }
    }
}
