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

    init(_ record: UserRecord) {
        id = record.id
        projectId = record.projectId
        email = record.email
        emailVerified = record.emailVerified
        phone = record.phone
        phoneVerified = record.phoneVerified
        methods = FlowMethods.all.filter { $0.isSetUp(on: record) }.map(\.id.rawValue)
        createdAt = Date(epochMilliseconds: record.createdAt)
        blocked = record.isBlocked
        blockedAt = record.blockedAt.map { Date(epochMilliseconds: $0) }
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
