/// A sign-in link sent with a code: its token only as a keyed hash, the flow it belongs to, and
/// what became of it.
struct SignInLinkRecord: Sendable, Equatable {
    enum State: String, Sendable {
        /// Sent, not used yet.
        case pending
        /// Approved on the device that opened it; the flow proceeds at its next poll.
        case approved
        /// Denied on the device that opened it.
        case denied
        /// Spent: the flow used it (opened in the app, or its approval taken up).
        case used
    }

    /// `HMAC-SHA256(key, "link:v1:" token)`, hex encoded.
    var tokenHash: String
    var flowId: String
    var applicationId: String
    /// Where the sign-in came from, coarsely (the page on another device shows it).
    var location: String?
    /// The signing-in client's name (`User-Agent` or the SDK's client header), at most 200 characters.
    var userAgent: String?
    var state: State
    var createdAt: Int64
    /// When the code sent beside it expires.
    var expiresAt: Int64
    var decidedAt: Int64?
}
