import Crypto
import Foundation
import Hummingbird
import KeywayJOSE
import KeywayProtocol
import KeywayTestSupport
import NIOCore

/// A small OpenID Connect provider on loopback that Keyway signs users in with: discovery, a key
/// set, and a token endpoint that checks the client's credentials, the PKCE verifier, the
/// redirect URI and single use of its codes. The test plays the user at the authorization
/// endpoint: ``issueCode(for:authorizationURL:)`` hands out the code the provider would.
final class StandInOIDCProvider: ScopedTestServer, @unchecked Sendable {
    // @unchecked: `codes`, `server`, `boundPort`, the counters and the key are only touched under `lock`.
    private struct Grant {
        var claims: [String: JSONValue]
        var codeChallenge: String
        var redirectURI: String
    }

    let clientId: String
    let clientSecret: String
    private var currentKey = P256.Signing.PrivateKey()
    private var currentKid: String?
    private var keySetRequests = 0
    private let lock = NSLock()
    private var codes: [String: Grant] = [:]
    private var server: LoopbackHTTPServer?
    private var boundPort = 0
    private var tokenRequests = 0
    /// The clock its tokens' times come from: the server's, once `follow(_:)` named it (a test
    /// server's clock stands still while the test runs, however long that takes).
    private var clock: ManualClock?

    var port: Int { lock.withLock { boundPort } }
    var issuer: String { "http://127.0.0.1:\(port)" }
    var tokenRequestCount: Int { lock.withLock { tokenRequests } }
    /// How many times the key set was fetched.
    var keySetRequestCount: Int { lock.withLock { keySetRequests } }
    /// The key the provider signs ID tokens with, and publishes.
    var key: P256.Signing.PrivateKey { lock.withLock { currentKey } }
    /// The `kid` of the published key; `nil` publishes it without one.
    var kid: String? { lock.withLock { currentKid } }

    /// Replaces the signing key (and the published set) with a new one named `kid`, as a
    /// provider rotating its keys does.
    func rotateKey(kid: String?) {
        lock.withLock {
            currentKey = P256.Signing.PrivateKey()
            currentKid = kid
        }
    }

    /// Issues its tokens at the times of `clock` (the server's).
    func follow(_ clock: ManualClock) {
        lock.withLock { self.clock = clock }
    }

    init(clientId: String = "keyway-client", clientSecret: String = "provider-secret-0123", kid: String? = "p1") {
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.currentKid = kid
    }

    /// What the provider would do once the user signed in at `authorizationURL`: a code for an
    /// ID token with `claims` (plus `iss`, `aud`, `exp`, `iat` and the request's `nonce`).
    func issueCode(for claims: [String: JSONValue], authorizationURL: String) throws -> (code: String, state: String) {
        let items = URLComponents(string: authorizationURL)?.queryItems ?? []
        func item(_ name: String) throws -> String {
            guard let value = items.first(where: { $0.name == name })?.value else {
                throw TestFailure("The authorization URL has no \(name): \(authorizationURL)")
            }
            return value
        }
        guard try item("client_id") == clientId, try item("response_type") == "code",
            try item("code_challenge_method") == "S256"
        else { throw TestFailure("Unexpected authorization request: \(authorizationURL)") }
        var full = claims
        full["nonce"] = .string(try item("nonce"))
        let code = "code-\(UUID().uuidString)"
        let grant = Grant(claims: full, codeChallenge: try item("code_challenge"), redirectURI: try item("redirect_uri"))
        lock.withLock { codes[code] = grant }
        return (code, try item("state"))
    }

    @discardableResult
    func start() async throws -> Self {
        let router = Router()
        router.get(".well-known/openid-configuration") { _, _ -> Response in
            let base = self.issuer
            return try Self.json([
                "issuer": base, "authorization_endpoint": "\(base)/authorize", "token_endpoint": "\(base)/token",
                "jwks_uri": "\(base)/jwks.json", "response_types_supported": ["code"],
                "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["ES256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic"],
            ])
        }
        router.get("jwks.json") { _, _ -> Response in
            let (key, kid) = self.lock.withLock { () -> (P256.Signing.PrivateKey, String?) in
                self.keySetRequests += 1
                return (self.currentKey, self.currentKid)
            }
            var jwk = ECJWK.publicJWK(for: key.publicKey)
            jwk.kid = kid
            let body = try JSONEncoder().encode(JSONWebKeySet(keys: [jwk]))
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.post("token") { request, _ -> Response in
            self.lock.withLock { self.tokenRequests += 1 }
            let expected = "Basic " + Data("\(self.clientId):\(self.clientSecret)".utf8).base64EncodedString()
            guard request.headers[.authorization] == expected else {
                return try Self.json(["error": "invalid_client"], status: .unauthorized)
            }
            let raw = String(decoding: Data(try await request.body.collect(upTo: 1 << 16).readableBytesView), as: UTF8.self)
            var form: [String: String] = [:]
            for pair in raw.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map {
                    String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
                }
                if parts.count == 2 { form[parts[0]] = parts[1] }
            }
            let grant = self.lock.withLock { () -> Grant? in
                guard let code = form["code"] else { return nil }
                return self.codes.removeValue(forKey: code)
            }
            guard form["grant_type"] == "authorization_code", let grant, form["redirect_uri"] == grant.redirectURI,
                let verifier = form["code_verifier"], PKCE.challenge(for: verifier) == grant.codeChallenge
            else { return try Self.json(["error": "invalid_grant"], status: .badRequest) }
            let now = (self.lock.withLock { self.clock }?.now() ?? Date()).timeIntervalSince1970.rounded(.down)
            var claims = grant.claims
            claims["iss"] = claims["iss"] ?? .string(self.issuer)
            claims["aud"] = claims["aud"] ?? .string(self.clientId)
            claims["iat"] = .number(now)
            claims["exp"] = .number(now + 600)
            let (key, kid) = self.lock.withLock { (self.currentKey, self.currentKid) }
            var header: [String: JSONValue] = [:]
            if let kid { header["kid"] = .string(kid) }
            let idToken = try JWSSigner.signES256(
                payload: Data(JSONValue.object(claims).serialized().utf8), header: header, key: key)
            return try Self.json(["access_token": "at-\(UUID().uuidString)", "token_type": "Bearer", "id_token": idToken])
        }
        let running = try await LoopbackHTTPServer.start(router, label: "oidc-provider")
        lock.withLock {
            server = running
            boundPort = running.port
        }
        return self
    }

    func stop() async {
        await lock.withLock { server }?.stop()
    }

    private static func json(_ object: [String: Any], status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))))
    }
}
