import Foundation
import KeywayProtocol

/// Turns a flow's progress into the wire step: its payload, actions, labels and messages.
struct StepBuilder: Sendable {
    let limits: FlowLimits
    let secrets: SecretBox

    func step(for context: FlowEngine.Context, flowToken: Sensitive<String>?, traceId: String) -> Step {
        let flow = context.flow
        let progress = context.progress
        let base = "/v1/flows/\(flow.id)"
        var step = Step(
            flowId: flow.id, payload: .none(.enterCode), links: [Link(rel: "self", href: base)], risk: progress.risk,
            flowExpiresAt: Date(epochMilliseconds: flow.expiresAt), flowToken: flowToken, meta: Meta(traceId: traceId))
        if let completion = context.completion {
            return completed(step, context: context, completion: completion)
        }
        if let notice = progress.notice, let text = Self.notices[notice] {
            step.messages.append(Message(level: "info", code: notice, text: text))
        }
        if let risk = progress.risk, let message = risk.message {
            step.messages.append(Message(level: "warning", code: "risk", text: message))
        }
        switch progress.stage {
        case .selectMethod:
            step.stepInfo = Self.info(for: progress.purpose)
            let options = progress.options.map { option(for: $0, context: context) }
            step.payload = .selectMethod(SelectMethodPayload(
                methods: options, purpose: progress.purpose, skippable: progress.skippable))
            step.actions.append(
                Action(
                    name: "selectMethod", href: "\(base)/method", method: "POST", label: "Continue",
                    fields: [
                        Field(
                            name: "methodId", type: .select, required: true, label: "Method",
                            options: options.map { FieldOption(value: $0.id, label: $0.label) })
                    ]))
            if progress.skippable {
                step.actions.append(Action(name: "skip", href: "\(base)/skip", method: "POST", label: "Not now"))
            }
        case .enterCode:
            let channel = progress.codeChannel ?? .email
            let destination = progress.codeDestination ?? flow.identifier
            let masked = channel == .sms ? PhoneNumber.mask(destination) : EmailAddress.mask(destination)
            step.stepInfo =
                progress.purpose == .primary
                ? (channel == .sms
                    ? StepInfo(id: "verifyPhone", label: "Verify your phone")
                    : StepInfo(id: "verifyEmail", label: "Verify your email"))
                : progress.purpose == .enrolment
                    ? StepInfo(id: "verifyPhone", label: "Verify your phone") : Self.info(for: progress.purpose)
            step.payload = .enterCode(EnterCodePayload(
                destination: masked, codeLength: limits.codeLength,
                expiresAt: Date(epochMilliseconds: flow.otpExpiresAt ?? flow.expiresAt),
                resendAt: Date(epochMilliseconds: flow.resendAt ?? flow.createdAt), channel: channel,
                attemptsRemaining: max(0, limits.maxCodeAttempts - flow.failedAttempts)))
            step.actions.append(
                Action(
                    name: "submitCode", href: "\(base)/code", method: "POST", label: "Continue",
                    fields: [codeField(length: limits.codeLength)]))
            step.actions.append(Action(name: "resend", href: "\(base)/resend", method: "POST", label: "Send a new code"))
            step.messages.append(
                Message(
                    level: "info", code: "codeSent", text: "We sent a \(limits.codeLength)-digit code to \(masked)."))
        case .enterPassword:
            let purpose = progress.passwordPurpose ?? .signIn
            step.stepInfo =
                switch purpose {
                case .create: StepInfo(id: "createPassword", label: "Choose a password")
                case .change: StepInfo(id: "changePassword", label: "Choose a new password")
                default: StepInfo(id: "enterPassword", label: "Enter your password")
                }
            let choosing = purpose != .signIn
            step.payload = .enterPassword(EnterPasswordPayload(
                purpose: purpose, minimumLength: choosing ? context.policy.passwordMinimumLength : nil))
            step.actions.append(
                Action(
                    name: "submitPassword", href: "\(base)/password", method: "POST", label: "Continue",
                    fields: [
                        Field(
                            name: "password", type: .password, required: true, label: "Password",
                            autocomplete: choosing ? "new-password" : "current-password",
                            minLength: choosing ? context.policy.passwordMinimumLength : nil, maxLength: 128)
                    ]))
        case .enterTotp:
            step.stepInfo =
                progress.purpose == .primary
                ? StepInfo(id: "enterTotp", label: "Enter the code from your authenticator")
                : Self.info(for: progress.purpose)
            step.payload = .enterTotp(EnterTotpPayload(
                digits: 6, period: 30, purpose: progress.purpose,
                attemptsRemaining: max(0, limits.maxCodeAttempts - progress.totpFailures)))
            step.actions.append(
                Action(
                    name: "submitTotp", href: "\(base)/totp", method: "POST", label: "Continue",
                    fields: [codeField(length: 6)]))
        case .setupTotp:
            step.stepInfo = StepInfo(id: "setupTotp", label: "Set up your authenticator")
            step.payload = .none(.setupTotp)
            if let sealed = progress.pendingTotpSecret, let secret = try? secrets.open(sealed, purpose: "totp") {
                let generator = OneTimePassword(secret: secret)
                let account = context.user?.email ?? context.user?.phone ?? flow.identifier
                step.payload = .setupTotp(SetupTotpPayload(
                    secret: Sensitive(Base32.encode(secret, padding: false)),
                    otpauthUrl: Sensitive(generator.provisioningURI(issuer: context.application.name, account: account)),
                    period: generator.period, digits: generator.digits, algorithm: generator.algorithm.rawValue))
            }
            step.actions.append(
                Action(
                    name: "submitTotp", href: "\(base)/totp", method: "POST", label: "Verify",
                    fields: [codeField(length: 6)]))
        case .setupSms:
            step.stepInfo = StepInfo(id: "setupSms", label: "Add your phone number")
            step.payload = .setupSms(SetupSmsPayload(existingPhone: context.user?.phone.map(PhoneNumber.mask)))
            step.actions.append(
                Action(
                    name: "submitPhone", href: "\(base)/phone", method: "POST", label: "Send a code",
                    fields: [
                        Field(
                            name: "phone", type: .phone, required: true, label: "Phone number",
                            placeholder: "+14155550123", autocomplete: "tel", maxLength: 32)
                    ]))
        case .form:
            step.stepInfo = StepInfo(id: "profile", label: "Tell us about you")
            step.payload = .form(FormPayload(formId: "profile", title: "About you"))
            step.actions.append(
                Action(
                    name: "submitForm", href: "\(base)/form", method: "POST", label: "Continue",
                    fields: SignupForm.fields(for: context.policy)))
        case .manageAccount:
            step.stepInfo = StepInfo(id: "manageAccount", label: "Your sign-in methods")
            step.payload = .manageAccount(ManageAccountPayload(
                methods: enrolled(context),
                devices: context.policy.devices.enabled ? context.trustedDevices.map(TrustedDevice.init) : nil))
            for operation in FlowEngine.operations(context) {
                let fields =
                    operation == .revokeDevice
                    ? [
                        Field(
                            name: "deviceId", type: .select, required: true, label: "Device",
                            options: context.trustedDevices.map { FieldOption(value: $0.id, label: $0.name) })
                    ] : []
                step.actions.append(
                    Action(
                        name: operation.rawValue, href: "\(base)/manage/\(operation.rawValue)", method: "POST",
                        label: Self.operationLabels[operation] ?? operation.rawValue, fields: fields))
            }
        case .deviceEnroll:
            step.stepInfo = StepInfo(id: "trustDevice", label: "Remembering this device")
            step.payload = .deviceEnroll(DeviceEnrollPayload(challenge: progress.deviceChallenge ?? "", audience: context.audience))
            step.actions.append(Action(name: "enrollDevice", href: "\(base)/device/enroll", method: "POST", label: "Trust this device"))
            step.actions.append(Action(name: "skip", href: "\(base)/skip", method: "POST", label: "Not now"))
        case .deviceChallenge:
            step.stepInfo = StepInfo(id: "proveDevice", label: "Checking this device")
            step.payload = .deviceChallenge(DeviceChallengePayload(
                challenge: progress.deviceChallenge ?? "", audience: context.audience,
                deviceId: progress.deviceHint?.deviceId ?? ""))
            step.actions.append(Action(name: "proveDevice", href: "\(base)/device/prove", method: "POST", label: "Continue"))
            step.actions.append(Action(name: "skip", href: "\(base)/skip", method: "POST", label: "Use another method"))
        case .awaitApproval:
            step.stepInfo = StepInfo(id: "awaitApproval", label: "Approve on your other device")
            step.payload = .none(.awaitApproval)
            if let sealed = progress.sealedApprovalSecret, let approvalId = progress.approvalId,
                let secret = try? secrets.open(sealed, purpose: "approval:\(flow.id)")
            {
                let qr = ApprovalQRData(
                    server: context.audience, configId: context.application.configId, approvalId: approvalId,
                    flowId: flow.id, secret: String(decoding: secret, as: UTF8.self))
                step.payload = .awaitApproval(AwaitApprovalPayload(
                    matchingNumber: progress.matchingNumber ?? "", qrData: Sensitive(qr.text),
                    expiresAt: Date(epochMilliseconds: progress.approvalExpiresAt ?? flow.expiresAt),
                    pollInterval: context.policy.devices.approvalPollIntervalSeconds))
            }
            step.messages.append(
                Message(
                    level: "info", code: "approvalRequested",
                    text: "Approve this sign-in on one of your trusted devices, or scan the code with it. Check that it shows \(progress.matchingNumber ?? "")."))
            step.actions.append(Action(name: "poll", href: "\(base)/approval", method: "POST", label: "Check again"))
        }
        step.actions.append(Action(name: "cancel", href: base, method: "DELETE", label: "Cancel"))
        return step
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
        step.payload = .completed(CompletedPayload(
            authCode: Sensitive(completion.authCode), expiresAt: Date(epochMilliseconds: completion.expiresAt),
            session: completion.sessionId, newUser: completion.newUser, trustedDeviceId: completion.trustedDeviceId))
        return step
    }

    private func codeField(length: Int) -> Field {
        Field(
            name: "code", type: .code, required: true, label: "Code", placeholder: String(repeating: "0", count: length),
            autocomplete: "one-time-code", minLength: length, maxLength: length, pattern: "^[0-9]{\(length)}$")
    }

    private func option(for method: AuthenticationMethod, context: FlowEngine.Context) -> MethodOption {
        let progress = context.progress
        let user = context.user
        switch method {
        case .emailOtp:
            let address = progress.purpose == .primary ? context.identifier.email : user?.email
            let masked = address.map(EmailAddress.mask)
            return MethodOption(
                id: method.rawValue, type: method, label: masked.map { "Email a code to \($0)" } ?? "Email a code",
                destination: masked)
        case .smsOtp:
            if progress.purpose == .enrolment {
                return MethodOption(id: method.rawValue, type: method, label: "Text me codes (SMS)")
            }
            let phone = progress.purpose == .primary ? context.identifier.phone : user?.verifiedPhone
            let masked = phone.map(PhoneNumber.mask)
            return MethodOption(
                id: method.rawValue, type: method, label: masked.map { "Text a code to \($0)" } ?? "Text a code",
                destination: masked)
        case .totp:
            return MethodOption(
                id: method.rawValue, type: method,
                label: progress.purpose == .enrolment ? "Set up an authenticator app" : "Use your authenticator app")
        case .password:
            return MethodOption(id: method.rawValue, type: method, label: "Enter your password")
        case .deviceApproval:
            return MethodOption(id: method.rawValue, type: method, label: "Approve on another trusted device")
        default:
            return MethodOption(id: method.rawValue, type: method, label: method.rawValue)
        }
    }

    private func enrolled(_ context: FlowEngine.Context) -> [EnrolledMethod] {
        guard let user = context.user else { return [] }
        var methods: [EnrolledMethod] = []
        if let email = user.email {
            methods.append(
                EnrolledMethod(
                    type: .emailOtp, label: "Email codes", detail: EmailAddress.mask(email),
                    isSecondFactor: context.policy.mfaMethods.contains(.emailOtp)))
        }
        if let phone = user.verifiedPhone {
            methods.append(
                EnrolledMethod(
                    type: .smsOtp, label: "SMS codes", detail: PhoneNumber.mask(phone),
                    isSecondFactor: context.policy.mfaMethods.contains(.smsOtp)))
        }
        if user.hasTotp {
            methods.append(
                EnrolledMethod(
                    type: .totp, label: "Authenticator app", isSecondFactor: context.policy.mfaMethods.contains(.totp)))
        }
        if user.passwordHash != nil {
            methods.append(EnrolledMethod(type: .password, label: "Password", isSecondFactor: false))
        }
        return methods
    }

    private static func info(for purpose: MethodPurpose) -> StepInfo {
        switch purpose {
        case .secondFactor: StepInfo(id: "secondFactor", label: "Second factor")
        case .enrolment: StepInfo(id: "setUpSecondFactor", label: "Set up a second factor")
        case .reverification: StepInfo(id: "verifyIdentity", label: "Verify your identity")
        default: StepInfo(id: "chooseMethod", label: "Choose how to sign in")
        }
    }

    private static let notices: [String: String] = [
        "passwordChanged": "Your password was changed.",
        "totpAdded": "Your authenticator app is set up.",
        "totpRemoved": "Your authenticator app was removed.",
        "smsAdded": "Your phone number is verified.",
        "smsRemoved": "Your phone number was removed.",
        "deviceRevoked": "The device is no longer trusted.",
        "devicesRevoked": "No device is trusted any more.",
        FlowEngine.deviceNotRecognized: "This device is not trusted any more; confirm it is you another way.",
    ]

    private static let operationLabels: [FlowEngine.Operation: String] = [
        .setupTotp: "Set up an authenticator app",
        .removeTotp: "Remove the authenticator app",
        .setupSms: "Set up or change the SMS phone number",
        .removeSms: "Remove the SMS phone number",
        .changePassword: "Change the password",
        .revokeDevice: "Stop trusting a device",
        .revokeAllDevices: "Stop trusting every device",
        .finish: "Done",
    ]
}
