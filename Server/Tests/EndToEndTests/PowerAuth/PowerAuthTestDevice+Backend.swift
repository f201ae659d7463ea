import Crypto
import Foundation
import KeywayPowerAuth
import Testing

/// What a device sends an app's own backend: generic encrypted requests (application or
/// activation scope), MAC tokens, and data signed with the device's private key.
extension PowerAuthTestDevice {
    /// Seals `plaintext` with the generic encryptor of a scope; `timestamp` defaults to the
    /// server's clock (or the system's).
    func sealGeneric(
        _ plaintext: Data, activationScope: Bool, timestamp: UInt64? = nil
    ) async throws -> Sealed {
        let key = try await temporaryKey(activationScope: activationScope)
        let envelopeKey = try EciesEnvelopeKey.forRequest(
            publicKey: key.publicKey,
            sharedInfo1: (activationScope ? EciesSharedInfo1.activationScopeGeneric : .applicationScopeGeneric).bytes,
            version: .v33)
        let context = EciesContext(
            version: .v33, envelopeKey: envelopeKey,
            sharedInfo2Base: activationScope
                ? EciesContext.activationScopeSharedInfo2Base(applicationSecret: application.applicationSecret, transportKey: transportKey)
                : EciesContext.applicationScopeSharedInfo2Base(applicationSecret: application.applicationSecret),
            associatedData: EciesContext.associatedData(
                version: .v33, applicationKey: application.applicationKey, activationID: activationScope ? activationId : nil,
                temporaryKeyID: key.id))
        let nonce = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let time = timestamp ?? UInt64((clock?.now() ?? Date()).timeIntervalSince1970 * 1000)
        let payload = try context.encrypt(plaintext, direction: .request, nonce: nonce, timestamp: time)
        return Sealed(
            body: [
                "temporaryKeyId": key.id, "ephemeralPublicKey": payload.ephemeralPublicKey!.base64EncodedString(),
                "encryptedData": payload.encryptedData.base64EncodedString(), "mac": payload.mac.base64EncodedString(),
                "nonce": nonce.base64EncodedString(), "timestamp": Int64(time),
            ],
            context: context)
    }

    /// The `X-PowerAuth-Encryption` header of a generic request.
    func genericEncryptionHeader(activationScope: Bool) -> String {
        var value = "PowerAuth version=\"3.3\", application_key=\"\(application.applicationKey)\""
        if activationScope { value += ", activation_id=\"\(activationId!)\"" }
        return value
    }

    /// `POST /pa/v3/token/create` signed with `factors` (encrypt-then-sign): the token's ID and secret.
    mutating func issuedToken(_ factors: PowerAuthSignatureFactors) async throws -> (id: String, secret: SymmetricKey) {
        let key = try await temporaryKey(activationScope: true)
        let sealed = try seal(Data("{}".utf8), key: key, sharedInfo1: .createToken, activationScope: true)
        let body = try JSONSerialization.data(withJSONObject: sealed.body)
        let header = try authorization(uriId: "/pa/token/create", body: body, factors: factors)
        let answer = try await post("/pa/v3/token/create", headers: ["X-PowerAuth-Authorization": header], body: body)
        guard answer.status == 200 else {
            throw TestFailure("token/create answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
        let plain = try JSONSerialization.jsonObject(with: try Self.open(answer.json, with: sealed.context)) as? [String: Any] ?? [:]
        let id = try #require(plain["tokenId"] as? String)
        let secret = try #require((plain["tokenSecret"] as? String).flatMap { Data(base64Encoded: $0) })
        #expect(UUID(uuidString: id) != nil)
        #expect(secret.count == 16)
        return (id, SymmetricKey(data: secret))
    }

    /// An `X-PowerAuth-Token` header of a token.
    static func tokenHeader(
        _ token: (id: String, secret: SymmetricKey), timestamp: UInt64 = UInt64(Date().timeIntervalSince1970 * 1000),
        version: PowerAuthVersion = .v33, tamper: Bool = false
    ) throws -> String {
        let nonce = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        var digest = try PowerAuthTokenDigest.compute(tokenSecret: token.secret, nonce: nonce, timestamp: timestamp, version: version)
        if tamper { digest[0] ^= 1 }
        return "PowerAuth token_id=\"\(token.id)\", token_digest=\"\(digest.base64EncodedString())\", "
            + "nonce=\"\(nonce.base64EncodedString())\", timestamp=\"\(timestamp)\", version=\"\(version.rawValue)\""
    }

    /// `data` signed with the device's private key (DER ECDSA-SHA256), as a vault unlock makes possible.
    func signWithDeviceKey(_ data: Data) throws -> Data {
        try P256.Signing.PrivateKey(rawRepresentation: devicePrivateKey.rawRepresentation).signature(for: data).derRepresentation
    }
}

/// A confidential application of the dev application's project, for an app's own backend.
func confidentialApplication(_ server: TestServer, adminToken: String) async throws -> (configId: String, secret: String) {
    let response = try await server.request(
        "POST", "/admin/applications",
        headers: ["Authorization": "Bearer \(adminToken)", "Content-Type": "application/json"],
        body: try JSONSerialization.data(withJSONObject: ["name": "Bank backend", "clientType": "confidential"]))
    let json = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
    let configId = try #require(json["configId"] as? String)
    try await server.execute(
        """
        UPDATE applications SET backend_roles = 'introspection powerauth',
                project_id = (SELECT project_id FROM applications WHERE config_id = '\(TestServer.configId)')
        WHERE config_id = '\(configId)'
        """)
    return (configId, try #require(json["clientSecret"] as? String))
}
