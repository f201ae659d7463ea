import Crypto
import Foundation
import KeywayJOSE

/// One-time codes: drawn from the CSPRNG, stored only as a keyed hash bound to their flow.
struct OneTimeCodeHasher: Sendable {
    private let key: SymmetricKey

    init(key: SymmetricKey) {
        self.key = key
    }

    /// A fresh code of `digits` digits.
    static func generate(digits: Int) -> String {
        SecureRandom.numericCode(digits: digits)
    }

    /// `HMAC-SHA256(key, "otp:v1:" flowId ":" code)`, hex encoded.
    func hash(code: String, flowId: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(Self.message(code: code, flowId: flowId)), using: key)
        return Hex.encode(mac)
    }

    /// Whether `code` matches `storedHash`, compared in constant time.
    func verify(code: String, flowId: String, storedHash: String) -> Bool {
        ConstantTime.equals(hash(code: code, flowId: flowId), storedHash)
    }

    /// `HMAC-SHA256(key, "link:v1:" token)`, hex encoded: how a sign-in link's token is stored
    /// and looked up (the token alone names its flow, so the hash is not bound to one).
    func hash(linkToken: String) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Data("link:v1:\(linkToken)".utf8), using: key))
    }

    private static func message(code: String, flowId: String) -> [UInt8] {
        Array("otp:v1:\(flowId):\(code)".utf8)
    }
}
