extension Migrations {
    /// Migration 3: access token revocation.
    static let v3 = Migration(
        version: 3, name: "access token revocation",
        statements: [
            """
            CREATE TABLE revoked_access_tokens (
                jti TEXT PRIMARY KEY,
                expires_at BIGINT NOT NULL,
                revoked_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX revoked_access_tokens_expires_at ON revoked_access_tokens (expires_at)",
            "CREATE INDEX sessions_user ON sessions (user_id)",
            "CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id)",
        ])
}
