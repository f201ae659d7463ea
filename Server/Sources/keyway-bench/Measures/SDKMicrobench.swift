import Crypto
import Foundation
import Keyway
import KeywayJOSE
import KeywayProtocol

/// The SDK's per-step client work, excluding the network, timed in-process.
enum SDKMicrobench {
    struct Measure: Sendable {
        var name: String
        /// Median over batches, in microseconds per operation.
        var microseconds: Double
    }

    /// An `enterCode` step as the server sends it.
    static let enterCodeStep = Data(
        #"""
        {"actions":[{"fields":[{"autocomplete":"one-time-code","label":"Code","maxLength":6,"minLength":6,"name":"code","pattern":"^[0-9]{6}$","placeholder":"000000","required":true,"type":"code"}],"href":"/v1/flows/flw_YoSf0hkvSYthlBQoFzRBlA/code","label":"Continue","method":"POST","name":"submitCode"},{"fields":[],"href":"/v1/flows/flw_YoSf0hkvSYthlBQoFzRBlA/resend","label":"Send a new code","method":"POST","name":"resend"},{"fields":[],"href":"/v1/flows/flw_YoSf0hkvSYthlBQoFzRBlA","label":"Cancel","method":"DELETE","name":"cancel"}],"enterCode":{"attemptsRemaining":5,"channel":"email","codeLength":6,"destination":"a•••@example.com","expiresAt":"2026-11-23T07:38:21.950Z","resendAt":"2026-11-23T07:28:51.950Z"},"flowExpiresAt":"2026-11-23T07:43:21.950Z","flowId":"flw_YoSf0hkvSYthlBQoFzRBlA","flowToken":"kft_BvETqFHAtGKYiLAViG95Uea4R-_dx2OK0TLybcLvoNA","kind":"enterCode","links":[{"href":"/v1/flows/flw_YoSf0hkvSYthlBQoFzRBlA","rel":"self"}],"messages":[{"code":"codeSent","level":"info","text":"We sent a 6-digit code to a•••@example.com."}],"meta":{"traceId":"5a0a01a5aebed2783c880d926726dc9b"},"stepInfo":{"id":"verifyEmail","label":"Verify your email"}}
        """#.utf8)

    static func run(secondsPerMeasure: Double) async throws -> [Measure] {
        let decoder = WireCoding.makeDecoder()
        let step = try decoder.decode(Step.self, from: enterCodeStep)

        // An ID token as Keyway issues it, verified against a JWKS already in memory.
        let key = P256.Signing.PrivateKey()
        let jwk = ECJWK.publicJWK(for: key.publicKey)
        let keys = JSONWebKeySet(keys: [jwk])
        let accessToken = "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"
        let now = Date().timeIntervalSince1970
        let atHash = Base64URL.encode(Array(SHA256.hash(data: Data(accessToken.utf8))).prefix(16))
        let claims: [String: JSONValue] = [
            "iss": .string("http://127.0.0.1:8080"), "sub": .string("usr_DzK3RvaDrWvaRA0f3oYylw"),
            "aud": .string("cfg_bench"), "azp": .string("cfg_bench"), "exp": .number(now + 3600),
            "iat": .number(now), "auth_time": .number(now), "amr": .array([.string("otp")]),
            "email": .string("ada@example.com"), "email_verified": .bool(true),
            "sid": .string("ses_jwR5YecMTIPwGHJvDHuT3A"), "at_hash": .string(atHash),
        ]
        let idToken = try JWSSigner.signES256(
            payload: try JSONEncoder().encode(JSONValue.object(claims)),
            header: ["typ": .string("JWT"), "kid": .string(jwk.kid ?? "")], key: key)
        // The SDK's own path for a token response: discovery and JWKS answered in-process, read
        // once and cached, as after an app's first sign-in.
        let keyway = try KeywayClient(
            configID: "cfg_bench", baseURL: URL(string: "http://127.0.0.1:8080")!,
            options: KeywayOptions(storage: InMemorySecureStorage(), transport: KeysInProcess(keys: keys)))
        let response = TokenResponse(
            accessToken: Sensitive(accessToken), tokenType: "Bearer", expiresIn: 300, idToken: Sensitive(idToken),
            refreshToken: nil, scope: nil, issuedTokenType: nil)
        _ = try await keyway.tokens.verify(response)

        var generator = SystemRandomNumberGenerator()
        return [
            try time("decode a step (enterCode JSON → Step)", seconds: secondsPerMeasure) {
                _ = try decoder.decode(Step.self, from: enterCodeStep)
            },
            try time("map a step to its prompt", seconds: secondsPerMeasure) {
                _ = PromptContext(step: step)
                guard Prompt(step: step) != nil else { throw BenchFailure("no prompt") }
            },
            try time("generate PKCE (verifier + S256 challenge)", seconds: secondsPerMeasure) {
                _ = PKCE.challenge(for: PKCE.makeVerifier(using: &generator))
            },
            try time("a whole enterCode step: decode + prompt", seconds: secondsPerMeasure) {
                let decoded = try decoder.decode(Step.self, from: enterCodeStep)
                _ = PromptContext(step: decoded)
                guard Prompt(step: decoded) != nil else { throw BenchFailure("no prompt") }
            },
        ] + [
            try await timeAsync("verify a token response's ID token (cached JWKS)", seconds: secondsPerMeasure) {
                _ = try await keyway.tokens.verify(response)
            }
        ]
    }

    /// Median time per call over ten batches, for calls that suspend.
    private static func timeAsync(
        _ name: String, seconds: Double, _ body: () async throws -> Void
    ) async throws -> Measure {
        let clock = ContinuousClock()
        for _ in 0..<50 { try await body() }
        let probeStart = clock.now
        var probe = 0
        while clock.now - probeStart < .milliseconds(Int64(max(1, seconds * 100))) {
            try await body()
            probe += 1
        }
        let batch = max(1, probe)
        var samples: [Double] = []
        for _ in 0..<10 {
            let start = clock.now
            for _ in 0..<batch { try await body() }
            let elapsed = start.duration(to: clock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            samples.append(seconds * 1e6 / Double(batch))
        }
        samples.sort()
        return Measure(name: name, microseconds: (samples[4] + samples[5]) / 2)
    }

    /// Median time per call over ten batches.
    private static func time(_ name: String, seconds: Double, _ body: () throws -> Void) throws -> Measure {
        let clock = ContinuousClock()
        for _ in 0..<50 { try body() }
        // Size a batch to a tenth of the budget.
        let probeStart = clock.now
        var probe = 0
        while clock.now - probeStart < .milliseconds(Int64(max(1, seconds * 100))) {
            try body()
            probe += 1
        }
        let batch = max(1, probe)
        var samples: [Double] = []
        for _ in 0..<10 {
            let start = clock.now
            for _ in 0..<batch { try body() }
            let elapsed = start.duration(to: clock.now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            samples.append(seconds * 1e6 / Double(batch))
        }
        samples.sort()
        return Measure(name: name, microseconds: (samples[4] + samples[5]) / 2)
    }
}

/// The server's discovery document and key set, answered in-process: the SDK's verification
/// without the network.
private struct KeysInProcess: HTTPTransport {
    let keys: JSONWebKeySet

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let issuer = "http://127.0.0.1:8080"
        switch request.url.path {
        case "/.well-known/openid-configuration":
            let document: [String: Any] = [
                "issuer": issuer, "authorization_endpoint": issuer + "/authorize", "token_endpoint": issuer + "/token",
                "jwks_uri": issuer + "/.well-known/jwks.json", "response_types_supported": ["code"],
                "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["ES256"],
                "grant_types_supported": ["authorization_code"], "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["none"], "scopes_supported": ["openid"],
                "claims_supported": ["sub"],
            ]
            return TransportResponse(
                status: 200, headers: ["Content-Type": "application/json"],
                body: try JSONSerialization.data(withJSONObject: document))
        case "/.well-known/jwks.json":
            return TransportResponse(
                status: 200, headers: ["Content-Type": "application/json"], body: try JSONEncoder().encode(keys))
        default:
            return TransportResponse(status: 404, headers: [:], body: Data())
        }
    }
}
