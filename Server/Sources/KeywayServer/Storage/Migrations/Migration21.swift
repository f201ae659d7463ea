extension Migrations {
    /// Migration 21: PowerAuth: tokens, replay records, recovery postcards and their PUKs.
    static let v21 = Migration(
        version: 21, name: "PowerAuth: tokens, replay records, recovery postcards and their PUKs",
        statements: [
            // MAC tokens (`/pa/v3/token/create`): the secret is sealed (SecretBox); `factors`
            // are those of the signature that created the token; `sequence` orders an
            // activation's tokens by creation (the oldest goes beyond the limit).
            """
            CREATE TABLE powerauth_tokens (
                id TEXT PRIMARY KEY,
                activation_id TEXT NOT NULL,
                sequence BIGINT NOT NULL,
                secret TEXT NOT NULL,
                factors TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT
            )
            """,
            "CREATE INDEX powerauth_tokens_activation ON powerauth_tokens (activation_id)",
            // Single-use values already seen, by keyed hash: ECIES envelopes whose key was
            // handed out, token nonces. Kept until they could no longer be accepted anyway.
            """
            CREATE TABLE powerauth_replays (
                replay_hash TEXT PRIMARY KEY,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX powerauth_replays_expires_at ON powerauth_replays (expires_at)",
            // Recovery codes: bound to an activation or printed on a postcard (no activation),
            // CREATED (a postcard not yet confirmed), ACTIVE, BLOCKED or REVOKED; the
            // activation a code recovered last. The table is rebuilt for the nullable column.
            """
            CREATE TABLE powerauth_recovery_codes_next (
                id TEXT PRIMARY KEY,
                application_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                activation_id TEXT,
                code_lookup TEXT NOT NULL UNIQUE,
                status TEXT NOT NULL,
                failed_attempts BIGINT NOT NULL DEFAULT 0,
                max_failed_attempts BIGINT NOT NULL DEFAULT 5,
                recovered_activation_id TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            INSERT INTO powerauth_recovery_codes_next (id, application_id, user_id, activation_id, code_lookup, status,
                failed_attempts, max_failed_attempts, recovered_activation_id, created_at, updated_at)
            SELECT id, application_id, user_id, activation_id, code_lookup,
                CASE status WHEN 'USED' THEN 'REVOKED' ELSE status END, failed_attempts, 5, NULL, created_at, updated_at
            FROM powerauth_recovery_codes
            """,
            // A code's PUKs, used in order (1-based); each a keyed hash.
            """
            CREATE TABLE powerauth_recovery_puks (
                recovery_code_id TEXT NOT NULL,
                puk_index BIGINT NOT NULL,
                puk_hash TEXT NOT NULL,
                status TEXT NOT NULL,
                PRIMARY KEY (recovery_code_id, puk_index)
            )
            """,
            """
            INSERT INTO powerauth_recovery_puks (recovery_code_id, puk_index, puk_hash, status)
            SELECT id, 1, puk_hash, CASE status WHEN 'USED' THEN 'USED' ELSE 'VALID' END FROM powerauth_recovery_codes
            """,
            "DROP TABLE powerauth_recovery_codes",
            "ALTER TABLE powerauth_recovery_codes_next RENAME TO powerauth_recovery_codes",
            "CREATE INDEX powerauth_recovery_codes_activation ON powerauth_recovery_codes (activation_id)",
            "CREATE INDEX powerauth_recovery_codes_user ON powerauth_recovery_codes (user_id)",
        ])
}
