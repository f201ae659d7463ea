import KeywayProtocol

/// A flow in progress (or finished), with everything needed to continue it after a restart.
struct FlowRecord: Sendable, Equatable {
    enum State: String, Sendable {
        case awaitingCode
        case completed
        case cancelled
        /// Closed after too many wrong codes.
        case failed
    }

    var id: String
    var applicationId: String
    var flowType: FlowType
    /// The normalized identifier (email address).
    var identifier: String
    /// The user the identifier belongs to, when one exists.
    var userId: String?
    var state: State
    /// SHA-256 of the flow token.
    var tokenHash: String
    var codeChallenge: String
    /// Keyed hash of the current one-time code; cleared once used.
    var otpHash: String?
    var otpExpiresAt: Int64?
    var resendAt: Int64?
    var resendCount: Int
    var failedAttempts: Int
    var sessionId: String?
    var createdAt: Int64
    var expiresAt: Int64
    var updatedAt: Int64
    /// Where the flow stands; `nil` for flows written before adaptive flows.
    var progress: FlowProgress? = nil
}
