import Hummingbird

/// `GET /health`: answers while the server runs and its database answers.
struct HealthRoutes {
    let database: any Database

    private struct Health: Encodable {
        let status: String
    }

    func register(on router: RouteTable) {
        router.get("health") { _, _ in
            _ = try await database.read { try await $0.sql.raw("SELECT 1 AS ok").first() }
            return try HTTPResponses.json(Health(status: "ok"))
        }
    }
}
