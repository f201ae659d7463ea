import Foundation
import Testing

@testable import KeywayServer

@Suite("SMTP messages: headers, encodings, dot-stuffing, header injection")
struct SMTPMessageTests {
    static let date = Date(timeIntervalSince1970: 1_764_000_000)  // Mon, 24 Nov 2025 16:00:00 +0000

    func message(
        from: EmailSender = EmailSender(address: "no-reply@keyway.test", name: "Keyway"), to: String = "ada@example.com",
        subject: String = "Your sign-in code", body: String = "Your sign-in code is 123456."
    ) -> SMTPMessage {
        SMTPMessage(from: from, to: to, subject: subject, body: body, date: Self.date, messageId: "dlv_x@keyway.test")
    }

    func text(_ message: SMTPMessage) throws -> String {
        String(decoding: try message.encoded(), as: UTF8.self)
    }

    @Test func theHeaderOfAPlainMessage() throws {
        let text = try text(message())
        #expect(
            text == """
                From: "Keyway" <no-reply@keyway.test>\r
                To: ada@example.com\r
                Subject: Your sign-in code\r
                Date: Mon, 24 Nov 2025 16:00:00 +0000\r
                Message-ID: <dlv_x@keyway.test>\r
                MIME-Version: 1.0\r
                Content-Type: text/plain; charset=utf-8\r
                Content-Transfer-Encoding: quoted-printable\r
                Auto-Submitted: auto-generated\r
                \r
                Your sign-in code is 123456.\r

                """)
    }

    @Test func nonASCIISubjectsAndNamesAreEncodedWords() throws {
        let text = try text(message(from: EmailSender(address: "hi@acme.test", name: "Acmé"), subject: "Votre code — été"))
        #expect(text.contains("From: =?utf-8?B?\(Data("Acmé".utf8).base64EncodedString())?= <hi@acme.test>\r\n"))
        #expect(text.contains("Subject: =?utf-8?B?\(Data("Votre code — été".utf8).base64EncodedString())?=\r\n"))
        // A quote or backslash in an ASCII name stays inside the quoted string.
        let quoted = try self.text(message(from: EmailSender(address: "hi@acme.test", name: #"Acme "Support" \o/"#)))
        #expect(quoted.contains(#"From: "Acme \"Support\" \\o/" <hi@acme.test>"#))
    }

    @Test func encodedWordsStayShortAndNeverSplitACharacter() {
        let subject = String(repeating: "é€😀", count: 30)
        let words = SMTPMessage.encodedWords(subject)
        #expect(words.count > 1)
        #expect(words.allSatisfy { $0.count <= 75 })
        let decoded = words.map { word -> String in
            let base64 = word.dropFirst("=?utf-8?B?".count).dropLast(2)
            return String(decoding: Data(base64Encoded: String(base64)) ?? Data(), as: UTF8.self)
        }
        #expect(decoded.joined() == subject)
        #expect(!decoded.contains { $0.contains("\u{FFFD}") })
    }

    @Test func longASCIISubjectsAreFoldedAtSpaces() {
        let subject = Array(repeating: "word", count: 40).joined(separator: " ")
        let field = SMTPMessage.unstructured("Subject", subject)
        let lines = field.components(separatedBy: "\r\n").dropLast()
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= 78 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(lines.joined().dropFirst("Subject: ".count) == subject[...])
    }

    @Test func theBodyIsQuotedPrintableWithCRLFLines() {
        let body = "Café = 10 €\nline with trailing space \r\nold mac\rend\t\n" + String(repeating: "x", count: 100)
        let encoded = String(decoding: SMTPMessage.quotedPrintable(body), as: UTF8.self)
        #expect(
            encoded.hasPrefix(
                "Caf=C3=A9 =3D 10 =E2=82=AC\r\nline with trailing space=20\r\nold mac\r\nend=09\r\n"))
        let lines = encoded.components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.count <= SMTPMessage.maximumBodyLineLength })
        #expect(!encoded.replacingOccurrences(of: "\r\n", with: "").contains("\r") && !encoded.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        // The 100 x's come back once the soft line breaks are removed.
        #expect(encoded.replacingOccurrences(of: "=\r\n", with: "").hasSuffix(String(repeating: "x", count: 100) + "\r\n"))
    }

    @Test func qpNeverSplitsAnEscape() {
        let body = String(repeating: "a", count: 74) + "é" + String(repeating: "b", count: 80)
        let encoded = String(decoding: SMTPMessage.quotedPrintable(body), as: UTF8.self)
        for line in encoded.components(separatedBy: "\r\n") {
            #expect(line.count <= 76)
            let withoutSoftBreak = line.hasSuffix("=") ? String(line.dropLast()) : line
            #expect(!withoutSoftBreak.hasSuffix("=") && !withoutSoftBreak.dropLast().hasSuffix("="), "\(line)")
        }
        #expect(encoded.replacingOccurrences(of: "=\r\n", with: "").hasPrefix(String(repeating: "a", count: 74) + "=C3=A9b"))
    }

    @Test func dotStuffingDoublesLeadingDotsAndEndsTheData() {
        let text = Array(".first\r\nmiddle .\r\n..two\r\n.\r\nlast".utf8)
        #expect(
            String(decoding: SMTPMessage.dotStuffed(text), as: UTF8.self)
                == "..first\r\nmiddle .\r\n...two\r\n..\r\nlast\r\n.\r\n")
        #expect(String(decoding: SMTPMessage.dotStuffed(Array("a\r\n".utf8)), as: UTF8.self) == "a\r\n.\r\n")
    }

    @Test func aLineBreakInAnyHeaderValueIsRefused() {
        let injected = "Hello\r\nBcc: victim@example.com"
        #expect(throws: SMTPMessage.Failure.headerInjection(field: "Subject")) { try message(subject: injected).encoded() }
        #expect(throws: SMTPMessage.Failure.headerInjection(field: "From")) {
            try message(from: EmailSender(address: "a@b.test", name: injected)).encoded()
        }
        #expect(throws: SMTPMessage.Failure.headerInjection(field: "From")) {
            try message(from: EmailSender(address: "a@b.test\nBcc: x@y.z")).encoded()
        }
        #expect(throws: SMTPMessage.Failure.headerInjection(field: "To")) { try message(to: "ada@example.com\r\nBcc: x@y.z").encoded() }
        #expect(throws: SMTPMessage.Failure.headerInjection(field: "Subject")) { try message(subject: "bare\nLF").encoded() }
        #expect(throws: SMTPMessage.Failure.headerInjection(field: "Subject")) { try message(subject: "NUL\u{0}").encoded() }
        // Angle brackets or spaces would end the envelope's MAIL FROM:<…> and RCPT TO:<…>.
        #expect(throws: SMTPMessage.Failure.invalidAddress(field: "To")) { try message(to: "a@b.test> NOTIFY=NEVER").encoded() }
        #expect(throws: SMTPMessage.Failure.invalidAddress(field: "To")) { try message(to: "no-at-sign").encoded() }
        // The body may hold line breaks: it is not a header.
        #expect(throws: Never.self) { try message(body: "a\r\nBcc: x@y.z\n").encoded() }
    }

    @Test func theDateIsRFC5322InUTC() {
        #expect(SMTPMessage.rfc5322Date(Date(timeIntervalSince1970: 0)) == "Thu, 01 Jan 1970 00:00:00 +0000")
        #expect(SMTPMessage.rfc5322Date(Self.date) == "Mon, 24 Nov 2025 16:00:00 +0000")
    }

    @Test func nonASCIIAddressesNeedSMTPUTF8() {
        #expect(!message().needsSMTPUTF8)
        #expect(message(to: "zoé@example.com").needsSMTPUTF8)
    }
}
