extension Migrations {
    /// Migration 10: delivery outbox.
    static let v10 = Migration(
        version: 10, name: "delivery outbox",
        statements: [
            // `subject`, `body` and `code` carry a one-time code: they are emptied once the
            // message is delivered or dead.
            """
            CREATE TABLE delivery_outbox (
                id TEXT PRIMARY KEY,
                project_id TEXT NOT NULL,
                flow_id TEXT,
                channel TEXT NOT NULL,
                recipient TEXT NOT NULL,
                subject TEXT NOT NULL,
                body TEXT NOT NULL,
                code TEXT,
                idempotency_key TEXT NOT NULL UNIQUE,
                status TEXT NOT NULL,
                attempts BIGINT NOT NULL DEFAULT 0,
                next_attempt_at BIGINT NOT NULL,
                lease_until BIGINT,
                last_error TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                delivered_at BIGINT
            )
            """,
            "CREATE INDEX delivery_outbox_due ON delivery_outbox (status, next_attempt_at)",
            "CREATE INDEX delivery_outbox_dead ON delivery_outbox (project_id, status)",
        ])
}
