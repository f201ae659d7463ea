import Crypto
import CryptoExtras
import Foundation
import KeywayPowerAuthClient

/// The server's side of the published PowerAuth 3.3 endpoints, in process, computed with
/// `KeywayPowerAuth` (the same crypto the Keyway server uses): temporary keys of both scopes,
/// the two-layer activation, the status blob, signature verification with its look-ahead
/// window and fail count, the vault and removal. Tests run the SDK against it over the
/// `HTTPTransport` seam; it keeps what it received so tests can read the requests back.
actor ProtocolPeer: HTTPTransport {
    struct Activation {
        var id: String
        var serverKey: P256.KeyAgreement.PrivateKey
        var devicePublicKey: P256.KeyAgreement.PublicKey
        var keys: PowerAuthDerivedKeys
        var counterData: Data
        var counter: UInt64 = 0
        var failedAttempts = 0
        var maxFailedAttempts = 5
        var state: ActivationState = .active
        var fingerprint: String
        var vaultKey: SymmetricKey { keys.vaultEncryption }
    }

    let applicationKey = Data((1...16).map { UInt8($0) }).base64EncodedString()
    let applicationSecret = Data((17...32).map { UInt8($0) }).base64EncodedString()
    let masterKey = P256.Signing.PrivateKey()
    let configID = "cfg_peer"
    let baseURL = URL(string: "https://peer.example")!

    private(set) var activations: [String: Activation] = [:]
    private var temporaryKeys: [String: (key: P256.KeyAgreement.PrivateKey, activationID: String?)] = [:]
    /// The activation codes the peer accepts.
    var validCodes: Set<String> = []
    /// What the decrypted layers of an activation request said.
    struct ActivationRequest: Sendable {
        /// The kind, as a stock server reads it: `type`.
        var type: String?
        var identityAttributes: [String: String]?
        var name: String?
        var otp: String?
        var platform: String?
        var deviceInfo: String?
        var extras: String?
    }
    /// The activation requests, decrypted.
    private(set) var activationRequests: [ActivationRequest] = []
    /// Every request's path, in order.
    private(set) var paths: [String] = []
    /// The tokens the peer issued: ID → activation, secret, factors.
    private(set) var tokens: [String: (activationID: String, secret: SymmetricKey, factors: String)] = [:]
    /// The activation-bound recovery code of each activation.
    private(set) var recoveryCodes: [String: String] = [:]
    /// Postcard codes that can be confirmed, and those confirmed.
    var postcards: Set<String> = []
    private(set) var confirmedPostcards: Set<String> = []
    /// The reasons of the vault unlocks, in order.
    private(set) var vaultReasons: [String] = []
    /// The plaintexts the echo endpoints decrypted, in order.
    private(set) var echoed: [Data] = []
    /// When set, temporary keys are signed with this key instead of the scope's (a forged answer).
    var forgedTemporaryKeySigner: P256.Signing.PrivateKey?
    /// When set, temporary key answers echo this challenge instead of the request's.
    var forgedChallenge: String?
    /// The headers of the last activation request.
    private(set) var lastActivationHeaders: [String: String] = [:]

    nonisolated var configurationJSON: Data {
        Data("""
            {"configId": "cfg_peer", "applicationKey": "\(applicationKey)", "applicationSecret": "\(applicationSecret)",
             "masterServerPublicKey": "\(masterKey.publicKey.x963Representation.base64EncodedString())",
             "maxFailedAttempts": 5, "recoveryEnabled": true, "somethingElse": [1, 2]}
            """.utf8)
    }

    nonisolated func configuration() throws -> PowerAuthConfiguration {
        try PowerAuthConfiguration(baseURL: baseURL, json: configurationJSON)
    }

    func addCode(_ code: ActivationCode) { validCodes.insert(code.value) }

    func forgeTemporaryKeys(signer: P256.Signing.PrivateKey?, challenge: String?) {
        forgedTemporaryKeySigner = signer
        forgedChallenge = challenge
    }

    func activation(_ id: String) -> Activation? { activations[id] }

    /// Moves the server's counter forward, as signatures of another copy of the device would.
    func advanceCounter(of id: String, by steps: Int) {
        guard var activation = activations[id] else { return }
        for _ in 0..<steps {
            activation.counterData = PowerAuthHashCounter.next(activation.counterData)
            activation.counter += 1
        }
        activations[id] = activation
    }

    /// Offline QR data for an activation, signed with its server key (flag 1) or the master key (0).
    func offlineData(_ data: String, activationID: String, flag: OfflineSigningKey) throws -> OfflineSignaturePayload {
        let key = flag == .master
            ? masterKey : try P256.Signing.PrivateKey(rawRepresentation: activations[activationID]!.serverKey.rawRepresentation)
        return try OfflineSignaturePayload(signing: data, nonce: Data((0..<16).map { _ in UInt8.random(in: 0...255) }), signingKey: flag, privateKey: key)
    }

    /// Verifies an offline signature as a server would, moving the counter on success.
    func verifyOffline(_ signature: String, payload: OfflineSignaturePayload, activationID: String, factors: PowerAuthSignatureFactors) throws -> Bool {
        guard var activation = activations[activationID] else { return false }
        let data = PowerAuthSignature.offlineSignedData(uriIdentifier: "/operation/authorize/offline", nonce: payload.nonce, data: Data(payload.data.utf8))
        guard let match = try PowerAuthSignature.verify(
            signature: signature, data: data, keys: activation.keys.signatureKeys(for: factors), counterData: activation.counterData,
            format: .decimal(digits: 8))
        else { return false }
        activation.counterData = match.nextCounterData
        activation.counter += UInt64(match.counterOffset + 1)
        activations[activationID] = activation
        return true
    }

    // MARK: HTTP

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let path = request.url.path
        paths.append(path)
        let body = request.body ?? Data()
        do {
            switch path {
            case "/pa/v3/keystore/create": return try keystore(body)
            case "/pa/v3/activation/create":
                lastActivationHeaders = request.headers
                return try activationCreate(body)
            case "/pa/v3/activation/status": return try status(body)
            case "/pa/v3/signature/validate":
                _ = try verify(request, uriID: "/pa/signature/validate")
                return ok(Data(#"{"status":"OK"}"#.utf8))
            case "/pa/v3/vault/unlock": return try vaultUnlock(request)
            case "/pa/v3/token/create": return try tokenCreate(request)
            case "/pa/v3/token/remove": return try tokenRemove(request)
            case "/pa/v3/recovery/confirm": return try recoveryConfirm(request)
            case "/echo/application", "/echo/activation": return try echo(request)
            case "/echo/signed": return try echoSigned(request)
            case "/pa/v3/activation/remove":
                let id = try verify(request, uriID: "/pa/activation/remove")
                activations[id]?.state = .removed
                return ok(Data(#"{"status":"OK"}"#.utf8))
            default: return failure(404, "NOT_FOUND")
            }
        } catch let refusal as Refusal {
            return failure(refusal.status, refusal.code)
        }
    }

    private struct Refusal: Error {
        let status: Int
        let code: String
    }

    private func ok(_ body: Data) -> TransportResponse { TransportResponse(status: 200, body: body) }

    private func failure(_ status: Int, _ code: String) -> TransportResponse {
        TransportResponse(status: status, body: Data(#"{"status":"ERROR","responseObject":{"code":"\#(code)","message":"refused"}}"#.utf8))
    }

    private func json(_ data: Data) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw Refusal(status: 400, code: "ERR_REQUEST") }
        return object
    }

    private func keystore(_ body: Data) throws -> TransportResponse {
        guard let jwt = (try json(body)["requestObject"] as? [String: Any])?["jwt"] as? String else { throw Refusal(status: 400, code: "ERR_REQUEST") }
        let payloadSegment = jwt.split(separator: ".")[1]
        var base64 = payloadSegment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64.append("=") }
        let unverified = try json(Data(base64Encoded: base64)!)
        let activationID = unverified["activationId"] as? String
        let secret = Data(base64Encoded: applicationSecret)!
        let claims: TemporaryKeyClaims
        let signer: P256.Signing.PrivateKey
        if let activationID {
            guard let activation = activations[activationID] else { throw Refusal(status: 400, code: "ERR_ACTIVATION") }
            claims = try TemporaryKeyJWT.verifyRequest(jwt, key: PowerAuthKDF.deriveInternal(key: activation.keys.transport, data: secret))
            signer = try P256.Signing.PrivateKey(rawRepresentation: activation.serverKey.rawRepresentation)
        } else {
            claims = try TemporaryKeyJWT.verifyRequest(jwt, key: SymmetricKey(data: secret))
            signer = masterKey
        }
        let key = P256.KeyAgreement.PrivateKey()
        let id = UUID().uuidString
        temporaryKeys[id] = (key, activationID)
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        var answer = claims
        if let forgedChallenge { answer.challenge = forgedChallenge }
        answer.keyID = id
        answer.publicKey = key.publicKey.x963Representation.base64EncodedString()
        answer.issuedAtMilliseconds = now
        answer.expiresAtMilliseconds = now + 300_000
        let response = try TemporaryKeyJWT.response(answer, privateKey: forgedTemporaryKeySigner ?? signer)
        return ok(try JSONSerialization.data(withJSONObject: ["responseObject": ["jwt": response]]))
    }

    /// The server's ECIES context for a request envelope.
    private func context(_ envelope: [String: Any], sharedInfo1: EciesSharedInfo1, activation: Activation?) throws -> (EciesContext, EciesPayload) {
        guard let keyID = envelope["temporaryKeyId"] as? String, let temporary = temporaryKeys[keyID],
              temporary.activationID == activation?.id,
              let ephemeral = (envelope["ephemeralPublicKey"] as? String).flatMap({ Data(base64Encoded: $0) }),
              let encrypted = (envelope["encryptedData"] as? String).flatMap({ Data(base64Encoded: $0) }),
              let mac = (envelope["mac"] as? String).flatMap({ Data(base64Encoded: $0) }),
              let nonce = (envelope["nonce"] as? String).flatMap({ Data(base64Encoded: $0) }),
              let timestamp = (envelope["timestamp"] as? NSNumber)?.uint64Value
        else { throw Refusal(status: 400, code: "ERR_ENCRYPTION") }
        let envelopeKey = try EciesEnvelopeKey.forResponse(
            privateKey: temporary.key, ephemeralPublicKey: ephemeral, sharedInfo1: sharedInfo1.bytes, version: .v33)
        let base = activation.map {
            EciesContext.activationScopeSharedInfo2Base(applicationSecret: applicationSecret, transportKey: $0.keys.transport)
        } ?? EciesContext.applicationScopeSharedInfo2Base(applicationSecret: applicationSecret)
        let associated = EciesContext.associatedData(version: .v33, applicationKey: applicationKey, activationID: activation?.id, temporaryKeyID: keyID)
        return (
            EciesContext(version: .v33, envelopeKey: envelopeKey, sharedInfo2Base: base, associatedData: associated),
            EciesPayload(encryptedData: encrypted, mac: mac, ephemeralPublicKey: ephemeral, nonce: nonce, timestamp: timestamp)
        )
    }

    private func sealResponse(_ object: [String: Any], context: EciesContext) throws -> [String: Any] {
        let nonce = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let payload = try context.encrypt(
            try JSONSerialization.data(withJSONObject: object), direction: .response, nonce: nonce, timestamp: UInt64(Date().timeIntervalSince1970 * 1000))
        return ["encryptedData": payload.encryptedData.base64EncodedString(), "mac": payload.mac.base64EncodedString(),
                "nonce": nonce.base64EncodedString(), "timestamp": payload.timestamp!]
    }

    private func activationCreate(_ body: Data) throws -> TransportResponse {
        let (context1, payload1) = try context(try json(body), sharedInfo1: .applicationScopeGeneric, activation: nil)
        let layer1 = try json(try context1.decrypt(payload1, direction: .request))
        guard let envelope2 = layer1["activationData"] as? [String: Any] else { throw Refusal(status: 400, code: "ERR_ACTIVATION") }
        let (context2, payload2) = try context(envelope2, sharedInfo1: .activationLayer2, activation: nil)
        let layer2 = try json(try context2.decrypt(payload2, direction: .request))
        activationRequests.append(ActivationRequest(
            type: layer1["type"] as? String, identityAttributes: layer1["identityAttributes"] as? [String: String],
            name: layer2["activationName"] as? String, otp: layer2["activationOtp"] as? String, platform: layer2["platform"] as? String,
            deviceInfo: layer2["deviceInfo"] as? String, extras: layer2["extras"] as? String))
        let identity = layer1["identityAttributes"] as? [String: String] ?? [:]
        switch layer1["type"] as? String {
        case "CODE":
            guard let code = identity["code"], validCodes.remove(code) != nil else { throw Refusal(status: 400, code: "ERR_ACTIVATION") }
        case "CUSTOM", "RECOVERY": break
        default: throw Refusal(status: 400, code: "ERR_ACTIVATION")
        }
        guard let deviceKeyText = layer2["devicePublicKey"] as? String, let deviceKeyData = Data(base64Encoded: deviceKeyText) else {
            throw Refusal(status: 400, code: "ERR_ACTIVATION")
        }
        let devicePublicKey = try PowerAuthKeys.publicKey(deviceKeyData)
        let serverKey = P256.KeyAgreement.PrivateKey()
        let id = UUID().uuidString.lowercased()
        let counterData = PowerAuthHashCounter.random()
        let recoveryCode = ActivationCode.random().value
        let keys = try PowerAuthDerivedKeys(masterSecret: try PowerAuthKeys.masterSecret(privateKey: serverKey, publicKey: devicePublicKey))
        activations[id] = Activation(
            id: id, serverKey: serverKey, devicePublicKey: devicePublicKey, keys: keys, counterData: counterData,
            fingerprint: PublicKeyFingerprint.v3(devicePublicKey: devicePublicKey, activationID: id, serverPublicKey: serverKey.publicKey))
        let response2: [String: Any] = [
            "activationId": id, "serverPublicKey": serverKey.publicKey.x963Representation.base64EncodedString(),
            "ctrData": counterData.base64EncodedString(),
            "activationRecovery": ["recoveryCode": recoveryCode, "puk": "0123456789"],
        ]
        recoveryCodes[id] = recoveryCode
        let sealed2 = try sealResponse(response2, context: context2)
        let sealed1 = try sealResponse(["activationData": sealed2, "customAttributes": [:] as [String: Any]], context: context1)
        return ok(try JSONSerialization.data(withJSONObject: sealed1))
    }

    private func status(_ body: Data) throws -> TransportResponse {
        guard let object = try json(body)["requestObject"] as? [String: Any], let id = object["activationId"] as? String,
              let challenge = (object["challenge"] as? String).flatMap({ Data(base64Encoded: $0) }), let activation = activations[id]
        else { throw Refusal(status: 400, code: "ERR_ACTIVATION") }
        var blob: [UInt8] = ActivationStatusBlob.magic + [activation.state.byte, 3, 3, 0, 0, 0, 0, 0]
        blob += [UInt8(truncatingIfNeeded: activation.counter), UInt8(activation.failedAttempts), UInt8(activation.maxFailedAttempts), 20]
        blob += Array(try ActivationStatusBlob.counterDataHash(activation.counterData, transportKey: activation.keys.transport))
        let nonce = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let iv = try ActivationStatusBlob.iv(transportKey: activation.keys.transport, challenge: challenge, nonce: nonce)
        let encrypted = try AES._CBC.encrypt(blob, using: activation.keys.transport, iv: AES._CBC.IV(ivBytes: iv), noPadding: true)
        let response: [String: Any] = ["status": "OK", "responseObject": [
            "activationId": id, "encryptedStatusBlob": encrypted.base64EncodedString(), "nonce": nonce.base64EncodedString(),
            "customObject": [:] as [String: Any],
        ]]
        return ok(try JSONSerialization.data(withJSONObject: response))
    }

    /// Verifies a request's signature; returns the activation ID.
    private func verify(_ request: TransportRequest, uriID: String) throws -> String {
        guard let value = request.headers[PowerAuthAuthorizationHeader.name],
              let header = try? PowerAuthAuthorizationHeader(parsing: value), header.version == "3.3",
              header.applicationKey == applicationKey, var activation = activations[header.activationID]
        else { throw Refusal(status: 401, code: "POWERAUTH_AUTH_FAIL") }
        guard activation.state == .active else { throw Refusal(status: 401, code: "POWERAUTH_AUTH_FAIL") }
        let data = PowerAuthSignature.signedData(
            requestData: PowerAuthSignature.requestData(method: request.method, uriIdentifier: uriID, nonce: header.nonce, body: request.body ?? Data()),
            applicationSecret: applicationSecret)
        let match = try PowerAuthSignature.verify(
            signature: header.signature, data: data, keys: activation.keys.signatureKeys(for: header.factors),
            counterData: activation.counterData, format: .base64)
        guard let match else {
            activation.failedAttempts += 1
            if activation.failedAttempts >= activation.maxFailedAttempts { activation.state = .blocked }
            activations[activation.id] = activation
            throw Refusal(status: 401, code: "POWERAUTH_AUTH_FAIL")
        }
        activation.counterData = match.nextCounterData
        activation.counter += UInt64(match.counterOffset + 1)
        if header.factors != .possession { activation.failedAttempts = 0 }
        activations[activation.id] = activation
        return activation.id
    }

    private func vaultUnlock(_ request: TransportRequest) throws -> TransportResponse {
        let id = try verify(request, uriID: "/pa/vault/unlock")
        let activation = activations[id]!
        let (context, payload) = try context(try json(request.body ?? Data()), sharedInfo1: .vaultUnlock, activation: activation)
        let plain = try json(try context.decrypt(payload, direction: .request))
        guard let reason = plain["reason"] as? String,
              ["ADD_BIOMETRY", "FETCH_ENCRYPTION_KEY", "SIGN_WITH_DEVICE_PRIVATE_KEY", "RECOVERY_CODE"].contains(reason)
        else { throw Refusal(status: 400, code: "ERR_REQUEST") }
        vaultReasons.append(reason)
        let encrypted = try PowerAuthKeyProtection.encryptVaultKey(activation.vaultKey, transportKey: activation.keys.transport)
        let sealed = try sealResponse(["activationId": id, "encryptedVaultEncryptionKey": encrypted.base64EncodedString()], context: context)
        return ok(try JSONSerialization.data(withJSONObject: sealed))
    }

    // MARK: Part 2

    func addPostcard(_ code: String) { postcards.insert(code) }

    /// Verifies an `X-PowerAuth-Token` header as a server would (digest, ±5 minutes).
    func verifyToken(_ value: String) throws -> (activationID: String, factors: String)? {
        let header = try PowerAuthTokenHeader(parsing: value)
        guard let token = tokens[header.tokenID], let version = PowerAuthVersion(rawValue: header.version),
              abs(Double(header.timestamp) / 1000 - Date().timeIntervalSince1970) < 300,
              try PowerAuthTokenDigest.isValid(header.digest, tokenSecret: token.secret, nonce: header.nonce, timestamp: header.timestamp, version: version)
        else { return nil }
        return (token.activationID, token.factors)
    }

    /// Verifies a device-key signature with the public key the device sent at activation.
    func verifyDeviceSignature(_ signature: Data, data: Data, activationID: String) throws -> Bool {
        guard let activation = activations[activationID] else { return false }
        let key = try P256.Signing.PublicKey(rawRepresentation: activation.devicePublicKey.rawRepresentation)
        return key.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: data)
    }

    /// Signs data with the master key or an activation's server key.
    func serverSign(_ data: Data, activationID: String?) throws -> Data {
        let key = try activationID.map { try P256.Signing.PrivateKey(rawRepresentation: activations[$0]!.serverKey.rawRepresentation) } ?? masterKey
        return try key.signature(for: data).derRepresentation
    }

    private func signatureFactors(_ request: TransportRequest) -> String? {
        request.headers[PowerAuthAuthorizationHeader.name].flatMap { try? PowerAuthAuthorizationHeader(parsing: $0) }?.factors.typeName
    }

    private func tokenCreate(_ request: TransportRequest) throws -> TransportResponse {
        let id = try verify(request, uriID: "/pa/token/create")
        guard request.headers[PowerAuthEncryptionHeader.name] == nil else { throw Refusal(status: 400, code: "ERR_REQUEST") }
        let (context, payload) = try context(try json(request.body ?? Data()), sharedInfo1: .createToken, activation: activations[id]!)
        guard try json(try context.decrypt(payload, direction: .request)).isEmpty else { throw Refusal(status: 400, code: "ERR_REQUEST") }
        let tokenID = UUID().uuidString.lowercased()
        let secret = SymmetricKey(size: .bits128)
        tokens[tokenID] = (id, secret, signatureFactors(request) ?? "possession")
        let sealed = try sealResponse(
            ["tokenId": tokenID, "tokenSecret": secret.withUnsafeBytes { Data($0) }.base64EncodedString()], context: context)
        return ok(try JSONSerialization.data(withJSONObject: sealed))
    }

    private func tokenRemove(_ request: TransportRequest) throws -> TransportResponse {
        let id = try verify(request, uriID: "/pa/token/remove")
        guard let tokenID = (try json(request.body ?? Data())["requestObject"] as? [String: Any])?["tokenId"] as? String,
              tokens[tokenID]?.activationID == id
        else { throw Refusal(status: 400, code: "ERR_TOKEN") }
        tokens[tokenID] = nil
        return ok(try JSONSerialization.data(withJSONObject: ["status": "OK", "responseObject": ["tokenId": tokenID]]))
    }

    private func recoveryConfirm(_ request: TransportRequest) throws -> TransportResponse {
        let id = try verify(request, uriID: "/pa/recovery/confirm")
        guard signatureFactors(request)?.contains("knowledge") == true else { throw Refusal(status: 401, code: "POWERAUTH_AUTH_FAIL") }
        let (context, payload) = try context(try json(request.body ?? Data()), sharedInfo1: .confirmRecoveryCode, activation: activations[id]!)
        guard let code = try json(try context.decrypt(payload, direction: .request))["recoveryCode"] as? String, postcards.contains(code) else {
            throw Refusal(status: 400, code: "ERR_RECOVERY")
        }
        let already = confirmedPostcards.contains(code)
        confirmedPostcards.insert(code)
        return ok(try JSONSerialization.data(withJSONObject: try sealResponse(["alreadyConfirmed": already], context: context)))
    }

    /// A generic endpoint: decrypts in the scope the `X-PowerAuth-Encryption` header names and
    /// answers `{"received": <plaintext as text>}` sealed.
    private func echo(_ request: TransportRequest) throws -> TransportResponse {
        guard let value = request.headers[PowerAuthEncryptionHeader.name], let header = try? PowerAuthEncryptionHeader(parsing: value),
              header.applicationKey == applicationKey, header.version == "3.3"
        else { throw Refusal(status: 400, code: "ERR_ENCRYPTION") }
        let activation = try header.activationID.map { id throws in
            guard let activation = activations[id] else { throw Refusal(status: 400, code: "ERR_ENCRYPTION") }
            return activation
        }
        guard (activation != nil) == (request.url.path == "/echo/activation") else { throw Refusal(status: 400, code: "ERR_ENCRYPTION") }
        let (context, payload) = try context(
            try json(request.body ?? Data()), sharedInfo1: activation == nil ? .applicationScopeGeneric : .activationScopeGeneric,
            activation: activation)
        let plaintext: Data
        do {
            plaintext = try context.decrypt(payload, direction: .request)
        } catch {
            throw Refusal(status: 400, code: "ERR_ENCRYPTION")
        }
        echoed.append(plaintext)
        let sealed = try sealResponse(["received": String(decoding: plaintext, as: UTF8.self)], context: context)
        return ok(try JSONSerialization.data(withJSONObject: sealed))
    }

    /// Encrypt-then-sign: the signature covers the sealed body (URI ID `/echo/signed`), then
    /// the body decrypts in activation scope.
    private func echoSigned(_ request: TransportRequest) throws -> TransportResponse {
        let id = try verify(request, uriID: "/echo/signed")
        let (context, payload) = try context(try json(request.body ?? Data()), sharedInfo1: .activationScopeGeneric, activation: activations[id]!)
        let plaintext = try context.decrypt(payload, direction: .request)
        echoed.append(plaintext)
        let sealed = try sealResponse(["received": String(decoding: plaintext, as: UTF8.self)], context: context)
        return ok(try JSONSerialization.data(withJSONObject: sealed))
    }
}
