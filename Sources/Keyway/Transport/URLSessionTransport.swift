import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport: an ephemeral `URLSession` (no cookies, no cache) that never follows
/// redirects (a flow token must not travel to another URL) and never answers authentication
/// challenges (the SDK authenticates with its own headers).
public struct URLSessionTransport: HTTPTransport {
    private let owner: SessionOwner
    private let timeout: TimeInterval

    private var session: URLSession { owner.session }

    /// A transport with its own ephemeral session.
    ///
    /// - Parameter timeout: Seconds a request may wait for data before it fails.
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        self.owner = SessionOwner(
            session: URLSession(configuration: configuration, delegate: TransportDelegate(), delegateQueue: nil))
        self.timeout = timeout
    }

    /// Sends the request through the session; a redirect is returned as the response it is, not
    /// followed.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response, whatever its status.
    /// - Throws: The session's error (`URLError`) when no response arrived;
    ///   ``KeywayError/invalidResponse(_:)`` when the answer is not HTTP.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        let (data, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else {
            throw KeywayError.invalidResponse("The server's answer is not HTTP.")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: data)
    }
}

/// Refuses redirects and HTTP authentication challenges. Without it, FoundationNetworking on Linux
/// waits forever on a 401 that carries a `WWW-Authenticate` challenge it recognizes; refusing
/// turns that into a prompt error instead. The class holds no state, so it is `Sendable`.
private final class TransportDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    #if canImport(FoundationNetworking)
        static let serverTrust = "NSURLAuthenticationMethodServerTrust"
    #else
        static let serverTrust = NSURLAuthenticationMethodServerTrust
    #endif

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // TLS server trust keeps the system's default evaluation; HTTP authentication is refused.
        if challenge.protectionSpace.authenticationMethod == Self.serverTrust {
            completionHandler(.performDefaultHandling, nil)
        } else {
            completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }
}

/// Owns the transport's session, shared by the transport's copies: a `URLSession` keeps its
/// delegate (and itself) alive until it is invalidated, so the last copy to go invalidates it,
/// letting the requests in flight finish.
private final class SessionOwner: Sendable {
    let session: URLSession

    init(session: URLSession) {
        self.session = session
    }

    deinit {
        session.finishTasksAndInvalidate()
    }
}
