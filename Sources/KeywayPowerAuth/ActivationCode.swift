import Foundation

/// A PowerAuth 3 activation code: ten random bytes and their CRC-16/ARC, in Base32 as four groups
/// of five characters separated by `-` (for example `MMMMM-MMMMM-MMMMM-MUTOA`).
///
/// The code identifies an activation; it does not enter any cryptographic computation.
public struct ActivationCode: Sendable, Hashable, CustomStringConvertible {
    /// The number of random bytes a code carries.
    public static let randomByteCount = 10

    /// The code's text, `XXXXX-XXXXX-XXXXX-XXXXX`.
    public let value: String

    /// The ten random bytes the code encodes (without the checksum).
    public let randomBytes: Data

    /// The code's text.
    public var description: String { value }

    /// Builds the code of ten given bytes: their CRC-16/ARC is appended big-endian and the twelve
    /// bytes are written in Base32 in four groups.
    ///
    /// - Parameter randomBytes: Exactly ten bytes.
    /// - Throws: `PowerAuthError.invalidLength` when there are not ten bytes.
    public init<Bytes: Collection>(randomBytes: Bytes) throws(PowerAuthError) where Bytes.Element == UInt8 {
        let random = Array(randomBytes)
        guard random.count == Self.randomByteCount else {
            throw .invalidLength(field: "activation code bytes", expected: "10", actual: random.count)
        }
        let crc = CRC16.arc(random)
        let encoded = Array(Base32.encode(random + [UInt8(crc >> 8), UInt8(crc & 0xFF)], padding: false))
        self.value = stride(from: 0, to: 20, by: 5).map { String(encoded[$0..<$0 + 5]) }.joined(separator: "-")
        self.randomBytes = Data(random)
    }

    /// Reads and validates a code exactly as written: 23 characters, four groups of five Base32
    /// characters (upper case) separated by `-`, whose checksum matches.
    ///
    /// - Parameter text: The code, for example `MMMMM-MMMMM-MMMMM-MUTOA`.
    /// - Throws: `PowerAuthError.invalidLength`, `.malformedCode` (also when the last character
    ///   sets any of the four unused bits), `.invalidCharacter` (with its 1-based position) or
    ///   `.checksumMismatch`.
    public init(_ text: String) throws(PowerAuthError) {
        let characters = Array(text)
        guard characters.count == 23 else {
            throw .invalidLength(field: "activation code", expected: "23", actual: characters.count)
        }
        var letters: [UInt8] = []
        for (index, character) in characters.enumerated() {
            if index % 6 == 5 {
                guard character == "-" else { throw .malformedCode("expected '-' at position \(index + 1)") }
                continue
            }
            guard let ascii = character.asciiValue, Base32.value(of: ascii) != nil else {
                throw .invalidCharacter(character, position: index + 1)
            }
            letters.append(ascii)
        }
        try self.init(base32Letters: letters)
    }

    /// Reads a code as a user typed it, with the published autocorrection: lower-case letters are
    /// taken as upper case, `0` as `O` and `1` as `I`; spaces around the code are ignored, and the
    /// dashes may be left out altogether.
    ///
    /// - Parameter typed: The typed text, for example `mmmmm-mmmmm-mmmmm-mut0a`.
    /// - Returns: The corrected, validated code.
    /// - Throws: `PowerAuthError.invalidCharacter` naming the first character that is neither a
    ///   Base32 character nor correctable (its 1-based position in the trimmed text),
    ///   `.invalidLength`, `.malformedCode` for misplaced dashes, or `.checksumMismatch`.
    public static func parseTyped(_ typed: String) throws(PowerAuthError) -> ActivationCode {
        let characters = Array(typed.trimmingCharacters(in: .whitespaces))
        let withDashes = characters.contains("-")
        var letters: [UInt8] = []
        for (index, character) in characters.enumerated() {
            if character == "-" {
                guard withDashes, index % 6 == 5 else { throw .malformedCode("unexpected '-' at position \(index + 1)") }
                continue
            }
            if withDashes, index % 6 == 5 {
                throw .malformedCode("expected '-' at position \(index + 1)")
            }
            guard let corrected = correctTypedCharacter(character) else {
                throw .invalidCharacter(character, position: index + 1)
            }
            letters.append(corrected)
        }
        guard letters.count == 20, !withDashes || characters.count == 23 else {
            throw .invalidLength(field: "activation code", expected: "20 letters", actual: letters.count)
        }
        return try ActivationCode(base32Letters: letters)
    }

    /// The autocorrection of one typed character: the Base32 character it stands for, or `nil`
    /// when it stands for none.
    ///
    /// - Parameter character: A typed character.
    /// - Returns: The ASCII value of the corrected upper-case Base32 character, or `nil`.
    public static func correctTypedCharacter(_ character: Character) -> UInt8? {
        guard let ascii = character.asciiValue else { return nil }
        let corrected: UInt8 = switch ascii {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): ascii - 32
        case UInt8(ascii: "0"): UInt8(ascii: "O")
        case UInt8(ascii: "1"): UInt8(ascii: "I")
        default: ascii
        }
        return Base32.value(of: corrected) == nil ? nil : corrected
    }

    /// Whether a text is a valid code exactly as written (see ``init(_:)``).
    ///
    /// - Parameter text: The candidate code.
    /// - Returns: `true` when it parses and its checksum matches.
    public static func isValid(_ text: String) -> Bool {
        (try? ActivationCode(text)) != nil
    }

    /// A new random code.
    ///
    /// - Parameter generator: The source of randomness; use a cryptographically secure one.
    /// - Returns: A code of ten random bytes.
    public static func random<Generator: RandomNumberGenerator>(using generator: inout Generator) -> ActivationCode {
        let bytes = (0..<randomByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        // Ten bytes always make a code.
        guard let code = try? ActivationCode(randomBytes: bytes) else { preconditionFailure("ten bytes") }
        return code
    }

    /// A new random code from the system's secure random number generator.
    ///
    /// - Returns: A code of ten random bytes.
    public static func random() -> ActivationCode {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// Builds a code from its twenty Base32 letters (already upper case, already checked).
    private init(base32Letters letters: [UInt8]) throws(PowerAuthError) {
        guard let decoded = Base32.decode(letters), decoded.count == 12 else {
            throw .invalidLength(field: "activation code", expected: "20 letters", actual: letters.count)
        }
        // Twenty letters carry 100 bits; the last four must be zero for the text to be the code's.
        guard let last = letters.last.flatMap(Base32.value(of:)), last & 0x0F == 0 else {
            throw .malformedCode("the last character is not one a code can end with")
        }
        let random = Array(decoded[0..<10])
        let expected = UInt16(decoded[10]) << 8 | UInt16(decoded[11])
        guard CRC16.arc(random) == expected else { throw .checksumMismatch }
        try self.init(randomBytes: random)
    }
}
