import Foundation

/// A new passkey, in the JSON form of WebAuthn Level 3 (`RegistrationResponseJSON`, what
/// `PublicKeyCredential.toJSON()` gives in a browser). Binary members are base64url.
public struct PasskeyRegistrationResponse: Codable, Sendable, Equatable {
    /// The credential ID, base64url.
    public var id: String
    /// The credential ID, base64url (the same bytes as `id`).
    public var rawID: String
    /// Always `public-key`.
    public var type: String
    /// The authenticator's answer.
    public var response: AttestationResponse
    /// `platform` or `cross-platform`, when the client says.
    public var authenticatorAttachment: String?
    /// The client's extension outputs (`credProps`); read, never trusted.
    public var clientExtensionResults: PasskeyExtensionResults?

    /// Creates a registration response with the given values.
    ///
    /// - Parameters:
    ///   - id: The credential ID, base64url.
    ///   - response: The authenticator's answer.
    ///   - authenticatorAttachment: `platform` or `cross-platform`.
    public init(id: String, response: AttestationResponse, authenticatorAttachment: String? = nil) {
        self.id = id
        self.rawID = id
        self.type = "public-key"
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = PasskeyExtensionResults()
    }

    /// The authenticator's answer to a registration (`AuthenticatorAttestationResponseJSON`).
    public struct AttestationResponse: Codable, Sendable, Equatable {
        /// The client data the authenticator signed over, base64url of its JSON.
        public var clientDataJSON: String
        /// The attestation object (CBOR), base64url.
        public var attestationObject: String
        /// Transports the authenticator can be reached by.
        public var transports: [String]?

        /// Creates an attestation response with the given values.
        ///
        /// - Parameters:
        ///   - clientDataJSON: base64url of the client data's JSON.
        ///   - attestationObject: The attestation object, base64url.
        ///   - transports: Transports the authenticator can be reached by.
        public init(clientDataJSON: String, attestationObject: String, transports: [String]? = nil) {
            self.clientDataJSON = clientDataJSON
            self.attestationObject = attestationObject
            self.transports = transports
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, rawID = "rawId", type, response, authenticatorAttachment, clientExtensionResults
    }
}

/// A passkey's signature, in the JSON form of WebAuthn Level 3 (`AuthenticationResponseJSON`).
/// Binary members are base64url.
public struct PasskeyAssertionResponse: Codable, Sendable, Equatable {
    /// The credential ID, base64url.
    public var id: String
    /// The credential ID, base64url (the same bytes as `id`).
    public var rawID: String
    /// Always `public-key`.
    public var type: String
    /// The authenticator's answer.
    public var response: AssertionResponse
    /// `platform` or `cross-platform`, when the client says.
    public var authenticatorAttachment: String?
    /// The client's extension outputs; read, never trusted.
    public var clientExtensionResults: PasskeyExtensionResults?

    /// Creates an assertion response with the given values.
    ///
    /// - Parameters:
    ///   - id: The credential ID, base64url.
    ///   - response: The authenticator's answer.
    ///   - authenticatorAttachment: `platform` or `cross-platform`.
    public init(id: String, response: AssertionResponse, authenticatorAttachment: String? = nil) {
        self.id = id
        self.rawID = id
        self.type = "public-key"
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
        self.clientExtensionResults = PasskeyExtensionResults()
    }

    /// The authenticator's answer to a sign-in (`AuthenticatorAssertionResponseJSON`).
    public struct AssertionResponse: Codable, Sendable, Equatable {
        /// The client data the authenticator signed over, base64url of its JSON.
        public var clientDataJSON: String
        /// The authenticator data, base64url.
        public var authenticatorData: String
        /// The signature over the authenticator data and the client data's hash, base64url.
        public var signature: String
        /// The user handle the passkey was made for, base64url; a discoverable passkey gives it.
        public var userHandle: String?

        /// Creates an assertion response with the given values.
        ///
        /// - Parameters:
        ///   - clientDataJSON: base64url of the client data's JSON.
        ///   - authenticatorData: The authenticator data, base64url.
        ///   - signature: The signature, base64url.
        ///   - userHandle: The user handle, base64url.
        public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String? = nil) {
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
            self.userHandle = userHandle
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, rawID = "rawId", type, response, authenticatorAttachment, clientExtensionResults
    }
}

/// The client extension outputs Keyway reads (others are ignored).
public struct PasskeyExtensionResults: Codable, Sendable, Equatable {
    /// `credProps`: whether the credential is discoverable, when the client knows.
    public var credProps: CredentialProperties?

    /// Creates extension outputs.
    ///
    /// - Parameter credProps: The `credProps` output.
    public init(credProps: CredentialProperties? = nil) {
        self.credProps = credProps
    }

    /// The `credProps` extension's output.
    public struct CredentialProperties: Codable, Sendable, Equatable {
        /// Whether the credential is discoverable (a resident key).
        public var rk: Bool?

        /// Creates a `credProps` output.
        ///
        /// - Parameter rk: Whether the credential is discoverable.
        public init(rk: Bool? = nil) {
            self.rk = rk
        }
    }
}
