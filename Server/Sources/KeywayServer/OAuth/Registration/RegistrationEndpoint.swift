import Foundation
import KeywayProtocol
import Logging

/// `POST /oauth2/register`: dynamic client registration (RFC 7591), protected by an initial
/// access token that names a template application. The new client belongs to the template's
/// project and inherits its flow types, user creation, refresh token and DPoP policies; the
/// request chooses its name, client authentication method, grant types, keys, ID token
/// algorithm (`RS256` unless it asks for `ES256`), redirect URIs (required with the
/// `authorization_code` grant), post-logout redirect URIs and scopes. Clients registered so are
/// not first-party: their users are asked for consent.
struct RegistrationEndpoint: Sendable {
    let database: any Database
    let clock: any ServerClock
    let clientSecrets: ClientSecretDerivation
    let logger: Logger

    func handle(body: Data, authorization: String?) async throws -> ClientRegistrationResponse {
        guard let authorization else { throw OAuthFailure.missingBearer }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer", !parts[1].isEmpty else {
            throw OAuthFailure.invalidToken("Send the initial access token as a Bearer token.", status: 400)
        }
        let now = clock.now().epochMilliseconds
        let tokenHash = sha256Hex(String(parts[1]))
        let template: ApplicationRecord? = try await database.read { repositories in
            guard let id = try await repositories.registrationTokens.template(hash: tokenHash, now: now) else {
                return nil
            }
            return try await repositories.applications.find(id: id)
        }
        guard let template else {
            throw OAuthFailure.invalidToken("The initial access token is invalid or expired.", status: 401)
        }
        let metadata = try ClientMetadata(json: body)

        let configId = "cfg_\(SecureRandom.identifier(prefix: "").dropFirst())"
        var secret: String?
        var secretHash: String?
        var salt: String?
        switch metadata.authMethod {
        case .none, .privateKeyJWT:
            break
        case .clientSecretBasic, .clientSecretPost:
            let drawn = SecureRandom.token(prefix: "kcs")
            secret = drawn
            secretHash = sha256Hex(drawn)
        case .clientSecretJWT:
            let drawn = SecureRandom.token(prefix: "")
            salt = drawn
            secret = clientSecrets.secret(configId: configId, salt: drawn)
        }
        let name = metadata.name ?? "\(template.name) client"
        let record = ApplicationRecord(
            id: SecureRandom.identifier(prefix: "app"), projectId: template.projectId, configId: configId, name: name,
            clientType: metadata.authMethod == .none ? .public : .confidential, clientSecretHash: secretHash,
            flowTypes: template.flowTypes, autoCreateUsers: template.autoCreateUsers, isDev: false, createdAt: now,
            refreshTokens: template.refreshTokens, dpop: template.dpop, authMethod: metadata.authMethod,
            assertionAlgorithm: metadata.assertionAlgorithm, clientSecretSalt: salt, jwks: metadata.jwks,
            grantTypes: Set(metadata.grantTypes), templateId: template.id, idTokenAlgorithm: metadata.idTokenAlgorithm,
            allowedScopes: metadata.allowedScopes, firstParty: false, links: metadata.links.isEmpty ? nil : metadata.links)
        let stored: Bool = try await database.write { repositories in
            // The token may have been revoked or expired since it was read.
            guard try await repositories.registrationTokens.template(hash: tokenHash, now: now) == template.id else {
                return false
            }
            try await repositories.applications.insert(record)
            try await repositories.redirectURIs.setURIs(metadata.redirectURIs, kind: .login, applicationId: record.id)
            try await repositories.redirectURIs.setURIs(
                metadata.postLogoutRedirectURIs, kind: .logout, applicationId: record.id)
            try await repositories.registrationTokens.recordUse(hash: tokenHash, at: now)
            return true
        }
        guard stored else {
            throw OAuthFailure.invalidToken("The initial access token is invalid or expired.", status: 401)
        }
        logger.info(
            "client registered",
            metadata: ["client": "\(configId)", "template": "\(template.configId)", "method": "\(metadata.authMethod.rawValue)"])
        return ClientRegistrationResponse(
            clientID: configId, clientIdIssuedAt: Int(now / 1000), clientSecret: secret.map { Sensitive($0) },
            clientSecretExpiresAt: secret == nil ? nil : 0, clientName: name,
            tokenEndpointAuthMethod: metadata.authMethod.rawValue, tokenEndpointAuthSigningAlg: metadata.assertionAlgorithm,
            grantTypes: metadata.grantTypes, responseTypes: metadata.grantTypes.contains("authorization_code") ? ["code"] : [],
            jwks: metadata.jwks, idTokenSignedResponseAlg: metadata.idTokenAlgorithm.rawValue,
            redirectUris: metadata.redirectURIs.isEmpty ? nil : metadata.redirectURIs,
            postLogoutRedirectUris: metadata.postLogoutRedirectURIs.isEmpty ? nil : metadata.postLogoutRedirectURIs,
            scope: metadata.scope, logoUri: metadata.links.logo, clientUri: metadata.links.home,
            policyUri: metadata.links.policy, tosUri: metadata.links.terms)
    }
}
