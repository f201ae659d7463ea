import Foundation
@testable import Keyway
import KeywayProtocol
import Testing

/// One device for the trusted-device tests: its storage (shared by the key store) and the SDKs of
/// its apps.
struct TestDevice {
    let storage: InMemorySecureStorage
    let keyStore: SoftwareDeviceKeyStore

    init() {
        storage = InMemorySecureStorage()
        keyStore = SoftwareDeviceKeyStore(storage: storage)
    }

    /// An SDK on this device for `appIdentifier` and `configId`.
    func sdk(
        _ harness: AdaptiveHarness, app appIdentifier: String = "com.example.shop", configId: String = TestServer.configId,
        transport: (any HTTPTransport)? = nil, autoPoll: Bool = true
    ) throws -> KeywayClient {
        var options = KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: harness.clock)
        if let transport { options.transport = transport }
        options.autoPollApprovals = autoPoll
        options.deviceTrust = DeviceTrustOptions(
            appIdentifier: appIdentifier, storage: storage, keyStore: keyStore, deviceName: "Test device \(appIdentifier)")
        return try KeywayClient(configID: configId, baseURL: harness.server.baseURL, options: options)
    }
}

/// Counts the requests an SDK sends, by path suffix.
final class PathCountingTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `paths` is only touched under `lock`.
    private let inner = URLSessionTransport()
    private let lock = NSLock()
    private var paths: [String] = []

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        lock.withLock { paths.append("\(request.method) \(request.url.path)") }
        return try await inner.send(request)
    }

    func count(suffix: String) -> Int {
        lock.withLock { paths.filter { $0.hasSuffix(suffix) }.count }
    }
}

/// Values an update handler collects.
final class Collected<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `items` is only touched under `lock`.
    private let lock = NSLock()
    private var items: [Value] = []

    func append(_ value: Value) { lock.withLock { items.append(value) } }
    var all: [Value] { lock.withLock { items } }
}

extension AdaptiveHarness {
    /// Email code, then TOTP: MFA required, devices trusted.
    static var deviceTrustPolicy: [String: Any] {
        [
            "primaryMethods": ["emailOtp"], "mfaMethods": ["totp"], "mfaMode": "required",
            "flowTypes": ["signin", "accountManage"], "devices": ["enabled": true],
        ]
    }

    /// Starts a sign-in and enters the email code.
    func signInWithCode(_ keyway: KeywayClient, email: String) async throws {
        await keyway.flow.start(flowType: .signin, identifier: email)
        guard keyway.flow.currentUpdate.enterCode != nil else {
            throw TestFailure("Expected the email code, got \(keyway.flow.currentUpdate)")
        }
        await keyway.flow.submitCode(try await server.latestCode(to: email))
    }

    /// First sign-in: email code, then the authenticator set up; returns its secret.
    func signInSettingUpTotp(_ keyway: KeywayClient, email: String) async throws -> String {
        try await signInWithCode(keyway, email: email)
        guard let setup = keyway.flow.currentUpdate.totpSetup else {
            throw TestFailure("Expected the authenticator setup, got \(keyway.flow.currentUpdate)")
        }
        await keyway.flow.submitTotp(TestAuthenticator.code(secret: setup.secret, at: clock.now()))
        clock.advance(by: 31)
        return setup.secret
    }

    /// Redeems the completed flow's code and answers the tokens.
    func tokens(_ keyway: KeywayClient) async throws -> TokenSet {
        guard let done = keyway.flow.currentUpdate.completion else {
            throw TestFailure("Expected a completed flow, got \(keyway.flow.currentUpdate)")
        }
        return try await keyway.tokens.exchange(authCode: done.authCode, codeVerifier: try #require(done.codeVerifier))
    }
}
