import Foundation
@testable import Keyway
import KeywayTestSupport

/// App Attest for the SDK in the tests: keys attested by a ``TestAppAttestAuthority`` the test
/// server trusts (or one it does not), assertions with a counter that increases — or, to play a
/// cloned key, one that does not.
actor TestAppAttestProvider: AppAttestProvider {
    let authority: TestAppAttestAuthority
    let appID: String
    /// Whether the device claims App Attest.
    var isSupported: Bool
    /// Every assertion uses counter 1, as a copy of the key on a second device would.
    let repeatsCounter: Bool
    private var keys: [String: (key: TestAppAttestAuthority.Key, counter: UInt32)] = [:]
    private(set) var attestations = 0
    private(set) var assertions = 0

    init(authority: TestAppAttestAuthority, appID: String, isSupported: Bool = true, repeatsCounter: Bool = false) {
        self.authority = authority
        self.appID = appID
        self.isSupported = isSupported
        self.repeatsCounter = repeatsCounter
    }

    struct UnknownKey: Error {}

    func generateKey() -> String {
        let key = TestAppAttestAuthority.Key()
        keys[key.idString] = (key, 0)
        return key.idString
    }

    func attestKey(_ keyID: String, clientDataHash: Data) throws -> Data {
        guard let entry = keys[keyID] else { throw UnknownKey() }
        attestations += 1
        return try authority.attestation(of: entry.key, clientDataHash: clientDataHash, appID: appID)
    }

    func generateAssertion(_ keyID: String, clientDataHash: Data) throws -> Data {
        guard var entry = keys[keyID] else { throw UnknownKey() }
        entry.counter = repeatsCounter ? 1 : entry.counter + 1
        keys[keyID] = entry
        assertions += 1
        return try TestAppAttestAuthority.assertion(
            of: entry.key, clientDataHash: clientDataHash, appID: appID, counter: entry.counter)
    }
}

/// Software keys that claim to be hardware-backed, as Secure Enclave keys are: what the server
/// believes of the claim is the test's subject.
struct ClaimingHardwareKeyStore: DeviceKeyStore {
    let inner: SoftwareDeviceKeyStore
    var isHardwareBacked: Bool { true }
    func key(named name: String) async throws -> (any DeviceKey)? { try await inner.key(named: name) }
    func createKey(named name: String) async throws -> any DeviceKey { try await inner.createKey(named: name) }
    func deleteKey(named name: String) async throws { try await inner.deleteKey(named: name) }
}
