import Crypto
import Foundation

/// A recovery code: the same format as an activation code; in a QR code it carries the `R:` prefix
/// (`R:45AWJ-BVACS-SBWHS-ABANA`).
public struct RecoveryCode: Sendable, Hashable, CustomStringConvertible {
    /// The prefix that marks a QR code holding a recovery code.
    public static let qrPrefix = "R:"

    /// The code (format and checksum of an activation code).
    public let code: ActivationCode

    /// The code's text, without the prefix.
    public var description: String { code.value }

    /// The text to put in a QR code: `R:` and the code.
    public var qrText: String { Self.qrPrefix + code.value }

    /// Wraps a code as a recovery code.
    ///
    /// - Parameter code: The code.
    public init(code: ActivationCode) {
        self.code = code
    }

    /// Reads a recovery code, with or without the `R:` prefix.
    ///
    /// - Parameter text: `R:XXXXX-XXXXX-XXXXX-XXXXX` or `XXXXX-XXXXX-XXXXX-XXXXX`.
    /// - Throws: The `PowerAuthError`s of ``ActivationCode/init(_:)``.
    public init(_ text: String) throws(PowerAuthError) {
        let body = text.hasPrefix(Self.qrPrefix) ? String(text.dropFirst(Self.qrPrefix.count)) : text
        self.code = try ActivationCode(body)
    }

    /// Reads the text of a scanned QR code, which must carry the `R:` prefix.
    ///
    /// - Parameter text: `R:XXXXX-XXXXX-XXXXX-XXXXX`.
    /// - Returns: The recovery code.
    /// - Throws: `PowerAuthError.malformedCode` without the prefix, or the code's errors.
    public static func fromQRText(_ text: String) throws(PowerAuthError) -> RecoveryCode {
        guard text.hasPrefix(qrPrefix) else { throw .malformedCode("a recovery QR code starts with 'R:'") }
        return try RecoveryCode(text)
    }
}

/// A recovery PUK: a ten-digit, zero-padded number, shown as `12345-67890`.
public struct RecoveryPUK: Sendable, Hashable, CustomStringConvertible {
    /// The ten digits.
    public let value: String

    /// The ten digits.
    public var description: String { value }

    /// The PUK shown in two groups of five: `12345-67890`.
    public var grouped: String { String(value.prefix(5)) + "-" + String(value.suffix(5)) }

    /// Reads a PUK, written as ten digits or as two groups of five separated by `-`.
    ///
    /// - Parameter text: For example `0123456789` or `01234-56789`.
    /// - Throws: `PowerAuthError.malformedPUK` when it is not ten decimal digits.
    public init(_ text: String) throws(PowerAuthError) {
        var digits = Array(text)
        if digits.count == 11, digits[5] == "-" { digits.remove(at: 5) }
        guard digits.count == 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .malformedPUK }
        self.value = String(digits)
    }

    /// Derives a PUK as the recovery postcard scheme does:
    /// `(getLong(last 8 bytes of KDF(baseKey, index)) & 0xFFFFFFFFFF) mod 10^10`, zero-padded.
    ///
    /// - Parameters:
    ///   - baseKey: `RECOVERY_PUK_BASE_KEY` (16 bytes).
    ///   - index: The PUK derivation index.
    /// - Returns: The PUK.
    /// - Throws: `PowerAuthError.invalidLength` when the key is not 16 bytes.
    public static func derive(baseKey: SymmetricKey, index: UInt64) throws(PowerAuthError) -> RecoveryPUK {
        let key = try PowerAuthKDF.derive(key: baseKey, index: index).data
        let value = Bytes.readBigEndian(key.suffix(8)) & 0xFF_FFFF_FFFF
        let number = String(value % 10_000_000_000)
        return try RecoveryPUK(String(repeating: "0", count: 10 - number.count) + number)
    }
}
