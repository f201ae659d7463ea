/// A user of a project.
struct UserRecord: Sendable, Equatable {
    var id: String
    var projectId: String
    var email: String
    var emailVerified: Bool
    var createdAt: Int64
    /// When an administrator blocked the user (milliseconds since 1970); `nil` when not blocked.
    /// A blocked user must not be signed in.
    var blockedAt: Int64? = nil

    /// Whether an administrator blocked the user.
    var isBlocked: Bool { blockedAt != nil }
}
