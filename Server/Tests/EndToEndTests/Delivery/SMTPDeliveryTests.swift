import Foundation
@testable import Keyway
import KeywayProtocol
import KeywayServer
import KeywayTestSupport
import Testing

/// Email through the server's SMTP relay, against a real SMTP server (aiosmtpd in a child
/// process): STARTTLS, implicit TLS and plain loopback, AUTH PLAIN and LOGIN, a relay that refuses
/// for now and then accepts, permanent refusals that become dead letters, and the project's own
/// sender and templates.
@Suite("Email through an SMTP relay")
struct SMTPDeliveryTests {
    static let user = "keyway-relay"
    static let password = "relay-password-Zq7!"

    /// The relay settings for `relay`, trusting its CA.
    static func settings(
        _ relay: SMTPTestRelay, security: SMTPRelayConfiguration.Security = .starttls, password: String? = password,
        trust: Bool = true
    ) -> SMTPRelayConfiguration {
        var settings = SMTPRelayConfiguration(
            host: "127.0.0.1", port: relay.port, security: security, username: password == nil ? nil : user,
            password: password.map { Sensitive($0) }, sender: EmailSender(address: "no-reply@keyway.test", name: "Keyway"),
            heloName: "keyway.test")
        settings.trustRootsPEM = trust ? relay.caPEM : nil
        settings.timeoutSeconds = 20
        return settings
    }

    /// A server in dev mode with the admin credential, sending email through `smtp`.
    static func server(
        _ smtp: SMTPRelayConfiguration, clock: ManualClock = ManualClock(), limits: FlowLimits = FlowLimits()
    ) async throws -> TestServer {
        try await TestServer.start(clock: clock, limits: limits, adminToken: testAdminToken, smtp: smtp)
    }

    /// The SDK, waiting up to two minutes for an answer: a flow's start waits for the relay (its
    /// retries included) up to the server's delivery patience, which a loaded machine stretches.
    static func sdk(_ server: TestServer, clock: ManualClock) throws -> KeywayClient {
        var options = KeywayOptions(completedSignIns: .handOver, transport: URLSessionTransport.patient, clock: clock)
        options.transport = URLSessionTransport(timeout: 120)
        return try KeywayClient(configID: TestServer.configId, baseURL: server.baseURL, options: options)
    }

    /// The dead letters of the test application's project, as the admin API lists them.
    static func deadLetters(_ server: TestServer) async throws -> [[String: Any]] {
        let dead = try await server.admin("GET", "/admin/dead-letters?configId=\(TestServer.configId)")
        return dead.json["deadLetters"] as? [[String: Any]] ?? []
    }

    @Test func aSignInCodeArrivesOverSTARTTLSWithAuthAndCompletesTheSignIn() async throws {
        try await withTestServer(SMTPTestRelay.start(tls: "starttls", auth: "\(Self.user):\(Self.password)")) { relay in
            let clock = ManualClock()
            try await withTestServer(Self.server(Self.settings(relay), clock: clock)) { server in
                let keyway = try Self.sdk(server, clock: clock)
                await keyway.flow.start(identifier: "ada@example.com")
                #expect(keyway.flow.currentUpdate.enterCode?.channel == .email, "\(keyway.flow.currentUpdate)")

                let message = try #require(try await relay.waitForMessages(1).first)
                #expect(message.tls)
                #expect(message.login == Self.user)
                #expect(message.mailFrom == "no-reply@keyway.test")
                #expect(message.recipients == ["ada@example.com"])
                #expect(message.field("from_name") == "Keyway")
                #expect(message.field("from_address") == "no-reply@keyway.test")
                #expect(message.field("to") == "ada@example.com")
                #expect(message.field("subject") == "Your sign-in code")
                #expect(message.field("content_type") == "text/plain")
                #expect(message.field("charset") == "utf-8")
                #expect(message.field("transfer_encoding") == "quoted-printable")
                #expect(message.field("message_id")?.hasSuffix("@keyway.test>") == true)
                #expect(message.field("date")?.hasSuffix("+0000") == true)
                #expect((message.parsed["defects"] as? [String])?.isEmpty == true, "\(message.parsed)")
                #expect(message.data.contains("Auto-Submitted: auto-generated\r\n"))

                // The code from the relay completes the sign-in; the dev outbox saw nothing.
                await keyway.flow.submitCode(try #require(message.code))
                #expect(keyway.flow.currentUpdate.completion != nil, "\(keyway.flow.currentUpdate)")
                #expect(try await server.outbox(to: "ada@example.com").isEmpty)
                #expect(try await server.rowCount("delivery_outbox WHERE status = 'delivered'") == 1)

                // Neither the code nor the password reached the server's log.
                let logs = server.logs.all.joined(separator: "\n")
                #expect(!logs.contains(try #require(message.code)))
                #expect(!logs.contains(Self.password))
                #expect(logs.contains("email goes through the SMTP relay"))
            }
        }
    }

    @Test func aRelayThatRefusesForNowIsRetriedThenDelivers() async throws {
        try await withTestServer(SMTPTestRelay.start(auth: "\(Self.user):\(Self.password)", refuseFirst: 1, refuseCode: 451)) {
            relay in
            let clock = ManualClock()
            // A busy machine may take seconds for the second attempt's TLS session: the request
            // waits for it generously.
            var limits = FlowLimits()
            limits.deliveryPatience = .seconds(30)
            try await withTestServer(Self.server(Self.settings(relay), clock: clock, limits: limits)) { server in
                let keyway = try Self.sdk(server, clock: clock)
                // The first attempt is refused with 451; the worker retries once its backoff has
                // passed on the server's clock, which moves on while the request waits (slowly
                // enough that the code is still valid when the request ends).
                let ticking = Task {
                    while !Task.isCancelled {
                        clock.advance(by: 1)
                        try await Task.sleep(for: .milliseconds(100))
                    }
                }
                await keyway.flow.start(identifier: "retry@example.com")
                ticking.cancel()
                #expect(keyway.flow.currentUpdate.enterCode?.channel == .email, "\(keyway.flow.currentUpdate)")
                #expect(relay.refusals == 1)
                let message = try #require(try await relay.waitForMessages(1).first)
                #expect(
                    try await server.rowCount("delivery_outbox WHERE status = 'delivered' AND attempts = 2") == 1)
                await keyway.flow.submitCode(try #require(message.code))
                #expect(keyway.flow.currentUpdate.completion != nil)
                #expect(try await Self.deadLetters(server).isEmpty)
            }
        }
    }

    @Test func aRecipientRefusedPermanentlyBecomesADeadLetterWithoutARetry() async throws {
        try await withTestServer(SMTPTestRelay.start(auth: "\(Self.user):\(Self.password)", refuseFirst: 100, refuseCode: 550)) {
            relay in
            let clock = ManualClock()
            try await withTestServer(Self.server(Self.settings(relay), clock: clock)) { server in
                let keyway = try Self.sdk(server, clock: clock)
                await keyway.flow.start(identifier: "nobody@example.com")
                let problem = try #require(keyway.flow.currentUpdate.errorInfo)
                #expect(problem.code == .deliveryFailed)
                #expect(relay.refusals == 1, "a permanent refusal is not retried")
                #expect(relay.messages.isEmpty)
                let letters = try await Self.deadLetters(server)
                #expect(letters.count == 1)
                let reason = try #require(letters.first?["lastError"] as? String)
                #expect(reason.hasPrefix("the SMTP relay refused the recipient (550)"), "\(reason)")
                #expect(!reason.contains("Mailbox unavailable"), "the relay's reply text is not kept")
            }
        }
    }

    @Test func aWrongPasswordIsAPermanentFailureWithAClearReason() async throws {
        try await withTestServer(SMTPTestRelay.start(auth: "\(Self.user):\(Self.password)")) { relay in
            let clock = ManualClock()
            try await withTestServer(Self.server(Self.settings(relay, password: "not-the-password"), clock: clock)) { server in
                let keyway = try Self.sdk(server, clock: clock)
                await keyway.flow.start(identifier: "ada@example.com")
                #expect(keyway.flow.currentUpdate.errorInfo?.code == .deliveryFailed)
                let attempts = relay.events.filter { $0["event"] as? String == "auth" }
                #expect(attempts.count == 1)
                #expect(attempts.first?["success"] as? Bool == false)
                let reason = try #require(try await Self.deadLetters(server).first?["lastError"] as? String)
                #expect(reason.hasPrefix("the SMTP relay refused the credentials (535)"), "\(reason)")
                #expect(!server.logs.all.joined().contains("not-the-password"))
            }
        }
    }

    @Test func startTLSRequiredButNotOfferedSendsNothing() async throws {
        try await withTestServer(SMTPTestRelay.start(tls: "none")) { relay in
            let clock = ManualClock()
            try await withTestServer(Self.server(Self.settings(relay, password: nil), clock: clock)) { server in
                let keyway = try Self.sdk(server, clock: clock)
                await keyway.flow.start(identifier: "ada@example.com")
                #expect(keyway.flow.currentUpdate.errorInfo?.code == .deliveryFailed)
                #expect(relay.messages.isEmpty)
                let reason = try #require(try await Self.deadLetters(server).first?["lastError"] as? String)
                #expect(reason.hasPrefix("the SMTP relay does not offer STARTTLS, which is required"), "\(reason)")
            }
        }
    }

    @Test func anUntrustedCertificateFailsTheHandshake() async throws {
        try await withTestServer(SMTPTestRelay.start(tls: "tls")) { relay in
            let clock = ManualClock()
            try await withTestServer(Self.server(Self.settings(relay, security: .tls, password: nil, trust: false), clock: clock)) {
                server in
                let keyway = try Self.sdk(server, clock: clock)
                await keyway.flow.start(identifier: "ada@example.com")
                #expect(keyway.flow.currentUpdate.errorInfo?.code == .deliveryFailed)
                #expect(relay.messages.isEmpty)
                let reason = try #require(try await Self.deadLetters(server).first?["lastError"] as? String)
                #expect(reason.hasPrefix("the TLS handshake with the SMTP relay failed"), "\(reason)")
            }
        }
    }

    @Test func implicitTLSWithAuthLogin() async throws {
        try await withTestServer(SMTPTestRelay.start(tls: "tls", auth: "\(Self.user):\(Self.password)", mechanisms: "LOGIN")) {
            relay in
            let clock = ManualClock()
            try await withTestServer(Self.server(Self.settings(relay, security: .tls), clock: clock)) { server in
                let keyway = try Self.sdk(server, clock: clock)
                await keyway.flow.start(identifier: "login@example.com")
                let message = try #require(try await relay.waitForMessages(1).first)
                #expect(message.tls)
                #expect(message.login == Self.user)
                #expect(relay.events.contains { $0["event"] as? String == "auth" && $0["mechanism"] as? String == "LOGIN" })
                await keyway.flow.submitCode(try #require(message.code))
                #expect(keyway.flow.currentUpdate.completion != nil)
            }
        }
    }

    @Test func plainSMTPToALoopbackRelay() async throws {
        try await withTestServer(SMTPTestRelay.start(tls: "none", auth: "\(Self.user):\(Self.password)")) { relay in
            let clock = ManualClock()
            try await withTestServer(Self.server(Self.settings(relay, security: .none), clock: clock)) { server in
                let keyway = try Self.sdk(server, clock: clock)
                await keyway.flow.start(identifier: "plain@example.com")
                let message = try #require(try await relay.waitForMessages(1).first)
                #expect(!message.tls)
                #expect(message.login == Self.user)
                await keyway.flow.submitCode(try #require(message.code))
                #expect(keyway.flow.currentUpdate.completion != nil)
            }
        }
    }

    @Test func aNonASCIIAddressGoesWithSMTPUTF8OrNotAtAll() async throws {
        try await withTestServer(SMTPTestRelay.start(auth: "\(Self.user):\(Self.password)", smtpUTF8: true)) { relay in
            let clock = ManualClock()
            try await withTestServer(Self.server(Self.settings(relay), clock: clock)) { server in
                let keyway = try Self.sdk(server, clock: clock)
                await keyway.flow.start(identifier: "zoé@exemple.fr")
                let message = try #require(try await relay.waitForMessages(1).first)
                #expect(message.recipients == ["zoé@exemple.fr"])
                #expect(message.field("to") == "zoé@exemple.fr")
                await keyway.flow.submitCode(try #require(message.code))
                #expect(keyway.flow.currentUpdate.completion != nil)
            }
        }
        try await withTestServer(SMTPTestRelay.start(auth: "\(Self.user):\(Self.password)")) { relay in
            let clock = ManualClock()
            try await withTestServer(Self.server(Self.settings(relay), clock: clock)) { server in
                let keyway = try Self.sdk(server, clock: clock)
                await keyway.flow.start(identifier: "zoé@exemple.fr")
                #expect(keyway.flow.currentUpdate.errorInfo?.code == .deliveryFailed)
                let reason = try #require(try await Self.deadLetters(server).first?["lastError"] as? String)
                #expect(reason.hasPrefix("the address is not ASCII and the SMTP relay does not offer SMTPUTF8"), "\(reason)")
            }
        }
    }

    @Test func theProjectsSenderAndTemplatesShapeTheMessage() async throws {
        try await withTestServer(SMTPTestRelay.start(auth: "\(Self.user):\(Self.password)")) { relay in
            let clock = ManualClock()
            try await withTestServer(Self.server(Self.settings(relay), clock: clock)) { server in
                try await server.setPolicy([
                    "primaryMethods": ["emailOtp"], "flowTypes": ["signin", "signup"],
                    "delivery": [
                        "emailSender": ["address": "hello@acme.test", "name": "Acmé \"Support\""],
                        "emailTemplates": [
                            "code": [
                                "subject": "Votre code {{application}} — {{code}}",
                                "body": "Bonjour,\n.\n..leading dots stay\nVotre code : {{ code }} ({{minutes}} minutes).\n",
                            ],
                            "noAccount": ["subject": "Pas de compte {{application}}", "body": "Aucun compte n’utilise cette adresse."],
                        ],
                    ],
                ])
                let keyway = try Self.sdk(server, clock: clock)
                await keyway.flow.start(flowType: .signup, identifier: "zoe@example.com")
                let message = try #require(try await relay.waitForMessages(1).first)
                let code = try #require(message.code)
                #expect(message.mailFrom == "hello@acme.test")
                #expect(message.field("from_name") == "Acmé \"Support\"")
                #expect(message.field("from_address") == "hello@acme.test")
                #expect(message.field("subject") == "Votre code Dev application — \(code)")
                #expect(message.body == "Bonjour,\n.\n..leading dots stay\nVotre code : \(code) (10 minutes).\n")
                #expect((message.parsed["defects"] as? [String])?.isEmpty == true, "\(message.parsed)")
                #expect(message.data.contains("\r\n=?utf-8?B?") || message.data.contains("Subject: =?utf-8?B?"))
                await keyway.flow.submitCode(code)
                #expect(keyway.flow.currentUpdate.completion != nil, "\(keyway.flow.currentUpdate)")

                // An address without an account gets the application's notice.
                let other = try Self.sdk(server, clock: clock)
                await other.flow.start(flowType: .signin, identifier: "stranger@example.com")
                let notice = try #require(try await relay.waitForMessages(2).last)
                #expect(notice.field("subject") == "Pas de compte Dev application")
                #expect(notice.body == "Aucun compte n’utilise cette adresse.\n")
            }
        }
    }
}
