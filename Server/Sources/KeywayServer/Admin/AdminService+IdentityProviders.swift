import Crypto
import Foundation

extension AdminService {
    /// The box that seals providers' secrets: the server's sealing key, under the master key.
    private func providerSecrets() async throws -> SecretBox {
        guard let masterKey else {
            throw AdminError.invalidInput(
                field: "masterKey", message: "Give the master key: identity providers' secrets are sealed under it.")
        }
        let key = try await ServerSecretKey.loadOrCreate(
            named: ServerSecretKey.sealedSecrets, in: database, now: clock.now(), masterKey: masterKey)
        return SecretBox(key: key)
    }

    /// Adds an upstream OpenID Connect provider to the project.
    ///
    /// - Throws: ``AdminError/invalidInput(field:message:)`` for an invalid member,
    ///   ``AdminError/identityProviderExists(providerId:)``, ``AdminError/projectNotFound(projectId:)``.
    package func createIdentityProvider(projectId: String, _ request: CreateIdentityProviderRequest) async throws
        -> AdminIdentityProvider
    {
        guard IdentityProviderRules.isValidSlug(request.id) else {
            throw AdminError.invalidInput(
                field: "id", message: "A provider's ID is 2 to 32 lowercase letters, digits or hyphens (such as google).")
        }
        let now = clock.now().epochMilliseconds
        var provider = IdentityProviderRecord(
            projectId: projectId, id: request.id, preset: .generic, issuer: "", clientId: "", sealedClientSecret: nil,
            sealedAppleKey: nil, scopes: ["openid", "email", "profile"], claims: ClaimMapping(), label: "", iconURL: nil,
            createdAt: now, updatedAt: now)
        let change = UpdateIdentityProviderRequest(
            preset: request.preset ?? "generic", issuer: request.issuer, clientId: request.clientId,
            clientSecret: request.clientSecret, appleKey: request.appleKey, scopes: request.scopes, claims: request.claims,
            label: request.label, iconURL: request.iconURL)
        try await apply(change, to: &provider)
        guard provider.sealedClientSecret != nil || provider.sealedAppleKey != nil else {
            throw AdminError.invalidInput(
                field: "clientSecret", message: "Give the client secret (or, for Apple, appleKey with the private key).")
        }
        let saved = provider
        try await database.write { repositories in
            guard try await repositories.applications.projectName(id: projectId) != nil else {
                throw AdminError.projectNotFound(projectId: projectId)
            }
            guard try await repositories.identityProviders.insert(saved) else {
                throw AdminError.identityProviderExists(providerId: saved.id)
            }
        }
        return Self.resource(saved)
    }

    /// The project's identity providers.
    ///
    /// - Throws: ``AdminError/projectNotFound(projectId:)``.
    package func identityProviders(projectId: String) async throws -> AdminIdentityProviderList {
        try await database.read { repositories in
            guard try await repositories.applications.projectName(id: projectId) != nil else {
                throw AdminError.projectNotFound(projectId: projectId)
            }
            return AdminIdentityProviderList(
                providers: try await repositories.identityProviders.all(projectId: projectId).map(Self.resource))
        }
    }

    /// One of the project's identity providers.
    ///
    /// - Throws: ``AdminError/identityProviderNotFound(providerId:)``.
    package func identityProvider(projectId: String, id: String) async throws -> AdminIdentityProvider {
        try await database.read { repositories in
            guard let provider = try await repositories.identityProviders.find(projectId: projectId, id: id) else {
                throw AdminError.identityProviderNotFound(providerId: id)
            }
            return Self.resource(provider)
        }
    }

    /// Changes the members of a provider given in `change`, validated; nothing is saved when one
    /// is invalid.
    ///
    /// - Throws: ``AdminError/invalidInput(field:message:)``, ``AdminError/identityProviderNotFound(providerId:)``.
    package func updateIdentityProvider(projectId: String, id: String, _ change: UpdateIdentityProviderRequest) async throws
        -> AdminIdentityProvider
    {
        guard var provider = try await database.read({ try await $0.identityProviders.find(projectId: projectId, id: id) })
        else { throw AdminError.identityProviderNotFound(providerId: id) }
        try await apply(change, to: &provider)
        provider.updatedAt = clock.now().epochMilliseconds
        let saved = provider
        try await database.write { repositories in
            guard try await repositories.identityProviders.find(projectId: projectId, id: id) != nil else {
                throw AdminError.identityProviderNotFound(providerId: id)
            }
            try await repositories.identityProviders.update(saved)
        }
        return Self.resource(saved)
    }

    /// Removes a provider: its method disappears from the flows; identities linked through it
    /// stay with their users.
    ///
    /// - Throws: ``AdminError/identityProviderNotFound(providerId:)``.
    package func deleteIdentityProvider(projectId: String, id: String) async throws {
        try await database.write { repositories in
            guard try await repositories.identityProviders.delete(projectId: projectId, id: id) else {
                throw AdminError.identityProviderNotFound(providerId: id)
            }
        }
    }

    /// Validates the members of `change` and applies them to `provider`, sealing secrets.
    private func apply(_ change: UpdateIdentityProviderRequest, to provider: inout IdentityProviderRecord) async throws {
        if let preset = change.preset {
            guard let value = IdentityProviderPreset(rawValue: preset) else {
                throw AdminError.invalidInput(field: "preset", message: "The preset is generic, apple or google, not \(preset).")
            }
            provider.preset = value
        }
        if let issuer = change.issuer {
            guard IdentityProviderRules.isValidIssuer(issuer) else {
                throw AdminError.invalidInput(
                    field: "issuer", message: "The issuer is an https URL without query or fragment (such as https://accounts.google.com).")
            }
            provider.issuer = issuer
        }
        if let clientId = change.clientId {
            guard (1...512).contains(clientId.count) else {
                throw AdminError.invalidInput(field: "clientId", message: "The client ID is 1 to 512 characters.")
            }
            provider.clientId = clientId
        }
        if let scopes = change.scopes {
            guard scopes.contains("openid"), scopes.count <= 20,
                scopes.allSatisfy({ !$0.isEmpty && $0.count <= 100 && !$0.contains(" ") })
            else {
                throw AdminError.invalidInput(field: "scopes", message: "The scopes include openid, each one word, at most 20.")
            }
            provider.scopes = scopes
        }
        if let claims = change.claims {
            var mapping = provider.claims
            if let value = claims.subject { mapping.subject = value }
            if let value = claims.email { mapping.email = value }
            if let value = claims.emailVerified { mapping.emailVerified = value }
            if let value = claims.name { mapping.name = value }
            if let value = claims.picture { mapping.picture = value }
            for name in [mapping.subject, mapping.email, mapping.emailVerified, mapping.name, mapping.picture]
            where name.isEmpty || name.count > 100 {
                throw AdminError.invalidInput(field: "claims", message: "Each claim name is 1 to 100 characters.")
            }
            provider.claims = mapping
        }
        if let label = change.label {
            let trimmed = label.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...100).contains(trimmed.count) else {
                throw AdminError.invalidInput(field: "label", message: "The label is 1 to 100 characters.")
            }
            provider.label = trimmed
        }
        if let icon = change.iconURL {
            if icon.isEmpty {
                provider.iconURL = nil
            } else {
                guard IdentityProviderRules.isValidIconURL(icon) else {
                    throw AdminError.invalidInput(field: "iconURL", message: "The icon is an https URL.")
                }
                provider.iconURL = icon
            }
        }
        let purpose = IdentityProviderRecord.secretPurpose(projectId: provider.projectId, id: provider.id)
        if let secret = change.clientSecret {
            guard (1...4096).contains(secret.count) else {
                throw AdminError.invalidInput(field: "clientSecret", message: "The client secret is 1 to 4096 characters.")
            }
            provider.sealedClientSecret = try await providerSecrets().seal(Array(secret.utf8), purpose: purpose)
            provider.sealedAppleKey = nil
        }
        if let appleKey = change.appleKey {
            guard let pem = appleKey.privateKeyPEM, (try? P256.Signing.PrivateKey(pemRepresentation: pem)) != nil else {
                throw AdminError.invalidInput(
                    field: "appleKey", message: "Give Apple's private key as PEM (the .p8 file), with teamId and keyId.")
            }
            guard !appleKey.teamId.isEmpty, !appleKey.keyId.isEmpty else {
                throw AdminError.invalidInput(field: "appleKey", message: "Give the team ID and the key ID of Apple's key.")
            }
            let key = AppleClientKey(teamId: appleKey.teamId, keyId: appleKey.keyId, privateKeyPEM: pem)
            provider.sealedAppleKey = try await providerSecrets().seal(Array(try JSONEncoder().encode(key)), purpose: purpose)
            provider.sealedClientSecret = nil
        }
    }

    /// A provider as the admin API shows it: never its secret, for Apple only its team and key IDs.
    private static func resource(_ provider: IdentityProviderRecord) -> AdminIdentityProvider {
        AdminIdentityProvider(
            projectId: provider.projectId, id: provider.id, preset: provider.preset.rawValue, issuer: provider.issuer,
            clientId: provider.clientId, hasClientSecret: provider.sealedClientSecret != nil,
            appleKey: nil, scopes: provider.scopes,
            claims: AdminClaimMapping(
                subject: provider.claims.subject, email: provider.claims.email,
                emailVerified: provider.claims.emailVerified, name: provider.claims.name, picture: provider.claims.picture),
            label: provider.label, iconURL: provider.iconURL, methodId: provider.methodId,
            createdAt: Date(epochMilliseconds: provider.createdAt), updatedAt: Date(epochMilliseconds: provider.updatedAt))
    }
}
