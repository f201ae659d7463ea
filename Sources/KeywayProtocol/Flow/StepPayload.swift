import Foundation

/// What a step asks for, with the data to render it: one case per ``StepKind`` this version knows,
/// and ``none(_:)`` for a step that carries no payload this version can read.
public enum StepPayload: Sendable, Equatable {
    /// Enter a one-time code sent by email or SMS.
    case enterCode(EnterCodePayload)
    /// Choose a method among those available now.
    case selectMethod(SelectMethodPayload)
    /// Collect or confirm the phone number that receives codes.
    case setupSms(SetupSmsPayload)
    /// Set up an authenticator app.
    case setupTotp(SetupTotpPayload)
    /// Enter a code from the authenticator app.
    case enterTotp(EnterTotpPayload)
    /// Enter, choose or change a password.
    case enterPassword(EnterPasswordPayload)
    /// Fill in server-defined fields (the fields of the `submitForm` action).
    case form(FormPayload)
    /// See and change the account's methods.
    case manageAccount(ManageAccountPayload)
    /// Internal: the SDK enrols this device as trusted.
    case deviceEnroll(DeviceEnrollPayload)
    /// Internal: the SDK proves this trusted device.
    case deviceChallenge(DeviceChallengePayload)
    /// Wait for a trusted device to approve the sign-in.
    case awaitApproval(AwaitApprovalPayload)
    /// A guest's sign-up proved an identifier that has an account.
    case accountExists(AccountExistsPayload)
    /// The flow is finished.
    case completed(CompletedPayload)
    /// Open a URL in a browser to sign in with an upstream provider.
    case redirect(RedirectPayload)
    /// Sign in to the existing account to link a new upstream identity to it.
    case linkAccount(LinkAccountPayload)
    /// Make a passkey with a WebAuthn authenticator.
    case passkeyRegister(PasskeyRegisterPayload)
    /// Sign with a passkey.
    case passkeyAuthenticate(PasskeyAuthenticatePayload)
    /// A step of `kind` without a payload this version reads: a kind from a newer server (render
    /// it from its actions and fields), or a known kind whose payload is missing.
    case none(StepKind)

    /// The kind of step this payload belongs to.
    public var kind: StepKind {
        switch self {
        case .enterCode: .enterCode
        case .selectMethod: .selectMethod
        case .setupSms: .setupSms
        case .setupTotp: .setupTotp
        case .enterTotp: .enterTotp
        case .enterPassword: .enterPassword
        case .form: .form
        case .manageAccount: .manageAccount
        case .deviceEnroll: .deviceEnroll
        case .deviceChallenge: .deviceChallenge
        case .awaitApproval: .awaitApproval
        case .accountExists: .accountExists
        case .completed: .completed
        case .redirect: .redirect
        case .linkAccount: .linkAccount
        case .passkeyRegister: .passkeyRegister
        case .passkeyAuthenticate: .passkeyAuthenticate
        case .none(let kind): kind
        }
    }
}

/// The key a step's payload is under: the name of its kind.
struct StepPayloadKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

extension StepPayload {
    /// The payload under the kind's key: a kind this version does not know, or a known kind
    /// without its key (or `null`), decodes as ``none(_:)``; a payload that is there but malformed
    /// is an error.
    static func decode(kind: StepKind, from container: KeyedDecodingContainer<StepPayloadKey>) throws -> StepPayload {
        let key = StepPayloadKey(stringValue: kind.rawValue)
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return .none(kind) }
        switch kind {
        case .enterCode: return .enterCode(try container.decode(EnterCodePayload.self, forKey: key))
        case .selectMethod: return .selectMethod(try container.decode(SelectMethodPayload.self, forKey: key))
        case .setupSms: return .setupSms(try container.decode(SetupSmsPayload.self, forKey: key))
        case .setupTotp: return .setupTotp(try container.decode(SetupTotpPayload.self, forKey: key))
        case .enterTotp: return .enterTotp(try container.decode(EnterTotpPayload.self, forKey: key))
        case .enterPassword: return .enterPassword(try container.decode(EnterPasswordPayload.self, forKey: key))
        case .form: return .form(try container.decode(FormPayload.self, forKey: key))
        case .manageAccount: return .manageAccount(try container.decode(ManageAccountPayload.self, forKey: key))
        case .deviceEnroll: return .deviceEnroll(try container.decode(DeviceEnrollPayload.self, forKey: key))
        case .deviceChallenge: return .deviceChallenge(try container.decode(DeviceChallengePayload.self, forKey: key))
        case .awaitApproval: return .awaitApproval(try container.decode(AwaitApprovalPayload.self, forKey: key))
        case .accountExists: return .accountExists(try container.decode(AccountExistsPayload.self, forKey: key))
        case .completed: return .completed(try container.decode(CompletedPayload.self, forKey: key))
        case .redirect: return .redirect(try container.decode(RedirectPayload.self, forKey: key))
        case .linkAccount: return .linkAccount(try container.decode(LinkAccountPayload.self, forKey: key))
        case .passkeyRegister: return .passkeyRegister(try container.decode(PasskeyRegisterPayload.self, forKey: key))
        case .passkeyAuthenticate:
            return .passkeyAuthenticate(try container.decode(PasskeyAuthenticatePayload.self, forKey: key))
        default: return .none(kind)
        }
    }

    /// Writes the payload under its kind's key; ``none(_:)`` writes nothing.
    func encode(into container: inout KeyedEncodingContainer<StepPayloadKey>) throws {
        let key = StepPayloadKey(stringValue: kind.rawValue)
        switch self {
        case .enterCode(let body): try container.encode(body, forKey: key)
        case .selectMethod(let body): try container.encode(body, forKey: key)
        case .setupSms(let body): try container.encode(body, forKey: key)
        case .setupTotp(let body): try container.encode(body, forKey: key)
        case .enterTotp(let body): try container.encode(body, forKey: key)
        case .enterPassword(let body): try container.encode(body, forKey: key)
        case .form(let body): try container.encode(body, forKey: key)
        case .manageAccount(let body): try container.encode(body, forKey: key)
        case .deviceEnroll(let body): try container.encode(body, forKey: key)
        case .deviceChallenge(let body): try container.encode(body, forKey: key)
        case .awaitApproval(let body): try container.encode(body, forKey: key)
        case .accountExists(let body): try container.encode(body, forKey: key)
        case .completed(let body): try container.encode(body, forKey: key)
        case .redirect(let body): try container.encode(body, forKey: key)
        case .linkAccount(let body): try container.encode(body, forKey: key)
        case .passkeyRegister(let body): try container.encode(body, forKey: key)
        case .passkeyAuthenticate(let body): try container.encode(body, forKey: key)
        case .none: break
        }
    }
}

// Each kind's body, `nil` for the other kinds: `step.payload.enterCode?.codeLength`.
extension StepPayload {
    /// The body of an ``StepKind/enterCode`` step.
    public var enterCode: EnterCodePayload? { if case .enterCode(let body) = self { body } else { nil } }
    /// The body of a ``StepKind/selectMethod`` step.
    public var selectMethod: SelectMethodPayload? { if case .selectMethod(let body) = self { body } else { nil } }
    /// The body of a ``StepKind/setupSms`` step.
    public var setupSms: SetupSmsPayload? { if case .setupSms(let body) = self { body } else { nil } }
    /// The body of a ``StepKind/setupTotp`` step.
    public var setupTotp: SetupTotpPayload? { if case .setupTotp(let body) = self { body } else { nil } }
    /// The body of an ``StepKind/enterTotp`` step.
    public var enterTotp: EnterTotpPayload? { if case .enterTotp(let body) = self { body } else { nil } }
    /// The body of an ``StepKind/enterPassword`` step.
    public var enterPassword: EnterPasswordPayload? { if case .enterPassword(let body) = self { body } else { nil } }
    /// The body of a ``StepKind/form`` step.
    public var form: FormPayload? { if case .form(let body) = self { body } else { nil } }
    /// The body of a ``StepKind/manageAccount`` step.
    public var manageAccount: ManageAccountPayload? { if case .manageAccount(let body) = self { body } else { nil } }
    /// The body of a ``StepKind/deviceEnroll`` step.
    public var deviceEnroll: DeviceEnrollPayload? { if case .deviceEnroll(let body) = self { body } else { nil } }
    /// The body of a ``StepKind/deviceChallenge`` step.
    public var deviceChallenge: DeviceChallengePayload? {
        if case .deviceChallenge(let body) = self { body } else { nil }
    }
    /// The body of an ``StepKind/awaitApproval`` step.
    public var awaitApproval: AwaitApprovalPayload? { if case .awaitApproval(let body) = self { body } else { nil } }
    /// The body of an ``StepKind/accountExists`` step.
    public var accountExists: AccountExistsPayload? {
        if case .accountExists(let body) = self { body } else { nil }
    }
    /// The body of a ``StepKind/completed`` step.
    public var completed: CompletedPayload? { if case .completed(let body) = self { body } else { nil } }
    /// The body of a ``StepKind/redirect`` step.
    public var redirect: RedirectPayload? { if case .redirect(let body) = self { body } else { nil } }
    /// The body of a ``StepKind/linkAccount`` step.
    public var linkAccount: LinkAccountPayload? { if case .linkAccount(let body) = self { body } else { nil } }
    /// The body of a ``StepKind/passkeyRegister`` step.
    public var passkeyRegister: PasskeyRegisterPayload? {
        if case .passkeyRegister(let body) = self { body } else { nil }
    }
    /// The body of a ``StepKind/passkeyAuthenticate`` step.
    public var passkeyAuthenticate: PasskeyAuthenticatePayload? {
        if case .passkeyAuthenticate(let body) = self { body } else { nil }
    }
}
