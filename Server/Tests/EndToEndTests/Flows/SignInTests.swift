import Foundation
@testable import Keyway
import KeywayJOSE
import KeywayProtocol
import KeywayTestSupport
import Testing

@Suite("Email-OTP sign-in through the SDK against the real server")
struct SignInTests {
    @Test func signsInAndRedeemsVerifiedTokens() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock, baseURL: URL(string: "\(server.baseURL.absoluteString)/v1/")!)

            let recorder = UpdateRecorder()
            keyway.flow.onUpdate = { recorder.record($0) }
            await keyway.flow.start(flowType: .signin, identifier: "Alice@Example.com")
            let prompt = try #require(keyway.flow.currentUpdate.enterCode)
            #expect(prompt.destination == "a•••@example.com")
            #expect(prompt.codeLength == 6)
            #expect(prompt.channel == .email)
            #expect(keyway.flow.currentUpdate.promptContext?.stepInfo?.label == "Verify your email")
            #expect(keyway.flow.currentUpdate.promptContext?.meta.traceID.isEmpty == false)

            await keyway.flow.submitCode(try await server.latestCode(to: "alice@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            #expect(completion.session.hasPrefix("ses_"))
            let verifier = try #require(completion.codeVerifier)
            #expect(PKCE.isValidVerifier(verifier.revealed))
            #expect(recorder.kinds == ["loading", "prompt", "loading", "completed"])

            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: verifier)
            #expect(tokens.idToken.email == "alice@example.com")
            #expect(tokens.idToken.emailVerified == true)
            #expect(tokens.idToken.issuer == server.baseURL.absoluteString)
            #expect(tokens.idToken.audience == [TestServer.configId])
            #expect(tokens.idToken.sessionID == completion.session)
            #expect(tokens.idToken.authenticationMethods == ["otp"])
            #expect(tokens.response.tokenType == "Bearer")
            #expect(tokens.response.refreshToken != nil)

            // The access token is an RFC 9068 JWT signed by the published key.
            let access = try CompactJWS(tokens.response.accessToken.revealed)
            #expect(access.type == "at+jwt")
            let jwks = try await server.request("GET", "/.well-known/jwks.json")
            let keySet = try JSONDecoder().decode(JSONWebKeySet.self, from: jwks.body)
            try access.verifyES256(
                with: try ECJWK.publicKey(from: try #require(keySet.keys.first { $0.kid == access.keyID })))
            let claims = try JSONSerialization.jsonObject(with: access.payload) as! [String: Any]
            #expect(claims["sub"] as? String == tokens.idToken.subject)
            #expect(claims["client_id"] as? String == TestServer.configId)
            #expect(claims["jti"] as? String != nil)

            // Signing in again finds the same user.
            await keyway.flow.start(identifier: "alice@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "alice@example.com"))
            let second = try #require(keyway.flow.currentUpdate.completion)
            let again = try await keyway.tokens.exchange(authCode: second.authCode, codeVerifier: try #require(second.codeVerifier))
            #expect(again.idToken.subject == tokens.idToken.subject)
        }
    }

    @Test func updatesStreamStartsWithTheCurrentUpdate() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            var iterator = keyway.flow.updates.makeAsyncIterator()
            #expect(await iterator.next() == .idle)
            await keyway.flow.start(identifier: "stream@example.com")
            #expect(await iterator.next() == .loading)
            #expect(await iterator.next()?.enterCode != nil)
            await keyway.flow.reset()
            #expect(await iterator.next() == .idle)
        }
    }

    @Test func appSuppliedChallengeReturnsNoVerifier() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
            await keyway.flow.start(identifier: "own@example.com", codeChallenge: PKCE.challenge(for: verifier))
            await keyway.flow.submitCode(try await server.latestCode(to: "own@example.com"))
            let completion = try #require(keyway.flow.currentUpdate.completion)
            #expect(completion.codeVerifier == nil)
            let tokens = try await keyway.tokens.exchange(authCode: completion.authCode, codeVerifier: Sensitive(verifier))
            #expect(tokens.idToken.email == "own@example.com")
        }
    }
}

/// Records the sequence of update kinds.
final class UpdateRecorder: @unchecked Sendable {
    // @unchecked: `updates` is only touched under `lock`.
    private let lock = NSLock()
    private var updates: [FlowUpdate] = []

    func record(_ update: FlowUpdate) {
        lock.lock()
        updates.append(update)
        lock.unlock()
    }

    var kinds: [String] {
        lock.lock()
        defer { lock.unlock() }
        return updates.map { update in
            switch update {
            case .idle: "idle"
            case .loading: "loading"
            case .prompt: "prompt"
            case .completed: "completed"
            case .error: "error"
            }
        }
    }

    @Test func twoFirstSignInsOfOneNewIdentifierMakeOneAccount() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let email = "twice-new@example.com"
            let first = try KeywayClient(configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            let second = try KeywayClient(configID: TestServer.configId, baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            // Both flows start before the account exists (a dev application creates it on a first sign-in).
            await first.flow.start(identifier: email)
            await second.flow.start(identifier: email)
            let codes = try await server.outbox(to: email).compactMap(\.code)
            #expect(codes.count == 2)
            await first.flow.submitCode(codes[0])
            await second.flow.submitCode(codes[1])
            let one = try #require(first.flow.currentUpdate.completion, "\(first.flow.currentUpdate)")
            let two = try #require(second.flow.currentUpdate.completion, "\(second.flow.currentUpdate)")
            let a = try await first.tokens.exchange(authCode: one.authCode, codeVerifier: try #require(one.codeVerifier))
            let b = try await second.tokens.exchange(authCode: two.authCode, codeVerifier: try #require(two.codeVerifier))
            #expect(a.idToken.subject == b.idToken.subject)
            #expect(try await server.rowCount("users") == 1)
        }
    }
}
