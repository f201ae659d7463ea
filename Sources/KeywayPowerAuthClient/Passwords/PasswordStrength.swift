import Foundation
import KeywayPasswords

/// How hard a PIN or a passphrase is to guess, judged on the device before the activation is
/// committed with it (``DeviceActivation/commit(password:biometry:)``): a level and the reasons
/// that lowered it. The server limits attempts (the activation blocks after its maximum), so a
/// `moderate` PIN is usual; the levels say how early in an attacker's list of guesses it comes.
///
/// ```swift
/// let strength = PasswordStrength.evaluate(pin: "1987")
/// // strength.level == .weak, strength.warnings == [.date]
/// ```
public struct PasswordStrength: Sendable, Equatable {
    /// The levels, weakest first.
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        /// Among the first guesses (a frequent PIN, a common password, a repetition).
        case veryWeak
        /// Guessed early (a date, a short pattern, a short passphrase).
        case weak
        /// Acceptable where attempts are limited.
        case moderate
        /// Good.
        case good
        /// Strong.
        case strong

        /// Whether `lhs` is weaker than `rhs`.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Why a PIN or passphrase is weaker.
    public enum Warning: String, Sendable, Hashable, CaseIterable {
        /// Shorter than 4 digits (PIN) or 8 characters (passphrase).
        case tooShort = "too_short"
        /// A PIN with other characters than digits.
        case notDigits = "not_digits"
        /// One digit or character repeated, or a short group repeated (`1212`, `abcabc`).
        case repeated
        /// Ascending or descending steps (`1234`, `9876`, `abcdef`).
        case sequence
        /// A date or a year (`1987`, `2512`, `01021990`).
        case date
        /// Among the most frequently chosen PINs.
        case frequentPIN = "frequent_pin"
        /// Among the 10,000 most common passwords (also with digits or symbols added at its
        /// end).
        case commonPassword = "common_password"
        /// Fewer than three kinds of characters (lower case, upper case, digits, others) in a
        /// passphrase shorter than 16.
        case fewCharacterClasses = "few_character_classes"
    }

    /// The level.
    public let level: Level
    /// The reasons that lowered it, in ``Warning``'s order.
    public let warnings: [Warning]

    /// Builds an evaluation.
    ///
    /// - Parameters:
    ///   - level: The level.
    ///   - warnings: The warnings.
    public init(level: Level, warnings: [Warning]) {
        self.level = level
        self.warnings = Warning.allCases.filter(warnings.contains)
    }

    /// Evaluates a PIN: its length, repeated digits and patterns, ascending or descending
    /// sequences, dates and years, and the most frequent PINs.
    ///
    /// - Parameter pin: The PIN (digits).
    /// - Returns: The level and warnings.
    public static func evaluate(pin: String) -> PasswordStrength {
        let digits = pin.compactMap(\.wholeNumberValue)
        guard digits.count == pin.count, pin.allSatisfy(\.isASCII) else {
            return PasswordStrength(level: .veryWeak, warnings: [.notDigits])
        }
        guard digits.count >= 4 else { return PasswordStrength(level: .veryWeak, warnings: [.tooShort]) }
        var warnings: [Warning] = []
        var level: Level = switch digits.count {
        case 4...5: .moderate
        case 6...7: .good
        default: .strong
        }
        if Set(digits).count == 1 || Patterns.isRepetition(Array(pin)) {
            warnings.append(.repeated)
            level = Set(digits).count == 1 ? .veryWeak : min(level, .weak)
        }
        if Patterns.isSequence(digits.map { $0 }) {
            warnings.append(.sequence)
            level = .veryWeak
        }
        if frequentPINs.contains(pin) {
            warnings.append(.frequentPIN)
            level = .veryWeak
        }
        if Patterns.isDate(digits) {
            warnings.append(.date)
            level = min(level, .weak)
        }
        if Set(digits).count == 2, digits.count <= 6, !warnings.contains(.repeated) {
            warnings.append(.repeated)
            level = min(level, .weak)
        }
        return PasswordStrength(level: level, warnings: warnings)
    }

    /// Evaluates a passphrase: its length, its kinds of characters, repetitions and sequences,
    /// and the list of the 10,000 most common passwords the Keyway server refuses too.
    ///
    /// - Parameter passphrase: The passphrase.
    /// - Returns: The level and warnings.
    public static func evaluate(passphrase: String) -> PasswordStrength {
        let characters = Array(passphrase)
        var warnings: [Warning] = []
        var classes = 0
        if characters.contains(where: { $0.isLowercase }) { classes += 1 }
        if characters.contains(where: { $0.isUppercase }) { classes += 1 }
        if characters.contains(where: { $0.isNumber }) { classes += 1 }
        if characters.contains(where: { !$0.isLetter && !$0.isNumber }) { classes += 1 }

        var level: Level = switch characters.count {
        case ..<8: .veryWeak
        case 8..<12: classes >= 3 ? .moderate : .weak
        case 12..<16: classes >= 3 ? .good : .moderate
        case 16..<20: classes >= 2 ? .strong : .good
        default: .strong
        }
        if characters.count < 8 { warnings.append(.tooShort) }
        if classes < 3, characters.count < 16 { warnings.append(.fewCharacterClasses) }
        if Set(characters).count <= 2 || Patterns.isRepetition(characters) {
            warnings.append(.repeated)
            level = .veryWeak
        }
        let scalars = passphrase.lowercased().unicodeScalars.map { Int($0.value) }
        if characters.count >= 3, Patterns.isSequence(scalars) {
            warnings.append(.sequence)
            level = .veryWeak
        }
        let lower = passphrase.lowercased()
        let stem = String(lower.reversed().drop { !$0.isLetter }.reversed())
        if CommonPasswords.contains(lower) {
            warnings.append(.commonPassword)
            level = .veryWeak
        } else if stem.count >= 4, stem != lower, CommonPasswords.contains(stem) {
            warnings.append(.commonPassword)
            level = min(level, .weak)
        }
        return PasswordStrength(level: level, warnings: warnings)
    }

    /// PINs people choose most often (of four and six digits), from published analyses of
    /// leaked PIN lists, beyond the repetitions and sequences detected anyway.
    static let frequentPINs: Set<String> = [
        "1234", "1111", "0000", "1212", "7777", "1004", "2000", "4444", "2222", "6969", "9999", "3333", "5555", "6666",
        "1122", "1313", "8888", "4321", "2001", "1010", "2580", "0852", "1379", "1397", "1470", "0147", "7410", "3690",
        "1590", "0007", "0911", "1230", "5683", "2468", "1357", "4567", "6789", "0123", "7890", "0987", "1998", "1999",
        "123456", "654321", "111111", "000000", "123123", "666666", "121212", "112233", "789456", "159753", "222222",
        "555555", "777777", "888888", "999999", "333333", "444444", "123321", "456789", "987654", "147258", "258369",
        "159357", "147852", "852456", "246810", "135790", "131313", "101010", "696969", "520520", "520131", "110110",
        "12345678", "87654321", "11111111", "00000000", "12341234", "11223344",
    ]
}

/// The patterns both evaluations look for.
enum Patterns {
    /// Each step +1 or each step −1 (digits also wrap 9→0 and 0→9).
    static func isSequence(_ values: [Int]) -> Bool {
        guard values.count >= 3 else { return false }
        let steps = zip(values.dropFirst(), values).map { $0 - $1 }
        let isDigits = values.allSatisfy { (0...9).contains($0) }
        let up = steps.allSatisfy { $0 == 1 || (isDigits && $0 == -9) }
        let down = steps.allSatisfy { $0 == -1 || (isDigits && $0 == 9) }
        return up || down
    }

    /// The whole text is a shorter group repeated (`1212`, `123123`, `abab`).
    static func isRepetition<T: Equatable>(_ values: [T]) -> Bool {
        guard values.count >= 4 else { return false }
        for length in 1...(values.count / 2) where values.count % length == 0 {
            let group = Array(values[0..<length])
            if stride(from: 0, to: values.count, by: length).allSatisfy({ Array(values[$0..<($0 + length)]) == group }) {
                return true
            }
        }
        return false
    }

    /// A year (1900–2099), a day and month in either order, or a full date of six or eight
    /// digits (DDMMYY, MMDDYY, YYMMDD, DDMMYYYY, MMDDYYYY, YYYYMMDD).
    static func isDate(_ digits: [Int]) -> Bool {
        func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + $1 } }
        func dayMonth(_ day: Int, _ month: Int) -> Bool { (1...31).contains(day) && (1...12).contains(month) }
        func year(_ value: Int) -> Bool { (1900...2099).contains(value) }
        switch digits.count {
        case 4:
            let a = number(0..<2), b = number(2..<4)
            return year(number(0..<4)) || dayMonth(a, b) || dayMonth(b, a)
        case 6:
            let a = number(0..<2), b = number(2..<4), c = number(4..<6)
            return dayMonth(a, b) || dayMonth(b, a) || dayMonth(c, b)
        case 8:
            let a = number(0..<2), b = number(2..<4)
            return (dayMonth(a, b) || dayMonth(b, a)) && year(number(4..<8))
                || year(number(0..<4)) && dayMonth(number(6..<8), number(4..<6))
        default:
            return false
        }
    }
}
