import KeywayProtocol

/// Where a flow stands, kept as JSON in the flow's row: the current stage, what is already proven,
/// and what waits to be written when the flow completes.
struct FlowProgress: Codable, Sendable, Equatable {
    enum Stage: String, Codable, Sendable {
        case selectMethod
        case enterCode
        case enterPassword
        case enterTotp
        case setupSms
        case setupTotp
        case form
        case manageAccount
        case deviceEnroll
        case deviceChallenge
        case awaitApproval
    }

    /// What the flow does for the user.
    enum Mode: String, Codable, Sendable {
        /// Sign in to an existing account (also a sign-up of a known identifier).
        case signIn
        /// Create an account.
        case signUp
        /// Change the methods of a signed-in account.
        case manage
    }

    var mode: Mode
    var stage: Stage
    /// What the current stage is for.
    var purpose: MethodPurpose
    /// The choices of a `selectMethod` stage.
    var options: [AuthenticationMethod] = []
    var skippable = false
    /// Where the current code went (`enterCode`), normalized.
    var codeChannel: CodeChannel?
    var codeDestination: String?
    var passwordPurpose: PasswordPurpose?

    /// The primary method used, once it succeeded.
    var primaryMethod: AuthenticationMethod?
    var primaryDone = false
    var secondFactorDone = false
    /// The user chose to skip an optional second factor.
    var secondFactorSkipped = false
    /// Authentication method references for the session (RFC 8176).
    var amr: [String] = []

    /// A phone number waiting for its code.
    var pendingPhone: String?
    /// An authenticator secret waiting for its first code, sealed.
    var pendingTotpSecret: String?
    /// The step of the first code accepted for `pendingTotpSecret` (replays are refused).
    var pendingTotpCounter: Int64?
    /// A dev application created the account on this sign-in.
    var createdUser = false
    /// Sign-up: the password chosen, hashed.
    var pendingPasswordHash: String?
    /// Sign-up: the form's answers.
    var profile: [String: String]?
    /// Sign-up: the invitation code to redeem when the account is created, sealed.
    var sealedInviteCode: String?
    /// Sign-up: whether the optional second factor was offered already.
    var enrolmentOffered = false

    /// Account management: the change waiting for a fresh verification.
    var pendingOperation: String?
    /// Account management: when the user last proved who they are in this flow.
    var reverifiedAt: Int64?
    /// Account management: the scope of the access token that opened the flow; the code it ends
    /// with is redeemed for no more than that.
    var grantedScope: String?
    /// A sign-up of an identifier that already has an account: a sign-in that starts, as a
    /// sign-up does, by verifying the identifier with a code, so the first answer is the same.
    var startedAsSignUp: Bool?

    /// A message to show with the next step (`passwordChanged`, `totpAdded`…).
    var notice: String?

    // MARK: Devices

    /// What the client said about device trust when the flow started.
    var deviceHint: DeviceHint?
    /// The client's `User-Agent` at the start, shortened.
    var userAgent: String?
    /// The challenge of the current `deviceEnroll` or `deviceChallenge` stage.
    var deviceChallenge: String?
    /// The hinted device was looked at (proven or refused); it is not offered again.
    var deviceChecked = false
    /// A trusted device proved itself in this flow.
    var deviceProven = false
    /// The client was asked to enrol its device (it did or skipped).
    var deviceEnrolOffered = false
    /// A device enrolled in this flow, written when the flow completes.
    var pendingDevice: TrustedDeviceRecord?
    /// The approval request the flow waits for, and its QR secret (sealed).
    var approvalId: String?
    var sealedApprovalSecret: String?
    var matchingNumber: String?
    var approvalExpiresAt: Int64?
    /// When the client last polled the approval.
    var lastPolledAt: Int64?

    var passwordFailures = 0
    var totpFailures = 0
    /// Set when the attempt was flagged.
    var risk: Risk?
}
