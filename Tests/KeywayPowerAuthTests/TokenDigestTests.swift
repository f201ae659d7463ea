import Crypto
import Foundation
import KeywayPowerAuth
import Testing

// No published vectors cover the token digest; the expected values were computed independently
// (Python's hmac module).
@Suite("MAC token digest")
struct TokenDigestTests {
    let secret = SymmetricKey(data: Data(0..<16))
    let nonce = Data(16..<32)
    let timestamp: UInt64 = 1_749_762_303_600

    @Test func digestCoversTheVersionFrom32() throws {
        let v33 = try PowerAuthTokenDigest.compute(tokenSecret: secret, nonce: nonce, timestamp: timestamp, version: .v33)
        #expect(v33.base64EncodedString() == "Uv2U8ZjyFHjel9eYEL1WhUwIqtBBzPbrpkYA9YyrgNI=")
        let v31 = try PowerAuthTokenDigest.compute(tokenSecret: secret, nonce: nonce, timestamp: timestamp, version: .v31)
        #expect(v31.base64EncodedString() == "EfjQmuFAsiDfcsYXeZmhfg7Lqo7dbDWX5afVADPX4Oo=")
        #expect(try PowerAuthTokenDigest.compute(tokenSecret: secret, nonce: nonce, timestamp: timestamp, version: .v30) == v31)
        #expect(try PowerAuthTokenDigest.compute(tokenSecret: secret, nonce: nonce, timestamp: timestamp, version: .v32) != v33)
    }

    @Test func verification() throws {
        let digest = try PowerAuthTokenDigest.compute(tokenSecret: secret, nonce: nonce, timestamp: timestamp, version: .v33)
        #expect(try PowerAuthTokenDigest.isValid(digest, tokenSecret: secret, nonce: nonce, timestamp: timestamp, version: .v33))
        #expect(try !PowerAuthTokenDigest.isValid(digest, tokenSecret: secret, nonce: nonce, timestamp: timestamp + 1, version: .v33))
        #expect(try !PowerAuthTokenDigest.isValid(digest.prefix(16), tokenSecret: secret, nonce: nonce, timestamp: timestamp, version: .v33))
        #expect(throws: PowerAuthError.invalidLength(field: "token nonce", expected: "16", actual: 4)) {
            try PowerAuthTokenDigest.compute(tokenSecret: secret, nonce: Data(count: 4), timestamp: timestamp, version: .v33)
        }
    }
}
