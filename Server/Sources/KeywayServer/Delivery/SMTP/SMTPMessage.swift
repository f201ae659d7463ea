import Foundation

/// An email as it is handed to an SMTP relay: the RFC 5322 header and a plain-text body,
/// `text/plain; charset=utf-8` in quoted-printable (RFC 2045), every line ending in CRLF.
///
/// No value can add a header: a line break (or any other control character) in a header value
/// — the sender's name, the subject, an address — makes ``encoded()`` throw instead.
struct SMTPMessage: Sendable {
    /// Why a message cannot be written.
    enum Failure: Error, Equatable {
        /// A header value holds a line break or another control character.
        case headerInjection(field: String)
        /// An address is not one the envelope and header can carry.
        case invalidAddress(field: String)
    }

    /// `From`, and the envelope sender.
    var from: EmailSender
    /// `To`, and the envelope recipient.
    var to: String
    var subject: String
    var body: String
    /// `Date`.
    var date: Date
    /// `Message-ID`, without its angle brackets: `left@right`.
    var messageId: String

    /// The longest line of the encoded body, soft line breaks excluded (RFC 2045 §6.7).
    static let maximumBodyLineLength = 76

    /// The message text: header, a blank line, the body; CRLF line endings, not dot-stuffed.
    func encoded() throws(Failure) -> [UInt8] {
        try Self.checkAddress(from.address, field: "From")
        try Self.checkAddress(to, field: "To")
        for (field, value) in [("From", from.name ?? ""), ("Subject", subject), ("Message-ID", messageId)]
        where Self.hasControlCharacter(value) {
            throw .headerInjection(field: field)
        }
        guard !messageId.contains(where: { $0 == "<" || $0 == ">" || $0 == " " }) else {
            throw .headerInjection(field: "Message-ID")
        }
        var header = ""
        let sender = from.name.map { "\(Self.phrase($0)) <\(from.address)>" } ?? from.address
        header += "From: \(sender)\r\n"
        header += "To: \(to)\r\n"
        header += Self.unstructured("Subject", subject)
        header += "Date: \(Self.rfc5322Date(date))\r\n"
        header += "Message-ID: <\(messageId)>\r\n"
        header += "MIME-Version: 1.0\r\n"
        header += "Content-Type: text/plain; charset=utf-8\r\n"
        header += "Content-Transfer-Encoding: quoted-printable\r\n"
        header += "Auto-Submitted: auto-generated\r\n"
        header += "\r\n"
        return Array(header.utf8) + Self.quotedPrintable(body)
    }

    /// Whether the message needs the relay's SMTPUTF8 extension (RFC 6531): an address that is
    /// not ASCII.
    var needsSMTPUTF8: Bool { !from.address.utf8.allSatisfy { $0 < 0x80 } || !to.utf8.allSatisfy { $0 < 0x80 } }

    // MARK: Header values

    static func hasControlCharacter(_ value: String) -> Bool {
        value.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// Refuses an address with a control character, a space or brackets (which would end the
    /// `MAIL FROM:<…>` and `RCPT TO:<…>` parameters), or without exactly one `@`.
    static func checkAddress(_ address: String, field: String) throws(Failure) {
        if hasControlCharacter(address) { throw .headerInjection(field: field) }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, address.utf8.count <= 254,
            !address.contains(where: { " <>\"\\,;:()[]".contains($0) })
        else { throw .invalidAddress(field: field) }
    }

    /// A display name: a quoted string when it is printable ASCII, else RFC 2047 encoded words.
    static func phrase(_ name: String) -> String {
        if name.utf8.allSatisfy({ (0x20...0x7E).contains($0) }), !name.contains("=?") {
            return "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                + "\""
        }
        return encodedWords(name).joined(separator: "\r\n ")
    }

    /// An unstructured header field (`Subject`) with its CRLF: printable ASCII as written, folded
    /// at spaces to keep lines within 78 characters where it can; anything else as RFC 2047 encoded
    /// words, one per line.
    static func unstructured(_ field: String, _ value: String) -> String {
        let plain = value.utf8.allSatisfy { (0x20...0x7E).contains($0) } && !value.contains("=?")
        guard plain else { return "\(field): " + encodedWords(value).joined(separator: "\r\n ") + "\r\n" }
        var lines: [String] = []
        var line = "\(field):"
        for word in value.split(separator: " ", omittingEmptySubsequences: false) {
            if line.count + 1 + word.count > 78, line.contains(where: { $0 != " " }), line != "\(field):" {
                lines.append(line)
                line = ""
            }
            line += " " + word
        }
        lines.append(line)
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `value` as RFC 2047 `B` encoded words in UTF-8, each at most 75 characters, never
    /// splitting a character between two words.
    static func encodedWords(_ value: String) -> [String] {
        // 45 bytes encode to 60 base64 characters; with `=?utf-8?B?` and `?=` a word has 72.
        let limit = 45
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in value {
            let bytes = Array(character.utf8)
            if !chunk.isEmpty, chunk.count + bytes.count > limit {
                words.append("=?utf-8?B?\(Data(chunk).base64EncodedString())?=")
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append("=?utf-8?B?\(Data(chunk).base64EncodedString())?=") }
        return words
    }

    /// `Mon, 24 Nov 2025 05:48:07 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(days[(parts.weekday ?? 1) - 1]), \(two(parts.day)) \(months[(parts.month ?? 1) - 1]) \(parts.year ?? 1970) "
            + "\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }

    // MARK: Body

    /// `text` in quoted-printable: its lines (any of CRLF, LF or CR ends one) each ending in CRLF,
    /// no encoded line longer than ``maximumBodyLineLength``.
    static func quotedPrintable(_ text: String) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false)
        // A final line break ends the last line; it does not start another.
        if lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        for line in lines {
            let bytes = Array(line.utf8)
            var length = 0
            for (index, byte) in bytes.enumerated() {
                let isLast = index == bytes.count - 1
                let literal = (0x21...0x7E).contains(byte) && byte != 0x3D || (byte == 0x20 || byte == 0x09) && !isLast
                let piece: [UInt8] = literal ? [byte] : [0x3D, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                // Room for a soft line break (`=`) unless this is the line's last piece.
                let room = isLast ? maximumBodyLineLength : maximumBodyLineLength - 1
                if length + piece.count > room {
                    output += [0x3D, 0x0D, 0x0A]
                    length = 0
                }
                output += piece
                length += piece.count
            }
            output += [0x0D, 0x0A]
        }
        return output
    }

    /// `text` (CRLF line endings) as the `DATA` command sends it: a line that starts with `.`
    /// gets another in front (RFC 5321 §4.5.2), and `CRLF . CRLF` ends it.
    static func dotStuffed(_ text: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.count + 8)
        var atLineStart = true
        for byte in text {
            if atLineStart, byte == 0x2E { output.append(0x2E) }
            output.append(byte)
            atLineStart = byte == 0x0A
        }
        if !atLineStart { output += [0x0D, 0x0A] }
        output += [0x2E, 0x0D, 0x0A]
        return output
    }
}
