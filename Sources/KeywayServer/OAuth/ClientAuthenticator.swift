import Foundation
import KeywayJOSE

/// Client authentication at the token endpoint (RFC 6749 §2.3): `client_secret_basic`,
/// `client_secret_post` for confidential applications, `none` for public ones.
struct ClientAuthenticator: Sendable {
    let database: any Database

    func authenticate(form: [String: String], authorization: String?) async throws -> ApplicationRecord {
        var clientId = form["client_id"]
        var secret = form["client_secret"]
        let usedBasic = authorization != nil
        if let authorization {
            guard let credentials = Self.parseBasic(authorization) else {
                throw OAuthFailure.invalidClient("The Authorization header is not valid Basic credentials.", usedBasic: true)
            }
            if secret != nil {
                throw OAuthFailure.invalidRequest("Use one client authentication method, not two.")
            }
            if let formId = clientId, formId != credentials.id {
                throw OAuthFailure.invalidRequest("client_id does not match the Authorization header.")
            }
            clientId = credentials.id
            secret = credentials.secret
        }
        guard let clientId else {
            throw OAuthFailure.invalidRequest("client_id is required for public clients.")
        }
        guard let application = try await database.read({ try await $0.applications.find(configId: clientId) })
        else { throw OAuthFailure.invalidClient("Unknown client.", usedBasic: usedBasic) }
        switch application.clientType {
        case .public:
            guard secret == nil else {
                throw OAuthFailure.invalidClient("A public client does not authenticate with a secret.", usedBasic: usedBasic)
            }
        case .confidential:
            guard let secret, let storedHash = application.clientSecretHash,
                ConstantTime.equals(sha256Hex(secret), storedHash)
            else { throw OAuthFailure.invalidClient("Client authentication failed.", usedBasic: usedBasic) }
        }
        return application
    }

    /// `Basic base64(urlencode(id) ":" urlencode(secret))` (RFC 6749 §2.3.1).
    static func parseBasic(_ header: String) -> (id: String, secret: String)? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: data, encoding: .utf8),
            let colon = text.firstIndex(of: ":"),
            let id = FormURLEncoded.decode(text[..<colon]),
            let secret = FormURLEncoded.decode(text[text.index(after: colon)...]),
            !id.isEmpty
        else { return nil }
        return (id, secret)
    }
}
