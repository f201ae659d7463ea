import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol

/// Does the device side of trust for one SDK instance: reads and writes the device record, creates
/// and uses the device key, and signs the ``DeviceSigningInput``s. Every failure to read a record
/// or a key is treated as "no trusted device" (the flow then falls back to the second factor).
struct DeviceTrustAgent: Sendable {
    let options: DeviceTrustOptions
    let server: ServerURL
    let configId: String
    let logger: KeywayLogger
    /// Proves enrolments with App Attest, when configured.
    var appAttest: AppAttestAgent? = nil

    /// The message code of a step that no longer trusts the device the client named.
    static let notRecognizedCode = "deviceNotRecognized"

    /// The audience signatures bind: the server's issuer URL.
    var audience: String { server.root.absoluteString }

    func namespace(for identifier: String) -> DeviceNamespace {
        DeviceNamespace(appIdentifier: options.appIdentifier, configId: configId, identifier: identifier)
    }

    /// The device trusted for `identifier` whose key is still here; a record without its key is
    /// forgotten.
    func trustedDevice(for identifier: String) async -> (record: DeviceRecord, key: any DeviceKey)? {
        let names = namespace(for: identifier)
        guard let data = try? await options.storage.read(key: names.recordKey),
            let record = try? JSONDecoder().decode(DeviceRecord.self, from: data), record.version == 1,
            record.server == audience, record.configId == configId, ServerURL.isPathSegment(record.deviceId)
        else { return nil }
        guard let key = await existingKey(named: record.keyName) else {
            logger.log(.notice, .flow, "the device key is missing; the device record is forgotten")
            await forget(identifier)
            return nil
        }
        return (record, key)
    }

    /// Where software keys go when the configured hardware store refuses to create one.
    private var fallbackStore: (any DeviceKeyStore)? {
        options.keyStore.isHardwareBacked ? SoftwareDeviceKeyStore(storage: options.storage) : nil
    }

    /// The key named `name`: in the configured store, or else a fallback software key.
    private func existingKey(named name: String) async -> (any DeviceKey)? {
        if let key = try? await options.keyStore.key(named: name) { return key }
        guard let fallbackStore else { return nil }
        return try? await fallbackStore.key(named: name)
    }

    /// A new key named `name`, and why it is a software key when the hardware store refused.
    private func newKey(named name: String) async -> (key: any DeviceKey, hardwareBacked: Bool, fallback: String?)? {
        do {
            return (try await options.keyStore.createKey(named: name), options.keyStore.isHardwareBacked, nil)
        } catch {
            guard let fallbackStore, let key = try? await fallbackStore.createKey(named: name) else { return nil }
            logger.log(.warning, .flow, "the hardware key store refused a device key; a software key is used: \(error)")
            return (key, false, String(describing: error))
        }
    }

    /// What to tell the server when a flow starts.
    func hint(for identifier: String) async -> DeviceHint {
        DeviceHint(deviceID: await trustedDevice(for: identifier)?.record.deviceId, canEnrol: true)
    }

    /// Forgets the device record and key of `identifier`.
    func forget(_ identifier: String) async {
        let names = namespace(for: identifier)
        try? await options.storage.delete(key: names.recordKey)
        try? await options.keyStore.deleteKey(named: names.keyName)
        try? await fallbackStore?.deleteKey(named: names.keyName)
    }

    /// Creates a new device key for `identifier` and the request that enrols it, or `nil` when
    /// the step is not for this server or no key can be kept. `fallback` says why the key is a
    /// software one when the hardware store refused.
    func enrolment(for identifier: String, payload: DeviceEnrollPayload, flowId: String) async
        -> (request: EnrollDeviceRequest, fallback: String?)?
    {
        guard payload.audience == audience else {
            logger.log(.warning, .flow, "device enrolment for another server refused")
            return nil
        }
        let names = namespace(for: identifier)
        try? await options.storage.delete(key: names.recordKey)
        try? await fallbackStore?.deleteKey(named: names.keyName)
        guard let (key, hardwareBacked, fallback) = await newKey(named: names.keyName) else { return nil }
        let jwk = ECJWK.publicJWK(for: key.publicKey)
        guard let thumbprint = jwk.kid,
            let data = DeviceSigningInput.enrolment(
                challenge: payload.challenge, flowID: flowId, configID: configId, audience: audience,
                keyThumbprint: thumbprint
            ).data,
            let signature = try? key.signature(for: data)
        else { return nil }
        let request = EnrollDeviceRequest(
            publicKey: jwk, signature: Base64URL.encode(signature.rawRepresentation), name: options.deviceName,
            hardwareBacked: hardwareBacked, appAttest: await appAttest?.evidence(for: data))
        return (request, fallback)
    }

    /// Keeps the record of a device the server enrolled.
    func remember(_ deviceId: String, for identifier: String) async {
        let names = namespace(for: identifier)
        let record = DeviceRecord(server: audience, configId: configId, deviceId: deviceId, keyName: names.keyName)
        guard let data = try? JSONEncoder().encode(record) else { return }
        do {
            try await options.storage.write(key: names.recordKey, data: data)
            logger.log(.info, .flow, "device trusted", ["device": .plain(deviceId)])
        } catch {
            logger.log(.warning, .flow, "the device record could not be saved: \(error)")
        }
    }

    /// The signature of a `deviceChallenge`, or `nil` when this device cannot answer it.
    func proof(for identifier: String, payload: DeviceChallengePayload, flowId: String) async -> String? {
        guard payload.audience == audience, let (record, key) = await trustedDevice(for: identifier),
            record.deviceId == payload.deviceID,
            let data = DeviceSigningInput.challenge(
                challenge: payload.challenge, flowID: flowId, configID: configId, audience: audience,
                deviceID: record.deviceId
            ).data,
            let signature = try? key.signature(for: data)
        else { return nil }
        return Base64URL.encode(signature.rawRepresentation)
    }

    /// Signs the input `input` builds from this device's ID with the device key of `identifier`.
    func sign(identifier: String, _ input: (_ deviceId: String) -> DeviceSigningInput) async throws
        -> (deviceId: String, signature: String)
    {
        guard let (record, key) = await trustedDevice(for: identifier) else {
            throw KeywayError.invalidConfiguration("This device is not trusted for this account: sign in on it first.")
        }
        guard let data = input(record.deviceId).data else {
            throw KeywayError.invalidConfiguration("The request cannot be signed.")
        }
        return (record.deviceId, Base64URL.encode(try key.signature(for: data).rawRepresentation))
    }
}
