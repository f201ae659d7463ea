extension Migrations {
    /// Migration 13: the scope of an authorization code.
    static let v13 = Migration(
        version: 13, name: "the scope of an authorization code",
        statements: [
            // NULL: a sign-in's code, redeemed for the sign-in scope.
            "ALTER TABLE authorization_codes ADD COLUMN scope TEXT"
        ])
}
