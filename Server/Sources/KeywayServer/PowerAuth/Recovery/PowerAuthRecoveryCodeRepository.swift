import SQLKit

/// PowerAuth recovery codes and their PUKs.
struct PowerAuthRecoveryCodeRepository: Sendable {
    let sql: any SQLDatabase

    /// Inserts a code and its PUKs.
    func insert(_ record: PowerAuthRecoveryCodeRecord, puks: [PowerAuthRecoveryPukRecord]) async throws {
        try await sql.raw(
            """
            INSERT INTO powerauth_recovery_codes (id, application_id, user_id, activation_id, code_lookup, status,
                failed_attempts, max_failed_attempts, recovered_activation_id, created_at, updated_at)
            VALUES (\(bind: record.id), \(bind: record.applicationId), \(bind: record.userId), \(bind: record.activationId),
                \(bind: record.codeLookup), \(bind: record.status.rawValue), \(bind: Int64(record.failedAttempts)),
                \(bind: Int64(record.maxFailedAttempts)), \(bind: record.recoveredActivationId), \(bind: record.createdAt),
                \(bind: record.updatedAt))
            """
        ).run()
        for puk in puks {
            try await sql.raw(
                """
                INSERT INTO powerauth_recovery_puks (recovery_code_id, puk_index, puk_hash, status)
                VALUES (\(bind: puk.recoveryCodeId), \(bind: Int64(puk.index)), \(bind: puk.pukHash), \(bind: puk.status.rawValue))
                """
            ).run()
        }
    }

    func find(codeLookup: String) async throws -> PowerAuthRecoveryCodeRecord? {
        try await sql.raw("SELECT * FROM powerauth_recovery_codes WHERE code_lookup = \(bind: codeLookup)")
            .first().map(Self.record)
    }

    func find(id: String) async throws -> PowerAuthRecoveryCodeRecord? {
        try await sql.raw("SELECT * FROM powerauth_recovery_codes WHERE id = \(bind: id)").first().map(Self.record)
    }

    /// The user's codes, oldest first.
    func all(userId: String) async throws -> [PowerAuthRecoveryCodeRecord] {
        try await sql.raw(
            "SELECT * FROM powerauth_recovery_codes WHERE user_id = \(bind: userId) ORDER BY created_at, id"
        ).all().map(Self.record)
    }

    /// The codes handed out with an activation.
    func all(activationId: String) async throws -> [PowerAuthRecoveryCodeRecord] {
        try await sql.raw(
            "SELECT * FROM powerauth_recovery_codes WHERE activation_id = \(bind: activationId) ORDER BY created_at, id"
        ).all().map(Self.record)
    }

    /// Writes the code's state back.
    func update(_ record: PowerAuthRecoveryCodeRecord) async throws {
        try await sql.raw(
            """
            UPDATE powerauth_recovery_codes SET status = \(bind: record.status.rawValue),
                failed_attempts = \(bind: Int64(record.failedAttempts)),
                recovered_activation_id = \(bind: record.recoveredActivationId), updated_at = \(bind: record.updatedAt)
            WHERE id = \(bind: record.id)
            """
        ).run()
    }

    /// The code's PUKs in order.
    func puks(recoveryCodeId: String) async throws -> [PowerAuthRecoveryPukRecord] {
        try await sql.raw(
            "SELECT * FROM powerauth_recovery_puks WHERE recovery_code_id = \(bind: recoveryCodeId) ORDER BY puk_index"
        ).all().map { row in
            PowerAuthRecoveryPukRecord(
                recoveryCodeId: try row.decode(column: "recovery_code_id", as: String.self),
                index: Int(try row.decode(column: "puk_index", as: Int64.self)),
                pukHash: try row.decode(column: "puk_hash", as: String.self),
                status: PowerAuthRecoveryPukStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .invalid)
        }
    }

    /// Marks one PUK.
    func updatePuk(recoveryCodeId: String, index: Int, status: PowerAuthRecoveryPukStatus) async throws {
        try await sql.raw(
            """
            UPDATE powerauth_recovery_puks SET status = \(bind: status.rawValue)
            WHERE recovery_code_id = \(bind: recoveryCodeId) AND puk_index = \(bind: Int64(index))
            """
        ).run()
    }

    /// Marks the code's PUKs not yet used as invalid (the code was revoked).
    func invalidateValidPuks(recoveryCodeId: String) async throws {
        try await sql.raw(
            """
            UPDATE powerauth_recovery_puks SET status = \(bind: PowerAuthRecoveryPukStatus.invalid.rawValue)
            WHERE recovery_code_id = \(bind: recoveryCodeId) AND status = \(bind: PowerAuthRecoveryPukStatus.valid.rawValue)
            """
        ).run()
    }

    private static func record(_ row: any SQLRow) throws -> PowerAuthRecoveryCodeRecord {
        PowerAuthRecoveryCodeRecord(
            id: try row.decode(column: "id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            userId: try row.decode(column: "user_id", as: String.self),
            activationId: try row.decode(column: "activation_id", as: String?.self),
            codeLookup: try row.decode(column: "code_lookup", as: String.self),
            status: PowerAuthRecoveryCodeStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .blocked,
            failedAttempts: Int(try row.decode(column: "failed_attempts", as: Int64.self)),
            maxFailedAttempts: Int(try row.decode(column: "max_failed_attempts", as: Int64.self)),
            recoveredActivationId: try row.decode(column: "recovered_activation_id", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self))
    }
}

extension Repositories {
    /// ``PowerAuthRecoveryCodeRepository`` on this connection or transaction.
    var powerAuthRecoveryCodes: PowerAuthRecoveryCodeRepository { PowerAuthRecoveryCodeRepository(sql: sql) }
}
