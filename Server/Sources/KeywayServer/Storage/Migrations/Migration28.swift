extension Migrations {
    /// Migration 28: per-application PKCE requirement.
    static let v28 = Migration(
        version: 28, name: "per-application PKCE requirement",
        statements: [
            // 1: PKCE, or for a confidential client a nonce instead (RFC 9700 §2.1.1); 0: a
            // confidential client may send neither. Public clients always need PKCE.
            "ALTER TABLE applications ADD COLUMN require_pkce BIGINT NOT NULL DEFAULT 1",
        ])
}
