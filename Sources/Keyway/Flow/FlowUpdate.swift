import Foundation
import KeywayProtocol

/// What the flow is doing now. Render it; hand the user's input back through ``KeywayFlow``.
public enum FlowUpdate: Sendable, Equatable {
    /// No flow is active.
    case idle
    /// A request is in flight.
    case loading
    /// The server asks the user for something.
    case prompt(PromptContext, Prompt)
    /// The flow succeeded. By default the SDK redeemed the code and saved the tokens in
    /// ``KeywayClient/session`` before this update (``KeywayOptions/completedSignIns``); with
    /// ``CompletedSignIns/handOver``, send `authCode` (and `codeVerifier` when present) to your
    /// backend, or redeem them with ``KeywayTokens/exchange(authCode:codeVerifier:)``.
    case completed(
        session: String, authCode: Sensitive<String>, expiresAt: Date, codeVerifier: Sensitive<String>?, meta: Meta)
    /// The last request failed. `action` says what to do next; `retryable` only whether the same
    /// request, unchanged, may succeed later (see ``KeywayProtocol/Problem/retryable``); `details`
    /// is the server's problem document (`nil` for an error that never reached the server, such as
    /// `network_error`). While the flow goes on after the error, its prompt is still
    /// ``KeywayFlow/currentPrompt``.
    case error(
        code: ProblemCode, action: ProblemAction, message: String, retryable: Bool, details: Problem?, meta: Meta?)
}

/// What surrounds a prompt: labels, risk, the trace ID, and the raw step for generic rendering.
public struct PromptContext: Sendable, Equatable {
    /// The request's metadata (trace ID).
    public var meta: Meta
    /// The current stage's label.
    public var stepInfo: StepInfo?
    /// Set when the server flagged this attempt.
    public var risk: Risk?
    /// Messages to show: the step's own, and, when the SDK's automatic method choice was refused,
    /// the reason (level `error`, the problem's code) after them.
    public var messages: [Message]
    /// The raw hypermedia step: actions, fields, links.
    public var step: Step

    /// Whether this method's prompt was chosen among others and can go back to that choice
    /// (``KeywayFlow/useAnotherMethod()``): show a "Use another method" button.
    public var offersAnotherMethod: Bool { step.action(named: "anotherMethod") != nil }

    /// A context for `step`, with the step's own messages.
    ///
    /// - Parameter step: The step the prompt comes from.
    public init(step: Step) {
        self.meta = step.meta
        self.stepInfo = step.stepInfo
        self.risk = step.risk
        self.messages = step.messages
        self.step = step
    }
}
