import Crypto
import Foundation
import KeywayJOSE

/// How PowerAuth secrets are kept at rest: private keys and the application secret sealed with
/// the server's ``SecretBox`` (each under a purpose naming what it is and whose), activation codes,
/// OTPs, recovery codes and PUKs as HMAC-SHA256 under a server key, compared in constant time.
struct PowerAuthSecrets: Sendable {
    let box: SecretBox
    private let hashKey: SymmetricKey

    init(box: SecretBox, hashKey: SymmetricKey) {
        self.box = box
        self.hashKey = hashKey
    }

    /// `HMAC-SHA256(key, "pa:v1:" purpose ":" value)`, hex.
    func hash(_ value: String, purpose: String) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Data("pa:v1:\(purpose):\(value)".utf8), using: hashKey))
    }

    /// Whether `value` hashes to `stored`, in constant time.
    func matches(_ value: String, purpose: String, stored: String) -> Bool {
        ConstantTime.equals(hash(value, purpose: purpose), stored)
    }

    func seal(_ privateKey: P256.KeyAgreement.PrivateKey, purpose: String) throws -> String {
        try box.seal(Array(privateKey.rawRepresentation), purpose: purpose)
    }

    func openKey(_ sealed: String, purpose: String) throws -> P256.KeyAgreement.PrivateKey {
        try P256.KeyAgreement.PrivateKey(rawRepresentation: try box.open(sealed, purpose: purpose))
    }

    func seal(text: String, purpose: String) throws -> String {
        try box.seal(Array(text.utf8), purpose: purpose)
    }

    func openText(_ sealed: String, purpose: String) throws -> String {
        String(decoding: try box.open(sealed, purpose: purpose), as: UTF8.self)
    }

    /// Sealing purposes.
    enum Purpose {
        static func masterKey(_ applicationId: String) -> String { "powerauth-master-key:\(applicationId)" }
        static func applicationSecret(_ applicationId: String) -> String { "powerauth-app-secret:\(applicationId)" }
        static func serverKey(_ activationId: String) -> String { "powerauth-server-key:\(activationId)" }
        static func temporaryKey(_ keyId: String) -> String { "powerauth-temporary-key:\(keyId)" }
    }
}
