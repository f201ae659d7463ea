import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A one-shot HTTP listener on `127.0.0.1` for the redirect of a native app's browser sign-in
/// (RFC 8252 §7.3): it binds a port the system picks, waits for the browser's `GET` of the
/// callback path, answers it with a small page, and closes. Requests for other paths (a
/// `favicon.ico`) are answered `404` and the wait goes on; nothing is answered after the callback.
///
/// ```swift
/// let listener = try LoopbackListener()
/// // send the browser to an authorization request whose redirect_uri is listener.redirectURI
/// let callback = try await listener.waitForCallback(timeout: .seconds(300)) { _ in "<p>Done.</p>" }
/// ```
public final class LoopbackListener: Sendable {
    /// The port the system chose.
    public let port: UInt16
    /// The callback's path (`/callback`).
    public let path: String
    private let listening: Int32
    /// The pipe whose write end wakes the wait up (cancellation, ``close()``).
    private let wake: (read: Int32, write: Int32)
    private let state = Mutex(State())

    private struct State {
        var waiting = false
        var closed = false
    }

    /// Binds `127.0.0.1` on a port the system picks and listens.
    ///
    /// - Parameter path: The callback's path; `/callback` by default.
    /// - Throws: ``LoopbackListenerError/socket(_:)`` when the socket cannot be made, bound or
    ///   listened on.
    public init(path: String = "/callback") throws {
        precondition(path.hasPrefix("/"), "The callback path starts with /.")
        self.path = path
        let descriptor = Self.makeSocket()
        guard descriptor >= 0 else { throw Self.failure("socket") }
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            let error = Self.failure("bind")
            _ = closeDescriptor(descriptor)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else {
            let error = Self.failure("getsockname")
            _ = closeDescriptor(descriptor)
            throw error
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            let error = Self.failure("pipe")
            _ = closeDescriptor(descriptor)
            throw error
        }
        for end in ends { Self.configure(end) }
        self.port = UInt16(bigEndian: address.sin_port)
        self.listening = descriptor
        self.wake = (ends[0], ends[1])
    }

    deinit {
        close()
        _ = closeDescriptor(wake.read)
        _ = closeDescriptor(wake.write)
    }

    /// The redirect URI to register the request with: `http://127.0.0.1:PORT/callback`.
    public var redirectURI: URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Waits for the browser's request of the callback path and answers it with `page`'s HTML.
    /// Call it once: the listener closes when it returns.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait for the callback.
    ///   - page: The HTML page to answer the callback with, made from the callback URL.
    /// - Returns: The callback URL: ``redirectURI`` with the request's query.
    /// - Throws: ``LoopbackListenerError``: `timedOut`, `cancelled` (the task was cancelled),
    ///   `closed` (a second call, or after ``close()``), or `socket`.
    public func waitForCallback(timeout: Duration, page: @escaping @Sendable (URL) -> String) async throws -> URL {
        let allowed = state.withLock { state -> Bool in
            guard !state.waiting, !state.closed else { return false }
            state.waiting = true
            return true
        }
        guard allowed else { throw LoopbackListenerError.closed }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let thread = Thread { [self] in
                    continuation.resume(with: Result { try self.serve(timeout: timeout, page: page) })
                    close()
                }
                thread.name = "keyway-loopback-listener"
                thread.start()
            }
        } onCancel: {
            self.interrupt()
        }
    }

    /// Stops listening; a wait in progress ends with ``LoopbackListenerError/cancelled``.
    public func close() {
        let first = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        guard first else { return }
        interrupt()
        _ = closeDescriptor(listening)
    }

    private func interrupt() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
    }

    // MARK: The loop

    /// The accept-and-read loop, on its own thread: every connection is read without blocking
    /// (a browser's idle pre-connection does not hold the others up) until its request head is
    /// whole.
    private func serve(timeout: Duration, page: @Sendable (URL) -> String) throws -> URL {
        let deadline = ContinuousClock.now + timeout
        var clients: [Int32: [UInt8]] = [:]
        defer { for client in clients.keys { _ = closeDescriptor(client) } }
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                throw LoopbackListenerError.timedOut(seconds: Int(timeout.components.seconds))
            }
            let milliseconds = Int32(clamping: remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1)
            var descriptors = [pollfd(fd: listening, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            descriptors += clients.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), min(milliseconds, 1000))
            if ready < 0 {
                if errno == EINTR { continue }
                throw Self.failure("poll")
            }
            if descriptors[1].revents != 0 || state.withLock({ $0.closed }) { throw LoopbackListenerError.cancelled }
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                let client = accept(listening, nil, nil)
                if client >= 0 {
                    Self.configure(client)
                    if clients.count < 16 { clients[client] = [] } else { _ = closeDescriptor(client) }
                }
            }
            for entry in descriptors.dropFirst(2) where entry.revents != 0 {
                let client = entry.fd
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = read(client, &chunk, chunk.count)
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                guard count > 0 else {
                    clients[client] = nil
                    _ = closeDescriptor(client)
                    continue
                }
                var buffer = clients[client, default: []]
                buffer += chunk[..<count]
                guard LoopbackHTTPRequest.isComplete(buffer) else {
                    if buffer.count > LoopbackHTTPRequest.maximumHeadLength {
                        Self.respond(client, status: "431 Request Header Fields Too Large", html: "")
                        clients[client] = nil
                        _ = closeDescriptor(client)
                    } else {
                        clients[client] = buffer
                    }
                    continue
                }
                clients[client] = nil
                defer { _ = closeDescriptor(client) }
                guard let request = LoopbackHTTPRequest(head: buffer), request.method == "GET",
                    request.path == path, let callback = URL(string: "http://127.0.0.1:\(port)\(request.target)")
                else {
                    Self.respond(client, status: "404 Not Found", html: "<!doctype html><title>Not found</title>")
                    continue
                }
                Self.respond(client, status: "200 OK", html: page(callback))
                return callback
            }
        }
    }

    // MARK: Sockets

    private static func makeSocket() -> Int32 {
        #if canImport(Glibc) || canImport(Musl)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return descriptor
    }

    /// Non-blocking, closed on exec (the browser a child process opens inherits nothing).
    private static func configure(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Writes a whole response (best effort: a browser that went away gets nothing).
    private static func respond(_ client: Int32, status: String, html: String) {
        let body = Array(html.utf8)
        let head = "HTTP/1.1 \(status)\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.count)\r\n"
            + "Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n"
        let bytes = Array(head.utf8) + body
        var sent = 0
        var attempts = 0
        while sent < bytes.count, attempts < 100 {
            let count = bytes[sent...].withUnsafeBytes { pointer in
                #if canImport(Darwin)
                    send(client, pointer.baseAddress, pointer.count, 0)
                #else
                    send(client, pointer.baseAddress, pointer.count, Int32(MSG_NOSIGNAL))
                #endif
            }
            if count > 0 {
                sent += count
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                attempts += 1
                usleep(10_000)
            } else {
                return
            }
        }
    }

    private static func failure(_ call: String) -> LoopbackListenerError {
        .socket("\(call): \(String(cString: strerror(errno)))")
    }
}

/// `close(2)`, named apart from ``LoopbackListener/close()``.
private func closeDescriptor(_ descriptor: Int32) -> Int32 {
    #if canImport(Darwin)
        Darwin.close(descriptor)
    #elseif canImport(Musl)
        Musl.close(descriptor)
    #else
        Glibc.close(descriptor)
    #endif
}
