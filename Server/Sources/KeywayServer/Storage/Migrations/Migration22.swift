extension Migrations {
    /// Migration 22: federation: upstream OpenID Connect providers, their identities and states.
    static let v22 = Migration(
        version: 22, name: "federation: upstream OpenID Connect providers, their identities and states",
        statements: [
            // A project's upstream providers; the client secret (or Apple's signing key) sealed.
            """
            CREATE TABLE identity_providers (
                project_id TEXT NOT NULL REFERENCES projects(id),
                id TEXT NOT NULL,
                preset TEXT NOT NULL,
                issuer TEXT NOT NULL,
                client_id TEXT NOT NULL,
                sealed_client_secret TEXT,
                sealed_apple_key TEXT,
                scopes TEXT NOT NULL,
                claims TEXT NOT NULL,
                label TEXT NOT NULL,
                icon_url TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                PRIMARY KEY (project_id, id)
            )
            """,
            // Upstream identities, keyed by (issuer, subject) — never by email.
            """
            CREATE TABLE federated_identities (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                project_id TEXT NOT NULL,
                provider_id TEXT NOT NULL,
                issuer TEXT NOT NULL,
                subject TEXT NOT NULL,
                email TEXT,
                email_verified BIGINT NOT NULL DEFAULT 0,
                name TEXT,
                picture TEXT,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT NOT NULL,
                UNIQUE (project_id, issuer, subject)
            )
            """,
            "CREATE INDEX federated_identities_user ON federated_identities (user_id)",
            // One authorization request to a provider: its state (hashed), bound to the flow;
            // the nonce and the PKCE verifier sealed; single use; the result kept for
            // idempotent second deliveries.
            """
            CREATE TABLE federation_states (
                state_hash TEXT PRIMARY KEY,
                flow_id TEXT NOT NULL,
                provider_id TEXT NOT NULL,
                sealed_nonce TEXT NOT NULL,
                sealed_verifier TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                consumed_at BIGINT,
                outcome TEXT
            )
            """,
            "CREATE INDEX federation_states_flow ON federation_states (flow_id)",
        ])
}
