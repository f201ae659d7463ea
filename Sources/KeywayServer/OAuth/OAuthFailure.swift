import KeywayProtocol

/// An error of an OAuth endpoint, answered as RFC 6749 §5.2 JSON.
struct OAuthFailure: Error, Sendable {
    var status: Int
    var body: OAuthErrorResponse
    /// `WWW-Authenticate` value for 401 answers to a client that used the Authorization header.
    var wwwAuthenticate: String?

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

    static func unsupportedGrantType(_ type: String) -> OAuthFailure {
        OAuthFailure(
            status: 400,
            body: .init(error: "unsupported_grant_type", errorDescription: "The grant type \(type) is not supported."))
    }

    static let serverError = OAuthFailure(
        status: 500, body: .init(error: "server_error", errorDescription: "The server failed to process the request."))
}
