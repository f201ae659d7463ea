import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("An independent OpenID Connect library verifies Keyway's tokens")
struct InteropTests {
    @Test func pythonJoserfcVerifiesTheIDTokenAndAccessToken() async throws {
        let clock = ManualClock(Date())
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "interop@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "interop@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: completion.codeVerifier!)

            let tokenFile = try JSONSerialization.data(withJSONObject: [
                "id_token": tokens.response.idToken!.revealed, "access_token": tokens.response.accessToken.revealed,
            ])
            let (status, text) = try await PythonScript.run(
                "verify_tokens.py",
                ["--issuer", server.baseURL.absoluteString, "--audience", TestServer.configId, "--id-token-alg", "RS256"],
                input: tokenFile)
            #expect(status == 0, "verify_tokens.py: \(text)")
            // The dev application signs its ID tokens RS256, OpenID Connect's default.
            #expect(text.contains("verified RS256 id_token sub=\(tokens.idToken.subject)"))
            #expect(text.contains("verified access_token"))
        }
    }
}

/// JWTs signed by Python's joserfc are accepted as client assertions and exchanged tokens.
@Suite("Keyway accepts JWTs signed by an independent JOSE library")
struct InteropSigningTests {
    /// Runs `Tests/Interop/sign_jwts.py` and returns its standard output.
    static func python(_ arguments: [String]) async throws -> String {
        let (status, text) = try await PythonScript.run("sign_jwts.py", arguments, separateErrors: true)
        guard status == 0 else { throw TestFailure("sign_jwts.py \(arguments.first ?? "") failed: \(text)") }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func json(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    @Test func joserfcAssertionsAndExternalTokensAreAccepted() async throws {
        let clock = ManualClock(Date())
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyDirectory = TestFiles.directory.appendingPathComponent("keyway-keys-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: keyDirectory, withIntermediateDirectories: true)
            let publicKeys = try await Self.python(["keys", keyDirectory.path])
            let keySet = try JSONDecoder().decode(JSONWebKeySet.self, from: Data(publicKeys.utf8))

            // private_key_jwt with both of the Python keys.
            let registrationToken = try await server.app.issueRegistrationToken(templateConfigId: TestServer.configId)
            let registration = try await server.request(
                "POST", "/oauth2/register",
                headers: ["Content-Type": "application/json", "Authorization": "Bearer \(registrationToken.revealed)"],
                body: Data(
                    #"{"token_endpoint_auth_method":"private_key_jwt","jwks":\#(publicKeys),"redirect_uris":["https://backend.example.com/callback"]}"#
                        .utf8))
            #expect(registration.status == 201)
            let clientId = try #require(
                (try JSONSerialization.jsonObject(with: registration.body) as? [String: Any])?["client_id"] as? String)
            let now = Int(clock.now().timeIntervalSince1970)
            for algorithm in ["RS256", "ES256"] {
                let assertion = try await Self.python([
                    "sign", keyDirectory.path, algorithm,
                    try Self.json([
                        "iss": clientId, "sub": clientId, "aud": "\(server.baseURL.absoluteString)/oauth2/token",
                        "iat": now, "exp": now + 60, "jti": UUID().uuidString,
                    ]),
                ])
                let answer = try await server.form(
                    "/oauth2/revoke",
                    ["token": "krt_unknown", "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
                     "client_assertion": assertion])
                #expect(answer.status == 200, "\(algorithm): \(answer.json)")
            }

            // Token exchange of a token the Python "issuer" signed.
            try await server.app.trustIssuer(
                TrustedIssuer(issuer: "https://py-issuer.example", audience: "keyway", keys: keySet))
            let external = try await Self.python([
                "sign", keyDirectory.path, "RS256",
                try Self.json([
                    "iss": "https://py-issuer.example", "sub": "py-user-1", "aud": "keyway", "iat": now, "exp": now + 300,
                    "email": "py@example.com", "email_verified": true,
                ]),
            ])
            let keyway = try makeKeyway(server, clock: clock)
            let tokens = try await keyway.tokens.exchange(externalToken: Sensitive(external))
            #expect(tokens.idToken.authenticationMethods == ["fed"])
        }
    }
}

/// Python (joserfc + urllib) as an independent DPoP client.
@Suite("An independent DPoP client works with Keyway")
struct InteropDPoPTests {
    func run(_ arguments: [String]) async throws -> (Int32, String) {
        try await PythonScript.run("dpop_client.py", arguments)
    }

    @Test(arguments: [false, true])
    func pythonClientBindsUsesAndIsRefusedAsKeywayRequires(requireNonce: Bool) async throws {
        let clock = ManualClock(Date())
        try await withTestServer(TestServer.start(clock: clock)) { server in
            var configId = TestServer.configId
            if requireNonce {
                configId = try await server.app.register(
                    ApplicationRegistration(
                        name: "Nonce app", clientType: .public, autoCreateUsers: true,
                        dpop: DPoPPolicy(mode: .required, requireNonce: true))
                ).configId
            }
            let keyway = try KeywayClient(configID: configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            await keyway.flow.start(identifier: "python-dpop@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "python-dpop@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            // `--name=value`: a base64url value may start with "-", which argparse would take for an option.
            let (status, output) = try await run([
                "--issuer=\(server.baseURL.absoluteString)", "--client-id=\(configId)",
                "--code=\(completion.authCode.revealed)", "--verifier=\(try #require(completion.codeVerifier).revealed)",
                // The server's clock stands still while the machine may be slow: proofs carry its time.
                "--server-time=\(clock.now().timeIntervalSince1970)",
            ])
            #expect(status == 0, "dpop_client.py: \(output)")
            for line in ["ok token bound", "ok userinfo", "ok replayed proof refused", "ok bearer use refused", "ok other key refused"] {
                #expect(output.contains(line), "\(output)")
            }
            #expect(output.contains("ok server asked for a nonce") == requireNonce)
        }
    }
}

