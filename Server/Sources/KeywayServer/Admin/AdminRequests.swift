import KeywayProtocol

/// `POST /admin/applications`.
package struct CreateApplicationRequest: Codable, Sendable {
    package var name: String
    /// `public` (default) or `confidential`.
    package var clientType: String?
    /// An existing project the application joins (its users, sessions and single sign-on without
    /// a consent page: both are the project's own); absent, a new project is made for it.
    package var projectId: String?
}

/// `POST /admin/applications/{configId}/invite-codes`.
package struct InviteCodeRequest: Codable, Sendable {
    /// Lifetime in seconds (default 7 days, at most a year).
    package var expiresInSeconds: Int?
}

/// `POST /admin/applications/{configId}/start-tokens`.
package struct StartTokenRequest: Codable, Sendable {
    package var flowType: FlowType
    /// An email address or an E.164 phone number.
    package var identifier: String
    /// Lifetime in seconds (default 600, at most 3600).
    package var expiresInSeconds: Int?
}

/// `PATCH /admin/applications/{configId}`: the settings to change; those absent stay as they are.
package struct UpdateApplicationRequest: Codable, Sendable {
    /// `ES256` or `RS256`.
    package var idTokenSignedResponseAlg: String?
    /// Replaces the origins allowed cross-origin access; `[]` allows none.
    package var corsOrigins: [String]?
    /// Replaces the URIs authorization responses may be sent to; `[]` removes every one.
    package var redirectUris: [String]?
    /// Replaces the URIs a browser may be sent to after signing out; `[]` removes every one.
    package var postLogoutRedirectUris: [String]?
    /// The scopes the application may ask for: `.none` leaves them as they are, `.some(nil)`
    /// (JSON `null`) allows every scope the server supports, `.some(list)` allows those.
    package var allowedScopes: [String]??
    /// The DPoP policy; members left out stay as they are.
    package var dpop: DPoPSettingsChange?
    /// Whether the authorization endpoint accepts only pushed authorization requests (RFC 9126).
    package var requirePushedAuthorizationRequests: Bool?
    /// Whether a confidential client's authorization requests must carry PKCE or a `nonce`;
    /// `false` accepts neither. Public clients always need PKCE.
    package var requirePkce: Bool?
    /// Replaces the backend roles (`powerauth`, `introspection`); `[]` revokes every one. Only a
    /// confidential application the administrators made may hold one.
    package var backendRoles: [String]?

    /// A change of the given settings; those left `nil` stay as they are.
    package init(
        idTokenSignedResponseAlg: String? = nil, corsOrigins: [String]? = nil, redirectUris: [String]? = nil,
        postLogoutRedirectUris: [String]? = nil, allowedScopes: [String]?? = nil, dpop: DPoPSettingsChange? = nil,
        requirePushedAuthorizationRequests: Bool? = nil, backendRoles: [String]? = nil, requirePkce: Bool? = nil
    ) {
        self.idTokenSignedResponseAlg = idTokenSignedResponseAlg
        self.corsOrigins = corsOrigins
        self.redirectUris = redirectUris
        self.postLogoutRedirectUris = postLogoutRedirectUris
        self.allowedScopes = allowedScopes
        self.dpop = dpop
        self.requirePushedAuthorizationRequests = requirePushedAuthorizationRequests
        self.backendRoles = backendRoles
        self.requirePkce = requirePkce
    }

    /// The JSON members.
    enum CodingKeys: String, CodingKey {
        case idTokenSignedResponseAlg, corsOrigins, redirectUris, postLogoutRedirectUris, allowedScopes, dpop
        case requirePushedAuthorizationRequests, backendRoles, requirePkce
    }

    /// Decodes the members, telling an absent `allowedScopes` from a `null` one.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        idTokenSignedResponseAlg = try container.decodeIfPresent(String.self, forKey: .idTokenSignedResponseAlg)
        corsOrigins = try container.decodeIfPresent([String].self, forKey: .corsOrigins)
        redirectUris = try container.decodeIfPresent([String].self, forKey: .redirectUris)
        postLogoutRedirectUris = try container.decodeIfPresent([String].self, forKey: .postLogoutRedirectUris)
        if container.contains(.allowedScopes) {
            allowedScopes = .some(
                try container.decodeNil(forKey: .allowedScopes)
                    ? nil : try container.decode([String].self, forKey: .allowedScopes))
        }
        dpop = try container.decodeIfPresent(DPoPSettingsChange.self, forKey: .dpop)
        requirePushedAuthorizationRequests = try container.decodeIfPresent(
            Bool.self, forKey: .requirePushedAuthorizationRequests)
        backendRoles = try container.decodeIfPresent([String].self, forKey: .backendRoles)
        requirePkce = try container.decodeIfPresent(Bool.self, forKey: .requirePkce)
    }

    /// Encodes the members given, `allowedScopes` as `null` when it resets them.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(idTokenSignedResponseAlg, forKey: .idTokenSignedResponseAlg)
        try container.encodeIfPresent(corsOrigins, forKey: .corsOrigins)
        try container.encodeIfPresent(redirectUris, forKey: .redirectUris)
        try container.encodeIfPresent(postLogoutRedirectUris, forKey: .postLogoutRedirectUris)
        if let allowedScopes { try container.encode(allowedScopes, forKey: .allowedScopes) }
        try container.encodeIfPresent(dpop, forKey: .dpop)
        try container.encodeIfPresent(requirePushedAuthorizationRequests, forKey: .requirePushedAuthorizationRequests)
        try container.encodeIfPresent(backendRoles, forKey: .backendRoles)
        try container.encodeIfPresent(requirePkce, forKey: .requirePkce)
    }

    /// Whether the request changes nothing.
    package var isEmpty: Bool {
        idTokenSignedResponseAlg == nil && corsOrigins == nil && redirectUris == nil && postLogoutRedirectUris == nil
            && allowedScopes == nil && dpop == nil && requirePushedAuthorizationRequests == nil && backendRoles == nil
            && requirePkce == nil
    }
}

/// The `dpop` member of `PATCH /admin/applications/{configId}`; members left out stay as they are.
package struct DPoPSettingsChange: Codable, Sendable, Equatable {
    /// `off`, `optional` or `required`.
    package var mode: String?
    /// Whether proofs at the token endpoint must carry a server-issued nonce.
    package var requireNonce: Bool?

    /// A change of the given members.
    package init(mode: String? = nil, requireNonce: Bool? = nil) {
        self.mode = mode
        self.requireNonce = requireNonce
    }
}

/// `PATCH /admin/projects/{projectId}/theme`: the members to change; those absent stay as they
/// are, and `null` removes an optional one.
package struct UpdateThemeRequest: Codable, Sendable {
    /// The name shown at the top of every hosted page (1 to 100 characters).
    package var name: String?
    /// An `https` URL of the logo: `.some(nil)` removes it.
    package var logoUrl: String??
    /// The primary colour, `#rrggbb`: `.some(nil)` removes it.
    package var primaryColor: String??
    /// An `https` URL of a stylesheet loaded after the built-in one: `.some(nil)` removes it.
    package var stylesheetUrl: String??

    /// A change of the given members; those left `nil` stay as they are.
    package init(name: String? = nil, logoUrl: String?? = nil, primaryColor: String?? = nil, stylesheetUrl: String?? = nil) {
        self.name = name
        self.logoUrl = logoUrl
        self.primaryColor = primaryColor
        self.stylesheetUrl = stylesheetUrl
    }

    /// The JSON members.
    enum CodingKeys: String, CodingKey {
        case name, logoUrl, primaryColor, stylesheetUrl
    }

    /// Decodes the members, telling an absent member from a `null` one.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func nullable(_ key: CodingKeys) throws -> String?? {
            guard container.contains(key) else { return nil }
            return .some(try container.decodeNil(forKey: key) ? nil : try container.decode(String.self, forKey: key))
        }
        // A name cannot be removed: `null` is refused, as any other non-string.
        name = container.contains(.name) ? try container.decode(String.self, forKey: .name) : nil
        logoUrl = try nullable(.logoUrl)
        primaryColor = try nullable(.primaryColor)
        stylesheetUrl = try nullable(.stylesheetUrl)
    }

    /// Encodes the members given, a removed one as `null`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        for (key, value) in [(CodingKeys.logoUrl, logoUrl), (.primaryColor, primaryColor), (.stylesheetUrl, stylesheetUrl)] {
            if let value { try container.encode(value, forKey: key) }
        }
    }

    /// Whether the request changes nothing.
    package var isEmpty: Bool { name == nil && logoUrl == nil && primaryColor == nil && stylesheetUrl == nil }
}

/// `POST /admin/applications/{configId}/registration-tokens`.
package struct RegistrationTokenRequest: Codable, Sendable {
    /// Lifetime in seconds (at most a year); absent: the token does not expire.
    package var expiresInSeconds: Int?

    /// A request for a token living `expiresInSeconds` (`nil`: for ever).
    package init(expiresInSeconds: Int? = nil) {
        self.expiresInSeconds = expiresInSeconds
    }
}
