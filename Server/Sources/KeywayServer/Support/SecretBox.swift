import Crypto
import Foundation
import KeywayJOSE

/// Seals secrets kept at rest (authenticator secrets) with AES-GCM under a server key: the stored
/// form is `v1.` and the base64url of nonce ‖ ciphertext ‖ tag, bound to a purpose string.
struct SecretBox: Sendable {
    private let key: SymmetricKey

    init(key: SymmetricKey) {
        self.key = key
    }

    struct OpenFailure: Error {}

    func seal(_ secret: [UInt8], purpose: String) throws -> String {
        let box = try AES.GCM.seal(secret, using: key, authenticating: Data(purpose.utf8))
        guard let combined = box.combined else { throw OpenFailure() }
        return "v1." + Base64URL.encode(Array(combined))
    }

    func open(_ sealed: String, purpose: String) throws -> [UInt8] {
        guard sealed.hasPrefix("v1."), let bytes = Base64URL.decode(String(sealed.dropFirst(3))) else {
            throw OpenFailure()
        }
        let box = try AES.GCM.SealedBox(combined: Data(bytes))
        return Array(try AES.GCM.open(box, using: key, authenticating: Data(purpose.utf8)))
    }
}
