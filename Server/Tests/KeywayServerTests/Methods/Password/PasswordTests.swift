import Foundation
import KeywayJOSE
import KeywayPasswords
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Password hashing")
struct PasswordHasherTests {
    /// A cheap cost, so the suite stays fast; the format and logic are the same.
    let hasher = PasswordHasher(parameters: .init(logN: 10, r: 8, p: 1))

    /// RFC 7914 §12 (the fourth vector, N = 2^20, is left out for its gigabyte of memory).
    @Test(arguments: [
        (
            "", "", 4, 1, 1,
            "77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906"
        ),
        (
            "password", "NaCl", 10, 8, 16,
            "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
        ),
        (
            "pleaseletmein", "SodiumChloride", 14, 8, 1,
            "7023bdcb3afd7348461c06cd81fd38ebfda8fbba904f8e3ea9b543f6545da1f2d5432955613f0fcf62d49705242a9af9e61e85dc0d651e40dfcf017b45575887"
        ),
    ])
    func rfc7914Vectors(password: String, salt: String, logN: Int, r: Int, p: Int, expected: String) throws {
        let derived = try PasswordHasher.rawDerive(
            Array(password.utf8), salt: Array(salt.utf8), parameters: .init(logN: logN, r: r, p: p), length: 64)
        #expect(Hex.encode(derived) == expected)
    }

    @Test func roundTrip() async throws {
        let stored = try await hasher.hash("correct horse battery staple")
        #expect(stored.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        let parts = stored.split(separator: "$")
        #expect(parts.count == 4)
        #expect(Data(base64Encoded: String(parts[2]) + "==")?.count == 16)
        #expect(Data(base64Encoded: String(parts[3]) + "=")?.count == 32)
        #expect(try await hasher.verify("correct horse battery staple", against: stored) == .init(matches: true, needsRehash: false))
        // A fresh salt every time.
        #expect(try await hasher.hash("correct horse battery staple") != stored)
    }

    @Test func wrongPasswordDoesNotMatch() async throws {
        let stored = try await hasher.hash("correct horse battery staple")
        #expect(try await hasher.verify("correct horse battery stapler", against: stored).matches == false)
        #expect(try await hasher.verify("", against: stored).matches == false)
    }

    @Test func composedAndDecomposedAccentsAreOnePassword() async throws {
        let stored = try await hasher.hash(Sensitive("caf\u{E9} au lait"))
        #expect(try await hasher.verify(Sensitive("cafe\u{301} au lait"), against: stored).matches)
    }

    @Test func tamperedStringsAreRefusedOrDoNotMatch() async throws {
        let stored = try await hasher.hash("correct horse battery staple")
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false).map(String.init)
        // Another hash under the same salt.
        var hash = Array(Data(base64Encoded: parts[4] + "=")!)
        hash[0] ^= 1
        let flipped = "$scrypt$\(parts[2])$\(parts[3])$\(PasswordHasher.encode(hash))"
        #expect(try await hasher.verify("correct horse battery staple", against: flipped).matches == false)
        // Other parameters derive another hash.
        let otherCost = stored.replacingOccurrences(of: "ln=10", with: "ln=11")
        #expect(try await hasher.verify("correct horse battery staple", against: otherCost).matches == false)
        for malformed in [
            "", "scrypt", "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA", stored.replacingOccurrences(of: "ln=10", with: "ln=40"),
            stored.replacingOccurrences(of: ",p=1", with: ""), stored + "$extra", "$scrypt$ln=10,r=8,p=1$$\(parts[4])",
            "$scrypt$ln=10,r=8,p=1$\(parts[3])$not*base64",
        ] {
            await #expect(throws: PasswordHasher.MalformedHash.self) {
                _ = try await hasher.verify("correct horse battery staple", against: malformed)
            }
        }
    }

    @Test func weakerStoredParametersNeedARehash() async throws {
        let weak = PasswordHasher(parameters: .init(logN: 8, r: 8, p: 1))
        let stored = try await weak.hash("correct horse battery staple")
        let result = try await hasher.verify("correct horse battery staple", against: stored)
        #expect(result == .init(matches: true, needsRehash: true))
    }

    @Test func dummyVerificationNeverMatches() async throws {
        // The dummy runs the same derivation with the hasher's own parameters (see
        // `PasswordHasher.verifyDummy`), so it costs what a real verification costs; timing it
        // here would only measure how busy the machine is.
        for password in ["correct horse battery staple", "", "guess"] {
            #expect(await hasher.verifyDummy(Sensitive(password)) == false)
        }
    }

    @Test func theDefaultCostIsTheStandard() {
        #expect(PasswordHasher().parameters == .init(logN: 15, r: 8, p: 1))
    }
}

@Suite("Password policy")
struct PasswordPolicyTests {
    let policy = PasswordPolicy()

    func rejection(_ password: String, policy: PasswordPolicy? = nil) -> PasswordRejection.Code? {
        do throws(PasswordRejection) {
            try (policy ?? self.policy).check(Sensitive(password))
            return nil
        } catch {
            return error.code
        }
    }

    @Test func acceptsAGoodPassword() {
        #expect(rejection("violet-otter-sings-42") == nil)
        #expect(rejection(String(repeating: "x", count: 9) + "é") == nil)
        #expect(rejection(String(repeating: "ab1", count: 42) + "cd") == nil)  // 128 characters
    }

    @Test func lengthLimits() {
        #expect(rejection("short-1") == .passwordTooShort)
        #expect(rejection("") == .passwordTooShort)
        #expect(rejection(String(repeating: "ab1", count: 43)) == .passwordTooLong)
        #expect(rejection("seven-7", policy: PasswordPolicy(minimumLength: 6)) == nil)
        // Characters as a person counts them: ten emoji are ten characters.
        #expect(rejection(String(repeating: "👍🏽", count: 10)) == nil)
    }

    @Test func refusesWhitespaceOnly() {
        #expect(rejection(String(repeating: " ", count: 12)) == .passwordBlank)
        #expect(rejection(" \t\n \u{00A0}         ") == .passwordBlank)
    }

    @Test func refusesCommonPasswordsIgnoringCase() {
        #expect(CommonPasswords.all.count == 10_000)
        #expect(rejection("1234567890") == .passwordTooCommon)
        #expect(rejection("qwertyuiop") == .passwordTooCommon)
        #expect(rejection("QwertyUIOP") == .passwordTooCommon)
        #expect(rejection("1q2w3e4r5t") == .passwordTooCommon)
        #expect(CommonPasswords.contains("password"))
        #expect(!CommonPasswords.contains("violet-otter-sings-42"))
    }

    @Test func rejectionsHaveStableCodesAndSentences() {
        #expect(PasswordRejection.tooShort(minimum: 10).code.rawValue == "password_too_short")
        #expect(PasswordRejection.tooShort(minimum: 10).message == "Choose a password of at least 10 characters.")
        #expect(PasswordRejection.tooLong(maximum: 128).code.rawValue == "password_too_long")
        #expect(PasswordRejection.tooCommon.code.rawValue == "password_too_common")
        #expect(PasswordRejection.blank.code.rawValue == "password_blank")
    }
}
