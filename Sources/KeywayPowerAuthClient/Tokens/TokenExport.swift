import Crypto
import Foundation

/// Tokens handed to an app extension or a companion device: AES-GCM under a key both sides
/// share, the application key as associated data, so a blob opens only with that key and only
/// for the same application.
enum TokenExport {
    /// What is sealed.
    struct Contents: Codable, Sendable {
        var format = 1
        var applicationKey: String
        var activationID: String
        var tokens: [String: StoredToken]
    }

    static func associatedData(applicationKey: String) -> Data {
        Data("keyway.activation.tokens.v1 \(applicationKey)".utf8)
    }

    static func seal(_ contents: Contents, key: SymmetricKey) throws(ActivationError) -> Data {
        guard [128, 192, 256].contains(key.bitCount) else {
            throw .invalidTokenExport("the key must be 128, 192 or 256 bits.")
        }
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let box = try AES.GCM.seal(
                try encoder.encode(contents), using: key, authenticating: associatedData(applicationKey: contents.applicationKey))
            guard let combined = box.combined else { throw ActivationError.invalidTokenExport("the tokens cannot be sealed.") }
            return combined
        } catch {
            throw .invalidTokenExport("the tokens cannot be sealed.")
        }
    }

    static func open(_ sealed: Data, key: SymmetricKey, applicationKey: String) throws(ActivationError) -> Contents {
        let contents: Contents
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            let plaintext = try AES.GCM.open(box, using: key, authenticating: associatedData(applicationKey: applicationKey))
            contents = try JSONDecoder().decode(Contents.self, from: plaintext)
        } catch {
            throw .invalidTokenExport("they were sealed under another key or for another application, or changed since.")
        }
        guard contents.format == 1, contents.applicationKey == applicationKey else {
            throw .invalidTokenExport("they are of another application.")
        }
        return contents
    }
}
