/// A way for a user to prove who they are.
public enum AuthenticationMethod: String, Codable, Sendable, Hashable, CaseIterable {
    /// A one-time code sent to the user's email address.
    case emailOtp
    /// A one-time code sent to the user's phone by SMS.
    case smsOtp
    /// A time-based one-time password from an authenticator app (RFC 6238), enrolled after sign-in.
    case totp
    /// A password the user chose at sign-up or while managing the account.
    case password

    /// Whether the method can be a second factor (``ApplicationPolicy/mfaMethods``).
    public var canBeSecondFactor: Bool { self != .password }

    /// Whether a user can use the method without having signed in before: a code sent to the
    /// identifier works from the first visit; a TOTP secret and a password must be set up first.
    public var worksWithoutEnrolment: Bool { self == .emailOtp || self == .smsOtp }
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
