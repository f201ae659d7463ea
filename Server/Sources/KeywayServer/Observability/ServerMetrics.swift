import Foundation
import Prometheus

/// The server's metrics, in a Prometheus registry of this server's own (two servers in one
/// process keep theirs apart), exported at `GET /metrics` with a `# HELP` line each
/// (``MetricsRoutes``; who reads them and where: ``MetricsExposure``).
///
/// | Metric | Labels |
/// | --- | --- |
/// | `keyway_build_info` (gauge, always 1) | `version` |
/// | `keyway_http_requests_total` | `route` (the route's template, `/v1/flows/{flowId}/code`; `unmatched` for every path no route answers), `method`, `status` |
/// | `keyway_http_request_duration_seconds` (histogram) | `route`, `method` |
/// | `keyway_http_requests_in_progress` (gauge) | (requests the public listener is answering now) |
/// | `keyway_flows_started_total` | `flow_type` |
/// | `keyway_flows_completed_total` | `flow_type`, `method` (the primary method) |
/// | `keyway_tokens_issued_total` | `grant` (`authorization_code`, `refresh_token`, `token_exchange`, `guest`) |
/// | `keyway_problems_total` | `code` (every problem document the API answered: refused codes, rate limits, bad input…) |
/// | `keyway_messages_total` | `channel`, `outcome` (`delivered`, `retry`, `dead`) |
/// | `keyway_outbox_waiting_messages` (gauge) | (messages pending or being sent, read at each scrape) |
/// | `keyway_outbox_oldest_waiting_seconds` (gauge) | (the age of the oldest of them; 0 when none waits) |
/// | `keyway_refresh_reuse_detected_total` | |
/// | `keyway_rate_limited_total` | `limit` (the limit's name; per identifier, `…-per-client` or `…-slowed`) |
/// | `keyway_database_transaction_duration_seconds` (histogram) | `kind` (`read`, `write`), `outcome` |
/// | `keyway_database_conflicts_retried_total` | (PostgreSQL serialization conflicts run again) |
/// | `keyway_database_round_trips_total` | `route`, `method`: the statements requests sent to PostgreSQL, each a round trip (`BEGIN` and `COMMIT` included); divided by `keyway_http_requests_total`, the round trips per request. Not on SQLite, which runs in the process. |
/// | `keyway_database_connection_wait_seconds` (histogram) | `kind`: how long a transaction waited for its connection (a pool connection on PostgreSQL; the single writer, or a reader, on SQLite) |
/// | `keyway_database_connections_in_use` (gauge) | `kind` |
/// | `keyway_database_pool_size` (gauge) | (the most connections the pool opens; 1, the writer, on SQLite) |
///
/// The process's own (`process_cpu_seconds_total`, `process_resident_memory_bytes`, …) are added
/// at each scrape by ``ProcessMetrics``.
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let inUse = Locked<[String: Int]>([:])
    /// Metric handles made once per label and dimensions: making one looks it up in the registry
    /// and checks its name, which every request would otherwise pay.
    private let counters = Locked<[String: Prometheus.Counter]>([:])
    private let histograms = Locked<[String: DurationHistogram]>([:])
    private let gauges = Locked<[String: Prometheus.Gauge]>([:])

    /// The buckets of every duration histogram.
    static let buckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .seconds(2.5), .seconds(5), .seconds(10),
    ]

    /// The `# HELP` text of each metric: one per name, as the exposition format wants.
    static let help: [String: String] = [
        "keyway_build_info": "The running Keyway server's version; always 1.",
        "keyway_http_requests_total": "HTTP requests answered, by route template, method and status.",
        "keyway_http_request_duration_seconds": "Time to answer an HTTP request, by route template and method.",
        "keyway_http_requests_in_progress": "HTTP requests the public listener is answering now.",
        "keyway_flows_started_total": "Flows started, by flow type.",
        "keyway_flows_completed_total": "Flows completed, by flow type and primary method.",
        "keyway_tokens_issued_total": "Token responses issued, by grant.",
        "keyway_problems_total": "Problem documents answered, by code.",
        "keyway_messages_total": "Delivery attempts of codes, links and events, by channel and outcome.",
        "keyway_outbox_waiting_messages": "Messages of the delivery outbox pending or being sent.",
        "keyway_outbox_oldest_waiting_seconds": "Age of the oldest message of the delivery outbox still waiting; 0 when none waits.",
        "keyway_refresh_reuse_detected_total": "Refresh tokens used again after rotation (their family and session revoked).",
        "keyway_rate_limited_total": "Requests refused by a rate limit, by limit.",
        "keyway_database_transaction_duration_seconds": "Time in database transactions, by kind and outcome.",
        "keyway_database_conflicts_retried_total": "PostgreSQL transactions run again after a serialization conflict.",
        "keyway_database_round_trips_total": "Statements sent to PostgreSQL while answering requests, each a round trip, by route template and method.",
        "keyway_database_connection_wait_seconds": "Time a transaction waited for its database connection, by kind.",
        "keyway_database_connections_in_use": "Database connections held by transactions now, by kind.",
        "keyway_database_pool_size": "The most database connections the pool opens.",
    ]

    init() {
        registry = PrometheusCollectorRegistry()
        gauge("keyway_build_info", [("version", KeywayServerApp.version)]).set(to: 1)
    }

    func request(route: String, method: String, status: Int, duration: Duration) {
        counter("keyway_http_requests_total", [("route", route), ("method", method), ("status", String(status))]).increment()
        histogram("keyway_http_request_duration_seconds", [("route", route), ("method", method)]).record(duration)
    }

    func flowStarted(flowType: String) {
        counter("keyway_flows_started_total", [("flow_type", flowType)]).increment()
    }

    func flowCompleted(flowType: String, method: String) {
        counter("keyway_flows_completed_total", [("flow_type", flowType), ("method", method)]).increment()
    }

    /// A token response issued by `grant` (a grant type's short name, or `guest`).
    func tokensIssued(grant: String) {
        counter("keyway_tokens_issued_total", [("grant", grant)]).increment()
    }

    func problem(code: String) {
        counter("keyway_problems_total", [("code", code)]).increment()
    }

    func message(channel: String, outcome: String) {
        counter("keyway_messages_total", [("channel", channel), ("outcome", outcome)]).increment()
    }

    /// The delivery outbox's queue as read for a scrape: how many wait, and the oldest's age.
    func outbox(waiting: Int, oldestAge: Duration) {
        gauge("keyway_outbox_waiting_messages", []).set(Int64(waiting))
        gauge("keyway_outbox_oldest_waiting_seconds", []).set(Double(Self.nanoseconds(oldestAge)) / 1e9)
    }

    func refreshReuseDetected() {
        counter("keyway_refresh_reuse_detected_total", []).increment()
    }

    func rateLimited(limit: String) {
        counter("keyway_rate_limited_total", [("limit", limit)]).increment()
    }

    func transaction(kind: String, outcome: String, duration: Duration) {
        histogram("keyway_database_transaction_duration_seconds", [("kind", kind), ("outcome", outcome)]).record(duration)
    }

    /// The statements (round trips) a request of `route` sent to PostgreSQL.
    func databaseRoundTrips(route: String, method: String, count: Int) {
        counter("keyway_database_round_trips_total", [("route", route), ("method", method)]).increment(by: Int64(count))
    }

    func conflictRetried() {
        counter("keyway_database_conflicts_retried_total", []).increment()
    }

    private static func key(_ label: String, _ dimensions: [(String, String)]) -> String {
        dimensions.reduce(into: label) { key, dimension in
            key += "\u{0}" + dimension.0 + "\u{0}" + dimension.1
        }
    }

    /// The descriptor of `name`, with its help text.
    private static func descriptor(_ name: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help[name] ?? "")
    }

    private func counter(_ name: String, _ labels: [(String, String)]) -> Prometheus.Counter {
        Self.cached(in: counters, name, labels) {
            labels.isEmpty
                ? registry.makeCounter(descriptor: Self.descriptor(name))
                : registry.makeCounter(descriptor: Self.descriptor(name), labels: labels)
        }
    }

    private func histogram(_ name: String, _ labels: [(String, String)]) -> DurationHistogram {
        Self.cached(in: histograms, name, labels) {
            labels.isEmpty
                ? registry.makeDurationHistogram(descriptor: Self.descriptor(name), buckets: Self.buckets)
                : registry.makeDurationHistogram(descriptor: Self.descriptor(name), labels: labels, buckets: Self.buckets)
        }
    }

    private func gauge(_ name: String, _ labels: [(String, String)]) -> Prometheus.Gauge {
        Self.cached(in: gauges, name, labels) {
            labels.isEmpty
                ? registry.makeGauge(descriptor: Self.descriptor(name))
                : registry.makeGauge(descriptor: Self.descriptor(name), labels: labels)
        }
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
                histogram("keyway_database_connection_wait_seconds", [("kind", kind)]).record(waited)
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
        gauge("keyway_database_connections_in_use", [("kind", kind)]).set(Int64(count))
    }

    /// How many requests the public listener is answering now (``RequestsInProgress``).
    func requestsInProgress(_ count: Int) {
        gauge("keyway_http_requests_in_progress", []).set(Int64(count))
    }

    func poolSize(_ size: Int) {
        gauge("keyway_database_pool_size", []).set(Int64(size))
    }

    /// The Prometheus text exposition of every metric, the process's own included.
    func exposition() -> String { registry.emitToString() + ProcessMetrics.exposition() }

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
