extension Migrations {
    /// Migration 17: ID token algorithm and CORS origins per application.
    static let v17 = Migration(
        version: 17, name: "ID token algorithm and CORS origins per application",
        statements: [
            // NULL: ES256, as every ID token was signed before.
            "ALTER TABLE applications ADD COLUMN id_token_signed_response_alg TEXT",
            // The origins (`scheme://host[:port]`) whose scripts may call the token, UserInfo
            // and revocation endpoints for the application.
            """
            CREATE TABLE application_cors_origins (
                application_id TEXT NOT NULL REFERENCES applications(id),
                origin TEXT NOT NULL,
                PRIMARY KEY (application_id, origin)
            )
            """,
            "CREATE INDEX application_cors_origins_origin ON application_cors_origins (origin)",
        ])
}
