/// One reply of an SMTP server (RFC 5321 §4.2): a three-digit code and the text of its lines.
///
/// A multi-line reply repeats the code on every line, with `-` after it on all but the last
/// (`250-relay.example.com`, `250-STARTTLS`, `250 AUTH PLAIN LOGIN`).
struct SMTPReply: Sendable, Equatable {
    /// The reply code, 200…599.
    var code: Int
    /// The text of each line, after the code and its separator (may be empty).
    var lines: [String]

    /// `2xx`: the command was accepted.
    var isPositive: Bool { (200...299).contains(code) }
    /// `3xx`: the server waits for more (the message after `DATA`, an `AUTH` response).
    var isIntermediate: Bool { (300...399).contains(code) }
    /// `4xx`: refused for now; the same command may succeed later.
    var isTransient: Bool { (400...499).contains(code) }
    /// `5xx`: refused; repeating the command will not help.
    var isPermanent: Bool { (500...599).contains(code) }

    /// The EHLO keywords the reply advertises, upper-cased, each with its parameters
    /// (`["STARTTLS": [], "AUTH": ["PLAIN", "LOGIN"], "SIZE": ["35882577"]]`). The first line
    /// is the server's greeting, not an extension.
    var extensions: [String: [String]] {
        var found: [String: [String]] = [:]
        for line in lines.dropFirst() {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            guard let keyword = words.first else { continue }
            found[keyword.uppercased()] = words.dropFirst().map { $0.uppercased() }
        }
        return found
    }
}

/// Turns the bytes an SMTP server sends into replies, one complete reply at a time, within limits
/// so a server that talks too much cannot exhaust memory.
///
/// Lines end in CRLF (a bare LF is accepted too). Each line is `CODE SP text`, `CODE - text` or a
/// bare `CODE`; a line that is none of these, a code that changes within one reply, a line
/// longer than ``maximumLineLength`` or a reply of more than ``maximumLines`` lines is a protocol
/// error.
struct SMTPReplyParser: Sendable {
    /// Why the bytes are not SMTP replies.
    enum Failure: Error, Equatable {
        /// A line that is not `CODE[SP|-]text`, or a continuation with another code.
        case malformed
        /// A line, or a reply, too long.
        case tooLong
    }

    /// The longest line accepted, CRLF included. RFC 5321 §4.5.3.1.5 allows 512 octets; servers
    /// exceed it in practice, so this is more generous.
    static let maximumLineLength = 2048
    /// The most lines one reply may have.
    static let maximumLines = 128

    private var pending: [UInt8] = []
    private var lines: [String] = []
    private var code: Int?

    init() {}

    /// Whether bytes or lines of an unfinished reply are held.
    var isEmpty: Bool { pending.isEmpty && lines.isEmpty }

    /// Adds `bytes` and answers the replies they complete, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(Failure) -> [SMTPReply] {
        pending.append(contentsOf: bytes)
        var replies: [SMTPReply] = []
        var start = 0
        while let newline = pending[start...].firstIndex(of: 0x0A) {
            var end = newline
            if end > start, pending[end - 1] == 0x0D { end -= 1 }
            guard newline - start + 1 <= Self.maximumLineLength else { throw .tooLong }
            if let reply = try line(pending[start..<end]) { replies.append(reply) }
            start = newline + 1
        }
        pending.removeFirst(start)
        guard pending.count <= Self.maximumLineLength else { throw .tooLong }
        return replies
    }

    /// Takes one line; answers the reply it completes, if it does.
    private mutating func line(_ bytes: ArraySlice<UInt8>) throws(Failure) -> SMTPReply? {
        let digits = bytes.prefix(3)
        guard digits.count == 3, digits.allSatisfy({ (0x30...0x39).contains($0) }),
            let first = digits.first, (0x32...0x35).contains(first)
        else { throw .malformed }
        let lineCode = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        if let code, code != lineCode { throw .malformed }
        code = lineCode
        let rest = bytes.dropFirst(3)
        let separator = rest.first
        guard separator == nil || separator == 0x20 || separator == 0x2D else { throw .malformed }
        lines.append(String(decoding: rest.dropFirst(), as: UTF8.self))
        guard lines.count <= Self.maximumLines else { throw .tooLong }
        guard separator != 0x2D else { return nil }
        let reply = SMTPReply(code: lineCode, lines: lines)
        lines = []
        code = nil
        return reply
    }
}
