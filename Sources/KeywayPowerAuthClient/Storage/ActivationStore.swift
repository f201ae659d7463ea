import Foundation

/// The activation's entries in a ``SecureStorage``, under names of their own per app and
/// configuration: `keyway.activation.APP.CONFIG_ID.record`. The biometry key's account is
/// `keyway.activation.APP.CONFIG_ID.ACTIVATION_ID.biometry`.
struct ActivationStore: Sendable {
    let storage: any SecureStorage
    /// `keyway.activation.APP.CONFIG_ID`.
    let namespace: String

    init(storage: any SecureStorage, appIdentifier: String, configID: String) {
        self.storage = storage
        self.namespace = Self.namespace(appIdentifier: appIdentifier, configID: configID)
    }

    /// The prefix of every entry of one app and configuration.
    static func namespace(appIdentifier: String, configID: String) -> String {
        "keyway.activation.\(appIdentifier).\(configID)"
    }

    var recordKey: String { namespace + ".record" }

    /// The tokens' entry: `keyway.activation.APP.CONFIG_ID.tokens`.
    var tokensKey: String { namespace + ".tokens" }

    func biometryAccount(activationID: String) -> String { namespace + ".\(activationID).biometry" }

    func read() async throws(ActivationError) -> ActivationRecord? {
        let data: Data?
        do {
            data = try await storage.read(key: recordKey)
        } catch {
            throw .storage(error)
        }
        guard let data else { return nil }
        do {
            return try JSONDecoder().decode(ActivationRecord.self, from: data)
        } catch {
            throw .storage(.unreadable("The activation entry \(recordKey) cannot be decoded."))
        }
    }

    func write(_ record: ActivationRecord) async throws(ActivationError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data: Data
        do {
            data = try encoder.encode(record)
        } catch {
            throw .storage(.unavailable("The activation entry cannot be encoded."))
        }
        do {
            try await storage.write(key: recordKey, data: data)
        } catch {
            throw .storage(error)
        }
    }

    func delete() async throws(ActivationError) {
        do {
            try await storage.delete(key: recordKey)
        } catch {
            throw .storage(error)
        }
    }

    func readTokens() async throws(ActivationError) -> StoredTokens? {
        let data: Data?
        do {
            data = try await storage.read(key: tokensKey)
        } catch {
            throw .storage(error)
        }
        guard let data else { return nil }
        do {
            return try JSONDecoder().decode(StoredTokens.self, from: data)
        } catch {
            throw .storage(.unreadable("The tokens entry \(tokensKey) cannot be decoded."))
        }
    }

    func writeTokens(_ tokens: StoredTokens) async throws(ActivationError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            try await storage.write(key: tokensKey, data: try encoder.encode(tokens))
        } catch let error as SecureStorageError {
            throw .storage(error)
        } catch {
            throw .storage(.unavailable("The tokens entry cannot be encoded."))
        }
    }

    func deleteTokens() async throws(ActivationError) {
        do {
            try await storage.delete(key: tokensKey)
        } catch {
            throw .storage(error)
        }
    }
}
