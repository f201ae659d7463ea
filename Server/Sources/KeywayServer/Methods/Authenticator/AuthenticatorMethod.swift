import Foundation
import KeywayJOSE
import KeywayPowerAuth
import KeywayProtocol

/// Authenticator apps (RFC 6238 TOTP): set up within a flow (`setupTotp`: a new secret, proven
/// by its first code), then a second factor — or a primary method where the policy lists it —
/// and a way to prove again who a user is. A code is accepted once (±1 period).
struct AuthenticatorMethod: FlowMethod {
    let id: FlowMethodID = .totp

    var canBePrimary: Bool { true }
    var canBeSecondFactor: Bool { true }

    func isPrimaryOption(_ context: FlowEngine.Context) -> Bool { true }

    func isEnrolled(_ context: FlowEngine.Context) -> Bool { context.user?.hasTotp ?? false }

    func canEnrol(_ context: FlowEngine.Context) -> Bool {
        !(context.user?.hasTotp ?? false)
            && context.progress.signUpDraft?.credential(id, as: AuthenticatorCredential.self) == nil
    }

    func canReverify(_ context: FlowEngine.Context) -> Bool { isEnrolled(context) }

    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption {
        MethodOption(
            id: id.rawValue, type: id,
            label: purpose == .enrolment ? "Set up an authenticator app" : "Use your authenticator app")
    }

    func begin(
        _ purpose: MethodPurpose, _ context: inout FlowEngine.Context, engine: FlowEngine, in repositories: Repositories
    ) async throws {
        var state = AuthenticatorStage()
        if purpose == .enrolment {
            state.sealedSecret = try engine.secrets.seal(OneTimePassword.newSecret(), purpose: "totp")
        }
        context.progress.stage = .method(try ActiveMethod(id, purpose: purpose, state: state))
    }

    func step(for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources) {
        let state = (try? active.state(as: AuthenticatorStage.self)) ?? AuthenticatorStage()
        guard let sealed = state.sealedSecret else {
            draft.info =
                active.purpose == .primary
                ? StepInfo(id: "enterTotp", label: "Enter the code from your authenticator")
                : StepBuilder.info(for: active.purpose)
            draft.payload = .enterTotp(
                EnterTotpPayload(
                    digits: 6, period: 30, purpose: active.purpose,
                    attemptsRemaining: max(0, resources.limits.maxCodeAttempts - context.progress.failures(of: id))))
            draft.post("submitTotp", "totp", label: "Continue", fields: [StepBuilder.codeField(length: 6)])
            return
        }
        draft.info = StepInfo(id: "setupTotp", label: "Set up your authenticator")
        draft.payload = .none(.setupTotp)
        if let secret = try? resources.secrets.open(sealed, purpose: "totp") {
            let generator = OneTimePassword(secret: secret)
            let account = context.user?.email ?? context.user?.phone ?? context.flow.identifier
            draft.payload = .setupTotp(
                SetupTotpPayload(
                    secret: Sensitive(Base32.encode(secret, padding: false)),
                    otpauthUrl: Sensitive(generator.provisioningURI(issuer: context.application.name, account: account)),
                    period: generator.period, digits: generator.digits, algorithm: generator.algorithm.rawValue))
        }
        draft.post("submitTotp", "totp", label: "Verify", fields: [StepBuilder.codeField(length: 6)])
    }

    func applyCredential(_ credential: JSONValue, to user: inout UserRecord) throws {
        let authenticator = try credential.decoding(AuthenticatorCredential.self)
        user.totpSecret = authenticator.sealedSecret
        user.totpLastCounter = authenticator.counter
    }

    func isSetUp(on user: UserRecord) -> Bool { user.hasTotp }

    func enrolledMethod(_ context: FlowEngine.Context) -> EnrolledMethod? {
        guard context.user?.hasTotp == true else { return nil }
        return EnrolledMethod(type: id, label: "Authenticator app", isSecondFactor: context.policy.mfaMethods.contains(id))
    }

    var notices: [String: String] {
        ["totpAdded": "Your authenticator app is set up.", "totpRemoved": "Your authenticator app was removed."]
    }

    func routes(_ routes: FlowInputRoutes) {
        let engine = routes.engine
        routes.post("totp") { request, context, target in
            let body = try await RequestDecoding.json(SubmitCodeRequest.self, from: request, context: context)
            return try await submitCode(target, code: body.code.revealed, engine: engine)
        }
    }

    /// Checks an authenticator code: the first one of a new authenticator, or a sign-in code
    /// (±1 period; a code already used is refused).
    func submitCode(_ target: FlowEngine.Target, code rawCode: String, engine: FlowEngine) async throws -> Step {
        let code = rawCode.filter { !$0.isWhitespace }
        guard code.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw FlowProblem.invalidRequest([InvalidField(name: "code", reason: "Enter the 6-digit code.")])
        }
        return try await engine.run(target) { context, repositories in
            guard let active = context.progress.active(id), let state = try? active.state(as: AuthenticatorStage.self)
            else { throw FlowProblem.invalidStep }
            let time = Date(epochMilliseconds: context.now)
            if let sealed = state.sealedSecret {
                let generator = OneTimePassword(secret: try engine.secrets.open(sealed, purpose: "totp"))
                guard let step = generator.verify(code, at: time) else {
                    return try await failure(&context, engine: engine, in: repositories)
                }
                try await enrol(sealed, counter: Int64(step), &context, in: repositories)
                return try await engine.proved(id, amr: "otp", &context, in: repositories)
            }
            try await engine.consumeForIdentifier(
                "check-id", FlowEngine.accountKey(context), clientHash: context.addressHash, userId: context.user?.id,
                limit: engine.limits.rateLimits.codeChecksPerIdentifier, now: context.now, in: repositories)
            try await engine.consumeCheck(context, in: repositories)
            // Without an authenticator the check runs against a throwaway secret: same work, no match.
            let secret = try context.user?.totpSecret.map { try engine.secrets.open($0, purpose: "totp") }
            let generator = OneTimePassword(secret: secret ?? OneTimePassword.newSecret())
            let lastUsed = context.user?.totpLastCounter.map { UInt64(max(0, $0)) }
            guard secret != nil, let user = context.user, let step = generator.verify(code, at: time, usedUpTo: lastUsed)
            else {
                if secret != nil, generator.verify(code, at: time) != nil { return .codeReplayed }
                return try await failure(&context, engine: engine, in: repositories)
            }
            guard try await repositories.users.advanceTotpCounter(id: user.id, to: Int64(step)) else {
                return .codeReplayed
            }
            context.user?.totpLastCounter = Int64(step)
            return try await engine.proved(id, amr: "otp", &context, in: repositories)
        }
    }

    /// Writes a new authenticator: to the account when it exists, or keeps it for the account a
    /// sign-up creates.
    private func enrol(_ sealed: String, counter: Int64, _ context: inout FlowEngine.Context, in repositories: Repositories)
        async throws
    {
        if var draft = context.progress.signUpDraft {
            try draft.keep(AuthenticatorCredential(sealedSecret: sealed, counter: counter), for: id)
            context.progress.signUpDraft = draft
            return
        }
        guard var user = context.user else { return }
        user.totpSecret = sealed
        user.totpLastCounter = counter
        try await repositories.users.updateMethods(user)
        context.user = user
        if context.progress.isManage { context.progress.notice = "totpAdded" }
    }

    private func failure(_ context: inout FlowEngine.Context, engine: FlowEngine, in repositories: Repositories)
        async throws -> FlowProblem
    {
        let failures = context.progress.failures(of: id) + 1
        context.progress.failures[id.rawValue] = failures
        try await engine.recordFailure(context, in: repositories)
        let remaining = engine.limits.maxCodeAttempts - failures
        if remaining <= 0 {
            context.flow.state = .failed
            return .tooManyAttempts
        }
        return .invalidCode(attemptsRemaining: remaining)
    }
}

/// The state of an authenticator stage. Every member is optional.
struct AuthenticatorStage: Codable, Sendable, Equatable {
    /// While setting one up: the new secret, sealed, until its first code is entered.
    var sealedSecret: String?
}

/// An authenticator a sign-up set up, kept for the account it creates.
struct AuthenticatorCredential: Codable, Sendable, Equatable {
    /// The secret, sealed.
    var sealedSecret: String
    /// The step of the code that proved it (a replay of it is refused).
    var counter: Int64?
}
