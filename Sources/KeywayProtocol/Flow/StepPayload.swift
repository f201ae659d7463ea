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
    /// The flow is finished.
    case completed(CompletedPayload)
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
        case .completed: .completed
        case .none(let kind): kind
        }
    }
}

extension Step {
    /// The payload of an ``StepKind/enterCode`` step.
    public var enterCode: EnterCodePayload? { if case .enterCode(let body) = payload { body } else { nil } }
    /// The payload of a ``StepKind/selectMethod`` step.
    public var selectMethod: SelectMethodPayload? { if case .selectMethod(let body) = payload { body } else { nil } }
    /// The payload of a ``StepKind/setupSms`` step.
    public var setupSms: SetupSmsPayload? { if case .setupSms(let body) = payload { body } else { nil } }
    /// The payload of a ``StepKind/setupTotp`` step.
    public var setupTotp: SetupTotpPayload? { if case .setupTotp(let body) = payload { body } else { nil } }
    /// The payload of an ``StepKind/enterTotp`` step.
    public var enterTotp: EnterTotpPayload? { if case .enterTotp(let body) = payload { body } else { nil } }
    /// The payload of an ``StepKind/enterPassword`` step.
    public var enterPassword: EnterPasswordPayload? { if case .enterPassword(let body) = payload { body } else { nil } }
    /// The payload of a ``StepKind/form`` step.
    public var form: FormPayload? { if case .form(let body) = payload { body } else { nil } }
    /// The payload of a ``StepKind/manageAccount`` step.
    public var manageAccount: ManageAccountPayload? { if case .manageAccount(let body) = payload { body } else { nil } }
    /// The payload of a ``StepKind/deviceEnroll`` step.
    public var deviceEnroll: DeviceEnrollPayload? { if case .deviceEnroll(let body) = payload { body } else { nil } }
    /// The payload of a ``StepKind/deviceChallenge`` step.
    public var deviceChallenge: DeviceChallengePayload? {
        if case .deviceChallenge(let body) = payload { body } else { nil }
    }
    /// The payload of an ``StepKind/awaitApproval`` step.
    public var awaitApproval: AwaitApprovalPayload? { if case .awaitApproval(let body) = payload { body } else { nil } }
    /// The payload of a ``StepKind/completed`` step.
    public var completed: CompletedPayload? { if case .completed(let body) = payload { body } else { nil } }
}
