import Foundation
import KeywayProtocol

extension AuthenticationMethod {
    /// A password reset's code, sent to the identifier from a password sign-in step ("Forgot
    /// password?"): never a choice of its own.
    static let passwordReset = AuthenticationMethod(rawValue: "passwordReset")
}

/// "Forgot password?": from a password sign-in step, a one-time code to the flow's identifier
/// (``forgotPassword(_:)``). The right code is the sign-in's first factor (as an email
/// or SMS code: the same channel is not then a second factor); the second factor the policy asks
/// for comes next, and only then, before the sign-in completes, a step that chooses the new
/// password (``PasswordPurpose/reset``), whose setting ends the account's other sessions
/// (``finish(hash:_:)``). So whoever holds the mailbox alone cannot
/// change the password of an account with a second factor, and a reset abandoned on the way
/// changes nothing. The code step — its limits, resending, and the notice without a code to an
/// identifier that has no account — is the code methods' own.
struct PasswordResetMethod: CodeMethod, OfferingMethod {
    let id: FlowMethodID = .passwordReset
    let channel: CodeChannel = .email

    func channel(for destination: String) -> CodeChannel {
        Identifier(stored: destination).phone != nil ? .sms : .email
    }

    /// Whether the flow's current step can start a reset: a password sign-in step of a sign-in,
    /// for an email address, or a phone number where the application sends SMS codes. It does
    /// not depend on the account, so the step reveals nothing about it.
    static func isOffered(_ context: FlowEngine.Context) -> Bool {
        guard context.progress.isSignIn, let active = context.progress.active(.password), active.purpose == .primary,
            ((try? active.state(as: PasswordStage.self))?.purpose ?? .signIn) == .signIn
        else { return false }
        return destination(context) != nil
    }

    /// Where the code goes: the identifier the flow signs in with.
    private static func destination(_ context: FlowEngine.Context) -> String? {
        switch context.identifier {
        case .email(let email): email
        case .phone(let phone):
            context.policy.primaryMethods.contains(.smsOtp) || context.policy.mfaMethods.contains(.smsOtp) ? phone : nil
        }
    }

    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption {
        MethodOption(id: id.rawValue, type: id, label: "Reset your password")
    }

    func begin(_ purpose: MethodPurpose, _ method: inout MethodContext) async throws {
        guard let destination = Self.destination(method.context) else { throw FlowProblem.methodUnavailable }
        try await method.sendCode(self, to: destination)
    }

    func step(for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources) {
        let destination = (try? active.state(as: CodeStage.self))?.destination ?? context.flow.identifier
        CodeStep.build(
            channel: channel(for: destination), destination: destination, purpose: active.purpose, context,
            into: &draft, limits: resources.limits)
        draft.info = StepInfo(id: "resetPasswordCode", label: "Reset your password")
    }

    func codeMessage(code: String, to destination: String, _ method: inout MethodContext) async throws
        -> (subject: String, body: String)?
    {
        let templates = channel(for: destination) == .email ? method.policy.emailTemplates : nil
        return MessageTemplates.signInCode(
            code, minutes: Int(method.limits.codeLifetime / 60), template: templates?.code,
            application: method.application.name, purpose: .passwordReset)
    }

    /// The code step's routes are shared by the code methods (``FlowEngine/codeRoutes(_:)``);
    /// a reset starts with `forgotPassword` on a password sign-in step.
    func routes(_ routes: FlowInputRoutes) {
        routes.input("forgotPassword", of: .password) { method in
            try await forgotPassword(&method)
        }
    }

    /// Answers `forgotPassword` on a password sign-in step: a code to the identifier, on a code
    /// step of its own. Wrong passwords stay counted.
    private func forgotPassword(_ method: inout MethodContext) async throws -> FlowProblem? {
        guard Self.isOffered(method.context) else { throw FlowProblem.invalidStep }
        try await method.handOver(to: id, for: .primary)
        return nil
    }

    /// Sets the new password `hash` of a reset — the code and the second factor given — in the
    /// request's transaction: every other session of the account ends (its refresh tokens,
    /// sessions and hosted-page browser sessions: whoever knew the old password is signed out),
    /// and the sign-in goes on to its completion.
    static func finish(hash: String, _ method: inout MethodContext) async throws -> FlowProblem? {
        guard var user = method.user, method.resetsPassword else { throw FlowProblem.invalidStep }
        if user.isBlocked { return method.fail(.userBlocked) }
        user.passwordHash = hash
        try await method.repositories.users.updateMethods(user)
        method.user = user
        try await method.repositories.endSessions(userId: user.id, at: method.now)
        method.resetsPassword = false
        method.leaveNotice("passwordReset")
        method.logger.notice("password reset", metadata: ["user": "\(user.id)", "flow": "\(method.flowId)"])
        return try await method.moveOn()
    }

    /// A right code: an address it went to is proved, and it counts as the first factor of an
    /// email or SMS code; the new password is asked for before the sign-in completes.
    func codeAccepted(destination: String, _ method: inout MethodContext) async throws -> FlowProblem? {
        // No code goes out without an account, so a right code always has one.
        guard method.user != nil, method.context.progress.isSignIn else { throw FlowProblem.internalError }
        // A reset code proves an address, not a number: a number is verified when set up.
        if channel(for: destination) == .email { try await method.verify(destination: destination, by: .email) }
        method.resetsPassword = true
        let sms = channel(for: destination) == .sms
        return try await method.prove(amr: sms ? "sms" : "otp", as: sms ? .smsOtp : .emailOtp)
    }

    /// The new password of a reset, once the code and the second factor are given.
    func offersAfterSignIn(_ context: FlowEngine.Context) -> Bool {
        context.progress.resetsPassword
    }

    func beginOffer(_ context: inout FlowEngine.Context) throws {
        try PasswordMethod.beginChoosing(.reset, &context)
    }
}

extension FlowProgress {
    /// A password reset's code proved the identifier: the new password is chosen once the second
    /// factor (where one is asked) is given, before the sign-in completes. The reset's state in
    /// the flow.
    var resetsPassword: Bool {
        get { isSignIn && self[kept: .passwordReset, initially: false] }
        set { self[kept: .passwordReset, initially: false] = newValue && isSignIn }
    }
}

extension MethodContext {
    /// Whether the sign-in asks for a new password before it completes.
    var resetsPassword: Bool {
        get { context.progress.resetsPassword }
        set { self[kept: .passwordReset, initially: false] = newValue && context.progress.isSignIn }
    }
}
