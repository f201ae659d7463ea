import Foundation

/// Adds headers to every request the SDK sends (for example an app attestation token or a
/// tracing header). It cannot set the headers that carry credentials or the protocol
/// (`Authorization`, `DPoP`, `X-Keyway-*`, `Content-Type`, `Content-Length`, `Accept`, `Host`,
/// `Cookie`), nor change any header the SDK set itself: such entries are ignored.
public struct RequestInterceptor: Sendable {
    private let body: @Sendable (TransportRequest) async throws -> [String: String]

    /// An interceptor that adds the headers `headers` returns.
    ///
    /// - Parameter headers: Receives the request as the SDK built it (with the headers earlier
    ///   interceptors added) and returns the headers to add. An error it throws fails the request
    ///   as a network failure (``KeywayError/networkFailure(_:)`` for most calls).
    public init(headers: @escaping @Sendable (TransportRequest) async throws -> [String: String]) {
        self.body = headers
    }

    /// The headers to add to `request` (the SDK's modules apply them; apps only build
    /// interceptors).
    package func headers(for request: TransportRequest) async throws -> [String: String] {
        try await body(request)
    }

    /// Whether an interceptor may add a header of this name.
    package static func mayAdd(_ name: String) -> Bool {
        let lower = name.lowercased()
        return !["authorization", "dpop", "content-type", "accept", "host", "cookie", "content-length"].contains(lower)
            && !lower.hasPrefix("x-keyway-") && !lower.isEmpty
    }
}

/// The transport the SDK's clients use: the app's interceptors first, then the app's transport,
/// with each exchange logged (credentials masked).
struct InstrumentedTransport: HTTPTransport {
    let inner: any HTTPTransport
    let interceptors: [RequestInterceptor]
    let logger: KeywayLogger

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        var request = request
        for interceptor in interceptors {
            for (name, value) in try await interceptor.headers(for: request) {
                let taken = request.headers.keys.contains { $0.caseInsensitiveCompare(name) == .orderedSame }
                if !taken, RequestInterceptor.mayAdd(name) { request.headers[name] = value }
            }
        }
        if logger.isEnabled(.debug, .http) {
            // Built only when the line is written: the body is copied into a string.
            var metadata: [String: LogValue] = ["url": .plain(request.url.absoluteString)]
            for (name, value) in request.headers {
                metadata["header." + name.lowercased()] =
                    KeywayLogger.secretHeaders.contains(name.lowercased()) ? .secret(value) : .plain(value)
            }
            if let body = request.body, !body.isEmpty {
                // Bodies carry codes, tokens and verifiers: logged as secrets.
                metadata["body"] = .secret(String(decoding: body, as: UTF8.self))
            }
            logger.log(.debug, .http, "→ \(request.method) \(request.url.path)", metadata)
        }
        do {
            let response = try await inner.send(request)
            logger.log(
                response.status >= 500 ? .warning : .debug, .http, "← \(response.status) \(request.method) \(request.url.path)",
                ["traceId": .plain(response.header("X-Keyway-Trace-Id") ?? "-")])
            return response
        } catch {
            logger.log(.warning, .http, "✕ \(request.method) \(request.url.path): no response", ["error": .plain("\(error)")])
            throw error
        }
    }
}
