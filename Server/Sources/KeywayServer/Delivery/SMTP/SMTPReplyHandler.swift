import NIOCore
import NIOSSL

/// The channel handler at the end of an SMTP connection's pipeline: parses what the relay sends
/// into replies (``SMTPReplyParser``) and hands them, one at a time, to whoever waits for the
/// next one. Runs on the channel's event loop only; ``SMTPConnection`` reaches it from there.
final class SMTPReplyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// What ended the connection, as far as the handler knows.
    enum Failure: Error, Equatable {
        case timedOut
        case closed
        case malformed
        case tlsHandshake
        case other
    }

    private var parser = SMTPReplyParser()
    private var replies: [SMTPReply] = []
    private var failure: Failure?
    private var waiter: (promise: EventLoopPromise<SMTPReply>, timeout: Scheduled<Void>)?

    /// Whether a reply, or part of one, arrived that nobody asked for yet.
    var hasUnreadInput: Bool { !replies.isEmpty || !parser.isEmpty }

    /// Answers the next reply through `promise`: one already received, else the next to arrive;
    /// fails it with ``Failure/timedOut`` when none arrives within `timeout` (and closes the
    /// connection), or with what ended the connection.
    func nextReply(_ promise: EventLoopPromise<SMTPReply>, timeout: TimeAmount, on eventLoop: any EventLoop, closing channel: any Channel) {
        eventLoop.preconditionInEventLoop()
        if !replies.isEmpty {
            promise.succeed(replies.removeFirst())
            return
        }
        if let failure {
            promise.fail(failure)
            return
        }
        precondition(waiter == nil, "one reply is awaited at a time")
        let scheduled = eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
            guard let waiting = waiter else { return }
            waiter = nil
            failure = failure ?? .timedOut
            waiting.promise.fail(Failure.timedOut)
            channel.close(promise: nil)
        }
        waiter = (promise, scheduled)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        do {
            replies += try parser.feed(bytes)
        } catch {
            fail(.malformed)
            context.close(promise: nil)
            return
        }
        if !replies.isEmpty, let waiting = waiter {
            waiter = nil
            waiting.timeout.cancel()
            waiting.promise.succeed(replies.removeFirst())
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if case NIOSSLError.handshakeFailed = error {
            fail(.tlsHandshake)
        } else {
            fail(.other)
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(.closed)
        context.fireChannelInactive()
    }

    /// Records the first failure and fails the waiting reader with it (replies received before
    /// it are still answered first).
    private func fail(_ reason: Failure) {
        failure = failure ?? reason
        guard let waiting = waiter, replies.isEmpty, let failure else { return }
        waiter = nil
        waiting.timeout.cancel()
        waiting.promise.fail(failure)
    }
}
