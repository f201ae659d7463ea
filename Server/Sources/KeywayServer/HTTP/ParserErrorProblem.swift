import Foundation
import HTTPTypes
import KeywayProtocol
import NIOCore
import NIOHTTPTypes

/// Gives the bare `400` answer to a request NIO's HTTP parser refused — non-ASCII in the path, a
/// NUL in a header, an unknown method, a malformed head — the problem document every other error
/// answer has. The framework writes that answer itself (`400`, `Content-Length: 0`, no content
/// type, then closes); this handler, in every connection's pipeline, recognises it on its way out
/// and adds the body. Answers of the routes always carry a content type and are left alone.
final class ParserErrorProblemHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var replacing = false

    /// The problem document of a request that could not be parsed.
    static let body: ByteBuffer = {
        let problem = Problem(
            code: .invalidRequest, status: 400, title: "Malformed request",
            detail: "The request is not valid HTTP/1.1 (its method, path or headers could not be read).",
            action: .abort)
        let data = (try? WireCoding.makeEncoder().encode(problem)) ?? Data()
        return ByteBuffer(bytes: data)
    }()

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head)
        where head.status == .badRequest && head.headerFields[.contentLength] == "0"
            && head.headerFields[.contentType] == nil:
            replacing = true
            head.headerFields[.contentType] = Problem.mediaType
            head.headerFields[.contentLength] = String(Self.body.readableBytes)
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end(let trailers) where replacing:
            replacing = false
            context.write(wrapOutboundOut(.body(Self.body)), promise: nil)
            context.write(wrapOutboundOut(.end(trailers)), promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }
}
