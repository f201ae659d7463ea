import Foundation

/// `POST /pa/v3/vault/unlock`'s request, before encryption.
public struct VaultUnlockRequest: Codable, Sendable {
    /// Why (`ADD_BIOMETRY`, `FETCH_ENCRYPTION_KEY`, `SIGN_WITH_DEVICE_PRIVATE_KEY`, `RECOVERY_CODE`).
    public var reason: String?

    public init(reason: String? = nil) {
        self.reason = reason
    }
}

/// `POST /pa/v3/vault/unlock`'s answer, before encryption.
public struct VaultUnlockResponse: Codable, Sendable {
    /// The activation's ID.
    public var activationId: String?
    /// `KEY_ENCRYPTION_VAULT` under `KEY_TRANSPORT`, Base64.
    public var encryptedVaultEncryptionKey: String

    public init(activationId: String? = nil, encryptedVaultEncryptionKey: String) {
        self.activationId = activationId
        self.encryptedVaultEncryptionKey = encryptedVaultEncryptionKey
    }
}

/// `POST /pa/v3/token/create`'s answer, before encryption.
public struct TokenCreateResponse: Codable, Sendable {
    /// The token's ID.
    public var tokenId: String
    /// The token's secret, Base64.
    public var tokenSecret: String

    public init(tokenId: String, tokenSecret: String) {
        self.tokenId = tokenId
        self.tokenSecret = tokenSecret
    }
}

/// `POST /pa/v3/token/remove`'s request and response object.
public struct TokenRemoveObject: Codable, Sendable {
    /// The token's ID.
    public var tokenId: String?

    public init(tokenId: String? = nil) {
        self.tokenId = tokenId
    }
}

/// `POST /pa/v3/recovery/confirm`'s request, before encryption.
public struct RecoveryConfirmRequest: Codable, Sendable {
    /// The postcard's recovery code.
    public var recoveryCode: String?

    public init(recoveryCode: String? = nil) {
        self.recoveryCode = recoveryCode
    }
}

/// `POST /pa/v3/recovery/confirm`'s answer, before encryption.
public struct RecoveryConfirmResponse: Codable, Sendable {
    /// Whether the code had been confirmed before.
    public var alreadyConfirmed: Bool

    public init(alreadyConfirmed: Bool) {
        self.alreadyConfirmed = alreadyConfirmed
    }
}
