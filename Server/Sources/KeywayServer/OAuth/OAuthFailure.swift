import KeywayProtocol

/// An error of an OAuth endpoint, answered as RFC 6749 §5.2 JSON.
struct OAuthFailure: Error, Sendable {
    var status: Int
    var body: OAuthErrorResponse
    /// `WWW-Authenticate` value for 401 answers to a client that used the Authorization header.
    var wwwAuthenticate: String?
    /// A fresh `DPoP-Nonce` to send with the answer.
    var dpopNonce: String? = nil
    /// `Retry-After` seconds, for a `503`.
    var retryAfterSeconds: Int? = nil

    static func invalidRequest(_ description: String) -> OAuthFailure {
        OAuthFailure(status: 400, body: .init(error: "invalid_request", errorDescription: description))
    }

    static func invalidClient(_ description: String, usedBasic: Bool) -> OAuthFailure {
        OAuthFailure(
            status: 401, body: .init(error: "invalid_client", errorDescription: description),
            wwwAuthenticate: usedBasic ? #"Basic realm="keyway""# : nil)
    }

    static func invalidGrant(_ description: String) -> OAuthFailure {
        OAuthFailure(status: 400, body: .init(error: "invalid_grant", errorDescription: description))
    }

    static func invalidScope(_ description: String) -> OAuthFailure {
        OAuthFailure(status: 400, body: .init(error: "invalid_scope", errorDescription: description))
    }

    /// RFC 8693 §2.2.2: the requested audience or resource is not one this server issues for.
    static func invalidTarget(_ description: String) -> OAuthFailure {
        OAuthFailure(status: 400, body: .init(error: "invalid_target", errorDescription: description))
    }

    static func unauthorizedClient(_ description: String) -> OAuthFailure {
        OAuthFailure(status: 400, body: .init(error: "unauthorized_client", errorDescription: description))
    }

    /// RFC 6750 §3.1: a request to a bearer-protected endpoint without credentials.
    static let missingBearer = OAuthFailure(
        status: 401, body: .init(error: "invalid_request", errorDescription: "An access token is required."),
        wwwAuthenticate: #"Bearer realm="keyway""#)

    /// RFC 6750 §3.1 `invalid_token` (401) or a malformed `Authorization` header (400).
    static func invalidToken(_ description: String, status: Int) -> OAuthFailure {
        let error = status == 401 ? "invalid_token" : "invalid_request"
        return OAuthFailure(
            status: status, body: .init(error: error, errorDescription: description),
            wwwAuthenticate: #"Bearer realm="keyway", error="\#(error)", error_description="\#(description)""#)
    }

    /// RFC 6750 §3.1 `insufficient_scope` (403): the token is valid but may not do this — a
    /// third-party application's token at a route of the user's own account.
    static func insufficientScope(_ description: String) -> OAuthFailure {
        OAuthFailure(
            status: 403, body: .init(error: "insufficient_scope", errorDescription: description),
            wwwAuthenticate: #"Bearer realm="keyway", error="insufficient_scope", error_description="\#(description)""#)
    }

    static func invalidDPoPProof(_ description: String) -> OAuthFailure {
        OAuthFailure(status: 400, body: .init(error: "invalid_dpop_proof", errorDescription: description))
    }

    static func useDPoPNonce(_ nonce: String) -> OAuthFailure {
        OAuthFailure(
            status: 400,
            body: .init(error: "use_dpop_nonce", errorDescription: "Authorization server requires nonce in DPoP proof"),
            dpopNonce: nonce)
    }

    /// RFC 9449 §7.1: a resource request with a DPoP-bound token and a missing or wrong proof.
    static func invalidDPoPToken(_ description: String, error: String = "invalid_token") -> OAuthFailure {
        OAuthFailure(
            status: 401, body: .init(error: error, errorDescription: description),
            wwwAuthenticate: #"DPoP algs="ES256", error="\#(error)", error_description="\#(description)""#)
    }

    static func unsupportedGrantType(_ type: String) -> OAuthFailure {
        OAuthFailure(
            status: 400,
            body: .init(error: "unsupported_grant_type", errorDescription: "The grant type \(type) is not supported."))
    }

    /// The database refused the request's transaction for conflicts every time it ran, or no
    /// connection could be had in time (see ``TransientDatabaseFailure``): nothing was kept, and the client may send it again after a second.
    /// `temporarily_unavailable` is the code RFC 6749 §4.1.2.1 gives a busy authorization server.
    static let temporarilyUnavailable = OAuthFailure(
        status: 503,
        body: .init(
            error: "temporarily_unavailable",
            errorDescription: "The server is too busy, or cannot reach its database, to finish this request. Try again in a second."),
        retryAfterSeconds: 1)

    static let serverError = OAuthFailure(
        status: 500, body: .init(error: "server_error", errorDescription: "The server failed to process the request."))
}
