import Foundation

/// What identifies the user when a device activates.
public enum ActivationCredentials: Sendable {
    /// An activation code (typed or scanned), with the OTP when the code was made with one
    /// (`CODE`).
    case activationCode(ActivationCode, signature: Data?, otp: String?)
    /// A Keyway authorization code of the same project, redeemed by the activation (`CUSTOM`).
    case authorizationCode(code: Sensitive<String>, codeVerifier: Sensitive<String>, redirectURI: String, clientID: String)
    /// A recovery code and its PUK (`RECOVERY`): the activation they belong to is replaced.
    case recovery(RecoveryCode, puk: RecoveryPUK)

    /// A code as the user typed it, with the published autocorrection (lower case, `0` for `O`,
    /// `1` for `I`, dashes optional).
    ///
    /// - Parameters:
    ///   - text: What the user typed.
    ///   - otp: The OTP given with the code, if any.
    /// - Returns: The credentials.
    /// - Throws: ``ActivationError/invalidActivationCode(_:)`` saying which character is wrong,
    ///   or that the checksum does not match.
    public static func typedCode(_ text: String, otp: String? = nil) throws(ActivationError) -> ActivationCredentials {
        do {
            return .activationCode(try ActivationCode.parseTyped(text), signature: nil, otp: otp)
        } catch {
            throw .invalidActivationCode(error)
        }
    }

    /// A scanned QR code, `CODE#SIGNATURE` (or the code alone); the signature is checked against
    /// the master server key when the activation is created.
    ///
    /// - Parameters:
    ///   - text: The QR code's text.
    ///   - otp: The OTP given with the code, if any.
    /// - Returns: The credentials.
    /// - Throws: ``ActivationError/invalidActivationCode(_:)``.
    public static func scannedCode(_ text: String, otp: String? = nil) throws(ActivationError) -> ActivationCredentials {
        do {
            let qr = try ActivationQRCode(text.trimmingCharacters(in: .whitespacesAndNewlines))
            return .activationCode(qr.code, signature: qr.signature, otp: otp)
        } catch {
            throw .invalidActivationCode(error)
        }
    }

    /// A recovery code (with or without `R:`) and a PUK (ten digits, or two groups of five).
    ///
    /// - Parameters:
    ///   - code: The recovery code.
    ///   - puk: The PUK.
    /// - Returns: The credentials.
    /// - Throws: ``ActivationError/invalidRecoveryCode(_:)``.
    public static func recovery(code: String, puk: String) throws(ActivationError) -> ActivationCredentials {
        do {
            let trimmed = code.trimmingCharacters(in: .whitespaces)
            let body = trimmed.hasPrefix(RecoveryCode.qrPrefix) ? String(trimmed.dropFirst(2)) : trimmed
            let recovery = RecoveryCode(code: try ActivationCode.parseTyped(body))
            return .recovery(recovery, puk: try RecoveryPUK(puk.trimmingCharacters(in: .whitespaces)))
        } catch {
            throw .invalidRecoveryCode(error)
        }
    }

    /// The protocol's `activationType` and `identityAttributes`.
    var identity: (type: String, attributes: [String: String]) {
        switch self {
        case let .activationCode(code, _, _):
            ("CODE", ["code": code.value])
        case let .authorizationCode(code, verifier, redirectURI, clientID):
            ("CUSTOM", ["authorizationCode": code.revealed, "codeVerifier": verifier.revealed, "redirectUri": redirectURI,
                        "clientId": clientID])
        case let .recovery(code, puk):
            ("RECOVERY", ["recoveryCode": code.code.value, "puk": puk.value])
        }
    }
}
