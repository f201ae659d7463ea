import NIOCore
import NIOPosix
import NIOSSL

/// One connection to an SMTP relay: commands out, replies in, and the switch to TLS after
/// `STARTTLS`. Each call waits for at most the step timeout it is given.
struct SMTPConnection: Sendable {
    private let channel: any Channel
    private let handler: NIOLoopBound<SMTPReplyHandler>
    /// Whether the bytes on the wire are encrypted (implicit TLS, or after `STARTTLS`).
    private(set) var isEncrypted: Bool

    /// Connects to `host:port`, with TLS from the first byte when `tls` is given.
    static func connect(
        host: String, port: Int, tls: NIOSSLContext?, timeout: TimeAmount,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws(SMTPFailure) -> SMTPConnection {
        let serverName = Self.serverName(host)
        // The handler is kept from the initializer: a connection that fails at once (a TLS
        // handshake refused) leaves the pipeline, and the handler knows why.
        let installed = Locked<NIOLoopBound<SMTPReplyHandler>?>(nil)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(timeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls {
                            try channel.pipeline.syncOperations.addHandler(
                                NIOSSLClientHandler(context: tls, serverHostname: serverName))
                        }
                        let handler = SMTPReplyHandler()
                        try channel.pipeline.syncOperations.addHandler(handler)
                        installed.withLock { $0 = NIOLoopBound(handler, eventLoop: channel.eventLoop) }
                    }
                }
                .connect(host: host, port: port).get()
        } catch {
            throw .unreachable
        }
        guard let handler = installed.withLock({ $0 }) else {
            channel.close(promise: nil)
            throw .closed(.connect)
        }
        return SMTPConnection(channel: channel, handler: handler, isEncrypted: tls != nil)
    }

    /// The name TLS checks the certificate against and sends as SNI: the host name, or `nil` for
    /// an IP address (whose certificate is then checked against the address connected to).
    static func serverName(_ host: String) -> String? {
        (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }

    /// Sends one command line (`line` without its CRLF) and answers the reply.
    func command(_ line: String, stage: SMTPStage, timeout: TimeAmount) async throws(SMTPFailure) -> SMTPReply {
        write(Array((line + "\r\n").utf8))
        return try await reply(stage: stage, timeout: timeout)
    }

    /// Sends raw bytes, without waiting for a reply.
    func write(_ bytes: [UInt8]) {
        channel.writeAndFlush(ByteBuffer(bytes: bytes), promise: nil)
    }

    /// The next reply.
    func reply(stage: SMTPStage, timeout: TimeAmount) async throws(SMTPFailure) -> SMTPReply {
        let promise = channel.eventLoop.makePromise(of: SMTPReply.self)
        let handler = self.handler
        let channel = self.channel
        channel.eventLoop.execute {
            handler.value.nextReply(promise, timeout: timeout, on: channel.eventLoop, closing: channel)
        }
        do {
            return try await promise.futureResult.get()
        } catch SMTPReplyHandler.Failure.timedOut {
            throw .timedOut(stage)
        } catch SMTPReplyHandler.Failure.malformed {
            throw .protocolViolation(stage)
        } catch SMTPReplyHandler.Failure.tlsHandshake {
            throw .tlsHandshakeFailed
        } catch {
            throw .closed(stage)
        }
    }

    /// Starts TLS on the connection after the relay accepted `STARTTLS`. Anything the relay sent
    /// after that reply and before the handshake would have been injected by whoever sits on the
    /// plain connection, so it ends the attempt instead of being read as a reply.
    mutating func startTLS(_ tls: NIOSSLContext, host: String) async throws(SMTPFailure) {
        let handler = self.handler
        let channel = self.channel
        let serverName = Self.serverName(host)
        let clean: Bool
        do {
            clean = try await channel.eventLoop.submit {
                guard !handler.value.hasUnreadInput else { return false }
                try channel.pipeline.syncOperations.addHandler(
                    NIOSSLClientHandler(context: tls, serverHostname: serverName), position: .first)
                return true
            }.get()
        } catch {
            throw .closed(.starttls)
        }
        guard clean else { throw .protocolViolation(.starttls) }
        isEncrypted = true
    }

    /// Closes the connection (without waiting for the relay).
    func close() {
        channel.close(promise: nil)
    }
}
