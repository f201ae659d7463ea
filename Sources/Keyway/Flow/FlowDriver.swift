import Foundation
import KeywayJOSE
import KeywayProtocol

/// The flow's state machine: one actor owns the flow token, the current step and the PKCE
/// verifier, and emits every update. A generation counter discards answers that arrive after
/// a `cancel`, `reset` or new `start`.
actor FlowDriver {
    private let client: ProtocolClient
    private let options: KeywayOptions
    private let events: EventBroadcaster
    let logger: KeywayLogger
    let broadcaster = UpdateBroadcaster()
    /// The type of the flow in progress, for events.
    private var flowType: FlowType?

    private(set) var flowToken: String?
    private(set) var step: Step?
    private var codeVerifier: String?
    /// The flow's ID, once the server created it.
    private var flowId: String?
    private(set) var generation = 0
    /// The identifier the flow started with, for automatic method selection.
    private var identifier: String?
    /// Whether the SDK already chose the primary method for this flow.
    private var automaticSelectionTried = false
    /// Device trust, when the app turned it on.
    let deviceAgent: DeviceTrustAgent?
    /// This flow sent a device enrolment; its completion says whether the server kept it.
    private var enrolmentSent = false
    /// The scheduled poll of an `awaitApproval` step.
    private var pollTask: Task<Void, Never>?
    /// The OpenID Connect parameters this flow was started with.
    private var sent = SentAuthorization()
    /// The latest completion, kept until the next one: redeeming its code finds its nonce and
    /// redirect URI here.
    private(set) var completion: FlowCompletion?
    /// Redeems a completion's code and saves its tokens in the client's session
    /// (``CompletedSignIns/saveToSession``); `nil` hands completions over.
    typealias CompletionSaver = @Sendable (FlowCompletion) async throws -> TokenSet
    nonisolated let completionSaver = LockedState<CompletionSaver?>(nil)
    /// A refused answer spent the step's challenge and the step could not be read again: the
    /// next answer that needs the step's options reads it first.
    private var stepIsStale = false

    /// What a flow sent of its OpenID Connect parameters.
    struct SentAuthorization: Sendable, Equatable {
        var nonce: String?
        var scope: String?
        var redirectURI: URL?
        var state: String?
    }

    init(
        client: ProtocolClient, options: KeywayOptions, events: EventBroadcaster, logger: KeywayLogger,
        appAttest: AppAttestAgent? = nil
    ) {
        self.client = client
        self.options = options
        self.events = events
        self.logger = logger
        self.deviceAgent = options.deviceTrust.map {
            DeviceTrustAgent(
                options: $0, server: client.server, configId: client.configId, logger: logger, appAttest: appAttest)
        }
    }

    var currentStep: Step? { step }

    /// The tokens saved in the session for the completion of `authCode`, when they were.
    func savedTokens(for authCode: Sensitive<String>) -> TokenSet? {
        completion(for: authCode)?.tokens
    }

    /// A completion whose code could not be redeemed or whose tokens could not be saved: the
    /// flow ends in an error, and nothing was saved.
    private func failSaving(because error: any Error, flowId: String, meta: Meta) async {
        let reason = (error as? KeywayError)?.description ?? (error as? SessionError)?.description ?? "\(error)"
        logger.log(.warning, .flow, "the completed sign-in was not saved: \(reason)", ["flow": .plain(flowId)])
        await failCompletion(
            .signInNotSaved, action: .restartFlow, message: "The sign-in completed but could not be saved: \(reason)",
            meta: meta)
    }

    /// Ends the flow on a completion the app must not be told of as a sign-in: `signInFailed`,
    /// and an error update that ends the flow.
    private func failCompletion(_ code: ProblemCode, action: ProblemAction, message: String, meta: Meta) async {
        var data = ["code": code.rawValue, "action": action.rawValue]
        if let flowType { data["flowType"] = flowType.rawValue }
        await clear()
        events.emit(.signInFailed, data)
        broadcaster.emit(
            .error(code: code, action: action, message: message, retryable: false, details: nil, meta: meta),
            endingFlow: true)
    }

    /// The latest completion when its code is `authCode`.
    func completion(for authCode: Sensitive<String>) -> FlowCompletion? {
        guard let completion, ConstantTime.equals(completion.authCode.revealed, authCode.revealed) else { return nil }
        return completion
    }

    // MARK: Calls

    /// Starts a flow. `authorization` holds the headers that carry an access token (the start of
    /// an account-management flow), or a failure to build them, reported before any request.
    /// With `passkey`, a sign-in with a discoverable passkey: no identifier is sent (the passkey
    /// names the account), so neither device trust nor the automatic method choice applies.
    func start(
        flowType: FlowType, identifier: String, startToken: String?, inviteCode: String?, codeChallenge: String?,
        options startOptions: FlowStartOptions = FlowStartOptions(),
        authorization: Result<[String: String], KeywayError> = .success([:]), passkey: Bool = false
    ) async {
        generation += 1
        await clear()
        let identifier = passkey ? "" : identifier.trimmingCharacters(in: .whitespacesAndNewlines)
        guard passkey || !identifier.isEmpty else {
            emitLocalError(.invalidRequest, action: .retryInput, message: "Enter your email address.",
                field: InvalidField(name: "identifier", reason: "Enter your email address."))
            return
        }
        let headers: [String: String]
        switch authorization {
        case .success(let value):
            headers = value
        case .failure(let error):
            emitLocalError(.invalidAccessToken, action: .abort, message: "The access token cannot be used: \(error)")
            return
        }
        let invalid = startOptions.invalidFields
        guard invalid.isEmpty else {
            emitLocalError(
                .invalidRequest, action: .abort,
                message: "The flow's OpenID Connect options are malformed: \(invalid.map(\.name).joined(separator: ", ")).",
                fields: invalid)
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
        var device: DeviceHint?
        if let deviceAgent, !passkey, flowType == .signin || flowType == .signup {
            device = await deviceAgent.hint(for: identifier)
        }
        let sent = SentAuthorization(
            nonce: startOptions.resolvedNonce(random: options.random, flowType: flowType), scope: startOptions.scope,
            redirectURI: startOptions.redirectURI, state: startOptions.state)
        self.sent = sent
        var body = StartFlowRequest(
            flowType: flowType, identifier: identifier, codeChallenge: challenge, codeChallengeMethod: PKCE.method,
            startToken: startToken.map { Sensitive($0) }, inviteCode: inviteCode.map { Sensitive($0) }, device: device,
            nonce: sent.nonce, scope: sent.scope, redirectUri: sent.redirectURI?.absoluteString, state: sent.state)
        if passkey { body.passkey = true }
        let request = body
        let mine = generation
        self.flowType = flowType
        self.identifier = passkey ? nil : identifier
        events.emit(.signInStarted, ["flowType": flowType.rawValue])
        broadcaster.emit(.loading)
        await handle(generation: mine) { try await self.client.startFlow(request, authorization: headers) }
    }

    /// Requests a new code. `false` while the cooldown runs (no request is sent) or when the
    /// server refuses; `true` once a new code is on its way and the prompt was re-emitted.
    func resend() async -> Bool {
        guard let step, let action = step.action(named: FlowAction.resend.name) else { return false }
        if let resendAt = step.payload.enterCode?.resendAt, options.clock.now() < resendAt { return false }
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
            await apply(outcome)
            if case .step = outcome { return true }
            return false
        } catch {
            guard mine == generation else { return false }
            await apply(error: error)
            return false
        }
    }

    func cancel() async {
        generation += 1
        let token = flowToken
        let cancelAction = step?.action(named: "cancel")
        await clear()
        broadcaster.emit(.idle, endingFlow: true)
        if let cancelAction {
            _ = try? await client.perform(action: cancelAction, parameters: [:], flowToken: token)
        }
    }

    /// Ends an `accountExists` step by staying a guest: the flow ends on the server
    /// (`stayGuest`) and here, as a cancel does; a step without the action gets its local error.
    func stayGuest() async {
        guard let action = step?.action(named: FlowAction.stayGuest.name) else {
            emitLocalError(.actionUnavailable, action: .abort, message: FlowAction.stayGuest.unavailableMessage)
            return
        }
        generation += 1
        let token = flowToken
        await clear()
        broadcaster.emit(.idle, endingFlow: true)
        _ = try? await client.perform(action: action, parameters: [:], flowToken: token)
    }

    func reset() async {
        generation += 1
        await clear()
        broadcaster.emit(.idle, endingFlow: true)
    }

    /// Performs an action of the current step by name; a step without it gets the action's
    /// local `action_unavailable` error.
    func perform(_ flowAction: FlowAction, parameters: [String: String]) async {
        guard let step else {
            emitLocalError(.noActiveFlow, action: .restartFlow, message: "There is no sign-in in progress. Start one first.")
            return
        }
        guard let action = step.action(named: flowAction.name) else {
            emitLocalError(.actionUnavailable, action: .abort, message: flowAction.unavailableMessage)
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

    /// Performs an action of the current step with a JSON body (an `Encodable` request, such as a
    /// passkey's answer), with the outcomes of any other answer: the next step, or the problem
    /// as the flow's error. With `readingStepAfterRefusal`, a refusal the flow goes on after
    /// (`retryInput`…) reads the step again before the error is emitted, and the current prompt
    /// becomes the step read (an answer that spends the step's challenge, accepted or not, leaves
    /// new options there); when it cannot be read, the next answer reads it first
    /// (``refreshStaleStep()``).
    func perform(
        _ flowAction: FlowAction, body: some Encodable & Sendable, readingStepAfterRefusal: Bool = false
    ) async {
        guard let action = stepOffering(flowAction)?.action(named: flowAction.name) else { return }
        let token = flowToken
        let mine = generation
        broadcaster.emit(.loading)
        do {
            let outcome = try await client.perform(action: action, body: body, flowToken: token)
            guard mine == generation else { return }
            if readingStepAfterRefusal, case .problem(let problem) = outcome, problem.action != .restartFlow,
                problem.action != .abort, problem.action != .selectMethod
            {
                await applyRefusal(problem, readingStepAgain: true)
                return
            }
            await apply(outcome)
        } catch {
            guard mine == generation else { return }
            // The request may have reached the server and spent the challenge.
            if readingStepAfterRefusal { stepIsStale = true }
            await apply(error: error)
        }
    }

    /// Reads the current step again when a refused answer left it stale (its challenge spent).
    /// `true` when the step is current (now or already); `false` after emitting the error of the
    /// failed read (the step stays as it was, still stale).
    func refreshStaleStep() async -> Bool {
        guard stepIsStale else { return true }
        guard let step, let selfLink = step.link(rel: "self") else {
            stepIsStale = false
            return true
        }
        let token = flowToken
        let mine = generation
        broadcaster.emit(.loading)
        do {
            let outcome = try await client.follow(link: selfLink, flowToken: token)
            guard mine == generation else { return false }
            stepIsStale = false
            if case .step(let reloaded) = outcome, reloaded.kind == step.kind {
                self.step = reloaded
                broadcaster.emit(.prompt(PromptContext(step: reloaded), Prompt(step: reloaded) ?? .unrecognized(kind: reloaded.kind)))
                return true
            }
            // The flow moved on (or ended) meanwhile: show where it is.
            await apply(outcome)
            return false
        } catch {
            guard mine == generation else { return false }
            await apply(error: error)
            return false
        }
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
            await apply(outcome)
        } catch {
            guard mine == generation else { return }
            await apply(error: error)
        }
    }

    private func apply(_ outcome: ProtocolClient.Outcome) async {
        switch outcome {
        case .step(let newStep):
            logger.log(.info, .flow, "step \(newStep.kind.rawValue)", ["flow": .plain(newStep.flowID)])
            if let token = newStep.flowToken?.revealed {
                flowToken = token
                flowId = newStep.flowID
                await saveFlow(expiresAt: newStep.flowExpiresAt)
            }
            if newStep.kind == .completed, let payload = newStep.payload.completed {
                await settleEnrolment(payload)
                let verifier = codeVerifier.map { Sensitive($0) }
                let sent = self.sent
                if let state = sent.state, !ConstantTime.equals(payload.state ?? "", state) {
                    // The completion is not the answer to this start: its code is not redeemed.
                    logger.log(.warning, .flow, "the completed step's state does not match the flow's")
                    await failCompletion(
                        .invalidResponse, action: .abort,
                        message: "The completed sign-in's state does not match the one it was started with.",
                        meta: newStep.meta)
                    return
                }
                let completed = FlowCompletion(
                    session: payload.session, authCode: payload.authCode, expiresAt: payload.expiresAt,
                    codeVerifier: verifier, nonce: sent.nonce, redirectURI: sent.redirectURI, scope: sent.scope,
                    state: payload.state, newUser: payload.newUser, meta: newStep.meta)
                completion = completed
                if verifier != nil, let saver = completionSaver.withLock({ $0 }) {
                    let generation = self.generation
                    do {
                        let saved = try await saver(completed)
                        guard generation == self.generation else { return }
                        completion?.tokens = saved
                    } catch {
                        guard generation == self.generation else { return }
                        await failSaving(because: error, flowId: newStep.flowID, meta: newStep.meta)
                        return
                    }
                }
                var data = ["flowId": newStep.flowID, "session": payload.session]
                if let flowType { data["flowType"] = flowType.rawValue }
                if let newUser = payload.newUser {
                    data["userType"] = (newUser ? KeywayEvent.UserType.new : .existing).rawValue
                }
                await clear()
                events.emit(.signInCompleted, data)
                if let merge = payload.guestMerged {
                    events.emit(.guestMerged, ["guestUserId": merge.guestUserID, "userId": merge.userID])
                }
                broadcaster.emit(
                    .completed(
                        session: payload.session, authCode: payload.authCode, expiresAt: payload.expiresAt,
                        codeVerifier: verifier, meta: newStep.meta),
                    endingFlow: true)
                return
            }
            step = newStep
            await forgetRefusedDevice(newStep)
            if await answerDeviceStep(newStep) { return }
            if await selectMethodAutomatically(on: newStep) { return }
            broadcaster.emit(.prompt(PromptContext(step: newStep), Prompt(step: newStep) ?? .unrecognized(kind: newStep.kind)))
            if Self.isPolled(newStep) { schedulePoll(after: Self.pollInterval(of: newStep)) }
        case .noContent:
            await clear()
            broadcaster.emit(.idle, endingFlow: true)
        case .problem(let problem):
            logger.log(
                .notice, .flow, "problem \(problem.code.rawValue)",
                ["action": .plain(problem.action.rawValue), "traceId": .plain(problem.traceID ?? "-")])
            if await showMethodChoice(after: problem) { return }
            if problem.action == .restartFlow || problem.action == .abort {
                var data = ["code": problem.code.rawValue, "action": problem.action.rawValue]
                if let flowType { data["flowType"] = flowType.rawValue }
                await clear()
                events.emit(.signInFailed, data)
            }
            broadcaster.emit(
                .error(
                    code: problem.code, action: problem.action, message: problem.detail, retryable: problem.retryable,
                    details: problem, meta: problem.traceID.map(Meta.init)),
                endingFlow: problem.action == .restartFlow || problem.action == .abort)
        }
    }

    /// Emits a refusal the flow goes on after, once the step was read again (its `self` link):
    /// the step read becomes the current step and prompt, under the error. When it cannot be
    /// read, the step is marked stale and the error emitted over the old prompt.
    private func applyRefusal(_ problem: Problem, readingStepAgain: Bool) async {
        logger.log(
            .notice, .flow, "problem \(problem.code.rawValue)",
            ["action": .plain(problem.action.rawValue), "traceId": .plain(problem.traceID ?? "-")])
        var prompt: (context: PromptContext, prompt: Prompt)?
        if readingStepAgain, let current = step, let selfLink = current.link(rel: "self") {
            let mine = generation
            let reloaded = try? await client.follow(link: selfLink, flowToken: flowToken)
            guard mine == generation else { return }
            if case .step(let next)? = reloaded, next.kind == current.kind {
                step = next
                stepIsStale = false
                prompt = (PromptContext(step: next), Prompt(step: next) ?? .unrecognized(kind: next.kind))
            } else {
                logger.log(.notice, .flow, "the refused step could not be read again; the next answer reads it")
                stepIsStale = true
            }
        }
        broadcaster.emit(
            .error(
                code: problem.code, action: problem.action, message: problem.detail, retryable: problem.retryable,
                details: problem, meta: problem.traceID.map(Meta.init)),
            replacingPrompt: prompt)
    }

    private func apply(error: any Error) async {
        switch error {
        case KeywayError.networkFailure(let why):
            broadcaster.emit(
                .error(
                    code: .networkError, action: .retryRequest, message: "The server could not be reached: \(why)",
                    retryable: true, details: nil, meta: nil))
        default:
            var data = ["code": ProblemCode.invalidResponse.rawValue, "action": ProblemAction.abort.rawValue]
            if let flowType { data["flowType"] = flowType.rawValue }
            await clear()
            events.emit(.signInFailed, data)
            broadcaster.emit(
                .error(
                    code: .invalidResponse, action: .abort, message: String(describing: error), retryable: false,
                    details: nil, meta: nil),
                endingFlow: true)
        }
    }

    /// Refuses an answer before any request, with a local error.
    func rejectLocally(_ code: ProblemCode, action: ProblemAction, message: String) {
        emitLocalError(code, action: action, message: message)
    }

    /// Emits an error that never reached the server: a `Problem` with status 0 and the given
    /// invalid fields, so the app handles it like any other.
    func emitLocalError(_ code: ProblemCode, action: ProblemAction, message: String, field: InvalidField? = nil) {
        emitLocalError(code, action: action, message: message, fields: field.map { [$0] } ?? [])
    }

    func emitLocalError(_ code: ProblemCode, action: ProblemAction, message: String, fields: [InvalidField]) {
        let problem = Problem(
            code: code, status: 0, title: "Invalid input", detail: message, action: action,
            invalidFields: fields.isEmpty ? nil : fields)
        broadcaster.emit(.error(code: code, action: action, message: message, retryable: false, details: problem, meta: nil))
    }

    private func clear() async {
        pollTask?.cancel()
        pollTask = nil
        stepIsStale = false
        enrolmentSent = false
        flowToken = nil
        step = nil
        identifier = nil
        automaticSelectionTried = false
        codeVerifier = nil
        flowId = nil
        sent = SentAuthorization()
        await forgetSavedFlow()
    }

    // MARK: Automatic method selection

    /// Under ``PrimaryMethodSelectionPolicy/automaticFromIdentifier``, answers the primary
    /// `selectMethod` step of a sign-in with the option the identifier makes obvious (email →
    /// `emailOtp`, E.164 phone → `smsOtp`), once per flow, without emitting the prompt. Returns
    /// `false` when it does not apply (the caller emits the prompt).
    ///
    /// When the server refuses the choice and the flow goes on, or the server cannot be reached,
    /// the `selectMethod` prompt is emitted with the refusal added to its context's messages
    /// (level `error`, the problem's code): the user chooses by hand. A refusal that ends the flow
    /// is emitted as the error it is.
    private func selectMethodAutomatically(on step: Step) async -> Bool {
        guard options.primaryMethodSelectionPolicy == .automaticFromIdentifier, flowType == .signin,
            !automaticSelectionTried, step.kind == .selectMethod, let payload = step.payload.selectMethod,
            payload.purpose == .primary, let identifier, let method = IdentifierKind(identifier).method,
            let option = payload.methods.first(where: { $0.type == method }),
            let action = step.action(named: FlowAction.selectMethod.name)
        else { return false }
        automaticSelectionTried = true
        logger.log(.info, .flow, "primary method chosen from the identifier", ["method": .plain(method.rawValue)])
        let token = flowToken
        let mine = generation
        broadcaster.emit(.loading)
        let refusal: Message
        do {
            let outcome = try await client.perform(
                action: action, parameters: ["methodId": option.id], flowToken: token)
            guard mine == generation else { return true }
            guard case .problem(let problem) = outcome, problem.action != .restartFlow, problem.action != .abort else {
                await apply(outcome)
                return true
            }
            logger.log(.notice, .flow, "automatic method choice refused: \(problem.code.rawValue)")
            refusal = Message(level: "error", code: problem.code.rawValue, text: problem.detail)
        } catch KeywayError.networkFailure(let why) {
            guard mine == generation else { return true }
            refusal = Message(
                level: "error", code: ProblemCode.networkError.rawValue, text: "The server could not be reached: \(why)")
        } catch {
            guard mine == generation else { return true }
            await apply(error: error)
            return true
        }
        var context = PromptContext(step: step)
        context.messages.append(refusal)
        broadcaster.emit(.prompt(context, Prompt(step: step) ?? .unrecognized(kind: step.kind)))
        return true
    }

    /// A refusal that sent the flow back to the choice of method (`action: selectMethod`) while
    /// the client shows another step — a provider's sign-in that failed at its callback, say:
    /// the flow is read again and its `selectMethod` prompt emitted with the refusal among its
    /// context's messages (level `error`, the problem's code), so the user chooses again. Returns
    /// `false` when it does not apply or the flow is not at a choice (the caller emits the error).
    private func showMethodChoice(after problem: Problem) async -> Bool {
        guard problem.action == .selectMethod, let current = step, current.kind != .selectMethod,
            let selfLink = current.link(rel: "self")
        else { return false }
        let token = flowToken
        let mine = generation
        guard case .step(let reloaded)? = try? await client.follow(link: selfLink, flowToken: token),
            mine == generation, reloaded.kind == .selectMethod
        else { return false }
        step = reloaded
        var context = PromptContext(step: reloaded)
        context.messages.append(Message(level: "error", code: problem.code.rawValue, text: problem.detail))
        broadcaster.emit(.prompt(context, Prompt(step: reloaded) ?? .unrecognized(kind: reloaded.kind)))
        return true
    }

    // MARK: Resumption

    private var storageKey: String { SavedFlow.key(configId: client.configId) }

    /// Keeps what a later process needs to resume the flow. Best effort: a storage failure
    /// leaves the flow running, only not resumable.
    private func saveFlow(expiresAt: Date?) async {
        guard let storage = options.resumableFlowStorage, let flowId, let flowToken else { return }
        let saved = SavedFlow(
            server: client.server.root.absoluteString, configId: client.configId, flowId: flowId, flowToken: flowToken,
            codeVerifier: codeVerifier, flowExpiresAt: expiresAt, nonce: sent.nonce, scope: sent.scope,
            redirectURI: sent.redirectURI?.absoluteString, state: sent.state)
        guard let data = try? JSONEncoder().encode(saved) else { return }
        try? await storage.write(key: storageKey, data: data)
    }

    private func forgetSavedFlow() async {
        guard let storage = options.resumableFlowStorage else { return }
        try? await storage.delete(key: storageKey)
    }

    /// Resumes the flow an earlier process saved: reads its current step (nothing is sent again)
    /// and emits it. `false` when there is nothing to resume; the saved flow is then forgotten.
    func resume() async throws -> Bool {
        guard let storage = options.resumableFlowStorage else {
            throw KeywayError.invalidConfiguration("Resuming flows needs KeywayOptions.resumableFlowStorage.")
        }
        let data: Data?
        do {
            data = try await storage.read(key: storageKey)
        } catch {
            throw KeywayError.storageUnavailable(error.description)
        }
        guard let data else { return false }
        guard let saved = try? JSONDecoder().decode(SavedFlow.self, from: data), saved.version == 1,
            saved.configId == client.configId, saved.server == client.server.root.absoluteString, saved.hasValidFlowId
        else {
            await forgetSavedFlow()
            return false
        }
        if let expiresAt = saved.flowExpiresAt, options.clock.now() >= expiresAt {
            await forgetSavedFlow()
            return false
        }
        generation += 1
        let mine = generation
        flowToken = nil
        step = nil
        broadcaster.emit(.loading)
        let outcome: ProtocolClient.Outcome
        do {
            outcome = try await client.readFlow(id: saved.flowId, flowToken: saved.flowToken)
        } catch {
            guard mine == generation else { return false }
            broadcaster.emit(.idle, endingFlow: true)
            throw error
        }
        guard mine == generation else { return false }
        switch outcome {
        case .step(let current) where current.kind != .completed:
            flowId = saved.flowId
            flowToken = saved.flowToken
            codeVerifier = saved.codeVerifier
            sent = SentAuthorization(
                nonce: saved.nonce, scope: saved.scope, redirectURI: saved.redirectURI.flatMap(URL.init(string:)),
                state: saved.state)
            step = current
            if [.deviceEnroll, .deviceChallenge, .awaitApproval].contains(current.kind) {
                // Answered or polled as any other arrival of the step.
                await apply(.step(current))
                return true
            }
            broadcaster.emit(.prompt(PromptContext(step: current), Prompt(step: current) ?? .unrecognized(kind: current.kind)))
            return true
        case .problem(let problem) where problem.retryable || problem.action == .wait || problem.action == .retryRequest:
            // The server could not tell now (busy, rate-limited, failing): the saved flow is kept
            // for the next attempt.
            broadcaster.emit(.idle, endingFlow: true)
            throw FlowError(code: problem.code, action: problem.action, message: problem.detail, problem: problem)
        default:
            // Completed, expired, cancelled or unknown to the server: nothing to pick up.
            await forgetSavedFlow()
            broadcaster.emit(.idle, endingFlow: true)
            return false
        }
    }

    // MARK: Device trust

    /// A step that says the device is not trusted any more makes the SDK forget its key.
    private func forgetRefusedDevice(_ step: Step) async {
        guard let deviceAgent, let identifier,
            step.messages.contains(where: { $0.code == DeviceTrustAgent.notRecognizedCode })
        else { return }
        logger.log(.notice, .flow, "the server no longer trusts this device; its key is forgotten")
        await deviceAgent.forget(identifier)
        events.emit(.deviceForgotten, ["reason": "notRecognized"])
    }

    /// Answers `deviceEnroll` and `deviceChallenge` steps without the app: enrols or proves the
    /// device, or skips the step when it cannot (the flow then asks for the second factor).
    /// `false` for any other step.
    private func answerDeviceStep(_ step: Step) async -> Bool {
        guard step.kind == .deviceEnroll || step.kind == .deviceChallenge else { return false }
        let mine = generation
        let token = flowToken
        var outcome: ProtocolClient.Outcome?
        do {
            if let deviceAgent, let identifier {
                if step.kind == .deviceEnroll, let payload = step.payload.deviceEnroll,
                    let action = step.action(named: "enrollDevice"),
                    let (request, fallback) = await deviceAgent.enrolment(
                        for: identifier, payload: payload, flowId: step.flowID)
                {
                    if let fallback { events.emit(.deviceKeyFallback, ["reason": fallback]) }
                    enrolmentSent = true
                    outcome = try await client.perform(action: action, body: request, flowToken: token)
                } else if step.kind == .deviceChallenge, let payload = step.payload.deviceChallenge,
                    let action = step.action(named: "proveDevice"),
                    let signature = await deviceAgent.proof(for: identifier, payload: payload, flowId: step.flowID)
                {
                    outcome = try await client.perform(
                        action: action, body: DeviceSignatureRequest(signature: signature), flowToken: token)
                }
            }
            guard mine == generation else { return true }
            if case .problem(let problem)? = outcome, problem.action != .restartFlow, problem.action != .abort {
                // A refused enrolment is not worth failing the sign-in for: go on without it.
                logger.log(.notice, .flow, "device step refused: \(problem.code.rawValue)")
                outcome = nil
            }
            if outcome == nil {
                if step.kind == .deviceEnroll, let identifier { await deviceAgent?.forget(identifier) }
                enrolmentSent = false
                guard let skip = step.action(named: "skip") else {
                    broadcaster.emit(.prompt(PromptContext(step: step), .unrecognized(kind: step.kind)))
                    return true
                }
                outcome = try await client.perform(action: skip, parameters: [:], flowToken: token)
            }
            guard mine == generation, let outcome else { return true }
            await apply(outcome)
        } catch {
            guard mine == generation else { return true }
            await apply(error: error)
        }
        return true
    }

    /// After a completed flow that enrolled the device: keep its record, or drop the key the
    /// server did not keep.
    private func settleEnrolment(_ payload: CompletedPayload) async {
        guard enrolmentSent, let deviceAgent, let identifier else { return }
        enrolmentSent = false
        if let deviceId = payload.trustedDeviceID {
            await deviceAgent.remember(deviceId, for: identifier)
            events.emit(.deviceTrusted, ["deviceId": deviceId])
        } else {
            await deviceAgent.forget(identifier)
        }
    }

    // MARK: Approval polling

    /// Whether the SDK polls `step`: an `awaitApproval` step, or an `enterCode` step whose message
    /// carried a sign-in link (approved on another device, the flow moves on).
    static func isPolled(_ step: Step) -> Bool {
        step.kind == .awaitApproval || (step.kind == .enterCode && step.payload.enterCode?.linkSent == true)
    }

    /// The seconds between polls of `step`.
    static func pollInterval(of step: Step) -> Int? {
        step.payload.awaitApproval?.pollInterval ?? step.payload.enterCode?.pollInterval
    }

    /// Polls the `awaitApproval` step (or the `enterCode` step of a sign-in link) after `seconds`
    /// (at least one), when the app lets the SDK poll.
    private func schedulePoll(after seconds: Int?) {
        pollTask?.cancel()
        pollTask = nil
        guard options.autoPollApprovals, let step, Self.isPolled(step) else { return }
        let mine = generation
        let delay = max(1, seconds ?? 2)
        pollTask = Task {
            try? await Task.sleep(for: .seconds(delay))
            guard !Task.isCancelled else { return }
            await self.poll(generation: mine)
        }
    }

    /// One automatic poll: a pending answer schedules the next one without a new prompt; any
    /// other answer is applied as usual (which ends polling).
    private func poll(generation mine: Int) async {
        guard mine == generation, let step, Self.isPolled(step), let action = step.action(named: "poll") else {
            return
        }
        let interval = Self.pollInterval(of: step)
        let outcome: ProtocolClient.Outcome
        do {
            outcome = try await client.perform(action: action, parameters: [:], flowToken: flowToken)
        } catch {
            guard mine == generation else { return }
            if let expiresAt = step.payload.awaitApproval?.expiresAt, options.clock.now() >= expiresAt {
                // The server cannot be reached and the request is over anyway: stop here.
                logger.log(.notice, .flow, "approval poll failed after the request expired; polling stops")
                await clear()
                emitLocalError(
                    .approvalExpired, action: .restartFlow,
                    message: "No trusted device approved the sign-in in time, and the server cannot be reached. Start again.")
                return
            }
            logger.log(.notice, .flow, "approval poll failed; trying again")
            schedulePoll(after: interval)
            return
        }
        guard mine == generation else { return }
        switch outcome {
        case .step(let next) where Self.isPolled(next) && next.kind == step.kind:
            self.step = next
            schedulePoll(after: Self.pollInterval(of: next))
        case .problem(let problem) where problem.code == .slowDown:
            schedulePoll(after: max(problem.retryAfterSeconds ?? 0, interval ?? 0))
        default:
            await apply(outcome)
        }
    }
}
