import Hummingbird
import KeywayJOSE

/// The per-request context: Hummingbird's core storage plus the request's trace ID.
struct KeywayRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Set by ``RequestLogMiddleware`` before any route runs.
    var traceId: String
    /// The client's IP address: its connection's peer, or behind a trusted proxy the address the
    /// proxy forwarded (``TrustedProxies``, resolved by ``RequestLogMiddleware`` before any route).
    var remoteAddress: String?
    /// The app's backend calling a route declared ``Caller/backend(_:)``, set by its guard
    /// (``BackendAuthorization``) before the route runs.
    var backend: ApplicationRecord?
    /// The user whose access token signed in a request to a route declared ``Caller/user`` or
    /// ``Caller/account``, set by its guard (``AccessTokenAuthorization``) before the route runs.
    var user: SignedInUser?
    /// The client calling a route declared ``Caller/client`` or ``Caller/confidentialClient``, and
    /// the request's form, set by its guard (``ClientAuthorization``) before the route runs.
    var client: ClientCall?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        traceId = TraceID.generate()
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }

    var maxUploadSize: Int { 64 * 1024 }

    /// The signed-in user of a route declared ``Caller/user`` or ``Caller/account``. Only a route
    /// registered without its guard finds none: that is the server's fault, answered `500`.
    func signedInUser() throws -> SignedInUser {
        guard let user else { throw HTTPError(.internalServerError) }
        return user
    }

    /// The authenticated client and form of a route declared ``Caller/client`` or
    /// ``Caller/confidentialClient``; like ``signedInUser()``, `500` only for a route registered
    /// without its guard.
    func clientCall() throws -> ClientCall {
        guard let client else { throw HTTPError(.internalServerError) }
        return client
    }
}

/// The request being answered, for code below the routes that limits what one client may make the
/// server keep or spend (the hosted pages' visits, pushed authorization requests, failed PowerAuth
/// signatures): set around every route by ``RequestLogMiddleware``.
enum RequestClient {
    /// The client's IP address as this server sees it.
    @TaskLocal static var address: String?
}

/// Trace IDs: 16 random bytes, hex; an incoming well-formed ID is kept so a client can correlate.
enum TraceID {
    static func generate() -> String {
        Hex.encode(SecureRandom.bytes(16))
    }

    /// The trace ID of a W3C Trace Context `traceparent` header
    /// (`00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>`), or `nil` when it is malformed or
    /// names the invalid all-zero trace or parent.
    static func fromTraceparent(_ header: String) -> String? {
        let parts = header.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[0].count == 2, parts[0] != "ff", parts[1].count == 32, parts[2].count == 16,
            parts[3].count == 2, parts[0] != "00" || parts.count == 4,
            parts.prefix(4).allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } }),
            parts[1].contains(where: { $0 != "0" }), parts[2].contains(where: { $0 != "0" })
        else { return nil }
        return String(parts[1])
    }

    /// Whether a client-sent trace ID may be reused: 8 to 64 characters of `[A-Za-z0-9-_]`.
    static func isAcceptable(_ value: String) -> Bool {
        (8...64).contains(value.utf8.count)
            && value.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45
                    || byte == 95
            }
    }
}

import Foundation
