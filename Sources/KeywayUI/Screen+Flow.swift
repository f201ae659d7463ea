import Foundation
import Keyway

extension Screen {
    /// The screen for a flow's state: its current update, and its prompt (which stays under an
    /// error the flow goes on after, so the inputs stay with the error).
    ///
    /// - Parameters:
    ///   - update: ``KeywayFlow/currentUpdate``.
    ///   - prompt: ``KeywayFlow/currentPrompt``.
    /// - Returns: A screen to render.
    public static func make(update: FlowUpdate, prompt: (context: PromptContext, prompt: Prompt)?) -> Screen {
        switch update {
        case .idle:
            return Screen(kind: .idle, title: "")
        case .loading:
            guard let prompt else { return Screen(kind: .loading, title: "", isLoading: true) }
            var screen = make(prompt.context, prompt.prompt)
            screen.isLoading = true
            return screen
        case .prompt(let context, let current):
            return make(context, current)
        case .completed:
            return Screen(kind: .completed, title: "Done", messages: [ScreenMessage(level: .info, text: "You are signed in.")])
        case .error(let code, let action, let message, _, let details, _):
            let error = FlowError(code: code, action: action, message: message, problem: details)
            let banner = Banner(
                code: code, message: message, action: action, recovery: error.recovery,
                suggestion: error.recoverySuggestion)
            guard let prompt, error.recovery != .startOver, action != .abort else {
                if error.recovery == .retry {
                    // Before any step (the identifier refused, the network down): the app's own
                    // first screen, with the error.
                    return Screen(kind: .idle, title: "", banner: banner)
                }
                // The flow is over: say why and offer to start again where that helps.
                return Screen(
                    kind: .ended, title: "Sign-in stopped",
                    secondaryActions: error.recovery == .startOver
                        ? [ScreenAction(id: "restart", label: "Start again", role: .restart, actionName: nil)] : [],
                    banner: banner)
            }
            var screen = make(prompt.context, prompt.prompt)
            screen.banner = banner
            let refused = Dictionary(
                (details?.invalidFields ?? []).map { ($0.name, $0.reason) }, uniquingKeysWith: { first, _ in first })
            for index in screen.inputs.indices {
                screen.inputs[index].error = refused[screen.inputs[index].name]
            }
            if let retryAt = details?.retryAt { screen.countdowns.append(Countdown(.retryAvailable, retryAt)) }
            return screen
        }
    }

    /// The screen of one prompt: the typed prompts get their own layout; any step is also drawn
    /// from its actions and fields.
    static func make(_ context: PromptContext, _ prompt: Prompt) -> Screen {
        let step = context.step
        var screen = Screen(
            kind: .step(step.kind), title: context.stepInfo?.label ?? Self.defaultTitle(step.kind),
            messages: context.messages.map(ScreenMessage.init), links: step.links.filter { $0.rel != "self" })
        if let risk = context.risk, let message = risk.message,
            !screen.messages.contains(where: { $0.code == "risk" })
        {
            screen.messages.append(ScreenMessage(level: .warning, code: "risk", text: message))
        }
        switch prompt {
        case .selectMethod(let methods, _, let skippable):
            screen.secondaryActions = methods.map { method in
                ScreenAction(
                    id: "selectMethod:\(method.id)", label: method.label, role: .secondary, actionName: "selectMethod",
                    parameters: ["methodId": method.id])
            }
            if skippable, step.action(named: "skip") != nil {
                screen.secondaryActions.append(ScreenAction(id: "skip", label: "Not now", role: .secondary, actionName: "skip"))
            }
        case .enterCode(_, _, let expiresAt, let resendAt, _):
            screen.countdowns = [Countdown(.resendAvailable, resendAt), Countdown(.codeExpires, expiresAt)]
            screen.addPrimary(from: step, named: "submitCode")
            if let resend = step.action(named: "resend") {
                screen.secondaryActions.append(
                    ScreenAction(
                        id: "resend", label: resend.label ?? "Send a new code", role: .secondary, actionName: "resend",
                        availableAt: resendAt))
            }
        case .setupTotp(let secret, let otpauthUrl, _, _, _):
            screen.displays = [
                .qrCode(label: "Scan with your authenticator app", data: otpauthUrl),
                .secret(label: "Or type this key", value: secret),
            ]
            screen.addPrimary(from: step, named: "submitTotp")
        case .enterPassword(let purpose, let minimumLength):
            screen.addPrimary(from: step, named: "submitPassword")
            if purpose != .signIn {
                for index in screen.inputs.indices where screen.inputs[index].field.type == .password {
                    screen.inputs[index].kind = .newPassword(minimumLength: minimumLength)
                }
            }
        case .manageAccount(let methods, let operations):
            var displays: [ScreenDisplay] = [
                .list(
                    title: "Sign-in methods",
                    items: methods.map { ScreenListItem(title: $0.label, detail: $0.detail) })
            ]
            if let devices = step.manageAccount?.devices, !devices.isEmpty {
                displays.append(.list(title: "Trusted devices", items: devices.map { ScreenListItem(title: $0.name) }))
            }
            screen.displays = displays
            for operation in operations {
                let finish = operation.name == "finish"
                if finish {
                    screen.primaryAction = ScreenAction(
                        id: operation.name, label: operation.label ?? "Done", role: .primary, actionName: operation.name)
                } else {
                    screen.inputs += operation.fields.filter { $0.type != .hidden }.map(Self.input)
                    screen.secondaryActions.append(
                        ScreenAction(
                            id: operation.name, label: operation.label ?? operation.name, role: .secondary,
                            actionName: operation.name, submitsInputs: !operation.fields.isEmpty))
                }
            }
        case .awaitApproval(let matchingNumber, let qrData, let expiresAt):
            screen.displays = [
                .emphasis(label: "Check that your other device shows", value: matchingNumber),
                .qrCode(label: "Or scan this code with it", data: qrData),
            ]
            screen.countdowns = [Countdown(.approvalExpires, expiresAt)]
        case .setupSms, .enterTotp, .form, .unrecognized:
            // Drawn from the step's actions: the one with fields submits them, the others are buttons.
            screen.addFromActions(step)
        }
        if let cancel = step.action(named: "cancel") {
            screen.secondaryActions.append(
                ScreenAction(id: "cancel", label: cancel.label ?? "Cancel", role: .cancel, actionName: "cancel"))
        }
        return screen
    }

    /// Makes the action `name` of `step` the primary one, with its fields as the inputs.
    private mutating func addPrimary(from step: Step, named name: String) {
        guard let action = step.action(named: name) else { return addFromActions(step) }
        inputs = action.fields.filter { $0.type != .hidden }.map(Self.input)
        primaryAction = ScreenAction(
            id: action.name, label: action.label ?? "Continue", role: .primary, actionName: action.name,
            submitsInputs: true)
    }

    /// A step drawn from its actions alone: the first action with fields is the primary one (its
    /// fields are the inputs); the others, but `cancel`, are secondary buttons.
    private mutating func addFromActions(_ step: Step) {
        let candidates = step.actions.filter { $0.name != "cancel" }
        let primary = candidates.first { !$0.fields.isEmpty } ?? candidates.first
        if let primary {
            inputs = primary.fields.filter { $0.type != .hidden }.map(Self.input)
            primaryAction = ScreenAction(
                id: primary.name, label: primary.label ?? "Continue", role: .primary, actionName: primary.name,
                submitsInputs: true)
        }
        for action in candidates where action.name != primary?.name {
            secondaryActions.append(
                ScreenAction(id: action.name, label: action.label ?? action.name, role: .secondary, actionName: action.name))
        }
    }

    static func input(_ field: Field) -> ScreenInput {
        let kind: ScreenInput.Kind =
            switch field.type {
            case .code: .code(length: field.maxLength)
            case .text: .text
            case .email: .email
            case .phone: .phone
            case .password: field.autocomplete == "new-password" ? .newPassword(minimumLength: field.minLength) : .password
            case .select: .choice(options: field.options ?? [])
            case .checkbox: .toggle
            default: .other(field.type)
            }
        return ScreenInput(field: field, kind: kind)
    }

    static func defaultTitle(_ kind: StepKind) -> String {
        switch kind {
        case .enterCode: "Enter the code"
        case .selectMethod: "Choose how to continue"
        case .setupSms: "Add your phone number"
        case .setupTotp: "Set up your authenticator"
        case .enterTotp: "Enter the code from your authenticator"
        case .enterPassword: "Enter your password"
        case .form: "Tell us about you"
        case .manageAccount: "Your account"
        case .awaitApproval: "Approve on your other device"
        default: "Continue"
        }
    }
}

extension ScreenMessage {
    init(_ message: Message) {
        self.init(level: Level(rawValue: message.level) ?? .info, code: message.code, text: message.text)
    }
}
