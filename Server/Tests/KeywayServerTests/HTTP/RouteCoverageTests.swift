import Foundation
import HTTPTypes
import KeywayTestSupport
import Logging
import Testing

@testable import KeywayServer

/// The OpenAPI document (`Resources/openapi.json`) describes every route the server registers,
/// and nothing else.
@Suite("The OpenAPI document and the routes agree")
struct RouteCoverageTests {
    /// The document's operations as `METHOD /path` (`GET /v1/flows/{flowId}`).
    static func documentedOperations() throws -> Set<String> {
        let document = try OpenAPIDocumentCheck.document()
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: Set<String> = []
        for (path, item) in paths {
            for method in item.keys where OpenAPIDocumentCheck.methods.contains(method) {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    /// The real router's routes as `METHOD /path`, Hummingbird's `:name` captures written `{name}`
    /// (and its `**`, the rest of the path, `{path}`);
    /// the `HEAD` the router answers wherever `GET` is stays implicit, as in the document.
    static func registeredOperations() async throws -> Set<String> {
        let routes = try await routeTable().registeredRoutes
        var operations: Set<String> = []
        for (path, methods) in routes {
            let templated = path.split(separator: "/", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : $0 == "**" ? "{path}" : String($0) }
                .joined(separator: "/")
            for method in methods { operations.insert("\(method.rawValue) \(templated)") }
        }
        return operations
    }

    /// The route table of a dev-mode server (the dev routes included).
    static func routeTable() async throws -> RouteTable {
        let folder = TestFiles.directory.appendingPathComponent("route-coverage-\(UUID().uuidString)")
        var configuration = ServerConfiguration(
            port: 0, database: .sqlite(path: folder.appendingPathComponent("keyway.sqlite").path), devMode: true,
            devConfigId: "cfg_routes")
        configuration.masterKey = MasterKey.generate()
        var logger = Logger(label: "routes")
        logger.logLevel = .warning
        let app = try await KeywayServerApp.bootstrap(configuration: configuration, logger: logger)
        let table: RouteTable
        do {
            table = try app.routeTable()
        } catch {
            await app.database.shutdown()
            throw error
        }
        await app.database.shutdown()
        return table
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedOperationIsARoute() async throws {
        let documented = try Self.documentedOperations()
        let registered = try await Self.registeredOperations()
        let undocumented = registered.subtracting(documented).sorted()
        let unrouted = documented.subtracting(registered).sorted()
        #expect(
            undocumented.isEmpty,
            "Routes the OpenAPI document (Server/Sources/KeywayServer/Resources/openapi.json) does not describe:\n\(undocumented.joined(separator: "\n"))"
        )
        #expect(
            unrouted.isEmpty,
            "Operations of the OpenAPI document that no route answers:\n\(unrouted.joined(separator: "\n"))")
        // The comparison means something: both sides hold the flow API and the admin API.
        #expect(registered.contains("POST /v1/flows"))
        #expect(registered.contains("PUT /admin/applications/{configId}/policy"))
        #expect(registered.contains("GET /openapi.json"))
    }

    @Test func theDocumentIsWellFormedOpenAPI31() throws {
        let problems = try OpenAPIDocumentCheck.problems(in: OpenAPIDocumentCheck.document())
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
