import KeywayProtocol

/// Password hashing and the rules a new password must meet, as the flow engine uses them.
package protocol PasswordHashing: Sendable {
    /// The stored form of a new password.
    func hash(_ password: String) async throws -> String
    /// Whether `password` matches `stored`, compared in constant time.
    func verify(_ password: String, against stored: String) async -> Bool
    /// Costs what a verification costs, for identifiers without a password: the answer's timing
    /// does not tell whether the account exists.
    func verifyDummy(_ password: String) async
    /// Why `password` cannot be chosen (too short, too long, too common), one entry per reason.
    func problems(with password: String, minimumLength: Int) -> [InvalidField]
}
