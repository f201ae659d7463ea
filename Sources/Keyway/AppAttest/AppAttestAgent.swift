import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol

/// The SDK's side of App Attest for one SDK instance: registers an attested key with the server
/// the first time one is needed, keeps its ID, and makes the assertions requests carry. Every
/// failure means "no proof": the request goes without one, and the server's policy decides.
actor AppAttestAgent {
    private let options: AppAttestOptions
    private let server: ServerURL
    private let configId: String
    private let transport: any HTTPTransport
    private let logger: KeywayLogger
    private let clock: any KeywayClock
    private var keyID: String?
    /// After a registration failed (the application does not use App Attest, the service or the
    /// server refused), no new attempt is made before this moment.
    private var registrationPausedUntil: Date?

    /// How long a failed registration pauses the next attempts.
    static let registrationPause: TimeInterval = 10 * 60

    init(
        options: AppAttestOptions, server: ServerURL, configId: String, transport: any HTTPTransport,
        clock: any KeywayClock, logger: KeywayLogger
    ) {
        self.clock = clock
        self.options = options
        self.server = server
        self.configId = configId
        self.transport = transport
        self.logger = logger
    }

    /// Where the registered key's ID is kept: one key per server and application.
    private var storageKey: String {
        "keyway.appattest." + Base64URL.encode(SHA256.hash(data: Data("\(server.root.absoluteString)\n\(configId)".utf8)))
    }

    /// An assertion over `clientData` (its SHA-256 hash is the assertion's client data hash), or
    /// `nil` when this device cannot attest or the key cannot be registered.
    func evidence(for clientData: Data) async -> AppAttestEvidence? {
        guard await options.provider.isSupported else { return nil }
        guard let keyID = await registeredKey() else { return nil }
        do {
            let assertion = try await options.provider.generateAssertion(
                keyID, clientDataHash: Data(SHA256.hash(data: clientData)))
            return AppAttestEvidence(keyID: keyID, assertion: Base64URL.encode(assertion))
        } catch {
            // The service no longer knows the key (a restore to another device): register anew next time.
            logger.log(.notice, .crypto, "App Attest assertion failed; the key is forgotten: \(error)")
            await forgetKey()
            return nil
        }
    }

    /// Forgets the registered key (the server refused it), so the next proof registers a new one.
    func forgetKey() async {
        keyID = nil
        try? await options.storage.delete(key: storageKey)
    }

    /// The registered key's ID: kept, or registered now.
    private func registeredKey() async -> String? {
        if let keyID { return keyID }
        if let data = try? await options.storage.read(key: storageKey), let stored = String(data: data, encoding: .utf8),
            !stored.isEmpty
        {
            keyID = stored
            return stored
        }
        let now = clock.now()
        if let paused = registrationPausedUntil, now < paused { return nil }
        do {
            let challenge: AppAttestChallenge = try await post("/v1/app-attest/challenges", body: nil)
            let newKey = try await options.provider.generateKey()
            let attestation = try await options.provider.attestKey(
                newKey, clientDataHash: Data(SHA256.hash(data: Data(challenge.challenge.utf8))))
            let request = AppAttestKeyRequest(
                keyID: newKey, attestation: Base64URL.encode(attestation), challenge: challenge.challenge)
            let _: AppAttestKeyResponse = try await post(
                "/v1/app-attest/keys", body: try WireCoding.makeEncoder().encode(request))
            try await options.storage.write(key: storageKey, data: Data(newKey.utf8))
            keyID = newKey
            logger.log(.info, .crypto, "App Attest key registered")
            return newKey
        } catch {
            logger.log(.notice, .crypto, "App Attest key not registered: \(error)")
            registrationPausedUntil = now.addingTimeInterval(Self.registrationPause)
            return nil
        }
    }

    private func post<Answer: Decodable>(_ path: String, body: Data?) async throws -> Answer {
        var headers = [ProtocolHeader.configID: configId, "Accept": "application/json"]
        if body != nil { headers["Content-Type"] = "application/json" }
        let response = try await transport.send(
            TransportRequest(method: "POST", url: server.appending(path: path), headers: headers, body: body ?? Data()))
        guard response.status == 201 else {
            let problem = try? WireCoding.makeDecoder().decode(Problem.self, from: response.body)
            throw KeywayError.invalidResponse(
                "The server refused App Attest (HTTP \(response.status)\(problem.map { ": \($0.detail)" } ?? "")).")
        }
        return try WireCoding.makeDecoder().decode(Answer.self, from: response.body)
    }
}
