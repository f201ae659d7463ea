import Foundation

extension AdminService {
    /// Longest lifetime of an initial access token: one year.
    package static let maximumRegistrationTokenLifetime = 366 * 86_400

    /// Issues an initial access token for dynamic client registration (RFC 7591 §3) whose clients
    /// are created from the application `configId` (its project, flow types, user creation,
    /// refresh token and DPoP policies). The token registers any number of clients until it
    /// expires (after `expiresInSeconds`, at most a year; never when `nil`) or is revoked. It is
    /// returned this once and stored only as a hash.
    ///
    /// - Throws: ``AdminError/invalidInput(field:message:)`` for a lifetime out of range,
    ///   ``AdminError/applicationNotFound(configId:)``.
    package func issueRegistrationToken(configId: String, expiresInSeconds: Int? = nil) async throws
        -> IssuedRegistrationToken
    {
        if let lifetime = expiresInSeconds, !(1...Self.maximumRegistrationTokenLifetime).contains(lifetime) {
            throw AdminError.invalidInput(
                field: "expiresInSeconds",
                message: "A registration token lives between 1 second and \(Self.maximumRegistrationTokenLifetime) seconds (a year); leave it out for a token that does not expire.")
        }
        return try await issueRegistrationToken(
            configId: configId, lifetimeMilliseconds: expiresInSeconds.map { Int64($0) * 1000 })
    }

    /// Issues an initial access token living `lifetimeMilliseconds` (`nil`: for ever); the
    /// lifetime is checked by the caller.
    func issueRegistrationToken(configId: String, lifetimeMilliseconds: Int64?) async throws -> IssuedRegistrationToken {
        let now = clock.now().epochMilliseconds
        let expiresAt = lifetimeMilliseconds.map { now + $0 }
        let token = SecureRandom.token(prefix: "kit")
        let id = SecureRandom.identifier(prefix: "rit")
        try await database.write { repositories in
            guard let template = try await repositories.applications.find(configId: configId) else {
                throw AdminError.applicationNotFound(configId: configId)
            }
            try await repositories.registrationTokens.insert(
                id: id, hash: sha256Hex(token), templateApplicationId: template.id, createdAt: now, expiresAt: expiresAt)
        }
        return IssuedRegistrationToken(
            id: id, token: token, templateConfigId: configId, expiresAt: expiresAt.map { Date(epochMilliseconds: $0) })
    }

    /// The initial access tokens issued for the application, oldest first, expired ones
    /// included: never the tokens themselves.
    ///
    /// - Throws: ``AdminError/applicationNotFound(configId:)``.
    package func registrationTokens(configId: String) async throws -> [AdminRegistrationToken] {
        let now = clock.now().epochMilliseconds
        return try await database.read { repositories in
            guard let template = try await repositories.applications.find(configId: configId) else {
                throw AdminError.applicationNotFound(configId: configId)
            }
            return try await repositories.registrationTokens.entries(templateApplicationId: template.id).map { entry in
                AdminRegistrationToken(
                    id: entry.id, templateConfigId: configId, createdAt: Date(epochMilliseconds: entry.createdAt),
                    expiresAt: entry.expiresAt.map { Date(epochMilliseconds: $0) },
                    expired: entry.expiresAt.map { $0 <= now } ?? false, registeredClients: entry.registeredClients,
                    lastUsedAt: entry.lastUsedAt.map { Date(epochMilliseconds: $0) })
            }
        }
    }

    /// Revokes (deletes) one initial access token of the application: it registers no more
    /// clients; those it registered stay.
    ///
    /// - Throws: ``AdminError/applicationNotFound(configId:)``,
    ///   ``AdminError/registrationTokenNotFound(tokenId:)``.
    package func revokeRegistrationToken(configId: String, tokenId: String) async throws {
        try await database.write { repositories in
            guard let template = try await repositories.applications.find(configId: configId) else {
                throw AdminError.applicationNotFound(configId: configId)
            }
            guard try await repositories.registrationTokens.delete(id: tokenId, templateApplicationId: template.id) else {
                throw AdminError.registrationTokenNotFound(tokenId: tokenId)
            }
        }
    }
}
