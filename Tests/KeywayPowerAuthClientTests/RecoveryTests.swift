import Crypto
import Foundation
import KeywayPowerAuthClient
import Testing

@Suite("Recovery codes on the device")
struct RecoveryTests {
    @Test func theCodeIsShownOnceKeptSealedAndReadBackThroughTheVault() async throws {
        let fixture = try Fixture()
        let code = ActivationCode.random()
        await fixture.peer.addCode(code)
        let pending = try await fixture.activation.create(with: .typedCode(code.value))
        try await fixture.activation.commit(password: "1234")
        let shown = try #require(pending.recovery)
        #expect(shown.recoveryCode == (await fixture.peer.recoveryCodes[pending.activationID]))
        // Nothing readable at rest.
        let stored = await fixture.storage.allBytes()
        #expect(stored.range(of: Data(shown.recoveryCode.utf8)) == nil)
        #expect(stored.range(of: Data(shown.puk.revealed.utf8)) == nil)
        let read = try await fixture.activation.recoveryData(authentication: .password("1234"))
        #expect(read == shown)
        #expect(await fixture.peer.vaultReasons == ["RECOVERY_CODE"])
        let wrong = await #expect(throws: ActivationError.self) { try await fixture.activation.recoveryData(authentication: .password("0000")) }
        #expect(wrong?.code == "authentication_failed")
    }

    @Test func postcardCodesAreConfirmedOnceAndUnknownOnesRefused() async throws {
        let fixture = try Fixture()
        try await fixture.activate(password: "1234")
        let postcard = ActivationCode.random().value
        await fixture.peer.addPostcard(postcard)
        #expect(try await fixture.activation.confirmRecoveryCode("R:" + postcard, authentication: .password("1234")) == false)
        #expect(try await fixture.activation.confirmRecoveryCode(postcard.lowercased(), authentication: .password("1234")) == true)
        let unknown = await #expect(throws: ActivationError.self) {
            try await fixture.activation.confirmRecoveryCode(ActivationCode.random().value, authentication: .password("1234"))
        }
        #expect(unknown?.code == "server_error")
        let possession = await #expect(throws: ActivationError.self) {
            try await fixture.activation.confirmRecoveryCode(postcard, authentication: .possession)
        }
        #expect(possession?.code == "invalid_factors")
        let malformed = await #expect(throws: ActivationError.self) {
            try await fixture.activation.confirmRecoveryCode("AAAAA-BBBBB", authentication: .password("1234"))
        }
        #expect(malformed?.code == "invalid_recovery_code")
    }
}
