import Foundation

/// One answer of the flow API: what the server asks for next, and the hypermedia around it.
///
/// On the wire a step names its `kind` and carries that kind's payload under a key of the same
/// name (`"kind": "enterCode", "enterCode": {…}`); here the two are one value, ``payload``, so a
/// step cannot carry two payloads or a payload of another kind.
public struct Step: Sendable, Equatable {
    /// The flow this step belongs to.
    public var flowID: String
    /// What the step asks for, with its payload.
    public var payload: StepPayload
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
    /// Request metadata (trace ID).
    public var meta: Meta

    /// What the step asks for.
    public var kind: StepKind { payload.kind }

    /// Creates a step with the given values.
    ///
    /// - Parameters:
    ///   - flowID: The flow this step belongs to.
    ///   - payload: What the step asks for, with its payload.
    ///   - stepInfo: A label for the current stage.
    ///   - actions: The operations the client may perform now.
    ///   - links: Related resources.
    ///   - messages: Messages to show next to the step.
    ///   - risk: The server's risk assessment, if it flagged the attempt.
    ///   - flowExpiresAt: When the whole flow expires.
    ///   - flowToken: The flow's secret token, in the answer that created the flow.
    ///   - meta: Request metadata.
    public init(
        flowID: String, payload: StepPayload, stepInfo: StepInfo? = nil, actions: [Action] = [],
        links: [Link] = [], messages: [Message] = [], risk: Risk? = nil, flowExpiresAt: Date? = nil,
        flowToken: Sensitive<String>? = nil, meta: Meta
    ) {
        self.flowID = flowID
        self.payload = payload
        self.stepInfo = stepInfo
        self.actions = actions
        self.links = links
        self.messages = messages
        self.risk = risk
        self.flowExpiresAt = flowExpiresAt
        self.flowToken = flowToken
        self.meta = meta
    }

    /// The action with the given name, if the step offers it.
    ///
    /// - Parameter name: The action's name (`submitCode`).
    /// - Returns: The first action of that name, or `nil`.
    public func action(named name: String) -> Action? {
        actions.first { $0.name == name }
    }

    /// The link with the given relation, if the step has it.
    ///
    /// - Parameter rel: The relation (`self`).
    /// - Returns: The first link of that relation, or `nil`.
    public func link(rel: String) -> Link? {
        links.first { $0.rel == rel }
    }
}

extension Step: Codable {
    private enum CodingKeys: String, CodingKey {
        case flowID = "flowId", kind, stepInfo, actions, links, messages, risk, flowExpiresAt, flowToken, meta
    }

    /// Decodes a step from its wire form, the payload from under the key its `kind` names.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when a required member (`flowId`, `kind`, `meta`) is missing, or a
    ///   member or the payload of a known kind is malformed.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        flowID = try container.decode(String.self, forKey: .flowID)
        let kind = try container.decode(StepKind.self, forKey: .kind)
        payload = try StepPayload.decode(kind: kind, from: decoder.container(keyedBy: StepPayloadKey.self))
        stepInfo = try container.decodeIfPresent(StepInfo.self, forKey: .stepInfo)
        actions = try container.decodeIfPresent([Action].self, forKey: .actions) ?? []
        links = try container.decodeIfPresent([Link].self, forKey: .links) ?? []
        messages = try container.decodeIfPresent([Message].self, forKey: .messages) ?? []
        risk = try container.decodeIfPresent(Risk.self, forKey: .risk)
        flowExpiresAt = try container.decodeIfPresent(Date.self, forKey: .flowExpiresAt)
        flowToken = try container.decodeIfPresent(Sensitive<String>.self, forKey: .flowToken)
        meta = try container.decode(Meta.self, forKey: .meta)
    }

    /// Encodes the step in its wire form, the payload under the key its kind names.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: The encoder's error when a member cannot be encoded.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(flowID, forKey: .flowID)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(stepInfo, forKey: .stepInfo)
        try container.encode(actions, forKey: .actions)
        try container.encode(links, forKey: .links)
        try container.encode(messages, forKey: .messages)
        try container.encodeIfPresent(risk, forKey: .risk)
        try container.encodeIfPresent(flowExpiresAt, forKey: .flowExpiresAt)
        try container.encodeIfPresent(flowToken, forKey: .flowToken)
        try container.encode(meta, forKey: .meta)
        var payloads = encoder.container(keyedBy: StepPayloadKey.self)
        try payload.encode(into: &payloads)
    }
}

/// A label for the current stage of a flow.
public struct StepInfo: Codable, Sendable, Equatable {
    /// A stable identifier of the stage (`verifyEmail`).
    public var id: String
    /// A label to show (`Verify your email`).
    public var label: String

    /// Creates a stage label with the given values.
    ///
    /// - Parameters:
    ///   - id: A stable identifier of the stage.
    ///   - label: A label to show.
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

    /// Creates a risk assessment with the given values.
    ///
    /// - Parameters:
    ///   - level: `low`, `medium` or `high`.
    ///   - message: A sentence to show the user.
    ///   - reasons: Machine-readable reasons.
    public init(level: String, message: String? = nil, reasons: [String] = []) {
        self.level = level
        self.message = message
        self.reasons = reasons
    }
}

/// Metadata every answer carries.
public struct Meta: Codable, Sendable, Equatable {
    /// The request's trace ID: quote it in logs and support tickets.
    public var traceID: String

    /// Creates metadata with the given trace ID.
    ///
    /// - Parameter traceID: The request's trace ID.
    public init(traceID: String) {
        self.traceID = traceID
    }

    private enum CodingKeys: String, CodingKey {
        case traceID = "traceId"
    }
}
