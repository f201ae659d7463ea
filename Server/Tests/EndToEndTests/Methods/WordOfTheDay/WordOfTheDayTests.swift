import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayTestSupport
import Testing

@testable import KeywayServer

@Suite("A method added as one folder and one registry line, with nothing of the engine changed")
struct WordOfTheDayTests {
    /// The one registry line.
    static let methods = MethodRegistry.standard.adding(WordOfTheDayMethod(word: "lighthouse"))

    static var policy: [String: Any] { ["primaryMethods": ["emailOtp", "wordOfTheDay"], "flowTypes": ["signin", "signup"]] }

    @Test func aServerWithoutTheMethodRefusesAPolicyThatListsIt() throws {
        let policy = ApplicationPolicy(primaryMethods: [.emailOtp, WordOfTheDayMethod.id])
        #expect(throws: PolicyError.self) { try policy.validate(devMode: true, methods: .standard) }
        try policy.validate(devMode: true, methods: Self.methods)
        #expect(Self.methods.primaryMethods.last == WordOfTheDayMethod.id)
    }

    @Test func theSDKSignsInWithItThroughTheEngineAndTheTokensSayWhatProvedIt() async throws {
        let clock = ManualClock()
        try await withTestServer(
            TestServer.start(clock: clock, adminToken: testAdminToken) { $0.methods = Self.methods }
        ) { server in
            // The admin API validates the policy with the server's registry.
            try await server.setPolicy(Self.policy)
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(flowType: .signup, identifier: "ann@example.com")
            await keyway.flow.submitCode(try await server.latestCode(to: "ann@example.com"))
            #expect(keyway.flow.currentUpdate.completion != nil)

            await keyway.flow.start(flowType: .signin, identifier: "ann@example.com")
            let choice = try #require(keyway.flow.currentUpdate.methodChoice)
            #expect(choice.methods.map(\.type) == [.emailOtp, WordOfTheDayMethod.id])
            await keyway.flow.selectMethod(id: "wordOfTheDay")
            #expect(keyway.flow.currentUpdate.prompt == .unrecognized(kind: WordOfTheDayMethod.kind))
            let submit = try #require(await keyway.flow.currentStep?.action(named: "submitWord"))

            // A wrong word is refused and counted.
            await keyway.flow.submit(action: submit, parameters: ["word": "harbour"])
            let wrong = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(wrong.code == .invalidCredentials)
            #expect(wrong.details?.attemptsRemaining == 4)

            await keyway.flow.submit(action: submit, parameters: ["word": "Lighthouse"])
            let signedIn = try #require(keyway.flow.currentUpdate.completion)
            let tokens = try await keyway.tokens.exchange(authCode: signedIn.authCode, codeVerifier: try #require(signedIn.codeVerifier))
            #expect(tokens.idToken.authenticationMethods == ["kba"])
        }
    }
}
