/// A stable, machine-readable error code. Unknown codes decode without failing.
public struct ProblemCode: OpenStringValue {
    /// The code as the wire spells it (`invalid_code`).
    public let rawValue: String
    /// Creates a code from its wire spelling; one this version does not know is kept as it is.
    ///
    /// - Parameter rawValue: The code as the wire spells it.
    public init(rawValue: String) { self.rawValue = rawValue }


    // Request shape
    /// The request body or a parameter is malformed; see `invalidFields`.
    public static let invalidRequest = ProblemCode(rawValue: "invalid_request")
    /// The config ID names no application on this server.
    public static let unknownConfigId = ProblemCode(rawValue: "unknown_config_id")
    /// The flow type is not open for this application.
    public static let flowTypeNotEnabled = ProblemCode(rawValue: "flow_type_not_enabled")

    // Flow state
    /// The flow does not exist (or the flow token does not match it).
    public static let flowNotFound = ProblemCode(rawValue: "flow_not_found")
    /// The flow ran past its lifetime.
    public static let flowExpired = ProblemCode(rawValue: "flow_expired")
    /// The flow is finished or cancelled and accepts no more input.
    public static let flowClosed = ProblemCode(rawValue: "flow_closed")
    /// The action does not apply to the flow's current step.
    public static let invalidStep = ProblemCode(rawValue: "invalid_step")

    // Codes
    /// The code is wrong; `attemptsRemaining` says how many tries are left.
    public static let invalidCode = ProblemCode(rawValue: "invalid_code")
    /// Too many wrong codes: the flow is closed.
    public static let tooManyAttempts = ProblemCode(rawValue: "too_many_attempts")
    /// The code expired: request a new one.
    public static let codeExpired = ProblemCode(rawValue: "code_expired")
    /// A new code was requested before the cooldown ended.
    public static let resendCooldown = ProblemCode(rawValue: "resend_cooldown")
    /// The flow used up its resends.
    public static let resendLimitReached = ProblemCode(rawValue: "resend_limit_reached")
    /// Too many attempts for this identifier or from this address in a short time: wait until
    /// `retryAt`.
    public static let rateLimited = ProblemCode(rawValue: "rate_limited")
    /// The message could not be delivered.
    public static let deliveryFailed = ProblemCode(rawValue: "delivery_failed")
    /// The identifier or the password is wrong (the answer never says which).
    public static let invalidCredentials = ProblemCode(rawValue: "invalid_credentials")
    /// The chosen password is too short, too long or too common; see `invalidFields`.
    public static let weakPassword = ProblemCode(rawValue: "weak_password")
    /// The authenticator code was already used once.
    public static let codeReplayed = ProblemCode(rawValue: "code_replayed")
    /// A passkey's answer was refused; the step carries new options (a new challenge) to try
    /// again with. The more precise `passkey_…` codes say why (`passkey_signature_invalid`,
    /// `passkey_origin_not_allowed`, `passkey_challenge_mismatch`, `passkey_counter_regressed`,
    /// `passkey_user_not_verified`, `passkey_malformed`, …).
    public static let passkeyRefused = ProblemCode(rawValue: "passkey_refused")
    /// The passkey is not one of this account's (or of any account, or was removed).
    public static let passkeyUnknownCredential = ProblemCode(rawValue: "passkey_unknown_credential")
    /// The authenticator made a passkey this project already has.
    public static let passkeyAlreadyRegistered = ProblemCode(rawValue: "passkey_already_registered")
    /// The chosen method cannot be used now (for example SMS delivery is down): choose another.
    public static let methodUnavailable = ProblemCode(rawValue: "method_unavailable")
    /// The provider's callback carries a state this server did not issue, issued for another
    /// flow, or expired: restart the sign-in with the provider.
    public static let invalidState = ProblemCode(rawValue: "invalid_state")
    /// Signing in with the upstream provider failed (its token exchange or its ID token); the
    /// detail says why.
    public static let federationFailed = ProblemCode(rawValue: "federation_failed")
    /// No account uses the upstream provider's identity (nor its address), and the application
    /// does not create accounts.
    public static let signupNotAllowed = ProblemCode(rawValue: "signup_not_allowed")
    /// The upstream identity was linked before the account's owner proved its address, and waits
    /// for the owner to keep it (account management's `keepIdentity`): sign in another way.
    public static let identityHeld = ProblemCode(rawValue: "identity_held")
    /// The user is blocked by an administrator.
    public static let userBlocked = ProblemCode(rawValue: "user_blocked")
    /// The start token is unknown, expired or already used.
    public static let invalidStartToken = ProblemCode(rawValue: "invalid_start_token")
    /// The invitation code is wrong or expired.
    public static let invalidInviteCode = ProblemCode(rawValue: "invalid_invite_code")
    /// The invitation code was already used.
    public static let inviteCodeUsed = ProblemCode(rawValue: "invite_code_used")
    /// The access token that starts an account-management flow is missing or invalid.
    public static let invalidAccessToken = ProblemCode(rawValue: "invalid_access_token")

    // Guests

    /// The application does not make guests (`POST /v1/guests`).
    public static let guestsDisabled = ProblemCode(rawValue: "guests_disabled")
    /// The token of a guest upgrade is not a guest's (the user signed up already, or never was one).
    public static let notAGuest = ProblemCode(rawValue: "not_a_guest")
    /// A guest asked for what only an account has (account management, a second factor): sign up
    /// first, which keeps the guest's user ID.
    public static let upgradeRequired = ProblemCode(rawValue: "upgrade_required")

    // Devices and approvals
    /// A device signature does not verify, or names a device that is not trusted (unknown,
    /// revoked, expired, another user's or another application's).
    public static let invalidDeviceSignature = ProblemCode(rawValue: "invalid_device_signature")
    /// A trusted device denied the sign-in.
    public static let approvalDenied = ProblemCode(rawValue: "approval_denied")
    /// The approval request expired before a trusted device answered it.
    public static let approvalExpired = ProblemCode(rawValue: "approval_expired")
    /// The approval request was already approved or denied.
    public static let approvalAlreadyDecided = ProblemCode(rawValue: "approval_already_decided")
    /// The approval request or QR data is unknown to this server, or not for this device's user.
    public static let approvalNotFound = ProblemCode(rawValue: "approval_not_found")
    /// The sign-in link is unknown, or belongs to another sign-in.
    public static let invalidLink = ProblemCode(rawValue: "invalid_link")
    /// The sign-in link was already used.
    public static let linkUsed = ProblemCode(rawValue: "link_used")
    /// The sign-in was denied on the device that opened its link.
    public static let linkDenied = ProblemCode(rawValue: "link_denied")
    /// The client polled faster than the step's `pollInterval`.
    public static let slowDown = ProblemCode(rawValue: "slow_down")

    // Server
    /// The application accepts this only from an app instance that proves itself with App Attest.
    public static let appAttestRequired = ProblemCode(rawValue: "app_attest_required")
    /// An App Attest attestation or assertion was refused; the problem's `reason` says why.
    public static let invalidAppAttest = ProblemCode(rawValue: "invalid_app_attest")
}
