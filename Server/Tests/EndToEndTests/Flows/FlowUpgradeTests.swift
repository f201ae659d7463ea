import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// A deploy must not break the flows in flight: flows an earlier release left at each kind of step
/// (fixtures recorded by ``FlowFixtureRecorder`` on that release: its database and its clients'
/// saved flows) are resumed by the SDK against this release and finished.
@Suite("Upgrades: flows left in flight by an earlier release finish")
struct FlowUpgradeTests {
    static let fixtureSets = ["flows-v0"]

    static var cases: [(String, String)] {
        fixtureSets.flatMap { set in
            ((try? FlowFixtures.manifest(set))?.flows ?? []).map { (set, $0.name) }
        }
    }

    @Test func everyFixtureSetHasItsFlows() throws {
        for set in Self.fixtureSets {
            #expect(try FlowFixtures.manifest(set).flows.count >= 12, "\(set) lists its flows")
        }
    }

    @Test(arguments: cases) func aFlowInFlightFinishesAfterTheUpgrade(set: String, name: String) async throws {
        let manifest = try FlowFixtures.manifest(set)
        let recorded = try #require(manifest.flows.first { $0.name == name })
        let databasePath = TestServer.temporaryDatabase()
        try await FlowFixtures.restoreDatabase(set, to: databasePath)
        let clock = ManualClock(Date(timeIntervalSince1970: manifest.recordedAt + 5))
        try await withTestServer(
            TestServer.start(
                database: .sqlite(path: databasePath), clock: clock, limits: FlowFixtureRecorder.limits, adminToken: testAdminToken)
        ) { server in
            let storage = try await FlowFixtures.storage(of: recorded, port: server.port)
            var options = KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock, resumableFlowStorage: storage)
            options.autoPollApprovals = false
            let keyway = try KeywayClient(configID: TestServer.configId, baseURL: server.baseURL, options: options)
            #expect(try await keyway.flow.resume(), "\(name) resumes")
            #expect(keyway.flow.currentUpdate.stepKind?.rawValue == recorded.stepKind, "\(name) is where it was left")

            let run = Run(keyway: keyway, server: server, clock: clock, recorded: recorded)
            try await run.finish()

            let done = try #require(keyway.flow.currentUpdate.completion, "\(name) completed: \(keyway.flow.currentUpdate)")
            let tokens = try await keyway.tokens.exchange(authCode: done.authCode, codeVerifier: try #require(done.codeVerifier))
            #expect(tokens.idToken.email == recorded.identifier)
        }
    }

    @Test func aFlowThisReleaseCannotReadIsAnsweredAsGoneAndStartsAgain() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "later@example.com")
            #expect(keyway.flow.currentUpdate.enterCode != nil)
            // As a newer release (rolled back) would leave it: a stage this one does not know.
            try await server.execute(
                #"UPDATE flows SET progress = '{"version":2,"mode":"signIn","stage":{"kind":"passkeyCeremony"}}'"#)
            await keyway.flow.submitCode("123456")
            let error = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(error.code == .flowNotFound)
            #expect(error.action == .restartFlow)
            #expect(server.logs.all.contains { $0.contains("flow unreadable") })
        }
    }

    /// Answers each step of a resumed flow the way its user would.
    struct Run {
        let keyway: KeywayClient
        let server: TestServer
        let clock: ManualClock
        let recorded: RecordedFlow

        var flow: KeywayFlow { keyway.flow }
        var prompt: Prompt? { flow.currentUpdate.prompt }

        func value(_ key: String) throws -> String {
            try #require(recorded.values[key], "the fixture keeps \(key)")
        }

        func totpCode() throws -> String {
            TestAuthenticator.code(secret: try value("totpSecret"), at: clock.now())
        }

        func expectChoice(_ purpose: MethodPurpose, _ methods: [AuthenticationMethod]) throws {
            let choice = try #require(flow.currentUpdate.methodChoice, "a choice, got \(flow.currentUpdate)")
            #expect(choice.purpose == purpose)
            #expect(choice.methods.map(\.type) == methods)
        }

        func finish() async throws {
            let password = FlowFixtureRecorder.password
            switch recorded.name {
            case "primaryChoice":
                try expectChoice(.primary, [.emailOtp, .password])
                await flow.selectMethod(id: "password")
                await flow.submitPassword(password)
                try await secondFactorByAuthenticator()
            case "emailCode":
                await flow.submitCode(try value("code"))
                try expectChoice(.secondFactor, [.totp])
                await flow.skip()
            case "password":
                guard case (.signIn, _)? = prompt?.enterPassword else { throw TestFailure("\(flow.currentUpdate)") }
                await flow.submitPassword(password)
                try await secondFactorByAuthenticator()
            case "secondFactorChoice":
                try await secondFactorByAuthenticator()
            case "totp":
                guard case (6, .secondFactor)? = prompt?.enterTotp else { throw TestFailure("\(flow.currentUpdate)") }
                await flow.submitTotp(try totpCode())
            case "setupTotp":
                let secret = try #require(flow.currentUpdate.totpSetup?.secret)
                await flow.submitTotp(TestAuthenticator.code(secret: secret, at: clock.now()))
            case "setupSmsCode":
                let code = try #require(flow.currentUpdate.enterCode)
                #expect(code.channel == .sms)
                await flow.submitCode(try value("code"))
            case "signUpForm":
                guard case ("profile", _, _)? = prompt?.form else { throw TestFailure("\(flow.currentUpdate)") }
                await flow.submitForm(["displayName": "Dana"])
                try await choosePasswordAndSkip()
            case "signUpPassword":
                try await choosePasswordAndSkip()
            case "approvalGiven":
                guard case _? = prompt?.awaitApproval else { throw TestFailure("\(flow.currentUpdate)") }
                await flow.pollApproval()
            case "manageAccount":
                guard case (let methods, _)? = prompt?.manageAccount else { throw TestFailure("\(flow.currentUpdate)") }
                #expect(methods.map(\.type) == [.emailOtp, .totp, .password])
                await flow.perform(operation: "finish")
                try expectChoice(.reverification, [.emailOtp, .totp, .password])
                await flow.selectMethod(id: "password")
                await flow.submitPassword(password)
            case "manageReverification":
                try expectChoice(.reverification, [.emailOtp, .totp, .password])
                await flow.selectMethod(id: "password")
                await flow.submitPassword(password)
                guard case (.change, _)? = prompt?.enterPassword else { throw TestFailure("\(flow.currentUpdate)") }
                await flow.submitPassword(password + " again")
                guard case _? = prompt?.manageAccount else { throw TestFailure("\(flow.currentUpdate)") }
                await flow.perform(operation: "finish")
            default:
                throw TestFailure("No script for the recorded flow \(recorded.name).")
            }
        }

        func secondFactorByAuthenticator() async throws {
            try expectChoice(.secondFactor, [.totp])
            await flow.selectMethod(id: "totp")
            await flow.submitTotp(try totpCode())
        }

        func choosePasswordAndSkip() async throws {
            guard case (.create, _)? = prompt?.enterPassword else { throw TestFailure("\(flow.currentUpdate)") }
            await flow.submitPassword(FlowFixtureRecorder.password)
            try expectChoice(.enrolment, [.totp, .smsOtp])
            await flow.skip()
        }
    }
}
