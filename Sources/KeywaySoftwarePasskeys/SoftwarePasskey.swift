import Foundation
import Keyway

/// A passkey a ``SoftwarePasskeyAuthenticator`` holds, without its private key.
public struct SoftwarePasskey: Sendable, Equatable, Identifiable {
    /// The credential ID, base64url.
    public var id: String
    /// The relying-party ID it is bound to.
    public var relyingPartyID: String
    /// The user handle it was made for, base64url.
    public var userHandle: String
    /// The account's name it was made for (the options' `user.name`).
    public var userName: String
    /// The name to show (the options' `user.displayName`).
    public var displayName: String
    /// Its key type.
    public var algorithm: SoftwarePasskeyAuthenticator.Algorithm
    /// Its signature counter now (0 for a synced passkey).
    public var signatureCounter: UInt32
    /// Whether it is a synced passkey (BE and BS set).
    public var synced: Bool
    /// When it was made.
    public var createdAt: Date
}

/// What the authenticator keeps of a passkey, private key included (base64url members).
struct StoredSoftwarePasskey: Codable, Sendable, Equatable {
    var credentialID: String
    var rpId: String
    var userHandle: String
    var userName: String
    var displayName: String
    var algorithm: SoftwarePasskeyAuthenticator.Algorithm
    /// The private key's raw representation (32 bytes for both key types), base64url.
    var privateKey: String
    var counter: UInt32
    var synced: Bool
    var createdAt: Date

    var summary: SoftwarePasskey {
        SoftwarePasskey(
            id: credentialID, relyingPartyID: rpId, userHandle: userHandle, userName: userName,
            displayName: displayName, algorithm: algorithm, signatureCounter: counter, synced: synced,
            createdAt: createdAt)
    }
}

/// The storage entry: every passkey, oldest first.
struct SoftwarePasskeyStore: Codable, Sendable {
    var version = 1
    var credentials: [StoredSoftwarePasskey] = []
}
