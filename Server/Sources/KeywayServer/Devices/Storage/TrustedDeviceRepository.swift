import SQLKit

/// Trusted devices.
struct TrustedDeviceRepository: Sendable {
    let sql: any SQLDatabase

    func insert(_ device: TrustedDeviceRecord) async throws {
        try await sql.raw(
            """
            INSERT INTO trusted_devices (id, user_id, application_id, public_key, key_thumbprint, name, user_agent,
                hardware_backed, created_at, last_used_at, trusted_until, revoked_at)
            VALUES (\(bind: device.id), \(bind: device.userId), \(bind: device.applicationId), \(bind: device.publicKey),
                \(bind: device.keyThumbprint), \(bind: device.name), \(bind: device.userAgent),
                \(bind: device.hardwareBacked ? 1 : 0), \(bind: device.createdAt), \(bind: device.lastUsedAt),
                \(bind: device.trustedUntil), \(bind: device.revokedAt))
            """
        ).run()
    }

    func find(id: String) async throws -> TrustedDeviceRecord? {
        try await sql.raw("SELECT * FROM trusted_devices WHERE id = \(bind: id)").first().map(Self.record)
    }

    /// The user's devices trusted at `now` in `applicationId` (every application when `nil`),
    /// most recently used first.
    func trusted(userId: String, applicationId: String?, now: Int64) async throws -> [TrustedDeviceRecord] {
        let rows: [any SQLRow]
        if let applicationId {
            rows = try await sql.raw(
                """
                SELECT * FROM trusted_devices WHERE user_id = \(bind: userId) AND application_id = \(bind: applicationId)
                AND revoked_at IS NULL AND trusted_until > \(bind: now)
                """
            ).all()
        } else {
            rows = try await sql.raw(
                """
                SELECT * FROM trusted_devices WHERE user_id = \(bind: userId)
                AND revoked_at IS NULL AND trusted_until > \(bind: now)
                """
            ).all()
        }
        return try rows.map(Self.record).sorted { ($0.lastUsedAt ?? $0.createdAt) > ($1.lastUsedAt ?? $1.createdAt) }
    }

    /// Records a proof of the device at `now`, with its new end of trust.
    func touch(id: String, now: Int64, trustedUntil: Int64) async throws {
        try await sql.raw(
            """
            UPDATE trusted_devices SET last_used_at = \(bind: now), trusted_until = \(bind: trustedUntil)
            WHERE id = \(bind: id)
            """
        ).run()
    }

    /// Revokes one device of the user; `false` when the user has no such trusted device.
    func revoke(id: String, userId: String, now: Int64) async throws -> Bool {
        try await sql.raw(
            """
            UPDATE trusted_devices SET revoked_at = \(bind: now)
            WHERE id = \(bind: id) AND user_id = \(bind: userId) AND revoked_at IS NULL RETURNING id
            """
        ).first() != nil
    }

    /// Revokes every device of the user (in one application, or all); returns how many.
    func revokeAll(userId: String, applicationId: String?, now: Int64) async throws -> Int {
        if let applicationId {
            return try await sql.raw(
                """
                UPDATE trusted_devices SET revoked_at = \(bind: now)
                WHERE user_id = \(bind: userId) AND application_id = \(bind: applicationId) AND revoked_at IS NULL
                RETURNING id
                """
            ).all().count
        }
        return try await sql.raw(
            """
            UPDATE trusted_devices SET revoked_at = \(bind: now)
            WHERE user_id = \(bind: userId) AND revoked_at IS NULL RETURNING id
            """
        ).all().count
    }

    /// Deletes the devices revoked, or whose trust ended, before `cutoff`.
    func deleteEnded(before cutoff: Int64) async throws {
        try await sql.raw(
            "DELETE FROM trusted_devices WHERE revoked_at < \(bind: cutoff) OR trusted_until < \(bind: cutoff)"
        ).run()
    }

    private static func record(_ row: any SQLRow) throws -> TrustedDeviceRecord {
        TrustedDeviceRecord(
            id: try row.decode(column: "id", as: String.self),
            userId: try row.decode(column: "user_id", as: String.self),
            applicationId: try row.decode(column: "application_id", as: String.self),
            publicKey: try row.decode(column: "public_key", as: String.self),
            keyThumbprint: try row.decode(column: "key_thumbprint", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            userAgent: try row.decode(column: "user_agent", as: String?.self),
            hardwareBacked: try row.decode(column: "hardware_backed", as: Int64.self) != 0,
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            lastUsedAt: try row.decode(column: "last_used_at", as: Int64?.self),
            trustedUntil: try row.decode(column: "trusted_until", as: Int64.self),
            revokedAt: try row.decode(column: "revoked_at", as: Int64?.self))
    }
}

extension Repositories {
    /// ``TrustedDeviceRepository`` on this connection or transaction.
    var trustedDevices: TrustedDeviceRepository { TrustedDeviceRepository(sql: sql) }
}
