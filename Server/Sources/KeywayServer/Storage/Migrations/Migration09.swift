extension Migrations {
    /// Migration 9: application policies and admin API.
    static let v9 = Migration(
        version: 9, name: "application policies and admin API",
        statements: [
            """
            CREATE TABLE application_policies (
                application_id TEXT PRIMARY KEY REFERENCES applications(id),
                policy TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE invite_codes (
                code_hash TEXT PRIMARY KEY,
                application_id TEXT NOT NULL REFERENCES applications(id),
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT,
                used_by_user_id TEXT
            )
            """,
            "CREATE INDEX invite_codes_expires_at ON invite_codes (expires_at)",
            """
            CREATE TABLE start_tokens (
                token_hash TEXT PRIMARY KEY,
                application_id TEXT NOT NULL REFERENCES applications(id),
                flow_type TEXT NOT NULL,
                identifier TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT
            )
            """,
            "CREATE INDEX start_tokens_expires_at ON start_tokens (expires_at)",
            "ALTER TABLE users ADD COLUMN blocked_at BIGINT",
        ])
}
