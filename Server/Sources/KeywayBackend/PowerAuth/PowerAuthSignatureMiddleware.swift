import Foundation
import HTTPTypes
import Hummingbird
import KeywayPowerAuth
import KeywayPowerAuthWire
import NIOCore

/// A request context that carries the device signature ``PowerAuthSignatureMiddleware`` verified.
public protocol PowerAuthSignatureRequestContext: RequestContext {
    /// The accepted verification; set by the middleware before the route runs.
    var keywaySignature: SignatureVerification? { get set }
}

/// Hummingbird middleware that lets a request through only when its `X-PowerAuth-Authorization`
/// header signs exactly this request (method, URI identifier, body) with factors its endpoint
/// accepts, as the Keyway server judges it. An endpoint is declared once, as the device SDK and
/// the server declare theirs (``PowerAuthEndpoint``); for example, a payment route that demands
/// "possession and knowledge":
///
/// ```swift
/// let pay = PowerAuthEndpoint(path: "/payments/pay", uriId: "/payments/pay", factors: .atLeast([.possession, .knowledge]))
/// router.group("payments")
///     .add(middleware: PowerAuthSignatureMiddleware(backend: keyway, endpoint: pay))
///     .post("pay") { request, context in … context.keywaySignature!.userId … }
/// ```
///
/// The body is read (up to 1 MiB) before the route runs and handed on unchanged; a request
/// without one (a `GET`, a `DELETE`) is signed over its query in the canonical form every
/// PowerAuth implementation reads (``PowerAuthSignature/canonicalQuery(rawQuery:)``). A refusal
/// answers `401` with the published PowerAuth error body
/// (`{"status":"ERROR","responseObject":{"code":…,"message":…}}`); an unreachable Keyway server
/// answers `503`.
public struct PowerAuthSignatureMiddleware<Context: PowerAuthSignatureRequestContext>: RouterMiddleware {
    private let backend: KeywayBackend
    private let uriId: @Sendable (Request) -> String
    private let factors: PowerAuthFactorRule

    /// - Parameter endpoint: The endpoint behind this middleware: its URI identifier and the
    ///   factors it accepts.
    public init(backend: KeywayBackend, endpoint: PowerAuthEndpoint) {
        self.backend = backend
        self.uriId = { _ in endpoint.uriId }
        self.factors = endpoint.factors
    }

    /// - Parameters:
    ///   - uriId: The URI identifier the device signs for the routes behind this middleware.
    ///   - requiredFactors: The least a signature must prove.
    public init(backend: KeywayBackend, uriId: String, requiredFactors: PowerAuthSignatureFactors) {
        self.init(backend: backend, requiredFactors: requiredFactors) { _ in uriId }
    }

    /// - Parameters:
    ///   - requiredFactors: The least a signature must prove.
    ///   - uriId: The URI identifier of a request, when the routes behind this middleware sign
    ///     different ones.
    public init(
        backend: KeywayBackend, requiredFactors: PowerAuthSignatureFactors,
        uriId: @escaping @Sendable (Request) -> String
    ) {
        self.backend = backend
        self.uriId = uriId
        self.factors = .atLeast(requiredFactors)
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[HTTPField.Name("X-PowerAuth-Authorization")!] else {
            return Self.refusal(.unauthorized, "POWERAUTH_AUTH_FAIL", "The request must be signed by an activated device.")
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: KeywayBackend.maximumSignedBodySize)
        } catch {
            return Self.refusal(.contentTooLarge, "ERR_REQUEST_TOO_LARGE", "A signed body may not exceed 1 MiB.")
        }
        var signed = Data(buffer: body)
        if signed.isEmpty {
            guard let canonical = PowerAuthSignature.canonicalQuery(rawQuery: request.uri.query) else {
                return Self.refusal(.badRequest, "ERR_INVALID_REQUEST", "A percent escape of the query is malformed.")
            }
            signed = canonical
        }
        let verification: SignatureVerification
        do {
            verification = try await backend.verifySignature(
                method: request.method.rawValue, uriId: uriId(request), body: signed, authorization: header,
                requiredFactors: factors.required)
        } catch KeywayBackendError.invalidConfiguration(let why) {
            return Self.refusal(.unauthorized, "POWERAUTH_AUTH_FAIL", why)
        } catch {
            return Self.refusal(.serviceUnavailable, "ERR_SERVICE_UNAVAILABLE", "The signature could not be verified now.")
        }
        guard verification.isValid else {
            return Self.refusal(
                .unauthorized, "POWERAUTH_AUTH_FAIL",
                verification.refusal?.message ?? "The signature does not verify.")
        }
        guard factors.accepts(verification.factors) else {
            return Self.refusal(.unauthorized, "POWERAUTH_AUTH_FAIL", "This endpoint needs a signature with other factors.")
        }
        var context = context
        context.keywaySignature = verification
        return try await next(request, context)
    }

    private static func refusal(_ status: HTTPResponse.Status, _ code: String, _ message: String) -> Response {
        let data =
            (try? JSONEncoder().encode(
                PowerAuthErrorBody(responseObject: .init(code: code, message: message)))) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
