import Crypto
import Foundation
import Hummingbird
@testable import Keyway
import KeywayBackend
import KeywayPowerAuth
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import NIOCore
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app's own backend with end-to-end encryption, MAC tokens and device signatures:
/// `KeywayBackend` gets each envelope's key from the real server and opens and seals bodies
/// itself; `PowerAuthEncryptionMiddleware` and `PowerAuthTokenMiddleware` guard real Hummingbird
/// routes.
@Suite("PowerAuth for an app's backend: encrypted requests and answers, tokens, device signatures")
struct PowerAuthBackendEncryptionTests {
    /// Routes of "the app's own API" on an ephemeral port: echoes behind the encryption
    /// middleware (each scope), a signed and encrypted payment, a token-protected balance.
    struct API: ScopedTestServer {
        let port: Int
        let server: LoopbackHTTPServer

        static func start(_ keyway: KeywayBackend) async throws -> API {
            let router = Router(context: KeywayBackendRequestContext.self)
            for scope in [PowerAuthEncryptionScope.application, .activation] {
                router.group("echo")
                    .add(middleware: PowerAuthEncryptionMiddleware(backend: keyway, scope: scope))
                    .post(RouterPath(stringLiteral: scope.rawValue)) { request, context -> Response in
                        var request = request
                        let body = try await request.collectBody(upTo: 1 << 20)
                        let opened = try #require(context.keywayEncryption)
                        let answer: [String: String?] = [
                            "echo": String(buffer: body), "scope": opened.scope.rawValue, "userId": opened.userId,
                            "activationId": opened.activationId, "applicationId": opened.applicationId,
                        ]
                        return Response(
                            status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(answer))))
                    }
            }
            // The endpoint declared once, for both middlewares.
            let pay = PowerAuthEndpoint(
                path: "/payments/pay", uriId: "/payments/pay", factors: .atLeast([.possession, .knowledge]),
                sharedInfo1: .activationScopeGeneric)
            router.group("payments")
                .add(middleware: PowerAuthSignatureMiddleware(backend: keyway, endpoint: pay))
                .add(middleware: PowerAuthEncryptionMiddleware(backend: keyway, endpoint: pay))
                .post("pay") { request, context -> String in
                    var request = request
                    let body = try await request.collectBody(upTo: 1 << 20)
                    return "paid \(String(buffer: body)) by \(context.keywaySignature?.userId ?? "?")"
                }
            router.group("accounts")
                .add(middleware: PowerAuthTokenMiddleware(backend: keyway, requiredFactors: [.possession, .knowledge]))
                .get("balance") { _, context -> String in "balance of \(context.keywayToken?.userId ?? "?")" }
            let server = try await LoopbackHTTPServer.start(router, label: "encrypted API")
            return API(port: server.port, server: server)
        }

        func stop() async { await server.stop() }

        func send(_ path: String, method: String = "POST", headers: [String: String], body: Data?) async throws
            -> (status: Int, json: [String: Any], text: String)
        {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = method
            request.httpBody = body
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            let (data, response) = try await URLSession.shared.data(for: request)
            return (
                (response as? HTTPURLResponse)?.statusCode ?? 0,
                (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:], String(decoding: data, as: UTF8.self)
            )
        }
    }

    static func reason(_ json: [String: Any]) -> String? {
        (json["responseObject"] as? [String: Any])?["reason"] as? String
    }

    @Test func encryptedRequestsOfBothScopesAreOpenedAnsweredSealedAndNeverTwice() async throws {
        try await PowerAuthFixture.run { fixture in
            let device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let activationId = try #require(device.activationId)
            let keyway = try await PowerAuthBackendTests.backend(fixture)
            try await withTestServer(API.start(keyway)) { api in
                let plaintext = Data(#"{"question":"what is the rate?"}"#.utf8)
                for activationScope in [false, true] {
                    let sealed = try await device.sealGeneric(plaintext, activationScope: activationScope)
                    let body = try JSONSerialization.data(withJSONObject: sealed.body)
                    let headers = ["X-PowerAuth-Encryption": device.genericEncryptionHeader(activationScope: activationScope)]
                    let path = activationScope ? "/echo/activation" : "/echo/application"
                    let answer = try await api.send(path, headers: headers, body: body)
                    #expect(answer.status == 200, "\(answer.text)")
                    #expect(answer.json["encryptedData"] is String && answer.json["mac"] is String)
                    #expect(answer.json["echo"] == nil, "the answer is sealed")
                    let opened = try JSONSerialization.jsonObject(
                        with: try PowerAuthTestDevice.open(answer.json, with: sealed.context)) as? [String: Any] ?? [:]
                    #expect(opened["echo"] as? String == String(decoding: plaintext, as: UTF8.self))
                    #expect(opened["scope"] as? String == (activationScope ? "activation" : "application"))
                    #expect(opened["applicationId"] as? String == TestServer.configId)
                    if activationScope {
                        #expect(opened["activationId"] as? String == activationId)
                        #expect(opened["userId"] as? String == fixture.userId)
                    }
                    // The same envelope again: its key was handed out once.
                    let replayed = try await api.send(path, headers: headers, body: body)
                    #expect(replayed.status == 400)
                    #expect(Self.reason(replayed.json) == "replayed_envelope", "\(replayed.text)")
                    #expect((replayed.json["responseObject"] as? [String: Any])?["code"] as? String == "ERR_ENCRYPTION")
                }

                // A request sealed six minutes ago is stale.
                let old = UInt64(fixture.clock.now().timeIntervalSince1970 * 1000) - 6 * 60 * 1000
                let stale = try await device.sealGeneric(plaintext, activationScope: false, timestamp: old)
                let staleAnswer = try await api.send(
                    "/echo/application", headers: ["X-PowerAuth-Encryption": device.genericEncryptionHeader(activationScope: false)],
                    body: try JSONSerialization.data(withJSONObject: stale.body))
                #expect(staleAnswer.status == 400)
                #expect(Self.reason(staleAnswer.json) == "stale_envelope", "\(staleAnswer.text)")

                // An altered ciphertext does not match its MAC.
                var altered = try await device.sealGeneric(plaintext, activationScope: false).body
                var bytes = Data(base64Encoded: altered["encryptedData"] as! String)!
                bytes[0] ^= 1
                altered["encryptedData"] = bytes.base64EncodedString()
                let alteredAnswer = try await api.send(
                    "/echo/application", headers: ["X-PowerAuth-Encryption": device.genericEncryptionHeader(activationScope: false)],
                    body: try JSONSerialization.data(withJSONObject: altered))
                #expect(alteredAnswer.status == 400)
                #expect(Self.reason(alteredAnswer.json) == "authentication_failed", "\(alteredAnswer.text)")

                // Malformed envelopes, a missing header, a scope the route does not take.
                let good = try JSONSerialization.data(
                    withJSONObject: try await device.sealGeneric(plaintext, activationScope: false).body)
                for (path, headers, body) in [
                    ("/echo/application", ["X-PowerAuth-Encryption": device.genericEncryptionHeader(activationScope: false)], Data("{}".utf8)),
                    ("/echo/application", ["X-PowerAuth-Encryption": device.genericEncryptionHeader(activationScope: false)], plaintext),
                    ("/echo/application", [:], good),
                    ("/echo/application", ["X-PowerAuth-Encryption": "Bearer x"], good),
                    ("/echo/application", ["X-PowerAuth-Encryption": device.genericEncryptionHeader(activationScope: true)], good),
                    ("/echo/activation", ["X-PowerAuth-Encryption": device.genericEncryptionHeader(activationScope: false)], good),
                ] {
                    let refused = try await api.send(path, headers: headers, body: body)
                    #expect(refused.status == 400, "\(path) \(headers) \(refused.text)")
                    #expect(Self.reason(refused.json) == "invalid_request", "\(path) \(headers) \(refused.text)")
                }
                // The envelope those refusals did not use still opens once.
                let stillGood = try await api.send(
                    "/echo/application", headers: ["X-PowerAuth-Encryption": device.genericEncryptionHeader(activationScope: false)],
                    body: good)
                #expect(stillGood.status == 200, "\(stillGood.text)")

                // The library refuses the same way.
                let direct = try await device.sealGeneric(plaintext, activationScope: true)
                let directBody = try JSONSerialization.data(withJSONObject: direct.body)
                let opened = try await keyway.decryptRequest(
                    body: directBody, encryptionHeader: device.genericEncryptionHeader(activationScope: true))
                #expect(opened.plaintext == plaintext)
                let sealedAnswer = try opened.encryptResponse(Data("fine".utf8))
                let answerObject = try JSONSerialization.jsonObject(with: sealedAnswer.json()) as? [String: Any] ?? [:]
                #expect(try PowerAuthTestDevice.open(answerObject, with: direct.context) == Data("fine".utf8))
                let error = try await #require(throws: PowerAuthEncryptionError.self) {
                    _ = try await keyway.decryptRequest(
                        body: directBody, applicationKey: fixture.application.applicationKey, activationId: activationId)
                }
                #expect(error.code == .replayedEnvelope)
            }
        }
    }

    @Test func anEncryptThenSignPaymentNeedsBothFactorsAndOpensOnce() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let keyway = try await PowerAuthBackendTests.backend(fixture)
            try await withTestServer(API.start(keyway)) { api in
                let payment = Data(#"{"to":"CZ6508000000192000145399","amount":"100.00"}"#.utf8)
                let sealed = try await device.sealGeneric(payment, activationScope: true)
                let body = try JSONSerialization.data(withJSONObject: sealed.body)
                let header = try device.authorization(uriId: "/payments/pay", body: body, factors: [.possession, .knowledge])
                let answer = try await api.send("/payments/pay", headers: ["X-PowerAuth-Authorization": header], body: body)
                #expect(answer.status == 200, "\(answer.text)")
                let text = String(decoding: try PowerAuthTestDevice.open(answer.json, with: sealed.context), as: UTF8.self)
                #expect(text == "paid \(String(decoding: payment, as: UTF8.self)) by \(fixture.userId)")

                // Replayed: the signature's counter is spent.
                let replayed = try await api.send("/payments/pay", headers: ["X-PowerAuth-Authorization": header], body: body)
                #expect(replayed.status == 401)
                try await device.synchronize()
                // Possession alone is not enough.
                let other = try await device.sealGeneric(payment, activationScope: true)
                let otherBody = try JSONSerialization.data(withJSONObject: other.body)
                let weak = try device.authorization(uriId: "/payments/pay", body: otherBody, factors: .possession)
                #expect(try await api.send("/payments/pay", headers: ["X-PowerAuth-Authorization": weak], body: otherBody).status == 401)
                try await device.synchronize()
                // A signature over other bytes than the sealed body.
                let mismatched = try device.authorization(uriId: "/payments/pay", body: payment, factors: [.possession, .knowledge])
                #expect(
                    try await api.send("/payments/pay", headers: ["X-PowerAuth-Authorization": mismatched], body: otherBody).status
                        == 401)
            }
        }
    }

    @Test func tokensVerifyOnceFreshAndWithEnoughFactors() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let activationId = try #require(device.activationId)
            let keyway = try await PowerAuthBackendTests.backend(fixture)
            let strong = try await device.issuedToken([.possession, .knowledge])
            let weak = try await device.issuedToken(.possession)

            let header = try PowerAuthTestDevice.tokenHeader(strong)
            let verified = try await keyway.verifyToken(header: header, requiredFactors: [.possession, .knowledge])
            #expect(verified.isValid, "\(String(describing: verified.refusal))")
            #expect(verified.activationId == activationId)
            #expect(verified.userId == fixture.userId)
            #expect(verified.tokenId == strong.id)
            #expect(verified.factors == [.possession, .knowledge])
            // The same header again.
            let replayed = try await keyway.verifyToken(header: header)
            #expect(!replayed.isValid && replayed.refusal?.code == "TOKEN_REPLAYED")
            // A possession token where two factors are needed.
            let insufficient = try await keyway.verifyToken(
                header: try PowerAuthTestDevice.tokenHeader(weak), requiredFactors: [.possession, .knowledge])
            #expect(insufficient.refusal?.code == "INSUFFICIENT_FACTORS")
            #expect(try await keyway.verifyToken(header: try PowerAuthTestDevice.tokenHeader(weak)).isValid)
            // A wrong digest, an old timestamp; version 3.2 is accepted.
            #expect(
                try await keyway.verifyToken(header: try PowerAuthTestDevice.tokenHeader(strong, tamper: true)).refusal?.code
                    == "TOKEN_INVALID")
            let old = UInt64(fixture.clock.now().timeIntervalSince1970 * 1000) - 6 * 60 * 1000
            #expect(
                try await keyway.verifyToken(header: try PowerAuthTestDevice.tokenHeader(strong, timestamp: old)).refusal?.code
                    == "TOKEN_EXPIRED")
            #expect(try await keyway.verifyToken(header: try PowerAuthTestDevice.tokenHeader(strong, version: .v32)).isValid)

            // The middleware: a valid header passes, a replayed or weak one does not.
            try await withTestServer(API.start(keyway)) { api in
                let fresh = try PowerAuthTestDevice.tokenHeader(strong)
                let answer = try await api.send("/accounts/balance", method: "GET", headers: ["X-PowerAuth-Token": fresh], body: nil)
                #expect(answer.status == 200, "\(answer.text)")
                #expect(answer.text == "balance of \(fixture.userId)")
                let again = try await api.send("/accounts/balance", method: "GET", headers: ["X-PowerAuth-Token": fresh], body: nil)
                #expect(again.status == 401)
                #expect(Self.reason(again.json) == "TOKEN_REPLAYED", "\(again.text)")
                let weakAnswer = try await api.send(
                    "/accounts/balance", method: "GET", headers: ["X-PowerAuth-Token": try PowerAuthTestDevice.tokenHeader(weak)], body: nil)
                #expect(weakAnswer.status == 401)
                #expect(try await api.send("/accounts/balance", method: "GET", headers: [:], body: nil).status == 401)
            }

            // A blocked activation's tokens stop verifying.
            #expect(try await fixture.admin("POST", "/admin/activations/\(activationId)/block").status == 200)
            #expect(
                try await keyway.verifyToken(header: try PowerAuthTestDevice.tokenHeader(strong)).refusal?.code
                    == "ACTIVATION_INACTIVE")
        }
    }

    @Test func deviceSignaturesVerifyHereAndOnTheServerAndServerSignedDataVerifiesOnTheDevice() async throws {
        try await PowerAuthFixture.run { fixture in
            let device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let activationId = try #require(device.activationId)
            let base = try await PowerAuthBackendTests.backend(fixture)
            // No cache, so a status change is seen at once.
            var configuration = base.configuration
            configuration.activationCacheLifetime = 0
            let keyway = try KeywayBackend(configuration: configuration)

            let info = try await keyway.activation(activationId)
            #expect(info.status == "ACTIVE")
            #expect(info.userId == fixture.userId)
            #expect(info.applicationId == TestServer.configId)
            #expect(
                Data(base64Encoded: info.devicePublicKey) == device.devicePrivateKey.publicKey.compressedRepresentation)
            #expect(Data(base64Encoded: info.serverPublicKey).flatMap { try? PowerAuthKeys.publicKey($0).x963Representation }
                == device.serverPublicKey?.x963Representation)

            let data = Data("I agree to the terms of 2026-11-24".utf8)
            let signature = try device.signWithDeviceKey(data)
            let local = try await keyway.verifyDeviceSignature(signature, of: data, activationId: activationId)
            #expect(local.isValid, "\(String(describing: local.refusal))")
            #expect(local.userId == fixture.userId)
            let remote = try await keyway.verifyDeviceSignatureOnServer(signature, of: data, activationId: activationId)
            #expect(remote.isValid, "\(String(describing: remote.refusal))")
            #expect(remote.userId == fixture.userId)
            // One changed byte, in the data or in the signature.
            var changed = data
            changed[3] ^= 0x01
            #expect(try await !keyway.verifyDeviceSignature(signature, of: changed, activationId: activationId).isValid)
            #expect(try await !keyway.verifyDeviceSignatureOnServer(signature, of: changed, activationId: activationId).isValid)
            var badSignature = signature
            badSignature[badSignature.count - 1] ^= 0x01
            #expect(try await keyway.verifyDeviceSignature(badSignature, of: data, activationId: activationId).refusal?.code
                == "invalid_signature")
            #expect(try await !keyway.verifyDeviceSignatureOnServer(badSignature, of: data, activationId: activationId).isValid)
            // Another device's key.
            let stranger = try P256.Signing.PrivateKey().signature(for: data).derRepresentation
            #expect(try await !keyway.verifyDeviceSignature(stranger, of: data, activationId: activationId).isValid)

            // Server-signed data: the master key, and the activation's server key.
            let statement = Data("Your limit is 5,000 EUR".utf8)
            let master = try await keyway.signData(statement, key: .master)
            #expect(fixture.application.masterPublicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: master), for: statement))
            let byActivation = try await keyway.signData(statement, key: .activation, activationId: activationId)
            let serverKey = try P256.Signing.PublicKey(x963Representation: try #require(device.serverPublicKey).x963Representation)
            #expect(serverKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: byActivation), for: statement))
            #expect(!serverKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: master), for: statement))
            await #expect(throws: KeywayBackendError.self) { _ = try await keyway.signData(statement, key: .activation) }

            // A backend with the default cache (10 seconds) on the server's clock reads the activation once.
            let cachedBackend = try KeywayBackend(configuration: base.configuration, clock: fixture.clock)
            #expect(try await cachedBackend.verifyDeviceSignature(signature, of: data, activationId: activationId).isValid)

            // Only an ACTIVE activation's signatures count.
            #expect(try await fixture.admin("POST", "/admin/activations/\(activationId)/block").status == 200)
            let blocked = try await keyway.verifyDeviceSignature(signature, of: data, activationId: activationId)
            #expect(!blocked.isValid && blocked.refusal?.code == "activation_inactive")
            #expect(try await !keyway.verifyDeviceSignatureOnServer(signature, of: data, activationId: activationId).isValid)
            // The cached backend sees the block once its entry expires, and not later.
            #expect(try await cachedBackend.verifyDeviceSignature(signature, of: data, activationId: activationId).isValid)
            fixture.clock.advance(by: 11)
            let expired = try await cachedBackend.verifyDeviceSignature(signature, of: data, activationId: activationId)
            #expect(!expired.isValid && expired.refusal?.code == "activation_inactive")

            // Another project's backend learns nothing of the activation.
            let other = try await fixture.admin("POST", "/admin/applications", ["name": "Elsewhere", "clientType": "confidential"])
            try await fixture.server.execute(
                "UPDATE applications SET backend_roles = 'powerauth' WHERE config_id = '\(try #require(other.json["configId"] as? String))'")
            let foreign = try KeywayBackend(
                configuration: .init(
                    issuer: fixture.server.baseURL, clientId: try #require(other.json["configId"] as? String),
                    clientSecret: Sensitive(try #require(other.json["clientSecret"] as? String))))
            #expect(try await foreign.verifyDeviceSignature(signature, of: data, activationId: activationId).refusal?.code
                == "unknown_activation")
        }
    }

    @Test func anUnreachableServerIsA503NotARefusal() async throws {
        // A privileged port nothing listens on (the discard service's, which no test server can
        // take): the backend's calls fail after their 10-second time-out.
        let port = 9
        let keyway = try KeywayBackend(
            configuration: .init(
                issuer: URL(string: "http://127.0.0.1:\(port)")!, clientId: "cfg_backend", clientSecret: Sensitive("secret")))
        try await withTestServer(API.start(keyway)) { api in
            let random = { (count: Int) in Data((0..<count).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() }
            let envelope: [String: Any] = [
                "temporaryKeyId": "tk-1", "ephemeralPublicKey": P256.KeyAgreement.PrivateKey().publicKey.compressedRepresentation
                    .base64EncodedString(),
                "encryptedData": random(32), "mac": random(32), "nonce": random(16),
                "timestamp": Int64(Date().timeIntervalSince1970 * 1000),
            ]
            let answer = try await api.send(
                "/echo/application", headers: ["X-PowerAuth-Encryption": #"PowerAuth version="3.3", application_key="AAECAwQFBgcICQoLDA0ODw==""#],
                body: try JSONSerialization.data(withJSONObject: envelope))
            #expect(answer.status == 503, "\(answer.text)")
            #expect((answer.json["responseObject"] as? [String: Any])?["code"] as? String == "ERR_SERVICE_UNAVAILABLE")
            let token = try await api.send(
                "/accounts/balance", method: "GET",
                headers: ["X-PowerAuth-Token": #"PowerAuth token_id="t", token_digest="ZA==", nonce="bg==", timestamp="1", version="3.3""#],
                body: nil)
            #expect(token.status == 503, "\(token.text)")
        }
    }
}
