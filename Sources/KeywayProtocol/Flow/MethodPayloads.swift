import Foundation

/// One choice of a `selectMethod` step.
public struct MethodOption: Codable, Sendable, Equatable {
    /// What to send back in ``SelectMethodRequest/methodId``.
    public var id: String
    /// The method behind the choice.
    public var type: AuthenticationMethod
    /// A label to show ("Email a code to a•••@example.com").
    public var label: String
    /// Where a code would go, masked, for code methods.
    public var destination: String?

    public init(id: String, type: AuthenticationMethod, label: String, destination: String? = nil) {
        self.id = id
        self.type = type
        self.label = label
        self.destination = destination
    }
}

/// Payload of a `selectMethod` step.
public struct SelectMethodPayload: Codable, Sendable, Equatable {
    /// The methods available to this user at this point.
    public var methods: [MethodOption]
    /// What the chosen method is for.
    public var purpose: MethodPurpose
    /// Whether the step can be skipped (an optional second factor); the step then offers `skip`.
    public var skippable: Bool

    public init(methods: [MethodOption], purpose: MethodPurpose, skippable: Bool = false) {
        self.methods = methods
        self.purpose = purpose
        self.skippable = skippable
    }
}

/// Payload of a `setupSms` step: collect or confirm the phone number that receives codes.
public struct SetupSmsPayload: Codable, Sendable, Equatable {
    /// The phone number already on the account, masked, if any.
    public var existingPhone: String?

    public init(existingPhone: String? = nil) {
        self.existingPhone = existingPhone
    }
}

/// Payload of a `setupTotp` step: enrolment of an authenticator app (RFC 6238).
public struct SetupTotpPayload: Codable, Sendable, Equatable {
    /// The shared secret, Base32 without padding, for manual entry.
    public var secret: Sensitive<String>
    /// The `otpauth://totp/…` URI (Key Uri Format), for a QR code.
    public var otpauthUrl: Sensitive<String>
    /// Seconds per code.
    public var period: Int
    /// Digits per code.
    public var digits: Int
    /// `SHA1`, `SHA256` or `SHA512`.
    public var algorithm: String

    public init(secret: Sensitive<String>, otpauthUrl: Sensitive<String>, period: Int, digits: Int, algorithm: String) {
        self.secret = secret
        self.otpauthUrl = otpauthUrl
        self.period = period
        self.digits = digits
        self.algorithm = algorithm
    }
}

/// Payload of an `enterTotp` step.
public struct EnterTotpPayload: Codable, Sendable, Equatable {
    /// Digits per code.
    public var digits: Int
    /// Seconds per code.
    public var period: Int
    /// What the code is for.
    public var purpose: MethodPurpose
    /// Wrong attempts left before the flow must restart.
    public var attemptsRemaining: Int

    public init(digits: Int, period: Int, purpose: MethodPurpose, attemptsRemaining: Int) {
        self.digits = digits
        self.period = period
        self.purpose = purpose
        self.attemptsRemaining = attemptsRemaining
    }
}

/// What an `enterPassword` step is for.
public struct PasswordPurpose: OpenStringValue {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Sign in with the account's password.
    public static let signIn = PasswordPurpose(rawValue: "signIn")
    /// Choose the password of a new account.
    public static let create = PasswordPurpose(rawValue: "create")
    /// Choose a new password for the account.
    public static let change = PasswordPurpose(rawValue: "change")

}

/// Payload of an `enterPassword` step.
public struct EnterPasswordPayload: Codable, Sendable, Equatable {
    /// Sign in, create or change.
    public var purpose: PasswordPurpose
    /// The shortest password accepted, when choosing one.
    public var minimumLength: Int?

    public init(purpose: PasswordPurpose, minimumLength: Int? = nil) {
        self.purpose = purpose
        self.minimumLength = minimumLength
    }
}

/// Payload of a `form` step: server-defined input. The fields are those of the `submitForm` action.
public struct FormPayload: Codable, Sendable, Equatable {
    /// A stable identifier of the form (`profile`).
    public var formId: String
    /// A title to show.
    public var title: String

    public init(formId: String, title: String) {
        self.formId = formId
        self.title = title
    }
}

/// A method set up on the account, as listed by a `manageAccount` step.
public struct EnrolledMethod: Codable, Sendable, Equatable {
    /// The method.
    public var type: AuthenticationMethod
    /// A label to show ("Authenticator app").
    public var label: String
    /// A masked detail (the phone number, the email address), if any.
    public var detail: String?
    /// Whether it counts as a second factor.
    public var isSecondFactor: Bool

    public init(type: AuthenticationMethod, label: String, detail: String? = nil, isSecondFactor: Bool) {
        self.type = type
        self.label = label
        self.detail = detail
        self.isSecondFactor = isSecondFactor
    }
}

/// Payload of a `manageAccount` step: the account's methods. Each change the user may make now
/// is an action of the step (`setupTotp`, `removeTotp`, `setupSms`, `removeSms`, `changePassword`,
/// `finish`).
public struct ManageAccountPayload: Codable, Sendable, Equatable {
    /// The methods set up on the account.
    public var methods: [EnrolledMethod]
    /// The account's trusted devices in this application; each can be revoked with the
    /// `revokeDevice` action (field `deviceId`), all of them with `revokeAllDevices`.
    public var devices: [TrustedDevice]?

    public init(methods: [EnrolledMethod], devices: [TrustedDevice]? = nil) {
        self.methods = methods
        self.devices = devices
    }
}
