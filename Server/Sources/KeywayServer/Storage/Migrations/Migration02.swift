extension Migrations {
    /// Migration 2: refresh token rotation.
    static let v2 = Migration(
        version: 2, name: "refresh token rotation",
        statements: [
            "ALTER TABLE refresh_tokens ADD COLUMN family_id TEXT",
            "ALTER TABLE refresh_tokens ADD COLUMN scope TEXT NOT NULL DEFAULT 'openid email offline_access'",
            "ALTER TABLE refresh_tokens ADD COLUMN family_expires_at BIGINT",
            "ALTER TABLE refresh_tokens ADD COLUMN rotated_at BIGINT",
            "ALTER TABLE refresh_tokens ADD COLUMN successor_id TEXT",
            "UPDATE refresh_tokens SET family_id = id, family_expires_at = expires_at",
            "CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id)",
            "CREATE INDEX refresh_tokens_family_expires_at ON refresh_tokens (family_expires_at)",
            "ALTER TABLE applications ADD COLUMN refresh_absolute_ms BIGINT",
            "ALTER TABLE applications ADD COLUMN refresh_idle_ms BIGINT",
            "ALTER TABLE applications ADD COLUMN refresh_grace_ms BIGINT",
        ])
}
