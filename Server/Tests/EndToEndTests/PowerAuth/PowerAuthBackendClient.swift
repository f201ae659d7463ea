import Crypto
import Foundation
import KeywayPowerAuth
import KeywayServer
import KeywayTestSupport
import Testing

/// An app's backend as a confidential application calling `/v1/powerauth/…` over plain HTTP with
/// HTTP Basic (the tests of the server's side do not go through `KeywayBackend`).
struct PowerAuthBackendClient: Sendable {
    let server: TestServer
    let clientId: String
    let clientSecret: String

    /// A confidential application in the fixture's project (or, with `sameProject: false`, in a
    /// project of its own).
    static func make(_ fixture: PowerAuthFixture, sameProject: Bool = true) async throws -> PowerAuthBackendClient {
        let created = try await fixture.admin(
            "POST", "/admin/applications", ["name": "Bank backend", "clientType": "confidential"])
        let configId = try #require(created.json["configId"] as? String, "\(created.json)")
        // An app's backend: the administrator granted it the roles (a stranger's too, so what
        // refuses it is the project boundary).
        try await fixture.server.execute(
            "UPDATE applications SET backend_roles = 'introspection powerauth' WHERE config_id = '\(configId)'")
        if sameProject {
            try await fixture.server.execute(
                """
                UPDATE applications SET project_id = (SELECT project_id FROM applications WHERE config_id = '\(TestServer.configId)')
                WHERE config_id = '\(configId)'
                """)
        }
        return PowerAuthBackendClient(
            server: fixture.server, clientId: configId, clientSecret: try #require(created.json["clientSecret"] as? String))
    }

    var authorization: String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let id = clientId.addingPercentEncoding(withAllowedCharacters: allowed)!
        let secret = clientSecret.addingPercentEncoding(withAllowedCharacters: allowed)!
        return "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()
    }

    /// A JSON request; answers the status and the JSON object.
    func call(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> PowerAuthAnswer {
        var headers = ["Authorization": authorization]
        var data: Data?
        if let body {
            headers["Content-Type"] = "application/json"
            data = try JSONSerialization.data(withJSONObject: body)
        }
        let response = try await server.request(method, path, headers: headers, body: data)
        return PowerAuthAnswer(status: response.status, body: response.body)
    }

    /// A raw body.
    func post(_ path: String, raw: Data) async throws -> PowerAuthAnswer {
        let response = try await server.request(
            "POST", path, headers: ["Authorization": authorization, "Content-Type": "application/json"], body: raw)
        return PowerAuthAnswer(status: response.status, body: response.body)
    }
}

extension PowerAuthAnswer {
    /// The RFC 6749 error code of a refusal.
    var oauthError: String? { json["error"] as? String }
    /// The `error.code` of a `valid: false` answer.
    var refusalCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
}

extension PowerAuthTestDevice {
    /// `POST /pa/v3/token/create` signed with `factors`: the token's ID and secret, or the refusal.
    mutating func createToken(_ factors: PowerAuthSignatureFactors) async throws -> Result<(id: String, secret: Data), PowerAuthAnswerFailure> {
        let key = try await temporaryKey(activationScope: true)
        let sealed = try seal(Data("{}".utf8), key: key, sharedInfo1: .createToken, activationScope: true)
        let body = try JSONSerialization.data(withJSONObject: sealed.body)
        let header = try authorization(uriId: "/pa/token/create", body: body, factors: factors)
        let answer = try await post("/pa/v3/token/create", headers: ["X-PowerAuth-Authorization": header], body: body)
        guard answer.status == 200 else { return .failure(PowerAuthAnswerFailure(answer: answer)) }
        let plain = try JSONSerialization.jsonObject(with: try Self.open(answer.json, with: sealed.context)) as? [String: Any] ?? [:]
        let id = try #require(plain["tokenId"] as? String)
        let secret = try #require((plain["tokenSecret"] as? String).flatMap { Data(base64Encoded: $0) })
        return .success((id, secret))
    }

    /// `POST /pa/v3/token/remove` signed with possession.
    mutating func removeToken(_ tokenId: String) async throws -> PowerAuthAnswer {
        let body = try JSONSerialization.data(withJSONObject: ["requestObject": ["tokenId": tokenId]])
        let header = try authorization(uriId: "/pa/token/remove", body: body, factors: .possession)
        return try await post("/pa/v3/token/remove", headers: ["X-PowerAuth-Authorization": header], body: body)
    }

    /// An `X-PowerAuth-Token` value.
    static func tokenHeader(
        id: String, secret: Data, timestamp: UInt64, nonce: Data = Data((0..<16).map { _ in UInt8.random(in: 0...255) }),
        version: PowerAuthVersion = .v33
    ) throws -> String {
        let digest = try PowerAuthTokenDigest.compute(
            tokenSecret: SymmetricKey(data: secret), nonce: nonce, timestamp: timestamp, version: version)
        return "PowerAuth token_id=\"\(id)\", token_digest=\"\(digest.base64EncodedString())\", "
            + "nonce=\"\(nonce.base64EncodedString())\", timestamp=\"\(timestamp)\", version=\"\(version.rawValue)\""
    }

    /// An encrypt-then-sign request in activation scope: sealed with `sharedInfo1`, signed with
    /// `factors` over the sealed body; answers the server's answer and the context that opens it.
    mutating func sealedSigned(
        _ plaintext: [String: Any], path: String, uriId: String, sharedInfo1: EciesSharedInfo1,
        factors: PowerAuthSignatureFactors
    ) async throws -> (answer: PowerAuthAnswer, context: EciesContext) {
        let key = try await temporaryKey(activationScope: true)
        let sealed = try seal(
            try JSONSerialization.data(withJSONObject: plaintext), key: key, sharedInfo1: sharedInfo1, activationScope: true)
        let body = try JSONSerialization.data(withJSONObject: sealed.body)
        let header = try authorization(uriId: uriId, body: body, factors: factors)
        return (try await post(path, headers: ["X-PowerAuth-Authorization": header], body: body), sealed.context)
    }
}

/// The server's clock in Unix milliseconds.
func milliseconds(_ fixture: PowerAuthFixture, offset: TimeInterval = 0) -> UInt64 {
    UInt64(fixture.clock.now().addingTimeInterval(offset).timeIntervalSince1970 * 1000)
}
