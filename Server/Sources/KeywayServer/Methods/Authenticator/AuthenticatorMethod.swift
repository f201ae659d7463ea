import Foundation
import KeywayJOSE
import KeywayPowerAuth
import KeywayProtocol

/// Authenticator apps (RFC 6238 TOTP): set up within a flow (`setupTotp`: a new secret, proven
/// by its first code), then a second factor — or a primary method where the policy lists it —
/// and a way to prove again who a user is. A code is accepted once (±1 period).
struct AuthenticatorMethod: PrimaryMethod, SecondFactorMethod, ReverifyingMethod, AccountListedMethod,
    SignUpCredentialMethod, AccountOperationsMethod
{
    let id: FlowMethodID = .totp


    /// Its secret must be set up first.
    var worksWithoutEnrolment: Bool { false }

    /// Opens the account once an authenticator is set up.
    func opensAccount(of user: UserRecord, without removed: String?, _ context: FlowEngine.Context) -> Bool {
        user.hasTotp
    }

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

    func begin(_ purpose: MethodPurpose, _ method: inout MethodContext) async throws {
        var state = AuthenticatorStage()
        if purpose == .enrolment {
            state.sealedSecret = try method.seal(OneTimePassword.newSecret(), purpose: "totp")
        }
        try method.keep(state)
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

    /// Nothing outside the account's row.
    func accountCreated(_ credential: JSONValue, user: UserRecord, in repositories: Repositories) async throws {}

    func isSetUp(on user: UserRecord) -> Bool { user.hasTotp }

    func enrolledMethod(_ context: FlowEngine.Context) -> EnrolledMethod? {
        guard context.user?.hasTotp == true else { return nil }
        return EnrolledMethod(type: id, label: "Authenticator app", isSecondFactor: context.policy.mfaMethods.contains(id))
    }

    var notices: [String: String] {
        ["totpAdded": "Your authenticator app is set up.", "totpRemoved": "Your authenticator app was removed."]
    }

    func routes(_ routes: FlowInputRoutes) {
        routes.input("totp", of: id, as: SubmitCodeRequest.self, check: { _ = try Self.digits($0.code.revealed) }) {
            body, method in
            try await check(try Self.digits(body.code.revealed), &method)
        }
    }

    /// The six digits of a code as typed (spaces removed); anything else is refused.
    static func digits(_ rawCode: String) throws -> String {
        let code = rawCode.filter { !$0.isWhitespace }
        guard code.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw FlowProblem.invalidRequest([InvalidField(name: "code", reason: "Enter the 6-digit code.")])
        }
        return code
    }

    /// Checks an authenticator code: the first one of a new authenticator, or a sign-in code
    /// (±1 period; a code already used is refused).
    func check(_ code: String, _ method: inout MethodContext) async throws -> FlowProblem? {
        let state = try method.state(as: AuthenticatorStage.self)
        let time = Date(epochMilliseconds: method.now)
        if let sealed = state.sealedSecret {
            let generator = OneTimePassword(secret: try method.open(sealed, purpose: "totp"))
            guard let step = generator.verify(code, at: time) else {
                return try await method.refuse(FlowProblem.invalidCode(attemptsRemaining:))
            }
            try await enrol(sealed, counter: Int64(step), &method)
            return try await method.prove(amr: "otp")
        }
        try await method.countForAccount("check-id", limit: method.limits.rateLimits.codeChecksPerIdentifier)
        try await method.countCheck()
        // Without an authenticator the check runs against a throwaway secret: same work, no match.
        let secret = try method.user?.totpSecret.map { try method.open($0, purpose: "totp") }
        let generator = OneTimePassword(secret: secret ?? OneTimePassword.newSecret())
        let lastUsed = method.user?.totpLastCounter.map { UInt64(max(0, $0)) }
        guard secret != nil, let user = method.user, let step = generator.verify(code, at: time, usedUpTo: lastUsed)
        else {
            if secret != nil, generator.verify(code, at: time) != nil { return .codeReplayed }
            return try await method.refuse(FlowProblem.invalidCode(attemptsRemaining:))
        }
        guard try await method.repositories.users.advanceTotpCounter(id: user.id, to: Int64(step)) else {
            return .codeReplayed
        }
        method.user?.totpLastCounter = Int64(step)
        return try await method.prove(amr: "otp")
    }

    /// Writes a new authenticator: to the account when it exists, or keeps it for the account a
    /// sign-up creates.
    private func enrol(_ sealed: String, counter: Int64, _ method: inout MethodContext) async throws {
        if try method.keepForSignUp(AuthenticatorCredential(sealedSecret: sealed, counter: counter)) { return }
        guard var user = method.user else { return }
        user.totpSecret = sealed
        user.totpLastCounter = counter
        try await method.repositories.users.updateMethods(user)
        method.user = user
        if method.isAccountManagement { method.leaveNotice("totpAdded") }
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
