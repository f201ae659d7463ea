import Hummingbird
import HTTPTypes
import NIOCore

/// `GET /metrics`: the server's metrics in the Prometheus text format, for a scraper holding the
/// admin token (`Authorization: Bearer ADMIN_TOKEN`, checked as for `/admin`).
struct MetricsRoutes {
    let metrics: ServerMetrics

    func register(on router: RouteTable) {
        router.declaring(.admin).get("metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
    }
}
