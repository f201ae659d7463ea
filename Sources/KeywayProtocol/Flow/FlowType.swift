/// What a flow is for. Unknown values from a newer server decode without failing.
public struct FlowType: OpenStringValue {
    /// The flow type as the wire spells it (`signin`).
    public let rawValue: String
    /// Creates a flow type from its wire spelling; one this version does not know is kept as it is.
    ///
    /// - Parameter rawValue: The flow type as the wire spells it.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Sign an existing user in.
    public static let signin = FlowType(rawValue: "signin")
    /// Create a new user.
    public static let signup = FlowType(rawValue: "signup")
    /// Let a signed-in user manage their account (methods, devices).
    public static let accountManage = FlowType(rawValue: "accountManage")

}
