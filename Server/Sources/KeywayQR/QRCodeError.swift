/// Why a text could not be encoded as a QR code.
public enum QRCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text's UTF-8 bytes (`byteCount`) are more than a symbol of `version` holds at the chosen
    /// error-correction level (`capacity` bytes); without a forced version, `version` is 40, the largest.
    case textTooLong(byteCount: Int, capacity: Int, version: Int)
    /// The forced version is not in 1…40.
    case invalidVersion(Int)
    /// The forced mask pattern is not in 0…7.
    case invalidMask(Int)

    /// A sentence that says what went wrong.
    public var description: String {
        switch self {
        case .textTooLong(let byteCount, let capacity, let version):
            "The text is \(byteCount) bytes long, but a version \(version) QR code holds at most \(capacity) bytes "
                + "at this error-correction level."
        case .invalidVersion(let version):
            "QR code version \(version) does not exist; versions run from 1 to 40."
        case .invalidMask(let mask):
            "QR code mask \(mask) does not exist; masks run from 0 to 7."
        }
    }
}
