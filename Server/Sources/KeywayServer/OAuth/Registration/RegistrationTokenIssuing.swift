import Foundation
import KeywayProtocol

extension KeywayServerApp {
    /// Issues an initial access token for dynamic client registration (RFC 7591 §3): clients
    /// registered with it at `POST /oauth2/register` are created from the template application
    /// `templateConfigId` (its project, flow types, user creation, refresh token and DPoP
    /// policies). The token may register any number of clients until it expires (`expiresIn`
    /// seconds, or never when `nil`) or is revoked; it is shown once and stored only as a hash.
    /// The admin API and `keyway-server project registration-token` issue, list and revoke them too.
    public func issueRegistrationToken(templateConfigId: String, expiresIn: TimeInterval? = nil) async throws
        -> Sensitive<String>
    {
        if let expiresIn, !(expiresIn > 0 && expiresIn <= 366 * 24 * 3600) {
            throw ConfigurationError("A registration token lives between one second and one year.")
        }
        do {
            let issued = try await admin.issueRegistrationToken(
                configId: templateConfigId, lifetimeMilliseconds: expiresIn.map { Int64(($0 * 1000).rounded()) })
            return Sensitive(issued.token)
        } catch AdminError.applicationNotFound {
            throw ConfigurationError("No application has the config ID \(templateConfigId).")
        }
    }
}
