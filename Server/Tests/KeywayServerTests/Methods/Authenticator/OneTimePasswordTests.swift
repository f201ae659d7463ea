import Foundation
import Testing

@testable import KeywayServer

@Suite("HOTP (RFC 4226) and TOTP (RFC 6238)")
struct OneTimePasswordTests {
    static let sha1Seed = Array("12345678901234567890".utf8)
    static let sha256Seed = Array("12345678901234567890123456789012".utf8)
    static let sha512Seed = Array("1234567890123456789012345678901234567890123456789012345678901234".utf8)

    @Test func hotpMatchesRFC4226AppendixD() {
        let expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"]
        let otp = OneTimePassword(secret: Self.sha1Seed)
        for (counter, value) in expected.enumerated() {
            #expect(otp.hotp(counter: UInt64(counter)) == value, "counter \(counter)")
        }
    }

    /// RFC 6238 Appendix B: 8 digits, 30-second steps, T0 = 0.
    @Test(arguments: [
        (59.0, "94287082", "46119246", "90693936"),
        (1_111_111_109.0, "07081804", "68084774", "25091201"),
        (1_111_111_111.0, "14050471", "67062674", "99943326"),
        (1_234_567_890.0, "89005924", "91819424", "93441116"),
        (2_000_000_000.0, "69279037", "90698825", "38618901"),
        (20_000_000_000.0, "65353130", "77737706", "47863826"),
    ])
    func totpMatchesRFC6238AppendixB(time: Double, sha1: String, sha256: String, sha512: String) {
        let at = Date(timeIntervalSince1970: time)
        #expect(OneTimePassword(secret: Self.sha1Seed, algorithm: .sha1, digits: 8).totp(at: at) == sha1)
        #expect(OneTimePassword(secret: Self.sha256Seed, algorithm: .sha256, digits: 8).totp(at: at) == sha256)
        #expect(OneTimePassword(secret: Self.sha512Seed, algorithm: .sha512, digits: 8).totp(at: at) == sha512)
    }

    @Test func verificationAcceptsOneStepEitherSideAndNeverTheSameStepTwice() {
        let otp = OneTimePassword(secret: Self.sha1Seed)
        let now = Date(timeIntervalSince1970: 1_234_567_890)
        let step = otp.step(at: now)
        #expect(otp.verify(otp.hotp(counter: step), at: now) == step)
        #expect(otp.verify(otp.hotp(counter: step - 1), at: now) == step - 1)
        #expect(otp.verify(otp.hotp(counter: step + 1), at: now) == step + 1)
        #expect(otp.verify(otp.hotp(counter: step - 2), at: now) == nil)
        #expect(otp.verify(otp.hotp(counter: step + 2), at: now) == nil)
        // Replay: a step at or before the last accepted one is refused.
        #expect(otp.verify(otp.hotp(counter: step), at: now, usedUpTo: step) == nil)
        #expect(otp.verify(otp.hotp(counter: step - 1), at: now, usedUpTo: step) == nil)
        #expect(otp.verify(otp.hotp(counter: step + 1), at: now, usedUpTo: step) == step + 1)
        // Malformed codes.
        for bad in ["", "12345", "1234567", "12345a", "１２３４５６"] { #expect(otp.verify(bad, at: now) == nil) }
    }

    @Test func provisioningURIFollowsTheKeyUriFormat() {
        let otp = OneTimePassword(secret: Self.sha1Seed)
        let uri = otp.provisioningURI(issuer: "Acme Shop", account: "ada@example.com")
        #expect(uri == "otpauth://totp/Acme%20Shop:ada@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Acme%20Shop&algorithm=SHA1&digits=6&period=30")
        #expect(OneTimePassword.newSecret().count == 20)
        #expect(OneTimePassword.newSecret() != OneTimePassword.newSecret())
    }
}
