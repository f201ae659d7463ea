extension Migrations {
    /// Migration 4: DPoP.
    static let v4 = Migration(
        version: 4, name: "DPoP",
        statements: [
            "ALTER TABLE applications ADD COLUMN dpop_mode TEXT NOT NULL DEFAULT 'optional'",
            "ALTER TABLE applications ADD COLUMN dpop_require_nonce BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE refresh_tokens ADD COLUMN dpop_jkt TEXT",
            """
            CREATE TABLE dpop_proofs (
                proof_hash TEXT PRIMARY KEY,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX dpop_proofs_expires_at ON dpop_proofs (expires_at)",
        ])
}
