import Foundation
import KeywayJOSE
import KeywayProtocol

/// Passwords: a primary method for accounts that have one, chosen at sign-up when the policy
/// lists it, changed in account management, and a way to prove again who a user is. Checked with
/// scrypt outside the flow's transaction, behind ``PasswordGate`` (``submit(_:_:)``).
struct PasswordMethod: PrimaryMethod, ReverifyingMethod, AccountListedMethod, RequiredAtSignUpMethod,
    AccountOperationsMethod, ConfigurableMethod
{
    let id: FlowMethodID = .password


    let settings: [any MethodSettings.Type] = [PasswordSettings.self]

    func validate(_ policy: ApplicationPolicy, devMode: Bool) -> [PolicyProblem] {
        guard !(8...128).contains(policy.password.minimumLength) else { return [] }
        return [
            PolicyProblem(
                code: "invalid_password_length", field: "password.minimumLength",
                message: "The minimum password length must be between 8 and 128 characters.")
        ]
    }

    /// A password must be chosen first.
    var worksWithoutEnrolment: Bool { false }

    /// Opens the account once it has a password.
    func opensAccount(of user: UserRecord, without removed: String?, _ context: FlowEngine.Context) -> Bool {
        user.passwordHash != nil
    }

    func isPrimaryOption(_ context: FlowEngine.Context) -> Bool { true }

    func canReverify(_ context: FlowEngine.Context) -> Bool { context.user?.passwordHash != nil }

    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption {
        MethodOption(id: id.rawValue, type: id, label: "Enter your password")
    }

    func begin(_ purpose: MethodPurpose, _ method: inout MethodContext) async throws {
        try method.keep(PasswordStage(purpose: .signIn))
    }

    /// Asks for a new password: the one of the account a sign-up creates (`create`), a new one for
    /// the account (`change`, after a fresh verification), or one that replaces a forgotten one
    /// (`reset`, after a code to the identifier and the second factor).
    static func beginChoosing(_ purpose: PasswordPurpose, _ context: inout FlowEngine.Context) throws {
        context.progress.stage = .method(
            try ActiveMethod(
                .password, purpose: purpose == .change ? .reverification : .primary, state: PasswordStage(purpose: purpose)))
    }

    func step(for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources) {
        let purpose = (try? active.state(as: PasswordStage.self))?.purpose ?? .signIn
        draft.info =
            switch purpose {
            case .create: StepInfo(id: "createPassword", label: "Choose a password")
            case .change: StepInfo(id: "changePassword", label: "Choose a new password")
            case .reset: StepInfo(id: "resetPassword", label: "Choose a new password")
            default: StepInfo(id: "enterPassword", label: "Enter your password")
            }
        let choosing = purpose != .signIn
        let minimumLength = context.policy.passwordMinimumLength
        draft.payload = .enterPassword(EnterPasswordPayload(purpose: purpose, minimumLength: choosing ? minimumLength : nil))
        draft.post(
            "submitPassword", "password", label: "Continue",
            fields: [
                Field(
                    name: "password", type: .password, required: true, label: "Password",
                    autocomplete: choosing ? "new-password" : "current-password",
                    minLength: choosing ? minimumLength : nil, maxLength: 128)
            ])
        if PasswordResetMethod.isOffered(context) {
            draft.post("forgotPassword", "forgotPassword", label: "Forgot password?")
        }
    }

    /// A sign-up chooses the password the policy signs in with before the account exists.
    func isRequiredAtSignUp(_ context: FlowEngine.Context) -> Bool {
        guard let draft = context.progress.signUpDraft else { return false }
        return context.policy.primaryMethods.contains(id) && draft.credential(id, as: PasswordCredential.self) == nil
    }

    func beginSignUp(_ context: inout FlowEngine.Context) throws {
        try Self.beginChoosing(.create, &context)
    }

    func applyCredential(_ credential: JSONValue, to user: inout UserRecord) throws {
        user.passwordHash = try credential.decoding(PasswordCredential.self).hash
    }

    /// Nothing outside the account's row.
    func accountCreated(_ credential: JSONValue, user: UserRecord, in repositories: Repositories) async throws {}

    func isSetUp(on user: UserRecord) -> Bool { user.passwordHash != nil }

    func enrolledMethod(_ context: FlowEngine.Context) -> EnrolledMethod? {
        guard context.user?.passwordHash != nil else { return nil }
        return EnrolledMethod(type: id, label: "Password", isSecondFactor: false)
    }

    var notices: [String: String] {
        [
            "passwordChanged": "Your password was changed.",
            "passwordReset": "Your password was changed, and your account was signed out everywhere else.",
        ]
    }

    func routes(_ routes: FlowInputRoutes) {
        routes.staged("password", of: id, as: SubmitPasswordRequest.self) { body, input in
            try await submit(body.password.revealed, input)
        }
    }
}

/// The state of a password stage: what the password is for.
struct PasswordStage: Codable, Sendable, Equatable {
    /// Sign in (the default when missing), create, change or reset.
    var purpose: PasswordPurpose?
}

/// The password a sign-up chose, kept for the account it creates.
struct PasswordCredential: Codable, Sendable, Equatable {
    /// The password's scrypt hash.
    var hash: String
}
