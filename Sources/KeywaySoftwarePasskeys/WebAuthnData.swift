import Crypto
import Foundation
import Keyway
import KeywayCBOR

/// The flags byte of WebAuthn authenticator data (WebAuthn Level 3 §6.1).
struct AuthenticatorFlags: OptionSet, Sendable, Equatable {
    let rawValue: UInt8

    /// User present (bit 0).
    static let userPresent = AuthenticatorFlags(rawValue: 0x01)
    /// User verified (bit 2).
    static let userVerified = AuthenticatorFlags(rawValue: 0x04)
    /// Backup eligible: the credential may be synced (bit 3).
    static let backupEligible = AuthenticatorFlags(rawValue: 0x08)
    /// Backed up: the credential is synced now (bit 4).
    static let backedUp = AuthenticatorFlags(rawValue: 0x10)
    /// Attested credential data follows (bit 6).
    static let attestedCredentialData = AuthenticatorFlags(rawValue: 0x40)
}

/// Authenticator data and client data as an authenticator and a client write them: shared by the
/// software authenticator and the tests that read them back.
enum WebAuthnData {
    /// The client data's JSON (WebAuthn Level 3 §5.8.1), members in the order the specification's
    /// limited verification algorithm expects: `type`, `challenge`, `origin`, `crossOrigin`.
    ///
    /// - Parameters:
    ///   - type: `webauthn.create` or `webauthn.get`.
    ///   - challenge: The challenge, base64url without padding.
    ///   - origin: The caller's origin (`https://example.com`).
    /// - Returns: The JSON's UTF-8 bytes.
    static func clientDataJSON(type: String, challenge: String, origin: String) -> [UInt8] {
        let json =
            #"{"type":\#(jsonString(type)),"challenge":\#(jsonString(challenge)),"origin":\#(jsonString(origin)),"crossOrigin":false}"#
        return Array(json.utf8)
    }

    /// Authenticator data (WebAuthn Level 3 §6.1): SHA-256 of the relying-party ID, the flags, the
    /// signature counter (32-bit big-endian), then the attested credential data when given.
    ///
    /// - Parameters:
    ///   - rpId: The relying-party ID.
    ///   - flags: The flags; ``AuthenticatorFlags/attestedCredentialData`` is set when
    ///     `attestedCredential` is given.
    ///   - counter: The signature counter.
    ///   - attestedCredential: The attested credential data, for a registration.
    /// - Returns: The authenticator data's bytes.
    static func authenticatorData(
        rpId: String, flags: AuthenticatorFlags, counter: UInt32, attestedCredential: [UInt8]? = nil
    ) -> [UInt8] {
        var flags = flags
        if attestedCredential != nil { flags.insert(.attestedCredentialData) }
        var out = Array(SHA256.hash(data: Data(rpId.utf8)))
        out.append(flags.rawValue)
        out += bigEndian(UInt64(counter), bytes: 4)
        if let attestedCredential { out += attestedCredential }
        return out
    }

    /// Attested credential data (WebAuthn Level 3 §6.5.2): the AAGUID (16 bytes), the credential
    /// ID's length (16-bit big-endian), the credential ID, and the COSE public key.
    ///
    /// - Parameters:
    ///   - aaguid: The authenticator's model, 16 bytes.
    ///   - credentialID: The credential ID.
    ///   - publicKey: The COSE key, encoded.
    /// - Returns: The attested credential data's bytes.
    static func attestedCredentialData(aaguid: [UInt8], credentialID: [UInt8], publicKey: [UInt8]) -> [UInt8] {
        aaguid + bigEndian(UInt64(credentialID.count), bytes: 2) + credentialID + publicKey
    }

    /// An EC2 P-256 COSE key for ES256 (RFC 9053 §7.1): `{1: 2, 3: -7, -1: 1, -2: x, -3: y}`.
    ///
    /// - Parameter key: The public key.
    /// - Returns: The COSE key.
    static func coseKey(_ key: P256.Signing.PublicKey) -> CBOR {
        // The raw representation is x ‖ y, 32 bytes each.
        let raw = Array(key.rawRepresentation)
        return .map([
            (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
            (.int(-2), .bytes(Data(raw[0..<32]))), (.int(-3), .bytes(Data(raw[32..<64]))),
        ])
    }

    /// An OKP Ed25519 COSE key for EdDSA (RFC 9053 §7.2): `{1: 1, 3: -8, -1: 6, -2: x}`.
    ///
    /// - Parameter key: The public key.
    /// - Returns: The COSE key.
    static func coseKey(_ key: Curve25519.Signing.PublicKey) -> CBOR {
        .map([
            (.int(1), .int(1)), (.int(3), .int(-8)), (.int(-1), .int(6)),
            (.int(-2), .bytes(key.rawRepresentation)),
        ])
    }

    /// An attestation object (WebAuthn Level 3 §6.5): `{"fmt": …, "attStmt": …, "authData": …}`.
    ///
    /// - Parameters:
    ///   - format: `none` or `packed`.
    ///   - statement: The attestation statement (an empty map for `none`).
    ///   - authenticatorData: The authenticator data.
    /// - Returns: The attestation object's CBOR.
    static func attestationObject(format: String, statement: CBOR, authenticatorData: [UInt8]) -> [UInt8] {
        Array(CBOR.map([
            (.text("fmt"), .text(format)), (.text("attStmt"), statement),
            (.text("authData"), .bytes(Data(authenticatorData))),
        ]).encoded)
    }

    /// What an authenticator signs: the authenticator data, then SHA-256 of the client data's JSON.
    ///
    /// - Parameters:
    ///   - authenticatorData: The authenticator data.
    ///   - clientDataJSON: The client data's JSON.
    /// - Returns: `authenticatorData ‖ SHA-256(clientDataJSON)`.
    static func signedBytes(authenticatorData: [UInt8], clientDataJSON: [UInt8]) -> [UInt8] {
        authenticatorData + Array(SHA256.hash(data: clientDataJSON))
    }

    /// The low `bytes` bytes of `value`, most significant first.
    static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }

    /// `text` as a JSON string, quoted and escaped.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
