/// Why a policy was refused: every problem found, not just the first.
public struct PolicyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problems, in the order the rules are checked.
    public var problems: [PolicyProblem]

    public init(problems: [PolicyProblem]) {
        self.problems = problems
    }

    /// The problems, one `code (field): sentence` line each.
    public var description: String {
        problems.map { "\($0.code) (\($0.field)): \($0.message)" }.joined(separator: "\n")
    }

    /// The codes of the problems, for tests and tools.
    public var codes: [String] { problems.map(\.code) }
}

/// One rule a policy breaks.
public struct PolicyProblem: Codable, Sendable, Equatable {
    /// The stable, machine-readable code (listed in docs/admin.md).
    public var code: String
    /// The field at fault, as a dotted path (`signup.profileFields[2].name`).
    public var field: String
    /// What is wrong, as a sentence for a person.
    public var message: String

    public init(code: String, field: String, message: String) {
        self.code = code
        self.field = field
        self.message = message
    }
}
