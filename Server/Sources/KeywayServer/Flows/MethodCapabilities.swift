import Foundation
import KeywayJOSE
import KeywayProtocol
import Logging

// What a method can be besides the five requirements of ``FlowMethod``. A method conforms to
// each capability it has; every requirement of a capability is required (none has a default),
// so the compiler ties together what only works together, and the engine asks a capability only
// of the methods that declare it.

/// A way into an account once the user has it (a verified address, a password, a passkey, a
/// linked provider): asked before an account operation takes one of its credentials away, so
/// the account keeps a way in.
protocol WayInMethod: FlowMethod {
    /// Whether `user` can sign in with it under the flow's policy, without its credential
    /// `removed` (the one an operation is about to remove, when it is this method's).
    func opensAccount(of user: UserRecord, without removed: String?, _ context: FlowEngine.Context) -> Bool
}

/// A way in: an application may list it in ``ApplicationPolicy/primaryMethods``.
protocol PrimaryMethod: WayInMethod {
    /// Whether a user can use it without having set it up: a code sent to the identifier works
    /// from the first visit; a secret or a password must be set up first.
    var worksWithoutEnrolment: Bool { get }
    /// Whether it can be the first factor for the flow's identifier (never depending on the
    /// account, so it reveals nothing about it).
    func isPrimaryOption(_ context: FlowEngine.Context) -> Bool
}

/// A second factor: an application may list it in ``ApplicationPolicy/mfaMethods``.
protocol SecondFactorMethod: FlowMethod {
    /// Whether the flow's user has it set up as a second factor.
    func isEnrolled(_ context: FlowEngine.Context) -> Bool
    /// Whether the user can set it up within the flow.
    func canEnrol(_ context: FlowEngine.Context) -> Bool
}

/// A method that proves again who a signed-in user is (account management's re-verification).
protocol ReverifyingMethod: FlowMethod {
    /// Whether it can prove again who the flow's user is.
    func canReverify(_ context: FlowEngine.Context) -> Bool
}

/// A method an account has or has not set up, listed on the `manageAccount` step.
protocol AccountListedMethod: FlowMethod {
    /// How a `manageAccount` step lists it, when the user has it.
    func enrolledMethod(_ context: FlowEngine.Context) -> EnrolledMethod?
    /// Whether the account has it set up (the admin API lists these): only methods that need
    /// setting up answer `true`, never a code sent to the account's identifiers.
    func isSetUp(on user: UserRecord) -> Bool
}

/// A method whose set-up during a sign-up is kept in the ``FlowProgress/SignUpDraft`` until the
/// account exists.
protocol SignUpCredentialMethod: FlowMethod {
    /// Writes what a sign-up set up with it into the account the sign-up creates.
    func applyCredential(_ credential: JSONValue, to user: inout UserRecord) throws
    /// Stores what a sign-up set up with it outside the account's row (a passkey), once the
    /// account exists, in the same transaction.
    func accountCreated(_ credential: JSONValue, user: UserRecord, in repositories: Repositories) async throws
}

/// A credential a sign-up must set up before the account exists (a password, where the policy
/// signs in with one).
protocol RequiredAtSignUpMethod: SignUpCredentialMethod {
    /// Whether this sign-up must still set it up.
    func isRequiredAtSignUp(_ context: FlowEngine.Context) -> Bool
    /// Moves a sign-up to the step that sets it up.
    func beginSignUp(_ context: inout FlowEngine.Context) throws
}

/// A method that offers itself, as a skippable step, before a sign-in (or sign-up) completes.
protocol OfferingMethod: FlowMethod {
    /// Whether the flow about to complete offers to set it up first.
    func offersAfterSignIn(_ context: FlowEngine.Context) -> Bool
    /// Moves the flow to that offer.
    func beginOffer(_ context: inout FlowEngine.Context) throws
}

/// A method with operations on a `manageAccount` step (set up, replace, remove, rename).
protocol AccountOperationsMethod: FlowMethod {
    /// What its operations read from an operation's body (``NoOperationInput`` when none does).
    associatedtype Input: Codable & Sendable
    /// The names of every operation it can offer.
    var manageOperationNames: [String] { get }
    /// The operations it offers the user now.
    func manageOperations(_ context: FlowEngine.Context) -> [ManageOperation]
    /// Checks an operation's input before a fresh verification is asked for it (so nobody
    /// verifies for a change that is refused); throws the problem.
    func precheck(_ operation: String, input: Input, _ method: MethodContext) throws
    /// Runs one of its operations, after a fresh verification when the operation needs one. The
    /// context's purpose is ``MethodPurpose/enrolment``: its ``MethodContext/keep(_:)`` (or the
    /// method's own `begin`) moves the flow to its setup stage; otherwise the flow stays at the
    /// account's methods.
    func manage(_ operation: String, input: Input, _ method: inout MethodContext) async throws -> FlowProblem?
    /// Texts of the notices its operations leave on the next step.
    var notices: [String: String] { get }
}

/// The input of operations that read nothing from their body.
struct NoOperationInput: Codable, Sendable, Equatable {}

extension AccountOperationsMethod {
    /// An operation's body (a JSON object; kept in the flow while a verification is asked for)
    /// read as the method's ``Input``.
    func input(from body: JSONValue) throws -> Input {
        do {
            return try body.decoding(Input.self)
        } catch let error as DecodingError {
            throw FlowProblem.invalidRequest([RequestDecoding.invalidField(for: error)])
        }
    }

    /// The part of an operation's body its ``Input`` reads, as JSON (what waits in the flow
    /// while a verification is asked for).
    func readInput(_ body: JSONValue) throws -> JSONValue {
        try JSONValue.encoding(try input(from: body))
    }

    /// ``precheck(_:input:_:)`` with the operation's body.
    func precheck(_ operation: String, body: JSONValue, _ method: MethodContext) throws {
        try precheck(operation, input: try input(from: body), method)
    }

    /// ``manage(_:input:_:)`` with the operation's body.
    func manage(_ operation: String, body: JSONValue, _ method: inout MethodContext) async throws -> FlowProblem? {
        try await manage(operation, input: try input(from: body), &method)
    }
}

/// A method whose step can be skipped (a device step).
protocol SkippableMethod: FlowMethod {
    /// Answers `skip` on its stage.
    func skip(_ method: inout MethodContext) async throws -> FlowProblem?
}

/// A method whose stage holds something outside the flow (a link, an approval request).
protocol StageResourceMethod: FlowMethod {
    /// Undoes what its stage holds outside the flow when the flow is cancelled.
    func cancelled(_ active: ActiveMethod, flowId: String, now: Int64, in repositories: Repositories) async throws
}

/// A method that reads what it needs of the flow's user when a flow is read (the passkey's
/// list of passkeys), into ``FlowEngine/Context/methodData``, where its own accessors find it.
protocol MethodDataLoader: FlowMethod {
    /// Reads it into `context`, in the request's transaction.
    func load(into context: inout FlowEngine.Context, in repositories: Repositories) async throws
}

/// A family of primary methods whose members each application chooses (the upstream providers,
/// `federation:<id>`): the family reads its members for each request, and a sign-in offers them
/// after the policy's own primary methods.
protocol MethodFamily: FlowMethod {
    /// Reads the family's data for this request into `context`: the members the application
    /// offers, and in account management what the user holds of them.
    func loadFamily(into context: inout FlowEngine.Context, in repositories: Repositories) async throws
    /// The members a sign-in offers now, in the policy's order.
    func offeredMembers(_ context: FlowEngine.Context) -> [AuthenticationMethod]
    /// The member with `id` (`federation:<id>`), if `id` names one.
    func member(_ id: FlowMethodID) -> (any FlowMethod)?
}

/// A method that brings an identity from elsewhere into a flow (an upstream provider's): a
/// sign-up through it starts from what the identity says, and the identity is linked to the
/// account as the flow completes.
protocol ExternalIdentityMethod: FlowMethod {
    /// Whether the sign-up goes through this method: the account's way in is the method's, so
    /// no other method is required to be set up.
    func isSigningUp(_ context: FlowEngine.Context) -> Bool
    /// The name a sign-up's form is filled in with, when the sign-up goes through this method.
    func signUpName(_ context: FlowEngine.Context, secrets: SecretBox) -> String?
    /// Gives the account a sign-up through this method creates the identity's address; answers
    /// the identity's name (`nil` when the sign-up does not go through it).
    func applySignUp(
        to user: inout UserRecord, _ context: FlowEngine.Context, secrets: SecretBox, in repositories: Repositories
    ) async throws -> String?
    /// Links the identity waiting in the flow, if any, to `user` as the flow completes.
    func linkPendingIdentity(
        to user: UserRecord, _ context: inout FlowEngine.Context, secrets: SecretBox, in repositories: Repositories
    ) async throws
}

/// A method with a part of the account page (the `manageAccount` step's payload) of its own: the
/// passkeys listed, the trusted devices, the linked identities.
protocol AccountPageMethod: FlowMethod {
    /// Fills its part of `payload`.
    func fill(_ payload: inout ManageAccountPayload, _ context: FlowEngine.Context)
}

/// A second factor that reads what it needs only when a sign-in's second factor is due, before
/// one is offered (the approval's count of devices that could approve).
protocol DueSecondFactorLoader: SecondFactorMethod {
    /// Reads it into `context`, in the request's transaction.
    func loadWhenDue(into context: inout FlowEngine.Context, in repositories: Repositories) async throws
}

/// A primary method that can start a sign-in without an identifier: its answer names the
/// account (a discoverable passkey).
protocol IdentifyingMethod: PrimaryMethod {
    /// Moves a new flow without an identifier to its stage (`challenge`: one the client already
    /// holds, or `nil` for a new one); throws the problem when the application cannot start so.
    func beginWithoutIdentifier(challenge: String?, _ method: inout MethodContext) throws
}

/// The method that trusts devices: the engine asks it, as ``FlowSequence`` decides, whether the
/// device the client named signs in alone or stands in for the second factor, and whether the
/// client may enrol its device; its `begin` asks for the proof (``MethodPurpose/secondFactor``)
/// or the enrolment (``MethodPurpose/enrolment``).
protocol DeviceTrustMethod: FlowMethod {
    /// At the start of a sign-in: moves to the device's proof when the device the client named
    /// signs in alone (a low-risk sign-in, where the policy allows); `false` when it does not.
    func signsInAlone(_ method: inout MethodContext) async throws -> Bool
    /// When a second factor is due: whether the device the client named can stand in for it.
    /// Asked once per flow.
    func canProve(_ method: inout MethodContext) async throws -> Bool
    /// Whether the client may enrol its device now.
    func canEnrol(_ context: FlowEngine.Context) -> Bool
    /// When the flow completes: writes the device enrolled in it for `user`, answering its ID
    /// (`nil` when none was, or the policy refuses one more).
    func storeEnrolled(for user: UserRecord, _ method: inout MethodContext) async throws -> String?
}

/// A method that acts when an account's address is verified for the first time in a sign-in
/// (federation holds the identities linked before).
protocol AddressVerificationObserver: FlowMethod {
    /// Acts on `user`, whose address was just verified, in the request's transaction.
    func addressVerified(
        _ user: UserRecord, _ context: inout FlowEngine.Context, logger: Logger, in repositories: Repositories
    ) async throws
}

/// A method the application's policy configures: settings of its own, kept under their key
/// (``MethodSettings``), or shared ones it needs (SMS delivery for SMS codes).
protocol ConfigurableMethod: FlowMethod {
    /// The settings it keeps in the policy (none when it only checks shared ones).
    var settings: [any MethodSettings.Type] { get }
    /// The problems of its own settings in `policy` (``ApplicationPolicy/validate(devMode:)`` adds
    /// them to the policy's).
    func validate(_ policy: ApplicationPolicy, devMode: Bool) -> [PolicyProblem]
}

extension FlowMethod {
    /// Whether it is a way in (``PrimaryMethod``).
    var canBePrimary: Bool { self is any PrimaryMethod }
    /// Whether it is a second factor (``SecondFactorMethod``).
    var canBeSecondFactor: Bool { self is any SecondFactorMethod }
}

/// A method (or family) that prepares, before the transaction that begins it, what it would
/// otherwise fetch from another server inside it (a provider's discovery document): the
/// transaction then reads a cache, and never waits on the other server.
protocol PreparingMethod: FlowMethod {
    /// Prepares for `method` to begin in the flow `flowId`, when `method` is its own (or a member
    /// of its family); does nothing otherwise. Failures are remembered or ignored: the begin
    /// itself reports them.
    func prepare(toBegin method: FlowMethodID, _ preparation: MethodPreparation) async
}

/// What a method may use to prepare outside the flow's transaction: the flow's ID, the database
/// to read from, and the methods' dependencies.
struct MethodPreparation: Sendable {
    let flowId: String
    let database: any Database
    let dependencies: MethodDependencies
}
