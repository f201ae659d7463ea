import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /metrics`: the server's metrics in the Prometheus text format, to a scraper holding the
/// metrics token or the admin token (``MetricsAuthorization``), on the metrics listener or — where
/// the operator asked for it — the public one. The delivery outbox's queue is read for each scrape,
/// within the database's usual deadlines; while the database is away the last reading stays.
struct MetricsRoutes {
    let metrics: ServerMetrics
    let database: any Database
    let clock: any ServerClock

    func register(on router: RouteTable) {
        router.declaring(.metrics).get("metrics") { _, _ in
            if let backlog = try? await database.read({ try await $0.deliveryOutbox.backlog() }) {
                let now = clock.now().epochMilliseconds
                let age = backlog.oldestCreatedAt.map { Duration.milliseconds(max(0, now - $0)) } ?? .zero
                metrics.outbox(waiting: backlog.count, oldestAge: age)
            }
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
    }
}
