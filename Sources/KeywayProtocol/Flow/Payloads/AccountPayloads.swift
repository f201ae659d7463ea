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
    /// The activation code the `createActivationCode` operation just made for another device of
    /// the user; shown until the next operation.
    public var activationCode: IssuedActivationCode?
    /// The upstream identities linked to the account; each can be unlinked with the
    /// `unlinkIdentity` action (field `identityId`) unless it is the last way in.
    public var linkedIdentities: [LinkedIdentity]?
    /// The account's passkeys; `addPasskey` makes another, `renamePasskey` (fields `passkeyId`,
    /// `name`) renames one, and `removePasskey` (field `passkeyId`) removes one unless it is the
    /// last way in.
    public var passkeys: [PasskeySummary]?

    /// Creates an account payload with the given values.
    ///
    /// - Parameters:
    ///   - methods: The methods set up on the account.
    ///   - devices: The account's trusted devices in this application, if listed.
    ///   - activationCode: An activation code just made, if any.
    ///   - linkedIdentities: The upstream identities linked to the account, if listed.
    ///   - passkeys: The account's passkeys, if listed.
    public init(
        methods: [EnrolledMethod], devices: [TrustedDevice]? = nil, activationCode: IssuedActivationCode? = nil,
        linkedIdentities: [LinkedIdentity]? = nil, passkeys: [PasskeySummary]? = nil
    ) {
        self.passkeys = passkeys
        self.methods = methods
        self.devices = devices
        self.activationCode = activationCode
        self.linkedIdentities = linkedIdentities
    }
}

/// An activation code for another of the user's devices (PowerAuth 3.3): typed, or scanned as
/// `qrPayload` (`CODE#SIGNATURE`, the signature by the application's master server key).
public struct IssuedActivationCode: Codable, Sendable, Equatable {
    /// The code, `XXXXX-XXXXX-XXXXX-XXXXX`.
    public var activationCode: Sensitive<String>
    /// What a QR code shows: the code, `#`, and its signature.
    public var qrPayload: Sensitive<String>
    /// When the code stops working.
    public var expiresAt: Date

    /// Creates an issued code with the given values.
    ///
    /// - Parameters:
    ///   - activationCode: The code.
    ///   - qrPayload: `CODE#SIGNATURE`.
    ///   - expiresAt: When the code stops working.
    public init(activationCode: Sensitive<String>, qrPayload: Sensitive<String>, expiresAt: Date) {
        self.activationCode = activationCode
        self.qrPayload = qrPayload
        self.expiresAt = expiresAt
    }
}
