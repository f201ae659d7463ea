extension Migrations {
    /// Migration 27: linked identities held until the address's owner keeps them.
    static let v27 = Migration(
        version: 27, name: "linked identities held until the address's owner keeps them",
        statements: [
            // Set when the account's address is proved for the first time after the identity
            // was linked: it signs in again only once the owner keeps it.
            "ALTER TABLE federated_identities ADD COLUMN held_since BIGINT",
        ])
}
