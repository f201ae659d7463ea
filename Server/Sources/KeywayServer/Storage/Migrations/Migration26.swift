extension Migrations {
    /// Migration 26: backend roles granted to applications.
    static let v26 = Migration(
        version: 26, name: "backend roles granted to applications",
        statements: [
            // The roles an administrator granted (`powerauth`, `introspection`), by name,
            // separated by spaces. Confidential applications the administrators made could
            // use both before roles existed: they keep them, so an upgrade cuts no backend
            // off. Dynamically registered clients (`first_party` 0) get none.
            "ALTER TABLE applications ADD COLUMN backend_roles TEXT NOT NULL DEFAULT ''",
            """
            UPDATE applications SET backend_roles = 'introspection powerauth'
            WHERE client_type = 'confidential' AND first_party = 1
            """,
        ])
}
