import Foundation
import KeywayProtocol

/// An application to register, as embedding code or an admin tool describes it.
public struct ApplicationRegistration: Sendable {
    /// Public applications redeem codes with PKCE alone; confidential ones also need the secret.
    public enum ClientType: String, Sendable {
        case `public`
        case confidential
    }

    public var name: String
    public var clientType: ClientType
    public var flowTypes: Set<FlowType>
    /// Whether a verified email without a user creates the user.
    public var autoCreateUsers: Bool
    /// The application's refresh token lifetimes and reuse grace period; `nil` uses the server's.
    public var refreshTokens: RefreshTokenPolicy?
    /// Whether the application's tokens are bound to a client key with DPoP.
    public var dpop: DPoPPolicy

    public init(
        name: String, clientType: ClientType, flowTypes: Set<FlowType> = [.signin], autoCreateUsers: Bool = false,
        refreshTokens: RefreshTokenPolicy? = nil, dpop: DPoPPolicy = DPoPPolicy()
    ) {
        self.name = name
        self.clientType = clientType
        self.flowTypes = flowTypes
        self.autoCreateUsers = autoCreateUsers
        self.refreshTokens = refreshTokens
        self.dpop = dpop
    }
}

/// A registered application's credentials. The client secret is shown once and stored only as a hash.
public struct RegisteredApplication: Sendable {
    public let configId: String
    public let clientSecret: Sensitive<String>?
}

extension KeywayServerApp {
    /// Registers an application in the dev project (creating the project if needed).
    public func register(_ registration: ApplicationRegistration) async throws -> RegisteredApplication {
        let name = registration.name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 100 else {
            throw ConfigurationError("An application needs a name of 1 to 100 characters.")
        }
        guard !registration.flowTypes.isEmpty else {
            throw ConfigurationError("An application needs at least one flow type.")
        }
        try registration.refreshTokens?.validate()
        let now = configuration.clock.now().epochMilliseconds
        let configId = "cfg_\(SecureRandom.identifier(prefix: "").dropFirst())"
        let secret = registration.clientType == .confidential ? SecureRandom.token(prefix: "kcs") : nil
        try await database.write { repositories in
            let projectId = try await repositories.applications.ensureDevProject(createdAt: now)
            try await repositories.applications.insert(
                ApplicationRecord(
                    id: SecureRandom.identifier(prefix: "app"), projectId: projectId, configId: configId, name: name,
                    clientType: registration.clientType == .public ? .public : .confidential,
                    clientSecretHash: secret.map(sha256Hex), flowTypes: registration.flowTypes,
                    autoCreateUsers: registration.autoCreateUsers, isDev: false, createdAt: now,
                    refreshTokens: registration.refreshTokens, dpop: registration.dpop))
        }
        return RegisteredApplication(configId: configId, clientSecret: secret.map { Sensitive($0) })
    }
}
