import Foundation
import Hummingbird
import KeywayProtocol
import Logging
import NIOCore

/// A second HTTP server on loopback that publishes a key set, as an external issuer's
/// `jwks_uri` would. The set can be replaced (key rotation) and requests are counted.
final class JWKSServer: @unchecked Sendable {
    // @unchecked: `keySet` and `requests` are only touched under `lock`.
    private let lock = NSLock()
    private var keySet: JSONWebKeySet
    private var requests = 0
    private var task: Task<Void, any Error>?
    private(set) var port = 0

    var url: URL { URL(string: "http://127.0.0.1:\(port)/jwks.json")! }

    var requestCount: Int { lock.withLock { requests } }

    init(keys: JSONWebKeySet) {
        keySet = keys
    }

    func publish(_ keys: JSONWebKeySet) {
        lock.withLock { keySet = keys }
    }

    func start() async throws {
        let router = Router()
        router.get("jwks.json") { _, _ -> Response in
            let body = try self.lock.withLock { () throws -> Data in
                self.requests += 1
                return try JSONEncoder().encode(self.keySet)
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        // Discovery, for clients that start from the issuer URL (the issuer is this server).
        router.get(".well-known/openid-configuration") { request, _ -> Response in
            let base = "http://\(request.head.authority ?? "127.0.0.1")"
            let document: [String: Any] = [
                "issuer": base, "authorization_endpoint": "\(base)/authorize", "token_endpoint": "\(base)/token",
                "jwks_uri": "\(base)/jwks.json", "response_types_supported": ["code"],
                "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["ES256"],
                "grant_types_supported": ["authorization_code"], "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic"], "scopes_supported": ["openid"],
                "claims_supported": ["sub"],
            ]
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: document))))
        }
        let (bound, running) = try await LoopbackServer.start(router, label: "jwks-server")
        task = running
        port = bound
    }

    func stop() async {
        task?.cancel()
        _ = try? await task?.value
    }
}
