/// A browser's sign-in at the hosted pages, behind the `__Host-keyway-session` cookie; stored
/// only as the cookie's SHA-256. Every application of the project can use it (single sign-on).
struct BrowserSessionRecord: Sendable, Equatable {
    var id: String
    var tokenHash: String
    var projectId: String
    var userId: String
    /// The application the browser signed in through (account management runs there).
    var applicationId: String
    /// Authentication methods references (RFC 8176) of the sign-in.
    var amr: [String]
    var authTime: Int64
    var createdAt: Int64
    var expiresAt: Int64
    var revokedAt: Int64?
}

/// A browser's visit to the hosted pages in progress, behind the `__Host-keyway-flow` cookie:
/// the authorization request it serves, the flow it drives, the form token (CSRF) of its pages.
struct BrowserFlowRecord: Sendable, Equatable {
    var id: String
    var tokenHash: String
    var applicationId: String
    /// The visit's state as JSON (``BrowserFlowState``), with its secrets sealed.
    var state: String
    /// The synchronizer token every form of the visit carries.
    var csrfToken: String
    var createdAt: Int64
    var expiresAt: Int64
}

/// What a user allowed a client that is not first-party.
struct ConsentRecord: Sendable, Equatable {
    var userId: String
    var applicationId: String
    /// The scopes granted, space separated.
    var scope: String
    var grantedAt: Int64
}

/// A pushed authorization request (RFC 9126), by the SHA-256 of its `request_uri`.
struct PushedRequestRecord: Sendable, Equatable {
    var uriHash: String
    var applicationId: String
    /// The request's parameters as JSON.
    var request: String
    var expiresAt: Int64
    var usedAt: Int64?
}
