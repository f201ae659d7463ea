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
    public var keyID: String
    /// The attestation object `attestKey(_:clientDataHash:)` returned, base64url.
    public var attestation: String
    /// The challenge of ``AppAttestChallenge`` the attestation was made for.
    public var challenge: String

    /// Creates a key registration body with the given values.
    ///
    /// - Parameters:
    ///   - keyID: The key ID `generateKey()` returned.
    ///   - attestation: The attestation object, base64url.
    ///   - challenge: The challenge the attestation was made for.
    public init(keyID: String, attestation: String, challenge: String) {
        self.keyID = keyID
        self.attestation = attestation
        self.challenge = challenge
    }

    private enum CodingKeys: String, CodingKey {
        case keyID = "keyId", attestation, challenge
    }
}

/// Answer of `POST /v1/app-attest/keys`.
public struct AppAttestKeyResponse: Codable, Sendable, Equatable {
    /// The registered key's ID, as sent.
    public var keyID: String
    /// `production` or `development`.
    public var environment: String

    /// Creates a key registration answer with the given values.
    ///
    /// - Parameters:
    ///   - keyID: The registered key's ID.
    ///   - environment: `production` or `development`.
    public init(keyID: String, environment: String) {
        self.keyID = keyID
        self.environment = environment
    }

    private enum CodingKeys: String, CodingKey {
        case keyID = "keyId", environment
    }
}

/// An assertion of a registered App Attest key over a request's client data, proving that the
/// request comes from a genuine instance of the app.
public struct AppAttestEvidence: Codable, Sendable, Equatable {
    /// The registered key's ID.
    public var keyID: String
    /// The assertion `generateAssertion(_:clientDataHash:)` returned, base64url; its
    /// `clientDataHash` is the SHA-256 hash of the client data the request defines.
    public var assertion: String

    /// Creates App Attest evidence with the given values.
    ///
    /// - Parameters:
    ///   - keyID: The registered key's ID.
    ///   - assertion: The assertion, base64url.
    public init(keyID: String, assertion: String) {
        self.keyID = keyID
        self.assertion = assertion
    }

    private enum CodingKeys: String, CodingKey {
        case keyID = "keyId", assertion
    }
}
