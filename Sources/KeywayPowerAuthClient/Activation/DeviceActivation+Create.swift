import Crypto
import Foundation
import KeywayPowerAuthWire
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension DeviceActivation {
    /// Exchanges keys with the server (`POST /pa/v3/activation/create`, two ECIES layers under an
    /// application-scope temporary key) and keeps the activation pending its commit. A scanned
    /// code's signature is checked against the master server key first.
    ///
    /// - Parameters:
    ///   - credentials: The activation code, a Keyway authorization code, or a recovery code
    ///     (``create(signedInWith:keyway:name:)`` activates with the Keyway sign-in itself).
    ///   - name: The device's name, shown in the user's list of devices.
    ///   - extras: Free text kept with the activation on the server.
    /// - Returns: The activation's ID, the fingerprint to show, and any recovery code.
    /// - Throws: ``ActivationError``: `activationExists`, `activationSignatureInvalid`,
    ///   `server` (an unknown or expired code), `invalidResponse`, `networkFailure`, `storage`.
    public func create(with credentials: ActivationCredentials, name: String? = nil, extras: String? = nil)
        async throws(ActivationError) -> PendingActivation
    {
        try await create(presenting: .credentials(credentials), name: name, extras: extras)
    }

    /// What an activation presents as the user: credentials the app gave, or the signed-in
    /// session's access token (`CUSTOM`), with the `DPoP` proof a bound token needs.
    enum Presented: Sendable {
        case credentials(ActivationCredentials)
        case accessToken(Sensitive<String>, dpopProof: String?)

        /// The protocol's `activationType` and `identityAttributes`.
        var identity: (type: String, attributes: [String: String]) {
            switch self {
            case .credentials(let credentials): credentials.identity
            case .accessToken(let token, _): ("CUSTOM", ["accessToken": token.revealed])
            }
        }
    }

    func create(presenting presented: Presented, name: String?, extras: String?)
        async throws(ActivationError) -> PendingActivation
    {
        guard try await store.read() == nil else { throw .activationExists }
        var otp: String?
        var headers = [PowerAuthEncryptionHeader.name: PowerAuthEncryptionHeader(applicationKey: configuration.applicationKey).value]
        switch presented {
        case let .credentials(.activationCode(code, signature, codeOTP)):
            if let signature {
                guard ActivationSignature.isValid(signature: signature, code: code, masterPublicKey: configuration.masterSigningKey)
                else { throw .activationSignatureInvalid }
            }
            otp = codeOTP
        case let .accessToken(_, proof):
            if let proof { headers["DPoP"] = proof }
        case .credentials:
            break
        }

        // The device key travels compressed (33 bytes), as mobile clients send it.
        let deviceKey = P256.KeyAgreement.PrivateKey()
        let temporaryKey = try await TemporaryKeys(http: http, clock: options.clock)
            .create(scope: .application, serverPublicKey: configuration.masterSigningKey)
        let timestamp = nowMilliseconds

        let layer2 = try EciesExchange(key: temporaryKey, sharedInfo1: .activationLayer2, scope: .application, configuration: configuration)
        let layer2Request = ActivationLayer2Request(
            devicePublicKey: deviceKey.publicKey.compressedRepresentation.base64EncodedString(), activationName: name,
            activationOtp: otp, platform: options.platform, deviceInfo: options.deviceInfo, extras: extras)
        let identity = presented.identity
        let layer1Request = ActivationLayer1Request(
            type: identity.type, identityAttributes: identity.attributes,
            activationData: try layer2.seal(try PowerAuthHTTP.encode(layer2Request), timestamp: timestamp))
        let layer1 = try EciesExchange(
            key: temporaryKey, sharedInfo1: .applicationScopeGeneric, scope: .application, configuration: configuration)
        let envelope = try layer1.seal(try PowerAuthHTTP.encode(layer1Request), timestamp: timestamp)

        let answer = try await http.post("/pa/v3/activation/create", json: envelope, headers: headers)
        let layer1Answer = try PowerAuthHTTP.decode(
            ActivationLayer1Response.self,
            from: try layer1.open(try PowerAuthHTTP.decode(EciesEnvelope.self, from: answer, what: "activation answer")),
            what: "activation answer's first layer")
        let result = try PowerAuthHTTP.decode(
            ActivationLayer2Response.self, from: try layer2.open(layer1Answer.activationData), what: "activation answer's second layer")

        let record = try Self.record(from: result, deviceKey: deviceKey, name: name, createdAt: options.clock.now())
        try await locked { [store] in
            guard try await store.read() == nil else { throw ActivationError.activationExists }
            // Tokens of an activation this device no longer holds are of no use.
            try await store.deleteTokens()
            try await store.write(record)
        }
        let recovery = result.activationRecovery.map { RecoveryData(recoveryCode: $0.recoveryCode, puk: Sensitive($0.puk)) }
        return PendingActivation(activationID: record.activationID, fingerprint: record.fingerprint, recovery: recovery)
    }

    /// Activates with the user signed in to Keyway: the session's access token (refreshed when
    /// needed) is the custom credential, with a `DPoP` proof when the token is DPoP-bound.
    ///
    /// - Parameters:
    ///   - session: The signed-in session.
    ///   - keyway: The client the session belongs to (it makes the DPoP proof).
    ///   - name: The device's name.
    /// - Returns: The pending activation.
    /// - Throws: ``ActivationError/signInRequired(_:)`` when nobody is signed in, or the errors of
    ///   ``create(with:name:extras:)``.
    public func create(signedInWith session: KeywaySession, keyway: KeywayClient, name: String? = nil)
        async throws(ActivationError) -> PendingActivation
    {
        let token: Sensitive<String>
        do {
            guard let current = try await session.accessToken() else {
                throw ActivationError.signInRequired("Nobody is signed in to Keyway on this device; sign in first.")
            }
            token = current
        } catch let error as ActivationError {
            throw error
        } catch {
            throw .signInRequired("The Keyway session has no valid access token: \(error)")
        }
        var request = URLRequest(url: configuration.url("/pa/v3/activation/create"))
        request.httpMethod = "POST"
        let proof: String?
        do {
            proof = try await keyway.authorizedRequest(request, accessToken: token).value(forHTTPHeaderField: "DPoP")
        } catch {
            throw .signInRequired("The access token cannot be presented: \(error)")
        }
        return try await create(presenting: .accessToken(token, dpopProof: proof), name: name, extras: nil)
    }

    /// The record of a key exchange: the master secret's keys, the device private key under the
    /// vault key (which is then forgotten), the fingerprint and the counter.
    static func record(
        from result: ActivationLayer2Response, deviceKey: P256.KeyAgreement.PrivateKey, name: String?, createdAt: Date
    ) throws(ActivationError) -> ActivationRecord {
        guard !result.activationId.isEmpty else { throw .invalidResponse("The activation answer has no activation ID.") }
        guard let serverKeyBytes = Data(base64Encoded: result.serverPublicKey),
              let serverKey = try? PowerAuthKeys.publicKey(serverKeyBytes)
        else { throw .invalidResponse("The server public key is not a P-256 key.") }
        guard let counterData = Data(base64Encoded: result.ctrData), counterData.count == 16 else {
            throw .invalidResponse("The initial counter is not 16 Base64 bytes.")
        }
        do {
            let masterSecret = try PowerAuthKeys.masterSecret(privateKey: deviceKey, publicKey: serverKey)
            let keys = try PowerAuthDerivedKeys(masterSecret: masterSecret)
            return ActivationRecord(
                activationID: result.activationId, name: name, serverPublicKey: serverKeyBytes,
                devicePublicKey: deviceKey.publicKey.x963Representation,
                fingerprint: PublicKeyFingerprint.v3(
                    devicePublicKey: deviceKey.publicKey, activationID: result.activationId, serverPublicKey: serverKey),
                encryptedDevicePrivateKey: try PowerAuthKeyProtection.encryptDevicePrivateKey(deviceKey, vaultKey: keys.vaultEncryption),
                possessionKey: keys.signaturePossession.bytes, transportKey: keys.transport.bytes, counterData: counterData,
                counter: 0, knowledge: nil, pendingKnowledgeKey: keys.signatureKnowledge.bytes,
                pendingBiometryKey: keys.signatureBiometry.bytes, hasBiometry: false, createdAt: createdAt,
                sealedRecovery: try result.activationRecovery.map { recovery throws(ActivationError) in
                    try RecoverySeal.seal(
                        RecoverySeal.Contents(recoveryCode: recovery.recoveryCode, puk: recovery.puk), vaultKey: keys.vaultEncryption,
                        activationID: result.activationId)
                })
        } catch {
            throw .invalidResponse("The key exchange failed: \(error).")
        }
    }
}

extension SymmetricKey {
    /// The key's bytes.
    var bytes: Data { withUnsafeBytes { Data($0) } }
}
