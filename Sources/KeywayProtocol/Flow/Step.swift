import Foundation

/// One answer of the flow API: what the server asks for next, and the hypermedia around it.
public struct Step: Codable, Sendable, Equatable {
    /// The flow this step belongs to.
    public var flowId: String
    /// What the step asks for.
    public var kind: StepKind
    /// A label for the current stage, such as "Verify your email".
    public var stepInfo: StepInfo?
    /// The operations the client may perform now, each with its target and fields.
    public var actions: [Action]
    /// Related resources (`self`, documentation…).
    public var links: [Link]
    /// Human-readable messages to show next to the step.
    public var messages: [Message]
    /// Set when the server flagged this attempt.
    public var risk: Risk?
    /// When the whole flow expires.
    public var flowExpiresAt: Date?
    /// The flow's secret token. Present only in the answer that created the flow; the client sends
    /// it back in ``ProtocolHeader/flowToken`` on every later request.
    public var flowToken: Sensitive<String>?
    /// Payload of an ``StepKind/enterCode`` step.
    public var enterCode: EnterCodePayload?
    /// Payload of a ``StepKind/selectMethod`` step.
    public var selectMethod: SelectMethodPayload?
    /// Payload of a ``StepKind/setupSms`` step.
    public var setupSms: SetupSmsPayload?
    /// Payload of a ``StepKind/setupTotp`` step.
    public var setupTotp: SetupTotpPayload?
    /// Payload of a ``StepKind/enterTotp`` step.
    public var enterTotp: EnterTotpPayload?
    /// Payload of a ``StepKind/enterPassword`` step.
    public var enterPassword: EnterPasswordPayload?
    /// Payload of a ``StepKind/form`` step.
    public var form: FormPayload?
    /// Payload of a ``StepKind/manageAccount`` step.
    public var manageAccount: ManageAccountPayload?
    /// Payload of a ``StepKind/deviceEnroll`` step.
    public var deviceEnroll: DeviceEnrollPayload?
    /// Payload of a ``StepKind/deviceChallenge`` step.
    public var deviceChallenge: DeviceChallengePayload?
    /// Payload of an ``StepKind/awaitApproval`` step.
    public var awaitApproval: AwaitApprovalPayload?
    /// Payload of a ``StepKind/completed`` step.
    public var completed: CompletedPayload?
    /// Request metadata (trace ID).
    public var meta: Meta

    public init(
        flowId: String, kind: StepKind, stepInfo: StepInfo? = nil, actions: [Action] = [],
        links: [Link] = [], messages: [Message] = [], risk: Risk? = nil, flowExpiresAt: Date? = nil,
        flowToken: Sensitive<String>? = nil, enterCode: EnterCodePayload? = nil,
        selectMethod: SelectMethodPayload? = nil, setupSms: SetupSmsPayload? = nil,
        setupTotp: SetupTotpPayload? = nil, enterTotp: EnterTotpPayload? = nil,
        enterPassword: EnterPasswordPayload? = nil, form: FormPayload? = nil,
        manageAccount: ManageAccountPayload? = nil, deviceEnroll: DeviceEnrollPayload? = nil,
        deviceChallenge: DeviceChallengePayload? = nil, awaitApproval: AwaitApprovalPayload? = nil,
        completed: CompletedPayload? = nil, meta: Meta
    ) {
        self.flowId = flowId
        self.kind = kind
        self.stepInfo = stepInfo
        self.actions = actions
        self.links = links
        self.messages = messages
        self.risk = risk
        self.flowExpiresAt = flowExpiresAt
        self.flowToken = flowToken
        self.enterCode = enterCode
        self.selectMethod = selectMethod
        self.setupSms = setupSms
        self.setupTotp = setupTotp
        self.enterTotp = enterTotp
        self.enterPassword = enterPassword
        self.form = form
        self.manageAccount = manageAccount
        self.deviceEnroll = deviceEnroll
        self.deviceChallenge = deviceChallenge
        self.awaitApproval = awaitApproval
        self.completed = completed
        self.meta = meta
    }

    /// The action with the given name, if the step offers it.
    public func action(named name: String) -> Action? {
        actions.first { $0.name == name }
    }

    /// The link with the given relation, if the step has it.
    public func link(rel: String) -> Link? {
        links.first { $0.rel == rel }
    }
}

/// A label for the current stage of a flow.
public struct StepInfo: Codable, Sendable, Equatable {
    /// A stable identifier of the stage (`verifyEmail`).
    public var id: String
    /// A label to show (`Verify your email`).
    public var label: String

    public init(id: String, label: String) {
        self.id = id
        self.label = label
    }
}

/// A risk assessment attached to a step.
public struct Risk: Codable, Sendable, Equatable {
    /// `low`, `medium` or `high`.
    public var level: String
    /// A sentence to show the user.
    public var message: String?
    /// Machine-readable reasons (`newDevice`, `recentFailures`).
    public var reasons: [String]

    public init(level: String, message: String? = nil, reasons: [String] = []) {
        self.level = level
        self.message = message
        self.reasons = reasons
    }
}

/// Metadata every answer carries.
public struct Meta: Codable, Sendable, Equatable {
    /// The request's trace ID: quote it in logs and support tickets.
    public var traceId: String

    public init(traceId: String) {
        self.traceId = traceId
    }
}
