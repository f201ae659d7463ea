import KeywayProtocol

/// The server's password handling: scrypt hashes (``PasswordHasher``) and the rules of a new
/// password (``PasswordPolicy``).
public struct ScryptPasswords: PasswordHashing {
    private let hasher: PasswordHasher

    /// Hashes with the standard scrypt cost (N = 2^15, r = 8, p = 1).
    public init() {
        hasher = PasswordHasher()
    }

    /// Hashes with N = 2^`log2Cost`: for tests, where the standard cost would only slow them down.
    public init(log2Cost: Int) {
        hasher = PasswordHasher(parameters: .init(logN: log2Cost, r: 8, p: 1))
    }

    package func hash(_ password: String) async throws -> String {
        try await hasher.hash(Sensitive(password))
    }

    package func verify(_ password: String, against stored: String) async -> Bool {
        (try? await hasher.verify(Sensitive(password), against: stored))?.matches ?? false
    }

    package func verifyDummy(_ password: String) async {
        _ = await hasher.verifyDummy(Sensitive(password))
    }

    package func problems(with password: String, minimumLength: Int) -> [InvalidField] {
        do {
            try PasswordPolicy(minimumLength: minimumLength).check(Sensitive(password))
            return []
        } catch {
            return [InvalidField(name: "password", reason: error.description)]
        }
    }
}
