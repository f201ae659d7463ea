import Foundation

/// The members of the discovery document the browser path reads that ``KeywayProtocol/DiscoveryDocument``
/// does not model.
struct BrowserMetadata: Decodable, Sendable {
    /// RFC 9207 §3: the authorization endpoint puts `iss` in every response.
    var authorizationResponseIssParameterSupported: Bool?

    enum CodingKeys: String, CodingKey {
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
    }
}

/// What a browser sign-in needs to know of the server.
struct AuthorizationServerMetadata: Sendable, Equatable {
    /// The issuer, as discovery names it (the `iss` of tokens and of authorization responses).
    var issuer: String
    /// The `authorization_endpoint` of discovery.
    var discoveredEndpoint: String
    /// Whether the server advertises `authorization_response_iss_parameter_supported`: `iss` must
    /// then be in every callback.
    var issParameterSupported: Bool

    /// The path of the browser authorization endpoint under the issuer.
    static let authorizePath = "/oauth2/authorize"

    /// The endpoint to send the browser to: `configured` when the app set one; otherwise the
    /// discovered one — except when discovery still names the flow API (`…/v1/flows`, what the
    /// server advertised before it had a browser endpoint): then `{issuer}/oauth2/authorize`.
    func authorizationEndpoint(configured: URL?) throws -> URL {
        if let configured { return configured }
        let discovered = discoveredEndpoint
        if !discovered.hasSuffix("/v1/flows"), let url = URL(string: discovered), url.scheme != nil, url.host != nil {
            return url
        }
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        guard let url = URL(string: base + Self.authorizePath) else {
            throw KeywayError.invalidResponse("The server's authorization endpoint cannot be derived from \(issuer).")
        }
        return url
    }
}
