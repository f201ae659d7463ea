import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Passkey settings: the relying party from the issuer, origins, and the policy's checks")
struct PasskeySettingsTests {
    @Test func theDefaultsTakeTheIssuersHostAndOrigin() throws {
        let party = try #require(PasskeySettings().relyingParty(issuer: "https://login.example.com"))
        #expect(party.id == "login.example.com")
        #expect(party.origins == ["https://login.example.com"])
        #expect(party.userVerification == .required)
        #expect(party.attestation == .none)
        #expect(party.allowSyncedPasskeys)
        let local = try #require(PasskeySettings().relyingParty(issuer: "http://localhost:8080"))
        #expect(local.id == "localhost")
        #expect(local.origins == ["http://localhost:8080"])
    }

    @Test func aParentDomainIsAcceptedAndOthersAreNot() throws {
        let parent = PasskeySettings(rpId: "example.com", origins: ["https://app.example.com", "ios:bundle-id:com.example.app"])
        let party = try #require(parent.relyingParty(issuer: "https://login.example.com"))
        #expect(party.id == "example.com")
        #expect(party.origins == ["https://login.example.com", "https://app.example.com", "ios:bundle-id:com.example.app"])
        // Another site, a top-level domain, a suffix that is not at a label boundary.
        #expect(PasskeySettings(rpId: "example.org").relyingParty(issuer: "https://login.example.com") == nil)
        #expect(PasskeySettings(rpId: "com").relyingParty(issuer: "https://login.example.com") == nil)
        #expect(PasskeySettings(rpId: "ample.com").relyingParty(issuer: "https://login.example.com") == nil)
        #expect(PasskeySettings(rpId: "login.example.com").relyingParty(issuer: "https://example.com") == nil)
    }

    @Test func theSettingsAreChecked() {
        #expect(PasskeySettings().problems().isEmpty)
        let codes = { (settings: PasskeySettings) in settings.problems().map(\.code) }
        #expect(codes(PasskeySettings(rpId: "Example.com")) == ["passkey_invalid_rp_id"])
        #expect(codes(PasskeySettings(rpId: "https://example.com")) == ["passkey_invalid_rp_id"])
        #expect(codes(PasskeySettings(rpId: "192.168.1.1")) == ["passkey_invalid_rp_id"])
        #expect(codes(PasskeySettings(rpId: "example.com", origins: ["https://evil.test"])) == ["passkey_invalid_origin"])
        #expect(codes(PasskeySettings(origins: ["http://app.example.com"])) == ["passkey_invalid_origin"])
        #expect(codes(PasskeySettings(origins: ["https://app.example.com/path"])) == ["passkey_invalid_origin"])
        #expect(codes(PasskeySettings(origins: ["ios:bundle-id:"])) == ["passkey_invalid_origin"])
        #expect(codes(PasskeySettings(origins: ["http://localhost:3000", "ios:bundle-id:com.example.app"])).isEmpty)
        #expect(codes(PasskeySettings(userVerification: "discouraged")) == ["passkey_invalid_user_verification"])
        #expect(codes(PasskeySettings(attestation: "enterprise")) == ["passkey_invalid_attestation"])
        #expect(
            codes(PasskeySettings(origins: (0..<21).map { "https://a\($0).example.com" })) == ["passkey_too_many_origins"])
    }

    @Test func thePolicyChecksThemOnlyWhereItUsesPasskeys() throws {
        var policy = ApplicationPolicy(primaryMethods: [.emailOtp])
        policy.passkeys = PasskeySettings(userVerification: "sometimes")
        #expect(throws: PolicyError.self) { try policy.validate(devMode: false) }
        policy.passkeys = nil
        policy.primaryMethods = [.passkey, .emailOtp]
        try policy.validate(devMode: false)
        // A passkey bootstraps an account only through a sign-up.
        policy.primaryMethods = [.passkey]
        #expect(throws: PolicyError.self) { try policy.validate(devMode: false) }
        policy.flowTypes = [.signin, .signup]
        try policy.validate(devMode: false)
    }

    @Test func thePolicyKeepsItsPasskeySettingsAsJSON() throws {
        let json = #"{"primaryMethods":["passkey","emailOtp"],"passkeys":{"rpId":"example.com","offerAfterSignIn":true}}"#
        let policy = try JSONDecoder().decode(ApplicationPolicy.self, from: Data(json.utf8))
        #expect(policy.passkeys == PasskeySettings(rpId: "example.com", offerAfterSignIn: true))
        let again = try JSONDecoder().decode(ApplicationPolicy.self, from: JSONEncoder().encode(policy))
        #expect(again == policy)
    }
}
