import Foundation
import KeywayProtocol

/// Turns a flow's progress into the wire step: what every step has (the `self` link, notices,
/// the risk message, `cancel`), the steps of the engine's own stages (a choice of method, the
/// sign-up form, the account's methods, completion), and, for a method's stage, what its module
/// (``FlowMethod/step(for:_:into:using:)``) fills in.
struct StepBuilder: Sendable {
    let engine: FlowEngine

    func step(for context: FlowEngine.Context, flowToken: Sensitive<String>?, traceId: String) -> Step {
        let flow = context.flow
        let progress = context.progress
        let base = "/v1/flows/\(flow.id)"
        let step = Step(
            flowID: flow.id, payload: .none(.selectMethod), links: [Link(rel: "self", href: base)], risk: progress.risk,
            flowExpiresAt: Date(epochMilliseconds: flow.expiresAt), flowToken: flowToken, meta: Meta(traceID: traceId))
        if let completion = context.completion {
            return completed(step, context: context, completion: completion)
        }
        var draft = StepDraft(base: base, payload: .none(.selectMethod))
        if let notice = progress.notice, let text = engine.methods.noticeTexts[notice] {
            draft.messages.append(Message(level: "info", code: notice, text: text))
        }
        if let risk = progress.risk, let message = risk.message {
            draft.messages.append(Message(level: "warning", code: "risk", text: message))
        }
        switch progress.stage {
        case .choosing(let choice):
            draft.info = Self.info(for: choice.purpose)
            let options = choice.options.map { method in
                engine.methods.module(method)?.option(for: choice.purpose, context)
                    ?? MethodOption(id: method.rawValue, type: method, label: method.rawValue)
            }
            draft.payload = .selectMethod(
                SelectMethodPayload(methods: options, purpose: choice.purpose, skippable: choice.skippable))
            draft.post(
                "selectMethod", "method", label: "Continue",
                fields: [
                    Field(
                        name: "methodId", type: .select, required: true, label: "Method",
                        options: options.map { FieldOption(value: $0.id, label: $0.label) })
                ])
            if choice.skippable { draft.post("skip", "skip", label: "Not now") }
        case .method(let active):
            engine.methods.module(active.method)?.step(
                for: active, context, into: &draft, using: StepResources(limits: engine.limits, secrets: engine.secrets))
            if engine.alternatives(context) != nil {
                draft.post("anotherMethod", "anotherMethod", label: "Use another method")
            }
        case .form:
            draft.info = StepInfo(id: "profile", label: "Tell us about you")
            draft.payload = .form(FormPayload(formID: "profile", title: "About you"))
            var fields = SignupForm.fields(for: context.policy)
            if let name = engine.methods.externalIdentities.lazy.compactMap({ $0.signUpName(context, secrets: engine.secrets) }).first {
                // A sign-up through a provider: its name fills the form's name field in.
                for index in fields.indices
                where fields[index].type == .text && fields[index].value == nil
                    && (["name", "displayName"].contains(fields[index].name) || fields[index].autocomplete == "name")
                {
                    fields[index].value = name
                }
            }
            draft.post("submitForm", "form", label: "Continue", fields: fields)
        case .accountExists:
            draft.info = StepInfo(id: "accountExists", label: "You already have an account")
            draft.payload = .accountExists(AccountExistsPayload(identifierHint: context.identifier.masked))
            draft.messages.append(
                Message(
                    level: "info", code: "accountExists",
                    text: "\(context.identifier.masked) already has an account. Sign in to it, or go on as a guest."))
            draft.post("signInInstead", "signInInstead", label: "Sign in to that account")
            draft.post("stayGuest", "stayGuest", label: "Stay a guest")
        case .manageAccount:
            draft.info = StepInfo(id: "manageAccount", label: "Your sign-in methods")
            var payload = ManageAccountPayload(
                methods: engine.methods.all((any AccountListedMethod).self).compactMap { $0.enrolledMethod(context) },
                activationCode: engine.issuedActivationCode(context), sessions: FlowEngine.accountSessions(context))
            // Each method's own part: the trusted devices, the linked identities, the passkeys.
            for method in engine.methods.accountPageMethods { method.fill(&payload, context) }
            draft.payload = .manageAccount(payload)
            for (operation, _) in FlowEngine.operations(context, methods: engine.methods) {
                draft.post(operation.name, "manage/\(operation.name)", label: operation.label, fields: operation.fields)
            }
        }
        var built = step
        built.payload = draft.payload
        built.stepInfo = draft.info
        built.messages = draft.messages
        built.actions = draft.actions + [Action(name: "cancel", href: base, method: "DELETE", label: "Cancel")]
        return built
    }

    private func completed(_ base: Step, context: FlowEngine.Context, completion: FlowEngine.Completion) -> Step {
        var step = base
        step.links = []
        step.flowExpiresAt = nil
        let (info, text): (StepInfo, String) =
            switch context.progress.mode {
            case .signUp: (StepInfo(id: "completed", label: "Account created"), "Your account is ready.")
            case .manage: (StepInfo(id: "completed", label: "Account updated"), "Your changes are saved.")
            case .signIn: (StepInfo(id: "completed", label: "Signed in"), "You are signed in.")
            }
        step.stepInfo = info
        step.messages = [Message(level: "info", code: "signedIn", text: text)]
        step.payload = .completed(
            CompletedPayload(
                authCode: Sensitive(completion.authCode), expiresAt: Date(epochMilliseconds: completion.expiresAt),
                session: completion.sessionId, newUser: completion.newUser, trustedDeviceID: completion.trustedDeviceId,
                state: context.progress.authorization?.state, guestMerged: completion.guestMerged))
        return step
    }

    static func codeField(length: Int) -> Field {
        Field(
            name: "code", type: .code, required: true, label: "Code", placeholder: String(repeating: "0", count: length),
            autocomplete: "one-time-code", minLength: length, maxLength: length, pattern: "^[0-9]{\(length)}$")
    }

    static func info(for purpose: MethodPurpose) -> StepInfo {
        switch purpose {
        case .secondFactor: StepInfo(id: "secondFactor", label: "Second factor")
        case .enrolment: StepInfo(id: "setUpSecondFactor", label: "Set up a second factor")
        case .reverification: StepInfo(id: "verifyIdentity", label: "Verify your identity")
        default: StepInfo(id: "chooseMethod", label: "Choose how to sign in")
        }
    }
}
