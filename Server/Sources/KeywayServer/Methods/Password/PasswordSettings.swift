import Foundation

/// Password rules.
public struct PasswordSettings: Codable, Sendable, Equatable {
    /// The fewest characters a password may have: 8…128, default 10.
    public var minimumLength: Int

    public init(minimumLength: Int = 10) {
        self.minimumLength = minimumLength
    }

    private enum CodingKeys: String, CodingKey { case minimumLength }

    /// Decodes settings; `minimumLength` defaults to 10.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        minimumLength = try container.decodeIfPresent(Int.self, forKey: .minimumLength) ?? 10
    }
}

extension PasswordSettings: DefaultedMethodSettings {
    static var defaults: PasswordSettings { PasswordSettings() }
    static let policyKey = "password"
}

extension ApplicationPolicy {
    /// Password rules, for applications offering ``AuthenticationMethod/password`` (`password`).
    public var password: PasswordSettings {
        get { methodSettings[defaulted: PasswordSettings.self] }
        set { methodSettings[defaulted: PasswordSettings.self] = newValue }
    }
}

extension FlowPolicy {
    /// The shortest password accepted.
    var passwordMinimumLength: Int {
        get { methodSettings[defaulted: PasswordSettings.self].minimumLength }
        set { methodSettings[defaulted: PasswordSettings.self].minimumLength = newValue }
    }
}
