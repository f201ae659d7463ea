import Foundation
import Keyway
import KeywayProtocol

/// A transport that answers from a script: each request is matched by `METHOD /path` against the
/// queued answers (consumed in order, the last one repeating), and recorded.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `answers` and `recorded` are only touched under `lock`.
    private let lock = NSLock()
    private var answers: [String: [TransportResponse]] = [:]
    private var recorded: [TransportRequest] = []

    /// Queues `response` for `METHOD /path`.
    func on(_ route: String, _ response: TransportResponse) {
        lock.withLock { answers[route, default: []].append(response) }
    }

    /// Queues a step document (a JSON object) for `METHOD /path`.
    func on(_ route: String, status: Int = 200, json: String) {
        on(route, TransportResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8)))
    }

    /// Queues a problem document for `METHOD /path`.
    func on(_ route: String, problem code: String, status: Int, action: String) {
        let json = """
            {"type":"urn:keyway:problem:\(code)","title":"Refused","status":\(status),"detail":"Refused: \(code).",
             "code":"\(code)","action":"\(action)","retryable":false,"traceId":"trace-problem"}
            """
        on(route, TransportResponse(status: status, headers: ["Content-Type": "application/problem+json"], body: Data(json.utf8)))
    }

    /// Every request sent so far.
    var requests: [TransportRequest] { lock.withLock { recorded } }

    /// The requests sent to `METHOD /path`.
    func requests(to route: String) -> [TransportRequest] {
        requests.filter { "\($0.method) \($0.url.path)" == route }
    }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        let route = "\(request.method) \(request.url.path)"
        return lock.withLock {
            recorded.append(request)
            guard var queue = answers[route], !queue.isEmpty else {
                return TransportResponse(status: 404, body: Data("no route \(route)".utf8))
            }
            let response = queue.count > 1 ? queue.removeFirst() : queue[0]
            answers[route] = queue
            return response
        }
    }
}

/// Records the SDK's events.
final class RecordingEventDelegate: KeywayEventDelegate, @unchecked Sendable {
    // @unchecked: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: [KeywayEvent] = []

    func keyway(_ keyway: KeywayClient, didEmit event: KeywayEvent) { lock.withLock { stored.append(event) } }

    var events: [KeywayEvent] { lock.withLock { stored } }
}

/// Realistic step documents, as the server sends them.
enum Steps {
    static let flowId = "flw_YoSf0hkvSYthlBQoFzRBlA"
    static let base = "/v1/flows/\(flowId)"

    /// A step of `kind` with a payload (a JSON member, or `nil`) and actions (JSON objects).
    static func step(
        kind: String, payload: String?, actions: [String], flowToken: Bool = false, messages: String = "[]"
    ) -> String {
        let token = flowToken ? #""flowToken": "kft_BvETqFHAtGKYiLAViG95Uea4R-_dx2OK0TLybcLvoNA","# : ""
        let member = payload.map { #""\#(kind)": \#($0),"# } ?? ""
        return """
            {"flowId": "\(flowId)", \(token) "flowExpiresAt": "2026-11-23T07:43:21.950Z", "kind": "\(kind)",
             "stepInfo": {"id": "\(kind)", "label": "Step \(kind)"}, \(member)
             "actions": [\(actions.joined(separator: ","))],
             "links": [{"rel": "self", "href": "\(base)"}], "messages": \(messages),
             "meta": {"traceId": "5a0a01a5aebed2783c880d926726dc9b"}}
            """
    }

    static func action(_ name: String, path: String, method: String = "POST", fields: String = "[]") -> String {
        #"{"name": "\#(name)", "href": "\#(base)\#(path)", "method": "\#(method)", "label": "\#(name)", "fields": \#(fields)}"#
    }

    static let cancel = action("cancel", path: "", method: "DELETE")

    static func selectMethod(purpose: String = "primary", skippable: Bool = false, flowToken: Bool = true) -> String {
        var actions = [
            action(
                "selectMethod", path: "/method",
                fields: #"[{"name": "methodId", "type": "select", "required": true, "options": [{"value": "m_email", "label": "Email"}, {"value": "m_sms", "label": "SMS"}]}]"#),
            cancel,
        ]
        if skippable { actions.insert(action("skip", path: "/skip"), at: 1) }
        return step(
            kind: "selectMethod",
            payload: """
                {"methods": [
                  {"id": "m_email", "type": "emailOtp", "label": "Email a code to a•••@example.com", "destination": "a•••@example.com"},
                  {"id": "m_sms", "type": "smsOtp", "label": "Text a code", "destination": "+•••••••0123"},
                  {"id": "m_totp", "type": "totp", "label": "Authenticator app"}],
                 "purpose": "\(purpose)", "skippable": \(skippable)}
                """,
            actions: actions, flowToken: flowToken)
    }

    static func enterCode(channel: String = "email", flowToken: Bool = false) -> String {
        step(
            kind: "enterCode",
            payload: """
                {"channel": "\(channel)", "destination": "a•••@example.com", "codeLength": 6,
                 "expiresAt": "2026-11-23T07:38:21.950Z", "resendAt": "2026-11-23T07:28:51.950Z", "attemptsRemaining": 5}
                """,
            actions: [
                action(
                    "submitCode", path: "/code",
                    fields: #"[{"name": "code", "type": "code", "required": true, "minLength": 6, "maxLength": 6, "pattern": "^[0-9]{6}$"}]"#),
                action("resend", path: "/resend"), cancel,
            ], flowToken: flowToken)
    }

    static let totpSecret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
    static let otpauthUrl = "otpauth://totp/Keyway:ada%40example.com?secret=\(totpSecret)&issuer=Keyway&algorithm=SHA1&digits=6&period=30"

    static func setupTotp(flowToken: Bool = false) -> String {
        step(
            kind: "setupTotp",
            payload: """
                {"secret": "\(totpSecret)", "otpauthUrl": "\(otpauthUrl)", "period": 30, "digits": 6, "algorithm": "SHA1"}
                """,
            actions: [
                action("submitTotp", path: "/totp", fields: #"[{"name": "code", "type": "code", "required": true}]"#), cancel,
            ], flowToken: flowToken)
    }

    static func enterTotp() -> String {
        step(
            kind: "enterTotp", payload: #"{"digits": 6, "period": 30, "purpose": "secondFactor", "attemptsRemaining": 4}"#,
            actions: [
                action("submitTotp", path: "/totp", fields: #"[{"name": "code", "type": "code", "required": true}]"#), cancel,
            ])
    }

    static func setupSms() -> String {
        step(
            kind: "setupSms", payload: #"{"existingPhone": "+•••••••0123"}"#,
            actions: [
                action("submitPhone", path: "/phone", fields: #"[{"name": "phone", "type": "phone", "required": true}]"#), cancel,
            ])
    }

    static func enterPassword(flowToken: Bool = false) -> String {
        step(
            kind: "enterPassword", payload: #"{"purpose": "create", "minimumLength": 12}"#,
            actions: [
                action(
                    "submitPassword", path: "/password",
                    fields: #"[{"name": "password", "type": "password", "required": true, "minLength": 12}]"#),
                cancel,
            ], flowToken: flowToken)
    }

    static let formFields = """
        [{"name": "displayName", "type": "text", "required": true, "label": "Display name", "maxLength": 20},
         {"name": "country", "type": "select", "required": true, "label": "Country",
          "options": [{"value": "ch", "label": "Switzerland"}, {"value": "fr", "label": "France"}]},
         {"name": "newsletter", "type": "checkbox", "required": false, "label": "Send me news"},
         {"name": "terms", "type": "checkbox", "required": true, "label": "I accept the terms"},
         {"name": "zip", "type": "text", "required": false, "label": "Postcode", "pattern": "^[0-9]{4}$"},
         {"name": "formVersion", "type": "hidden", "required": true, "value": "v3"}]
        """

    static func form(flowToken: Bool = false) -> String {
        step(
            kind: "form", payload: #"{"formId": "profile", "title": "About you"}"#,
            actions: [action("submitForm", path: "/form", fields: formFields), cancel], flowToken: flowToken)
    }

    static func manageAccount(flowToken: Bool = false) -> String {
        step(
            kind: "manageAccount",
            payload: """
                {"methods": [
                  {"type": "emailOtp", "label": "Email code", "detail": "a•••@example.com", "isSecondFactor": false},
                  {"type": "totp", "label": "Authenticator app", "isSecondFactor": true}]}
                """,
            actions: [
                action("removeTotp", path: "/account/totp", method: "DELETE"),
                action("setupSms", path: "/account/sms"), action("finish", path: "/account/finish"), cancel,
            ], flowToken: flowToken)
    }

    static let completed = """
        {"flowId": "\(flowId)", "kind": "completed", "stepInfo": {"id": "completed", "label": "Signed in"},
         "completed": {"authCode": "kac_Tgd44YspjKrw_f_hWCYceq29vTtjx9bRwhgIRNtNP7U", "expiresAt": "2026-11-23T07:29:32.065Z",
                       "session": "ses_NPFepX-u-rA5iXNOJx76xg", "newUser": false},
         "actions": [], "links": [], "messages": [], "meta": {"traceId": "1f31264ad9a9d4e8c84cc97cff7be894"}}
        """

    /// Decodes a step document as the SDK does.
    static func decode(_ json: String) throws -> Step {
        try WireCoding.makeDecoder().decode(Step.self, from: Data(json.utf8))
    }
}

/// A `Keyway` over a scripted transport. Completions are handed over unless the test asks the SDK
/// to save them (its script then answers the code redemption).
func makeKeyway(
    _ transport: ScriptedTransport, policy: PrimaryMethodSelectionPolicy = .manual, logging: KeywayLogging = KeywayLogging(),
    completedSignIns: CompletedSignIns = .handOver
) throws -> KeywayClient {
    try KeywayClient(
        configID: "cfg_test", baseURL: URL(string: "https://auth.example.com")!,
        options: KeywayOptions(
            completedSignIns: completedSignIns, primaryMethodSelectionPolicy: policy, transport: transport, logging: logging))
}

/// Collects every update of a flow from now on.
final class UpdateRecorder: @unchecked Sendable {
    // @unchecked: `stored` is only touched under `lock`.
    private let lock = NSLock()
    private var stored: [FlowUpdate] = []

    init(_ flow: KeywayFlow) {
        flow.onUpdate = { [weak self] update in self?.record(update) }
    }

    private func record(_ update: FlowUpdate) { lock.withLock { stored.append(update) } }

    var updates: [FlowUpdate] { lock.withLock { stored } }
}

extension FlowUpdate {
    /// The prompt, when this is one.
    var prompt: Prompt? {
        if case .prompt(_, let prompt) = self { return prompt }
        return nil
    }

    /// The error code, when this is an error.
    var errorCode: ProblemCode? {
        if case .error(let code, _, _, _, _, _) = self { return code }
        return nil
    }
}

extension TransportRequest {
    /// The JSON body as a dictionary of strings.
    var jsonBody: [String: String]? {
        guard let body else { return nil }
        return try? JSONDecoder().decode([String: String].self, from: body)
    }
}
