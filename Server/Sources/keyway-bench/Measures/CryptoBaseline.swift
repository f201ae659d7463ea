import Crypto
import Foundation

/// The raw rate of ES256 (P-256 ECDSA with SHA-256) signing and verification with swift-crypto on
/// the current core: the physical limit the token endpoint is compared with.
struct CryptoBaseline: Codable, Sendable {
    var signsPerSecond: Double
    var verifiesPerSecond: Double

    /// Signs and verifies a JWT-sized input for `seconds` each.
    static func measure(seconds: Double) throws -> CryptoBaseline {
        let key = P256.Signing.PrivateKey()
        // About the size of a Keyway ID token's signing input.
        let input = Data(repeating: 0x61, count: 560)
        let signature = try key.signature(for: input)
        let signs = try rate(seconds: seconds) { _ = try key.signature(for: input) }
        let verifies = try rate(seconds: seconds) {
            guard key.publicKey.isValidSignature(signature, for: input) else { throw BenchFailure("verify failed") }
        }
        return CryptoBaseline(signsPerSecond: signs, verifiesPerSecond: verifies)
    }

    private static func rate(seconds: Double, _ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        // Warm up.
        for _ in 0..<200 { try body() }
        var count = 0
        let start = clock.now
        let end = start + .milliseconds(Int64(seconds * 1000))
        while clock.now < end {
            for _ in 0..<100 { try body() }
            count += 100
        }
        let elapsed = start.duration(to: clock.now)
        return Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
