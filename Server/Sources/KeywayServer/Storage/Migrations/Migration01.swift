extension Migrations {
    /// Migration 1: initial schema.
    static let v1 = Migration(
        version: 1, name: "initial schema",
        statements: [
            """
            CREATE TABLE projects (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                is_dev BIGINT NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE applications (
                id TEXT PRIMARY KEY,
                project_id TEXT NOT NULL REFERENCES projects(id),
                config_id TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                client_type TEXT NOT NULL,
                client_secret_hash TEXT,
                flow_types TEXT NOT NULL,
                auto_create_users BIGINT NOT NULL DEFAULT 0,
                is_dev BIGINT NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE users (
                id TEXT PRIMARY KEY,
                project_id TEXT NOT NULL REFERENCES projects(id),
                email TEXT NOT NULL,
                email_verified BIGINT NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL,
                UNIQUE (project_id, email)
            )
            """,
            """
            CREATE TABLE flows (
                id TEXT PRIMARY KEY,
                application_id TEXT NOT NULL REFERENCES applications(id),
                flow_type TEXT NOT NULL,
                identifier TEXT NOT NULL,
                user_id TEXT,
                state TEXT NOT NULL,
                token_hash TEXT NOT NULL,
                code_challenge TEXT NOT NULL,
                otp_hash TEXT,
                otp_expires_at BIGINT,
                resend_at BIGINT,
                resend_count BIGINT NOT NULL DEFAULT 0,
                failed_attempts BIGINT NOT NULL DEFAULT 0,
                session_id TEXT,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX flows_expires_at ON flows (expires_at)",
            """
            CREATE TABLE sessions (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL REFERENCES users(id),
                application_id TEXT NOT NULL REFERENCES applications(id),
                amr TEXT NOT NULL,
                auth_time BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            """
            CREATE TABLE authorization_codes (
                code_hash TEXT PRIMARY KEY,
                application_id TEXT NOT NULL REFERENCES applications(id),
                user_id TEXT NOT NULL REFERENCES users(id),
                session_id TEXT NOT NULL REFERENCES sessions(id),
                flow_id TEXT NOT NULL,
                code_challenge TEXT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX authorization_codes_expires_at ON authorization_codes (expires_at)",
            """
            CREATE TABLE refresh_tokens (
                id TEXT PRIMARY KEY,
                token_hash TEXT NOT NULL UNIQUE,
                application_id TEXT NOT NULL REFERENCES applications(id),
                user_id TEXT NOT NULL REFERENCES users(id),
                session_id TEXT NOT NULL REFERENCES sessions(id),
                authorization_code_hash TEXT,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            "CREATE INDEX refresh_tokens_code ON refresh_tokens (authorization_code_hash)",
            """
            CREATE TABLE signing_keys (
                kid TEXT PRIMARY KEY,
                algorithm TEXT NOT NULL,
                private_key TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                retired_at BIGINT
            )
            """,
            """
            CREATE TABLE server_secrets (
                name TEXT PRIMARY KEY,
                value TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
        ])
}
