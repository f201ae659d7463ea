extension Migrations {
    /// Migration 5: user profiles.
    static let v5 = Migration(
        version: 5, name: "user profiles",
        statements: [
            """
            CREATE TABLE profile_schemas (
                project_id TEXT PRIMARY KEY REFERENCES projects(id),
                fields TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE user_profiles (
                user_id TEXT PRIMARY KEY REFERENCES users(id),
                data TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ])
}
