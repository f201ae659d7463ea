import Foundation
import KeywayJOSE
import KeywayProtocol

/// The flow's state machine: one actor owns the flow token, the current step and the PKCE
/// verifier, and emits every update. A generation counter discards answers that arrive after
/// a `cancel`, `reset` or new `start`.
actor FlowDriver {
    private let client: ProtocolClient
    private let options: KeywayOptions
    let broadcaster = UpdateBroadcaster()

    private var flowToken: String?
    private var step: Step?
    private var codeVerifier: String?
    private var generation = 0

    init(client: ProtocolClient, options: KeywayOptions) {
        self.client = client
        self.options = options
    }

    var currentStep: Step? { step }

    // MARK: Calls

    func start(
        flowType: FlowType, identifier: String, startToken: String?, inviteCode: String?, codeChallenge: String?
    ) async {
        generation += 1
        clear()
        let identifier = identifier.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !identifier.isEmpty else {
            emitLocalError(.invalidRequest, action: .retryInput, message: "Enter your email address.",
                field: InvalidField(name: "identifier", reason: "Enter your email address."))
            return
        }
        let challenge: String
        if let codeChallenge {
            guard PKCE.isValidS256Challenge(codeChallenge) else {
                emitLocalError(.invalidRequest, action: .abort,
                    message: "The code challenge must be the base64url SHA-256 of a PKCE verifier (43 characters).",
                    field: InvalidField(name: "codeChallenge", reason: "Not an S256 challenge."))
                return
            }
            challenge = codeChallenge
        } else {
            let verifier = Base64URL.encode(options.random.bytes(32))
            codeVerifier = verifier
            challenge = PKCE.challenge(for: verifier)
        }
        let request = StartFlowRequest(
            flowType: flowType, identifier: identifier, codeChallenge: challenge, codeChallengeMethod: PKCE.method,
            startToken: startToken.map { Sensitive($0) }, inviteCode: inviteCode.map { Sensitive($0) })
        let mine = generation
        broadcaster.emit(.loading)
        await handle(generation: mine) { try await self.client.startFlow(request) }
    }

    func submitCode(_ code: String) async {
        await perform(actionNamed: "submitCode", parameters: ["code": code.trimmingCharacters(in: .whitespaces)])
    }

    /// Requests a new code. `false` while the cooldown runs (no request is sent) or when the
    /// server refuses; `true` once a new code is on its way and the prompt was re-emitted.
    func resend() async -> Bool {
        guard let step, let action = step.action(named: "resend") else { return false }
        if let resendAt = step.enterCode?.resendAt, options.clock.now() < resendAt { return false }
        let mine = generation
        broadcaster.emit(.loading)
        do {
            let outcome = try await client.perform(action: action, parameters: [:], flowToken: flowToken)
            guard mine == generation else { return false }
            if case .problem(let problem) = outcome, problem.code == .resendCooldown {
                // Put the prompt back up; the caller learns the window is closed from `false`.
                broadcaster.emit(.prompt(PromptContext(step: step), Prompt(step: step) ?? .unrecognized(kind: step.kind)))
                return false
            }
            apply(outcome)
            if case .step = outcome { return true }
            return false
        } catch {
            guard mine == generation else { return false }
            apply(error: error)
            return false
        }
    }

    func cancel() async {
        generation += 1
        let token = flowToken
        let cancelAction = step?.action(named: "cancel")
        clear()
        broadcaster.emit(.idle)
        if let cancelAction {
            _ = try? await client.perform(action: cancelAction, parameters: [:], flowToken: token)
        }
    }

    func reset() {
        generation += 1
        clear()
        broadcaster.emit(.idle)
    }

    /// Performs an action of the current step by name.
    func perform(actionNamed name: String, parameters: [String: String]) async {
        guard let step else {
            emitLocalError(.noActiveFlow, action: .restartFlow, message: "There is no sign-in in progress. Start one first.")
            return
        }
        guard let action = step.action(named: name) else {
            emitLocalError(.actionUnavailable, action: .abort, message: "This step does not offer \(name).")
            return
        }
        await perform(action: action, parameters: parameters)
    }

    /// Performs any action, checking its required fields first.
    func perform(action: Action, parameters: [String: String]) async {
        guard step != nil else {
            emitLocalError(.noActiveFlow, action: .restartFlow, message: "There is no sign-in in progress. Start one first.")
            return
        }
        let missing = action.fields.filter { field in
            field.required && (parameters[field.name] ?? field.value ?? "").isEmpty
        }
        if let first = missing.first {
            emitLocalError(.invalidRequest, action: .retryInput, message: "Fill in \(first.label ?? first.name).",
                field: InvalidField(name: first.name, reason: "This field is required."))
            return
        }
        let token = flowToken
        let mine = generation
        broadcaster.emit(.loading)
        await handle(generation: mine) { try await self.client.perform(action: action, parameters: parameters, flowToken: token) }
    }

    func follow(link: Link) async {
        let token = flowToken
        let mine = generation
        broadcaster.emit(.loading)
        await handle(generation: mine) { try await self.client.follow(link: link, flowToken: token) }
    }

    // MARK: Outcomes

    private func handle(generation mine: Int, _ request: @Sendable () async throws -> ProtocolClient.Outcome) async {
        do {
            let outcome = try await request()
            guard mine == generation else { return }
            apply(outcome)
        } catch {
            guard mine == generation else { return }
            apply(error: error)
        }
    }

    private func apply(_ outcome: ProtocolClient.Outcome) {
        switch outcome {
        case .step(let newStep):
            if let token = newStep.flowToken?.revealed { flowToken = token }
            if newStep.kind == .completed, let payload = newStep.completed {
                let verifier = codeVerifier.map { Sensitive($0) }
                clear()
                broadcaster.emit(
                    .completed(
                        session: payload.session, authCode: payload.authCode, expiresAt: payload.expiresAt,
                        codeVerifier: verifier, meta: newStep.meta))
                return
            }
            step = newStep
            broadcaster.emit(.prompt(PromptContext(step: newStep), Prompt(step: newStep) ?? .unrecognized(kind: newStep.kind)))
        case .noContent:
            clear()
            broadcaster.emit(.idle)
        case .problem(let problem):
            if problem.action == .restartFlow || problem.action == .abort { clear() }
            broadcaster.emit(
                .error(
                    code: problem.code, action: problem.action, message: problem.detail, retryable: problem.retryable,
                    details: problem, meta: problem.traceId.map(Meta.init)))
        }
    }

    private func apply(error: any Error) {
        switch error {
        case KeywayError.networkFailure(let why):
            broadcaster.emit(
                .error(
                    code: .networkError, action: .retryRequest, message: "The server could not be reached: \(why)",
                    retryable: true, details: nil, meta: nil))
        default:
            clear()
            broadcaster.emit(
                .error(
                    code: .invalidResponse, action: .abort, message: String(describing: error), retryable: false,
                    details: nil, meta: nil))
        }
    }

    private func emitLocalError(_ code: ProblemCode, action: ProblemAction, message: String, field: InvalidField? = nil) {
        let problem = Problem(
            code: code, status: 0, title: "Invalid input", detail: message, action: action,
            invalidFields: field.map { [$0] })
        broadcaster.emit(.error(code: code, action: action, message: message, retryable: false, details: problem, meta: nil))
    }

    private func clear() {
        flowToken = nil
        step = nil
        codeVerifier = nil
    }
}
