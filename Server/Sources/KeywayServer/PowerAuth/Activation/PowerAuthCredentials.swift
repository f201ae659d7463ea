import Crypto
import Foundation
import KeywayPowerAuth

/// An application's PowerAuth credentials, opened.
struct PowerAuthCredentials: Sendable {
    let record: PowerAuthApplicationRecord
    /// `APPLICATION_SECRET` as its Base64 text.
    let applicationSecret: String
    let masterPrivateKey: P256.Signing.PrivateKey

    /// The defaults of new credentials.
    static let defaultMaxFailedAttempts = 5

    /// The application's credentials, created on first use (in the caller's write transaction).
    static func ensure(applicationId: String, secrets: PowerAuthSecrets, now: Int64, in repositories: Repositories)
        async throws -> PowerAuthCredentials
    {
        if let record = try await repositories.powerAuthApplications.find(applicationId: applicationId) {
            return try open(record, secrets: secrets)
        }
        let master = P256.KeyAgreement.PrivateKey()
        let secret = Data(SecureRandom.bytes(16)).base64EncodedString()
        let record = PowerAuthApplicationRecord(
            applicationId: applicationId, applicationKey: Data(SecureRandom.bytes(16)).base64EncodedString(),
            sealedApplicationSecret: try secrets.seal(
                text: secret, purpose: PowerAuthSecrets.Purpose.applicationSecret(applicationId)),
            masterPublicKey: master.publicKey.x963Representation.base64EncodedString(),
            sealedMasterPrivateKey: try secrets.seal(master, purpose: PowerAuthSecrets.Purpose.masterKey(applicationId)),
            maxFailedAttempts: defaultMaxFailedAttempts, recoveryEnabled: true, createdAt: now)
        try await repositories.powerAuthApplications.insert(record)
        return try open(record, secrets: secrets)
    }

    /// The credentials of the application whose key this is, or `nil`.
    static func find(applicationKey: String, secrets: PowerAuthSecrets, in repositories: Repositories)
        async throws -> PowerAuthCredentials?
    {
        guard let record = try await repositories.powerAuthApplications.find(applicationKey: applicationKey) else {
            return nil
        }
        return try open(record, secrets: secrets)
    }

    static func open(_ record: PowerAuthApplicationRecord, secrets: PowerAuthSecrets) throws -> PowerAuthCredentials {
        let agreement = try secrets.openKey(
            record.sealedMasterPrivateKey, purpose: PowerAuthSecrets.Purpose.masterKey(record.applicationId))
        return PowerAuthCredentials(
            record: record,
            applicationSecret: try secrets.openText(
                record.sealedApplicationSecret, purpose: PowerAuthSecrets.Purpose.applicationSecret(record.applicationId)),
            masterPrivateKey: try P256.Signing.PrivateKey(rawRepresentation: agreement.rawRepresentation))
    }

    /// The master key for key agreement: what a 3.2 device seals application-scope requests to.
    var masterAgreementKey: P256.KeyAgreement.PrivateKey {
        get throws { try P256.KeyAgreement.PrivateKey(rawRepresentation: masterPrivateKey.rawRepresentation) }
    }
}

/// The keys an activation shares with its device, derived on the server from its key pair and the
/// device's public key.
struct PowerAuthActivationKeys: Sendable {
    let serverPrivateKey: P256.KeyAgreement.PrivateKey
    let derived: PowerAuthDerivedKeys

    init(activation: PowerAuthActivationRecord, secrets: PowerAuthSecrets) throws {
        guard let sealed = activation.sealedServerPrivateKey, let device = activation.devicePublicKey,
            let deviceBytes = Data(base64Encoded: device)
        else { throw PowerAuthFailure.activation("The activation has no keys yet.") }
        serverPrivateKey = try secrets.openKey(sealed, purpose: PowerAuthSecrets.Purpose.serverKey(activation.id))
        let master = try PowerAuthKeys.masterSecret(
            privateKey: serverPrivateKey, publicKey: try PowerAuthKeys.publicKey(deviceBytes))
        derived = try PowerAuthDerivedKeys(masterSecret: master)
    }

    var signingKey: P256.Signing.PrivateKey {
        get throws { try P256.Signing.PrivateKey(rawRepresentation: serverPrivateKey.rawRepresentation) }
    }
}
