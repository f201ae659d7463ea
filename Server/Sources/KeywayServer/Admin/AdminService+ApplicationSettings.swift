import Foundation

extension AdminService {
    /// One application with its settings.
    package func application(configId: String) async throws -> AdminApplication {
        try await database.read { repositories in
            guard let application = try await repositories.applications.find(configId: configId) else {
                throw AdminError.applicationNotFound(configId: configId)
            }
            return Self.resource(
                application, corsOrigins: try await repositories.corsOrigins.origins(applicationId: application.id))
        }
    }

    /// Changes the application's settings given in `update`, in one transaction: the ID token
    /// algorithm (`ES256` or `RS256`) and the origins allowed cross-origin access (replaced as a
    /// whole; see ``CORSOrigin`` for what an origin may be). Returns the application as saved.
    ///
    /// - Throws: ``AdminError/invalidInput(field:message:)`` for an unknown algorithm or an
    ///   invalid origin; nothing is saved then.
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
        let (newAlgorithm, newOrigins) = (algorithm, origins)
        return try await database.write { repositories in
            guard let application = try await repositories.applications.find(configId: configId) else {
                throw AdminError.applicationNotFound(configId: configId)
            }
            if let algorithm = newAlgorithm { try await repositories.applications.setIDTokenAlgorithm(algorithm, id: application.id) }
            if let origins = newOrigins { try await repositories.corsOrigins.setOrigins(origins, applicationId: application.id) }
            guard let saved = try await repositories.applications.find(id: application.id) else {
                throw AdminError.applicationNotFound(configId: configId)
            }
            return Self.resource(saved, corsOrigins: try await repositories.corsOrigins.origins(applicationId: saved.id))
        }
    }
}
