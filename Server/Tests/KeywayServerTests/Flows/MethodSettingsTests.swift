import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

/// Each method's settings live in the policy under the method's own key: the policy reads, writes
/// and compares them without naming them, and its JSON is the one the admin API always had.
@Suite("Method settings in the policy, by key")
struct MethodSettingsTests {
    static func object(_ policy: ApplicationPolicy) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: JSONEncoder().encode(policy)) as? [String: Any])
    }

    @Test func theRegistryListsEachMethodsSettingsOnce() {
        let keys = MethodSettingsTable.known.map { $0.policyKey }
        #expect(Set(keys) == ["password", "devices", "federation", "signInLink", "passkeys"])
        #expect(keys.count == Set(keys).count)
    }

    @Test func settingsWithDefaultsAreAlwaysShownAndOptionalOnesOnlyWhenSet() throws {
        let plain = try Self.object(ApplicationPolicy(primaryMethods: [.emailOtp]))
        for key in ["password", "devices", "federation", "primaryMethods", "delivery", "appAttest", "guests"] {
            #expect(plain[key] != nil, "\(key) is missing")
        }
        #expect(plain["passkeys"] == nil)
        #expect(plain["signInLink"] == nil)

        var policy = ApplicationPolicy(primaryMethods: [.emailOtp, .passkey])
        policy.passkeys = PasskeySettings(rpId: "example.com", offerAfterSignIn: true)
        policy.password.minimumLength = 14
        let object = try Self.object(policy)
        #expect((object["passkeys"] as? [String: Any])?["rpId"] as? String == "example.com")
        #expect((object["password"] as? [String: Any])?["minimumLength"] as? Int == 14)
        let decoded = try JSONDecoder().decode(ApplicationPolicy.self, from: JSONEncoder().encode(policy))
        #expect(decoded == policy)
        #expect(decoded.passkeys?.offerAfterSignIn == true)
        #expect(decoded != ApplicationPolicy(primaryMethods: [.emailOtp, .passkey]), "Settings take part in equality.")
    }

    @Test func unknownKeysAreIgnoredAndSettingsDecodeUnderTheirKeys() throws {
        let json = #"""
            {"primaryMethods": ["signInLink"], "colour": {"x": 1},
             "signInLink": {"channels": ["email"]}, "devices": {"enabled": true}}
            """#
        let policy = try JSONDecoder().decode(ApplicationPolicy.self, from: Data(json.utf8))
        #expect(policy.signInLink != nil)
        #expect(policy.devices.enabled)
        #expect(policy.passkeys == nil)
        #expect(try Self.object(policy)["colour"] == nil)
    }

    @Test func withReplacesOneMethodsSettings() {
        let policy = ApplicationPolicy(primaryMethods: [.emailOtp]).with(DeviceTrustSettings(enabled: true))
        #expect(policy.devices.enabled)
        #expect(policy.password == PasswordSettings())
    }
}
