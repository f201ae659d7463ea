import Foundation
import HTTPTypes
import Hummingbird
import KeywayProtocol
import NIOCore

/// Builders of the server's JSON answers.
enum HTTPResponses {
    static let traceIdHeader = HTTPField.Name(ProtocolHeader.traceID)!
    static let protocolVersionHeader = HTTPField.Name(ProtocolHeader.protocolVersion)!
    static let pragmaHeader = HTTPField.Name("Pragma")!
    static let dpopHeader = HTTPField.Name("DPoP")!
    static let dpopNonceHeader = HTTPField.Name("DPoP-Nonce")!
    private static let encoder = WireCoding.makeEncoder()

    static func json<T: Encodable>(
        _ value: T, status: HTTPResponse.Status = .ok, contentType: String = "application/json",
        extraHeaders: HTTPFields = [:]
    ) throws -> Response {
        let data = try encoder.encode(value)
        var headers: HTTPFields = [.contentType: contentType, .cacheControl: "no-store"]
        headers.append(contentsOf: extraHeaders)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A JSON answer from bytes encoded once (documents that never change while the server runs).
    static func json(encoded body: ByteBuffer, cacheControl: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: cacheControl],
            body: .init(byteBuffer: body))
    }

    /// Encodes a value for ``json(encoded:cacheControl:)``.
    static func encode<T: Encodable>(_ value: T) throws -> ByteBuffer {
        ByteBuffer(bytes: try encoder.encode(value))
    }

    static func problem(_ problem: Problem, traceId: String) -> Response {
        var problem = problem
        problem.traceID = traceId
        var extra: HTTPFields = [:]
        if let seconds = problem.retryAfterSeconds { extra[.retryAfter] = String(seconds) }
        do {
            return try json(
                problem, status: .init(code: problem.status), contentType: Problem.mediaType, extraHeaders: extra)
        } catch {
            return Response(status: .internalServerError)
        }
    }

    static func oauthError(_ failure: OAuthFailure) -> Response {
        var extra: HTTPFields = [pragmaHeader: "no-cache"]
        if let challenge = failure.wwwAuthenticate { extra[.wwwAuthenticate] = challenge }
        if let nonce = failure.dpopNonce { extra[dpopNonceHeader] = nonce }
        if let seconds = failure.retryAfterSeconds { extra[.retryAfter] = String(seconds) }
        do {
            return try json(failure.body, status: .init(code: failure.status), extraHeaders: extra)
        } catch {
            return Response(status: .internalServerError)
        }
    }
}
