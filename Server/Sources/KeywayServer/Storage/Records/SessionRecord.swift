/// A signed-in session created by a completed flow; tokens carry its ID as `sid`.
struct SessionRecord: Sendable, Equatable {
    var id: String
    var userId: String
    var applicationId: String
    /// Authentication methods references (RFC 8176), space separated.
    var amr: [String]
    var authTime: Int64
    var createdAt: Int64
    var revokedAt: Int64?
    /// SHA-256 of the client address the session was opened from.
    var clientAddressHash: String? = nil
    /// The browser session (hosted sign-in) the session was opened through, if any.
    var browserSessionId: String? = nil
}
