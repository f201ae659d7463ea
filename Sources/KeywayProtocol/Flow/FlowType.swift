/// What a flow is for. Unknown values from a newer server decode without failing.
public struct FlowType: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Sign an existing user in.
    public static let signin = FlowType(rawValue: "signin")
    /// Create a new user.
    public static let signup = FlowType(rawValue: "signup")
    /// Let a signed-in user manage their account (methods, devices).
    public static let accountManage = FlowType(rawValue: "accountManage")

}
