import Foundation
import KeywayProtocol

/// An application as the admin API lists it.
package struct AdminApplication: Codable, Sendable, Equatable {
    /// The config ID (the OAuth `client_id`).
    package var configId: String
    package var name: String
    /// `public` or `confidential`.
    package var clientType: String
    /// The flows the application opens.
    package var flowTypes: [FlowType]
    /// The project the application belongs to.
    package var projectId: String
    /// The algorithm its ID tokens are signed with: `ES256` or `RS256`.
    package var idTokenSignedResponseAlg: String
    /// The origins (`scheme://host[:port]`) whose scripts may call the token, UserInfo and
    /// revocation endpoints for it; empty: none.
    package var corsOrigins: [String]
    /// Where authorization responses may be sent, each matched exactly; empty: none.
    package var redirectUris: [String]
    /// Where a browser may be sent after signing out; empty: none.
    package var postLogoutRedirectUris: [String]
    /// The scopes the application may ask for; `nil`: every scope the server supports.
    package var allowedScopes: [String]?
    /// How its tokens are bound to a client key (RFC 9449).
    package var dpop: AdminDPoPSettings
    /// Whether the authorization endpoint accepts only pushed authorization requests (RFC 9126).
    package var requirePushedAuthorizationRequests: Bool
    /// Whether a confidential client's authorization requests must carry PKCE or a `nonce`
    /// (public clients always need PKCE); `false` accepts neither.
    package var requirePkce: Bool
    /// Made by the project's administrators: its users are not asked for consent. Clients
    /// registered dynamically are not first-party.
    package var firstParty: Bool
    /// The backend roles the administrators granted it (`powerauth`, `introspection`), sorted.
    package var backendRoles: [String]
}

extension AdminApplication {
    /// The JSON members.
    enum CodingKeys: String, CodingKey {
        case configId, name, clientType, flowTypes, projectId, idTokenSignedResponseAlg, corsOrigins, redirectUris
        case postLogoutRedirectUris, allowedScopes, dpop, requirePushedAuthorizationRequests, requirePkce, firstParty
        case backendRoles
    }

    /// Decodes every member; `backendRoles` is empty and `requirePkce` true when an older server
    /// left them out.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        configId = try container.decode(String.self, forKey: .configId)
        name = try container.decode(String.self, forKey: .name)
        clientType = try container.decode(String.self, forKey: .clientType)
        flowTypes = try container.decode([FlowType].self, forKey: .flowTypes)
        projectId = try container.decode(String.self, forKey: .projectId)
        idTokenSignedResponseAlg = try container.decode(String.self, forKey: .idTokenSignedResponseAlg)
        corsOrigins = try container.decode([String].self, forKey: .corsOrigins)
        redirectUris = try container.decode([String].self, forKey: .redirectUris)
        postLogoutRedirectUris = try container.decode([String].self, forKey: .postLogoutRedirectUris)
        allowedScopes = try container.decodeIfPresent([String].self, forKey: .allowedScopes)
        dpop = try container.decode(AdminDPoPSettings.self, forKey: .dpop)
        requirePushedAuthorizationRequests = try container.decode(Bool.self, forKey: .requirePushedAuthorizationRequests)
        requirePkce = try container.decodeIfPresent(Bool.self, forKey: .requirePkce) ?? true
        firstParty = try container.decode(Bool.self, forKey: .firstParty)
        backendRoles = try container.decodeIfPresent([String].self, forKey: .backendRoles) ?? []
    }

    /// Encodes every member, `allowedScopes` as `null` when every scope is allowed.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(configId, forKey: .configId)
        try container.encode(name, forKey: .name)
        try container.encode(clientType, forKey: .clientType)
        try container.encode(flowTypes, forKey: .flowTypes)
        try container.encode(projectId, forKey: .projectId)
        try container.encode(idTokenSignedResponseAlg, forKey: .idTokenSignedResponseAlg)
        try container.encode(corsOrigins, forKey: .corsOrigins)
        try container.encode(redirectUris, forKey: .redirectUris)
        try container.encode(postLogoutRedirectUris, forKey: .postLogoutRedirectUris)
        try container.encode(allowedScopes, forKey: .allowedScopes)
        try container.encode(dpop, forKey: .dpop)
        try container.encode(requirePushedAuthorizationRequests, forKey: .requirePushedAuthorizationRequests)
        try container.encode(requirePkce, forKey: .requirePkce)
        try container.encode(firstParty, forKey: .firstParty)
        try container.encode(backendRoles, forKey: .backendRoles)
    }
}

/// An application's DPoP policy as the admin API shows it.
package struct AdminDPoPSettings: Codable, Sendable, Equatable {
    /// `off`, `optional` or `required`.
    package var mode: String
    /// Whether proofs at the token endpoint must carry a server-issued nonce.
    package var requireNonce: Bool
}

/// A project's hosted-page theme as the admin API shows it.
package struct AdminProjectTheme: Codable, Sendable, Equatable {
    /// The project.
    package var projectId: String
    /// The name shown at the top of every page (the project's name until one is set).
    package var name: String
    /// An `https` URL of the logo.
    package var logoUrl: String?
    /// The primary colour, `#rrggbb`.
    package var primaryColor: String?
    /// An `https` URL of a stylesheet loaded after the built-in one.
    package var stylesheetUrl: String?
}

/// An initial access token for dynamic client registration, just issued: shown this once,
/// stored only as a hash.
package struct IssuedRegistrationToken: Codable, Sendable, Equatable {
    /// The ID that names the token in listings and revocations.
    package var id: String
    /// The token, for `Authorization: Bearer` at `POST /oauth2/register`.
    package var token: String
    /// The config ID of the template application new clients are created from.
    package var templateConfigId: String
    /// `nil`: the token does not expire.
    package var expiresAt: Date?
}

/// An initial access token as listings show it: never the token itself.
package struct AdminRegistrationToken: Codable, Sendable, Equatable {
    /// The token's ID.
    package var id: String
    /// The config ID of the template application new clients are created from.
    package var templateConfigId: String
    package var createdAt: Date
    /// `nil`: the token does not expire.
    package var expiresAt: Date?
    /// Whether the token has expired.
    package var expired: Bool
    /// How many clients the token registered.
    package var registeredClients: Int
    /// When it last registered a client.
    package var lastUsedAt: Date?
}

/// `GET /admin/applications/{configId}/registration-tokens`.
package struct AdminRegistrationTokenList: Codable, Sendable, Equatable {
    /// The tokens, oldest first.
    package var registrationTokens: [AdminRegistrationToken]

    /// A listing of `registrationTokens`.
    package init(registrationTokens: [AdminRegistrationToken]) {
        self.registrationTokens = registrationTokens
    }
}

/// An application just created. The client secret (confidential applications only) is shown
/// this once and stored only as a hash.
package struct CreatedApplication: Codable, Sendable, Equatable {
    package var configId: String
    package var name: String
    package var clientType: String
    package var projectId: String
    package var clientSecret: String?
}

/// An invite code just issued: shown this once, stored only as a hash.
package struct IssuedInviteCode: Codable, Sendable, Equatable {
    package var code: String
    package var expiresAt: Date
}

/// A start token just issued: shown this once, stored only as a hash.
package struct IssuedStartToken: Codable, Sendable, Equatable {
    package var startToken: String
    package var expiresAt: Date
}

/// A user as the admin API shows it.
package struct AdminUser: Codable, Sendable, Equatable {
    package var id: String
    package var projectId: String
    /// `nil` for a user known by phone number only.
    package var email: String?
    package var emailVerified: Bool
    /// The E.164 phone number, if any.
    package var phone: String?
    package var phoneVerified: Bool
    /// The methods set up on the account (`totp`, `password`).
    package var methods: [String]
    package var createdAt: Date
    package var blocked: Bool
    /// When the user was blocked.
    package var blockedAt: Date?
    /// Whether the user is a guest (made by `POST /v1/guests`, not signed up yet): `false` once
    /// its sign-up completed.
    package var isAnonymous: Bool

    init(_ record: UserRecord, methods registry: MethodRegistry) {
        id = record.id
        projectId = record.projectId
        email = record.email
        emailVerified = record.emailVerified
        phone = record.phone
        phoneVerified = record.phoneVerified
        methods = registry.all((any AccountListedMethod).self).filter { $0.isSetUp(on: record) }.map(\.id.rawValue)
        createdAt = Date(epochMilliseconds: record.createdAt)
        blocked = record.isBlocked
        blockedAt = record.blockedAt.map { Date(epochMilliseconds: $0) }
        isAnonymous = record.isAnonymous
    }
}

/// Users found by email.
package struct AdminUserList: Codable, Sendable, Equatable {
    package var users: [AdminUser]
}

/// Applications, oldest first.
package struct AdminApplicationList: Codable, Sendable, Equatable {
    package var applications: [AdminApplication]

    package init(applications: [AdminApplication]) {
        self.applications = applications
    }
}

/// A message the outbox gave up on, as the admin API shows it: no text, the recipient masked.
package struct AdminDeadLetter: Codable, Sendable, Equatable {
    package var id: String
    package var projectId: String
    package var flowId: String?
    package var channel: String
    /// Masked (`a•••@example.com`, `+1•••••••67`).
    package var recipient: String
    package var attempts: Int
    /// Why the last attempt failed (never message text).
    package var lastError: String?
    package var createdAt: Date
    package var updatedAt: Date

    init(_ status: DeliveryStatus) {
        id = status.id
        projectId = status.projectId
        flowId = status.flowId
        channel = status.channel.rawValue
        // An event's recipient is a user ID, not a secret; addresses and numbers are masked.
        recipient =
            status.channel == .event
            ? status.recipient
            : status.recipient.contains("@")
                ? EmailAddress.mask(status.recipient) : PhoneNumber.mask(status.recipient)
        attempts = status.attempts
        lastError = status.lastError
        createdAt = status.createdAt
        updatedAt = status.updatedAt
    }
}

/// `GET /admin/dead-letters`.
package struct AdminDeadLetterList: Codable, Sendable, Equatable {
    package var deadLetters: [AdminDeadLetter]
}

/// A message of the delivery outbox in `GET /admin/messages`: where it stands, never its text.
package struct AdminMessage: Codable, Sendable, Equatable {
    package var id: String
    package var projectId: String
    package var flowId: String?
    package var channel: String
    /// Masked as in ``AdminDeadLetter``; an event's is the user ID.
    package var recipient: String
    /// `pending` (waiting for its next attempt), `sending` (claimed by a worker), `delivered`
    /// or `dead`.
    package var state: String
    package var attempts: Int
    /// Why the last attempt failed (never message text).
    package var lastError: String?
    /// When the next attempt is due (pending and sending messages).
    package var nextAttemptAt: Date?
    package var createdAt: Date
    package var updatedAt: Date
    package var deliveredAt: Date?

    init(_ status: DeliveryStatus) {
        let masked = AdminDeadLetter(status)
        id = status.id
        projectId = status.projectId
        flowId = status.flowId
        channel = status.channel.rawValue
        recipient = masked.recipient
        state = status.state.rawValue
        attempts = status.attempts
        lastError = status.lastError
        nextAttemptAt = [.pending, .sending].contains(status.state) ? status.nextAttemptAt : nil
        createdAt = status.createdAt
        updatedAt = status.updatedAt
        deliveredAt = status.deliveredAt
    }
}

/// `GET /admin/messages`.
package struct AdminMessageList: Codable, Sendable, Equatable {
    package var messages: [AdminMessage]
}
