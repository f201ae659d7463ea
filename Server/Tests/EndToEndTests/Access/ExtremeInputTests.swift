import Foundation
import KeywayJOSE
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// Numbers and lengths at and beyond every limit, sent to every route that decodes input: the
/// server answers each with a client error, never traps (it runs in this process, so a trap ends
/// the test run) and never answers 5xx.
@Suite("Extreme input never stops the server")
struct ExtremeInputTests {
    /// JSON numbers beyond Int64 and Double, the smallest ones, negative zero.
    static let numbers = [
        "1e19", "-1e19", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "1.7976931348623157e308", "-1.7976931348623157e308", "1e300", "-1e300",
        "4.9e-324", "1e-400", "-0", "0.5", "123456789012345678901234567890",
    ]

    /// Field names the routes read, so each decoder meets the numbers in the fields it knows.
    static let fields = [
        "a", "identifier", "flowType", "code", "password", "phone", "methodId", "method", "deviceId", "decision",
        "signature", "publicKey", "qrSecret", "codeChallenge", "name", "clientType", "client_name", "grant_types",
        "jwks", "primaryMethods", "mfaMode", "profile", "email",
    ]

    static func bodies() -> [Data] {
        var bodies: [String] = []
        for number in numbers {
            bodies.append("{\"a\":\(number)}")
            bodies.append("{" + fields.map { "\"\($0)\":\(number)" }.joined(separator: ",") + "}")
            bodies.append("{" + fields.map { "\"\($0)\":[\(number),{\"x\":\(number)}]" }.joined(separator: ",") + "}")
            bodies.append("[\(number)]")
            bodies.append(number)
        }
        for length in [0, 1, 4_096, 70_000, 1_100_000] {
            let text = String(repeating: "x", count: length)
            bodies.append("{" + fields.map { "\"\($0)\":\"\(text)\"" }.joined(separator: ",") + "}")
        }
        bodies.append(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000))
        return bodies.map { Data($0.utf8) }
    }

    @Test func everyRouteThatDecodesJSONAnswersExtremeNumbersAndLengthsWithoutA5xx() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock(), adminToken: testAdminToken)) { server in
            let started = try await server.request(
                "POST", "/v1/flows",
                headers: ["Content-Type": "application/json", ProtocolHeader.configID: TestServer.configId],
                body: Data(
                    #"{"flowType":"signin","identifier":"extreme@example.com","codeChallenge":"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM","codeChallengeMethod":"S256"}"#
                        .utf8))
            #expect(started.status == 201)
            let flow = try #require(try JSONSerialization.jsonObject(with: started.body) as? [String: Any])
            let flowId = try #require(flow["flowId"] as? String)
            let flowToken = (flow["flowToken"] as? String) ?? ""
            let routes: [(String, String)] = [
                ("POST", "/v1/flows"), ("POST", "/v1/flows/\(flowId)/method"), ("POST", "/v1/flows/\(flowId)/code"),
                ("POST", "/v1/flows/\(flowId)/password"), ("POST", "/v1/flows/\(flowId)/totp"),
                ("POST", "/v1/flows/\(flowId)/phone"), ("POST", "/v1/flows/\(flowId)/form"),
                ("POST", "/v1/flows/\(flowId)/manage/revokeDevice"), ("POST", "/v1/flows/\(flowId)/device/enroll"),
                ("POST", "/v1/flows/\(flowId)/device/prove"), ("POST", "/v1/flows/flw_unknown/form"),
                ("POST", "/v1/approvals/apr_unknown"), ("PATCH", "/v1/me"), ("POST", "/oauth2/register"),
                ("POST", "/admin/applications"), ("PUT", "/admin/applications/\(TestServer.configId)/policy"),
            ]
            var answered: [Int: Int] = [:]
            for (method, path) in routes {
                for body in Self.bodies() {
                    let response = try await server.request(
                        method, path,
                        headers: [
                            "Content-Type": "application/json", ProtocolHeader.configID: TestServer.configId,
                            ProtocolHeader.flowToken: flowToken, "Authorization": "Bearer \(testAdminToken)",
                        ], body: body)
                    answered[response.status, default: 0] += 1
                    #expect(response.status < 500, "\(method) \(path) \(String(decoding: body.prefix(80), as: UTF8.self))")
                }
            }
            #expect(answered.keys.allSatisfy { (400..<500).contains($0) }, "\(answered)")
            #expect(try await server.request("GET", "/health").status == 200)
        }
    }

    @Test func deviceTimesOutsideAnyClockAreRefusedAsBadSignatures() async throws {
        try await withTestServer(TestServer.start(clock: ManualClock())) { server in
            let times = [
                "-9223372036854775808", "9223372036854775807", "-9223372036854775809", "99999999999999999999", "1e19",
                "-1", "+1700000000", " 1700000000", "1700000000 ", "0x10", "", String(repeating: "9", count: 5_000),
            ]
            for time in times {
                let response = try await server.request(
                    "GET", "/v1/devices/dev_unknown/approvals",
                    headers: [
                        ProtocolHeader.configID: TestServer.configId, ProtocolHeader.deviceTime: time,
                        ProtocolHeader.deviceSignature: "c2lnbmF0dXJl",
                    ])
                #expect(response.status == 401, "time \(time.prefix(40)): \(response.status)")
            }
            #expect(try await server.request("GET", "/health").status == 200)
        }
    }

    @Test func clientAssertionsWithTimesBeyondAnyClockAreRefused() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let registration = ClientRegistrationTests()
            let token = try await server.app.issueRegistrationToken(templateConfigId: TestServer.configId)
            let registered = try await registration.register(server, token: token.revealed, [
                "token_endpoint_auth_method": "client_secret_jwt", "token_endpoint_auth_signing_alg": "HS256",
            ])
            let clientId = try #require(registered.json["client_id"] as? String)
            let secret = try #require(registered.json["client_secret"] as? String)
            let signer = AssertionSigner(clientId: clientId, key: .secret(secret))
            let issuer = server.baseURL.absoluteString
            let extremes: [[String: JSONValue]] = [
                ["exp": .number(1e300)], ["exp": .number(-1e300)], ["exp": .number(1e19)], ["exp": .number(-1e19)],
                ["iat": .number(1e300)], ["iat": .number(-1e300)], ["nbf": .number(1e300)], ["nbf": .number(-1e19)],
                ["iat": .number(9.3e18)], ["exp": .string("soon")], ["exp": .number(1.5e15)],
            ]
            for overrides in extremes {
                let assertion = try signer.assertion(audience: issuer, now: clock.now(), overrides: overrides)
                let answer = try await registration.authenticate(server, registration.assertionForm(assertion))
                #expect(answer.status == 401, "\(overrides): \(answer.json)")
                #expect(answer.json["error"] as? String == "invalid_client")
            }
            // A correct assertion still works.
            let good = try signer.assertion(audience: issuer, now: clock.now())
            #expect(try await registration.authenticate(server, registration.assertionForm(good)).status == 200)
        }
    }

    @Test func externalTokensWithTimesBeyondAnyClockAreInvalidGrants() async throws {
        let clock = ManualClock()
        try await withTestServer(TestServer.start(clock: clock)) { server in
            let external = try ExternalIssuer()
            try await server.app.trustIssuer(external.trusted)
            let exchange = TokenExchangeTests()
            for (name, value) in [
                ("exp", 1e300), ("exp", -1e300), ("exp", 1e19), ("nbf", 1e300), ("nbf", 1e19), ("iat", 1e300),
                ("iat", -1e19),
            ] {
                var claims = external.claims(subject: "extreme", email: "extreme@example.com", now: clock.now())
                claims[name] = .number(value)
                let answer = try await server.token(exchange.exchangeForm(try external.es256(claims)))
                // Times beyond ±2^53 seconds are no times at all: refused like a token not yet valid.
                #expect(answer.status == 400, "\(name)=\(value): \(answer.json)")
                #expect(answer.json["error"] as? String == "invalid_grant")
            }
            #expect(try await server.request("GET", "/health").status == 200)
        }
    }
}
