import Foundation
import KeywayJOSE
import KeywayProtocol

/// An external token issuer whose JWTs the token endpoint accepts in exchange for Keyway tokens
/// (RFC 8693): the migration path for apps moving from another authentication system.
///
/// A presented token must be signed by one of ``keys`` (`ES256` or `RS256`), carry this
/// ``issuer`` as `iss` and ``audience`` in `aud`, and be within its `nbf`/`exp` window. Its
/// `sub` is linked to a Keyway user once; later exchanges find the same user.
public struct TrustedIssuer: Sendable, Equatable {
    /// The issuer identifier, exactly as the tokens' `iss` claim carries it.
    public var issuer: String
    /// The audience the tokens must be issued to (an entry of their `aud` claim).
    public var audience: String
    /// Where the issuer's public signing keys come from.
    public var keys: KeySource
    /// Whether a first exchange links to an existing user with the same email, when the token
    /// says the email is verified (`email_verified: true`).
    public var linkByVerifiedEmail: Bool
    /// Whether a first exchange with a verified email and no matching user creates the user.
    public var createUsers: Bool

    /// The source of an issuer's keys.
    public enum KeySource: Sendable, Equatable {
        /// A key set given once; replace it when the issuer rotates its keys.
        case keys(JSONWebKeySet)
        /// The issuer's `jwks_uri`: fetched when first needed, cached for ten minutes (or the
        /// answer's `Cache-Control: max-age`, between one minute and one day), and fetched again
        /// when a token names an unknown `kid` (at most every 30 seconds). `https`, or `http` on
        /// a loopback address only.
        case url(URL)
    }

    /// Trusts an issuer with a fixed key set.
    public init(
        issuer: String, audience: String, keys: JSONWebKeySet, linkByVerifiedEmail: Bool = true,
        createUsers: Bool = true
    ) {
        self.init(
            issuer: issuer, audience: audience, keySource: .keys(keys), linkByVerifiedEmail: linkByVerifiedEmail,
            createUsers: createUsers)
    }

    /// Trusts an issuer whose keys are fetched from its `jwks_uri`.
    public init(
        issuer: String, audience: String, jwksURL: URL, linkByVerifiedEmail: Bool = true, createUsers: Bool = true
    ) {
        self.init(
            issuer: issuer, audience: audience, keySource: .url(jwksURL), linkByVerifiedEmail: linkByVerifiedEmail,
            createUsers: createUsers)
    }

    public init(
        issuer: String, audience: String, keySource: KeySource, linkByVerifiedEmail: Bool = true,
        createUsers: Bool = true
    ) {
        self.issuer = issuer
        self.audience = audience
        self.keys = keySource
        self.linkByVerifiedEmail = linkByVerifiedEmail
        self.createUsers = createUsers
    }

    var staticKeys: JSONWebKeySet? {
        if case .keys(let set) = keys { return set }
        return nil
    }

    var jwksURL: URL? {
        if case .url(let url) = keys { return url }
        return nil
    }

    /// The reasons this configuration cannot be used; empty when it is valid.
    func problems() -> [String] {
        var problems: [String] = []
        if issuer.isEmpty || issuer.count > 2048 || issuer.contains(where: \.isWhitespace) {
            problems.append("The issuer must be 1 to 2048 characters without spaces.")
        }
        if audience.isEmpty || audience.count > 2048 {
            problems.append("The audience must be 1 to 2048 characters.")
        }
        switch keys {
        case .keys(let set):
            problems += JWKSignatures.problems(in: set)
        case .url(let url):
            if !JWKSFetcher.isAllowed(url) {
                problems.append("The JWKS URL must be https (or http on a loopback address), without credentials.")
            }
        }
        return problems
    }
}

extension KeywayServerApp {
    /// Trusts an external issuer in the dev project (the project applications are registered in),
    /// or replaces the configuration of an issuer already trusted. An invalid configuration is
    /// refused with a ``ConfigurationError`` naming each problem.
    public func trustIssuer(_ trusted: TrustedIssuer) async throws {
        let problems = trusted.problems()
        guard problems.isEmpty else {
            throw ConfigurationError("The trusted issuer is invalid: " + problems.joined(separator: " "))
        }
        let now = configuration.clock.now().epochMilliseconds
        try await database.write { repositories in
            let projectId = try await repositories.applications.ensureDevProject(createdAt: now)
            try await repositories.trustedIssuers.upsertIssuer(
                TrustedIssuerRepository.Issuer(
                    issuer: trusted.issuer, audience: trusted.audience, keys: trusted.staticKeys,
                    jwksURL: trusted.jwksURL,
                    linkByVerifiedEmail: trusted.linkByVerifiedEmail, createUsers: trusted.createUsers),
                projectId: projectId, at: now)
        }
    }

    /// Stops trusting an issuer. Users once linked through it keep their accounts and sessions.
    public func distrustIssuer(_ issuer: String) async throws {
        let now = configuration.clock.now().epochMilliseconds
        try await database.write { repositories in
            let projectId = try await repositories.applications.ensureDevProject(createdAt: now)
            try await repositories.trustedIssuers.removeIssuer(projectId: projectId, issuer: issuer)
        }
    }
}
