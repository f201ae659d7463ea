extension Migrations {
    /// Migration 15: App Attest challenges and keys.
    static let v15 = Migration(
        version: 15, name: "App Attest challenges and keys",
        statements: [
            """
            CREATE TABLE app_attest_challenges (
                challenge_hash TEXT PRIMARY KEY,
                application_id TEXT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX app_attest_challenges_expires_at ON app_attest_challenges (expires_at)",
            """
            CREATE TABLE app_attest_keys (
                key_id TEXT NOT NULL,
                application_id TEXT NOT NULL,
                public_key TEXT NOT NULL,
                app_id TEXT NOT NULL,
                environment TEXT NOT NULL,
                receipt TEXT NOT NULL,
                counter BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                PRIMARY KEY (application_id, key_id)
            )
            """,
        ])
}
