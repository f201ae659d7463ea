extension Migrations {
    /// Migration 8: rate limits.
    static let v8 = Migration(
        version: 8, name: "rate limits",
        statements: [
            """
            CREATE TABLE rate_limits (
                bucket TEXT PRIMARY KEY,
                window_start BIGINT NOT NULL,
                hits BIGINT NOT NULL
            )
            """,
        ])
}
