import Hummingbird

/// Health for load balancers and orchestrators:
/// - `GET /health/live`: the process serves HTTP (no database call: a slow database must not get
///   a live process restarted);
/// - `GET /health/ready`: the database answers within ``patience`` and has every migration this
///   server knows, so the instance can take traffic; `503` with the reason otherwise (a probe's
///   own timeout, often a second, is not waited out while the database is away);
/// - `GET /health`: the same as ready (kept for existing probes).
struct HealthRoutes {
    let database: any Database
    /// How long readiness waits for the database's answer.
    var patience: Duration = .seconds(1)

    private struct Health: Encodable {
        let status: String
        var reason: String? = nil
    }

    func register(on router: RouteTable) {
        let router = router.declaring(.anyone)
        router.get("health/live") { _, _ in
            try HTTPResponses.json(Health(status: "ok"))
        }
        router.get("health/ready") { _, _ in try await ready() }
        router.get("health") { _, _ in try await ready() }
    }

    private func ready() async throws -> Response {
        let latest = Int64(Migrations.all.last?.version ?? 0)
        let applied: Int64?
        do {
            applied = try await Self.within(patience) { [database] in
                try await database.read {
                    try await $0.sql.raw("SELECT MAX(version) AS version FROM keyway_migrations").first()?
                        .decode(column: "version", as: Int64?.self)
                }
            }
        } catch {
            return try HTTPResponses.json(
                Health(status: "unavailable", reason: "The database does not answer."), status: .serviceUnavailable)
        }
        guard let applied, applied >= latest else {
            return try HTTPResponses.json(
                Health(status: "unavailable", reason: "The database lacks migrations this server needs."),
                status: .serviceUnavailable)
        }
        return try HTTPResponses.json(Health(status: "ok"))
    }

    /// `body`'s answer, or ``DatabaseUnavailable`` once `patience` passed first (`body` is then
    /// cancelled: a wait for a connection is withdrawn).
    private static func within<T: Sendable>(
        _ patience: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try? await Task.sleep(for: patience)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            guard let first else { throw DatabaseUnavailable(description: "The database did not answer within \(patience).") }
            return first
        }
    }
}
