import Foundation
import KeywayPowerAuth

/// The Keyway server's answer about one device signature.
public struct SignatureVerification: Sendable, Equatable {
    /// Why a signature was not accepted: a stable code and a sentence.
    public struct Refusal: Sendable, Equatable, Codable {
        /// A stable code, for example `invalid_signature` or `activation_blocked`.
        public var code: String
        /// A human sentence.
        public var message: String

        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Whether the signature verified with at least the required factors.
    public var isValid: Bool
    /// The activation that signed (when the header named a known one).
    public var activationId: String?
    /// The user the activation belongs to.
    public var userId: String?
    /// The factors the signature proved (empty when it did not verify).
    public var factors: PowerAuthSignatureFactors
    /// The activation's state after the verification (`ACTIVE`, `BLOCKED`, …).
    public var activationStatus: String?
    /// How many failed attempts remain before the activation is blocked.
    public var remainingAttempts: Int?
    /// Why the signature was refused; `nil` when it is valid.
    public var refusal: Refusal?

    public init(
        isValid: Bool, activationId: String?, userId: String?, factors: PowerAuthSignatureFactors,
        activationStatus: String?, remainingAttempts: Int?, refusal: Refusal?
    ) {
        self.isValid = isValid
        self.activationId = activationId
        self.userId = userId
        self.factors = factors
        self.activationStatus = activationStatus
        self.remainingAttempts = remainingAttempts
        self.refusal = refusal
    }
}

/// The QR code data of an offline signature request, made by the Keyway server for one activation.
public struct OfflineSignatureRequest: Sendable, Equatable {
    /// What the device scans: `DATA\nNONCE\nKEY-FLAG+ECDSA` (key flag `1`: signed by the activation's server key).
    public var qrData: String
    /// The nonce inside it (Base64), needed again to verify the signature the user types back.
    public var nonce: String

    public init(qrData: String, nonce: String) {
        self.qrData = qrData
        self.nonce = nonce
    }
}

/// The wire form of the verification answer.
struct SignatureVerificationResponse: Codable {
    var valid: Bool
    var activationId: String?
    var userId: String?
    var factors: String?
    var status: String?
    var remainingAttempts: Int?
    var error: SignatureVerification.Refusal?

    var verification: SignatureVerification {
        SignatureVerification(
            isValid: valid, activationId: activationId, userId: userId,
            factors: factors.flatMap { PowerAuthSignatureFactors(typeName: $0) } ?? [], activationStatus: status,
            remainingAttempts: remainingAttempts, refusal: error)
    }
}
