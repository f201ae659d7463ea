extension Migrations {
    /// Migration 20: PowerAuth: application credentials, activations, recovery codes, temporary keys.
    static let v20 = Migration(
        version: 20, name: "PowerAuth: application credentials, activations, recovery codes, temporary keys",
        statements: [
            // Per application, created on first use. The application secret and the master
            // private key are sealed (SecretBox); the public key is the X9.62 point in Base64.
            """
            CREATE TABLE powerauth_applications (
                application_id TEXT PRIMARY KEY,
                application_key TEXT NOT NULL UNIQUE,
                application_secret TEXT NOT NULL,
                master_public_key TEXT NOT NULL,
                master_private_key TEXT NOT NULL,
                max_failed_attempts BIGINT NOT NULL,
                recovery_enabled BIGINT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            // One device's activation. The activation code is kept as its keyed hash
            // (`code_lookup`, cleared once the code is used), an OTP likewise; the server's
            // private key is sealed; `ctr_data` is the hash-based counter's next expected
            // value (Base64), `counter` how many steps it moved.
            """
            CREATE TABLE powerauth_activations (
                id TEXT PRIMARY KEY,
                application_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                status TEXT NOT NULL,
                code_lookup TEXT UNIQUE,
                code_expires_at BIGINT,
                otp_hash TEXT,
                otp_attempts BIGINT NOT NULL DEFAULT 0,
                commit_mode TEXT NOT NULL,
                device_public_key TEXT,
                server_public_key TEXT,
                server_private_key TEXT,
                ctr_data TEXT,
                counter BIGINT NOT NULL DEFAULT 0,
                failed_attempts BIGINT NOT NULL DEFAULT 0,
                max_failed_attempts BIGINT NOT NULL,
                name TEXT,
                platform TEXT,
                device_info TEXT,
                extras TEXT,
                fingerprint TEXT,
                blocked_reason TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                last_used_at BIGINT,
                removed_at BIGINT
            )
            """,
            "CREATE INDEX powerauth_activations_user ON powerauth_activations (user_id)",
            "CREATE INDEX powerauth_activations_application ON powerauth_activations (application_id)",
            // A recovery code and its PUK, both as keyed hashes.
            """
            CREATE TABLE powerauth_recovery_codes (
                id TEXT PRIMARY KEY,
                application_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                activation_id TEXT NOT NULL,
                code_lookup TEXT NOT NULL UNIQUE,
                puk_hash TEXT NOT NULL,
                failed_attempts BIGINT NOT NULL DEFAULT 0,
                status TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX powerauth_recovery_codes_activation ON powerauth_recovery_codes (activation_id)",
            // Temporary ECIES keys (protocol 3.3), minutes long; the private key is sealed.
            """
            CREATE TABLE powerauth_temporary_keys (
                id TEXT PRIMARY KEY,
                application_id TEXT NOT NULL,
                activation_id TEXT,
                public_key TEXT NOT NULL,
                private_key TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX powerauth_temporary_keys_expiry ON powerauth_temporary_keys (expires_at)",
        ])
}
