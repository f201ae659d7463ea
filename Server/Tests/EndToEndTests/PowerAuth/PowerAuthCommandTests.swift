import Foundation
import KeywayPowerAuth
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("keyway-server project powerauth: credentials, activation codes and activations from the command line")
struct PowerAuthCommandTests {
    func run(_ arguments: [String], database: String, keyFile: String?) async throws -> (status: Int32, output: String, errors: String) {
        let executable = try CLIProcess.executable(named: "keyway-server").path
        var all = ["project", "powerauth"] + arguments + ["--database", database]
        if let keyFile { all += ["--master-key-file", keyFile] }
        let result = try await ChildProcess.run(executable, all)
        return (result.status, String(decoding: result.output, as: UTF8.self), String(decoding: result.errors, as: UTF8.self))
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func theSubcommandsAdministerWhatTheRoutesDo() async throws {
        try await PowerAuthFixture.run { fixture in
            // The running server's database, SQLite or PostgreSQL.
            let database: String =
                switch fixture.server.database {
                case .sqlite(let path): path
                case .postgres(let location):
                    "postgres://\(location.username)@\(location.host):\(location.port)/\(location.database)?sslmode=disable"
                        + (location.schema.map { "&schema=\($0)" } ?? "")
                }
            let folder = TestFiles.directory.appendingPathComponent("powerauth-cli-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let keyFile = folder.appendingPathComponent("operator-master-key.txt").path
            try Data((TestServer.masterKey.text + "\n").utf8).write(to: URL(fileURLWithPath: keyFile))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile)

            let withoutKey = try await run(["show", TestServer.configId], database: database, keyFile: nil)
            #expect(withoutKey.status == 1 && withoutKey.errors.contains("master key"), "\(withoutKey.status) \(withoutKey.output) \(withoutKey.errors)")

            let shown = try await run(["show", TestServer.configId], database: database, keyFile: keyFile)
            #expect(shown.status == 0, "\(shown.errors)")
            #expect(try json(shown.output)["applicationKey"] as? String == fixture.application.applicationKey)
            let settings = try await run(["settings", TestServer.configId, "--max-failed-attempts", "4"], database: database, keyFile: keyFile)
            #expect(try json(settings.output)["maxFailedAttempts"] as? Int == 4)

            let created = try await run(
                ["activation-code", TestServer.configId, fixture.userId, "--commit", "confirm"], database: database, keyFile: keyFile)
            #expect(created.status == 0, "\(created.errors)")
            let code = try #require(try json(created.output)["activationCode"] as? String)
            let activationId = try #require(try json(created.output)["activationId"] as? String)
            var device = fixture.device()
            #expect(try await device.activate(type: "CODE", identity: ["code": code]).status == 200)
            #expect(try await device.status().state == .pendingCommit)

            let committed = try await run(["change", "commit", activationId], database: database, keyFile: keyFile)
            #expect(committed.status == 0, "\(committed.errors)")
            #expect(try json(committed.output)["status"] as? String == "ACTIVE")
            #expect(try await device.status().state == .active)
            #expect(try await device.status().maxFailedAttempts == 4)
            let listed = try await run(["activations", fixture.userId], database: database, keyFile: keyFile)
            let activations = try #require(try json(listed.output)["activations"] as? [[String: Any]])
            #expect(activations.contains { $0["activationId"] as? String == activationId && $0["fingerprint"] as? String == device.fingerprint })
            let blocked = try await run(["change", "block", activationId, "--reason", "LOST"], database: database, keyFile: keyFile)
            #expect(try json(blocked.output)["blockedReason"] as? String == "LOST")
            #expect(try await device.status().state == .blocked)
            let unknown = try await run(["change", "remove", "nope"], database: database, keyFile: keyFile)
            #expect(unknown.status == 1 && unknown.errors.contains("nope"))

            // A recovery postcard: made, confirmed by the device, listed, revoked.
            #expect(try await fixture.admin("POST", "/admin/activations/\(activationId)/unblock").status == 200)
            let postcard = try await run(["postcard", TestServer.configId, fixture.userId, "--puk-count", "2"], database: database, keyFile: keyFile)
            #expect(postcard.status == 0, "\(postcard.errors)")
            let card = try json(postcard.output)
            let cardCode = try #require(card["recoveryCode"] as? String)
            let cardId = try #require(card["recoveryCodeId"] as? String)
            #expect((card["puks"] as? [[String: Any]])?.count == 2)
            #expect(try await PowerAuthRecoveryPostcardTests.confirm(&device, cardCode).get() == false)
            let codes = try await run(["recovery-codes", fixture.userId], database: database, keyFile: keyFile)
            #expect((try json(codes.output)["recoveryCodes"] as? [[String: Any]])?.contains {
                $0["recoveryCodeId"] as? String == cardId && $0["status"] as? String == "ACTIVE"
            } == true)
            let revoked = try await run(["revoke-recovery-code", cardId], database: database, keyFile: keyFile)
            #expect(try json(revoked.output)["status"] as? String == "REVOKED", "\(revoked.errors)")
            let tooMany = try await run(["postcard", TestServer.configId, fixture.userId, "--puk-count", "101"], database: database, keyFile: keyFile)
            #expect(tooMany.status == 1 && tooMany.errors.contains("pukCount"))
        }
    }
}
