import SQLKit

/// A table of single-use values already seen, by hash, each kept until it could no longer be
/// accepted anyway: DPoP proofs (RFC 9449 §11.1, by key thumbprint and `jti`) and client
/// assertions (RFC 7523 §3, by client ID and `jti`), trusted devices' signed list requests (by
/// signature), PowerAuth ECIES envelopes and token nonces. A second use is a replay.
struct SeenOnceRepository: Sendable {
    let sql: any SQLDatabase
    let table: String
    let column: String

    static func dpopProofs(_ sql: any SQLDatabase) -> Self { Self(sql: sql, table: "dpop_proofs", column: "proof_hash") }
    static func clientAssertions(_ sql: any SQLDatabase) -> Self {
        Self(sql: sql, table: "client_assertions", column: "assertion_hash")
    }
    static func deviceRequestSignatures(_ sql: any SQLDatabase) -> Self {
        Self(sql: sql, table: "device_request_signatures", column: "signature_hash")
    }
    static func powerAuthReplays(_ sql: any SQLDatabase) -> Self {
        Self(sql: sql, table: "powerauth_replays", column: "replay_hash")
    }

    /// Records a value; `false` when it was recorded before (a replay).
    func insert(hash: String, expiresAt: Int64) async throws -> Bool {
        let rows = try await sql.raw(
            """
            INSERT INTO \(ident: table) (\(ident: column), expires_at) VALUES (\(bind: hash), \(bind: expiresAt))
            ON CONFLICT (\(ident: column)) DO NOTHING RETURNING \(ident: column)
            """
        ).all()
        return !rows.isEmpty
    }

    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM \(ident: table) WHERE expires_at < \(bind: cutoff)").run()
    }
}
