import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

/// An app's backend for the SDK's end-to-end tests: a confidential application in the fixture's
/// project calling `/v1/powerauth/…` with HTTP Basic.
struct SDKBackend: Sendable {
    let server: TestServer
    let authorization: String

    static func make(_ fixture: SDKActivationFixture) async throws -> SDKBackend {
        try await make(server: fixture.server, created: try await fixture.admin(
            "POST", "/admin/applications", ["name": "SDK backend", "clientType": "confidential"]))
    }

    /// The backend of an application the admin API just `created`, moved into the test
    /// application's project.
    static func make(server: TestServer, created: (status: Int, json: [String: Any])) async throws -> SDKBackend {
        let configId = try #require(created.json["configId"] as? String, "\(created.json)")
        let secret = try #require(created.json["clientSecret"] as? String)
        try await server.execute(
            """
            UPDATE applications SET backend_roles = 'introspection powerauth',
                project_id = (SELECT project_id FROM applications WHERE config_id = '\(TestServer.configId)')
            WHERE config_id = '\(configId)'
            """)
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        let credentials = "\(configId.addingPercentEncoding(withAllowedCharacters: allowed)!):\(secret.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        return SDKBackend(server: server, authorization: "Basic " + Data(credentials.utf8).base64EncodedString())
    }

    /// A JSON call; the status and the JSON object.
    func call(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> (status: Int, json: [String: Any]) {
        var headers = ["Authorization": authorization]
        var data: Data?
        if let body {
            headers["Content-Type"] = "application/json"
            data = try JSONSerialization.data(withJSONObject: body)
        }
        let response = try await server.request(method, path, headers: headers, body: data)
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    /// `POST /v1/powerauth/tokens/verify`.
    func verifyToken(_ header: String, requiredFactors: String? = nil) async throws -> [String: Any] {
        var body: [String: Any] = ["authorization": header]
        if let requiredFactors { body["requiredFactors"] = requiredFactors }
        let answer = try await call("POST", "/v1/powerauth/tokens/verify", body)
        #expect(answer.status == 200, "\(answer.json)")
        return answer.json
    }
}

extension [String: Any] {
    /// The `error.code` of a `valid: false` answer.
    var refusalCode: String? { (self["error"] as? [String: Any])?["code"] as? String }
}
