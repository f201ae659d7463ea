import Foundation

/// The requests a listener is answering now: what a stop that takes long names in the log
/// (``LoggedService``), so that a request that never ends is found by its route and trace ID, and
/// how many they are (`keyway_http_requests_in_progress`).
///
/// Bounded by the connections the listener accepts: one entry per request being answered,
/// removed when its answer is made.
final class RequestsInProgress: Sendable {
    private struct Entry: Sendable {
        let method: String
        let context: KeywayRequestContext
        let started: ContinuousClock.Instant
    }

    private struct State: Sendable {
        var next = 0
        var entries: [Int: Entry] = [:]
    }

    private let state = Locked(State())
    private let metrics: ServerMetrics?

    init(metrics: ServerMetrics? = nil) {
        self.metrics = metrics
    }

    /// Counts a request in until `body` returns.
    func tracking<T>(
        _ method: String, _ context: KeywayRequestContext, _ body: () async throws -> T
    ) async rethrows -> T {
        let entry = Entry(method: method, context: context, started: .now)
        let (id, count) = state.withLock { state -> (Int, Int) in
            state.next += 1
            state.entries[state.next] = entry
            return (state.next, state.entries.count)
        }
        metrics?.requestsInProgress(count)
        defer {
            let count = state.withLock { state -> Int in
                state.entries.removeValue(forKey: id)
                return state.entries.count
            }
            metrics?.requestsInProgress(count)
        }
        return try await body()
    }

    /// Each request in progress, oldest first: its method, route template (never its path),
    /// age and trace ID — `POST /v1/flows/{flowId}/code for 12.3 s (trace 4bf9…)`.
    func describe() -> [String] {
        let now = ContinuousClock.now
        let entries = state.withLock { Array($0.entries.values) }.sorted { $0.started < $1.started }
        return entries.map { entry in
            let age = now - entry.started
            let tenths = age.components.seconds * 10 + age.components.attoseconds / 100_000_000_000_000_000
            return "\(entry.method) \(RequestLogMiddleware.route(entry.context)) for \(tenths / 10).\(tenths % 10) s (trace \(entry.context.traceId))"
        }
    }
}
