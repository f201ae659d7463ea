import Foundation

/// The text of an activation QR code: `${ACTIVATION_CODE}#${ACTIVATION_SIGNATURE}`, where the
/// optional signature is the Base64 ECDSA signature of the code by the master server key.
public struct ActivationQRCode: Sendable, Hashable, CustomStringConvertible {
    /// The activation code.
    public let code: ActivationCode
    /// The DER-encoded ECDSA signature of the code's UTF-8 text, when the QR code carries one.
    public let signature: Data?

    /// The QR code's text: the code, then `#` and the Base64 signature when there is one.
    public var description: String {
        guard let signature else { return code.value }
        return code.value + "#" + signature.base64EncodedString()
    }

    /// Pairs a code with its signature.
    ///
    /// - Parameters:
    ///   - code: The activation code.
    ///   - signature: The DER-encoded ECDSA signature of the code, or `nil`.
    public init(code: ActivationCode, signature: Data?) {
        self.code = code
        self.signature = signature
    }

    /// Reads the text of a scanned QR code.
    ///
    /// - Parameter text: `CODE` or `CODE#SIGNATURE` (the signature in standard Base64).
    /// - Throws: The code's `PowerAuthError`s, `.invalidBase64` for the signature, or
    ///   `.malformedCode` when the text has more than one `#` or an empty signature.
    public init(_ text: String) throws(PowerAuthError) {
        let parts = text.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw .malformedCode("more than one '#'") }
        self.code = try ActivationCode(String(parts[0]))
        if parts.count == 2 {
            guard !parts[1].isEmpty else { throw .malformedCode("empty signature after '#'") }
            self.signature = try Bytes.base64(String(parts[1]), field: "activation signature")
        } else {
            self.signature = nil
        }
    }
}
