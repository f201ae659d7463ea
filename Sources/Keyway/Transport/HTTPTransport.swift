import Foundation

/// One HTTP request, as the SDK hands it to its transport.
public struct TransportRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    /// Header names as the SDK writes them.
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP response.
public struct TransportResponse: Sendable, Equatable {
    public var status: Int
    /// Header names lower-cased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// A header value by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Sends HTTP requests. The default is ``URLSessionTransport``; tests may pass their own.
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the response, whatever its status. Throws only when no
    /// response arrived (connection refused, timeout).
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
