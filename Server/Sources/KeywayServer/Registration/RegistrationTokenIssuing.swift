import Foundation
import KeywayProtocol

extension KeywayServerApp {
    /// Issues an initial access token for dynamic client registration (RFC 7591 §3): clients
    /// registered with it at `POST /oauth2/register` are created from the template application
    /// `templateConfigId` (its project, flow types, user creation, refresh token and DPoP
    /// policies). The token may register any number of clients until it expires (`expiresIn`
    /// seconds, or never when `nil`); it is shown once and stored only as a hash.
    public func issueRegistrationToken(templateConfigId: String, expiresIn: TimeInterval? = nil) async throws
        -> Sensitive<String>
    {
        if let expiresIn, !(expiresIn > 0 && expiresIn <= 366 * 24 * 3600) {
            throw ConfigurationError("A registration token lives between one second and one year.")
        }
        let now = configuration.clock.now().epochMilliseconds
        let token = SecureRandom.token(prefix: "kit")
        let stored: Bool = try await database.write { repositories in
            guard let template = try await repositories.applications.find(configId: templateConfigId) else {
                return false
            }
            try await repositories.registrationTokens.insert(
                hash: sha256Hex(token), templateApplicationId: template.id, createdAt: now,
                expiresAt: expiresIn.map { now + Int64(($0 * 1000).rounded()) })
            return true
        }
        guard stored else { throw ConfigurationError("No application has the config ID \(templateConfigId).") }
        return Sensitive(token)
    }
}
