import Crypto
import Foundation
import KeywayPowerAuthWire

extension DeviceActivation {
    /// Signs a request for the server (a PowerAuth 3.3 online signature, Base64) and returns its
    /// `X-PowerAuth-Authorization` header. The counter step is written to storage before the
    /// header is returned; concurrent calls run one at a time and never share a counter value.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - uriID: The URI identifier the server signs with (for example `/payments/pay`).
    ///   - body: The exact body bytes sent.
    ///   - authentication: The factors.
    /// - Returns: The header (``PowerAuthAuthorizationHeader/value`` is its value).
    /// - Throws: ``ActivationError``: `noActivation`, `notCommitted`, `invalidFactors`,
    ///   `biometry`, `storage`.
    public func sign(method: String, uriID: String, body: Data, with authentication: FactorAuthentication)
        async throws(ActivationError) -> PowerAuthAuthorizationHeader
    {
        let record = try await committedRecord()
        let keys = try await signatureKeys(record, authentication)
        let applicationKey = configuration.applicationKey
        let applicationSecret = configuration.applicationSecret
        return try await update(expectedID: record.activationID) { record throws(ActivationError) in
            try Self.header(
                method: method, uriID: uriID, body: body, factors: authentication.factors, keys: keys, record: &record,
                applicationKey: applicationKey, applicationSecret: applicationSecret)
        }
    }

    /// Signs a request and sends it while holding the activation's counter lock: the next
    /// signature of this activation is computed only once `send` has returned. Use it when
    /// several tasks sign and send at once: the server verifies counter values only forwards, so
    /// a request overtaken by one signed after it is refused (and counted as a failure).
    /// `send` must not use this activation itself: it would wait for its own lock.
    ///
    /// ```swift
    /// let answer = try await activation.sign(method: "POST", uriID: "/payments/pay", body: body, with: .password(pin)) { header in
    ///     try await send(body, header: header)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - uriID: The URI identifier the server signs with.
    ///   - body: The exact body bytes sent.
    ///   - authentication: The factors.
    ///   - send: Sends the request with the header and answers what the app needs of the answer.
    /// - Returns: What `send` returned.
    /// - Throws: The errors of ``sign(method:uriID:body:with:)`` (an ``ActivationError``), or
    ///   what `send` threw.
    public func sign<Answer: Sendable>(
        method: String, uriID: String, body: Data, with authentication: FactorAuthentication,
        andSend send: @escaping @Sendable (PowerAuthAuthorizationHeader) async throws -> Answer
    ) async throws -> Answer {
        let record = try await committedRecord()
        let keys = try await signatureKeys(record, authentication)
        let applicationKey = configuration.applicationKey
        let applicationSecret = configuration.applicationSecret
        let store = self.store
        let activationID = record.activationID
        let outcome: Result<Answer, any Error> = try await locked {
            guard var current = try await store.read(), current.activationID == activationID else {
                throw ActivationError.noActivation
            }
            let header = try Self.header(
                method: method, uriID: uriID, body: body, factors: authentication.factors, keys: keys, record: &current,
                applicationKey: applicationKey, applicationSecret: applicationSecret)
            try await store.write(current)
            do {
                return .success(try await send(header))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The header of one signature with the record's counter value, which is then stepped.
    static func header(
        method: String, uriID: String, body: Data, factors: PowerAuthSignatureFactors, keys: [SymmetricKey],
        record: inout ActivationRecord, applicationKey: String, applicationSecret: String
    ) throws(ActivationError) -> PowerAuthAuthorizationHeader {
        let nonce = Randomness.bytes(16)
        let data = PowerAuthSignature.signedData(
            requestData: PowerAuthSignature.requestData(method: method, uriIdentifier: uriID, nonce: nonce, body: body),
            applicationSecret: applicationSecret)
        let signature = try compute(data: data, keys: keys, record: &record, format: .base64)
        return PowerAuthAuthorizationHeader(
            activationID: record.activationID, applicationKey: applicationKey, nonce: nonce, factors: factors, signature: signature)
    }

    /// Signs a request to one of the SDK's own endpoints (`/pa/v3/…`) and POSTs it under the
    /// counter lock.
    func signedPost(_ endpoint: PowerAuthEndpoint, body: Data, with authentication: FactorAuthentication) async throws(ActivationError) -> Data {
        let http = self.http
        do {
            return try await sign(method: "POST", uriID: endpoint.uriId, body: body, with: authentication) { header in
                try await http.post(endpoint.path, body: body, headers: [PowerAuthAuthorizationHeader.name: header.value])
            }
        } catch let error as ActivationError {
            throw error
        } catch {
            throw .networkFailure(String(describing: error))
        }
    }

    /// Signs a request without a body (`GET`, `DELETE`): the signed data are its query
    /// parameters in the canonical form every PowerAuth server reads
    /// (``PowerAuthSignature/canonicalQuery(_:)``: sorted by name then value, each encoded again
    /// as a form, `name=value` joined by `&`).
    ///
    /// - Parameters:
    ///   - method: The HTTP method (`GET` by default).
    ///   - uriID: The URI identifier.
    ///   - query: The decoded query parameters. One without a value (`?flag`) is not signed: it
    ///     has no `=`, and the servers skip such pairs.
    ///   - authentication: The factors.
    /// - Returns: The header.
    /// - Throws: The errors of ``sign(method:uriID:body:with:)``.
    public func sign(method: String = "GET", uriID: String, query: [URLQueryItem], with authentication: FactorAuthentication)
        async throws(ActivationError) -> PowerAuthAuthorizationHeader
    {
        let body = PowerAuthSignature.canonicalQuery(query.compactMap { item in item.value.map { (key: item.name, value: $0) } })
        return try await sign(method: method, uriID: uriID, body: body, with: authentication)
    }

    /// Reads offline signature data (`DATA\nNONCE\nKEY_FLAG ‖ ECDSA`) without signing them, to
    /// show the operation first.
    ///
    /// - Parameter qrData: The scanned text.
    /// - Returns: The parsed data.
    /// - Throws: ``ActivationError/invalidOfflineData(_:)``.
    public nonisolated static func parseOfflineData(_ qrData: String) throws(ActivationError) -> OfflineSignaturePayload {
        do {
            return try OfflineSignaturePayload(qrData)
        } catch {
            throw .invalidOfflineData(error.description)
        }
    }

    /// Signs scanned offline data: checks their ECDSA signature (key flag `1`: this
    /// activation's server key, `0`: the master server key), then computes the decimal offline
    /// signature (method `POST`, application secret `offline`) and steps the counter.
    ///
    /// - Parameters:
    ///   - qrData: The scanned text.
    ///   - authentication: The factors (typically ``FactorAuthentication/password(_:)``).
    ///   - uriID: The URI identifier, `/operation/authorize/offline` by default.
    /// - Returns: The data and the signature to type.
    /// - Throws: ``ActivationError``: `invalidOfflineData`, `offlineDataSignatureInvalid`, and
    ///   the errors of ``sign(method:uriID:body:with:)``.
    public func signOffline(
        _ qrData: String, with authentication: FactorAuthentication, uriID: String = "/operation/authorize/offline"
    ) async throws(ActivationError) -> OfflineSignature {
        let payload = try Self.parseOfflineData(qrData)
        let record = try await committedRecord()
        let key = payload.signingKey == .master ? configuration.masterSigningKey : try Self.serverSigningKey(record)
        guard payload.isValid(publicKey: key) else { throw .offlineDataSignatureInvalid }
        let keys = try await signatureKeys(record, authentication)
        let signature = try await update(expectedID: record.activationID) { record throws(ActivationError) in
            let data = PowerAuthSignature.offlineSignedData(uriIdentifier: uriID, nonce: payload.nonce, data: Data(payload.data.utf8))
            return try Self.compute(data: data, keys: keys, record: &record, format: .decimal(digits: 8))
        }
        return OfflineSignature(data: payload.data, signature: signature)
    }

    /// Computes with the record's counter value, then steps it.
    static func compute(data: Data, keys: [SymmetricKey], record: inout ActivationRecord, format: PowerAuthSignatureFormat)
        throws(ActivationError) -> String
    {
        let signature: String
        do {
            signature = try PowerAuthSignature.compute(data: data, keys: keys, counterData: record.counterData, format: format)
        } catch {
            throw .storage(.unreadable("The stored counter or keys are damaged: \(error)."))
        }
        record.counterData = PowerAuthHashCounter.next(record.counterData)
        record.counter &+= 1
        return signature
    }

    /// The keys of the factors, in the protocol's order: possession from storage, knowledge
    /// unwrapped with the password, biometry through the ``Biometry`` seam.
    func signatureKeys(_ record: ActivationRecord, _ authentication: FactorAuthentication) async throws(ActivationError) -> [SymmetricKey] {
        var keys: [SymmetricKey] = []
        if authentication.factors.contains(.possession) { keys.append(SymmetricKey(data: record.possessionKey)) }
        if authentication.factors.contains(.knowledge) {
            guard let password = authentication.password else { throw .invalidFactors("The knowledge factor needs the password.") }
            guard let knowledge = record.knowledge else { throw .notCommitted }
            keys.append(try unwrap(knowledge, password: password))
        }
        if authentication.factors.contains(.biometry) {
            guard record.hasBiometry, let seam = options.biometry else {
                throw .invalidFactors("Biometry is not set up for this activation.")
            }
            do {
                let key = try await seam.readKey(
                    account: biometryAccount(activationID: record.activationID),
                    reason: authentication.biometryReason ?? "Confirm the signature")
                keys.append(SymmetricKey(data: key))
            } catch {
                throw .biometry(error)
            }
        }
        guard !keys.isEmpty else { throw .invalidFactors("A signature needs at least one factor.") }
        return keys
    }
}

extension DeviceActivation {
    /// Checks data the server signed (ECDSA-SHA256, DER): with the master server key
    /// (``OfflineSigningKey/master``), or with this activation's server key
    /// (``OfflineSigningKey/activation``).
    ///
    /// - Parameters:
    ///   - data: The signed bytes.
    ///   - signature: The DER-encoded signature.
    ///   - key: Which server key signed them.
    /// - Returns: Whether the signature is valid.
    /// - Throws: ``ActivationError/noActivation`` for the activation's key without an activation.
    public func verifyServerSignedData(_ data: Data, signature: Data, key: OfflineSigningKey) async throws(ActivationError) -> Bool {
        let publicKey = key == .master ? configuration.masterSigningKey : try Self.serverSigningKey(try await existingRecord())
        guard let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
        return publicKey.isValidSignature(ecdsa, for: data)
    }
}
