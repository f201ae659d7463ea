import SQLKit

/// Applications' PowerAuth credentials.
struct PowerAuthApplicationRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ record: PowerAuthApplicationRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO powerauth_applications (application_id, application_key, application_secret, master_public_key,
                master_private_key, max_failed_attempts, recovery_enabled, created_at)
            VALUES (\(bind: record.applicationId), \(bind: record.applicationKey), \(bind: record.sealedApplicationSecret),
                \(bind: record.masterPublicKey), \(bind: record.sealedMasterPrivateKey),
                \(bind: Int64(record.maxFailedAttempts)), \(bind: Int64(record.recoveryEnabled ? 1 : 0)),
                \(bind: record.createdAt))
            """
        ).run()
    }

    func find(applicationId: String) async throws -> PowerAuthApplicationRecord? {
        try await sql.raw("SELECT * FROM powerauth_applications WHERE application_id = \(bind: applicationId)")
            .first().map(Self.record)
    }

    func find(applicationKey: String) async throws -> PowerAuthApplicationRecord? {
        try await sql.raw("SELECT * FROM powerauth_applications WHERE application_key = \(bind: applicationKey)")
            .first().map(Self.record)
    }

    func updateSettings(applicationId: String, maxFailedAttempts: Int, recoveryEnabled: Bool) async throws {
        try await sql.raw(
            """
            UPDATE powerauth_applications SET max_failed_attempts = \(bind: Int64(maxFailedAttempts)),
                recovery_enabled = \(bind: Int64(recoveryEnabled ? 1 : 0))
            WHERE application_id = \(bind: applicationId)
            """
        ).run()
    }

    private static func record(_ row: any SQLRow) throws -> PowerAuthApplicationRecord {
        PowerAuthApplicationRecord(
            applicationId: try row.decode(column: "application_id", as: String.self),
            applicationKey: try row.decode(column: "application_key", as: String.self),
            sealedApplicationSecret: try row.decode(column: "application_secret", as: String.self),
            masterPublicKey: try row.decode(column: "master_public_key", as: String.self),
            sealedMasterPrivateKey: try row.decode(column: "master_private_key", as: String.self),
            maxFailedAttempts: Int(try row.decode(column: "max_failed_attempts", as: Int64.self)),
            recoveryEnabled: try row.decode(column: "recovery_enabled", as: Int64.self) != 0,
            createdAt: try row.decode(column: "created_at", as: Int64.self))
    }
}

extension Repositories {
    /// ``PowerAuthApplicationRepository`` on this connection or transaction.
    var powerAuthApplications: PowerAuthApplicationRepository { PowerAuthApplicationRepository(sql: sql) }
}
