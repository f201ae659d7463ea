import Foundation
import KeywayPasswords
@testable import KeywayPowerAuthClient
import Testing

@Suite("Password strength")
struct PasswordStrengthTests {
    @Test(arguments: [
        ("1111", PasswordStrength.Level.veryWeak, PasswordStrength.Warning.repeated),
        ("1234", .veryWeak, .sequence),
        ("9876", .veryWeak, .sequence),
        ("890123", .veryWeak, .sequence),
        ("2580", .veryWeak, .frequentPIN),
        ("1987", .weak, .date),
        ("2512", .weak, .date),
        ("01021990", .weak, .date),
        ("4747", .weak, .repeated),
        ("583583", .weak, .repeated),
        ("12", .veryWeak, .tooShort),
        ("12a4", .veryWeak, .notDigits),
    ])
    func weakPINs(pin: String, level: PasswordStrength.Level, warning: PasswordStrength.Warning) {
        let strength = PasswordStrength.evaluate(pin: pin)
        #expect(strength.level == level, "\(pin)")
        #expect(strength.warnings.contains(warning), "\(pin): \(strength.warnings)")
    }

    @Test func pinsWithoutPatternsRiseWithTheirLength() {
        #expect(PasswordStrength.evaluate(pin: "3847") == PasswordStrength(level: .moderate, warnings: []))
        #expect(PasswordStrength.evaluate(pin: "384729") == PasswordStrength(level: .good, warnings: []))
        #expect(PasswordStrength.evaluate(pin: "38472960") == PasswordStrength(level: .strong, warnings: []))
    }

    @Test(arguments: [
        ("password", PasswordStrength.Level.veryWeak, PasswordStrength.Warning.commonPassword),
        ("Dragon", .veryWeak, .tooShort),
        ("aaaaaaaaaaaa", .veryWeak, .repeated),
        ("abcdefghij", .veryWeak, .sequence),
        ("monkey2024!", .weak, .commonPassword),
        ("correcthorse", .moderate, .fewCharacterClasses),
    ])
    func weakPassphrases(passphrase: String, level: PasswordStrength.Level, warning: PasswordStrength.Warning) {
        let strength = PasswordStrength.evaluate(passphrase: passphrase)
        #expect(strength.level == level, "\(passphrase)")
        #expect(strength.warnings.contains(warning), "\(passphrase): \(strength.warnings)")
    }

    @Test func longVariedPassphrasesAreStrong() {
        #expect(PasswordStrength.evaluate(passphrase: "Tb7#kqL2vx!m") == PasswordStrength(level: .good, warnings: []))
        #expect(PasswordStrength.evaluate(passphrase: "violet Tram ladder 93 quietly") == PasswordStrength(level: .strong, warnings: []))
        #expect(PasswordStrength.Level.weak < .strong)
    }

    @Test func theCommonPasswordListIsTheServers() {
        // One file, KeywayPasswords's, which the server refuses at sign-up.
        #expect(CommonPasswords.all.count == 10_000)
        #expect(CommonPasswords.contains("Password"))
    }
}
