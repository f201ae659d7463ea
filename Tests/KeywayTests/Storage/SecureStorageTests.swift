import Crypto
import Foundation
import Keyway
import KeywayProtocol
import Testing

@Suite("Secure storage and device keys")
struct SecureStorageTests {
    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("keyway-storage-\(UUID().uuidString)")
    }

    /// A write interrupted before its rename leaves `.NAME.kwstore.UUID.tmp` (mode 0600) holding a
    /// prefix of the new file; the store itself still holds the old contents.
    @Test(arguments: [0, 5, 40])
    func aWriteInterruptedBeforeItsRenameLeavesTheOldValue(writtenBeforeCrash: Int) async throws {
        let directory = temporaryDirectory()
        let keyFile = directory.appendingPathComponent("storage.key")
        let storage = try FileSecureStorage(directory: directory, namespace: "ns", keySource: .keyFile(keyFile))
        try await storage.write(key: "token", data: Data("A".utf8))
        let fileA = try Data(contentsOf: storage.fileURL)

        // The bytes the next write would have put in its temporary file.
        try await storage.write(key: "token", data: Data("B".utf8))
        let fileB = try Data(contentsOf: storage.fileURL)
        #expect(fileB.count > writtenBeforeCrash)

        // The crash: the store still holds A, and a truncated temporary file is left beside it.
        try fileA.write(to: storage.fileURL)
        let leftover = directory.appendingPathComponent(".ns.kwstore.\(UUID().uuidString).tmp")
        #expect(FileManager.default.createFile(
            atPath: leftover.path, contents: fileB.prefix(writtenBeforeCrash),
            attributes: [.posixPermissions: 0o600]))

        let afterRestart = try FileSecureStorage(directory: directory, namespace: "ns", keySource: .keyFile(keyFile))
        #expect(try await afterRestart.read(key: "token") == Data("A".utf8))
        try await afterRestart.write(key: "token", data: Data("C".utf8))
        try await afterRestart.write(key: "other", data: Data("D".utf8))
        #expect(try await afterRestart.read(key: "token") == Data("C".utf8))

        let again = try FileSecureStorage(directory: directory, namespace: "ns", keySource: .keyFile(keyFile))
        #expect(try await again.read(key: "token") == Data("C".utf8))
        #expect(try await again.read(key: "other") == Data("D".utf8))
        // The leftover was never read as the store, and the next write swept it away.
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
    }

    @Test func trustKeysAreSeparatePerAppProjectAndUser() async throws {
        let directory = temporaryDirectory()
        let keyFile = directory.appendingPathComponent("storage.key")
        let storage = try FileSecureStorage(directory: directory, namespace: "keys", keySource: .keyFile(keyFile))
        let store = SoftwareDeviceKeyStore(storage: storage)
        #expect(!store.isHardwareBacked)

        var names: [String] = []
        for app in ["com.example.one", "com.example.two"] {
            for configId in ["cfg-a", "cfg-b"] {
                for user in ["user-1", "user-2"] {
                    names.append(SoftwareDeviceKeyStore.trustKeyName(appIdentifier: app, configID: configId, userKey: user))
                }
            }
        }
        #expect(Set(names).count == 8)

        var publicKeys: [String: Data] = [:]
        for name in names {
            #expect(try await store.key(named: name) == nil)
            publicKeys[name] = try await store.createKey(named: name).publicKey.x963Representation
        }
        #expect(Set(publicKeys.values).count == 8)
        for name in names {
            #expect(try await store.existingOrNewKey(named: name).publicKey.x963Representation == publicKeys[name])
        }

        let deleted = names[5]
        try await store.deleteKey(named: deleted)
        try await store.deleteKey(named: deleted)
        #expect(try await store.key(named: deleted) == nil)

        // A new store over a new storage instance on the same folder sees the same keys.
        let reopened = SoftwareDeviceKeyStore(
            storage: try FileSecureStorage(directory: directory, namespace: "keys", keySource: .keyFile(keyFile)))
        for name in names where name != deleted {
            #expect(try await reopened.key(named: name)?.publicKey.x963Representation == publicKeys[name])
        }
        #expect(try await reopened.key(named: deleted) == nil)
    }

    @Test func deviceKeysSignWithoutHandingOutTheirPrivateHalf() async throws {
        let directory = temporaryDirectory()
        let storage = try FileSecureStorage(
            directory: directory, namespace: "keys", keySource: .key(SymmetricKey(size: .bits256), version: 1))
        let store = SoftwareDeviceKeyStore(storage: storage)
        let name = SoftwareDeviceKeyStore.dpopKeyName(appIdentifier: "com.example.one", configID: "cfg-a")
        let key = try await store.createKey(named: name)

        let message = Data("proof".utf8)
        let signature = try key.signature(for: message)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(!key.publicKey.isValidSignature(signature, for: Data("other".utf8)))
        let reloaded = try #require(try await store.key(named: name))
        #expect(key.publicKey.isValidSignature(try reloaded.signature(for: message), for: message))

        // At rest the private key is only in the encrypted file, never in the clear.
        let privateKey = try #require(key as? P256.Signing.PrivateKey)
        let file = try Data(contentsOf: storage.fileURL)
        #expect(file.range(of: privateKey.rawRepresentation) == nil)
        #expect(file.range(of: Data(privateKey.rawRepresentation.base64EncodedString().utf8)) == nil)
    }

    @Test func inMemoryStorageReportsUnavailableAndRecovers() async throws {
        let storage = InMemorySecureStorage()
        try await storage.write(key: "token", data: Data("kept".utf8))

        await storage.setUnavailable("device locked")
        await #expect(throws: SecureStorageError.unavailable("device locked")) {
            _ = try await storage.read(key: "token")
        }
        await #expect(throws: SecureStorageError.unavailable("device locked")) {
            try await storage.write(key: "token", data: Data("lost".utf8))
        }
        await #expect(throws: SecureStorageError.unavailable("device locked")) {
            try await storage.delete(key: "token")
        }
        let keys = SoftwareDeviceKeyStore(storage: storage)
        await #expect(throws: KeywayError.storageUnavailable(SecureStorageError.unavailable("device locked").description)) {
            _ = try await keys.existingOrNewKey(named: "key")
        }

        await storage.setUnavailable(nil)
        #expect(try await storage.read(key: "token") == Data("kept".utf8))
        #expect(try await storage.read(key: "key") == nil)
        try await storage.delete(key: "token")
        #expect(try await storage.read(key: "token") == nil)
    }
}
