import Foundation
import KeywayProtocol

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
    /// The stage the flow is at; `nil` while the method begins it.
    fileprivate let active: ActiveMethod?
    private let engine: FlowEngine

    fileprivate init(
        method: FlowMethodID, purpose: MethodPurpose, active: ActiveMethod?, flow: FlowEngine.Context, engine: FlowEngine,
        repositories: Repositories
    ) {
        self.method = method
        self.purpose = purpose
        self.active = active
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

    /// The stage's state, as the method's `begin` wrote it.
    func state<State: Decodable>(as type: State.Type) throws -> State {
        guard let state = try? active?.state(as: type) else { throw FlowProblem.invalidStep }
        return state
    }

    /// Keeps `state` as the stage's state (written with the flow); in `begin`, this moves the
    /// flow to the method's stage for ``purpose``. Keep before ``prove(amr:)``, which moves on.
    mutating func keep<State: Encodable>(_ state: State) throws {
        flow.progress.stage = .method(try ActiveMethod(method, purpose: purpose, state: state))
    }

    /// Counts this check against the client address's limit over all identifiers (refused with
    /// `wait` past it).
    func countCheck() async throws {
        try await engine.consumeCheck(flow, in: repositories)
    }

    /// Counts one attempt of `kind` against the flow's account (its user once known, else its
    /// identifier), `limit` per window and client network, without letting an attacker lock the
    /// owner out (``FlowEngine/consumeForIdentifier(_:_:clientHash:userId:limit:now:in:)``).
    func countForAccount(_ kind: String, limit: Int) async throws {
        try await engine.consumeForIdentifier(
            kind, FlowEngine.accountKey(flow), clientHash: flow.addressHash, userId: flow.user?.id, limit: limit,
            now: flow.now, in: repositories)
    }

    /// Refuses a wrong answer: counts it (for the flow and for the identifier's risk), and answers
    /// `problem` with the attempts left, or closes the flow at the last one.
    mutating func refuse(
        _ problem: (_ attemptsRemaining: Int) -> FlowProblem = FlowProblem.invalidCredentials(attemptsRemaining:)
    ) async throws -> FlowProblem {
        let failures = flow.progress.failures(of: method) + 1
        flow.progress.failures[method.rawValue] = failures
        try await engine.recordFailure(flow, in: repositories)
        let remaining = engine.limits.maxCodeAttempts - failures
        if remaining <= 0 {
            flow.flow.state = .failed
            return .tooManyAttempts
        }
        return problem(remaining)
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

    /// The upstream providers' discovery documents and key sets, cached (the federation
    /// method's).
    var upstream: UpstreamProviders { engine.upstream }

    /// Seals a secret to `purpose` with the server's key, for the method's state or records.
    func seal(_ secret: [UInt8], purpose: String) throws -> String {
        try engine.secrets.seal(secret, purpose: purpose)
    }

    /// Opens what ``seal(_:purpose:)`` sealed to `purpose`.
    func open(_ sealed: String, purpose: String) throws -> [UInt8] {
        try engine.secrets.open(sealed, purpose: purpose)
    }

    /// Records that the user proved the stage's purpose with this method (`amr`, as RFC 8176
    /// names it, joins the session's), then moves the flow on. Answers the problem to refuse
    /// with, if the sequence refuses (a blocked account).
    mutating func prove(amr: String) async throws -> FlowProblem? {
        try await engine.proved(method, amr: amr, &flow, in: repositories)
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

extension MethodContext {
    /// Runs `handler` in the flow's request cycle while the flow is at `method`'s stage.
    fileprivate static func run(
        _ method: FlowMethodID, target: FlowEngine.Target, engine: FlowEngine,
        _ handler: @Sendable @escaping (inout MethodContext) async throws -> FlowProblem?
    ) async throws -> Step {
        try await engine.run(target) { flow, repositories in
            guard let active = flow.progress.active(method) else { throw FlowProblem.invalidStep }
            var methodContext = MethodContext(
                method: method, purpose: active.purpose, active: active, flow: flow, engine: engine,
                repositories: repositories)
            let problem = try await handler(&methodContext)
            flow = methodContext.flow
            return problem
        }
    }
}

extension FlowEngine {
    /// Moves the flow to `module`'s stage for `purpose`: the module's `begin` with a
    /// ``MethodContext`` of the flow.
    func beginStage(
        of module: any FlowMethod, for purpose: MethodPurpose, _ context: inout Context, in repositories: Repositories
    ) async throws {
        var methodContext = MethodContext(
            method: module.id, purpose: purpose, active: nil, flow: context, engine: self, repositories: repositories)
        try await module.begin(purpose, &methodContext)
        context = methodContext.flow
    }
}
