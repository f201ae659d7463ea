extension Migrations {
    /// Migration 29: the logo and pages of a registered client.
    static let v29 = Migration(
        version: 29, name: "the logo and pages of a registered client",
        statements: [
            // JSON of `logo_uri`, `client_uri`, `policy_uri` and `tos_uri`, as registered
            // (OpenID Connect Dynamic Client Registration 1.0 §2); NULL when none was.
            "ALTER TABLE applications ADD COLUMN client_links TEXT",
        ])
}
