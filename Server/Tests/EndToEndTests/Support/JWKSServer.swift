import Foundation
import Hummingbird
import KeywayTestSupport
import KeywayProtocol
import Logging
import NIOCore

/// A second HTTP server on loopback that publishes a key set, as an external issuer's
/// `jwks_uri` would. The set can be replaced (key rotation) and requests are counted.
final class JWKSServer: ScopedTestServer, @unchecked Sendable {
    // @unchecked: `keySet`, `requests`, `server` and `boundPort` are only touched under `lock`.
    private let lock = NSLock()
    private var keySet: JSONWebKeySet
    private var requests = 0
    private var server: LoopbackHTTPServer?
    private var boundPort = 0
    /// The bound port, once started.
    var port: Int { lock.withLock { boundPort } }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/jwks.json")! }

    var requestCount: Int { lock.withLock { requests } }

    init(keys: JSONWebKeySet) {
        keySet = keys
    }

    func publish(_ keys: JSONWebKeySet) {
        lock.withLock { keySet = keys }
    }

    /// Starts serving; answers `self`, so it can be handed to `withTestServer`.
    @discardableResult
    func start() async throws -> Self {
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
        let running = try await LoopbackHTTPServer.start(router, label: "jwks-server")
        lock.withLock {
            server = running
            boundPort = running.port
        }
        return self
    }

    func stop() async {
        await lock.withLock { server }?.stop()
    }
}
