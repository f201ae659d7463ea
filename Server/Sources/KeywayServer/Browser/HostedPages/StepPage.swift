import Foundation
import KeywayPresentation
import KeywayProtocol

/// Draws a flow step as a hosted page from its screen: KeywayPresentation's `Screen`, the one
/// mapping of steps to screens that KeywayUI's SwiftUI views and the CLI draw too. The screen's
/// title, messages, displays, inputs and buttons become the page's, each button a form. What only
/// a browser does comes on top: a passkey button runs its ceremony in the page, a provider's page
/// opens at once, a wait for an approval reloads itself, and the account step is the portal
/// (``AccountPortal``). An action of the step that no button of the screen stands for still gets a
/// form, so no step is ever stuck.
struct StepPage {
    let strings: HostedStrings
    let csrfToken: String
    let theme: HostedTheme
    let applicationName: String
    let now: Date
    /// How the step kinds KeywayPresentation has no layout for are drawn.
    var screens: StepScreens = .standard

    /// The path every action form posts to.
    static let actionPath = "/login/action"

    /// The screen's words in the pages' language, so that a page never mixes two.
    var language: ScreenLanguage { ScreenLanguage(strings.locale) }

    func page(for step: Step, flash: BrowserFlowState.Flash?) -> HostedPage {
        if case .manageAccount(let account) = step.payload { return accountPage(step, account: account, flash: flash) }
        let screen = Screen(step: step, language: language, screens: screens)
        var page = HostedPage(
            title: screen.title, subtitle: strings("subtitle.continueTo", ["application": applicationName]), theme: theme)
        if let flash { page.messages.append(HostedMessage(level: .error, text: flash.message)) }
        page.messages += screen.messages.map { HostedMessage(level: .init(rawValue: $0.level.rawValue) ?? .info, text: $0.text) }
        // The instruction, unless the title says it already ("Choose how to sign in").
        if let instruction = screen.instruction, instruction != screen.title { page.displays.append(.text(instruction)) }
        page.displays += screen.displays.flatMap(Self.displays)
        // The screen's buttons, each a form; a provider's page opens by itself instead.
        var shown: Set<String> = ["cancel"]
        for action in screen.actions where action.role == .primary || action.role == .secondary {
            guard let name = action.actionName, let stepAction = step.action(named: name) else { continue }
            shown.insert(name)
            page.forms.append(form(for: action, on: screen, stepAction: stepAction, step: step, flash: flash))
        }
        addBrowserOnly(to: &page, step: step, shown: &shown)
        // Any other action of the step, so that none is out of reach.
        for action in step.actions where !shown.contains(action.name) && action.method == "POST" {
            page.forms.append(self.form(for: action, flash: flash, style: .secondary))
        }
        page.forms.sort { Self.rank($0.style) < Self.rank($1.style) }
        page.forms.append(
            HostedForm(action: "/login/cancel", csrfToken: csrfToken, submitLabel: strings("action.cancel"), style: .link))
        return page
    }

    /// What a browser does that a screen leaves to its renderer: a provider's page opens at once
    /// (a refresh, not the redirect of a form post, which the page's `form-action` would stop),
    /// with a link as a fallback; a wait for an approval reloads the page; a sign-in link's token
    /// comes from the link's own page, never from a form here.
    private func addBrowserOnly(to page: inout HostedPage, step: Step, shown: inout Set<String>) {
        switch step.payload {
        case .redirect(let redirect):
            shown.insert("callback")
            if HostedURLPolicy.isLinkTarget(redirect.url), !redirect.url.hasPrefix("/") {
                page.redirectTo = redirect.url
                page.links.append(HostedLink(text: language.sent(redirect.provider.label), href: redirect.url))
            }
        case .awaitApproval(let approval):
            shown.insert("poll")
            page.displays.append(.text(strings("approval.refreshes")))
            page.refreshAfter = max(2, approval.pollInterval)
            page.links.append(HostedLink(text: strings("approval.checkNow"), href: "/login"))
        case .enterCode(let code) where code.linkSent == true:
            shown.insert("openLink")
        default:
            break
        }
    }

    /// The account step: the portal's sections, then the step's other operations as buttons.
    private func accountPage(_ step: Step, account: ManageAccountPayload, flash: BrowserFlowState.Flash?) -> HostedPage {
        var page = HostedPage(title: strings("account.title"), theme: theme)
        if let flash { page.messages.append(HostedMessage(level: .error, text: flash.message)) }
        page.messages += step.messages.map { message in
            HostedMessage(level: HostedMessage.Level(rawValue: message.level) ?? .info, text: message.text)
        }
        let portal = AccountPortal(step: step, account: account, strings: strings, csrfToken: csrfToken)
        page.displays += portal.sections()
        var handled = portal.handled.union(["cancel"])
        if let create = step.action(named: "createActivationCode") {
            // Which application the other device's code is for, with the devices it lists.
            handled.insert(create.name)
            page.displays.append(
                .list(
                    label: strings("activation.section", ["application": applicationName]), items: [],
                    actions: [self.form(for: create, flash: flash, style: .secondary)]))
        }
        if let issued = account.activationCode {
            page.messages.append(
                HostedMessage(
                    level: .success,
                    text: strings("activation.codeMade", ["expires": HostedLogin.clockTime(issued.expiresAt)])))
            page.displays.append(.value(label: strings("activation.code"), value: issued.activationCode.revealed))
            page.displays.append(.qrCode(label: strings("activation.qrLabel"), data: issued.qrPayload.revealed))
        }
        for action in step.actions where !handled.contains(action.name) && action.method == "POST" {
            page.forms.append(self.form(for: action, flash: flash, style: .secondary))
        }
        page.forms.append(
            HostedForm(action: "/login/cancel", csrfToken: csrfToken, submitLabel: strings("action.cancel"), style: .link))
        return page
    }

    /// The form of one button of the screen: the inputs it sends that its action declares, its
    /// action's name, values and hidden fields, a countdown while it waits, a passkey ceremony.
    private func form(
        for action: ScreenAction, on screen: Screen, stepAction: Action, step: Step, flash: BrowserFlowState.Flash?
    ) -> HostedForm {
        let declared = Set(stepAction.fields.map(\.name))
        var hidden = [HostedHiddenValue(name: "action", value: stepAction.name)]
        hidden += action.parameters.sorted { $0.key < $1.key }.map { HostedHiddenValue(name: $0.key, value: $0.value) }
        hidden += stepAction.fields.filter { $0.type == .hidden }.map { HostedHiddenValue(name: $0.name, value: $0.value ?? "") }
        let fields = screen.inputs(of: action).filter { declared.contains($0.name) }.map { input in
            var field = Self.input(for: input.field, error: flash?.fields[input.name] ?? input.error)
            field.label = input.label
            return field
        }
        let style: HostedForm.Style =
            action.role == .primary ? .primary : Self.linkActions.contains(stepAction.name) ? .link : .secondary
        var form = HostedForm(
            action: Self.actionPath, csrfToken: csrfToken, hidden: hidden, fields: fields, submitLabel: action.label,
            style: style)
        form.iconURL = action.iconURL?.absoluteString
        if let availableAt = action.availableAt, availableAt > now {
            form.disabled = true
            form.note = strings("code.resendIn", ["seconds": String(Int(availableAt.timeIntervalSince(now).rounded(.up)))])
        }
        switch step.payload {
        case .passkeyRegister(let register) where stepAction.name == "registerPasskey":
            form.passkey = HostedPasskeyCeremony(.create, options: register.options, strings: strings)
        case .passkeyAuthenticate(let authenticate) where stepAction.name == "authenticatePasskey":
            form.passkey = HostedPasskeyCeremony(.get, options: authenticate.options, strings: strings)
        default:
            break
        }
        return form
    }

    /// A screen's display on a page; a QR code's label is said above it too ("Scan with your
    /// authenticator app"), not only as its accessible name.
    private static func displays(_ display: ScreenDisplay) -> [HostedDisplay] {
        switch display {
        case .secret(let label, let value): [.key(label: label, value: value.revealed)]
        case .qrCode(let label, let data): [.text(label), .qrCode(label: label, data: data.revealed)]
        case .emphasis(let label, let value): [.value(label: label, value: value)]
        case .list(let title, let items):
            [.list(label: title, items: items.map { HostedListItem(title: $0.title, detail: $0.detail) })]
        }
    }

    /// Primary buttons first, then the others, then the links.
    private static func rank(_ style: HostedForm.Style) -> Int {
        switch style {
        case .primary: 0
        case .secondary: 1
        case .link: 2
        }
    }

    /// The actions a page shows as links below its buttons, never as its primary button.
    static let linkActions: Set<String> = ["forgotPassword", "anotherMethod", "skip", "resend"]

    /// The form of one action: its fields as inputs, its name as a hidden value.
    func form(for action: Action, flash: BrowserFlowState.Flash?, style: HostedForm.Style) -> HostedForm {
        var hidden = [HostedHiddenValue(name: "action", value: action.name)]
        var fields: [HostedField] = []
        for field in action.fields {
            if field.type == .hidden {
                hidden.append(HostedHiddenValue(name: field.name, value: field.value ?? ""))
                continue
            }
            fields.append(Self.input(for: field, error: flash?.fields[field.name]))
        }
        return HostedForm(
            action: Self.actionPath, csrfToken: csrfToken, hidden: hidden, fields: fields,
            submitLabel: action.label ?? action.name, style: style)
    }

    /// The input of a flow field.
    static func input(for field: Field, error: String?) -> HostedField {
        let kind: HostedField.Kind =
            switch field.type {
            case .email: .email
            case .phone: .tel
            case .password: .password
            case .code: .code
            case .checkbox: .checkbox
            case .select: .select
            default: .text
            }
        let autocomplete =
            field.autocomplete
            ?? (kind == .code ? "one-time-code" : kind == .email ? "email" : kind == .tel ? "tel" : nil)
        var input = HostedField(
            name: field.name, label: field.label ?? field.name, kind: kind, required: field.required,
            value: kind == .password || kind == .code ? nil : field.value, autocomplete: autocomplete,
            minLength: field.minLength, maxLength: field.maxLength, pattern: field.pattern.map(Self.htmlPattern),
            hint: hint(for: field, kind: kind), error: error,
            options: (field.options ?? []).map { HostedOption(value: $0.value, label: $0.label) })
        if kind == .checkbox, let url = Self.firstURL(in: input.label) {
            // "I accept the terms of service (https://…)": the address becomes the link.
            input.link = HostedLink(text: url, href: url)
            input.label = input.label.replacingOccurrences(of: " (\(url))", with: "")
        }
        return input
    }

    /// A field's placeholder as the hint under its input ("For example +14155550123"); none for
    /// a code, whose placeholder is only zeros.
    private static func hint(for field: Field, kind: HostedField.Kind) -> String? {
        guard kind != .code, let example = field.placeholder, !example.isEmpty else { return nil }
        return HostedStrings.english("field.example", ["example": example])
    }

    /// A pattern as the HTML `pattern` attribute takes it: anchored already, without `^…$`.
    static func htmlPattern(_ pattern: String) -> String {
        var text = pattern
        if text.hasPrefix("^") { text.removeFirst() }
        if text.hasSuffix("$") { text.removeLast() }
        return text
    }

    private static func firstURL(in text: String) -> String? {
        guard let range = text.range(of: "https://") ?? text.range(of: "http://") else { return nil }
        let url = text[range.lowerBound...].prefix { !$0.isWhitespace && $0 != ")" }
        return String(url)
    }
}
