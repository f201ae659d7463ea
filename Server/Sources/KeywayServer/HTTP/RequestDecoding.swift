import Foundation
import Hummingbird
import KeywayProtocol
import NIOCore

/// Reads and decodes JSON request bodies, answering malformed input with `invalidFields`.
enum RequestDecoding {
    private static let decoder = WireCoding.makeDecoder()

    static func body(_ request: Request, context: KeywayRequestContext) async throws -> Data {
        do {
            let buffer = try await request.body.collect(upTo: context.maxUploadSize)
            return Data(buffer: buffer)
        } catch {
            throw FlowProblem(
                .payloadTooLarge, status: 413, title: "Payload too large",
                detail: "The request body is larger than \(context.maxUploadSize) bytes.", action: .abort)
        }
    }

    static func json<T: Decodable>(_ type: T.Type, from request: Request, context: KeywayRequestContext)
        async throws -> T
    {
        guard let value = try await json(type, from: request, context: context, required: true) else {
            throw FlowProblem.internalError
        }
        return value
    }

    /// The decoded body, or `nil` when the request has none (for actions whose body is optional).
    static func optionalJSON<T: Decodable>(_ type: T.Type, from request: Request, context: KeywayRequestContext)
        async throws -> T?
    {
        try await json(type, from: request, context: context, required: false)
    }

    private static func json<T: Decodable>(
        _ type: T.Type, from request: Request, context: KeywayRequestContext, required: Bool
    ) async throws -> T? {
        if let contentType = request.headers[.contentType], !contentType.lowercased().contains("json") {
            throw FlowProblem(
                .unsupportedMediaType, status: 415, title: "Unsupported media type",
                detail: "Send the body as application/json.", action: .abort)
        }
        let data = try await body(request, context: context)
        guard !data.isEmpty else {
            guard required else { return nil }
            throw FlowProblem.invalidRequest(
                [InvalidField(name: "body", reason: "The request needs a JSON body.")])
        }
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw FlowProblem.invalidRequest([invalidField(for: error)])
        }
    }

    static func invalidField(for error: DecodingError) -> InvalidField {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return InvalidField(name: path(context.codingPath + [key]), reason: "This field is required.")
        case .valueNotFound(_, let context):
            return InvalidField(name: path(context.codingPath), reason: "This field must not be null.")
        case .typeMismatch(let type, let context):
            return InvalidField(
                name: path(context.codingPath), reason: "This field must be of type \(Self.typeName(type)).")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return InvalidField(name: "body", reason: "The body is not valid JSON.")
            }
            return InvalidField(name: path(context.codingPath), reason: "This field has an invalid value.")
        @unknown default:
            return InvalidField(name: "body", reason: "The body could not be read.")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Int.Type, is Double.Type: "number"
        case is Bool.Type: "boolean"
        default: "object"
        }
    }
}
