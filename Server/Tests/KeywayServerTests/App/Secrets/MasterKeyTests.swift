import Crypto
import Foundation
import KeywayTestSupport
import Logging
import Testing

@testable import KeywayServer

@Suite("Master key: sealing the secrets kept at rest")
struct MasterKeyTests {
    @Test func sealedValuesOpenOnlyWithTheirKeyAndName() throws {
        let key = MasterKey.generate()
        let sealed = try key.seal("secret value", name: "server_secret:a")
        #expect(sealed.hasPrefix("kwk1.\(key.id)."))
        #expect(!sealed.contains("secret value"))
        #expect(try key.open(sealed, name: "server_secret:a") == "secret value")
        // Moved to another name, opened with another key, changed, or never sealed: refused.
        #expect(throws: ConfigurationError.self) { try key.open(sealed, name: "server_secret:b") }
        #expect(throws: ConfigurationError.self) { try MasterKey.generate().open(sealed, name: "server_secret:a") }
        var changed = Array(sealed)
        changed[changed.count - 3] = changed[changed.count - 3] == "A" ? "B" : "A"
        #expect(throws: ConfigurationError.self) { try key.open(String(changed), name: "server_secret:a") }
        #expect(throws: ConfigurationError.self) { try key.open("c2VjcmV0", name: "server_secret:a") }
        // The text form reads back as the same key; IDs differ between keys.
        #expect(try MasterKey(text: key.text) == key)
        #expect(MasterKey.generate().id != key.id)
    }

    @Test func secretsStoredInTheClearBeforeAreSealedOnceAndKeepTheirValue() async throws {
        let database = try await SQLiteDatabase.open(
            path: TestFiles.directory.appendingPathComponent("keyway-seal-\(UUID().uuidString).sqlite").path,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        try await Migrations.apply(to: database, now: Date())
        // As a release before sealing stored them: base64 in the clear.
        let signing = P256.Signing.PrivateKey()
        let secret = Data(SecureRandom.bytes(32))
        try await database.write { repositories in
            try await repositories.keys.insertSigningKey(
                .init(kid: "kid-1", algorithm: "ES256", privateKey: signing.rawRepresentation.base64EncodedString(),
                    createdAt: 1, activatesAt: 1))
            try await repositories.keys.insertSecret(
                named: ServerSecretKey.oneTimeCodes, value: secret.base64EncodedString(), createdAt: 1)
        }
        let key = MasterKey.generate()
        #expect(try await SecretsAtRest.prepare(in: database, masterKey: key) == 2)
        #expect(try await SecretsAtRest.prepare(in: database, masterKey: key) == 0)
        let stored = try await database.read { try await $0.keys.signingKeys() }
        #expect(stored.allSatisfy { MasterKey.isSealed($0.privateKey) })
        let loaded = try await SigningKey.loadOrCreate(in: database, now: Date(), masterKey: key)
        #expect(loaded.kid == "kid-1" && loaded.es256PublicKey?.rawRepresentation == signing.publicKey.rawRepresentation)
        let code = try await ServerSecretKey.loadOrCreate(
            named: ServerSecretKey.oneTimeCodes, in: database, now: Date(), masterKey: key)
        #expect(code.withUnsafeBytes { Data($0) } == secret)
        await #expect(throws: ConfigurationError.self) {
            try await SecretsAtRest.prepare(in: database, masterKey: MasterKey.generate())
        }
        await database.shutdown()
    }

    /// A key file other users can change is refused; one they can read is accepted with a
    /// warning naming the `chmod`; a `0600` file with neither.
    @Test func aKeyFileOthersCanChangeIsRefusedAndOneTheyCanReadIsWarnedOf() throws {
        let path = TestFiles.directory.appendingPathComponent("keyway-key-\(UUID().uuidString).key").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let key = MasterKey.generate()
        try Data((key.text + "\n").utf8).write(to: URL(fileURLWithPath: path))
        func chmod(_ mode: Int) throws {
            try FileManager.default.setAttributes([.posixPermissions: NSNumber(value: mode)], ofItemAtPath: path)
        }
        try chmod(0o600)
        #expect(try MasterKey.read(path: path) == key)
        #expect(SecretFile.refusal(path: path, what: "master key file") == nil)
        #expect(SecretFile.warning(path: path, what: "master key file") == nil)
        try chmod(0o644)
        #expect(try MasterKey.read(path: path) == key)
        #expect(SecretFile.warning(path: path, what: "master key file")?.contains("chmod 600 \(path)") == true)
        for mode in [0o666, 0o620, 0o602] {
            try chmod(mode)
            #expect(SecretFile.warning(path: path, what: "master key file") == nil)
            do {
                _ = try MasterKey.read(path: path)
                Issue.record("mode \(String(mode, radix: 8)) was accepted")
            } catch {
                #expect(error.description.contains("can be changed by other users (mode 0\(String(mode, radix: 8)))"))
                #expect(!error.description.contains(key.text))
            }
        }
    }
}
