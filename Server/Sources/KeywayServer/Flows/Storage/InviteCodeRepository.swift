import SQLKit

/// What redeeming an invite code found.
public enum InviteCodeRedemption: String, Sendable, Equatable {
    /// The code was valid and is now used by the user.
    case redeemed
    /// No such code for this application.
    case invalid
    /// The code was redeemed before.
    case used
    /// The code's lifetime ended.
    case expired
}

/// Sign-up invite codes, stored as SHA-256 hashes; each is single use.
struct InviteCodeRepository: Sendable {
    let sql: any SQLDatabase

    func insert(hash: String, applicationId: String, createdAt: Int64, expiresAt: Int64) async throws {
        try await sql.raw(
            """
            INSERT INTO invite_codes (code_hash, application_id, created_at, expires_at)
            VALUES (\(bind: hash), \(bind: applicationId), \(bind: createdAt), \(bind: expiresAt))
            """
        ).run()
    }

    /// What `code` is worth now, without using it (a sign-up checks it when it starts and redeems
    /// it when it creates the account): ``InviteCodeRedemption/redeemed`` means "still valid".
    func status(applicationId: String, code: String, now: Int64) async throws -> InviteCodeRedemption {
        guard
            let row = try await sql.raw(
                "SELECT application_id, expires_at, used_at FROM invite_codes WHERE code_hash = \(bind: sha256Hex(code))"
            ).first(),
            try row.decode(column: "application_id", as: String.self) == applicationId
        else { return .invalid }
        if try row.decode(column: "used_at", as: Int64?.self) != nil { return .used }
        if try row.decode(column: "expires_at", as: Int64.self) <= now { return .expired }
        return .redeemed
    }

    /// Redeems `code` for `userId` at `now` (milliseconds). The code is looked up by its hash, so
    /// no comparison depends on the secret; a code of another application is ``InviteCodeRedemption/invalid``.
    /// Call it in the write transaction that creates the user, so a failed sign-up keeps the code.
    func redeem(applicationId: String, code: String, userId: String, now: Int64) async throws -> InviteCodeRedemption {
        let current = try await status(applicationId: applicationId, code: code, now: now)
        guard current == .redeemed else { return current }
        let hash = sha256Hex(code)
        let updated = try await sql.raw(
            """
            UPDATE invite_codes SET used_at = \(bind: now), used_by_user_id = \(bind: userId)
            WHERE code_hash = \(bind: hash) AND used_at IS NULL RETURNING code_hash
            """
        ).first()
        return updated == nil ? .used : .redeemed
    }
}

extension Repositories {
    /// ``InviteCodeRepository`` on this connection or transaction.
    var inviteCodes: InviteCodeRepository { InviteCodeRepository(sql: sql) }
}
