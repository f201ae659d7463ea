import Foundation
import SQLKit

/// Users' passkeys (`passkey_credentials`).
struct PasskeyRepository: Sendable {
    let sql: any SQLDatabase

    /// The passkey with credential ID `credentialId` in the project, if any.
    func find(projectId: String, credentialId: String) async throws -> PasskeyCredentialRecord? {
        try await sql.raw(
            """
            SELECT * FROM passkey_credentials
            WHERE project_id = \(bind: projectId) AND credential_id = \(bind: credentialId)
            """
        ).first().map(Self.record)
    }

    /// The user's passkeys, oldest first.
    func all(userId: String) async throws -> [PasskeyCredentialRecord] {
        try await sql.raw(
            "SELECT * FROM passkey_credentials WHERE user_id = \(bind: userId) ORDER BY created_at, id"
        ).all().map(Self.record)
    }

    /// Stores a new passkey; `false` when the project has its credential ID already.
    func insert(_ passkey: PasskeyCredentialRecord) async throws -> Bool {
        let rows = try await sql.raw(
            """
            INSERT INTO passkey_credentials (id, user_id, project_id, credential_id, user_handle, public_key, algorithm,
                sign_count, backup_eligible, backed_up, user_verified, transports, aaguid, attestation_format,
                attestation_trust, name, created_at, last_used_at, counter_regressed_at)
            VALUES (\(bind: passkey.id), \(bind: passkey.userId), \(bind: passkey.projectId), \(bind: passkey.credentialId),
                \(bind: passkey.userHandle), \(bind: passkey.publicKey), \(bind: Int64(passkey.algorithm)),
                \(bind: passkey.signCount), \(bind: Int64(passkey.backupEligible ? 1 : 0)),
                \(bind: Int64(passkey.backedUp ? 1 : 0)), \(bind: Int64(passkey.userVerified ? 1 : 0)),
                \(bind: Self.encode(passkey.transports)), \(bind: passkey.aaguid), \(bind: passkey.attestationFormat),
                \(bind: passkey.attestationTrust), \(bind: passkey.name), \(bind: passkey.createdAt),
                \(bind: passkey.lastUsedAt), \(bind: passkey.counterRegressedAt))
            ON CONFLICT (project_id, credential_id) DO NOTHING
            RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }

    /// Records a signature: the new counter and backup state, only if the counter is still the
    /// one the check read (`false` when another signature got there first).
    func used(id: String, from oldCount: Int64, to newCount: Int64, backedUp: Bool, at time: Int64) async throws -> Bool {
        let rows = try await sql.raw(
            """
            UPDATE passkey_credentials SET sign_count = \(bind: newCount), backed_up = \(bind: Int64(backedUp ? 1 : 0)),
                last_used_at = \(bind: time)
            WHERE id = \(bind: id) AND sign_count = \(bind: oldCount)
            RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }

    /// Flags a passkey whose counter went backwards.
    func flagCounterRegression(id: String, at time: Int64) async throws {
        try await sql.raw(
            "UPDATE passkey_credentials SET counter_regressed_at = \(bind: time) WHERE id = \(bind: id)"
        ).run()
    }

    /// Renames one of the user's passkeys; `false` when the user has none with `id`.
    func rename(id: String, userId: String, to name: String) async throws -> Bool {
        let rows = try await sql.raw(
            """
            UPDATE passkey_credentials SET name = \(bind: name)
            WHERE id = \(bind: id) AND user_id = \(bind: userId)
            RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }

    /// Removes one of the user's passkeys; `false` when the user has none with `id`.
    func delete(id: String, userId: String) async throws -> Bool {
        let rows = try await sql.raw(
            "DELETE FROM passkey_credentials WHERE id = \(bind: id) AND user_id = \(bind: userId) RETURNING id"
        ).all()
        return !rows.isEmpty
    }

    /// Removes every passkey of a user (a deleted guest).
    func deleteAll(userId: String) async throws {
        try await sql.raw("DELETE FROM passkey_credentials WHERE user_id = \(bind: userId)").run()
    }

    private static func encode(_ transports: [String]) -> String {
        (try? String(decoding: JSONEncoder().encode(transports), as: UTF8.self)) ?? "[]"
    }

    private static func record(_ row: any SQLRow) throws -> PasskeyCredentialRecord {
        let transports = try row.decode(column: "transports", as: String.self)
        return PasskeyCredentialRecord(
            id: try row.decode(column: "id", as: String.self),
            userId: try row.decode(column: "user_id", as: String.self),
            projectId: try row.decode(column: "project_id", as: String.self),
            credentialId: try row.decode(column: "credential_id", as: String.self),
            userHandle: try row.decode(column: "user_handle", as: String.self),
            publicKey: try row.decode(column: "public_key", as: String.self),
            algorithm: Int(try row.decode(column: "algorithm", as: Int64.self)),
            signCount: try row.decode(column: "sign_count", as: Int64.self),
            backupEligible: try row.decode(column: "backup_eligible", as: Int64.self) != 0,
            backedUp: try row.decode(column: "backed_up", as: Int64.self) != 0,
            userVerified: try row.decode(column: "user_verified", as: Int64.self) != 0,
            transports: (try? JSONDecoder().decode([String].self, from: Data(transports.utf8))) ?? [],
            aaguid: try row.decode(column: "aaguid", as: String.self),
            attestationFormat: try row.decode(column: "attestation_format", as: String.self),
            attestationTrust: try row.decode(column: "attestation_trust", as: String.self),
            name: try row.decode(column: "name", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            lastUsedAt: try row.decode(column: "last_used_at", as: Int64?.self),
            counterRegressedAt: try row.decode(column: "counter_regressed_at", as: Int64?.self))
    }
}

extension Repositories {
    /// ``PasskeyRepository`` on this connection or transaction.
    var passkeys: PasskeyRepository { PasskeyRepository(sql: sql) }
}
