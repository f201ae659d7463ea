import SQLKit

/// DPoP proofs already seen (RFC 9449 §11.1), by hash of key thumbprint and `jti`, kept until the
/// proof's `iat` falls out of the acceptance window.
struct DPoPProofRepository: Sendable {
    let sql: any SQLDatabase

    /// Records a proof; `false` when it was recorded before (a replay).
    func insert(hash: String, expiresAt: Int64) async throws -> Bool {
        let rows = try await sql.raw(
            """
            INSERT INTO dpop_proofs (proof_hash, expires_at) VALUES (\(bind: hash), \(bind: expiresAt))
            ON CONFLICT (proof_hash) DO NOTHING RETURNING proof_hash
            """
        ).all()
        return !rows.isEmpty
    }

    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM dpop_proofs WHERE expires_at < \(bind: cutoff)").run()
    }
}
