/// What went wrong in a PowerAuth computation: malformed input, or a check that failed.
public enum PowerAuthError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A value has the wrong number of bytes or characters.
    ///
    /// `field` names the value, `expected` describes the lengths allowed and `actual` is the length seen.
    case invalidLength(field: String, expected: String, actual: Int)
    /// A value that should be Base64 is not.
    case invalidBase64(field: String)
    /// A character is not allowed where it was typed; `position` counts from 1.
    case invalidCharacter(Character, position: Int)
    /// An activation or recovery code is malformed (group layout, prefix).
    case malformedCode(String)
    /// An activation or recovery code's CRC-16 does not match its data: a character was mistyped.
    case checksumMismatch
    /// A recovery PUK is not ten decimal digits.
    case malformedPUK
    /// A P-256 public or private key could not be read.
    case invalidKey(field: String)
    /// A signature is not in the expected form (factor count, digits, Base64 length).
    case malformedSignature(String)
    /// A `X-PowerAuth-…` header cannot be read; the text is a sentence saying why.
    case malformedHeader(String)
    /// An activation status blob does not start with the status blob magic `0xDEC0DED1`.
    case invalidStatusBlob
    /// A MAC did not match: the data were altered or a wrong key was used.
    case authenticationFailed
    /// Decryption failed (for example, bad padding).
    case decryptionFailed
    /// A value the protocol version requires is missing (an ECIES nonce or timestamp).
    case missingValue(field: String)

    /// A sentence describing the error.
    public var description: String {
        switch self {
        case let .invalidLength(field, expected, actual):
            "\(field) has length \(actual), expected \(expected)"
        case let .invalidBase64(field):
            "\(field) is not valid Base64"
        case let .invalidCharacter(character, position):
            "invalid character '\(character)' at position \(position)"
        case let .malformedCode(reason):
            "malformed code: \(reason)"
        case .checksumMismatch:
            "the code's checksum does not match; a character was probably mistyped"
        case .malformedPUK:
            "a recovery PUK is ten decimal digits"
        case let .invalidKey(field):
            "\(field) is not a valid P-256 key"
        case let .malformedSignature(reason):
            "malformed signature: \(reason)"
        case let .malformedHeader(sentence):
            sentence
        case .invalidStatusBlob:
            "the activation status blob does not start with 0xDEC0DED1"
        case .authenticationFailed:
            "the MAC does not match"
        case .decryptionFailed:
            "the data could not be decrypted"
        case let .missingValue(field):
            "\(field) is required by this protocol version"
        }
    }
}
