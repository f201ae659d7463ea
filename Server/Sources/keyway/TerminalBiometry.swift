import Foundation
import Keyway
import KeywayPowerAuthClient

/// The CLI's stand-in for biometry, which a terminal does not have: the biometry factor's key is
/// kept in the activation's encrypted storage, and the "biometric check" is the user confirming
/// at the terminal (`y`). It lets the biometry factor be tried from the command line; it protects
/// the key no better than the storage does.
struct TerminalBiometry: Biometry {
    let storage: any SecureStorage
    let terminal: Terminal

    func availability() async -> BiometryAvailability { .available(.software) }

    func storeKey(_ key: Data, account: String) async throws(BiometryError) {
        do {
            try await storage.write(key: account, data: key)
        } catch {
            throw .system(error.description)
        }
    }

    func readKey(account: String, reason: String) async throws(BiometryError) -> Data {
        guard let answer = terminal.ask("\(reason) — confirm with y: "), ["y", "yes"].contains(answer.lowercased()) else {
            throw .notAuthenticated
        }
        let key: Data?
        do {
            key = try await storage.read(key: account)
        } catch {
            throw .system(error.description)
        }
        guard let key else { throw .keyMissing }
        return key
    }

    func deleteKey(account: String) async throws(BiometryError) {
        do {
            try await storage.delete(key: account)
        } catch {
            throw .system(error.description)
        }
    }
}
