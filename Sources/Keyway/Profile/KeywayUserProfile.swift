import Crypto
import Foundation
import KeywayProtocol

/// Failures of ``KeywayUserProfile`` beyond those of the session and the server.
public enum UserProfileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An encrypted field holds a value, but this device has no key for it (the user's key was
    /// never imported here, or was deleted). Nothing is guessed or overwritten.
    case encryptionKeyMissing(field: String)
    /// The key this device holds does not open the field's value.
    case encryptionKeyMismatch(field: String)
    /// The project's profile schema has no such field.
    case unknownField(String)
    /// An encrypted field only holds strings.
    case encryptedFieldNeedsString(String)

    /// A sentence saying what went wrong, naming the field.
    public var description: String {
        switch self {
        case .encryptionKeyMissing(let field):
            "The profile field \(field) is encrypted, and this device has no key for it. Import the user's profile key."
        case .encryptionKeyMismatch(let field):
            "The profile field \(field) does not open with this device's key."
        case .unknownField(let field): "The profile schema has no field \(field)."
        case .encryptedFieldNeedsString(let field): "The encrypted profile field \(field) only holds strings."
        }
    }
}

/// The signed-in user's profile, read and written through the session's access token. Fields
/// the project's schema marks `encrypted` are sealed on the device (AES-256-GCM, a compact JWE)
/// with a per-user key kept in the session's ``SecureStorage`` before they leave it, and opened
/// on read; the server only ever stores ciphertext.
///
/// ```swift
/// let profile = try await session.user.get()
/// try await session.user.set(field: "taxId", value: .string("DE-123"))   // encrypted if the schema says so
/// ```
public struct KeywayUserProfile: Sendable {
    let session: KeywaySession
    let keyway: SessionClient

    /// The profile, encrypted fields opened.
    ///
    /// - Returns: The profile's fields, by name.
    /// - Throws: The ``SessionError`` of the access token; the ``KeywayError`` of reading the
    ///   profile; ``UserProfileError/encryptionKeyMissing(field:)`` or
    ///   ``UserProfileError/encryptionKeyMismatch(field:)`` for an encrypted field this device cannot
    ///   open; ``KeywayError/storageUnavailable(_:)`` when the profile key cannot be read or is
    ///   damaged.
    public func get() async throws -> [String: ProfileValue] {
        let (document, account) = try await read()
        return try await open(document, account: account)
    }

    /// One field, opened if encrypted; `nil` when it has no value.
    ///
    /// - Parameter field: The field's name.
    /// - Returns: The field's value, or `nil`.
    /// - Throws: ``UserProfileError/unknownField(_:)`` for a field the schema does not have, and
    ///   what ``get()`` throws.
    public func get(field: String) async throws -> ProfileValue? {
        let (document, account) = try await read()
        guard document.schema.contains(where: { $0.name == field }) else { throw UserProfileError.unknownField(field) }
        return try await open(document, account: account, only: field)[field]
    }

    /// Applies changes (a `nil` value removes the field), sealing encrypted fields first, and
    /// returns the saved profile, opened. The server validates the whole update: when it refuses
    /// any field (``KeywayError/problem(_:)`` with `invalidFields`), nothing is saved.
    ///
    /// - Parameter changes: The fields to set, by name; a `nil` value removes the field.
    /// - Returns: The saved profile, encrypted fields opened.
    /// - Throws: ``UserProfileError/unknownField(_:)`` for a field the schema does not have;
    ///   ``UserProfileError/encryptedFieldNeedsString(_:)`` for a value of an encrypted field that
    ///   is not a string; ``UserProfileError/encryptionKeyMissing(field:)`` when encrypted values
    ///   exist but this device has no key; ``KeywayError/problem(_:)`` with `invalidFields` when the
    ///   server refuses a field; and what ``get()`` throws.
    @discardableResult
    public func set(_ changes: [String: ProfileValue?]) async throws -> [String: ProfileValue] {
        let (document, account) = try await read()
        let encrypted = Set(document.schema.filter(\.encrypted).map(\.name))
        for name in changes.keys where !document.schema.contains(where: { $0.name == name }) {
            throw UserProfileError.unknownField(name)
        }
        var sealedChanges = changes
        if changes.contains(where: { encrypted.contains($0.key) && $0.value != nil }) {
            let cipher = try await cipher(account: account, creatingFor: document, encrypted: encrypted)
            for (name, value) in changes where encrypted.contains(name) {
                guard let value else { continue }
                guard case .string(let plaintext) = value else { throw UserProfileError.encryptedFieldNeedsString(name) }
                sealedChanges[name] = .string(try cipher.seal(plaintext))
            }
        }
        guard let token = try await session.accessToken() else { throw SessionError.noAccessTokenPresent }
        let saved = try await keyway.updateProfile(accessToken: token, changes: sealedChanges)
        return try await open(saved, account: account)
    }

    /// Sets one field (`nil` removes it).
    ///
    /// - Parameters:
    ///   - field: The field's name.
    ///   - value: The new value, or `nil` to remove it.
    /// - Throws: What ``set(_:)`` throws.
    public func set(field: String, value: ProfileValue?) async throws {
        try await set([field: value])
    }

    /// The user's profile key, to move to another device of theirs (through a channel you trust);
    /// `nil` when this device has none.
    ///
    /// - Returns: The 256-bit key, or `nil`.
    /// - Throws: ``SessionError/noAccessTokenPresent`` when no one is signed in, another
    ///   ``SessionError`` when the account list cannot be read, and
    ///   ``KeywayError/storageUnavailable(_:)`` when the key cannot be read or is damaged.
    public func exportEncryptionKey() async throws -> SymmetricKey? {
        guard let account = try await session.currentAccount() else { throw SessionError.noAccessTokenPresent }
        return try await storedKey(account: account)
    }

    /// Installs the user's profile key on this device (256 bits), replacing any other.
    ///
    /// - Parameter key: The user's profile key, 256 bits.
    /// - Throws: ``KeywayError/invalidConfiguration(_:)`` for a key of another size;
    ///   ``SessionError/noAccessTokenPresent`` when no one is signed in, another ``SessionError``
    ///   when the account list cannot be read; ``KeywayError/storageUnavailable(_:)`` when the key
    ///   cannot be written.
    public func importEncryptionKey(_ key: SymmetricKey) async throws {
        guard key.bitCount == 256 else { throw KeywayError.invalidConfiguration("A profile key must be 256 bits.") }
        guard let account = try await session.currentAccount() else { throw SessionError.noAccessTokenPresent }
        let data = key.withUnsafeBytes { Data($0) }
        do {
            try await session.storage.write(key: session.profileKeyStorageKey(account: account), data: data)
        } catch {
            throw KeywayError.storageUnavailable(error.description)
        }
    }

    // MARK: Internals

    private func read() async throws -> (UserProfileDocument, String) {
        guard let token = try await session.accessToken() else { throw SessionError.noAccessTokenPresent }
        let document = try await keyway.tokenClient.profile(accessToken: token)
        return (document, document.subject)
    }

    private func open(_ document: UserProfileDocument, account: String, only field: String? = nil) async throws
        -> [String: ProfileValue]
    {
        let encrypted = Set(document.schema.filter(\.encrypted).map(\.name))
        var profile = document.profile
        var cipher: ProfileCipher?
        for (name, value) in document.profile where encrypted.contains(name) && (field == nil || field == name) {
            guard case .string(let sealed) = value else { throw UserProfileError.encryptionKeyMismatch(field: name) }
            if cipher == nil {
                guard let key = try await storedKey(account: account) else {
                    throw UserProfileError.encryptionKeyMissing(field: name)
                }
                cipher = try ProfileCipher(key: key)
            }
            do {
                profile[name] = .string(try cipher!.open(sealed))
            } catch {
                throw UserProfileError.encryptionKeyMismatch(field: name)
            }
        }
        await session.remember(profile: profile, account: account)
        return profile
    }

    /// The user's cipher; a key is created only while no encrypted value exists yet, so a device
    /// without the key never seals new values under a key other devices cannot open.
    private func cipher(account: String, creatingFor document: UserProfileDocument, encrypted: Set<String>)
        async throws -> ProfileCipher
    {
        if let key = try await storedKey(account: account) { return try ProfileCipher(key: key) }
        if let existing = document.profile.keys.first(where: encrypted.contains) {
            throw UserProfileError.encryptionKeyMissing(field: existing)
        }
        let key = SymmetricKey(size: .bits256)
        try await importEncryptionKey(key)
        return try ProfileCipher(key: key)
    }

    private func storedKey(account: String) async throws -> SymmetricKey? {
        let data: Data?
        do {
            data = try await session.storage.read(key: session.profileKeyStorageKey(account: account))
        } catch {
            throw KeywayError.storageUnavailable(error.description)
        }
        guard let data else { return nil }
        guard data.count == 32 else { throw KeywayError.storageUnavailable("The stored profile key is damaged.") }
        return SymmetricKey(data: data)
    }
}
