import Foundation
import KeywayTestSupport
import Testing

@Suite("The server serves its OpenAPI document")
struct OpenAPIDocumentTests {
    /// The document as kept in the repository.
    static let repositoryCopy = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/KeywayServer/Resources/openapi.json")

    @Test func getOpenAPIJSONAnswersTheRepositorysDocument() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let response = try await server.request("GET", "/openapi.json")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/json")
            #expect(response.body == (try Data(contentsOf: Self.repositoryCopy)))
            let document = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: Any])
            #expect(paths["/openapi.json"] != nil)
            #expect(paths["/v1/flows"] != nil)
            // HEAD, as wherever GET is.
            let head = try await server.request("HEAD", "/openapi.json")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
        }
    }
}
