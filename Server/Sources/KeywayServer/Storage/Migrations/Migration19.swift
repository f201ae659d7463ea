extension Migrations {
    /// Migration 19: registration tokens administered: IDs, use counts.
    static let v19 = Migration(
        version: 19, name: "registration tokens administered: IDs, use counts",
        statements: [
            // A token's ID names it in listings and revocations; the token itself is never
            // shown again. Tokens issued before take an ID from their hash.
            "ALTER TABLE registration_tokens ADD COLUMN id TEXT",
            "UPDATE registration_tokens SET id = 'rit_' || substr(token_hash, 1, 24) WHERE id IS NULL",
            "CREATE UNIQUE INDEX registration_tokens_id ON registration_tokens (id)",
            // How many clients the token registered, and when it last did.
            "ALTER TABLE registration_tokens ADD COLUMN registered_clients BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE registration_tokens ADD COLUMN last_used_at BIGINT",
        ])
}
