import Foundation
import KeywayProtocol
import Testing

@Suite("Wire models round-trip")
struct WireModelTests {
    let date = Date(timeIntervalSince1970: 1_795_333_682.125)

    func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        let data = try WireCoding.makeEncoder().encode(value)
        return try WireCoding.makeDecoder().decode(T.self, from: data)
    }

    @Test func enterCodeStep() throws {
        let step = Step(
            flowID: "flw_1",
            payload: .enterCode(
                EnterCodePayload(
                    destination: "a•••@example.com", codeLength: 6, expiresAt: date, resendAt: date, channel: .email,
                    attemptsRemaining: 5)),
            stepInfo: StepInfo(id: "verifyEmail", label: "Verify your email"),
            actions: [
                Action(
                    name: "submitCode", href: "/v1/flows/flw_1/code", method: "POST", label: "Continue",
                    fields: [Field(name: "code", type: .code, minLength: 6, maxLength: 6, pattern: "^[0-9]{6}$")]),
                Action(name: "cancel", href: "/v1/flows/flw_1", method: "DELETE"),
            ],
            links: [Link(rel: "self", href: "/v1/flows/flw_1")],
            messages: [Message(level: "info", code: "codeSent", text: "Sent.")],
            risk: Risk(level: "medium", message: "New device", reasons: ["newDevice"]), flowExpiresAt: date,
            flowToken: Sensitive("kft_x"), meta: Meta(traceID: "t1"))
        #expect(try roundTrip(step) == step)
    }

    @Test func completedStep() throws {
        let step = Step(
            flowID: "flw_1",
            payload: .completed(CompletedPayload(authCode: Sensitive("kac_1"), expiresAt: date, session: "ses_1")),
            meta: Meta(traceID: "t2"))
        #expect(try roundTrip(step) == step)
    }

    @Test func unknownKindsAndFieldTypesSurvive() throws {
        let json = #"""
            {"flowId":"f","kind":"somethingNew","actions":[{"name":"go","href":"/x","method":"POST",
            "fields":[{"name":"color","type":"colorPicker","required":false}]}],"links":[],"messages":[],
            "meta":{"traceId":"t"}}
            """#
        let step = try WireCoding.makeDecoder().decode(Step.self, from: Data(json.utf8))
        #expect(step.kind.rawValue == "somethingNew")
        #expect(step.actions[0].fields[0].type.rawValue == "colorPicker")
    }

    @Test func aStepCarriesTheOnePayloadItsKindNames() throws {
        // Another kind's payload beside the step's own is not read.
        let json = #"""
            {"flowId":"f","kind":"enterTotp","enterTotp":{"digits":6,"period":30,"purpose":"secondFactor",
            "attemptsRemaining":4},"enterCode":{"destination":"x","codeLength":6,"expiresAt":"2026-11-24T00:00:00Z",
            "resendAt":"2026-11-24T00:00:00Z","channel":"email","attemptsRemaining":5},"actions":[],"links":[],
            "messages":[],"meta":{"traceId":"t"}}
            """#
        let step = try WireCoding.makeDecoder().decode(Step.self, from: Data(json.utf8))
        #expect(step.payload == .enterTotp(EnterTotpPayload(digits: 6, period: 30, purpose: .secondFactor, attemptsRemaining: 4)))
        #expect(step.payload.enterCode == nil)
        let encoded = try JSONSerialization.jsonObject(with: WireCoding.makeEncoder().encode(step)) as! [String: Any]
        #expect(encoded["kind"] as? String == "enterTotp")
        #expect(encoded["enterTotp"] != nil)
        #expect(encoded["enterCode"] == nil)

        // A known kind without its payload, or with null, is a step without one.
        for body in [#""kind":"enterCode""#, #""kind":"enterCode","enterCode":null"#] {
            let bare = try WireCoding.makeDecoder().decode(
                Step.self, from: Data(#"{"flowId":"f",\#(body),"meta":{"traceId":"t"}}"#.utf8))
            #expect(bare.payload == .none(.enterCode))
            #expect(bare.kind == .enterCode)
            let again = try JSONSerialization.jsonObject(with: WireCoding.makeEncoder().encode(bare)) as! [String: Any]
            #expect(again["enterCode"] == nil)
        }

        // A payload that is there but malformed is an error, not a silent step without one.
        #expect(throws: DecodingError.self) {
            try WireCoding.makeDecoder().decode(
                Step.self, from: Data(#"{"flowId":"f","kind":"enterTotp","enterTotp":{"digits":"six"},"meta":{"traceId":"t"}}"#.utf8))
        }
    }

    @Test func openValuesEncodeAsTheirBareString() throws {
        let encoder = JSONEncoder()
        #expect(String(decoding: try encoder.encode(AuthenticationMethod(rawValue: "passkey")), as: UTF8.self) == #""passkey""#)
        #expect(String(decoding: try encoder.encode([MethodPurpose.secondFactor]), as: UTF8.self) == #"["secondFactor"]"#)
        let decoded = try JSONDecoder().decode([PasswordPurpose].self, from: Data(#"["change","rotate"]"#.utf8))
        #expect(decoded == [.change, PasswordPurpose(rawValue: "rotate")])
        #expect("\(ProblemCode.weakPassword)" == "weak_password")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StepKind.self, from: Data("42".utf8)) }
    }

    @Test func startRequest() throws {
        let request = StartFlowRequest(
            flowType: .signin, identifier: "a@example.com", codeChallenge: "c", startToken: Sensitive("s"),
            inviteCode: Sensitive("i"))
        #expect(try roundTrip(request) == request)
    }

    @Test func problemDocument() throws {
        let problem = Problem(
            code: .invalidCode, status: 400, title: "Wrong code", detail: "Try again.", action: .retryInput,
            retryable: false, retryAt: date, retryAfterSeconds: 30, attemptsRemaining: 3,
            invalidFields: [InvalidField(name: "code", reason: "Bad")], traceID: "t")
        #expect(try roundTrip(problem) == problem)
        let data = try WireCoding.makeEncoder().encode(problem)
        let object = try JSONSerialization.jsonObject(with: data) as! [String: Any]
        #expect(object["type"] as? String == "urn:keyway:problem:invalid_code")
        #expect(object["code"] as? String == "invalid_code")
        #expect(object["action"] as? String == "retryInput")
        #expect(object["status"] as? Int == 400)
        #expect(object["retryAt"] as? String == "2026-11-22T07:48:02.125Z")
    }

    @Test func unknownProblemActionDecodesAsAbort() throws {
        let json = #"{"type":"t","title":"x","status":400,"detail":"d","code":"c","action":"teleport","retryable":false}"#
        #expect(try WireCoding.makeDecoder().decode(Problem.self, from: Data(json.utf8)).action == .abort)
    }

    @Test func tokenResponseUsesOAuthNames() throws {
        let response = TokenResponse(
            accessToken: Sensitive("a"), tokenType: "Bearer", expiresIn: 900, idToken: Sensitive("i"),
            refreshToken: Sensitive("r"), scope: "openid")
        #expect(try roundTrip(response) == response)
        let text = String(decoding: try JSONEncoder().encode(response), as: UTF8.self)
        #expect(text.contains("\"access_token\"") && text.contains("\"expires_in\"") && text.contains("\"id_token\""))
    }

    @Test func discoveryAndKeysAndOutbox() throws {
        let keySet = JSONWebKeySet(keys: [JSONWebKey(kty: "EC", kid: "k", use: "sig", alg: "ES256", crv: "P-256", x: "x", y: "y")])
        #expect(try roundTrip(keySet) == keySet)
        let outbox = OutboxListing(messages: [OutboxMessage(channel: .email, to: "a@b.co", code: "1", body: "b", sentAt: date)])
        #expect(try roundTrip(outbox) == outbox)
        let error = OAuthErrorResponse(error: "invalid_grant", errorDescription: "no")
        #expect(try roundTrip(error) == error)
    }

    @Test(arguments: [
        ("2026-11-22T07:48:02Z", 1_795_333_682.0),
        ("2026-11-22T07:48:02.5Z", 1_795_333_682.5),
        ("2026-11-22T09:48:02+02:00", 1_795_333_682.0),
        ("1970-01-01T00:00:00Z", 0.0),
        ("2000-02-29T12:00:00Z", 951_825_600.0),
    ])
    func parsesTimestamps(text: String, seconds: Double) {
        #expect(WireCoding.parseTimestamp(text)?.timeIntervalSince1970 == seconds)
    }

    @Test func rejectsBadTimestamps() {
        for text in [
            "2026-13-01T00:00:00Z", "2026-11-22 07:48:02Z", "yesterday", "2026-11-22T07:48:02", "",
            "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "1900-02-29T00:00:00Z", "2026-02-31T12:00:00Z",
        ] {
            #expect(WireCoding.parseTimestamp(text) == nil)
        }
    }

    @Test func formatsTimestamps() {
        #expect(WireCoding.formatTimestamp(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(WireCoding.formatTimestamp(date) == "2026-11-22T07:48:02.125Z")
    }
}
