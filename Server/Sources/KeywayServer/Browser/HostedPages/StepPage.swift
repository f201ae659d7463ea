import Foundation
import KeywayProtocol

/// Draws a flow step as a hosted page. Every action of the step becomes a form (its fields as
/// inputs), so a step kind the pages were not written for still works; the kinds they know get
/// their displays on top (where a code went, the authenticator's QR code and key, the number to
/// match while waiting for an approval, the account's methods).
struct StepPage {
    let strings: HostedStrings
    let csrfToken: String
    let theme: HostedTheme
    let applicationName: String
    let now: Date

    /// The path every action form posts to.
    static let actionPath = "/login/action"

    func page(for step: Step, flash: BrowserFlowState.Flash?) -> HostedPage {
        var page = HostedPage(
            title: step.stepInfo?.label ?? strings("step.title"),
            subtitle: strings("subtitle.continueTo", ["application": applicationName]), theme: theme)
        if let flash { page.messages.append(HostedMessage(level: .error, text: flash.message)) }
        page.messages += step.messages.map { message in
            HostedMessage(level: HostedMessage.Level(rawValue: message.level) ?? .info, text: message.text)
        }
        var handled: Set<String> = ["cancel"]
        switch step.payload {
        case .enterCode(let code):
            // The step's own message says where the code went; the destination is shown only
            // when it does not.
            if !step.messages.contains(where: { $0.text.contains(code.destination) }) {
                page.displays.append(.value(label: strings("code.sentTo"), value: code.destination))
            }
            // A sign-in link's token comes from the link's own page, never typed here; once the
            // link is approved there, "Check again" (the step's `poll`) moves on.
            if code.linkSent == true { handled.insert("openLink") }
            if let resend = step.action(named: "resend") {
                handled.insert("resend")
                let seconds = Int(code.resendAt.timeIntervalSince(now).rounded(.up))
                var form = self.form(for: resend, flash: nil, style: .link)
                if seconds > 0 {
                    form.disabled = true
                    form.note = strings("code.resendIn", ["seconds": String(seconds)])
                }
                page.forms.append(form)
            }
        case .setupTotp(let setup):
            page.displays.append(.text(strings("totp.setupIntro")))
            page.displays.append(.qrCode(label: strings("totp.qrLabel"), data: setup.otpauthUrl.revealed))
            page.displays.append(.key(label: strings("totp.keyLabel"), value: setup.secret.revealed))
        case .enterTotp:
            page.displays.append(.text(strings("totp.enterIntro")))
        case .selectMethod(let choice):
            handled.insert("selectMethod")
            if let select = step.action(named: "selectMethod") {
                for option in choice.methods {
                    var form = HostedForm(
                        action: Self.actionPath, csrfToken: csrfToken,
                        hidden: [
                            HostedHiddenValue(name: "action", value: select.name),
                            HostedHiddenValue(name: "methodId", value: option.id),
                        ],
                        submitLabel: option.provider?.label ?? option.label, style: .secondary)
                    // The destination under the button, unless its label says it already.
                    form.note = option.destination.flatMap { option.label.contains($0) ? nil : $0 }
                    form.iconURL = option.provider?.iconURL
                    page.forms.append(form)
                }
            }
        case .redirect(let redirect):
            // The provider's page: the browser goes on at once (a refresh, not the redirect of a
            // form post, which the page's `form-action` would stop), with a link as a fallback.
            handled.insert("callback")
            let provider = Self.providerName(redirect.provider.label)
            page.displays.append(.text(strings("redirect.intro", ["provider": provider])))
            if HostedURLPolicy.isLinkTarget(redirect.url), !redirect.url.hasPrefix("/") {
                page.redirectTo = redirect.url
                page.links.append(HostedLink(text: strings("redirect.continue", ["provider": provider]), href: redirect.url))
            }
        case .passkeyRegister(let register):
            if let action = step.action(named: "registerPasskey") {
                handled.insert(action.name)
                page.displays.append(.text(strings("passkey.createIntro")))
                page.forms.append(passkeyForm(action, options: register.options, mode: .create, flash: flash))
            }
        case .passkeyAuthenticate(let authenticate):
            if let action = step.action(named: "authenticatePasskey") {
                handled.insert(action.name)
                page.displays.append(.text(strings("passkey.signInIntro")))
                page.forms.append(passkeyForm(action, options: authenticate.options, mode: .get, flash: flash))
            }
        case .awaitApproval(let approval):
            handled.insert("poll")
            page.displays.append(.value(label: strings("approval.matchingNumber"), value: approval.matchingNumber))
            page.displays.append(.qrCode(label: strings("approval.qrLabel"), data: approval.qrData.revealed))
            page.displays.append(.text(strings("approval.refreshes")))
            page.refreshAfter = max(2, approval.pollInterval)
            page.links.append(HostedLink(text: strings("approval.checkNow"), href: "/login"))
        case .manageAccount(let account):
            page.title = strings("account.title")
            let portal = AccountPortal(step: step, account: account, strings: strings, csrfToken: csrfToken)
            page.displays += portal.sections()
            handled.formUnion(portal.handled)
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
        default:
            break
        }
        var first = true
        // A step of one action (and cancel) makes it the primary button; the links beside it
        // ("Forgot password?", "Use another method") do not count.
        let buttons = step.actions.filter { !Self.linkActions.contains($0.name) }.count
        for action in step.actions where !handled.contains(action.name) && action.method == "POST" {
            let style: HostedForm.Style = first && !action.fields.isEmpty || first && buttons <= 2 ? .primary : .secondary
            // Skipping, a forgotten password and going back to the choice of method are links
            // below the buttons.
            let link = action.name == "skip" || Self.linkActions.contains(action.name)
            page.forms.append(self.form(for: action, flash: flash, style: link ? .link : style))
            if style == .primary { first = false }
        }
        // The primary action first, then the others (resend, skip) below it.
        page.forms.sort { ($0.style == .primary ? 0 : $0.style == .secondary ? 1 : 2) < ($1.style == .primary ? 0 : $1.style == .secondary ? 1 : 2) }
        page.forms.append(
            HostedForm(action: "/login/cancel", csrfToken: csrfToken, submitLabel: strings("action.cancel"), style: .link))
        return page
    }

    /// The actions a page shows as links below its buttons, never as its primary button.
    static let linkActions: Set<String> = ["forgotPassword", "anotherMethod"]

    /// The form of a passkey action: the page's script runs the ceremony with `options` and puts
    /// the answer into the form's hidden `credential` value before sending it.
    func passkeyForm<Options: Encodable>(
        _ action: Action, options: Options, mode: HostedPasskeyCeremony.Mode, flash: BrowserFlowState.Flash?
    ) -> HostedForm {
        var form = self.form(for: action, flash: flash, style: .primary)
        form.passkey = HostedPasskeyCeremony(mode, options: options, strings: strings)
        return form
    }

    /// A provider's name from its button's label: "Continue with Google" → "Google".
    static func providerName(_ label: String) -> String {
        for prefix in ["Continue with ", "Sign in with ", "Log in with "]
        where label.lowercased().hasPrefix(prefix.lowercased()) && label.count > prefix.count {
            return String(label.dropFirst(prefix.count))
        }
        return label
    }

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
