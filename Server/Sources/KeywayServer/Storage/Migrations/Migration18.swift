extension Migrations {
    /// Migration 18: the browser front door: redirect URIs, scopes, browser sessions, consents, PAR.
    static let v18 = Migration(
        version: 18, name: "the browser front door: redirect URIs, scopes, browser sessions, consents, PAR",
        statements: [
            // Registered redirect URIs per application: `login` (authorization responses) and
            // `logout` (post-logout redirects), each matched exactly.
            """
            CREATE TABLE application_redirect_uris (
                application_id TEXT NOT NULL REFERENCES applications(id),
                kind TEXT NOT NULL,
                uri TEXT NOT NULL,
                PRIMARY KEY (application_id, kind, uri)
            )
            """,
            // NULL: every scope the server supports.
            "ALTER TABLE applications ADD COLUMN allowed_scopes TEXT",
            "ALTER TABLE applications ADD COLUMN require_par BIGINT NOT NULL DEFAULT 0",
            // Applications the project's administrators made skip consent; dynamically
            // registered clients do not.
            "ALTER TABLE applications ADD COLUMN first_party BIGINT NOT NULL DEFAULT 1",
            "UPDATE applications SET first_party = 0 WHERE template_id IS NOT NULL",
            // The hosted pages' theme, as JSON; NULL: the default look.
            "ALTER TABLE projects ADD COLUMN theme TEXT",
            "ALTER TABLE authorization_codes ADD COLUMN nonce TEXT",
            "ALTER TABLE authorization_codes ADD COLUMN redirect_uri TEXT",
            // The browser session a session was opened through, if any.
            "ALTER TABLE sessions ADD COLUMN browser_session_id TEXT",
            """
            CREATE TABLE browser_sessions (
                id TEXT PRIMARY KEY,
                token_hash TEXT NOT NULL UNIQUE,
                project_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                application_id TEXT NOT NULL,
                amr TEXT NOT NULL,
                auth_time BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            "CREATE INDEX browser_sessions_user ON browser_sessions (user_id)",
            "CREATE INDEX sessions_browser_session ON sessions (browser_session_id)",
            """
            CREATE TABLE browser_flows (
                id TEXT PRIMARY KEY,
                token_hash TEXT NOT NULL UNIQUE,
                application_id TEXT NOT NULL,
                state TEXT NOT NULL,
                csrf_token TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE consents (
                user_id TEXT NOT NULL,
                application_id TEXT NOT NULL,
                scope TEXT NOT NULL,
                granted_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, application_id)
            )
            """,
            """
            CREATE TABLE pushed_authorization_requests (
                uri_hash TEXT PRIMARY KEY,
                application_id TEXT NOT NULL,
                request TEXT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT
            )
            """,
        ])
}
