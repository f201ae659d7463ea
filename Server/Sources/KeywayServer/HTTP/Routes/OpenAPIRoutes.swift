import Foundation
import Hummingbird
import NIOCore

/// `GET /openapi.json`: the OpenAPI 3.1 document of every public HTTP operation, as kept in the
/// repository (`Resources/openapi.json`, bundled with the module). Read once, at start.
struct OpenAPIRoutes {
    func register(on router: RouteTable) throws {
        let router = router.declaring(.anyone)
        guard let document = OpenAPIDocument.data else {
            throw ConfigurationError("openapi.json is missing from the KeywayServer resources.")
        }
        let body = ByteBuffer(bytes: document)
        router.get("openapi.json") { _, _ in
            HTTPResponses.json(encoded: body, cacheControl: "no-store")
        }
    }
}

/// The server's OpenAPI document as bundled with the module.
enum OpenAPIDocument {
    /// The document's bytes, read from the bundle on first use; `nil` when the resource is missing.
    static let data: Data? = Bundle.module.url(forResource: "openapi", withExtension: "json")
        .flatMap { try? Data(contentsOf: $0) }
}
