/// Why a ``LoopbackListener`` stopped without a callback.
public enum LoopbackListenerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No request reached the callback path in time.
    case timedOut(seconds: Int)
    /// The wait was cancelled.
    case cancelled
    /// A socket call failed (its name and `errno`'s text).
    case socket(String)
    /// The listener was already used or closed.
    case closed

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .timedOut(let seconds): "No answer from the browser within \(seconds) s."
        case .cancelled: "The wait for the browser was cancelled."
        case .socket(let why): "The loopback listener failed: \(why)"
        case .closed: "The loopback listener is closed."
        }
    }
}
