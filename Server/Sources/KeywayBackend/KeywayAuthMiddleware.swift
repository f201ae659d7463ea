import Foundation
import HTTPTypes
import Hummingbird
import KeywayJOSE
import KeywayProtocol
import NIOCore

/// A request context that carries the identity ``KeywayAuthMiddleware`` verified.
public protocol KeywayAuthRequestContext: RequestContext {
    /// The verified caller; set by the middleware before the route runs.
    var keywayIdentity: AccessTokenIdentity? { get set }
}

/// A ready-made request context for ``KeywayAuthMiddleware``, ``PowerAuthSignatureMiddleware``,
/// ``PowerAuthEncryptionMiddleware`` and ``PowerAuthTokenMiddleware``.
public struct KeywayBackendRequestContext: KeywayAuthRequestContext, PowerAuthEncryptionRequestContext,
    PowerAuthTokenRequestContext
{
    public var coreContext: CoreRequestContextStorage
    public var keywayIdentity: AccessTokenIdentity?
    public var keywaySignature: SignatureVerification?
    public var keywayEncryption: PowerAuthDecryptedRequest?
    public var keywayToken: TokenVerification?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        keywayIdentity = nil
        keywaySignature = nil
        keywayEncryption = nil
        keywayToken = nil
    }
}

/// Hummingbird middleware that lets a request through only with a valid Keyway access token:
/// `Authorization: Bearer TOKEN` for bearer tokens, or `Authorization: DPoP TOKEN` with a `DPoP`
/// proof (RFC 9449 §7) for tokens bound to a key — the proof must match the request's method and
/// URL, carry `ath` for the token, be fresh, not be replayed, and be signed by the token's key.
/// The verified ``AccessTokenIdentity`` is put in the context; every refusal answers `401` with
/// an RFC 6750 / RFC 9449 `WWW-Authenticate` challenge.
public struct KeywayAuthMiddleware<Context: KeywayAuthRequestContext>: RouterMiddleware {
    private let backend: KeywayBackend
    private let publicBaseURL: URL?
    private let requiredScopes: Set<String>
    private let proofWindow: TimeInterval
    private let replay: ProofReplayCache

    /// - Parameters:
    ///   - publicBaseURL: the URL clients use to reach this backend (scheme, host, port and any
    ///     path prefix); DPoP proofs name it in `htu`. `nil` takes `http://` and the request's
    ///     `Host`, which only fits a backend clients reach directly over plain HTTP: set it
    ///     behind TLS or a proxy.
    ///   - requiredScopes: scopes every token must carry.
    ///   - proofWindow: how far a DPoP proof's `iat` may be from this server's clock.
    public init(
        backend: KeywayBackend, publicBaseURL: URL?, requiredScopes: Set<String> = [], proofWindow: TimeInterval = 60
    ) {
        self.backend = backend
        self.publicBaseURL = publicBaseURL
        self.requiredScopes = requiredScopes
        self.proofWindow = proofWindow
        self.replay = ProofReplayCache()
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let authorization = request.headers[.authorization] else {
            return Self.challenge(nil, description: "An access token is required.", dpop: false)
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else {
            return Self.challenge("invalid_request", description: "The Authorization header is malformed.", dpop: false)
        }
        let scheme = parts[0].lowercased()
        let token = String(parts[1])
        guard scheme == "bearer" || scheme == "dpop" else {
            return Self.challenge("invalid_request", description: "Use the Bearer or DPoP scheme.", dpop: false)
        }
        let identity: AccessTokenIdentity
        do {
            identity = try await backend.verifyAccessToken(token)
        } catch let error as KeywayBackendError {
            return Self.challenge("invalid_token", description: Self.sentence(error), dpop: scheme == "dpop")
        }
        if let thumbprint = identity.dpopKeyThumbprint {
            guard scheme == "dpop" else {
                return Self.challenge(
                    "invalid_token", description: "This token is DPoP-bound: send it with the DPoP scheme and a proof.",
                    dpop: true)
            }
            guard let url = requestURL(request) else {
                return Self.challenge("invalid_request", description: "The request URL cannot be determined.", dpop: true)
            }
            let proof: DPoPVerifiedProof
            do {
                proof = try DPoP.verify(
                    request.headers[values: HTTPField.Name("DPoP")!], method: request.method.rawValue, url: url,
                    accessToken: token, now: Date(), window: proofWindow)
            } catch {
                return Self.challenge("invalid_dpop_proof", description: error.reason, dpop: true)
            }
            guard ConstantTime.equals(proof.jkt, thumbprint) else {
                return Self.challenge(
                    "invalid_dpop_proof", description: "The DPoP proof is signed by another key than the token's.",
                    dpop: true)
            }
            guard await replay.record(jkt: proof.jkt, jti: proof.jti, issuedAt: proof.issuedAt, window: proofWindow)
            else {
                return Self.challenge("invalid_dpop_proof", description: "The DPoP proof was already used.", dpop: true)
            }
        } else if scheme == "dpop" {
            return Self.challenge("invalid_token", description: "This token is not DPoP-bound: use the Bearer scheme.", dpop: false)
        }
        guard requiredScopes.isSubset(of: identity.scopes) else {
            return Self.insufficientScope(requiredScopes)
        }
        var context = context
        context.keywayIdentity = identity
        return try await next(request, context)
    }

    /// The URL of the request as the client addressed it.
    private func requestURL(_ request: Request) -> URL? {
        var base = publicBaseURL?.absoluteString ?? request.head.authority.map { "http://\($0)" } ?? ""
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + request.uri.path)
    }

    private static func sentence(_ error: KeywayBackendError) -> String {
        switch error {
        case .invalidToken(let why): why
        default: "The access token could not be verified."
        }
    }

    private static func challenge(_ error: String?, description: String, dpop: Bool) -> Response {
        let scheme = dpop ? #"DPoP algs="ES256""# : #"Bearer realm="keyway""#
        var challenge = scheme
        if let error { challenge += #", error="\#(error)", error_description="\#(description)""# }
        return response(status: .unauthorized, challenge: challenge, error: error ?? "invalid_request", description: description)
    }

    private static func insufficientScope(_ scopes: Set<String>) -> Response {
        let scope = scopes.sorted().joined(separator: " ")
        return response(
            status: .forbidden, challenge: #"Bearer realm="keyway", error="insufficient_scope", scope="\#(scope)""#,
            error: "insufficient_scope", description: "The access token lacks the scope \(scope).")
    }

    private static func response(status: HTTPResponse.Status, challenge: String, error: String, description: String)
        -> Response
    {
        let body = (try? JSONEncoder().encode(OAuthErrorResponse(error: error, errorDescription: description))) ?? Data()
        return Response(
            status: status,
            headers: [.wwwAuthenticate: challenge, .contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// DPoP proofs seen recently, per key and `jti`, kept until they leave the acceptance window.
actor ProofReplayCache {
    private var seen: [String: Int64] = [:]
    private var lastSweep: Int64 = 0

    /// Records a proof; `false` when it was seen before.
    func record(jkt: String, jti: String, issuedAt: Int64, window: TimeInterval) -> Bool {
        let now = Int64(Date().timeIntervalSince1970)
        if now - lastSweep > 30 {
            seen = seen.filter { $0.value >= now }
            lastSweep = now
        }
        let key = "\(jkt).\(jti)"
        guard seen[key] == nil else { return false }
        seen[key] = issuedAt + Int64(window) * 2
        return true
    }
}
