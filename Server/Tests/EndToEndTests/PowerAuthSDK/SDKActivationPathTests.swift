import Crypto
import Foundation
@testable import Keyway
@testable import KeywayPowerAuthClient
import KeywayTestSupport
import Testing

/// Every way the SDK's `DeviceActivation` activates against the real server: a typed code, a
/// scanned `CODE#SIGNATURE`, a code with an OTP (automatic commit) or confirmed by the
/// administrator, a Keyway sign-in (bearer and DPoP-bound), a recovery code and PUK, and a code
/// the user makes on one device for another; the fingerprint against the admin list and the
/// status after each transition.
@Suite("PowerAuth: the SDK's activation paths against the server")
struct SDKActivationPathTests {
    static let password = "2718"

    @Test func aTypedCodeActivatesWithTheAdminListsFingerprint() async throws {
        try await SDKActivationFixture.run { fixture in
            let code = try await fixture.code()
            #expect(try await fixture.listed(code.activationId)["status"] as? String == "CREATED")
            let device = fixture.device()
            // Typed in lower case, without dashes: the SDK's autocorrection.
            let typed = code.code.lowercased().replacingOccurrences(of: "-", with: "")
            let pending = try await device.create(with: .typedCode(typed), name: "Ada's phone")
            #expect(pending.activationID == code.activationId)
            let listed = try await fixture.listed(code.activationId)
            #expect(listed["fingerprint"] as? String == pending.fingerprint)
            #expect(listed["status"] as? String == "ACTIVE")
            #expect(listed["name"] as? String == "Ada's phone")
            #expect(listed["deviceInfo"] as? String == "e2e-device")
            #expect(try await device.state() == .pendingCommit(activationID: code.activationId, fingerprint: pending.fingerprint))
            let recovery = try #require(pending.recovery)
            #expect(recovery.puk.revealed.count == 10)

            let status = try await device.fetchStatus()
            #expect(status.state == .active)
            #expect(status.failedAttempts == 0)
            #expect(status.maxFailedAttempts == 5)
            #expect(status.counter == .inStep)

            try await device.commit(password: Self.password)
            #expect(try await fixture.validate(device, .password(Self.password)).status == 200)
        }
    }

    @Test func aScannedCodeIsCheckedAgainstTheMasterKeyThenActivates() async throws {
        try await SDKActivationFixture.run { fixture in
            let first = try await fixture.code()
            let second = try await fixture.code()
            let device = fixture.device()
            // The signature of another code: refused before any key exchange.
            let otherSignature = try #require(second.qr.split(separator: "#").last.map(String.init))
            let forged = first.code + "#" + otherSignature
            let refused = await #expect(throws: ActivationError.self) { try await device.create(with: .scannedCode(forged)) }
            #expect(refused?.code == "activation_signature_invalid")
            #expect(try await fixture.listed(first.activationId)["status"] as? String == "CREATED")

            let pending = try await device.create(with: .scannedCode(first.qr))
            #expect(pending.activationID == first.activationId)
            #expect(try await fixture.listed(first.activationId)["fingerprint"] as? String == pending.fingerprint)
            try await device.commit(password: Self.password, biometry: true)
            #expect(try await device.state() == .active(activationID: first.activationId, fingerprint: pending.fingerprint, hasBiometry: true))
            #expect(try await fixture.validate(device, .biometry(reason: "Pay")).status == 200)
            #expect(try await device.fetchStatus().state == .active)
        }
    }

    @Test func aCodeWithAnOTPActivatesAtOnceWithTheRightOTP() async throws {
        try await SDKActivationFixture.run { fixture in
            let code = try await fixture.code(["otp": "55123", "commit": "automatic"])
            let device = fixture.device()
            // Without the OTP, or with a wrong one, the server refuses the key exchange.
            for otp in [nil, "00000"] as [String?] {
                let error = await #expect(throws: ActivationError.self) { try await device.create(with: .typedCode(code.code, otp: otp)) }
                #expect(error?.code == "server_error", "\(String(describing: error))")
                #expect(try await device.state() == .none)
            }
            let pending = try await device.create(with: .scannedCode(code.qr, otp: "55123"))
            #expect(try await fixture.listed(code.activationId)["status"] as? String == "ACTIVE")
            #expect(try await device.fetchStatus().state == .active)
            try await device.commit(password: Self.password)
            #expect(try await fixture.validate(device, .password(Self.password)).status == 200)
            #expect(try await fixture.listed(code.activationId)["fingerprint"] as? String == pending.fingerprint)
        }
    }

    @Test func aConfirmedCodeWaitsInPendingCommitUntilTheAdministratorCommits() async throws {
        try await SDKActivationFixture.run { fixture in
            let code = try await fixture.code(["otp": "8812", "commit": "confirm"])
            let device = fixture.device()
            _ = try await device.create(with: .typedCode(code.code))
            try await device.commit(password: Self.password)
            let waiting = try await device.fetchStatus()
            #expect(waiting.state == .pendingCommit)
            #expect(try await fixture.listed(code.activationId)["status"] as? String == "PENDING_COMMIT")
            // Not active yet: no signature verifies, and nothing is counted.
            let early = try await fixture.validate(device, .password(Self.password))
            #expect(early.status == 401)
            #expect(early.code == "POWERAUTH_AUTH_FAIL")

            #expect(try await fixture.admin("POST", "/admin/activations/\(code.activationId)/commit", ["otp": "0000"]).status == 400)
            #expect(try await fixture.admin("POST", "/admin/activations/\(code.activationId)/commit", ["otp": "8812"]).status == 200)
            let active = try await device.fetchStatus()
            #expect(active.state == .active)
            #expect(try await fixture.validate(device, .password(Self.password)).status == 200)
            #expect(try await device.fetchStatus().counter == .inStep)
        }
    }

    @Test func theKeywaySignInWithABearerToken() async throws {
        try await SDKActivationFixture.run { fixture in
            let device = fixture.device()
            let pending = try await device.create(signedInWith: try await fixture.session(), keyway: fixture.keyway, name: "Laptop")
            let listed = try await fixture.listed(pending.activationID)
            #expect(listed["status"] as? String == "ACTIVE")
            #expect(listed["fingerprint"] as? String == pending.fingerprint)
            try await device.commit(password: Self.password)
            #expect(try await fixture.validate(device, .password(Self.password)).status == 200)

            // An expired access token is refreshed first (or the sign-in is asked for again).
            let session = try await fixture.session()
            fixture.clock.advance(by: 2 * 3600)
            let later = fixture.device()
            if fixture.tokens.response.refreshToken != nil {
                let refreshed = try await later.create(signedInWith: session, keyway: fixture.keyway)
                #expect(try await fixture.listed(refreshed.activationID)["status"] as? String == "ACTIVE")
            } else {
                let expired = await #expect(throws: ActivationError.self) { try await later.create(signedInWith: session, keyway: fixture.keyway) }
                #expect(expired?.code == "sign_in_required")
            }

            // Nobody signed in: refused before any request.
            let other = fixture.device()
            let empty = KeywaySession(keyway: fixture.keyway, storage: InMemorySecureStorage())
            let error = await #expect(throws: ActivationError.self) { try await other.create(signedInWith: empty, keyway: fixture.keyway) }
            #expect(error?.code == "sign_in_required")
        }
    }

    @Test func theKeywaySignInWithADPoPBoundToken() async throws {
        try await SDKActivationFixture.run(dpopKey: P256.Signing.PrivateKey()) { fixture in
            #expect(fixture.tokens.response.tokenType == "DPoP")
            let device = fixture.device()
            let pending = try await device.create(signedInWith: try await fixture.session(), keyway: fixture.keyway)
            #expect(try await fixture.listed(pending.activationID)["fingerprint"] as? String == pending.fingerprint)
            try await device.commit(password: Self.password)
            #expect(try await fixture.validate(device, .password(Self.password)).status == 200)
            // The same token without its proof activates nothing.
            let bare = fixture.device()
            let error = await #expect(throws: ActivationError.self) {
                try await bare.create(presenting: .accessToken(fixture.tokens.response.accessToken, dpopProof: nil), name: nil, extras: nil)
            }
            #expect(error?.code == "server_error")

            // The DPoP-bound token also makes a code for another device, which activates with it.
            _ = try await fixture.session()
            let issued = try await UserActivationCodes(keyway: fixture.keyway).create(ActivationCodeRequest())
            let other = fixture.device()
            let second = try await other.create(with: .scannedCode(issued.qrPayload))
            #expect(try await fixture.listed(issued.activationID)["fingerprint"] as? String == second.fingerprint)
        }
    }

    @Test func aRecoveryCodeAndPUKReplaceARemovedActivation() async throws {
        try await SDKActivationFixture.run { fixture in
            let code = try await fixture.code()
            let device = fixture.device()
            let pending = try await device.create(with: .typedCode(code.code))
            let recovery = try #require(pending.recovery)
            try await device.commit(password: Self.password)
            try await device.remove(with: .password(Self.password))
            #expect(try await device.state() == .none)
            #expect(try await fixture.listed(code.activationId)["status"] as? String == "REMOVED")

            let replacement = fixture.device()
            let wrong = await #expect(throws: ActivationError.self) {
                try await replacement.create(with: .recovery(code: recovery.recoveryCode, puk: "0123456789"))
            }
            #expect(wrong?.code == "server_error")
            let recovered = try await replacement.create(
                with: .recovery(code: recovery.recoveryCode, puk: recovery.puk.revealed), name: "Recovered")
            #expect(recovered.activationID != code.activationId)
            #expect(recovered.recovery != nil)
            #expect(recovered.recovery?.recoveryCode != recovery.recoveryCode)
            let listed = try await fixture.listed(recovered.activationID)
            #expect(listed["status"] as? String == "ACTIVE")
            #expect(listed["fingerprint"] as? String == recovered.fingerprint)
            try await replacement.commit(password: Self.password)
            #expect(try await fixture.validate(replacement, .password(Self.password)).status == 200)
            // The recovery code is used up.
            let again = fixture.device()
            await #expect(throws: ActivationError.self) {
                try await again.create(with: .recovery(code: recovery.recoveryCode, puk: recovery.puk.revealed))
            }
        }
    }

    @Test func theClientReachesPowerAuthWithItsStorageAndItsSignIn() async throws {
        try await SDKActivationFixture.run { fixture in
            _ = try await fixture.session()
            let activation = fixture.keyway.powerAuth(
                fixture.configuration, appIdentifier: "com.example.root", biometry: SoftwareBiometry(), deviceInfo: "root")
            let pending = try await activation.create(signedInWith: fixture.keyway, name: "From the client")
            try await activation.commit(password: Self.password)
            #expect(try await fixture.listed(pending.activationID)["name"] as? String == "From the client")
            #expect(try await fixture.validate(activation, .password(Self.password)).status == 200)
            // Kept in the client's own storage: another activation object of the same app reads it.
            let again = fixture.keyway.powerAuth(fixture.configuration, appIdentifier: "com.example.root")
            #expect(try await again.activationID() == pending.activationID)
        }
    }

    @Test func aSignedInUserMakesACodeForASecondDevice() async throws {
        try await SDKActivationFixture.run { fixture in
            let first = fixture.device()
            _ = try await first.create(signedInWith: try await fixture.session(), keyway: fixture.keyway)
            try await first.commit(password: Self.password)

            let issued = try await UserActivationCodes(keyway: fixture.keyway)
                .create(ActivationCodeRequest(otp: "4455", name: "Tablet"))
            #expect(issued.status == "CREATED")
            #expect(issued.qrPayload == issued.activationCode + "#" + issued.activationSignature)

            let second = fixture.device()
            let pending = try await second.create(with: .scannedCode(issued.qrPayload, otp: "4455"))
            #expect(pending.activationID == issued.activationID)
            let listed = try await fixture.listed(issued.activationID)
            #expect(listed["status"] as? String == "ACTIVE")
            #expect(listed["name"] as? String == "Tablet")
            #expect(listed["fingerprint"] as? String == pending.fingerprint)
            try await second.commit(password: "9999")
            #expect(try await fixture.validate(second, .password("9999")).status == 200)
            #expect(try await fixture.validate(first, .password(Self.password)).status == 200)
        }
    }
}
