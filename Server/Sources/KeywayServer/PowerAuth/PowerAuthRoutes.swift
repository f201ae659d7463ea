import Foundation
import HTTPTypes
import Hummingbird
import KeywayPowerAuth
import KeywayPowerAuthWire
import Logging
import NIOCore

/// The PowerAuth 3.3 Standard RESTful API the server implements: temporary keys, activation
/// (create, status, remove), signature validation, vault unlock, tokens (create, remove) and the
/// confirmation of a recovery code. Every refusal is the published
/// error body, `400` or `401`; malformed input never reaches the crypto.
struct PowerAuthRoutes {
    let keystore: PowerAuthKeystore
    let activations: PowerAuthActivationService
    let devices: PowerAuthDeviceService
    let tokens: PowerAuthTokenService
    let recovery: PowerAuthRecoveryService
    let verifier: PowerAuthSignatureVerifier
    let userInfo: PowerAuthUserInfoService
    let clock: any ServerClock
    let logger: Logger

    static let encryptionHeader = HTTPField.Name(PowerAuthEncryptionHeader.name)!
    static let authorizationHeader = HTTPField.Name(PowerAuthAuthorizationHeader.name)!
    static let dpopHeader = HTTPField.Name("DPoP")!
    /// The largest body read.
    static let maxBodySize = 64 * 1024

    func register(on table: RouteTable) {
        // Before or outside an activation: sealed or signed with the application's key and secret.
        let router = table.declaring(.powerAuthApplication)
        router.post("pa/v3/keystore/create") { request, _ in
            await answer {
                try Self.json(try await keystore.create(body: try await Self.body(request)))
            }
        }
        router.post("pa/v3/activation/create") { request, _ in
            await answer {
                try Self.json(
                    try await activations.create(
                        encryptionHeader: request.headers[Self.encryptionHeader], body: try await Self.body(request),
                        dpopProofs: request.headers[values: Self.dpopHeader]))
            }
        }
        // The server's time, which the mobile SDKs read after every launch and return to the
        // foreground before they ask an activation's status (the RESTful integration's
        // `ServerStatusController`). It keeps nothing; a body is read (so the connection stays
        // usable) and ignored, as the reference ignores it.
        table.declaring(.anyone).post("pa/v3/status") { request, _ in
            _ = try? await Self.body(request)
            return try Self.json(
                PowerAuthOKBody(
                    responseObject: PowerAuthServerStatus(
                        serverTime: clock.now().epochMilliseconds,
                        application: .init(name: "keyway-server", version: KeywayServerApp.version))))
        }
        // The activation's user, sealed under its transport key: only the device can open it.
        table.declaring(.powerAuthApplication).post("pa/v3/user/info") { request, _ in
            await answer {
                try Self.json(
                    try await userInfo.claims(
                        encryptionHeader: request.headers[Self.encryptionHeader], body: try await Self.body(request)))
            }
        }
        // An activation's status: anyone with its ID may ask; the answer is sealed under the
        // device's transport key, which only the device holds.
        table.declaring(.anyone).post("pa/v3/activation/status") { request, _ in
            await answer {
                try Self.json(PowerAuthOKBody(responseObject: try await activations.status(body: try await Self.body(request))))
            }
        }
        let signed = table.declaring(.powerAuthSignature)
        signed.post("pa/v3/activation/remove") { request, _ in
            await answer {
                try await devices.remove(
                    authorization: request.headers[Self.authorizationHeader], body: try await Self.body(request))
                return try Self.json(PowerAuthOKBody<PowerAuthEmptyObject>(responseObject: nil))
            }
        }
        let validate: @Sendable (Request, KeywayRequestContext) async throws -> Response = { request, _ in
            await answer {
                var body = try await Self.body(request)
                let method = request.method.rawValue
                if body.isEmpty, method == "GET" || method == "DELETE" {
                    body = try PowerAuthSignatureBody.canonicalQuery(request.uri.query)
                }
                _ = try await verifier.verify(
                    header: request.headers[Self.authorizationHeader], method: method,
                    uriId: PowerAuthEndpoint.signatureValidate.uriId, body: body,
                    required: PowerAuthEndpoint.signatureValidate.factors.accepts)
                return try Self.json(PowerAuthOKBody<PowerAuthEmptyObject>(responseObject: nil))
            }
        }
        signed.post("pa/v3/signature/validate", use: validate)
        signed.get("pa/v3/signature/validate", use: validate)
        signed.put("pa/v3/signature/validate", use: validate)
        signed.delete("pa/v3/signature/validate", use: validate)
        signed.post("pa/v3/vault/unlock") { request, _ in
            await answer {
                try Self.json(
                    try await devices.unlockVault(
                        authorization: request.headers[Self.authorizationHeader], body: try await Self.body(request)))
            }
        }
        signed.post("pa/v3/token/create") { request, _ in
            await answer {
                try Self.json(
                    try await tokens.create(
                        authorization: request.headers[Self.authorizationHeader], body: try await Self.body(request)))
            }
        }
        signed.post("pa/v3/token/remove") { request, _ in
            await answer {
                try Self.json(
                    PowerAuthOKBody(
                        responseObject: try await tokens.remove(
                            authorization: request.headers[Self.authorizationHeader], body: try await Self.body(request))))
            }
        }
        signed.post("pa/v3/recovery/confirm") { request, _ in
            await answer {
                try Self.json(
                    try await recovery.confirm(
                        authorization: request.headers[Self.authorizationHeader], body: try await Self.body(request)))
            }
        }
    }

    /// Runs `body`, answering every refusal with the published error body.
    private func answer(_ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let failure as PowerAuthFailure {
            return Self.error(failure)
        } catch is any TransientDatabaseFailure {
            return Self.error(
                PowerAuthFailure(code: "ERR_GENERIC", message: "The server is busy: try again.", status: .serviceUnavailable))
        } catch {
            logger.error("powerauth: request failed", metadata: ["error": "\(String(describing: type(of: error)))"])
            return Self.error(.internalError)
        }
    }

    static func error(_ failure: PowerAuthFailure) -> Response {
        let body = PowerAuthErrorBody(
            responseObject: .init(
                code: failure.code, message: failure.message, currentRecoveryPukIndex: failure.currentRecoveryPukIndex))
        let data = (try? JSONEncoder().encode(body)) ?? Data()
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store"]
        if let seconds = failure.retryAfterSeconds { headers[.retryAfter] = String(seconds) }
        return Response(status: failure.status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func json<T: Encodable>(_ value: T) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try PowerAuthJSON.encode(value))))
    }

    static func body(_ request: Request) async throws -> Data {
        do {
            return Data(buffer: try await request.body.collect(upTo: maxBodySize))
        } catch {
            throw PowerAuthFailure.invalidRequest("The body is larger than \(maxBodySize) bytes.")
        }
    }
}

/// The signed body of a request without one.
enum PowerAuthSignatureBody {
    /// The canonical form of a raw query string (``PowerAuthSignature/canonicalQuery(rawQuery:)``);
    /// a malformed percent escape is refused before any signature is checked, so it counts nothing.
    static func canonicalQuery(_ query: String?) throws(PowerAuthFailure) -> Data {
        guard let body = PowerAuthSignature.canonicalQuery(rawQuery: query) else {
            throw .invalidRequest("A percent escape of the query is malformed.")
        }
        return body
    }
}
