import Crypto
import Foundation
import KeywayPowerAuthClient
import Testing

@Suite("Tokens")
struct TokenTests {
    @Test func aTokenHeaderVerifiesAtTheServerWithTheFactorsThatCreatedIt() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate(password: "1234")
        let token = try await fixture.activation.requestToken(named: "balance", authentication: .password("1234"))
        #expect(token.factors == [.possession, .knowledge])
        let header = try await fixture.activation.tokenHeader(named: "balance")
        #expect(header.tokenID == token.tokenID)
        #expect(header.version == "3.3")
        let verified = try #require(try await fixture.peer.verifyToken(header.value))
        #expect(verified.activationID == id)
        #expect(verified.factors == "possession_knowledge")
        // Each header has its own nonce.
        let next = try await fixture.activation.tokenHeader(named: "balance")
        #expect(next.nonce != header.nonce)
    }

    @Test func theHeaderIsThePublishedDigest() throws {
        let secret = SymmetricKey(data: Data((1...16).map { UInt8($0) }))
        let nonce = Data((101...116).map { UInt8($0) })
        let header = try PowerAuthTokenHeader(tokenID: "t", tokenSecret: secret, timestamp: 1_700_000_000_123, nonce: nonce)
        let parsed = try PowerAuthTokenHeader(parsing: header.value)
        #expect(parsed == header)
        #expect(parsed.digest == (try PowerAuthTokenDigest.compute(tokenSecret: secret, nonce: nonce, timestamp: 1_700_000_000_123, version: .v33)))
        #expect(header.value.contains(#"timestamp="1700000000123""#))
    }

    @Test func aStoredTokenIsReusedAcrossLaunchesAndListed() async throws {
        let fixture = try Fixture()
        try await fixture.activate(password: "1234")
        let first = try await fixture.activation.requestToken(named: "a", authentication: .possession)
        let relaunched = DeviceActivation(
            configuration: try fixture.peer.configuration(), appIdentifier: "com.example.app", storage: fixture.storage,
            options: DeviceActivationOptions(transport: fixture.peer))
        let again = try await relaunched.requestToken(named: "a", authentication: .password("1234"))
        #expect(again == first)
        _ = try await relaunched.requestToken(named: "b", authentication: .possession)
        #expect(try await relaunched.tokens().map(\.name) == ["a", "b"])
        #expect(await fixture.peer.tokens.count == 2)
        #expect(await fixture.storage.keys().contains("keyway.activation.com.example.app.cfg_peer.tokens"))
    }

    @Test func removingATokenRemovesItOnTheServerThenLocally() async throws {
        let fixture = try Fixture()
        try await fixture.activate()
        let token = try await fixture.activation.requestToken(named: "a", authentication: .possession)
        try await fixture.activation.removeToken(named: "a")
        #expect(await fixture.peer.tokens[token.tokenID] == nil)
        let error = await #expect(throws: ActivationError.self) { try await fixture.activation.tokenHeader(named: "a") }
        #expect(error == .tokenNotFound("a"))
        let again = await #expect(throws: ActivationError.self) { try await fixture.activation.removeToken(named: "a") }
        #expect(again?.code == "token_not_found")
    }

    @Test func removingTheActivationRemovesItsTokens() async throws {
        let fixture = try Fixture()
        try await fixture.activate(password: "1234")
        _ = try await fixture.activation.requestToken(named: "a", authentication: .possession)
        try await fixture.activation.remove(with: .password("1234"))
        #expect(try await fixture.activation.tokens().isEmpty)
        #expect(await !fixture.storage.keys().contains { $0.hasSuffix(".tokens") })
    }

    @Test func exportedTokensImportIntoAnExtensionAndVerify() async throws {
        let fixture = try Fixture()
        try await fixture.activate()
        _ = try await fixture.activation.requestToken(named: "a", authentication: .possession)
        _ = try await fixture.activation.requestToken(named: "b", authentication: .possession)
        let key = SymmetricKey(size: .bits256)
        let blob = try await fixture.activation.exportTokens(named: ["a"], key: key)
        // The extension has its own storage and no activation.
        let extensionSide = DeviceActivation(
            configuration: try fixture.peer.configuration(), appIdentifier: "com.example.app", storage: RecordingStorage(),
            options: DeviceActivationOptions(transport: NoNetwork()))
        let imported = try await extensionSide.importTokens(blob, key: key)
        #expect(imported.map(\.name) == ["a"])
        let header = try await extensionSide.tokenHeader(named: "a")
        #expect(try await fixture.peer.verifyToken(header.value) != nil)
        let missing = await #expect(throws: ActivationError.self) { try await extensionSide.tokenHeader(named: "b") }
        #expect(missing == .tokenNotFound("b"))
    }

    @Test func anExportWithoutTokensIsEmptyAndNeedsAnActivation() async throws {
        let fixture = try Fixture()
        let key = SymmetricKey(size: .bits128)
        let none = await #expect(throws: ActivationError.self) { try await fixture.activation.exportTokens(key: key) }
        #expect(none == .noActivation)
        try await fixture.activate()
        let blob = try await fixture.activation.exportTokens(key: key)
        #expect(try await fixture.activation.importTokens(blob, key: key).isEmpty)
        let named = await #expect(throws: ActivationError.self) { try await fixture.activation.exportTokens(named: ["x"], key: key) }
        #expect(named == .tokenNotFound("x"))
        let size = await #expect(throws: ActivationError.self) {
            try await fixture.activation.exportTokens(key: SymmetricKey(data: Data(count: 10)))
        }
        #expect(size?.code == "invalid_token_export")
    }

    @Test func aChangedBlobAnotherKeyOrAnotherApplicationIsRefused() async throws {
        let fixture = try Fixture()
        try await fixture.activate()
        _ = try await fixture.activation.requestToken(named: "a", authentication: .possession)
        let key = SymmetricKey(size: .bits256)
        let blob = try await fixture.activation.exportTokens(key: key)
        let storage = RecordingStorage()
        let receiver = DeviceActivation(
            configuration: try fixture.peer.configuration(), appIdentifier: "com.example.app", storage: storage,
            options: DeviceActivationOptions(transport: NoNetwork()))
        for index in [0, 12, blob.count / 2, blob.count - 1] {
            var changed = blob
            changed[index] ^= 0x01
            let error = await #expect(throws: ActivationError.self) { try await receiver.importTokens(changed, key: key) }
            #expect(error?.code == "invalid_token_export")
        }
        let wrongKey = await #expect(throws: ActivationError.self) { try await receiver.importTokens(blob, key: SymmetricKey(size: .bits256)) }
        #expect(wrongKey?.code == "invalid_token_export")
        // Another application (another application key) cannot open it.
        let other = ProtocolPeer()
        let otherConfiguration = try PowerAuthConfiguration(
            baseURL: other.baseURL, configID: "cfg_peer", applicationKey: Data(repeating: 7, count: 16).base64EncodedString(),
            applicationSecret: other.applicationSecret, masterServerPublicKey: other.masterKey.publicKey.x963Representation.base64EncodedString())
        let otherApp = DeviceActivation(
            configuration: otherConfiguration, appIdentifier: "com.example.app", storage: RecordingStorage(),
            options: DeviceActivationOptions(transport: NoNetwork()))
        let otherError = await #expect(throws: ActivationError.self) { try await otherApp.importTokens(blob, key: key) }
        #expect(otherError?.code == "invalid_token_export")
        #expect(await storage.keys().isEmpty)
        // A device with its own, other activation refuses them.
        let second = try Fixture()
        try await second.activate()
        let foreign = await #expect(throws: ActivationError.self) { try await second.activation.importTokens(blob, key: key) }
        #expect(foreign?.code == "invalid_token_export")
    }
}
