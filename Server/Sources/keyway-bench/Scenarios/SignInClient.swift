import Foundation
import KeywayJOSE
import KeywayProtocol
import NIOCore
import NIOHTTP1

/// The requests of an email-OTP sign-in, spoken directly over a ``BenchConnection`` with small
/// decoders, so the load generator spends as little as possible of its own core per request.
struct SignInClient: Sendable {
    let configId: String
    /// A PKCE pair shared by all iterations (the server checks it per flow either way).
    let verifier: String
    let challenge: String

    init(configId: String) {
        self.configId = configId
        var generator = SystemRandomNumberGenerator()
        verifier = PKCE.makeVerifier(using: &generator)
        challenge = PKCE.challenge(for: verifier)
    }

    private struct Started: Decodable {
        let flowId: String
        let flowToken: String
    }

    private struct Completed: Decodable {
        struct Payload: Decodable { let authCode: String }
        let completed: Payload
    }

    private struct Outbox: Decodable {
        struct Message: Decodable { let code: String }
        let messages: [Message]
    }

    private struct Tokens: Decodable {
        let access_token: String
        let id_token: String?
        let refresh_token: String?
    }

    /// A started flow.
    struct Flow: Sendable {
        let id: String
        let token: String
    }

    /// `POST /v1/flows`.
    func start(_ connection: BenchConnection, email: String) async throws -> Flow {
        let body = #"{"flowType":"signin","identifier":"\#(email)","codeChallenge":"\#(challenge)","codeChallengeMethod":"S256"}"#
        let response = try await connection.send(
            .POST, "/v1/flows",
            headers: [("Content-Type", "application/json"), (ProtocolHeader.configID, configId)],
            body: ByteBuffer(string: body))
        guard response.status == 201 else { throw Self.failure("start", response) }
        let started = try response.decode(Started.self, with: JSONDecoder())
        return Flow(id: started.flowId, token: started.flowToken)
    }

    /// `GET /dev/outbox?to=EMAIL`: the latest code sent to `email`.
    func code(_ connection: BenchConnection, email: String) async throws -> String {
        let query = email.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? email
        let response = try await connection.send(.GET, "/dev/outbox?to=\(query)")
        guard response.status == 200, let code = try response.decode(Outbox.self, with: JSONDecoder()).messages.last?.code
        else { throw Self.failure("outbox", response) }
        return code
    }

    /// `POST /v1/flows/ID/code`: returns the authorization code.
    func submit(_ connection: BenchConnection, flow: Flow, code: String) async throws -> String {
        let response = try await connection.send(
            .POST, "/v1/flows/\(flow.id)/code",
            headers: [
                ("Content-Type", "application/json"), (ProtocolHeader.configID, configId),
                (ProtocolHeader.flowToken, flow.token),
            ],
            body: ByteBuffer(string: #"{"code":"\#(code)"}"#))
        guard response.status == 200 else { throw Self.failure("code", response) }
        return try response.decode(Completed.self, with: JSONDecoder()).completed.authCode
    }

    /// `POST /oauth2/token` with the authorization code grant: returns the refresh token.
    @discardableResult
    func redeem(_ connection: BenchConnection, authCode: String) async throws -> String {
        try await token(
            connection, form: "grant_type=authorization_code&code=\(authCode)&code_verifier=\(verifier)&client_id=\(configId)")
    }

    /// `POST /oauth2/token` with the refresh token grant: returns the successor refresh token.
    func refresh(_ connection: BenchConnection, refreshToken: String) async throws -> String {
        try await token(connection, form: "grant_type=refresh_token&refresh_token=\(refreshToken)&client_id=\(configId)")
    }

    private func token(_ connection: BenchConnection, form: String) async throws -> String {
        let response = try await connection.send(
            .POST, "/oauth2/token", headers: [("Content-Type", "application/x-www-form-urlencoded")],
            body: ByteBuffer(string: form))
        guard response.status == 200 else { throw Self.failure("token", response) }
        let tokens = try response.decode(Tokens.self, with: JSONDecoder())
        guard !tokens.access_token.isEmpty, tokens.id_token?.isEmpty == false, let refreshToken = tokens.refresh_token
        else { throw Self.failure("token", response) }
        return refreshToken
    }

    /// Start, read the code, submit it: a completed flow's authorization code.
    func authorizationCode(_ connection: BenchConnection, email: String) async throws -> String {
        let flow = try await start(connection, email: email)
        let code = try await code(connection, email: email)
        return try await submit(connection, flow: flow, code: code)
    }

    private static func failure(_ step: String, _ response: BenchResponse) -> BenchFailure {
        BenchFailure("\(step): HTTP \(response.status) \(String(buffer: response.body).prefix(300))")
    }
}
