import Crypto
import Foundation
import KeywayJOSE
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Device signatures, approval data and device policies")
struct DeviceTrustUnitTests {
    let key = P256.Signing.PrivateKey()

    private func sign(_ input: DeviceSigningInput, with key: P256.Signing.PrivateKey? = nil) throws -> String {
        Base64URL.encode(try (key ?? self.key).signature(for: try #require(input.data)).rawRepresentation)
    }

    @Test func theCanonicalInputIsFixedAndRefusesLineBreaks() throws {
        let input = DeviceSigningInput.challenge(
            challenge: "kdc_abc", flowID: "flw_1", configID: "cfg_2", audience: "https://auth.example.com/",
            deviceID: "dev_3")
        #expect(input.canonical == "keyway-device-v1\nchallenge\nkdc_abc\nflw_1\ncfg_2\nhttps://auth.example.com/\ndev_3")
        #expect(
            DeviceSigningInput.approval(
                approvalID: "apr_1", flowID: "flw_1", configID: "cfg_2", audience: "a", deviceID: "dev_3",
                decision: .deny
            ).canonical == "keyway-device-v1\napproval\napr_1\nflw_1\ncfg_2\na\ndev_3\ndeny")
        #expect(DeviceSigningInput.listApprovals(deviceID: "dev_3", configID: "c", audience: "a", time: 17).canonical
            == "keyway-device-v1\nlistApprovals\ndev_3\nc\na\n17")
        // A value with a line break could shift the other values: never signed, never accepted.
        #expect(DeviceSigningInput.challenge(challenge: "x\nflw_1", flowID: "f", configID: "c", audience: "a", deviceID: "d").data == nil)
        #expect(DeviceSigningInput.challenge(challenge: "", flowID: "f", configID: "c", audience: "a", deviceID: "d").data == nil)
    }

    @Test func signaturesVerifyOnlyForTheirOwnInputAndKey() throws {
        let input = DeviceSigningInput.challenge(
            challenge: "kdc_abc", flowID: "flw_1", configID: "cfg_2", audience: "https://auth.example.com/", deviceID: "dev_3")
        let jwk = ECJWK.publicJWK(for: key.publicKey)
        let stored = String(decoding: try JSONEncoder().encode(jwk), as: UTF8.self)
        let signature = try sign(input)
        #expect(DeviceSignatures.verify(signature, of: input, with: jwk))
        #expect(DeviceSignatures.verify(signature, of: input, storedKey: stored))
        // Another flow, config ID, server or device: refused.
        for other in [
            DeviceSigningInput.challenge(challenge: "kdc_abc", flowID: "flw_X", configID: "cfg_2", audience: "https://auth.example.com/", deviceID: "dev_3"),
            .challenge(challenge: "kdc_abc", flowID: "flw_1", configID: "cfg_X", audience: "https://auth.example.com/", deviceID: "dev_3"),
            .challenge(challenge: "kdc_abc", flowID: "flw_1", configID: "cfg_2", audience: "https://evil.example.com/", deviceID: "dev_3"),
            .challenge(challenge: "kdc_abc", flowID: "flw_1", configID: "cfg_2", audience: "https://auth.example.com/", deviceID: "dev_X"),
            .enrolment(challenge: "kdc_abc", flowID: "flw_1", configID: "cfg_2", audience: "https://auth.example.com/", keyThumbprint: "dev_3"),
        ] {
            #expect(!DeviceSignatures.verify(signature, of: other, with: jwk))
        }
        // Another key, a DER signature, garbage: refused.
        #expect(!DeviceSignatures.verify(try sign(input, with: P256.Signing.PrivateKey()), of: input, with: jwk))
        let der = Base64URL.encode(try key.signature(for: try #require(input.data)).derRepresentation)
        #expect(!DeviceSignatures.verify(der, of: input, with: jwk))
        #expect(!DeviceSignatures.verify("", of: input, with: jwk))
        #expect(!DeviceSignatures.verify(String(repeating: "A", count: 500), of: input, with: jwk))
        #expect(!DeviceSignatures.verify(signature, of: input, storedKey: "{not json"))
    }

    @Test func approvalQRDataRoundTripsAndRefusesAnythingElse() throws {
        let data = ApprovalQRData(
            server: "https://auth.example.com/", configID: "cfg_2", approvalID: "apr_1", flowID: "flw_1",
            secret: "kqr_a-b_c")
        #expect(data.text.hasPrefix("keyway-approve:v1?server=https://auth.example.com/&config=cfg_2"))
        #expect(ApprovalQRData(data.text) == data)
        #expect(ApprovalQRData(" \(data.text)\n") == data)
        #expect(ApprovalQRData("keyway-approve:v1?server=a&config=b&request=c&flow=d") == nil)
        #expect(ApprovalQRData("keyway-approve:v1?server=a&config=b&request=c&flow=d&secret=e&secret=f") == nil)
        #expect(ApprovalQRData("otpauth://totp/x?secret=y") == nil)
    }

    @Test func locationsAreCoarse() {
        #expect(CoarseLocation.of("203.0.113.42") == "203.0.113.x")
        #expect(CoarseLocation.of("2001:db8:1:2::7") == "2001:db8:1::/48")
        #expect(CoarseLocation.of(nil) == nil)
        #expect(CoarseLocation.of("garbage") == nil)
    }

    @Test func devicePoliciesAreValidated() throws {
        func codes(_ policy: ApplicationPolicy) -> [String] {
            do {
                try policy.validate(devMode: true)
                return []
            } catch {
                return error.problems.map(\.code)
            }
        }
        var policy = ApplicationPolicy(primaryMethods: [.emailOtp], mfaMethods: [.totp, .deviceApproval], mfaMode: .required)
        #expect(codes(policy) == ["devices_not_enabled"])
        policy.devices.enabled = true
        #expect(codes(policy) == [])
        policy.mfaMethods = [.deviceApproval]
        #expect(codes(policy).contains("policy_locks_out_users"))
        policy.mfaMethods = [.totp]
        policy.primaryMethods = [.emailOtp, .deviceApproval]
        #expect(codes(policy).contains("invalid_primary_method"))
        policy.primaryMethods = [.emailOtp]
        policy.devices.trustLifetimeDays = 0
        policy.devices.maximumDevices = 101
        policy.devices.approvalLifetimeSeconds = 10
        policy.devices.approvalPollIntervalSeconds = 0
        #expect(
            Set(codes(policy)) == [
                "invalid_trust_lifetime", "invalid_maximum_devices", "invalid_approval_lifetime", "invalid_poll_interval",
            ])
        // Decoding fills the device defaults.
        let decoded = try JSONDecoder().decode(
            ApplicationPolicy.self, from: Data(#"{"primaryMethods":["emailOtp"],"devices":{"enabled":true}}"#.utf8))
        #expect(decoded.devices == DeviceTrustSettings(enabled: true))
        #expect(decoded.devices.trustLifetimeDays == 30 && decoded.devices.whenFull == .evictOldest)
    }
}
