import Crypto
import Foundation
import KeywayBackend
import KeywayPowerAuth
import KeywayPowerAuthClient
import KeywayTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The example backend (`keyway-example-backend`, its own process) with an activated device: a
/// payment signed with possession and knowledge over its encrypted body, answered encrypted, and
/// the balance for an `X-PowerAuth-Token`.
@Suite("PowerAuth with the example backend: an encrypted, signed payment and a token-protected balance")
struct PowerAuthExampleBackendTests {
    @Test func theExampleBackendTakesAnEncryptedSignedPaymentAndShowsTheBalanceForAToken() async throws {
        try await PowerAuthFixture.run { fixture in
            var device = try await PowerAuthSignatureTests.activeDevice(fixture)
            let application = try await confidentialApplication(fixture.server, adminToken: PowerAuthFixture.adminToken)
            try await withTestServer(
                BackendTests().startExampleBackend(
                    fixture.server, clientId: application.configId, secret: application.secret, accepted: [])
            ) { backend in
                func post(_ path: String, headers: [String: String], body: Data?, method: String = "POST") async throws
                    -> (status: Int, json: [String: Any], text: String)
                {
                    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(backend.port)\(path)")!)
                    request.httpMethod = method
                    request.httpBody = body
                    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
                    let (data, response) = try await URLSession.shared.data(for: request)
                    return (
                        (response as? HTTPURLResponse)?.statusCode ?? 0,
                        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:], String(decoding: data, as: UTF8.self)
                    )
                }

                let payment = Data(#"{"to":"CZ6508000000192000145399","amount":"100.00"}"#.utf8)
                let sealed = try await device.sealGeneric(payment, activationScope: true)
                let body = try JSONSerialization.data(withJSONObject: sealed.body)
                let signature = try device.authorization(uriId: "/payments/pay", body: body, factors: [.possession, .knowledge])
                let paid = try await post("/payments/pay", headers: ["X-PowerAuth-Authorization": signature], body: body)
                #expect(paid.status == 200, "\(paid.text)")
                #expect(paid.json["amount"] == nil, "the answer is sealed")
                let answer = try JSONSerialization.jsonObject(
                    with: try PowerAuthTestDevice.open(paid.json, with: sealed.context)) as? [String: Any] ?? [:]
                #expect(answer["status"] as? String == "ACCEPTED")
                #expect(answer["userId"] as? String == fixture.userId)
                #expect(answer["amount"] as? String == "100.00")
                #expect(answer["balance"] as? String == "900.00")

                // The same request again, and a weaker signature: refused.
                let replayed = try await post("/payments/pay", headers: ["X-PowerAuth-Authorization": signature], body: body)
                #expect(replayed.status == 401, "\(replayed.text)")
                try await device.synchronize()
                let other = try JSONSerialization.data(
                    withJSONObject: try await device.sealGeneric(payment, activationScope: true).body)
                let weak = try device.authorization(uriId: "/payments/pay", body: other, factors: .possession)
                #expect(try await post("/payments/pay", headers: ["X-PowerAuth-Authorization": weak], body: other).status == 401)
                // Unsigned, with only the encryption header: refused.
                let unsigned = try await post(
                    "/payments/pay", headers: ["X-PowerAuth-Encryption": device.genericEncryptionHeader(activationScope: true)],
                    body: other)
                #expect(unsigned.status == 401)

                // The balance for a token; the same header twice is refused.
                let token = try await device.issuedToken(.possession)
                let header = try PowerAuthTestDevice.tokenHeader(token)
                let balance = try await post("/accounts/balance", headers: ["X-PowerAuth-Token": header], body: nil, method: "GET")
                #expect(balance.status == 200, "\(balance.text)")
                #expect(balance.json["balance"] as? String == "900.00")
                #expect(balance.json["userId"] as? String == fixture.userId)
                let again = try await post("/accounts/balance", headers: ["X-PowerAuth-Token": header], body: nil, method: "GET")
                #expect(again.status == 401)
                #expect((again.json["responseObject"] as? [String: Any])?["reason"] as? String == "TOKEN_REPLAYED")
                #expect(try await post("/accounts/balance", headers: [:], body: nil, method: "GET").status == 401)
            }
        }
    }

    /// A request to the example backend: status, JSON and text.
    static func call(_ port: Int, _ path: String, method: String = "POST", headers: [String: String], body: Data?) async throws
        -> (status: Int, json: [String: Any], body: Data)
    {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (
            (response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:],
            data
        )
    }

    @Test func theSDKsEncryptorSignatureAndTokensWorkWithTheExampleBackend() async throws {
        try await SDKActivationFixture.run { fixture in
            let (device, activationId) = try await SDKSignatureTests.activated(fixture)
            let application = try await confidentialApplication(fixture.server, adminToken: SDKActivationFixture.adminToken)
            try await withTestServer(
                BackendTests().startExampleBackend(
                    fixture.server, clientId: application.configId, secret: application.secret, accepted: [])
            ) { backend in
                // Sealed in the activation's scope, signed over the sealed body with the password.
                let payment = Data(#"{"to":"CZ6508000000192000145399","amount":"250.00"}"#.utf8)
                let request = try await device.encryptor(scope: .activation).seal(payment)
                let signature = try await device.sign(
                    method: "POST", uriID: "/payments/pay", body: request.body, with: .password(SDKSignatureTests.password))
                let paid = try await Self.call(
                    backend.port, "/payments/pay", headers: [PowerAuthAuthorizationHeader.name: signature.value], body: request.body)
                #expect(paid.status == 200, "\(String(decoding: paid.body, as: UTF8.self))")
                let answer = try JSONSerialization.jsonObject(with: try request.openResponse(paid.body)) as? [String: Any] ?? [:]
                #expect(answer["status"] as? String == "ACCEPTED")
                #expect(answer["userId"] as? String == fixture.userId)
                #expect(answer["balance"] as? String == "750.00")
                // The same envelope and signature again: refused.
                let replayed = try await Self.call(
                    backend.port, "/payments/pay", headers: [PowerAuthAuthorizationHeader.name: signature.value], body: request.body)
                #expect(replayed.status == 401)
                // The refused replay moved the server's counter: the status blob catches the device up.
                #expect(try await device.fetchStatus().failedAttempts == 1)

                // A token of the SDK's store; each header once.
                _ = try await device.requestToken(named: "balance", authentication: .possession)
                let header = try await device.tokenHeader(named: "balance").value
                let balance = try await Self.call(
                    backend.port, "/accounts/balance", method: "GET", headers: ["X-PowerAuth-Token": header], body: nil)
                #expect(balance.status == 200, "\(String(decoding: balance.body, as: UTF8.self))")
                #expect(balance.json["balance"] as? String == "750.00")
                let again = try await Self.call(
                    backend.port, "/accounts/balance", method: "GET", headers: ["X-PowerAuth-Token": header], body: nil)
                #expect(again.status == 401)
            }

            // The device's private key signs; the backend checks it here and through the server.
            let keyway = try KeywayBackend(
                configuration: .init(
                    issuer: fixture.server.baseURL, clientId: application.configId, clientSecret: Sensitive(application.secret)))
            let data = Data("I agree".utf8)
            let signed = try await device.signWithDevicePrivateKey(data, authentication: .password(SDKSignatureTests.password))
            #expect(try await keyway.verifyDeviceSignature(signed, of: data, activationId: activationId).isValid)
            #expect(try await keyway.verifyDeviceSignatureOnServer(signed, of: data, activationId: activationId).isValid)
            #expect(try await !keyway.verifyDeviceSignature(signed, of: Data("I agreE".utf8), activationId: activationId).isValid)
            // Data the server signs with the activation's key, checked by the SDK.
            let statement = Data("Your limit is 5,000 EUR".utf8)
            let byServer = try await keyway.signData(statement, key: .activation, activationId: activationId)
            #expect(try await device.verifyServerSignedData(statement, signature: byServer, key: .activation))
            #expect(try await !device.verifyServerSignedData(statement + Data("!".utf8), signature: byServer, key: .activation))
        }
    }
}
