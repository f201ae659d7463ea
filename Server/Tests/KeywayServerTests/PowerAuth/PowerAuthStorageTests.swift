import Foundation
import KeywayTestSupport
import Logging
import Testing

@testable import KeywayServer

@Suite("PowerAuth storage: the sweep, the counter's conditional update, sealed secrets")
struct PowerAuthStorageTests {
    func openDatabase() async throws -> SQLiteDatabase {
        let path = TestFiles.directory.appendingPathComponent("keyway-powerauth-\(UUID().uuidString)/db.sqlite").path
        let database = try await SQLiteDatabase.open(path: path, logger: Logger(label: "test"))
        try await Migrations.apply(to: database, now: Date())
        return database
    }

    static func activation(_ id: String, status: PowerAuthActivationStatus, codeExpiresAt: Int64?, counter: String?) -> PowerAuthActivationRecord {
        PowerAuthActivationRecord(
            id: id, applicationId: "app_1", userId: "usr_1", status: status, codeLookup: codeExpiresAt.map { _ in "lookup-\(id)" },
            codeExpiresAt: codeExpiresAt, otpHash: nil, otpAttempts: 0, commitMode: .automatic, devicePublicKey: nil,
            serverPublicKey: nil, sealedServerPrivateKey: nil, counterData: counter, counter: 0, failedAttempts: 0,
            maxFailedAttempts: 5, name: nil, platform: nil, deviceInfo: nil, extras: nil, fingerprint: nil, blockedReason: nil,
            createdAt: 1, updatedAt: 1, lastUsedAt: nil, removedAt: nil)
    }

    @Test func theSweepDeletesExpiredTemporaryKeysAndCodesNeverUsed() async throws {
        let database = try await openDatabase()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let now = clock.now().epochMilliseconds
        let day: Int64 = 86_400_000
        try await database.write { repositories in
            for (id, expiresAt) in [("key_live", now + 60_000), ("key_expired", now - 1)] {
                try await repositories.powerAuthTemporaryKeys.insert(
                    PowerAuthTemporaryKeyRecord(
                        id: id, applicationId: "app_1", activationId: nil, publicKey: "p", sealedPrivateKey: "s",
                        createdAt: now - 300_000, expiresAt: expiresAt))
            }
            try await repositories.powerAuthActivations.insert(Self.activation("act_fresh", status: .created, codeExpiresAt: now + day, counter: nil))
            try await repositories.powerAuthActivations.insert(Self.activation("act_stale", status: .created, codeExpiresAt: now - 2 * day, counter: nil))
            try await repositories.powerAuthActivations.insert(Self.activation("act_active", status: .active, codeExpiresAt: nil, counter: "c"))
        }
        try await MaintenanceService(database: database, clock: clock, logger: Logger(label: "test")).sweep()
        let (keys, activations) = try await database.read { repositories in
            (
                try await repositories.sql.raw("SELECT id FROM powerauth_temporary_keys").all()
                    .map { try $0.decode(column: "id", as: String.self) },
                try await repositories.sql.raw("SELECT id FROM powerauth_activations ORDER BY id").all()
                    .map { try $0.decode(column: "id", as: String.self) }
            )
        }
        #expect(keys == ["key_live"])
        #expect(activations == ["act_active", "act_fresh"])
        await database.shutdown()
    }

    @Test func theCounterMovesOnlyFromTheValueRead() async throws {
        let database = try await openDatabase()
        try await database.write { repositories in
            try await repositories.powerAuthActivations.insert(Self.activation("act_1", status: .active, codeExpiresAt: nil, counter: "AAAA"))
        }
        let (first, second, stored) = try await database.write { repositories in
            let first = try await repositories.powerAuthActivations.recordSignature(
                id: "act_1", expectedCounterData: "AAAA", counterData: "BBBB", counter: 1, failedAttempts: 0, status: .active,
                blockedReason: nil, now: 5)
            // A second verification that read the same value finds it moved.
            let second = try await repositories.powerAuthActivations.recordSignature(
                id: "act_1", expectedCounterData: "AAAA", counterData: "CCCC", counter: 1, failedAttempts: 0, status: .active,
                blockedReason: nil, now: 6)
            return (first, second, try await repositories.powerAuthActivations.find(id: "act_1"))
        }
        #expect(first && !second)
        #expect(stored?.counterData == "BBBB" && stored?.counter == 1 && stored?.lastUsedAt == 5)
        await database.shutdown()
    }

    @Test func secretsAreSealedAndHashedByPurpose() throws {
        let secrets = PowerAuthSecrets(box: SecretBox(key: .init(size: .bits256)), hashKey: .init(size: .bits256))
        let key = try secrets.seal(.init(), purpose: "powerauth-server-key:a")
        #expect(key.hasPrefix("v1."))
        #expect((try? secrets.openKey(key, purpose: "powerauth-server-key:b")) == nil)
        #expect(try secrets.openKey(key, purpose: "powerauth-server-key:a").rawRepresentation.count == 32)
        let hash = secrets.hash("ABCDE", purpose: "activation-code")
        #expect(secrets.matches("ABCDE", purpose: "activation-code", stored: hash))
        #expect(!secrets.matches("ABCDE", purpose: "recovery-code", stored: hash))
        #expect(!secrets.matches("ABCDF", purpose: "activation-code", stored: hash))
        let other = PowerAuthSecrets(box: SecretBox(key: .init(size: .bits256)), hashKey: .init(size: .bits256))
        #expect(other.hash("ABCDE", purpose: "activation-code") != hash)
    }

    @Test func migration21MovesEachSingleUsePUKToPUKNumberOneAndUsedCodesAreRevoked() async throws {
        let path = TestFiles.directory.appendingPathComponent("keyway-powerauth-\(UUID().uuidString)/db.sqlite").path
        let database = try await SQLiteDatabase.open(path: path, logger: Logger(label: "test"))
        try await Self.checkMigration21(database)
        await database.shutdown()
    }

    /// Codes of migration 20 carried into migration 21 (on SQLite here, on PostgreSQL in
    /// `PostgreSQLStorageTests`).
    static func checkMigration21(_ database: any Database) async throws {
        try await Migrations.apply(to: database, now: Date(), through: 20)
        try await database.write { repositories in
            for (id, status) in [("parc_live", "ACTIVE"), ("parc_used", "USED"), ("parc_blocked", "BLOCKED")] {
                try await repositories.sql.raw(
                    """
                    INSERT INTO powerauth_recovery_codes (id, application_id, user_id, activation_id, code_lookup, puk_hash,
                        failed_attempts, status, created_at, updated_at)
                    VALUES (\(bind: id), 'app_1', 'usr_1', \(bind: "act_" + id), \(bind: "lookup-" + id), \(bind: "puk-" + id),
                        \(bind: Int64(status == "BLOCKED" ? 5 : 0)), \(bind: status), 1, 2)
                    """
                ).run()
            }
        }
        #expect(try await Migrations.apply(to: database, now: Date(), through: 21) == [21])
        try await database.read { repositories in
            let live = try #require(try await repositories.powerAuthRecoveryCodes.find(codeLookup: "lookup-parc_live"))
            #expect(live.status == .active && live.activationId == "act_parc_live" && live.maxFailedAttempts == 5)
            #expect(try await repositories.powerAuthRecoveryCodes.puks(recoveryCodeId: "parc_live")
                == [PowerAuthRecoveryPukRecord(recoveryCodeId: "parc_live", index: 1, pukHash: "puk-parc_live", status: .valid)])
            let used = try #require(try await repositories.powerAuthRecoveryCodes.find(id: "parc_used"))
            #expect(used.status == .revoked)
            #expect(try await repositories.powerAuthRecoveryCodes.puks(recoveryCodeId: "parc_used").map(\.status) == [.used])
            let blocked = try #require(try await repositories.powerAuthRecoveryCodes.find(id: "parc_blocked"))
            #expect(blocked.status == .blocked && blocked.failedAttempts == 5)
        }
        // A postcard has no activation.
        try await database.write { repositories in
            try await repositories.powerAuthRecoveryCodes.insert(
                PowerAuthRecoveryCodeRecord(
                    id: "parc_card", applicationId: "app_1", userId: "usr_1", activationId: nil, codeLookup: "lookup-card",
                    status: .created, failedAttempts: 0, maxFailedAttempts: 5, recoveredActivationId: nil, createdAt: 3,
                    updatedAt: 3),
                puks: (1...3).map { PowerAuthRecoveryPukRecord(recoveryCodeId: "parc_card", index: $0, pukHash: "h\($0)", status: .valid) })
        }
        let card = try await database.read { try await $0.powerAuthRecoveryCodes.find(id: "parc_card") }
        #expect(card?.activationId == nil && card?.status == .created)
        #expect(try await database.read { try await $0.powerAuthRecoveryCodes.puks(recoveryCodeId: "parc_card") }.map(\.index) == [1, 2, 3])
    }

    @Test func theSweepDeletesExpiredReplayRecordsAndARemovedActivationLosesItsTokens() async throws {
        let database = try await openDatabase()
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let now = clock.now().epochMilliseconds
        try await database.write { repositories in
            #expect(try await repositories.powerAuthReplays.insert(hash: "live", expiresAt: now + 60_000))
            #expect(try await repositories.powerAuthReplays.insert(hash: "old", expiresAt: now - 1))
            #expect(try await repositories.powerAuthReplays.insert(hash: "live", expiresAt: now + 60_000) == false)
            try await repositories.powerAuthActivations.insert(Self.activation("act_1", status: .active, codeExpiresAt: nil, counter: "c"))
            for id in ["tok_1", "tok_2"] {
                try await repositories.powerAuthTokens.insert(
                    PowerAuthTokenRecord(id: id, activationId: "act_1", sealedSecret: "s", factors: "possession", createdAt: now, lastUsedAt: nil))
            }
        }
        try await MaintenanceService(database: database, clock: clock, logger: Logger(label: "test")).sweep()
        let replays = try await database.read { repositories in
            try await repositories.sql.raw("SELECT replay_hash FROM powerauth_replays").all()
                .map { try $0.decode(column: "replay_hash", as: String.self) }
        }
        #expect(replays == ["live"])
        try await database.write { repositories in
            var activation = try #require(try await repositories.powerAuthActivations.find(id: "act_1"))
            activation.status = .blocked
            try await repositories.powerAuthActivations.update(activation)
            #expect(try await repositories.powerAuthTokens.all(activationId: "act_1").count == 2)
            activation.status = .removed
            try await repositories.powerAuthActivations.update(activation)
            #expect(try await repositories.powerAuthTokens.all(activationId: "act_1").isEmpty)
        }
        await database.shutdown()
    }
}
