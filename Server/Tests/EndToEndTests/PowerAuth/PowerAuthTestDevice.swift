import Crypto
import Foundation
import KeywayPowerAuth
import KeywayTestSupport
import Testing

/// An answer of the server: status and JSON.
struct PowerAuthAnswer: Sendable {
    let status: Int
    let body: Data

    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    /// The published error body's code.
    var errorCode: String? {
        guard json["status"] as? String == "ERROR" else { return nil }
        return (json["responseObject"] as? [String: Any])?["code"] as? String
    }
}

/// The application's credentials as `GET /admin/applications/{configId}/powerauth` shows them.
struct PowerAuthTestApplication: Sendable {
    let applicationKey: String
    let applicationSecret: String
    let masterPublicKey: P256.Signing.PublicKey

    var secretBytes: Data { Data(base64Encoded: applicationSecret)! }
}

/// A device of the tests, on KeywayPowerAuth's crypto alone: fetches temporary keys, activates,
/// reads its status, signs requests and unlocks its vault against the real server over HTTP.
struct PowerAuthTestDevice: Sendable {
    let server: TestServer
    let application: PowerAuthTestApplication
    /// The server's clock, which the device's envelopes are timed by (the system's when `nil`).
    let clock: ManualClock?
    let devicePrivateKey = P256.KeyAgreement.PrivateKey()
    private(set) var activationId: String?
    private(set) var serverPublicKey: P256.KeyAgreement.PublicKey?
    private(set) var keys: PowerAuthDerivedKeys?
    /// The counter value the next signature uses.
    var counterData = Data()
    private(set) var recovery: (code: String, puk: String)?

    init(server: TestServer, application: PowerAuthTestApplication, clock: ManualClock? = nil) {
        self.server = server
        self.application = application
        self.clock = clock
    }

    var transportKey: SymmetricKey { keys!.transport }

    // MARK: HTTP

    func post(_ path: String, headers: [String: String] = [:], body: Data) async throws -> PowerAuthAnswer {
        try await send("POST", path, headers: headers, body: body)
    }

    func send(_ method: String, _ path: String, headers: [String: String] = [:], body: Data?) async throws -> PowerAuthAnswer {
        var all = headers
        all["Content-Type"] = "application/json"
        let response = try await server.request(method, path, headers: all, body: body)
        return PowerAuthAnswer(status: response.status, body: response.body)
    }

    // MARK: Temporary keys

    /// A temporary key of application scope (or of this activation's scope).
    func temporaryKey(activationScope: Bool = false) async throws -> (id: String, publicKey: P256.KeyAgreement.PublicKey) {
        let challenge = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let claims = TemporaryKeyClaims(
            applicationKey: application.applicationKey, activationID: activationScope ? activationId : nil, challenge: challenge)
        let signingKey = try TemporaryKeyJWT.requestSigningKey(
            applicationSecret: application.applicationSecret, transportKey: activationScope ? keys?.transport : nil)
        let jwt = TemporaryKeyJWT.request(claims, key: signingKey)
        let answer = try await post(
            "/pa/v3/keystore/create", body: try JSONSerialization.data(withJSONObject: ["requestObject": ["jwt": jwt]]))
        guard answer.status == 200, let object = answer.json["responseObject"] as? [String: Any],
            let responseJWT = object["jwt"] as? String
        else { throw TestFailure("keystore/create answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))") }
        let verifier = activationScope
            ? try ActivationSignature.publicKey(serverPublicKey!.x963Representation) : application.masterPublicKey
        let response = try TemporaryKeyJWT.verifyResponse(responseJWT, publicKey: verifier)
        #expect(response.challenge == challenge)
        #expect(response.applicationKey == application.applicationKey)
        #expect(response.activationID == claims.activationID)
        let issued = try #require(response.issuedAtMilliseconds)
        #expect(try #require(response.expiresAtMilliseconds) > issued)
        return (
            try #require(response.keyID),
            try PowerAuthKeys.publicKey(Data(base64Encoded: try #require(response.publicKey))!)
        )
    }

    // MARK: ECIES

    /// A sealed request body and the context that opens its answer.
    struct Sealed {
        let body: [String: Any]
        let context: EciesContext
    }

    func seal(
        _ plaintext: Data, key: (id: String, publicKey: P256.KeyAgreement.PublicKey), sharedInfo1: EciesSharedInfo1,
        activationScope: Bool
    ) throws -> Sealed {
        let envelopeKey = try EciesEnvelopeKey.forRequest(
            publicKey: key.publicKey, sharedInfo1: sharedInfo1.bytes, version: .v33)
        let context = EciesContext(
            version: .v33, envelopeKey: envelopeKey,
            sharedInfo2Base: activationScope
                ? EciesContext.activationScopeSharedInfo2Base(applicationSecret: application.applicationSecret, transportKey: transportKey)
                : EciesContext.applicationScopeSharedInfo2Base(applicationSecret: application.applicationSecret),
            associatedData: EciesContext.associatedData(
                version: .v33, applicationKey: application.applicationKey, activationID: activationScope ? activationId : nil,
                temporaryKeyID: key.id))
        let nonce = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let timestamp = UInt64((clock?.now() ?? Date()).timeIntervalSince1970 * 1000)
        let payload = try context.encrypt(plaintext, direction: .request, nonce: nonce, timestamp: timestamp)
        return Sealed(
            body: [
                "temporaryKeyId": key.id, "ephemeralPublicKey": payload.ephemeralPublicKey!.base64EncodedString(),
                "encryptedData": payload.encryptedData.base64EncodedString(), "mac": payload.mac.base64EncodedString(),
                "nonce": nonce.base64EncodedString(), "timestamp": Int64(timestamp),
            ],
            context: context)
    }

    static func open(_ object: [String: Any], with context: EciesContext) throws -> Data {
        guard let encrypted = (object["encryptedData"] as? String).flatMap({ Data(base64Encoded: $0) }),
            let mac = (object["mac"] as? String).flatMap({ Data(base64Encoded: $0) }),
            let nonce = (object["nonce"] as? String).flatMap({ Data(base64Encoded: $0) }),
            let timestamp = object["timestamp"] as? Int64 ?? (object["timestamp"] as? Int).map(Int64.init)
        else { throw TestFailure("not an ECIES response: \(object)") }
        return try context.decrypt(
            EciesPayload(encryptedData: encrypted, mac: mac, nonce: nonce, timestamp: UInt64(timestamp)), direction: .response)
    }

    // MARK: Activation

    /// The two layers of `/pa/v3/activation/create`, ready to send (tests tamper with them).
    func activationRequest(type: String, identity: [String: String], otp: String? = nil) async throws
        -> (body: Data, level1: EciesContext, level2: EciesContext)
    {
        let key = try await temporaryKey()
        var layer2: [String: Any] = [
            "devicePublicKey": devicePrivateKey.publicKey.compressedRepresentation.base64EncodedString(),
            "activationName": "Test device", "platform": "ios", "deviceInfo": "iPhone15,2", "extras": "{}",
        ]
        if let otp { layer2["activationOtp"] = otp }
        let sealed2 = try seal(
            try JSONSerialization.data(withJSONObject: layer2), key: key, sharedInfo1: .activationLayer2, activationScope: false)
        let layer1: [String: Any] = ["activationType": type, "identityAttributes": identity, "activationData": sealed2.body]
        let sealed1 = try seal(
            try JSONSerialization.data(withJSONObject: layer1), key: key, sharedInfo1: .applicationScopeGeneric,
            activationScope: false)
        return (try JSONSerialization.data(withJSONObject: sealed1.body), sealed1.context, sealed2.context)
    }

    func encryptionHeader() -> [String: String] {
        ["X-PowerAuth-Encryption": "PowerAuth version=\"3.3\", application_key=\"\(application.applicationKey)\""]
    }

    /// Activates: sends the key exchange and keeps the activation's keys. Answers the server's
    /// answer when it refused.
    @discardableResult
    mutating func activate(
        type: String, identity: [String: String], otp: String? = nil, extraHeaders: [String: String] = [:]
    ) async throws -> PowerAuthAnswer {
        let request = try await activationRequest(type: type, identity: identity, otp: otp)
        var headers = encryptionHeader()
        headers.merge(extraHeaders) { $1 }
        let answer = try await post("/pa/v3/activation/create", headers: headers, body: request.body)
        guard answer.status == 200 else { return answer }
        let layer1 = try JSONSerialization.jsonObject(with: try Self.open(answer.json, with: request.level1)) as? [String: Any] ?? [:]
        let layer2Data = try Self.open(layer1["activationData"] as? [String: Any] ?? [:], with: request.level2)
        let layer2 = try JSONSerialization.jsonObject(with: layer2Data) as? [String: Any] ?? [:]
        activationId = layer2["activationId"] as? String
        let serverKey = try PowerAuthKeys.publicKey(Data(base64Encoded: layer2["serverPublicKey"] as? String ?? "")!)
        serverPublicKey = serverKey
        counterData = Data(base64Encoded: layer2["ctrData"] as? String ?? "")!
        keys = try PowerAuthDerivedKeys(
            masterSecret: try PowerAuthKeys.masterSecret(privateKey: devicePrivateKey, publicKey: serverKey))
        if let recovery = layer2["activationRecovery"] as? [String: Any], let code = recovery["recoveryCode"] as? String,
            let puk = recovery["puk"] as? String
        {
            self.recovery = (code, puk)
        } else {
            self.recovery = nil
        }
        return answer
    }

    /// The fingerprint the device shows.
    var fingerprint: String {
        PublicKeyFingerprint.v3(devicePublicKey: devicePrivateKey.publicKey, activationID: activationId!, serverPublicKey: serverPublicKey!)
    }

    // MARK: Status

    /// The decrypted status blob.
    func status() async throws -> ActivationStatusBlob {
        let challenge = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let answer = try await post(
            "/pa/v3/activation/status",
            body: try JSONSerialization.data(withJSONObject: [
                "requestObject": ["activationId": activationId!, "challenge": challenge.base64EncodedString()]
            ]))
        guard answer.status == 200, let object = answer.json["responseObject"] as? [String: Any],
            let blob = (object["encryptedStatusBlob"] as? String).flatMap({ Data(base64Encoded: $0) }),
            let nonce = (object["nonce"] as? String).flatMap({ Data(base64Encoded: $0) })
        else { throw TestFailure("status answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))") }
        #expect(object["activationId"] as? String == activationId)
        #expect((object["customObject"] as? [String: Any])?.isEmpty == true)
        return try ActivationStatusBlob(decrypting: blob, transportKey: transportKey, challenge: challenge, nonce: nonce)
    }

    /// How far the server's counter is ahead of the device's (0 when in step).
    func counterDistance(_ blob: ActivationStatusBlob) throws -> Int? {
        try blob.counterDistance(from: counterData, transportKey: transportKey)
    }

    /// Moves the device's counter up to the server's when the server is ahead (failed
    /// signatures move it), as the status blob allows.
    mutating func synchronize() async throws {
        let blob = try await status()
        guard let distance = try counterDistance(blob) else { return }
        for _ in 0..<distance { counterData = PowerAuthHashCounter.next(counterData) }
    }

    // MARK: Signatures

    /// The signature keys of `factors`; `wrongKnowledge` replaces the knowledge key (a wrong PIN).
    func signatureKeys(_ factors: PowerAuthSignatureFactors, wrongKnowledge: Bool = false) -> [SymmetricKey] {
        var keys = self.keys!.signatureKeys(for: factors)
        if wrongKnowledge, factors.contains(.knowledge) {
            let index = factors.contains(.possession) ? 1 : 0
            keys[index] = SymmetricKey(size: .bits128)
        }
        return keys
    }

    /// The `X-PowerAuth-Authorization` value of a request, signed with the current counter, which
    /// then moves one step (as the device's does whether or not the server accepts it).
    mutating func authorization(
        method: String = "POST", uriId: String, body: Data, factors: PowerAuthSignatureFactors,
        wrongKnowledge: Bool = false, nonce: Data? = nil
    ) throws -> String {
        let nonce = nonce ?? Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let data = PowerAuthSignature.signedData(
            requestData: PowerAuthSignature.requestData(method: method, uriIdentifier: uriId, nonce: nonce, body: body),
            applicationSecret: application.applicationSecret)
        let signature = try PowerAuthSignature.compute(
            data: data, keys: signatureKeys(factors, wrongKnowledge: wrongKnowledge), counterData: counterData, format: .v31)
        counterData = PowerAuthHashCounter.next(counterData)
        return Self.header(
            activationId: activationId!, applicationKey: application.applicationKey, nonce: nonce, factors: factors,
            signature: signature)
    }

    static func header(
        activationId: String, applicationKey: String, nonce: Data, factors: PowerAuthSignatureFactors, signature: String,
        version: String = "3.3"
    ) -> String {
        "PowerAuth pa_activation_id=\"\(activationId)\", pa_application_key=\"\(applicationKey)\", "
            + "pa_nonce=\"\(nonce.base64EncodedString())\", pa_signature_type=\"\(factors.typeName)\", "
            + "pa_signature=\"\(signature)\", pa_version=\"\(version)\""
    }

    /// `POST /pa/v3/signature/validate` signed with `factors`.
    mutating func validate(
        _ factors: PowerAuthSignatureFactors, wrongKnowledge: Bool = false, body: Data = Data("{\"amount\":100}".utf8)
    ) async throws -> PowerAuthAnswer {
        let header = try authorization(uriId: "/pa/signature/validate", body: body, factors: factors, wrongKnowledge: wrongKnowledge)
        return try await post("/pa/v3/signature/validate", headers: ["X-PowerAuth-Authorization": header], body: body)
    }

    /// `POST /pa/v3/activation/remove` signed with `factors`.
    mutating func remove(_ factors: PowerAuthSignatureFactors = [.possession, .knowledge]) async throws -> PowerAuthAnswer {
        let body = Data("{}".utf8)
        let header = try authorization(uriId: "/pa/activation/remove", body: body, factors: factors)
        return try await post("/pa/v3/activation/remove", headers: ["X-PowerAuth-Authorization": header], body: body)
    }

    /// `POST /pa/v3/vault/unlock`: answers the vault key, or the server's refusal.
    mutating func unlockVault(_ factors: PowerAuthSignatureFactors = [.possession, .knowledge])
        async throws -> Result<SymmetricKey, PowerAuthAnswerFailure>
    {
        let key = try await temporaryKey(activationScope: true)
        let sealed = try seal(
            Data("{\"reason\":\"ADD_BIOMETRY\"}".utf8), key: key, sharedInfo1: .vaultUnlock, activationScope: true)
        let body = try JSONSerialization.data(withJSONObject: sealed.body)
        let header = try authorization(uriId: "/pa/vault/unlock", body: body, factors: factors)
        let answer = try await post("/pa/v3/vault/unlock", headers: ["X-PowerAuth-Authorization": header], body: body)
        guard answer.status == 200 else { return .failure(PowerAuthAnswerFailure(answer: answer)) }
        let plain = try JSONSerialization.jsonObject(with: try Self.open(answer.json, with: sealed.context)) as? [String: Any] ?? [:]
        #expect(plain["activationId"] as? String == activationId)
        let encrypted = try #require((plain["encryptedVaultEncryptionKey"] as? String).flatMap { Data(base64Encoded: $0) })
        return .success(try PowerAuthKeyProtection.decryptVaultKey(encrypted, transportKey: transportKey))
    }
}

/// A refusal as a value.
struct PowerAuthAnswerFailure: Error, Sendable {
    let answer: PowerAuthAnswer
}
