import Foundation
import KeywayJOSE
import SQLKit

/// App Attest challenges (single-use, stored as SHA-256 hashes) and the attested keys of each
/// application's app instances, with the last assertion counter of each.
struct AppAttestRepository: Sendable {
    let sql: any SQLDatabase

    func insertChallenge(_ challenge: String, applicationId: String, expiresAt: Int64) async throws {
        try await sql.raw(
            """
            INSERT INTO app_attest_challenges (challenge_hash, application_id, expires_at)
            VALUES (\(bind: sha256Hex(challenge)), \(bind: applicationId), \(bind: expiresAt))
            """
        ).run()
    }

    /// Uses the challenge up; `false` when it is unknown, of another application or expired.
    func consumeChallenge(_ challenge: String, applicationId: String, now: Int64) async throws -> Bool {
        try await sql.raw(
            """
            DELETE FROM app_attest_challenges
            WHERE challenge_hash = \(bind: sha256Hex(challenge)) AND application_id = \(bind: applicationId)
                AND expires_at > \(bind: now)
            RETURNING challenge_hash
            """
        ).first() != nil
    }

    func deleteExpiredChallenges(before time: Int64) async throws {
        try await sql.raw("DELETE FROM app_attest_challenges WHERE expires_at <= \(bind: time)").run()
    }

    /// Keeps a newly attested key; a key registered again (the app re-attested the same key)
    /// replaces the earlier record and its counter.
    func insertKey(_ key: AttestedKey, applicationId: String, now: Int64) async throws {
        let keyID = Base64URL.encode(key.keyID)
        try await sql.raw(
            "DELETE FROM app_attest_keys WHERE application_id = \(bind: applicationId) AND key_id = \(bind: keyID)"
        ).run()
        try await sql.raw(
            """
            INSERT INTO app_attest_keys (key_id, application_id, public_key, app_id, environment, receipt, counter,
                created_at, last_used_at)
            VALUES (\(bind: keyID), \(bind: applicationId), \(bind: Base64URL.encode(key.publicKey)),
                \(bind: key.appID), \(bind: key.environment.rawValue), \(bind: Base64URL.encode(key.receipt)),
                0, \(bind: now), NULL)
            """
        ).run()
    }

    /// The attested key `keyID` of the application, and its last counter.
    func key(_ keyID: Data, applicationId: String) async throws -> (key: AttestedKey, counter: UInt32)? {
        guard
            let row = try await sql.raw(
                """
                SELECT public_key, app_id, environment, receipt, counter FROM app_attest_keys
                WHERE application_id = \(bind: applicationId) AND key_id = \(bind: Base64URL.encode(keyID))
                """
            ).first(),
            let publicKey = Base64URL.decode(try row.decode(column: "public_key", as: String.self)),
            let environment = AppAttestEnvironment(rawValue: try row.decode(column: "environment", as: String.self))
        else { return nil }
        let counter = try row.decode(column: "counter", as: Int64.self)
        return (
            AttestedKey(
                keyID: keyID, publicKey: publicKey,
                receipt: Base64URL.decode(try row.decode(column: "receipt", as: String.self)) ?? Data(),
                environment: environment, appID: try row.decode(column: "app_id", as: String.self)),
            UInt32(clamping: counter)
        )
    }

    /// Moves the key's counter to `counter` if it is still below it: `false` when another
    /// request got there first (the assertion was replayed or raced), so each counter value is
    /// accepted once, across instances.
    func advanceCounter(_ keyID: Data, applicationId: String, to counter: UInt32, now: Int64) async throws -> Bool {
        try await sql.raw(
            """
            UPDATE app_attest_keys SET counter = \(bind: Int64(counter)), last_used_at = \(bind: now)
            WHERE application_id = \(bind: applicationId) AND key_id = \(bind: Base64URL.encode(keyID))
                AND counter < \(bind: Int64(counter))
            RETURNING key_id
            """
        ).first() != nil
    }
}

extension Repositories {
    /// ``AppAttestRepository`` on this connection or transaction.
    var appAttest: AppAttestRepository { AppAttestRepository(sql: sql) }
}
