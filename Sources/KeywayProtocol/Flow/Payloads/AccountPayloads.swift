import Foundation

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

    /// Creates an enrolled method with the given values.
    ///
    /// - Parameters:
    ///   - type: The method.
    ///   - label: A label to show.
    ///   - detail: A masked detail, if any.
    ///   - isSecondFactor: Whether it counts as a second factor.
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

    /// Creates an account payload with the given values.
    ///
    /// - Parameters:
    ///   - methods: The methods set up on the account.
    ///   - devices: The account's trusted devices in this application, if listed.
    public init(methods: [EnrolledMethod], devices: [TrustedDevice]? = nil) {
        self.methods = methods
        self.devices = devices
    }
}
