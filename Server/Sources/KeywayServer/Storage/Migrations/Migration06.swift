extension Migrations {
    /// Migration 6: token exchange.
    static let v6 = Migration(
        version: 6, name: "token exchange",
        statements: [
            """
            CREATE TABLE trusted_issuers (
                project_id TEXT NOT NULL REFERENCES projects(id),
                issuer TEXT NOT NULL,
                audience TEXT NOT NULL,
                jwks TEXT,
                jwks_url TEXT,
                link_by_email BIGINT NOT NULL,
                create_users BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (project_id, issuer)
            )
            """,
            """
            CREATE TABLE external_identities (
                project_id TEXT NOT NULL REFERENCES projects(id),
                issuer TEXT NOT NULL,
                subject TEXT NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id),
                created_at BIGINT NOT NULL,
                PRIMARY KEY (project_id, issuer, subject)
            )
            """,
        ])
}
