import Crypto
import Foundation
import KeywayPowerAuthClient
import Testing

@Suite("Vault keys, device-key signatures and server-signed data")
struct VaultTests {
    private func bytes(_ key: SymmetricKey) -> Data { key.withUnsafeBytes { Data($0) } }

    @Test func encryptionKeysAreTheVaultKeysKDFStableAcrossLaunchesAndDistinctPerIndex() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate(password: "1234")
        let first = try await fixture.activation.fetchEncryptionKey(index: 1, authentication: .password("1234"))
        let vaultKey = try #require(await fixture.peer.activation(id)).vaultKey
        #expect(bytes(first) == bytes(try PowerAuthKDF.derive(key: vaultKey, index: 1)))
        // Another launch: a new instance on the same storage.
        let relaunched = DeviceActivation(
            configuration: try fixture.peer.configuration(), appIdentifier: "com.example.app", storage: fixture.storage,
            options: DeviceActivationOptions(transport: fixture.peer))
        let again = try await relaunched.fetchEncryptionKey(index: 1, authentication: .password("1234"))
        #expect(bytes(again) == bytes(first))
        let second = try await relaunched.fetchEncryptionKey(index: 2, authentication: .password("1234"))
        #expect(bytes(second) != bytes(first))
        #expect(await fixture.peer.vaultReasons == ["FETCH_ENCRYPTION_KEY", "FETCH_ENCRYPTION_KEY", "FETCH_ENCRYPTION_KEY"])
        // The vault key itself is never written.
        #expect(await fixture.storage.allBytes().range(of: bytes(vaultKey)) == nil)
    }

    @Test func theVaultNeedsTwoFactorsAndTheRightPassword() async throws {
        let fixture = try Fixture()
        try await fixture.activate(password: "1234")
        let requests = await fixture.peer.paths.count
        let factors = await #expect(throws: ActivationError.self) {
            try await fixture.activation.fetchEncryptionKey(index: 1, authentication: .possession)
        }
        #expect(factors?.code == "invalid_factors")
        #expect(await fixture.peer.paths.count == requests)
        let wrong = await #expect(throws: ActivationError.self) {
            try await fixture.activation.signWithDevicePrivateKey(Data("x".utf8), authentication: .password("9999"))
        }
        #expect(wrong?.code == "authentication_failed")
    }

    @Test func deviceKeySignaturesVerifyWithTheDevicePublicKey() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate(password: "1234", biometry: true)
        let data = Data("transfer 100 to 42".utf8)
        let signature = try await fixture.activation.signWithDevicePrivateKey(data, authentication: .biometry(reason: "Sign"))
        #expect(try await fixture.peer.verifyDeviceSignature(signature, data: data, activationID: id))
        #expect(try await !fixture.peer.verifyDeviceSignature(signature, data: Data("transfer 900 to 42".utf8), activationID: id))
        #expect(await fixture.peer.vaultReasons.last == "SIGN_WITH_DEVICE_PRIVATE_KEY")
    }

    @Test func serverSignedDataVerifyWithTheMasterOrTheActivationKey() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate()
        let data = Data("{\"notice\":\"maintenance\"}".utf8)
        for key in [OfflineSigningKey.master, .activation] {
            let signature = try await fixture.peer.serverSign(data, activationID: key == .master ? nil : id)
            #expect(try await fixture.activation.verifyServerSignedData(data, signature: signature, key: key))
            var changed = data
            changed[3] ^= 1
            #expect(try await !fixture.activation.verifyServerSignedData(changed, signature: signature, key: key))
            // Signed by the other key: refused.
            #expect(try await !fixture.activation.verifyServerSignedData(data, signature: signature, key: key == .master ? .activation : .master))
        }
    }
}
