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
    /// Where authorization responses may be sent, each matched exactly: `https`, `http` on a
    /// loopback host, or (public clients only) a private-use scheme such as `com.example.app:/cb`.
    public var redirectURIs: [String]
    /// Where a browser may be sent after signing out; the same rules as ``redirectURIs``.
    public var postLogoutRedirectURIs: [String]
    /// The scopes the application may ask for, each one of the server's (`openid`, `email`,
    /// `phone`, `offline_access`); `nil` allows every one.
    public var allowedScopes: Set<String>?
    /// Whether the authorization endpoint accepts only pushed authorization requests (RFC 9126).
    public var requirePAR: Bool
    /// The algorithm its ID tokens are signed with: `RS256` (the default of OpenID Connect) or
    /// `ES256`.
    public var idTokenSignedResponseAlg: String
    /// The origins (`https://host[:port]`, `http` for loopback hosts) whose scripts may call the
    /// token, UserInfo and revocation endpoints for it.
    public var corsOrigins: [String]
    /// What it may do as an app's backend (confidential applications only).
    public var backendRoles: Set<BackendRole>

    /// Describes an application; everything but its name and client type has a default: sign-in
    /// only, no user created on first sign-in, the server's refresh token policy, DPoP optional,
    /// no redirect URIs, every scope, PAR not required, ID tokens signed with ES256, no CORS origins, no backend role.
    public init(
        name: String, clientType: ClientType, flowTypes: Set<FlowType> = [.signin], autoCreateUsers: Bool = false,
        refreshTokens: RefreshTokenPolicy? = nil, dpop: DPoPPolicy = DPoPPolicy(), redirectURIs: [String] = [],
        postLogoutRedirectURIs: [String] = [], allowedScopes: Set<String>? = nil, requirePAR: Bool = false,
        idTokenSignedResponseAlg: String = "RS256", corsOrigins: [String] = [], backendRoles: Set<BackendRole> = []
    ) {
        self.name = name
        self.clientType = clientType
        self.flowTypes = flowTypes
        self.autoCreateUsers = autoCreateUsers
        self.refreshTokens = refreshTokens
        self.dpop = dpop
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.allowedScopes = allowedScopes
        self.requirePAR = requirePAR
        self.idTokenSignedResponseAlg = idTokenSignedResponseAlg
        self.corsOrigins = corsOrigins
        self.backendRoles = backendRoles
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
        let settings = try Self.validatedSettings(of: registration)
        let now = configuration.clock.now().epochMilliseconds
        let configId = "cfg_\(SecureRandom.identifier(prefix: "").dropFirst())"
        let secret = registration.clientType == .confidential ? SecureRandom.token(prefix: "kcs") : nil
        let applicationId = SecureRandom.identifier(prefix: "app")
        try await database.write { repositories in
            let projectId = try await repositories.applications.ensureDevProject(createdAt: now)
            try await repositories.applications.insert(
                ApplicationRecord(
                    id: applicationId, projectId: projectId, configId: configId, name: name,
                    clientType: registration.clientType == .public ? .public : .confidential,
                    clientSecretHash: secret.map(sha256Hex), flowTypes: registration.flowTypes,
                    autoCreateUsers: registration.autoCreateUsers, isDev: false, createdAt: now,
                    refreshTokens: registration.refreshTokens, dpop: registration.dpop,
                    idTokenAlgorithm: settings.idTokenAlgorithm, allowedScopes: settings.allowedScopes,
                    requirePAR: registration.requirePAR, backendRoles: registration.backendRoles))
            try await repositories.redirectURIs.setURIs(settings.redirectURIs, kind: .login, applicationId: applicationId)
            try await repositories.redirectURIs.setURIs(
                settings.postLogoutRedirectURIs, kind: .logout, applicationId: applicationId)
            try await repositories.corsOrigins.setOrigins(settings.corsOrigins, applicationId: applicationId)
        }
        return RegisteredApplication(configId: configId, clientSecret: secret.map { Sensitive($0) })
    }

    /// The settings of `registration` checked by the admin API's rules, or the first refusal as a
    /// ``ConfigurationError``.
    private static func validatedSettings(of registration: ApplicationRegistration) throws -> (
        redirectURIs: [String], postLogoutRedirectURIs: [String], allowedScopes: Set<String>?,
        idTokenAlgorithm: SigningAlgorithm, corsOrigins: [String]
    ) {
        do {
            let publicClient = registration.clientType == .public
            if publicClient, !registration.backendRoles.isEmpty {
                throw AdminError.invalidInput(
                    field: "backendRoles", message: "Only a confidential application can be an app's backend.")
            }
            guard let algorithm = SigningAlgorithm(rawValue: registration.idTokenSignedResponseAlg) else {
                throw AdminError.invalidInput(
                    field: "idTokenSignedResponseAlg",
                    message: "ID tokens are signed with \(SigningAlgorithm.names.joined(separator: " or ")), not \(registration.idTokenSignedResponseAlg).")
            }
            let origins: [String]
            switch CORSOrigin.validate(registration.corsOrigins) {
            case .success(let valid): origins = valid
            case .failure(let error): throw AdminError.invalidInput(field: "corsOrigins", message: error.description)
            }
            return (
                try AdminService.validateRedirectURIs(
                    registration.redirectURIs, field: "redirectURIs", publicClient: publicClient),
                try AdminService.validateRedirectURIs(
                    registration.postLogoutRedirectURIs, field: "postLogoutRedirectURIs", publicClient: publicClient),
                try AdminService.validateScopes(registration.allowedScopes.map { $0.sorted() }),
                algorithm, origins
            )
        } catch let error as AdminError {
            throw ConfigurationError(error.description)
        }
    }
}
