import KeywayProtocol

/// What the server knows of each authentication method (``AuthenticationMethod`` is the wire
/// type of the protocol, shared with the SDK).
extension AuthenticationMethod {
    /// The methods this server implements as a primary method: those of the method modules
    /// (``FlowMethods``) that can be one.
    static var supported: [AuthenticationMethod] { FlowMethods.all.filter(\.canBePrimary).map(\.id) }

    /// The methods this server accepts as a second factor.
    static var secondFactors: [AuthenticationMethod] { FlowMethods.all.filter(\.canBeSecondFactor).map(\.id) }

    /// Whether this server implements the method as a primary method.
    var isSupported: Bool { FlowMethods.module(self)?.canBePrimary ?? false }

    /// Whether the method can be a second factor (``ApplicationPolicy/mfaMethods``).
    var canBeSecondFactor: Bool { FlowMethods.module(self)?.canBeSecondFactor ?? false }

    /// Whether a user can use the method without having signed in before: a code sent to the
    /// identifier works from the first visit; an authenticator or a password must be set up first.
    var worksWithoutEnrolment: Bool { FlowMethods.module(self)?.worksWithoutEnrolment ?? false }
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
