import Foundation
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("Secrets at rest: sealed under a master key kept apart from the database")
struct SecretsAtRestTests {
    static func configuration(_ path: String, masterKey: MasterKey?, devMode: Bool = true) -> ServerConfiguration {
        var configuration = ServerConfiguration(
            port: 0, database: .sqlite(path: path), devMode: devMode, deliveryCommand: devMode ? nil : "/bin/true")
        configuration.masterKey = masterKey
        configuration.passwordHashing = ScryptPasswords(log2Cost: 12)
        return configuration
    }

    /// Starts a server on `configuration` and stops it; answers why it could not start.
    static func start(_ configuration: ServerConfiguration) async throws -> ConfigurationError? {
        do {
            let app = try await KeywayServerApp.bootstrap(configuration: configuration, logger: LogCapture().logger())
            await app.shutDown()
            try await app.run()
            return nil
        } catch let error as ConfigurationError {
            return error
        }
    }

    /// The stored values of the signing keys and the server's secret keys, read by an
    /// independent SQLite client.
    static func storedSecrets(_ path: String) async throws -> [String] {
        let result = try await ChildProcess.run(
            "python3",
            [
                "-c",
                """
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                for (v,) in c.execute("SELECT private_key FROM signing_keys"): print(v)
                for (v,) in c.execute("SELECT value FROM server_secrets WHERE name != 'admin_token_hash'"): print(v)
                """,
                path,
            ])
        #expect(result.status == 0, "\(String(decoding: result.errors, as: UTF8.self))")
        return String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test func devModeMakesAPrivateKeyFileAndTheDatabaseHoldsNoSecretInTheClear() async throws {
        let path = TestServer.temporaryDatabase()
        #expect(try await Self.start(Self.configuration(path, masterKey: nil)) == nil)
        let keyFile = (path as NSString).deletingLastPathComponent + "/master.key"
        #expect(try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int == 0o600)
        let key = try MasterKey.read(path: keyFile)
        let stored = try await Self.storedSecrets(path)
        // The two signing keys (ES256, RS256) and the five secret keys, each sealed under the file's key.
        #expect(stored.count == 7)
        #expect(stored.allSatisfy { $0.hasPrefix("kwk1.\(key.id).") }, "\(stored.map { $0.prefix(24) })")
        // The next dev start reads the same file.
        #expect(try await Self.start(Self.configuration(path, masterKey: nil)) == nil)
        #expect(try MasterKey.read(path: keyFile) == key)
    }

    @Test func aWrongOrMissingKeyStopsTheStartWithTheReason() async throws {
        let path = TestServer.temporaryDatabase()
        let key = MasterKey.generate()
        #expect(try await Self.start(Self.configuration(path, masterKey: key)) == nil)
        let wrong = try await Self.start(Self.configuration(path, masterKey: MasterKey.generate()))
        #expect(wrong?.description.contains("sealed with another master key (\(key.id))") == true, "\(String(describing: wrong))")
        let missing = try await Self.start(Self.configuration(path, masterKey: nil, devMode: false))
        #expect(missing?.description.contains("production mode needs one") == true, "\(String(describing: missing))")
        #expect(try await Self.start(Self.configuration(path, masterKey: key)) == nil)
        #expect(throws: ConfigurationError.self) { try MasterKey(text: "c2hvcnQ=") }
        #expect(throws: ConfigurationError.self) { try MasterKey(text: "not base64 at all!") }
    }

    @Test func rewrapMovesEverySecretToANewKey() async throws {
        let folder = TestFiles.directory.appendingPathComponent("keyway-rewrap-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/keyway.sqlite"
        let old = MasterKey.generate()
        let new = MasterKey.generate()
        try Data((old.text + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/old.key"))
        try Data((new.text + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/new.key"))
        #expect(try await Self.start(Self.configuration(path, masterKey: old)) == nil)

        // Without the current key, nothing moves.
        let refused = try CLIProcess(
            arguments: ["keys", "rewrap", "--database", "sqlite:\(path)", "--new-master-key-file", folder + "/new.key",
                "--master-key-file", folder + "/new.key"],
            executable: "keyway-server")
        #expect(try await refused.waitForExit() != 0)
        #expect(refused.standardError.contains("another master key"), "\(refused.standardError)")

        let rewrap = try CLIProcess(
            arguments: ["keys", "rewrap", "--database", "sqlite:\(path)", "--master-key-file", folder + "/old.key",
                "--new-master-key-file", folder + "/new.key"],
            executable: "keyway-server")
        #expect(try await rewrap.waitForExit() == 0, "\(rewrap.standardError)")
        #expect(rewrap.standardOutput.contains("7 secrets sealed under the master key \(new.id)"), "\(rewrap.standardOutput)")
        #expect(try await Self.storedSecrets(path).allSatisfy { $0.hasPrefix("kwk1.\(new.id).") })
        #expect(try await Self.start(Self.configuration(path, masterKey: new)) == nil)
        #expect(try await Self.start(Self.configuration(path, masterKey: old)) != nil)
    }

    @Test func withNoMasterKeyAtAllTheKeyCommandsRefuseAndChangeNothing() async throws {
        let folder = TestFiles.directory.appendingPathComponent("keyway-nokey-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/keyway.sqlite"
        let key = MasterKey.generate()
        try Data((MasterKey.generate().text + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/new.key"))
        #expect(try await Self.start(Self.configuration(path, masterKey: key)) == nil)
        let before = try await Self.storedSecrets(path)

        // No --master-key-file, no KEYWAY_MASTER_KEY, and no key file beside the database.
        for arguments in [
            ["keys", "rotate", "--database", "sqlite:\(path)"],
            ["keys", "rewrap", "--database", "sqlite:\(path)", "--new-master-key-file", folder + "/new.key"],
        ] {
            let command = try CLIProcess(arguments: arguments, environment: ["KEYWAY_MASTER_KEY": ""], executable: "keyway-server")
            #expect(try await command.waitForExit() != 0, "\(arguments)")
            #expect(command.standardError.contains("master key"), "\(arguments): \(command.standardError)")
        }
        #expect(try await Self.storedSecrets(path) == before)
        #expect(!FileManager.default.fileExists(atPath: folder + "/master.key"))
        #expect(try await Self.start(Self.configuration(path, masterKey: key)) == nil)
    }
}
