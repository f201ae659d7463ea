import Crypto
import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

@Suite("App Attest: attested device enrolment and DPoP binding, with the fallback for devices that cannot attest")
struct AppAttestTests {
    static let appID = "ABCDE12345.com.example.shop"

    /// Devices trusted after an authenticator code; App Attest for enrolment, with `fallback`.
    static func enrolmentPolicy(fallback: String) -> [String: Any] {
        var policy = AdaptiveHarness.deviceTrustPolicy
        policy["appAttest"] = [
            "enabled": true, "appIDs": [appID], "deviceEnrolment": true, "whenUnavailable": fallback,
        ]
        return policy
    }

    static var dpopPolicy: [String: Any] {
        [
            "primaryMethods": ["emailOtp"],
            "appAttest": [
                "enabled": true, "appIDs": [appID], "deviceEnrolment": false, "dpopBinding": true,
                "whenUnavailable": "refuse",
            ],
        ]
    }

    /// A device whose keys claim the Secure Enclave, with App Attest from `provider`.
    func sdk(_ harness: AdaptiveHarness, provider: TestAppAttestProvider?, dpopKey: P256.Signing.PrivateKey? = nil)
        throws -> KeywayClient
    {
        let storage = InMemorySecureStorage()
        var options = KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: harness.clock, dpopKey: dpopKey)
        options.deviceTrust = DeviceTrustOptions(
            appIdentifier: "com.example.shop", storage: storage,
            keyStore: ClaimingHardwareKeyStore(inner: SoftwareDeviceKeyStore(storage: storage)), deviceName: "Phone")
        options.appAttest = provider.map { AppAttestOptions(provider: $0, storage: storage) }
        return try KeywayClient(configID: TestServer.configId, baseURL: harness.server.baseURL, options: options)
    }

    @Test func anAttestedEnrolmentIsHardwareBackedAndSignsInWithHwk() async throws {
        let authority = try TestAppAttestAuthority()
        try await withTestServer(
            AdaptiveHarness.start(policy: Self.enrolmentPolicy(fallback: "refuse"), appAttestRoots: [authority.rootPEM])
        ) { harness in
            let provider = TestAppAttestProvider(authority: authority, appID: Self.appID)
            let keyway = try sdk(harness, provider: provider)
            _ = try await harness.signInSettingUpTotp(keyway, email: "attested@example.com")
            let first = try await harness.tokens(keyway)
            #expect(try #require(await keyway.trustedDeviceID(for: "attested@example.com")).hasPrefix("dev_"))
            let listed = try await keyway.session(holding: first).trustedDevices()
            #expect(listed.first?.hardwareBacked == true)
            #expect(await provider.attestations == 1)
            #expect(await provider.assertions == 1)

            // The device proves itself next time: a hardware-backed key, `hwk`.
            harness.clock.advance(by: 60)
            try await harness.signInWithCode(keyway, email: "attested@example.com")
            let second = try await harness.tokens(keyway)
            #expect(second.idToken.authenticationMethods == ["otp", "hwk", "mfa"])
        }
    }

    @Test func withoutAttestationTheClaimOfHardwareIsNotBelieved() async throws {
        let authority = try TestAppAttestAuthority()
        try await withTestServer(
            AdaptiveHarness.start(
                policy: Self.enrolmentPolicy(fallback: "allowUnattested"), appAttestRoots: [authority.rootPEM])
        ) { harness in
            // No App Attest at all, and a device that claims App Attest but is not supported.
            let unsupported = TestAppAttestProvider(authority: authority, appID: Self.appID, isSupported: false)
            for (index, provider) in [nil, unsupported].enumerated() {
                let email = "plain\(index)@example.com"
                let keyway = try sdk(harness, provider: provider)
                _ = try await harness.signInSettingUpTotp(keyway, email: email)
                let tokens = try await harness.tokens(keyway)
                #expect(await keyway.trustedDeviceID(for: email) != nil)
                let listed = try await keyway.session(holding: tokens).trustedDevices()
                #expect(listed.first?.hardwareBacked == false, "the client said true; only an assertion makes it so")
            }
            #expect(await unsupported.attestations == 0)
        }
    }

    @Test func aRefusingPolicyEnrolsOnlyAttestedDevicesAndTheSignInStillCompletes() async throws {
        let authority = try TestAppAttestAuthority()
        let stranger = try TestAppAttestAuthority(name: "Not Apple")
        try await withTestServer(
            AdaptiveHarness.start(policy: Self.enrolmentPolicy(fallback: "refuse"), appAttestRoots: [authority.rootPEM])
        ) { harness in
            let cases: [(String, TestAppAttestProvider?)] = [
                ("none@example.com", nil),
                // Keys attested under a root the server does not trust are never registered.
                ("forged@example.com", TestAppAttestProvider(authority: stranger, appID: Self.appID)),
                // Keys of another app.
                ("other@example.com", TestAppAttestProvider(authority: authority, appID: "ZZZZZ99999.com.other.app")),
            ]
            for (email, provider) in cases {
                let keyway = try sdk(harness, provider: provider)
                _ = try await harness.signInSettingUpTotp(keyway, email: email)
                let tokens = try await harness.tokens(keyway)
                #expect(await keyway.trustedDeviceID(for: email) == nil, "\(email)")
                #expect(try await keyway.session(holding: tokens).trustedDevices().isEmpty)
                #expect(tokens.idToken.authenticationMethods == ["otp", "mfa"])
            }
            let logs = harness.server.logs.all.joined(separator: "\n")
            #expect(logs.contains("untrusted_certificate"))
            #expect(logs.contains("app_id_mismatch"))
        }
    }

    @Test func dpopBoundTokensOnlyForAttestedAppInstances() async throws {
        let authority = try TestAppAttestAuthority()
        try await withTestServer(
            AdaptiveHarness.start(policy: Self.dpopPolicy, appAttestRoots: [authority.rootPEM])
        ) { harness in
            let provider = TestAppAttestProvider(authority: authority, appID: Self.appID)
            let key = P256.Signing.PrivateKey()
            let attested = try sdk(harness, provider: provider, dpopKey: key)
            try await harness.signInWithCode(attested, email: "bound@example.com")
            let tokens = try await harness.tokens(attested)
            #expect(tokens.response.tokenType == "DPoP")
            // A second redemption, with the same key: the counter moves on.
            try await harness.signInWithCode(attested, email: "bound@example.com")
            _ = try await harness.tokens(attested)
            #expect(await provider.attestations == 1)
            #expect(await provider.assertions == 2)

            // Without App Attest, or without DPoP, no tokens.
            let plain = try sdk(harness, provider: nil, dpopKey: P256.Signing.PrivateKey())
            try await harness.signInWithCode(plain, email: "plain@example.com")
            await #expect(throws: KeywayError.self) { try await harness.tokens(plain) }
            let bearer = try sdk(harness, provider: TestAppAttestProvider(authority: authority, appID: Self.appID))
            try await harness.signInWithCode(bearer, email: "bearer@example.com")
            do {
                _ = try await harness.tokens(bearer)
                Issue.record("a code was redeemed without DPoP")
            } catch KeywayError.oauth(_, let error) {
                #expect(error.error == "unauthorized_client")
                #expect(error.errorDescription?.contains("App Attest required") == true)
            }

            // A copy of the key on another device repeats counters: its second assertion is refused.
            let cloned = TestAppAttestProvider(authority: authority, appID: Self.appID, repeatsCounter: true)
            let copy = try sdk(harness, provider: cloned, dpopKey: P256.Signing.PrivateKey())
            try await harness.signInWithCode(copy, email: "copy@example.com")
            _ = try await harness.tokens(copy)
            try await harness.signInWithCode(copy, email: "copy@example.com")
            do {
                _ = try await harness.tokens(copy)
                Issue.record("a repeated counter was accepted")
            } catch KeywayError.oauth(_, let error) {
                #expect(error.error == "unauthorized_client")
                #expect(error.errorDescription?.contains("counter_not_increasing") == true)
            }
        }
    }

    @Test func registrationChecksItsChallengeOverHTTP() async throws {
        let authority = try TestAppAttestAuthority()
        try await withTestServer(
            AdaptiveHarness.start(policy: Self.dpopPolicy, appAttestRoots: [authority.rootPEM])
        ) { harness in
            let server = harness.server
            let headers = [ProtocolHeader.configID: TestServer.configId, "Content-Type": "application/json"]
            func challenge() async throws -> String {
                let response = try await server.request("POST", "/v1/app-attest/challenges", headers: headers)
                #expect(response.status == 201)
                return try WireCoding.makeDecoder().decode(AppAttestChallenge.self, from: response.body).challenge
            }
            func register(_ key: TestAppAttestAuthority.Key, challenge: String, attestedFor: String? = nil) async throws
                -> (status: Int, body: String)
            {
                let object = try authority.attestation(
                    of: key, clientDataHash: Data(SHA256.hash(data: Data((attestedFor ?? challenge).utf8))),
                    appID: Self.appID)
                let body = try JSONEncoder().encode(
                    AppAttestKeyRequest(keyID: key.idString, attestation: Base64URL.encode(object), challenge: challenge))
                let response = try await server.request("POST", "/v1/app-attest/keys", headers: headers, body: body)
                return (response.status, String(decoding: response.body, as: UTF8.self))
            }
            let key = TestAppAttestAuthority.Key()
            let first = try await challenge()
            #expect(try await register(key, challenge: first).status == 201)
            // Single use.
            let again = try await register(key, challenge: first)
            #expect(again.status == 400 && again.body.contains("invalid_app_attest") && again.body.contains("new one"))
            // Attested for another challenge: the nonce does not match.
            let second = try await challenge()
            let mismatched = try await register(key, challenge: second, attestedFor: "something else")
            #expect(mismatched.status == 400 && mismatched.body.contains("nonce_mismatch"))
            // Expired.
            let third = try await challenge()
            harness.clock.advance(by: 6 * 60)
            #expect(try await register(key, challenge: third).status == 400)
            // Malformed input and a missing config ID.
            let malformed = try await server.request(
                "POST", "/v1/app-attest/keys", headers: headers,
                body: Data(#"{"keyId":"short","attestation":"!!","challenge":"x"}"#.utf8))
            #expect(malformed.status == 400 && String(decoding: malformed.body, as: UTF8.self).contains("keyId"))
            let anonymous = try await server.request("POST", "/v1/app-attest/challenges")
            #expect(anonymous.status == 400)
        }
    }

    @Test func challengesCountAgainstTheAddressLimit() async throws {
        var limits = FlowLimits()
        limits.rateLimits.flowStartsPerAddress = 3
        try await withTestServer(AdaptiveHarness.start(policy: Self.dpopPolicy, limits: limits)) { harness in
            var statuses: [Int] = []
            for _ in 0..<4 {
                let response = try await harness.server.request(
                    "POST", "/v1/app-attest/challenges", headers: [ProtocolHeader.configID: TestServer.configId])
                statuses.append(response.status)
                if response.status == 429 {
                    #expect(String(decoding: response.body, as: UTF8.self).contains("rate_limited"))
                    #expect(response.headers["retry-after"] != nil || response.headers["Retry-After"] != nil)
                }
            }
            #expect(statuses == [201, 201, 201, 429])
        }
    }

    @Test func anApplicationWithoutAppAttestIsNotAskedAgainAndAgain() async throws {
        let authority = try TestAppAttestAuthority()
        try await withTestServer(
            AdaptiveHarness.start(policy: ["primaryMethods": ["emailOtp"]], appAttestRoots: [authority.rootPEM])
        ) { harness in
            let provider = TestAppAttestProvider(authority: authority, appID: Self.appID)
            let transport = PathCountingTransport()
            let storage = InMemorySecureStorage()
            var options = KeywayOptions(completedSignIns: .handOver, transport: transport, clock: harness.clock, dpopKey: P256.Signing.PrivateKey())
            options.appAttest = AppAttestOptions(provider: provider, storage: storage)
            let keyway = try KeywayClient(configID: TestServer.configId, baseURL: harness.server.baseURL, options: options)
            for _ in 0..<3 {
                try await harness.signInWithCode(keyway, email: "plain@example.com")
                _ = try await harness.tokens(keyway)
            }
            // The registration the application refused is not tried at every redemption...
            #expect(transport.count(suffix: "/v1/app-attest/challenges") == 1)
            #expect(await provider.attestations == 1)
            // ...but again after a pause.
            harness.clock.advance(by: 11 * 60)
            try await harness.signInWithCode(keyway, email: "plain@example.com")
            _ = try await harness.tokens(keyway)
            #expect(transport.count(suffix: "/v1/app-attest/challenges") == 2)
        }
    }
}
