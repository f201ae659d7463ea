import Foundation
import Hummingbird
import KeywayJOSE
import KeywayProtocol

/// The ID of a method module: the ``AuthenticationMethod`` it provides (the wire value a choice
/// offers), or a server-side one for a module that is never chosen (``trustedDevice``).
typealias FlowMethodID = AuthenticationMethod

extension AuthenticationMethod {
    /// A trusted device proving itself with its key: offered by the engine, never chosen.
    static let trustedDevice = AuthenticationMethod(rawValue: "trustedDevice")
}

/// One authentication method, in one folder under `Methods/`: when it is open to a user, the
/// choice that offers it, the stage it moves the flow to (its own `Codable` state inside
/// ``ActiveMethod``), the step it shows there, the input it accepts (its routes), and what the
/// user proves with it. The engine (``FlowEngine``) knows only the sequence — identify, primary,
/// second factor, device trust, completion — and asks the methods in ``FlowMethods/all``.
///
/// Adding a method: a folder with a type conforming to this protocol (the compiler lists what it
/// must say), its payload in `KeywayProtocol`, and one line in ``FlowMethods/all``.
protocol FlowMethod: Sendable {
    /// The module's ID, stored in flow state.
    var id: FlowMethodID { get }

    // MARK: Policy

    /// Whether an application may list it in ``ApplicationPolicy/primaryMethods``.
    var canBePrimary: Bool { get }
    /// Whether an application may list it in ``ApplicationPolicy/mfaMethods``.
    var canBeSecondFactor: Bool { get }
    /// Whether a user can use it without having set it up: a code sent to the identifier works
    /// from the first visit; a secret or a password must be set up first.
    var worksWithoutEnrolment: Bool { get }
    /// The problems of its own settings in `policy` (``ApplicationPolicy/validate(devMode:)`` adds
    /// them to the policy's).
    func validate(_ policy: ApplicationPolicy, devMode: Bool) -> [PolicyProblem]

    // MARK: Availability

    /// Whether it can be the first factor for the flow's identifier (never depending on the
    /// account, so it reveals nothing about it).
    func isPrimaryOption(_ context: FlowEngine.Context) -> Bool
    /// Whether the flow's user has it set up as a second factor.
    func isEnrolled(_ context: FlowEngine.Context) -> Bool
    /// Whether the user can set it up within the flow.
    func canEnrol(_ context: FlowEngine.Context) -> Bool
    /// Whether it can prove again who a signed-in user is.
    func canReverify(_ context: FlowEngine.Context) -> Bool

    // MARK: Steps

    /// The choice offering it for `purpose`.
    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption
    /// Moves the flow to its stage for `purpose` (sending a code where it needs one).
    func begin(
        _ purpose: MethodPurpose, _ context: inout FlowEngine.Context, engine: FlowEngine, in repositories: Repositories
    ) async throws
    /// Fills in the step of its stage.
    func step(
        for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources)
    /// How a `manageAccount` step lists it, when the user has it.
    func enrolledMethod(_ context: FlowEngine.Context) -> EnrolledMethod?
    /// Whether the account has it set up (the admin API lists these): only methods that need
    /// setting up answer `true`, never a code sent to the account's identifiers.
    func isSetUp(on user: UserRecord) -> Bool

    // MARK: Sign-up

    /// Whether a sign-up must set it up before the account exists (a password, where the policy
    /// signs in with one).
    func isRequiredAtSignUp(_ context: FlowEngine.Context) -> Bool
    /// Moves a sign-up to the step that sets it up.
    func beginSignUp(_ context: inout FlowEngine.Context) throws
    /// Writes what a sign-up set up with it (its credential in the ``FlowProgress/SignUpDraft``)
    /// into the account the sign-up creates.
    func applyCredential(_ credential: JSONValue, to user: inout UserRecord) throws
    /// Stores what a sign-up set up with it outside the account's row (a passkey), once the
    /// account exists, in the same transaction.
    func accountCreated(_ credential: JSONValue, user: UserRecord, in repositories: Repositories) async throws

    // MARK: After a sign-in

    /// Whether a sign-in (or sign-up) that is about to complete offers to set it up first (a
    /// skippable step).
    func offersAfterSignIn(_ context: FlowEngine.Context) -> Bool
    /// Moves the flow to that offer.
    func beginOffer(_ context: inout FlowEngine.Context) throws

    // MARK: Account management

    /// The names of every operation it can offer on a `manageAccount` step.
    var manageOperationNames: [String] { get }
    /// The operations it offers the user now (``ManageOperation``).
    func manageOperations(_ context: FlowEngine.Context) -> [ManageOperation]
    /// Checks an operation's input before a fresh verification is asked for it (so nobody
    /// verifies for a change that is refused); throws the problem.
    func precheck(_ operation: String, input: ManageInput, _ context: FlowEngine.Context, engine: FlowEngine) throws
    /// Runs one of its operations, after a fresh verification when the operation needs one.
    func manage(
        _ operation: String, input: ManageInput, _ context: inout FlowEngine.Context, engine: FlowEngine,
        in repositories: Repositories
    ) async throws -> FlowProblem?

    // MARK: Input

    /// Registers the routes of its input (`POST /v1/flows/{id}/…`).
    func routes(_ routes: FlowInputRoutes)
    /// Answers `skip` on its stage; methods whose steps cannot be skipped refuse.
    func skip(_ active: ActiveMethod, _ context: inout FlowEngine.Context, engine: FlowEngine, in repositories: Repositories)
        async throws -> FlowProblem?
    /// Undoes what its stage holds outside the flow when the flow is cancelled.
    func cancelled(_ active: ActiveMethod, flowId: String, now: Int64, in repositories: Repositories) async throws
    /// Texts of the notices its operations leave on the next step.
    var notices: [String: String] { get }
}

extension FlowMethod {
    var canBePrimary: Bool { false }
    var canBeSecondFactor: Bool { false }
    var worksWithoutEnrolment: Bool { false }
    func validate(_ policy: ApplicationPolicy, devMode: Bool) -> [PolicyProblem] { [] }
    func isPrimaryOption(_ context: FlowEngine.Context) -> Bool { false }
    func isEnrolled(_ context: FlowEngine.Context) -> Bool { false }
    func canEnrol(_ context: FlowEngine.Context) -> Bool { false }
    func canReverify(_ context: FlowEngine.Context) -> Bool { false }
    func enrolledMethod(_ context: FlowEngine.Context) -> EnrolledMethod? { nil }
    func isSetUp(on user: UserRecord) -> Bool { false }
    func skip(_ active: ActiveMethod, _ context: inout FlowEngine.Context, engine: FlowEngine, in repositories: Repositories)
        async throws -> FlowProblem?
    {
        throw FlowProblem.invalidStep
    }
    func cancelled(_ active: ActiveMethod, flowId: String, now: Int64, in repositories: Repositories) async throws {}
    var notices: [String: String] { [:] }
    var manageOperationNames: [String] { [] }
    func isRequiredAtSignUp(_ context: FlowEngine.Context) -> Bool { false }
    func beginSignUp(_ context: inout FlowEngine.Context) throws { throw FlowProblem.internalError }
    func applyCredential(_ credential: JSONValue, to user: inout UserRecord) throws {}
    func accountCreated(_ credential: JSONValue, user: UserRecord, in repositories: Repositories) async throws {}
    func offersAfterSignIn(_ context: FlowEngine.Context) -> Bool { false }
    func beginOffer(_ context: inout FlowEngine.Context) throws { throw FlowProblem.internalError }
    func precheck(_ operation: String, input: ManageInput, _ context: FlowEngine.Context, engine: FlowEngine) throws {}
    func manageOperations(_ context: FlowEngine.Context) -> [ManageOperation] { [] }
    func manage(
        _ operation: String, input: ManageInput, _ context: inout FlowEngine.Context, engine: FlowEngine,
        in repositories: Repositories
    ) async throws -> FlowProblem? {
        throw FlowProblem.invalidStep
    }
}

/// The method modules of this server, in the order steps list them.
enum FlowMethods {
    static let all: [any FlowMethod] = [
        EmailCodeMethod(),
        SMSCodeMethod(),
        SignInLinkMethod(),
        AuthenticatorMethod(),
        // Before the passkey: a reset's new password comes before an offer to make a passkey
        // (a sign-in asks for one such step at most).
        PasswordResetMethod(),
        PasskeyMethod(),
        PasswordMethod(),
        ApprovalMethod(),
        TrustedDeviceMethod(),
    ]

    private static let byId: [FlowMethodID: any FlowMethod] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.id, $0) })

    /// The module with `id`, if this server has it; `federation:<id>` is the upstream provider `<id>`.
    static func module(_ id: FlowMethodID) -> (any FlowMethod)? {
        byId[id] ?? FederationMethodID.providerId(id.rawValue).map { FederationMethod(providerId: $0) }
    }
}

/// An operation a `manageAccount` step offers: an action of the step (`POST manage/{name}`).
struct ManageOperation: Sendable, Equatable {
    var name: String
    var label: String
    /// Whether it weakens the account (removing or replacing a method, a new password), so the
    /// user proves again who they are first.
    var needsReverification: Bool
    /// The action's fields (the device to revoke).
    var fields: [Field] = []
}

/// The input of a `manage` operation: the device to revoke, the identity to unlink, the passkey
/// to rename or remove and its new name, the session to sign out.
struct ManageInput: Sendable, Equatable, Codable {
    var deviceId: String?
    /// The linked identity `unlinkIdentity` removes.
    var identityId: String? = nil
    /// The passkey `renamePasskey` or `removePasskey` acts on.
    var passkeyId: String? = nil
    /// The new name of `renamePasskey`.
    var name: String? = nil
    /// The session `endSession` signs out.
    var sessionId: String? = nil
}

/// What a method needs to draw its step: the flow limits (code length, attempts) and the box that
/// opens the secrets its state keeps sealed.
struct StepResources: Sendable {
    let limits: FlowLimits
    let secrets: SecretBox
}

/// A step being built: its payload, label, actions and messages. ``StepBuilder`` adds what every
/// step has (the `self` link, notices, `cancel`).
struct StepDraft: Sendable {
    /// `/v1/flows/{id}`, the base of every action's `href`.
    let base: String
    var payload: StepPayload
    var info: StepInfo?
    var actions: [Action] = []
    var messages: [Message] = []

    /// Adds a `POST` action on `base/path`.
    mutating func post(_ name: String, _ path: String, label: String, fields: [Field] = []) {
        actions.append(Action(name: name, href: "\(base)/\(path)", method: "POST", label: label, fields: fields))
    }
}

/// The routes a method registers for its input: `POST /v1/flows/{flowId}/{path}`, each handed the
/// request's ``FlowEngine/Target``.
struct FlowInputRoutes {
    let group: RouterGroup<KeywayRequestContext>
    let engine: FlowEngine

    func post(
        _ path: String,
        _ handler: @Sendable @escaping (Request, KeywayRequestContext, FlowEngine.Target) async throws -> Step
    ) {
        group.post(":flowId/\(path)") { request, context in
            try HTTPResponses.json(try await handler(request, context, FlowRoutes.target(request, context)))
        }
    }
}
