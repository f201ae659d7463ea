import Foundation
@testable import Keyway
import KeywayProtocol
@testable import KeywayServer
import KeywayTestSupport
import Testing

/// scrypt with a low cost that counts the password checks it makes, and can hold them until
/// released: what the server hashed, and when, is observed instead of timed.
final class ObservedPasswords: PasswordHashing, @unchecked Sendable {
    // @unchecked: `checks`, `holding` and `held` are only touched under `lock`.
    private let inner = ScryptPasswords(log2Cost: 12)
    private let lock = NSLock()
    private var checks = 0
    private var holding = false
    private var held: [CheckedContinuation<Void, Never>] = []

    /// Password checks made so far (real and dummy verifications).
    var checkCount: Int { lock.withLock { checks } }

    /// Holds every check from now on until ``release()``.
    func hold() { lock.withLock { holding = true } }

    func release() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            holding = false
            defer { held = [] }
            return held
        }
        for continuation in waiting { continuation.resume() }
    }

    private func counted() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = lock.withLock { () -> Bool in
                checks += 1
                if holding { held.append(continuation) }
                return !holding
            }
            if resumeNow { continuation.resume() }
        }
    }

    func hash(_ password: String) async throws -> String { try await inner.hash(password) }

    func verify(_ password: String, against stored: String) async -> Bool {
        await counted()
        return await inner.verify(password, against: stored)
    }

    func verifyDummy(_ password: String) async {
        await counted()
        await inner.verifyDummy(password)
    }

    func problems(with password: String, minimumLength: Int) -> [InvalidField] {
        inner.problems(with: password, minimumLength: minimumLength)
    }
}

/// Password attempts are counted before anything is hashed, and the hashing waiting at once is
/// bounded: many wrong passwords at once cannot buy unlimited scrypt work or stall every sign-in.
@Suite("Password checks under load")
struct PasswordLoadTests {
    static var policy: [String: Any] { ["primaryMethods": ["emailOtp", "password"], "flowTypes": ["signin", "signup"]] }

    /// Starts a sign-in for `email` over raw HTTP and chooses the password: answers the flow's
    /// ID and token.
    static func passwordStep(_ server: TestServer, email: String, from source: String? = nil) async throws
        -> (id: String, token: String)
    {
        let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        let started = try await server.request(
            "POST", "/v1/flows", headers: ["Content-Type": "application/json", ProtocolHeader.configID: TestServer.configId],
            body: Data(
                #"{"flowType":"signin","identifier":"\#(email)","codeChallenge":"\#(challenge)","codeChallengeMethod":"S256"}"#
                    .utf8), from: source)
        let flow = try #require(try JSONSerialization.jsonObject(with: started.body) as? [String: Any])
        let id = try #require(flow["flowId"] as? String)
        let token = try #require(flow["flowToken"] as? String)
        let chosen = try await server.request(
            "POST", "/v1/flows/\(id)/method", headers: headers(token), body: Data(#"{"methodId":"password"}"#.utf8),
            from: source)
        #expect(chosen.status == 200, "\(String(decoding: chosen.body, as: UTF8.self))")
        return (id, token)
    }

    static func headers(_ token: String) -> [String: String] {
        ["Content-Type": "application/json", ProtocolHeader.configID: TestServer.configId, ProtocolHeader.flowToken: token]
    }

    static func submit(
        _ server: TestServer, _ flow: (id: String, token: String), _ password: String, from source: String? = nil
    ) async throws -> (status: Int, code: String?) {
        let answer = try await server.request(
            "POST", "/v1/flows/\(flow.id)/password", headers: headers(flow.token),
            body: Data(#"{"password":"\#(password)"}"#.utf8), from: source)
        let json = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any]
        return (answer.status, json?["code"] as? String)
    }

    @Test func parallelWrongPasswordsOnOneFlowHashNoMoreThanItsAttempts() async throws {
        let passwords = ObservedPasswords()
        var limits = FlowLimits()
        limits.maxConcurrentPasswordChecksPerNetwork = 16
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy, limits: limits, passwords: passwords)) { harness in
            try await harness.signUp(try harness.sdk(), email: "load@example.com", password: "the-right-passphrase-1")
            let before = passwords.checkCount
            let flow = try await Self.passwordStep(harness.server, email: "load@example.com")
            let server = harness.server
            let answers = try await withThrowingTaskGroup(of: (status: Int, code: String?).self) { group in
                for index in 0..<12 { group.addTask { try await Self.submit(server, flow, "wrong-\(index)") } }
                var all: [(status: Int, code: String?)] = []
                for try await answer in group { all.append(answer) }
                return all
            }
            // Five attempts per flow: five checks at most, however many arrived together.
            #expect(passwords.checkCount - before == 5)
            // Each answer is a wrong password (with the attempts left) or the end of the attempts.
            #expect(answers.filter { $0.code == "invalid_credentials" }.count <= 4)
            #expect(
                answers.allSatisfy {
                    ($0.status == 400 && $0.code == "invalid_credentials") || ($0.status == 429 && $0.code == "too_many_attempts")
                }, "\(answers)")
            #expect(answers.filter { $0.code == "too_many_attempts" }.count >= 8)
        }
    }

    @Test func aCheckPastTheLimitsCostsNoHashing() async throws {
        var limits = FlowLimits()
        limits.rateLimits.passwordChecksPerIdentifier = 3
        let passwords = ObservedPasswords()
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy, limits: limits, passwords: passwords)) { harness in
            try await harness.signUp(try harness.sdk(), email: "limit@example.com", password: "the-right-passphrase-1")
            let before = passwords.checkCount
            for _ in 0..<3 {
                let flow = try await Self.passwordStep(harness.server, email: "limit@example.com")
                #expect(try await Self.submit(harness.server, flow, "wrong").code == "invalid_credentials")
            }
            let flow = try await Self.passwordStep(harness.server, email: "limit@example.com")
            let refused = try await Self.submit(harness.server, flow, "the-right-passphrase-1")
            #expect(refused.status == 429)
            #expect(refused.code == "rate_limited")
            #expect(passwords.checkCount - before == 3)
        }
    }

    @Test func oneNetworkCannotTakeEveryPlaceInTheGate() async throws {
        var limits = FlowLimits()
        limits.maxConcurrentPasswordChecksPerNetwork = 2
        let passwords = ObservedPasswords()
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy, limits: limits, passwords: passwords)) { harness in
            let server = harness.server
            try await harness.signUp(try harness.sdk(), email: "share@example.com", password: "the-right-passphrase-1")
            var flows: [(id: String, token: String)] = []
            for _ in 0..<3 { flows.append(try await Self.passwordStep(server, email: "other\(flows.count)@example.com", from: "127.0.0.2")) }
            let owner = try await Self.passwordStep(server, email: "share@example.com", from: "127.0.0.3")
            let before = passwords.checkCount
            passwords.hold()
            let first = flows[0]
            let second = flows[1]
            let flooding = [
                Task { try await Self.submit(server, first, "guess-1", from: "127.0.0.2") },
                Task { try await Self.submit(server, second, "guess-2", from: "127.0.0.2") },
            ]
            try await waitUntil("two checks from one network are being hashed") { passwords.checkCount == before + 2 }
            // A third from the same network is shed at once...
            let shed = try await Self.submit(server, flows[2], "guess-3", from: "127.0.0.2")
            #expect(shed.status == 503)
            #expect(shed.code == "service_unavailable")
            // ...while a check from another network still gets a place.
            let owners = Task { try await Self.submit(server, owner, "the-right-passphrase-1", from: "127.0.0.3") }
            try await waitUntil("the other network's check is being hashed") { passwords.checkCount == before + 3 }
            passwords.release()
            #expect(try await owners.value.status == 200)
            for task in flooding { #expect(try await task.value.code == "invalid_credentials") }
        }
    }

    @Test func aFullGateAnswersWaitAtOnceInsteadOfQueueing() async throws {
        var limits = FlowLimits()
        limits.maxConcurrentPasswordChecks = 1
        let passwords = ObservedPasswords()
        try await withTestServer(AdaptiveHarness.start(policy: Self.policy, limits: limits, passwords: passwords)) { harness in
            let server = harness.server
            try await harness.signUp(try harness.sdk(), email: "gate@example.com", password: "the-right-passphrase-1")
            let first = try await Self.passwordStep(server, email: "gate@example.com")
            let second = try await Self.passwordStep(server, email: "gate@example.com")
            let before = passwords.checkCount
            passwords.hold()
            let holding = Task { try await Self.submit(server, first, "the-right-passphrase-1") }
            try await waitUntil("the first check is being hashed") { passwords.checkCount > before }
            // The only place is taken: the next check is refused at once, with the wait action.
            let busy = try await server.request(
                "POST", "/v1/flows/\(second.id)/password", headers: Self.headers(second.token),
                body: Data(#"{"password":"the-right-passphrase-1"}"#.utf8))
            #expect(busy.status == 503)
            #expect(busy.headers["retry-after"] == "1")
            let problem = try JSONSerialization.jsonObject(with: busy.body) as? [String: Any]
            #expect(problem?["code"] as? String == "service_unavailable")
            #expect(problem?["action"] as? String == "wait")
            passwords.release()
            #expect(try await holding.value.status == 200)
            // The refused check cost nothing, not even an attempt: the same flow signs in now.
            #expect(try await Self.submit(server, second, "the-right-passphrase-1").status == 200)
        }
    }
}

/// Guesses are counted per account once the account is known: another identifier of the same
/// account does not bring a fresh budget.
@Suite("Limits per account")
struct AccountLimitTests {
    @Test func anAccountReachedByEmailAndPhoneHasOneBudgetOfPasswordGuesses() async throws {
        var limits = FlowLimits()
        limits.rateLimits.passwordChecksPerIdentifier = 4
        try await withTestServer(
            AdaptiveHarness.start(
                policy: ["primaryMethods": ["emailOtp", "smsOtp", "password"], "flowTypes": ["signin", "signup"]],
                limits: limits)
        ) { harness in
            let server = harness.server
            try await harness.signUp(try harness.sdk(), email: "both@example.com", password: "the-right-passphrase-1")
            try await server.execute("UPDATE users SET phone = '+14155550177', phone_verified = 1 WHERE email = 'both@example.com'")
            for identifier in ["both@example.com", "+14155550177", "both@example.com", "+14155550177"] {
                let flow = try await PasswordLoadTests.passwordStep(server, email: identifier)
                #expect(try await PasswordLoadTests.submit(server, flow, "wrong").code == "invalid_credentials", "\(identifier)")
            }
            // The fifth guess is refused whichever identifier it comes through.
            for identifier in ["+14155550177", "both@example.com"] {
                let flow = try await PasswordLoadTests.passwordStep(server, email: identifier)
                let refused = try await PasswordLoadTests.submit(server, flow, "the-right-passphrase-1")
                #expect(refused.status == 429, "\(identifier)")
                #expect(refused.code == "rate_limited")
            }
        }
    }
}
