import Foundation

/// Payload of a `setupTotp` step: enrolment of an authenticator app (RFC 6238).
public struct SetupTotpPayload: Codable, Sendable, Equatable {
    /// The shared secret, Base32 without padding, for manual entry.
    public var secret: Sensitive<String>
    /// The `otpauth://totp/…` URI (Key Uri Format), for a QR code.
    public var otpauthUrl: Sensitive<String>
    /// Seconds per code.
    public var period: Int
    /// Digits per code.
    public var digits: Int
    /// `SHA1`, `SHA256` or `SHA512`.
    public var algorithm: String

    /// Creates an authenticator setup payload with the given values.
    ///
    /// - Parameters:
    ///   - secret: The shared secret, Base32 without padding.
    ///   - otpauthUrl: The `otpauth://totp/…` URI.
    ///   - period: Seconds per code.
    ///   - digits: Digits per code.
    ///   - algorithm: `SHA1`, `SHA256` or `SHA512`.
    public init(secret: Sensitive<String>, otpauthUrl: Sensitive<String>, period: Int, digits: Int, algorithm: String) {
        self.secret = secret
        self.otpauthUrl = otpauthUrl
        self.period = period
        self.digits = digits
        self.algorithm = algorithm
    }
}

/// Payload of an `enterTotp` step.
public struct EnterTotpPayload: Codable, Sendable, Equatable {
    /// Digits per code.
    public var digits: Int
    /// Seconds per code.
    public var period: Int
    /// What the code is for.
    public var purpose: MethodPurpose
    /// Wrong attempts left before the flow must restart.
    public var attemptsRemaining: Int

    /// Creates an authenticator code payload with the given values.
    ///
    /// - Parameters:
    ///   - digits: Digits per code.
    ///   - period: Seconds per code.
    ///   - purpose: What the code is for.
    ///   - attemptsRemaining: Wrong attempts left before the flow must restart.
    public init(digits: Int, period: Int, purpose: MethodPurpose, attemptsRemaining: Int) {
        self.digits = digits
        self.period = period
        self.purpose = purpose
        self.attemptsRemaining = attemptsRemaining
    }
}
