/// The kind of a step, which the SDK maps to a prompt. Unknown kinds decode without failing, so a
/// generic renderer can still show a step from a newer server through its actions and fields.
public struct StepKind: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Enter a one-time code sent by email or SMS. Payload: ``Step/enterCode``.
    public static let enterCode = StepKind(rawValue: "enterCode")
    /// The flow is finished. Payload: ``Step/completed``.
    public static let completed = StepKind(rawValue: "completed")

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
