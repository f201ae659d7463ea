import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayTestSupport
import Testing

@Suite("Bad input gets a clear problem document")
struct ErrorPathTests {
    func problem(_ response: (status: Int, headers: [String: String], body: Data)) throws -> Problem {
        #expect(response.headers["content-type"] == "application/problem+json")
        return try WireCoding.makeDecoder().decode(Problem.self, from: response.body)
    }

    let json = ["Content-Type": "application/json", "X-Keyway-Config-Id": TestServer.configId]

    @Test func malformedBodiesAnswer400WithInvalidFields() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let notJSON = try problem(try await server.request("POST", "/v1/flows", headers: json, body: Data("{".utf8)))
            #expect(notJSON.status == 400)
            #expect(notJSON.code == .invalidRequest)
            #expect(notJSON.invalidFields?.first?.name == "body")

            let missing = try problem(try await server.request("POST", "/v1/flows", headers: json, body: Data(#"{"flowType":"signin"}"#.utf8)))
            #expect(missing.status == 400)
            #expect(missing.action == .retryInput)
            // (The identifier may be absent only for a passkey sign-in: the first member missing
            // is the code challenge.)
            #expect(missing.invalidFields?.first?.name == "codeChallenge")
            let noIdentifier = try problem(try await server.request(
                "POST", "/v1/flows", headers: json,
                body: Data(#"{"flowType":"signin","codeChallenge":"x","codeChallengeMethod":"S256"}"#.utf8)))
            #expect(noIdentifier.invalidFields?.first?.name == "identifier")

            let wrongType = try problem(try await server.request(
                "POST", "/v1/flows", headers: json,
                body: Data(#"{"flowType":"signin","identifier":42,"codeChallenge":"x","codeChallengeMethod":"S256"}"#.utf8)))
            #expect(wrongType.invalidFields?.first?.name == "identifier")

            let badValues = try problem(try await server.request(
                "POST", "/v1/flows", headers: json,
                body: Data(#"{"flowType":"signin","identifier":"not-an-email","codeChallenge":"short","codeChallengeMethod":"plain"}"#.utf8)))
            #expect(Set(badValues.invalidFields?.map(\.name) ?? []) == ["identifier", "codeChallenge", "codeChallengeMethod"])
            #expect(badValues.traceID != nil)

            let empty = try problem(try await server.request("POST", "/v1/flows", headers: json))
            #expect(empty.status == 400)
        }
    }

    @Test func configIdIsRequiredAndMustBeKnown() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let body = Data(#"{"flowType":"signin","identifier":"a@example.com","codeChallenge":"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM","codeChallengeMethod":"S256"}"#.utf8)
            let missing = try problem(try await server.request("POST", "/v1/flows", headers: ["Content-Type": "application/json"], body: body))
            #expect(missing.code == .missingConfigId)
            #expect(missing.action == .abort)

            let keyway = try KeywayClient(configID: "cfg_wrong", baseURL: server.baseURL, options: KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock))
            await keyway.flow.start(identifier: "a@example.com")
            let error = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(error.code == .unknownConfigId)
            #expect(error.action == .abort)
        }
    }

    @Test func signupIsNotOpenYetForTheDevApplication() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(flowType: .signup, identifier: "new@example.com")
            #expect(keyway.flow.currentUpdate.errorInfo?.code == .flowTypeNotEnabled)
        }
    }

    @Test func flowTokenAndConfigIdGuardTheFlow() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "guard@example.com")
            let step = try #require(await keyway.flow.currentStep)
            let noToken = try problem(try await server.request("GET", "/v1/flows/\(step.flowID)", headers: ["X-Keyway-Config-Id": TestServer.configId]))
            #expect(noToken.code == .flowNotFound)
            let wrongToken = try problem(try await server.request(
                "GET", "/v1/flows/\(step.flowID)",
                headers: ["X-Keyway-Config-Id": TestServer.configId, "X-Keyway-Flow-Token": "kft_guess"]))
            #expect(wrongToken.code == .flowNotFound)
            #expect(wrongToken.action == .restartFlow)
            let other = try await server.app.register(.init(name: "Other", clientType: .public))
            let wrongApp = try problem(try await server.request(
                "GET", "/v1/flows/\(step.flowID)",
                headers: ["X-Keyway-Config-Id": other.configId, "X-Keyway-Flow-Token": step.flowToken!.revealed]))
            #expect(wrongApp.code == .flowNotFound)
            let ok = try await server.request(
                "GET", "/v1/flows/\(step.flowID)",
                headers: ["X-Keyway-Config-Id": TestServer.configId, "X-Keyway-Flow-Token": step.flowToken!.revealed])
            #expect(ok.status == 200)
        }
    }

    @Test func malformedCodeDoesNotCostAnAttempt() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let keyway = try makeKeyway(server, clock: clock)
            await keyway.flow.start(identifier: "typo@example.com")
            await keyway.flow.submitCode("12ab")
            let error = try #require(keyway.flow.currentUpdate.errorInfo)
            #expect(error.code == .invalidRequest)
            #expect(error.details?.invalidFields?.first?.name == "code")
            await keyway.flow.submitCode("")
            #expect(keyway.flow.currentUpdate.errorInfo?.action == .retryInput)
            await keyway.flow.submitCode(try await server.latestCode(to: "typo@example.com"))
            #expect(keyway.flow.currentUpdate.completion != nil)
        }
    }

    @Test func unknownPathsAndDevOutboxOutsideDevMode() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let notFound = try problem(try await server.request("GET", "/v1/nothing"))
            #expect(notFound.status == 404)
            #expect(notFound.code == .notFound)
            let health = try await server.request("GET", "/health")
            #expect(health.status == 200)
        }
    }

    @Test func requestsTheHTTPParserRefusesGetAProblemDocument() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let malformed = [
                "GET /v1/fl\u{00E9}ws HTTP/1.1\r\nHost: x\r\n\r\n", "GET /health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u{0}b\r\n\r\n",
                "BREW /health HTTP/1.1\r\nHost: x\r\n\r\n", "GET /health HTTP/9.9\r\nHost: x\r\n\r\n",
                "GET /health HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
            ]
            for request in malformed {
                let answer = try await IdleConnection.exchange(port: server.port, sending: request)
                let (head, body) = answer.split(separator: "\r\n\r\n", maxSplits: 1).map(String.init).pair
                #expect(head.hasPrefix("HTTP/1.1 400"), "\(request.debugDescription): \(answer)")
                #expect(head.lowercased().contains("content-type: application/problem+json"), "\(head)")
                let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                #expect(json?["code"] as? String == "invalid_request")
            }
            #expect(try await server.request("GET", "/health").status == 200)
        }
    }

    @Test func aKnownPathWithAnotherMethodIs405WithAllowInItsFamilysFormat() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            // OAuth endpoints answer as RFC 6749 §5.2 does.
            for method in ["GET", "PUT", "DELETE", "HEAD"] {
                let token = try await server.request(method, "/oauth2/token")
                #expect(token.status == 405, "\(method)")
                // OPTIONS answers CORS preflights there.
                #expect(token.headers["allow"] == "POST, OPTIONS")
                if method != "HEAD" {
                    #expect(token.headers["content-type"]?.hasPrefix("application/json") == true)
                    let json = try JSONSerialization.jsonObject(with: token.body) as? [String: Any]
                    #expect(json?["error"] as? String == "invalid_request")
                }
            }
            // The flow API and the rest answer with problem documents.
            let flows = try await server.request("DELETE", "/v1/flows")
            #expect(flows.status == 405)
            #expect(flows.headers["allow"] == "POST")
            #expect(try problem(flows).code == .methodNotAllowed)
            let code = try await server.request("GET", "/v1/flows/flw_x/code")
            #expect(code.status == 405)
            #expect(code.headers["allow"] == "POST")
            let me = try await server.request("PUT", "/v1/me")
            #expect(me.status == 405)
            #expect(me.headers["allow"] == "GET, HEAD, PATCH")
            // HEAD is answered wherever GET is, without a body.
            for path in ["/health", "/.well-known/openid-configuration", "/.well-known/jwks.json"] {
                let head = try await server.request("HEAD", path)
                #expect(head.status == 200, "\(path)")
                #expect(head.body.isEmpty)
            }
            // TRACE and QUERY too.
            for method in ["TRACE", "QUERY"] {
                let other = try await server.request(method, "/v1/flows")
                #expect(other.status == 405, "\(method)")
                #expect(other.headers["allow"] == "POST", "\(method)")
            }
            // An unknown path stays 404.
            #expect(try await server.request("DELETE", "/v1/nothing").status == 404)
        }
    }

    @Test func unreachableServerIsANetworkError() async throws {
        let keyway = try KeywayClient(configID: "cfg_x", baseURL: URL(string: "http://127.0.0.1:9")!)
        await keyway.flow.start(identifier: "a@example.com")
        let error = try #require(keyway.flow.currentUpdate.errorInfo)
        #expect(error.code == .networkError)
        #expect(error.action == .retryRequest)
    }

    @Test func sdkValidatesBeforeSending() async throws {
        let keyway = try KeywayClient(configID: "cfg_x", baseURL: URL(string: "http://127.0.0.1:9")!)
        await keyway.flow.start(identifier: "   ")
        #expect(keyway.flow.currentUpdate.errorInfo?.action == .retryInput)
        await keyway.flow.start(identifier: "a@example.com", codeChallenge: "not-a-challenge")
        #expect(keyway.flow.currentUpdate.errorInfo?.code == .invalidRequest)
        await keyway.flow.submitCode("123456")
        #expect(keyway.flow.currentUpdate.errorInfo?.code == .noActiveFlow)
        #expect(await keyway.flow.resend() == false)
    }
}
