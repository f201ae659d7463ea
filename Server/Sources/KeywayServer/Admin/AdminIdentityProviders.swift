import Foundation

/// Body of `POST /admin/projects/{projectId}/identity-providers`: an upstream OpenID Connect
/// provider. The secret (or Apple's key) is sealed at rest and never shown again.
package struct CreateIdentityProviderRequest: Codable, Sendable {
    /// The provider's slug in the project, `[a-z0-9-]{2,32}`.
    package var id: String
    /// `generic` (the default), `apple` or `google`.
    package var preset: String?
    /// The issuer, exactly as its discovery document names it.
    package var issuer: String
    package var clientId: String
    /// The client secret; for Apple, `appleKey` instead.
    package var clientSecret: String?
    /// Apple's key that signs the client-secret JWT.
    package var appleKey: AdminAppleKey?
    /// The scopes asked for (`openid email profile` when absent); `openid` is required.
    package var scopes: [String]?
    /// Which claims hold the identity's parts (the standard names when absent).
    package var claims: AdminClaimMapping?
    /// The button's label ("Continue with Google").
    package var label: String
    /// An `https` URL of the button's icon.
    package var iconURL: String?

    /// Creates a request with the given values.
    package init(
        id: String, preset: String? = nil, issuer: String, clientId: String, clientSecret: String? = nil,
        appleKey: AdminAppleKey? = nil, scopes: [String]? = nil, claims: AdminClaimMapping? = nil, label: String,
        iconURL: String? = nil
    ) {
        self.id = id
        self.preset = preset
        self.issuer = issuer
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.appleKey = appleKey
        self.scopes = scopes
        self.claims = claims
        self.label = label
        self.iconURL = iconURL
    }
}

/// Body of `PATCH /admin/projects/{projectId}/identity-providers/{id}`: the members given change;
/// an empty `iconURL` removes the icon.
package struct UpdateIdentityProviderRequest: Codable, Sendable {
    package var preset: String?
    package var issuer: String?
    package var clientId: String?
    package var clientSecret: String?
    package var appleKey: AdminAppleKey?
    package var scopes: [String]?
    package var claims: AdminClaimMapping?
    package var label: String?
    package var iconURL: String?

    /// A change of the given members.
    package init(
        preset: String? = nil, issuer: String? = nil, clientId: String? = nil, clientSecret: String? = nil,
        appleKey: AdminAppleKey? = nil, scopes: [String]? = nil, claims: AdminClaimMapping? = nil, label: String? = nil,
        iconURL: String? = nil
    ) {
        self.preset = preset
        self.issuer = issuer
        self.clientId = clientId
        self.clientSecret = clientSecret
        self.appleKey = appleKey
        self.scopes = scopes
        self.claims = claims
        self.label = label
        self.iconURL = iconURL
    }
}

/// Apple's key for the client-secret JWT: the team, the key's ID and its PKCS#8 PEM.
package struct AdminAppleKey: Codable, Sendable, Equatable {
    package var teamId: String
    package var keyId: String
    /// The private key; accepted, never shown.
    package var privateKeyPEM: String?

    /// Creates an Apple key description.
    package init(teamId: String, keyId: String, privateKeyPEM: String? = nil) {
        self.teamId = teamId
        self.keyId = keyId
        self.privateKeyPEM = privateKeyPEM
    }
}

/// Which claims hold the identity's parts.
package struct AdminClaimMapping: Codable, Sendable, Equatable {
    package var subject: String?
    package var email: String?
    package var emailVerified: String?
    package var name: String?
    package var picture: String?

    /// Creates a mapping; members left out keep the standard names.
    package init(
        subject: String? = nil, email: String? = nil, emailVerified: String? = nil, name: String? = nil,
        picture: String? = nil
    ) {
        self.subject = subject
        self.email = email
        self.emailVerified = emailVerified
        self.name = name
        self.picture = picture
    }
}

/// An identity provider as the admin API shows it: never its secret.
package struct AdminIdentityProvider: Codable, Sendable, Equatable {
    package var projectId: String
    package var id: String
    package var preset: String
    package var issuer: String
    package var clientId: String
    /// Whether a client secret is stored.
    package var hasClientSecret: Bool
    /// Apple's team and key IDs, when the server signs the client secret.
    package var appleKey: AdminAppleKey?
    package var scopes: [String]
    package var claims: AdminClaimMapping
    package var label: String
    package var iconURL: String?
    /// The method ID applications' policies list (`federation:google`).
    package var methodId: String
    package var createdAt: Date
    package var updatedAt: Date
}

/// The project's identity providers.
package struct AdminIdentityProviderList: Codable, Sendable, Equatable {
    package var providers: [AdminIdentityProvider]
}
