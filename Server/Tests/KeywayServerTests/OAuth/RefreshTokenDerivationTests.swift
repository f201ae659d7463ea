import Crypto
import Foundation
import KeywayJOSE
import Testing

@testable import KeywayServer

@Suite("Refresh token derivation and policy")
struct RefreshTokenDerivationTests {
    @Test func successorsAreHMACOfThePredecessor() {
        let key = SymmetricKey(data: Data(repeating: 9, count: 32))
        let derivation = RefreshTokenDerivation(key: key)
        let root = RefreshTokenDerivation.root()
        #expect(root.hasPrefix("krt_"))
        #expect(root.count == 4 + 43)
        let successor = derivation.successor(of: root)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(root.utf8), using: key)
        #expect(successor == "krt_" + Base64URL.encode(Array(mac)))
        // Deterministic under one key, different under another, and never the predecessor.
        #expect(derivation.successor(of: root) == successor)
        #expect(RefreshTokenDerivation(key: SymmetricKey(size: .bits256)).successor(of: root) != successor)
        #expect(successor != root)
        #expect(derivation.successor(of: successor) != successor)
    }

    @Test func rootsAreRandom() {
        let roots = Set((0..<500).map { _ in RefreshTokenDerivation.root() })
        #expect(roots.count == 500)
    }

    @Test func policyValidation() throws {
        try RefreshTokenPolicy().validate()
        try RefreshTokenPolicy(absoluteLifetime: 60, idleLifetime: 60, reuseGracePeriod: 0).validate()
        #expect(throws: ConfigurationError.self) { try RefreshTokenPolicy(absoluteLifetime: 59).validate() }
        #expect(throws: ConfigurationError.self) {
            try RefreshTokenPolicy(absoluteLifetime: 3600, idleLifetime: 3601).validate()
        }
        #expect(throws: ConfigurationError.self) { try RefreshTokenPolicy(reuseGracePeriod: 60.5).validate() }
    }

    @Test func requestLogLatencyFormatting() {
        #expect(RequestLogMiddleware.milliseconds(0) == "0.00")
        #expect(RequestLogMiddleware.milliseconds(1234) == "1.23")
        #expect(RequestLogMiddleware.milliseconds(1236) == "1.24")
        #expect(RequestLogMiddleware.milliseconds(50) == "0.05")
        #expect(RequestLogMiddleware.milliseconds(120_000) == "120.00")
    }

    @Test func secureRandomBytesHaveTheRequestedLength() {
        for count in [0, 1, 7, 8, 9, 16, 32, 33] {
            #expect(SecureRandom.bytes(count).count == count)
        }
        #expect(Set((0..<100).map { _ in SecureRandom.bytes(16) }).count == 100)
    }
}
