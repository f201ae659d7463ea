import Foundation
import SQLKit

/// A project's upstream OpenID Connect providers (`identity_providers`).
struct IdentityProviderRepository: Sendable {
    let sql: any SQLDatabase

    /// Adds a provider; `false` when the project already has one with its ID.
    func insert(_ provider: IdentityProviderRecord) async throws -> Bool {
        guard try await find(projectId: provider.projectId, id: provider.id) == nil else { return false }
        try await sql.raw(
            """
            INSERT INTO identity_providers (project_id, id, preset, issuer, client_id, sealed_client_secret,
                sealed_apple_key, scopes, claims, label, icon_url, created_at, updated_at)
            VALUES (\(bind: provider.projectId), \(bind: provider.id), \(bind: provider.preset.rawValue),
                \(bind: provider.issuer), \(bind: provider.clientId), \(bind: provider.sealedClientSecret),
                \(bind: provider.sealedAppleKey), \(bind: provider.scopes.joined(separator: " ")),
                \(bind: try Self.encode(provider.claims)), \(bind: provider.label), \(bind: provider.iconURL),
                \(bind: provider.createdAt), \(bind: provider.updatedAt))
            """
        ).run()
        return true
    }

    /// Writes a provider's settings back.
    func update(_ provider: IdentityProviderRecord) async throws {
        try await sql.raw(
            """
            UPDATE identity_providers SET preset = \(bind: provider.preset.rawValue), issuer = \(bind: provider.issuer),
                client_id = \(bind: provider.clientId), sealed_client_secret = \(bind: provider.sealedClientSecret),
                sealed_apple_key = \(bind: provider.sealedAppleKey), scopes = \(bind: provider.scopes.joined(separator: " ")),
                claims = \(bind: try Self.encode(provider.claims)), label = \(bind: provider.label),
                icon_url = \(bind: provider.iconURL), updated_at = \(bind: provider.updatedAt)
            WHERE project_id = \(bind: provider.projectId) AND id = \(bind: provider.id)
            """
        ).run()
    }

    func find(projectId: String, id: String) async throws -> IdentityProviderRecord? {
        try await sql.raw(
            "SELECT * FROM identity_providers WHERE project_id = \(bind: projectId) AND id = \(bind: id)"
        ).first().map(Self.record)
    }

    /// The project's providers, by ID.
    func all(projectId: String) async throws -> [IdentityProviderRecord] {
        try await sql.raw(
            "SELECT * FROM identity_providers WHERE project_id = \(bind: projectId) ORDER BY id"
        ).all().map(Self.record)
    }

    /// Removes a provider; `false` when there was none. Identities linked through it stay (a
    /// provider added again under the same issuer finds them).
    func delete(projectId: String, id: String) async throws -> Bool {
        guard try await find(projectId: projectId, id: id) != nil else { return false }
        try await sql.raw(
            "DELETE FROM identity_providers WHERE project_id = \(bind: projectId) AND id = \(bind: id)"
        ).run()
        return true
    }

    private static func encode(_ claims: ClaimMapping) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(claims), as: UTF8.self)
    }

    private static func record(_ row: any SQLRow) throws -> IdentityProviderRecord {
        let claims = try row.decode(column: "claims", as: String.self)
        return IdentityProviderRecord(
            projectId: try row.decode(column: "project_id", as: String.self),
            id: try row.decode(column: "id", as: String.self),
            preset: IdentityProviderPreset(rawValue: try row.decode(column: "preset", as: String.self)) ?? .generic,
            issuer: try row.decode(column: "issuer", as: String.self),
            clientId: try row.decode(column: "client_id", as: String.self),
            sealedClientSecret: try row.decode(column: "sealed_client_secret", as: String?.self),
            sealedAppleKey: try row.decode(column: "sealed_apple_key", as: String?.self),
            scopes: try row.decode(column: "scopes", as: String.self).split(separator: " ").map(String.init),
            claims: (try? JSONDecoder().decode(ClaimMapping.self, from: Data(claims.utf8))) ?? ClaimMapping(),
            label: try row.decode(column: "label", as: String.self),
            iconURL: try row.decode(column: "icon_url", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self))
    }
}

extension Repositories {
    /// ``IdentityProviderRepository`` on this connection or transaction.
    var identityProviders: IdentityProviderRepository { IdentityProviderRepository(sql: sql) }
}
