import Foundation

/// An RFC 7807 problem document (`application/problem+json`), extended with what a client
/// needs to recover: a stable ``code``, the ``action`` to take, and retry hints.
public struct Problem: Codable, Sendable, Equatable, Error {
    /// The media type of a problem document.
    public static let mediaType = "application/problem+json"

    /// A URI naming the problem type: `urn:keyway:problem:<code>`.
    public var type: String
    /// A short summary of the problem type.
    public var title: String
    /// The HTTP status code.
    public var status: Int
    /// A sentence for a person, specific to this occurrence.
    public var detail: String
    /// The stable, machine-readable code.
    public var code: ProblemCode
    /// What the client should do next.
    public var action: ProblemAction
    /// Whether the *same request, unchanged,* may succeed if sent again (possibly after
    /// ``retryAt``): a network failure, a rate limit, a busy server. It does not say whether the
    /// user can go on — ``action`` does: a wrong code is ``ProblemAction/retryInput`` with
    /// `retryable` `false` (that code will never pass; another may).
    public var retryable: Bool
    /// The earliest moment a retry may succeed.
    public var retryAt: Date?
    /// Seconds until a retry may succeed.
    public var retryAfterSeconds: Int?
    /// Wrong attempts left before the flow must restart.
    public var attemptsRemaining: Int?
    /// The fields of a malformed request, each with what is wrong.
    public var invalidFields: [InvalidField]?
    /// The request's trace ID.
    public var traceID: String?

    /// Creates a problem with the given values; its ``type`` is `urn:keyway:problem:<code>`.
    ///
    /// - Parameters:
    ///   - code: The stable, machine-readable code.
    ///   - status: The HTTP status code.
    ///   - title: A short summary of the problem type.
    ///   - detail: A sentence for a person, specific to this occurrence.
    ///   - action: What the client should do next.
    ///   - retryable: Whether the same request, unchanged, may succeed if sent again.
    ///   - retryAt: The earliest moment a retry may succeed.
    ///   - retryAfterSeconds: Seconds until a retry may succeed.
    ///   - attemptsRemaining: Wrong attempts left before the flow must restart.
    ///   - invalidFields: The fields of a malformed request, each with what is wrong.
    ///   - traceID: The request's trace ID.
    public init(
        code: ProblemCode, status: Int, title: String, detail: String, action: ProblemAction,
        retryable: Bool = false, retryAt: Date? = nil, retryAfterSeconds: Int? = nil,
        attemptsRemaining: Int? = nil, invalidFields: [InvalidField]? = nil, traceID: String? = nil
    ) {
        self.type = "urn:keyway:problem:\(code.rawValue)"
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code
        self.action = action
        self.retryable = retryable
        self.retryAt = retryAt
        self.retryAfterSeconds = retryAfterSeconds
        self.attemptsRemaining = attemptsRemaining
        self.invalidFields = invalidFields
        self.traceID = traceID
    }

    private enum CodingKeys: String, CodingKey {
        case type, title, status, detail, code, action, retryable, retryAt, retryAfterSeconds, attemptsRemaining, invalidFields, traceID = "traceId"
    }
}

/// One invalid field of a malformed request.
public struct InvalidField: Codable, Sendable, Equatable {
    /// The field's name (a dotted path for nested fields).
    public var name: String
    /// What is wrong, as a sentence.
    public var reason: String

    /// Creates an invalid field with the given values.
    ///
    /// - Parameters:
    ///   - name: The field's name.
    ///   - reason: What is wrong, as a sentence.
    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}

/// What a client should do after a problem.
public enum ProblemAction: String, Codable, Sendable, Equatable, CaseIterable {
    /// Ask the user to correct their input and submit again.
    case retryInput
    /// The flow cannot continue: start a new one.
    case restartFlow
    /// Wait until `retryAt`, then try again.
    case wait
    /// Repeat the same request (a transient failure).
    case retryRequest
    /// Request a new code.
    case resendCode
    /// Choose another method.
    case selectMethod
    /// Stop: the request cannot succeed (configuration error).
    case abort

    /// Decodes unknown actions from a newer server as ``abort``.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        self = ProblemAction(rawValue: raw) ?? .abort
    }
}
