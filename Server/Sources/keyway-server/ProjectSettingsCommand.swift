import ArgumentParser
import Foundation
import KeywayServer

/// `keyway-server project show`: one application with its settings, as JSON.
struct ProjectShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Prints an application and its settings (ID token algorithm, CORS origins, redirect URIs, scopes, DPoP, PAR, PKCE) as JSON.")
    @OptionGroup var options: DatabaseOptions

    @Argument(help: "The application's config ID.")
    var configId: String

    func run() async throws {
        try Output.json(try await options.withService { try await $0.application(configId: configId) })
    }
}

/// `keyway-server project update`: changes an application's settings.
struct ProjectUpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Changes an application's settings; those not given stay as they are, and a repeated option replaces its whole list. Prints the application as JSON.")
    @OptionGroup var options: DatabaseOptions

    @Argument(help: "The application's config ID.")
    var configId: String

    @Option(help: ArgumentHelp("The algorithm ID tokens are signed with: ES256 or RS256.", valueName: "alg"))
    var idTokenAlg: String?

    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "An origin (https://host[:port]) whose scripts may call the token, UserInfo and revocation endpoints (repeatable; replaces the registered ones).",
            valueName: "origin"))
    var corsOrigins: [String] = []

    @Flag(help: "Remove every CORS origin.")
    var noCorsOrigins = false

    @Option(
        name: .customLong("redirect-uri"),
        help: ArgumentHelp(
            "A URI authorization responses may be sent to: https, http on a loopback host, or a private-use scheme (com.example.app:/cb) for public clients (repeatable; replaces the registered ones).",
            valueName: "uri"))
    var redirectURIs: [String] = []

    @Flag(name: .customLong("no-redirect-uris"), help: "Remove every redirect URI.")
    var noRedirectURIs = false

    @Option(
        name: .customLong("post-logout-redirect-uri"),
        help: ArgumentHelp(
            "A URI a browser may be sent to after signing out, by the rules of --redirect-uri (repeatable; replaces the registered ones).",
            valueName: "uri"))
    var postLogoutRedirectURIs: [String] = []

    @Flag(name: .customLong("no-post-logout-redirect-uris"), help: "Remove every post-logout redirect URI.")
    var noPostLogoutRedirectURIs = false

    @Option(
        name: .customLong("scope"),
        help: ArgumentHelp(
            "A scope the application may ask for: openid, email, phone or offline_access (repeatable; replaces the allowed ones).",
            valueName: "scope"))
    var scopes: [String] = []

    @Flag(help: "Allow every scope the server supports.")
    var allScopes = false

    @Option(help: ArgumentHelp("How tokens are bound to a client key: off, optional or required.", valueName: "mode"))
    var dpop: String?

    @Flag(
        inversion: .prefixedNo,
        help: "Whether DPoP proofs at the token endpoint must carry a server-issued nonce.")
    var dpopNonce: Bool?

    @Flag(
        inversion: .prefixedNo,
        help: "Whether the authorization endpoint accepts only pushed authorization requests (RFC 9126).")
    var requirePar: Bool?

    @Option(
        name: .customLong("require-pkce"),
        help: ArgumentHelp(
            "true (the default): a confidential client's authorization requests carry PKCE or a nonce; false: neither is required. Public clients always need PKCE.",
            valueName: "true|false"))
    var requirePkce: Bool?

    @Option(
        name: .customLong("backend-role"),
        help: ArgumentHelp(
            "A role of an app's backend to grant: powerauth or introspection (repeatable; replaces the granted ones).",
            valueName: "role"))
    var backendRoles: [String] = []

    @Flag(name: .customLong("no-backend-roles"), help: "Revoke every backend role.")
    var noBackendRoles = false

    func validate() throws {
        for (list, clear, names) in [
            (corsOrigins, noCorsOrigins, "--cors-origin or --no-cors-origins"),
            (redirectURIs, noRedirectURIs, "--redirect-uri or --no-redirect-uris"),
            (postLogoutRedirectURIs, noPostLogoutRedirectURIs, "--post-logout-redirect-uri or --no-post-logout-redirect-uris"),
            (scopes, allScopes, "--scope or --all-scopes"),
            (backendRoles, noBackendRoles, "--backend-role or --no-backend-roles"),
        ] where clear && !list.isEmpty {
            throw ValidationError("Give \(names), not both.")
        }
        if update.isEmpty {
            throw ValidationError(
                "Nothing to change: give --id-token-alg, --cors-origin, --redirect-uri, --post-logout-redirect-uri, --scope, --dpop, --dpop-nonce, --require-par, --require-pkce, --backend-role or one of their --no-… forms.")
        }
    }

    /// The change the options ask for.
    var update: UpdateApplicationRequest {
        func list(_ values: [String], clear: Bool) -> [String]? { clear ? [] : values.isEmpty ? nil : values }
        let scopeChange: [String]?? = allScopes ? .some(nil) : scopes.isEmpty ? nil : .some(scopes)
        return UpdateApplicationRequest(
            idTokenSignedResponseAlg: idTokenAlg, corsOrigins: list(corsOrigins, clear: noCorsOrigins),
            redirectUris: list(redirectURIs, clear: noRedirectURIs),
            postLogoutRedirectUris: list(postLogoutRedirectURIs, clear: noPostLogoutRedirectURIs),
            allowedScopes: scopeChange,
            dpop: dpop == nil && dpopNonce == nil ? nil : DPoPSettingsChange(mode: dpop, requireNonce: dpopNonce),
            requirePushedAuthorizationRequests: requirePar,
            backendRoles: list(backendRoles, clear: noBackendRoles), requirePkce: requirePkce)
    }

    func run() async throws {
        let update = self.update
        try Output.json(try await options.withService { try await $0.updateApplication(configId: configId, update) })
    }
}
