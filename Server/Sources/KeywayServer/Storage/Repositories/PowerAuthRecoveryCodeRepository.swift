import SQLKit

/// PowerAuth recovery codes.
struct PowerAuthRecoveryCodeRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ record: PowerAuthRecoveryCodeRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO powerauth_recovery_codes (id, application_id, user_id, activation_id, code_lookup, puk_hash,
                failed_attempts, status, created_at, updated_at)
            VALUES (\(bind: record.id), \(bind: record.applicationId), \(bind: record.userId), \(bind: record.activationId),
                \(bind: record.codeLookup), \(bind: record.pukHash), \(bind: Int64(record.failedAttempts)),
                \(bind: record.status.rawValue), \(bind: record.createdAt), \(bind: record.updatedAt))
            """
        ).run()
    }

    func find(codeLookup: String) async throws -> PowerAuthRecoveryCodeRecord? {
        try await sql.raw("SELECT * FROM powerauth_recovery_codes WHERE code_lookup = \(bind: codeLookup)")
            .first().map(Self.record)
    }

    func update(id: String, failedAttempts: Int, status: PowerAuthRecoveryCodeStatus, now: Int64) async throws {
        try await sql.raw(
            """
            UPDATE powerauth_recovery_codes SET failed_attempts = \(bind: Int64(failedAttempts)),
                status = \(bind: status.rawValue), updated_at = \(bind: now)
            WHERE id = \(bind: id)
            """
        ).run()
    }

    private static func record(_ row: any SQLRow) throws -> PowerAuthRecoveryCodeRecord {
        PowerAuthRecoveryCodeRecord(
            id: try row.decode(column: "id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            userId: try row.decode(column: "user_id", as: String.self),
            activationId: try row.decode(column: "activation_id", as: String.self),
            codeLookup: try row.decode(column: "code_lookup", as: String.self),
            pukHash: try row.decode(column: "puk_hash", as: String.self),
            failedAttempts: Int(try row.decode(column: "failed_attempts", as: Int64.self)),
            status: PowerAuthRecoveryCodeStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .blocked,
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self))
    }
}
