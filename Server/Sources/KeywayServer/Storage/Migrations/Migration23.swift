extension Migrations {
    /// Migration 23: sign-in links.
    static let v23 = Migration(
        version: 23, name: "sign-in links",
        statements: [
            // A link sent beside a code: its 256-bit token only as a keyed hash, bound to its
            // flow; pending, approved or denied on another device, or used. It expires with
            // the code, and a new code replaces the flow's link.
            """
            CREATE TABLE sign_in_links (
                token_hash TEXT PRIMARY KEY,
                flow_id TEXT NOT NULL,
                application_id TEXT NOT NULL,
                location TEXT,
                user_agent TEXT,
                state TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                decided_at BIGINT
            )
            """,
            "CREATE INDEX sign_in_links_flow ON sign_in_links (flow_id)",
            "CREATE INDEX sign_in_links_expiry ON sign_in_links (expires_at)",
        ])
}
