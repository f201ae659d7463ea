import Foundation
@testable import Keyway
import KeywayPowerAuth
import KeywayPowerAuthClient
import KeywayTestSupport
import Testing

/// Signatures of the SDK's `DeviceActivation` that the real server verifies: one, two and three
/// factors (biometry added through the vault), over a body and over a query; wrong passwords
/// counted and blocking; the counter caught up from the status blob; concurrent signing;
/// password change; signed and local removal.
@Suite("PowerAuth: the SDK's signatures against the server")
struct SDKSignatureTests {
    static let password = "2718"

    /// A committed activation by code.
    static func activated(_ fixture: SDKActivationFixture) async throws -> (device: DeviceActivation, activationId: String) {
        let code = try await fixture.code()
        let device = fixture.device()
        _ = try await device.create(with: .typedCode(code.code))
        try await device.commit(password: password)
        return (device, code.activationId)
    }

    @Test func oneTwoAndThreeFactorsWithBiometryAddedThroughTheVault() async throws {
        try await SDKActivationFixture.run { fixture in
            let (device, _) = try await Self.activated(fixture)
            #expect(try await fixture.validate(device, .possession).status == 200)
            #expect(try await fixture.validate(device, .password(Self.password)).status == 200)
            // Biometry is not set up yet: the SDK refuses before signing.
            await #expect(throws: ActivationError.self) { try await fixture.validate(device, .biometry(reason: "Pay")) }

            try await device.addBiometry(password: Self.password)
            guard case .active(_, _, true) = try await device.state() else {
                Issue.record("Biometry is not recorded as set up.")
                return
            }
            #expect(try await fixture.validate(device, .biometry(reason: "Pay")).status == 200)
            #expect(try await fixture.validate(device, .passwordAndBiometry(password: Self.password, reason: "Pay")).status == 200)
            #expect(try await fixture.validate(device, try FactorAuthentication(typeName: "possession_knowledge_biometry", password: Self.password)).status == 200)

            // A request without a body is signed over its canonical query.
            let query = [URLQueryItem(name: "to", value: "Bob"), URLQueryItem(name: "amount", value: "100.00")]
            let header = try await device.sign(method: "GET", uriID: "/pa/signature/validate", query: query, with: .password(Self.password))
            #expect(try await fixture.send(header, body: Data(), method: "GET", query: "?to=Bob&amount=100.00").status == 200)
            // Encoded values are signed decoded, as the server reads them.
            let encoded = [URLQueryItem(name: "note", value: "a b&c=ü"), URLQueryItem(name: "note", value: "+1")]
            let encodedHeader = try await device.sign(method: "DELETE", uriID: "/pa/signature/validate", query: encoded, with: .possession)
            #expect(
                try await fixture.send(encodedHeader, body: Data(), method: "DELETE", query: "?note=a%20b%26c%3D%C3%BC&note=%2B1").status == 200)

            // A wrong password with biometry fails too.
            let wrong = try await fixture.validate(device, .passwordAndBiometry(password: "0000", reason: "Pay"))
            #expect(wrong.status == 401)
            let status = try await device.fetchStatus()
            #expect(status.failedAttempts == 1)
            // The device moved its counter for the refused signature, the server did not.
            #expect(status.counter == .deviceAhead(steps: 1))

            try await device.removeBiometry()
            await #expect(throws: ActivationError.self) { try await fixture.validate(device, .biometry(reason: "Pay")) }
            #expect(try await fixture.validate(device, .password(Self.password)).status == 200)
        }
    }

    @Test func wrongPasswordsAreCountedAndBlockAtTheLimit() async throws {
        try await SDKActivationFixture.run { fixture in
            let (device, activationId) = try await Self.activated(fixture)
            for attempt in 1...4 {
                let error = await #expect(throws: ActivationError.self) { try await device.validatePassword("wrong \(attempt)") }
                #expect(error?.code == "authentication_failed")
                guard case .authenticationFailed(let code, _) = error else { continue }
                #expect(code == "POWERAUTH_AUTH_FAIL")
                let status = try await device.fetchStatus()
                #expect(status.state == .active)
                #expect(status.failedAttempts == attempt)
                #expect(status.remainingAttempts == 5 - attempt)
                // Each refused signature moved the device's counter and not the server's.
                #expect(status.counter == .deviceAhead(steps: attempt))
            }
            // A success resets the count.
            try await device.validatePassword(Self.password)
            #expect(try await device.fetchStatus().failedAttempts == 0)
            for attempt in 1...5 {
                #expect(try await fixture.validate(device, .password("wrong \(attempt)")).status == 401)
            }
            let blocked = try await device.fetchStatus()
            #expect(blocked.state == .blocked)
            #expect(blocked.failedAttempts == 5)
            #expect(blocked.remainingAttempts == 0)
            let listed = try await fixture.listed(activationId)
            #expect(listed["status"] as? String == "BLOCKED")
            #expect(listed["blockedReason"] as? String == "MAX_FAILED_ATTEMPTS")
            // Blocked: the right password is refused too, and the SDK says so.
            let refused = await #expect(throws: ActivationError.self) { try await device.validatePassword(Self.password) }
            #expect(refused?.code == "authentication_failed")
            #expect(try await device.fetchStatus().state == .blocked)

            #expect(try await fixture.admin("POST", "/admin/activations/\(activationId)/unblock").status == 200)
            let unblocked = try await device.fetchStatus()
            #expect(unblocked.state == .active)
            #expect(unblocked.failedAttempts == 0)
            #expect(try await fixture.validate(device, .password(Self.password)).status == 200)
        }
    }

    @Test func failuresMoveNothingAndTheDeviceCatchesUpWhenAnotherCopySigned() async throws {
        try await SDKActivationFixture.run { fixture in
            let storage = CopyableStorage()
            let code = try await fixture.code()
            let device = fixture.device(storage: storage)
            _ = try await device.create(with: .typedCode(code.code))
            try await device.commit(password: Self.password)
            let body = Data(#"{"amount":"1"}"#.utf8)
            // Two requests with a bad signature for this activation (not made by the device): the
            // server counts each and leaves its counter where it is.
            for index in 0..<2 {
                let forged = PowerAuthAuthorizationHeader(
                    activationID: code.activationId, applicationKey: fixture.configuration.applicationKey,
                    nonce: Data(repeating: UInt8(7 + index), count: 16), factors: [.possession, .knowledge],
                    signature: Data(repeating: 1, count: 32).base64EncodedString())
                #expect(try await fixture.send(forged, body: body).status == 401)
            }
            let counted = try await device.fetchStatus()
            #expect(counted.counter == .inStep && counted.failedAttempts == 2)
            #expect(try await fixture.validate(device, .possession).status == 200)

            // Another copy of the device (a restored backup) signs twice: the server is two steps
            // ahead of this one, which catches up from the status blob.
            let copy = fixture.device(storage: await storage.copy())
            for _ in 0..<2 { #expect(try await fixture.validate(copy, .possession).status == 200) }
            let behind = try await device.fetchStatus()
            #expect(behind.counter == .resynchronized(steps: 2))
            // A possession-only success resets nothing.
            #expect(behind.failedAttempts == 2)
            #expect(try await fixture.validate(device, .password(Self.password)).status == 200)
            let inStep = try await device.fetchStatus()
            #expect(inStep.counter == .inStep && inStep.failedAttempts == 0)

            // Signatures made but never sent: the device is ahead, within the window.
            for _ in 0..<6 {
                _ = try await device.sign(method: "POST", uriID: "/pa/signature/validate", body: body, with: .possession)
            }
            #expect(try await device.fetchStatus().counter == .deviceAhead(steps: 6))
            #expect(try await fixture.validate(device, .password(Self.password)).status == 200)
            #expect(try await device.fetchStatus().counter == .inStep)
        }
    }

    @Test func concurrentSignaturesNeverShareACounterValue() async throws {
        try await SDKActivationFixture.run { fixture in
            let (device, _) = try await Self.activated(fixture)
            let body = Data(#"{"amount":"5"}"#.utf8)
            // Many signatures at once; each header is sent in the order its counter was taken.
            let headers = try await withThrowingTaskGroup(of: PowerAuthAuthorizationHeader.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        try await device.sign(
                            method: "POST", uriID: "/pa/signature/validate", body: body,
                            with: index.isMultiple(of: 2) ? .possession : .password(Self.password))
                    }
                }
                var all: [PowerAuthAuthorizationHeader] = []
                for try await header in group { all.append(header) }
                return all
            }
            #expect(Set(headers.map(\.signature)).count == 16)
            #expect(Set(headers.map(\.nonce)).count == 16)
            #expect(try await device.fetchStatus().counter == .deviceAhead(steps: 16))
            // Sixteen steps ahead is within the server's window of twenty: the next one verifies.
            #expect(try await fixture.validate(device, .password(Self.password)).status == 200)
            #expect(try await device.fetchStatus().counter == .inStep)

            // The SDK's own signed calls, many at once: each signs and sends under the
            // activation's lock, so every one is accepted.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await device.validatePassword(Self.password) }
                }
                try await group.waitForAll()
            }
            // The app's own requests, many at once, each signed and sent under the lock.
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<16 {
                    group.addTask {
                        try await device.sign(
                            method: "POST", uriID: "/pa/signature/validate", body: body,
                            with: index.isMultiple(of: 2) ? .possession : .password(Self.password)
                        ) { header in try await fixture.send(header, body: body).status }
                    }
                }
                var all: [Int] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses == Array(repeating: 200, count: 16))
            let status = try await device.fetchStatus()
            #expect(status.failedAttempts == 0)
            #expect(status.counter == .inStep)
        }
    }

    @Test func aPasswordChangeIsCheckedByTheServer() async throws {
        try await SDKActivationFixture.run { fixture in
            let (device, _) = try await Self.activated(fixture)
            // A wrong old password: refused by the server, counted, nothing changes.
            await #expect(throws: ActivationError.self) { try await device.changePassword(from: "0000", to: "1111") }
            #expect(try await device.fetchStatus().failedAttempts == 1)
            #expect(try await fixture.validate(device, .password(Self.password)).status == 200)

            try await device.changePassword(from: Self.password, to: "314159")
            #expect(try await fixture.validate(device, .password(Self.password)).status == 401)
            #expect(try await fixture.validate(device, .password("314159")).status == 200)
            try await device.addBiometry(password: "314159")
            #expect(try await fixture.validate(device, .biometry(reason: "Pay")).status == 200)
        }
    }

    @Test func signedAndLocalRemoval() async throws {
        try await SDKActivationFixture.run { fixture in
            let (device, activationId) = try await Self.activated(fixture)
            // Possession alone cannot remove; a wrong password keeps the activation on both sides.
            await #expect(throws: ActivationError.self) { try await device.remove(with: .possession) }
            let wrong = await #expect(throws: ActivationError.self) { try await device.remove(with: .password("0000")) }
            #expect(wrong?.code == "authentication_failed")
            #expect(try await device.activationID() == activationId)
            #expect(try await fixture.listed(activationId)["status"] as? String == "ACTIVE")
            try await device.remove(with: .password(Self.password))
            #expect(try await device.state() == .none)
            #expect(try await fixture.listed(activationId)["status"] as? String == "REMOVED")

            // Local removal: the server keeps the activation; the device may activate again.
            let (other, otherId) = try await Self.activated(fixture)
            try await other.removeLocally()
            #expect(try await other.state() == .none)
            #expect(try await fixture.listed(otherId)["status"] as? String == "ACTIVE")
            _ = try await other.create(with: .typedCode(try await fixture.code().code))
            #expect(try await other.activationID() != otherId)

            // A removal the device did not make is what the status says.
            let (third, thirdId) = try await Self.activated(fixture)
            #expect(try await fixture.admin("DELETE", "/admin/activations/\(thirdId)").status == 200)
            #expect(try await third.fetchStatus().state == .removed)
            #expect(try await fixture.validate(third, .password(Self.password)).status == 401)
        }
    }
}

/// A device's storage that can be copied, as a backup restored on another phone copies it.
actor CopyableStorage: SecureStorage {
    private var entries: [String: Data] = [:]

    func read(key: String) async throws(SecureStorageError) -> Data? { entries[key] }
    func write(key: String, data: Data) async throws(SecureStorageError) { entries[key] = data }
    func delete(key: String) async throws(SecureStorageError) { entries[key] = nil }

    /// A new storage holding what this one holds now.
    func copy() async -> InMemorySecureStorage {
        let copy = InMemorySecureStorage()
        for (key, data) in entries { try? await copy.write(key: key, data: data) }
        return copy
    }
}
