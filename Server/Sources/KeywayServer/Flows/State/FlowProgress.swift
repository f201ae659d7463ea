import Foundation
import KeywayJOSE
import KeywayProtocol

/// Where a flow stands, kept as JSON in the flow's row: what the flow does (``Mode``, with what
/// that mode gathers), the current ``Stage`` with its own state, and the ``Proof``s the user gave.
/// What is proven ("primary done", "second factor done", `amr`) is derived from the proofs, never
/// stored beside them.
///
/// Stored with a format version (``formatVersion``) and decoded tolerantly: a missing member
/// takes its documented default and an unknown one is ignored, so a flow written by an older or
/// newer release of the same format still loads; documents of the format before versions
/// (``FlowProgressV0``) and of format 1 (``FlowProgressV1``) are converted on reading.
struct FlowProgress: Sendable, Equatable {
    /// The version written with every document. Format 2 moved what methods keep across stages
    /// (a trusted device's checks, a provider's identity waiting, a password reset's due new
    /// password) into ``methodState`` (``FlowProgressV1`` converts format 1).
    static let formatVersion = 2

    var mode: Mode
    var stage: Stage
    /// What the user proved in this flow, oldest first.
    var proofs: [Proof] = []
    /// The user chose to skip an optional second factor.
    var secondFactorSkipped = false
    /// The choice the current method was chosen from, when it offered others: `anotherMethod`
    /// goes back to it ("Use another method"). Cleared when a method begins any other way and
    /// when one succeeds.
    var chosenFrom: MethodChoice?
    /// Whether the optional second factor was offered to set up already.
    var enrolmentOffered = false
    /// Whether a method was offered to set up before the sign-in completes (a passkey).
    var offeredAfterSignIn = false
    /// Wrong answers per method (`password`, `totp`) in this flow.
    var failures: [String: Int] = [:]
    /// What the client said of itself when the flow started.
    var client = ClientDescription()
    /// A message to show with the next step (`passwordChanged`, `totpAdded`…).
    var notice: String?
    /// Set when the attempt was flagged.
    var risk: Risk?
    /// What the client asked of the tokens (scope, nonce, redirect URI) and its `state`.
    var authorization: AuthorizationParameters?
    /// The guest the flow was started for (with a guest's access token): a sign-up upgrades it,
    /// a sign-in hands it over to the account signed in to.
    var guest: GuestProgress?
    /// What methods keep across the flow's stages, beyond a stage's own state (``ActiveMethod``):
    /// each method's (or method family's) entry in its own form, by its ID — a trusted device's
    /// checks, a provider's identity waiting to be linked, a password reset's new password due.
    /// Read and written through ``subscript(kept:initially:)``, with typed accessors in the
    /// methods' folders.
    var methodState: [String: JSONValue] = [:]

    /// A flow started by a guest.
    struct GuestProgress: Sendable, Equatable, Codable {
        /// The guest's user ID.
        var userId: String
        /// The user chose to sign in to an existing account instead of upgrading (or started a
        /// sign-in): completing the flow emits `guest.merged`.
        var signsIn: Bool?
        /// The code that proved the identifier of an existing account, waiting on the
        /// `accountExists` step for the user's choice.
        var pendingProof: Proof?
    }

    /// What a flow's client asked of the tokens it will redeem the code for, carried to the code.
    struct AuthorizationParameters: Sendable, Equatable, Codable {
        /// The scopes, space separated, each allowed for the application.
        var scope: String?
        var nonce: String?
        /// A registered redirect URI the code must be redeemed with.
        var redirectURI: String?
        /// Handed back in the completed step.
        var state: String?
        /// The hosted pages drive the flow: a provider's answer sends the browser back to them.
        var hostedPages: Bool?
    }

    /// What a flow does for the user, with what that gathers.
    enum Mode: Sendable, Equatable {
        /// Sign in to an existing account (also a sign-up of a known identifier).
        case signIn(SignIn)
        /// Create an account.
        case signUp(SignUpDraft)
        /// Change the methods of a signed-in account.
        case manage(Management)
    }

    struct SignIn: Sendable, Equatable {
        /// A sign-up of an identifier that already has an account: a sign-in that starts, as a
        /// sign-up does, by verifying the identifier with a code, so the first answer is the same.
        var startedAsSignUp = false
        /// A dev application created the account on this sign-in.
        var createdUser = false
    }

    /// What a sign-up gathers for the account it creates when it completes.
    struct SignUpDraft: Sendable, Equatable {
        /// The form's answers.
        var profile: [String: String]?
        /// The invitation code to redeem when the account is created, sealed.
        var sealedInviteCode: String?
        /// What the methods set up in the flow keep for the account (a password's hash, an
        /// authenticator's sealed secret, a verified phone number), each in its module's own form,
        /// by method ID (``FlowMethod/applyCredential(_:to:)``).
        var credentials: [String: JSONValue] = [:]

        /// The credential `method` keeps, in its form.
        func credential<Credential: Decodable>(_ method: FlowMethodID, as type: Credential.Type) -> Credential? {
            try? credentials[method.rawValue]?.decoding(type)
        }

        /// Keeps `credential` for `method`.
        mutating func keep<Credential: Encodable>(_ credential: Credential, for method: FlowMethodID) throws {
            credentials[method.rawValue] = try JSONValue.encoding(credential)
        }
    }

    struct Management: Sendable, Equatable, Codable {
        /// The scope of the access token that opened the flow; the code it ends with is redeemed
        /// for no more than that.
        var grantedScope: String?
        /// The change waiting for a fresh verification.
        var pendingOperation: String?
        /// The input of the waiting operation (the passkey `removePasskey` removes).
        var pendingInput: JSONValue?
        /// The activation code `createActivationCode` just made (sealed to the flow), shown on
        /// the account step until the next operation.
        var issuedActivationCode: SealedActivationCode?
    }

    /// An activation code kept for the account step: the `CODE#SIGNATURE` payload sealed.
    struct SealedActivationCode: Sendable, Equatable, Codable {
        var sealedQRPayload: String
        var expiresAt: Int64
    }

    /// Where the flow is now.
    enum Stage: Sendable, Equatable {
        /// The user chooses a method.
        case choosing(MethodChoice)
        /// A method's own step, with its state.
        case method(ActiveMethod)
        /// The sign-up form.
        case form
        /// The account's methods (account management).
        case manageAccount
        /// A guest's sign-up proved the identifier of an existing account: sign in to it, or stay
        /// a guest.
        case accountExists
    }

    /// What the client said of itself when the flow started.
    struct ClientDescription: Sendable, Equatable, Codable {
        /// The trusted device the client named and whether it can enrol one (kept only where the
        /// policy has trusted devices).
        var deviceHint: DeviceHint?
        /// The client's `User-Agent`, shortened: what an approval or a sign-in link opened
        /// elsewhere shows.
        var userAgent: String?
    }

    init(mode: Mode, stage: Stage) {
        self.mode = mode
        self.stage = stage
    }
}

/// The choices of a `selectMethod` stage.
struct MethodChoice: Sendable, Equatable {
    var options: [AuthenticationMethod]
    /// What the chosen method is for.
    var purpose: MethodPurpose
    var skippable = false
}

/// The step of one method, by its module's ID, for a purpose, with the module's own state
/// (decoded by the module: ``FlowMethod``).
struct ActiveMethod: Sendable, Equatable {
    var method: FlowMethodID
    var purpose: MethodPurpose
    /// The module's state as stored.
    var rawState: JSONValue

    init<State: Encodable>(_ method: FlowMethodID, purpose: MethodPurpose, state: State) throws {
        self.method = method
        self.purpose = purpose
        self.rawState = try JSONValue.encoding(state)
    }

    init(method: FlowMethodID, purpose: MethodPurpose, rawState: JSONValue) {
        self.method = method
        self.purpose = purpose
        self.rawState = rawState
    }

    /// The module's state, typed.
    func state<State: Decodable>(as type: State.Type) throws -> State {
        try rawState.decoding(type)
    }
}

/// Something the user proved in a flow.
struct Proof: Sendable, Equatable {
    /// What the proof stood for.
    enum Role: String, Sendable, Codable {
        /// The first factor of a sign-in, or the verified identifier of a sign-up.
        case primary
        /// A second factor (given, or set up in the flow).
        case secondFactor
        /// Proving again who a signed-in user is (account management).
        case reverification
        /// A credential chosen in the flow (a sign-up's password).
        case credential
    }

    /// The module that took the proof.
    var method: FlowMethodID
    var role: Role
    /// The authentication method reference it adds to the session (RFC 8176).
    var amr: String
    /// When, in milliseconds since 1970.
    var at: Int64
}

extension FlowProgress {
    var isSignUp: Bool { if case .signUp = mode { true } else { false } }
    var isManage: Bool { if case .manage = mode { true } else { false } }
    var isSignIn: Bool { if case .signIn = mode { true } else { false } }

    var primaryDone: Bool { proofs.contains { $0.role == .primary } }
    var secondFactorDone: Bool { proofs.contains { $0.role == .secondFactor } }
    /// The primary method used, once it succeeded.
    var primaryMethod: FlowMethodID? { proofs.first { $0.role == .primary }?.method }
    /// A trusted device proved itself in this flow.
    var deviceProven: Bool { proofs.contains { $0.method == .trustedDevice } }
    /// When the user last proved who they are again in this flow.
    var reverifiedAt: Int64? { proofs.last { $0.role == .reverification }?.at }

    /// The session's authentication method references: each proof's once, in order, and `mfa`
    /// after a second factor.
    var amr: [String] {
        var values: [String] = []
        for proof in proofs where proof.role != .reverification && !values.contains(proof.amr) {
            values.append(proof.amr)
        }
        if secondFactorDone, !values.contains("mfa") { values.append("mfa") }
        return values
    }

    mutating func prove(_ method: FlowMethodID, role: Proof.Role, amr: String, at now: Int64) {
        proofs.append(Proof(method: method, role: role, amr: amr, at: now))
    }

    /// What the current stage is for.
    var purpose: MethodPurpose {
        switch stage {
        case .choosing(let choice): choice.purpose
        case .method(let active): active.purpose
        case .form, .manageAccount, .accountExists: .primary
        }
    }

    /// The method step in progress, when the stage is one of `method`.
    func active(_ method: FlowMethodID) -> ActiveMethod? {
        if case .method(let active) = stage, active.method == method { return active }
        return nil
    }

    var signUpDraft: SignUpDraft? {
        get { if case .signUp(let draft) = mode { draft } else { nil } }
        set { if let newValue, case .signUp = mode { mode = .signUp(newValue) } }
    }

    var management: Management? {
        get { if case .manage(let management) = mode { management } else { nil } }
        set { if let newValue, case .manage = mode { mode = .manage(newValue) } }
    }

    var signIn: SignIn? {
        get { if case .signIn(let signIn) = mode { signIn } else { nil } }
        set { if let newValue, case .signIn = mode { mode = .signIn(newValue) } }
    }

    func failures(of method: FlowMethodID) -> Int { failures[method.rawValue] ?? 0 }

    /// What `owner` (a method or a method family) keeps in the flow, in its form: `initial` when
    /// it keeps nothing, or kept something this release cannot read (the method starts that part
    /// over). Setting `initial` stores nothing. What methods keep is plain data (strings, numbers,
    /// flags, records of them), which always encodes.
    subscript<Value: Codable & Equatable>(kept owner: FlowMethodID, initially initial: Value) -> Value {
        get { (try? methodState[owner.rawValue]?.decoding(Value.self)) ?? initial }
        set {
            guard newValue != initial else {
                methodState[owner.rawValue] = nil
                return
            }
            do {
                methodState[owner.rawValue] = try JSONValue.encoding(newValue)
            } catch {
                preconditionFailure("A method's flow state is plain data and always encodes: \(error)")
            }
        }
    }
}

// Tolerant decoding (see FlowProgress+Coding.swift): missing members take their defaults.

extension MethodChoice: Codable {
    private enum CodingKeys: String, CodingKey { case options, purpose, skippable }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        options = try container.value(.options, or: [])
        purpose = try container.value(.purpose, or: .primary)
        skippable = try container.value(.skippable, or: false)
    }
}

extension FlowProgress.SignIn: Codable {
    private enum CodingKeys: String, CodingKey { case startedAsSignUp, createdUser }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        startedAsSignUp = try container.value(.startedAsSignUp, or: false)
        createdUser = try container.value(.createdUser, or: false)
    }
}

extension Proof: Codable {
    private enum CodingKeys: String, CodingKey { case method, role, amr, at }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(FlowMethodID.self, forKey: .method)
        role = Role(rawValue: try container.decode(String.self, forKey: .role)) ?? .credential
        amr = try container.value(.amr, or: "otp")
        at = try container.value(.at, or: 0)
    }
}

extension FlowProgress.SignUpDraft: Codable {
    private enum CodingKeys: String, CodingKey { case profile, sealedInviteCode, credentials }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        profile = try container.decodeIfPresent([String: String].self, forKey: .profile)
        sealedInviteCode = try container.decodeIfPresent(String.self, forKey: .sealedInviteCode)
        credentials = try container.value(.credentials, or: [:])
    }
}
