import Foundation

extension AdminService {
    /// One application with its settings.
    package func application(configId: String) async throws -> AdminApplication {
        try await database.read { repositories in
            guard let application = try await repositories.applications.find(configId: configId) else {
                throw AdminError.applicationNotFound(configId: configId)
            }
            return try await Self.resource(application, in: repositories)
        }
    }

    /// Changes the application's settings given in `update`, in one transaction: the ID token
    /// algorithm (`ES256` or `RS256`), the origins allowed cross-origin access (see
    /// ``CORSOrigin``), the redirect URIs and post-logout redirect URIs (see ``RedirectURI``;
    /// private-use schemes for public clients only), the allowed scopes (a subset of
    /// ``Scopes/supported``, or all of them), the DPoP policy and whether pushed authorization
    /// requests are required, and the backend roles (only a confidential application the
    /// administrators made may hold one). Lists are replaced as a whole. Returns the application
    /// as saved.
    ///
    /// - Throws: ``AdminError/invalidInput(field:message:)`` for the first invalid setting;
    ///   nothing is saved then.
    package func updateApplication(configId: String, _ update: UpdateApplicationRequest) async throws -> AdminApplication {
        var algorithm: SigningAlgorithm?
        if let name = update.idTokenSignedResponseAlg {
            guard let known = SigningAlgorithm(rawValue: name) else {
                throw AdminError.invalidInput(
                    field: "idTokenSignedResponseAlg",
                    message: "ID tokens are signed with \(SigningAlgorithm.names.joined(separator: " or ")), not \(name).")
            }
            algorithm = known
        }
        var origins: [String]?
        if let submitted = update.corsOrigins {
            switch CORSOrigin.validate(submitted) {
            case .success(let valid): origins = valid
            case .failure(let error): throw AdminError.invalidInput(field: "corsOrigins", message: error.description)
            }
        }
        let scopes = try update.allowedScopes.map(Self.validateScopes)
        let roles = try update.backendRoles.map(Self.validateBackendRoles)
        let (newAlgorithm, newOrigins) = (algorithm, origins)
        return try await database.write { repositories in
            guard let application = try await repositories.applications.find(configId: configId) else {
                throw AdminError.applicationNotFound(configId: configId)
            }
            let publicClient = application.clientType == .public
            // Validated before anything is written, so a refusal leaves the transaction empty.
            let redirectURIs = try update.redirectUris.map {
                try Self.validateRedirectURIs($0, field: "redirectUris", publicClient: publicClient)
            }
            let logoutURIs = try update.postLogoutRedirectUris.map {
                try Self.validateRedirectURIs($0, field: "postLogoutRedirectUris", publicClient: publicClient)
            }
            let dpop = try update.dpop.map { try Self.dpopPolicy($0, current: application.dpop) }
            if let roles, !roles.isEmpty {
                guard application.clientType == .confidential, application.firstParty else {
                    throw AdminError.invalidInput(
                        field: "backendRoles",
                        message: application.firstParty
                            ? "Only a confidential application (one with a client secret) can be an app's backend."
                            : "A client registered through /oauth2/register cannot hold a backend role: its secret is held outside the project.")
                }
            }

            if let algorithm = newAlgorithm { try await repositories.applications.setIDTokenAlgorithm(algorithm, id: application.id) }
            if let origins = newOrigins { try await repositories.corsOrigins.setOrigins(origins, applicationId: application.id) }
            if let redirectURIs {
                try await repositories.redirectURIs.setURIs(redirectURIs, kind: .login, applicationId: application.id)
            }
            if let logoutURIs {
                try await repositories.redirectURIs.setURIs(logoutURIs, kind: .logout, applicationId: application.id)
            }
            if let scopes { try await repositories.applications.setAllowedScopes(scopes, id: application.id) }
            if let dpop { try await repositories.applications.setDPoP(dpop, id: application.id) }
            if let roles { try await repositories.applications.setBackendRoles(roles, id: application.id) }
            if let required = update.requirePushedAuthorizationRequests {
                try await repositories.applications.setRequirePAR(required, id: application.id)
            }
            if let required = update.requirePkce {
                try await repositories.applications.setRequirePkce(required, id: application.id)
            }
            guard let saved = try await repositories.applications.find(id: application.id) else {
                throw AdminError.applicationNotFound(configId: configId)
            }
            return try await Self.resource(saved, in: repositories)
        }
    }

    /// The application as the admin API shows it, with its origins and redirect URIs.
    static func resource(_ application: ApplicationRecord, in repositories: Repositories) async throws -> AdminApplication {
        resource(
            application, corsOrigins: try await repositories.corsOrigins.origins(applicationId: application.id),
            redirectURIs: try await repositories.redirectURIs.uris(.login, applicationId: application.id),
            postLogoutRedirectURIs: try await repositories.redirectURIs.uris(.logout, applicationId: application.id))
    }

    /// The backend roles named, or the refusal of the first unknown name.
    static func validateBackendRoles(_ names: [String]) throws -> Set<BackendRole> {
        try Set(
            names.map { name in
                guard let role = BackendRole(rawValue: name) else {
                    throw AdminError.invalidInput(
                        field: "backendRoles",
                        message: "\(name) is not a backend role; the roles are \(BackendRole.allCases.sorted().map(\.rawValue).joined(separator: " and ")).")
                }
                return role
            })
    }

    /// The redirect URIs, validated (each once, sorted), or the refusal naming `field`.
    static func validateRedirectURIs(_ uris: [String], field: String, publicClient: Bool) throws -> [String] {
        switch RedirectURI.validate(uris, publicClient: publicClient) {
        case .success(let valid): return valid
        case .failure(let error): throw AdminError.invalidInput(field: field, message: error.description)
        }
    }

    /// The allowed scopes: `nil` (every supported scope) or a non-empty subset of ``Scopes/supported``.
    static func validateScopes(_ scopes: [String]?) throws -> Set<String>? {
        guard let scopes else { return nil }
        guard !scopes.isEmpty else {
            throw AdminError.invalidInput(
                field: "allowedScopes",
                message: "Allow at least one scope, or null for every scope the server supports.")
        }
        let unknown = scopes.filter { !Scopes.supported.contains($0) }
        guard unknown.isEmpty else {
            throw AdminError.invalidInput(
                field: "allowedScopes",
                message: "Unknown scope \(unknown.joined(separator: ", ")); the server supports \(Scopes.supported.joined(separator: ", ")).")
        }
        return Set(scopes)
    }

    /// The DPoP policy after `change`: its members replace those of `current`.
    static func dpopPolicy(_ change: DPoPSettingsChange, current: DPoPPolicy) throws -> DPoPPolicy {
        var policy = current
        if let name = change.mode {
            guard let mode = DPoPPolicy.Mode(rawValue: name) else {
                throw AdminError.invalidInput(
                    field: "dpop.mode", message: "The DPoP mode is off, optional or required, not \(name).")
            }
            policy.mode = mode
        }
        if let requireNonce = change.requireNonce { policy.requireNonce = requireNonce }
        guard !(policy.mode == .off && policy.requireNonce) else {
            throw AdminError.invalidInput(
                field: "dpop.requireNonce",
                message: "A nonce is required only of DPoP proofs; with the mode off there are none. Set requireNonce to false or choose optional or required.")
        }
        return policy
    }
}
