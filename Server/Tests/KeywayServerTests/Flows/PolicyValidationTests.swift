import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Application policy validation")
struct PolicyValidationTests {
    /// The codes `policy` is refused with (empty when it is accepted).
    private func codes(_ policy: ApplicationPolicy, devMode: Bool = true) -> [String] {
        do {
            try policy.validate(devMode: devMode)
            return []
        } catch {
            return error.codes
        }
    }

    private let webhook = WebhookSettings(url: "https://hooks.example.com/sms", signingSecret: String(repeating: "s", count: 32))

    @Test func defaultPolicyIsTodaysBehaviourAndValid() {
        let policy = ApplicationPolicy.default(flowTypes: [.signin])
        #expect(policy.primaryMethods == [.emailOtp])
        #expect(policy.mfaMode == .off)
        #expect(policy.flowTypes == [.signin])
        #expect(policy.signup == SignupSettings())
        #expect(policy.password.minimumLength == 10)
        #expect(codes(policy, devMode: false).isEmpty)
        #expect(ApplicationPolicy.default(flowTypes: [.accountManage, .signup, .signin]).flowTypes == [.signin, .signup, .accountManage])
    }

    @Test func decodingFillsDefaultsAndRoundTrips() throws {
        let policy = try JSONDecoder().decode(ApplicationPolicy.self, from: Data(#"{"primaryMethods": ["emailOtp"]}"#.utf8))
        #expect(policy == ApplicationPolicy(primaryMethods: [.emailOtp]))
        var full = ApplicationPolicy(
            primaryMethods: [.emailOtp, .password], mfaMethods: [.totp], mfaMode: .required, flowTypes: [.signin, .signup],
            signup: SignupSettings(
                requireInviteCode: true,
                profileFields: [PolicyFormField(name: "plan", kind: .select, label: "Plan", required: true, options: ["a", "b"])],
                termsOfServiceURL: "https://example.com/terms")
        ).with(PasswordSettings(minimumLength: 12))
        full.delivery.sms = webhook
        let decoded = try JSONDecoder().decode(ApplicationPolicy.self, from: JSONEncoder().encode(full))
        #expect(decoded == full)
        #expect(full.masked.delivery.sms?.signingSecret == WebhookSettings.maskedSecret)
        #expect(full.masked.delivery.sms?.url == webhook.url)
    }

    @Test func appAttestNeedsAppIDsAndSomethingToProve() throws {
        let devices = DeviceTrustSettings(enabled: true)
        func policy(_ settings: AppAttestSettings, devices: DeviceTrustSettings = devices) -> ApplicationPolicy {
            ApplicationPolicy(primaryMethods: [.emailOtp], appAttest: settings).with(devices)
        }
        #expect(codes(policy(AppAttestSettings(enabled: true, appIDs: ["ABCDE12345.com.example.app"]))) == [])
        #expect(codes(policy(AppAttestSettings(enabled: true))) == ["app_attest_app_ids"])
        #expect(
            codes(policy(AppAttestSettings(enabled: true, appIDs: ["abcde12345.com.example", "ABCDE12345", "X.com.a"])))
                == ["invalid_app_id", "invalid_app_id", "invalid_app_id"])
        #expect(
            codes(policy(AppAttestSettings(enabled: true, appIDs: ["ABCDE12345.com.a"], deviceEnrolment: false)))
                == ["app_attest_unused"])
        #expect(
            codes(policy(AppAttestSettings(enabled: true, appIDs: ["ABCDE12345.com.a"]), devices: DeviceTrustSettings()))
                == ["devices_not_enabled"])
        // Disabled settings are not checked; missing fields decode to the defaults.
        #expect(codes(policy(AppAttestSettings(enabled: false))) == [])
        let decoded = try JSONDecoder().decode(
            ApplicationPolicy.self,
            from: Data(#"{"primaryMethods":["emailOtp"],"appAttest":{"enabled":true,"appIDs":["ABCDE12345.com.a"]}}"#.utf8))
        #expect(decoded.appAttest == AppAttestSettings(enabled: true, appIDs: ["ABCDE12345.com.a"]))
        #expect(decoded.appAttest.whenUnavailable == .allowUnattested && decoded.appAttest.environment == .production)
    }

    @Test func primaryMethodsMustNotBeEmptyOrRepeated() {
        #expect(codes(ApplicationPolicy(primaryMethods: [])) == ["no_primary_method"])
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp, .emailOtp])) == ["duplicate_method"])
    }

    @Test func totpAloneLocksEveryoneOut() {
        #expect(codes(ApplicationPolicy(primaryMethods: [.totp])) == ["policy_locks_out_users"])
        #expect(codes(ApplicationPolicy(primaryMethods: [.totp], flowTypes: [.signin, .signup])) == ["policy_locks_out_users"])
        #expect(codes(ApplicationPolicy(primaryMethods: [.totp, .emailOtp])).isEmpty)
    }

    @Test func passwordAloneNeedsSignup() {
        #expect(codes(ApplicationPolicy(primaryMethods: [.password])) == ["policy_locks_out_users"])
        #expect(codes(ApplicationPolicy(primaryMethods: [.password, .totp])) == ["policy_locks_out_users"])
        #expect(codes(ApplicationPolicy(primaryMethods: [.password], flowTypes: [.signin, .signup])).isEmpty)
        #expect(codes(ApplicationPolicy(primaryMethods: [.password, .emailOtp])).isEmpty)
    }

    @Test func lockOutMessageIsASentence() throws {
        do {
            try ApplicationPolicy(primaryMethods: [.totp]).validate(devMode: true)
            Issue.record("A TOTP-only policy was accepted.")
        } catch {
            let problem = try #require(error.problems.first)
            #expect(problem.field == "primaryMethods")
            #expect(problem.message.contains("lock every user out"))
        }
    }

    /// The lock-out sentences name the methods as the methods describe themselves: which work
    /// from the first visit, which a sign-up sets up, which only a signed-in user can.
    @Test func lockOutMessagesNameTheMethodsByWhatTheyNeed() throws {
        func message(_ policy: ApplicationPolicy) -> String? {
            do {
                try policy.validate(devMode: true)
                return nil
            } catch {
                return error.problems.first { $0.code == "policy_locks_out_users" }?.message
            }
        }
        let closed = try #require(message(ApplicationPolicy(primaryMethods: [.password, .passkey, .totp])))
        #expect(closed.contains("with sign-up closed no one can ever set up password or passkey"))
        #expect(closed.contains("and totp can only be set up after signing in"))
        #expect(closed.contains("Add emailOtp, smsOtp or signInLink, or open signup."))
        let totp = try #require(message(ApplicationPolicy(primaryMethods: [.totp], flowTypes: [.signin, .signup])))
        #expect(totp.contains("totp can only be set up after signing in, so cannot be the only way to sign in"))
        #expect(totp.contains("(or passkey or password with signup open)"))
    }

    @Test func signinMustStayOpenAndFlowTypesBeKnown() {
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp], flowTypes: [.signup])) == ["signin_not_enabled"])
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp], flowTypes: [])) == ["signin_not_enabled"])
        #expect(
            codes(ApplicationPolicy(primaryMethods: [.emailOtp], flowTypes: [.signin, FlowType(rawValue: "teleport")]))
                == ["unknown_flow_type"])
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp], flowTypes: [.signin, .signin])) == ["duplicate_flow_type"])
    }

    @Test func mfaModeNeedsMethods() {
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp], mfaMode: .required)) == ["no_mfa_method"])
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp], mfaMode: .optional)) == ["no_mfa_method"])
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp], mfaMethods: [.totp], mfaMode: .required)).isEmpty)
        // Methods listed while MFA is off are ignored.
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp], mfaMethods: [.emailOtp], mfaMode: .off)).isEmpty)
    }

    @Test func passwordIsNoSecondFactor() {
        #expect(
            codes(ApplicationPolicy(primaryMethods: [.emailOtp], mfaMethods: [.password, .totp], mfaMode: .required))
                == ["invalid_mfa_method"])
        #expect(
            codes(ApplicationPolicy(primaryMethods: [.emailOtp], mfaMethods: [.password], mfaMode: .required))
                == ["invalid_mfa_method", "no_mfa_method"])
    }

    @Test func secondFactorMustDifferFromThePrimary() {
        #expect(
            codes(ApplicationPolicy(primaryMethods: [.emailOtp], mfaMethods: [.emailOtp], mfaMode: .required))
                == ["mfa_same_as_primary"])
        // A user signing in by email code would have no other second factor.
        #expect(
            codes(ApplicationPolicy(primaryMethods: [.emailOtp, .password], mfaMethods: [.emailOtp], mfaMode: .optional))
                == ["mfa_same_as_primary"])
        #expect(
            codes(ApplicationPolicy(primaryMethods: [.emailOtp, .smsOtp], mfaMethods: [.emailOtp, .smsOtp], mfaMode: .required))
                .isEmpty)
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp], mfaMethods: [.emailOtp, .totp], mfaMode: .required)).isEmpty)
    }

    @Test func smsNeedsAWebhookOutsideDevMode() {
        let policy = ApplicationPolicy(primaryMethods: [.smsOtp])
        #expect(codes(policy, devMode: true).isEmpty)
        #expect(codes(policy, devMode: false) == ["sms_delivery_missing"])
        let asSecondFactor = ApplicationPolicy(primaryMethods: [.emailOtp], mfaMethods: [.smsOtp], mfaMode: .optional)
        #expect(codes(asSecondFactor, devMode: false) == ["sms_delivery_missing"])
        var configured = policy
        configured.delivery.sms = webhook
        #expect(codes(configured, devMode: false).isEmpty)
    }

    @Test func signInLinkSettingsAreChecked() throws {
        var policy = ApplicationPolicy(primaryMethods: [.signInLink])
        #expect(codes(policy, devMode: false).isEmpty)
        policy.signInLink = SignInLinkSettings(linkBase: "https://app.example.com/link", pollIntervalSeconds: 5)
        #expect(codes(policy, devMode: false).isEmpty)
        policy.signInLink = SignInLinkSettings(channels: [CodeChannel(rawValue: "voice"), .email, .email], linkBase: "http://app.example.com/link?x=1", pollIntervalSeconds: 0)
        #expect(
            codes(policy) == [
                "sign_in_link_channel_unsupported", "sign_in_link_duplicate_channel", "sign_in_link_invalid_base",
                "sign_in_link_invalid_poll_interval",
            ])
        policy.signInLink = SignInLinkSettings(channels: [])
        #expect(codes(policy) == ["sign_in_link_no_channel"])
        // By SMS: in dev mode (the outbox), or with SMS delivery.
        policy.signInLink = SignInLinkSettings(channels: [.email, .sms])
        #expect(codes(policy).isEmpty)
        #expect(codes(policy, devMode: false) == ["sms_delivery_missing"])
        policy.delivery.sms = webhook
        #expect(codes(policy, devMode: false).isEmpty)
        // The settings round-trip through the policy's JSON, and their members default.
        let decoded = try JSONDecoder().decode(
            ApplicationPolicy.self, from: Data(#"{"primaryMethods": ["signInLink"], "signInLink": {}}"#.utf8))
        #expect(decoded.signInLink == SignInLinkSettings())
        let encoded = try JSONEncoder().encode(policy)
        #expect(try JSONDecoder().decode(ApplicationPolicy.self, from: encoded) == policy)
    }

    @Test func webhookSettingsAreChecked() {
        var policy = ApplicationPolicy(primaryMethods: [.emailOtp])
        policy.delivery.email = WebhookSettings(url: "ftp://hooks.example.com", signingSecret: "short", timeoutSeconds: 0)
        policy.delivery.sms = WebhookSettings(url: "/relative", signingSecret: String(repeating: "x", count: 32), timeoutSeconds: 31)
        #expect(
            codes(policy) == [
                "invalid_webhook_url", "invalid_webhook_timeout", "invalid_webhook_url", "webhook_secret_too_short",
                "invalid_webhook_timeout",
            ])
    }

    @Test func passwordMinimumLength() {
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp]).with(PasswordSettings(minimumLength: 7))) == ["invalid_password_length"])
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp]).with(PasswordSettings(minimumLength: 8))).isEmpty)
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp]).with(PasswordSettings(minimumLength: 129))) == ["invalid_password_length"])
    }

    @Test func signupSettingsNeedSignup() {
        let signup = SignupSettings(
            requireInviteCode: true, profileFields: [PolicyFormField(name: "team", kind: .text, label: "Team")],
            termsOfServiceURL: "https://example.com/terms")
        #expect(
            codes(ApplicationPolicy(primaryMethods: [.emailOtp], signup: signup))
                == ["signup_not_enabled", "signup_not_enabled", "signup_not_enabled"])
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp], flowTypes: [.signin, .signup], signup: signup)).isEmpty)
        let badTerms = SignupSettings(termsOfServiceURL: "not a url")
        #expect(codes(ApplicationPolicy(primaryMethods: [.emailOtp], flowTypes: [.signin, .signup], signup: badTerms)) == ["invalid_url"])
    }

    @Test func profileFieldRules() {
        func fieldCodes(_ fields: [PolicyFormField]) -> [String] {
            codes(
                ApplicationPolicy(
                    primaryMethods: [.emailOtp], flowTypes: [.signin, .signup], signup: SignupSettings(profileFields: fields)))
        }
        #expect(fieldCodes([PolicyFormField(name: "1st", kind: .text, label: "First")]) == ["invalid_field_name"])
        #expect(fieldCodes([PolicyFormField(name: "has space", kind: .text, label: "x")]) == ["invalid_field_name"])
        #expect(fieldCodes([PolicyFormField(name: String(repeating: "a", count: 65), kind: .text, label: "x")]) == ["invalid_field_name"])
        #expect(
            fieldCodes([PolicyFormField(name: "team", kind: .text, label: "Team"), PolicyFormField(name: "team", kind: .email, label: "Team")])
                == ["duplicate_field_name"])
        #expect(fieldCodes([PolicyFormField(name: "plan", kind: .select, label: "Plan")]) == ["missing_field_options"])
        #expect(fieldCodes([PolicyFormField(name: "plan", kind: .select, label: "Plan", options: [])]) == ["missing_field_options"])
        #expect(fieldCodes([PolicyFormField(name: "plan", kind: .select, label: "Plan", options: ["a", "a"])]) == ["duplicate_field_option"])
        #expect(fieldCodes([PolicyFormField(name: "team", kind: .text, label: "Team", options: ["a"])]) == ["unexpected_field_options"])
        #expect(fieldCodes([PolicyFormField(name: "team", kind: .text)]) == ["missing_field_label"])
        #expect(fieldCodes([PolicyFormField(name: "team", kind: .text, label: "  ")]) == ["missing_field_label"])
        #expect(fieldCodes([PolicyFormField(name: "source", kind: .hidden)]).isEmpty)
        #expect(fieldCodes([PolicyFormField(name: "team", kind: .text, label: "Team", maxLength: 0)]) == ["invalid_field_max_length"])
        #expect(fieldCodes([PolicyFormField(name: "team", kind: .text, label: "Team", pattern: "[a-")]) == ["invalid_field_pattern"])
        #expect(
            fieldCodes([
                PolicyFormField(name: "team", kind: .text, label: "Team", pattern: "^[a-z]+$", maxLength: 40),
                PolicyFormField(name: "phone_2", kind: .phone, label: "Phone", placeholder: "+44…"),
                PolicyFormField(name: "news", kind: .checkbox, label: "Send me news"),
            ]).isEmpty)
    }

    @Test func everyProblemIsReportedAtOnce() {
        let policy = ApplicationPolicy(
            primaryMethods: [.totp], mfaMode: .required, flowTypes: [.accountManage]
        ).with(PasswordSettings(minimumLength: 4))
        #expect(
            codes(policy, devMode: false) == [
                "signin_not_enabled", "policy_locks_out_users", "no_mfa_method", "invalid_password_length",
            ])
    }
}
