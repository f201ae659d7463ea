import Foundation
import KeywayJOSE
import KeywayProtocol

/// Passkeys (WebAuthn): a primary method — with a discoverable passkey, without typing an
/// identifier —, a second factor, and a way to prove again who a user is. A passkey is made in a
/// sign-up (where the policy signs in with passkeys only), after a sign-in when the policy offers
/// it (`passkeys.offerAfterSignIn`), and in account management. Each ceremony's challenge is
/// bound to the flow's stage and used once: any answer, accepted or refused, replaces it.
struct PasskeyMethod: IdentifyingMethod, SecondFactorMethod, ReverifyingMethod, AccountListedMethod,
    RequiredAtSignUpMethod, OfferingMethod, AccountOperationsMethod, SkippableMethod, ConfigurableMethod, MethodDataLoader
{
    let id: FlowMethodID = .passkey


    let settings: [any MethodSettings.Type] = [PasskeySettings.self]

    func validate(_ policy: ApplicationPolicy, devMode: Bool) -> [PolicyProblem] {
        guard policy.uses(id) || policy.passkeys != nil else { return [] }
        return (policy.passkeys ?? PasskeySettings()).problems()
    }

    /// The relying party of the flow's application on this server, when its settings fit the issuer.
    static func relyingParty(_ context: FlowEngine.Context) -> WebAuthnRelyingParty? {
        context.policy.passkeys.relyingParty(issuer: context.audience)
    }

    /// A passkey must be made first.
    var worksWithoutEnrolment: Bool { false }

    /// Opens the account while it has a passkey other than `removed`.
    func opensAccount(of user: UserRecord, without removed: String?, _ context: FlowEngine.Context) -> Bool {
        context.passkeys.contains { $0.id != removed }
    }

    func isPrimaryOption(_ context: FlowEngine.Context) -> Bool { Self.relyingParty(context) != nil }

    func isEnrolled(_ context: FlowEngine.Context) -> Bool { !context.passkeys.isEmpty && Self.relyingParty(context) != nil }

    func canEnrol(_ context: FlowEngine.Context) -> Bool {
        guard Self.relyingParty(context) != nil else { return false }
        if let draft = context.progress.signUpDraft {
            return draft.credential(id, as: PasskeyCredentialDraft.self) == nil
        }
        guard let user = context.user, !user.isAnonymous else { return false }
        return context.passkeys.count < Self.maximumPerUser
    }

    func canReverify(_ context: FlowEngine.Context) -> Bool { isEnrolled(context) }

    /// The most passkeys one account keeps.
    static let maximumPerUser = 20

    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption {
        MethodOption(id: id.rawValue, type: id, label: purpose == .enrolment ? "Create a passkey" : "Use a passkey")
    }

    func begin(_ purpose: MethodPurpose, _ method: inout MethodContext) async throws {
        // Chosen among the second factors to set up: the new passkey proves the second factor.
        try method.keep(Self.stage(purpose, skippable: false, provesSecondFactor: purpose == .enrolment, method.context))
    }

    /// A sign-in without an identifier: a passkey of any account of the project, where the
    /// application signs in with passkeys.
    func beginWithoutIdentifier(challenge: String?, _ method: inout MethodContext) throws {
        guard method.policy.primaryMethods.contains(id), Self.relyingParty(method.context) != nil else {
            throw FlowProblem.invalidRequest([
                InvalidField(name: "passkey", reason: "This application does not sign in with passkeys.")
            ])
        }
        try method.keep(Self.stage(.primary, skippable: false, challenge: challenge, method.context))
    }

    /// Moves the flow to a new ceremony for `purpose` with a fresh challenge: making a passkey
    /// (`enrolment`) or signing with one.
    static func begin(
        _ purpose: MethodPurpose, skippable: Bool, provesSecondFactor: Bool = false, challenge: String? = nil,
        _ context: inout FlowEngine.Context
    ) throws {
        let state = try stage(purpose, skippable: skippable, provesSecondFactor: provesSecondFactor, challenge: challenge, context)
        context.progress.stage = .method(try ActiveMethod(.passkey, purpose: purpose, state: state))
    }

    /// The state of a new ceremony for `purpose`.
    static func stage(
        _ purpose: MethodPurpose, skippable: Bool, provesSecondFactor: Bool = false, challenge: String? = nil,
        _ context: FlowEngine.Context
    ) throws -> PasskeyStage {
        var state = PasskeyStage(challenge: challenge ?? Base64URL.encode(Data(SecureRandom.bytes(32))))
        if purpose == .enrolment {
            state.userHandle = try userHandle(context)
            if skippable { state.skippable = true }
            if provesSecondFactor { state.provesSecondFactor = true }
        }
        return state
    }

    /// A new challenge for the current ceremony: after any answer, accepted or refused, so a
    /// challenge is used once.
    static func renewChallenge(_ method: inout MethodContext) throws {
        var state = try method.state(as: PasskeyStage.self)
        state.challenge = Base64URL.encode(Data(SecureRandom.bytes(32)))
        try method.keep(state)
    }

    /// The user handle a new passkey is made with: the one the account's passkeys share, or a
    /// new random one (never an address or the user ID).
    static func userHandle(_ context: FlowEngine.Context) throws -> String {
        if let existing = context.passkeys.first?.userHandle { return existing }
        if let kept = context.progress.signUpDraft?.credential(.passkey, as: PasskeyCredentialDraft.self) {
            return kept.passkey.userHandle
        }
        return Base64URL.encode(Data(SecureRandom.bytes(32)))
    }

    func step(for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources) {
        guard let state = try? active.state(as: PasskeyStage.self), let relyingParty = Self.relyingParty(context) else {
            draft.payload = .none(active.purpose == .enrolment ? .passkeyRegister : .passkeyAuthenticate)
            return
        }
        if active.purpose == .enrolment {
            draft.info = StepInfo(id: "passkeyRegister", label: "Create a passkey")
            draft.payload = .passkeyRegister(
                PasskeyRegisterPayload(
                    options: PasskeyOptions.creation(state, relyingParty: relyingParty, context), purpose: active.purpose))
            draft.post(
                "registerPasskey", "passkey/register", label: "Create a passkey",
                fields: [
                    Field(name: "credential", type: .hidden),
                    Field(name: "name", type: .text, required: false, label: "Passkey name", maxLength: 64),
                ])
            if state.skippable == true { draft.post("skip", "skip", label: "Not now") }
            return
        }
        draft.info =
            active.purpose == .primary
            ? StepInfo(id: "passkeyAuthenticate", label: "Sign in with a passkey") : StepBuilder.info(for: active.purpose)
        draft.payload = .passkeyAuthenticate(
            PasskeyAuthenticatePayload(
                options: PasskeyOptions.request(state, purpose: active.purpose, relyingParty: relyingParty, context),
                purpose: active.purpose,
                attemptsRemaining: max(0, resources.limits.maxCodeAttempts - context.progress.failures(of: id))))
        draft.post(
            "authenticatePasskey", "passkey/authenticate", label: "Use a passkey",
            fields: [Field(name: "credential", type: .hidden)])
    }

    func enrolledMethod(_ context: FlowEngine.Context) -> EnrolledMethod? {
        guard !context.passkeys.isEmpty else { return nil }
        let count = context.passkeys.count
        return EnrolledMethod(
            type: id, label: "Passkeys", detail: count == 1 ? "1 passkey" : "\(count) passkeys",
            isSecondFactor: context.policy.mfaMethods.contains(id))
    }

    // MARK: Sign-up

    /// A sign-up makes a passkey before the account exists where passkeys are the only way in
    /// (no code method signs in under the policy).
    func isRequiredAtSignUp(_ context: FlowEngine.Context) -> Bool {
        guard let draft = context.progress.signUpDraft, context.policy.primaryMethods.contains(id),
            Self.relyingParty(context) != nil
        else { return false }
        let codeMethods: [AuthenticationMethod] = [.emailOtp, .smsOtp, .signInLink]
        return !context.policy.primaryMethods.contains(where: codeMethods.contains)
            && draft.credential(id, as: PasskeyCredentialDraft.self) == nil
    }

    func beginSignUp(_ context: inout FlowEngine.Context) throws {
        try Self.begin(.enrolment, skippable: false, &context)
    }

    /// Nothing in the account's row: the passkey is stored beside it (``accountCreated(_:user:in:)``).
    func applyCredential(_ credential: JSONValue, to user: inout UserRecord) throws {}

    /// The passkeys are listed, never counted as set up on the account's row.
    func isSetUp(on user: UserRecord) -> Bool { false }

    func accountCreated(_ credential: JSONValue, user: UserRecord, in repositories: Repositories) async throws {
        var passkey = try credential.decoding(PasskeyCredentialDraft.self).passkey
        passkey.userId = user.id
        guard try await repositories.passkeys.insert(passkey) else { throw FlowProblem.passkeyAlreadyRegistered }
    }

    // MARK: After a sign-in

    /// Offers a sign-in or sign-up without a passkey to make one before it completes, where the
    /// policy says so.
    func offersAfterSignIn(_ context: FlowEngine.Context) -> Bool {
        context.policy.passkeys.offerAfterSignIn && context.policy.primaryMethods.contains(id)
            && context.progress.primaryMethod != id && context.passkeys.isEmpty && canEnrol(context)
    }

    func beginOffer(_ context: inout FlowEngine.Context) throws {
        try Self.begin(.enrolment, skippable: true, &context)
    }

    func skip(_ method: inout MethodContext) async throws -> FlowProblem? {
        guard try method.state(as: PasskeyStage.self).skippable == true else { throw FlowProblem.invalidStep }
        return try await method.moveOn()
    }

    var notices: [String: String] {
        [
            "passkeyAdded": "Your passkey is ready.", "passkeyRemoved": "The passkey was removed.",
            "passkeyRenamed": "The passkey was renamed.",
        ]
    }

    func routes(_ routes: FlowInputRoutes) {
        routes.input("passkey/register", of: id, as: RegisterPasskeyRequest.self, check: { _ = try Self.checkedName($0.name) }) {
            body, method in try await register(body, &method)
        }
        routes.input("passkey/authenticate", of: id, as: AuthenticatePasskeyRequest.self) { body, method in
            try await authenticate(body, &method)
        }
    }
}

/// The state of a passkey stage. Every member is optional.
struct PasskeyStage: Codable, Sendable, Equatable {
    /// The ceremony's challenge, base64url: replaced after every answer.
    var challenge: String?
    /// While making a passkey: the user handle it is made with.
    var userHandle: String?
    /// Whether the user may skip making the passkey (an offer after a sign-in).
    var skippable: Bool?
    /// Whether the new passkey is the second factor the flow sets up (chosen among them), so
    /// making it proves that factor.
    var provesSecondFactor: Bool?
}

/// A passkey a sign-up made, kept for the account it creates.
struct PasskeyCredentialDraft: Codable, Sendable, Equatable {
    var passkey: PasskeyCredentialRecord
}

extension PasskeyMethod {
    /// Reads the user's passkeys, where the policy lists passkeys.
    func load(into context: inout FlowEngine.Context, in repositories: Repositories) async throws {
        guard let user = context.user, context.policy.lists(id) else { return }
        context.passkeys = try await repositories.passkeys.all(userId: user.id)
    }
}

extension FlowEngine.Context {
    /// The user's passkeys, where the policy lists passkeys (read by ``PasskeyMethod``).
    var passkeys: [PasskeyCredentialRecord] {
        get { methodData[.passkey] as? [PasskeyCredentialRecord] ?? [] }
        set { methodData[.passkey] = newValue }
    }
}

extension MethodContext {
    /// The user's passkeys, as the passkey method's operations change them.
    var passkeys: [PasskeyCredentialRecord] {
        get { data as? [PasskeyCredentialRecord] ?? [] }
        set { data = newValue }
    }
}

extension PasskeyMethod: AccountPageMethod {
    /// The user's passkeys, where the policy lists passkeys.
    func fill(_ payload: inout ManageAccountPayload, _ context: FlowEngine.Context) {
        guard context.policy.lists(id) else { return }
        payload.passkeys = context.passkeys.map { passkey in
            PasskeySummary(
                id: passkey.id, name: passkey.name, createdAt: Date(epochMilliseconds: passkey.createdAt),
                lastUsedAt: passkey.lastUsedAt.map(Date.init(epochMilliseconds:)), synced: passkey.backupEligible)
        }
    }
}
