import Foundation
import KeywayProtocol

extension ApplicationPolicy {
    /// Checks every rule (docs/admin.md lists them) and throws all the problems found at once.
    ///
    /// In dev mode messages go to the dev outbox, so SMS needs no webhook; outside dev mode a
    /// policy using ``AuthenticationMethod/smsOtp`` needs ``DeliverySettings/sms``.
    public func validate(devMode: Bool) throws(PolicyError) {
        try validate(devMode: devMode, methods: .standard)
    }

    /// Why no user who never signed in could sign in with the primary methods, if so: each method
    /// either works from the first visit (a code sent to the identifier), is set up at sign-up (a
    /// password, a passkey: only while sign-up is open), or is set up once signed in (an
    /// authenticator), as the methods themselves say.
    private func lockOutProblem(signupOpen: Bool, methods: MethodRegistry) -> String? {
        guard !primaryMethods.isEmpty, !primaryMethods.contains(where: methods.worksWithoutEnrolment) else { return nil }
        let atSignUp = primaryMethods.filter(methods.isSetUpAtSignUp)
        if signupOpen, !atSignUp.isEmpty { return nil }
        let fromFirstVisit = Self.list(methods.primaryMethods.filter(methods.worksWithoutEnrolment))
        let later = primaryMethods.filter { methods.canBePrimary($0) && !methods.isSetUpAtSignUp($0) }
        let laterClause = later.isEmpty ? "" : ", and \(Self.list(later)) can only be set up after signing in"
        if !atSignUp.isEmpty {
            return "This policy would lock every user out: with sign-up closed no one can ever set up \(Self.list(atSignUp))\(laterClause). Add \(fromFirstVisit), or open signup."
        }
        let signUpMethods = Self.list(methods.primaryMethods.filter(methods.isSetUpAtSignUp))
        return "This policy would lock every user out: \(Self.list(later)) can only be set up after signing in, so cannot be the only way to sign in. Add \(fromFirstVisit) (or \(signUpMethods) with signup open)."
    }

    /// Checks every rule against the method modules of `methods` (a server's registry).
    func validate(devMode: Bool, methods: MethodRegistry) throws(PolicyError) {
        var problems: [PolicyProblem] = []
        func refuse(_ code: String, _ field: String, _ message: String) {
            problems.append(PolicyProblem(code: code, field: field, message: message))
        }

        // Flow types.
        let knownFlowTypes: [FlowType] = [.signin, .signup, .accountManage]
        for (index, type) in flowTypes.enumerated() where !knownFlowTypes.contains(type) {
            refuse(
                "unknown_flow_type", "flowTypes[\(index)]",
                "\(type.rawValue.debugDescription) is not a flow type; use signin, signup or accountManage.")
        }
        if Set(flowTypes).count != flowTypes.count {
            refuse("duplicate_flow_type", "flowTypes", "Each flow type may be listed once.")
        }
        if !flowTypes.contains(.signin) {
            refuse(
                "signin_not_enabled", "flowTypes",
                "The signin flow must be enabled: without it users who already have an account could never sign in again.")
        }
        let signupOpen = flowTypes.contains(.signup)

        // Primary methods.
        if primaryMethods.isEmpty {
            refuse("no_primary_method", "primaryMethods", "At least one primary method is needed to sign users in.")
        }
        if Set(primaryMethods).count != primaryMethods.count {
            refuse("duplicate_method", "primaryMethods", "Each primary method may be listed once.")
        }
        for (index, method) in primaryMethods.enumerated() where !methods.canBePrimary(method) {
            if methods.canBeSecondFactor(method) {
                refuse(
                    "invalid_primary_method", "primaryMethods[\(index)]",
                    "\(method.rawValue) is a second factor: it confirms a sign-in whose user is already known. Put it in mfaMethods.")
            } else {
                refuse(
                    "unknown_method", "primaryMethods[\(index)]",
                    "\(method.rawValue.debugDescription) is not a method; use \(Self.list(methods.primaryMethods)).")
            }
        }
        if let message = lockOutProblem(signupOpen: signupOpen, methods: methods) {
            refuse("policy_locks_out_users", "primaryMethods", message)
        }

        // Second factor.
        for (index, method) in mfaMethods.enumerated() where !methods.canBeSecondFactor(method) {
            refuse(
                "invalid_mfa_method", "mfaMethods[\(index)]",
                "\(method.rawValue) cannot be a second factor; use \(Self.list(methods.secondFactors)).")
        }
        if Set(mfaMethods).count != mfaMethods.count {
            refuse("duplicate_method", "mfaMethods", "Each MFA method may be listed once.")
        }
        if mfaMode != .off {
            let secondFactors = mfaMethods.filter(methods.canBeSecondFactor)
            if secondFactors.isEmpty {
                refuse(
                    "no_mfa_method", "mfaMethods",
                    "MFA mode \(mfaMode.rawValue) needs at least one MFA method (\(Self.list(methods.secondFactors))).")
            } else {
                for method in primaryMethods where !secondFactors.contains(where: { $0 != method }) {
                    refuse(
                        "mfa_same_as_primary", "mfaMethods",
                        "A user who signs in with \(method.rawValue) would have no different method for the second factor: add an MFA method other than \(method.rawValue).")
                }
            }
        }

        // App Attest.
        problems += guests.problems()
        if guests.enabled, !signupOpen {
            refuse(
                "guests_need_signup", "guests.enabled",
                "Guests are upgraded by a sign-up: open the signup flow, or a guest could never keep what it has.")
        }

        if appAttest.enabled {
            if appAttest.appIDs.isEmpty || appAttest.appIDs.count > 10 {
                refuse("app_attest_app_ids", "appAttest.appIDs", "List 1 to 10 App IDs (TEAMID.bundle.identifier).")
            }
            for (index, appID) in appAttest.appIDs.enumerated() where !AppAttestSettings.isValidAppID(appID) {
                refuse(
                    "invalid_app_id", "appAttest.appIDs[\(index)]",
                    "\(appID.debugDescription) is not an App ID: write the 10-character team ID, a dot and the bundle identifier.")
            }
            if !appAttest.deviceEnrolment && !appAttest.dpopBinding {
                refuse(
                    "app_attest_unused", "appAttest",
                    "App Attest is enabled for nothing: set deviceEnrolment or dpopBinding to true.")
            }
            if appAttest.deviceEnrolment && !appAttest.dpopBinding && !devices.enabled {
                refuse(
                    "devices_not_enabled", "appAttest.deviceEnrolment",
                    "App Attest for device enrolment needs trusted devices: set devices.enabled to true.")
            }
        }

        // Sign-up.
        if !signupOpen {
            if signup.requireInviteCode {
                refuse(
                    "signup_not_enabled", "signup.requireInviteCode",
                    "Invite codes only apply to sign-up; add signup to flowTypes or turn requireInviteCode off.")
            }
            if !signup.profileFields.isEmpty {
                refuse(
                    "signup_not_enabled", "signup.profileFields",
                    "Profile fields are asked for at sign-up; add signup to flowTypes or remove them.")
            }
            if signup.termsOfServiceURL != nil {
                refuse(
                    "signup_not_enabled", "signup.termsOfServiceURL",
                    "Terms of service are accepted at sign-up; add signup to flowTypes or remove the URL.")
            }
        }
        if let terms = signup.termsOfServiceURL, !Self.isWebURL(terms) {
            refuse(
                "invalid_url", "signup.termsOfServiceURL",
                "The terms of service URL must be an absolute http or https URL.")
        }
        var seenNames: Set<String> = []
        for (index, field) in signup.profileFields.enumerated() {
            let path = "signup.profileFields[\(index)]"
            if !Self.isIdentifier(field.name) {
                refuse(
                    "invalid_field_name", "\(path).name",
                    "\(field.name.debugDescription) is not a valid field name: use a letter followed by letters, digits or _, at most 64 characters.")
            } else if !seenNames.insert(field.name).inserted {
                refuse("duplicate_field_name", "\(path).name", "The field name \(field.name) is used twice.")
            }
            let label = field.label?.trimmingCharacters(in: .whitespaces) ?? ""
            if field.kind != .hidden, label.isEmpty {
                refuse("missing_field_label", "\(path).label", "The field \(field.name) needs a label.")
            }
            if field.kind == .select {
                let options = field.options ?? []
                if options.isEmpty {
                    refuse("missing_field_options", "\(path).options", "The select field \(field.name) needs at least one option.")
                } else if Set(options).count != options.count {
                    refuse("duplicate_field_option", "\(path).options", "The select field \(field.name) lists an option twice.")
                }
            } else if field.options != nil {
                refuse("unexpected_field_options", "\(path).options", "Only select fields have options; remove them from \(field.name).")
            }
            if let maxLength = field.maxLength, !(1...10_000).contains(maxLength) {
                refuse("invalid_field_max_length", "\(path).maxLength", "The maximum length of \(field.name) must be between 1 and 10000.")
            }
            if let pattern = field.pattern, (try? NSRegularExpression(pattern: pattern)) == nil {
                refuse("invalid_field_pattern", "\(path).pattern", "The pattern of \(field.name) is not a valid regular expression.")
            }
        }

        // Delivery.
        for (channel, settings) in [("sms", delivery.sms), ("email", delivery.email), ("events", delivery.events)] {
            guard let settings else { continue }
            let path = "delivery.\(channel)"
            if !Self.isWebURL(settings.url) {
                refuse("invalid_webhook_url", "\(path).url", "The \(channel) webhook URL must be an absolute http or https URL.")
            }
            if settings.signingSecret.count < 32 {
                refuse(
                    "webhook_secret_too_short", "\(path).signingSecret",
                    "The \(channel) webhook signing secret must have at least 32 characters.")
            }
            if !(1...30).contains(settings.timeoutSeconds) {
                refuse(
                    "invalid_webhook_timeout", "\(path).timeoutSeconds",
                    "The \(channel) webhook timeout must be between 1 and 30 seconds.")
            }
        }
        if let sender = delivery.emailSender {
            if !EmailSender.isValidAddress(sender.address) {
                refuse(
                    "invalid_sender_address", "delivery.emailSender.address",
                    "The sender address must be an ASCII address local@domain of at most 254 characters, without spaces or <>()[],;:\\\".")
            }
            if let name = sender.name, !EmailSender.isValidName(name) {
                refuse(
                    "invalid_sender_name", "delivery.emailSender.name",
                    "The sender name must have 1 to 100 characters and no line breaks or other control characters.")
            }
        }
        if let templates = delivery.emailTemplates {
            let kinds = [
                ("code", templates.code, EmailTemplates.codePlaceholders),
                ("noAccount", templates.noAccount, EmailTemplates.noAccountPlaceholders),
                ("signInLink", templates.signInLink, EmailTemplates.signInLinkPlaceholders),
            ]
            for (kind, template, allowed) in kinds {
                guard let template else { continue }
                let path = "delivery.emailTemplates.\(kind)"
                let subject = template.subject.trimmingCharacters(in: .whitespaces)
                if subject.isEmpty || template.subject.count > EmailTemplates.maximumSubjectLength
                    || template.subject.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                {
                    refuse(
                        "invalid_email_subject", "\(path).subject",
                        "The subject must be one line of 1 to \(EmailTemplates.maximumSubjectLength) characters, without line breaks or other control characters.")
                }
                if template.body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                    || template.body.count > EmailTemplates.maximumBodyLength
                {
                    refuse(
                        "invalid_email_body", "\(path).body",
                        "The body must have 1 to \(EmailTemplates.maximumBodyLength) characters.")
                }
                for (part, text) in [("subject", template.subject), ("body", template.body)] {
                    for name in EmailTemplate.placeholders(in: text) where !allowed.contains(name) {
                        refuse(
                            "unknown_template_placeholder", "\(path).\(part)",
                            "{{\(name)}} is not a placeholder of this template; use \(allowed.map { "{{\($0)}}" }.joined(separator: ", ")).")
                    }
                }
                if kind == "code", !EmailTemplate.placeholders(in: template.body).contains("code") {
                    refuse(
                        "template_missing_code", "\(path).body",
                        "The body of the code template must contain {{code}}, or the user never sees the code.")
                }
                if kind == "signInLink", !EmailTemplate.placeholders(in: template.body).contains("link") {
                    refuse(
                        "template_missing_link", "\(path).body",
                        "The body of the sign-in link template must contain {{link}}, or the user never sees the link.")
                }
            }
        }
        // What each method checks of its own settings.
        for method in methods.configurableMethods {
            problems += method.validate(self, devMode: devMode)
        }
        if !problems.isEmpty { throw PolicyError(problems: problems) }
    }

    /// `a, b, c or d`, for the sentences that name the methods a field accepts.
    static func list(_ methods: [AuthenticationMethod]) -> String {
        let names = methods.map(\.rawValue)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// An absolute `http` or `https` URL with a host.
    static func isWebURL(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return false }
        return true
    }

    /// A letter followed by letters, digits or `_`, 1…64 ASCII characters.
    static func isIdentifier(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), let first = bytes.first else { return false }
        func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }
        return isLetter(first) && bytes.allSatisfy { isLetter($0) || (48...57).contains($0) || $0 == 95 }
    }
}
