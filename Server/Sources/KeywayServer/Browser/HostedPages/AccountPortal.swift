import Foundation
import KeywayProtocol

/// The account page's `manageAccount` step drawn as a portal: sections of rows, each row with
/// its own buttons. The sign-in methods, set up or not, each with what can be done to it (the
/// password's *Change*, the authenticator's *Set up* or *Remove*); the passkeys, each renamed or
/// removed in its row; the trusted devices, each stopped in its row; the sign-ins through other
/// providers; where the account is signed in, each other session signed out in its row.
/// Operations it does not know are left to ``StepPage``'s buttons; `finish` is not shown — the
/// page is the account's own, with nothing to go back to, and signing out is its last, separate
/// action (``HostedLogin/accountExtras(_:visit:strings:request:onOperation:)``).
struct AccountPortal {
    let step: Step
    let account: ManageAccountPayload
    let strings: HostedStrings
    let csrfToken: String

    /// The operations each method row carries, by the method, in the rows' order; a method not
    /// set up gets a row when one of its operations is offered (setting it up).
    static let methodOperations: [(method: AuthenticationMethod, operations: [String])] = [
        (.password, ["changePassword"]),
        (.totp, ["setupTotp", "removeTotp"]),
        (.smsOtp, ["setupSms", "removeSms"]),
    ]

    /// Every operation the portal draws itself (and `finish`, which it leaves out).
    static let drawn: Set<String> = Set(methodOperations.flatMap(\.operations)).union([
        "finish", "addPasskey", "renamePasskey", "removePasskey", "revokeDevice", "revokeAllDevices", "unlinkIdentity",
        "keepIdentity", "endSession", "endOtherSessions",
    ])

    /// The portal's sections, in order.
    func sections() -> [HostedDisplay] {
        var sections = [methods()]
        if let passkeys = passkeysSection() { sections.append(passkeys) }
        if let devices = devicesSection() { sections.append(devices) }
        if let identities = identitiesSection() { sections.append(identities) }
        if let sessions = sessionsSection() { sections.append(sessions) }
        return sections
    }

    /// The names of the step's actions the portal drew (or leaves out on purpose).
    var handled: Set<String> { Set(step.actions.map(\.name)).intersection(Self.drawn) }

    // MARK: Sections

    private func methods() -> HostedDisplay {
        var items: [HostedListItem] = []
        var listed: Set<AuthenticationMethod> = []
        // Passkeys have a section of their own, one row each.
        for method in account.methods where !(method.type == .passkey && account.passkeys != nil) {
            listed.insert(method.type)
            let forms = Self.operations(of: method.type).compactMap { rowForm($0, setUp: true) }
            items.append(HostedListItem(title: method.label, detail: method.detail, forms: forms))
        }
        // Methods not set up that can be: a row saying so, with the button that sets it up.
        for (method, operations) in Self.methodOperations where !listed.contains(method) {
            let forms = operations.compactMap { rowForm($0, setUp: false) }
            guard !forms.isEmpty else { continue }
            items.append(
                HostedListItem(
                    title: strings("account.method.\(method.rawValue)"), detail: strings("account.notSetUp"), forms: forms))
        }
        return .list(label: strings("account.methods"), items: items)
    }

    private func passkeysSection() -> HostedDisplay? {
        let passkeys = account.passkeys ?? []
        let add = step.action(named: "addPasskey").map { form($0, label: strings("account.action.addPasskey")) }
        guard !passkeys.isEmpty || add != nil else { return nil }
        let items = passkeys.map { passkey in
            var forms: [HostedForm] = []
            if let rename = step.action(named: "renamePasskey") {
                forms.append(
                    form(
                        rename, label: strings("account.action.renamePasskey"), values: ["passkeyId": passkey.id],
                        showing: ["name"], placeholder: passkey.name))
            }
            if let remove = step.action(named: "removePasskey") {
                forms.append(form(remove, label: strings("account.action.remove"), values: ["passkeyId": passkey.id]))
            }
            return HostedListItem(
                title: passkey.name, detail: strings(passkey.synced ? "passkey.synced" : "passkey.deviceBound"), forms: forms)
        }
        return .list(label: strings("account.passkeys"), items: items, actions: add.map { [$0] } ?? [])
    }

    private func devicesSection() -> HostedDisplay? {
        guard let devices = account.devices, !devices.isEmpty else { return nil }
        let revoke = step.action(named: "revokeDevice")
        let items = devices.map { device in
            HostedListItem(
                title: device.name,
                detail: strings("account.deviceSince", ["date": Self.day(device.createdAt)]),
                forms: revoke.map { [form($0, label: strings("account.action.revokeDevice"), values: ["deviceId": device.id])] }
                    ?? [])
        }
        let all = step.action(named: "revokeAllDevices").map {
            form($0, label: strings("account.action.revokeAllDevices"), style: .link)
        }
        return .list(label: strings("account.devices"), items: items, actions: all.map { [$0] } ?? [])
    }

    private func identitiesSection() -> HostedDisplay? {
        guard let identities = account.linkedIdentities, !identities.isEmpty else { return nil }
        let items = identities.map { identity in
            var forms: [HostedForm] = []
            if identity.heldSince != nil, let keep = step.action(named: "keepIdentity"),
                Self.offers(keep, "identityId", identity.id)
            {
                forms.append(form(keep, label: strings("account.action.keepIdentity"), values: ["identityId": identity.id]))
            }
            if let unlink = step.action(named: "unlinkIdentity"), Self.offers(unlink, "identityId", identity.id) {
                forms.append(form(unlink, label: strings("account.action.unlinkIdentity"), values: ["identityId": identity.id]))
            }
            let detail = [identity.email, identity.heldSince != nil ? strings("account.identityHeld") : nil]
                .compactMap { $0 }.joined(separator: " · ")
            return HostedListItem(title: identity.label, detail: detail.isEmpty ? nil : detail, forms: forms)
        }
        return .list(label: strings("account.identities"), items: items)
    }

    /// Where the account is signed in: each session by its application, this browser's first
    /// and marked so, each other with *Sign out*, and *Sign out everywhere else* below.
    private func sessionsSection() -> HostedDisplay? {
        guard let sessions = account.sessions, !sessions.isEmpty else { return nil }
        let end = step.action(named: "endSession")
        let items = sessions.sorted { $0.current && !$1.current }.map { session in
            let detail = [
                strings("account.sessionSince", ["date": Self.day(session.signedInAt)]),
                session.current ? strings("account.thisSession") : nil,
            ].compactMap { $0 }.joined(separator: " · ")
            let forms =
                session.current
                ? []
                : end.map { [form($0, label: strings("account.action.endSession"), values: ["sessionId": session.id])] }
                    ?? []
            return HostedListItem(title: session.application, detail: detail, forms: forms)
        }
        let all = step.action(named: "endOtherSessions").map {
            form($0, label: strings("account.action.endOtherSessions"), style: .link)
        }
        return .list(label: strings("account.sessions"), items: items, actions: all.map { [$0] } ?? [])
    }

    // MARK: Forms

    /// The operations of `method` the step offers, in the portal's order.
    private static func operations(of method: AuthenticationMethod) -> [String] {
        methodOperations.first { $0.method == method }?.operations ?? []
    }

    /// A method row's button for `operation`, when the step offers it: a short label (*Change*,
    /// *Set up*, *Remove*) — the row says what it acts on.
    private func rowForm(_ operation: String, setUp: Bool) -> HostedForm? {
        guard let action = step.action(named: operation) else { return nil }
        let key = setUp ? "account.action.\(operation)" : "account.action.setUp"
        return form(action, label: strings.has(key) ? strings(key) : action.label ?? operation)
    }

    /// The form of `action` in a row: `values` fill its fields as hidden values (the row's
    /// device or passkey); the fields named in `showing` stay inputs.
    private func form(
        _ action: Action, label: String, values: [String: String] = [:], showing: Set<String> = [],
        placeholder: String? = nil, style: HostedForm.Style = .secondary
    ) -> HostedForm {
        var hidden = [HostedHiddenValue(name: "action", value: action.name)]
        var fields: [HostedField] = []
        for field in action.fields {
            if let value = values[field.name] {
                hidden.append(HostedHiddenValue(name: field.name, value: value))
            } else if field.type == .hidden {
                hidden.append(HostedHiddenValue(name: field.name, value: field.value ?? ""))
            } else if showing.contains(field.name) {
                var input = StepPage.input(for: field, error: nil)
                input.value = placeholder
                fields.append(input)
            }
        }
        return HostedForm(
            action: StepPage.actionPath, csrfToken: csrfToken, hidden: hidden, fields: fields, submitLabel: label,
            style: style)
    }

    /// Whether `action`'s choice `field` offers `value` (an identity that can be unlinked).
    private static func offers(_ action: Action, _ field: String, _ value: String) -> Bool {
        guard let choice = action.fields.first(where: { $0.name == field }) else { return false }
        return choice.options?.contains { $0.value == value } ?? true
    }

    /// A day as `24 Nov 2026`, in UTC.
    static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "d MMM yyyy"
        return formatter.string(from: date)
    }
}
