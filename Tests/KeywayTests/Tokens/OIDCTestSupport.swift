import Crypto
import Foundation
import Keyway
import KeywayJOSE
import KeywayProtocol

/// Randomness that counts: byte `i` of the `n`-th call is `n + i`, so each draw differs and is
/// known in advance.
final class CountingRandom: KeywayRandom, @unchecked Sendable {
    // @unchecked: `calls` is only touched under `lock`.
    private let lock = NSLock()
    private var calls: UInt8 = 0

    func bytes(_ count: Int) -> [UInt8] {
        let call = lock.withLock {
            calls &+= 1
            return calls
        }
        return (0..<count).map { call &+ UInt8(truncatingIfNeeded: $0) }
    }
}

/// A scripted OpenID provider at `https://auth.example.com`: discovery, its key set, and a token
/// endpoint answering an ID token signed with its key.
struct ScriptedProvider {
    static let issuer = "https://auth.example.com"
    let transport = ScriptedTransport()
    let key = P256.Signing.PrivateKey()
    let accessToken = "eyJ.access.token"

    /// Discovery naming `authorizationEndpoint`, with `authorization_response_iss_parameter_supported`
    /// when `issSupported`; the key set.
    func serveMetadata(authorizationEndpoint: String = "\(issuer)/oauth2/authorize", issSupported: Bool = true) {
        let flag = issSupported ? #", "authorization_response_iss_parameter_supported": true"# : ""
        transport.on(
            "GET /.well-known/openid-configuration",
            json: """
                {"issuer": "\(Self.issuer)", "authorization_endpoint": "\(authorizationEndpoint)",
                 "token_endpoint": "\(Self.issuer)/oauth2/token", "jwks_uri": "\(Self.issuer)/.well-known/jwks.json",
                 "response_types_supported": ["code"], "subject_types_supported": ["public"],
                 "id_token_signing_alg_values_supported": ["ES256"], "grant_types_supported": ["authorization_code"],
                 "code_challenge_methods_supported": ["S256"], "token_endpoint_auth_methods_supported": ["none"],
                 "scopes_supported": ["openid"], "claims_supported": ["sub"]\(flag)}
                """)
        let jwks = try! JSONEncoder().encode(JSONWebKeySet(keys: [ECJWK.publicJWK(for: key.publicKey)]))
        transport.on("GET /.well-known/jwks.json", json: String(decoding: jwks, as: UTF8.self))
    }

    /// A token answer whose ID token carries `nonce` (none when `nil`).
    func serveTokens(nonce: String?) throws {
        let now = Date().timeIntervalSince1970
        let atHash = Base64URL.encode(Array(SHA256.hash(data: Data(accessToken.utf8))).prefix(16))
        var claims: [String: JSONValue] = [
            "iss": .string(Self.issuer), "sub": .string("usr_1"), "aud": .string("cfg_test"),
            "exp": .number(now + 3600), "iat": .number(now), "at_hash": .string(atHash), "sid": .string("ses_1"),
            "email": .string("ada@example.com"),
        ]
        if let nonce { claims["nonce"] = .string(nonce) }
        let kid = ECJWK.publicJWK(for: key.publicKey).kid!
        let idToken = try JWSSigner.signES256(
            payload: try JSONEncoder().encode(JSONValue.object(claims)),
            header: ["typ": .string("JWT"), "kid": .string(kid)], key: key)
        transport.on(
            "POST /oauth2/token",
            json: """
                {"access_token": "\(accessToken)", "token_type": "Bearer", "expires_in": 600,
                 "id_token": "\(idToken)", "refresh_token": "rt_1", "scope": "openid email offline_access"}
                """)
    }

    /// The form of the `index`-th token request.
    func tokenForm(_ index: Int = 0) -> [String: String] {
        let request = transport.requests(to: "POST /oauth2/token")[index]
        var form: [String: String] = [:]
        for pair in String(decoding: request.body ?? Data(), as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            form[parts[0]] = parts.count > 1 ? parts[1].removingPercentEncoding : ""
        }
        return form
    }

    func keyway(
        random: any KeywayRandom = SystemKeywayRandom(), completedSignIns: CompletedSignIns = .handOver
    ) throws -> KeywayClient {
        try KeywayClient(
            configID: "cfg_test", baseURL: URL(string: Self.issuer)!,
            options: KeywayOptions(completedSignIns: completedSignIns, transport: transport, random: random))
    }
}

extension URL {
    /// The query's parameters, percent-decoded.
    var queryParameters: [String: String] {
        var parameters: [String: String] = [:]
        for item in URLComponents(url: self, resolvingAgainstBaseURL: false)?.queryItems ?? [] {
            parameters[item.name] = item.value
        }
        return parameters
    }
}
