import Foundation

/// Why a linear sign-in call (``KeywayClient/sendSignInCode(to:options:)``, ``KeywayClient/verifySignInCode(_:)``,
/// ``KeywayClient/signIn(withCodeSentTo:options:code:)``) did not get where it promises: the flow's error, as
/// the flow's `.error` update carries it, or a step those calls do not answer.
///
/// `action` says what to do next — the same recovery every flow error carries:
/// - `retryInput`: ask the user again (a wrong code: ``attemptsRemaining`` tells how many are left);
/// - `wait`: try again at ``retryAt``; `retryRequest`: the same call again (the network failed);
/// - `resendCode`: ask for a new code; `selectMethod`: the flow offers another method;
/// - `restartFlow`: start again; `abort`: not something the user can fix.
public struct FlowError: Error, Sendable, Equatable, LocalizedError {
    /// The stable error code (`invalid_code`, `flow_expired`, `unhandled_step`…).
    public let code: ProblemCode
    /// What to do next.
    public let action: ProblemAction
    /// A sentence for the user.
    public let message: String
    /// The server's problem document, when the server refused.
    public let problem: Problem?

    /// Creates a flow error with the given values.
    ///
    /// - Parameters:
    ///   - code: The stable error code.
    ///   - action: What to do next.
    ///   - message: A sentence for the user.
    ///   - problem: The server's problem document, when the server refused.
    public init(code: ProblemCode, action: ProblemAction, message: String, problem: Problem? = nil) {
        self.code = code
        self.action = action
        self.message = message
        self.problem = problem
    }

    /// Wrong attempts left at this step, when the server said.
    public var attemptsRemaining: Int? { problem?.attemptsRemaining }

    /// When to try again, for `wait`.
    public var retryAt: Date? { problem?.retryAt }

    /// The error's ``message``.
    public var errorDescription: String? { message }

    /// A sentence for the user about what to do, for every ``action`` but `abort`.
    public var recoverySuggestion: String? { action.suggestion }
}
