import Foundation
import Testing

@testable import KeywayServer

/// Every route declares who may call it, and `docs/routes.md` — generated from the declarations —
/// lists them all, so access is audited in one page.
@Suite("Every route declares its caller; docs/routes.md lists them")
struct RouteAccessTests {
    /// `docs/routes.md` in the repository.
    static var document: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/routes.md")
    }

    /// The page: one row per route, sorted by path and method.
    static func markdown(_ callers: [String: Caller]) -> String {
        let order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        let rows = callers.map { key, caller -> (path: String, method: String, caller: Caller) in
            let parts = key.split(separator: " ", maxSplits: 1).map(String.init)
            return (parts[1].replacingOccurrences(of: "**", with: "{path}"), parts[0], caller)
        }
        .sorted { ($0.path, order.firstIndex(of: $0.method) ?? 99) < ($1.path, order.firstIndex(of: $1.method) ?? 99) }
        var lines = [
            "# Who may call each route",
            "",
            "Generated from the server's route table (`scripts/routes-doc`); a test fails when this page and the",
            "declarations differ, or when a route declares no caller. Every route declares its caller where it is",
            "registered (`RouteTable.declaring(_:)`, `Server/Sources/KeywayServer/Access/`). The admin token, the",
            "backend roles, users' access tokens and clients' credentials are checked by the route table before",
            "the route's handler runs (\"route table guard\"); every other class by the one component all routes of",
            "the class go through, named in the last column. `OPTIONS` answers CORS preflights, which carry no",
            "credentials.",
            "See [server.md](server.md) for what an anonymous request can make the server keep, and",
            "[admin.md](admin.md) for the backend roles.",
            "",
            "| Method | Path | Caller | Checked by |",
            "| --- | --- | --- | --- |",
        ]
        for row in rows {
            lines.append("| \(row.method) | `\(row.path)` | \(row.caller.name) | \(row.caller.checkedBy) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func everyRouteDeclaresWhoMayCallIt() async throws {
        let table = try await RouteCoverageTests.routeTable()
        #expect(
            table.undeclared.isEmpty,
            "Routes registered without a declared caller (register them through RouteTable.declaring(_:)):\n\(table.undeclared.sorted().joined(separator: "\n"))")
        // The declarations mean something: both guarded classes and open routes are there.
        #expect(table.callers["GET /admin/applications"] == .admin)
        #expect(table.callers["POST /v1/powerauth/signatures/verify"] == .backend(.powerAuth))
        #expect(table.callers["GET /.well-known/jwks.json"] == .anyone)
        #expect(table.callers["POST /v1/flows"] == .anyone && table.callers["GET /v1/flows/{flowId}"] == .flow)
        #expect(table.callers["GET /metrics"] == .metrics)
        #expect(table.callers["POST /oauth2/token"] == .client)
        #expect(table.callers["POST /oauth2/introspect"] == .confidentialClient)
    }

    @Test func docsRoutesListsEveryRouteWithItsCaller() async throws {
        let table = try await RouteCoverageTests.routeTable()
        let rendered = Self.markdown(table.callers)
        if ProcessInfo.processInfo.environment["KEYWAY_WRITE_ROUTES_DOC"] == "1" {
            try rendered.write(to: Self.document, atomically: true, encoding: .utf8)
        }
        let current = try? String(contentsOf: Self.document, encoding: .utf8)
        #expect(current == rendered, "docs/routes.md differs from the route table's declarations; run scripts/routes-doc")
    }
}
