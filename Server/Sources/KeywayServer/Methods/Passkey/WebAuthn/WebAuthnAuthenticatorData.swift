import Foundation
import KeywayCBOR

/// Authenticator data (WebAuthn §6.1): the RP ID hash, the flags, the signature counter, the
/// attested credential data when AT is set and the extensions (a CBOR map) when ED is set.
/// Bytes after what the flags announce are refused.
struct WebAuthnAuthenticatorData: Sendable, Equatable {
    /// The flags byte (§6.1). Bits 0x02 and 0x20 are reserved and ignored.
    struct Flags: OptionSet, Sendable, Equatable {
        /// The byte.
        let rawValue: UInt8

        /// Creates flags from their byte.
        ///
        /// - Parameter rawValue: The flags byte.
        init(rawValue: UInt8) { self.rawValue = rawValue }

        /// UP: the authenticator tested that the user was present.
        static let userPresent = Flags(rawValue: 0x01)
        /// UV: the authenticator verified the user (biometrics, PIN).
        static let userVerified = Flags(rawValue: 0x04)
        /// BE: the credential may be backed up (synced) to other devices.
        static let backupEligible = Flags(rawValue: 0x08)
        /// BS: the credential is backed up now.
        static let backedUp = Flags(rawValue: 0x10)
        /// AT: attested credential data follows the counter.
        static let attestedCredentialData = Flags(rawValue: 0x40)
        /// ED: an extensions map ends the data.
        static let extensionData = Flags(rawValue: 0x80)
    }

    /// The attested credential data (§6.5.2) of a registration.
    struct AttestedCredentialData: Sendable, Equatable {
        /// The authenticator model's AAGUID, 16 bytes.
        var aaguid: Data
        /// The credential ID, at most 1023 bytes.
        var credentialID: Data
        /// The credential public key: the raw bytes of its COSE_Key.
        var publicKey: Data
    }

    /// The longest credential ID WebAuthn allows (§5.1.4 / §6.5.2).
    static let maximumCredentialIDLength = 1023

    /// SHA-256 of the RP ID the credential is scoped to.
    var rpIDHash: Data
    /// The flags.
    var flags: Flags
    /// The signature counter; 0 for authenticators without one.
    var signCount: UInt32
    /// The attested credential data, when AT is set.
    var attestedCredential: AttestedCredentialData?
    /// The extension outputs, a CBOR map, when ED is set.
    var extensions: CBOR?

    /// Parses authenticator data.
    ///
    /// - Parameter data: The authenticator data's bytes.
    /// - Throws: ``WebAuthnFailure/malformed(_:)`` when the data is cut short, holds more than
    ///   its flags announce, a credential ID over 1023 bytes, or CBOR that does not decode.
    init(_ data: Data) throws(WebAuthnFailure) {
        let bytes = [UInt8](data)
        guard bytes.count >= 37 else { throw .malformed("the authenticator data is shorter than 37 bytes") }
        rpIDHash = Data(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= offset + 18 else { throw .malformed("the attested credential data is cut short") }
            let aaguid = Data(bytes[offset..<(offset + 16)])
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length <= Self.maximumCredentialIDLength else {
                throw .malformed("the credential ID is longer than \(Self.maximumCredentialIDLength) bytes")
            }
            guard length > 0 else { throw .malformed("the credential ID is empty") }
            guard bytes.count >= offset + length else { throw .malformed("the credential ID is cut short") }
            let credentialID = Data(bytes[offset..<(offset + length)])
            offset += length
            let keyLength: Int
            do {
                keyLength = try CBOR.decodePrefix(Data(bytes[offset...]), maximumDepth: 4).length
            } catch { throw .malformed("the credential public key: \(error.reason)") }
            let publicKey = Data(bytes[offset..<(offset + keyLength)])
            offset += keyLength
            attestedCredential = AttestedCredentialData(aaguid: aaguid, credentialID: credentialID, publicKey: publicKey)
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            let decoded: (item: CBOR, length: Int)
            do { decoded = try CBOR.decodePrefix(Data(bytes[offset...]), maximumDepth: 8) } catch {
                throw .malformed("the extensions: \(error.reason)")
            }
            guard case .map = decoded.item else { throw .malformed("the extensions are not a map") }
            extensions = decoded.item
            offset += decoded.length
        } else {
            extensions = nil
        }
        guard offset == bytes.count else { throw .malformed("the authenticator data has trailing bytes") }
    }
}
