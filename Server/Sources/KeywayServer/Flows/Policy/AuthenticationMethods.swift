import KeywayProtocol

/// How an application asks for a second factor.
public enum MFAMode: String, Codable, Sendable, Hashable, CaseIterable {
    /// Never.
    case off
    /// Users who enrolled a second-factor method are asked for it; others are not.
    case optional
    /// Every sign-in needs a second factor; users without one enrol one first.
    case required
}
