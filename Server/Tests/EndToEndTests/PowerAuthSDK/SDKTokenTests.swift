import Crypto
import Foundation
@testable import Keyway
import KeywayPowerAuth
import KeywayPowerAuthClient
import KeywayTestSupport
import Testing

/// The SDK's PowerAuth tokens against the real server: created encrypted and signed, their
/// headers verified by the backend endpoint with the factors that created them, replay refused,
/// removal on the server, the sealed hand-off to an extension, and the end of the tokens with
/// their activation.
@Suite("PowerAuth: the SDK's tokens against the server")
struct SDKTokenTests {
    static let password = "2718"

    @Test func tokenHeadersAreVerifiedByTheBackendWithTheirFactors() async throws {
        try await SDKActivationFixture.run { fixture in
            let (device, activationId) = try await SDKSignatureTests.activated(fixture)
            let backend = try await SDKBackend.make(fixture)
            let token = try await device.requestToken(named: "balance", authentication: .password(Self.password))
            #expect(token.factors == [.possession, .knowledge])
            // Stored: the same token again, without a request.
            #expect(try await device.requestToken(named: "balance", authentication: .possession) == token)

            let header = try await device.tokenHeader(named: "balance")
            let verified = try await backend.verifyToken(header.value, requiredFactors: "possession_knowledge")
            #expect(verified["valid"] as? Bool == true, "\(verified)")
            #expect(verified["activationId"] as? String == activationId)
            #expect(verified["userId"] as? String == fixture.userId)
            #expect(verified["tokenId"] as? String == token.tokenID)
            #expect(verified["factors"] as? String == "possession_knowledge")
            // The same header again: a replay.
            #expect(try await backend.verifyToken(header.value).refusalCode == "TOKEN_REPLAYED")
            // More factors than the token carries.
            let insufficient = try await backend.verifyToken(
                try await device.tokenHeader(named: "balance").value, requiredFactors: "possession_knowledge_biometry")
            #expect(insufficient["valid"] as? Bool == false)
            #expect(insufficient.refusalCode == "INSUFFICIENT_FACTORS")
            // A header six minutes old is outside the window.
            let late = try await device.tokenHeader(named: "balance")
            fixture.clock.advance(by: 360)
            #expect(try await backend.verifyToken(late.value).refusalCode == "TOKEN_EXPIRED")

            // The administrator sees it.
            let listed = try await fixture.admin("GET", "/admin/activations/\(activationId)/tokens")
            let tokens = listed.json["tokens"] as? [[String: Any]] ?? []
            #expect(tokens.map { $0["tokenId"] as? String } == [token.tokenID], "\(listed.json)")

            // Removed on the server, then here: a header made before no longer verifies.
            let before = try await device.tokenHeader(named: "balance")
            try await device.removeToken(named: "balance")
            #expect(try await backend.verifyToken(before.value).refusalCode == "TOKEN_INVALID")
            #expect(try await device.tokens().isEmpty)
            let gone = await #expect(throws: ActivationError.self) { try await device.tokenHeader(named: "balance") }
            #expect(gone == .tokenNotFound("balance"))
        }
    }

    @Test func exportedTokensWorkInAnExtensionAndEndWithTheActivation() async throws {
        try await SDKActivationFixture.run { fixture in
            let (device, _) = try await SDKSignatureTests.activated(fixture)
            let backend = try await SDKBackend.make(fixture)
            _ = try await device.requestToken(named: "widget", authentication: .possession)
            let key = SymmetricKey(size: .bits256)
            let blob = try await device.exportTokens(named: ["widget"], key: key)
            let extensionSide = fixture.device()
            #expect(try await extensionSide.importTokens(blob, key: key).map(\.name) == ["widget"])
            let fromExtension = try await extensionSide.tokenHeader(named: "widget")
            #expect(try await backend.verifyToken(fromExtension.value)["valid"] as? Bool == true)
            var changed = blob
            changed[changed.count - 3] ^= 0x20
            let tampered = await #expect(throws: ActivationError.self) { try await fixture.device().importTokens(changed, key: key) }
            #expect(tampered?.code == "invalid_token_export")

            // Removing the activation removes its tokens here and on the server.
            let stillOut = try await extensionSide.tokenHeader(named: "widget")
            try await device.remove(with: .password(Self.password))
            #expect(try await device.tokens().isEmpty)
            #expect(try await backend.verifyToken(stillOut.value)["valid"] as? Bool == false)
        }
    }
}
