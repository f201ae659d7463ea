import Crypto
import Foundation

/// The activation's recovery code at rest: AES-GCM under `KDF_INTERNAL(KEY_ENCRYPTION_VAULT,
/// "keyway.activation.recovery")` with the activation ID as associated data. The vault key
/// exists on the device only during the key exchange and after a vault unlock, so the code is
/// never readable from storage alone.
enum RecoverySeal {
    /// What is sealed.
    struct Contents: Codable, Sendable {
        var recoveryCode: String
        var puk: String
    }

    /// The sealing key of a vault key (distinct from every `KDF(KEY_ENCRYPTION_VAULT, index)`
    /// handed to the app).
    static func key(vaultKey: SymmetricKey) -> SymmetricKey {
        PowerAuthKDF.deriveInternal(key: vaultKey, data: Data("keyway.activation.recovery".utf8))
    }

    static func seal(_ contents: Contents, vaultKey: SymmetricKey, activationID: String) throws(ActivationError) -> Data {
        do {
            let plaintext = try JSONEncoder().encode(contents)
            let box = try AES.GCM.seal(plaintext, using: key(vaultKey: vaultKey), authenticating: Data(activationID.utf8))
            guard let combined = box.combined else { throw ActivationError.storage(.unavailable("The recovery code cannot be sealed.")) }
            return combined
        } catch {
            throw .storage(.unavailable("The recovery code cannot be sealed."))
        }
    }

    static func open(_ sealed: Data, vaultKey: SymmetricKey, activationID: String) throws(ActivationError) -> Contents {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            let plaintext = try AES.GCM.open(box, using: key(vaultKey: vaultKey), authenticating: Data(activationID.utf8))
            return try JSONDecoder().decode(Contents.self, from: plaintext)
        } catch {
            throw .storage(.unreadable("The stored recovery code does not open with the vault key."))
        }
    }
}
