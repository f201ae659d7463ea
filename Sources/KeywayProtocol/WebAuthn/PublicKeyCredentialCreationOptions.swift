import Foundation

/// The options of a passkey registration, in the JSON form of WebAuthn Level 3
/// (`PublicKeyCredentialCreationOptionsJSON`): any WebAuthn client takes them as they are
/// (`PublicKeyCredential.parseCreationOptionsFromJSON` in a browser). Binary members are
/// base64url without padding.
public struct PublicKeyCredentialCreationOptions: Codable, Sendable, Equatable {
    /// The relying party: its ID (a registrable domain) and name.
    public var rp: PublicKeyCredentialRelyingParty
    /// The account the passkey is for.
    public var user: PublicKeyCredentialUser
    /// The challenge, base64url: single use, bound to the flow.
    public var challenge: String
    /// The key types the relying party accepts, in its order of preference.
    public var pubKeyCredParams: [PublicKeyCredentialParameters]
    /// Milliseconds the ceremony may take.
    public var timeout: Int?
    /// The account's passkeys, so the authenticator does not make a second one.
    public var excludeCredentials: [PublicKeyCredentialDescriptor]
    /// What the authenticator must be able to do.
    public var authenticatorSelection: AuthenticatorSelectionCriteria
    /// `none` or `direct`.
    public var attestation: String
    /// Extensions asked for (`credProps`).
    public var extensions: [String: Bool]?

    /// Creates registration options with the given values.
    ///
    /// - Parameters:
    ///   - rp: The relying party.
    ///   - user: The account the passkey is for.
    ///   - challenge: The challenge, base64url.
    ///   - pubKeyCredParams: The accepted key types.
    ///   - timeout: Milliseconds the ceremony may take.
    ///   - excludeCredentials: The account's passkeys.
    ///   - authenticatorSelection: What the authenticator must be able to do.
    ///   - attestation: `none` or `direct`.
    ///   - extensions: Extensions asked for.
    public init(
        rp: PublicKeyCredentialRelyingParty, user: PublicKeyCredentialUser, challenge: String,
        pubKeyCredParams: [PublicKeyCredentialParameters], timeout: Int? = nil,
        excludeCredentials: [PublicKeyCredentialDescriptor] = [], authenticatorSelection: AuthenticatorSelectionCriteria,
        attestation: String = "none", extensions: [String: Bool]? = nil
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.attestation = attestation
        self.extensions = extensions
    }
}

/// A relying party as registration options name it.
public struct PublicKeyCredentialRelyingParty: Codable, Sendable, Equatable {
    /// The relying-party ID: the domain passkeys are bound to.
    public var id: String
    /// A name to show.
    public var name: String

    /// Creates a relying party with the given values.
    ///
    /// - Parameters:
    ///   - id: The relying-party ID.
    ///   - name: A name to show.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// The account a passkey is made for.
public struct PublicKeyCredentialUser: Codable, Sendable, Equatable {
    /// The user handle, base64url: opaque, never an address.
    public var id: String
    /// The account's identifier, as the authenticator lists it.
    public var name: String
    /// A name to show.
    public var displayName: String

    /// Creates a user entity with the given values.
    ///
    /// - Parameters:
    ///   - id: The user handle, base64url.
    ///   - name: The account's identifier.
    ///   - displayName: A name to show.
    public init(id: String, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}

/// A key type the relying party accepts: `public-key` and a COSE algorithm (-7 ES256,
/// -8 EdDSA, -257 RS256).
public struct PublicKeyCredentialParameters: Codable, Sendable, Equatable {
    /// Always `public-key`.
    public var type: String
    /// The COSE algorithm identifier.
    public var alg: Int

    /// Creates a key type with the given algorithm.
    ///
    /// - Parameter alg: The COSE algorithm identifier.
    public init(alg: Int) {
        self.type = "public-key"
        self.alg = alg
    }
}

/// A credential named in options: its ID and how it can be reached.
public struct PublicKeyCredentialDescriptor: Codable, Sendable, Equatable {
    /// Always `public-key`.
    public var type: String
    /// The credential ID, base64url.
    public var id: String
    /// Transports the authenticator reported (`internal`, `hybrid`, `usb`, …).
    public var transports: [String]?

    /// Creates a descriptor with the given values.
    ///
    /// - Parameters:
    ///   - id: The credential ID, base64url.
    ///   - transports: Transports the authenticator reported.
    public init(id: String, transports: [String]? = nil) {
        self.type = "public-key"
        self.id = id
        self.transports = transports
    }
}

/// What a registration asks of the authenticator.
public struct AuthenticatorSelectionCriteria: Codable, Sendable, Equatable {
    /// `required`: a passkey is a discoverable credential.
    public var residentKey: String
    /// `true` with `residentKey` `required`, for clients of WebAuthn Level 1.
    public var requireResidentKey: Bool
    /// `required`, `preferred` or `discouraged`.
    public var userVerification: String

    /// Creates selection criteria with the given values.
    ///
    /// - Parameters:
    ///   - residentKey: `required`, `preferred` or `discouraged`.
    ///   - userVerification: `required`, `preferred` or `discouraged`.
    public init(residentKey: String = "required", userVerification: String) {
        self.residentKey = residentKey
        self.requireResidentKey = residentKey == "required"
        self.userVerification = userVerification
    }
}
