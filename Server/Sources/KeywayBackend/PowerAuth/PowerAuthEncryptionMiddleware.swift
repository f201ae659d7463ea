import Foundation
import HTTPTypes
import Hummingbird
import KeywayPowerAuth
import KeywayPowerAuthWire
import NIOCore

/// A request context that carries the request ``PowerAuthEncryptionMiddleware`` opened. It also
/// carries a verified signature: behind ``PowerAuthSignatureMiddleware`` (encrypt-then-sign) the
/// signature names the activation whose scope the body was sealed in.
public protocol PowerAuthEncryptionRequestContext: PowerAuthSignatureRequestContext {
    /// The opened request; set by the middleware before the route runs. Its
    /// ``PowerAuthDecryptedRequest/plaintext`` is also the request body the route reads.
    var keywayEncryption: PowerAuthDecryptedRequest? { get set }
}

/// Hummingbird middleware for end-to-end encrypted routes: it opens the request body (a
/// PowerAuth 3.3 envelope) with the envelope key the Keyway server hands out once, gives the
/// route the plaintext body, and seals the route's response body with the same key (a fresh
/// nonce and timestamp), answering `{encryptedData, mac, nonce, timestamp}`.
///
/// Without a signature the request names its application (and activation) in its
/// `X-PowerAuth-Encryption` header. Placed after ``PowerAuthSignatureMiddleware``
/// (encrypt-then-sign: the device signs the sealed body) an activation-scope request needs no
/// such header — the verified signature names the activation:
///
/// ```swift
/// let pay = PowerAuthEndpoint(
///     path: "/payments/pay", uriId: "/payments/pay", factors: .atLeast([.possession, .knowledge]),
///     sharedInfo1: .activationScopeGeneric)
/// router.group("payments")
///     .add(middleware: PowerAuthSignatureMiddleware(backend: keyway, endpoint: pay))
///     .add(middleware: PowerAuthEncryptionMiddleware(backend: keyway, endpoint: pay))
///     .post("pay") { request, context in … }   // the request body is the plaintext
/// ```
///
/// A refused envelope (malformed, stale, replayed, of an unknown key, not matching its MAC)
/// answers `400` with the published error body and the reason:
/// `{"status":"ERROR","responseObject":{"code":"ERR_ENCRYPTION","reason":"replayed_envelope","message":…}}`;
/// an unreachable Keyway server answers `503`. Errors the route throws pass through unsealed.
public struct PowerAuthEncryptionMiddleware<Context: PowerAuthEncryptionRequestContext>: RouterMiddleware {
    private let backend: KeywayBackend
    private let scope: PowerAuthEncryptionScope

    /// - Parameter scope: The scope the routes behind this middleware expect.
    public init(backend: KeywayBackend, scope: PowerAuthEncryptionScope) {
        self.backend = backend
        self.scope = scope
    }

    /// - Parameter endpoint: The endpoint behind this middleware, declared once with its
    ///   signature (``PowerAuthSignatureMiddleware/init(backend:endpoint:)``): its `sharedInfo1`,
    ///   `activationScopeGeneric` or `applicationScopeGeneric`, gives the scope.
    public init(backend: KeywayBackend, endpoint: PowerAuthEndpoint) {
        self.backend = backend
        self.scope = endpoint.sharedInfo1 == .applicationScopeGeneric ? .application : .activation
        precondition(
            endpoint.sharedInfo1 == scope.sharedInfo1,
            "An app's encrypted endpoint is sealed with the generic sharedInfo1 of its scope.")
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: KeywayBackend.maximumEncryptedBodySize)
        } catch {
            return Self.refusal(.contentTooLarge, .invalidRequest, "An encrypted body may not exceed 1 MiB.")
        }
        let opened: PowerAuthDecryptedRequest
        do {
            opened = try await open(Data(buffer: body), request: request, context: context)
        } catch let error as PowerAuthEncryptionError {
            return Self.refusal(.badRequest, error.code, error.message)
        } catch KeywayBackendError.invalidConfiguration(let why) {
            return Self.refusal(.badRequest, .invalidRequest, why)
        } catch {
            return Self.refusal(.serviceUnavailable, nil, "The request could not be decrypted now.")
        }
        var head = request.head
        head.headerFields[.contentLength] = String(opened.plaintext.count)
        request = Request(head: head, body: RequestBody(buffer: ByteBuffer(bytes: opened.plaintext)))
        var context = context
        context.keywayEncryption = opened
        let response = try await next(request, context)
        let plaintext = try await Self.collect(response.body)
        var headers = response.headers
        headers[.contentType] = "application/json"
        headers[.contentLength] = nil
        headers[.cacheControl] = "no-store"
        let sealed = try opened.encryptResponse(plaintext).json()
        return Response(status: response.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: sealed)))
    }

    private func open(_ body: Data, request: Request, context: Context) async throws -> PowerAuthDecryptedRequest {
        let encryptionHeader = request.headers[HTTPField.Name(PowerAuthEncryptionHeader.name)!]
        if scope == .activation, let signature = context.keywaySignature, signature.isValid,
            let activationId = signature.activationId
        {
            // Encrypt-then-sign: the signature, verified over these very bytes, names the
            // activation; its header names the application key.
            guard let authorization = request.headers[HTTPField.Name(PowerAuthAuthorizationHeader.name)!],
                let signed = try? PowerAuthAuthorizationHeader(parsing: authorization)
            else { throw PowerAuthEncryptionError(.invalidRequest, "The signature header cannot be read.") }
            if let encryptionHeader {
                let header: PowerAuthEncryptionHeader
                do {
                    header = try PowerAuthEncryptionHeader(parsing: encryptionHeader)
                } catch {
                    throw PowerAuthEncryptionError(.invalidRequest, "\(error)")
                }
                guard header.activationID == activationId, header.applicationKey == signed.applicationKey else {
                    throw PowerAuthEncryptionError(
                        .invalidRequest, "The X-PowerAuth-Encryption header names another activation than the signature.")
                }
            }
            return try await backend.decryptRequest(body: body, applicationKey: signed.applicationKey, activationId: activationId)
        }
        guard let encryptionHeader else {
            throw PowerAuthEncryptionError(
                .invalidRequest,
                scope == .application
                    ? "The request must carry an X-PowerAuth-Encryption header."
                    : "The request must be signed by the activation, or carry an X-PowerAuth-Encryption header naming it.")
        }
        return try await backend.decryptRequest(body: body, encryptionHeader: encryptionHeader, scope: scope)
    }

    /// The bytes a response body writes.
    static func collect(_ body: ResponseBody) async throws -> Data {
        let collector = ResponseCollector()
        try await body.write(collector)
        return collector.storage.data
    }

    private static func refusal(
        _ status: HTTPResponse.Status, _ reason: PowerAuthEncryptionError.Code?, _ message: String
    ) -> Response {
        let code = status == .serviceUnavailable ? "ERR_SERVICE_UNAVAILABLE" : "ERR_ENCRYPTION"
        let body = PowerAuthErrorBody(responseObject: .init(code: code, message: message, reason: reason?.rawValue))
        let data = (try? JSONEncoder().encode(body)) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Gathers what a response body writes.
private struct ResponseCollector: ResponseBodyWriter {
    final class Storage {
        var data = Data()
    }
    let storage = Storage()

    mutating func write(_ buffer: ByteBuffer) async throws {
        storage.data.append(contentsOf: buffer.readableBytesView)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
