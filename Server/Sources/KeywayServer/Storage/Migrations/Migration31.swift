extension Migrations {
    /// Migration 31: only a family's first refresh token names the authorization code it came
    /// from, and only those are indexed by it. A replayed code revokes the families whose first
    /// token it issued; a refresh no longer writes an entry into that index.
    static let v31 = Migration(
        version: 31, name: "the authorization code on a family's first refresh token only",
        statements: [
            // A family's first token is the one whose ID is the family's.
            "UPDATE refresh_tokens SET authorization_code_hash = NULL WHERE id <> family_id",
            "DROP INDEX refresh_tokens_code",
            """
            CREATE INDEX refresh_tokens_code ON refresh_tokens (authorization_code_hash)
            WHERE authorization_code_hash IS NOT NULL
            """,
        ])
}
