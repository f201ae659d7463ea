import Foundation
import HTTPTypes
import Hummingbird
import KeywayPowerAuth
import KeywayPowerAuthWire
import NIOCore

/// A request context that carries the token ``PowerAuthTokenMiddleware`` verified.
public protocol PowerAuthTokenRequestContext: RequestContext {
    /// The accepted token; set by the middleware before the route runs.
    var keywayToken: TokenVerification? { get set }
}

/// Hummingbird middleware that lets a request through only with a valid `X-PowerAuth-Token`
/// header (MAC token-based authentication), as the Keyway server judges it: a token of an ACTIVE
/// activation of this backend's project, fresh, never seen before, created with at least the
/// required factors. Meant for cheap read-only routes, such as a balance:
///
/// ```swift
/// router.group("accounts")
///     .add(middleware: PowerAuthTokenMiddleware(backend: keyway))
///     .get("balance") { _, context in … context.keywayToken!.userId … }
/// ```
///
/// A refusal answers `401` with the published PowerAuth error body and the server's reason
/// (`{"status":"ERROR","responseObject":{"code":"POWERAUTH_AUTH_FAIL","reason":"TOKEN_REPLAYED","message":…}}`);
/// an unreachable Keyway server answers `503`.
public struct PowerAuthTokenMiddleware<Context: PowerAuthTokenRequestContext>: RouterMiddleware {
    /// The header's name.
    public static var headerName: String { "X-PowerAuth-Token" }

    private let backend: KeywayBackend
    private let requiredFactors: PowerAuthSignatureFactors

    /// - Parameter requiredFactors: The least a token must prove.
    public init(backend: KeywayBackend, requiredFactors: PowerAuthSignatureFactors = [.possession]) {
        self.backend = backend
        self.requiredFactors = requiredFactors
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[HTTPField.Name(Self.headerName)!] else {
            return Self.refusal(.unauthorized, "TOKEN_MISSING", "The request must carry an X-PowerAuth-Token header.")
        }
        let verification: TokenVerification
        do {
            verification = try await backend.verifyToken(header: header, requiredFactors: requiredFactors)
        } catch KeywayBackendError.invalidConfiguration(let why) {
            return Self.refusal(.unauthorized, "TOKEN_INVALID", why)
        } catch {
            return Self.refusal(.serviceUnavailable, nil, "The token could not be verified now.")
        }
        guard verification.isValid else {
            return Self.refusal(
                .unauthorized, verification.refusal?.code ?? "TOKEN_INVALID",
                verification.refusal?.message ?? "The token is not valid.")
        }
        var context = context
        context.keywayToken = verification
        return try await next(request, context)
    }

    private static func refusal(_ status: HTTPResponse.Status, _ reason: String?, _ message: String) -> Response {
        let code = status == .serviceUnavailable ? "ERR_SERVICE_UNAVAILABLE" : "POWERAUTH_AUTH_FAIL"
        let body = PowerAuthErrorBody(responseObject: .init(code: code, message: message, reason: reason))
        let data = (try? JSONEncoder().encode(body)) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
