import Foundation
import KeywayProtocol

extension AuthenticationMethod {
    /// A password reset's code, sent to the identifier from a password sign-in step ("Forgot
    /// password?"): never a choice of its own.
    static let passwordReset = AuthenticationMethod(rawValue: "passwordReset")
}

/// "Forgot password?": from a password sign-in step, a one-time code to the flow's identifier
/// (``FlowEngine/forgotPassword(_:)``). The right code is the sign-in's first factor (as an email
/// or SMS code: the same channel is not then a second factor); the second factor the policy asks
/// for comes next, and only then, before the sign-in completes, a step that chooses the new
/// password (``PasswordPurpose/reset``), whose setting ends the account's other sessions
/// (``FlowEngine/finishPasswordReset(hash:_:in:)``). So whoever holds the mailbox alone cannot
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

    func codeMessage(
        code: String, to destination: String, _ context: inout FlowEngine.Context, engine: FlowEngine,
        in repositories: Repositories
    ) async throws -> (subject: String, body: String)? {
        let templates = channel(for: destination) == .email ? context.policy.emailTemplates : nil
        return MessageTemplates.signInCode(
            code, minutes: Int(engine.limits.codeLifetime / 60), template: templates?.code,
            application: context.application.name, purpose: .passwordReset)
    }

    /// The code step's routes are shared by the code methods (``FlowEngine/codeRoutes(_:)``);
    /// a reset starts with `forgotPassword` on a password sign-in step.
    func routes(_ routes: FlowInputRoutes) {
        let engine = routes.engine
        routes.post("forgotPassword") { _, _, target in
            try await engine.forgotPassword(target)
        }
    }

    /// A right code: an address it went to is proved, and it counts as the first factor of an
    /// email or SMS code; the new password is asked for before the sign-in completes.
    func codeAccepted(
        _ active: ActiveMethod, destination: String, _ context: inout FlowEngine.Context, engine: FlowEngine,
        in repositories: Repositories
    ) async throws -> FlowProblem? {
        // No code goes out without an account, so a right code always has one.
        guard var user = context.user, context.progress.signIn != nil else { throw FlowProblem.internalError }
        if !user.emailVerified, user.email == destination {
            user.emailVerified = true
            try await repositories.users.updateMethods(user)
            context.user = user
            try await engine.addressProved(user, &context, in: repositories)
        }
        context.progress.signIn?.resetsPassword = true
        let sms = channel(for: destination) == .sms
        return try await engine.proved(sms ? .smsOtp : .emailOtp, amr: sms ? "sms" : "otp", &context, in: repositories)
    }

    /// The new password of a reset, once the code and the second factor are given.
    func offersAfterSignIn(_ context: FlowEngine.Context) -> Bool {
        context.progress.signIn?.resetsPassword == true
    }

    func beginOffer(_ context: inout FlowEngine.Context) throws {
        try PasswordMethod.beginChoosing(.reset, &context)
    }
}
