import Foundation
import KeywayProtocol

/// The input of a password stage: a password checked (sign-in, re-verification) or set (sign-up,
/// change, reset).
extension PasswordMethod {
    /// What the password of the stage is for.
    private static func purpose(_ method: MethodContext) throws -> PasswordPurpose {
        (try? method.state(as: PasswordStage.self))?.purpose ?? .signIn
    }

    /// Checks or sets `password`. The slow hash runs outside the write transaction, and only once
    /// the attempt was counted: a check is admitted (its limits checked and the attempt recorded
    /// as a failure until it succeeds) in a transaction of its own first, so a refused attempt
    /// costs no hashing, and parallel attempts on one flow cannot get past its attempt limit.
    /// Each check first takes a place in the bounded ``PasswordGate``; with none free it is
    /// refused at once with `wait`, uncounted.
    func submit(_ password: String, _ input: StagedMethodInput) async throws -> Step {
        let (purpose, minimumLength) = try await input.read { method in
            (try Self.purpose(method), method.policy.passwordMinimumLength)
        }
        guard !password.isEmpty, password.count <= 1024 else {
            throw FlowProblem.invalidRequest([InvalidField(name: "password", reason: "Enter your password.")])
        }
        if purpose == .signIn { return try await check(password, input) }
        let problems = input.dependencies.passwords.problems(with: password, minimumLength: minimumLength)
        if !problems.isEmpty { throw FlowProblem.weakPassword(problems) }
        let passwords = input.dependencies.passwords
        let hash = try await input.dependencies.passwordGate.withPlace(network: input.clientNetwork) {
            try await passwords.hash(password)
        }
        return try await input.finish { method in
            guard try Self.purpose(method) == purpose else { throw FlowProblem.invalidStep }
            if purpose == .reset { return try await PasswordResetMethod.finish(hash: hash, &method) }
            if purpose == .create {
                guard try method.keepForSignUp(PasswordCredential(hash: hash)) else { throw FlowProblem.invalidStep }
                return try await method.proveCredential(amr: "pwd")
            }
            // A change, in account management.
            guard var user = method.user else { throw FlowProblem.internalError }
            user.passwordHash = hash
            try await method.repositories.users.updateMethods(user)
            method.user = user
            method.backToAccount(notice: "passwordChanged")
            return nil
        }
    }

    /// A sign-in's check: a place first (a check refused for want of one costs nothing, not even
    /// an attempt), then the attempt is counted, then hashed.
    private func check(_ password: String, _ input: StagedMethodInput) async throws -> Step {
        let passwords = input.dependencies.passwords
        let (stored, verified) = try await input.dependencies.passwordGate.withPlace(network: input.clientNetwork) {
            () async throws -> (String?, Bool) in
            let stored = try await admit(input)
            if let stored { return (stored, await passwords.verify(password, against: stored)) }
            await passwords.verifyDummy(password)
            return (nil, false)
        }
        return try await input.finish { method in
            guard try Self.purpose(method) == .signIn else { throw FlowProblem.invalidStep }
            guard verified, method.user?.passwordHash == stored else {
                // The attempt was counted as a failure when it was admitted.
                try await method.recordFailure()
                let remaining = method.limits.maxCodeAttempts - method.failures
                return remaining <= 0 ? method.fail(.tooManyAttempts) : .invalidCredentials(attemptsRemaining: remaining)
            }
            method.failures = max(0, method.failures - 1)
            return try await method.prove(amr: "pwd")
        }
    }

    /// Admits one password check: in one transaction, checks the flow's attempts and the limits
    /// per identifier and per client address, and records the attempt as a failure (undone when
    /// the password matches). Answers the stored hash to check against (`nil`: no password, or no
    /// account). A check past the flow's attempts is refused; a rate-limited one rolls back and throws.
    private func admit(_ input: StagedMethodInput) async throws -> String? {
        try await input.write { method in
            guard try Self.purpose(method) == .signIn else { throw FlowProblem.invalidStep }
            // Out of attempts: refused without a hash. The flow is closed by the check that used the
            // last attempt, once it knows its result (a right password among them still counts).
            let failures = method.failures
            guard failures < method.limits.maxCodeAttempts else { return .failure(.tooManyAttempts) }
            try await method.countForAccount("pw-id", limit: method.limits.rateLimits.passwordChecksPerIdentifier)
            try await method.countCheck()
            method.failures = failures + 1
            return .success(method.user?.passwordHash)
        }
    }
}
