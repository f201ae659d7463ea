/// A user of a project, with the methods set up on the account.
struct UserRecord: Sendable, Equatable {
    var id: String
    var projectId: String
    /// The normalized email address; `nil` for a user known by phone number only.
    var email: String?
    var emailVerified: Bool
    var createdAt: Int64
    /// The E.164 phone number that receives SMS codes.
    var phone: String? = nil
    /// Whether `phone` was proven with a code.
    var phoneVerified: Bool = false
    /// The password's PHC string (scrypt), if the user has one.
    var passwordHash: String? = nil
    /// The authenticator secret, sealed with the server's TOTP key (see ``SecretBox``).
    var totpSecret: String? = nil
    /// The time step of the last accepted authenticator code (replays are refused).
    var totpLastCounter: Int64? = nil
    /// When an administrator blocked the user (milliseconds since 1970); `nil` when not blocked.
    /// A blocked user must not be signed in.
    var blockedAt: Int64? = nil
    /// A guest: made by `POST /v1/guests` without an identifier, until a sign-up upgrades it.
    var isAnonymous: Bool = false
    /// The application that made the guest (whose policy's `guests.maxAge` sweeps it).
    var guestApplicationId: String? = nil

    /// Whether the user has an authenticator app set up.
    var hasTotp: Bool { totpSecret != nil }
    /// The phone number, when it can receive codes.
    var verifiedPhone: String? { phoneVerified ? phone : nil }

    /// Whether an administrator blocked the user.
    var isBlocked: Bool { blockedAt != nil }
}
