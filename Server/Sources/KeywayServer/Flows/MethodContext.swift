import Foundation
import KeywayProtocol
import Logging

/// What a method may do when it begins its stage or takes its input, inside its flow's request —
/// and nothing more: read the flow; read and keep its own stage's state; count the request
/// against the client's and the account's limits; refuse a wrong answer (counted, closing the
/// flow at the last attempt) or fail the flow; keep a sign-up credential; leave a notice; send a
/// code; queue a backend event; seal and open secrets; and prove what the user did, after which
/// the engine moves the flow on as ``FlowSequence`` decides. It never hands out the engine: a
/// method added this way extends nothing of ``FlowEngine``.
///
/// A method registers its input with ``FlowInputRoutes/input(_:of:as:check:_:)``, which runs the
/// handler in the flow's write transaction only while the flow is at that method's stage.
struct MethodContext: Sendable {
    /// The method the input is for.
    let method: FlowMethodID
    /// What the method's stage is for (a first factor, a second, a re-verification, …).
    let purpose: MethodPurpose
    /// The repositories of the request's transaction.
    let repositories: Repositories
    fileprivate var flow: FlowEngine.Context
    private let engine: FlowEngine

    /// Made only by the engine's runners of method input (this file, `StagedMethodInput`).
    init(
        method: FlowMethodID, purpose: MethodPurpose, flow: FlowEngine.Context, engine: FlowEngine,
        repositories: Repositories
    ) {
        self.method = method
        self.purpose = purpose
        self.flow = flow
        self.engine = engine
        self.repositories = repositories
    }

    /// Everything the flow holds, to read; what a method changes goes through the calls below.
    var context: FlowEngine.Context { flow }

    /// The flow's ID.
    var flowId: String { flow.flow.id }
    /// The application the flow is for.
    var application: ApplicationRecord { flow.application }
    /// The application's policy.
    var policy: FlowPolicy { flow.policy }
    /// The server's flow limits (attempts, rates).
    var limits: FlowLimits { engine.limits }
    /// The flow's user, once known; a method that changed the account's row sets it here.
    var user: UserRecord? {
        get { flow.user }
        set { flow.user = newValue }
    }
    /// Whether the flow is account management (a method set up there leaves a notice).
    var isAccountManagement: Bool { flow.progress.isManage }
    /// The request's time, in milliseconds since 1970.
    var now: Int64 { flow.now }

    /// The stage's state, as the method last kept it; `invalid_step` while the flow is not at the
    /// method's stage.
    func state<State: Decodable>(as type: State.Type) throws -> State {
        guard let state = try? flow.progress.active(method)?.state(as: type) else { throw FlowProblem.invalidStep }
        return state
    }

    /// Keeps `state` as the stage's state (written with the flow); in `begin`, this moves the
    /// flow to the method's stage for ``purpose``. Keep before ``prove(amr:)``, which moves on.
    /// `purpose` names another purpose for the stage than the context's (a new password
    /// chosen after a re-verification).
    mutating func keep<State: Encodable>(_ state: State, for purpose: MethodPurpose? = nil) throws {
        flow.progress.stage = .method(try ActiveMethod(method, purpose: purpose ?? self.purpose, state: state))
    }

    /// Counts this check against the client address's limit over all identifiers (refused with
    /// `wait` past it).
    func countCheck() async throws {
        try await engine.consumeCheck(flow, in: repositories)
    }

    /// Counts one attempt of `kind` against the flow's account (its user once known, else its
    /// identifier; `owner` when the answer names another, a passkey of a flow without an
    /// identifier), `limit` per window and client network, without letting an attacker lock the
    /// owner out (``FlowEngine/consumeForIdentifier(_:_:clientHash:userId:limit:now:in:)``).
    func countForAccount(_ kind: String, limit: Int, of owner: UserRecord? = nil) async throws {
        let key =
            owner.map { FlowEngine.identifierKey(projectId: flow.application.projectId, identifier: $0.id) }
            ?? FlowEngine.accountKey(flow)
        try await engine.consumeForIdentifier(
            kind, key, clientHash: flow.addressHash, userId: owner?.id ?? flow.user?.id, limit: limit, now: flow.now,
            in: repositories)
    }

    /// The wrong answers the method counted in this flow (``refuse(_:)`` counts one).
    var failures: Int {
        get { flow.progress.failures(of: method) }
        set { flow.progress.failures[method.rawValue] = newValue }
    }

    /// Counts a wrong answer against the identifier's risk (what ``refuse(_:)`` does with the
    /// flow's own count), for a method that keeps its count itself.
    func recordFailure() async throws {
        try await engine.recordFailure(flow, in: repositories)
    }

    /// Refuses a wrong answer: counts it (for the flow and for the identifier's risk), and answers
    /// `problem` with the attempts left, or closes the flow at the last one.
    mutating func refuse(
        _ problem: (_ attemptsRemaining: Int) -> FlowProblem = FlowProblem.invalidCredentials(attemptsRemaining:)
    ) async throws -> FlowProblem {
        failures += 1
        try await recordFailure()
        let remaining = limits.maxCodeAttempts - failures
        return remaining <= 0 ? fail(.tooManyAttempts) : problem(remaining)
    }

    /// Ends the flow as failed, answering `problem` (an approval denied or expired).
    mutating func fail(_ problem: FlowProblem) -> FlowProblem {
        flow.flow.state = .failed
        return problem
    }

    /// Keeps what a sign-up set up with the method for the account it creates (written when the
    /// account exists, by ``SignUpCredentialMethod/applyCredential(_:to:)``); `false` outside a sign-up.
    mutating func keepForSignUp<Credential: Encodable>(_ credential: Credential) throws -> Bool {
        guard var draft = flow.progress.signUpDraft else { return false }
        try draft.keep(credential, for: method)
        flow.progress.signUpDraft = draft
        return true
    }

    /// The notice the next step carries, if any.
    var notice: String? {
        get { flow.progress.notice }
        set { flow.progress.notice = newValue }
    }

    /// Leaves a notice (one of the method's ``AccountOperationsMethod/notices``) on the next step.
    mutating func leaveNotice(_ notice: String) {
        flow.progress.notice = notice
    }

    /// Sends a one-time code for the method's stage to `destination` by the shared code step
    /// (``FlowEngine/sendCode(_:purpose:to:deliverable:_:in:)``), which then holds the stage;
    /// an undeliverable destination (a number another account has) gets a notice and no code.
    mutating func sendCode(_ codeMethod: some CodeMethod, to destination: String, deliverable: Bool = true) async throws {
        try await engine.sendCode(codeMethod, purpose: purpose, to: destination, deliverable: deliverable, &flow, in: repositories)
    }

    /// Queues an event for the project's backend (its events webhook), written to the outbox
    /// with the request.
    mutating func queueEvent(_ event: DeliveryRequest) {
        flow.events.append(event)
    }

    /// What the methods need from the server, by key (each method reads its own).
    var dependencies: MethodDependencies { engine.dependencies }

    /// Seals a secret to `purpose` with the server's key, for the method's state or records.
    func seal(_ secret: [UInt8], purpose: String) throws -> String {
        try engine.secrets.seal(secret, purpose: purpose)
    }

    /// Opens what ``seal(_:purpose:)`` sealed to `purpose`.
    func open(_ sealed: String, purpose: String) throws -> [UInt8] {
        try engine.secrets.open(sealed, purpose: purpose)
    }

    /// What the method's ``MethodDataLoader`` read for the flow's user (its own entry of
    /// ``FlowEngine/Context/methodData``), changed when an operation changes it.
    var data: (any Sendable)? {
        get { flow.methodData[method] }
        set { flow.methodData[method] = newValue }
    }

    /// The server's log.
    var logger: Logger { engine.logger }

    /// The keyed hash of codes and link tokens.
    var hasher: OneTimeCodeHasher { engine.hasher }

    /// Whether the account keeps a second factor without `removing`, as a policy that requires
    /// one needs.
    func keepsASecondFactor(without removing: AuthenticationMethod) -> Bool {
        engine.keepsASecondFactor(without: removing, flow)
    }

    /// Whether the account keeps a way in without the credential `credentialId` of `owner` (the
    /// method, or its family): the policy's primary methods and the families are asked.
    func hasAnotherWayIn(without credentialId: String, of owner: FlowMethodID) -> Bool {
        guard let user = flow.user else { return false }
        return engine.hasAnotherWayIn(user, without: credentialId, of: owner, flow)
    }

    /// The stage's code can no longer be entered (its link or its answer was used).
    mutating func spendCode() {
        flow.flow.otpHash = nil
    }

    /// A code or link sent to `destination` was answered: in a sign-in, the account's address
    /// or number, when it is `destination` and unverified, is verified now (a newly verified
    /// address holds the federated identities linked before, and tells its owner).
    mutating func verify(destination: String, by channel: CodeChannel) async throws {
        guard flow.progress.isSignIn, var user = flow.user else { return }
        let bySMS = channel == .sms
        guard bySMS ? !user.phoneVerified && user.phone == destination : !user.emailVerified && user.email == destination
        else { return }
        if bySMS { user.phoneVerified = true } else { user.emailVerified = true }
        try await repositories.users.updateMethods(user)
        flow.user = user
        guard !bySMS else { return }
        for observer in engine.methods.addressVerificationObservers {
            try await observer.addressVerified(user, &flow, logger: engine.logger, in: repositories)
        }
    }

    /// What `owner` (the method, or its family) keeps across the flow's stages
    /// (``FlowProgress/subscript(kept:initially:)``), in its form.
    subscript<Value: Codable & Equatable>(kept owner: FlowMethodID, initially initial: Value) -> Value {
        get { flow.progress[kept: owner, initially: initial] }
        set { flow.progress[kept: owner, initially: initial] = newValue }
    }

    /// Hands the flow over to `other`'s stage for `purpose` (a password reset started from a
    /// password step).
    mutating func handOver(to other: FlowMethodID, for purpose: MethodPurpose) async throws {
        try await engine.begin(other, purpose: purpose, &flow, in: repositories)
    }

    /// Records a proof of `role` without moving on (a passkey that verified its user proves a
    /// second factor with the first); ``prove(amr:as:)`` then records the stage's own.
    mutating func record(_ role: Proof.Role, amr: String) {
        flow.progress.prove(method, role: role, amr: amr, at: flow.now)
    }

    /// Records the credential a sign-up set up with the method (kept by
    /// ``keepForSignUp(_:)``) and moves on.
    mutating func proveCredential(amr: String) async throws -> FlowProblem? {
        record(.credential, amr: amr)
        return try await moveOn()
    }

    /// Brings an account-management flow back to the account's methods, with the operation's
    /// notice.
    mutating func backToAccount(notice: String) {
        flow.progress.stage = .manageAccount
        flow.progress.notice = notice
    }

    /// How risky the sign-in of `user` looks (a new address, recent failures); `nil` when nothing
    /// stands out.
    func assessRisk(of user: UserRecord) async throws -> Risk? {
        try await engine.assessRisk(flow, user: user, in: repositories)
    }

    /// Goes back to the sign-in's primary methods (a device that signed in alone could not
    /// prove itself).
    mutating func restartPrimary() async throws {
        flow.progress.stage = .choosing(MethodChoice(options: [], purpose: .primary))
        try await engine.beginPrimary(&flow, in: repositories)
    }

    /// Shows the sign-in's primary methods to choose from again (a provider's answer refused).
    mutating func backToPrimaryChoice() {
        flow.progress.stage = .choosing(MethodChoice(options: engine.primaryOptions(flow), purpose: .primary))
    }

    /// The flow's user becomes `user` (the account a provider's identity or a passkey names), or
    /// none.
    mutating func setUser(_ user: UserRecord?) {
        flow.user = user
        flow.flow.userId = user?.id
    }

    /// The flow's identifier becomes `identifier` (the address a provider's identity gives, the
    /// account's of a passkey in a sign-in started without one).
    mutating func setIdentifier(_ identifier: String) {
        flow.flow.identifier = identifier
    }

    /// The sign-in becomes a sign-up (through a provider, of an identity no account has).
    mutating func becomeSignUp() {
        flow.progress.mode = .signUp(FlowProgress.SignUpDraft())
    }

    /// Completes the flow now, with what was proved (a device that signs in alone).
    mutating func complete() async throws -> FlowProblem? {
        try await engine.complete(&flow, in: repositories)
    }

    /// Moves the flow on without proving anything (an offer or an optional step skipped).
    mutating func moveOn() async throws -> FlowProblem? {
        try await engine.advance(&flow, in: repositories)
    }

    /// Records that the user proved the stage's purpose with this method (`amr`, as RFC 8176
    /// names it, joins the session's), then moves the flow on. Answers the problem to refuse
    /// with, if the sequence refuses (a blocked account).
    /// `as` names the method it counts as, when not this one (a reset code counts as the code of
    /// its channel).
    mutating func prove(amr: String, as proved: FlowMethodID? = nil) async throws -> FlowProblem? {
        try await engine.proved(proved ?? method, amr: amr, &flow, in: repositories)
    }
}

extension FlowInputRoutes {
    /// Registers `POST /v1/flows/{flowId}/{path}` for the input of `method`: the JSON body read as
    /// `Body` (refused with `invalid_request` when it is not), then `handler` run in the flow's
    /// write transaction with the ``MethodContext`` of the method's stage. While the flow is
    /// elsewhere the request is refused with `invalid_step`. The handler answers a problem to
    /// refuse with (what it changed is still written), or `nil` for the flow's next step.
    /// `check` looks at the body before the flow is read (a malformed answer is refused with
    /// nothing counted).
    func input<Body: Decodable & Sendable>(
        _ path: String, of method: FlowMethodID, as body: Body.Type,
        check: @Sendable @escaping (Body) throws -> Void = { _ in },
        _ handler: @Sendable @escaping (Body, inout MethodContext) async throws -> FlowProblem?
    ) {
        let engine = self.engine
        post(path) { request, context, target in
            let body = try await RequestDecoding.json(Body.self, from: request, context: context)
            try check(body)
            return try await MethodContext.run(method, target: target, engine: engine) { try await handler(body, &$0) }
        }
    }

    /// Registers `POST /v1/flows/{flowId}/{path}` for an input of `method` that has no body (a
    /// poll), run as ``input(_:of:as:check:_:)`` runs its handler.
    func input(
        _ path: String, of method: FlowMethodID, _ handler: @Sendable @escaping (inout MethodContext) async throws -> FlowProblem?
    ) {
        let engine = self.engine
        post(path) { _, _, target in
            try await MethodContext.run(method, target: target, engine: engine, handler)
        }
    }
}

extension FlowInputRoutes {
    /// Registers `POST /v1/flows/{flowId}/{path}` for a bodyless input of any method of a family
    /// (every upstream provider's `federation:<id>`): run as ``input(_:of:_:)`` runs its handler,
    /// while the flow is at the stage of a method `family` accepts.
    func input(
        _ path: String, ofFamily family: @Sendable @escaping (FlowMethodID) -> Bool,
        _ handler: @Sendable @escaping (inout MethodContext) async throws -> FlowProblem?
    ) {
        let engine = self.engine
        post(path) { _, _, target in
            try await MethodContext.run(family, target: target, engine: engine, handler)
        }
    }
}

extension MethodContext {
    /// Runs `handler` in the flow's request cycle while the flow is at `method`'s stage.
    fileprivate static func run(
        _ method: FlowMethodID, target: FlowEngine.Target, engine: FlowEngine,
        _ handler: @Sendable @escaping (inout MethodContext) async throws -> FlowProblem?
    ) async throws -> Step {
        try await run({ $0 == method }, target: target, engine: engine, handler)
    }

    /// Runs `handler` in the flow's request cycle while the flow is at the stage of a method
    /// `accepts`.
    fileprivate static func run(
        _ accepts: @Sendable @escaping (FlowMethodID) -> Bool, target: FlowEngine.Target, engine: FlowEngine,
        _ handler: @Sendable @escaping (inout MethodContext) async throws -> FlowProblem?
    ) async throws -> Step {
        try await engine.run(target) { flow, repositories in
            guard case .method(let active) = flow.progress.stage, accepts(active.method) else {
                throw FlowProblem.invalidStep
            }
            let method = active.method
            var methodContext = MethodContext(
                method: method, purpose: active.purpose, flow: flow, engine: engine, repositories: repositories)
            let problem = try await handler(&methodContext)
            flow = methodContext.flow
            return problem
        }
    }
}

extension FlowEngine {
    /// Runs `body` with the ``MethodContext`` of `method` for `purpose` in `context` (at the
    /// method's stage, or where the method is not at its stage: an account operation, a stage
    /// about to begin), keeping what it changes.
    func withMethod<Result>(
        _ method: FlowMethodID, purpose: MethodPurpose, _ context: inout Context,
        in repositories: Repositories, _ body: (inout MethodContext) async throws -> Result
    ) async throws -> Result {
        var methodContext = MethodContext(
            method: method, purpose: purpose, flow: context, engine: self, repositories: repositories)
        let result = try await body(&methodContext)
        context = methodContext.flow
        return result
    }

    /// Moves the flow to `module`'s stage for `purpose`: the module's `begin` with a
    /// ``MethodContext`` of the flow.
    func beginStage(
        of module: any FlowMethod, for purpose: MethodPurpose, _ context: inout Context, in repositories: Repositories
    ) async throws {
        try await withMethod(module.id, purpose: purpose, &context, in: repositories) {
            try await module.begin(purpose, &$0)
        }
    }
}
