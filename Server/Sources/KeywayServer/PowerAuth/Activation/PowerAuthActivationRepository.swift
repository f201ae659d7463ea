import SQLKit

/// PowerAuth activations.
struct PowerAuthActivationRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ record: PowerAuthActivationRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO powerauth_activations (id, application_id, user_id, status, code_lookup, code_expires_at,
                otp_hash, otp_attempts, commit_mode, device_public_key, server_public_key, server_private_key, ctr_data,
                counter, failed_attempts, max_failed_attempts, name, platform, device_info, extras, fingerprint,
                blocked_reason, created_at, updated_at, last_used_at, removed_at)
            VALUES (\(bind: record.id), \(bind: record.applicationId), \(bind: record.userId),
                \(bind: record.status.rawValue), \(bind: record.codeLookup), \(bind: record.codeExpiresAt),
                \(bind: record.otpHash), \(bind: Int64(record.otpAttempts)), \(bind: record.commitMode.rawValue),
                \(bind: record.devicePublicKey), \(bind: record.serverPublicKey), \(bind: record.sealedServerPrivateKey),
                \(bind: record.counterData), \(bind: record.counter), \(bind: Int64(record.failedAttempts)),
                \(bind: Int64(record.maxFailedAttempts)), \(bind: record.name), \(bind: record.platform),
                \(bind: record.deviceInfo), \(bind: record.extras), \(bind: record.fingerprint),
                \(bind: record.blockedReason), \(bind: record.createdAt), \(bind: record.updatedAt),
                \(bind: record.lastUsedAt), \(bind: record.removedAt))
            """
        ).run()
    }

    func find(id: String) async throws -> PowerAuthActivationRecord? {
        try await sql.raw("SELECT * FROM powerauth_activations WHERE id = \(bind: id)").first().map(Self.record)
    }

    /// The activation waiting for the key exchange with this code.
    func find(codeLookup: String) async throws -> PowerAuthActivationRecord? {
        try await sql.raw("SELECT * FROM powerauth_activations WHERE code_lookup = \(bind: codeLookup)")
            .first().map(Self.record)
    }

    /// The user's activations (in one application, or all), newest first.
    func all(userId: String, applicationId: String? = nil) async throws -> [PowerAuthActivationRecord] {
        let rows: [any SQLRow]
        if let applicationId {
            rows = try await sql.raw(
                """
                SELECT * FROM powerauth_activations WHERE user_id = \(bind: userId)
                AND application_id = \(bind: applicationId) ORDER BY created_at DESC, id
                """
            ).all()
        } else {
            rows = try await sql.raw(
                "SELECT * FROM powerauth_activations WHERE user_id = \(bind: userId) ORDER BY created_at DESC, id"
            ).all()
        }
        return try rows.map(Self.record)
    }

    /// Writes every mutable column of `record` back; a removed activation loses its tokens.
    func update(_ record: PowerAuthActivationRecord) async throws {
        try await sql.raw(
            """
            UPDATE powerauth_activations SET status = \(bind: record.status.rawValue),
                code_lookup = \(bind: record.codeLookup), code_expires_at = \(bind: record.codeExpiresAt),
                otp_hash = \(bind: record.otpHash), otp_attempts = \(bind: Int64(record.otpAttempts)),
                device_public_key = \(bind: record.devicePublicKey), server_public_key = \(bind: record.serverPublicKey),
                server_private_key = \(bind: record.sealedServerPrivateKey), ctr_data = \(bind: record.counterData),
                counter = \(bind: record.counter), failed_attempts = \(bind: Int64(record.failedAttempts)),
                max_failed_attempts = \(bind: Int64(record.maxFailedAttempts)), name = \(bind: record.name),
                platform = \(bind: record.platform), device_info = \(bind: record.deviceInfo),
                extras = \(bind: record.extras), fingerprint = \(bind: record.fingerprint),
                blocked_reason = \(bind: record.blockedReason), updated_at = \(bind: record.updatedAt),
                last_used_at = \(bind: record.lastUsedAt), removed_at = \(bind: record.removedAt)
            WHERE id = \(bind: record.id)
            """
        ).run()
        // A removed activation's tokens go with it.
        if record.status == .removed {
            try await PowerAuthTokenRepository(sql: sql).deleteAll(activationId: record.id)
        }
    }

    /// Records a signature's outcome only when the counter is still `expectedCounterData`, the
    /// value the verification read: two verifications of one activation can never both move it
    /// from the same value. `false` when another one moved it first.
    func recordSignature(
        id: String, expectedCounterData: String, counterData: String, counter: Int64, failedAttempts: Int,
        status: PowerAuthActivationStatus, blockedReason: String?, now: Int64
    ) async throws -> Bool {
        try await sql.raw(
            """
            UPDATE powerauth_activations SET ctr_data = \(bind: counterData), counter = \(bind: counter),
                failed_attempts = \(bind: Int64(failedAttempts)), status = \(bind: status.rawValue),
                blocked_reason = \(bind: blockedReason), last_used_at = \(bind: now), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND ctr_data = \(bind: expectedCounterData) RETURNING id
            """
        ).first() != nil
    }

    /// Deletes activations whose code expired before `cutoff` without a key exchange.
    func deleteExpiredCodes(before cutoff: Int64) async throws {
        try await sql.raw(
            """
            DELETE FROM powerauth_activations WHERE status = \(bind: PowerAuthActivationStatus.created.rawValue)
            AND code_expires_at < \(bind: cutoff)
            """
        ).run()
    }

    private static func record(_ row: any SQLRow) throws -> PowerAuthActivationRecord {
        PowerAuthActivationRecord(
            id: try row.decode(column: "id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            userId: try row.decode(column: "user_id", as: String.self),
            status: PowerAuthActivationStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .removed,
            codeLookup: try row.decode(column: "code_lookup", as: String?.self),
            codeExpiresAt: try row.decode(column: "code_expires_at", as: Int64?.self),
            otpHash: try row.decode(column: "otp_hash", as: String?.self),
            otpAttempts: Int(try row.decode(column: "otp_attempts", as: Int64.self)),
            commitMode: PowerAuthCommitMode(rawValue: try row.decode(column: "commit_mode", as: String.self)) ?? .confirm,
            devicePublicKey: try row.decode(column: "device_public_key", as: String?.self),
            serverPublicKey: try row.decode(column: "server_public_key", as: String?.self),
            sealedServerPrivateKey: try row.decode(column: "server_private_key", as: String?.self),
            counterData: try row.decode(column: "ctr_data", as: String?.self),
            counter: try row.decode(column: "counter", as: Int64.self),
            failedAttempts: Int(try row.decode(column: "failed_attempts", as: Int64.self)),
            maxFailedAttempts: Int(try row.decode(column: "max_failed_attempts", as: Int64.self)),
            name: try row.decode(column: "name", as: String?.self),
            platform: try row.decode(column: "platform", as: String?.self),
            deviceInfo: try row.decode(column: "device_info", as: String?.self),
            extras: try row.decode(column: "extras", as: String?.self),
            fingerprint: try row.decode(column: "fingerprint", as: String?.self),
            blockedReason: try row.decode(column: "blocked_reason", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self),
            lastUsedAt: try row.decode(column: "last_used_at", as: Int64?.self),
            removedAt: try row.decode(column: "removed_at", as: Int64?.self))
    }
}

extension Repositories {
    /// ``PowerAuthActivationRepository`` on this connection or transaction.
    var powerAuthActivations: PowerAuthActivationRepository { PowerAuthActivationRepository(sql: sql) }
}
