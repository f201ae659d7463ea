import Testing

@testable import KeywayServer

@Suite("SMTP replies: parsing, multi-line replies, limits")
struct SMTPReplyParserTests {
    @Test func aSingleLineReply() throws {
        var parser = SMTPReplyParser()
        let replies = try parser.feed(Array("220 relay.example.com ESMTP ready\r\n".utf8))
        #expect(replies == [SMTPReply(code: 220, lines: ["relay.example.com ESMTP ready"])])
        #expect(parser.isEmpty)
    }

    @Test func aMultiLineReplyAndItsExtensions() throws {
        var parser = SMTPReplyParser()
        let text = "250-relay.example.com greets you\r\n250-PIPELINING\r\n250-SIZE 35882577\r\n250-STARTTLS\r\n250 AUTH plain LOGIN\r\n"
        let reply = try #require(try parser.feed(Array(text.utf8)).first)
        #expect(reply.code == 250)
        #expect(reply.lines.count == 5)
        #expect(reply.isPositive)
        #expect(reply.extensions["STARTTLS"] == [])
        #expect(reply.extensions["AUTH"] == ["PLAIN", "LOGIN"])
        #expect(reply.extensions["SIZE"] == ["35882577"])
        #expect(reply.extensions["RELAY.EXAMPLE.COM"] == nil, "the first line is the greeting")
    }

    @Test func bytesArriveInPiecesAndSeveralRepliesInOneRead() throws {
        var parser = SMTPReplyParser()
        let text = Array("250-first\r\n250 second\r\n354 go ahead\r\n221 bye\n".utf8)
        var replies: [SMTPReply] = []
        for byte in text.prefix(15) { replies += try parser.feed([byte]) }
        #expect(replies.isEmpty)
        #expect(!parser.isEmpty)
        replies += try parser.feed(text.dropFirst(15))
        #expect(replies.map(\.code) == [250, 354, 221])
        #expect(replies[0].lines == ["first", "second"])
        #expect(replies[2].lines == ["bye"], "a bare LF ends a line too")
        #expect(parser.isEmpty)
    }

    @Test func aBareCodeAndTheClassesOfReplies() throws {
        var parser = SMTPReplyParser()
        let replies = try parser.feed(Array("250\r\n451 4.3.0 later\r\n535 5.7.8 no\r\n334 VXNlcm5hbWU6\r\n".utf8))
        #expect(replies.map(\.code) == [250, 451, 535, 334])
        #expect(replies[0].lines == [""])
        #expect(replies[1].isTransient && !replies[1].isPermanent)
        #expect(replies[2].isPermanent)
        #expect(replies[3].isIntermediate)
    }

    @Test func malformedRepliesAreRefused() {
        for text in ["hello\r\n", "25 short\r\n", "250x bad separator\r\n", "650 no such class\r\n", "250-a\r\n251 b\r\n", "\r\n"] {
            var parser = SMTPReplyParser()
            #expect(throws: SMTPReplyParser.Failure.malformed, "\(text.debugDescription)") {
                try parser.feed(Array(text.utf8))
            }
        }
    }

    @Test func longLinesAndEndlessRepliesAreRefused() {
        var long = SMTPReplyParser()
        #expect(throws: SMTPReplyParser.Failure.tooLong) {
            try long.feed(Array(("250 " + String(repeating: "x", count: SMTPReplyParser.maximumLineLength) + "\r\n").utf8))
        }
        var unterminated = SMTPReplyParser()
        #expect(throws: SMTPReplyParser.Failure.tooLong) {
            try unterminated.feed(Array(repeating: UInt8(ascii: "x"), count: SMTPReplyParser.maximumLineLength + 1))
        }
        var endless = SMTPReplyParser()
        #expect(throws: SMTPReplyParser.Failure.tooLong) {
            try endless.feed(Array(String(repeating: "250-more\r\n", count: SMTPReplyParser.maximumLines + 1).utf8))
        }
    }

    @Test func failuresMapToOutcomesWithoutReplyText() {
        #expect(SMTPFailure.refused(.rcptTo, code: 451).outcome == .retryable("the SMTP relay refused the recipient for now (451)"))
        #expect(SMTPFailure.refused(.rcptTo, code: 550).outcome == .permanent("the SMTP relay refused the recipient (550)"))
        #expect(SMTPFailure.refused(.auth, code: 535).outcome == .permanent("the SMTP relay refused the credentials (535)"))
        #expect(SMTPFailure.refused(.auth, code: 454).outcome == .retryable("the SMTP relay refused the credentials for now (454)"))
        #expect(SMTPFailure.refused(.greeting, code: 421).outcome == .retryable("the SMTP relay refused the connection for now (421)"))
        #expect(SMTPFailure.unreachable.outcome == .retryable("the SMTP relay could not be reached"))
        #expect(SMTPFailure.timedOut(.message).outcome == .retryable("the SMTP relay did not answer in time (message)"))
        #expect(SMTPFailure.closed(.ehlo).outcome == .retryable("the SMTP relay closed the connection (ehlo)"))
        #expect(SMTPFailure.startTLSNotOffered.outcome == .permanent("the SMTP relay does not offer STARTTLS, which is required"))
        if case .permanent = SMTPFailure.tlsHandshakeFailed.outcome {} else { Issue.record("a handshake failure is permanent") }
        if case .permanent = SMTPFailure.invalidMessage(.headerInjection(field: "Subject")).outcome {} else {
            Issue.record("a header injection is permanent")
        }
    }
}
