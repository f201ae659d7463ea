import Crypto
import Foundation
import Testing

@testable import KeywayServer

@Suite("One-time codes")
struct OneTimeCodeTests {
    let hasher = OneTimeCodeHasher(key: SymmetricKey(data: Data(repeating: 7, count: 32)))

    @Test func codesHaveTheRequestedDigits() {
        for _ in 0..<200 {
            let code = OneTimeCodeHasher.generate(digits: 6)
            #expect(code.count == 6)
            #expect(code.allSatisfy { $0.isNumber })
        }
    }

    @Test func codesAreSpreadOverAllDigits() {
        var seen = Set<Character>()
        for _ in 0..<100 { seen.formUnion(OneTimeCodeHasher.generate(digits: 6)) }
        #expect(seen.count == 10)
    }

    @Test func hashIsKeyedAndBoundToTheFlow() {
        let hash = hasher.hash(code: "123456", flowId: "flw_a")
        #expect(hash.count == 64)
        #expect(!hash.contains("123456"))
        #expect(hasher.verify(code: "123456", flowId: "flw_a", storedHash: hash))
        #expect(!hasher.verify(code: "123457", flowId: "flw_a", storedHash: hash))
        #expect(!hasher.verify(code: "123456", flowId: "flw_b", storedHash: hash))
        let otherKey = OneTimeCodeHasher(key: SymmetricKey(data: Data(repeating: 8, count: 32)))
        #expect(!otherKey.verify(code: "123456", flowId: "flw_a", storedHash: hash))
    }

    @Test func hashMatchesHMACSHA256() {
        let key = SymmetricKey(data: Data(repeating: 7, count: 32))
        let expected = HMAC<SHA256>.authenticationCode(for: Data("otp:v1:flw_a:123456".utf8), using: key)
            .map { String(format: "%02x", $0) }.joined()
        #expect(hasher.hash(code: "123456", flowId: "flw_a") == expected)
    }
}
