import Foundation
import HTTPTypes
import Hummingbird
import KeywayJOSE
import KeywayProtocol
import NIOCore

/// The hosted pages' way into the flow API: a step's action is sent, in process, through the very
/// routes the SDK calls over HTTP (`/v1/flows/…`), so the pages are one more client of the flow
/// engine and draw any step from its actions and fields — also steps they were not written for.
struct FlowAPIClient: Sendable {
    let responder: RouterResponder<KeywayRequestContext>

    /// Builds the responder of the flow routes alone.
    init(engine: FlowEngine, tokens: AccessTokenAuthenticator) {
        let table = RouteTable()
        FlowRoutes(engine: engine, tokens: tokens).register(on: table)
        responder = table.router.buildResponder()
    }

    /// Sends `action` of the flow with `body` (JSON) and answers the step it leads to; a refusal
    /// is thrown as the flow API throws it (a ``FlowProblem``).
    func perform(
        _ action: Action, body: [String: JSONValue], flowToken: String, configId: String, userAgent: String?,
        context: KeywayRequestContext
    ) async throws -> Step? {
        guard action.href.hasPrefix("/v1/flows/"), let method = HTTPRequest.Method(action.method) else {
            throw FlowProblem.invalidStep
        }
        var headers: HTTPFields = [:]
        headers[HTTPField.Name(ProtocolHeader.flowToken)!] = flowToken
        headers[HTTPField.Name(ProtocolHeader.configID)!] = configId
        if let userAgent { headers[.userAgent] = String(userAgent.prefix(200)) }
        var payload = ByteBuffer()
        if method != .delete && method != .get {
            headers[.contentType] = "application/json"
            payload = ByteBuffer(string: JSONValue.object(body).serialized())
        }
        let request = Request(
            head: HTTPRequest(method: method, scheme: nil, authority: nil, path: action.href, headerFields: headers),
            body: RequestBody(buffer: payload))
        let response = try await responder.respond(to: request, context: context)
        guard response.status.code < 300 else { throw FlowProblem.internalError }
        if response.status == .noContent { return nil }
        let collector = BodyCollector()
        try await response.body.write(collector)
        return try WireCoding.makeDecoder().decode(Step.self, from: Data(buffer: collector.buffer))
    }
}

/// Gathers a response body written in process.
private final class BodyCollector: ResponseBodyWriter {
    var buffer = ByteBuffer()

    func write(_ buffer: ByteBuffer) async throws {
        var copy = buffer
        self.buffer.writeBuffer(&copy)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
