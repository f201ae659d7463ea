import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// `keyway-server migrate-sqlite-to-postgres`: an embedded deployment moves to PostgreSQL and
/// keeps its users, devices, sessions and keys. Runs when the tests run on PostgreSQL.
@Suite("Moving from SQLite to PostgreSQL", .enabled(if: TestDatabase.isPostgres))
struct MigrationToPostgresTests {
    @Test func usersDevicesSessionsAndKeysComeAcross() async throws {
        let sqlitePath = TestServer.temporaryDatabase()
        let clock = ManualClock()
        let device = TestDevice()
        // On SQLite: a user with an authenticator, a trusted device, a session with a refresh token.
        let (refreshToken, subject, deviceId, kid, port) = try await withTestServer(
            AdaptiveHarness.start(
                policy: AdaptiveHarness.deviceTrustPolicy, database: .sqlite(path: sqlitePath), clock: clock)
        ) { harness in
            let keyway = try device.sdk(harness)
            _ = try await harness.signInSettingUpTotp(keyway, email: "mover@example.com")
            let tokens = try await harness.tokens(keyway)
            let deviceId = try #require(await keyway.trustedDeviceID(for: "mover@example.com"))
            return (
                try #require(tokens.response.refreshToken), tokens.idToken.subject, deviceId,
                try #require(try CompactJWS(tokens.response.accessToken.revealed).keyID), harness.server.port
            )
        }

        guard case .postgres(let target) = try await TestDatabase.fresh() else { return }
        let migrate = try CLIProcess(
            arguments: ["migrate-sqlite-to-postgres", "--from", "sqlite:\(sqlitePath)", "--to", target.description],
            executable: "keyway-server")
        #expect(try await migrate.waitForExit() == 0, "\(migrate.standardError)")
        #expect(migrate.standardOutput.contains("users: 1"), "\(migrate.standardOutput)")
        #expect(migrate.standardOutput.contains("trusted_devices: 1"))
        // Only into an empty database.
        let again = try CLIProcess(
            arguments: ["migrate-sqlite-to-postgres", "--from", "sqlite:\(sqlitePath)", "--to", target.description],
            executable: "keyway-server")
        #expect(try await again.waitForExit() != 0)
        #expect(again.standardError.contains("not empty"), "\(again.standardError)")

        // On PostgreSQL, at the same address (the issuer device proofs are bound to): the session
        // refreshes, the device proves itself, the key is the same.
        try await withTestServer(
            AdaptiveHarness.start(
                policy: AdaptiveHarness.deviceTrustPolicy, database: .postgres(target), clock: clock, port: port)
        ) { harness in
            let keyway = try device.sdk(harness)
            let refreshed = try await keyway.tokens.refresh(refreshToken: refreshToken)
            #expect(refreshed.idToken.subject == subject)
            #expect(try CompactJWS(refreshed.response.accessToken.revealed).keyID == kid)
            #expect(await keyway.trustedDeviceID(for: "mover@example.com") == deviceId)
            clock.advance(by: 60)
            try await harness.signInWithCode(keyway, email: "mover@example.com")
            let again = try await harness.tokens(keyway)
            #expect(again.idToken.subject == subject)
            #expect(again.idToken.authenticationMethods == ["otp", "swk", "mfa"])
        }
    }
}
