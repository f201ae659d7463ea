import Crypto
import Foundation
@testable import Keyway
import KeywayPowerAuthClient
import KeywayServer
import KeywayTestSupport
import Testing

/// The real server with a signed-in user, and devices made of the SDK's `DeviceActivation` on the
/// server's manual clock, an in-memory storage and `SoftwareBiometry`, configured with the admin
/// API's PowerAuth JSON as it is.
struct SDKActivationFixture: Sendable {
    static let adminToken = PowerAuthFixture.adminToken
    static let email = "sdk-device-owner@example.com"

    let server: TestServer
    let clock: ManualClock
    let keyway: KeywayClient
    let tokens: TokenSet
    let userId: String
    /// The admin API's `GET /admin/applications/{configId}/powerauth` body, verbatim.
    let configurationJSON: Data
    let configuration: PowerAuthConfiguration

    static func run(dpopKey: P256.Signing.PrivateKey? = nil, _ body: @Sendable (SDKActivationFixture) async throws -> Void) async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, limits: .unthrottledPowerAuth, adminToken: adminToken)) { server in
            let keyway = try KeywayClient(
                configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock, dpopKey: dpopKey))
            await keyway.flow.start(identifier: email)
            await keyway.flow.submitCode(try await server.latestCode(to: email))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
            let settings = try await server.request(
                "GET", "/admin/applications/\(TestServer.configId)/powerauth", headers: ["Authorization": "Bearer \(adminToken)"])
            #expect(settings.status == 200)
            let configuration = try PowerAuthConfiguration(baseURL: server.baseURL, json: settings.body)
            try await body(
                SDKActivationFixture(
                    server: server, clock: clock, keyway: keyway, tokens: tokens, userId: tokens.idToken.subject,
                    configurationJSON: settings.body, configuration: configuration))
        }
    }

    /// A new device: its own storage and biometry, the server's clock.
    func device(storage: any SecureStorage = InMemorySecureStorage()) -> DeviceActivation {
        DeviceActivation(
            configuration: configuration, appIdentifier: "com.example.e2e", storage: storage,
            options: DeviceActivationOptions(biometry: SoftwareBiometry(), clock: clock, deviceInfo: "e2e-device"))
    }

    /// A session holding the user's tokens.
    func session() async throws -> KeywaySession {
        try await keyway.session.save(tokens)
        return keyway.session
    }

    func admin(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> (status: Int, json: [String: Any]) {
        try await PowerAuthFixture.admin(server, method, path, body)
    }

    /// A new activation code for the user through the admin API.
    func code(_ body: [String: Any] = [:]) async throws -> (activationId: String, code: String, qr: String) {
        var request = body
        request["configId"] = TestServer.configId
        let created = try await admin("POST", "/admin/users/\(userId)/activations", request)
        #expect(created.status == 201, "\(created.json)")
        return (
            try #require(created.json["activationId"] as? String), try #require(created.json["activationCode"] as? String),
            try #require(created.json["qrPayload"] as? String)
        )
    }

    /// The activation as the admin list shows it.
    func listed(_ activationId: String) async throws -> [String: Any] {
        let list = try await admin("GET", "/admin/users/\(userId)/activations")
        let activations = list.json["activations"] as? [[String: Any]] ?? []
        return try #require(activations.first { $0["activationId"] as? String == activationId })
    }

    /// Sends a signed request to `/pa/v3/signature/validate` with the header the SDK made and
    /// answers the HTTP status and the error code.
    func send(_ header: PowerAuthAuthorizationHeader, body: Data, method: String = "POST", query: String = "")
        async throws -> (status: Int, code: String?)
    {
        var headers = [PowerAuthAuthorizationHeader.name: header.value]
        if method == "POST" || method == "PUT" { headers["Content-Type"] = "application/json" }
        let response = try await server.request(
            method, "/pa/v3/signature/validate" + query, headers: headers, body: method == "POST" || method == "PUT" ? body : nil)
        let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]
        return (response.status, (json?["responseObject"] as? [String: Any])?["code"] as? String)
    }

    /// Signs `{"amount":…}` for `/pa/signature/validate` with `factors` and sends it.
    @discardableResult
    func validate(_ activation: DeviceActivation, _ factors: FactorAuthentication) async throws -> (status: Int, code: String?) {
        let body = Data(#"{"amount":"100.00","to":"Bob"}"#.utf8)
        let header = try await activation.sign(method: "POST", uriID: "/pa/signature/validate", body: body, with: factors)
        return try await send(header, body: body)
    }
}
