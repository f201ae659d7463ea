import Foundation
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Email sender and templates: policy validation, rendering")
struct EmailSettingsTests {
    private func codes(_ delivery: DeliverySettings) -> [String] {
        do {
            try ApplicationPolicy(primaryMethods: [.emailOtp], delivery: delivery).validate(devMode: false)
            return []
        } catch {
            return error.codes
        }
    }

    private func fields(_ delivery: DeliverySettings) -> [String] {
        do {
            try ApplicationPolicy(primaryMethods: [.emailOtp], delivery: delivery).validate(devMode: false)
            return []
        } catch {
            return error.problems.map(\.field)
        }
    }

    @Test func aValidSenderAndTemplatesAreAcceptedAndRoundTrip() throws {
        let delivery = DeliverySettings(
            emailSender: EmailSender(address: "hello@acme.example", name: "Acmé Support"),
            emailTemplates: EmailTemplates(
                code: EmailTemplate(subject: "{{application}} code", body: "Code: {{code}} ({{ minutes }} min)"),
                noAccount: EmailTemplate(subject: "No {{application}} account", body: "Sign up first.")))
        #expect(codes(delivery).isEmpty)
        let policy = ApplicationPolicy(primaryMethods: [.emailOtp], delivery: delivery)
        let decoded = try JSONDecoder().decode(ApplicationPolicy.self, from: try JSONEncoder().encode(policy))
        #expect(decoded == policy)
        // Policies stored before these fields existed still decode, without them.
        let old = try JSONDecoder().decode(
            ApplicationPolicy.self, from: Data(#"{"primaryMethods": ["emailOtp"], "delivery": {}}"#.utf8))
        #expect(old.delivery.emailSender == nil && old.delivery.emailTemplates == nil)
    }

    @Test func badSendersAreRefusedByField() {
        for address in ["no-at-sign", "two@@example.com", "a b@example.com", "<a@example.com>", "a@localhost", "zoé@example.com", "a@example.com\r\nBcc: x@y"] {
            #expect(codes(DeliverySettings(emailSender: EmailSender(address: address))) == ["invalid_sender_address"], "\(address)")
        }
        for name in ["", "Line\r\nBcc: x@y.z", String(repeating: "n", count: 101)] {
            #expect(
                codes(DeliverySettings(emailSender: EmailSender(address: "a@example.com", name: name))) == ["invalid_sender_name"])
        }
        #expect(fields(DeliverySettings(emailSender: EmailSender(address: "x", name: "\n"))) == [
            "delivery.emailSender.address", "delivery.emailSender.name",
        ])
    }

    @Test func badTemplatesAreRefusedByField() {
        func check(_ templates: EmailTemplates) -> ([String], [String]) {
            let delivery = DeliverySettings(emailTemplates: templates)
            return (codes(delivery), fields(delivery))
        }
        #expect(check(EmailTemplates(code: EmailTemplate(subject: "Hi", body: "no code here"))) == (
            ["template_missing_code"], ["delivery.emailTemplates.code.body"]))
        #expect(check(EmailTemplates(code: EmailTemplate(subject: "Hi\r\nBcc: x@y.z", body: "{{code}}"))) == (
            ["invalid_email_subject"], ["delivery.emailTemplates.code.subject"]))
        #expect(check(EmailTemplates(code: EmailTemplate(subject: " ", body: "{{code}}"))).0 == ["invalid_email_subject"])
        #expect(check(EmailTemplates(code: EmailTemplate(subject: String(repeating: "s", count: 201), body: "{{code}}"))).0 == [
            "invalid_email_subject"
        ])
        #expect(check(EmailTemplates(code: EmailTemplate(subject: "s", body: String(repeating: "b", count: 10_001) + "{{code}}"))).0 == [
            "invalid_email_body"
        ])
        #expect(check(EmailTemplates(code: EmailTemplate(subject: "{{user}}", body: "{{code}} {{Code}}"))) == (
            ["unknown_template_placeholder", "unknown_template_placeholder"],
            ["delivery.emailTemplates.code.subject", "delivery.emailTemplates.code.body"]))
        // The notice to an address without an account carries no code.
        #expect(check(EmailTemplates(noAccount: EmailTemplate(subject: "s", body: "{{code}} in {{minutes}}"))) == (
            ["unknown_template_placeholder", "unknown_template_placeholder"],
            ["delivery.emailTemplates.noAccount.body", "delivery.emailTemplates.noAccount.body"]))
        #expect(check(EmailTemplates(noAccount: EmailTemplate(subject: "s", body: "  \n"))).0 == ["invalid_email_body"])
        // A sign-in link's message must carry the link; it may carry the code too.
        #expect(check(EmailTemplates(signInLink: EmailTemplate(subject: "s", body: "Your code: {{code}}"))) == (
            ["template_missing_link"], ["delivery.emailTemplates.signInLink.body"]))
        #expect(check(EmailTemplates(signInLink: EmailTemplate(subject: "{{application}}", body: "{{link}} {{code}} {{minutes}}"))).0.isEmpty)
        #expect(check(EmailTemplates(code: EmailTemplate(subject: "s", body: "{{code}} {{link}}"))) == (
            ["unknown_template_placeholder"], ["delivery.emailTemplates.code.body"]))
    }

    @Test func aSignInLinkMessageCarriesTheLinkAndTheCode() {
        let link = "https://auth.example.com/link/ksl_abc"
        let standard = MessageTemplates.signInLink(link: link, code: "123456", minutes: 10, template: nil, application: "App")
        #expect(standard.body.contains("\n\(link)\n") && standard.body.contains("Or enter this code: 123456"))
        let custom = MessageTemplates.signInLink(
            link: link, code: "123456", minutes: 10,
            template: EmailTemplate(subject: "{{application}}", body: "{{link}} | {{code}} | {{minutes}}"), application: "App")
        #expect(custom == ("App", "\(link) | 123456 | 10"))
        let sms = MessageTemplates.signInLinkSMS(link: link, code: "123456", application: "App")
        #expect(sms.body == "App: sign-in code 123456. Or open \(link)")
    }

    @Test func renderingFillsPlaceholdersAndKeepsTheSubjectOnOneLine() {
        let template = EmailTemplate(subject: "{{application}}: {{code}}", body: "{{code}}\n{{ minutes }} min {{unknown}} {{code")
        let rendered = template.render(["code": "123456", "minutes": "10", "application": "Evil\r\nBcc: x@y.z"])
        #expect(rendered.subject == "Evil  Bcc: x@y.z: 123456")
        #expect(rendered.body == "123456\n10 min {{unknown}} {{code")
        #expect(EmailTemplate.placeholders(in: "{{a}}{{ b }}{{a}}") == ["a", "b"])
    }

    @Test func theServersTextsAreUsedWithoutTemplates() {
        let standard = MessageTemplates.signInCode("123456", minutes: 10)
        let chosen = MessageTemplates.signInCode("123456", minutes: 10, template: nil, application: "App")
        #expect(chosen == standard)
        let custom = MessageTemplates.signInCode(
            "123456", minutes: 10, template: EmailTemplate(subject: "{{application}}", body: "{{code}}/{{minutes}}"),
            application: "App")
        #expect(custom == ("App", "123456/10"))
        #expect(MessageTemplates.noAccount(template: nil, application: "App") == MessageTemplates.noAccount())
    }

    @Test func sendersParseFromText() {
        #expect(EmailSender(parsing: "no-reply@acme.example") == EmailSender(address: "no-reply@acme.example"))
        #expect(EmailSender(parsing: "Acme <no-reply@acme.example>") == EmailSender(address: "no-reply@acme.example", name: "Acme"))
        #expect(EmailSender(parsing: #""Acme, Inc." <a@acme.example>"#) == EmailSender(address: "a@acme.example", name: "Acme, Inc."))
        #expect(EmailSender(parsing: "Acme <not an address>") == nil)
        #expect(EmailSender(parsing: "") == nil)
    }
}
