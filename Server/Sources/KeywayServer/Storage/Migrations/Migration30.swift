extension Migrations {
    /// Migration 30: refresh tokens indexed by their session, not their user. Ending a session
    /// (signing out, ending it from account management) found its refresh tokens by reading the
    /// whole table; a user's tokens are now found through the user's sessions (`sessions_user`),
    /// so each refresh still writes as many index entries as before.
    static let v30 = Migration(
        version: 30, name: "refresh tokens indexed by their session",
        statements: [
            "DROP INDEX refresh_tokens_user",
            "CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id)",
        ])
}
