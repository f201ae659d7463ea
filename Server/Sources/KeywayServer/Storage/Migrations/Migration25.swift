extension Migrations {
    /// Migration 25: passkeys.
    static let v25 = Migration(
        version: 25, name: "passkeys",
        statements: [
            // A user's WebAuthn credentials: the credential ID (base64url) unique in its
            // project, the COSE public key, the sign counter and backup flags the last
            // signature reported, how its attestation was judged, and when a counter went
            // backwards (a cloned authenticator, refused and flagged).
            """
            CREATE TABLE passkey_credentials (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                project_id TEXT NOT NULL,
                credential_id TEXT NOT NULL,
                user_handle TEXT NOT NULL,
                public_key TEXT NOT NULL,
                algorithm BIGINT NOT NULL,
                sign_count BIGINT NOT NULL,
                backup_eligible BIGINT NOT NULL,
                backed_up BIGINT NOT NULL,
                user_verified BIGINT NOT NULL,
                transports TEXT NOT NULL,
                aaguid TEXT NOT NULL,
                attestation_format TEXT NOT NULL,
                attestation_trust TEXT NOT NULL,
                name TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                counter_regressed_at BIGINT,
                UNIQUE (project_id, credential_id)
            )
            """,
            "CREATE INDEX passkey_credentials_user ON passkey_credentials (user_id)",
        ])
}
