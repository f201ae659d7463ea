extension Migrations {
    /// Migration 16: signing key rotation.
    static let v16 = Migration(
        version: 16, name: "signing key rotation",
        statements: [
            // NULL: the key signs from its creation (keys from before rotation).
            "ALTER TABLE signing_keys ADD COLUMN activates_at BIGINT",
            // NULL: published as long as it is not retired (and then until this time).
            "ALTER TABLE signing_keys ADD COLUMN publish_until BIGINT",
        ])
}
