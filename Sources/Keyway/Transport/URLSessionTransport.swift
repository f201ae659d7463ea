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
    private let serverTrust: ServerTrustPolicy

    private var session: URLSession { owner.session }

    /// A transport with its own ephemeral session.
    ///
    /// - Parameters:
    ///   - timeout: Seconds a request may wait for data before it fails.
    ///   - serverTrust: How the server's TLS certificate is judged: the system's evaluation by
    ///     default, or public-key pinning (Apple platforms; on Linux a transport with pins
    ///     refuses every request, see ``ServerTrustPolicy``).
    public init(timeout: TimeInterval = 30, serverTrust: ServerTrustPolicy = .system) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        self.owner = SessionOwner(
            session: URLSession(configuration: configuration, delegate: TransportDelegate(serverTrust: serverTrust), delegateQueue: nil))
        self.timeout = timeout
        self.serverTrust = serverTrust
    }

    /// Sends the request through the session; a redirect is returned as the response it is, not
    /// followed.
    ///
    /// - Parameter request: The request to send.
    /// - Returns: The response, whatever its status.
    /// - Throws: The session's error (`URLError`) when no response arrived (a certificate the
    ///   policy refuses cancels the connection); ``KeywayError/invalidResponse(_:)`` when the
    ///   answer is not HTTP; ``KeywayError/invalidConfiguration(_:)`` for a policy this platform
    ///   cannot enforce (pinning on Linux), before anything is sent.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        guard serverTrust.isEnforceable else {
            throw KeywayError.invalidConfiguration(
                "Public-key pinning cannot be enforced on this platform (FoundationNetworking shows no server certificate); "
                    + "use the system's evaluation or a transport of your own.")
        }
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        #if canImport(FoundationNetworking)
            let (data, response) = try await Self.data(for: urlRequest, in: session, giveUpAfter: timeout * 3 + 10)
        #else
            let (data, response) = try await session.data(for: urlRequest)
        #endif
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

#if canImport(FoundationNetworking)
    extension URLSessionTransport {
        /// `URLSession.data(for:)` as FoundationNetworking should run it. Its own can deadlock when
        /// the calling task is cancelled just as the answer arrives: the cancellation handler runs
        /// holding the Swift task's status lock and cancels the `URLSessionTask` synchronously on
        /// the session's queue, while that queue, finishing the transfer, resumes the continuation,
        /// which needs the same lock. Here the cancellation handler only hands the cancellation to
        /// another queue, so neither waits for the other.
        ///
        /// And the call always ends: should the data task never call its completion handler (a
        /// connection the server closed that the transfer does not notice), `giveUpAfter` seconds
        /// later the request fails with `URLError(.timedOut)` and the data task is cancelled.
        static func data(for request: URLRequest, in session: URLSession, giveUpAfter: TimeInterval) async throws
            -> (Data, URLResponse)
        {
            let cancellation = DataTaskCancellation()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                    let answer = SingleResumption(continuation)
                    let task = session.dataTask(with: request) { data, response, error in
                        if let error {
                            answer.resume(throwing: error)
                        } else if let data, let response {
                            answer.resume(returning: (data, response))
                        } else {
                            answer.resume(throwing: URLError(.badServerResponse))
                        }
                    }
                    cancellation.started(task)
                    DispatchQueue.global().asyncAfter(deadline: .now() + giveUpAfter) {
                        if answer.resume(throwing: URLError(.timedOut)) { task.cancel() }
                    }
                    task.resume()
                }
            } onCancel: {
                cancellation.cancel()
            }
        }
    }

    /// A continuation resumed by whichever comes first: the data task's answer or the deadline.
    private final class SingleResumption: @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?

        init(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
            self.continuation = continuation
        }

        /// Resumes with `value`; `false` when it was resumed before.
        @discardableResult
        func resume(returning value: (Data, URLResponse)) -> Bool {
            guard let continuation = take() else { return false }
            continuation.resume(returning: value)
            return true
        }

        /// Resumes with `error`; `false` when it was resumed before.
        @discardableResult
        func resume(throwing error: any Error) -> Bool {
            guard let continuation = take() else { return false }
            continuation.resume(throwing: error)
            return true
        }

        private func take() -> CheckedContinuation<(Data, URLResponse), any Error>? {
            lock.lock()
            defer { lock.unlock() }
            let taken = continuation
            continuation = nil
            return taken
        }
    }

    /// The data task of one request, and whether its Swift task was cancelled (before or after
    /// the data task existed). `URLSessionTask.cancel()` is always called from a global queue,
    /// never from the cancellation handler itself.
    private final class DataTaskCancellation: @unchecked Sendable {
        // Guarded by `lock`.
        private let lock = NSLock()
        private var task: URLSessionDataTask?
        private var cancelled = false

        func started(_ task: URLSessionDataTask) {
            lock.lock()
            self.task = task
            let cancelNow = cancelled
            lock.unlock()
            if cancelNow { Self.cancelLater(task) }
        }

        func cancel() {
            lock.lock()
            cancelled = true
            let task = self.task
            lock.unlock()
            if let task { Self.cancelLater(task) }
        }

        private static func cancelLater(_ task: URLSessionDataTask) {
            DispatchQueue.global().async { task.cancel() }
        }
    }
#endif

/// Refuses redirects and HTTP authentication challenges, and applies the server-trust policy. Without it, FoundationNetworking on Linux
/// waits forever on a 401 that carries a `WWW-Authenticate` challenge it recognizes; refusing
/// turns that into a prompt error instead. The class holds only an immutable `Sendable` policy, so it
/// is `Sendable`.
private final class TransportDelegate: NSObject, URLSessionTaskDelegate, Sendable {
    let serverTrustPolicy: ServerTrustPolicy

    init(serverTrust: ServerTrustPolicy) {
        self.serverTrustPolicy = serverTrust
    }

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
        // TLS server trust follows the policy (the system's default evaluation unless pinned);
        // HTTP authentication is refused.
        if challenge.protectionSpace.authenticationMethod == Self.serverTrust {
            switch serverTrustPolicy.kind {
            case .system:
                completionHandler(.performDefaultHandling, nil)
            case .publicKeyPins(let pins):
                #if canImport(Security) && !canImport(FoundationNetworking)
                    if let trust = challenge.protectionSpace.serverTrust,
                       ServerTrustEvaluation.evaluate(trust, host: challenge.protectionSpace.host, pins: pins)
                    {
                        completionHandler(.useCredential, URLCredential(trust: trust))
                    } else {
                        completionHandler(.cancelAuthenticationChallenge, nil)
                    }
                #else
                    // Never reached: send(_:) refuses pins on this platform.
                    _ = pins
                    completionHandler(.cancelAuthenticationChallenge, nil)
                #endif
            }
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
