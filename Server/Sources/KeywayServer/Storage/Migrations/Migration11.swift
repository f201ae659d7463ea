extension Migrations {
    /// Migration 11: adaptive flows.
    static let v11 = Migration(
        version: 11, name: "adaptive flows",
        statements: [
            // Methods on the account. A user known by phone only keeps `#<id>` in `email`
            // (see UserRepository), since the column is not null and unique per project.
            "ALTER TABLE users ADD COLUMN phone TEXT",
            "ALTER TABLE users ADD COLUMN phone_verified BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE users ADD COLUMN password_hash TEXT",
            "ALTER TABLE users ADD COLUMN totp_secret TEXT",
            "ALTER TABLE users ADD COLUMN totp_last_counter BIGINT",
            "CREATE UNIQUE INDEX users_project_phone ON users (project_id, phone)",
            // Where the flow stands (JSON of FlowProgress).
            "ALTER TABLE flows ADD COLUMN progress TEXT",
            // Where sessions came from, hashed, for the risk assessment.
            "ALTER TABLE sessions ADD COLUMN client_address_hash TEXT",
            "CREATE INDEX sessions_user_address ON sessions (user_id, client_address_hash)",
        ])
}
