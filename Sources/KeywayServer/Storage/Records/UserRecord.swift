/// A user of a project.
struct UserRecord: Sendable, Equatable {
    var id: String
    var projectId: String
    var email: String
    var emailVerified: Bool
    var createdAt: Int64
}
