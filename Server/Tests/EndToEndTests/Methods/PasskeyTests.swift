import Foundation
@testable import Keyway
import KeywaySoftwarePasskeys
import KeywayCBOR
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// An authenticator that keeps what it was asked and answered, and can misbehave on purpose: it
/// can ignore the options' list of credentials (to answer with a passkey the server did not
/// name), or answer once with a recorded answer (a replay).
actor RecordingAuthenticator: PasskeyAuthenticator {
    let inner: SoftwarePasskeyAuthenticator
    private(set) var registrations: [(options: PublicKeyCredentialCreationOptions, response: PasskeyRegistrationResponse)] = []
    private(set) var assertions: [(options: PublicKeyCredentialRequestOptions, response: PasskeyAssertionResponse)] = []
    var ignoresAllowList = false
    var replay: PasskeyAssertionResponse?

    init(_ inner: SoftwarePasskeyAuthenticator) { self.inner = inner }

    func setIgnoresAllowList(_ ignores: Bool) { ignoresAllowList = ignores }
    func setReplay(_ response: PasskeyAssertionResponse?) { replay = response }

    func makeCredential(_ options: PublicKeyCredentialCreationOptions) async throws -> PasskeyRegistrationResponse {
        let response = try await inner.makeCredential(options)
        registrations.append((options, response))
        return response
    }

    func getAssertion(_ options: PublicKeyCredentialRequestOptions) async throws -> PasskeyAssertionResponse {
        if let replay {
            self.replay = nil
            return replay
        }
        var asked = options
        if ignoresAllowList { asked.allowCredentials = [] }
        let response = try await inner.getAssertion(asked)
        assertions.append((options, response))
        return response
    }
}

/// Passkeys end to end: the server on `localhost` (passkeys are bound to a domain name), the SDK
/// with its software authenticator, and every answer Keyway accepted verified again by
/// py_webauthn.
@Suite("Passkeys through the SDK: sign-up, sign-in without an identifier, second factor, account management, refusals")
struct PasskeyTests {
    static let email = "ada@example.com"

    static func harness(_ policy: [String: Any]) async throws -> AdaptiveHarness {
        try await AdaptiveHarness.start(policy: policy, issuerHost: "localhost")
    }

    /// An SDK pointed at the server by its issuer's name.
    static func sdk(_ harness: AdaptiveHarness) throws -> KeywayClient {
        try makeKeyway(harness.server, clock: harness.clock, baseURL: URL(string: origin(harness)))
    }

    /// The issuer's origin, which the server accepts by default.
    static func origin(_ harness: AdaptiveHarness) -> String { "http://localhost:\(harness.server.port)" }

    static func authenticator(
        _ harness: AdaptiveHarness, storage: any SecureStorage = InMemorySecureStorage(),
        configuration: (inout SoftwarePasskeyAuthenticator.Configuration) -> Void = { _ in }
    ) -> RecordingAuthenticator {
        var settings = SoftwarePasskeyAuthenticator.Configuration(origin: origin(harness))
        configuration(&settings)
        return RecordingAuthenticator(SoftwarePasskeyAuthenticator(storage: storage, configuration: settings))
    }

    /// Signs up `email` by its code and makes its passkey (a policy whose only primary method is
    /// passkeys).
    static func signUp(_ keyway: KeywayClient, _ harness: AdaptiveHarness, email: String = email,
                       with authenticator: RecordingAuthenticator) async throws -> TokenSet {
        await keyway.flow.start(flowType: .signup, identifier: email)
        await keyway.flow.submitCode(try await harness.server.latestCode(to: email))
        guard case (let purpose, let skippable)? = keyway.flow.currentUpdate.prompt?.passkeyRegister,
                let options = keyway.flow.currentPrompt?.context.step.payload.passkeyRegister?.options
            else {
            throw TestFailure("Expected to make a passkey, got \(keyway.flow.currentUpdate)")
        }
        #expect(purpose == .enrolment && !skippable)
        #expect(options.rp.id == "localhost")
        #expect(options.user.name == email)
        #expect(options.authenticatorSelection.residentKey == "required")
        #expect(options.pubKeyCredParams.map(\.alg) == [-7, -8, -257])
        await keyway.flow.registerPasskey(using: authenticator, name: "Test key")
        let completion = try await Self.completion(keyway)
        return try await keyway.tokens.exchange(completion)
    }

    /// The flow's completion, or a failure that says where the flow stands instead.
    static func completion(_ keyway: KeywayClient) async throws -> FlowCompletion {
        guard let completion = await keyway.flow.completion, keyway.flow.currentUpdate.completion != nil else {
            throw TestFailure("Expected the flow to complete, got \(keyway.flow.currentUpdate)")
        }
        return completion
    }

    /// Verifies every registration and assertion `authenticator` made, and Keyway accepted, with
    /// py_webauthn.
    static func confirmWithPyWebAuthn(
        _ authenticator: RecordingAuthenticator, _ harness: AdaptiveHarness, userVerification: String = "required"
    ) async throws {
        let registrations = await authenticator.registrations
        let assertions = await authenticator.assertions
        let origin = origin(harness)
        var cases: [[String: Any]] = []
        func encoded<T: Encodable>(_ value: T) throws -> Any {
            try JSONSerialization.jsonObject(with: WireCoding.makeEncoder().encode(value))
        }
        for (index, registration) in registrations.enumerated() {
            cases.append([
                "name": "registration \(index)", "ceremony": "registration", "response": try encoded(registration.response),
                "rp": ["id": registration.options.rp.id, "origins": [origin], "userVerification": userVerification,
                       "challenge": registration.options.challenge, "roots": []],
            ])
        }
        for (index, assertion) in assertions.enumerated() {
            guard let made = registrations.first(where: { $0.response.id == assertion.response.id }) else { continue }
            cases.append([
                "name": "assertion \(index)", "ceremony": "assertion", "response": try encoded(assertion.response),
                "rp": ["id": assertion.options.rpID, "origins": [origin], "userVerification": userVerification,
                       "challenge": assertion.options.challenge, "roots": []],
                // A synced passkey's counter stays 0; a device-bound one's is one less than now.
                "credential": ["attestationObject": made.response.response.attestationObject, "signCount": 0],
            ])
        }
        #expect(!cases.isEmpty)
        let input = try JSONSerialization.data(withJSONObject: ["cases": cases])
        let (status, output) = try await PythonScript.run("webauthn_peer.py", ["verify"], input: input, separateErrors: true)
        #expect(status == 0, "\(output)")
        let results = (try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])?["results"] as? [[String: Any]]
        #expect(results?.count == cases.count)
        for result in results ?? [] {
            #expect(result["verdict"] as? String == "accept", "py_webauthn refused \(result)")
        }
    }

    @Test func aSignUpMakesAPasskeyAndItSignsInWithoutAnIdentifier() async throws {
        let policy: [String: Any] = ["primaryMethods": ["passkey"], "flowTypes": ["signin", "signup"]]
        try await withTestServer(Self.harness(policy)) { harness in
            let keyway = try Self.sdk(harness)
            let authenticator = Self.authenticator(harness)
            let created = try await Self.signUp(keyway, harness, with: authenticator)
            #expect(try await harness.server.rowCount("passkey_credentials") == 1)

            // No identifier: the options name no credential, the passkey names the account.
            await keyway.flow.startPasskeySignIn()
            guard case (.primary, let attempts)? = keyway.flow.currentUpdate.prompt?.passkeyAuthenticate,
                let options = keyway.flow.currentPrompt?.context.step.payload.passkeyAuthenticate?.options
            else {
                throw TestFailure("Expected a passkey, got \(keyway.flow.currentUpdate)")
            }
            #expect(options.allowCredentials.isEmpty)
            #expect(options.rpID == "localhost")
            #expect(options.userVerification == "required")
            #expect(attempts > 0)
            await keyway.flow.authenticateWithPasskey(using: authenticator)
            let completion = try await Self.completion(keyway)
            let tokens = try await keyway.tokens.exchange(completion)
            #expect(tokens.idToken.subject == created.idToken.subject)
            #expect(tokens.idToken.authenticationMethods.contains("hwk"))
            #expect(tokens.idToken.authenticationMethods.contains("user"))
            // No code went out for the passkey sign-in.
            #expect(try await harness.server.outbox(to: Self.email).count == 1)

            try await Self.confirmWithPyWebAuthn(authenticator, harness)
        }
    }

    @Test func aTypedIdentifierWithoutAccountGetsTheSameStepAndNoPasskeyOfAnotherAccountPasses() async throws {
        let policy: [String: Any] = ["primaryMethods": ["passkey", "emailOtp"], "flowTypes": ["signin", "signup"]]
        try await withTestServer(Self.harness(policy)) { harness in
            let keyway = try Self.sdk(harness)
            let authenticator = Self.authenticator(harness)
            // Ada makes a passkey after signing up with a code: the offer comes with the policy.
            var withOffer = policy
            withOffer["passkeys"] = ["offerAfterSignIn": true]
            try await harness.server.setPolicy(withOffer)
            await keyway.flow.start(flowType: .signup, identifier: Self.email)
            await keyway.flow.submitCode(try await harness.server.latestCode(to: Self.email))
            guard case (_, true)? = keyway.flow.currentUpdate.prompt?.passkeyRegister else {
                throw TestFailure("Expected the offer of a passkey, got \(keyway.flow.currentUpdate)")
            }
            await keyway.flow.registerPasskey(using: authenticator)
            #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")

            // Someone types an address without an account and picks "Use a passkey": the same
            // step as for Ada (no credential named), and Ada's passkey does not sign them in.
            for identifier in [Self.email, "nobody@example.com"] {
                await keyway.flow.start(flowType: .signin, identifier: identifier)
                await keyway.flow.selectMethod(id: "passkey")
                guard case (.primary, _)? = keyway.flow.currentUpdate.prompt?.passkeyAuthenticate,
                let options = keyway.flow.currentPrompt?.context.step.payload.passkeyAuthenticate?.options
            else {
                    throw TestFailure("Expected a passkey, got \(keyway.flow.currentUpdate)")
                }
                #expect(options.allowCredentials.isEmpty)
                await keyway.flow.authenticateWithPasskey(using: authenticator)
                if identifier == Self.email {
                    #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")
                } else {
                    #expect(keyway.flow.currentUpdate.errorInfo?.code == .passkeyUnknownCredential)
                    #expect(keyway.flow.currentUpdate.errorInfo?.details?.attemptsRemaining != nil)
                }
            }
        }
    }

    @Test func eachRefusalHasItsCodeCostsAnAttemptAndTheNextTryHasANewChallenge() async throws {
        let policy: [String: Any] = ["primaryMethods": ["passkey"], "flowTypes": ["signin", "signup"]]
        try await withTestServer(Self.harness(policy)) { harness in
            let keyway = try Self.sdk(harness)
            let storage = InMemorySecureStorage()
            let authenticator = Self.authenticator(harness, storage: storage)
            _ = try await Self.signUp(keyway, harness, with: authenticator)
            // A copy of the authenticator as it is now: a clone, whose counter will fall behind.
            let entry = try #require(try await storage.read(key: SoftwarePasskeyAuthenticator.defaultStorageKey))
            let cloneStorage = InMemorySecureStorage()
            try await cloneStorage.write(key: SoftwarePasskeyAuthenticator.defaultStorageKey, data: entry)

            func attempt(_ using: RecordingAuthenticator) async throws -> (code: ProblemCode?, attempts: Int?, challenge: String) {
                await keyway.flow.startPasskeySignIn()
                guard case (_, _)? = keyway.flow.currentUpdate.prompt?.passkeyAuthenticate,
                let options = keyway.flow.currentPrompt?.context.step.payload.passkeyAuthenticate?.options
            else {
                    throw TestFailure("Expected a passkey, got \(keyway.flow.currentUpdate)")
                }
                await keyway.flow.authenticateWithPasskey(using: using)
                let error = keyway.flow.currentUpdate.errorInfo
                return (error?.code, error?.details?.attemptsRemaining, options.challenge)
            }

            // A foreign origin.
            let phishing = Self.authenticator(harness, storage: storage) { $0.origin = "https://login.example.evil" }
            #expect(try await attempt(phishing).code == ProblemCode(rawValue: "passkey_origin_not_allowed"))
            // After the refusal the prompt has a new challenge, and the right answer passes.
            guard case (_, let left)? = keyway.flow.currentPrompt?.prompt.passkeyAuthenticate,
                let renewed = keyway.flow.currentPrompt?.context.step.payload.passkeyAuthenticate?.options
            else {
                throw TestFailure("Expected the passkey prompt again, got \(keyway.flow.currentUpdate)")
            }
            #expect(left == 4)
            #expect(renewed.challenge != (await phishing.assertions.last?.options.challenge))
            await keyway.flow.authenticateWithPasskey(using: authenticator)
            #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")

            // Without user verification where the policy requires it.
            let presenceOnly = Self.authenticator(harness, storage: storage) { $0.userVerifies = false }
            #expect(try await attempt(presenceOnly).code == ProblemCode(rawValue: "passkey_user_not_verified"))

            // A replay of an answer the server accepted: its challenge is spent.
            let accepted = try #require(await authenticator.assertions.last?.response)
            await authenticator.setReplay(accepted)
            #expect(try await attempt(authenticator).code == ProblemCode(rawValue: "passkey_challenge_mismatch"))

            // The clone signs with a counter the server has seen already: refused and flagged.
            let clone = Self.authenticator(harness, storage: cloneStorage)
            #expect(try await attempt(clone).code == ProblemCode(rawValue: "passkey_counter_regressed"))
            #expect(try await harness.server.rowCount("passkey_credentials WHERE counter_regressed_at IS NOT NULL") == 1)

            // A refused answer costs an attempt: past the limit the flow fails.
            await keyway.flow.startPasskeySignIn()
            var codes: [ProblemCode] = []
            for _ in 0..<5 {
                await keyway.flow.authenticateWithPasskey(using: phishing)
                if let code = keyway.flow.currentUpdate.errorInfo?.code { codes.append(code) }
            }
            #expect(codes.last == .tooManyAttempts, "got \(codes)")
            // The real owner still signs in with a new flow.
            await keyway.flow.startPasskeySignIn()
            await keyway.flow.authenticateWithPasskey(using: authenticator)
            #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")
            try await Self.confirmWithPyWebAuthn(authenticator, harness)
        }
    }

    @Test func aPasskeyAsSecondFactorIsNamedInTheOptionsAndAnotherUsersPasskeyIsRefused() async throws {
        let policy: [String: Any] = [
            "primaryMethods": ["emailOtp"], "mfaMethods": ["passkey"], "mfaMode": "required",
            "flowTypes": ["signin", "signup"],
        ]
        try await withTestServer(Self.harness(policy)) { harness in
            let keyway = try Self.sdk(harness)
            let ada = Self.authenticator(harness)
            let bob = Self.authenticator(harness)
            // Each signs up with a code and sets up a passkey as the second factor it must have.
            for (email, authenticator) in [(Self.email, ada), ("bob@example.com", bob)] {
                await keyway.flow.start(flowType: .signup, identifier: email)
                await keyway.flow.submitCode(try await harness.server.latestCode(to: email))
                guard case (.enrolment, false)? = keyway.flow.currentUpdate.prompt?.passkeyRegister else {
                    throw TestFailure("Expected to set up a passkey, got \(keyway.flow.currentUpdate)")
                }
                await keyway.flow.registerPasskey(using: authenticator)
                #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")
            }

            // Ada's sign-in: her code, then her passkey, named in the options.
            await keyway.flow.start(flowType: .signin, identifier: Self.email)
            await keyway.flow.submitCode(try await harness.server.latestCode(to: Self.email))
            guard case (.secondFactor, _)? = keyway.flow.currentUpdate.prompt?.passkeyAuthenticate,
                let options = keyway.flow.currentPrompt?.context.step.payload.passkeyAuthenticate?.options
            else {
                throw TestFailure("Expected the passkey as second factor, got \(keyway.flow.currentUpdate)")
            }
            #expect(options.allowCredentials.map(\.id) == [try #require(await ada.registrations.first?.response.id)])
            // Bob's passkey, answering anyway: not Ada's.
            await bob.setIgnoresAllowList(true)
            await keyway.flow.authenticateWithPasskey(using: bob)
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .passkeyUnknownCredential)
            await keyway.flow.authenticateWithPasskey(using: ada)
            let completion = try await Self.completion(keyway)
            let tokens = try await keyway.tokens.exchange(completion)
            #expect(tokens.idToken.authenticationMethods.contains("mfa"))
            #expect(tokens.idToken.authenticationMethods.contains("hwk"))
        }
    }

    @Test func aVerifiedPasskeyIsBothFactorsWhereThePolicyCountsPasskeysAsSecondFactors() async throws {
        let policy: [String: Any] = [
            "primaryMethods": ["passkey", "emailOtp"], "mfaMethods": ["passkey", "totp"], "mfaMode": "required",
            "flowTypes": ["signin", "signup"], "passkeys": ["userVerification": "preferred", "allowSynced": true],
        ]
        try await withTestServer(Self.harness(policy)) { harness in
            let keyway = try Self.sdk(harness)
            let synced = Self.authenticator(harness) { $0.synced = true }
            await keyway.flow.start(flowType: .signup, identifier: Self.email)
            await keyway.flow.submitCode(try await harness.server.latestCode(to: Self.email))
            guard case (let methods, .enrolment, _)? = keyway.flow.currentUpdate.prompt?.selectMethod else {
                throw TestFailure("Expected a second factor to set up, got \(keyway.flow.currentUpdate)")
            }
            #expect(methods.map(\.type).contains(.passkey))
            await keyway.flow.selectMethod(id: "passkey")
            await keyway.flow.registerPasskey(using: synced)
            #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")

            // Verified: one passkey is both factors; a synced passkey says `swk`.
            await keyway.flow.startPasskeySignIn()
            await keyway.flow.authenticateWithPasskey(using: synced)
            let tokens = try await keyway.tokens.exchange(try await Self.completion(keyway))
            #expect(Set(tokens.idToken.authenticationMethods).isSuperset(of: ["swk", "user", "mfa"]))

            // Presence only (the policy prefers verification): the second factor is still asked.
            await synced.inner.setConfiguration(.init(origin: Self.origin(harness), userVerifies: false, synced: true))
            await keyway.flow.startPasskeySignIn()
            await keyway.flow.authenticateWithPasskey(using: synced)
            // (An authenticator app to set up: the only second factor left besides passkeys.)
            guard case _? = keyway.flow.currentUpdate.prompt?.setupTotp else {
                throw TestFailure("Expected the second factor, got \(keyway.flow.currentUpdate)")
            }
            try await Self.confirmWithPyWebAuthn(synced, harness, userVerification: "preferred")
        }
    }

    @Test func accountManagementAddsRenamesAndRemovesPasskeysButNeverTheLastWayIn() async throws {
        // Passkeys are the only way in; the verified address still proves who the user is again.
        let policy: [String: Any] = ["primaryMethods": ["passkey"], "flowTypes": ["signin", "signup", "accountManage"]]
        try await withTestServer(Self.harness(policy)) { harness in
            let keyway = try Self.sdk(harness)
            let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            let phone = Self.authenticator(harness)
            let laptop = Self.authenticator(harness)
            try await session.save(try await Self.signUp(keyway, harness, with: phone))

            // Adding a passkey is a new way in: the user proves who they are first, with a passkey.
            harness.clock.advance(by: 60)
            try await session.manageAccount()
            guard case (let methods, _)? = keyway.flow.currentUpdate.prompt?.manageAccount else {
                throw TestFailure("Expected the account, got \(keyway.flow.currentUpdate)")
            }
            #expect(methods.map(\.type).contains(.passkey))
            #expect(keyway.flow.currentUpdate.promptContext?.step.payload.manageAccount?.passkeys?.map(\.name) == ["Test key"])
            await keyway.flow.addPasskey()
            let verify = try #require(keyway.flow.currentUpdate.methodChoice, "got \(keyway.flow.currentUpdate)")
            #expect(verify.purpose == .reverification)
            #expect(verify.methods.map(\.type).contains(.passkey))
            await keyway.flow.selectMethod(id: "passkey")
            guard case (.reverification, _)? = keyway.flow.currentUpdate.prompt?.passkeyAuthenticate,
                let options = keyway.flow.currentPrompt?.context.step.payload.passkeyAuthenticate?.options
            else {
                throw TestFailure("Expected a fresh verification, got \(keyway.flow.currentUpdate)")
            }
            #expect(options.allowCredentials.count == 1)
            await keyway.flow.authenticateWithPasskey(using: phone)
            guard case (_, _)? = keyway.flow.currentUpdate.prompt?.passkeyRegister,
                let creation = keyway.flow.currentPrompt?.context.step.payload.passkeyRegister?.options
            else {
                throw TestFailure("Expected to make a passkey, got \(keyway.flow.currentUpdate)")
            }
            // The new one shares the account's user handle, and the phone's passkey is excluded.
            #expect(creation.user.id == (await phone.registrations.first?.options.user.id))
            #expect(creation.excludeCredentials.count == 1)
            await keyway.flow.registerPasskey(using: laptop, name: "Laptop")
            // (Listed oldest first.)
            var passkeys = try #require(keyway.flow.currentUpdate.promptContext?.step.payload.manageAccount?.passkeys)
            #expect(passkeys.map(\.name) == ["Test key", "Laptop"])

            // Renaming needs no verification; a name too long is refused before it is sent.
            let laptopId = try #require(passkeys.last?.id)
            await keyway.flow.renamePasskey(id: laptopId, name: "Work laptop")
            passkeys = try #require(keyway.flow.currentUpdate.promptContext?.step.payload.manageAccount?.passkeys)
            #expect(passkeys.map(\.name) == ["Test key", "Work laptop"])
            await keyway.flow.renamePasskey(id: laptopId, name: String(repeating: "x", count: 65))
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidRequest)

            // Removing the phone's passkey (verified within the last minutes): the laptop's stays.
            let phoneId = try #require(passkeys.first?.id)
            await keyway.flow.removePasskey(id: phoneId)
            passkeys = try #require(keyway.flow.currentPrompt?.context.step.payload.manageAccount?.passkeys)
            #expect(passkeys.map(\.name) == ["Work laptop"])
            // The removed passkey no longer signs in.
            #expect(try await harness.server.rowCount("passkey_credentials") == 1)
            // The last one is the account's only way in: refused.
            await keyway.flow.removePasskey(id: laptopId)
            let refusal = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(refusal.code == .invalidRequest)
            #expect(refusal.details?.invalidFields?.first?.reason.contains("last way to sign in") == true)
            #expect(try await harness.server.rowCount("passkey_credentials") == 1)

            await keyway.flow.startPasskeySignIn()
            await keyway.flow.authenticateWithPasskey(using: phone)
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .passkeyUnknownCredential)
            await keyway.flow.authenticateWithPasskey(using: laptop)
            #expect(keyway.flow.currentUpdate.completion != nil, "got \(keyway.flow.currentUpdate)")
        }
    }

    @Test func passkeysAreNotOfferedWhereTheRelyingPartyDoesNotFitTheIssuer() async throws {
        // The default test server's issuer is an address (127.0.0.1): no passkey can be bound to it.
        let policy: [String: Any] = ["primaryMethods": ["passkey", "emailOtp"], "flowTypes": ["signin"]]
        try await withTestServer(AdaptiveHarness.start(policy: policy)) { harness in
            let keyway = try harness.sdk()  // by its address, as the issuer names it
            await keyway.flow.start(flowType: .signin, identifier: Self.email)
            #expect(keyway.flow.currentUpdate.enterCode != nil, "got \(keyway.flow.currentUpdate)")
            await keyway.flow.startPasskeySignIn()
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidRequest)
        }
    }

    /// A flow over raw HTTP: its ID, token and first step.
    struct RawPasskeyFlow {
        let server: TestServer
        let id: String
        let token: String
        let step: [String: Any]

        static let headers = ["Content-Type": "application/json", "X-Keyway-Config-Id": TestServer.configId]

        static func start(_ server: TestServer, _ body: [String: Any]) async throws -> RawPasskeyFlow {
            var request = body
            request["codeChallenge"] = PKCE.challenge(for: "verifier-0123456789-0123456789-0123456789-abc")
            request["codeChallengeMethod"] = "S256"
            let response = try await server.request(
                "POST", "/v1/flows", headers: headers, body: try JSONSerialization.data(withJSONObject: request))
            let step = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
            guard let id = step["flowId"] as? String, let token = step["flowToken"] as? String else {
                throw TestFailure("The flow did not start: \(response.status) \(step)")
            }
            return RawPasskeyFlow(server: server, id: id, token: token, step: step)
        }

        func post(_ path: String, _ body: Data) async throws -> (status: Int, json: [String: Any]) {
            var headers = Self.headers
            headers["X-Keyway-Flow-Token"] = token
            let response = try await server.request("POST", "/v1/flows/\(id)/\(path)", headers: headers, body: body)
            return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
        }

        func post(_ path: String, _ body: [String: Any]) async throws -> (status: Int, json: [String: Any]) {
            try await post(path, try JSONSerialization.data(withJSONObject: body))
        }
    }

    static func base64URL(_ bytes: [UInt8]) -> String { Base64URL.encode(Data(bytes)) }

    static func bytes(_ base64URL: String) throws -> [UInt8] { [UInt8](try #require(Base64URL.decode(base64URL))) }

    @Test func malformedAndTamperedAnswersAreRefusedWithTheirCodesAndNothingBreaks() async throws {
        let policy: [String: Any] = ["primaryMethods": ["passkey"], "flowTypes": ["signin", "signup"]]
        try await withTestServer(Self.harness(policy)) { harness in
            let server = harness.server
            let authenticator = Self.authenticator(harness)
            _ = try await Self.signUp(try Self.sdk(harness), harness, with: authenticator)

            // Registrations whose attestation object is not CBOR a decoder should read: each refused
            // as malformed, each costing an attempt, the last one ending the flow.
            let signup = try await RawPasskeyFlow.start(server, ["flowType": "signup", "identifier": "eve@example.com"])
            let coded = try await signup.post("code", ["code": try await server.latestCode(to: "eve@example.com")])
            let creation = try #require(
                ((coded.json["passkeyRegister"] as? [String: Any])?["options"] as? [String: Any])?["challenge"] as? String,
                "got \(coded.json)")
            #expect(!creation.isEmpty)
            let garbage: [(String, [UInt8])] = [
                ("truncated", [0xa3, 0x63, 0x66, 0x6d]),
                ("nested too deep", [UInt8](repeating: 0x81, count: 64) + [0x00]),
                ("a huge length", [0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]),
                ("an array, not a map", [0x82, 0x01, 0x02]),
                ("trailing bytes", [0xa0, 0x00]),
            ]
            let clientData = Self.base64URL(Array(#"{"type":"webauthn.create","challenge":"x","origin":"x"}"#.utf8))
            var remaining: [Int] = []
            for (name, object) in garbage {
                let credential: [String: Any] = [
                    "id": "AAAA", "rawId": "AAAA", "type": "public-key",
                    "response": ["clientDataJSON": clientData, "attestationObject": Self.base64URL(object)],
                ]
                let refused = try await signup.post("passkey/register", ["credential": credential])
                #expect(refused.status == (name == "trailing bytes" ? 429 : 400), "\(name): \(refused.json)")
                if let left = refused.json["attemptsRemaining"] as? Int { remaining.append(left) }
                if name == "trailing bytes" {
                    #expect(refused.json["code"] as? String == "too_many_attempts", "\(refused.json)")
                } else {
                    #expect(refused.json["code"] as? String == "passkey_malformed", "\(name): \(refused.json)")
                }
            }
            #expect(remaining == [4, 3, 2, 1, 0])
            #expect(try await server.rowCount("users WHERE email = 'eve@example.com'") == 0)

            // A body that is not an answer at all: an invalid request, nothing spent.
            let flow = try await RawPasskeyFlow.start(server, ["flowType": "signin", "passkey": true])
            let notAnAnswer = try await flow.post("passkey/authenticate", ["credential": ["id": "x"]])
            #expect(notAnAnswer.status == 400 && notAnAnswer.json["code"] as? String == "invalid_request")

            // Tampered answers of the real passkey, each in a fresh sign-in: refused with its code.
            func tampered(_ change: (inout PasskeyAssertionResponse) throws -> Void) async throws -> String? {
                let flow = try await RawPasskeyFlow.start(server, ["flowType": "signin", "passkey": true])
                let options = try WireCoding.makeDecoder().decode(
                    PublicKeyCredentialRequestOptions.self,
                    from: JSONSerialization.data(
                        withJSONObject: try #require((flow.step["passkeyAuthenticate"] as? [String: Any])?["options"])))
                var answer = try await authenticator.getAssertion(options)
                try change(&answer)
                let body = try WireCoding.makeEncoder().encode(AuthenticatePasskeyRequest(credential: answer))
                let result = try await flow.post("passkey/authenticate", body)
                return result.json["code"] as? String ?? (result.json["completed"] != nil ? "completed" : "\(result.json)")
            }
            #expect(try await tampered { $0.response.clientDataJSON = Self.base64URL(Array("not json".utf8)) } == "passkey_malformed")
            #expect(try await tampered {
                $0.response.authenticatorData = Self.base64URL(Array(try Self.bytes($0.response.authenticatorData).prefix(20)))
            } == "passkey_malformed")
            #expect(try await tampered {
                var data = try Self.bytes($0.response.authenticatorData)
                data[32] &= ~0x01
                $0.response.authenticatorData = Self.base64URL(data)
            } == "passkey_user_not_present")
            #expect(try await tampered {
                var data = try Self.bytes($0.response.authenticatorData)
                data[0] ^= 0xff
                $0.response.authenticatorData = Self.base64URL(data)
            } == "passkey_rp_id_mismatch")
            #expect(try await tampered { $0.response.signature = Self.base64URL([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01]) }
                == "passkey_signature_invalid")
            #expect(try await tampered { $0.response.userHandle = Self.base64URL([1, 2, 3]) } == "passkey_credential_mismatch")
            // The server is still there, and the untouched answer signs in.
            #expect(try await tampered { _ in } == "completed")
        }
    }

    @Test func aPasskeyStartIsCheckedAndAPasskeyNotOfTheAccountCannotBeRenamedOrRemoved() async throws {
        let policy: [String: Any] = ["primaryMethods": ["passkey"], "flowTypes": ["signin", "signup", "accountManage"]]
        try await withTestServer(Self.harness(policy)) { harness in
            let server = harness.server
            func refusedFields(_ body: [String: Any], code: ProblemCode = .invalidRequest) async throws -> [String] {
                var request = body
                request["passkey"] = true
                request["codeChallenge"] = PKCE.challenge(for: "verifier-0123456789-0123456789-0123456789-abc")
                request["codeChallengeMethod"] = "S256"
                let response = try await server.request(
                    "POST", "/v1/flows", headers: RawPasskeyFlow.headers, body: try JSONSerialization.data(withJSONObject: request))
                let problem = try WireCoding.makeDecoder().decode(Problem.self, from: response.body)
                #expect(response.status == 400 && problem.code == code, "\(problem)")
                return (problem.invalidFields ?? []).map(\.name)
            }
            #expect(try await refusedFields(["flowType": "signup"]) == ["passkey"])
            #expect(try await refusedFields(["flowType": "signin", "identifier": Self.email]) == ["identifier"])
            // A start token is read first: an unknown one is refused as such.
            #expect(try await refusedFields(["flowType": "signin", "startToken": "kst_x"], code: .invalidStartToken).isEmpty)

            // In account management: a passkey ID that is none of the account's, and an empty name.
            let keyway = try Self.sdk(harness)
            let session = KeywaySession(keyway: keyway, storage: InMemorySecureStorage())
            try await session.save(try await Self.signUp(keyway, harness, with: Self.authenticator(harness)))
            try await session.manageAccount()
            await keyway.flow.renamePasskey(id: "pky_someone_else", name: "Mine now")
            #expect(keyway.flow.currentUpdate.errorInfo?.details?.invalidFields?.first?.name == "passkeyId")
            await keyway.flow.removePasskey(id: "pky_someone_else")
            #expect(keyway.flow.currentUpdate.errorInfo?.details?.invalidFields?.first?.name == "passkeyId")
            let passkeyId = try #require(keyway.flow.currentPrompt?.context.step.payload.manageAccount?.passkeys?.first?.id)
            await keyway.flow.renamePasskey(id: passkeyId, name: "   ")
            #expect(keyway.flow.currentUpdate.errorInfo?.details?.invalidFields?.first?.name == "name")
            #expect(try await server.rowCount("passkey_credentials WHERE name = 'Test key'") == 1)
        }
    }

    @Test func theHostedPagesRefuseAPasskeyFormThatCameWithoutItsAnswer() async throws {
        let policy: [String: Any] = ["primaryMethods": ["passkey", "emailOtp"], "flowTypes": ["signin"]]
        try await withTestServer(Self.harness(policy)) { harness in
            let client = TestRelyingParty()
            try await harness.server.registerRedirectURI(client.redirectURI)
            let browser = PageAgent(server: harness.server)
            let origin = Self.origin(harness)
            let identify = try await browser.open(client.authorizePath(TestRelyingParty.Request()))
            let button = try #require(identify.form("/login/passkey"), "\(identify.text)")
            #expect(identify.html.contains(#"data-kw-conditional="true""#))
            #expect(identify.html.contains("/login/assets/passkey.js"))

            // The identifier page's form without the answer (its script did not run): the reason,
            // and the button again without the autofill.
            let refused = try await browser.post("/login/passkey", button.values, origin: origin)
            #expect(refused.text.contains("The passkey's answer did not arrive"), "\(refused.text)")
            #expect(refused.form("/login/passkey") != nil)
            #expect(!refused.html.contains("data-kw-conditional"))

            // A step's passkey form with an answer that is not JSON: the same reason.
            let methods = try await browser.post(
                "/login/identify", ["csrf_token": button.values["csrf_token"] ?? "", "identifier": Self.email], origin: origin)
            let choice = try #require(methods.form("/login/action", ["methodId": "passkey"]), "\(methods.text)")
            let step = try await browser.post("/login/action", choice.values, origin: origin)
            let form = try #require(step.form("/login/action", ["action": "authenticatePasskey"]), "\(step.text)")
            #expect(step.html.contains(#"data-kw-passkey="get""#))
            var values = form.values
            values["credential"] = "{not json"
            let answered = try await browser.post("/login/action", values, origin: origin)
            #expect(answered.text.contains("The passkey's answer did not arrive"), "\(answered.text)")
            #expect(answered.form("/login/action", ["action": "authenticatePasskey"]) != nil)
        }
    }
}
