import Foundation
import HTTPTypes
import Hummingbird

/// Cross-origin access (the Fetch standard's CORS protocol) for single-page applications.
///
/// - The token, UserInfo and revocation endpoints answer a script of an origin the application
///   registered (``CORSOriginRepository``): the application named by the request's `client_id`
///   (form, Basic credentials or client assertion) at the token and revocation endpoints, the
///   access token's client at UserInfo. An origin no application registered gets no
///   `Access-Control-*` header at all: nothing is allowed by default.
/// - A preflight names no client (it carries neither body nor credentials), so it is answered
///   for an origin some application registered; the request itself is then checked against its
///   own application.
/// - The JWKS and the metadata documents hold nothing secret: they answer every origin (`*`).
struct CORS: Sendable {
    let database: any Database

    /// The request headers a script may send.
    static let allowedHeaders = "Authorization, Content-Type, DPoP"
    /// The response headers a script may read beyond the CORS-safelisted ones.
    static let exposedHeaders = "DPoP-Nonce, WWW-Authenticate"
    /// How long a browser may cache a preflight answer, in seconds.
    static let maxAge = "600"

    /// The request's `Origin`, when it has one.
    static func origin(of request: Request) -> String? {
        request.headers[.origin]
    }

    /// Adds the headers of an answer to a client's request: `Vary: Origin` always, the allowing
    /// headers when the application `clientId` registered the request's origin.
    func allowForClient(_ response: inout Response, request: Request, clientId: String?) async {
        response.headers.append(HTTPField(name: .vary, value: "Origin"))
        guard let origin = Self.origin(of: request), let clientId else { return }
        let allowed = (try? await database.read { try await $0.corsOrigins.allows(origin, configId: clientId) }) ?? false
        guard allowed else { return }
        response.headers[.accessControlAllowOrigin] = origin
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
    }

    /// Adds the headers of an answer anyone may read.
    static func allowEveryone(_ response: inout Response) {
        response.headers[.accessControlAllowOrigin] = "*"
    }

    /// The answer to `OPTIONS`: `204` with `Allow`, and for a preflight (`Origin` and
    /// `Access-Control-Request-Method`) from an allowed origin the methods, headers and cache time
    /// allowed. `everyone` answers any origin (public documents); otherwise the origin must be
    /// registered by some application.
    func preflight(_ request: Request, allow: String, everyone: Bool) async -> Response {
        var response = Response(status: .noContent, headers: [.allow: allow])
        if !everyone { response.headers.append(HTTPField(name: .vary, value: "Origin")) }
        guard let origin = Self.origin(of: request), request.headers[.accessControlRequestMethod] != nil else {
            return response
        }
        if !everyone {
            let registered = (try? await database.read { try await $0.corsOrigins.isRegistered(origin) }) ?? false
            guard registered else { return response }
        }
        response.headers[.accessControlAllowOrigin] = everyone ? "*" : origin
        response.headers[.accessControlAllowMethods] = allow
        response.headers[.accessControlAllowHeaders] = Self.allowedHeaders
        response.headers[.accessControlMaxAge] = Self.maxAge
        return response
    }
}
