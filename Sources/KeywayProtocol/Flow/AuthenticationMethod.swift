/// A way to prove who you are. Unknown methods decode without failing.
public struct AuthenticationMethod: OpenStringValue {
    /// The method as the wire spells it (`emailOtp`).
    public let rawValue: String
    /// Creates a method from its wire spelling; one this version does not know is kept as it is.
    ///
    /// - Parameter rawValue: The method as the wire spells it.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A one-time code sent by email.
    public static let emailOtp = AuthenticationMethod(rawValue: "emailOtp")
    /// A one-time code sent by SMS.
    public static let smsOtp = AuthenticationMethod(rawValue: "smsOtp")
    /// A time-based code from an authenticator app (RFC 6238).
    public static let totp = AuthenticationMethod(rawValue: "totp")
    /// A password.
    public static let password = AuthenticationMethod(rawValue: "password")
    /// Approval from one of the user's trusted devices (pushed to it, or by scanning a QR code).
    public static let deviceApproval = AuthenticationMethod(rawValue: "deviceApproval")
    /// Signing in with an upstream OpenID Connect provider (the choice's ID is `federation:<id>`).
    public static let federation = AuthenticationMethod(rawValue: "federation")
    /// A sign-in link sent by email, with a one-time code beside it: either completes the step.
    public static let signInLink = AuthenticationMethod(rawValue: "signInLink")
    /// A passkey (WebAuthn): a primary method, a second factor, and with a discoverable passkey a
    /// sign-in without typing an identifier.
    public static let passkey = AuthenticationMethod(rawValue: "passkey")

}

/// Why a step asks for a method: to sign in, as a second factor, or to set one up.
public struct MethodPurpose: OpenStringValue {
    /// The purpose as the wire spells it (`secondFactor`).
    public let rawValue: String
    /// Creates a purpose from its wire spelling; one this version does not know is kept as it is.
    ///
    /// - Parameter rawValue: The purpose as the wire spells it.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The first factor of a sign-in, or verifying the identifier of a sign-up.
    public static let primary = MethodPurpose(rawValue: "primary")
    /// A second factor after the primary method.
    public static let secondFactor = MethodPurpose(rawValue: "secondFactor")
    /// Choosing a second factor to set up.
    public static let enrolment = MethodPurpose(rawValue: "enrolment")
    /// Proving again who you are before a change to the account.
    public static let reverification = MethodPurpose(rawValue: "reverification")

}
