import Crypto
import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Flow building blocks: identifiers, the sign-up form, sealed secrets, policies")
struct FlowBuildingBlockTests {
    @Test func identifiersAreEmailAddressesOrE164PhoneNumbers() {
        #expect(Identifier(parsing: "  Ada@Example.COM ") == .email("ada@example.com"))
        #expect(Identifier(parsing: "+1 (415) 555-0123") == .phone("+14155550123"))
        #expect(Identifier(parsing: "4155550123") == nil)
        #expect(Identifier(parsing: "not an address") == nil)
        #expect(Identifier(parsing: "") == nil)
        #expect(Identifier(stored: "+14155550123").phone == "+14155550123")
        #expect(Identifier(stored: "ada@example.com").email == "ada@example.com")
        #expect(Identifier.phone("+14155550123").masked == "+1••••••••23")
    }

    private func policy(terms: String? = "https://example.com/terms") -> FlowPolicy {
        var policy = FlowPolicy(flowTypes: [.signin, .signup])
        policy.profileFields = [
            Field(name: "displayName", type: .text, required: true, label: "Name", maxLength: 20),
            Field(
                name: "plan", type: .select, required: true,
                options: [FieldOption(value: "free", label: "Free"), FieldOption(value: "team", label: "Team")]),
            Field(name: "contact", type: .email, required: false),
            Field(name: "phone", type: .phone, required: false),
            Field(name: "newsletter", type: .checkbox, required: false),
            Field(name: "source", type: .hidden, required: false, value: "campaign-7"),
            Field(name: "code", type: .text, required: false, pattern: "[A-Z]{3}"),
        ]
        policy.termsOfServiceURL = terms
        return policy
    }

    @Test func theFormKeepsValidAnswersAndTheHiddenValue() {
        let (answers, problems) = SignupForm.check(
            [
                "displayName": " Ada ", "plan": "team", "contact": "ada@example.com", "newsletter": "yes",
                "acceptTerms": "true", "source": "forged", "code": "ABC",
            ], policy: policy())
        #expect(problems.isEmpty)
        #expect(
            answers == [
                "displayName": "Ada", "plan": "team", "contact": "ada@example.com", "newsletter": "true",
                "source": "campaign-7", "code": "ABC",
            ])
    }

    @Test func theFormAnswersEveryWrongFieldAtOnce() {
        let (_, problems) = SignupForm.check(
            [
                "displayName": String(repeating: "x", count: 21), "plan": "gold", "contact": "nope", "phone": "123",
                "newsletter": "maybe", "code": "abc", "extra": "1",
            ], policy: policy())
        #expect(
            problems.map(\.name) == [
                "displayName", "plan", "contact", "phone", "newsletter", "code", "acceptTerms", "extra",
            ])
        let (_, missing) = SignupForm.check([:], policy: policy(terms: nil))
        #expect(missing.map(\.name) == ["displayName", "plan"])
        #expect(SignupForm.fields(for: policy(terms: nil)).map(\.name).contains("acceptTerms") == false)
    }

    @Test func sealedSecretsOpenOnlyWithTheirKeyAndPurpose() throws {
        let box = SecretBox(key: SymmetricKey(size: .bits256))
        let secret = OneTimePassword.newSecret()
        let sealed = try box.seal(secret, purpose: "totp")
        #expect(sealed.hasPrefix("v1."))
        #expect(try box.open(sealed, purpose: "totp") == secret)
        #expect(throws: (any Error).self) { try box.open(sealed, purpose: "invite:flw_1") }
        #expect(throws: (any Error).self) { try SecretBox(key: SymmetricKey(size: .bits256)).open(sealed, purpose: "totp") }
        var tampered = Array(sealed)
        tampered[tampered.count - 2] = tampered[tampered.count - 2] == "A" ? "B" : "A"
        #expect(throws: (any Error).self) { try box.open(String(tampered), purpose: "totp") }
        #expect(throws: (any Error).self) { try box.open("v0.garbage", purpose: "totp") }
        // Two seals of one secret differ (fresh nonces).
        #expect(try box.seal(secret, purpose: "totp") != sealed)
    }

    @Test func storedPoliciesBecomeTheEnginesView() {
        let application = ApplicationRecord(
            id: "app_1", projectId: "prj_1", configId: "cfg_1", name: "App", clientType: .public,
            clientSecretHash: nil, flowTypes: [.signin], autoCreateUsers: true, isDev: false, createdAt: 0)
        let stored = ApplicationPolicy(
            primaryMethods: [.emailOtp, .password], mfaMethods: [.totp], mfaMode: .required,
            flowTypes: [.signin, .signup],
            signup: SignupSettings(
                requireInviteCode: true,
                profileFields: [PolicyFormField(name: "plan", kind: .select, required: true, options: ["a", "b"])],
                termsOfServiceURL: "https://example.com/terms")
        ).with(PasswordSettings(minimumLength: 12))
        let view = FlowPolicy(stored, application: application)
        #expect(view.primaryMethods == [.emailOtp, .password])
        #expect(view.mfaMethods == [.totp])
        #expect(view.mfaMode == .required)
        #expect(view.flowTypes == [.signin, .signup])
        #expect(view.requireInviteCode)
        #expect(view.profileFields.first?.type == .select)
        #expect(view.profileFields.first?.options?.map(\.value) == ["a", "b"])
        #expect(view.passwordMinimumLength == 12)
        // With sign-up open, accounts come from sign-ups only.
        #expect(!view.autoCreateUsers)
        #expect(view.hasSignupForm)
        let defaults = FlowPolicy.defaults(for: application)
        #expect(defaults.primaryMethods == [.emailOtp])
        #expect(defaults.mfaMode == .off)
        #expect(defaults.autoCreateUsers)
    }
}
