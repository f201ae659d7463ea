extension Migrations {
    /// Migration 14: when a refresh token's answer went out.
    static let v14 = Migration(
        version: 14, name: "when a refresh token's answer went out",
        statements: [
            // NULL: the answer is not known to have gone out (tokens from before included).
            "ALTER TABLE refresh_tokens ADD COLUMN answered_at BIGINT"
        ])
}
