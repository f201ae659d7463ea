import KeywayProtocol

extension ProblemCode {
    /// The admin API needs `Authorization: Bearer ADMIN_TOKEN` with the server's admin token.
    public static let adminUnauthorized = ProblemCode(rawValue: "admin_unauthorized")
    /// The policy breaks one or more rules; `problems` lists each.
    public static let invalidPolicy = ProblemCode(rawValue: "invalid_policy")
    /// No application has this config ID.
    public static let applicationNotFound = ProblemCode(rawValue: "application_not_found")
    /// No user has this ID.
    public static let userNotFound = ProblemCode(rawValue: "user_not_found")
    /// No project has this ID.
    public static let projectNotFound = ProblemCode(rawValue: "project_not_found")
}

/// The problems the admin API answers with (besides `invalid_request` and the server-wide ones).
enum AdminProblem {
    static let unauthorized = FlowProblem(
        .adminUnauthorized, status: 401, title: "Admin token required",
        detail: "Send the server's admin token as Authorization: Bearer TOKEN.", action: .abort)

    static func applicationNotFound(_ configId: String) -> FlowProblem {
        FlowProblem(
            .applicationNotFound, status: 404, title: "Application not found",
            detail: "No application has the config ID \(configId).", action: .abort)
    }

    static func userNotFound(_ userId: String) -> FlowProblem {
        FlowProblem(
            .userNotFound, status: 404, title: "User not found", detail: "No user has the ID \(userId).",
            action: .abort)
    }

    static func projectNotFound(_ projectId: String) -> FlowProblem {
        FlowProblem(
            .projectNotFound, status: 404, title: "Project not found", detail: "No project has the ID \(projectId).",
            action: .abort)
    }

    static func invalidPolicy(_ error: PolicyError) -> FlowProblem {
        let count = error.problems.count
        return FlowProblem(
            .invalidPolicy, status: 422, title: "Invalid policy",
            detail: count == 1
                ? "The policy was not saved: \(error.problems[0].message)"
                : "The policy was not saved: it breaks \(count) rules, listed in problems.",
            action: .retryInput,
            invalidFields: error.problems.map { InvalidField(name: $0.field, reason: $0.message) })
    }
}
