import Foundation
import _CryptoExtras
import KeywayJOSE
import KeywayTestSupport
import Logging
import SQLKit
import Testing

@testable import KeywayServer

@Suite("SQLite storage")
struct StorageTests {
    static let masterKey = MasterKey.generate()

    func openDatabase() async throws -> SQLiteDatabase {
        let path = TestFiles.directory
            .appendingPathComponent("keyway-storage-\(UUID().uuidString)/db.sqlite").path
        return try await SQLiteDatabase.open(path: path, logger: Logger(label: "test"))
    }

    @Test func migrationsApplyOnceAndCreateTheFile() async throws {
        let database = try await openDatabase()
        #expect(FileManager.default.fileExists(atPath: database.path))
        let firstRun = try await Migrations.apply(to: database, now: Date())
        #expect(firstRun == Migrations.all.map(\.version))
        let secondRun = try await Migrations.apply(to: database, now: Date())
        #expect(secondRun == [])
        let mode = try await database.read { try await $0.sql.raw("PRAGMA journal_mode").first()?.decode(column: "journal_mode", as: String.self) }
        #expect(mode == "wal")
        await database.shutdown()
    }

    /// What ends a session or a user's sign-ins finds the refresh tokens through an index, never by
    /// reading the whole table (a million tokens at scale).
    @Test func refreshTokensAreFoundBySessionThroughAnIndex() async throws {
        let database = try await openDatabase()
        _ = try await Migrations.apply(to: database, now: Date())
        let plans = try await database.read { repositories in
            var plans: [String] = []
            for statement in [
                "UPDATE refresh_tokens SET revoked_at = 1 WHERE session_id = 's' AND revoked_at IS NULL",
                "UPDATE refresh_tokens SET revoked_at = 1 WHERE session_id IN (SELECT id FROM sessions WHERE user_id = 'u') AND revoked_at IS NULL AND session_id <> ''",
                "DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM sessions WHERE user_id = 'u')",
            ] {
                let rows = try await repositories.sql.raw(SQLQueryString("EXPLAIN QUERY PLAN " + statement)).all()
                plans.append(try rows.map { try $0.decode(column: "detail", as: String.self) }.joined(separator: "; "))
            }
            return plans
        }
        for plan in plans {
            #expect(plan.contains("SEARCH refresh_tokens USING") && plan.contains("INDEX refresh_tokens_session"), "\(plan)")
            #expect(!plan.contains("SCAN refresh_tokens"), "\(plan)")
        }
        // A replayed code's families, through the partial index of the families' first tokens.
        let replay = try await database.read { repositories in
            try await repositories.sql.raw(
                "EXPLAIN QUERY PLAN UPDATE refresh_tokens SET revoked_at = 1 WHERE family_id IN (SELECT family_id FROM refresh_tokens WHERE authorization_code_hash = 'c') AND revoked_at IS NULL"
            ).all().map { try $0.decode(column: "detail", as: String.self) }.joined(separator: "; ")
        }
        #expect(replay.contains("INDEX refresh_tokens_code") && replay.contains("INDEX refresh_tokens_family"), "\(replay)")
        #expect(!replay.contains("SCAN refresh_tokens"), "\(replay)")
        await database.shutdown()
    }

    @Test func deletedDataLeavesNoTraceInTheFileOrItsLog() async throws {
        let database = try await openDatabase()
        let sentinel = "sentinel-" + UUID().uuidString
        try await database.write { try await $0.sql.raw("CREATE TABLE scratch (value TEXT)").run() }
        try await database.write { try await $0.sql.raw("INSERT INTO scratch (value) VALUES (\(bind: sentinel))").run() }
        try await database.write { try await $0.sql.raw("DELETE FROM scratch").run() }
        let secureDelete = try await database.read {
            try await $0.sql.raw("PRAGMA secure_delete").first()?.decode(column: "secure_delete", as: Int.self)
        }
        #expect(secureDelete == 1)
        // The checkpointer copies the log into the file (secure_delete zeroed the row there) and,
        // with no reader holding an old snapshot, empties the log within seconds.
        let files = [database.path, database.path + "-wal"]
        let needle = Data(sentinel.utf8)
        try await waitUntil("the deleted value is gone from the file and its log") {
            files.allSatisfy { ((try? Data(contentsOf: URL(fileURLWithPath: $0))) ?? Data()).range(of: needle) == nil }
        }
        await database.shutdown()
    }

    @Test func theFilesAreReadableByTheirOwnerOnly() async throws {
        let folder = TestFiles.directory.appendingPathComponent("keyway-private-\(UUID().uuidString)")
        let path = folder.appendingPathComponent("db.sqlite").path
        let database = try await SQLiteDatabase.open(path: path, logger: Logger(label: "test"))
        try await Migrations.apply(to: database, now: Date())
        func permissions(_ path: String) throws -> Int {
            try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        #expect(try permissions(folder.path) == 0o700)
        for file in [path, path + "-wal", path + "-shm"] { #expect(try permissions(file) == 0o600, "\(file)") }
        await database.shutdown()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        let reopened = try await SQLiteDatabase.open(path: path, logger: Logger(label: "test"))
        #expect(try permissions(path) == 0o600)
        await reopened.shutdown()
    }

    @Test func theSweepDeletesEndedDevicesAndOldApprovalRequests() async throws {
        let database = try await openDatabase()
        try await Migrations.apply(to: database, now: Date())
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let now = clock.now().epochMilliseconds
        let day: Int64 = 86_400_000
        @Sendable func device(_ id: String, trustedUntil: Int64, revokedAt: Int64? = nil) -> TrustedDeviceRecord {
            TrustedDeviceRecord(
                id: id, userId: "usr_1", applicationId: "app_1", publicKey: "{}", keyThumbprint: "t", name: id,
                userAgent: nil, hardwareBacked: false, createdAt: now - 100 * day, lastUsedAt: nil,
                trustedUntil: trustedUntil, revokedAt: revokedAt)
        }
        @Sendable func approval(_ id: String, expiresAt: Int64) -> ApprovalRecord {
            ApprovalRecord(
                id: id, flowId: "flw_\(id)", applicationId: "app_1", userId: "usr_1", matchingNumber: "42",
                qrSecretHash: "h", state: .pending, location: nil, userAgent: nil, createdAt: expiresAt - 120_000,
                expiresAt: expiresAt)
        }
        try await database.write { repositories in
            try await repositories.trustedDevices.insert(device("dev_trusted", trustedUntil: now + day))
            try await repositories.trustedDevices.insert(device("dev_recently_revoked", trustedUntil: now + day, revokedAt: now - day))
            try await repositories.trustedDevices.insert(device("dev_long_revoked", trustedUntil: now + day, revokedAt: now - 31 * day))
            try await repositories.trustedDevices.insert(device("dev_long_ended", trustedUntil: now - 31 * day))
            try await repositories.approvals.insert(approval("apr_recent", expiresAt: now - 60_000))
            try await repositories.approvals.insert(approval("apr_old", expiresAt: now - 2 * day))
        }
        try await MaintenanceService(database: database, clock: clock, logger: Logger(label: "test")).sweep()
        let (devices, approvals) = try await database.read { repositories in
            (
                try await repositories.sql.raw("SELECT id FROM trusted_devices ORDER BY id").all()
                    .map { try $0.decode(column: "id", as: String.self) },
                try await repositories.sql.raw("SELECT id FROM approval_requests").all()
                    .map { try $0.decode(column: "id", as: String.self) }
            )
        }
        #expect(devices == ["dev_recently_revoked", "dev_trusted"])
        #expect(approvals == ["apr_recent"])
        await database.shutdown()
    }

    @Test func refreshTokenMigrationUpgradesExistingTokens() async throws {
        let database = try await openDatabase()
        #expect(try await Migrations.apply(to: database, now: Date(), through: 1) == [1])
        try await database.write { repositories in
            let sql = repositories.sql
            try await sql.raw("INSERT INTO projects (id, name, created_at) VALUES ('prj_1', 'P', 0)").run()
            try await sql.raw(
                """
                INSERT INTO applications (id, project_id, config_id, name, client_type, flow_types, created_at)
                VALUES ('app_1', 'prj_1', 'cfg_1', 'A', 'public', 'signin', 0)
                """
            ).run()
            try await sql.raw("INSERT INTO users (id, project_id, email, created_at) VALUES ('usr_1', 'prj_1', 'a@example.com', 0)").run()
            try await sql.raw(
                "INSERT INTO sessions (id, user_id, application_id, amr, auth_time, created_at) VALUES ('ses_1', 'usr_1', 'app_1', 'otp', 0, 0)"
            ).run()
            try await sql.raw(
                """
                INSERT INTO refresh_tokens (id, token_hash, application_id, user_id, session_id, created_at, expires_at)
                VALUES ('rt_1', 'hash', 'app_1', 'usr_1', 'ses_1', 0, 5000)
                """
            ).run()
        }
        #expect(try await Migrations.apply(to: database, now: Date()) == Array(Migrations.all.map(\.version).dropFirst()))
        let token = try #require(try await database.read { try await $0.refreshTokens.find(hash: "hash") })
        #expect(token.familyId == "rt_1")
        #expect(token.familyExpiresAt == 5000)
        #expect(token.scope == "openid email offline_access")
        #expect(token.rotatedAt == nil)
        let app = try #require(try await database.read { try await $0.applications.find(configId: "cfg_1") })
        #expect(app.refreshTokens == nil)
        await database.shutdown()
    }

    @Test func failedWriteRollsBackEverything() async throws {
        let database = try await openDatabase()
        try await Migrations.apply(to: database, now: Date())
        struct Boom: Error {}
        await #expect(throws: Boom.self) {
            try await database.write { repositories in
                try await repositories.applications.insertProject(id: "prj_1", name: "P", isDev: true, createdAt: 1)
                throw Boom()
            }
        }
        #expect(try await database.read { try await $0.applications.devProjectId() } == nil)
        await database.shutdown()
    }

    @Test func concurrentWritesNeverSeeALockedDatabase() async throws {
        let database = try await openDatabase()
        try await Migrations.apply(to: database, now: Date())
        let projectId = try await database.write { try await $0.applications.ensureDevProject(createdAt: 1) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try await database.write { repositories in
                        try await repositories.users.insert(
                            UserRecord(id: "usr_\(index)", projectId: projectId, email: "u\(index)@example.com",
                                emailVerified: false, createdAt: 1))
                    }
                    _ = try await database.read { try await $0.users.find(id: "usr_\(index)") }
                }
            }
            try await group.waitForAll()
        }
        let count = try await database.read {
            try await $0.sql.raw("SELECT COUNT(*) AS n FROM users").first()?.decode(column: "n", as: Int64.self)
        }
        #expect(count == 200)
        await database.shutdown()
    }

    @Test func aGivenFirstRS256KeyIsStoredInsteadOfANewOne() async throws {
        let database = try await openDatabase()
        try await Migrations.apply(to: database, now: Date())
        let given = try SigningKey(rsaDER: try _RSA.Signing.PrivateKey(keySize: .bits2048).derRepresentation)
        let stored = try await SigningKey.loadOrCreate(.rs256, in: database, now: Date(), masterKey: Self.masterKey, first: given)
        #expect(stored.kid == given.kid && stored.publicJWK == given.publicJWK)
        // A later start finds the stored key; a first key given then changes nothing.
        let other = try SigningKey(rsaDER: try _RSA.Signing.PrivateKey(keySize: .bits2048).derRepresentation)
        #expect(try await SigningKey.loadOrCreate(.rs256, in: database, now: Date(), masterKey: Self.masterKey, first: other).kid == given.kid)
        // Not an RSA key, or one of another algorithm: refused.
        #expect(throws: StorageError.self) { try SigningKey(rsaDER: Data("not a key".utf8)) }
        let fresh = try await openDatabase()
        try await Migrations.apply(to: fresh, now: Date())
        await #expect(throws: StorageError.self) {
            try await SigningKey.loadOrCreate(.es256, in: fresh, now: Date(), masterKey: Self.masterKey, first: given)
        }
        await fresh.shutdown()
        await database.shutdown()
    }

    @Test func eachAlgorithmHasItsKeySealedAndRotatedOnItsOwn() async throws {
        let database = try await openDatabase()
        try await Migrations.apply(to: database, now: Date())
        let es = try await SigningKey.loadOrCreate(.es256, in: database, now: Date(), masterKey: Self.masterKey)
        let rs = try await SigningKey.loadOrCreate(.rs256, in: database, now: Date(), masterKey: Self.masterKey)
        #expect(es.algorithm == .es256 && rs.algorithm == .rs256)
        #expect(rs.publicJWK.kty == "RSA" && rs.publicJWK.kid == rs.kid && rs.publicJWK.alg == "RS256")
        // Stored sealed, and read back the same.
        let stored = try await database.read { try await $0.keys.signingKeys() }
        #expect(stored.map(\.algorithm).sorted() == ["ES256", "RS256"])
        #expect(stored.allSatisfy { MasterKey.isSealed($0.privateKey) })
        let reloaded = try await SigningKey.loadOrCreate(.rs256, in: database, now: Date(), masterKey: Self.masterKey)
        #expect(reloaded.kid == rs.kid && reloaded.publicJWK == rs.publicJWK)
        let signed = try reloaded.sign(payload: Data("{}".utf8), header: [:])
        try CompactJWS(signed).verify(with: rs.publicJWK)

        // Rotating RS256 leaves the ES256 key signing and published.
        let rotation = try await database.write { repositories in
            try await KeySchedule.rotate(
                .rs256, in: repositories, now: 1_000, prePublication: 100, keepPublished: 500, masterKey: Self.masterKey)
        }
        #expect(rotation.algorithm == .rs256 && rotation.currentKid == rs.kid && rotation.created)
        let schedule = KeySchedule(try await database.read { try await $0.keys.signingKeys() })
        #expect(schedule.of(.es256).signing(at: 1_100)?.kid == es.kid)
        #expect(schedule.of(.rs256).signing(at: 1_099)?.kid == rs.kid)
        #expect(schedule.of(.rs256).signing(at: 1_100)?.kid == rotation.nextKid)
        #expect(Set(schedule.published(at: 1_599).map(\.kid)) == [es.kid, rs.kid, rotation.nextKid])
        #expect(Set(schedule.published(at: 1_600).map(\.kid)) == [es.kid, rotation.nextKid])
        await database.shutdown()
    }

    @Test func signingKeyIsCreatedOnceAndReloaded() async throws {
        let database = try await openDatabase()
        try await Migrations.apply(to: database, now: Date())
        let first = try await SigningKey.loadOrCreate(in: database, now: Date(), masterKey: Self.masterKey)
        let second = try await SigningKey.loadOrCreate(in: database, now: Date(), masterKey: Self.masterKey)
        #expect(first.kid == second.kid)
        #expect(first.publicJWK == second.publicJWK && first.algorithm == .es256)
        await database.shutdown()
    }
}
