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
    /// The account's signed-in sessions, newest first, the step's own marked ``AccountSession/current``;
    /// `endSession` (field `sessionId`) signs one of the others out, `endOtherSessions` all of them.
    public var sessions: [AccountSession]?

    /// Creates an account payload with the given values.
    ///
    /// - Parameters:
    ///   - methods: The methods set up on the account.
    ///   - devices: The account's trusted devices in this application, if listed.
    ///   - activationCode: An activation code just made, if any.
    ///   - linkedIdentities: The upstream identities linked to the account, if listed.
    ///   - passkeys: The account's passkeys, if listed.
    ///   - sessions: The account's signed-in sessions, if listed.
    public init(
        methods: [EnrolledMethod], devices: [TrustedDevice]? = nil, activationCode: IssuedActivationCode? = nil,
        linkedIdentities: [LinkedIdentity]? = nil, passkeys: [PasskeySummary]? = nil, sessions: [AccountSession]? = nil
    ) {
        self.passkeys = passkeys
        self.sessions = sessions
        self.methods = methods
        self.devices = devices
        self.activationCode = activationCode
        self.linkedIdentities = linkedIdentities
    }
}

/// A signed-in session of the account, as its owner sees it on the `manageAccount` step: an
/// application signed in to, whose tokens stop working when it is signed out.
public struct AccountSession: Codable, Sendable, Equatable, Identifiable {
    /// The session's ID (the `sid` of its tokens).
    public var id: String
    /// The name of the application it signed in to.
    public var application: String
    /// When it signed in.
    public var signedInAt: Date
    /// How it signed in: authentication methods references (RFC 8176), such as `pwd` or `otp`.
    public var methods: [String]
    /// Whether it is the session the account step runs in (signed out by signing out, not by
    /// `endSession`).
    public var current: Bool

    /// Creates a session with the given values.
    ///
    /// - Parameters:
    ///   - id: The session's ID.
    ///   - application: The name of the application it signed in to.
    ///   - signedInAt: When it signed in.
    ///   - methods: How it signed in (RFC 8176 references).
    ///   - current: Whether it is the account step's own session.
    public init(id: String, application: String, signedInAt: Date, methods: [String], current: Bool) {
        self.id = id
        self.application = application
        self.signedInAt = signedInAt
        self.methods = methods
        self.current = current
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
