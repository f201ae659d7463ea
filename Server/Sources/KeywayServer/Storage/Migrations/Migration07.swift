extension Migrations {
    /// Migration 7: dynamic client registration.
    static let v7 = Migration(
        version: 7, name: "dynamic client registration",
        statements: [
            "ALTER TABLE applications ADD COLUMN auth_method TEXT",
            "ALTER TABLE applications ADD COLUMN assertion_alg TEXT",
            "ALTER TABLE applications ADD COLUMN client_secret_salt TEXT",
            "ALTER TABLE applications ADD COLUMN jwks TEXT",
            "ALTER TABLE applications ADD COLUMN grant_types TEXT",
            "ALTER TABLE applications ADD COLUMN template_id TEXT",
            """
            CREATE TABLE registration_tokens (
                token_hash TEXT PRIMARY KEY,
                template_application_id TEXT NOT NULL REFERENCES applications(id),
                created_at BIGINT NOT NULL,
                expires_at BIGINT
            )
            """,
            """
            CREATE TABLE client_assertions (
                assertion_hash TEXT PRIMARY KEY,
                expires_at BIGINT NOT NULL
            )
            """,
        ])
}
