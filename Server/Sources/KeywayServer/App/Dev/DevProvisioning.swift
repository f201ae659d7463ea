import Foundation
import KeywayProtocol

/// Dev mode's first-start setup: a dev project with one public application, whose loopback
/// redirect URIs (`http://127.0.0.1/callback`, `http://[::1]/callback`, any port) let a native
/// app or `keyway login --browser` sign in through the hosted pages at once.
enum DevProvisioning {
    /// The config ID of the dev application, creating the project and application when missing.
    /// A pinned config ID names (or creates) that exact application.
    static func ensureDevApplication(in database: any Database, pinnedConfigId: String?, now: Date) async throws
        -> String
    {
        if let pinned = pinnedConfigId {
            guard isValidConfigId(pinned) else {
                throw ConfigurationError(
                    "The config ID \(pinned.debugDescription) is invalid: use 3 to 64 characters of letters, digits, '-', '_' or '.'."
                )
            }
        }
        return try await database.write { repositories in
            if let pinned = pinnedConfigId {
                if let existing = try await repositories.applications.find(configId: pinned) {
                    guard existing.isDev else {
                        throw ConfigurationError("The config ID \(pinned) belongs to a non-dev application.")
                    }
                    return existing.configId
                }
            } else if let existing = try await repositories.applications.firstDevApplication() {
                return existing.configId
            }
            let millis = now.epochMilliseconds
            let projectId = try await repositories.applications.ensureDevProject(createdAt: millis)
            let configId = pinnedConfigId ?? defaultConfigId
            let application = ApplicationRecord(
                id: SecureRandom.identifier(prefix: "app"), projectId: projectId, configId: configId,
                name: "Dev application", clientType: .public, clientSecretHash: nil, flowTypes: [.signin],
                autoCreateUsers: true, isDev: true, createdAt: millis)
            try await repositories.applications.insert(application)
            try await repositories.redirectURIs.setURIs(
                loopbackRedirectURIs, kind: .login, applicationId: application.id)
            return configId
        }
    }

    /// The dev application's config ID unless one is pinned (`--dev-config-id`): the same on
    /// every new dev database, so the commands of the README and the guides work as pasted. A
    /// database whose dev application was made before keeps its own.
    static let defaultConfigId = "cfg_dev"

    /// The dev application's redirect URIs.
    static let loopbackRedirectURIs = ["http://127.0.0.1/callback", "http://[::1]/callback"]

    static func isValidConfigId(_ value: String) -> Bool {
        (3...64).contains(value.utf8.count)
            && value.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45
                    || byte == 95 || byte == 46
            }
    }
}
