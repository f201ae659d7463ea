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

/// An app's own backend demanding device signatures: `KeywayBackend` asks the real server
/// (`/v1/powerauth/…`, confidential-client authentication) and `PowerAuthSignatureMiddleware`
/// guards a real Hummingbird route with it.
@Suite("PowerAuth for an app's backend: signatures verified through the server, the middleware, offline signatures")
struct PowerAuthBackendTests {
    static let payment = Data(#"{"to":"CZ6508000000192000145399","amount":"100.00"}"#.utf8)

    /// A confidential application of the fixture's project, and a `KeywayBackend` for it.
    static func backend(_ fixture: PowerAuthFixture) async throws -> KeywayBackend {
        let created = try await fixture.admin("POST", "/admin/applications", ["name": "Bank backend", "clientType": "confidential"])
        let configId = try #require(created.json["configId"] as? String)
        try await fixture.server.execute(
            """
            UPDATE applications SET backend_roles = 'introspection powerauth',
                project_id = (SELECT project_id FROM applications WHERE config_id = '\(TestServer.configId)')
            WHERE config_id = '\(configId)'
            """)
        return try KeywayBackend(
            configuration: .init(
                issuer: fixture.server.baseURL, clientId: configId,
                clientSecret: Sensitive(try #require(created.json["clientSecret"] as? String)),
                // The whole suite shares the machine and one PostgreSQL cluster: a minute, not ten
                // seconds, before a slow answer counts as an unreachable server.
                requestTimeout: 60))
    }

    @Test func aBackendVerifiesOnlineSignaturesWithTheFactorsItNeeds() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let activationId = try #require(device.activationId)
            let keyway = try await Self.backend(fixture)
            let twoFactors: PowerAuthSignatureFactors = [.possession, .knowledge]

            let header = try device.authorization(uriId: "/payments/pay", body: Self.payment, factors: twoFactors)
            let verified = try await keyway.verifySignature(
                method: "POST", uriId: "/payments/pay", body: Self.payment, authorization: header, requiredFactors: twoFactors)
            #expect(verified.isValid, "\(String(describing: verified.refusal))")
            #expect(verified.activationId == activationId)
            #expect(verified.userId == fixture.userId)
            #expect(verified.factors == twoFactors)
            #expect(verified.activationStatus == "ACTIVE")

            // The same header again: its counter value is spent.
            let replayed = try await keyway.verifySignature(
                method: "POST", uriId: "/payments/pay", body: Self.payment, authorization: header, requiredFactors: twoFactors)
            #expect(!replayed.isValid)
            #expect(replayed.refusal?.code == "invalid_signature")
            try await device.synchronize()

            // Possession alone where two factors are needed: refused, and nothing counted.
            let weak = try device.authorization(uriId: "/payments/pay", body: Self.payment, factors: .possession)
            let refused = try await keyway.verifySignature(
                method: "POST", uriId: "/payments/pay", body: Self.payment, authorization: weak, requiredFactors: twoFactors)
            #expect(refused.refusal?.code == "insufficient_factors")
            #expect(try await device.status().failedAttempts == 1)
            try await device.synchronize()

            // Another body, another URI identifier, another method: not what was signed.
            for (method, uriId, body) in [
                ("POST", "/payments/pay", Data(#"{"to":"CZ6508000000192000145399","amount":"900.00"}"#.utf8)),
                ("POST", "/payments/other", Self.payment), ("PUT", "/payments/pay", Self.payment),
            ] {
                let signed = try device.authorization(uriId: "/payments/pay", body: Self.payment, factors: twoFactors)
                let answer = try await keyway.verifySignature(
                    method: method, uriId: uriId, body: body, authorization: signed, requiredFactors: twoFactors)
                #expect(!answer.isValid && answer.refusal?.code == "invalid_signature", "\(method) \(uriId)")
            }
            let counted = try await device.status()
            #expect(counted.failedAttempts == 4)
            try await device.synchronize()
            // The fifth failure blocks; the backend hears it.
            let wrong = try device.authorization(uriId: "/payments/pay", body: Self.payment, factors: twoFactors, wrongKnowledge: true)
            let blocked = try await keyway.verifySignature(
                method: "POST", uriId: "/payments/pay", body: Self.payment, authorization: wrong, requiredFactors: twoFactors)
            #expect(blocked.refusal?.code == "activation_blocked")
            #expect(blocked.activationStatus == "BLOCKED")
            #expect(blocked.remainingAttempts == 0)

            // A backend of another project learns nothing of this activation and counts nothing.
            let stranger = try await fixture.admin("POST", "/admin/applications", ["name": "Elsewhere", "clientType": "confidential"])
            try await fixture.server.execute(
                "UPDATE applications SET backend_roles = 'powerauth' WHERE config_id = '\(try #require(stranger.json["configId"] as? String))'")
            let other = try KeywayBackend(
                configuration: .init(
                    issuer: fixture.server.baseURL, clientId: try #require(stranger.json["configId"] as? String),
                    clientSecret: Sensitive(try #require(stranger.json["clientSecret"] as? String))))
            #expect(try await fixture.admin("POST", "/admin/activations/\(activationId)/unblock").status == 200)
            try await device.synchronize()
            let foreign = try device.authorization(uriId: "/payments/pay", body: Self.payment, factors: twoFactors)
            let unknown = try await other.verifySignature(
                method: "POST", uriId: "/payments/pay", body: Self.payment, authorization: foreign, requiredFactors: twoFactors)
            #expect(unknown.refusal?.code == "unknown_activation")
            #expect(unknown.userId == nil)
            // The header was not spent by the stranger: the bank's backend still accepts it.
            #expect(
                try await keyway.verifySignature(
                    method: "POST", uriId: "/payments/pay", body: Self.payment, authorization: foreign, requiredFactors: twoFactors
                ).isValid)

            // A public application, or a wrong secret, is no backend.
            let impostor = try KeywayBackend(
                configuration: .init(
                    issuer: fixture.server.baseURL, clientId: keyway.configuration.clientId, clientSecret: Sensitive("wrong")))
            await #expect(throws: KeywayBackendError.self) {
                try await impostor.verifySignature(
                    method: "POST", uriId: "/payments/pay", body: Self.payment, authorization: foreign)
            }
            let unauthenticated = try await fixture.server.request(
                "POST", "/v1/powerauth/signatures/verify", headers: ["Content-Type": "application/json"],
                body: Data(#"{"method":"POST","uriId":"/x","authorization":"PowerAuth"}"#.utf8))
            #expect(unauthenticated.status == 401)
        }
    }

    @Test func malformedVerificationRequestsAreRefusedClearly() async throws {
        try await PowerAuthFixture.run { fixture in
            let keyway = try await Self.backend(fixture)
            let credentials = Data("\(keyway.configuration.clientId):\(keyway.configuration.clientSecret.revealed)".utf8)
                .base64EncodedString()
            for body in [
                "", "[]", "{", #"{"method":"post","uriId":"/x","authorization":"PowerAuth"}"#,
                #"{"method":"POST","uriId":"","authorization":"PowerAuth"}"#,
                #"{"method":"POST","uriId":"/x","authorization":"PowerAuth","body":"%%%"}"#,
                #"{"method":"POST","uriId":"/x","authorization":"PowerAuth","requiredFactors":"knowledge"}"#,
            ] {
                let answer = try await fixture.server.request(
                    "POST", "/v1/powerauth/signatures/verify",
                    headers: ["Authorization": "Basic \(credentials)", "Content-Type": "application/json"], body: Data(body.utf8))
                let json = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:]
                #expect(answer.status == 400, "\(body)")
                #expect(json["error"] as? String == "invalid_request", "\(body)")
                #expect((json["error_description"] as? String)?.isEmpty == false)
            }
            // A header that is not a PowerAuth signature is an answer, not an error.
            let garbage = try await keyway.verifySignature(
                method: "POST", uriId: "/x", body: Data(), authorization: "PowerAuth pa_activation_id=\"x\"")
            #expect(garbage.refusal?.code == "malformed_signature")
        }
    }

    /// A route of "the app's own API" that needs possession and knowledge, on an ephemeral port.
    struct PaymentsAPI: ScopedTestServer {
        let port: Int
        let server: LoopbackHTTPServer

        static func start(_ keyway: KeywayBackend) async throws -> PaymentsAPI {
            let router = Router(context: KeywayBackendRequestContext.self)
            router.group("payments")
                .add(
                    middleware: PowerAuthSignatureMiddleware(
                        backend: keyway, uriId: "/payments/pay", requiredFactors: [.possession, .knowledge])
                )
                .post("pay") { request, context -> String in
                    var request = request
                    let body = try await request.collectBody(upTo: 1 << 20)
                    return "paid by \(context.keywaySignature?.userId ?? "?") for \(body.readableBytes) bytes"
                }
            // A GET, signed over its query.
            router.group("statements")
                .add(
                    middleware: PowerAuthSignatureMiddleware(
                        backend: keyway, uriId: "/statements", requiredFactors: [.possession, .knowledge])
                )
                .get { _, context -> String in "statements of \(context.keywaySignature?.userId ?? "?")" }
            let server = try await LoopbackHTTPServer.start(router, label: "payments API")
            return PaymentsAPI(port: server.port, server: server)
        }

        func stop() async { await server.stop() }

        func statements(query: String, header: String) async throws -> (Int, String) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/statements?\(query)")!)
            request.setValue(header, forHTTPHeaderField: "X-PowerAuth-Authorization")
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
        }

        func pay(_ body: Data, header: String?) async throws -> (Int, String) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/payments/pay")!)
            request.httpMethod = "POST"
            request.httpBody = body
            if let header { request.setValue(header, forHTTPHeaderField: "X-PowerAuth-Authorization") }
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
        }
    }

    @Test func theMiddlewareLetsThroughOnlyASignatureOfThisRequest() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let keyway = try await Self.backend(fixture)
            try await withTestServer(PaymentsAPI.start(keyway)) { api in
                let signed = try device.authorization(uriId: "/payments/pay", body: Self.payment, factors: [.possession, .knowledge])
                let (status, text) = try await api.pay(Self.payment, header: signed)
                #expect(status == 200, "\(text)")
                #expect(text == "paid by \(fixture.userId) for \(Self.payment.count) bytes")

                let (unsigned, unsignedText) = try await api.pay(Self.payment, header: nil)
                #expect(unsigned == 401)
                #expect(unsignedText.contains("POWERAUTH_AUTH_FAIL"))
                let weak = try device.authorization(uriId: "/payments/pay", body: Self.payment, factors: .possession)
                #expect(try await api.pay(Self.payment, header: weak).0 == 401)
                let other = try device.authorization(uriId: "/payments/pay", body: Self.payment, factors: [.possession, .knowledge])
                #expect(try await api.pay(Data("{}".utf8), header: other).0 == 401)

                // A GET: the signed body is its query in the reference's canonical form (written
                // out by hand here), and a signature of another query does not pass.
                let canonical = Data("from=2026-01-01&note=a+b%3Ac".utf8)
                let query = "note=a%20b:c&from=2026-01-01"
                let get = try device.authorization(method: "GET", uriId: "/statements", body: canonical, factors: [.possession, .knowledge])
                let (listed, listedText) = try await api.statements(query: query, header: get)
                #expect(listed == 200 && listedText == "statements of \(fixture.userId)", "\(listedText)")
                let stale = try device.authorization(method: "GET", uriId: "/statements", body: canonical, factors: [.possession, .knowledge])
                #expect(try await api.statements(query: "from=2026-01-02&note=a%20b:c", header: stale).0 == 401)
                // A query with a broken percent escape has no canonical form: refused as a bad
                // request before the Keyway server is asked.
                let broken = try device.authorization(method: "GET", uriId: "/statements", body: canonical, factors: [.possession, .knowledge])
                // (Sent raw: URLSession would escape the `%`.)
                let malformed = try await RawHTTPClient.send(
                    method: "GET", host: "127.0.0.1", port: api.port, path: "/statements?note=%zz",
                    headers: ["X-PowerAuth-Authorization": broken], body: nil)
                let malformedText = String(decoding: malformed.body, as: UTF8.self)
                #expect(malformed.status == 400 && malformedText.contains("ERR_INVALID_REQUEST"), "\(malformedText)")
            }
        }
    }

    @Test func offlineSignaturesOfServerSignedQRData() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let activationId = try #require(device.activationId)
            let keyway = try await Self.backend(fixture)
            let data = "Pay 100.00 EUR to CZ6508000000192000145399"
            let request = try await keyway.makeOfflinePayload(activationId: activationId, data: data)

            // The device checks the QR data's signature by the activation's server key (flag 1).
            let scanned = try OfflineSignaturePayload(request.qrData)
            #expect(scanned.data == data)
            #expect(scanned.signingKey == .activation)
            let serverKey = try #require(device.serverPublicKey)
            #expect(scanned.isValid(publicKey: try P256.Signing.PublicKey(rawRepresentation: serverKey.rawRepresentation)))
            #expect(!scanned.isValid(publicKey: fixture.application.masterPublicKey))

            func sign(_ factors: PowerAuthSignatureFactors, wrongKnowledge: Bool = false) throws -> String {
                let signature = try PowerAuthSignature.compute(
                    data: PowerAuthSignature.offlineSignedData(
                        uriIdentifier: "/operation/authorize/offline", nonce: scanned.nonce, data: Data(data.utf8)),
                    keys: device.signatureKeys(factors, wrongKnowledge: wrongKnowledge), counterData: device.counterData,
                    format: .decimal(digits: 8))
                device.counterData = PowerAuthHashCounter.next(device.counterData)
                return signature
            }
            let typed = try sign([.possession, .knowledge])
            let verified = try await keyway.verifyOfflineSignature(
                activationId: activationId, data: data, payload: request, signature: typed)
            #expect(verified.isValid, "\(String(describing: verified.refusal))")
            #expect(verified.userId == fixture.userId)
            // Typed twice: spent.
            #expect(
                try await keyway.verifyOfflineSignature(activationId: activationId, data: data, payload: request, signature: typed)
                    .refusal?.code == "invalid_signature")
            try await device.synchronize()
            // A wrong PIN, and other data, fail and count.
            let wrong = try sign([.possession, .knowledge], wrongKnowledge: true)
            #expect(
                try await keyway.verifyOfflineSignature(activationId: activationId, data: data, payload: request, signature: wrong)
                    .remainingAttempts == 3)
            try await device.synchronize()
            let good = try sign([.possession, .knowledge])
            #expect(
                try await !keyway.verifyOfflineSignature(
                    activationId: activationId, data: data + " and more", payload: request, signature: good
                ).isValid)
            // Three factors when the backend asks for three.
            try await device.synchronize()
            let three = try sign([.possession, .knowledge, .biometry])
            #expect(
                try await keyway.verifyOfflineSignature(
                    activationId: activationId, data: data, payload: request, signature: three,
                    requiredFactors: [.possession, .knowledge, .biometry]
                ).isValid)
            // Malformed signatures are refused before anything is counted.
            await #expect(throws: KeywayBackendError.self) {
                try await keyway.verifyOfflineSignature(
                    activationId: activationId, data: data, payload: request, signature: "1234-5678")
            }
        }
    }
}
