import Foundation
import KeywayProtocol

/// The flow protocol over the transport: headers, JSON, problem documents.
struct ProtocolClient: Sendable {
    let server: ServerURL
    let configId: String
    let options: KeywayOptions

    /// What a flow request produced.
    enum Outcome: Sendable {
        case step(Step)
        case noContent
        case problem(Problem)
    }

    private static let encoder = WireCoding.makeEncoder()
    private static let decoder = WireCoding.makeDecoder()

    static var clientIdentification: String {
        #if os(Linux)
            "keyway-swift/\(KeywayClient.version) (Linux)"
        #elseif os(iOS)
            "keyway-swift/\(KeywayClient.version) (iOS)"
        #elseif os(macOS)
            "keyway-swift/\(KeywayClient.version) (macOS)"
        #else
            "keyway-swift/\(KeywayClient.version)"
        #endif
    }

    /// The URL of `POST /v1/flows`.
    var startURL: URL { server.appending(path: "/v1/flows") }

    /// Starts a flow; `authorization` carries the access token of an account-management flow.
    func startFlow(_ request: StartFlowRequest, authorization: [String: String] = [:]) async throws -> Outcome {
        try await send(
            method: "POST", url: startURL, flowToken: nil, body: try Self.encoder.encode(request),
            extraHeaders: authorization)
    }

    /// Performs a hypermedia action with a JSON object of strings as its body: each field of the
    /// action with its value from `parameters` (or its pre-filled value), then any other entry of
    /// `parameters`. `GET` and `DELETE` send no body.
    func perform(action: Action, parameters: [String: String], flowToken: String?) async throws -> Outcome {
        guard let url = server.resolve(href: action.href) else {
            throw KeywayError.invalidResponse("The action \(action.name) points outside the server.")
        }
        let method = action.method.uppercased()
        var body: Data?
        if method != "GET", method != "DELETE" {
            var object: [String: String] = [:]
            for field in action.fields {
                if let value = parameters[field.name] ?? field.value { object[field.name] = value }
            }
            for (name, value) in parameters where object[name] == nil { object[name] = value }
            body = try Self.encoder.encode(object)
        }
        return try await send(method: method, url: url, flowToken: flowToken, body: body)
    }

    /// Performs a `POST` action with an encoded JSON body (the device steps' requests).
    func perform(action: Action, body: some Encodable & Sendable, flowToken: String?) async throws -> Outcome {
        guard let url = server.resolve(href: action.href) else {
            throw KeywayError.invalidResponse("The action \(action.name) points outside the server.")
        }
        return try await send(method: "POST", url: url, flowToken: flowToken, body: try Self.encoder.encode(body))
    }

    /// Reads a flow's current step (`GET /v1/flows/{flowId}`); the ID must be path-safe.
    func readFlow(id: String, flowToken: String) async throws -> Outcome {
        try await send(method: "GET", url: server.appending(path: "/v1/flows/\(id)"), flowToken: flowToken, body: nil)
    }

    /// Follows a link with GET.
    func follow(link: Link, flowToken: String?) async throws -> Outcome {
        guard let url = server.resolve(href: link.href) else {
            throw KeywayError.invalidResponse("The link \(link.rel) points outside the server.")
        }
        return try await send(method: "GET", url: url, flowToken: flowToken, body: nil)
    }

    private func send(
        method: String, url: URL, flowToken: String?, body: Data?, extraHeaders: [String: String] = [:]
    ) async throws -> Outcome {
        var headers = extraHeaders
        headers.merge([
            ProtocolHeader.configID: configId,
            ProtocolHeader.protocolVersion: ProtocolVersion.current,
            ProtocolHeader.client: Self.clientIdentification,
            "Accept": "application/json, \(Problem.mediaType)",
        ]) { _, sdk in sdk }
        if let flowToken { headers[ProtocolHeader.flowToken] = flowToken }
        if let relyingParty = options.relyingParty { headers[ProtocolHeader.relyingParty] = relyingParty }
        if body != nil { headers["Content-Type"] = "application/json" }
        let response: TransportResponse
        do {
            response = try await options.transport.send(
                TransportRequest(method: method, url: url, headers: headers, body: body))
        } catch let error as KeywayError {
            throw error
        } catch {
            throw KeywayError.networkFailure(error.localizedDescription)
        }
        return try Self.decode(response)
    }

    static func decode(_ response: TransportResponse) throws -> Outcome {
        if response.status == 204 { return .noContent }
        let contentType = response.header("content-type") ?? ""
        if (200..<300).contains(response.status) {
            do {
                return .step(try decoder.decode(Step.self, from: response.body))
            } catch {
                throw KeywayError.invalidResponse("The server's step could not be read (\(error)).")
            }
        }
        if contentType.contains("json"), let problem = try? decoder.decode(Problem.self, from: response.body) {
            return .problem(problem)
        }
        throw KeywayError.invalidResponse("The server answered HTTP \(response.status) without a problem document.")
    }
}
