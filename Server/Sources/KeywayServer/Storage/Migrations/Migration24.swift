extension Migrations {
    /// Migration 24: guests: anonymous users and the application that made each.
    static let v24 = Migration(
        version: 24, name: "guests: anonymous users and the application that made each",
        statements: [
            // A guest has no identifier (its `email` column holds `#` and its ID, as a user
            // known by phone only does) until a sign-up upgrades it; the sweep deletes the
            // guests of an application older than its policy's `guests.maxAge`.
            "ALTER TABLE users ADD COLUMN is_anonymous BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE users ADD COLUMN guest_application_id TEXT",
            "CREATE INDEX users_guests ON users (is_anonymous, guest_application_id, created_at)",
        ])
}
