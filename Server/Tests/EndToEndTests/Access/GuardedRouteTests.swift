import Foundation
import KeywayTestSupport
import Testing

@testable import KeywayServer

/// The route table checks the declared caller of every guarded route before the route runs.
@Suite("Guarded routes refuse callers without credentials")
struct GuardedRouteTests {
    /// The guard runs from the declaration alone: every route of a guarded class (admin, backend,
    /// user token, account token, client) refuses a request without credentials, and one with a forged
    /// token, with `401` before its handler reads anything — a route that forgot its guard would
    /// answer otherwise (a `400` for its missing body, a `404` for its unknown ID, or worse).
    @Test func everyGuardedRouteRefusesARequestWithoutCredentials() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let guarded = try server.app.routeTable().callers.filter { _, caller in caller.isGuarded }
            #expect(guarded.count > 40, "\(guarded.count) guarded routes")
            for (key, caller) in guarded.sorted(by: { $0.key < $1.key }) {
                let (method, path) = RouteKeys.request(for: key)
                // A client's routes read their credentials from a form body too: send an empty one.
                var contentType = "application/json"
                var body = method == "GET" || method == "DELETE" ? nil : Data("{}".utf8)
                if case .client? = caller.guardKind {
                    contentType = "application/x-www-form-urlencoded"
                    body = Data()
                }
                let bare = try await server.request(method, path, headers: ["Content-Type": contentType], body: body)
                #expect(bare.status == 401, "\(key) without credentials: \(bare.status)")
                let forged = try await server.request(
                    method, path, headers: ["Content-Type": contentType, "Authorization": "Bearer forged.token.x"],
                    body: body)
                #expect(forged.status == 401, "\(key) with a forged token: \(forged.status)")
            }
        }
    }
}
