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

    private static func message(code: String, flowId: String) -> [UInt8] {
        Array("otp:v1:\(flowId):\(code)".utf8)
    }
}
