import Foundation
import Metrics
import Prometheus

/// The server's metrics, through swift-metrics into a Prometheus registry of this server's own
/// (two servers in one process keep theirs apart), exported at `GET /metrics`.
///
/// | Metric | Labels |
/// | --- | --- |
/// | `keyway_http_requests_total` | `route` (the route's template, `/v1/flows/{flowId}/code`; `unmatched` for every path no route answers), `method`, `status` |
/// | `keyway_http_request_duration_seconds` (histogram) | `route`, `method` |
/// | `keyway_flows_started_total` | `flow_type` |
/// | `keyway_flows_completed_total` | `flow_type`, `method` (the primary method) |
/// | `keyway_problems_total` | `code` (every problem document the API answered: refused codes, rate limits, bad input…) |
/// | `keyway_messages_total` | `channel`, `outcome` (`delivered`, `retry`, `dead`) |
/// | `keyway_refresh_reuse_detected_total` | |
/// | `keyway_rate_limited_total` | `limit` |
/// | `keyway_database_transaction_duration_seconds` (histogram) | `kind` (`read`, `write`), `outcome` |
/// | `keyway_database_conflicts_retried_total` | (PostgreSQL serialization conflicts run again) |
/// | `keyway_database_connection_wait_seconds` (histogram) | `kind`: how long a transaction waited for its connection (a pool connection on PostgreSQL; the single writer, or a reader, on SQLite) |
/// | `keyway_database_connections_in_use` (gauge) | `kind` |
/// | `keyway_database_pool_size` (gauge) | (the most connections the pool opens; 1, the writer, on SQLite) |
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let inUse = Locked<[String: Int]>([:])
    /// Metric handles made once per label and dimensions: making one looks it up in the registry
    /// and checks its name, which every request would otherwise pay.
    private let counters = Locked<[String: Metrics.Counter]>([:])
    private let timers = Locked<[String: Metrics.Timer]>([:])
    private let gauges = Locked<[String: Metrics.Gauge]>([:])

    init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .seconds(2.5), .seconds(5), .seconds(10),
        ]
        self.factory = factory
    }

    func request(route: String, method: String, status: Int, duration: Duration) {
        counter("keyway_http_requests_total", [("route", route), ("method", method), ("status", String(status))]).increment()
        timer("keyway_http_request_duration_seconds", [("route", route), ("method", method)]).recordNanoseconds(Self.nanoseconds(duration))
    }

    func flowStarted(flowType: String) {
        counter("keyway_flows_started_total", [("flow_type", flowType)]).increment()
    }

    func flowCompleted(flowType: String, method: String) {
        counter("keyway_flows_completed_total", [("flow_type", flowType), ("method", method)]).increment()
    }

    func problem(code: String) {
        counter("keyway_problems_total", [("code", code)]).increment()
    }

    func message(channel: String, outcome: String) {
        counter("keyway_messages_total", [("channel", channel), ("outcome", outcome)]).increment()
    }

    func refreshReuseDetected() {
        counter("keyway_refresh_reuse_detected_total", []).increment()
    }

    func rateLimited(limit: String) {
        counter("keyway_rate_limited_total", [("limit", limit)]).increment()
    }

    func transaction(kind: String, outcome: String, duration: Duration) {
        timer("keyway_database_transaction_duration_seconds", [("kind", kind), ("outcome", outcome)]).recordNanoseconds(Self.nanoseconds(duration))
    }

    func conflictRetried() {
        counter("keyway_database_conflicts_retried_total", []).increment()
    }

    private static func key(_ label: String, _ dimensions: [(String, String)]) -> String {
        dimensions.reduce(into: label) { key, dimension in
            key += "\u{0}" + dimension.0 + "\u{0}" + dimension.1
        }
    }

    private func counter(_ label: String, _ dimensions: [(String, String)]) -> Metrics.Counter {
        Self.cached(in: counters, label, dimensions) { Metrics.Counter(label: label, dimensions: dimensions, factory: factory) }
    }

    private func timer(_ label: String, _ dimensions: [(String, String)]) -> Metrics.Timer {
        Self.cached(in: timers, label, dimensions) { Metrics.Timer(label: label, dimensions: dimensions, factory: factory) }
    }

    private func gauge(_ label: String, _ dimensions: [(String, String)]) -> Metrics.Gauge {
        Self.cached(in: gauges, label, dimensions) { Metrics.Gauge(label: label, dimensions: dimensions, factory: factory) }
    }

    /// The handle of `label` with `dimensions` from `cache`, made by `make` the first time.
    private static func cached<Handle: Sendable>(
        in cache: Locked<[String: Handle]>, _ label: String, _ dimensions: [(String, String)], make: () -> Handle
    ) -> Handle {
        let key = key(label, dimensions)
        if let handle = cache.withLock({ $0[key] }) { return handle }
        let handle = make()
        cache.withLock { $0[key] = handle }
        return handle
    }

    /// The observer that reports a database's connections into these metrics.
    var databaseObserver: DatabaseObserver {
        DatabaseObserver(
            leased: { [self] kind, waited in
                timer("keyway_database_connection_wait_seconds", [("kind", kind)]).recordNanoseconds(Self.nanoseconds(waited))
                connections(kind, change: 1)
            },
            returned: { [self] kind in connections(kind, change: -1) },
            conflictRetried: { [self] in conflictRetried() })
    }

    private func connections(_ kind: String, change: Int) {
        let count = inUse.withLock { counts -> Int in
            counts[kind, default: 0] += change
            return counts[kind, default: 0]
        }
        gauge("keyway_database_connections_in_use", [("kind", kind)]).record(count)
    }

    func poolSize(_ size: Int) {
        gauge("keyway_database_pool_size", []).record(size)
    }

    /// The Prometheus text exposition of every metric.
    func exposition() -> String { registry.emitToString() }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
}

/// A ``Database`` that times every transaction into ``ServerMetrics``.
struct MeteredDatabase: Database {
    let inner: any Database
    let metrics: ServerMetrics

    func read<T: Sendable>(_ body: @escaping @Sendable (Repositories) async throws -> T) async throws -> T {
        try await timed("read") { try await inner.read(body) }
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (Repositories) async throws -> T) async throws -> T {
        try await timed("write") { try await inner.write(body) }
    }

    func shutdown() async { await inner.shutdown() }

    func exclusively<T: Sendable>(_ lock: ExclusiveLock, _ body: () async throws -> T) async throws -> T {
        try await inner.exclusively(lock, body)
    }

    private func timed<T>(_ kind: String, _ body: () async throws -> T) async throws -> T {
        let start = ContinuousClock.now
        do {
            let value = try await body()
            metrics.transaction(kind: kind, outcome: "ok", duration: ContinuousClock.now - start)
            return value
        } catch {
            metrics.transaction(kind: kind, outcome: "error", duration: ContinuousClock.now - start)
            throw error
        }
    }
}
