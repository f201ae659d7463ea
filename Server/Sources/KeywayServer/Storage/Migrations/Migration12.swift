extension Migrations {
    /// Migration 12: trusted devices and approvals.
    static let v12 = Migration(
        version: 12, name: "trusted devices and approvals",
        statements: [
            // A device key's public half (JWK JSON) proves the device; the private key never
            // leaves the device.
            """
            CREATE TABLE trusted_devices (
                id TEXT PRIMARY KEY,
                user_id TEXT NOT NULL,
                application_id TEXT NOT NULL,
                public_key TEXT NOT NULL,
                key_thumbprint TEXT NOT NULL,
                name TEXT NOT NULL,
                user_agent TEXT,
                hardware_backed BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                trusted_until BIGINT NOT NULL,
                revoked_at BIGINT
            )
            """,
            "CREATE INDEX trusted_devices_user ON trusted_devices (user_id, application_id)",
            // One row per approval request; the QR secret is kept as a SHA-256 hash.
            """
            CREATE TABLE approval_requests (
                id TEXT PRIMARY KEY,
                flow_id TEXT NOT NULL,
                application_id TEXT NOT NULL,
                user_id TEXT NOT NULL,
                matching_number TEXT NOT NULL,
                qr_secret_hash TEXT NOT NULL,
                state TEXT NOT NULL,
                location TEXT,
                user_agent TEXT,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                decided_at BIGINT,
                decided_by_device_id TEXT
            )
            """,
            "CREATE INDEX approval_requests_user ON approval_requests (user_id, state, expires_at)",
            // Signed list requests already answered, so a captured one cannot be replayed.
            """
            CREATE TABLE device_request_signatures (
                signature_hash TEXT PRIMARY KEY,
                expires_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX device_request_signatures_expires_at ON device_request_signatures (expires_at)",
        ])
}
