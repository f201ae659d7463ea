import Crypto
import Foundation
import KeywayPowerAuthWire

/// The scope of an end-to-end encryptor.
public enum EncryptorScope: String, Sendable, CaseIterable {
    /// Bound to the application: usable before any activation (`/pa/generic/application`).
    case application
    /// Bound to this device's activation: only the server that holds the activation's transport
    /// key opens it (`/pa/generic/activation`).
    case activation
}

/// End-to-end encryption of request and response bodies (ECIES, protocol 3.3) with the server's
/// temporary keys (`POST /pa/v3/keystore/create`, kept until shortly before they expire).
///
/// Each ``seal(_:)`` makes a new context (a new ephemeral key) for exactly one request and its
/// response:
///
/// ```swift
/// let encryptor = PowerAuthEncryptor.application(configuration: configuration)
/// let request = try await encryptor.seal(Data(#"{"amount":"100"}"#.utf8))
/// // POST request.body with the header request.encryptionHeader …
/// let plaintext = try request.openResponse(answerBody)
/// ```
///
/// In activation scope a request can also be signed over its sealed body (encrypt-then-sign,
/// ``DeviceActivation/sign(method:uriID:body:with:)`` with ``EncryptedRequest/body``); it then
/// travels with `X-PowerAuth-Authorization` instead of `X-PowerAuth-Encryption`.
public actor PowerAuthEncryptor {
    /// The encryptor's scope.
    public nonisolated let scope: EncryptorScope
    let http: PowerAuthHTTP
    let clock: any KeywayClock
    let eciesScope: EciesScope
    let sharedInfo1: EciesSharedInfo1
    let serverKey: P256.Signing.PublicKey
    let activationID: String?
    private var cachedKey: TemporaryKey?

    init(
        scope: EncryptorScope, http: PowerAuthHTTP, clock: any KeywayClock, eciesScope: EciesScope, sharedInfo1: EciesSharedInfo1,
        serverKey: P256.Signing.PublicKey, activationID: String?
    ) {
        self.scope = scope
        self.http = http
        self.clock = clock
        self.eciesScope = eciesScope
        self.sharedInfo1 = sharedInfo1
        self.serverKey = serverKey
        self.activationID = activationID
    }

    /// An encryptor in application scope, usable before (and without) an activation.
    ///
    /// - Parameters:
    ///   - configuration: The server and the application's credentials.
    ///   - options: The transport (with its interceptors) and the clock; the other options are
    ///     not used.
    /// - Returns: The encryptor.
    public static func application(
        configuration: PowerAuthConfiguration, options: DeviceActivationOptions = DeviceActivationOptions()
    ) -> PowerAuthEncryptor {
        PowerAuthEncryptor(
            scope: .application, http: PowerAuthHTTP(configuration: configuration, options: options), clock: options.clock,
            eciesScope: .application, sharedInfo1: .applicationScopeGeneric, serverKey: configuration.masterSigningKey,
            activationID: nil)
    }

    /// The value of `X-PowerAuth-Encryption` for this encryptor's requests that are not signed.
    public nonisolated var encryptionHeader: PowerAuthEncryptionHeader {
        PowerAuthEncryptionHeader(applicationKey: http.configuration.applicationKey, activationID: activationID)
    }

    /// Seals a request body: `{temporaryKeyId, ephemeralPublicKey, encryptedData, mac, nonce,
    /// timestamp}`, with a new ephemeral key and nonce.
    ///
    /// - Parameter plaintext: The body to encrypt.
    /// - Returns: The sealed request, which also opens its response.
    /// - Throws: ``ActivationError``: `invalidResponse` (a temporary key the server did not sign),
    ///   the transport's errors.
    public func seal(_ plaintext: Data) async throws(ActivationError) -> EncryptedRequest {
        let key = try await temporaryKey()
        let exchange = try EciesExchange(key: key, sharedInfo1: sharedInfo1, scope: eciesScope, configuration: http.configuration)
        let timestamp = UInt64(max(clock.now().timeIntervalSince1970, 0) * 1000)
        let body = try PowerAuthHTTP.encode(try exchange.seal(plaintext, timestamp: timestamp))
        return EncryptedRequest(body: body, encryptionHeader: encryptionHeader, exchange: exchange)
    }

    /// Seals `plaintext`, POSTs it to `url` with `X-PowerAuth-Encryption` (and `headers`), and
    /// opens the answer.
    ///
    /// - Parameters:
    ///   - plaintext: The body to encrypt.
    ///   - url: Where to send it (any endpoint that decrypts with this scope's generic
    ///     `SHARED_INFO_1`).
    ///   - headers: Other headers.
    /// - Returns: The decrypted answer.
    /// - Throws: ``ActivationError``: `server` or `authenticationFailed` for a refusal (an answer
    ///   other than 200), `invalidResponse` for an answer that does not open, the transport's
    ///   errors.
    public func send(_ plaintext: Data, to url: URL, headers: [String: String] = [:]) async throws(ActivationError) -> Data {
        let request = try await seal(plaintext)
        var all = headers
        all[PowerAuthEncryptionHeader.name] = request.encryptionHeader.value
        let answer = try await http.post(url: url, body: request.body, headers: all)
        return try request.openResponse(answer)
    }

    /// A cached temporary key still valid for 10 seconds, or a new one.
    private func temporaryKey() async throws(ActivationError) -> TemporaryKey {
        if let cachedKey, let expiresAt = cachedKey.expiresAt, expiresAt.timeIntervalSince(clock.now()) > 10 {
            return cachedKey
        }
        let key = try await TemporaryKeys(http: http, clock: clock).create(scope: eciesScope, serverPublicKey: serverKey)
        cachedKey = key
        return key
    }
}

/// A request sealed by a ``PowerAuthEncryptor``: the JSON body to send, and the context that
/// opens its response (one request, one response).
public struct EncryptedRequest: Sendable {
    /// The JSON envelope to send as the request body (sign these exact bytes for
    /// encrypt-then-sign).
    public let body: Data
    /// The `X-PowerAuth-Encryption` header for a request that is not signed.
    public let encryptionHeader: PowerAuthEncryptionHeader
    let exchange: EciesExchange

    /// Opens the response's JSON envelope `{encryptedData, mac, nonce, timestamp}`.
    ///
    /// - Parameter responseBody: The answer's body.
    /// - Returns: The decrypted response.
    /// - Throws: ``ActivationError/invalidResponse(_:)`` when the answer is not an envelope or
    ///   its MAC does not match.
    public func openResponse(_ responseBody: Data) throws(ActivationError) -> Data {
        try exchange.open(try PowerAuthHTTP.decode(EciesEnvelope.self, from: responseBody, what: "encrypted answer"))
    }
}

extension DeviceActivation {
    /// An end-to-end encryptor for this application: in application scope it needs no
    /// activation; in activation scope it uses the device's activation (its ID and transport
    /// key).
    ///
    /// - Parameter scope: The scope.
    /// - Returns: The encryptor.
    /// - Throws: ``ActivationError/noActivation`` in activation scope without an activation,
    ///   `storage`.
    public func encryptor(scope: EncryptorScope) async throws(ActivationError) -> PowerAuthEncryptor {
        switch scope {
        case .application:
            return PowerAuthEncryptor.application(configuration: configuration, options: options)
        case .activation:
            return try activationEncryptor(try await existingRecord(), sharedInfo1: .activationScopeGeneric)
        }
    }

    /// An activation-scope encryptor of `record` for an endpoint's `SHARED_INFO_1`.
    func activationEncryptor(_ record: ActivationRecord, sharedInfo1: EciesSharedInfo1) throws(ActivationError) -> PowerAuthEncryptor {
        PowerAuthEncryptor(
            scope: .activation, http: http, clock: options.clock,
            eciesScope: .activation(id: record.activationID, transportKey: SymmetricKey(data: record.transportKey)),
            sharedInfo1: sharedInfo1, serverKey: try Self.serverSigningKey(record), activationID: record.activationID)
    }

    /// Encrypt-then-sign of the SDK's own endpoints: seals `plaintext` in activation scope with
    /// the endpoint's `sharedInfo1`, signs the sealed body, POSTs it, and opens the answer.
    func encryptedSignedPost(
        _ endpoint: PowerAuthEndpoint, plaintext: Data, record: ActivationRecord, with authentication: FactorAuthentication
    ) async throws(ActivationError) -> Data {
        guard let sharedInfo1 = endpoint.sharedInfo1 else { preconditionFailure("\(endpoint.path) is not encrypted.") }
        let request = try await activationEncryptor(record, sharedInfo1: sharedInfo1).seal(plaintext)
        let answer = try await signedPost(endpoint, body: request.body, with: authentication)
        return try request.openResponse(answer)
    }
}
