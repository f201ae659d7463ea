import Foundation
import KeywayProtocol

/// An error shown on a screen, with what to do about it.
public struct Banner: Sendable, Equatable {
    /// What can be done about the error at run time.
    public enum Recovery: Sendable, Equatable {
        /// The same step may succeed again: later, or with other input (a wrong code).
        case retry
        /// Start over: a new flow.
        case startOver
        /// Nothing to do at run time: a configuration or integration error.
        case notRecoverable
    }

    /// The stable code (`invalid_code`).
    public var code: ProblemCode
    /// The sentence to show.
    public var message: String
    /// What to do next, as the flow says.
    public var action: ProblemAction
    /// Retry, start over, or nothing to do at run time.
    public var recovery: Recovery
    /// A suggestion for people (`Check what you entered and try again.`).
    public var suggestion: String?
    /// The trace ID of the request that failed, to quote when asking for help.
    public var traceID: String?
    /// The server's problem document (its `status`, `retryAt`, `invalidFields`…); `nil` for an
    /// error that never reached the server, such as `network_error`.
    public var problem: Problem?

    /// An error to show, with what to do about it.
    ///
    /// - Parameters:
    ///   - code: The stable code.
    ///   - message: The sentence to show.
    ///   - action: What to do next, as the flow says.
    ///   - recovery: Retry, start over, or nothing to do at run time.
    ///   - suggestion: A suggestion for people, if any.
    ///   - traceID: The trace ID of the request that failed, if known.
    ///   - problem: The server's problem document; `nil` for an error that never reached the server.
    public init(
        code: ProblemCode, message: String, action: ProblemAction, recovery: Recovery, suggestion: String?,
        traceID: String? = nil, problem: Problem? = nil
    ) {
        self.code = code
        self.message = message
        self.action = action
        self.recovery = recovery
        self.suggestion = suggestion
        self.traceID = traceID
        self.problem = problem
    }
}
