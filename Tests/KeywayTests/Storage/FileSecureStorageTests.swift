import Crypto
import Foundation
import Keyway
import KeywayProtocol
import Testing

@Suite("File secure storage")
struct FileSecureStorageTests {
    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("keyway-storage-\(UUID().uuidString)")
    }

    @Test func roundTripsAndPersistsAcrossInstances() async throws {
        let directory = temporaryDirectory()
        let keyFile = directory.appendingPathComponent("storage.key")
        let first = try FileSecureStorage(directory: directory, namespace: "com.example.app", keySource: .keyFile(keyFile))
        #expect(try await first.read(key: "a") == nil)
        try await first.write(key: "a", data: Data("secret one".utf8))
        try await first.write(key: "b", data: Data([0, 1, 2]))
        try await first.delete(key: "b")
        try await first.delete(key: "missing")

        let second = try FileSecureStorage(directory: directory, namespace: "com.example.app", keySource: .keyFile(keyFile))
        #expect(try await second.read(key: "a") == Data("secret one".utf8))
        #expect(try await second.read(key: "b") == nil)

        // Encrypted at rest, no temporary files left, key file private.
        let raw = try Data(contentsOf: second.fileURL)
        #expect(raw.prefix(4) == Data("KWS1".utf8))
        #expect(!String(decoding: raw, as: UTF8.self).contains("secret one"))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(Set(names) == ["storage.key", "com.example.app.kwstore", "com.example.app.lock"])
        let keyMode = try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        let fileMode = try FileManager.default.attributesOfItem(atPath: second.fileURL.path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
    }

    @Test func namespacesAreSeparateFiles() async throws {
        let directory = temporaryDirectory()
        let key = SymmetricKey(size: .bits256)
        let one = try FileSecureStorage(directory: directory, namespace: "app-one", keySource: .key(key, version: 1))
        let two = try FileSecureStorage(directory: directory, namespace: "app-two", keySource: .key(key, version: 1))
        try await one.write(key: "token", data: Data("1".utf8))
        #expect(try await two.read(key: "token") == nil)
    }

    @Test func aWrongKeyFailsClosedAndChangesNothing() async throws {
        let directory = temporaryDirectory()
        let right = try FileSecureStorage(
            directory: directory, namespace: "ns", keySource: .key(SymmetricKey(size: .bits256), version: 1))
        try await right.write(key: "token", data: Data("keep me".utf8))
        let before = try Data(contentsOf: right.fileURL)

        let wrong = try FileSecureStorage(
            directory: directory, namespace: "ns", keySource: .key(SymmetricKey(size: .bits256), version: 1))
        await #expect(throws: SecureStorageError.self) { _ = try await wrong.read(key: "token") }
        await #expect(throws: SecureStorageError.self) { try await wrong.write(key: "token", data: Data("x".utf8)) }
        #expect(try Data(contentsOf: right.fileURL) == before)
    }

    @Test func aRotatedKeyVersionIsReported() async throws {
        let directory = temporaryDirectory()
        let key = SymmetricKey(size: .bits256)
        try await FileSecureStorage(directory: directory, namespace: "ns", keySource: .key(key, version: 1))
            .write(key: "k", data: Data("v".utf8))
        let rotated = try FileSecureStorage(directory: directory, namespace: "ns", keySource: .key(key, version: 2))
        await #expect(throws: SecureStorageError.unreadable("ns.kwstore was written with key version 1; this key is version 2.")) {
            _ = try await rotated.read(key: "k")
        }
    }

    @Test func damagedFilesAndBadInputAreRefused() async throws {
        let directory = temporaryDirectory()
        let key = SymmetricKey(size: .bits256)
        let storage = try FileSecureStorage(directory: directory, namespace: "ns", keySource: .key(key, version: 1))
        try await storage.write(key: "k", data: Data("v".utf8))
        var bytes = try Data(contentsOf: storage.fileURL)
        bytes[bytes.count - 1] ^= 0xFF
        try bytes.write(to: storage.fileURL)
        await #expect(throws: SecureStorageError.self) { _ = try await storage.read(key: "k") }

        #expect(throws: SecureStorageError.self) {
            _ = try FileSecureStorage(directory: directory, namespace: "../escape", keySource: .key(key, version: 1))
        }
        #expect(throws: SecureStorageError.self) {
            _ = try FileSecureStorage(directory: directory, namespace: "", keySource: .key(key, version: 1))
        }
        let shortKey = try FileSecureStorage(
            directory: directory, namespace: "short", keySource: .key(SymmetricKey(size: .bits128), version: 1))
        await #expect(throws: SecureStorageError.self) { try await shortKey.write(key: "k", data: Data()) }
    }

    @Test func anOpenKeyFileIsRefused() async throws {
        let directory = temporaryDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let keyFile = directory.appendingPathComponent("open.key")
        try Data(repeating: 7, count: 32).write(to: keyFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
        let storage = try FileSecureStorage(directory: directory, namespace: "ns", keySource: .keyFile(keyFile))
        await #expect(throws: SecureStorageError.self) { try await storage.write(key: "k", data: Data()) }
    }
}
