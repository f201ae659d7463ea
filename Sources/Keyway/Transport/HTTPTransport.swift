import Foundation

/// One HTTP request, as the SDK hands it to its transport.
public struct TransportRequest: Sendable, Equatable {
    /// The HTTP method (`GET`, `POST`…).
    public var method: String
    /// The absolute URL.
    public var url: URL
    /// Header names as the SDK writes them.
    public var headers: [String: String]
    /// The body, or `nil` for none.
    public var body: Data?

    /// Creates a request with the given values.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The absolute URL.
    ///   - headers: The headers, by name.
    ///   - body: The body, or `nil` for none.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP response.
public struct TransportResponse: Sendable, Equatable {
    /// The HTTP status code.
    public var status: Int
    /// Header names lower-cased.
    public var headers: [String: String]
    /// The body; empty when there is none.
    public var body: Data

    /// Creates a response with the given values; header names are lower-cased (of two names that
    /// differ only in case, one value is kept).
    ///
    /// - Parameters:
    ///   - status: The HTTP status code.
    ///   - headers: The headers, by name.
    ///   - body: The body.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// A header value by case-insensitive name.
    ///
    /// - Parameter name: The header's name, in any case.
    /// - Returns: Its value, or `nil` when the response has no such header.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Sends HTTP requests. The default is ``URLSessionTransport``; tests may pass their own.
public protocol HTTPTransport: Sendable {
    /// Sends the request and returns the response, whatever its status. Throws only when no
    /// response arrived (connection refused, timeout).
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response, whatever its status.
    /// - Throws: Any error when no response arrived; the SDK reports it as
    ///   ``KeywayError/networkFailure(_:)``, or passes a ``KeywayError`` on as it is.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}
