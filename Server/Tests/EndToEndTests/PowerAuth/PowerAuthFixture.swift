import Foundation
@testable import Keyway
import KeywayPowerAuth
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// A server with the admin token, a signed-in user of the dev application, and the application's
/// PowerAuth credentials.
struct PowerAuthFixture: Sendable {
    static let adminToken = "test-admin-token-powerauth-0123456789abcdef"

    let server: TestServer
    let clock: ManualClock
    let application: PowerAuthTestApplication
    let userId: String
    let accessToken: String

    /// Runs `body` against a fresh server with `limits` (by default without the throttle of failed
    /// signatures per network, which the protocol's tests would run into).
    static func run(
        limits: FlowLimits = .unthrottledPowerAuth, _ body: @Sendable (PowerAuthFixture) async throws -> Void
    ) async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock, limits: limits, adminToken: adminToken)) { server in
            let tokens = try await signIn(server, clock: clock, email: "device-owner@example.com")
            let settings = try await admin(server, "GET", "/admin/applications/\(TestServer.configId)/powerauth")
            #expect(settings.status == 200)
            let masterKey = try ActivationSignature.publicKey(
                Data(base64Encoded: try #require(settings.json["masterServerPublicKey"] as? String))!)
            let application = PowerAuthTestApplication(
                applicationKey: try #require(settings.json["applicationKey"] as? String),
                applicationSecret: try #require(settings.json["applicationSecret"] as? String), masterPublicKey: masterKey)
            try await body(
                PowerAuthFixture(
                    server: server, clock: clock, application: application, userId: tokens.idToken.subject,
                    accessToken: tokens.response.accessToken.revealed))
        }
    }

    /// Signs `email` in with the SDK.
    static func signIn(_ server: TestServer, clock: ManualClock, email: String) async throws -> TokenSet {
        let keyway = try KeywayClient(configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
        await keyway.flow.start(identifier: email)
        await keyway.flow.submitCode(try await server.latestCode(to: email))
        let completion = try #require(keyway.flow.currentUpdate.completion)
        return try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: try #require(completion.codeVerifier))
    }

    /// An admin API request.
    static func admin(_ server: TestServer, _ method: String, _ path: String, _ body: [String: Any]? = nil)
        async throws -> (status: Int, json: [String: Any])
    {
        var headers = ["Authorization": "Bearer \(adminToken)"]
        var data: Data?
        if let body {
            headers["Content-Type"] = "application/json"
            data = try JSONSerialization.data(withJSONObject: body)
        }
        let response = try await server.request(method, path, headers: headers, body: data)
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    func admin(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> (status: Int, json: [String: Any]) {
        try await Self.admin(server, method, path, body)
    }

    /// A new activation code for the user, checked against the master key's signature.
    func activationCode(_ body: [String: Any] = [:]) async throws -> (activationId: String, code: String) {
        var request = body
        request["configId"] = request["configId"] ?? TestServer.configId
        let created = try await admin("POST", "/admin/users/\(userId)/activations", request)
        #expect(created.status == 201, "\(created.json)")
        let code = try #require(created.json["activationCode"] as? String)
        let signature = try #require((created.json["activationSignature"] as? String).flatMap { Data(base64Encoded: $0) })
        #expect(ActivationSignature.isValid(signature: signature, code: try ActivationCode(code), masterPublicKey: application.masterPublicKey))
        #expect(created.json["qrPayload"] as? String == code + "#" + signature.base64EncodedString())
        #expect(created.json["status"] as? String == "CREATED")
        return (try #require(created.json["activationId"] as? String), code)
    }

    /// A new device of the application.
    func device() -> PowerAuthTestDevice {
        PowerAuthTestDevice(server: server, application: application, clock: clock)
    }

    /// The activation as the admin list shows it.
    func listed(_ activationId: String) async throws -> [String: Any]? {
        let list = try await admin("GET", "/admin/users/\(userId)/activations")
        return (list.json["activations"] as? [[String: Any]])?.first { $0["activationId"] as? String == activationId }
    }
}
