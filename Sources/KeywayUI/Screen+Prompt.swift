import Foundation
import Keyway
import KeywayProtocol

extension Screen {
    /// The screen of one prompt in `language`: the typed prompts get their own layout; any step is
    /// also drawn from its actions and fields.
    static func make(_ context: PromptContext, _ prompt: Prompt, language: ScreenLanguage) -> Screen {
        let step = context.step
        var screen = Screen(
            kind: .step(step.kind),
            title: language.sent(context.stepInfo?.label) ?? Self.defaultTitle(step.kind, language),
            messages: context.messages.map(ScreenMessage.init), links: step.links.filter { $0.rel != "self" })
        screen.language = language
        if let risk = context.risk, let message = risk.message,
            !screen.messages.contains(where: { $0.code == "risk" })
        {
            screen.messages.append(ScreenMessage(level: .warning, code: "risk", text: message))
        }
        switch prompt.payload {
        case .selectMethod(let methods, let purpose, let skippable):
            screen.instruction = Self.instruction(for: purpose, language)
            screen.secondaryActions = methods.map { method in
                var label = language.sent(method.label)
                if let destination = method.destination, !label.contains(destination) { label += " (\(destination))" }
                return ScreenAction(
                    id: "selectMethod:\(method.id)", label: language.sent(method.provider?.label) ?? label,
                    role: .secondary,
                    actionName: "selectMethod", parameters: ["methodId": method.id],
                    iconURL: Self.iconURL(method.provider?.iconURL))
            }
            if skippable, step.action(named: "skip") != nil {
                screen.secondaryActions.append(
                    ScreenAction(id: "skip", label: language("Not now"), role: .secondary, actionName: "skip"))
            }
        case .enterCode(let destination, _, let expiresAt, let resendAt, let channel):
            screen.countdowns = [Countdown(.resendAvailable, resendAt), Countdown(.codeExpires, expiresAt)]
            if step.enterCode?.linkSent == true {
                screen.addLinkSent(destination: destination, channel: channel)
            }
            screen.addAttemptsLeft(step.enterCode?.attemptsRemaining)
            screen.addPrimary(from: step, named: "submitCode")
            if let resend = step.action(named: "resend") {
                screen.secondaryActions.append(
                    ScreenAction(
                        id: "resend", label: language.sent(resend.label) ?? language("Send a new code"),
                        role: .secondary, actionName: "resend",
                        availableAt: resendAt))
            }
        case .setupTotp(let secret, let otpauthUrl, let period, let digits, let algorithm):
            screen.displays = [
                .qrCode(label: language("Scan with your authenticator app"), data: otpauthUrl),
                .secret(label: language("Or type this key"), value: secret),
            ]
            if (algorithm.uppercased(), digits, period) != ("SHA1", 6, 30) {
                // Most apps assume SHA1, 6 digits and 30 seconds for a key typed by hand.
                screen.messages.append(
                    ScreenMessage(
                        level: .info, code: "totpParameters",
                        text: language(
                            "When you type the key, choose %1$@, %2$@ digits and a new code every %3$@ seconds.",
                            algorithm,
                            "\(digits)", "\(period)")))
            }
            screen.addPrimary(from: step, named: "submitTotp")
        case .enterTotp:
            screen.addAttemptsLeft(step.enterTotp?.attemptsRemaining)
            screen.addFromActions(step)
        case .setupSms(let existingPhone):
            if let existingPhone {
                screen.messages.append(
                    ScreenMessage(
                        level: .info, code: "existingPhone",
                        text: language("The phone number on your account is %@.", existingPhone)))
            }
            screen.addFromActions(step)
        case .enterPassword(let purpose, let minimumLength):
            screen.addPrimary(from: step, named: "submitPassword")
            if purpose != .signIn {
                for index in screen.inputs.indices where screen.inputs[index].field.type == .password {
                    screen.inputs[index].kind = .newPassword(minimumLength: minimumLength)
                }
            }
            screen.addSecondary(from: step, named: "forgotPassword", label: language("Forgot password?"))
        case .manageAccount(let methods, let operations):
            screen.instruction = language("What would you like to do?")
            screen.displays = Self.accountDisplays(
                methods: methods, devices: step.manageAccount?.devices,
                activationCode: step.manageAccount?.activationCode,
                passkeys: step.manageAccount?.passkeys, sessions: step.manageAccount?.sessions, language: language)
            for operation in operations {
                if operation.name == "finish" {
                    screen.primaryAction = ScreenAction(
                        id: operation.name, label: language.sent(operation.label) ?? language("Done"), role: .primary,
                        actionName: operation.name)
                } else {
                    let visible = operation.fields.filter { $0.type != .hidden }
                    // Operations that name the same input share it (the passkey to rename or remove).
                    let shown = Set(screen.inputs.map(\.name))
                    screen.inputs += visible.filter { !shown.contains($0.name) }.map { Self.input($0, language) }
                    screen.secondaryActions.append(
                        ScreenAction(
                            id: operation.name, label: language.sent(operation.label) ?? operation.name,
                            role: .secondary,
                            actionName: operation.name, submitsInputs: !operation.fields.isEmpty,
                            inputNames: visible.map(\.name)))
                }
            }
        case .awaitApproval(let matchingNumber, let qrData, let expiresAt):
            screen.displays = [
                .emphasis(label: language("Check that your other device shows"), value: matchingNumber),
                .qrCode(label: language("Or scan this code with it"), data: qrData),
            ]
            screen.countdowns = [Countdown(.approvalExpires, expiresAt)]
            screen.isWaiting = true
        case .redirect(let url, let returnScheme, let provider):
            screen.browser = ScreenBrowser(url: url, returnScheme: returnScheme, provider: provider)
            screen.addMessageUnlessSent(
                ScreenMessage(
                    level: .info, code: "redirect",
                    text: language(
                        "%@ opens in your browser; you come back here once you have signed in there.",
                        language.sent(provider.label))))
            screen.primaryAction = ScreenAction(
                id: "openBrowser", label: language.sent(provider.label), role: .openBrowser, actionName: nil,
                iconURL: Self.iconURL(provider.iconURL))
        case .linkAccount(let provider, let identifierHint):
            screen.addMessageUnlessSent(
                ScreenMessage(
                    level: .info, code: "linkAccount",
                    text: language(
                        "An account already uses this address (%1$@). Sign in to it to link your %2$@ sign-in to it.",
                        identifierHint, Self.providerName(provider))))
            screen.addFromActions(step)
        case .accountExists(let identifierHint):
            screen.addMessageUnlessSent(
                ScreenMessage(
                    level: .info, code: "accountExists",
                    text: language("%@ already has an account. Sign in to it, or go on as a guest.", identifierHint)))
            screen.instruction = language("Sign in to that account, or stay a guest?")
            // Signing in instead is the primary action, staying a guest the other one.
            screen.addPrimary(from: step, named: "signInInstead")
            if let stay = step.action(named: "stayGuest"),
                !screen.actions.contains(where: { $0.actionName == stay.name })
            {
                screen.secondaryActions.append(
                    ScreenAction(
                        id: stay.name, label: language.sent(stay.label) ?? language("Stay a guest"), role: .secondary,
                        actionName: stay.name))
            }
        case .passkeyRegister(let options, _, let skippable):
            screen.addPasskeyRegistration(step, options: options, skippable: skippable)
        case .passkeyAuthenticate(_, let purpose, let attemptsRemaining):
            screen.addPasskeySignature(step, purpose: purpose, attemptsRemaining: attemptsRemaining)
        case .form, .unrecognized:
            // Drawn from the step's actions: the one with fields submits them, the others are buttons.
            screen.addFromActions(step)
        }
        // A method chosen among others can go back to the choice.
        screen.addSecondary(from: step, named: "anotherMethod", label: language("Use another method"))
        if let cancel = step.action(named: "cancel") {
            screen.secondaryActions.append(
                ScreenAction(
                    id: "cancel", label: language.sent(cancel.label) ?? language("Cancel"), role: .cancel,
                    actionName: "cancel"))
        }
        return screen
    }

    /// Makes the action `name` of `step` the primary one, with its fields as the inputs.
    mutating func addPrimary(from step: Step, named name: String) {
        guard let action = step.action(named: name) else { return addFromActions(step) }
        inputs = action.fields.filter { $0.type != .hidden }.map { Self.input($0, language) }
        primaryAction = ScreenAction(
            id: action.name, label: language.sent(action.label) ?? language("Continue"), role: .primary,
            actionName: action.name,
            submitsInputs: true)
    }

    /// Adds the action `name` of `step` as a secondary button (labelled `label` when the server
    /// gives none), unless the step lacks it or the screen already has it.
    mutating func addSecondary(from step: Step, named name: String, label: String) {
        guard let action = step.action(named: name), !actions.contains(where: { $0.actionName == name }) else { return }
        secondaryActions.append(
            ScreenAction(
                id: action.name, label: language.sent(action.label) ?? label, role: .secondary, actionName: action.name)
        )
    }

    /// A step drawn from its actions alone: the first action with fields is the primary one (its
    /// fields are the inputs); the others, but `cancel`, are secondary buttons.
    mutating func addFromActions(_ step: Step) {
        let candidates = step.actions.filter { $0.name != "cancel" }
        let primary = candidates.first { !$0.fields.isEmpty } ?? candidates.first
        if let primary {
            inputs = primary.fields.filter { $0.type != .hidden }.map { Self.input($0, language) }
            primaryAction = ScreenAction(
                id: primary.name, label: language.sent(primary.label) ?? language("Continue"), role: .primary,
                actionName: primary.name,
                submitsInputs: true)
        }
        for action in candidates where action.name != primary?.name {
            secondaryActions.append(
                ScreenAction(
                    id: action.name, label: language.sent(action.label) ?? action.name, role: .secondary,
                    actionName: action.name))
        }
    }

    /// A warning once few wrong attempts are left at a code step.
    mutating func addAttemptsLeft(_ attemptsRemaining: Int?) {
        guard let attemptsRemaining, attemptsRemaining < 3 else { return }
        messages.append(
            ScreenMessage(
                level: .warning, code: "attemptsRemaining",
                text: attemptsRemaining == 1
                    ? language("1 attempt left.") : language("%@ attempts left.", "\(attemptsRemaining)")))
    }

    /// The account's methods, its trusted devices where the application trusts devices, its
    /// passkeys where it offers them, and where it is signed in.
    private static func accountDisplays(
        methods: [EnrolledMethod], devices: [TrustedDevice]?, activationCode: IssuedActivationCode?,
        passkeys: [PasskeySummary]?, sessions: [AccountSession]?, language: ScreenLanguage
    ) -> [ScreenDisplay] {
        var displays: [ScreenDisplay] = [
            .list(
                title: language("Sign-in methods"),
                items: methods.map { method in
                    let detail = [method.detail, method.isSecondFactor ? language("second factor") : nil].compactMap {
                        $0
                    }
                    return ScreenListItem(
                        title: language.sent(method.label),
                        detail: detail.isEmpty ? nil : detail.joined(separator: " · "))
                })
        ]
        if let devices {
            displays.append(
                .list(
                    title: language("Trusted devices"),
                    items: devices.map { device in
                        let key = device.hardwareBacked ? language("hardware key") : language("software key")
                        let until = device.trustedUntil.formatted(date: .abbreviated, time: .shortened)
                        return ScreenListItem(
                            title: device.name, detail: language("%1$@, trusted until %2$@", key, until))
                    }))
        }
        if let passkeys {
            displays.append(passkeyList(passkeys, language))
        }
        if let sessions, !sessions.isEmpty {
            displays.append(
                .list(
                    title: language("Where you are signed in"),
                    items: sessions.map { session in
                        let since = language(
                            "signed in %@", session.signedInAt.formatted(date: .abbreviated, time: .shortened))
                        return ScreenListItem(
                            title: session.application,
                            detail: session.current ? language("%@ · this session", since) : since)
                    }))
        }
        if let activationCode {
            let until = activationCode.expiresAt.formatted(date: .omitted, time: .shortened)
            displays.append(
                .emphasis(
                    label: language("Activation code for your other device (until %@)", until),
                    value: activationCode.activationCode.revealed))
            displays.append(.qrCode(label: language("Or scan it with that device"), data: activationCode.qrPayload))
        }
        return displays
    }

    /// The input of `field`, its label and placeholder translated where the catalogue knows them.
    static func input(_ field: Field, _ language: ScreenLanguage) -> ScreenInput {
        let kind: ScreenInput.Kind =
            switch field.type {
            case .code: .code(length: field.maxLength)
            case .text: .text
            case .email: .email
            case .phone: .phone
            case .password:
                field.autocomplete == "new-password" ? .newPassword(minimumLength: field.minLength) : .password
            case .select: .choice(options: field.options ?? [])
            case .checkbox: .toggle
            default: .other(field.type)
            }
        var input = ScreenInput(field: field, kind: kind, language: language)
        input.label = language.sent(input.label)
        input.placeholder = language.sent(input.placeholder)
        return input
    }

    /// An icon's URL when it is `https` (an icon of another scheme is not drawn).
    static func iconURL(_ text: String?) -> URL? {
        guard let text, let url = URL(string: text), url.scheme?.lowercased() == "https", url.host != nil else {
            return nil
        }
        return url
    }

    /// The provider's name for a sentence: its label without a leading "Continue with" or
    /// "Sign in with".
    static func providerName(_ provider: FederationProvider) -> String {
        for prefix in ["Continue with ", "Sign in with ", "Log in with "]
        where provider.label.lowercased().hasPrefix(prefix.lowercased()) && provider.label.count > prefix.count {
            return String(provider.label.dropFirst(prefix.count))
        }
        return provider.label
    }

    /// What a method choice asks, by what the method is for.
    static func instruction(for purpose: MethodPurpose, _ language: ScreenLanguage) -> String {
        let key =
            switch purpose {
            case .primary: "Choose how to sign in"
            case .secondFactor: "Choose a second factor"
            case .enrolment: "Choose a method to set up"
            case .reverification: "Confirm it is you"
            default: "Choose a method"
            }
        return language(key)
    }

    static func defaultTitle(_ kind: StepKind, _ language: ScreenLanguage) -> String {
        language(defaultTitleKey(kind))
    }

    private static func defaultTitleKey(_ kind: StepKind) -> String {
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
        case .redirect: "Sign in with another provider"
        case .linkAccount: "Sign in to link your account"
        case .accountExists: "You already have an account"
        case .passkeyRegister: "Create a passkey"
        case .passkeyAuthenticate: "Use a passkey"
        default: "Continue"
        }
    }
}

extension Screen {
    /// Adds `message` unless the server's step already carries one with its code (the server's
    /// sentence wins: it may say more, and it is never shown twice).
    mutating func addMessageUnlessSent(_ message: ScreenMessage) {
        guard !messages.contains(where: { $0.code == message.code }) else { return }
        messages.append(message)
    }
}
