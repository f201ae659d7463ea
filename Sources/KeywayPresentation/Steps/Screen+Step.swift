import Foundation
import KeywayProtocol

extension Screen {
    /// The screen of `step`: the kinds this module knows get their own layout (a code's
    /// countdowns, an authenticator's QR code, a method choice's buttons); a kind `screens` maps
    /// is drawn by its mapping; any other kind is drawn from its actions and fields. The step's
    /// "Use another method" and "Cancel" come last on every screen.
    ///
    /// ```swift
    /// let screen = Screen(step: step, language: ScreenLanguage("de"))
    /// ```
    ///
    /// - Parameters:
    ///   - step: The flow's step.
    ///   - messages: The sentences to show, when not the step's own (an SDK adds the reason an
    ///     automatic choice was refused).
    ///   - language: The language of the words the screen writes itself.
    ///   - screens: The mappings of step kinds this module does not know (default: none).
    public init(
        step: Step, messages: [Message]? = nil, language: ScreenLanguage = .current, screens: StepScreens = .standard
    ) {
        self.init(
            kind: .step(step.kind),
            title: language.sent(step.stepInfo?.label) ?? Self.defaultTitle(step.kind, language),
            messages: (messages ?? step.messages).map(ScreenMessage.init),
            links: step.links.filter { $0.rel != "self" }, language: language)
        if let risk = step.risk, let message = risk.message, !self.messages.contains(where: { $0.code == "risk" }) {
            self.messages.append(ScreenMessage(level: .warning, code: "risk", text: message))
        }
        if let mapping = screens[step.kind] {
            mapping(step, &self)
        } else {
            addStandardLayout(of: step)
        }
        // A method chosen among others can go back to the choice.
        addSecondary(from: step, named: "anotherMethod", label: language("Use another method"))
        if let cancel = step.action(named: "cancel") {
            secondaryActions.append(
                ScreenAction(
                    id: "cancel", label: language.sent(cancel.label) ?? language("Cancel"), role: .cancel,
                    actionName: "cancel"))
        }
    }

    /// The layout of the step kinds this module knows; a step of another kind, or of a known kind
    /// whose payload is missing, is drawn from its actions.
    private mutating func addStandardLayout(of step: Step) {
        switch step.payload {
        case .selectMethod(let choice):
            instruction = Self.instruction(for: choice.purpose, language)
            secondaryActions = choice.methods.map { method in
                var label = language.sent(method.label)
                if let destination = method.destination, !label.contains(destination) { label += " (\(destination))" }
                return ScreenAction(
                    id: "selectMethod:\(method.id)", label: language.sent(method.provider?.label) ?? label,
                    role: .secondary,
                    actionName: "selectMethod", parameters: ["methodId": method.id],
                    iconURL: Self.iconURL(method.provider?.iconURL))
            }
            if choice.skippable, step.action(named: "skip") != nil {
                secondaryActions.append(
                    ScreenAction(id: "skip", label: language("Not now"), role: .secondary, actionName: "skip"))
            }
        case .enterCode(let code):
            let resendAt = code.resendAt
            countdowns = [Countdown(.resendAvailable, resendAt), Countdown(.codeExpires, code.expiresAt)]
            if code.linkSent == true {
                addLinkSent(destination: code.destination, channel: code.channel)
            }
            addAttemptsLeft(code.attemptsRemaining)
            addPrimary(from: step, named: "submitCode")
            if let resend = step.action(named: "resend") {
                secondaryActions.append(
                    ScreenAction(
                        id: "resend", label: language.sent(resend.label) ?? language("Send a new code"),
                        role: .secondary, actionName: "resend",
                        availableAt: resendAt))
            }
        case .setupTotp(let setup):
            let (secret, otpauthUrl, period, digits, algorithm) = (
                setup.secret, setup.otpauthUrl, setup.period, setup.digits, setup.algorithm
            )
            displays = [
                .qrCode(label: language("Scan with your authenticator app"), data: otpauthUrl),
                .secret(label: language("Or type this key"), value: secret),
            ]
            if (algorithm.uppercased(), digits, period) != ("SHA1", 6, 30) {
                // Most apps assume SHA1, 6 digits and 30 seconds for a key typed by hand.
                messages.append(
                    ScreenMessage(
                        level: .info, code: "totpParameters",
                        text: language(
                            "When you type the key, choose %1$@, %2$@ digits and a new code every %3$@ seconds.",
                            algorithm,
                            "\(digits)", "\(period)")))
            }
            addPrimary(from: step, named: "submitTotp")
        case .enterTotp(let totp):
            instruction = language("Enter the code from your authenticator")
            addAttemptsLeft(totp.attemptsRemaining)
            addFromActions(step)
        case .setupSms(let sms):
            if let existingPhone = sms.existingPhone {
                messages.append(
                    ScreenMessage(
                        level: .info, code: "existingPhone",
                        text: language("The phone number on your account is %@.", existingPhone)))
            }
            addFromActions(step)
        case .enterPassword(let password):
            addPrimary(from: step, named: "submitPassword")
            if password.purpose != .signIn {
                for index in inputs.indices where inputs[index].field.type == .password {
                    inputs[index].kind = .newPassword(minimumLength: password.minimumLength)
                }
            }
            addSecondary(from: step, named: "forgotPassword", label: language("Forgot password?"))
        case .manageAccount(let account):
            instruction = language("What would you like to do?")
            displays = Self.accountDisplays(
                methods: account.methods, devices: account.devices, activationCode: account.activationCode,
                passkeys: account.passkeys, sessions: account.sessions, language: language)
            for operation in step.actions where operation.name != "cancel" {
                if operation.name == "finish" {
                    primaryAction = ScreenAction(
                        id: operation.name, label: language.sent(operation.label) ?? language("Done"), role: .primary,
                        actionName: operation.name)
                } else {
                    let visible = operation.fields.filter { $0.type != .hidden }
                    // Operations that name the same input share it (the passkey to rename or remove).
                    let shown = Set(inputs.map(\.name))
                    inputs += visible.filter { !shown.contains($0.name) }.map { Self.input($0, language) }
                    secondaryActions.append(
                        ScreenAction(
                            id: operation.name, label: language.sent(operation.label) ?? operation.name,
                            role: .secondary,
                            actionName: operation.name, submitsInputs: !operation.fields.isEmpty,
                            inputNames: visible.map(\.name)))
                }
            }
        case .awaitApproval(let approval):
            displays = [
                .emphasis(label: language("Check that your other device shows"), value: approval.matchingNumber),
                .qrCode(label: language("Or scan this code with it"), data: approval.qrData),
            ]
            countdowns = [Countdown(.approvalExpires, approval.expiresAt)]
            isWaiting = true
        case .redirect(let redirect):
            guard let url = Self.browserURL(redirect.url), !redirect.returnScheme.isEmpty else {
                return addFromActions(step)
            }
            let provider = redirect.provider
            browser = ScreenBrowser(url: url, returnScheme: redirect.returnScheme.lowercased(), provider: provider)
            addMessageUnlessSent(
                ScreenMessage(
                    level: .info, code: "redirect",
                    text: language("You sign in at %@, then come back here.", Self.providerName(provider))))
            primaryAction = ScreenAction(
                id: "openBrowser", label: language.sent(provider.label), role: .openBrowser, actionName: nil,
                iconURL: Self.iconURL(provider.iconURL))
        case .linkAccount(let link):
            let (provider, identifierHint) = (link.provider, link.identifierHint)
            addMessageUnlessSent(
                ScreenMessage(
                    level: .info, code: "linkAccount",
                    text: language(
                        "An account already uses this address (%1$@). Sign in to it to link your %2$@ sign-in to it.",
                        identifierHint, Self.providerName(provider))))
            addFromActions(step)
        case .accountExists(let exists):
            let identifierHint = exists.identifierHint
            addMessageUnlessSent(
                ScreenMessage(
                    level: .info, code: "accountExists",
                    text: language("%@ already has an account. Sign in to it, or go on as a guest.", identifierHint)))
            instruction = language("Sign in to that account, or stay a guest?")
            // Signing in instead is the primary action, staying a guest the other one.
            addPrimary(from: step, named: "signInInstead")
            if let stay = step.action(named: "stayGuest"),
                !actions.contains(where: { $0.actionName == stay.name })
            {
                secondaryActions.append(
                    ScreenAction(
                        id: stay.name, label: language.sent(stay.label) ?? language("Stay a guest"), role: .secondary,
                        actionName: stay.name))
            }
        case .passkeyRegister(let register):
            addPasskeyRegistration(
                step, options: register.options, skippable: step.action(named: "skip") != nil)
        case .passkeyAuthenticate(let authenticate):
            addPasskeySignature(
                step, purpose: authenticate.purpose, attemptsRemaining: authenticate.attemptsRemaining)
        default:
            // A form, or a kind without a layout: drawn from the step's actions (the one with
            // fields submits them, the others are buttons).
            addFromActions(step)
        }
    }

    /// `text` as a URL a browser may open: absolute, `http` or `https`, with a host.
    static func browserURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    /// Makes the action `name` of `step` the primary one, with its fields as the inputs; without
    /// that action, the screen is drawn from the step's actions (``addFromActions(_:)``).
    ///
    /// - Parameters:
    ///   - step: The step drawn.
    ///   - name: The action's name (`submitCode`).
    public mutating func addPrimary(from step: Step, named name: String) {
        guard let action = step.action(named: name) else { return addFromActions(step) }
        inputs = action.fields.filter { $0.type != .hidden }.map { Self.input($0, language) }
        primaryAction = ScreenAction(
            id: action.name, label: language.sent(action.label) ?? language("Continue"), role: .primary,
            actionName: action.name,
            submitsInputs: true)
    }

    /// Adds the action `name` of `step` as a secondary button (labelled `label` when the server
    /// gives none), unless the step lacks it or the screen already has it.
    ///
    /// - Parameters:
    ///   - step: The step drawn.
    ///   - name: The action's name (`forgotPassword`).
    ///   - label: The button's text when the server sends none.
    public mutating func addSecondary(from step: Step, named name: String, label: String) {
        guard let action = step.action(named: name), !actions.contains(where: { $0.actionName == name }) else { return }
        secondaryActions.append(
            ScreenAction(
                id: action.name, label: language.sent(action.label) ?? label, role: .secondary, actionName: action.name)
        )
    }

    /// A step drawn from its actions alone: the first action with fields is the primary one (its
    /// fields are the inputs); the others, but `cancel`, are secondary buttons.
    ///
    /// - Parameter step: The step drawn.
    public mutating func addFromActions(_ step: Step) {
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
