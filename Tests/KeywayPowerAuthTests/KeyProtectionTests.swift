import Crypto
import Foundation
import KeywayPowerAuth
import Testing

// No published vectors cover these; the expected values were computed independently (Python's
// hashlib.pbkdf2_hmac and the cryptography package's AES-CBC).
@Suite("Knowledge key and vault")
struct KeyProtectionTests {
    let salt = Data(0..<16)

    @Test func passwordKeyIsPBKDF2WithHMACSHA1() throws {
        let key = try PowerAuthKeyProtection.passwordKey(password: "1234", salt: salt)
        #expect(key.bytes.base64EncodedString() == "nH1TZDfncjlrXtLrYnEI9Q==")
    }

    @Test func knowledgeKeyWrapping() throws {
        let knowledge = SymmetricKey(data: Data(100..<116))
        let wrapped = try PowerAuthKeyProtection.encryptKnowledgeKey(knowledge, password: "1234", salt: salt)
        #expect(wrapped.base64EncodedString() == "YV1F0e48AJ633tFRMgEE8w==")
        #expect(try PowerAuthKeyProtection.decryptKnowledgeKey(wrapped, password: "1234", salt: salt).bytes == knowledge.bytes)
        // A wrong PIN decrypts without error to another key.
        let wrong = try PowerAuthKeyProtection.decryptKnowledgeKey(wrapped, password: "1235", salt: salt)
        #expect(wrong.bytes != knowledge.bytes)
        #expect(throws: PowerAuthError.invalidLength(field: "encrypted knowledge key", expected: "16", actual: 15)) {
            try PowerAuthKeyProtection.decryptKnowledgeKey(Data(count: 15), password: "1234", salt: salt)
        }
        #expect(throws: PowerAuthError.invalidLength(field: "salt", expected: "at least 1", actual: 0)) {
            try PowerAuthKeyProtection.passwordKey(password: "1234", salt: Data())
        }
    }

    @Test func vault() throws {
        let vaultKey = SymmetricKey(data: Data(200..<216))
        let device = try P256.KeyAgreement.PrivateKey(rawRepresentation: Data(1...32))
        let encrypted = try PowerAuthKeyProtection.encryptDevicePrivateKey(device, vaultKey: vaultKey)
        #expect(encrypted.base64EncodedString() == "6rLfytGy/ILvGkq8DTpA1qroHjwdK134oKjAUsXXn8wT3zxIbW986icLJZyvCrX1")
        let decrypted = try PowerAuthKeyProtection.decryptDevicePrivateKey(encrypted, vaultKey: vaultKey)
        #expect(decrypted.rawRepresentation == device.rawRepresentation)
        #expect(throws: PowerAuthError.decryptionFailed) {
            try PowerAuthKeyProtection.decryptDevicePrivateKey(Data(count: 15), vaultKey: vaultKey)
        }
        #expect(throws: PowerAuthError.invalidLength(field: "vault key", expected: "16", actual: 32)) {
            try PowerAuthKeyProtection.decryptDevicePrivateKey(encrypted, vaultKey: SymmetricKey(size: .bits256))
        }
    }
}
