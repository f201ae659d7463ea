import Foundation
import KeywayPowerAuthWire

/// The HTTP side of the `/pa/v3/…` endpoints: JSON in and out, and the protocol's error body
/// `{"status":"ERROR","responseObject":{"code":"…","message":"…"}}` turned into
/// ``ActivationError``.
struct PowerAuthHTTP: Sendable {
    let configuration: PowerAuthConfiguration
    let transport: any HTTPTransport

    /// The endpoints of `configuration` over the options' transport, with their interceptors.
    init(configuration: PowerAuthConfiguration, options: DeviceActivationOptions) {
        self.configuration = configuration
        self.transport = options.requestInterceptors.isEmpty
            ? options.transport : InterceptedTransport(inner: options.transport, interceptors: options.requestInterceptors)
    }

    /// POSTs `body` to `path` below the server's root and returns the body of a 200 answer.
    func post(_ path: String, body: Data, headers: [String: String] = [:]) async throws(ActivationError) -> Data {
        try await post(url: configuration.url(path), body: body, headers: headers)
    }

    /// POSTs `body` to `url` and returns the body of a 200 answer.
    func post(url: URL, body: Data, headers: [String: String] = [:]) async throws(ActivationError) -> Data {
        var all = headers
        all["Content-Type"] = "application/json"
        all["Accept"] = "application/json"
        let request = TransportRequest(method: "POST", url: url, headers: all, body: body)
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch let error as KeywayError {
            throw .networkFailure(error.description)
        } catch {
            throw .networkFailure(String(describing: error))
        }
        guard response.status == 200 else { throw Self.error(from: response) }
        return response.body
    }

    /// POSTs an encodable value.
    func post<Body: Encodable>(_ path: String, json: Body, headers: [String: String] = [:]) async throws(ActivationError) -> Data {
        try await post(path, body: try Self.encode(json), headers: headers)
    }

    static func encode<Body: Encodable>(_ value: Body) throws(ActivationError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            throw .invalidConfiguration("The request cannot be encoded.")
        }
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data, what: String) throws(ActivationError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw .invalidResponse("The \(what) is not the JSON the protocol describes.")
        }
    }

    /// The error of a non-200 answer.
    static func error(from response: TransportResponse) -> ActivationError {
        let body = try? JSONDecoder().decode(PowerAuthErrorBody.self, from: response.body)
        let code = body?.responseObject.code ?? "ERROR"
        let message = body?.responseObject.message ?? ""
        if response.status == 401 { return .authenticationFailed(code: code, message: message) }
        return .server(status: response.status, code: code, message: message)
    }
}

/// The app's request interceptors in front of the activation's transport. As for the flows,
/// an interceptor cannot set the headers that carry credentials or the protocol, nor any
/// `X-PowerAuth-…` header, nor change a header the SDK set itself.
struct InterceptedTransport: HTTPTransport {
    let inner: any HTTPTransport
    let interceptors: [RequestInterceptor]

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var request = request
        for interceptor in interceptors {
            for (name, value) in try await interceptor.headers(for: request) {
                let taken = request.headers.keys.contains { $0.caseInsensitiveCompare(name) == .orderedSame }
                if !taken, RequestInterceptor.mayAdd(name), !name.lowercased().hasPrefix("x-powerauth-") {
                    request.headers[name] = value
                }
            }
        }
        return try await inner.send(request)
    }
}
