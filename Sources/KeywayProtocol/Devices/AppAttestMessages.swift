import Foundation

/// Answer of `POST /v1/app-attest/challenges`: a single-use challenge to attest a new App Attest
/// key with (its SHA-256 hash is the `clientDataHash` of `attestKey`).
public struct AppAttestChallenge: Codable, Sendable, Equatable {
    /// The challenge, single use.
    public var challenge: String
    /// When the challenge stops being accepted.
    public var expiresAt: Date

    /// Creates a challenge answer with the given values.
    ///
    /// - Parameters:
    ///   - challenge: The challenge, single use.
    ///   - expiresAt: When the challenge stops being accepted.
    public init(challenge: String, expiresAt: Date) {
        self.challenge = challenge
        self.expiresAt = expiresAt
    }
}

/// Body of `POST /v1/app-attest/keys`: registers an attested App Attest key of this app instance.
public struct AppAttestKeyRequest: Codable, Sendable, Equatable {
    /// The key ID `generateKey()` returned (base64 of the SHA-256 hash of the public key).
    public var keyId: String
    /// The attestation object `attestKey(_:clientDataHash:)` returned, base64url.
    public var attestation: String
    /// The challenge of ``AppAttestChallenge`` the attestation was made for.
    public var challenge: String

    /// Creates a key registration body with the given values.
    ///
    /// - Parameters:
    ///   - keyId: The key ID `generateKey()` returned.
    ///   - attestation: The attestation object, base64url.
    ///   - challenge: The challenge the attestation was made for.
    public init(keyId: String, attestation: String, challenge: String) {
        self.keyId = keyId
        self.attestation = attestation
        self.challenge = challenge
    }
}

/// Answer of `POST /v1/app-attest/keys`.
public struct AppAttestKeyResponse: Codable, Sendable, Equatable {
    /// The registered key's ID, as sent.
    public var keyId: String
    /// `production` or `development`.
    public var environment: String

    /// Creates a key registration answer with the given values.
    ///
    /// - Parameters:
    ///   - keyId: The registered key's ID.
    ///   - environment: `production` or `development`.
    public init(keyId: String, environment: String) {
        self.keyId = keyId
        self.environment = environment
    }
}

/// An assertion of a registered App Attest key over a request's client data, proving that the
/// request comes from a genuine instance of the app.
public struct AppAttestEvidence: Codable, Sendable, Equatable {
    /// The registered key's ID.
    public var keyId: String
    /// The assertion `generateAssertion(_:clientDataHash:)` returned, base64url; its
    /// `clientDataHash` is the SHA-256 hash of the client data the request defines.
    public var assertion: String

    /// Creates App Attest evidence with the given values.
    ///
    /// - Parameters:
    ///   - keyId: The registered key's ID.
    ///   - assertion: The assertion, base64url.
    public init(keyId: String, assertion: String) {
        self.keyId = keyId
        self.assertion = assertion
    }
}
