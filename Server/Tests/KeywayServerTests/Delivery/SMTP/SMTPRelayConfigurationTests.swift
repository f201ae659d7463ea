import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("SMTP relay settings: URLs, security modes, credentials, masking")
struct SMTPRelayConfigurationTests {
    static let sender = EmailSender(address: "no-reply@keyway.test")

    func relay(_ url: String, _ security: SMTPRelayConfiguration.Security? = nil) throws -> SMTPRelayConfiguration {
        try SMTPRelayConfiguration(url: url, security: security, sender: Self.sender)
    }

    @Test func urlsGiveHostPortSecurityAndCredentials() throws {
        let submission = try relay("smtp://mailer:p%40ss%3Aword@smtp.example.com")
        #expect(submission.host == "smtp.example.com")
        #expect(submission.port == 587)
        #expect(submission.security == .starttls)
        #expect(submission.username == "mailer")
        #expect(submission.password?.revealed == "p@ss:word")
        let implicit = try relay("smtps://smtp.example.com")
        #expect(implicit.security == .tls && implicit.port == 465 && implicit.username == nil)
        let plain = try relay("smtp://127.0.0.1:2525", SMTPRelayConfiguration.Security.none)
        #expect(plain.security == .none && plain.port == 2525)
        #expect(try relay("smtp://[::1]:25", SMTPRelayConfiguration.Security.none).host == "::1")
    }

    @Test func badURLsAreRefused() {
        for url in ["http://smtp.example.com", "smtp://", "smtp.example.com:587", "smtp://h/path", "smtp://h?x=1"] {
            #expect(throws: ConfigurationError.self, "\(url)") { try relay(url) }
        }
        #expect(throws: ConfigurationError.self) { try relay("smtps://h", .starttls) }
    }

    @Test func plaintextGoesOnlyToLoopbackOrWithAnOptInAndNeverWithCredentialsElsewhere() throws {
        #expect(throws: Never.self) { try relay("smtp://127.0.0.1:25", SMTPRelayConfiguration.Security.none).validate() }
        #expect(throws: Never.self) { try relay("smtp://u:p@localhost:25", SMTPRelayConfiguration.Security.none).validate() }
        #expect(throws: ConfigurationError.self) { try relay("smtp://mx.example.com", SMTPRelayConfiguration.Security.none).validate() }
        var optedIn = try relay("smtp://mx.example.com", SMTPRelayConfiguration.Security.none)
        optedIn.allowPlaintext = true
        #expect(throws: Never.self) { try optedIn.validate() }
        var credentials = try relay("smtp://u:p@mx.example.com", SMTPRelayConfiguration.Security.none)
        credentials.allowPlaintext = true
        #expect(throws: ConfigurationError.self) { try credentials.validate() }
        var misplaced = try relay("smtp://mx.example.com")
        misplaced.allowPlaintext = true
        #expect(throws: ConfigurationError.self) { try misplaced.validate() }
    }

    @Test func otherSettingsAreChecked() throws {
        var relay = try relay("smtp://u:p@smtp.example.com")
        #expect(throws: Never.self) { try relay.validate() }
        relay.timeoutSeconds = 0
        #expect(throws: ConfigurationError.self) { try relay.validate() }
        relay.timeoutSeconds = 15
        relay.password = nil
        #expect(throws: ConfigurationError.self, "a user name without a password") { try relay.validate() }
        relay.password = Sensitive("p\r\nQUIT")
        #expect(throws: ConfigurationError.self) { try relay.validate() }
        relay.password = Sensitive("p")
        relay.heloName = "bad name"
        #expect(throws: ConfigurationError.self) { try relay.validate() }
        relay.heloName = "[192.0.2.1]"
        #expect(throws: Never.self) { try relay.validate() }
        relay.trustRootsPEM = "not a certificate"
        #expect(throws: ConfigurationError.self) { try relay.validate() }
        relay.trustRootsPEM = nil
        relay.sender = EmailSender(address: "not an address")
        #expect(throws: ConfigurationError.self) { try relay.validate() }
    }

    @Test func thePasswordIsNeverShown() throws {
        let relay = try relay("smtp://mailer:hunter2@smtp.example.com:2587")
        #expect(relay.description == "smtp://mailer:********@smtp.example.com:2587 (starttls)")
        #expect(!"\(relay)".contains("hunter2"))
        #expect(
            SMTPRelayConfiguration.maskingPassword(in: "smtp://mailer:hunter2@smtp.example.com:2587")
                == "smtp://mailer:********@smtp.example.com:2587")
        #expect(SMTPRelayConfiguration.maskingPassword(in: "smtps://smtp.example.com") == "smtps://smtp.example.com")
    }
}
