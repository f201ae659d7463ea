import Foundation
import KeywayPowerAuth
import KeywayPowerAuthWire

/// `POST /pa/v3/user/info`, as the RESTful integration's `UserInfoController` serves it: a request
/// sealed in activation scope (`X-PowerAuth-Encryption` with the `activation_id`,
/// `SHARED_INFO_1 = /pa/generic/activation`) whose content is not read, answered in the same
/// envelope with the activation's user as OpenID Connect claims — `sub` alone: the device that
/// holds the activation's transport key learns who it belongs to and nothing more (an app reads
/// the profile at `/v1/me` with a token).
struct PowerAuthUserInfoService: Sendable {
    let database: any Database
    let clock: any ServerClock
    let secrets: PowerAuthSecrets
    let keystore: PowerAuthKeystore

    /// The claims answered.
    struct Claims: Codable, Sendable {
        var sub: String
    }

    func claims(encryptionHeader: String?, body: Data) async throws -> EciesEnvelope {
        let header = try PowerAuthRequestHeader.encryption(encryptionHeader)
        let version = try PowerAuthProtocol.version(header.version)
        guard let activationId = header.activationID else {
            throw PowerAuthFailure.invalidRequest("The user's information is sealed in activation scope: send the activation_id.")
        }
        let request = try EciesRequest(PowerAuthJSON.decode(EciesEnvelope.self, from: body), version: version)
        try request.checkTimestamp(now: clock.now())
        let secrets = self.secrets
        let (credentials, activation, privateKey) = try await database.read { repositories in
            guard let credentials = try await PowerAuthCredentials.find(
                applicationKey: header.applicationKey, secrets: secrets, in: repositories),
                let activation = try await repositories.powerAuthActivations.find(id: activationId),
                activation.applicationId == credentials.record.applicationId, activation.status == .active
            else {
                throw PowerAuthFailure.encryption("No active activation of this application has this ID.")
            }
            let key = try await keystore.privateKey(
                for: request, applicationId: credentials.record.applicationId, activationId: activation.id,
                sealedTo: { try PowerAuthActivationKeys(activation: activation, secrets: secrets).serverPrivateKey },
                in: repositories)
            return (credentials, activation, key)
        }
        let keys = try PowerAuthActivationKeys(activation: activation, secrets: secrets)
        let context = try EciesServerContext(
            privateKey: privateKey, request: request, sharedInfo1: .activationScopeGeneric,
            sharedInfo2Base: EciesContext.activationScopeSharedInfo2Base(
                applicationSecret: credentials.applicationSecret, transportKey: keys.derived.transport),
            applicationKey: header.applicationKey, activationId: activation.id)
        // The request's content (the reference's empty `UserInfoRequest`) is opened, so its MAC
        // is checked, and not read.
        _ = try context.open(request)
        return try context.seal(try PowerAuthJSON.encode(Claims(sub: activation.userId)), now: clock.now())
    }
}
