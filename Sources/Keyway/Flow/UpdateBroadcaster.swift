import Foundation

/// Fans each update out to `onUpdate` and to every `updates` stream, and remembers the latest
/// update and the latest prompt. An update that ends the flow finishes every stream open then.
final class UpdateBroadcaster: Sendable {
    private struct State {
        var current: FlowUpdate = .idle
        /// The prompt the flow is at: kept across `.loading` and errors the flow goes on after.
        var prompt: (context: PromptContext, prompt: Prompt)?
        var handler: (@Sendable (FlowUpdate) -> Void)?
        var continuations: [UUID: AsyncStream<FlowUpdate>.Continuation] = [:]
    }

    private let state = LockedState(State())

    var current: FlowUpdate { state.withLock { $0.current } }

    var currentPrompt: (context: PromptContext, prompt: Prompt)? { state.withLock { $0.prompt } }

    var handler: (@Sendable (FlowUpdate) -> Void)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    /// A new stream that starts with the current update and then yields every later one, until
    /// an update ends the flow. A stream asked for once the flow completed yields that and ends.
    func stream() -> AsyncStream<FlowUpdate> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: FlowUpdate.self, bufferingPolicy: .unbounded)
        state.withLock { state in
            continuation.yield(state.current)
            if case .completed = state.current {
                continuation.finish()
            } else {
                state.continuations[id] = continuation
            }
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Emits `update`; with `endingFlow`, the flow is over (completed, cancelled, reset, or
    /// refused for good): the streams open now get it as their last update, and no prompt is
    /// current any more. `replacingPrompt` becomes the current prompt with the update (a step read
    /// again under the error that refused its answer).
    func emit(
        _ update: FlowUpdate, endingFlow: Bool = false,
        replacingPrompt replacement: (context: PromptContext, prompt: Prompt)? = nil
    ) {
        let (handler, continuations) = state.withLock { state in
            state.current = update
            if let replacement { state.prompt = replacement }
            if case .prompt(let context, let prompt) = update { state.prompt = (context, prompt) }
            if endingFlow { state.prompt = nil }
            let continuations = Array(state.continuations.values)
            if endingFlow { state.continuations = [:] }
            return (state.handler, continuations)
        }
        for continuation in continuations {
            continuation.yield(update)
            if endingFlow { continuation.finish() }
        }
        handler?(update)
    }
}
