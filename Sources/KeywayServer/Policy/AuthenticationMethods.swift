import KeywayProtocol

/// What the server knows of each authentication method (``AuthenticationMethod`` is the wire
/// type of the protocol, shared with the SDK).
extension AuthenticationMethod {
    /// The methods this server implements.
    static let supported: [AuthenticationMethod] = [.emailOtp, .smsOtp, .totp, .password]

    /// Whether this server implements the method.
    var isSupported: Bool { Self.supported.contains(self) }

    /// Whether the method can be a second factor (``ApplicationPolicy/mfaMethods``).
    var canBeSecondFactor: Bool { self == .emailOtp || self == .smsOtp || self == .totp || self == .deviceApproval }

    /// Whether a user can use the method without having signed in before: a code sent to the
    /// identifier works from the first visit; a TOTP secret and a password must be set up first.
    var worksWithoutEnrolment: Bool { self == .emailOtp || self == .smsOtp }
}

/// How an application asks for a second factor.
public enum MFAMode: String, Codable, Sendable, Hashable, CaseIterable {
    /// Never.
    case off
    /// Users who enrolled a second-factor method are asked for it; others are not.
    case optional
    /// Every sign-in needs a second factor; users without one enrol one first.
    case required
}
