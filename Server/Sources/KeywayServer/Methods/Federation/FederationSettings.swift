/// Which of the project's upstream identity providers an application offers: each becomes the
/// primary method `federation:<id>` in its flows, in this order.
public struct FederationSettings: Codable, Sendable, Equatable {
    /// The providers' IDs in the application's project. At most 10.
    public var providers: [String]

    public init(providers: [String] = []) {
        self.providers = providers
    }

    private enum CodingKeys: String, CodingKey {
        case providers
    }

    /// Decodes settings; a missing list is empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        providers = try container.decodeIfPresent([String].self, forKey: .providers) ?? []
    }

    /// The problems of the settings alone (the providers' existence in the project is checked
    /// when the policy is saved).
    func problems() -> [PolicyProblem] {
        var problems: [PolicyProblem] = []
        if providers.count > 10 {
            problems.append(
                PolicyProblem(code: "too_many_providers", field: "federation.providers", message: "List at most 10 identity providers."))
        }
        if Set(providers).count != providers.count {
            problems.append(
                PolicyProblem(
                    code: "duplicate_provider", field: "federation.providers", message: "Each identity provider may be listed once."))
        }
        for (index, id) in providers.enumerated() where !IdentityProviderRules.isValidSlug(id) {
            problems.append(
                PolicyProblem(
                    code: "invalid_provider_id", field: "federation.providers[\(index)]",
                    message: "\(id.debugDescription) is not an identity provider's ID ([a-z0-9-]{2,32})."))
        }
        return problems
    }

    /// The problems of providers the project does not have.
    static func unknownProviders(_ listed: [String], known: Set<String>) -> [PolicyProblem] {
        listed.enumerated().filter { !known.contains($0.element) && IdentityProviderRules.isValidSlug($0.element) }.map {
            PolicyProblem(
                code: "unknown_provider", field: "federation.providers[\($0.offset)]",
                message: "The project has no identity provider \($0.element.debugDescription); add it first.")
        }
    }
}

extension FederationSettings: DefaultedMethodSettings {
    static var defaults: FederationSettings { FederationSettings() }
    static let policyKey = "federation"
}

extension ApplicationPolicy {
    /// The project's upstream identity providers the application offers (`federation`; each is the method `federation:<id>`).
    public var federation: FederationSettings {
        get { methodSettings[defaulted: FederationSettings.self] }
        set { methodSettings[defaulted: FederationSettings.self] = newValue }
    }
}

extension FlowPolicy {
    /// The project's upstream identity providers offered (`federation:<id>`), in order.
    var federationProviders: [String] {
        get { methodSettings[defaulted: FederationSettings.self].providers }
        set { methodSettings[defaulted: FederationSettings.self].providers = newValue }
    }
}
