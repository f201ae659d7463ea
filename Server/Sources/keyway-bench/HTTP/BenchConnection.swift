import Foundation
import NIOCore
import NIOHTTP1
import NIOConcurrencyHelpers
import NIOPosix

/// An answer read off a ``BenchConnection``.
struct BenchResponse {
    var status: Int
    var body: ByteBuffer

    /// The body decoded as `T` from JSON.
    func decode<T: Decodable>(_ type: T.Type, with decoder: JSONDecoder) throws -> T {
        try decoder.decode(T.self, from: Data(body.readableBytesView))
    }
}

/// A failure of one iteration: an unexpected answer or a broken connection.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One keep-alive HTTP/1.1 connection owned by one virtual user. Requests on it are sequential;
/// the load comes from many connections at once.
final class BenchConnection {
    private var inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    private let outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
    private let hostHeader: String

    private init(
        inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator,
        outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>, hostHeader: String
    ) {
        self.inbound = inbound
        self.outbound = outbound
        self.hostHeader = hostHeader
    }

    /// Opens a connection (from the local address `source`, when given: another loopback address
    /// plays another client), runs `body` with it and closes it.
    static func with<Result>(
        host: String, port: Int, group: any EventLoopGroup, source: String? = nil,
        _ body: (BenchConnection) async throws -> Result
    ) async throws -> Result {
        var bootstrap = ClientBootstrap(group: group)
        if let source { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0)) }
        let channel = try await bootstrap
            .channelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            let connection = BenchConnection(
                inbound: inbound.makeAsyncIterator(), outbound: outbound, hostHeader: "\(host):\(port)")
            return try await body(connection)
        }
    }

    /// How many requests were sent again after a `503` with `Retry-After`, in this process.
    static let retriedAfter503 = NIOLockedValueBox(0)

    /// Sends one request and reads the whole answer. A `503` with `Retry-After` (the server shed
    /// the request and kept nothing of it) is sent again after the time it names, as a real
    /// client does, up to three times; the wait counts in the iteration's latency.
    func send(
        _ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], body: ByteBuffer? = nil
    ) async throws -> BenchResponse {
        var retries = 0
        while true {
            let (response, retryAfter) = try await sendOnce(method, path, headers: headers, body: body)
            guard response.status == 503, let retryAfter, retries < 3 else { return response }
            retries += 1
            Self.retriedAfter503.withLockedValue { $0 += 1 }
            try await Task.sleep(for: .seconds(retryAfter))
        }
    }

    private func sendOnce(
        _ method: HTTPMethod, _ path: String, headers: [(String, String)], body: ByteBuffer?
    ) async throws -> (BenchResponse, retryAfter: Int?) {
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: path)
        head.headers.add(name: "Host", value: hostHeader)
        for (name, value) in headers { head.headers.add(name: name, value: value) }
        if let body {
            head.headers.add(name: "Content-Length", value: String(body.readableBytes))
            try await outbound.write(contentsOf: [.head(head), .body(.byteBuffer(body)), .end(nil)])
        } else {
            if method == .POST || method == .PUT { head.headers.add(name: "Content-Length", value: "0") }
            try await outbound.write(contentsOf: [.head(head), .end(nil)])
        }
        var status = 0
        var retryAfter: Int?
        var collected = ByteBuffer()
        while let part = try await inbound.next() {
            switch part {
            case .head(let responseHead):
                status = Int(responseHead.status.code)
                retryAfter = responseHead.headers.first(name: "Retry-After").flatMap { Int($0) }
            case .body(var buffer):
                collected.writeBuffer(&buffer)
            case .end:
                return (BenchResponse(status: status, body: collected), retryAfter)
            }
        }
        throw BenchFailure("The server closed the connection.")
    }
}
