import Foundation

/// Payload of a `passkeyRegister` step: make a passkey for the account. The client hands
/// ``options`` to a WebAuthn authenticator (the platform's passkey provider, a browser's
/// `navigator.credentials.create`) and sends its answer with the `registerPasskey` action
/// (``RegisterPasskeyRequest``); where the step can be skipped it also has a `skip` action.
public struct PasskeyRegisterPayload: Codable, Sendable, Equatable {
    /// The standard creation options, as any WebAuthn client takes them.
    public var options: PublicKeyCredentialCreationOptions
    /// What the passkey is for: `enrolment` (after a sign-in, in a sign-up or account management).
    public var purpose: MethodPurpose

    /// Creates a registration payload with the given values.
    ///
    /// - Parameters:
    ///   - options: The standard creation options.
    ///   - purpose: What the passkey is for.
    public init(options: PublicKeyCredentialCreationOptions, purpose: MethodPurpose) {
        self.options = options
        self.purpose = purpose
    }
}

/// Payload of a `passkeyAuthenticate` step: sign with a passkey. The client hands ``options`` to
/// a WebAuthn authenticator (`navigator.credentials.get`) and sends its answer with the
/// `authenticatePasskey` action (``AuthenticatePasskeyRequest``).
public struct PasskeyAuthenticatePayload: Codable, Sendable, Equatable {
    /// The standard request options, as any WebAuthn client takes them. Their `allowCredentials`
    /// is empty where any passkey of the relying party may answer (it then names its account).
    public var options: PublicKeyCredentialRequestOptions
    /// What the signature is for: `primary`, `secondFactor` or `reverification`.
    public var purpose: MethodPurpose
    /// Refused signatures left before the flow must restart.
    public var attemptsRemaining: Int

    /// Creates a sign-in payload with the given values.
    ///
    /// - Parameters:
    ///   - options: The standard request options.
    ///   - purpose: What the signature is for.
    ///   - attemptsRemaining: Refused signatures left before the flow must restart.
    public init(options: PublicKeyCredentialRequestOptions, purpose: MethodPurpose, attemptsRemaining: Int) {
        self.options = options
        self.purpose = purpose
        self.attemptsRemaining = attemptsRemaining
    }
}

/// A passkey of the account, as account management lists it. The `renamePasskey` action (fields
/// `passkeyId` and `name`) renames it; `removePasskey` (field `passkeyId`) removes it, unless it
/// is the last way in.
public struct PasskeySummary: Codable, Sendable, Equatable {
    /// The passkey's ID in Keyway (not its credential ID).
    public var id: String
    /// The name the user gave it, or one Keyway gave.
    public var name: String
    /// When it was made.
    public var createdAt: Date
    /// When it last signed in.
    public var lastUsedAt: Date?
    /// Whether its provider syncs it between devices (the backup flags).
    public var synced: Bool

    /// Creates a passkey summary with the given values.
    ///
    /// - Parameters:
    ///   - id: The passkey's ID in Keyway.
    ///   - name: Its name.
    ///   - createdAt: When it was made.
    ///   - lastUsedAt: When it last signed in.
    ///   - synced: Whether its provider syncs it.
    public init(id: String, name: String, createdAt: Date, lastUsedAt: Date? = nil, synced: Bool) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.synced = synced
    }
}

/// Body of the `registerPasskey` action (`POST /v1/flows/{flowId}/passkey/register`).
public struct RegisterPasskeyRequest: Codable, Sendable, Equatable {
    /// The authenticator's answer, as WebAuthn serialises it.
    public var credential: PasskeyRegistrationResponse
    /// A name for the passkey ("iPhone"), at most 64 characters; Keyway names it when absent.
    public var name: String?

    /// Creates a registration body.
    ///
    /// - Parameters:
    ///   - credential: The authenticator's answer.
    ///   - name: A name for the passkey.
    public init(credential: PasskeyRegistrationResponse, name: String? = nil) {
        self.credential = credential
        self.name = name
    }
}

/// Body of the `authenticatePasskey` action (`POST /v1/flows/{flowId}/passkey/authenticate`).
public struct AuthenticatePasskeyRequest: Codable, Sendable, Equatable {
    /// The authenticator's answer, as WebAuthn serialises it.
    public var credential: PasskeyAssertionResponse

    /// Creates a sign-in body.
    ///
    /// - Parameter credential: The authenticator's answer.
    public init(credential: PasskeyAssertionResponse) {
        self.credential = credential
    }
}
