import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A minimal HTTP/1.1 client on SwiftNIO for tests that inspect raw answers. It exists because
/// FoundationNetworking on Linux never delivers a 401 carrying `WWW-Authenticate: Basic` (it
/// waits for credentials forever), and the token endpoint must answer exactly that.
enum RawHTTPClient {
    struct Response: Sendable {
        var status: Int
        /// Header names lower-cased.
        var headers: [String: String]
        var body: Data
        /// Every `Set-Cookie` header, in order (``headers`` keeps only the last).
        var setCookies: [String] = []
    }

    /// Sends one request; `source` picks the local address to send from (another loopback
    /// address plays another client).
    static func send(
        method: String, host: String, port: Int, path: String, headers: [String: String], body: Data?,
        source: String? = nil
    ) async throws -> Response {
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        if let source { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0)) }
        let channel = try await bootstrap
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: path)
            head.headers.add(name: "Host", value: "\(host):\(port)")
            head.headers.add(name: "Connection", value: "close")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            head.headers.add(name: "Content-Length", value: String(body?.count ?? 0))
            // One write: the server may answer and close the connection as soon as it has the
            // head, and a later write of the end would then fail on the closed channel.
            var parts: [HTTPClientRequestPart] = [.head(head)]
            if let body, !body.isEmpty { parts.append(.body(.byteBuffer(ByteBuffer(bytes: body)))) }
            parts.append(.end(nil))
            try await outbound.write(contentsOf: parts)
            var response = Response(status: 0, headers: [:], body: Data())
            for try await part in inbound {
                switch part {
                case .head(let head):
                    response.status = Int(head.status.code)
                    for (name, value) in head.headers { response.headers[name.lowercased()] = value }
                    response.setCookies = head.headers["Set-Cookie"]
                case .body(let buffer):
                    response.body.append(contentsOf: buffer.readableBytesView)
                case .end:
                    return response
                }
            }
            return response
        }
    }
}
