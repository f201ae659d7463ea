import Foundation

/// An upstream OpenID Connect provider of a project: users sign in with it through the method
/// `federation:<id>`. Its client secret (or, for Apple, the key that signs the client secret) is
/// kept sealed with the ``SecretBox``.
struct IdentityProviderRecord: Sendable, Equatable {
    var projectId: String
    /// The provider's slug in its project (`google`), `[a-z0-9-]{2,32}`.
    var id: String
    var preset: IdentityProviderPreset
    /// The issuer, exactly as its discovery document states it.
    var issuer: String
    var clientId: String
    /// The client secret, sealed (purpose ``IdentityProviderRecord/secretPurpose(projectId:id:)``).
    var sealedClientSecret: String?
    /// Apple's signing key as JSON (``AppleClientKey``), sealed under the same purpose.
    var sealedAppleKey: String?
    var scopes: [String]
    var claims: ClaimMapping
    /// The button's label ("Continue with Google").
    var label: String
    var iconURL: String?
    var createdAt: Int64
    var updatedAt: Int64

    /// The purpose the provider's secrets are sealed under: bound to the project and the ID.
    static func secretPurpose(projectId: String, id: String) -> String { "idp:\(projectId):\(id)" }

    /// The method ID of the provider (`federation:google`).
    var methodId: String { FederationMethodID.methodId(providerId: id) }
}

/// How a provider's preset adjusts the protocol: Apple answers with `form_post` and sends the
/// user's name only on the first sign-in; Google's ID tokens name the issuer with or without the
/// scheme.
enum IdentityProviderPreset: String, Sendable, Codable, CaseIterable {
    case generic
    case apple
    case google

    /// The `iss` values an ID token of this provider may carry for the configured `issuer`.
    /// Google's ID tokens name `https://accounts.google.com` or `accounts.google.com`: the google
    /// preset accepts the configured issuer with and without its scheme.
    func acceptedIssuers(_ issuer: String) -> Set<String> {
        guard self == .google else { return [issuer] }
        var accepted: Set<String> = [issuer]
        for scheme in ["https://", "http://"] where issuer.lowercased().hasPrefix(scheme) {
            accepted.insert(String(issuer.dropFirst(scheme.count)))
        }
        return accepted
    }

    /// The response mode the authorization request asks for, when not the default (`query`).
    var responseMode: String? { self == .apple ? "form_post" : nil }
}

/// Which ID token (or UserInfo) claims hold the identity's parts.
struct ClaimMapping: Sendable, Codable, Equatable {
    var subject: String = "sub"
    var email: String = "email"
    var emailVerified: String = "email_verified"
    var name: String = "name"
    var picture: String = "picture"

    init() {}

    /// Reads a mapping; a claim left out keeps its standard name.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subject = try container.decodeIfPresent(String.self, forKey: .subject) ?? "sub"
        email = try container.decodeIfPresent(String.self, forKey: .email) ?? "email"
        emailVerified = try container.decodeIfPresent(String.self, forKey: .emailVerified) ?? "email_verified"
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? "name"
        picture = try container.decodeIfPresent(String.self, forKey: .picture) ?? "picture"
    }
}

/// Apple's key for the ES256 client-secret JWT the server makes for each token request.
struct AppleClientKey: Sendable, Codable, Equatable {
    var teamId: String
    var keyId: String
    var privateKeyPEM: String
}

/// The `federation:<id>` method IDs.
enum FederationMethodID {
    static let prefix = "federation:"

    /// The method ID of a provider.
    static func methodId(providerId: String) -> String { prefix + providerId }

    /// The provider ID of a `federation:<id>` method ID, or `nil` for another method.
    static func providerId(_ methodId: String) -> String? {
        guard methodId.hasPrefix(prefix) else { return nil }
        let id = String(methodId.dropFirst(prefix.count))
        return IdentityProviderRules.isValidSlug(id) ? id : nil
    }
}

/// The rules of a provider's settings.
enum IdentityProviderRules {
    /// `[a-z0-9-]{2,32}`.
    static func isValidSlug(_ id: String) -> Bool {
        (2...32).contains(id.count)
            && id.unicodeScalars.allSatisfy { (97...122).contains($0.value) || (48...57).contains($0.value) || $0 == "-" }
    }

    /// An issuer: `https` (or `http` to a loopback host, for development and tests), a host, no
    /// query, fragment or credentials.
    static func isValidIssuer(_ issuer: String) -> Bool {
        guard let url = URL(string: issuer), url.query == nil, url.fragment == nil, url.host != nil else { return false }
        return JWKSFetcher.isAllowed(url)
    }

    /// An icon URL: `https` only.
    static func isValidIconURL(_ value: String) -> Bool {
        guard let url = URL(string: value), url.scheme?.lowercased() == "https", url.host != nil,
            url.user == nil, url.password == nil
        else { return false }
        return value.count <= 2048
    }
}
